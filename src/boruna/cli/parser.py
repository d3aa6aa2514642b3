"""The argument parser of `boruna`: every command, flag and help text.

Parsing never exits the process: `ParserExit` carries the status (0 for `--help` and
`--version`, 2 for a usage error) back to `main`, which returns it.
"""
from __future__ import annotations

import argparse
import sys

from boruna import __version__
from boruna.cli.errors import EXIT_USAGE
from boruna.core.limits import DEFAULT_MAX_STEPS, TRACE_LIMIT, U64_MAX

PROG = "boruna"
DESCRIPTION = ("Boruna: a deterministic, capability-safe language. Compile, run, check and "
               "repair .ax programs; validate apps, workflows and policies.")
EPILOG = ("Exit status: 0 success, 1 compile/runtime/validation failure, 2 usage error, "
          "130 interrupted. Results go to stdout, errors and progress to stderr. "
          "Run 'boruna COMMAND --help' for a command's options.")


class ParserExit(Exception):
    """argparse wanted to exit with `status` (after printing help, version or usage)."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


class Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises ParserExit instead of calling sys.exit."""

    def exit(self, status=0, message=None):
        if message:
            sys.stderr.write(message)
        raise ParserExit(status)

    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise ParserExit(EXIT_USAGE)

    def parse_known_args(self, args=None, namespace=None):
        """Leftover words are an error of the parser that owns them, so `boruna run --jsn`
        shows `boruna run`'s usage and suggests `--json`, not the top-level usage."""
        namespace, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}{self._suggest_flags(extras)}")
        return namespace, extras

    def _suggest_flags(self, extras: list[str]) -> str:
        known = [flag for flag in self._option_string_actions if flag.startswith("--")]
        for word in extras:
            if word.startswith("-"):
                import difflib
                close = difflib.get_close_matches(word.split("=", 1)[0], known, n=1, cutoff=0.6)
                if close:
                    return f" (did you mean {close[0]}?)"
        return ""

    def _check_value(self, action, value):
        """A bad choice (command name, --color value) names the closest valid one."""
        if action.choices is None or value in action.choices:
            return
        choices = [str(choice) for choice in action.choices]
        import difflib
        close = difflib.get_close_matches(str(value), choices, n=1, cutoff=0.6)
        hint = f"did you mean '{close[0]}'? " if close else ""
        raise argparse.ArgumentError(
            action, f"invalid choice: '{value}' ({hint}choose from {', '.join(choices)})")


def _non_negative_int(text: str) -> int:
    """An integer in 0..2^64-1 (the range of the VM's u64 limits); `_` separators allowed."""
    try:
        value = int(text.replace("_", ""), 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got '{text}'") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got '{text}'")
    if value > U64_MAX:
        raise argparse.ArgumentTypeError(f"'{text}' is larger than the maximum {U64_MAX}")
    return value


def _line_width(text: str) -> int:
    """`boruna fmt --width`: a whole number of columns from 20 to 1000."""
    try:
        value = int(text, 10)
    except ValueError:
        value = 0
    if not 20 <= value <= 1000:
        raise argparse.ArgumentTypeError(f"expected a width from 20 to 1000, got '{text}'")
    return value


def _add_color(parser: argparse.ArgumentParser, default=argparse.SUPPRESS) -> None:
    parser.add_argument("--color", choices=("auto", "always", "never"), default=default,
                        help="colour the output: auto (terminal only, honours NO_COLOR), "
                             "always or never (default: auto)")


def _leaf(sub, name: str, handler: str, help_text: str, description: str | None = None,
          aliases=()) -> argparse.ArgumentParser:
    p = sub.add_parser(name, help=help_text, description=description or help_text,
                       aliases=list(aliases))
    p.set_defaults(handler=handler)
    _add_color(p)
    return p


