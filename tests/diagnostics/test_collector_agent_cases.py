"""check/repair on broken programs an agent would write: misspelt enums, variants, record
types and field reads, and programs only the code generator rejects. Each finding points at
the offending name; each repair leaves a program that compiles and runs to the intended value.
"""
import boruna
from boruna.diagnostics import check_source
from boruna.diagnostics.repair import repair_source


def only(source):
    return [(d.id, d.severity, d.message,
             (d.location.line, d.location.col, d.location.end_line, d.location.end_col)
             if d.location else None,
             [(p.id, p.confidence.value) for p in d.patches])
            for d in check_source(source).diagnostics]


def repaired_value(source):
    result = repair_source(source)
    assert result.verify_passed is True and result.diagnostics_after == 0
    outcome = boruna.run(result.repaired_source)
    assert outcome.ok, outcome.error
    return result, outcome.result


VARIANT_TYPO = """enum Color { Red, Green, Blue }
fn code(c: Color) -> Int {
    match c {
        Red => 1
        Gren => 2
        Blue => 3
    }
}
fn main() -> Int { code(Color::Gren) }
"""


def test_misspelt_variant_in_pattern_and_constructor():
    assert only(VARIANT_TYPO) == [
        ("E005", "error", "non-exhaustive match on 'c' of type 'Color': missing variants: Green",
         (3, 5, 7, 6), []),      # no stub arms: the rename below completes the match
        ("E009", "error", "unknown variant 'Gren' in pattern: no enum declares it, so the arm "
                          "would test an unrelated case", (5, 9, 5, 13),
         [("E009-rename-Gren", "Medium")]),
        ("E008", "error", "enum 'Color' has no variant 'Gren' (it has: Red, Green, Blue)",
         (9, 32, 9, 36), [("E008-rename-Gren", "Medium")]),
    ]
    result, value = repaired_value(VARIANT_TYPO)
    assert [a["patch_id"] for a in result.applied] == ["E009-rename-Gren", "E008-rename-Gren"]
    assert "        Green => 2\n" in result.repaired_source
    assert value == 2


def test_misspelt_enum_and_record_used_as_enum():
    source = ("enum Color { Red, Green }\ntype Point { x: Int }\nfn main() -> Int {\n"
              "    let c = Colour::Red\n    let p = Point::Origin\n    1\n}\n")
    assert only(source) == [
        ("E008", "error", "unknown enum: Colour", (4, 13, 4, 19), [("E008-rename-Colour", "Medium")]),
        ("E008", "error", "'Point' is not an enum (it is a record type); build it with "
                          "`Point { ... }`", (5, 13, 5, 18), []),
    ]


def test_misspelt_record_type_in_a_literal():
    source = ("type Point { x: Int, y: Int }\nfn main() -> Int {\n"
              "    let p = Pointt { x: 1, y: 2 }\n    p.y\n}\n")
    assert only(source) == [
        ("E009", "error", "unknown record type 'Pointt': no `type Pointt { ... }` is declared "
                          "(the literal would build an untyped record)", (3, 13, 3, 19),
         [("E009-rename-Pointt", "Medium")]),
    ]
    result, value = repaired_value(source)
    assert "    let p = Point { x: 1, y: 2 }\n" in result.repaired_source
    assert value == 2


FIELD_READS = """type Point { x: Int, y: Int }
type Line { start: Point, end: Point }
fn len2(l: Line) -> Int {
    let dx = l.end.x - l.strat.x
    let dy = l.end.y
        - l.start
            .yy
    dx * dx + dy * dy
}
fn main() -> Int {
    let p = Point { x: 1, y: 2 }
    len2(Line { start: p, end: Point { x: 4, y: 6 } }) + p.z
}
"""


