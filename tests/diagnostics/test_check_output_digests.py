"""The check-speed work of issue 25 (sixth round) changes no diagnostic: every program of the
equivalence corpus (tests/test_compiler_equivalence.py: named programs, random programs of
every family of tests/vm/vm_random_programs.py), small programs of every shape of
benchmarks/compile_shapes.py, and random edits of each (cuts and inserted tokens, which are
mostly parse errors, and edits that keep the text parseable: a name swapped for another name
of the program or misspelt, a literal of another type, a line deleted or doubled, which
reach the analyzers and the type checker) give the very diagnostics `check_source` gave
before: code, severity, body, span, help, notes, labels, fixes with their edits and
applicability, in the same order. The editor's view of the type pass (the type text
`node_types` shows for every node the checker typed) is pinned along with them.

The digest below was computed with main's code at 32556ab, before the sixth round changed
the analyzers; the checkout's own `.ax` files are left out (they differ between a git
checkout and the sdist the CI also tests).
"""
import dataclasses
import hashlib
import os
import random
import re
import sys
from pathlib import Path

import pytest

from boruna.diagnostics.collector import check_source, check_source_context
from boruna.diagnostics.types.node_types import node_types
from boruna.language.walk import iter_nodes
from tests.test_compiler_equivalence import _corpus, _mutations

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from compile_shapes import SHAPES  # noqa: E402

# sha256 over every check outcome of the corpus below, computed with main's code at 32556ab
CHECK_DIGEST = "04e8a5ae50e5bcbc7b938b0deb74f1e43ff007d5bda8320ea542e5b49debc04c"

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*|[0-9]+(?:\.[0-9]+)?')
_KEYWORDS = frozenset("fn let mut if else match for in while return type enum true false "
                      "intent requires ensures spawn emit send receive import".split())


def small_shape(shape: str, count: int = 12) -> str:
    """The program of `shape` with `count` repetitions of its template (and its `main`)."""
    prelude, template = SHAPES[shape]
    parts = [prelude] + [template.format(i=i, j=max(i - 1, 0)) for i in range(count)]
    return "".join(parts) + "fn main() -> Int { 0 }\n"


def semantic_edits(source: str, seed: int, count: int) -> list[str]:
    """`count` edits of `source` that mostly still parse: a name replaced by another name of
    the program or misspelt, a literal replaced by one of another type, a line deleted or
    doubled."""
    rng = random.Random(seed)
    tokens = [m for m in _TOKEN.finditer(source)]
    names = sorted({m.group() for m in tokens
                    if m.group()[0].isalpha() and m.group() not in _KEYWORDS})
    lines = source.split("\n")
    out = []
    for _ in range(count):
        edit = rng.randrange(5)
        if edit <= 2 and tokens:
            m = rng.choice(tokens)
            text = m.group()
            if edit == 0 and names:
                new = rng.choice(names)
            elif edit == 1 and len(text) > 1:
                k = rng.randrange(len(text))
                new = text[:k] + text[k + 1:]
            else:
                new = rng.choice(['"s"', "1", "1.5", "true", "[]", "None", "Some(1)"])
            out.append(source[:m.start()] + new + source[m.end():])
        elif len(lines) > 1:
            k = rng.randrange(len(lines))
            doubled = lines[:k + 1] + lines[k:] if edit == 3 else lines[:k] + lines[k + 1:]
            out.append("\n".join(doubled))
    return out


