"""Inlay hints: the type the checker inferred for each `let` written without one."""
from __future__ import annotations

from dataclasses import dataclass

from boruna.language import ast as A

from .analysis import Analysis


@dataclass(frozen=True)
class InlayHint:
    """`label` to show right after (line, col)."""

    line: int
    col: int
    label: str


def inlay_hints(analysis: Analysis, start_line: int = 1, end_line: int = 1 << 30
                ) -> list[InlayHint]:
    """`: T` after the name of every unannotated `let` between the lines (inclusive) whose
    type the checker knows."""
    index, types = analysis.index, analysis.types
    if index is None or types is None:
        return []
    out = []
    for occ in index.occurrences:
        if not (start_line <= occ.line <= end_line):
            continue
        node = occ.node
        if occ.definition and isinstance(node, A.Let) and node.ty is None:
            text = types.text(node)
            if text is not None:
                out.append(InlayHint(occ.line, occ.end_col, f": {text}"))
    return out