def _group(sub, name: str, help_text: str, dest: str):
    p = sub.add_parser(name, help=help_text, description=help_text)
    p.set_defaults(handler=None, group_parser=p)
    _add_color(p)
    return p, p.add_subparsers(dest=dest, title="commands", metavar="COMMAND", parser_class=Parser)


def _data_dir_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data-dir", metavar="DIR",
                   help="where runs.db lives (default: $BORUNA_DATA_DIR, else ./.boruna/data)")


def _driver_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--concurrency", type=int, default=1, metavar="N",
                   help="steps run at once (default 1)")
    p.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="where steps run: this process (default) or Dask workers")
    p.add_argument("--scheduler", metavar="ADDR",
                   help="with --engine dask: a Dask scheduler address (default: a LocalCluster "
                        "started for the run)")
    _live_flags(p)
    _data_dir_flag(p)
    _json_flag(p)


def add_evidence(sub) -> None:
    """`boruna evidence verify DIR`."""
    p = _leaf(sub, "evidence", "evidence_cmd:cmd_verify",
              "evidence bundles: evidence verify DIR checks a bundle")
    p.add_argument("action", metavar="verify", choices=("verify",), help="verify")
    p.add_argument("dir", metavar="DIR", help="the bundle directory (workflow evidence --out)")
    _json_flag(p)


def add_workflow_runs(gsub) -> None:
    """`boruna workflow run|show|list|resume|approve|reject|trigger|cancel|evidence`."""
    m = "workflow_run_cmd"
    p = _leaf(gsub, "run", f"{m}:cmd_run", "run a workflow directory durably")
    p.add_argument("dir", metavar="DIR", help="workflow directory (workflow.json + step sources)")
    p.add_argument("-p", "--policy", default="allow-all", metavar="POLICY",
                   help="capability policy: allow-all (default), deny-all, or a policy JSON file")
    p.add_argument("--input", action="append", default=[], metavar="NAME=JSON",
                   help="a run input read by $input.NAME refs (repeatable; a value that is not "
                        "JSON is taken as a string)")
    p.add_argument("--delegate", action="append", default=[], metavar="CAP",
                   help="answer every step's calls of capability CAP yourself (repeatable): a "
                        "step stops at such a call, stored as a snapshot in the journal; "
                        "answer it with 'workflow resume RUN --answer JSON'")
    _driver_flags(p)
    p = _leaf(gsub, "show", f"{m}:cmd_show", "show a run's status, steps and outputs")
    p.add_argument("run_id", metavar="RUN")
    _data_dir_flag(p)
    _json_flag(p)
    p = _leaf(gsub, "list", f"{m}:cmd_list", "list the runs of the journal")
    p.add_argument("--status", choices=("running", "completed", "failed", "paused", "cancelled"))
    _data_dir_flag(p)
    _json_flag(p, "the runs as JSON")
    p = _leaf(gsub, "resume", f"{m}:cmd_resume",
              "continue a crashed, cancelled or paused run from its journal")
    p.add_argument("run_id", metavar="RUN")
    p.add_argument("--answer", metavar="JSON", default=None,
                   help="the result of the capability call a step waits on (JSON); the step "
                        "goes on from its stored snapshot")
    p.add_argument("--step", metavar="STEP", default=None,
                   help="with --answer: the waiting step (needed when several wait)")
    _driver_flags(p)
    p = _leaf(gsub, "approve", f"{m}:cmd_approve", "approve a waiting approval gate")
    p.add_argument("run_id", metavar="RUN")
    p.add_argument("step", metavar="STEP")
    p.add_argument("--role", required=True, help="must equal the gate's required_role")
    _driver_flags(p)
    p = _leaf(gsub, "reject", f"{m}:cmd_reject", "reject a waiting approval gate")
    p.add_argument("run_id", metavar="RUN")
    p.add_argument("step", metavar="STEP")
    p.add_argument("--reason", default=None, help="why (recorded in the audit log)")
    p.add_argument("--role", default=None, help="who rejects (recorded)")
    _driver_flags(p)
    p = _leaf(gsub, "trigger", f"{m}:cmd_trigger", "deliver an external event to a waiting step")
    p.add_argument("run_id", metavar="RUN")
    p.add_argument("step", metavar="STEP")
    p.add_argument("--token", required=True, help="the step's token (workflow show RUN)")
    p.add_argument("--payload", default="null", metavar="JSON",
                   help="the event's JSON value: the step's result (default null)")
    _driver_flags(p)
    p = _leaf(gsub, "cancel", f"{m}:cmd_cancel", "cancel a run (it stays resumable)")
    p.add_argument("run_id", metavar="RUN")
    _data_dir_flag(p)
    _json_flag(p)
    p = _leaf(gsub, "evidence", f"{m}:cmd_evidence",
              "write a run's evidence bundle (manifest, workflow, policy, audit log, outputs)")
    p.add_argument("run_id", metavar="RUN")
    p.add_argument("--out", required=True, metavar="DIR", help="the bundle directory to create")
    _data_dir_flag(p)
    _json_flag(p)


