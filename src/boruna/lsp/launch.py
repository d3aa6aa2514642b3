"""`boruna-lsp`: parse the command line, then serve LSP on stdin/stdout (logs on stderr)."""
from __future__ import annotations

import argparse
import logging
import sys
from typing import Optional


def parse_args(argv: Optional[list[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="boruna-lsp",
        description="The Boruna language server: diagnostics, hover, navigation, rename, "
                    "completion, code actions and more for .ax files, over LSP on stdio "
                    "(see docs/editors.md).")
    parser.add_argument("--stdio", action="store_true",
                        help="serve on stdin/stdout (the default and only transport)")
    parser.add_argument("--libs-dir", metavar="DIR",
                        help="directory `import` lines resolve against (default: the "
                             "`libsDir` initialization option, else the workspace's libs/, "
                             "else ./libs, else the bundled standard libraries)")
    parser.add_argument("--debounce-ms", type=int, default=150, metavar="MS",
                        help="quiet time after a change before it is checked (default 150)")
    parser.add_argument("--log-level", default="WARNING",
                        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                        help="what to log on stderr (default WARNING)")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    args = parser.parse_args(argv)
    if args.debounce_ms < 0 or args.debounce_ms > 10_000:
        parser.error("--debounce-ms must be between 0 and 10000")
    return args


def main(argv: Optional[list[str]] = None) -> int:
    args = parse_args(argv)
    if args.version:
        from boruna.lsp.server import _version
        print(f"boruna-lsp {_version()}")
        return 0
    logging.basicConfig(stream=sys.stderr, level=getattr(logging, args.log_level),
                        format="boruna-lsp %(levelname)s %(name)s: %(message)s")
    if args.libs_dir is not None:
        import os
        if not os.path.isdir(args.libs_dir):
            print(f"boruna-lsp: libs directory '{args.libs_dir}' does not exist or is not a "
                  f"directory", file=sys.stderr)
            return 2
    from boruna.lsp.server import build_server

    server = build_server(libs_dir=args.libs_dir, debounce_ms=args.debounce_ms)
    try:
        server.start_io()
    except KeyboardInterrupt:
        return 0
    return 0
