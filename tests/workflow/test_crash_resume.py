"""Crash/resume: a real runner process killed with SIGKILL at random moments, then resumed,
ends with the same outputs, the same audit chain and the same effects on a loopback HTTP
server as a run that was never interrupted: no journaled effect is performed twice.

The default suite kills at a few points; `BORUNA_CRASH_POINTS=200` runs 200 (figures in
docs/workflows.md). The one window that remains (a request the server answered whose journal
write had not committed when the process died) shows as one extra request of that URL.
"""
import collections
import http.server
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from boruna.runtime.live import HandlerConfig
from boruna.workflow import runs

RUNNER = Path(__file__).with_name("crash_runner.py")
POINTS = int(os.environ.get("BORUNA_CRASH_POINTS", "2"))
CALLS = 6

STEP = """fn fetch_all(base: String, name: String) -> Int !{net.fetch} {
    let mut i = 0
    let mut total = 0
    while i < %d {
        let body = net_fetch(base ++ "/" ++ name ++ "/" ++ __builtin_int_to_string(i))
        total = total + __builtin_string_len(body)
        i = i + 1
    }
    total
}

fn main() -> Int !{net.fetch} {
    fetch_all(step_input("base"), "%s") + parse_int(step_input("prev"))
}
"""


def write_workflow(directory: Path) -> None:
    steps = {}
    for index, name in enumerate(("a", "b", "c")):
        (directory / f"{name}.ax").write_text(STEP % (CALLS, name))
        inputs = {"base": "$input.base", "prev": "$input.base"}
        if index:
            inputs["prev"] = f"{'abc'[index - 1]}.result"
        steps[name] = {"kind": "source", "source": f"{name}.ax", "capabilities": ["net.fetch"],
                       "inputs": inputs}
    (directory / "workflow.json").write_text(json.dumps(
        {"schema_version": 1, "name": "crash", "version": "1", "steps": steps, "edges": []}))


@pytest.fixture(scope="module")
def server():
    hits = collections.Counter()
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            time.sleep(0.01)
            with lock:
                hits[self.path] += 1
            body = ("x" * (len(self.path) % 7 + 1)).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", hits
    httpd.shutdown()


def _start(data_dir, wf_dir, base, *extra):
    return subprocess.Popen([sys.executable, str(RUNNER), str(data_dir), str(wf_dir), base,
                             *extra], stdout=subprocess.PIPE, text=True)


def _finish(proc) -> list:
    out, _ = proc.communicate(timeout=60)
    return out.split()


def _summary(data_dir, run_id):
    view = runs.show(run_id, data_dir=data_dir)
    return view["status"], view["outputs"], view["audit_head"], view["effects_count"]


def test_killed_runners_resume_to_the_uninterrupted_result(tmp_path, server):
    base, hits = server
    wf_dir = tmp_path / "wf"
    wf_dir.mkdir()
    write_workflow(wf_dir)
    # the uninterrupted run: its outputs, audit head and server hits are the reference
    proc = _start(tmp_path / "ref", wf_dir, base)
    t0 = time.monotonic()
    assert proc.stdout.readline().strip() == "ready"
    words = _finish(proc)
    duration = time.monotonic() - t0
    assert words[:2] == ["done", "completed"]
    reference = _summary(tmp_path / "ref", words[2])
    assert reference[3] == 3 * (CALLS + 2)        # fetches + two step_input calls per step
    reference_hits = dict(hits)
    assert len(reference_hits) == 3 * CALLS and set(reference_hits.values()) == {1}

    rng = random.Random(20)
    windows = 0
    for point in range(POINTS):
        hits.clear()
        data = tmp_path / f"kill{point}"
        proc = _start(data, wf_dir, base)
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0, duration))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        listed = runs.list_runs(data_dir=data) if (data / "runs.db").exists() else []
        if not listed:          # killed before the run was created: nothing to resume
            continue
        run_id = listed[0]["run_id"]
        view = runs.resume(run_id, data_dir=data, handlers=HandlerConfig(live=True))
        assert view["status"] == "completed"
        status, outputs, head, effects = _summary(data, run_id)
        assert (status, outputs, head, effects) == reference
        assert set(hits) == set(reference_hits)
        extra = sum(hits.values()) - len(hits)
        assert all(n in (1, 2) for n in hits.values()) and extra <= 1
        windows += extra
    print(f"crash points {POINTS}, window hits {windows}")


# ------------------------------------------------------------------ delegated steps
# Each step fetches, stops at a delegated llm.call (its VM snapshot and request written to the
# journal), is answered by another runner process, and goes on from the snapshot with more
# fetches. Kills land in any of the processes: while a step runs, while the suspension is
# written, while the answer is journaled, while the answered step goes on from its snapshot.

