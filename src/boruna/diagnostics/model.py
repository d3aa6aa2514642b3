"""The diagnostic data model (docs/spec/tooling.md §1.1), in ruff's shape: a `Diagnostic` has a code,
a severity, a `body` (the finding), a primary `span`, secondary `labels`, a `help` (what to
do) and `notes` (more context) as fields, and the `fixes` it offers (`fix.py`).

Two JSON views render the seed's shape from that model: `to_full_dict()` (the CLI's
`--json`, with edits and labels as `related`; round-trips through
`DiagnosticSet.from_full_dict`) and `to_mcp_dict()` (the seed's `boruna_check` shape: no
edits, no related, `location`/`patches` only when present). Both carry `message`: the body
with its help (` — help`) and notes (one indented line each) written after it, as the
reference prints them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from .fix import Applicability, Confidence, Edit, Fix, SuggestedPatch, TextEdit

__all__ = ["Applicability", "Confidence", "Diagnostic", "DiagnosticSet", "Edit", "Fix",
           "Label", "RelatedInfo", "SEVERITIES", "SourceLocation", "SuggestedPatch",
           "TextEdit"]

SEVERITIES = ("error", "warning", "info", "hint")


@dataclass
class SourceLocation:
    """A 1-based position; `col`/`end_line`/`end_col` may be unknown (None)."""

    file: str
    line: int
    col: Optional[int] = None
    end_line: Optional[int] = None
    end_col: Optional[int] = None

    def to_dict(self) -> dict:
        return {"file": self.file, "line": self.line, "col": self.col,
                "end_line": self.end_line, "end_col": self.end_col}

    @classmethod
    def from_dict(cls, obj: Optional[dict]) -> Optional["SourceLocation"]:
        if obj is None:
            return None
        return cls(file=str(obj.get("file", "<source>")), line=int(obj["line"]),
                   col=_opt_int(obj.get("col")), end_line=_opt_int(obj.get("end_line")),
                   end_col=_opt_int(obj.get("end_col")))


@dataclass
class Label:
    """A secondary label of a diagnostic (e.g. the fields a record type has, at that type)."""

    message: str
    location: Optional[SourceLocation] = None

    def to_dict(self) -> dict:
        return {"message": self.message,
                "location": self.location.to_dict() if self.location else None}

    @classmethod
    def from_dict(cls, obj: dict) -> "Label":
        return cls(message=str(obj["message"]),
                   location=SourceLocation.from_dict(obj.get("location")))


RelatedInfo = Label


@dataclass(eq=False)
class Diagnostic:
    """One finding. Equal to another when both read the same (`to_full_dict`): a set read
    back from JSON has its help and notes inside the body."""

    code: str
    severity: str
    body: str
    span: Optional[SourceLocation] = None
    fixes: list[Fix] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    help: Optional[str] = None
    notes: list[str] = field(default_factory=list)

    @property
    def message(self) -> str:
        """The body, then ` — help`, then each note on an indented line of its own."""
        help_text = f" — {self.help}" if self.help else ""
        return self.body + help_text + "".join(f"\n  {note}" for note in self.notes)

    @property
    def id(self) -> str:
        """The seed's name for the code."""
        return self.code

    @property
    def location(self) -> Optional[SourceLocation]:
        return self.span

    @property
    def patches(self) -> list[Fix]:
        return self.fixes

    @property
    def suggested_patches(self) -> list[Fix]:
        """The reference's field name for the fixes."""
        return self.fixes

    @property
    def related(self) -> list[Label]:
        return self.labels

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Diagnostic):
            return NotImplemented
        return self.to_full_dict() == other.to_full_dict()

    def to_mcp_dict(self) -> dict:
        out: dict = {"id": self.code, "severity": self.severity, "message": self.message}
        if self.span is not None:
            out["location"] = self.span.to_dict()
        if self.fixes:
            out["patches"] = [f.to_mcp_dict() for f in self.fixes]
        return out

    def to_full_dict(self) -> dict:
        return {"id": self.code, "severity": self.severity, "message": self.message,
                "location": self.span.to_dict() if self.span else None,
                "suggested_patches": [f.to_full_dict() for f in self.fixes],
                "related": [label.to_dict() for label in self.labels]}

    @classmethod
    def from_dict(cls, obj: dict) -> "Diagnostic":
        severity = str(obj.get("severity", "error")).lower()
        if severity not in SEVERITIES:
            raise ValueError(f"invalid severity: {obj.get('severity')!r}")
        fixes = obj.get("suggested_patches", obj.get("patches")) or []
        return cls(code=str(obj["id"]), severity=severity, body=str(obj.get("message", "")),
                   span=SourceLocation.from_dict(obj.get("location")),
                   fixes=[Fix.from_dict(f) for f in fixes],
                   labels=[Label.from_dict(r) for r in obj.get("related") or []])


@dataclass
class DiagnosticSet:
    """All findings for one file, in pipeline order (docs/spec/tooling.md §1.3)."""

    file: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    version: int = 1

    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)

    @property
    def error_count(self) -> int:
        return sum(1 for d in self.diagnostics if d.is_error)

    def __len__(self) -> int:
        return len(self.diagnostics)

    def to_mcp_dict(self) -> dict:
        """`file`, `diagnostics_count`, `diagnostics` as `boruna_check` returns them (the
        service layer puts `success`/`protocol_version` in front)."""
        return {"file": self.file, "diagnostics_count": len(self.diagnostics),
                "diagnostics": [d.to_mcp_dict() for d in self.diagnostics]}

    def to_full_dict(self) -> dict:
        """The CLI's `lang check --json` document (reads back with `from_full_dict`)."""
        return {"version": self.version, "file": self.file,
                "diagnostics": [d.to_full_dict() for d in self.diagnostics]}

    @classmethod
    def from_full_dict(cls, obj: dict) -> "DiagnosticSet":
        """Parse a document written by `to_full_dict`; raises ValueError/KeyError/TypeError
        on malformed input (callers turn that into a user-facing error)."""
        if not isinstance(obj, dict):
            raise ValueError("diagnostic set must be a JSON object")
        return cls(file=str(obj.get("file", "<source>")),
                   diagnostics=[Diagnostic.from_dict(d) for d in obj.get("diagnostics") or []],
                   version=int(obj.get("version", 1)))


def _opt_int(value: Any) -> Optional[int]:
    return None if value is None else int(value)