def test_unknown_field_reads_are_located_at_the_field():
    diags = check_source(FIELD_READS).diagnostics
    assert [(d.id, d.message, (d.location.line, d.location.col, d.location.end_col),
             [(p.id, p.confidence.value, [(e.start_line, e.new_text) for e in p.edits])
              for p in d.patches]) for d in diags] == [
        ("E006", "unknown field 'strat' in record type 'Line' (it has: start, end)", (4, 26, 31),
         [("E006-rename-strat", "High", [(4, "    let dx = l.end.x - l.start.x")])]),
        ("E006", "unknown field 'yy' in record type 'Point' (it has: x, y)", (7, 14, 16),
         [("E006-rename-yy", "High", [(7, "            .y")])]),
        # `z` is no typo of `x` or `y`: reported, no guess offered
        ("E006", "unknown field 'z' in record type 'Point' (it has: x, y)", (12, 60, 61), []),
    ]
    assert diags[0].related[0].message == "type 'Line' has fields: start, end"
    fixed = FIELD_READS.replace("p.z", "p.x")
    result, value = repaired_value(fixed)
    assert value == 9 + 16 + 1


def test_field_reads_of_unknown_owner_types_are_not_reported():
    source = ("type P { a: Int }\nfn f(xs: List<P>, o: Option<P>) -> Int {\n"
              "    let first = list_get(xs, 0)\n    first.nope\n}\n"
              "fn main() -> Int { 0 }\n")
    # issue 12: the type checker knows `list_get(xs, 0)` is a `P`, so the read is reported
    assert only(source) == [
        ("E006", "error", "unknown field 'nope' in record type 'P' (it has: a)", (4, 11, 4, 15),
         [])]
    unknown = source.replace("list_get(xs, 0)", "receive")
    assert only(unknown) == []


def test_programs_only_the_code_generator_rejects_are_e008():
    big = "[" + ", ".join(str(i) for i in range(300)) + "]"
    source = f"fn main() -> Int {{\n    let v = {big}\n    list_len(v)\n}}\n"
    assert only(source) == [("E008", "error", "list literal has 300 elements; max 255 — split "
                                              "it into smaller pieces (at most 255 each)",
                             (2, 13, None, None), [])]
    assert repair_source(source).verify_passed is False
    source = "fn main() -> Int {\n    let f = list_len\n    1\n}\n"
    assert only(source) == [("E008", "error", "undefined: list_len — only a local variable or "
                                              "a user function can be used as a value here; "
                                              "call a builtin directly, e.g. `list_len(xs)`",
                             (2, 13, None, None), [])]
    source = "fn helper() -> Int { 1 }\nfn main() -> Int {\n    helper = 2\n    1\n}\n"
    assert only(source) == [("E008", "error", "undefined variable: helper — only a variable "
                                              "declared with `let` can be assigned; use "
                                              "`let NAME = ...` for a new one",
                             (3, 5, None, None), [])]


def test_clean_programs_stay_clean():
    source = ("enum Shape { Circle(Int), Dot }\ntype Box { s: Shape, n: Int }\n"
              "fn area(s: Shape) -> Int {\n    match s {\n        Circle(r) => r * r\n"
              "        Dot => 0\n    }\n}\n"
              "fn main() -> Int {\n    let b = Box { s: Shape::Circle(3), n: 1 }\n"
              "    match Some(b.n) { Some(k) => area(b.s) + k, None => 0 }\n}\n")
    assert only(source) == []
    assert boruna.run(source).result == 10


def test_library_types_are_known_with_a_libs_dir(tmp_path):
    lib = tmp_path / "std-geo" / "src"
    lib.mkdir(parents=True)
    (lib / "core.ax").write_text("type Pt { x: Int, y: Int }\nenum Dir { N, S }\n"
                                 "fn main() -> Int { 0 }\n")
    source = ('import "std-geo"\nfn main() -> Int {\n    let p = Pt { x: 1, y: 2 }\n'
              "    let d = Dir::S\n    p.y + p.w\n}\n")
    diags = check_source(source, libs_dir=str(tmp_path)).diagnostics
    assert [(d.id, d.message, d.location.line) for d in diags] == [
        ("E006", "unknown field 'w' in record type 'Pt' (it has: x, y)", 5)]
    fixed = source.replace("p.w", "p.x")
    assert check_source(fixed, libs_dir=str(tmp_path)).diagnostics == []


SEVERAL_NAMES = """fn add(a: Int, b: Int) -> Int {
    a + b
}

fn main() -> Int {
    let totl = add(1, 2)
    let x = ad(3, 4) + ad(5, 6)
    let y = add(7)
    total + x + y + total
}
"""


