"""Capabilities as effects (`diagnostics/types/effects.py`, issue 12)."""
from __future__ import annotations

import pytest

from boruna.diagnostics import check_source, collector
from boruna.diagnostics.repair import repair_source

CHAIN = ('fn read() -> String {\n    step_input("a")\n}\nfn mid() -> String !{net} {\n'
         '    read()\n}\nfn quiet() -> Int !{step.input} { 1 }\nfn main() -> String {\n'
         '    mid()\n}\n')


@pytest.fixture(autouse=True)
def strict_analyzers(monkeypatch):
    monkeypatch.setattr(collector, "STRICT", True)


def effects(src):
    return [(d.severity, d.location.line, d.location.col, d.location.end_col, d.body,
             [(e.start_line, e.new_text) for f in d.fixes for e in f.edits])
            for d in check_source(src).diagnostics if d.id == "E007"]


def test_capabilities_are_inferred_through_calls():
    assert effects(CHAIN) == [
        # no `!{...}` written: the compiler adds step.input itself, so the program runs
        ("warning", 2, 5, 15, "capability violation: `read` uses `step.input` but does not "
                              "declare it", [(1, "fn read() -> String !{step.input} {")]),
        # `main` is reported for `mid`'s declared `net`, which `mid` never uses (issue 21)
        ("warning", 4, 20, None, "`mid` declares `net` but never uses it",
         [(4, "fn mid() -> String {")]),
        # a written `!{net}` that leaves out what a callee uses: an error at the call
        ("error", 5, 5, 9, "capability violation: `mid` uses `step.input` through `read` but "
                           "does not declare it", [(4, "fn mid() -> String !{net, step.input} {")]),
        ("warning", 7, 19, None, "`quiet` declares `step.input` but never uses it",
         [(7, "fn quiet() -> Int { 1 }")]),
        # a declaration is a contract: the caller of `mid` must declare `net` too
        ("error", 9, 5, 8, "capability violation: `main` calls `mid`, which declares `net`, "
                           "but `main` does not declare it",
         [(8, "fn main() -> String !{net.fetch} {")]),
        ("warning", 9, 5, 8, "capability violation: `main` uses `step.input` through `mid` but "
                             "does not declare it", [(8, "fn main() -> String !{step.input} {")]),
    ]


def test_declared_capabilities_are_quiet():
    src = ('fn read() -> String !{step.input} {\n    step_input("a")\n}\n'
           'fn main() -> String !{step_input} {\n    read()\n}\n')
    assert effects(src) == []


def test_capabilities_no_builtin_provides_are_not_judged():
    assert effects("fn main() -> Int !{net, fs.read} { 0 }\n") == []


def test_repair_declares_the_missing_capability():
    src = 'fn read() -> String !{net} {\n    step_input("a")\n}\nfn main() -> Int { 0 }\n'
    result = repair_source(src)
    assert result.repaired_source.split("\n")[0] == "fn read() -> String !{net, step.input} {"
