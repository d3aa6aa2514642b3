"""`boruna run`: one compilation and one policy parse per invocation, text or `--json`; a
checkout without the VM extension says how to build it."""
import json
import sys

import pytest

import boruna
import boruna.compiler
import boruna.runtime.policy

PROGRAM = "fn main() -> Int {\n    6 * 7\n}\n"
POLICY = '{"schema_version": 1, "default_allow": true, "rules": {}}'


def _count(monkeypatch, owner, name):
    seen = []
    real = getattr(owner, name)

    def counted(*args, **kwargs):
        seen.append(args[:1])
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return seen


@pytest.fixture
def prog(tmp_path):
    path = tmp_path / "answer.ax"
    path.write_text(PROGRAM)
    (tmp_path / "policy.json").write_text(POLICY)
    return path


@pytest.mark.parametrize("flags", [[], ["--json"]], ids=["text", "json"])
def test_run_compiles_once_and_parses_its_policy_file_once(cli, monkeypatch, prog, flags):
    from boruna.service import module_cache

    module_cache.clear()        # as in a fresh `boruna` process (earlier tests ran this source)
    compiles = _count(monkeypatch, boruna.compiler, "compile_source")
    parses = _count(monkeypatch, boruna.runtime.policy, "parse_policy_text")
    result = cli("run", prog, "--policy", prog.parent / "policy.json", *flags)
    assert result.code == 0
    assert (len(compiles), parses) == (1, [(POLICY,)])
    if flags:
        assert json.loads(result.out) == {"success": True, "protocol_version": 1, "result": 42,
                                          "steps": 5, "ui_output": []}
    else:
        assert result.out == "42\nsteps: 5\n"


def test_bytecode_runs_without_compiling(cli, monkeypatch, prog):
    assert cli("compile", prog).code == 0
    compiles = _count(monkeypatch, boruna.compiler, "compile_source")
    result = cli("run", prog.with_suffix(".axbc"))
    assert (result.code, result.out, compiles) == (0, "42\nsteps: 5\n", [])


def test_damaged_bytecode_is_one_line(cli, tmp_path):
    (tmp_path / "x.axbc").write_bytes(b"LLMB\x01")
    result = cli("run", tmp_path / "x.axbc")
    assert result.code == 1
    assert result.err.startswith(f"error: cannot load bytecode '{tmp_path / 'x.axbc'}': ")
    assert len(result.err.splitlines()) == 1


@pytest.fixture
def no_vm(monkeypatch):
    """The checkout's extension is not built: `from boruna import _vm` fails."""
    monkeypatch.delattr(boruna, "_vm", raising=False)
    monkeypatch.setitem(sys.modules, "boruna._vm", None)


def test_unbuilt_vm_extension_says_how_to_build_it(cli, prog, no_vm):
    result = cli("run", prog)
    assert (result.code, result.out) == (1, "")
    assert result.err == ("error: the VM extension boruna._vm is not built; build it with "
                          "`pip install -e .` in the checkout\n")
    as_json = cli("run", prog, "--json")
    assert as_json.code == 1
    assert json.loads(as_json.out) == {
        "success": False, "protocol_version": 1, "error_kind": "runtime_error",
        "message": ("the VM extension boruna._vm is not built; build it with "
                    "`pip install -e .` in the checkout"), "steps": 0}


@pytest.mark.parametrize("flags", [[], ["--json"]], ids=["text", "json"])
def test_a_bad_policy_file_is_reported_before_a_compile_error(cli, tmp_path, flags):
    bad_source = tmp_path / "bad.ax"
    bad_source.write_text("fn main( {\n")
    policy = tmp_path / "p.json"
    policy.write_text('{"schema_version": 1, "rules": {}, "extra": true}')
    result = cli("run", bad_source, "--policy", policy, *flags)
    assert result.code == 1
    message = 'policy.unknown_field: unknown field "extra" at extra'
    if flags:
        assert json.loads(result.out)["message"] == message
    else:
        assert result.err == f"error: invalid policy '{policy}': {message}\n"
