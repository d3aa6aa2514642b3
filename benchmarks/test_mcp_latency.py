"""Latency of a tiny `boruna_run` through MCP, beside the MCP SDK's own floor, one run.

A real stdio client of the official `mcp` SDK (`ClientSession` over `stdio_client`) drives
three servers started as subprocesses, the calls interleaved (one call to each in turn):
- `boruna-mcp` (`python -m boruna.mcp`), `boruna_run` of `fn main() -> Int { 1 + 2 }`
  (after the first call its module comes from the service's module cache; begun and
  answered on the event loop, `mcp/inline_runs.py`), again with another source each call
  (`1 + k`: compiled every call), and again with the policy given as an object (`{}`, the
  same allow-all answer): such a call is not begun on the loop, so it takes the lane hop
  to a run worker and back;
- the SDK floor (`mcp_floor_server.py sdk`): the SDK's low-level server on its own stdio
  transport, a tool that answers an empty text at once;
- boruna's floor (`mcp_floor_server.py boruna`): `boruna-mcp`'s own server and transport,
  a tool `noop` answered on the event loop with the bytes the tiny run answers.

With BORUNA_MCP_LATENCY_BEFORE=DIR (a `src` directory of another checkout, its extension
built) a fourth server, that checkout's `boruna-mcp`, runs in the same interleaving.

It prints the median and minimum round trip of each, the ratios to the SDK floor, and the
servers' CPU time per call (from /proc, steadier than wall time on a shared machine), under
three schedules of the same client:
- interleaved: one call to each server in turn, so each server idles ~4 ms between calls;
- back to back: a client's consecutive calls, in turns of BORUNA_MCP_LATENCY_BLOCK (50) calls
  to one server, the servers in turn (every server still measured beside the others);
- after idle: each call after the client slept 5, 20 and 100 ms
  (BORUNA_MCP_LATENCY_GAPS, in seconds), as an agent that thinks between calls does. On an
  idle machine the first ~millisecond after a pause runs several times slower (caches and
  cores gone cold); the SDK's no-op floor pays it as much as `boruna-mcp` does.

A second test drives the same servers with a bare client instead of the SDK's: one JSON-RPC
line written to the server's stdin, one line read from its stdout, blocking, no event loop.
Its round trip is what the server (the SDK's dispatch on the server side included) takes, with
the SDK client's own share (its stream tasks, validation and dispatch) left out.
Nothing is asserted about timings.

    python -m pytest benchmarks/test_mcp_latency.py --benchmark-only -s
    BORUNA_MCP_LATENCY_CALLS=3000 python -m pytest benchmarks/test_mcp_latency.py -s
    python -m pytest benchmarks/test_mcp_latency.py -s -k back_to_back
"""
import json
import os
import statistics
import subprocess
import sys
import time
from contextlib import AsyncExitStack
from pathlib import Path

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

TINY = "fn main() -> Int { 1 + 2 }"
FLOOR = str(Path(__file__).with_name("mcp_floor_server.py"))
SERVERS = {
    "boruna_run": (["-m", "boruna.mcp"], "boruna_run", {"source": TINY}),
    # another source every call (`1 + k`): compiled every time, never from the module cache
    "boruna_run (new source per call)": (["-m", "boruna.mcp"], "boruna_run",
                                         lambda k: {"source": f"fn main() -> Int {{ 1 + {k} }}"}),
    # a policy object is validated on a worker: the call takes the lane hop (same answer)
    "boruna_run (on a worker)": (["-m", "boruna.mcp"], "boruna_run", {"source": TINY,
                                                                     "policy": {}}),
    "sdk floor (no-op tool)": ([FLOOR, "sdk"], "noop", {}),
    "boruna floor (no-op tool)": ([FLOOR, "boruna"], "noop", {}),
}
BEFORE = os.environ.get("BORUNA_MCP_LATENCY_BEFORE")
if BEFORE:
    SERVERS["boruna_run (before)"] = (["-c", f"import sys; sys.path.insert(0, {BEFORE!r}); "
                                        "from boruna.mcp.launch import main; sys.exit(main())"],
                                       "boruna_run", {"source": TINY})
