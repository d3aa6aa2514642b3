"""`boruna-mcp`: the MCP stdio server exposing the Boruna toolchain to coding agents.

Transport and concurrency only; every tool's logic lives in `boruna.service`. Stdin and
stdout have threads of their own (`transport.py`); each call runs on a worker of its lane
(`lanes.py`: runs in one, every other tool in another, both bounded), so long runs never stop
the server reading requests or answering cheap ones; a cancelled request sets the call's
cancel event so its VM stops; `boruna_run` with `_meta.progressToken` streams
`notifications/progress` through the SDK before it answers.
"""
from __future__ import annotations

import argparse
import functools
import logging
import os
import sys
from pathlib import Path
from typing import Optional, Sequence

import anyio
import anyio.from_thread
import anyio.lowlevel
import mcp_types as types
from pydantic import ValidationError

from mcp.server.lowlevel.server import Server
from mcp.server.models import InitializationOptions
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage

from boruna import __version__
from boruna.assets.directories import LIBS, TEMPLATES, resolve_dir
from boruna.core.errors import ErrorKind
from boruna.mcp.lanes import LaneBusy, Lanes
from boruna.mcp.documents import Documents
from boruna.mcp.params import describe_validation_error, input_schema
from boruna.mcp.responses import output_schema
from boruna.mcp.results import tool_result
from boruna.mcp.stdin_lines import AnswerCountingStream, SanitizedLines, screen
from boruna.mcp.tools import TOOLS, TOOLS_BY_NAME, ToolEnv
from boruna.mcp.transport import StartupFailure, StdinReader, StdoutWriter, claim_stdio
from boruna.service import fail
from boruna.service.boundary import internal_error
from boruna.service.errors import InvalidParams, guard_source

SERVER_NAME = "boruna-mcp"
INSTRUCTIONS = (
    "Boruna MCP server: compile, run, diagnose, repair and manage .ax programs (a deterministic, "
    "capability-safe language). New to .ax? Read the resource boruna://guide first (syntax, "
    "builtins, common mistakes); boruna://codes/<CODE> explains a diagnostic code, "
    "boruna://libs and boruna://templates list the libraries and templates. Usual loop: "
    "boruna_check, boruna_repair, boruna_run. Every tool takes .ax source as a string (never a "
    "file path) and returns one JSON text item (also as structuredContent) with success first "
    "and protocol_version 1. Domain failures (compile errors, runtime errors, invalid "
    "policies, ...) are tool results with success=false (isError true) and a stable "
    "error_kind, never MCP errors; MCP errors mean a malformed request (unknown tool, bad "
    "arguments, source over 1 MB).")

log = logging.getLogger("boruna.mcp")


def _tool_listing() -> list[types.Tool]:
    return [types.Tool(name=t.name, title=t.title, description=t.description,
                       input_schema=input_schema(t.params), output_schema=output_schema(t.name),
                       annotations=types.ToolAnnotations.model_validate(t.annotations()))
            for t in sorted(TOOLS, key=lambda t: t.name)]


def _progress_reporter(ctx, token_present: bool):
    """A worker-side `on_progress(steps, message=None)` sending notifications via the SDK
    (`boruna.service` calls it at most every 0.1 s)."""
    if not token_present:
        return None
    loop = anyio.lowlevel.current_token()

    def report(steps, message=None, *_ignored):
        try:
            anyio.from_thread.run(ctx.session.report_progress, float(steps), None, message,
                                  token=loop)
        except Exception:  # a lost notification must never fail the run
            log.debug("progress notification not delivered", exc_info=True)

    return report


def _busy(tool_name: str, busy: LaneBusy) -> types.CallToolResult:
    lane = busy.lane
    return tool_result(fail(
        ErrorKind.SERVER_BUSY,
        f"server busy: {tool_name} was refused because {lane.capacity} calls of the {lane.name} "
        f"lane are already accepted ({lane.workers} running, {lane.queue_limit} waiting); "
        "retry once one is answered, or cancel one",
        lane=lane.name, workers=lane.workers, queue_limit=lane.queue_limit))


