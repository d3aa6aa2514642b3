"""`boruna-mcp`: the command line of the MCP stdio server.

Arguments are parsed before anything heavy is imported, so `boruna-mcp --help` and
`--version` answer at once; the server itself (`server.py`, the MCP SDK, pydantic) loads
only when it is about to serve.
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import Optional, Sequence

from boruna import __version__
from boruna.assets.directories import LIBS, TEMPLATES, resolve_dir


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="boruna-mcp",
        description="Boruna MCP server: serves the Boruna toolchain (compile, run, check, repair, "
                    "framework, workflow and template tools) over MCP stdio (newline-delimited "
                    "JSON-RPC on stdin/stdout).")
    parser.add_argument("--templates-dir", metavar="PATH", default=None,
                        help="templates root for boruna_template_list/apply (default: ./templates, "
                             "else the templates bundled with boruna)")
    parser.add_argument("--libs-dir", metavar="PATH", default=None,
                        help="libraries used to resolve `import` in submitted source (default: "
                             "./libs, else the libraries bundled with boruna)")
    parser.add_argument("--live", action="store_true",
                        help="boruna_run and boruna_run_sealed use live capability handlers "
                             "(real HTTP under the policy's net_policy, the clock, the OS "
                             "random generator; files and a database only with --fs-root / "
                             "--db); default: the deterministic mock")
    parser.add_argument("--fs-root", metavar="DIR", default=None,
                        help="with --live: fs.read/fs.write reach relative paths inside DIR only")
    parser.add_argument("--db", metavar="FILE", default=None,
                        help="with --live: db.query runs on this SQLite file (read-only)")
    parser.add_argument("--db-write", action="store_true",
                        help="with --db: the database may be written")
    parser.add_argument("--llm-endpoint", metavar="URL", default=None,
                        help="with --live: llm.call posts to URL/chat/completions (an "
                             "OpenAI-compatible endpoint; default: $BORUNA_LLM_ENDPOINT, else "
                             "the mock answer)")
    parser.add_argument("--policy", metavar="FILE", default=None,
                        help="with --live: the policy of a boruna_run / boruna_run_sealed call "
                             "that passes none (a policy file, or allow-all / deny-all; "
                             "default: deny-all, so no capability runs unless the call or this "
                             "flag names a policy that allows it)")
    parser.add_argument("--data-dir", metavar="DIR", default=None,
                        help="workflow runs' journal (runs.db) directory (default: "
                             "$BORUNA_DATA_DIR, else ./.boruna/data)")
    parser.add_argument("--workflow-root", metavar="DIR", default=None,
                        help="boruna_workflow_run reads workflow directories inside DIR only "
                             "(default: the working directory)")
    parser.add_argument("--snapshot-key-file", metavar="FILE", default=None,
                        help="HMAC key (the file's bytes, at least 16) sealing boruna_resume "
                             "tokens, so tokens outlive a restart; default: a new random key "
                             "at every start")
    parser.add_argument("--version", action="version", version=f"boruna-mcp {__version__}")
    args = parser.parse_args(argv)
    for flag, value in (("--fs-root", args.fs_root), ("--db", args.db),
                        ("--db-write", args.db_write), ("--llm-endpoint", args.llm_endpoint),
                        ("--policy", args.policy)):
        if value and not args.live:
            parser.error(f"{flag} needs --live")
    if args.db_write and not args.db:
        parser.error("--db-write needs --db FILE")
    if args.db:
        from boruna.core.regular_files import existing_kind

        kind = existing_kind(args.db)
        if kind is not None:
            parser.error(f"--db {args.db}: not a regular file (a {kind})")
    args.default_policy = _default_policy(parser, args.policy) if args.live else None
    return args


def _default_policy(parser: argparse.ArgumentParser, named: Optional[str]):
    """The live server's policy for calls that pass none: deny-all, or what --policy names."""
    from boruna.runtime.policy import Policy, PolicyError, load_policy_file

    if named is None or named == "deny-all":
        return Policy.deny_all()
    if named == "allow-all":
        return Policy.allow_all()
    try:
        return load_policy_file(named)
    except PolicyError as err:
        parser.error(f"--policy {named}: {err.message}")