# programs for the rules the generated families seldom reach: capabilities through calls and
# function values, an App's pure functions, `&&`/`||` whose right side can fail
NAMED = [
    ("capability chain", 'fn read() -> String {\n    step_input("a")\n}\n'
     'fn mid() -> String !{net} {\n    read()\n}\nfn quiet() -> Int !{step.input} { 1 }\n'
     'fn main() -> String {\n    mid()\n}\n'),
    ("function value", 'fn query(q: String) -> Int !{db.query} {\n    list_len(db_query(q))\n}\n'
     'fn apply(f: Fn(String) -> Int, q: String) -> Int {\n    f(q)\n}\n'
     'fn main() -> Int {\n    let mut g = query\n    g = query\n    apply(query, "select 1") + g("x")\n}\n'),
    ("app", 'type State { n: Int }\ntype Msg { tag: String, payload: Int }\n'
     'fn now() -> Int !{time.now} { time_now() }\n'
     'fn init() -> State { State { n: now() } }\n'
     'fn update(s: State, m: Msg) -> State !{net} { State { n: s.n + m.payload } }\n'
     'fn view(s: State) -> String { int_to_string(s.n) }\n'),
    ("eager", 'fn at(xs: List<Int>, i: Int) -> Int {\n    list_get(xs, i)\n}\n'
     'fn positive_at(xs: List<Int>, i: Int) -> Bool {\n    at(xs, i) > 0\n}\n'
     'fn ok(a: Int, b: Int) -> Bool {\n    b == 0 || a / b > 1\n}\n'
     'fn main() -> Bool {\n    let xs = [1]\n    let mut i = 0\n'
     '    while i < list_len(xs) && list_get(xs, i) <= 0 { i = i + 1 }\n'
     '    ok(1, 0) && (list_len(xs) > 1 && positive_at(xs, 1))\n}\n'),
    ("unused capability", 'fn read() -> String !{net} {\n    step_input("a")\n}\n'
     'fn main() -> Int !{net, fs.read} { 0 }\n'),
]


def check_corpus(with_checkout_files: bool = False) -> list[tuple[str, str]]:
    """(name, source) of every program whose check outcome is pinned."""
    programs = [(name, source) for name, source in _corpus()
                if isinstance(source, str) and (with_checkout_files or not name.endswith(".ax"))]
    programs += [(f"shape {shape}", small_shape(shape)) for shape in sorted(SHAPES)]
    programs += NAMED
    out = list(programs)
    for k, (name, source) in enumerate(programs):
        out += [(f"{name} cut {i}", text) for i, text in enumerate(_mutations(source, k, 4))]
        out += [(f"{name} edit {i}", text)
                for i, text in enumerate(semantic_edits(source, k, 10))]
    return out


def _value(obj):
    """A diagnostic's whole state as plain data (enums by name)."""
    if dataclasses.is_dataclass(obj):
        return tuple((f.name, _value(getattr(obj, f.name))) for f in dataclasses.fields(obj))
    if isinstance(obj, (list, tuple)):
        return tuple(_value(x) for x in obj)
    if hasattr(obj, "name") and hasattr(obj, "value") and type(obj).__module__ != "builtins":
        return (type(obj).__name__, obj.name)
    return obj


def check_outcome(source: str) -> bytes:
    """Every diagnostic of `source`, then the type text of every node the checker typed."""
    found = check_source(source)
    parts = [repr(_value(d)) for d in found.diagnostics]
    again, ctx, _libraries = check_source_context(source)
    assert [repr(_value(d)) for d in again.diagnostics] == parts
    if ctx is not None and ctx.program is not None:
        types = node_types(ctx)
        for fn in ctx.program.functions():
            for node in iter_nodes(fn):
                text = types.text(node)
                if text is not None:
                    parts.append(f"{type(node).__name__} {getattr(node, 'line', 0)} "
                                 f"{getattr(node, 'col', 0)} {text}")
    return "\n".join(parts).encode("utf-8", "surrogatepass")


def check_digest(programs=None) -> str:
    digest = hashlib.sha256()
    for _name, source in programs if programs is not None else check_corpus():
        outcome = check_outcome(source)
        digest.update(len(outcome).to_bytes(8, "little"))
        digest.update(outcome)
    return digest.hexdigest()


@pytest.mark.skipif(os.environ.get("BORUNA_EQUIVALENCE_SEEDS", "15") != "15",
                    reason="the digest is of the default corpus (15 seeds per family)")
def test_check_outcomes_are_unchanged():
    assert check_digest() == CHECK_DIGEST


if __name__ == "__main__":      # print the digest (to record it)
    print(repr(check_digest()))
