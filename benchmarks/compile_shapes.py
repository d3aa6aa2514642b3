"""Generated ~1 MB `.ax` programs of several shapes, for `benchmarks/test_compile_shapes.py`.

Each shape repeats one template with a counter until the text passes 1,000,000 characters;
every program compiles (the benchmark checks it).
"""
from __future__ import annotations

MEGABYTE = 1_000_000

SHAPES: dict[str, tuple[str, str]] = {}
"""shape name -> (prelude, template with {i} and {j} = max(i - 1, 0))."""

SHAPES["functions"] = ("", """fn step_{i}(n: Int, label: String) -> Int !{{net}} intent "step {i}" {{
    let mut total = n * {i} + 1
    let items = [1, 2, 3, total]
    for x in items {{ total = total + x }}
    if total > 100 && label != "skip" {{
        total = total - step_{j}(n - 1, label ++ "!")
    }} else {{
        total = list_len(items)
    }}
    match Some(total) {{
        Some(v) => v % 7,
        None => 0
    }}
}}
""")

SHAPES["matches"] = ("""enum Op { Add(Int), Sub(Int), Neg, Name(String), Pair(Option<Int>) }
""", """fn m_{i}(op: Op, r: Result<Int, String>) -> Int {{
    let a = match op {{ Add(n) => n + {i}, Sub(n) => n - {i}, Neg => 0 - {i}, Name(s) => __builtin_string_len(s), Pair(Some(v)) => v, Pair(None) => {i} }}
    let b = match r {{ Ok(v) => v, Err(e) => __builtin_string_len(e) }}
    match a % 3 {{ 0 => a + b, 1 => a - b, _ => match Some(b) {{ Some(x) => x, None => 0 }} }}
}}
""")

SHAPES["records_enums"] = ("", """type R{i} {{ id: Int, name: String, tags: List<String>, score: Float, ok: Bool }}
enum E{i} {{ A{i}, B{i}(Int), C{i}(String), D{i}(R{i}) }}
fn make_{i}(n: Int) -> R{i} {{ R{i} {{ id: n, name: "r{i}", tags: ["a", "b"], score: 1.5, ok: true }} }}
fn bump_{i}(r: R{i}) -> R{i} {{ R{i} {{ ..r, id: r.id + 1 }} }}
fn tag_{i}(n: Int) -> E{i} {{ if n > 0 {{ E{i}::D{i}(make_{i}(n)) }} else {{ E{i}::B{i}(n) }} }}
""")

SHAPES["long_expressions"] = ("", """fn e_{i}(a: Int, b: Int, c: Int) -> Int {{
    let x = a * 3 + b * 5 - c * 7 + (a - b) * (b - c) + (c + a) % 11 + a * b * c - (a + b + c) * 2 + 13 * a - 17 * b + 19 * c
    let y = x * x - a * b + (x - c) * (x + c) - (a * a + b * b + c * c) + x % 97 + (x * 3 - a) * (b * 5 - c) + {i}
    let ok = x > y && y < 1000 || x == y && a != b || c >= a && b <= c
    if ok {{ x + y * 2 - (x - y) * 3 + a * b - c }} else {{ y - x * 2 + (y + x) % 5 - a + b * c }}
}}
""")

SHAPES["nesting"] = ("", """fn n_{i}(a: Int) -> Int {{
    if a > 0 {{ if a > 1 {{ if a > 2 {{ if a > 3 {{ if a > 4 {{ if a > 5 {{ if a > 6 {{ if a > 7 {{
        let v = ((((((((a + 1) * 2) + 3) * 4) + 5) * 6) + 7) * 8)
        match Some(Some(Some(v))) {{ Some(Some(Some(w))) => [[[w]]], _ => [[[0]]] }}
        v
    }} else {{ 7 }} }} else {{ 6 }} }} else {{ 5 }} }} else {{ 4 }} }} else {{ 3 }} }} else {{ 2 }} }} else {{ 1 }} }} else {{ {i} }}
}}
""")

SHAPES["small_functions"] = ("", """fn f_{i}(x: Int) -> Int {{ x + {i} }}
fn g_{i}(x: Int) -> Int {{ f_{i}(x) * 2 }}
fn h_{i}() -> Bool {{ g_{i}(1) > f_{j}(2) }}
""")

SHAPES["strings"] = ("", """fn s_{i}(name: String) -> String {{
    let greeting = "Hello, " ++ name ++ "! Welcome to item number {i} of the catalogue."
    let parts = __builtin_string_split("alpha,beta,gamma,delta,epsilon,zeta,eta,theta,iota,kappa", ",")
    let note = "A longer line of descriptive text that an agent might write into a template, {i}."
    if __builtin_string_len(greeting) > 10 {{ greeting ++ " " ++ note }} else {{ __builtin_string_join(parts, "-") ++ "{i}" }}
}}
""")


def megabyte(shape: str) -> str:
    """The ~1 MB program of `shape`, with a `main`."""
    prelude, template = SHAPES[shape]
    parts = [prelude]
    size = len(prelude)
    i = 0
    while size < MEGABYTE:
        text = template.format(i=i, j=max(i - 1, 0))
        parts.append(text)
        size += len(text)
        i += 1
    parts.append("fn main() -> Int { 0 }\n")
    return "".join(parts)


# the frontend benchmark's function in Python, for CPython's compile() as the baseline
PY_FUNCTION = """def step_{i}(n, label):
    total = n * {i} + 1
    items = [1, 2, 3, total]
    for x in items:
        total = total + x
    if total > 100 and label != "skip":
        total = total - step_{j}(n - 1, label + "!")
    else:
        total = len(items)
    match total:
        case None:
            return 0
        case v:
            return v % 7
"""


def python_megabyte() -> str:
    parts, size, i = [], 0, 0
    while size < MEGABYTE:
        text = PY_FUNCTION.format(i=i, j=max(i - 1, 0))
        parts.append(text)
        size += len(text)
        i += 1
    return "".join(parts)