CALLS = int(os.environ.get("BORUNA_MCP_LATENCY_CALLS", "600"))
WARMUP = 30


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of process `pid` (0 where /proc is missing)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children() -> list:
    """(cmdline, pid) of this process's children."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid():
                found.append(((entry / "cmdline").read_text().replace("\0", " "), int(entry.name)))
        except (OSError, ValueError, IndexError):
            continue
    return found


def _arguments(arguments, k: int) -> dict:
    """The call's arguments: `arguments`, or `arguments(k)` for the k-th call."""
    return arguments(k) if callable(arguments) else arguments


async def _measure(calls: int, block: int = 1, gap: float = 0.0) -> dict:
    """{label: (round trips, server CPU seconds per call)}: `calls` calls to each server, in
    turns of `block` consecutive calls to one server (1: one call to each in turn), each call
    after `gap` seconds of the client sleeping (0: sent as soon as the last answer is in)."""
    async with AsyncExitStack() as stack:
        sessions = {}
        for label, (args, tool, arguments) in SERVERS.items():
            params = StdioServerParameters(command=sys.executable, args=args)
            read, write = await stack.enter_async_context(stdio_client(params))
            session = await stack.enter_async_context(ClientSession(read, write))
            await session.initialize()
            for k in range(WARMUP):
                result = await session.call_tool(tool, _arguments(arguments, k))
            assert not result.is_error, result
            used = {s[3] for s in sessions.values()}
            pid = next((pid for cmd, pid in _children()
                        if " ".join(args) in cmd and pid not in used), None)
            sessions[label] = (session, tool, arguments, pid)
        samples = {label: [] for label in sessions}
        cpu_before = {label: _cpu_seconds(s[3]) if s[3] else 0.0 for label, s in sessions.items()}
        for start in range(0, calls, block):
            for label, (session, tool, arguments, _pid) in sessions.items():
                for k in range(start, min(start + block, calls)):
                    call_arguments = _arguments(arguments, WARMUP + k)
                    if gap:
                        await anyio.sleep(gap)
                    started = time.perf_counter()
                    await session.call_tool(tool, call_arguments)
                    samples[label].append(time.perf_counter() - started)
        cpu = {label: (_cpu_seconds(s[3]) - cpu_before[label]) / calls if s[3] else None
               for label, s in sessions.items()}
        return {label: (samples[label], cpu[label]) for label in sessions}


def _print_table(benchmark, figures: dict, key: str, heading: str) -> None:
    floor = statistics.median(figures["sdk floor (no-op tool)"][0])
    print(f"\n{heading}; ratios against the SDK floor's median")
    print("| server | median ms | min ms | median / SDK floor | server CPU ms/call |")
    print("|---|---|---|---|---|")
    for label, (samples, cpu) in figures.items():
        median = statistics.median(samples)
        benchmark.extra_info[f"{label} {key} median_ms"] = median * 1e3
        cpu_text = "" if cpu is None else f"{cpu * 1e3:.3f}"
        print(f"| {label} | {median * 1e3:.3f} | {min(samples) * 1e3:.3f} | "
              f"{median / floor:.2f} | {cpu_text} |")


def test_mcp_tiny_run_latency(benchmark):
    """One call to each server in turn: each server sits idle while the others answer."""
    figures = benchmark.pedantic(lambda: anyio.run(_measure, CALLS), rounds=1, iterations=1)
    _print_table(benchmark, figures, "interleaved", f"{CALLS} calls each, interleaved")


BLOCK = int(os.environ.get("BORUNA_MCP_LATENCY_BLOCK", "50"))


def test_mcp_tiny_run_latency_back_to_back(benchmark):
    """A client's consecutive calls: turns of BLOCK calls in a row to one server, the servers
    in turn, so every server is measured beside the others in the same run."""
    figures = benchmark.pedantic(lambda: anyio.run(_measure, CALLS, BLOCK), rounds=1,
                                 iterations=1)
    _print_table(benchmark, figures, "back_to_back",
                 f"{CALLS} calls each, back to back in turns of {BLOCK}")


