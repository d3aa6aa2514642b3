"""Names a package resolves on first use (PEP 562), so importing it costs only the modules a
caller touches: `boruna` (its public API) and `boruna.service` (the use cases) both use this.

    __getattr__, __dir__ = lazy_names(__name__, globals(), {"name": ("module", "attr"), ...})

A value is the defining module and the attribute's name there; a plain string is the module,
the attribute having the same name. The first lookup imports the module and caches the value
in the package's globals.
"""
from __future__ import annotations

import importlib


def lazy_names(package: str, namespace: dict, table: dict):
    def __getattr__(name: str):
        try:
            where = table[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        module_name, attr = (where, name) if isinstance(where, str) else where
        value = getattr(importlib.import_module(module_name), attr)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        """The module's names plus the lazy ones, so `dir()` and completion show them."""
        return sorted(set(namespace) | set(table))

    return __getattr__, __dir__
