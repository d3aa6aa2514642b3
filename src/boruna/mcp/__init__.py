"""`boruna-mcp`: the MCP stdio server (server.py), its tool table (tools.py), parameter models
and advertised schemas (params.py) and stdin hardening (stdin_lines.py). Tool logic lives in
`boruna.service`; see docs/mcp.md for the wire contract."""
