"""Closest-name suggestions for patches (tooling.md §1.5 `find_closest_name`)."""
from __future__ import annotations

from typing import Iterable, Optional


MAX_NAME_LENGTH = 256   # longer names get no suggestion (keeps the quadratic distance cheap)


def levenshtein(a: str, b: str) -> int:
    """Unit-cost insert/delete/substitute edit distance over characters."""
    if a == b:
        return 0
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


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