def test_every_undefined_name_and_arity_error_is_reported_once_per_line():
    assert only(SEVERAL_NAMES) == [
        ("E003", "error", "undefined variable: ad\n  did you mean: 'add'?", (7, 13, 7, 15),
         [("E003-rename-ad", "Medium")]),
        ("E009", "error", "function 'add' expects 2 arguments, got 1", (8, 13, None, None), []),
        ("E003", "error", "undefined variable: total\n  did you mean: 'totl'?", (9, 5, 9, 10),
         [("E003-rename-total", "Medium")]),
    ]
    result = repair_source(SEVERAL_NAMES)
    assert [a["patch_id"] for a in result.applied] == ["E003-rename-ad", "E003-rename-total"]
    assert "    let x = add(3, 4) + add(5, 6)\n" in result.repaired_source
    assert "    totl + x + y + totl\n" in result.repaired_source
    assert (result.diagnostics_before, result.diagnostics_after) == (3, 1)
    fixed = result.repaired_source.replace("add(7)", "add(7, 0)")
    assert check_source(fixed).diagnostics == []
    assert boruna.run(fixed).result == 3 + 18 + 7 + 3


def test_name_errors_are_capped():
    body = "\n".join(f"    let v{i} = nope{i}" for i in range(150))
    diags = check_source(f"fn main() -> Int {{\n{body}\n    0\n}}\n").diagnostics
    assert len(diags) == 100
    assert diags[-1].message == "undefined variable: nope99"


LIBS = str(__import__("pathlib").Path(__file__).resolve().parents[2] / "libs")

LIB_APP = '''import "std-ui"
import "std-validation"

type State { email: String, status: String, attempts: Int }
type Msg { tag: String, payload: String }
type UpdateResult { state: State, effects: List<String> }

fn init() -> State { State { email: "", status: "idle", attempts: 0 } }

fn update(state: State, msg: Msg) -> UpdateResult {
    let v = validate_contains("email", msg.payload, "@")
    if v.valid {
        UpdateResult { state: State { ..state, email: msg.payload, attempts: state.attempts + 1 }, effects: [] }
    } else {
        UpdateResult { state: State { ..state, status: v.error_message }, effects: [] }
    }
}

fn view(state: State) -> UINode {
    card(state.status, button("Send", "submit"))
}
'''


def test_library_functions_are_rename_candidates_and_their_results_typed():
    bad = (LIB_APP.replace("v.valid {", "v.vaild {")
           .replace("card(state.status", "crad(state.status"))
    diags = check_source(bad, libs_dir=LIBS).diagnostics
    assert [(d.id, d.location.line, [p.id for p in d.patches]) for d in diags] == [
        ("E003", 20, ["E003-rename-crad"]),
        ("E006", 12, ["E006-rename-vaild"]),
    ]
    assert diags[1].message == ("unknown field 'vaild' in record type 'ValidationResult' "
                                "(it has: valid, error_field, error_message)")
    result = repair_source(bad, libs_dir=LIBS)
    assert result.verify_passed is True and result.repaired_source == LIB_APP
    from boruna.framework import run_app_test
    run = run_app_test(LIB_APP, ["email:bob", "email:bob@x.io"], libs_dir=LIBS)
    assert [c["state"] for c in run.cycles] == [["", "must contain expected substring", 0],
                                                ["bob@x.io", "must contain expected substring", 1]]
    assert run.cycles[1]["ui_tree"] == ["card", "must contain expected substring"]


def test_one_rename_fixes_every_use_of_a_misspelt_type_name_on_its_line():
    cases = [
        ("enum Color { Red, Blue }\nfn main() -> Bool {\n    Colour::Red == Colour::Blue\n}\n",
         "    Color::Red == Color::Blue", False),
        ("type Pt { x: Int }\nfn main() -> Int {\n    let l = [Ptt { x: 1 }, Ptt { x: 2 }]\n"
         "    list_len(l)\n}\n", "    let l = [Pt { x: 1 }, Pt { x: 2 }]", 2),
        ("enum Color { Red, Green }\nfn f(c: Color, d: Color) -> Int {\n"
         "    match c { Gren => match d { Gren => 1, _ => 3 }, _ => 2 }\n}\n"
         "fn main() -> Int { f(Color::Green, Color::Green) }\n",
         "    match c { Green => match d { Green => 1, _ => 3 }, _ => 2 }", 1),
    ]
    for source, fixed_line, value in cases:
        assert len(check_source(source).diagnostics) == 1
        result, got = repaired_value(source)
        assert result.repaired_source.split("\n")[2] == fixed_line
        assert got == value


