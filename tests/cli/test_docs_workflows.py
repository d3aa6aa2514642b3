"""docs/workflows.md's worked example, run as written: fetch (from a loopback HTTP server) →
transform → approval → write, through the `boruna` CLI, then evidence and its verification."""
import http.server
import json
import re
import threading
from pathlib import Path

import pytest

from boruna.cli.main import main

DOC = (Path(__file__).resolve().parents[2] / "docs" / "workflows.md").read_text(encoding="utf-8")
DATA = b"a,1\nb,2\nc,3\n"


def doc_files() -> dict:
    return dict(re.findall(r"<!-- file: (\S+) -->\n```\w*\n(.*?)```", DOC, re.S))


@pytest.fixture
def server():
    hits = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(200)
            self.send_header("Content-Length", str(len(DATA)))
            self.end_headers()
            self.wfile.write(DATA)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", hits
    httpd.shutdown()


def cli(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out


def test_the_worked_example_runs_as_documented(tmp_path, server, capsys, monkeypatch):
    base, hits = server
    files = doc_files()
    assert sorted(files) == ["fetch.ax", "policy.json", "transform.ax", "workflow.json",
                             "write.ax"]
    report = tmp_path / "report"
    report.mkdir()
    for name, text in files.items():
        (report / name).write_text(text, encoding="utf-8")
    (tmp_path / "out").mkdir()
    monkeypatch.chdir(tmp_path)
    live = ["--live", "--fs-root", "out", "--data-dir", "runs"]
    code, out = cli(capsys, "workflow", "run", "report", "--policy", "report/policy.json",
                    "--input", f"url={base}/data", *live)
    assert code == 0, out
    assert out.splitlines()[0].endswith("(daily-report): paused")
    run_id = out.split()[1]
    assert "transform            ok  {\"lines\": 3, \"summary\": \"rows: 3\"}" in out
    assert f"boruna workflow approve {run_id} approve --role editor" in out
    assert hits == ["/data"]

    code, out = cli(capsys, "workflow", "approve", run_id, "approve", "--role", "nobody", *live)
    assert code == 1
    code, out = cli(capsys, "workflow", "approve", run_id, "approve", "--role", "editor", *live)
    assert code == 0 and out.splitlines()[0].endswith("completed")
    assert (tmp_path / "out" / "report.txt").read_text() == "rows: 3"
    assert hits == ["/data"]          # the fetch was not repeated

    code, out = cli(capsys, "workflow", "evidence", run_id, "--out", "evidence",
                    "--data-dir", "runs")
    assert code == 0
    code, out = cli(capsys, "evidence", "verify", "evidence")
    assert code == 0 and "verifies: 9 files, 17 audit entries" in out
    shown = json.loads(cli(capsys, "workflow", "show", run_id, "--json", "--data-dir", "runs")[1])
    assert shown["status"] == "completed" and shown["outputs"]["write"] == {"result": True}
