"""`boruna check` and `boruna repair` (and their `lang` aliases)."""
import json

from boruna.service import check_tool, render, repair_tool

CLEAN = "fn main() -> Int {\n    42\n}\n"
TYPO = "fn main() -> Int {\n    let count = 10\n    countt\n}\n"
FIXED = "fn main() -> Int {\n    let count = 10\n    count\n}\n"
NO_CANDIDATE = "fn main() -> Int {\n    zzzzqqq\n}\n"


def _file(tmp_path, text, name="prog.ax"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_check_clean(cli, tmp_path):
    path = _file(tmp_path, CLEAN)
    result = cli("check", path)
    assert (result.code, result.out, result.err) == (0, f"{path}: no diagnostics\n", "")


def test_check_reports_location_excerpt_and_fix(cli, tmp_path):
    path = _file(tmp_path, TYPO)
    result = cli("check", path)
    assert result.code == 1
    lines = result.out.splitlines()
    assert lines[0] == "error[E003]: undefined variable: countt"
    assert lines[1] == f" --> {path}:3:5"
    assert lines[3] == "3 |     countt"
    assert lines[4] == "  |     ^^^^^^"
    assert "  = help: did you mean: 'count'?" in lines
    assert ("  = help: fix (E003-rename-countt, confidence: Medium): rename 'countt' to 'count'"
            in lines)
    assert lines[-1] == f"{path}: 1 error; 1 fix available (run: boruna repair {path})"


def test_check_json_is_the_tool_response(cli, tmp_path):
    for text in (CLEAN, TYPO, NO_CANDIDATE, "fn main() { @ }"):
        path = _file(tmp_path, text)
        result = cli("check", path, "--json")
        expected = check_tool(text, file_name=str(path))
        assert result.out == render(expected) + "\n"
        has_error = any(d["severity"] == "error" for d in expected["diagnostics"])
        assert result.code == (1 if has_error else 0)
        assert json.loads(result.out)["file"] == str(path)


def test_lang_check_alias(cli, tmp_path):
    path = _file(tmp_path, TYPO)
    assert cli("lang", "check", path).out == cli("check", path).out


def test_repair_rewrites_the_file(cli, tmp_path):
    path = _file(tmp_path, TYPO)
    result = cli("repair", path)
    assert result.code == 0
    assert result.out == ("applied 1 fix:\n"
                          "  [E003] E003-rename-countt: rename 'countt' to 'count'\n"
                          f"rewrote {path}\ndiagnostics: 1 -> 0\nverify: PASS\n")
    assert path.read_text() == FIXED


def test_repair_dry_run_shows_a_diff_and_keeps_the_file(cli, tmp_path):
    path = _file(tmp_path, TYPO)
    result = cli("repair", path, "--dry-run")
    assert result.code == 0
    assert path.read_text() == TYPO
    assert "-    countt\n+    count\n" in result.out
    assert result.out.startswith("would apply 1 fix:\n")


def test_repair_unknown_patch_id(cli, tmp_path):
    path = _file(tmp_path, TYPO)
    result = cli("repair", path, "--apply", "E999-nope")
    assert result.code == 1
    assert result.out == ("no fixes applied\n  skipped all: no applicable patches found\n"
                          "diagnostics: 1 -> 1\n"
                          f"verify: FAIL (errors remain; run: boruna check {path})\n")
    assert path.read_text() == TYPO


def test_repair_clean_file_passes(cli, tmp_path):
    path = _file(tmp_path, CLEAN)
    result = cli("repair", path)
    assert result.code == 0
    assert result.out == "no fixes applied\ndiagnostics: 0 -> 0\nverify: PASS\n"


def test_repair_json_is_the_tool_response(cli, tmp_path):
    for text, apply, strategy, patch_id in ((TYPO, "best", "best", None),
                                            (TYPO, "all", "all", None),
                                            (TYPO, "E003-rename-countt", "best", "E003-rename-countt"),
                                            (NO_CANDIDATE, "best", "best", None)):
        path = _file(tmp_path, text)
        result = cli("repair", path, "--apply", apply, "--json")
        expected = repair_tool(text, strategy=strategy, patch_id=patch_id, file_name=str(path))
        assert result.out == render(expected) + "\n"
        assert result.code == (0 if expected["verify_passed"] else 1)
        assert path.read_text() == expected["repaired_source"]


def test_repair_json_dry_run_keeps_the_file(cli, tmp_path):
    path = _file(tmp_path, TYPO)
    result = cli("repair", path, "--json", "--dry-run")
    assert json.loads(result.out)["repaired_source"] == FIXED
    assert path.read_text() == TYPO


def test_repair_diff_headers_for_relative_paths(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _file(tmp_path, TYPO, "rel.ax")
    result = cli("repair", "rel.ax", "--dry-run")
    assert "--- a/rel.ax\n+++ b/rel.ax\n@@ -1,4 +1,4 @@\n" in result.out


def test_check_lexer_error_is_drawn_once(cli, tmp_path):
    path = _file(tmp_path, "fn main() -> Int {\n    let x = 1 @ 2\n    x\n}\n")
    result = cli("check", path)
    assert result.code == 1
    assert result.out == (f'error[E001]: unexpected character: "@"\n --> {path}:2:15\n  |\n'
                          "2 |     let x = 1 @ 2\n  |               ^\n\n"
                          f"{path}: 1 error\n")


def test_check_output_then_repair_from_it(cli, tmp_path):
    from boruna.diagnostics import check_source

    path = _file(tmp_path, TYPO)
    saved = tmp_path / "diag.json"
    assert cli("check", path, "-o", saved).code == 1
    doc = json.loads(saved.read_text())
    assert doc == check_source(TYPO, file=str(path)).to_full_dict()
    assert doc["diagnostics"][0]["suggested_patches"][0]["edits"] == [
        {"file": str(path), "start_line": 3, "old_text": "    countt", "new_text": "    count"}]
    result = cli("repair", path, "--from", saved)
    assert result.code == 0
    assert path.read_text() == FIXED


def test_check_json_with_output_writes_both(cli, tmp_path):
    path = _file(tmp_path, TYPO)
    saved = tmp_path / "diag.json"
    result = cli("check", path, "--json", "-o", saved)
    assert result.out == render(check_tool(TYPO, file_name=str(path))) + "\n"
    assert json.loads(saved.read_text())["version"] == 1


def test_repair_from_bad_json(cli, tmp_path):
    path = _file(tmp_path, TYPO)
    saved = tmp_path / "diag.json"
    saved.write_text("{")
    result = cli("repair", path, "--from", saved)
    assert result.code == 1
    assert result.err.startswith(f"error: invalid diagnostics JSON '{saved}': ")
    assert path.read_text() == TYPO
    assert cli("repair", path, "--from", saved, "--json").code == 2


def test_check_shows_related_notes(cli, tmp_path):
    path = _file(tmp_path, "type Point { x: Int, y: Int }\nfn main() -> Int {\n"
                           "    let p = Point { x: 1, z: 2 }\n    p.x\n}\n")
    result = cli("check", path)
    assert result.code == 1
    assert result.out.splitlines()[:7] == [
        "error[E006]: unknown field 'z' in record type 'Point'",
        f" --> {path}:3:27",
        "  |",
        "3 |     let p = Point { x: 1, z: 2 }",
        "  |                           ^",
        "  = note: type 'Point' has fields: x, y (line 1)",
        "  = help: fix (E006-rename-z, confidence: High): rename field 'z' to 'y'",
    ]


IMPORTING = 'import "std-json"\nfn main() -> String {\n    json_escape("a")\n}\n'


def test_check_resolves_imports_against_the_libs_dir(cli, tmp_path):
    libs = tmp_path / "libs"
    (libs / "std-json" / "src").mkdir(parents=True)
    (libs / "std-json" / "src" / "core.ax").write_text(
        'fn json_escape(s: String) -> String { s }\nfn main() -> Int { 0 }\n', encoding="utf-8")
    path = _file(tmp_path, IMPORTING)
    result = cli("check", "--libs-dir", libs, path)
    assert (result.code, result.out) == (0, f"{path}: no diagnostics\n")
    response = json.loads(cli("check", "--json", "--libs-dir", libs, path).out)
    assert (response["success"], response["diagnostics_count"]) == (True, 0)
    missing = cli("check", "--libs-dir", tmp_path / "nowhere", path)
    assert missing.code == 1
    assert "does not exist or is not a directory" in missing.err


def test_repair_resolves_imports_too(cli, tmp_path):
    libs = tmp_path / "libs"
    (libs / "std-json" / "src").mkdir(parents=True)
    (libs / "std-json" / "src" / "core.ax").write_text(
        'fn json_escape(s: String) -> String { s }\n', encoding="utf-8")
    source = ('import "std-json"\nfn main() -> String {\n    let text = "a"\n'
              '    json_escape(textt)\n}\n')
    path = _file(tmp_path, source)
    response = json.loads(cli("repair", "--json", "--dry-run", "--libs-dir", libs, path).out)
    assert (response["diagnostics_before"], response["diagnostics_after"]) == (1, 0)
    assert response["verify_passed"] is True
    assert response["repaired_source"] == source.replace("textt", "text")


def test_check_draws_a_type_error_with_both_labels(cli, tmp_path):
    path = _file(tmp_path, 'fn area(w: Int, h: Int) -> Int { w * h }\nfn main() -> Int {\n'
                           '    area(2, "3")\n}\n')
    result = cli("check", path)
    assert result.code == 1
    assert result.out.splitlines()[:8] == [
        "error[E009]: type mismatch: the 2nd argument of `area` should be `Int`, but it is "
        "`String`",
        f" --> {path}:3:13",
        "  |",
        "1 | fn area(w: Int, h: Int) -> Int { w * h }",
        "  |                    --- `area` declares `h: Int` here",
        "...",
        '3 |     area(2, "3")',
        "  |             ^^^",
    ]


def test_check_draws_a_label_on_the_same_line_under_it(cli, tmp_path):
    path = _file(tmp_path, "fn main() -> Float {\n    let half: Float = 7 / 2\n    half\n}\n")
    result = cli("check", path)
    assert result.out.splitlines()[1:6] == [
        f" --> {path}:2:23",
        "  |",
        "2 |     let half: Float = 7 / 2",
        "  |                       ^^^^^",
        "  |               ----- `half` is declared `Float` here",
    ]
