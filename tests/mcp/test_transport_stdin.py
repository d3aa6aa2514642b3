"""The two stdin readers of `mcp/transport.py`: a pipe or a socket is read on the event loop
(`LoopStdinReader`), anything else on a thread (`StdinReader`); both hand the loop the same
screened lines, in order, and hold a fast writer back once 16 lines wait."""
import asyncio
import json
import os
import subprocess
import sys
import time

from boruna.mcp.transport import LoopStdinReader, StdinReader, start_stdin_reader


def _tagged(line):
    """A screen that keeps every line, so the test sees exactly what was read."""
    return ("seen", line)


def _skip_drop(line):
    """A screen that drops lines starting with `drop` (as screening drops a notification)."""
    return None if line.startswith("drop") else ("seen", line)


async def _read_all(reader):
    items = []
    while (item := await reader.receive()) is not None:
        items.append(item)
    return items


def _pipe_reader(screen):
    read_fd, write_fd = os.pipe()
    return open(read_fd, "rb", closefd=True), write_fd


def _read_written(data: bytes, screen, screen_on_loop=None) -> list:
    """Every item a reader of a pipe hands on, `data` written and the pipe closed first."""
    async def scenario():
        stream, write_fd = _pipe_reader(screen)
        reader = start_stdin_reader(stream, screen, screen_on_loop)
        assert isinstance(reader, LoopStdinReader)
        os.write(write_fd, data)
        os.close(write_fd)
        items = await _read_all(reader)
        reader.close()
        stream.close()
        return items

    return asyncio.run(scenario())


def test_a_pipe_is_read_on_the_loop_line_by_line_in_order():
    async def scenario():
        stream, write_fd = _pipe_reader(_tagged)
        reader = start_stdin_reader(stream, _tagged)
        assert isinstance(reader, LoopStdinReader)
        assert os.get_blocking(stream.fileno()) is False
        os.write(write_fd, b'{"a": 1}\n{"b": 2}\n\n  \nhalf of ')
        await asyncio.sleep(0.02)
        os.write(write_fd, "a line é\n".encode() + b"bad \xff byte\nlast, no newline")
        os.close(write_fd)
        items = await _read_all(reader)
        reader.close()
        assert os.get_blocking(stream.fileno()) is True
        stream.close()
        return items

    assert asyncio.run(scenario()) == [
        ("seen", '{"a": 1}\n'), ("seen", '{"b": 2}\n'), ("seen", "half of a line é\n"),
        ("seen", "bad \ufffd byte\n"), ("seen", "last, no newline")]


def test_the_loop_reader_skips_the_lines_its_screen_drops():
    assert _read_written(b"keep 1\ndrop 2\nkeep 3\n", _skip_drop) == [
        ("seen", "keep 1\n"), ("seen", "keep 3\n")]


def test_a_long_line_arrives_whole_over_many_reads():
    line = json.dumps({"source": "x" * (3 * LoopStdinReader.CHUNK + 12345)}) + "\n"

    async def scenario():
        stream, write_fd = _pipe_reader(_tagged)
        reader = start_stdin_reader(stream, _tagged)
        loop = asyncio.get_running_loop()
        writing = loop.run_in_executor(None, lambda: (os.write(write_fd, line.encode() * 2),
                                                      os.close(write_fd)))
        items = await _read_all(reader)
        await writing
        reader.close()
        stream.close()
        return items

    assert asyncio.run(scenario()) == [("seen", line), ("seen", line)]


def _write_for(write_fd, data: bytes, seconds: float) -> int:
    """Write `data` again and again (never blocking) for `seconds`: the bytes written."""
    os.set_blocking(write_fd, False)
    written, deadline = 0, time.monotonic() + seconds
    while time.monotonic() < deadline and written < 16 * 2**20:
        try:
            written += os.write(write_fd, data)
        except BlockingIOError:
            time.sleep(0.001)
    return written


