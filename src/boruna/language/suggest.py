"""Typo suggestions ("did you mean", docs/spec/language.md §4.6).

Levenshtein distance over Unicode characters; a suggestion exists only when exactly one
candidate (duplicates counted, exact matches skipped) is within distance 1.
"""
from __future__ import annotations

from typing import Iterable, Optional

from .tokens import KEYWORDS


def levenshtein(a: str, b: str) -> int:
    """Classic edit distance: insert, delete, substitute each cost 1 (a transposition is 2)."""
    if a == b:
        return 0
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return len(a)
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def _within_one(a: str, b: str) -> bool:
    """Whether `levenshtein(a, b) <= 1`, without building the full table."""
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        return sum(x != y for x, y in zip(a, b)) <= 1
    if la < lb:
        a, b, la, lb = b, a, lb, la
    # a is one longer than b: deleting one character of a must give b
    i = 0
    while i < lb and a[i] == b[i]:
        i += 1
    return a[i + 1:] == b[i:]


def unique_within_one(typo: str, candidates: Iterable[str]) -> Optional[str]:
    """The single candidate at distance <= 1 from `typo`, or None if none or several."""
    best = None
    for cand in candidates:
        if cand == typo or not _within_one(typo, cand):
            continue
        if best is not None:
            return None
        best = cand
    return best


def keyword_suggestion(word: str) -> Optional[str]:
    """The unique keyword one edit away from `word`, if any."""
    return unique_within_one(word, KEYWORDS)


def did_you_mean(candidate: Optional[str]) -> str:
    """The message suffix for a suggestion (empty when there is none)."""
    return f"\n  did you mean: '{candidate}'?" if candidate is not None else ""
