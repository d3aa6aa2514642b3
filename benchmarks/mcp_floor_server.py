"""The MCP SDK's own floor for `benchmarks/test_mcp_latency.py`: stdio servers whose one tool
does nothing, started as `python benchmarks/mcp_floor_server.py MODE`.

- `sdk`: the SDK's low-level `Server` on the SDK's `stdio_server`, a tool `noop` answering
  an empty text item (no outputSchema): what any server on this SDK pays per call.
- `boruna`: `boruna-mcp`'s own server (its transport threads, screened stdin, lanes, the
  14 tools listed) plus a tool `noop` answered on the event loop with the exact result a
  tiny `boruna_run` answers (the same text, structuredContent and advertised outputSchema):
  what a call costs when nothing of ours runs between the SDK's read and its write.
"""
from __future__ import annotations

import sys

import anyio
import mcp_types as types

TINY = "fn main() -> Int { 1 + 2 }"


def _sdk_server():
    from mcp.server.lowlevel.server import Server
    from mcp.server.models import InitializationOptions
    from mcp.server.stdio import stdio_server

    tool = types.Tool(name="noop", input_schema={"type": "object", "properties": {}})
    answer = types.CallToolResult(content=[types.TextContent(type="text", text="{}")])

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[tool])

    async def call_tool(ctx, params):
        return answer

    server = Server("floor", on_list_tools=list_tools, on_call_tool=call_tool)
    options = InitializationOptions(server_name="floor", server_version="0",
                                    capabilities=types.ServerCapabilities(
                                        tools=types.ToolsCapability()))

    async def serve():
        async with stdio_server() as (read, write):
            await server.run(read, write, options)

    return serve


def _boruna_server():
    from boruna.assets.directories import LIBS, TEMPLATES, resolve_dir
    from boruna.mcp.results import tool_result
    from boruna.mcp.server import BorunaServer
    from boruna.service import run_tool

    answer = tool_result(run_tool(TINY))

    class FloorServer(BorunaServer):
        def __init__(self, *args):
            super().__init__(*args)
            run = next(t for t in self._listing if t.name == "boruna_run")
            self._listing = [*self._listing, run.model_copy(update={"name": "noop"})]

        async def call_tool(self, ctx, params):
            if params.name == "noop":
                return answer
            return await super().call_tool(ctx, params)

    return FloorServer(resolve_dir(None, TEMPLATES), resolve_dir(None, LIBS)).serve_stdio


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "sdk"
    anyio.run({"sdk": _sdk_server, "boruna": _boruna_server}[mode]())
