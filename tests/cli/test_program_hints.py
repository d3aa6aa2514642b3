"""What a new user mistypes gets a pointer to the right spelling or the missing piece."""
from pathlib import Path

RUN_USAGE_FIRST = "usage: boruna run [-h] [--color {auto,always,never}] [-p POLICY]"


def test_misspelled_flag_of_a_command_shows_that_commands_usage_and_the_flag(cli):
    result = cli("run", "--jsn", "x.ax")
    assert result.code == 2
    assert result.out == ""
    lines = result.err.splitlines()
    assert lines[0] == RUN_USAGE_FIRST
    assert lines[-1] == "boruna run: error: unrecognized arguments: --jsn (did you mean --json?)"


def test_extra_positional_is_reported_by_the_command(cli):
    result = cli("run", "a.ax", "b.ax")
    assert result.code == 2
    assert result.err.splitlines()[-1] == "boruna run: error: unrecognized arguments: b.ax"


def test_misspelled_nested_flag_names_the_nested_command(cli):
    result = cli("template", "list", "--jsonn")
    assert result.code == 2
    assert result.err.splitlines()[-1] == (
        "boruna template list: error: unrecognized arguments: --jsonn (did you mean --json?)")


def test_misspelled_command_suggests_the_closest(cli):
    result = cli("rn", "x.ax")
    assert result.code == 2
    assert result.err.splitlines()[-1] == (
        "boruna: error: argument COMMAND: invalid choice: 'rn' (did you mean 'run'? choose "
        "from compile, run, ast, fmt, symbols, check, repair, codes, explain, guide, framework, "
        "workflow, evidence, template, capability, policy, lang, resume, snapshot)")


def test_misspelled_subcommand_suggests_the_closest(cli):
    result = cli("framework", "tset")
    assert result.code == 2
    assert result.err.splitlines()[-1] == (
        "boruna framework: error: argument COMMAND: invalid choice: 'tset' "
        "(did you mean 'test'? choose from validate, test)")


def test_unrelated_command_gets_no_guess(cli):
    result = cli("frobnicate")
    assert result.err.splitlines()[-1] == (
        "boruna: error: argument COMMAND: invalid choice: 'frobnicate' (choose from compile, "
        "run, ast, fmt, symbols, check, repair, codes, explain, guide, framework, workflow, evidence, "
        "template, capability, policy, lang, resume, snapshot)")


def test_empty_program_run_explains_there_is_nothing_to_run(cli, tmp_path):
    prog = tmp_path / "empty.ax"
    prog.write_text("")
    result = cli("run", prog)
    assert result.code == 1
    assert result.out == ""
    assert result.err.splitlines() == [
        "error: runtime error: invalid function index: 0",
        "  after 0 steps",
        "  = help: the program declares no function; add `fn main() -> Int { ... }` to run it",
    ]


def test_types_only_program_gets_the_same_help(cli, tmp_path):
    prog = tmp_path / "types.ax"
    prog.write_text("type Point { x: Int, y: Int }\n")
    result = cli("run", prog)
    assert result.code == 1
    assert result.err.splitlines()[-1].endswith("the program declares no function; "
                                                "add `fn main() -> Int { ... }` to run it")


def test_string_plus_points_at_concat(cli, tmp_path):
    prog = tmp_path / "plus.ax"
    prog.write_text('fn main() -> String {\n    "a" + "b"\n}\n')
    result = cli("run", prog)
    assert result.code == 1
    assert result.err.splitlines() == [
        "error: runtime error: type error: expected numeric, got String",
        f" --> {prog}:2:5",
        "  |",
        '2 |     "a" + "b"',
        "  |     ^",
        f"  = note: in main at {prog}:2:5",
        "  after 3 steps",
        "  = help: `+` adds numbers; join strings with `++` (`boruna check` reports this "
        "before running)",
    ]


def test_the_plusplus_hint_only_follows_a_failing_plus(cli, tmp_path):
    prog = tmp_path / "times.ax"
    prog.write_text('fn main() -> String {\n    "a" * 2\n}\n')
    result = cli("run", prog)
    assert result.code == 1
    assert result.err.splitlines() == [
        "error: runtime error: type error: expected numeric, got String",
        f" --> {prog}:2:5",
        "  |",
        '2 |     "a" * 2',
        "  |     ^",
        f"  = note: in main at {prog}:2:5",
        "  after 3 steps",
    ]


