"""`boruna-mcp` start-up: an unknown BORUNA_MCP_LOG value is a warning, not a crash.

The attack (issue 15, item 13): `BORUNA_MCP_LOG=verbose boruna-mcp` died with a traceback.
"""
import os

import pytest


@pytest.mark.parametrize("value", ["verbose", "", "Debug"])
def test_log_level_values(raw_server_factory, value):
    server = raw_server_factory(env=dict(os.environ, BORUNA_MCP_LOG=value))
    server.initialize()
    assert server.request(2, "ping", {}) == {"jsonrpc": "2.0", "id": 2, "result": {}}
    status, stderr = server.close()
    assert status == 0
    if value == "verbose":
        assert stderr == ("boruna-mcp: warning: ignoring BORUNA_MCP_LOG='verbose' (expected one "
                          "of debug, info, warning, error, critical); logging warnings\n")
    else:
        assert "warning: ignoring" not in stderr and "Traceback" not in stderr
