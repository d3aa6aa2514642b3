"""`fs.read` / `fs.write` inside the file root, resolved by descriptors, never by path text.

A path is checked as text first (relative, no `..`, no NUL), then resolved one component at
a time from an open descriptor of the root: every directory is opened with
`O_DIRECTORY | O_NOFOLLOW` relative to its parent's descriptor, so a directory swapped for a
symlink between two steps is never followed by the kernel. A symlink met on the way is read
(`readlinkat`) and followed by this resolver only: a relative target continues from the
descriptors already held (a `..` pops one, never past the root), an absolute one must name a
path under the root's real path and restarts from the root's descriptor; any other target is
`path leaves the file root`. At most MAX_SYMLINKS symlinks are followed per path.

- A read opens the last component with `O_NOFOLLOW | O_NONBLOCK` in its resolved directory,
  then `fstat`s the descriptor: only a regular file with one link is read (a FIFO or device
  would block or never end; a second hard link may be a name of a file outside the root).
- A write creates a fresh temporary file in the resolved directory (`O_CREAT | O_EXCL |
  O_NOFOLLOW`), writes it, and renames it over the name within that directory: the write
  replaces the directory entry and never writes through an existing inode, so a symlink, a
  hard link or a FIFO swapped in at the last moment is replaced, not written through. An
  existing target must be a regular file with one link (its permission bits are kept).
"""
from __future__ import annotations

import errno
import json
import os
import stat
from collections import deque
from pathlib import PurePosixPath

from boruna.core.regular_files import O_CLOEXEC, O_NOCTTY, O_NONBLOCK, file_kind
from boruna.runtime.handlers import HandlerError

FS_READ_LIMIT = 10 * 1024 * 1024
"""Bytes `fs.read` reads at most (a larger file is an error)."""
MAX_SYMLINKS = 40
"""Symlinks followed while resolving one path (as the kernel's ELOOP bound)."""
MAX_RETRIES = 16
"""Times a path is resolved again when it changed between two steps (a racing rename)."""

O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_DIR_FLAGS = os.O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
_CHANGED = (errno.ELOOP, errno.ENOTDIR, errno.ENOENT, errno.EISDIR, errno.ENXIO)
SUPPORTED = bool(O_NOFOLLOW and O_DIRECTORY and os.open in os.supports_dir_fd
                 and os.stat in os.supports_dir_fd and os.readlink in os.supports_dir_fd)


class _Changed(Exception):
    """The path changed under the resolver (a component was swapped): resolve again."""


class _Leaves(Exception):
    """A symlink points outside the root."""


def check_text(path: str, what: str) -> list[str]:
    """The components of a relative path that cannot leave the root as text."""
    if path == "" or "\0" in path:
        raise HandlerError(f"{what}: invalid path {json.dumps(path)}")
    if path.startswith(("/", "\\")) or (len(path) > 1 and path[1] == ":"):
        raise HandlerError(f"{what}: absolute path refused: {path}")
    if ".." in path.replace("\\", "/").split("/") or ".." in PurePosixPath(path).parts:
        raise HandlerError(f"{what}: `..` refused: {path}")
    return [part for part in path.split("/") if part not in ("", ".")]


