"""fs.read / fs.write against an attacker racing the checks (issue 19, items 1 and 2).

A second thread swaps a directory (or a file) under the file root for a symlink to the
outside, continuously, while the handler reads and writes through that name: no outside
byte is ever read or written. Hard links, FIFOs and devices are refused without blocking.
`BORUNA_FS_RACE_SECONDS` lengthens the races (default 1.0 s each).
"""
from __future__ import annotations

import os
import threading
import time

import pytest

from boruna.core import capabilities as caps
from boruna.runtime.handlers import HandlerError
from boruna.runtime.live import HandlerConfig, LiveHandler

CAP = {c.id: c for c in caps.CAPABILITIES}
RACE_SECONDS = float(os.environ.get("BORUNA_FS_RACE_SECONDS", "1.0"))
SECRET = "OUTSIDE-SECRET"


def read(handler, path):
    return handler.handle(CAP[caps.FS_READ], [path])


def write(handler, path, text):
    return handler.handle(CAP[caps.FS_WRITE], [path, text])


def refused(fn, *args) -> str:
    with pytest.raises(HandlerError) as info:
        fn(*args)
    return info.value.message


@pytest.fixture
def world(tmp_path):
    """(handler, root, outside dir): root/d/f.txt inside, outside/f.txt the secret."""
    root = tmp_path / "root"
    (root / "d").mkdir(parents=True)
    (root / "d" / "f.txt").write_text("inside", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "f.txt").write_text(SECRET, encoding="utf-8")
    return LiveHandler(HandlerConfig(live=True, fs_root=str(root))), root, outside


class Swapper:
    """Swaps `name` (a real entry) with a symlink to `target`, as fast as it can, until
    stopped: rename the real one away, rename the symlink in, and back."""

    def __init__(self, root, name: str, target):
        self.root = root
        self.name = name
        self.stop = threading.Event()
        self.swaps = 0
        os.symlink(target, root / (name + ".link"))
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        real, link, here = (str(self.root / (self.name + s)) for s in (".real", ".link", ""))
        while not self.stop.is_set():
            try:
                os.rename(here, real)
                os.rename(link, here)
                os.rename(here, link)
                os.rename(real, here)
                self.swaps += 1
            except OSError:
                pass

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(5)


def _race(action, seconds=RACE_SECONDS):
    """Call `action()` repeatedly for `seconds`; the outcomes (value or error text)."""
    outcomes = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            outcomes.append(action())
        except HandlerError as err:
            outcomes.append(err.message)
    return outcomes


def test_a_directory_swapped_for_a_symlink_never_reads_outside(world):
    handler, root, outside = world
    with Swapper(root, "d", outside) as swapper:
        outcomes = _race(lambda: read(handler, "d/f.txt"))
    assert swapper.swaps > 10 and len(outcomes) > 10
    assert not any(SECRET in text for text in outcomes)
    assert "inside" in outcomes
    assert set(outcomes) <= {"inside", "fs.read: path leaves the file root: d/f.txt",
                             "fs.read: cannot open d/f.txt: No such file or directory",
                             "fs.read: d/f.txt kept changing while it was opened"}


def test_a_directory_swapped_for_a_symlink_never_writes_outside(world):
    handler, root, outside = world
    before = os.stat(outside / "f.txt")
    with Swapper(root, "d", outside) as swapper:
        outcomes = _race(lambda: write(handler, "d/f.txt", "pwned"))
    assert swapper.swaps > 10 and True in outcomes
    assert (outside / "f.txt").read_text(encoding="utf-8") == SECRET
    assert os.stat(outside / "f.txt").st_mtime_ns == before.st_mtime_ns
    assert sorted(os.listdir(outside)) == ["f.txt"]
    assert (root / "d" / "f.txt").read_text(encoding="utf-8") == "pwned"


def test_a_file_swapped_for_a_symlink_is_never_read_or_written_through(world):
    handler, root, outside = world
    (root / "g.txt").write_text("inside", encoding="utf-8")
    with Swapper(root, "g.txt", outside / "f.txt"):
        reads = _race(lambda: read(handler, "g.txt"), RACE_SECONDS / 2)
        writes = _race(lambda: write(handler, "g.txt", "pwned"), RACE_SECONDS / 2)
    assert not any(SECRET in str(text) for text in reads) and "inside" in reads
    assert True in writes
    assert (outside / "f.txt").read_text(encoding="utf-8") == SECRET
    # a write replaces the name it resolved; it never followed the symlink
    assert sorted(os.listdir(outside)) == ["f.txt"]


def test_hard_links_are_refused_for_reads_and_writes(world):
    handler, root, outside = world
    os.link(outside / "f.txt", root / "hard.txt")
    assert refused(read, handler, "hard.txt") == (
        "fs.read: hard.txt has 2 hard links; a file with more than one link is refused "
        "(another link may lie outside the root)")
    assert refused(write, handler, "hard.txt", "pwned") == (
        "fs.write: hard.txt has 2 hard links; a file with more than one link is refused "
        "(another link may lie outside the root)")
    assert (outside / "f.txt").read_text(encoding="utf-8") == SECRET


def test_a_fifo_in_the_root_is_refused_at_once(world):
    handler, root, _ = world
    os.mkfifo(root / "pipe")
    start = time.monotonic()
    assert refused(read, handler, "pipe") == "fs.read: pipe is not a regular file (a FIFO)"
    assert refused(write, handler, "pipe", "x") == "fs.write: pipe is not a regular file (a FIFO)"
    assert time.monotonic() - start < 5.0          # it never waited for a writer
    assert os.path.exists(root / "pipe") and not (root / "pipe").is_file()


def test_devices_and_directories_are_not_regular_files(world, tmp_path):
    handler, root, _ = world
    os.symlink("/dev/zero", root / "zero")
    assert refused(read, handler, "zero") == "fs.read: path leaves the file root: zero"
    assert refused(read, handler, "d") == "fs.read: d is not a regular file (a directory)"


def test_symlinks_inside_the_root_are_followed_by_the_resolver(world):
    handler, root, outside = world
    os.symlink("d", root / "rel")                        # relative, inside
    os.symlink(str(root / "d" / "f.txt"), root / "abs")  # absolute, inside
    os.symlink("../d/f.txt", root / "d" / "up")          # `..` within the root
    os.symlink("../../outside/f.txt", root / "d" / "esc")
    assert read(handler, "rel/f.txt") == read(handler, "abs") == read(handler, "d/up") == "inside"
    assert refused(read, handler, "d/esc") == "fs.read: path leaves the file root: d/esc"
    os.symlink("loop2", root / "loop1")
    os.symlink("loop1", root / "loop2")
    assert refused(read, handler, "loop1") == \
        "fs.read: cannot open loop1: Too many levels of symbolic links"


def test_a_write_through_an_inside_symlink_replaces_its_target(world):
    handler, root, _ = world
    os.symlink("d/f.txt", root / "alias")
    os.chmod(root / "d" / "f.txt", 0o600)
    assert write(handler, "alias", "new") is True
    assert os.path.islink(root / "alias")
    assert (root / "d" / "f.txt").read_text(encoding="utf-8") == "new"
    assert os.stat(root / "d" / "f.txt").st_mode & 0o777 == 0o600      # permissions kept
    assert [n for n in os.listdir(root / "d") if "boruna-tmp" in n] == []


def test_a_missing_parent_directory_is_a_clean_error(world):
    handler, _, _ = world
    assert refused(write, handler, "nope/x.txt", "x") == \
        "fs.write: cannot open nope/x.txt: No such file or directory"
