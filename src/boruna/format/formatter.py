"""`format_source`: parse, print with the comments, lay out (see the package docstring)."""
from __future__ import annotations

from boruna.core.deep_stack import call_deep, paused_gc
from boruna.language.parser import parse_tokens

from .comments import Comments
from .doc import render
from .printer import Printer

DEFAULT_WIDTH = 100


def _format(source: str, width: int) -> str:
    with paused_gc():       # the document builds no cycles: no collector passes over it
        comments = Comments(source)
        program = parse_tokens(comments.code_tokens())
        doc = Printer(comments).program_doc(program)
        text = render(doc, width)
    return text + "\n" if text else ""


def format_source(source: str, *, width: int = DEFAULT_WIDTH) -> str:
    """The canonical layout of `source`; `CompileError` (E001/E002) when it does not lex or
    parse."""
    return call_deep(_format, source, width)
