"""`boruna fmt FILE... [--check] [--diff] [--width N] [--json]`."""
import json

UGLY = "fn main() -> Int { let x = 1 // one\n x }\n"
PRETTY = "fn main() -> Int {\n    let x = 1 // one\n    x\n}\n"
BAD = "fn main( {\n"


def test_files_are_rewritten_in_place(cli, tmp_path):
    ugly, pretty = tmp_path / "ugly.ax", tmp_path / "pretty.ax"
    ugly.write_text(UGLY)
    pretty.write_text(PRETTY)
    result = cli("fmt", ugly, pretty)
    assert result.code == 0
    assert result.out == f"reformatted {ugly}\n"
    assert result.err == "1 file reformatted, 1 file left unchanged\n"
    assert ugly.read_text() == PRETTY and pretty.read_text() == PRETTY


def test_check_writes_nothing_and_exits_1_when_a_file_would_change(cli, tmp_path):
    ugly, pretty = tmp_path / "ugly.ax", tmp_path / "pretty.ax"
    ugly.write_text(UGLY)
    pretty.write_text(PRETTY)
    result = cli("fmt", "--check", ugly, pretty)
    assert (result.code, result.out) == (1, f"would reformat {ugly}\n")
    assert result.err == "1 file would be reformatted, 1 file already formatted\n"
    assert ugly.read_text() == UGLY
    assert cli("fmt", "--check", pretty).code == 0


def test_diff_prints_a_unified_diff(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ugly.ax").write_text(UGLY)
    result = cli("fmt", "--diff", "ugly.ax")
    assert result.code == 1
    assert result.out == (
        "--- a/ugly.ax\n+++ b/ugly.ax\n@@ -1,2 +1,4 @@\n-fn main() -> Int { let x = 1 // one\n"
        "- x }\n+fn main() -> Int {\n+    let x = 1 // one\n+    x\n+}\n")
    assert (tmp_path / "ugly.ax").read_text() == UGLY


def test_a_parse_error_exits_2_with_the_usual_diagnostic(cli, tmp_path):
    bad, ugly = tmp_path / "bad.ax", tmp_path / "ugly.ax"
    bad.write_text(BAD)
    ugly.write_text(UGLY)
    result = cli("fmt", "--check", bad, ugly)
    assert result.code == 2
    assert f"error[E002]: expected identifier, found LBrace\n --> {bad}:1:10" in result.err
    assert "1 | fn main( {" in result.err
    assert result.out == f"would reformat {ugly}\n"
    missing = cli("fmt", tmp_path / "missing.ax")
    assert missing.code == 2
    assert "cannot read" in missing.err and "no such file or directory" in missing.err


def test_standard_input_goes_to_standard_output(run_boruna):
    done = run_boruna("fmt", "-", input_bytes=UGLY.encode())
    assert (done.returncode, done.stdout.decode(), done.stderr) == (0, PRETTY, b"")
    check = run_boruna("fmt", "--check", "-", input_bytes=UGLY.encode())
    assert (check.returncode, check.stdout.decode()) == (1, "would reformat <stdin>\n")


def test_json_is_the_boruna_format_response(cli, tmp_path):
    ugly, bad = tmp_path / "ugly.ax", tmp_path / "bad.ax"
    ugly.write_text(UGLY)
    bad.write_text(BAD)
    one = cli("fmt", "--check", "--json", ugly)
    assert one.code == 1
    assert json.loads(one.out) == {"success": True, "protocol_version": 1,
                                   "formatted": PRETTY, "changed": True}
    both = cli("fmt", "--check", "--json", ugly, bad)
    assert both.code == 2
    response = json.loads(both.out)
    assert response["success"] is False and [f["file"] for f in response["files"]] == [
        str(ugly), str(bad)]
    assert response["files"][1]["errors"][0]["code"] == "E002"
    assert ugly.read_text() == UGLY


def test_width_is_a_usage_error_outside_20_to_1000(cli, tmp_path):
    source = tmp_path / "a.ax"
    source.write_text("fn main() { f(alphabet, betatron) }")
    assert cli("fmt", "--width", "5", source).code == 2
    assert cli("fmt", "--width", "20", source).code == 0
    assert source.read_text() == "fn main() {\n    f(\n        alphabet,\n        betatron\n    )\n}\n"
