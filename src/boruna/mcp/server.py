"""The MCP stdio server exposing the Boruna toolchain to coding agents (`boruna-mcp`; the
command line, flags and process handling are in `launch.py`).

Transport and concurrency only; every tool's logic lives in `boruna.service`. Stdin and
stdout have threads of their own (`transport.py`), handed to the SDK as its read and write
streams by `wire.py` (each line decoded once); each call runs on a worker of its lane
(`lanes.py`: runs in one, every other tool in another, both bounded), so long runs never stop
the server reading requests or answering cheap ones (a small `boruna_run` begins on the loop
while a run worker is free and goes to one only if it does not end within a bounded slice:
`inline_runs.py`); a cancelled request sets the call's
cancel event so its VM stops; `boruna_run` with `_meta.progressToken` streams
`notifications/progress` through the SDK before it answers.
"""
from __future__ import annotations

import functools
import logging
import threading
from pathlib import Path
from typing import Optional

import anyio
import anyio.from_thread
import anyio.lowlevel
import mcp_types as types
from pydantic import ValidationError

from mcp.server.lowlevel.server import Server
from mcp.server.models import InitializationOptions
from mcp.shared.exceptions import MCPError

from boruna import __version__
from boruna.core.errors import ErrorKind
from boruna.mcp.lanes import LaneBusy, Lanes, LaneTimeout, queue_wait_seconds
from boruna.mcp.documents import Documents
from boruna.mcp.inline_runs import begin_inline
from boruna.mcp.params import describe_validation_error, input_schema
from boruna.mcp.responses import output_schema
from boruna.mcp.results import call_result, tool_result
from boruna.mcp.stdin_lines import SanitizedLines, screen_message, screen_on_loop
from boruna.mcp.tools import TOOLS, TOOLS_BY_NAME, ToolEnv
from boruna.mcp.transport import StdoutWriter, claim_stdio, start_stdin_reader
from boruna.mcp.wire import InboundMessages, OutboundMessages
from boruna.service import fail
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

PROGRESS_TOOLS = frozenset({"boruna_run", "boruna_workflow_run", "boruna_workflow_resume",
                            "boruna_workflow_decide"})
"""The tools that stream `notifications/progress` when the request carries a progressToken."""


def _tool_listing(live: bool) -> list[types.Tool]:
    """The tools/list answer; `live` (the server runs with --live) changes the annotations of
    the tools that execute capabilities."""
    return [types.Tool(name=t.name, title=t.title, description=t.description,
                       input_schema=input_schema(t.params), output_schema=output_schema(t.name),
                       annotations=types.ToolAnnotations.model_validate(t.annotations(live)))
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
    if isinstance(busy, LaneTimeout):
        waited_ms = round(busy.waited * 1000)
        return tool_result(fail(
            ErrorKind.SERVER_BUSY,
            f"server busy: {tool_name} waited {waited_ms} ms, its whole wall clock, for one of "
            f"the {lane.workers} workers of the {lane.name} lane and was not started; retry "
            "once a run is answered, or cancel one",
            lane=lane.name, workers=lane.workers, queue_limit=lane.queue_limit,
            waited_ms=waited_ms))
    return tool_result(fail(
        ErrorKind.SERVER_BUSY,
        f"server busy: {tool_name} was refused because {lane.capacity} calls of the {lane.name} "
        f"lane are already accepted ({lane.workers} running, {lane.queue_limit} waiting); "
        "retry once one is answered, or cancel one",
        lane=lane.name, workers=lane.workers, queue_limit=lane.queue_limit))


class BorunaServer:
    """The tool handlers bound to one server configuration (templates and libs directories)."""

    def __init__(self, templates_dir: Path, libs_dir: Optional[Path], handlers=None,
                 sealer=None):
        from boruna.runtime.suspend import Sealer

        self.templates_dir = templates_dir
        self.libs_dir = libs_dir
        self.handlers = handlers                # service.HandlerConfig; None = the mock
        self.data_dir: Optional[str] = None     # workflow journal (--data-dir)
        self.workflow_root: Optional[str] = None  # --workflow-root
        # resume tokens (boruna_resume): sealed with a key of this server start unless
        # --snapshot-key-file names one
        self.sealer = sealer if sealer is not None else Sealer()
        self._listing = _tool_listing(handlers is not None)
        self.lanes: Optional[Lanes] = None      # started by serve_stdio
        self.documents = Documents(templates_dir, libs_dir, self._run_quick)
        # a cancel event no call holds (threading.Event() costs a few microseconds)
        self._spare_event: Optional[threading.Event] = None

    async def _run_quick(self, fn):
        """`fn()` on the quick lane (resource reads, prompts); a full lane is an MCP error."""
        try:
            return await self.lanes.quick.run(fn)
        except LaneBusy as busy:
            raise MCPError(code=types.INTERNAL_ERROR,
                           message=f"server busy: the {busy.lane.name} lane is full; retry") from None

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
        token_present = token is not None and tool.name in PROGRESS_TOOLS
        cancel_event, self._spare_event = self._spare_event or threading.Event(), None
        env = ToolEnv(templates_dir=self.templates_dir, libs_dir=self.libs_dir,
                      on_progress=_progress_reporter(ctx, token_present),
                      cancel_event=cancel_event,
                      handlers=self.handlers, sealer=self.sealer,
                      data_dir=Path(self.data_dir) if self.data_dir else None,
                      workflow_root=Path(self.workflow_root) if self.workflow_root else None)
        lane = self.lanes.for_tool(tool.name)
        begun = None
        if tool.begin is not None and lane.has_idle_worker():
            begun = begin_inline(tool, args, env)
            if isinstance(begun, (types.CallToolResult, InvalidParams)):
                # answered on the loop before anything could cancel it: its cancel event
                # was never set, and nothing that saw it outlives the call
                self._spare_event = cancel_event
                return self._answer(begun)
        if begun is not None:   # its rest takes the free worker (started: no queue wait)
            work, max_wait = begun, None
        else:
            work = functools.partial(self._invoke, tool, args, env)
            max_wait = queue_wait_seconds(tool.name, args)
        try:
            response = await lane.run(work, max_wait=max_wait)
        except LaneBusy as busy:
            response = _busy(tool.name, busy)
        except anyio.get_cancelled_exc_class():
            env.cancel_event.set()  # the worker's VM stops at its next check
            raise
        return self._answer(response)

    @staticmethod
    def _answer(response):
        """The call's CallToolResult; InvalidParams is the MCP error."""
        if isinstance(response, InvalidParams):
            raise MCPError(code=types.INVALID_PARAMS, message=response.message)
        return response

    @staticmethod
    def _invoke(tool, args, env: ToolEnv):
        """Worker-thread body: the service call as a CallToolResult, every failure a value."""
        return call_result(tool.call, args, env)

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
        the first request, the transport's first: the stdout writer, the stdin reader's
        (only when stdin is neither a pipe nor a socket: those are read on the event loop),
        both lanes' workers and the deep-stack workers (as many of the last two as the
        system allows)."""
        from boruna.core.deep_stack import start_pool

        server = self.build()
        with claim_stdio() as (wire_in, wire_out):
            writer = StdoutWriter(wire_out)
            writer.start()
            reader = start_stdin_reader(wire_in, screen_message, screen_on_loop)
            self.lanes = Lanes()
            start_pool()
            lines = SanitizedLines(reader)
            answers = OutboundMessages(writer, lines.in_flight)
            lines.reply = answers.send_error
            try:
                await server.run(InboundMessages(lines), answers,
                                 self.initialization_options())
            finally:
                reader.close()