def test_field_read_renames_cover_the_line_and_insertions():
    source = ("type P { x: Int, yy: Int }\ntype Q { xx: Int }\nfn main() -> Int {\n"
              "    let p = P { x: 1, yy: 2 }\n    let q = Q { xx: 5 }\n"
              "    p.xx + p.xx * q.xx + p.y\n}\n")
    diags = check_source(source).diagnostics
    assert [(d.message, d.location.col, [(p.id, p.edits[0].new_text) for p in d.patches])
            for d in diags] == [
        ("unknown field 'xx' in record type 'P' (it has: x, yy)", 7,
         [("E006-rename-xx", "    p.x + p.x * q.xx + p.y")]),
        ("unknown field 'y' in record type 'P' (it has: x, yy)", 28,
         [("E006-rename-y", "    p.xx + p.xx * q.xx + p.yy")]),
    ]
    first = repair_source(source)
    assert first.diagnostics_after == 1            # two patches on one line: R8's rule
    second = repair_source(first.repaired_source)
    assert second.verify_passed is True
    assert second.repaired_source.split("\n")[5] == "    p.x + p.x * q.xx + p.yy"
    assert boruna.run(second.repaired_source).result == 1 + 1 * 5 + 2


def test_other_language_builtin_names_get_a_low_confidence_builtin_patch():
    source = ('fn main() -> Int {\n    let name = trim("  bob ")\n    let xs = push([1, 2], 3)\n'
              '    let u = upper(name)\n    print(u)\n    len(xs) + len(u, 1)\n}\n')
    diags = check_source(source).diagnostics
    assert [(d.location.line, [(p.id, p.confidence.value, p.description) for p in d.patches])
            for d in diags] == [
        (2, [("E003-rename-trim", "Low", "use the builtin '__builtin_string_trim' for 'trim'")]),
        (3, [("E003-rename-push", "Low", "use the builtin 'list_push' for 'push'")]),
        (4, [("E003-rename-upper", "Low",
              "use the builtin '__builtin_string_to_upper' for 'upper'")]),
        (5, [("E003-rename-print", "Low", "use the builtin '__builtin_debug' for 'print'")]),
        (6, [("E003-rename-len", "Low", "use the builtin 'list_len' for 'len'")]),
    ]
    result = repair_source(source)
    assert result.repaired_source.split("\n")[1:6] == [
        '    let name = __builtin_string_trim("  bob ")', "    let xs = list_push([1, 2], 3)",
        "    let u = __builtin_string_to_upper(name)", "    __builtin_debug(u)",
        "    list_len(xs) + list_len(u, 1)"]
    # `len(u, 1)` has no one-argument fit: the arity error remains to be fixed by hand
    assert [d.message for d in result.after.diagnostics] == [
        "function 'list_len' expects 1 argument, got 2"]


def test_equally_close_functions_prefer_the_one_the_call_fits():
    source = ("fn sum2(a: Int, b: Int) -> Int { a + b }\nfn sum1(a: Int) -> Int { a }\n"
              "fn main() -> Int {\n    sum(4)\n}\n")
    result, value = repaired_value(source)
    assert result.repaired_source.split("\n")[3] == "    sum1(4)"
    assert value == 4


def test_e001_caret_sits_under_the_character_after_unicode_and_tabs():
    d = check_source('fn main() -> Int {\n    let s = "héllo" @ 1\n    0\n}\n').diagnostics[0]
    assert (d.location.line, d.location.col) == (2, 22)        # byte column
    assert d.message == ('unexpected character: "@"\n      let s = "héllo" @ 1\n'
                         "  " + " " * 20 + "^")
    d = check_source("fn main() -> Int {\n\tlet s = 1 @ 1\n\t0\n}\n").diagnostics[0]
    assert d.message == 'unexpected character: "@"\n  \tlet s = 1 @ 1\n  \t' + " " * 10 + "^"


