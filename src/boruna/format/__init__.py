"""`boruna fmt`: the canonical layout of `.ax` source (docs/formatting.md).

`format_source(source, width=100) -> str` (formatter.py) parses `source` (raising the usual `CompileError`
E001/E002 when it does not lex or parse), prints its AST with every comment in place through
the document algebra of `doc.py` (`printer.py` builds the document, `comments.py` places the
comments) and returns the text, ending in one newline. The guarantees, tested on every `.ax`
file of the repository and on generated programs: the result parses to the same AST (and
compiles to the same bytecode), formatting it again changes nothing, and every comment is
kept, in order.

For editors (edits.py): `format_edits(source, width=100) -> list[TextEdit]` (0-based lines,
whole-line replacements) and `format_range(source, start_line, end_line, width=100) -> str`
(only the changes touching lines start_line..end_line, 1-based inclusive).
"""

from __future__ import annotations

from .edits import TextEdit, format_edits, format_range
from .formatter import DEFAULT_WIDTH, format_source

__all__ = ["format_source", "format_edits", "format_range", "TextEdit", "DEFAULT_WIDTH"]
