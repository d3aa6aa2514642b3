"""Live capability handlers: net.fetch under net_policy (loopback server only), fs inside
the file root, SQLite db.query, clock and OS random, llm.call falling back to the mock."""
from __future__ import annotations

import os
import sqlite3

import pytest

from boruna.core import capabilities as caps
from boruna.core.values import MapValue
from boruna.runtime.handlers import HandlerError, MockHandler
from boruna.runtime.live import HandlerConfig, LiveHandler, _host_allowed
from boruna.runtime.policy import parse_policy

CAP = {c.id: c for c in caps.CAPABILITIES}


def net_policy(**fields):
    return parse_policy({"default_allow": True, "net_policy": fields}).net_policy


def fetch(url, **fields):
    handler = LiveHandler(HandlerConfig(live=True), net_policy(**fields))
    return handler.handle(CAP[caps.NET_FETCH], [url])


def refused(fn, *args, **kwargs) -> str:
    with pytest.raises(HandlerError) as info:
        fn(*args, **kwargs)
    return info.value.message


# ---------------------------------------------------------------- net.fetch

def test_fetch_returns_the_body_of_an_allowed_loopback_host(loopback):
    base, paths = loopback
    assert fetch(base + "/hello", allowed_domains=["127.0.0.1"]) == "hello from loopback"
    assert paths == ["/hello"]


def test_a_terminal_error_status_gives_its_body(loopback):
    base, _ = loopback
    assert fetch(base + "/missing", allowed_domains=["127.0.0.1"]) == "no such page"


def test_a_host_outside_allowed_domains_is_refused_without_a_request(loopback):
    base, paths = loopback
    message = refused(fetch, base + "/hello", allowed_domains=["api.example.com"])
    assert message == "domain '127.0.0.1' not in allowlist: [api.example.com]"
    assert paths == []


def test_loopback_is_refused_unless_named_exactly(loopback):
    base, paths = loopback
    assert refused(fetch, base + "/hello") == (
        "blocked request to private/reserved IP (127.0.0.1); name the host in "
        "net_policy.allowed_domains to allow it")
    port = base.rsplit(":", 1)[1]
    assert refused(fetch, f"http://localhost:{port}/hello") == \
        "blocked request to localhost (localhost)"
    assert paths == []


def test_oversized_body_is_an_error(loopback):
    base, _ = loopback
    assert refused(fetch, base + "/big", allowed_domains=["127.0.0.1"],
                   max_response_bytes=1000) == "response body exceeds max_response_bytes (1000)"
    assert len(fetch(base + "/big", allowed_domains=["127.0.0.1"],
                     max_response_bytes=2000)) == 2000


def test_timeout_is_an_error(loopback):
    base, _ = loopback
    assert refused(fetch, base + "/slow", allowed_domains=["127.0.0.1"],
                   timeout_ms=100) == "HTTP request timed out after 100 ms"


def test_redirects_are_followed_and_each_hop_checked(loopback):
    base, paths = loopback
    assert fetch(base + "/redirect", allowed_domains=["127.0.0.1"]) == "hello from loopback"
    assert paths == ["/redirect", "/hello"]
    paths.clear()
    assert refused(fetch, base + "/redirect-out", allowed_domains=["127.0.0.1"]) == \
        "domain 'localhost' not in allowlist: [127.0.0.1]"
    assert paths == ["/redirect-out"]


def test_allow_redirects_false_returns_the_redirect_itself(loopback):
    base, paths = loopback
    assert fetch(base + "/redirect", allowed_domains=["127.0.0.1"],
                 allow_redirects=False) == ""
    assert paths == ["/redirect"]


def test_allowed_methods_without_get_refuse_the_fetch(loopback):
    base, paths = loopback
    assert refused(fetch, base + "/hello", allowed_domains=["127.0.0.1"],
                   allowed_methods=["POST"]) == "HTTP method 'GET' not in allowlist: [POST]"
    assert paths == []


def test_only_http_and_https():
    assert refused(fetch, "file:///etc/passwd") == \
        "blocked scheme 'file': only http/https allowed"
    assert refused(fetch, "ftp://example.com/x") == "blocked scheme 'ftp': only http/https allowed"


