"""Language-server latency (issue 22) on a 5,000-line program. Targets: diagnostics after a
change ≤ 200 ms; hover and completion ≤ 50 ms.

Two measurements: in process (`service.editor`: the analysis behind the diagnostics, hover,
completion on a warm analysis), and end to end over stdio (`boruna-lsp` as a subprocess, a
pygls client: `didChange` → `publishDiagnostics` of that version with the debounce at 0 ms;
a `hover` and a `completion` request → answer). Printed as absolute figures and as ratios to
`boruna check`'s own time (`check_source`) measured in the same run, since the machine's
load varies. Run: `python -m pytest benchmarks/test_lsp_latency.py --benchmark-only -s`.
"""
from __future__ import annotations

import asyncio
import statistics
import sys
import time

import pytest

FUNCTION = """fn step_{i}(n: Int, label: String) -> Int {{
    let mut total = n * {i} + 1
    let items = [1, 2, 3, total]
    for x in items {{ total = total + x }}
    if total > 100 && label != "skip" {{
        total = total - step_{j}(n - 1, label ++ "!")
    }} else {{
        total = list_len(items)
    }}
    let p = Pair {{ left: total, right: n }}
    p.left + p.right
}}
"""
HEADER = "type Pair { left: Int, right: Int }\n\n"
MAIN = "fn main() -> Int {\n    step_0(3, \"go\")\n}\n"


def program(lines: int = 5000) -> str:
    parts, count, i = [HEADER], 2, 0
    while count < lines - 3:
        text = FUNCTION.format(i=i, j=max(i - 1, 0))
        parts.append(text)
        count += text.count("\n")
        i += 1
    parts.append(MAIN)
    return "".join(parts)


@pytest.fixture(scope="module")
def source() -> str:
    text = program()
    assert 4990 <= text.count("\n") <= 5010
    return text


def _best(fn, rounds=5):
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def test_in_process_latency(benchmark, source):
    from boruna.diagnostics.collector import check_source
    from boruna.service.editor import completion, hover
    from boruna.service.editor.analysis import analyse

    changed = source.replace("n * 7 + 1", "n * 8 + 1", 1)
    check_best, _ = _best(lambda: check_source(changed, "<bench>"))
    analysis = benchmark.pedantic(lambda: analyse(changed, "<bench>"), rounds=5, iterations=1)
    assert analysis.diagnostics == []
    analyse_best, analyse_median = _best(lambda: analyse(changed, "<bench>"))
    warm_best, _ = _best(lambda: analyse(changed, "<bench>").indexes(), rounds=3)
    analysis.indexes()
    line = changed[:changed.index("p.left + p.right", len(changed) // 2)].count("\n") + 1
    hover_best, hover_median = _best(lambda: hover.hover(analysis, line, 6), rounds=20)
    assert hover.hover(analysis, line, 6).markdown == "```boruna\np: Pair\n```"
    complete_best, complete_median = _best(
        lambda: completion.complete(analysis, line, 7), rounds=20)
    member_best, _ = _best(lambda: completion.complete(analysis, line, 7), rounds=20)
    print(f"\n5,000 lines: check_source {check_best * 1000:.0f} ms; analysis (the diagnostics) "
          f"{analyse_best * 1000:.0f} ms best / {analyse_median * 1000:.0f} ms median "
          f"(x{analyse_best / check_best:.2f} of check_source); types + index warmed "
          f"{(warm_best - analyse_best) * 1000:.0f} ms more; hover {hover_best * 1000:.2f} ms "
          f"(median {hover_median * 1000:.2f}); completion {complete_best * 1000:.2f} ms "
          f"(median {complete_median * 1000:.2f}); member completion "
          f"{member_best * 1000:.2f} ms")


def test_over_stdio_latency(benchmark, source, tmp_path):
    from lsprotocol import types as T
    from pytest_lsp import LanguageClient

    path = tmp_path / "big.ax"
    uri = path.as_uri()
    published: dict[int, float] = {}

    async def scenario():
        client = LanguageClient()
        arrived = asyncio.Event()

        @client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params):
            published[params.version] = time.perf_counter()
            arrived.set()

        await client.start_io(sys.executable, "-m", "boruna.lsp", "--debounce-ms", "0",
                              cwd=str(tmp_path))
        await client.initialize_session(T.InitializeParams(capabilities=T.ClientCapabilities(),
                                                           root_uri=tmp_path.as_uri()))
        client.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(
            uri=uri, language_id="boruna", version=1, text=source)))
        while 1 not in published:
            await asyncio.wait_for(arrived.wait(), 60)
            arrived.clear()
        await asyncio.sleep(1.0)            # the warm-up of the first analysis
        change_times = []
        for version in range(2, 7):
            text = source.replace("n * 7 + 1", f"n * {version} + 1", 1)
            sent = time.perf_counter()
            client.text_document_did_change(T.DidChangeTextDocumentParams(
                text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)]))
            while version not in published:
                await asyncio.wait_for(arrived.wait(), 60)
                arrived.clear()
            change_times.append(published[version] - sent)
            await asyncio.sleep(2.0)        # a pause in typing: the server catches up
        # a burst: 10 changes 30 ms apart, then the time to the last one's diagnostics
        for version in range(7, 17):
            text = source.replace("n * 7 + 1", f"n * {version} + 1", 1)
            sent = time.perf_counter()
            client.text_document_did_change(T.DidChangeTextDocumentParams(
                text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)]))
            await asyncio.sleep(0.03)
        while 16 not in published:
            await asyncio.wait_for(arrived.wait(), 60)
            arrived.clear()
        burst = published[16] - sent
        await asyncio.sleep(2.0)
        line = source[:source.index("p.left + p.right", len(source) // 2)].count("\n")
        hover_times, complete_times = [], []
        for _ in range(10):
            t0 = time.perf_counter()
            found = await client.text_document_hover_async(T.HoverParams(
                text_document=T.TextDocumentIdentifier(uri=uri),
                position=T.Position(line=line, character=5)))
            hover_times.append(time.perf_counter() - t0)
            assert found.contents.value == "```boruna\np: Pair\n```"
            t0 = time.perf_counter()
            await client.text_document_completion_async(T.CompletionParams(
                text_document=T.TextDocumentIdentifier(uri=uri),
                position=T.Position(line=line, character=6)))
            complete_times.append(time.perf_counter() - t0)
        await client.shutdown_session()
        await client.stop()
        return change_times, hover_times, complete_times, burst

    from boruna.diagnostics.collector import check_source

    change_times, hover_times, complete_times, burst = benchmark.pedantic(
        lambda: asyncio.run(scenario()), rounds=1, iterations=1)
    check_best, _ = _best(lambda: check_source(source, "<bench>"), rounds=3)
    print(f"\nover stdio, 5,000 lines: didChange → publishDiagnostics "
          f"{min(change_times) * 1000:.0f} ms best / {statistics.median(change_times) * 1000:.0f}"
          f" ms median (x{min(change_times) / check_best:.2f} of check_source in process, "
          f"{check_best * 1000:.0f} ms, timed after); after a burst of 10 changes 30 ms "
          f"apart, the last one's diagnostics {burst * 1000:.0f} ms after it; hover {min(hover_times) * 1000:.1f} ms best / "
          f"{statistics.median(hover_times) * 1000:.1f} ms median; completion "
          f"{min(complete_times) * 1000:.1f} ms best / "
          f"{statistics.median(complete_times) * 1000:.1f} ms median")
