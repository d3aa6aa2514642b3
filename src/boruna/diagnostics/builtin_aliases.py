"""Names agents bring from other languages, mapped to the `.ax` builtin that does the job
(an addition): `trim(s)` → the string-trim builtin, `push(xs, x)` → the list-push builtin.
Used for an undefined call when no declared name is close; only offered when the call's
argument count equals the builtin's arity (checked by the caller). The names are the
`aliases` column of the builtin table (`boruna.core.builtins`).
"""
from __future__ import annotations

from typing import Optional

from boruna.core.builtins import ALIASES  # other-language name -> builtin name


def builtin_for(name: str, arity: Optional[int], arities: dict[str, int]) -> Optional[str]:
    """The builtin an other-language `name` stands for, when a call with `arity` arguments
    fits it (`arity` None: not a call, no suggestion)."""
    target = ALIASES.get(name)
    if target is None or arity is None or arities.get(target) != arity:
        return None
    return target