@pytest.mark.parametrize("host,allowed", [
    ("svc.internal.example", True), ("internal.example", True), ("evil.example", False),
    ("xinternal.example", False), ("a.b.internal.example", True)])
def test_star_suffix_matches_the_domain_and_its_subdomains(host, allowed):
    assert _host_allowed(host, ["*.internal.example"]) is allowed


# ---------------------------------------------------------------- fs.read / fs.write

@pytest.fixture
def fs(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    (root / "notes.txt").write_text("inside", encoding="utf-8")
    (root / "sub").mkdir()
    outside = tmp_path / "secret.txt"
    outside.write_text("outside", encoding="utf-8")
    return LiveHandler(HandlerConfig(live=True, fs_root=str(root))), root, outside


def read(handler, path):
    return handler.handle(CAP[caps.FS_READ], [path])


def write(handler, path, text):
    return handler.handle(CAP[caps.FS_WRITE], [path, text])


def test_fs_reads_and_writes_inside_the_root(fs):
    handler, root, _ = fs
    assert read(handler, "notes.txt") == "inside"
    assert write(handler, "sub/new.txt", "written") is True
    assert (root / "sub" / "new.txt").read_text(encoding="utf-8") == "written"
    assert read(handler, "sub/new.txt") == "written"


@pytest.mark.parametrize("path,message", [
    ("../secret.txt", "`..` refused: ../secret.txt"),
    ("sub/../../secret.txt", "`..` refused: sub/../../secret.txt"),
    ("/etc/passwd", "absolute path refused: /etc/passwd"),
    ("notes.txt\0.png", 'invalid path "notes.txt\\u0000.png"'),
    ("", 'invalid path ""'),
])
def test_fs_refuses_paths_that_could_leave_the_root(fs, path, message):
    handler, _, outside = fs
    assert refused(read, handler, path) == f"fs.read: {message}"
    assert refused(write, handler, path, "x") == f"fs.write: {message}"
    assert outside.read_text(encoding="utf-8") == "outside"


def test_fs_refuses_symlinks_leaving_the_root_without_touching_the_target(fs):
    handler, root, outside = fs
    os.symlink(outside, root / "link.txt")
    os.symlink(outside.parent, root / "up")
    before = os.stat(outside)
    assert refused(read, handler, "link.txt") == "fs.read: path leaves the file root: link.txt"
    assert refused(write, handler, "link.txt", "pwned") == \
        "fs.write: path leaves the file root: link.txt"
    assert refused(write, handler, "up/secret.txt", "pwned") == \
        "fs.write: path leaves the file root: up/secret.txt"
    assert refused(write, handler, "up/fresh.txt", "pwned") == \
        "fs.write: path leaves the file root: up/fresh.txt"
    assert outside.read_text(encoding="utf-8") == "outside"
    assert os.stat(outside).st_mtime_ns == before.st_mtime_ns
    assert not (outside.parent / "fresh.txt").exists()


def test_a_symlink_inside_the_root_is_followed(fs):
    handler, root, _ = fs
    os.symlink(root / "notes.txt", root / "alias.txt")
    assert read(handler, "alias.txt") == "inside"


def test_no_fs_root_means_no_file_access(tmp_path):
    handler = LiveHandler(HandlerConfig(live=True))
    assert refused(read, handler, "x.txt") == "fs.read: no file access (start with --fs-root DIR)"
    assert refused(write, handler, "x.txt", "y") == \
        "fs.write: no file access (start with --fs-root DIR)"


def test_a_missing_file_is_a_clean_error(fs):
    handler, _, _ = fs
    assert refused(read, handler, "nope.txt") == \
        "fs.read: cannot open nope.txt: No such file or directory"


# ---------------------------------------------------------------- db.query

@pytest.fixture
def db(tmp_path):
    path = tmp_path / "data.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript("create table t (id integer, name text, score real, note text);"
                       "insert into t values (2, 'bo', 1.5, null);"
                       "insert into t values (1, 'al', 2.0, 'x');"
                       "create table b (data blob); insert into b values (x'00ff');")
    conn.commit()
    conn.close()
    return path


