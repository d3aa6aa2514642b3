"""The diagnostic data model (tooling.md §1.1): what `boruna_check` finds and how to fix it.

Plain dataclasses with two JSON views: `to_full_dict()` (the CLI's `--json`, with text edits
and related notes; round-trips through `DiagnosticSet.from_full_dict`) and `to_mcp_dict()`
(the seed's `boruna_check` shape: no edits, no related, `location`/`patches` only when present,
confidence capitalised as the seed states).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Optional

SEVERITIES = ("error", "warning", "info", "hint")


class Confidence(enum.Enum):
    """How sure a patch is. `.value` is the wire spelling (seed: "High"/"Medium"/"Low")."""

    HIGH = "High"
    MEDIUM = "Medium"
    LOW = "Low"

    @property
    def rank(self) -> int:
        """Higher is more confident (used by repair's selection)."""
        return {"High": 3, "Medium": 2, "Low": 1}[self.value]

    @classmethod
    def parse(cls, text: Any) -> "Confidence":
        """Accept any casing (`high`, `High`, `HIGH`) as written by either implementation."""
        if isinstance(text, Confidence):
            return text
        if not isinstance(text, str):
            raise ValueError(f"invalid confidence: {text!r}")
        for member in cls:
            if member.value.lower() == text.strip().lower():
                return member
        raise ValueError(f"invalid confidence: {text!r}")


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
class TextEdit:
    """Replace the lines starting at `start_line` that read `old_text` with `new_text`.

    Line-based, as tooling.md §2.3 applies it: `old_text` is the guard (the current line must
    equal it, or equal it after trimming); its line count is how many lines are replaced.
    """

    start_line: int
    old_text: str
    new_text: str
    file: str = "<source>"

    def to_dict(self) -> dict:
        return {"file": self.file, "start_line": self.start_line,
                "old_text": self.old_text, "new_text": self.new_text}

    @classmethod
    def from_dict(cls, obj: dict) -> "TextEdit":
        return cls(start_line=int(obj["start_line"]), old_text=str(obj["old_text"]),
                   new_text=str(obj["new_text"]), file=str(obj.get("file", "<source>")))


@dataclass
class SuggestedPatch:
    """One way to fix a diagnostic; `edits` may be empty for a text-only hint."""

    id: str
    description: str
    confidence: Confidence
    rationale: str
    edits: list[TextEdit] = field(default_factory=list)

    def to_mcp_dict(self) -> dict:
        return {"id": self.id, "description": self.description,
                "confidence": self.confidence.value, "rationale": self.rationale}

    def to_full_dict(self) -> dict:
        return {**self.to_mcp_dict(), "edits": [e.to_dict() for e in self.edits]}

    @classmethod
    def from_dict(cls, obj: dict) -> "SuggestedPatch":
        return cls(id=str(obj["id"]), description=str(obj.get("description", "")),
                   confidence=Confidence.parse(obj.get("confidence", "Low")),
                   rationale=str(obj.get("rationale", "")),
                   edits=[TextEdit.from_dict(e) for e in obj.get("edits") or []])


@dataclass
class RelatedInfo:
    """A secondary note attached to a diagnostic (e.g. the fields a record type has)."""

    message: str
    location: Optional[SourceLocation] = None

    def to_dict(self) -> dict:
        return {"message": self.message,
                "location": self.location.to_dict() if self.location else None}

    @classmethod
    def from_dict(cls, obj: dict) -> "RelatedInfo":
        return cls(message=str(obj["message"]),
                   location=SourceLocation.from_dict(obj.get("location")))


@dataclass
class Diagnostic:
    """One finding: code id, severity, message, optional location, patches, related notes."""

    id: str
    severity: str
    message: str
    location: Optional[SourceLocation] = None
    patches: list[SuggestedPatch] = field(default_factory=list)
    related: list[RelatedInfo] = field(default_factory=list)

    @property
    def suggested_patches(self) -> list[SuggestedPatch]:
        """The reference's field name for `patches`."""
        return self.patches

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def to_mcp_dict(self) -> dict:
        out: dict = {"id": self.id, "severity": self.severity, "message": self.message}
        if self.location is not None:
            out["location"] = self.location.to_dict()
        if self.patches:
            out["patches"] = [p.to_mcp_dict() for p in self.patches]
        return out

    def to_full_dict(self) -> dict:
        return {"id": self.id, "severity": self.severity, "message": self.message,
                "location": self.location.to_dict() if self.location else None,
                "suggested_patches": [p.to_full_dict() for p in self.patches],
                "related": [r.to_dict() for r in self.related]}

    @classmethod
    def from_dict(cls, obj: dict) -> "Diagnostic":
        severity = str(obj.get("severity", "error")).lower()
        if severity not in SEVERITIES:
            raise ValueError(f"invalid severity: {obj.get('severity')!r}")
        patches = obj.get("suggested_patches", obj.get("patches")) or []
        return cls(id=str(obj["id"]), severity=severity, message=str(obj.get("message", "")),
                   location=SourceLocation.from_dict(obj.get("location")),
                   patches=[SuggestedPatch.from_dict(p) for p in patches],
                   related=[RelatedInfo.from_dict(r) for r in obj.get("related") or []])


@dataclass
class DiagnosticSet:
    """All findings for one file, in pipeline order (tooling.md §1.3)."""

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
