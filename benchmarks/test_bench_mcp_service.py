"""Overhead of the tool layer: service calls, rendering, and a round trip through boruna-mcp.

Run: python -m pytest benchmarks/test_bench_mcp_service.py --benchmark-only
"""
import sys

import anyio
from anyio.from_thread import start_blocking_portal

from boruna.compiler import compile_source
from boruna.api import run
from boruna.service import check_tool, render, run_tool

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

SMALL = "fn main() -> Int { 1 + 2 }"
COUNT_80K = "fn main() -> Int {\n    let mut i = 0\n    while i < 80000 {\n        i = i + 1\n    }\n    i\n}\n"
WIDE = ("fn main() -> List<Int> {\n    let mut xs = []\n    let mut i = 0\n"
        "    while i < 5000 {\n        xs = list_push(xs, i)\n        i = i + 1\n    }\n    xs\n}\n")


def test_bench_vm_only_small(benchmark):
    module = compile_source(SMALL)
    benchmark(run, module)


def test_bench_run_tool_small(benchmark):
    benchmark(run_tool, SMALL)


def test_bench_run_tool_720k_steps(benchmark):
    benchmark(run_tool, COUNT_80K)


def test_bench_run_tool_720k_steps_with_progress(benchmark):
    benchmark(run_tool, COUNT_80K, on_progress=lambda steps, message: None)


def test_bench_render_5000_element_result(benchmark):
    response = run_tool(WIDE)
    assert response["success"] is True and len(response["result"]) == 5000
    benchmark(render, response)


def test_bench_check_tool(benchmark):
    benchmark(check_tool, COUNT_80K)


def test_bench_mcp_round_trip(benchmark):
    """One boruna_run tools/call over stdio, client to server and back."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "boruna.mcp"])

    async def open_session():
        from contextlib import asynccontextmanager

        @asynccontextmanager
        async def session_cm():
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    yield session
        return session_cm()

    with start_blocking_portal() as portal:
        with portal.wrap_async_context_manager(portal.call(open_session)) as session:
            benchmark(lambda: portal.call(session.call_tool, "boruna_run", {"source": SMALL}))



def test_bench_mcp_cheap_call_while_three_endless_runs(benchmark):
    """boruna_compile round trips while three endless runs keep run-lane workers busy
    (issue 15, item 7: the median used to be 5.1 s)."""
    import time

    params = StdioServerParameters(command=sys.executable, args=["-m", "boruna.mcp"])
    forever = "fn main() -> Int { let mut i = 0\n while true { i = i + 1 }\n i }"

    async def open_session():
        from contextlib import asynccontextmanager

        @asynccontextmanager
        async def session_cm():
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    yield session
        return session_cm()

    with start_blocking_portal() as portal:
        with portal.wrap_async_context_manager(portal.call(open_session)) as session:
            runs = [portal.start_task_soon(session.call_tool, "boruna_run", {
                "source": forever, "max_steps": 10**15, "limits": {"max_wall_ms": 600_000}})
                for _ in range(3)]
            time.sleep(0.5)
            samples = []

            def compile_once():
                started = time.perf_counter()
                portal.call(session.call_tool, "boruna_compile", {"source": SMALL})
                samples.append(time.perf_counter() - started)

            benchmark.pedantic(compile_once, rounds=50)
            for run in runs:
                run.cancel()
            samples.sort()
            benchmark.extra_info["median_s"] = samples[len(samples) // 2]