def query(handler, sql):
    return handler.handle(CAP[caps.DB_QUERY], [sql])


def test_db_rows_come_in_order_with_typed_values(db):
    handler = LiveHandler(HandlerConfig(live=True, db=str(db)))
    rows = query(handler, "select id, name, score, note from t order by id")
    assert rows == (MapValue({"id": 1, "name": "al", "score": 2.0, "note": "x"}),
                    MapValue({"id": 2, "name": "bo", "score": 1.5, "note": None}))
    assert type(rows[0]["score"]) is float and type(rows[0]["id"]) is int
    assert query(handler, "select * from t where id > 5") == ()


def test_db_is_read_only_unless_db_write(db):
    handler = LiveHandler(HandlerConfig(live=True, db=str(db)))
    assert refused(query, handler, "insert into t values (3, 'cy', 0.0, null)") == \
        "db.query: attempt to write a readonly database"
    writer = LiveHandler(HandlerConfig(live=True, db=str(db), db_write=True))
    assert query(writer, "insert into t values (3, 'cy', 0.0, null)") == ()
    assert query(handler, "select count(*) as n from t") == (MapValue({"n": 3}),)


def test_db_runs_one_statement_per_call(db):
    handler = LiveHandler(HandlerConfig(live=True, db=str(db), db_write=True))
    assert refused(query, handler, "select 1; drop table t") == \
        "db.query: You can only execute one statement at a time."
    assert query(handler, "select count(*) as n from t") == (MapValue({"n": 2}),)


def test_db_refuses_attach_and_blobs(db, tmp_path):
    handler = LiveHandler(HandlerConfig(live=True, db=str(db), db_write=True))
    assert refused(query, handler, f"attach database '{tmp_path / 'other.db'}' as o") == \
        "db.query: not authorized"
    assert not (tmp_path / "other.db").exists()
    assert refused(query, handler, "select data from b") == \
        "db.query: column `data` holds a BLOB, which has no .ax type"


def test_db_needs_a_database_and_never_creates_one(tmp_path):
    assert refused(query, LiveHandler(HandlerConfig(live=True)), "select 1") == \
        "db.query: no database (start with --db FILE)"
    missing = tmp_path / "missing.sqlite"
    handler = LiveHandler(HandlerConfig(live=True, db=str(missing)))
    assert refused(query, handler, "select 1") == \
        "db.query: cannot open the database: unable to open database file"
    assert not missing.exists()


# ---------------------------------------------------------------- clock, random, llm, mock

def test_clock_and_random_are_real():
    handler = LiveHandler(HandlerConfig(live=True))
    now = handler.handle(CAP[caps.TIME_NOW], [])
    assert type(now) is int and now > 1700000000
    draws = {handler.handle(CAP[caps.RANDOM], []) for _ in range(8)}
    assert all(type(x) is float and 0.0 <= x < 1.0 for x in draws) and len(draws) > 1


def test_llm_without_an_endpoint_is_the_mock_answer():
    handler = LiveHandler(HandlerConfig(live=True))
    assert handler.handle(CAP[caps.LLM_CALL], ["hi"]) == '{"mock": true, "status": "ok"}'


def test_the_default_config_is_the_mock():
    assert type(HandlerConfig().handler()) is MockHandler
    assert type(HandlerConfig(live=True).handler()) is LiveHandler


def test_llm_settings_come_from_the_environment():
    env = {"BORUNA_LLM_ENDPOINT": "http://127.0.0.1:9/v1", "BORUNA_LLM_MODEL": "m",
           "BORUNA_LLM_API_KEY": "k"}
    config = HandlerConfig.from_env(True, environ=env)
    assert (config.llm_endpoint, config.llm_model, config.llm_api_key) == \
        ("http://127.0.0.1:9/v1", "m", "k")
    assert HandlerConfig.from_env(True, llm_endpoint="http://x", environ=env).llm_endpoint == \
        "http://x"