def test_string_concat_with_plusplus_runs(cli, tmp_path):
    prog = tmp_path / "concat.ax"
    prog.write_text('fn main() -> String {\n    "a" ++ "b"\n}\n')
    result = cli("run", prog)
    assert (result.code, result.out) == (0, '"ab"\nsteps: 5\n')


def test_misspelled_policy_shorthand(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("p.ax").write_text("fn main() -> Int { 1 }\n")
    result = cli("run", "-p", "allow-al", "p.ax")
    assert result.code == 1
    assert result.err == ("error: invalid policy 'allow-al': policy.io_error: cannot read "
                          "'allow-al': no such file or directory (did you mean 'allow-all'?)\n")
    result = cli("run", "-p", "strict.json", "p.ax")
    assert result.err == ("error: invalid policy 'strict.json': policy.io_error: cannot read "
                          "'strict.json': no such file or directory\n")


def test_unknown_template_lists_the_available_ones(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("template", "apply", "crud-adm", "--args", "entity_name=x")
    assert result.code == 1
    assert result.err == (
        "error: template 'crud-adm' not found (did you mean 'crud-admin'? available: "
        "auth-app, crud-admin, form-basic, offline-sync, realtime-feed)\n")
    assert list(tmp_path.iterdir()) == []


def test_missing_template_argument_shows_the_arguments(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("template", "apply", "crud-admin", "--args", "entity_name=users")
    assert result.code == 1
    assert result.err == ('error: missing required argument: fields (crud-admin takes '
                          'entity_name, fields: --args "entity_name=...,fields=...")\n')
    assert list(tmp_path.iterdir()) == []



def test_main_with_parameters_explains_that_run_passes_none(cli, tmp_path):
    prog = tmp_path / "args.ax"
    prog.write_text("fn main(n: Int) -> Int {\n    n * 2\n}\n")
    result = cli("run", prog)
    assert result.code == 1
    assert result.err.splitlines() == [
        "error: runtime error: type error: expected numeric, got Unit",
        f" --> {prog}:2:5",
        "  |",
        "2 |     n * 2",
        "  |     ^",
        f"  = note: in main at {prog}:2:5",
        "  after 3 steps",
        "  = help: `main` takes 1 parameter but a run passes none (they are Unit); write the "
        "inputs into the program as literals",
    ]


def test_template_list_marks_optional_arguments(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = cli("template", "list").out.splitlines()
    feed = lines.index("  realtime-feed v1.0.0 - Polled event feed with a timer and a per-window "
                       "rate limit")
    assert lines[feed + 1] == "    args: feed_name, poll_interval_ms (optional, default 1000)"
    result = cli("template", "apply", "realtime-feed")
    assert result.err == ('error: missing required argument: feed_name (realtime-feed takes '
                          'feed_name, poll_interval_ms (optional, default 1000): '
                          '--args "feed_name=...")\n')


def test_template_list_json_is_unchanged_by_optional_arguments(cli, tmp_path, monkeypatch):
    import json

    monkeypatch.chdir(tmp_path)
    listed = json.loads(cli("template", "list", "--json").out)["templates"]
    feed = [t for t in listed if t["name"] == "realtime-feed"][0]
    assert sorted(feed) == ["args", "capabilities", "dependencies", "description", "name",
                            "origin", "version"]
    assert feed["args"] == ["feed_name", "poll_interval_ms"]


def test_method_call_on_a_string_explains_fields(cli, tmp_path):
    prog = tmp_path / "len.ax"
    prog.write_text('fn main() -> Int {\n    let s = "abc"\n    s.len()\n}\n')
    result = cli("run", prog)
    assert result.code == 1
    assert result.err.splitlines() == [
        "error: runtime error: type error: expected Record, got String",
        f" --> {prog}:3:5",
        "  |",
        "3 |     s.len()",
        "  |     ^",
        f"  = note: in main at {prog}:3:5",
        "  after 4 steps",
        "  = help: `.name` reads a record field; other values have no fields or methods (call "
        "functions instead, e.g. list_len(xs), __builtin_string_len(s))",
    ]
