"""Closest-name suggestions for patches (docs/spec/tooling.md §1.5 `find_closest_name`), by the
language's edit distance (`boruna.language.suggest.levenshtein`)."""
from __future__ import annotations

from typing import Iterable, Optional

from boruna.language.suggest import levenshtein

__all__ = ["MAX_NAME_LENGTH", "closest_name", "levenshtein"]

MAX_NAME_LENGTH = 256   # longer names get no suggestion (keeps the quadratic distance cheap)


def closest_name(target: str, candidates: Iterable[str]) -> Optional[tuple[str, int]]:
    """The candidate nearest to `target` within `max(2, len(target) // 2)` edits, with its
    distance. Candidates equal to the target are skipped; ties keep the first one."""
    if len(target) > MAX_NAME_LENGTH:
        return None
    threshold = max(2, len(target) // 2)
    best: Optional[tuple[str, int]] = None
    for candidate in candidates:
        if candidate == target:
            continue
        if abs(len(candidate) - len(target)) > threshold:
            continue
        distance = levenshtein(target, candidate)
        if distance <= threshold and (best is None or distance < best[1]):
            best = (candidate, distance)
    return best