def _json_flag(p: argparse.ArgumentParser, what: str = "the same JSON as the MCP tool") -> None:
    p.add_argument("--json", action="store_true", help=f"print {what} instead of text")


def _capability_flags(p: argparse.ArgumentParser, taping: bool = True) -> None:
    """`boruna run`'s capability handler flags (docs/capabilities.md)."""
    _live_flags(p)
    if taping:
        _record_flags(p)


def _live_flags(p: argparse.ArgumentParser) -> None:
    """--live and the handler flags it enables (`boruna run`, `boruna workflow run`)."""
    p.add_argument("--live", action="store_true",
                   help="live capability handlers: real HTTP under the policy's net_policy, "
                        "the clock, the OS random generator; files and a database only with "
                        "--fs-root / --db (default: the deterministic mock)")
    p.add_argument("--fs-root", metavar="DIR",
                   help="with --live: fs.read/fs.write reach relative paths inside DIR only")
    p.add_argument("--db", metavar="FILE",
                   help="with --live: db.query runs on this SQLite file (read-only)")
    p.add_argument("--db-write", action="store_true", help="with --db: the database may be written")
    p.add_argument("--llm-endpoint", metavar="URL",
                   help="with --live: llm.call posts to URL/chat/completions (OpenAI-compatible; "
                        "default: $BORUNA_LLM_ENDPOINT, else the mock answer)")


def _record_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--record", metavar="TAPE",
                   help="write every capability call and its result, and the run's outcome, "
                        "to the tape file TAPE (JSON)")
    p.add_argument("--replay", metavar="TAPE",
                   help="answer the capability calls from the tape TAPE (no I/O); the run must "
                        "ask for the same calls and reproduce the recorded outcome")
    p.add_argument("--tape-key", metavar="FILE",
                   help="with --record: sign the tape (HMAC-SHA256) with the key in FILE; with "
                        "--replay: accept only a tape signed with that key (every tape carries "
                        "a content hash, always checked)")


def _snapshot_flags(p: argparse.ArgumentParser, delegate: bool = True,
                    where: str = "file the paused run is written to") -> None:
    """Suspended runs (docs/snapshots.md): `boruna run` and `boruna resume`."""
    p.add_argument("--pause-after", type=_non_negative_int, metavar="N",
                   help="stop after N more steps and write the paused run to --snapshot")
    if delegate:
        p.add_argument("--delegate", action="append", metavar="CAP",
                       help="stop at the first call of capability CAP (repeatable) and write "
                            "the run to --snapshot; answer it with 'boruna resume --answer'")
    p.add_argument("--snapshot", metavar="FILE",
                   help=where + "; a run reaching its step limit is paused there too")


def _libs_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--libs-dir", metavar="DIR",
                   help="where 'import NAME' finds libraries (default: ./libs if it exists, "
                        "else the bundled standard libraries)")


