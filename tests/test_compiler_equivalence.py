"""The compile work of issue 25 changes no output: every program of the repository and a
sample of random programs (tests/vm/vm_random_programs.py) compile to the same module, or
the same error, as before.

"Before" is the code the changes replaced, kept here: the field-position rule and the arm
tables of nested matches as they were computed, patched into the generator for the
reference run, and the compile through `call_deep` (a pool thread) instead of the caller's
thread. `BORUNA_EQUIVALENCE_SEEDS=N` widens the random sample (the default suite runs 15
seeds of each family).

The second round (binary operands and expression statements read inline, nodes built
without their __init__, match tags from tables) keeps its "before" in
tests/compiler_reference.py: every program parses to the same nodes at the same positions,
or the same error with the same attributes, also after random edits (the error paths), and
compiles to the same module. In the reference run the parser's C core (`_exprs.c`: items,
blocks, statements, expressions) hands everything back, so the Python descent parses it all,
and so does codegen's (`_emit.c`): the Python emitter compiles every statement and
expression.
"""
import dataclasses
import operator
import os
import random
from pathlib import Path

import pytest

from boruna.bytecode import codegen
from boruna.bytecode.module import MatchArm
from boruna.compiler import compile_source
from boruna.core.deep_stack import call_deep
from boruna.language import parser
from boruna.language.errors import CompileError
from tests import compiler_reference as reference
from tests.parse_outcome import parse_outcome
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
    programs += [
        ("operators", "fn main() -> Int { let a = 1\n let b = -a * 2 + 3 - 4 % a\n"
         " let c = a < b && b >= a || !(a == b) && a != 3\n a + f(b) * g(1, 2).x - h[0]\n"
         " a +\n b - c.y ++ \"s\" + E::V(1) - R { x: 1 } * S::T }"),
        ("assignments", "fn main() -> Int { let mut a = 1\n a = a + 1\n a\n = 2\n"
         " let b: Int = a\n while a < 3 { a = a + 1 }\n for x in [1, 2] { b = b + x }\n"
         " return a }"),
        ("bad assignment", "fn main() -> Int { f(1) = 2 }"),
        ("match kinds", "enum E { A(Int), B, A2(Option<Int>) }\nenum F { B, A(Int) }\n"
         "fn main() -> Int { let v = match 3 { 1 => 1, 300 => 2, n => n }\n"
         " let w = match \"s\" { \"t\" => 1, _ => 2 }\n"
         " let x = match E::A(1) { A(n) => n, B => 0, A2(Some(k)) => k, A2(None) => 9 }\n"
         " let y = match true { true => 1, false => 0 }\n"
         " match Ok(1) { Ok(0) => 0, Ok(n) => n, Err(e) => 5 } }"),
    ]
    return programs


def _mutations(source: str, seed: int, count: int) -> list[str]:
    """`count` edits of `source` (cut, deleted span, doubled span, inserted token): mostly
    parse errors at every kind of place."""
    rng = random.Random(seed)
    tokens = ["(", ")", "{", "}", ",", "=>", "=", "let", "match", "if", "else", "->", ":",
              "::", "!", "-", "+", "..", "Some", "x", "1", '"s"', "[", "]", "\n", "mut",
              "return", "for", "in", "_", ".", "*"]
    out = []
    for _ in range(count):
        i = rng.randrange(len(source) + 1)
        j = min(len(source), i + rng.randrange(1, 12))
        edit = rng.randrange(4)
        if edit == 0:
            out.append(source[:i])
        elif edit == 1:
            out.append(source[:i] + source[j:])
        elif edit == 2:
            out.append(source[:i] + source[i:j] + source[i:])
        else:
            out.append(source[:i] + " " + rng.choice(tokens) + " " + source[i:])
    return out


def _parsed(source):
    return call_deep(parse_outcome, source)    # deep trees: a deep stack for tree() too


def _patch_reference(monkeypatch):
    for name in ("_c_block", "_c_expr"):     # the C core hands everything back
        monkeypatch.setattr(parser, name, lambda kinds, values, lines, cols, pos, *_: pos)
    monkeypatch.setattr(parser, "_c_items", lambda kinds, values, lines, cols, pos, *_: (pos, pos))
    # codegen's C core (`_emit.c`) hands every expression back to the Python emitter
    monkeypatch.setattr(codegen, "_c_expr", lambda gen, e, ctx: None)
    monkeypatch.setattr(codegen, "_c_stmts", lambda gen, stmts, ctx: None)
    monkeypatch.setattr(codegen, "_c_functions", lambda mod, fns: None)
    monkeypatch.setattr(codegen, "_c_fn_tables", lambda fns, arities: None)
    for name in ("parse_block", "parse_stmt", "parse_expr"):
        monkeypatch.setattr(parser._Parser, name, getattr(reference, "old_" + name))
    for name in ("match_expr", "match_chain", "match_table", "pattern_tags"):
        monkeypatch.setattr(codegen._FnGen, name, getattr(reference, "old_" + name))


def _deep_sources() -> list[tuple[str, str]]:
    out = []
    for depth in (50, 19_990, 20_001):
        for label, text in (
                ("parens", "(" * depth + "1" + ")" * depth),
                ("blocks", "{ " * depth + "1" + " }" * depth),
                ("negations", "-" * depth + "1"),
                ("sums", "1" + " + 1" * depth),
                ("calls", "f" + "(1)" * depth),
                ("fields", "x" + ".a" * depth),
                ("ifs", "if a { " * depth + "1" + " }" * depth)):
            out.append((f"{label} {depth}", "fn main() -> Int { " + text + " }"))
    return out


def test_every_program_parses_as_before(monkeypatch):
    corpus = [(label, source) for label, source in _corpus() if isinstance(source, str)]
    sources = list(_deep_sources())
    for k, (label, source) in enumerate(corpus):
        sources.append((label, source))
        sources += [(f"{label} edit {n}", edited)
                    for n, edited in enumerate(_mutations(source, k, 4))]
    now = [_parsed(source) for _, source in sources]
    _patch_reference(monkeypatch)
    errors = 0
    for (label, source), new in zip(sources, now):
        assert call_deep(operator.eq, _parsed(source), new), label    # deep: a deep stack
        errors += new is not None and new[0] == "error"
    assert errors >= len(corpus)     # the error paths are exercised too


def test_corpus_is_broad():
    corpus = _corpus()
    assert len(corpus) >= 5 * SEEDS + 10
    assert sum(len(source) <= 1024 for _, source in corpus) >= 5  # the caller's-thread path


def test_every_program_compiles_as_before(monkeypatch):
    corpus = _corpus()
    now = [_outcome(compile_source, source) for _, source in corpus]
    monkeypatch.setattr(codegen._FnGen, "field_access", _old_field_access)
    monkeypatch.setattr(codegen._FnGen, "match_nested", _old_match_nested)
    _patch_reference(monkeypatch)
    for (label, source), new in zip(corpus, now):
        assert _outcome(_before, source) == new, label