def handler_config(args: argparse.Namespace):
    """The capability handlers the flags ask for (None: the deterministic mock)."""
    if not args.live:
        return None
    from boruna.service import HandlerConfig

    return HandlerConfig.from_env(True, args.fs_root, args.db, args.db_write,
                                  args.llm_endpoint,
                                  default_policy=getattr(args, "default_policy", None))


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Console entry point: parse flags, then serve MCP on stdio until stdin closes."""
    args = parse_args(argv)
    templates_dir = resolve_dir(args.templates_dir, TEMPLATES)
    libs_dir = resolve_dir(args.libs_dir, LIBS)
    _configure_logging(os.environ.get("BORUNA_MCP_LOG"))
    sys.setswitchinterval(SWITCH_INTERVAL)
    previous = _exit_on_ctrl_c()
    if _is_terminal(sys.stdin):
        print("boruna-mcp: serving MCP (JSON-RPC lines) on stdin/stdout for a coding agent; "
              "register it with your agent instead of typing here (docs/registering.md). "
              "Ctrl-C stops it.", file=sys.stderr, flush=True)
    import anyio  # the SDK and pydantic load only now: --help and --version stay fast

    from boruna.mcp.server import BorunaServer
    from boruna.mcp.transport import StartupFailure

    sealer = None
    if args.snapshot_key_file is not None:
        from boruna.runtime.suspend import Sealer, SuspendError

        try:
            sealer = Sealer.from_file(args.snapshot_key_file)
        except (OSError, SuspendError) as exc:
            print(f"boruna-mcp: cannot read --snapshot-key-file: "
                  f"{getattr(exc, 'message', None) or exc}", file=sys.stderr, flush=True)
            return 2
    try:
        server = BorunaServer(templates_dir, libs_dir, handler_config(args), sealer)
        server.data_dir, server.workflow_root = args.data_dir, args.workflow_root
        anyio.run(server.serve_stdio)
    except KeyboardInterrupt:
        return 130
    except StartupFailure as exc:
        print(f"boruna-mcp: cannot start: {exc}", file=sys.stderr, flush=True)
        return 1
    finally:
        if previous is not None:
            import signal

            signal.signal(signal.SIGINT, previous)
    return 0


SWITCH_INTERVAL = 0.0005
"""Seconds a busy thread holds the GIL while another waits for it (Python's default: 0.005).
Runs hand the interpreter over every 1,024 VM steps at the latest, so with several runs busy
a cheap call, the event loop and the transport wait ~0.5 ms per hand-over instead of ~5 ms."""

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _configure_logging(requested: Optional[str]) -> None:
    """Log to stderr at BORUNA_MCP_LOG's level (default WARNING); an unknown value gets a
    one-line warning and the default."""
    level = (requested or "WARNING").strip().upper()
    if level not in LOG_LEVELS:
        print(f"boruna-mcp: warning: ignoring BORUNA_MCP_LOG={requested!r} (expected one of "
              f"{', '.join(name.lower() for name in LOG_LEVELS)}); logging warnings",
              file=sys.stderr, flush=True)
        level = "WARNING"
    logging.basicConfig(level=level, stream=sys.stderr)


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _exit_on_ctrl_c():
    """Ctrl-C ends the server at once with status 130; returns the handler it replaced
    (None when it could not install its own).

    Stdin is read in a worker thread that cannot be interrupted, so the usual
    KeyboardInterrupt would wait for the next input line (or EOF) before the process ends.
    """
    import signal

    def stop(signum, frame):
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        os._exit(130)

    try:
        return signal.signal(signal.SIGINT, stop)
    except ValueError:  # not the main thread (main() called from a test): keep the default
        return None
