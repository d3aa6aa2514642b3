"""`boruna-mcp --help`/`--version` parse arguments before the MCP SDK or pydantic is imported
(they answer in milliseconds; the figures are in benchmarks/, not asserted here)."""
import subprocess
import sys

PROBE = """
import sys
from boruna.mcp.launch import main
try:
    main([{flag!r}])
except SystemExit as exit:
    heavy = sorted(m for m in ("mcp", "mcp_types", "pydantic", "anyio") if m in sys.modules)
    print(exit.code, heavy)
"""


def _probe(flag):
    done = subprocess.run([sys.executable, "-c", PROBE.format(flag=flag)], capture_output=True,
                          text=True, timeout=60)
    return done.stdout.splitlines()[-1]


def test_version_and_help_import_neither_the_sdk_nor_pydantic():
    assert _probe("--version") == "0 []"
    assert _probe("--help") == "0 []"


def test_python_dash_m_runs_the_same_entry_point():
    done = subprocess.run([sys.executable, "-m", "boruna.mcp", "--version"], capture_output=True,
                          text=True, timeout=60)
    from boruna import __version__

    assert (done.returncode, done.stdout) == (0, f"boruna-mcp {__version__}\n")


# ------------------------------------------------ the registration docs, followed verbatim

import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
from pathlib import Path  # noqa: E402

import anyio  # noqa: E402
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
VALIDATION_PROGRAM = ('import "std-validation"\n\nfn main() -> Int {\n'
                      '    validate_min_length("name", "Ada", 2).valid\n}\n')


def _documented_mcp_json() -> dict:
    """The `.mcp.json` block of docs/registering.md (the first JSON block)."""
    text = (REPO / "docs" / "registering.md").read_text(encoding="utf-8")
    return json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))


async def _session_calls(params):
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.call_tool("boruna_template_list", {})
            ran = await session.call_tool("boruna_run", {"source": VALIDATION_PROGRAM})
            guide = await session.read_resource("boruna://libs")
            return listed.structured_content, ran.structured_content, guide.contents[0].text


def test_the_documented_mcp_json_works_verbatim_from_an_empty_directory(tmp_path):
    entry = _documented_mcp_json()["mcpServers"]["boruna"]
    assert (entry["command"], entry.get("args", [])) == ("boruna-mcp", [])
    # the agent finds `boruna-mcp` on its PATH (as after `uv tool install`/`pipx install`)
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    params = StdioServerParameters(command=entry["command"], args=entry.get("args", []),
                                   env={**entry.get("env", {}), "PATH": path},
                                   cwd=str(tmp_path))
    listed, ran, libs = anyio.run(_session_calls, params)
    assert listed["success"] is True and listed["count"] == 5
    assert [t["name"] for t in listed["templates"]] == [
        "auth-app", "crud-admin", "form-basic", "offline-sync", "realtime-feed"]
    assert (ran["success"], ran["result"]) == (True, 1)
    assert "## std-validation (std.validation 1.0.0)" in libs
    assert list(tmp_path.iterdir()) == []


def test_registration_commands_in_the_docs_need_no_flags_or_venv_paths():
    registering = (REPO / "docs" / "registering.md").read_text(encoding="utf-8")
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for text in (registering, readme):
        assert re.search(r"^claude mcp add boruna -- boruna-mcp( +#.*)?$", text, re.M)
        assert "--templates-dir templates" not in text and "pip install boruna" not in text
    assert "uv tool install" in registering and "pipx install" in registering
