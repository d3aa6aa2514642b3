"""Ctrl-C stops `boruna-mcp` at once (status 130, no traceback), even while it waits for
input on a stdin that stays open — as it does when started by hand in a terminal."""
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
        assert b"Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdin.close()
