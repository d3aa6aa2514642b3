"""The Dask engine: the same outputs and audit chain as the local engine, effects journaled
on the coordinator, and a step whose worker is killed mid-step re-run with its journal
(a LocalCluster of 2 worker processes)."""
import collections
import http.server
import json
import os
import signal
import threading
import time

import pytest

pytest.importorskip("distributed")

from boruna.runtime.live import HandlerConfig  # noqa: E402
from boruna.workflow import runs  # noqa: E402
from boruna.workflow.engines.dask import DaskExecutor  # noqa: E402

FETCHES = """fn main() -> Int !{net.fetch} {
    let base = step_input("base")
    let mut i = 0
    let mut n = 0
    while i < 6 {
        n = n + __builtin_string_len(net_fetch(base ++ "/%s/" ++ __builtin_int_to_string(i)))
        i = i + 1
    }
    n
}
"""
POLICY = {"schema_version": 1, "default_allow": True,
          "net_policy": {"allowed_domains": ["127.0.0.1"], "timeout_ms": 10000}}


@pytest.fixture(scope="module")
def server():
    hits = collections.Counter()
    delay = [0.0]

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits[self.path] += 1
            time.sleep(delay[0])
            body = self.path.encode()
            try:
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except OSError:
                pass

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", hits, delay
    httpd.shutdown()


@pytest.fixture(scope="module")
def executor():
    ex = DaskExecutor(1)
    yield ex
    ex.shutdown()


def workflow(tmp_path, names):
    root = tmp_path / "wf"
    root.mkdir(exist_ok=True)
    steps = {}
    for name in names:
        (root / f"{name}.ax").write_text(FETCHES % name)
        steps[name] = {"kind": "source", "source": f"{name}.ax", "capabilities": ["net.fetch"],
                       "inputs": {"base": "$input.base"}}
    (root / "workflow.json").write_text(json.dumps(
        {"schema_version": 1, "name": "fan", "version": "1", "steps": steps, "edges": []}))
    return runs.load_directory(root)


def run_with(definition, data, base, executor=None):
    """Start a run; with `executor`, drive it on that (already started) Dask executor."""
    import boruna.workflow.runs as module

    original = module._executor
    if executor is not None:
        module._executor = lambda *a, **k: _Borrowed(executor)
    try:
        return runs.start(definition, data_dir=data, inputs={"base": base}, policy=POLICY,
                          handlers=HandlerConfig(live=True))
    finally:
        module._executor = original


class _Borrowed:
    """The module's executor, not shut down by the run (one cluster for the module)."""

    def __init__(self, inner):
        self.inner = inner
        self.name = inner.name

    def submit(self, *args):
        return self.inner.submit(*args)

    def shutdown(self):
        pass


def test_same_outputs_effects_and_audit_chain_as_local(tmp_path, server, executor):
    base, hits, delay = server
    delay[0] = 0.0
    definition = workflow(tmp_path, ["a", "b", "c"])
    local = run_with(definition, tmp_path / "local", base)
    hits.clear()
    dask = run_with(definition, tmp_path / "dask", base, executor)
    assert dask["status"] == "completed"
    assert (dask["outputs"], dask["audit_head"], dask["effects_count"]) == (
        local["outputs"], local["audit_head"], local["effects_count"])
    assert len(hits) == 18 and set(hits.values()) == {1}


def test_a_killed_worker_step_is_rerun_with_its_journal(tmp_path, server, executor):
    base, hits, delay = server
    delay[0] = 0.15
    hits.clear()
    definition = workflow(tmp_path, ["slow"])
    reference = {f"/slow/{i}" for i in range(6)}
    client = executor.client
    pids = client.run(os.getpid)

    def killer():
        while sum(hits.values()) < 3:
            time.sleep(0.01)
        busy = [w for w, keys in client.processing().items() if keys]
        for worker in busy:
            os.kill(pids[worker], signal.SIGKILL)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    view = run_with(definition, tmp_path / "killed", base, executor)
    thread.join(5)
    delay[0] = 0.0
    assert view["status"] == "completed", view
    assert set(hits) == reference
    assert view["outputs"] == {"slow": {"result": sum(len(p) for p in reference)}}
    # journaled calls were replayed, not repeated; the call in flight may be (the window)
    assert sum(hits.values()) - len(hits) <= 1
    assert view["effects_count"] == 7          # 6 fetches + step_input, each journaled once


ASKING = """fn main() -> Int !{net.fetch, llm.call} {
    let base = step_input("base")
    let n = __builtin_string_len(net_fetch(base ++ "/ask/0"))
    let said: String = llm_call("n=" ++ __builtin_int_to_string(n))
    n * 1000 + __builtin_string_len(said) + __builtin_string_len(net_fetch(base ++ "/ask/1"))
}
"""


def test_a_delegated_step_pauses_on_a_worker_and_goes_on_from_its_snapshot(tmp_path, server,
                                                                            executor):
    import boruna.workflow.runs as module

    base, hits, delay = server
    delay[0] = 0.0
    root = tmp_path / "ask"
    root.mkdir()
    (root / "ask.ax").write_text(ASKING)
    (root / "workflow.json").write_text(json.dumps(
        {"schema_version": 1, "name": "ask", "version": "1", "edges": [],
         "steps": {"ask": {"kind": "source", "source": "ask.ax",
                           "capabilities": ["net.fetch", "llm.call"],
                           "inputs": {"base": "$input.base"},
                           "handlers": {"llm.call": "client"}}}}))
    definition = runs.load_directory(root)

    def answered(data, on_dask):
        paused = run_with(definition, data, base, executor if on_dask else None)
        assert paused["status"] == "paused"
        assert paused["waiting"][0]["request"] == {"capability": "llm.call", "args": ["n=6"]}
        original = module._executor
        if on_dask:
            module._executor = lambda *a, **k: _Borrowed(executor)
        try:
            return runs.decide(paused["run_id"], "ask", "answer", answer="yes", data_dir=data,
                               handlers=HandlerConfig(live=True))
        finally:
            module._executor = original

    local = answered(tmp_path / "local", False)
    hits.clear()
    dask = answered(tmp_path / "dask", True)
    assert dask["status"] == local["status"] == "completed"
    assert dask["outputs"] == local["outputs"] == {"ask": {"result": 6000 + 3 + 6}}
    assert (dask["audit_head"], dask["effects_count"]) == (local["audit_head"],
                                                           local["effects_count"])
    assert dict(hits) == {"/ask/0": 1, "/ask/1": 1}     # the first fetch was not made again
