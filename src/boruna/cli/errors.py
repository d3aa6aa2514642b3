"""The two ways a command ends early: a failure (exit 1) or a usage error (exit 2)."""
from __future__ import annotations

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class CliError(Exception):
    """A one-line error for stderr (`error: <message>`) and the exit status to end with.

    `message=None` means the problem has already been reported (e.g. a compile error drawn
    with its source excerpt) and only the exit status remains.
    """

    def __init__(self, message: str | None, exit_code: int = EXIT_FAILURE):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


class UsageError(CliError):
    """A bad command line: wrong flag value, malformed argument (exit 2)."""

    def __init__(self, message: str):
        super().__init__(message, EXIT_USAGE)


class OutputError(CliError):
    """stdout cannot take the output (`> /dev/full`): `cannot write output: REASON` (exit 1)."""

    def __init__(self, exc: OSError):
        super().__init__(f"cannot write output: {exc.strerror or exc}")
