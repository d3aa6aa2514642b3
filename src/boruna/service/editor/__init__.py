"""What an editor asks about a source (the language server's use cases): one `Analysis` per
document version (`analysis.py`: diagnostics, the checked program, the inferred types, the
name index), and the queries on it: navigation (`navigation.py`: definition, references,
rename), `hover.py`, `completion.py`, `signature_help.py`, `inlay_hints.py`, `outline.py`
(document and workspace symbols), `actions.py` (the repair fixes as text edits).

Positions here are the compiler's: 1-based lines, 1-based byte columns, ends exclusive. A
shell converts them to its own (the language server: 0-based UTF-16 or UTF-8 units).
"""
