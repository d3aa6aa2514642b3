"""MISSING_MAIN (an addition, seed example): a file with functions but neither `main` nor
any App entry function (`init`/`update`/`view`) runs whichever function comes first.
The `add_main` patch appends a `main` that calls a zero-parameter function."""
from __future__ import annotations

from typing import Optional

from boruna.language import ast as A
from boruna.language.type_text import type_text

import boruna.diagnostics.registry as R
from .context import CheckContext
from .fix import Applicability, Edit, Fix
from .model import Diagnostic

APP_FUNCTIONS = ("init", "update", "view")


def check_entry_point(ctx: CheckContext) -> list[Diagnostic]:
    functions = ctx.program.functions()
    if not functions:
        return []
    names = {fn.name for fn in functions}
    if "main" in names or names & set(APP_FUNCTIONS):
        return []
    first = functions[0]
    message = (f"no 'main' function: running this file starts at its first function "
               f"'{first.name}' (line {first.line}); add `fn main()` to make the entry "
               f"point explicit, or define init/update/view for an App")
    location = ctx.location(1, 1, 1, 1)
    diag = Diagnostic(R.MISSING_MAIN, "warning", message, location)
    patch = _add_main_patch(ctx, functions)
    if patch is not None:
        diag.fixes.append(patch)
    return [diag]


def main_source(callee: A.FnDef) -> str:
    """The text of the `main` function the patch appends."""
    ret = f" -> {type_text(callee.return_type)}" if callee.return_type is not None else ""
    return f"fn main(){ret} {{\n    {callee.name}()\n}}"


def _add_main_patch(ctx: CheckContext, functions: list[A.FnDef]) -> Optional[Fix]:
    if not ctx.lines:
        return None
    callee = next((fn for fn in functions if not fn.params), None)
    if callee is None:
        return None         # nothing to call: a stub main would only hide the problem
    if callee is functions[0]:
        applicability = Applicability.SAFE
        rationale = (f"'{callee.name}' already runs first; an explicit main that calls it "
                     "keeps the program's result")
    else:
        applicability = Applicability.UNSAFE
        rationale = (f"'{callee.name}' is the first function that takes no arguments; "
                     "main calls it")
    description = f"add `fn main()` calling '{callee.name}'"
    last = len(ctx.lines)
    old = ctx.lines[-1]
    return Fix(
        id="add_main", description=description, applicability=applicability, rationale=rationale,
        edits=[Edit(last, old, f"{old}\n\n{main_source(callee)}", ctx.file)])
