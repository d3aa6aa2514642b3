"""One document version analysed: `boruna check`'s diagnostics, the checked program with its
imported libraries, and (computed on first use) the types the checker inferred per node and
the name index of the document and of each imported library file."""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Optional

from boruna.core.limits import MAX_SOURCE_BYTES
from boruna.diagnostics.model import Diagnostic, DiagnosticSet

from .index import FileIndex, Globals, build_index


@dataclass
class LibraryFile:
    """An imported library: its name, file path, source text and parsed program."""

    name: str
    path: str
    source: str
    program: object


def _deep(fn, *args):
    from boruna.core.deep_stack import call_deep

    return call_deep(fn, *args)


class Analysis:
    """Everything the editor features read for one version of one document.

    `file` is the name diagnostics carry (the document's path); `libs_dir` resolves its
    `import` lines as `boruna check --libs-dir` does. Never raises: a source that does not
    parse has its E001/E002 diagnostic and no program; one over the 1 MB source limit has
    one diagnostic saying so."""

    def __init__(self, source: str, file: str = "<source>", libs_dir=None,
                 version: Optional[int] = None):
        self.source = source
        self.file = file
        self.libs_dir = libs_dir
        self.version = version
        self.ctx = None
        self.libraries: list[LibraryFile] = []
        self._lock = threading.RLock()
        self._types = None
        self._typed = False
        self._globals: Optional[Globals] = None
        self._spans = None
        self._index: Optional[FileIndex] = None
        self._library_indexes: Optional[list[FileIndex]] = None
        size = len(source.encode("utf-8", "surrogatepass"))
        if size > MAX_SOURCE_BYTES:
            self.found = DiagnosticSet(file, [Diagnostic(
                "E002", "error", f"the file is too large to analyse ({size} bytes; the limit is "
                f"{MAX_SOURCE_BYTES} bytes)")])
            return
        from boruna.diagnostics.collector import check_source_context

        self.found, self.ctx, libraries = check_source_context(source, file, libs_dir)
        self.libraries = [LibraryFile(lib.name, lib.path, lib.source, program)
                          for lib, program in libraries]

    # ------------------------------------------------------------ the program
    @property
    def program(self):
        return None if self.ctx is None else self.ctx.program

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.found.diagnostics

    @property
    def globals(self) -> Optional[Globals]:
        """The functions and types the program can name (its own, then its libraries')."""
        if self.ctx is None:
            return None
        with self._lock:
            if self._globals is None:
                self._globals = Globals(self.ctx.function_defs(), dict(self.ctx.type_defs))
            return self._globals

    def declaring_file(self, fn) -> tuple[str, str]:
        """(file, source) of the file declaring function or type node `fn` (the document or
        one of its libraries)."""
        for lib in self.libraries:
            if any(item is fn for item in lib.program.items):
                return lib.path, lib.source
        return self.file, self.source

    # ------------------------------------------------------------ computed on first use
    @property
    def types(self):
        """The checker's `NodeTypes` for the document's functions, or None."""
        with self._lock:
            if not self._typed:
                self._typed = True
                if self.ctx is not None:
                    from boruna.diagnostics.types.node_types import node_types
                    try:
                        self._types = _deep(node_types, self.ctx)
                    except (RecursionError, MemoryError):
                        self._types = None
            return self._types

    @property
    def spans(self):
        with self._lock:
            if self._spans is None:
                from boruna.diagnostics.types.spans import Spans
                self._spans = Spans(self.source)
            return self._spans

    @property
    def index(self) -> Optional[FileIndex]:
        """The names of the document itself."""
        if self.ctx is None:
            return None
        types = self.types
        with self._lock:
            if self._index is None:
                self._index = _deep(build_index, self.program, self.spans, self.file,
                                    self.globals, types)
            return self._index

    @property
    def library_indexes(self) -> list[FileIndex]:
        """The names of each imported library file (their field reads resolved by name)."""
        if self.ctx is None:
            return []
        from boruna.diagnostics.types.spans import Spans
        with self._lock:
            if self._library_indexes is None:
                globals_ = self.globals
                self._library_indexes = [
                    _deep(build_index, lib.program, Spans(lib.source), lib.path, globals_)
                    for lib in self.libraries]
            return self._library_indexes

    def indexes(self) -> list[FileIndex]:
        """The document's index, then its libraries'."""
        own = self.index
        return ([own] if own is not None else []) + self.library_indexes

    def index_of_file(self, file: str) -> Optional[FileIndex]:
        for index in self.indexes():
            if index.file == file:
                return index
        return None

    def source_of_file(self, file: str) -> Optional[str]:
        if file == self.file:
            return self.source
        for lib in self.libraries:
            if lib.path == file:
                return lib.source
        return None


def for_position(analysis: Analysis, fallback: Optional[Analysis], line: int) -> Analysis:
    """`analysis`, or when its source does not parse, `fallback` (an earlier version that
    did) if the two texts agree up to the end of `line`, so positions there mean the same."""
    if analysis.ctx is not None or fallback is None or fallback.ctx is None:
        return analysis
    end = -1
    for _ in range(line):
        end = analysis.source.find("\n", end + 1)
        if end < 0:
            return analysis
    if analysis.source[:end] == fallback.source[:end]:
        return fallback
    return analysis


def analyse(source: str, file: str = "<source>", libs_dir=None,
            version: Optional[int] = None) -> Analysis:
    """Analyse one version of a document (see `Analysis`)."""
    return Analysis(source, file, libs_dir, version)
