"""`boruna run --record/--replay --tape-key`: signed tapes, forgeries refused, and no FIFO
ever read or written as a tape or a database (issue 19, items 2 and 11)."""
from __future__ import annotations

import json
import os

from boruna.runtime import tape as tapes

SOURCE = 'fn main() -> Int !{time.now} { time_now() }'
KEY = b"0123456789abcdef-key"


def forge(text: str, result) -> str:
    tape = json.loads(text)
    tape["calls"][0]["result"] = result
    tape["outcome"]["result"] = result
    tape["sha256"] = json.loads(tapes.tape_json(tape["calls"], tape["outcome"]))["sha256"]
    return json.dumps(tape)


def test_the_cli_signs_checks_and_refuses_special_files(cli, tmp_path):
    prog = tmp_path / "p.ax"
    prog.write_text(SOURCE, encoding="utf-8")
    key = tmp_path / "k"
    key.write_bytes(KEY)
    tape = tmp_path / "t.json"
    assert cli("run", "--record", tape, "--tape-key", key, prog).code == 0
    assert "hmac_sha256" in json.loads(tape.read_text(encoding="utf-8"))
    replay = cli("run", "--replay", tape, "--tape-key", key, prog)
    assert (replay.code, replay.out) == (0, "1700000000\nsteps: 3\n")
    tape.write_text(forge(tape.read_text(encoding="utf-8"), 7), encoding="utf-8")
    refused = cli("run", "--replay", tape, "--tape-key", key, prog)
    assert (refused.code, refused.err) == (1, (
        f"error: cannot replay '{tape}': the tape's signature does not match the tape key "
        "(another key signed it, or it was changed after it was recorded)\n"))
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert cli("run", "--record", fifo, prog).err == \
        f"error: cannot write the tape to {fifo}: not a regular file (a FIFO)\n"
    assert cli("run", "--replay", fifo, prog).err == \
        f"error: cannot replay '{fifo}': cannot read the tape {fifo}: not a regular file (a FIFO)\n"
    assert cli("run", "--live", "--db", fifo, prog).err == \
        f"error: --db {fifo}: not a regular file (a FIFO)\n"
    assert cli("run", "--tape-key", key, prog).err == \
        "error: --tape-key needs --record TAPE or --replay TAPE\n"
