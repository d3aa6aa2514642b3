"""`boruna-mcp`: the MCP stdio server: its command line (launch.py), the server (server.py),
its tool table (tools.py), parameter models and advertised schemas (params.py), response
models and output schemas (responses.py), tool results (results.py), resources and prompts
(documents.py), stdin hardening (stdin_lines.py), the transport threads (transport.py) and
the bounded worker lanes (lanes.py). Tool logic lives in `boruna.service`; see docs/mcp.md
for the wire contract."""
