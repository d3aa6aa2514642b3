"""The audit hash chain and evidence bundles: written from a run, verified, and any changed,
missing, extra or reordered byte found."""
import json

import pytest

from boruna.service import export_evidence, verify_evidence
from boruna.workflow import evidence, runs
from boruna.workflow.evidence import GENESIS, chain_entry, verify_chain


def test_entry_hash_covers_sequence_previous_hash_and_content():
    first = chain_entry(1, GENESIS, "run_started", None, {"a": 1})
    assert first["content_hash"] == evidence.sha256_hex(
        '{"data":{"a":1},"event":"run_started","step":null}')
    assert first["entry_hash"] == evidence.sha256_hex(f"1\n{GENESIS}\n{first['content_hash']}")
    second = chain_entry(2, first["entry_hash"], "step_started", "s", {"attempt": 1})
    assert verify_chain([first, second]) is None
    assert verify_chain([second, first]) == "audit entry 1 has sequence number 2"
    tampered = dict(second, data={"attempt": 2})
    assert verify_chain([first, tampered]) == ("audit entry 2: content does not match its "
                                               "content_hash")


@pytest.fixture
def bundle(make_workflow, tmp_path):
    root = make_workflow({"a": {"kind": "source", "source": "a.ax"},
                          "b": {"kind": "source", "source": "b.ax", "inputs": {"x": "a.result"}}},
                         {"a.ax": "fn main() -> Int { 2 }",
                          "b.ax": 'fn main() -> Int { parse_int(step_input("x")) * 3 }'})
    view = runs.start(runs.load_directory(root), data_dir=tmp_path / "d")
    out = tmp_path / "bundle"
    written = export_evidence(view["run_id"], out, data_dir=tmp_path / "d")
    assert written.success
    return out, view


def test_a_bundle_holds_the_run_and_verifies(bundle):
    out, view = bundle
    names = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert names == ["audit_log.jsonl", "inputs.json", "manifest.json", "outputs.json",
                     "policy.json", "run.json", "sources/a.ax", "sources/b.ax", "workflow.json"]
    assert json.loads((out / "outputs.json").read_text()) == {"a": {"result": 2},
                                                              "b": {"result": 6}}
    lines = (out / "audit_log.jsonl").read_text().splitlines()
    assert json.loads(lines[-1])["entry_hash"] == view["audit_head"]
    assert [json.loads(line)["event"] for line in lines] == [
        "run_started", "step_started", "step_completed", "step_started", "capability_call",
        "step_completed", "run_completed"]
    report = verify_evidence(out)
    assert report.success and report.report["files"] == 8 and report.report["audit_entries"] == 7


def problems(out):
    result = verify_evidence(out)
    assert not result.success and result.error_kind == "evidence_invalid"
    return result.fields["problems"]


def test_a_changed_byte_is_found(bundle):
    out, _ = bundle
    path = out / "sources" / "b.ax"
    path.write_bytes(path.read_bytes().replace(b"3", b"4"))
    assert problems(out) == ["changed file: sources/b.ax (checksum differs)"]


def test_missing_and_extra_files_are_found(bundle):
    out, _ = bundle
    (out / "policy.json").unlink()
    (out / "note.txt").write_text("x")
    assert problems(out) == ["missing file: policy.json", "unlisted file: note.txt"]


def test_reordered_audit_entries_are_found(bundle):
    out, _ = bundle
    path = out / "audit_log.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    lines[1], lines[2] = lines[2], lines[1]
    path.write_text("".join(lines))
    assert problems(out) == ["changed file: audit_log.jsonl (checksum differs)",
                             "audit entry 2 has sequence number 3"]


def test_a_rewritten_manifest_is_found(bundle):
    out, _ = bundle
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["files"]["outputs.json"] = "0" * 64
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert problems(out) == ["bundle_hash does not match the manifest's file list",
                             "changed file: outputs.json (checksum differs)"]


def test_not_a_bundle(tmp_path):
    assert problems(tmp_path) == [f"{tmp_path} has no manifest.json"]


def test_evidence_refuses_a_non_empty_directory(bundle, tmp_path):
    out, view = bundle
    again = export_evidence(view["run_id"], out, data_dir=tmp_path / "d")
    assert again.error_kind == "io_error" and "is not an empty directory" in again.message
