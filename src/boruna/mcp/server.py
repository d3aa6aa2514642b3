"""`boruna-mcp`: the MCP stdio server exposing the Boruna toolchain to coding agents.

Transport and concurrency only; every tool's logic lives in `boruna.service`. Each call runs
in a worker thread, so a long `boruna_run` never stops the server answering other requests;
a cancelled request sets the run's cancel event so its VM stops; `boruna_run` with
`_meta.progressToken` streams `notifications/progress` through the SDK before it answers.
"""
from __future__ import annotations

import argparse
import functools
import io
import logging
import os
import sys
from pathlib import Path
from typing import Optional, Sequence

import anyio
import anyio.from_thread
import anyio.to_thread
import mcp_types as types
from pydantic import ValidationError

from mcp.server.lowlevel.server import Server
from mcp.server.models import InitializationOptions
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage

from boruna import __version__
from boruna.assets.directories import LIBS, TEMPLATES, resolve_dir
from boruna.mcp.params import describe_validation_error, input_schema
from boruna.mcp.stdin_lines import AnswerCountingStream, SanitizedLines
from boruna.mcp.tools import TOOLS, TOOLS_BY_NAME, ToolEnv
from boruna.service import render
from boruna.service.boundary import internal_error
from boruna.service.errors import InvalidParams, guard_source

SERVER_NAME = "boruna-mcp"
INSTRUCTIONS = (
    "Boruna MCP server: compile, run, diagnose, repair and manage .ax programs (a deterministic, "
    "capability-safe language). Every tool takes .ax source as a string (never a file path) and "
    "returns one JSON text item with success first and protocol_version 1. Domain failures "
    "(compile errors, runtime errors, invalid policies, ...) are successful tool results with "
    "success=false and a stable error_kind, never MCP errors; MCP errors mean a malformed request "
    "(unknown tool, bad arguments, source over 1 MB).")

log = logging.getLogger("boruna.mcp")


def _tool_listing() -> list[types.Tool]:
    return [types.Tool(name=t.name, description=t.description, input_schema=input_schema(t.params))
            for t in sorted(TOOLS, key=lambda t: t.name)]


def _progress_reporter(ctx, token_present: bool):
    """A thread-side `on_progress(steps, message=None)` sending notifications via the SDK."""
    if not token_present:
        return None

    def report(steps, message=None, *_ignored):
        try:
            anyio.from_thread.run(ctx.session.report_progress, float(steps), None, message)
        except Exception:  # a lost notification must never fail the run
            log.debug("progress notification not delivered", exc_info=True)

    return report


