"""docs/spec/vm.md §8.1 compile-bench fixtures (the reference's SMALL/MEDIUM programs): counts, result,
steps."""
from boruna.compiler import compile_source
from boruna.api import run

SMALL = """
fn add(a: Int, b: Int) -> Int {
    a + b
}

fn double(x: Int) -> Int {
    x + x
}

fn main() -> Int {
    let a: Int = 1
    let b: Int = 2
    let c: Int = add(a, b)
    let d: Int = double(c)
    d + 10
}
"""

MEDIUM = """
type Pair { a: Int, b: Int }
type Triple { x: Int, y: Int, z: Int }
type Tag { name: String, weight: Int }

fn add(a: Int, b: Int) -> Int { a + b }
fn sub(a: Int, b: Int) -> Int { a - b }
fn mul(a: Int, b: Int) -> Int { a * b }
fn neg(x: Int) -> Int { 0 - x }

fn abs(x: Int) -> Int {
    if x < 0 { neg(x) } else { x }
}

fn max2(a: Int, b: Int) -> Int {
    if a > b { a } else { b }
}

fn min2(a: Int, b: Int) -> Int {
    if a < b { a } else { b }
}

fn clamp(v: Int, lo: Int, hi: Int) -> Int {
    max2(lo, min2(v, hi))
}

fn sum_pair(p: Pair) -> Int {
    p.a + p.b
}

fn swap_pair(p: Pair) -> Pair {
    Pair { a: p.b, b: p.a }
}

fn shift_pair(p: Pair, dx: Int) -> Pair {
    Pair { ..p, a: p.a + dx }
}

fn triple_sum(t: Triple) -> Int {
    t.x + t.y + t.z
}

fn move_triple(t: Triple, dx: Int, dy: Int, dz: Int) -> Triple {
    Triple { x: t.x + dx, y: t.y + dy, z: t.z + dz }
}

fn fib(n: Int) -> Int {
    if n <= 1 { n } else { fib(n - 1) + fib(n - 2) }
}

fn factorial(n: Int) -> Int {
    let mut result: Int = 1
    let mut i: Int = n
    while i > 0 {
        result = result * i
        i = i - 1
    }
    result
}

fn pow(base: Int, exp: Int) -> Int {
    let mut acc: Int = 1
    let mut e: Int = exp
    while e > 0 {
        acc = acc * base
        e = e - 1
    }
    acc
}

fn gcd(a: Int, b: Int) -> Int {
    let mut x: Int = a
    let mut y: Int = b
    while y > 0 {
        let t: Int = y
        y = x - (x / y) * y
        x = t
    }
    x
}

fn classify(tag: Tag) -> String {
    match tag.name {
        "alpha" => "high",
        "beta" => "medium",
        "gamma" => "low",
        _ => "unknown",
    }
}

fn weight_of(tag: Tag) -> Int {
    match tag.name {
        "alpha" => 100,
        "beta" => 50,
        "gamma" => 10,
        _ => 0,
    }
}

fn promote(tag: Tag) -> Tag {
    Tag { ..tag, weight: tag.weight + 5 }
}

fn sum_n(n: Int) -> Int {
    let mut total: Int = 0
    let mut i: Int = 0
    while i < n {
        total = total + i
        i = i + 1
    }
    total
}

fn count_down(n: Int) -> Int {
    let mut x: Int = n
    while x > 0 { x = x - 1 }
    x
}

fn pipeline(seed: Int) -> Int {
    let a: Int = sum_n(seed)
    let b: Int = factorial(min2(seed, 8))
    let c: Int = pow(2, min2(seed, 10))
    let d: Int = gcd(a + 1, b + 1)
    a + b + c + d
}

fn main() -> Int {
    let p: Pair = Pair { a: 3, b: 4 }
    let q: Pair = swap_pair(p)
    let r: Pair = shift_pair(q, 5)
    let t: Triple = Triple { x: 1, y: 2, z: 3 }
    let u: Triple = move_triple(t, 10, 20, 30)
    let tag: Tag = Tag { name: "beta", weight: 50 }
    let promoted: Tag = promote(tag)
    let w: Int = weight_of(promoted)
    let f: Int = fib(10)
    let result: Int = sum_pair(r) + triple_sum(u) + w + f + pipeline(6)
    clamp(result, 0, 100000)
}
"""


def test_small_program():
    module = compile_source(SMALL)
    s = module.summary()
    assert (s["functions"], s["types"], s["constants"]) == (3, 0, 3)
    out = run(module)
    assert (out.result, out.steps) == (16, 24)


def test_medium_program():
    module = compile_source(MEDIUM)
    s = module.summary()
    assert (s["functions"], s["types"], s["constants"], s["entry"]) == (24, 3, 52, 23)
    out = run(module)
    assert out.ok, out.error
    assert (out.result, out.steps) == (983, 2366)
