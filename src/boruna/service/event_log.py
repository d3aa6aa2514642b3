"""A run's event log in the `boruna_run` JSON encoding, and its digest.

The digest is the SHA-256 of the canonical log (compact JSON, sorted keys), fed one event at
a time: what `boruna_run_sealed` seals and what a capability tape pins for its replay.
"""
from __future__ import annotations

import hashlib
import json

from boruna.core.json_text import compact_json

_VALUE_FIELDS = ("args", "result", "payload", "tree")


def encode_event(event: dict, module, budget=None) -> dict:
    """One event with its runtime values in the `boruna_run` JSON encoding (charged to
    `budget`, an OutputBudget, when given)."""
    from boruna.service.encoding import format_value

    out = {}
    for key, value in event.items():
        if key == "args":
            out[key] = [format_value(v, module, budget) for v in value]
        elif key in _VALUE_FIELDS:
            out[key] = format_value(value, module, budget)
        else:
            out[key] = value
    return out


def canonical_log(version: int, events: list[dict]) -> str:
    """The digested form of a log: compact JSON with sorted keys."""
    return compact_json({"version": version, "events": events}, sort_keys=True)


def canonical_event(event: dict) -> str:
    return compact_json(event, sort_keys=True)


def log_digest(version: int, events: list[dict]) -> str:
    """Hex SHA-256 of `canonical_log(version, events)`, fed one event at a time."""
    digest = hashlib.sha256(b'{"events":[')
    for index, event in enumerate(events):
        if index:
            digest.update(b",")
        digest.update(canonical_event(event).encode("utf-8", "surrogatepass"))
    digest.update(f'],"version":{json.dumps(version)}}}'.encode("utf-8"))
    return digest.hexdigest()


def event_log_sha256(log, module) -> str:
    """The digest of an `EventLog` (its events encoded for `module`)."""
    return log_digest(log.version, [encode_event(e, module) for e in log.events])
