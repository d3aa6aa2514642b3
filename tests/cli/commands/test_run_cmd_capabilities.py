"""`boruna run --live/--record/--replay` and the capability flags."""
from __future__ import annotations

import json

PROGRAM = ('fn main() -> String !{net.fetch, time.now, random} {\n'
           '    let body = net_fetch("URL")\n'
           '    emit body\n'
           '    body ++ " " ++ __builtin_int_to_string(time_now())\n}\n')


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def test_live_record_then_replay_gives_the_same_output(cli, tmp_path, loopback):
    base, paths = loopback
    prog = write(tmp_path / "p.ax", PROGRAM.replace("URL", base + "/hello"))
    policy = write(tmp_path / "policy.json", json.dumps(
        {"default_allow": True, "net_policy": {"allowed_domains": ["127.0.0.1"]}}))
    tape = tmp_path / "tape.json"
    live = cli("run", "--live", "--policy", policy, "--record", tape, prog)
    assert live.code == 0 and live.out.startswith('"hello from loopback ')
    assert paths == ["/hello"]
    recorded = json.loads(tape.read_text(encoding="utf-8"))
    assert [c["capability"] for c in recorded["calls"]] == ["net.fetch", "time.now"]
    replay = cli("run", "--policy", policy, "--replay", tape, prog)
    assert (replay.code, replay.out, replay.err) == (0, live.out, "")
    assert paths == ["/hello"]
    as_json = cli("run", "--policy", policy, "--replay", tape, "--json", prog)
    assert json.loads(as_json.out)["result"] == recorded["outcome"]["result"]


def test_a_replay_of_another_program_fails_with_the_first_difference(cli, tmp_path):
    prog = write(tmp_path / "p.ax", PROGRAM.replace("URL", "http://a.example/"))
    tape = tmp_path / "tape.json"
    assert cli("run", "--record", tape, prog).code == 0
    other = write(tmp_path / "q.ax", PROGRAM.replace("URL", "http://b.example/"))
    result = cli("run", "--replay", tape, other)
    assert result.code == 1
    assert result.err == ('error: replay mismatch at capability call 1: the tape has '
                          'net.fetch("http://a.example/"), the program asked for '
                          f'net.fetch("http://b.example/") (tape \'{tape}\')\n')


def test_the_mock_is_the_default(cli, tmp_path, loopback):
    base, paths = loopback
    prog = write(tmp_path / "p.ax", PROGRAM.replace("URL", base))
    result = cli("run", prog)
    assert result.out.splitlines()[0] == '"{"mock": true, "url": ""' + base + '""} 1700000000"'
    assert paths == []


def test_fs_root_and_db_flags(cli, tmp_path):
    import sqlite3

    root = tmp_path / "root"
    root.mkdir()
    db = tmp_path / "d.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("create table t (name text)")
    conn.execute("insert into t values ('ada')")
    conn.commit()
    conn.close()
    prog = write(tmp_path / "p.ax", (
        'fn main() -> String !{fs.write, fs.read, db.query} {\n'
        '    let ok = fs_write("n.txt", "hi")\n'
        '    let rows = db_query("select name from t")\n'
        '    fs_read("n.txt") ++ " " ++ __builtin_int_to_string(list_len(rows))\n}\n'))
    result = cli("run", "--live", "--fs-root", root, "--db", db, prog)
    assert (result.code, result.out) == (0, '"hi 1"\nsteps: 17\n')
    escape = write(tmp_path / "e.ax", 'fn main() -> String !{fs.read} { fs_read("../p.ax") }\n')
    refused = cli("run", "--live", "--fs-root", root, escape)
    assert refused.code == 1
    assert refused.err.splitlines()[0] == ("error: runtime error: assertion failed: capability "
                                           "error: fs.read: `..` refused: ../p.ax")


def test_flag_combinations_are_checked(cli, tmp_path):
    prog = write(tmp_path / "p.ax", "fn main() -> Int { 1 }\n")
    assert cli("run", "--fs-root", tmp_path, prog).err == "error: --fs-root needs --live\n"
    assert cli("run", "--live", "--db-write", prog).err == "error: --db-write needs --db FILE\n"
    tape = write(tmp_path / "t.json", "[]")
    assert cli("run", "--live", "--replay", tape, prog).err == (
        "error: --replay answers from the tape: it takes neither --live nor --record\n")
    assert cli("run", "--replay", tape, prog).err == (
        f"error: cannot replay '{tape}': not a tape (expected format "
        "'boruna-capability-tape', version 2)\n")
