"""The shared compile-failure shape: `{"success": false, "protocol_version": 1, "errors": [E]}`.

The compiler stops at its first error, so `errors` holds exactly one entry:
`{"severity": "error", "code": "E00x", "message": ..., "line": L, "col": C}` (our compiler
knows a position for every stage; 0 means unknown).
"""
from __future__ import annotations

from boruna.service.envelope import fail


def compile_error_entry(err) -> dict:
    """One `errors[]` entry for a `CompileError`, in the seed's key order."""
    return {"severity": "error", "code": err.code, "message": err.message,
            "line": err.line, "col": err.col}


def compile_failure(err) -> dict:
    """The failure response for a `CompileError` raised before anything ran."""
    return fail(errors=[compile_error_entry(err)])