ASKING = """fn fetch_range(base: String, name: String, from: Int, to: Int) -> Int !{net.fetch} {
    let mut i = from
    let mut total = 0
    while i < to {
        let body = net_fetch(base ++ "/" ++ name ++ "/" ++ __builtin_int_to_string(i))
        total = total + __builtin_string_len(body)
        i = i + 1
    }
    total
}

fn main() -> Int !{net.fetch, llm.call} {
    let base = step_input("base")
    let first = fetch_range(base, "%s", 0, %d)
    let said: String = llm_call("%s:" ++ __builtin_int_to_string(first))
    first + fetch_range(base, "%s", %d, %d) + __builtin_string_len(said) * 100
        + parse_int(step_input("prev"))
}
"""


def write_asking_workflow(directory: Path) -> None:
    steps = {}
    half = CALLS // 2
    for index, name in enumerate(("a", "b")):
        (directory / f"{name}.ax").write_text(ASKING % (name, half, name, name, half, CALLS))
        inputs = {"base": "$input.base", "prev": "$input.base"}
        if index:
            inputs["prev"] = "a.result"
        steps[name] = {"kind": "source", "source": f"{name}.ax",
                       "capabilities": ["net.fetch", "llm.call"], "inputs": inputs,
                       "handlers": {"llm.call": "client"}}
    (directory / "workflow.json").write_text(json.dumps(
        {"schema_version": 1, "name": "crash-asking", "version": "1", "steps": steps,
         "edges": []}))


def _next_command(data_dir):
    """What the next runner process does: start the run, answer the step that waits for
    input, resume an interrupted or paused run, or nothing (completed)."""
    listed = runs.list_runs(data_dir=data_dir) if (data_dir / "runs.db").exists() else []
    if not listed:
        return ()
    view = runs.show(listed[0]["run_id"], data_dir=data_dir)
    if view["status"] == "completed":
        return None
    asking = [w["step"] for w in view["waiting"] if w["status"] == "awaiting_input"]
    if asking:
        return ("answer", view["run_id"], asking[0], json.dumps(f"answer-{asking[0]}"))
    return ("resume", view["run_id"])


def _drive_to_the_end(data_dir, wf_dir, base, kill_phase=None, delay=0.0):
    """Runner processes one after another until the run completed; the phase `kill_phase`
    is killed after `delay` s. The processes' durations and the run's id."""
    durations = []
    for phase in range(12):
        command = _next_command(data_dir)
        if command is None:
            return durations, runs.list_runs(data_dir=data_dir)[0]["run_id"]
        proc = _start(data_dir, wf_dir, base, *command)
        assert proc.stdout.readline().strip() == "ready"
        t0 = time.monotonic()
        if phase == kill_phase:
            time.sleep(delay)
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            proc.stdout.close()
        else:
            words = _finish(proc)
            assert words[0] == "done" and words[1] in ("paused", "completed"), words
        durations.append(time.monotonic() - t0)
    raise AssertionError("the run did not complete")


def test_killed_runners_of_delegated_steps_resume_to_the_uninterrupted_result(tmp_path, server):
    base, hits = server
    wf_dir = tmp_path / "wf"
    wf_dir.mkdir()
    write_asking_workflow(wf_dir)
    hits.clear()
    durations, run_id = _drive_to_the_end(tmp_path / "ref", wf_dir, base)
    assert len(durations) == 3               # start (pauses at a), answer a, answer b
    reference = _summary(tmp_path / "ref", run_id)
    half = CALLS // 2
    assert reference[1]["a"]["result"] > 0
    assert reference[3] == 2 * (CALLS + 3)   # fetches, the answer, two step_input calls
    reference_hits = dict(hits)
    assert len(reference_hits) == 2 * CALLS and set(reference_hits.values()) == {1}
    assert half > 0

    rng = random.Random(24)
    windows = 0
    for point in range(POINTS):
        hits.clear()
        data = tmp_path / f"kill{point}"
        phase = rng.randrange(len(durations))
        _drive_to_the_end(data, wf_dir, base, phase, rng.uniform(0, durations[phase]))
        listed = runs.list_runs(data_dir=data)
        status, outputs, head, effects = _summary(data, listed[0]["run_id"])
        assert (status, outputs, head, effects) == reference
        assert set(hits) == set(reference_hits)
        extra = sum(hits.values()) - len(hits)
        assert all(n in (1, 2) for n in hits.values()) and extra <= 1
        windows += extra
    print(f"delegated crash points {POINTS}, window hits {windows}")
