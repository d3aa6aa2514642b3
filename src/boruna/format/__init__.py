"""`boruna fmt`: the canonical layout of `.ax` source (docs/formatting.md).

`format_source(source, width=100) -> str` parses `source` (raising the usual `CompileError`
E001/E002 when it does not lex or parse), prints its AST with every comment in place through
the document algebra of `doc.py` (`printer.py` builds the document, `comments.py` places the
comments) and returns the text, ending in one newline. The guarantees, tested on every `.ax`
file of the repository and on random programs: the result parses to the same AST (and
compiles to the same bytecode), formatting it again changes nothing, and every comment is
kept, in order.
"""
from __future__ import annotations

from boruna.core.deep_stack import call_deep, paused_gc
from boruna.language.parser import parse_tokens

from .comments import Comments
from .doc import render
from .printer import Printer

__all__ = ["format_source", "DEFAULT_WIDTH"]

DEFAULT_WIDTH = 100


def _format(source: str, width: int) -> str:
    with paused_gc():       # the document builds no cycles: no collector passes over it
        comments = Comments(source)
        program = parse_tokens(comments.code_tokens())
        doc = Printer(comments).program_doc(program)
        text = render(doc, width)
    return text + "\n" if text else ""


def format_source(source: str, *, width: int = DEFAULT_WIDTH) -> str:
    """The canonical layout of `source` (see the module docstring); `CompileError` when it
    does not lex or parse."""
    return call_deep(_format, source, width)