class FileRoot:
    """The `--fs-root` directory; `read(path)` and `write(path, text)` stay inside it."""

    def __init__(self, root: str):
        self.root = root

    # ------------------------------------------------------------ resolution

    def _open_root(self, what: str) -> tuple[int, tuple]:
        """(a descriptor of the root, the root's names: its real and its absolute path)."""
        if not SUPPORTED:
            raise HandlerError(f"{what}: file access needs a system with openat and O_NOFOLLOW")
        try:
            fd = os.open(self.root, os.O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        except OSError as err:
            raise HandlerError(f"{what}: cannot open the file root: {err.strerror}")
        try:
            names = (os.path.realpath(self.root), os.path.abspath(self.root))
        except (OSError, ValueError):
            os.close(fd)
            raise HandlerError(f"{what}: cannot open the file root") from None
        return fd, names

    def _resolve(self, root_fd: int, root_names: tuple, parts: list[str]) -> tuple[list[int], str]:
        """(the descriptors from the root down to the last component's directory, the last
        component's name, itself no symlink when it exists). Raises _Leaves, _Changed or
        OSError; the caller closes the descriptors (stack[0] is a dup of the root's)."""
        stack = [os.dup(root_fd)]
        todo = deque(parts)
        links = 0
        try:
            while todo:
                name = todo.popleft()
                if name in ("", "."):
                    continue
                if name == "..":           # only from a symlink's target
                    if len(stack) == 1:
                        raise _Leaves()
                    os.close(stack.pop())
                    continue
                last = not todo
                try:
                    info = os.stat(name, dir_fd=stack[-1], follow_symlinks=False)
                except FileNotFoundError:
                    if last:
                        return stack, name
                    raise
                if stat.S_ISLNK(info.st_mode):
                    links += 1
                    if links > MAX_SYMLINKS:
                        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP))
                    try:
                        target = os.readlink(name, dir_fd=stack[-1])
                    except OSError as err:
                        # no longer a symlink (EINVAL) or gone since the stat: resolve again
                        if err.errno == errno.EINVAL or err.errno in _CHANGED:
                            raise _Changed() from None
                        raise
                    if target.startswith("/"):
                        inside = _under(target, root_names)
                        if inside is None:
                            raise _Leaves()
                        while len(stack) > 1:
                            os.close(stack.pop())
                        target = inside
                    todo.extendleft(reversed(target.split("/")))
                    continue
                if last:
                    return stack, name
                if not stat.S_ISDIR(info.st_mode):
                    raise OSError(errno.ENOTDIR, os.strerror(errno.ENOTDIR))
                try:
                    stack.append(os.open(name, _DIR_FLAGS, dir_fd=stack[-1]))
                except OSError as err:
                    if err.errno in _CHANGED:
                        raise _Changed() from None
                    raise
            return stack, "."
        except BaseException:
            for fd in stack:
                os.close(fd)
            raise

    def _at(self, path: str, what: str, action):
        """`action(dir_fd, name)` on the resolved last component, resolving again (up to
        MAX_RETRIES times) when the path changes under it."""
        parts = check_text(path, what)
        root_fd, root_names = self._open_root(what)
        try:
            for _ in range(MAX_RETRIES):
                try:
                    stack, name = self._resolve(root_fd, root_names, parts)
                except _Leaves:
                    raise HandlerError(f"{what}: path leaves the file root: {path}") from None
                except _Changed:
                    continue
                except OSError as err:
                    raise HandlerError(f"{what}: cannot open {path}: {err.strerror}") from None
                try:
                    return action(stack[-1], name)
                except _Changed:
                    continue
                finally:
                    for fd in stack:
                        os.close(fd)
            raise HandlerError(f"{what}: {path} kept changing while it was opened")
        finally:
            os.close(root_fd)

    # ------------------------------------------------------------ fs.read

    def read(self, path: str) -> str:
        def action(dir_fd: int, name: str) -> bytes:
            if name == ".":
                raise HandlerError(f"fs.read: {path} is not a regular file (a directory)")
            try:
                fd = os.open(name, os.O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
                             dir_fd=dir_fd)
            except OSError as err:
                if err.errno == errno.ELOOP:     # became a symlink after the resolver looked
                    raise _Changed() from None
                raise HandlerError(f"fs.read: cannot open {path}: {err.strerror}") from None
            try:
                _check_file(os.fstat(fd), path, "fs.read")
            except BaseException:
                os.close(fd)
                raise
            with os.fdopen(fd, "rb") as fh:
                return fh.read(FS_READ_LIMIT + 1)

        data = self._at(path, "fs.read", action)
        if len(data) > FS_READ_LIMIT:
            raise HandlerError(f"fs.read: {path} is larger than {FS_READ_LIMIT} bytes")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise HandlerError(f"fs.read: {path} is not valid UTF-8") from None

    # ------------------------------------------------------------ fs.write

    def write(self, path: str, content: str) -> bool:
        data = content.encode("utf-8", "replace")

        def action(dir_fd: int, name: str) -> bool:
            if name == ".":
                raise HandlerError(f"fs.write: {path} is not a regular file (a directory)")
            mode = None
            try:
                info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
            except FileNotFoundError:
                info = None
            if info is not None:
                if stat.S_ISLNK(info.st_mode):
                    raise _Changed()
                _check_file(info, path, "fs.write")
                mode = stat.S_IMODE(info.st_mode)
            _replace(dir_fd, name, data, mode, path)
            return True

        return self._at(path, "fs.write", action)


def _under(target: str, roots: tuple) -> "str | None":
    """The rest of the absolute symlink target `target` below one of the root's names (its
    real path, its absolute path), or None when it names a place outside the root. The rest
    is resolved from the root's descriptor, never through the names' text."""
    for root in roots:
        base = root.rstrip("/")
        if target == base or target.startswith(base + "/"):
            return target[len(base):]
    return None


def _check_file(info: os.stat_result, path: str, what: str) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise HandlerError(f"{what}: {path} is not a regular file (a {file_kind(info.st_mode)})")
    if info.st_nlink > 1:
        raise HandlerError(f"{what}: {path} has {info.st_nlink} hard links; a file with more "
                           "than one link is refused (another link may lie outside the root)")


def _replace(dir_fd: int, name: str, data: bytes, mode, path: str) -> None:
    """Write `data` to a new file in `dir_fd` and rename it over `name` there (`mode`: the
    permission bits to keep, None for a new file: 0o644 under the umask)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | O_NOFOLLOW | O_CLOEXEC
    for attempt in range(MAX_RETRIES):
        temp = f".{name[:200]}.{os.getpid()}.{os.urandom(6).hex()}.boruna-tmp"
        try:
            fd = os.open(temp, flags, 0o644, dir_fd=dir_fd)
            break
        except FileExistsError:
            continue
        except OSError as err:
            raise HandlerError(f"fs.write: cannot open {path}: {err.strerror}") from None
    else:
        raise HandlerError(f"fs.write: cannot open {path}: no free temporary name")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if mode is not None:
                os.fchmod(fh.fileno(), mode)
        os.rename(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException as exc:
        try:
            os.unlink(temp, dir_fd=dir_fd)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise HandlerError(f"fs.write: cannot write {path}: {exc.strerror}") from None
        raise
