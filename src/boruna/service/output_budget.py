"""`limits.max_output_bytes`: the compact JSON of `result` plus every UI tree must fit the cap."""
from __future__ import annotations

from boruna.service.json_text import compact_json


def compact_size(value) -> int:
    """Bytes of `value` as compact JSON (no spaces, raw UTF-8), as the response prints it."""
    return len(compact_json(value).encode("utf-8"))


def exceeds_budget(cap: int, result, ui_output) -> bool:
    """True when result then each UI tree, charged in turn, overrun `cap` (strictly greater)."""
    remaining = cap
    for value in (result, *ui_output):
        if isinstance(value, str) and len(value.encode("utf-8")) > remaining:
            return True
        size = compact_size(value)
        if size > remaining:
            return True
        remaining -= size
    return False
