"""`boruna.diagnostics.model`: help and notes are fields; `message` writes them as the seed."""
from boruna.diagnostics import check_source
from boruna.diagnostics.model import Diagnostic, DiagnosticSet, Label, SourceLocation


def test_message_is_body_then_help_then_notes():
    diag = Diagnostic("E002", "error", "expected expression", help="check the braces",
                      notes=["let x = ", "        ^"])
    assert diag.message == "expected expression — check the braces\n  let x = \n          ^"
    assert Diagnostic("E009", "error", "plain").message == "plain"


def test_seed_names_read_the_new_fields():
    span = SourceLocation("a.ax", 3, 5)
    label = Label("type 'P' has fields: x", SourceLocation("a.ax", 1, 1))
    diag = Diagnostic("E006", "error", "unknown field", span, [], [label])
    assert (diag.id, diag.location, diag.related, diag.patches) == ("E006", span, [label], [])


def test_parse_help_and_lexer_caret_are_fields():
    parse = check_source("fn main() -> Int {\n    let x =\n}\n").diagnostics[0]
    assert (parse.code, parse.body, parse.help, parse.notes) == (
        "E002", "expected expression, found RBrace",
        "check for mismatched braces or a missing expression", [])
    lexed = check_source("fn main() -> Int { 1 $ 2 }\n").diagnostics[0]
    assert (lexed.code, lexed.help, lexed.notes) == (
        "E001", None, ["fn main() -> Int { 1 $ 2 }", "                     ^"])
    assert lexed.message == lexed.body + "\n  fn main() -> Int { 1 $ 2 }\n                       ^"


def test_a_set_read_back_from_json_equals_the_checked_one():
    found = check_source("fn main() -> Int {\n    let x =\n}\n", "p.ax")
    again = DiagnosticSet.from_full_dict(found.to_full_dict())
    assert again == found
    assert again.diagnostics[0].help is None
    assert again.diagnostics[0].body == found.diagnostics[0].message
