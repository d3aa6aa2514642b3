"""Whether the VM extension (`boruna._vm`, built from `_vm.pyx`) can be imported.

A checkout whose extension is not built can still compile, check and repair; a run then
fails with this one message (under the tool's own error kind) instead of an ImportError.
"""
from __future__ import annotations

from boruna.core.limits import STALE_BUILD

VM_NOT_BUILT = ("the VM extension boruna._vm is not built; build it with "
                "`pip install -e .` in the checkout")
VM_STALE = ("the VM extension boruna._vm was built from other sources (its compiled limits "
            "differ from boruna.core.limits); rebuild it with `pip install -e .` in the checkout")


def vm_missing() -> str | None:
    """`VM_NOT_BUILT` (or `VM_STALE`, for a build older than `core/limits.py`) when
    `boruna._vm` cannot be imported, else None."""
    try:
        from boruna import _vm  # noqa: F401
    except ImportError as exc:
        return VM_STALE if str(exc) == STALE_BUILD else VM_NOT_BUILT
    return None
