"""What a diagnostic offers to change (ruff's `Fix`): a `Fix` is a list of `Edit`s with an
`Applicability` that says how far it may be trusted, and so what `repair` applies unasked.

The seed's wire vocabulary is the patch's `confidence` ("High"/"Medium"/"Low"); it is read
off the applicability (Safe = High, Unsafe = Medium, DisplayOnly = Low), so the JSON is
spelled as before. `SuggestedPatch(...)` and `TextEdit` are the reference's names for the
same objects.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Confidence(enum.Enum):
    """How sure a patch is, as the seed spells it. `.value` is the wire text."""

    HIGH = "High"
    MEDIUM = "Medium"
    LOW = "Low"

    @property
    def rank(self) -> int:
        """Higher is more confident."""
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


class Applicability(enum.Enum):
    """How a fix may be applied; `.value` orders them (a higher value is applied sooner).

    SAFE keeps the program's meaning (`conservative` repair applies only these); UNSAFE is
    a likely guess; DISPLAY_ONLY is advice (`best` takes it only when a diagnostic has
    nothing better). Repair re-checks every result, so a wrong guess is never kept."""

    SAFE = 3
    UNSAFE = 2
    DISPLAY_ONLY = 1

    @property
    def confidence(self) -> Confidence:
        return _CONFIDENCE[self]

    @classmethod
    def of(cls, confidence: Any) -> "Applicability":
        """The applicability for a confidence (a `Confidence` or its text in any casing)."""
        return _APPLICABILITY[Confidence.parse(confidence)]


_CONFIDENCE = {Applicability.SAFE: Confidence.HIGH, Applicability.UNSAFE: Confidence.MEDIUM,
               Applicability.DISPLAY_ONLY: Confidence.LOW}
_APPLICABILITY = {confidence: applicability for applicability, confidence in _CONFIDENCE.items()}


@dataclass
class Edit:
    """Replace the lines starting at `start_line` that read `old_text` with `new_text`.

    Line-based, as docs/spec/tooling.md §2.3 applies it: `old_text` is the guard (the current line must
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
    def from_dict(cls, obj: dict) -> "Edit":
        return cls(start_line=int(obj["start_line"]), old_text=str(obj["old_text"]),
                   new_text=str(obj["new_text"]), file=str(obj.get("file", "<source>")))


TextEdit = Edit


@dataclass
class Fix:
    """One way to fix a diagnostic; `edits` may be empty for a text-only hint."""

    id: str
    description: str
    applicability: Applicability
    rationale: str
    edits: list[Edit] = field(default_factory=list)

    @property
    def confidence(self) -> Confidence:
        """The seed's name for the applicability."""
        return self.applicability.confidence

    def moved(self, edits: list[Edit]) -> "Fix":
        """The same fix with other edits (its lines shifted by earlier fixes)."""
        return Fix(self.id, self.description, self.applicability, self.rationale, edits)

    def to_mcp_dict(self) -> dict:
        return {"id": self.id, "description": self.description,
                "confidence": self.confidence.value, "rationale": self.rationale}

    def to_full_dict(self) -> dict:
        return {**self.to_mcp_dict(), "edits": [e.to_dict() for e in self.edits]}

    @classmethod
    def from_dict(cls, obj: dict) -> "Fix":
        return cls(id=str(obj["id"]), description=str(obj.get("description", "")),
                   applicability=Applicability.of(obj.get("confidence", "Low")),
                   rationale=str(obj.get("rationale", "")),
                   edits=[Edit.from_dict(e) for e in obj.get("edits") or []])


def SuggestedPatch(id: str, description: str, confidence: Confidence, rationale: str,
                   edits: list[Edit] | None = None) -> Fix:
    """The reference's constructor: a `Fix` whose applicability is read off `confidence`."""
    return Fix(id, description, Applicability.of(confidence), rationale, list(edits or []))
