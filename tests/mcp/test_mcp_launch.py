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