FIELD_MATCH = '''enum Status { Idle, Busy(Int), Failed(String) }
type Inner { st: Status }
type State { status: Status, inner: Inner, flag: Bool }
fn label(state: State) -> String {
    let a = match state.status {
        Idle => "idle"
        Busy(n) => "busy"
    }
    let b = match state.inner.st { Idle => "i", Busy(_) => "b", Failed(e) => e }
    let c = match state.flag { true => "t" }
    a ++ b ++ c
}
fn main() -> String { label(State { status: Status::Idle, inner: Inner { st: Status::Idle }, flag: true }) }
'''


def test_matches_on_fields_of_record_parameters_are_checked_for_exhaustiveness():
    assert only(FIELD_MATCH) == [
        ("E005", "error", "non-exhaustive match on 'state.status' of type 'Status': missing "
                          "variants: Failed", (5, 13, 8, 6), [("E005-add-arms", "High")]),
        ("E005", "error", "non-exhaustive match on 'state.flag' of type 'Bool': missing "
                          "patterns: false", (10, 13, 10, 45), [("E005-add-arms", "High")]),
    ]
    result, value = repaired_value(FIELD_MATCH)
    lines = result.repaired_source.split("\n")
    assert lines[7] == '        Failed(_) => __builtin_guard(0, false, "TODO: handle Status::Failed")'
    assert lines[10] == ('    let c = match state.flag { true => "t", false => '
                         '__builtin_guard(0, false, "TODO: handle false") }')
    assert value == "idleit"


def test_record_literals_missing_fields_get_zero_value_patches():
    source = ("type Q { a: Int, s: String }\n"
              "type P { x: Int, name: String, tags: List<String>, o: Option<Int>, ok: Bool, "
              "f: Float, q: Q }\nfn main() -> Int {\n    let p = P { x: 1 }\n    p.x\n}\n")
    assert only(source) == [
        ("E006", "error", "record literal of type 'P' is missing fields name, tags, o, ok, f, q "
                          "— give every declared field (they would be Unit at run time), or "
                          "start from a value with `P { ..base, ... }`", (4, 13, 4, 14),
         [("E006-add-fields-P", "Medium")])]
    result, value = repaired_value(source)
    assert result.repaired_source.split("\n")[3] == (
        '    let p = P { x: 1, name: "", tags: [], o: None, ok: false, f: 0.0, '
        'q: Q { a: 0, s: "" } }')
    assert value == 1


def test_missing_fields_in_multi_line_literals_and_with_misspelt_labels():
    source = ("type P { x: Int, y: Int, name: String }\nfn main() -> Int {\n    let p = P {\n"
              "        x: 1,\n        y: 2\n    }\n    p.y\n}\n")
    result, value = repaired_value(source)
    assert result.repaired_source.split("\n")[3:7] == [
        "        x: 1,", "        y: 2,", '        name: ""', "    }"]
    assert value == 2
    # `yy` is renamed to `y`; only `name` is reported missing
    source = "type P { x: Int, y: Int, name: String }\nfn main() -> Int {\n" \
             "    let p = P { x: 1, yy: 2 }\n    p.y\n}\n"
    assert [d.message.split(" —")[0] for d in check_source(source).diagnostics] == [
        "unknown field 'yy' in record type 'P'",
        "record literal of type 'P' is missing field name"]
    # a spread supplies the rest; an enum-typed field has no zero value, so no patch
    assert only("type P { x: Int, y: Int }\nfn f(b: P) -> P { P { ..b, x: 1 } }\n"
                "fn main() -> Int { f(P { x: 0, y: 0 }).y }\n") == []
    diags = check_source("enum E { A }\ntype P { x: Int, e: E }\n"
                         "fn main() -> Int { P { x: 1 }.x }\n").diagnostics
    assert [(d.id, d.patches) for d in diags] == [("E006", [])]
