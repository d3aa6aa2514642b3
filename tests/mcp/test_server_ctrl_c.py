"""Ctrl-C stops `boruna-mcp` at once (status 130, no traceback), even while it waits for
input on a stdin that stays open — as it does when started by hand in a terminal, where it
also says on stderr what it is for."""
import os
import pty
import signal
import subprocess
import sys
import time


def test_sigint_while_waiting_for_input_exits_130():
    proc = subprocess.Popen([sys.executable, "-m", "boruna.mcp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        proc.stdin.write(b"not json\n")
        proc.stdin.flush()
        answer = proc.stdout.readline()  # the server is up and reading stdin
        assert answer == (b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,'
                          b'"message":"Parse error"}}\n')
        started = time.monotonic()
        proc.send_signal(signal.SIGINT)
        status = proc.wait(timeout=10)
        assert status == 130
        assert time.monotonic() - started < 5
        assert proc.stderr.read() == b""  # stdin is a pipe: no note for a person
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdin.close()


def test_started_in_a_terminal_it_says_what_it_is():
    controller, terminal = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "boruna.mcp"], stdin=terminal,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        note = proc.stderr.readline()
        assert note == (b"boruna-mcp: serving MCP (JSON-RPC lines) on stdin/stdout for a coding "
                        b"agent; register it with your agent instead of typing here "
                        b"(docs/registering.md). Ctrl-C stops it.\n")
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == 130
        assert proc.stdout.read() == b""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(controller)
        os.close(terminal)
