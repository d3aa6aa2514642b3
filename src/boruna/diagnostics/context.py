"""What every analyzer needs to know about the file being checked."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from boruna.language import ast as A
from boruna.language.walk import preorder_by_kind

from .model import SourceLocation
from .source_text import byte_col_to_index, code_mask, split_lines


@dataclass
class CheckContext:
    """The source text (raw lines and code-masked lines), the file name and the program."""

    source: str
    file: str
    program: Optional[A.Program] = None
    lines: list[str] = field(default_factory=list)
    _masked: Optional[list[str]] = field(default=None, repr=False)
    records: dict[str, list[tuple[str, object]]] = field(default_factory=dict)
    enums: dict[str, list[tuple[str, object]]] = field(default_factory=dict)
    type_defs: dict[str, A.TypeDef] = field(default_factory=dict)
    library_functions: list[A.FnDef] = field(default_factory=list)
    cache: dict = field(default_factory=dict)     # analyses shared by several rules
    # id(fn) -> (fn, its nodes in pre-order, each node class's positions among them)
    _walks: dict = field(default_factory=dict, repr=False)
    _function_defs: Optional[dict] = field(default=None, repr=False)

    @classmethod
    def build(cls, source: str, file: str, program: Optional[A.Program] = None
              ) -> "CheckContext":
        ctx = cls(source=source, file=file, lines=split_lines(source))
        if program is not None:
            ctx.attach(program)
        return ctx

    @property
    def masked(self) -> list[str]:
        """The lines with string literals and comments blanked (`source_text.code_mask`),
        made when a rule first reads them: only a finding's fix or position needs them."""
        if self._masked is None:
            self._masked = code_mask(self.source)
        return self._masked

    def attach(self, program: A.Program) -> None:
        """Record the parsed program and index its record and enum types."""
        self.program = program
        self._function_defs = None
        for td in program.type_defs():
            if td.name in self.type_defs:
                continue            # the first definition of a name wins, as in codegen
            self.type_defs[td.name] = td
            if isinstance(td.kind, A.RecordKind):
                self.records[td.name] = list(td.kind.fields)
            else:
                self.enums[td.name] = list(td.kind.variants)

    def attach_library(self, library: A.Program) -> None:
        """Index an imported library's functions and its record and enum types (the
        user's own definitions win)."""
        self.library_functions.extend(library.functions())
        self._function_defs = None
        for td in library.type_defs():
            if td.name in self.type_defs:
                continue
            self.type_defs[td.name] = td
            if isinstance(td.kind, A.RecordKind):
                self.records[td.name] = list(td.kind.fields)
            else:
                self.enums[td.name] = list(td.kind.variants)

    def function_defs(self) -> dict[str, A.FnDef]:
        """Every function the program can call by name: the user's, then the libraries'
        (the first definition of a name wins). A new dict each time, from one made once."""
        if self._function_defs is None:
            out: dict[str, A.FnDef] = {}
            for fn in [*self.program.functions(), *self.library_functions]:
                out.setdefault(fn.name, fn)
            self._function_defs = out
        return dict(self._function_defs)

    def nodes(self, fn: A.FnDef) -> list:
        """Every node of `fn` in pre-order (`walk.iter_nodes`), walked once per check and
        shared by the analyzers."""
        return self._walked(fn)[1]

    def nodes_of(self, fn: A.FnDef, kinds) -> list:
        """The nodes of `fn` that are instances of `kinds` (a class or a tuple), in
        pre-order."""
        walked = self._walks.get(id(fn))
        if walked is None or walked[0] is not fn:
            walked = self._walked(fn)
        _fn, nodes, positions = walked
        classes = _LEAVES.get(kinds, False)
        if classes is False:
            classes = _leaf_classes(kinds)
        if classes is None:         # a class with subclasses: test every node
            return [node for node in nodes if isinstance(node, kinds)]
        if len(classes) == 1:
            found = positions.get(classes[0])
            return [] if found is None else [nodes[i] for i in found]
        merged: list[int] = []
        for cls in classes:
            merged.extend(positions.get(cls, ()))
        merged.sort()
        return [nodes[i] for i in merged]

    def _walked(self, fn: A.FnDef) -> tuple:
        """(fn, its nodes in pre-order, each node class's positions among them), from the
        one walk of `fn` made per check."""
        key = id(fn)
        found = self._walks.get(key)
        if found is None or found[0] is not fn:
            found = self._walks[key] = (fn, *preorder_by_kind(fn))
        return found

    def line_text(self, line: int) -> Optional[str]:
        """The raw text of 1-based `line`, or None when out of range."""
        if 1 <= line <= len(self.lines):
            return self.lines[line - 1]
        return None

    def masked_text(self, line: int) -> str:
        if 1 <= line <= len(self.masked):
            return self.masked[line - 1]
        return ""

    def index_of(self, line: int, col: int) -> Optional[int]:
        """0-based character index of the 1-based byte column `col` on `line`."""
        text = self.line_text(line)
        if text is None or col <= 0:
            return None
        return byte_col_to_index(text, col)

    def location(self, line: Optional[int], col: Optional[int] = None,
                 end_line: Optional[int] = None, end_col: Optional[int] = None
                 ) -> Optional[SourceLocation]:
        """A SourceLocation in this file; None when the line is unknown (0/None)."""
        if not line:
            return None
        return SourceLocation(file=self.file, line=line, col=col or None,
                              end_line=end_line or None, end_col=end_col or None)

    def span_location(self, line: int, col: int, length_bytes: int) -> Optional[SourceLocation]:
        """Location of a token of `length_bytes` bytes starting at (line, col); the end column
        is exclusive (one past the last byte), on the same line."""
        if not line:
            return None
        if not col:
            return self.location(line)
        return self.location(line, col, line, col + length_bytes)

    def byte_col(self, line: int, index: int) -> int:
        """1-based byte column of 0-based character `index` on `line`."""
        text = self.line_text(line) or ""
        return len(text[:index].encode("utf-8", "surrogatepass")) + 1


# kinds (a class or a tuple of classes) -> the same classes as a tuple when none of them has
# subclasses (a node is then one of them exactly when its own class is), else None
_LEAVES: dict = {}


def _leaf_classes(kinds) -> Optional[tuple]:
    found = _LEAVES.get(kinds, False)
    if found is False:
        classes = tuple(dict.fromkeys(kinds)) if isinstance(kinds, tuple) else (kinds,)
        found = _LEAVES[kinds] = (classes if not any(cls.__subclasses__() for cls in classes)
                                  else None)
    return found