class BorunaServer:
    """The tool handlers bound to one server configuration (templates and libs directories)."""

    def __init__(self, templates_dir: Path, libs_dir: Optional[Path], handlers=None):
        self.templates_dir = templates_dir
        self.libs_dir = libs_dir
        self.handlers = handlers                # service.HandlerConfig; None = the mock
        self._listing = _tool_listing()
        self.lanes: Optional[Lanes] = None      # started by serve_stdio
        self.documents = Documents(templates_dir, libs_dir)

    async def list_tools(self, ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self._listing)

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
                      on_progress=_progress_reporter(ctx, token_present),
                      handlers=self.handlers)
        work = functools.partial(self._invoke, tool, args, env)
        try:
            response = await self.lanes.for_tool(tool.name).run(work)
        except LaneBusy as busy:
            response = _busy(tool.name, busy)
        except anyio.get_cancelled_exc_class():
            env.cancel_event.set()  # the worker's VM stops at its next check
            raise
        if isinstance(response, InvalidParams):
            raise MCPError(code=types.INVALID_PARAMS, message=response.message)
        return response

    @staticmethod
    def _invoke(tool, args, env: ToolEnv):
        """Worker-thread body: the service call as a CallToolResult, every failure a value."""
        try:
            return tool_result(tool.call(args, env))
        except InvalidParams as exc:
            return exc
        except BaseException as exc:  # noqa: BLE001 - the server must keep serving
            return tool_result(internal_error(exc))

    def build(self) -> Server:
        docs = self.documents
        return Server(
            SERVER_NAME,
            version=__version__,
            instructions=INSTRUCTIONS,
            on_list_tools=self.list_tools,
            on_call_tool=self.call_tool,
            on_list_resources=docs.list_resources,
            on_list_resource_templates=docs.list_templates,
            on_read_resource=docs.read_resource,
            on_list_prompts=docs.list_prompts,
            on_get_prompt=docs.get_prompt,
        )

    def initialization_options(self) -> InitializationOptions:
        """Advertise tools, resources (the agent docs) and prompts."""
        return InitializationOptions(
            server_name=SERVER_NAME,
            server_version=__version__,
            capabilities=types.ServerCapabilities(tools=types.ToolsCapability(),
                                                  resources=types.ResourcesCapability(),
                                                  prompts=types.PromptsCapability()),
            instructions=INSTRUCTIONS,
        )

    async def serve_stdio(self) -> None:
        """Serve until stdin closes. Every thread the server uses is started here, before
        the first request, the transport's first: the stdout writer, the stdin reader, both
        lanes' workers and the deep-stack workers (as many of the last two as the system
        allows)."""
        from boruna.core.deep_stack import start_pool

        server = self.build()
        with claim_stdio() as (wire_in, wire_out):
            reader, writer = StdinReader(wire_in, screen), StdoutWriter(wire_out)
            writer.start()
            reader.start()
            self.lanes = Lanes()
            start_pool()
            lines = SanitizedLines(reader)
            async with stdio_server(stdin=lines, stdout=writer) as (read_stream, write_stream):
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
    parser.add_argument("--live", action="store_true",
                        help="boruna_run and boruna_run_sealed use live capability handlers "
                             "(real HTTP under the policy's net_policy, the clock, the OS "
                             "random generator; files and a database only with --fs-root / "
                             "--db); default: the deterministic mock")
    parser.add_argument("--fs-root", metavar="DIR", default=None,
                        help="with --live: fs.read/fs.write reach relative paths inside DIR only")
    parser.add_argument("--db", metavar="FILE", default=None,
                        help="with --live: db.query runs on this SQLite file (read-only)")
    parser.add_argument("--db-write", action="store_true",
                        help="with --db: the database may be written")
    parser.add_argument("--llm-endpoint", metavar="URL", default=None,
                        help="with --live: llm.call posts to URL/chat/completions (an "
                             "OpenAI-compatible endpoint; default: $BORUNA_LLM_ENDPOINT, else "
                             "the mock answer)")
    parser.add_argument("--version", action="version", version=f"boruna-mcp {__version__}")
    args = parser.parse_args(argv)
    for flag, value in (("--fs-root", args.fs_root), ("--db", args.db),
                        ("--db-write", args.db_write), ("--llm-endpoint", args.llm_endpoint)):
        if value and not args.live:
            parser.error(f"{flag} needs --live")
    if args.db_write and not args.db:
        parser.error("--db-write needs --db FILE")
    return args


def handler_config(args: argparse.Namespace):
    """The capability handlers the flags ask for (None: the deterministic mock)."""
    if not args.live:
        return None
    from boruna.service import HandlerConfig

    return HandlerConfig.from_env(True, args.fs_root, args.db, args.db_write,
                                  args.llm_endpoint)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Console entry point: parse flags, then serve MCP on stdio until stdin closes."""
    args = parse_args(argv)
    templates_dir = resolve_dir(args.templates_dir, TEMPLATES)
    libs_dir = resolve_dir(args.libs_dir, LIBS)
    _configure_logging(os.environ.get("BORUNA_MCP_LOG"))
    sys.setswitchinterval(SWITCH_INTERVAL)
    previous = _exit_on_ctrl_c()
    if _is_terminal(sys.stdin):
        print("boruna-mcp: serving MCP (JSON-RPC lines) on stdin/stdout for a coding agent; "
              "register it with your agent instead of typing here (docs/registering.md). "
              "Ctrl-C stops it.", file=sys.stderr, flush=True)
    try:
        anyio.run(BorunaServer(templates_dir, libs_dir, handler_config(args)).serve_stdio)
    except KeyboardInterrupt:
        return 130
    except StartupFailure as exc:
        print(f"boruna-mcp: cannot start: {exc}", file=sys.stderr, flush=True)
        return 1
    finally:
        if previous is not None:
            import signal

            signal.signal(signal.SIGINT, previous)
    return 0


SWITCH_INTERVAL = 0.0005
"""Seconds a busy thread holds the GIL while another waits for it (Python's default: 0.005).
Runs hand the interpreter over every 1,024 VM steps at the latest, so with several runs busy
a cheap call, the event loop and the transport wait ~0.5 ms per hand-over instead of ~5 ms."""

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _configure_logging(requested: Optional[str]) -> None:
    """Log to stderr at BORUNA_MCP_LOG's level (default WARNING); an unknown value gets a
    one-line warning and the default."""
    level = (requested or "WARNING").strip().upper()
    if level not in LOG_LEVELS:
        print(f"boruna-mcp: warning: ignoring BORUNA_MCP_LOG={requested!r} (expected one of "
              f"{', '.join(name.lower() for name in LOG_LEVELS)}); logging warnings",
              file=sys.stderr, flush=True)
        level = "WARNING"
    logging.basicConfig(level=level, stream=sys.stderr)


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