def _add_doc_commands(sub) -> None:
    """`boruna explain CODE` and `boruna guide [TOPIC]`: the texts written for agents."""
    p = _leaf(sub, "explain", "explain_cmd:cmd_explain",
              "explain a diagnostic code, with an erroneous example and its fix")
    p.add_argument("code", metavar="CODE", help="a diagnostic code, e.g. E003")
    p = _leaf(sub, "guide", "guide_cmd:cmd_guide",
              "print the language guide written for agents (or the codes, libs, templates)")
    p.add_argument("topic", nargs="?", default="language",
                   choices=("language", "codes", "libs", "templates", "workflows"),
                   help="what to print (default: language)")
    _libs_flag(p)
    p.add_argument("--dir", metavar="DIR",
                   help="templates directory for 'guide templates' (default: ./templates if "
                        "it exists, else the bundled templates)")


def build_parser() -> Parser:
    """The full `boruna` parser."""
    root = Parser(prog=PROG, description=DESCRIPTION, epilog=EPILOG)
    root.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    _add_color(root, default="auto")
    root.set_defaults(handler=None, group_parser=root)
    sub = root.add_subparsers(dest="command", title="commands", metavar="COMMAND",
                              parser_class=Parser)

    p = _leaf(sub, "compile", "compile_cmd:cmd_compile", "compile a .ax file to bytecode (.axbc)")
    p.add_argument("file", metavar="FILE", help="source file (.ax); - reads standard input")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="bytecode file to write (default: FILE with the extension .axbc)")
    _libs_flag(p)
    _json_flag(p)

    # (snapshot_cmd.cmd_run is run_cmd.cmd_run plus --pause-after / --delegate / --snapshot)
    p = _leaf(sub, "run", "snapshot_cmd:cmd_run", "compile and run a .ax file, or run a .axbc file",
              "Compile and run a program (or run compiled bytecode) and print its result, "
              "its UI output and the step count. A long run shows its progress on stderr "
              "when that is a terminal; Ctrl-C stops it and reports the steps so far.")
    p.add_argument("file", metavar="FILE", help="source (.ax) or bytecode (.axbc) file; - reads source from standard input")
    p.add_argument("-p", "--policy", default="allow-all", metavar="POLICY",
                   help="capability policy: allow-all (default), deny-all, or a policy JSON file")
    p.add_argument("--max-steps", "--step-limit", dest="max_steps", type=_non_negative_int,
                   default=DEFAULT_MAX_STEPS, metavar="N",
                   help=f"stop with an error after N VM steps (default: {DEFAULT_MAX_STEPS})")
    p.add_argument("--max-wall-ms", type=_non_negative_int, metavar="MS",
                   help="stop with an error after MS milliseconds of wall-clock time")
    p.add_argument("--trace", action="store_true",
                   help=f"record and print the opcode trace (first {TRACE_LIMIT} entries)")
    _capability_flags(p)
    _snapshot_flags(p)
    _libs_flag(p)
    _json_flag(p)

    p = _leaf(sub, "ast", "ast_cmd:cmd_ast", "print the syntax tree of a .ax file as JSON")
    p.add_argument("file", metavar="FILE", help="source file (.ax); - reads standard input")
    _json_flag(p, "the boruna_ast tool's JSON response")

    p = _leaf(sub, "fmt", "fmt_cmd:cmd_fmt", "format .ax files in the canonical layout",
              "Rewrite each FILE in the canonical layout (4-space indentation, lines wrapped "
              "at 100 columns, every comment kept; docs/formatting.md). Exit status: 0 "
              "formatted, 1 when --check or --diff finds a file that would change, 2 when a "
              "file does not parse or cannot be read.")
    p.add_argument("files", metavar="FILE", nargs="+",
                   help="source files (.ax); - reads standard input and prints the result")
    p.add_argument("--check", action="store_true",
                   help="write nothing; list the files that would change (exit 1 if any)")
    p.add_argument("--diff", action="store_true",
                   help="write nothing; print the changes as unified diffs (exit 1 if any)")
    p.add_argument("--width", type=_line_width, default=None, metavar="N",
                   help="wrap lines at N columns, 20 to 1000 (default: 100)")
    _json_flag(p, "the boruna_format tool's JSON response")

    p = _leaf(sub, "symbols", "symbols_cmd:cmd_symbols",
              "list the functions, records and enums a .ax file declares")
    p.add_argument("file", metavar="FILE", help="source file (.ax); - reads standard input")
    _libs_flag(p)
    _json_flag(p, "the boruna_symbols tool's JSON response")

    def add_check(sub_parsers, name="check"):
        c = _leaf(sub_parsers, name, "check_cmd:cmd_check",
                  "report diagnostics (errors, warnings, suggested fixes) for a .ax file",
                  "Report every diagnostic of a .ax file with its location and suggested "
                  "fixes. Exit status 1 when any diagnostic is an error.")
        c.add_argument("file", metavar="FILE", help="source file (.ax); - reads standard input")
        c.add_argument("-o", "--output", metavar="DIAG.json",
                       help="also write the full diagnostic set (with text edits) as JSON, "
                            "for 'boruna repair --from'")
        _libs_flag(c)
        _json_flag(c)
        return c

    def add_repair(sub_parsers, name="repair"):
        r = _leaf(sub_parsers, name, "repair_cmd:cmd_repair",
                  "apply suggested fixes to a .ax file",
                  "Apply the diagnostics' suggested fixes and rewrite the file. Exit status 1 "
                  "when errors remain after the repair.")
        r.add_argument("file", metavar="FILE", help="source file (.ax); - reads standard input")
        r.add_argument("--apply", default="best", metavar="best|all|PATCH_ID",
                       help="which fixes: 'best' (the most confident per diagnostic, "
                            "default), 'all' (one per diagnostic) or one patch id")
        r.add_argument("--dry-run", action="store_true",
                       help="show the changes as a diff; do not write the file")
        r.add_argument("--from", dest="from_file", metavar="DIAG.json",
                       help="use the diagnostics saved by 'boruna check -o' instead of "
                            "checking the file again")
        _libs_flag(r)
        _json_flag(r)
        return r

    def add_codes(sub_parsers, name="codes"):
        c = _leaf(sub_parsers, name, "codes_cmd:cmd_codes", "list the diagnostic codes")
        _json_flag(c, '{"version": 1, "codes": [...]}')
        return c

    add_check(sub)
    add_repair(sub)
    add_codes(sub)
    _add_doc_commands(sub)

    grp, gsub = _group(sub, "framework", "App framework: validate and test init/update/view apps",
                       "framework_command")
    p = _leaf(gsub, "validate", "framework_cmd:cmd_validate",
              "check that a .ax file follows the App protocol")
    p.add_argument("file", metavar="FILE", help="source file (.ax); - reads standard input")
    _libs_flag(p)
    _json_flag(p)
    p = _leaf(gsub, "test", "framework_cmd:cmd_test",
              "run an app through a sequence of messages")
    p.add_argument("file", metavar="FILE", help="source file (.ax); - reads standard input")
    p.add_argument("-m", "--messages", action="append", default=[], metavar="MSGS",
                   help='comma-separated "tag:payload" messages, e.g. "increment:1,reset" '
                        "(repeatable)")
    _libs_flag(p)
    _json_flag(p)

    grp, gsub = _group(sub, "workflow", "workflow DAGs: validate, run, resume, approve, show, "
                       "evidence", "workflow_command")
    p = _leaf(gsub, "validate", "workflow_cmd:cmd_validate",
              "validate DIR/workflow.json and print its execution order")
    p.add_argument("dir", metavar="DIR", help="workflow directory (or a workflow.json file)")
    _json_flag(p)
    add_workflow_runs(gsub)
    add_evidence(sub)

    grp, gsub = _group(sub, "template", "app templates: list and apply", "template_command")
    p = _leaf(gsub, "list", "template_cmd:cmd_list", "list the available templates")
    p.add_argument("--dir", metavar="DIR",
                   help="templates directory (default: ./templates if it exists, else the "
                        "bundled templates)")
    _json_flag(p)
    p = _leaf(gsub, "apply", "template_cmd:cmd_apply",
              "render a template into a .ax file")
    p.add_argument("name", metavar="NAME", help="template name, e.g. crud-admin")
    p.add_argument("--args", default="", metavar="K=V,...",
                   help='comma-separated arguments, e.g. "entity_name=User,fields=name"')
    p.add_argument("--arg", action="append", default=[], metavar="K=V",
                   help="one argument (repeatable; the value may contain commas)")
    p.add_argument("--dir", metavar="DIR",
                   help="templates directory (default: ./templates if it exists, else the "
                        "bundled templates)")
    p.add_argument("-o", "--out", "--output", dest="out", metavar="FILE",
                   help="file to write (default: NAME_app.ax; '-' prints the source)")
    p.add_argument("--validate", action="store_true",
                   help="compile the rendered source; do not write it if it fails")
    _json_flag(p)

    grp, gsub = _group(sub, "capability", "capabilities: list the capability set",
                       "capability_command")
    p = _leaf(gsub, "list", "capability_cmd:cmd_list",
              "list the capabilities and the capability-set hash")
    _json_flag(p)

    grp, gsub = _group(sub, "policy", "capability policies: validate policy files",
                       "policy_command")
    p = _leaf(gsub, "validate", "policy_cmd:cmd_validate", "validate a policy JSON file")
    p.add_argument("file", metavar="FILE", help="policy file (.json)")
    _json_flag(p)
    p = _leaf(gsub, "show", "policy_cmd:cmd_show",
              "print the effective policy of a policy file (or allow-all / deny-all)")
    p.add_argument("file", metavar="FILE", help="policy file (.json), allow-all or deny-all")

    grp, gsub = _group(sub, "lang", "language tools under their reference names "
                       "(lang check, lang repair, lang codes)", "lang_command")
    add_check(gsub)
    add_repair(gsub)
    add_codes(gsub)
    p = _leaf(sub, "resume", "snapshot_cmd:cmd_resume",
              "continue a run paused in a snapshot file (boruna run --snapshot)",
              "Continue a run from a snapshot file written by 'boruna run --pause-after N "
              "--snapshot FILE' or '--delegate CAP --snapshot FILE': with --answer JSON for "
              "the capability call it waits on. The snapshot file is left as it is unless "
              "the run stops again; resume it twice with different answers to fork the run.")
    p.add_argument("file", metavar="FILE", help="snapshot file")
    p.add_argument("--answer", metavar="JSON",
                   help="the result of the pending capability call, as JSON (checked against "
                        "the capability builtin's result type)")
    p.add_argument("--max-steps", dest="max_steps", type=_non_negative_int, metavar="N",
                   help="raise the run's step ceiling to N (default: the snapshot's)")
    _snapshot_flags(p, delegate=False,
                    where="file a run that stops again is written to (default: FILE)")
    _capability_flags(p, taping=False)
    _json_flag(p, "the boruna_run / boruna_resume JSON response")

    grp, gsub = _group(sub, "snapshot", "snapshot files of paused runs: inspect",
                       "snapshot_command")
    p = _leaf(gsub, "inspect", "snapshot_cmd:cmd_inspect",
              "print what a snapshot file holds: frames, step, pending call, settings")
    p.add_argument("file", metavar="FILE", help="snapshot file")
    _json_flag(p, "the inspection as JSON")

    return root
