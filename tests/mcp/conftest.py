"""A real `boruna-mcp` subprocess driven by the MCP SDK's stdio client, as an agent drives it.

`mcp_server` (session scope: one server process shared by the modules, 2 cores are shared)
yields a `ServerHandle`; `server_factory` starts an isolated one. Tests call a handle
synchronously through an anyio blocking portal. Every message the server writes is also
recorded, in arrival order, in `handle.wire`.

`raw_server_factory` is `RawServer`: a server process spoken to in raw JSON-RPC lines.
"""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import anyio
import pytest
from anyio.from_thread import start_blocking_portal

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

REPO = Path(__file__).resolve().parents[2]


class RawServer:
    """`python -m boruna.mcp` on pipes: `send(text)` writes one line, `receive()` returns the
    next message the server wrote, `answers(ids)` collects the answers to those ids."""

    def __init__(self, env=None, preexec_fn=None, cwd=REPO):
        self.proc = subprocess.Popen([sys.executable, "-m", "boruna.mcp"], cwd=cwd,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, encoding="utf-8",
                                     env=env, preexec_fn=preexec_fn)
        self.lines = queue.Queue()
        self._pump_thread = threading.Thread(target=self._pump, daemon=True)
        self._pump_thread.start()

    def _pump(self):
        for line in self.proc.stdout:
            self.lines.put(line)

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def receive(self, timeout=30):
        return json.loads(self.lines.get(timeout=timeout))

    def request(self, request_id, method, params):
        self.send(json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method,
                              "params": params}))
        return self.receive()

    def call(self, request_id, name, arguments):
        """Send a tools/call without waiting for its answer."""
        self.send(json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                              "params": {"name": name, "arguments": arguments}}))

    def cancel(self, request_id):
        self.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled",
                              "params": {"requestId": request_id}}))

    def answers(self, ids, timeout=60):
        """{id: answer} for every id in `ids` (other messages are dropped)."""
        wanted, found = set(ids), {}
        while wanted - set(found):
            message = self.receive(timeout)
            if message.get("id") in wanted:
                found[message["id"]] = message
        return found

    def initialize(self):
        init = self.request(1, "initialize", {"protocolVersion": "2025-03-26", "capabilities": {},
                                              "clientInfo": {"name": "raw", "version": "0"}})
        self.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        return init

    def close(self, timeout=30):
        """Close stdin; the exit status and stderr (everything written to stdout is then
        in `lines`)."""
        self.proc.stdin.close()
        status = self.proc.wait(timeout=timeout)
        self._pump_thread.join(timeout=timeout)
        return status, self.proc.stderr.read()


    def drain(self) -> list:
        """Every message written and not yet received (after the process ended)."""
        out = []
        while not self.lines.empty():
            out.append(json.loads(self.lines.get()))
        return out


@pytest.fixture(scope="session")
def raw_server_factory():
    return RawServer


@pytest.fixture(scope="session")
def tool_payload():
    """`tool_payload(answer)`: the parsed JSON text of a tools/call answer."""
    return lambda answer: json.loads(answer["result"]["content"][0]["text"])


class ServerHandle:
    """Synchronous access to one client session (all calls go through the portal)."""

    def __init__(self, portal, session, init, wire, process_ids):
        self.portal = portal
        self.session = session
        self.init = init                  # the InitializeResult
        self.wire = wire                  # every server->client message, in order
        self.process_ids = process_ids

    def call(self, name, arguments=None, **kwargs):
        """tools/call; returns (parsed JSON payload, raw text). Every result is checked: one
        text item, `structuredContent` equal to its JSON, `isError` exactly when
        `success` is false."""
        result = self.portal.call(lambda: self.session.call_tool(name, arguments, **kwargs))
        assert len(result.content) == 1 and result.content[0].type == "text"
        text = result.content[0].text
        payload = json.loads(text)
        assert result.is_error is (payload["success"] is False)
        assert result.structured_content == payload
        return payload, text

    def run(self, fn, *args):
        """Run an async function on the session's event loop."""
        return self.portal.call(fn, *args)


@asynccontextmanager
async def _recording(read_stream, wire):
    """Interpose on the server->client stream to record the wire order of messages."""
    send, receive = anyio.create_memory_object_stream(1000)

    async def pump():
        async with send:
            async for item in read_stream:
                message = getattr(item, "message", None)
                if message is not None:
                    raw = message.model_dump(by_alias=True, exclude_none=True)
                    wire.append(raw)
                await send.send(item)

    async with anyio.create_task_group() as tg:
        tg.start_soon(pump)
        try:
            yield receive
        finally:
            tg.cancel_scope.cancel()


def _children_running_boruna_mcp() -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read()
        except OSError:
            continue
        if ppid == os.getpid() and b"boruna.mcp" in cmdline:
            pids.append(int(entry))
    return pids


def server_params(*extra_args, cwd=None) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "boruna.mcp", *extra_args],
                                 cwd=str(cwd or REPO))


@asynccontextmanager
async def open_session(params: StdioServerParameters, wire: list):
    async with stdio_client(params) as (read, write):
        async with _recording(read, wire) as recorded:
            async with ClientSession(recorded, write) as session:
                init = await session.initialize()
                yield session, init


@contextmanager
def running_server(*flags, cwd=None):
    """A fresh server process (started with `flags`, in `cwd`) with an initialized session,
    as a ServerHandle."""
    wire: list = []
    with start_blocking_portal() as portal:
        before = set(_children_running_boruna_mcp())
        with portal.wrap_async_context_manager(open_session(server_params(*flags, cwd=cwd),
                                                            wire)) as opened:
            session, init = opened
            pids = [p for p in _children_running_boruna_mcp() if p not in before]
            yield ServerHandle(portal, session, init, wire, pids)


@pytest.fixture(scope="session")
def server_factory():
    """`with server_factory() as handle:` — for modules that need a server of their own."""
    return running_server


@pytest.fixture(scope="session")
def mcp_server():
    """One server shared by every test module that does not need isolation (2 cores)."""
    with running_server() as handle:
        yield handle


@pytest.fixture
def call_fresh_server():
    """`call(calls, *flags, cwd=None)`: start a server with `flags`, run `calls`
    ([(tool, arguments)]) in order, stop it, and return the parsed payloads."""

    def call(calls, *flags, cwd=None):
        async def run_all(session):
            out = []
            for name, arguments in calls:
                result = await session.call_tool(name, arguments)
                out.append(json.loads(result.content[0].text))
            return out

        with start_blocking_portal() as portal:
            params = server_params(*flags, cwd=cwd)
            with portal.wrap_async_context_manager(open_session(params, [])) as opened:
                return portal.call(run_all, opened[0])

    return call


@pytest.fixture
def list_fresh_server():
    """`list_tools(*flags)`: start a server with `flags` and return its tools/list tools."""

    def list_tools(*flags):
        with start_blocking_portal() as portal:
            with portal.wrap_async_context_manager(open_session(server_params(*flags), [])) as opened:
                return portal.call(opened[0].list_tools).tools

    return list_tools
