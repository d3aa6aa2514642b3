"""Reading and writing the user's files, with one clear line for every failure.

Every failure becomes a `CliError` such as
`cannot read 'prog.ax': no such file or directory`, `cannot read 'src': is a directory`
or `'prog.ax' is not valid UTF-8: invalid byte 0xff at line 3, column 7` — never a traceback.

The one input rule of every command: a file (or standard input) is read up to
`MAX_INPUT_BYTES`; a longer one (`/dev/zero` included) is refused after reading one byte
more than the limit, never read to the end.
"""
from __future__ import annotations

import errno
import os

from boruna.cli.errors import CliError

_REASONS = {
    errno.ENOENT: "no such file or directory",
    errno.EISDIR: "is a directory",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOTDIR: "a component of the path is not a directory",
    errno.ENAMETOOLONG: "file name too long",
    errno.ELOOP: "too many levels of symbolic links",
}


MAX_INPUT_BYTES = 50 * 1_048_576
"""The most any command reads from one file or from standard input (50 MiB)."""

INPUT_TOO_LARGE = f"larger than the {MAX_INPUT_BYTES // 1_048_576} MiB input limit"


def read_limited(handle, target: str, what: str = "read") -> bytes:
    """At most MAX_INPUT_BYTES from `handle`, read in 1 MiB chunks; a longer input is
    `cannot read TARGET: larger than the 50 MiB input limit` once one byte more has come."""
    chunks: list[bytes] = []
    total = 0
    while total <= MAX_INPUT_BYTES:
        chunk = handle.read(min(1_048_576, MAX_INPUT_BYTES + 1 - total))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
    raise CliError(f"cannot {what} {target}: {INPUT_TOO_LARGE}")


def os_reason(exc: OSError) -> str:
    """A short lower-case reason for an OSError (`no such file or directory`)."""
    reason = _REASONS.get(exc.errno or -1)
    if reason:
        return reason
    text = exc.strerror or str(exc) or type(exc).__name__
    return text[:1].lower() + text[1:]


def read_bytes(path: str, what: str = "read") -> bytes:
    """The bytes of `path`; a directory, a missing or unreadable file is a CliError."""
    if path == "":
        raise CliError("cannot read '': empty file name")
    if os.path.isdir(path):
        raise CliError(f"cannot {what} '{path}': is a directory")
    try:
        with open(path, "rb") as handle:
            return read_limited(handle, f"'{path}'", what)
    except OSError as exc:
        raise CliError(f"cannot {what} '{path}': {os_reason(exc)}") from None
    except ValueError as exc:  # e.g. an embedded NUL in the path
        raise CliError(f"cannot {what} '{path}': {exc}") from None


def decode_utf8(data: bytes, path: str) -> str:
    """Decode UTF-8 text (a leading BOM is dropped); bad bytes give their line and column."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise CliError(
            f"'{path}' is not valid UTF-8: invalid byte 0x{data[exc.start]:02x} "
            f"at line {line}, column {col}"
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def read_text(path: str) -> str:
    """The UTF-8 text of `path`, or a CliError saying why it cannot be read."""
    return decode_utf8(read_bytes(path), path)


def write_bytes(path: str, data: bytes) -> None:
    """Write `data` to `path`, or raise a CliError saying why not."""
    if os.path.isdir(path):
        raise CliError(f"cannot write '{path}': is a directory")
    try:
        with open(path, "wb") as handle:
            handle.write(data)
    except OSError as exc:
        raise CliError(f"cannot write '{path}': {os_reason(exc)}") from None
    except ValueError as exc:
        raise CliError(f"cannot write '{path}': {exc}") from None


def write_text(path: str, text: str) -> None:
    """Write UTF-8 `text` to `path`."""
    write_bytes(path, text.encode("utf-8"))