class BorunaServer:
    """The tool handlers bound to one server configuration (templates and libs directories)."""

    def __init__(self, templates_dir: Path, libs_dir: Optional[Path]):
        self.templates_dir = templates_dir
        self.libs_dir = libs_dir
        self._listing = _tool_listing()

    async def list_tools(self, ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self._listing)

    async def list_empty_prompts(self, ctx, params) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[])

    async def list_empty_resources(self, ctx, params) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[])

    async def list_empty_templates(self, ctx, params) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[])

    async def call_tool(self, ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = TOOLS_BY_NAME.get(params.name)
        if tool is None:
            raise MCPError(code=types.INVALID_PARAMS, message="tool not found")
        try:
            args = tool.params.model_validate(params.arguments or {})
        except ValidationError as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=describe_validation_error(exc)) from None
        if tool.takes_source:
            try:
                guard_source(args.source)
            except InvalidParams as exc:
                raise MCPError(code=types.INVALID_PARAMS, message=exc.message) from None

        meta = ctx.meta or {}
        token = meta.get("progressToken", meta.get("progress_token"))
        token_present = token is not None and tool.name == "boruna_run"
        env = ToolEnv(templates_dir=self.templates_dir, libs_dir=self.libs_dir,
                      on_progress=_progress_reporter(ctx, token_present))
        work = functools.partial(self._invoke, tool, args, env)
        try:
            response = await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
        except anyio.get_cancelled_exc_class():
            env.cancel_event.set()  # the abandoned worker's VM stops at its next check
            raise
        if isinstance(response, InvalidParams):
            raise MCPError(code=types.INVALID_PARAMS, message=response.message)
        return types.CallToolResult(content=[types.TextContent(type="text", text=response)],
                                    is_error=False)

    @staticmethod
    def _invoke(tool, args, env: ToolEnv):
        """Worker-thread body: the service call and its rendering, every failure a value."""
        try:
            return render(tool.call(args, env))
        except InvalidParams as exc:
            return exc
        except BaseException as exc:  # noqa: BLE001 - the server must keep serving
            return render(internal_error(exc))

    def build(self) -> Server:
        server = Server(
            SERVER_NAME,
            version=__version__,
            instructions=INSTRUCTIONS,
            on_list_tools=self.list_tools,
            on_call_tool=self.call_tool,
        )
        server.add_request_handler("prompts/list", types.PaginatedRequestParams, self.list_empty_prompts)
        server.add_request_handler("resources/list", types.PaginatedRequestParams, self.list_empty_resources)
        server.add_request_handler("resources/templates/list", types.PaginatedRequestParams,
                                   self.list_empty_templates)
        return server

    def initialization_options(self) -> InitializationOptions:
        """Advertise tools only (the empty prompt/resource lists are courtesy answers)."""
        return InitializationOptions(
            server_name=SERVER_NAME,
            server_version=__version__,
            capabilities=types.ServerCapabilities(tools=types.ToolsCapability()),
            instructions=INSTRUCTIONS,
        )

    async def serve_stdio(self) -> None:
        server = self.build()
        stdin = anyio.wrap_file(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8",
                                                 errors="replace"))
        lines = SanitizedLines(stdin)
        async with stdio_server(stdin=lines) as (read_stream, write_stream):
            lines.reply = lambda error: write_stream.send(SessionMessage(error))
            answers = AnswerCountingStream(write_stream, lines.in_flight)
            await server.run(read_stream, answers, self.initialization_options())


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="boruna-mcp",
        description="Boruna MCP server: serves the Boruna toolchain (compile, run, check, repair, "
                    "framework, workflow and template tools) over MCP stdio (newline-delimited "
                    "JSON-RPC on stdin/stdout).")
    parser.add_argument("--templates-dir", metavar="PATH", default=None,
                        help="templates root for boruna_template_list/apply (default: ./templates, "
                             "else the templates bundled with boruna)")
    parser.add_argument("--libs-dir", metavar="PATH", default=None,
                        help="libraries used to resolve `import` in submitted source (default: "
                             "./libs, else the libraries bundled with boruna)")
    parser.add_argument("--version", action="version", version=f"boruna-mcp {__version__}")
    return parser.parse_args(argv)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Console entry point: parse flags, then serve MCP on stdio until stdin closes."""
    args = parse_args(argv)
    templates_dir = resolve_dir(args.templates_dir, TEMPLATES)
    libs_dir = resolve_dir(args.libs_dir, LIBS)
    logging.basicConfig(level=os.environ.get("BORUNA_MCP_LOG", "WARNING").upper(),
                        stream=sys.stderr)
    previous = _exit_on_ctrl_c()
    if _is_terminal(sys.stdin):
        print("boruna-mcp: serving MCP (JSON-RPC lines) on stdin/stdout for a coding agent; "
              "register it with your agent instead of typing here (docs/registering.md). "
              "Ctrl-C stops it.", file=sys.stderr, flush=True)
    try:
        anyio.run(BorunaServer(templates_dir, libs_dir).serve_stdio)
    except KeyboardInterrupt:
        return 130
    finally:
        if previous is not None:
            import signal

            signal.signal(signal.SIGINT, previous)
    return 0


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _exit_on_ctrl_c():
    """Ctrl-C ends the server at once with status 130; returns the handler it replaced
    (None when it could not install its own).

    Stdin is read in a worker thread that cannot be interrupted, so the usual
    KeyboardInterrupt would wait for the next input line (or EOF) before the process ends.
    """
    import signal

    def stop(signum, frame):
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        os._exit(130)

    try:
        return signal.signal(signal.SIGINT, stop)
    except ValueError:  # not the main thread (main() called from a test): keep the default
        return None


if __name__ == "__main__":
    sys.exit(main())
