"""`boruna-mcp --live`: a run that passes no policy is deny-all unless `--policy FILE` names
the server's default (issue 19), so an agent cannot write files without naming a policy."""
from __future__ import annotations

import json
import subprocess
import sys

WRITE = 'fn main() -> Bool !{fs.write} { fs_write("out.txt", "agent was here") }'


def test_a_live_run_without_a_policy_is_denied(tmp_path, call_fresh_server):
    root = tmp_path / "root"
    root.mkdir()
    ran, sealed, named = call_fresh_server(
        [("boruna_run", {"source": WRITE}), ("boruna_run_sealed", {"source": WRITE}),
         ("boruna_run", {"source": WRITE, "policy": "allow-all"})],
        "--live", "--fs-root", str(root))
    assert (ran["error_kind"], ran["message"]) == ("runtime_error", "capability denied: fs.write")
    assert sealed["success"] is False and sealed["error_kind"] == "capability_denied"
    assert named["result"] is True
    assert (root / "out.txt").read_text(encoding="utf-8") == "agent was here"


def test_policy_names_the_live_servers_default(tmp_path, call_fresh_server):
    root = tmp_path / "root"
    root.mkdir()
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"rules": {"fs.write": {"allow": True, "budget": 1}}}),
                      encoding="utf-8")
    (ran,) = call_fresh_server([("boruna_run", {"source": WRITE})],
                               "--live", "--fs-root", str(root), "--policy", str(policy))
    assert ran["result"] is True


def test_the_mock_server_keeps_allow_all(call_fresh_server):
    (ran,) = call_fresh_server([("boruna_run", {"source": WRITE})])
    assert ran["result"] is True


def _launch(*flags):
    return subprocess.run([sys.executable, "-m", "boruna.mcp", *flags], capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)


def test_a_bad_policy_flag_stops_the_server_before_it_serves(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"rules": {"net": {"allow": true, "budget": 0}}}', encoding="utf-8")
    done = _launch("--live", "--policy", str(bad))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == (
        f'boruna-mcp: error: --policy {bad}: policy.invalid_capability: unknown capability '
        '"net" — did you mean "net.fetch"?')
    done = _launch("--policy", "deny-all")
    assert done.returncode == 2 and done.stderr.strip().endswith("error: --policy needs --live")


def test_the_run_tool_description_states_the_default(list_fresh_server):
    tools = {tool.name: tool for tool in list_fresh_server("--live")}
    assert ("deny-all on a --live server (unless it was started with --policy FILE)"
            in tools["boruna_run"].description)