def test_the_loop_reader_stops_reading_while_sixteen_lines_wait():
    filler = b"f" * 1023 + b"\n"       # under PIPE_BUF: each write is whole or refused

    async def scenario():
        stream, write_fd = _pipe_reader(_tagged)
        reader = start_stdin_reader(stream, _tagged)
        os.write(write_fd, b"".join(b"line %d\n" % i for i in range(LoopStdinReader.WAITING)))
        loop = asyncio.get_running_loop()
        # the loop is free for 0.3 s while another thread writes as fast as the pipe takes
        written = await loop.run_in_executor(None, _write_for, write_fd, filler, 0.3)
        os.close(write_fd)
        items = await _read_all(reader)
        reader.close()
        stream.close()
        return written, items

    written, items = asyncio.run(scenario())
    # held back by the pipe: what the 16 waiting lines' read took, plus the pipe's buffer
    assert written < LoopStdinReader.CHUNK + 2**20
    assert items[:16] == [("seen", f"line {i}\n") for i in range(16)]
    assert items[16:] == [("seen", filler.decode())] * (written // 1024)


def test_a_regular_file_is_read_on_a_thread(tmp_path):
    path = tmp_path / "requests.jsonl"
    path.write_bytes(b"one\n\ntwo\nthree")

    async def scenario():
        with open(path, "rb") as stream:
            reader = start_stdin_reader(stream, _tagged)
            assert isinstance(reader, StdinReader)
            items = await _read_all(reader)
            reader.close()
            return items

    assert asyncio.run(scenario()) == [("seen", "one\n"), ("seen", "two\n"),
                                       ("seen", "three")]


INIT = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "file", "version": "0"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
     "params": {"name": "boruna_run", "arguments": {"source": "fn main() -> Int { 6 * 7 }"}}},
    {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
     "params": {"name": "boruna_run", "arguments": {"source": "fn main() -> Int { 1 + }"}}},
]


def _serve(stdin, tmp_path):
    done = subprocess.run([sys.executable, "-m", "boruna.mcp"], stdin=stdin,
                          capture_output=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    return {m["id"]: m for m in map(json.loads, done.stdout.splitlines())}


def _payload(answer):
    return json.loads(answer["result"]["content"][0]["text"])


def test_a_server_answers_the_same_from_a_pipe_and_from_a_file(tmp_path):
    text = "".join(json.dumps(m) + "\n" for m in INIT).encode()
    path = tmp_path / "requests.jsonl"
    path.write_bytes(text)
    with open(path, "rb") as stdin:
        from_file = _serve(stdin, tmp_path)
    read_fd, write_fd = os.pipe()
    os.write(write_fd, text)
    os.close(write_fd)
    with open(read_fd, "rb") as stdin:
        from_pipe = _serve(stdin, tmp_path)
    assert set(from_file) == set(from_pipe) == {1, 2, 3}
    assert _payload(from_file[2]) == _payload(from_pipe[2]) == {
        "success": True, "protocol_version": 1, "result": 42, "steps": 5, "ui_output": []}
    assert _payload(from_file[3]) == _payload(from_pipe[3])
    assert _payload(from_pipe[3])["success"] is False
    assert from_file[1]["result"]["serverInfo"] == from_pipe[1]["result"]["serverInfo"]


def test_lines_the_loop_declines_are_screened_on_a_thread_in_order():
    """`screen_on_loop` declines some lines: those go to `screen` on another thread, and the
    loop still hands every line on in the order it was read."""
    import threading

    loop_thread = threading.get_ident()
    screened_on = {}

    def screen(line):
        screened_on[line] = threading.get_ident()
        return ("thread", line)

    def on_loop(line):
        if line.startswith("deep"):
            return False, None
        screened_on[line] = threading.get_ident()
        return True, ("loop", line)

    assert _read_written(b"a\ndeep b\nc\ndeep d\n", screen, on_loop) == [("loop", "a\n"), ("thread", "deep b\n"),
                                       ("loop", "c\n"), ("thread", "deep d\n")]
    assert screened_on["a\n"] == screened_on["c\n"] == loop_thread
    assert screened_on["deep b\n"] == screened_on["deep d\n"] != loop_thread
