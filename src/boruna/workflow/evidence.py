"""Evidence: the hash-chained audit log, evidence bundles, and their verification.

An audit entry's hash covers its sequence number, the previous entry's hash and the hash of
its content (`event`, `step`, `data` as canonical JSON): `entry_hash = sha256("SEQ\\nPREV\\n
CONTENT_HASH")`, the first entry's PREV being 64 zeros. Contents hold no clock readings, run
ids or lease owners, so a run resumed after a crash has the same chain as one that never
stopped. `journal/store.py` appends entries (with `chain_entry`); this module exports a run
as a bundle directory and checks one:

    manifest.json     format, version, run id, the SHA-256 of every other file, bundle_hash
    workflow.json     the workflow as run;  sources/<step>.ax  every step source
    policy.json       the run's policy;     inputs.json  the run inputs
    audit_log.jsonl   one entry per line;   outputs.json  every completed step's outputs
    run.json          the run's status and steps

`bundle_hash` is the SHA-256 of the manifest's `files` object as canonical JSON.
`verify_bundle(dir)` re-hashes every file, refuses missing and extra files, and re-checks the
audit chain line by line, so any changed, missing or reordered byte is found.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Optional

GENESIS = "0" * 64
BUNDLE_FORMAT = "boruna-evidence-bundle"
BUNDLE_VERSION = 1
MANIFEST = "manifest.json"
AUDIT_FILE = "audit_log.jsonl"


def canonical(value) -> str:
    """Canonical JSON: sorted keys, no whitespace, UTF-8 text kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_hex(data) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()


def content_hash(event: str, step: Optional[str], data) -> str:
    return sha256_hex(canonical({"event": event, "step": step, "data": data}))


def entry_hash(seq: int, prev_hash: str, chash: str) -> str:
    return sha256_hex(f"{seq}\n{prev_hash}\n{chash}")


def chain_entry(seq: int, prev_hash: str, event: str, step: Optional[str], data) -> dict:
    """The audit entry number `seq` after an entry hashed `prev_hash`."""
    chash = content_hash(event, step, data)
    return {"seq": seq, "event": event, "step": step, "data": data, "content_hash": chash,
            "prev_hash": prev_hash, "entry_hash": entry_hash(seq, prev_hash, chash)}


def verify_chain(entries: list) -> Optional[str]:
    """None when `entries` form an unbroken chain from the genesis, else the first problem."""
    prev = GENESIS
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            return f"audit entry {index + 1} is not an object"
        if entry.get("seq") != index + 1:
            return f"audit entry {index + 1} has sequence number {entry.get('seq')!r}"
        if entry.get("prev_hash") != prev:
            return f"audit entry {index + 1}: prev_hash does not match the previous entry"
        chash = content_hash(entry.get("event"), entry.get("step"), entry.get("data"))
        if entry.get("content_hash") != chash:
            return f"audit entry {index + 1}: content does not match its content_hash"
        if entry.get("entry_hash") != entry_hash(index + 1, prev, chash):
            return f"audit entry {index + 1}: entry_hash does not match"
        prev = entry["entry_hash"]
    return None


# ------------------------------------------------------------------------------- bundles

class EvidenceError(Exception):
    """A bundle that cannot be written or does not verify."""


def write_bundle(out_dir, files: dict) -> dict:
    """Write `files` (relative name → text) and the manifest into `out_dir` (created; it must
    be empty or absent). Returns the manifest."""
    out = Path(out_dir)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise EvidenceError(f"{out} exists and is not an empty directory")
    out.mkdir(parents=True, exist_ok=True)
    checksums = {}
    for name in sorted(files):
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        data = files[name].encode("utf-8", "surrogatepass")
        path.write_bytes(data)
        checksums[name] = sha256_hex(data)
    manifest = {"format": BUNDLE_FORMAT, "version": BUNDLE_VERSION, "files": checksums,
                "bundle_hash": sha256_hex(canonical(checksums))}
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n",
                                encoding="utf-8")
    return manifest


def _bundle_files(root: Path) -> set[str]:
    found = set()
    for base, _dirs, names in os.walk(root):
        for name in names:
            rel = (Path(base) / name).relative_to(root).as_posix()
            if rel != MANIFEST:
                found.add(rel)
    return found


def verify_bundle(bundle_dir) -> dict:
    """Check a bundle: `{"ok", "problems", "bundle_hash", "files", "audit_entries"}`."""
    root = Path(bundle_dir)
    problems: list[str] = []
    if not root.is_dir():
        raise EvidenceError(f"{root} is not a directory")
    try:
        manifest = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise EvidenceError(f"{root} has no {MANIFEST}") from None
    except (ValueError, OSError) as err:
        raise EvidenceError(f"{MANIFEST} cannot be read: {err}") from None
    if (not isinstance(manifest, dict) or manifest.get("format") != BUNDLE_FORMAT
            or not isinstance(manifest.get("files"), dict)):
        raise EvidenceError(f"{MANIFEST} is not a {BUNDLE_FORMAT} manifest")
    listed = manifest["files"]
    if manifest.get("bundle_hash") != sha256_hex(canonical(listed)):
        problems.append("bundle_hash does not match the manifest's file list")
    present = _bundle_files(root)
    for name in sorted(listed):
        path = root / name
        if name not in present:
            problems.append(f"missing file: {name}")
            continue
        if sha256_hex(path.read_bytes()) != listed[name]:
            problems.append(f"changed file: {name} (checksum differs)")
    for name in sorted(present - set(listed)):
        problems.append(f"unlisted file: {name}")
    entries = 0
    if AUDIT_FILE in present:
        lines = (root / AUDIT_FILE).read_text(encoding="utf-8", errors="replace").splitlines()
        parsed = []
        for number, line in enumerate(lines, 1):
            try:
                parsed.append(json.loads(line))
            except ValueError:
                problems.append(f"{AUDIT_FILE} line {number} is not JSON")
                parsed = None
                break
        if parsed is not None:
            entries = len(parsed)
            broken = verify_chain(parsed)
            if broken:
                problems.append(broken)
    return {"ok": not problems, "problems": problems,
            "bundle_hash": manifest.get("bundle_hash"), "files": len(listed),
            "audit_entries": entries}
