"""The compile work of issue 25 changes no output: every program of the repository and a
sample of random programs (tests/vm/vm_random_programs.py) compile to the same module, or
the same error, as before.

"Before" is the code the changes replaced, kept here: the field-position rule and the arm
tables of nested matches as they were computed, patched into the generator for the
reference run, and the compile through `call_deep` (a pool thread) instead of the caller's
thread. `BORUNA_EQUIVALENCE_SEEDS=N` widens the random sample (the default suite runs 15
seeds of each family).
"""
import dataclasses
import os
from pathlib import Path

import pytest

from boruna.bytecode import codegen
from boruna.bytecode.module import MatchArm
from boruna.compiler import compile_source
from boruna.core.deep_stack import call_deep
from boruna.language.errors import CompileError
from tests.vm import vm_random_programs as random_programs

ROOT = Path(__file__).resolve().parents[1]
SEEDS = int(os.environ.get("BORUNA_EQUIVALENCE_SEEDS", "15"))


def _old_field_access(self, e):
    name = e.field
    if name.isdigit() and name.isascii() and int(name) <= 255:
        self.emit("GetField", int(name))
        return
    positions = self.info.field_positions.get(name)
    if not positions:
        self.emit("GetField", 0)
    elif all(p == positions[0] for p in positions):
        self.emit("GetField", positions[0])
    else:
        self.emit("GetFieldNamed", name)


def _old_match_nested(self, e, arm_ctx):
    scrut = self.alloc()
    self.emit("StoreLocal", scrut)
    self.emit("LoadLocal", scrut)
    n = len(e.arms)
    first = len(self.tables)
    for _ in range(n + 1):
        self.tables.append([])
    self.emit("Match", first)
    end_jumps, starts = [], []
    for i, arm in enumerate(e.arms):
        starts.append(len(self.code))
        saved = dict(self.names)
        fixups = []
        pat = arm.pattern
        if codegen._is_nested(pat):
            self.inner_pattern(pat.inner, fixups)
        else:
            self.bind_or_pop(pat)
        self.arm_body(arm.body, arm_ctx)
        self.names = saved
        if i != n - 1:
            end_jumps.append(self.jump("Jmp"))
        if fixups:
            self.stubs.append((fixups, [("Pop",), ("LoadLocal", scrut),
                                        ("Match", first + i + 1)], e))
    for k in range(n + 1):
        table = self.tables[first + k]
        for i in range(k, n):
            for tag in self.pattern_tags(e.arms[i].pattern):
                table.append(MatchArm(tag, starts[i]))
    end = len(self.code)
    for j in end_jumps:
        self.patch(j, end)


def _outcome(compile_fn, source):
    try:
        return repr(dataclasses.asdict(compile_fn(source)))
    except CompileError as err:
        return ("error", err.code, err.message, err.line, err.col)


def _before(source):
    return call_deep(compile_source.__globals__["_compile_source"], source, "module", None)


def _corpus():
    files = sorted(p for p in ROOT.rglob("*.ax") if ".venv" not in p.parts)
    programs = [(str(p.relative_to(ROOT)), p.read_text()) for p in files]
    for family in ("mixed_program", "strings_program", "app_program", "typed_program",
                   "host_program"):
        make = getattr(random_programs, family)
        programs += [(f"{family}({seed})", make(seed)) for seed in range(SEEDS)]
    programs += [
        ("spread and shared fields", "type A { x: Int, y: Int }\ntype B { y: Int, x: Int }\n"
         "fn main() -> Int { let a = A { x: 1, y: 2 }\n let b = B { ..b0(), x: 3 }\n"
         " a.x + b.x + a.y }\nfn b0() -> B { B { y: 1, x: 2 } }"),
        ("nested matches", "enum E { P(Option<Int>), Q }\nfn main() -> Int { "
         "match E::P(Some(3)) { P(Some(4)) => 1, P(Some(v)) => v, P(None) => 0, Q => 9 } }"),
        ("tiny", "fn main() -> Int { 1 + 2 }"),
        ("tiny error", "fn main() -> Int { x }"),
    ]
    return programs


def test_corpus_is_broad():
    corpus = _corpus()
    assert len(corpus) >= 5 * SEEDS + 10
    assert sum(len(source) <= 1024 for _, source in corpus) >= 5  # the caller's-thread path


def test_every_program_compiles_as_before(monkeypatch):
    corpus = _corpus()
    now = [_outcome(compile_source, source) for _, source in corpus]
    monkeypatch.setattr(codegen._FnGen, "field_access", _old_field_access)
    monkeypatch.setattr(codegen._FnGen, "match_nested", _old_match_nested)
    for (label, source), new in zip(corpus, now):
        assert _outcome(_before, source) == new, label
