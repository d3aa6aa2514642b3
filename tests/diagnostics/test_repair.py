"""`boruna.diagnostics.repair.select_patches`: applicability gates what each strategy takes."""
from boruna.diagnostics.fix import Applicability, Fix
from boruna.diagnostics.model import Diagnostic, DiagnosticSet
from boruna.diagnostics.repair import select_patches


def found():
    fixes = [Fix(name, name, applicability, "r") for name, applicability in (
        ("shown", Applicability.DISPLAY_ONLY), ("guess1", Applicability.UNSAFE),
        ("guess2", Applicability.UNSAFE))]
    advice = [Fix("advice", "advice", Applicability.DISPLAY_ONLY, "r")]
    return DiagnosticSet("<source>", [Diagnostic("E003", "error", "m", None, fixes),
                                      Diagnostic("E009", "error", "m", None, advice)])


def chosen(mode, target=None):
    return [(code, fix.id) for code, fix in select_patches(found(), mode, target)]


def test_best_takes_the_most_applicable_fix_even_display_only():
    assert chosen("best") == [("E003", "guess2"), ("E009", "advice")]
    assert chosen("all") == [("E003", "guess1"), ("E009", "advice")]


def test_conservative_takes_only_safe_fixes():
    assert chosen("conservative") == []


def test_by_id_takes_the_named_fix_whatever_its_applicability():
    assert chosen("by_id", "shown") == [("E003", "shown")]
