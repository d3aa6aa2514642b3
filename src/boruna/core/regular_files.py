"""Opening a file that must be a regular file, without ever blocking on one that is not.

A FIFO opened for reading waits for a writer (and one opened for writing for a reader);
a device may block or never end. `open_regular` opens with O_NONBLOCK (so the open itself
never waits), checks with `fstat` that the descriptor is a regular file, and only then
clears O_NONBLOCK; anything else is a `NotRegularFile` (an OSError) naming what it is.
"""
from __future__ import annotations

import os
import stat
from typing import Optional

O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
O_NOCTTY = getattr(os, "O_NOCTTY", 0)
O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class NotRegularFile(OSError):
    """The path names a directory, FIFO, socket or device, not a regular file."""

    def __init__(self, what: str):
        super().__init__(f"not a regular file (a {what})")
        self.what = what


def file_kind(mode: int) -> str:
    """`regular file`, `directory`, `FIFO`, `socket`, `character device`, ... for `st_mode`."""
    for test, name in ((stat.S_ISREG, "regular file"), (stat.S_ISDIR, "directory"),
                       (stat.S_ISFIFO, "FIFO"), (stat.S_ISSOCK, "socket"),
                       (stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"),
                       (stat.S_ISLNK, "symbolic link")):
        if test(mode):
            return name
    return "special file"


def check_regular(fd: int) -> os.stat_result:
    """`fstat(fd)` when it is a regular file; NotRegularFile otherwise."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise NotRegularFile(file_kind(info.st_mode))
    return info


def open_regular(path, flags: int = os.O_RDONLY, mode: int = 0o644, *,
                 dir_fd: Optional[int] = None) -> int:
    """A descriptor of `path` opened with `flags`, which must be a regular file.

    The open never blocks (O_NONBLOCK, cleared once the file is known to be regular); a
    FIFO opened for writing without a reader fails at once (ENXIO) instead of waiting."""
    fd = os.open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, mode, dir_fd=dir_fd)
    try:
        check_regular(fd)
        if O_NONBLOCK and hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def existing_kind(path) -> Optional[str]:
    """What `path` is when it exists and is not a regular file (None: missing or regular).
    Symlinks are followed; an unreadable path counts as missing."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return None if stat.S_ISREG(info.st_mode) else file_kind(info.st_mode)