GAPS = [float(g) for g in os.environ.get("BORUNA_MCP_LATENCY_GAPS", "0.005,0.02,0.1").split(",")
        if g.strip()]
GAP_CALLS = int(os.environ.get("BORUNA_MCP_LATENCY_GAP_CALLS", "100"))


def test_mcp_tiny_run_latency_after_idle(benchmark):
    """Each call after the client idled GAP seconds (an agent thinks for seconds between
    calls): turns of 10 calls, GAP_CALLS per server and gap. The idle machine's caches and
    cores go cold between calls; every server, the SDK's no-op floor included, pays that."""
    def measure():
        return {gap: anyio.run(_measure, GAP_CALLS, 10, gap) for gap in GAPS}

    by_gap = benchmark.pedantic(measure, rounds=1, iterations=1)
    for gap, figures in by_gap.items():
        _print_table(benchmark, figures, f"gap_{gap * 1e3:g}ms",
                     f"{GAP_CALLS} calls each, each after {gap * 1e3:g} ms idle")


def _bare_session(args):
    """A server subprocess, initialized by hand over its stdio: (process, call), where
    `call(tool, arguments)` writes one tools/call line and reads its answer line."""
    proc = subprocess.Popen([sys.executable, *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
    ids = iter(range(1, 10**9))
    reader = proc.stdout

    def send(message):
        proc.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    def request(method, params):
        ident = next(ids)
        send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        while True:      # skip notifications (log messages), answer the matching id
            answer = json.loads(reader.readline())
            if answer.get("id") == ident:
                return answer

    from mcp_types import LATEST_PROTOCOL_VERSION
    request("initialize", {"protocolVersion": LATEST_PROTOCOL_VERSION, "capabilities": {},
                           "clientInfo": {"name": "bare", "version": "0"}})
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    return proc, lambda tool, arguments: request("tools/call", {"name": tool,
                                                                "arguments": arguments})


def test_mcp_tiny_run_latency_bare_client(benchmark):
    def measure():
        sessions = {}
        try:
            for label, (args, tool, arguments) in SERVERS.items():
                proc, call = _bare_session(args)
                for k in range(WARMUP):
                    answer = call(tool, _arguments(arguments, k))
                assert not answer["result"].get("isError"), answer
                sessions[label] = (proc, call, tool, arguments)
            samples = {label: [] for label in sessions}
            cpu_before = {label: _cpu_seconds(s[0].pid) for label, s in sessions.items()}
            for k in range(CALLS):
                for label, (proc, call, tool, arguments) in sessions.items():
                    call_arguments = _arguments(arguments, WARMUP + k)
                    started = time.perf_counter()
                    call(tool, call_arguments)
                    samples[label].append(time.perf_counter() - started)
            cpu = {label: (_cpu_seconds(s[0].pid) - cpu_before[label]) / CALLS
                   for label, s in sessions.items()}
            return {label: (samples[label], cpu[label]) for label in sessions}
        finally:
            for proc, *_rest in sessions.values():
                proc.stdin.close()
                proc.wait(timeout=30)

    figures = benchmark.pedantic(measure, rounds=1, iterations=1)
    floor = statistics.median(figures["sdk floor (no-op tool)"][0])
    print(f"\nbare client (one JSON line each way, no SDK client): {CALLS} calls each, "
          "interleaved; ratios against the SDK floor's median")
    print("| server | median ms | min ms | median / SDK floor | server CPU ms/call |")
    print("|---|---|---|---|---|")
    for label, (samples, cpu) in figures.items():
        median = statistics.median(samples)
        benchmark.extra_info[f"{label} bare median_ms"] = median * 1e3
        print(f"| {label} | {median * 1e3:.3f} | {min(samples) * 1e3:.3f} | "
              f"{median / floor:.2f} | {cpu * 1e3:.3f} |")
