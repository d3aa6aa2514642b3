"""The static type checker (issue 12): type terms (`types.py`), unification (`unify.py`),
bidirectional inference over the AST (`infer.py`), capability effects (`effects.py`), the
builtin signatures it reads from `boruna.core.builtins` (`signatures.py`) and end columns
(`spans.py`)."""
