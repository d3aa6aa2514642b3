"""Random `.ax` programs for differential VM runs (tests/vm/test_loop_mixed_programs.py, and
tools/vmdiff/driver.py against an older VM).

`mixed_program(seed)`: Int/Float/String/Bool arithmetic and comparisons (overflow, division by
0 and -1), while/for/if/match, records and spreads, enums with payloads, Some/None/Ok/Err built,
matched, nested, kept in lists and maps and returned, function values, recursion, merge sort,
map builtins in loops (maps passed, returned, copied, displayed), string split/join/trim/
starts_with/parse_int/to_upper on non-ASCII text, capability calls (the mock handler)."""
import random

BIG = "9223372036854775800"

PRELUDE = """enum Sh { Dot, Seg(Int), Name(String), Wrap(Option<Int>) }
type P { x: Int, y: Int, name: String }
fn inc(x: Int) -> Int { x + 1 }
fn dbl(x: Int) -> Int { x * 2 }
fn fib(n: Int) -> Int { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }
fn fact(n: Int) -> Int { if n <= 1 { 1 } else { n * fact(n - 1) } }
fn sh(k: Int) -> Sh {
    let r = k % 4
    if r == 0 { Sh::Dot } else { if r == 1 { Sh::Seg(k) } else {
        if r == 2 { Sh::Name("n\u00e9" ++ __builtin_int_to_string(k)) } else {
            if k % 8 == 3 { Sh::Wrap(Some(k)) } else { Sh::Wrap(None) } } } }
}
fn score(s: Sh) -> Int {
    match s { Dot => 0, Seg(n) => n, Name(t) => __builtin_string_len(t), Wrap(Some(v)) => v,
              Wrap(None) => -1, }
}
fn bump(m: Map<String, Int>, k: String) -> Map<String, Int> {
    let old = match __builtin_map_get(m, k) { Some(v) => v, None => 0 }
    __builtin_map_set(m, k, old + 1)
}
fn look(m: Map<String, Int>, k: String) -> Option<Int> { __builtin_map_get(m, k) }
fn half(n: Int) -> Result<Int, String> {
    if n % 2 == 0 { Ok(n / 2) } else { Err("odd " ++ __builtin_int_to_string(n)) }
}
fn total(m: Map<String, Int>) -> Int {
    let mut t = 0
    for k in __builtin_map_keys(m) { t = t + match __builtin_map_get(m, k) { Some(v) => v % 1000, None => 0 } }
    t
}
fn pick(xs: List<Int>, lo: Int, hi: Int) -> List<Int> {
    let mut out = []
    let mut i = lo
    while i < hi { out = list_push(out, list_get(xs, i))  i = i + 1 }
    out
}
fn merge(a: List<Int>, b: List<Int>) -> List<Int> {
    let mut out = []
    let mut i = 0
    let mut j = 0
    while i < list_len(a) || j < list_len(b) {
        let take_a = if j >= list_len(b) { true } else { if i >= list_len(a) { false } else { list_get(a, i) <= list_get(b, j) } }
        if take_a { out = list_push(out, list_get(a, i))  i = i + 1 } else { out = list_push(out, list_get(b, j))  j = j + 1 }
    }
    out
}
type Box { m: Map<String, Int>, o: Option<Int> }
fn keys_text(m: Map<String, Int>) -> String { __builtin_string_join(__builtin_map_keys(m), ",") }
fn put(m: Map<String, Int>, k: String, v: Int) -> Map<String, Int> {
    let mut n = m
    n = __builtin_map_set(n, k, v)
    n
}
fn fill(n: Int) -> Map<String, Int> {
    let mut m = map_new()
    let mut i = n
    while i > 0 { m = __builtin_map_set(m, "f" ++ __builtin_int_to_string(i % 7), i)  i = i - 1 }
    m
}
fn deep(n: Int) -> Int { if n == 0 { 0 } else { 1 + deep(n - 1) } }
fn sort(xs: List<Int>) -> List<Int> {
    let n = list_len(xs)
    if n < 2 { xs } else { merge(sort(pick(xs, 0, n / 2)), sort(pick(xs, n / 2, n))) }
}
"""

TEXTS = ['"a,b,c"', '"  x y "', '"\u00e9t\u00e9,\u00df"', '"\U0001f600|\u4e2d"', '""', '","',
         '" 12 "', '"-7"', '"+3"', '"9223372036854775808"', '"\u0130i"', '"\u3000q\u3000"',
         '"abc"', '"12a"', '"\u0661\u0662"', '"1_000"', '"-9223372036854775808"',
         '"\u00a012"', '" +0 "', '"--1"', '"0x10"', '"\u221215"', '"\uff11"', '"\u00e9,a,\u00e9"']
SEPS = ['","', '"|"', '" "', '""', '"\u00e9"', '";"']
CONDS = ['true', 'acc < 0', 's == ""']
FLOATS = TEXTS + ['"1.5"', '"-0.0"', '"1e3"']
KEYS = ['"a"', '"b"', '"\u00e9"', '"\U0001f600"', '""', '"k"']
RETURNS = [("Int", "acc"), ("Float", "f"), ("String", "s"), ("List<Int>", "xs"),
           ("Map<String, Int>", "m"), ("List<Option<Int>>", "os"),
           ("Map<String, Option<Int>>", "mo"), ("P", "p"), ("List<String>", "words"),
           ("List<Sh>", "shs"), ("Box", "bx"), ("List<Map<String, Int>>", "ms"),
           ("Map<String, Map<String, Int>>", "mm"), ("String", "keys_text(m)"),
           ("List<String>", "__builtin_map_keys(m)"), ("Option<Int>", "look(m, \"a\")"),
           ("Result<Int, String>", "half(acc)"), ("Bool", "acc > 3 && s != \"\""),
           ("List<Result<Int, String>>", "rs"), ("Fn(Int) -> Int", "g")]


def _key(rng):
    return rng.choice(KEYS + ['"k" ++ __builtin_int_to_string(i % 5)'])


def _stmt(rng, k, depth):
    c = rng.randint(0, 9)
    kind = rng.randrange(30 if depth < 2 else 26)
    if rng.random() < 0.3:
        return _stmt2(rng, k, c)
    if kind == 0:
        op = rng.choice(["+", "-", "*", "/", "%"])
        return f"acc = acc {op} {rng.choice(['0', '1', '-1', '3', BIG, '2', '-' + BIG])}"
    if kind == 1:
        return f"acc = acc {rng.choice(['/', '%'])} (i - {c})"
    if kind == 2:
        return rng.choice([f"f = f * 1.5 + {c}.25", f"f = f / (i - {c}) + 0.5", f"f = f - 2.75",
                           f"if f > {c}.5 {{ acc = acc + 1 }} else {{ f = f + 0.125 }}",
                           f"f = 0.1 * {c}.0 + f", f"let q{k} = f == f\nif q{k} {{ acc = acc + 1 }}"])
    if kind == 3:
        return rng.choice(['s = s ++ "\u00e9"', 's = s ++ "\U0001f600,"', 's = s ++ " \u00df "',
                           's = __builtin_string_to_upper(s)', 's = __builtin_string_trim(s)',
                           's = __builtin_string_to_lower(s)', f's = {rng.choice(TEXTS)}'])
    if kind == 4:
        return (f"if __builtin_string_len(s) > 30 {{ s = {rng.choice(TEXTS)} }}\n"
                f"words = __builtin_string_split(s, {rng.choice(SEPS)})\n"
                f"s = __builtin_string_join(words, {rng.choice(SEPS)})\nacc = acc + list_len(words)")
    if kind == 5:
        return rng.choice([f"acc = acc + parse_int({rng.choice(TEXTS)})",
                           f"acc = acc + parse_int(s)",
                           f"match try_parse_int({rng.choice(TEXTS)}) {{ Ok(v) => {{ acc = acc + v }}, "
                           f"Err(e) => {{ s = e }}, }}",
                           f"if __builtin_string_starts_with(s, {rng.choice(TEXTS)}) {{ acc = acc + 1 }}",
                           f"if str_starts_with(s, \"\u00e9\") {{ acc = acc + 2 }}",
                           f"if __builtin_string_ends_with(s, \",\") {{ acc = acc + 3 }}",
                           f"if str_contains(s, \"\u00df\") {{ acc = acc + 4 }}",
                           f"s = __builtin_string_replace(s, \"a\", \"\u00e9\")",
                           f"acc = acc + list_len(__builtin_string_chars(s))",
                           f"match __builtin_int_parse(s) {{ Some(v) => {{ acc = v }}, None => {{ acc = acc + 1 }}, }}"])
    if kind == 6:
        return rng.choice([f"xs = list_push(xs, acc % 100 + {c})",
                           f"if list_len(xs) > 0 {{ acc = acc + list_get(xs, i % list_len(xs)) }}",
                           f"acc = acc + list_get(xs, {c})",
                           f"for x in xs {{ acc = acc + x }}",
                           "xs = sort(xs)",
                           "xs = __builtin_list_reverse(xs)",
                           "xs = __builtin_list_concat(xs, [i, 0 - i])",
                           "if list_len(xs) > 12 { xs = __builtin_list_tail(xs) }",
                           "match __builtin_list_head(xs) { Some(h) => { acc = acc + h }, None => { acc = acc - 1 }, }"])
    if kind == 7:
        return rng.choice([f"m = __builtin_map_set(m, {_key(rng)}, acc % 50)",
                           f"m = __builtin_map_remove(m, {_key(rng)})",
                           f"if __builtin_map_contains_key(m, {_key(rng)}) {{ acc = acc + 1 }}",
                           f"acc = acc + __builtin_map_len(m)",
                           f"m = bump(m, {_key(rng)})",
                           f"acc = acc + total(m)",
                           f"match look(m, {_key(rng)}) {{ Some(v) => {{ acc = acc + v }}, None => {{ acc = acc - 1 }}, }}",
                           f"let m{k} = m\nm = __builtin_map_set(m, \"z\", {c})\n"
                           f"acc = acc + __builtin_map_len(m{k}) * 10 + __builtin_map_len(m)",
                           f"words = __builtin_map_keys(m)",
                           f"for v in __builtin_map_values(m) {{ acc = acc + v }}",
                           f"s = __builtin_debug_msg(\"m\", s)"])
    if kind == 8:
        return rng.choice([f"os = list_push(os, if acc % 2 == 0 {{ Some(acc) }} else {{ None }})",
                           f"os = list_push(os, look(m, {_key(rng)}))",
                           f"if list_len(os) > 0 {{ match list_get(os, i % list_len(os)) {{ Some(v) => {{ acc = acc + v }}, None => {{ acc = acc + 7 }}, }} }}",
                           f"for o in os {{ match o {{ Some(v) => {{ acc = acc + v % 10 }}, None => {{ }} }} }}"])
    if kind == 9:
        return rng.choice([f"mo = __builtin_map_set(mo, {_key(rng)}, Some(i))",
                           f"mo = __builtin_map_set(mo, {_key(rng)}, None)",
                           f"mo = __builtin_map_set(mo, {_key(rng)}, look(m, {_key(rng)}))",
                           f"acc = acc + match __builtin_map_get(mo, {_key(rng)}) {{ Some(Some(v)) => v, Some(None) => 100, None => 1000, }}"])
    if kind == 10:
        return rng.choice([f"p = P {{ ..p, x: p.x + {c} }}", f"p = P {{ ..p, name: s }}",
                           f"p = P {{ x: p.y, y: p.x + acc % 7, name: p.name ++ \"\u00e9\" }}",
                           f"acc = acc + p.x * p.y"])
    if kind == 11:
        return rng.choice([f"shs = list_push(shs, sh(i + {c}))",
                           f"if list_len(shs) > 0 {{ acc = acc + score(list_get(shs, i % list_len(shs))) }}",
                           f"acc = acc + score(sh(acc % 100 + {c}))",
                           f"match sh(i + {c}) {{ Name(t) => {{ s = t }}, Wrap(o) => {{ os = list_push(os, o) }}, _ => {{ acc = acc + 1 }}, }}"])
    if kind == 12:
        return rng.choice([f"g = if (acc + {c}) % 2 == 0 {{ inc }} else {{ dbl }}\nacc = g(acc % 1000)",
                           f"acc = g(acc) % 100003", f"g = fib\nacc = acc + g(i % 10)"])
    if kind == 13:
        return rng.choice([f"acc = acc + fib(i % 13)", f"acc = acc + fact((i + {c}) % 24)"])
    if kind == 14:
        return rng.choice([f"rs = list_push(rs, half(acc + {c}))",
                           f"match half(i + {c}) {{ Ok(v) => {{ acc = acc + v }}, Err(e) => {{ s = e }}, }}",
                           f"for r in rs {{ match r {{ Ok(v) => {{ acc = acc + v % 9 }}, Err(e) => {{ acc = acc + __builtin_string_len(e) }}, }} }}"])
    if kind == 15:
        return rng.choice(["acc = acc + time_now() % 7", "f = f + random()",
                           f"s = net_fetch(\"http://x/\u00e9{c}\")", "s = fs_read(\"a.txt\")",
                           "acc = acc + list_len(db_query(\"q\"))"])
    if kind == 16:
        b = rng.choice([f"acc > {c}", "s != \"x\"", "f < 2.0", "acc == 0", "p.x >= p.y", f"i % 3 == {c % 3}"])
        return f"let b{k} = {b} {rng.choice(['&&', '||'])} {rng.choice(CONDS)}\nif b{k} {{ acc = acc + 1 }} else {{ acc = acc - 2 }}"
    if kind == 17:
        return rng.choice([f"s = s ++ __builtin_int_to_string(acc % 1000)",
                           f"s = __builtin_float_to_string(f)",
                           f"match __builtin_float_parse({rng.choice(FLOATS)}) {{ Some(v) => {{ f = v }}, None => {{ }} }}",
                           f"s = s ++ __builtin_bool_to_string(acc > {c})"])
    if kind < 26:
        return rng.choice([f"acc = acc + {c}", f"acc = acc - i", f"acc = acc * 3 % 1000003"])
    body = "\n".join(_stmt(rng, k * 10 + j, depth + 1) for j in range(rng.randint(1, 3)))
    if kind == 26:
        return f"if acc {rng.choice(['<', '>=', '==', '!='])} {c * 5} {{\n{body}\n}} else {{\nacc = acc + 1\n}}"
    if kind == 27:
        return f"let mut w{k} = 0\nwhile w{k} < {rng.randint(0, 6)} {{\n{body}\nw{k} = w{k} + 1\n}}"
    if kind == 28:
        return f"for e{k} in [1, {c}, 3] {{\nacc = acc + e{k}\n{body}\n}}"
    return (f"match sh(i + {c}) {{\nDot => {{\n{body}\n}},\nSeg(n) => {{ acc = acc + n }},\n"
            f"_ => {{\n{body}\n}},\n}}")


def _stmt2(rng, k, c):
    """Order-sensitive uses of maps (keys, values, display through callees, records, lists,
    function values), pooled Some objects kept and compared, compound equality, deep calls."""
    key = _key(rng)
    return rng.choice([
        "s = keys_text(m)",
        f"m = put(m, {key}, {c})",
        f"let h{k} = keys_text\ns = h{k}(m) ++ s",
        f"bx = Box {{ m: m, o: look(m, {key}) }}\nm = __builtin_map_set(m, \"q\", {c})",
        "s = keys_text(bx.m)",
        f"bx = Box {{ ..bx, o: look(bx.m, {key}) }}",
        "match bx.o { Some(v) => { acc = acc + v }, None => { acc = acc - 3 }, }",
        "ms = list_push(ms, m)",
        "if list_len(ms) > 0 { s = keys_text(list_get(ms, list_len(ms) - 1)) }",
        f"m = fill(i + {c})",
        "for v in __builtin_map_values(m) { s = s ++ __builtin_int_to_string(v) }",
        "words = __builtin_map_keys(m)",
        f"m = __builtin_map_set(m, {key}, acc % 9)\nm = __builtin_map_remove(m, {_key(rng)})",
        f"if look(m, {key}) == Some({c}) {{ acc = acc + 11 }}",
        f"if look(m, {key}) != None {{ acc = acc + 13 }}",
        f"if os == [Some(1), None] {{ acc = acc + 17 }}",
        f"if p == P {{ x: 1, y: 2, name: \"p\" }} {{ acc = acc + 19 }}",
        f"if sh(i) == Sh::Seg(i) {{ acc = acc + 23 }}",
        f"if m == fill({c}) {{ acc = acc + 29 }}",
        f"let o{k} = look(m, {key})\nos = list_push(os, o{k})\nmo = __builtin_map_set(mo, {key}, o{k})",
        f"acc = acc + deep({rng.choice([10, 100, 250, 260])})",
        f"acc = (0 - 9223372036854775807 - 1) / (i - {c}) + acc % 2",
        f"acc = acc % (i - {c} - 1)",
        f"f = f / 0.0\ns = __builtin_float_to_string(f)",
        f"f = 0.0 - f\nif f < f {{ acc = acc + 1 }}",
        f"s = __builtin_string_slice(s, 0, {c})",
        "if __builtin_string_len(s) < 2000 { s = s ++ s }",
        f"mm = __builtin_map_set(mm, {key}, m)",
        f"match __builtin_map_get(mm, {key}) {{ Some(x) => {{ s = keys_text(x) }}, None => {{ }} }}",
        f"shs = list_push(shs, Sh::Wrap(look(m, {key})))",
    ])


def mixed_program(seed):
    rng = random.Random(seed)
    ret_type, ret = rng.choice(RETURNS)
    body = "\n".join(_stmt(rng, k, 0) for k in range(rng.randint(2, 7)))
    start = rng.choice(["0", "7", "1", "-3", BIG, "-" + BIG])
    return (PRELUDE + f"fn main() -> {ret_type} !{{time.now, random, net.fetch, fs.read, db.query}} {{\n"
            f"let mut acc = {start}\nlet mut f = 0.5\nlet mut s = {rng.choice(TEXTS)}\n"
            "let mut xs = [5, 3, 9]\nlet mut m = map_new()\nlet mut os = [Some(1), None]\n"
            "let mut mo = map_new()\nlet mut p = P { x: 1, y: 2, name: \"p\" }\n"
            "let mut words = [\"w\"]\nlet mut shs = [Sh::Dot]\nlet mut rs = [Ok(1), Err(\"e\")]\n"
            "let mut g = inc\nlet mut i = 0\nlet mut bx = Box { m: map_new(), o: None }\n"
            "let mut ms = [map_new()]\nlet mut mm = map_new()\n"
            f"while i < {rng.randint(1, 25)} {{\n{body}\ni = i + 1\n}}\n{ret}\n}}\n")


# characters for the string builtins: ASCII and Unicode White_Space, characters Python's
# str.isspace/int()/upper() treat differently from the reference, digits of other scripts
CHARS = (list("ab Z09+-_.,|;eE") + [" ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1f",
         "\x85", "\xa0", "\u1680", "\u2000", "\u200a", "\u200b", "\u2028", "\u202f", "\u3000",
         "\ufeff", "\u00e9", "\u00df", "\ufb01", "\u0131", "\u0130", "\U0001f600", "\u0661",
         "\uff11", "\u2212", "\u00b2", "\u01c5", "\u03a3", "\u1e9e", "\u0149"])


def _text(rng, n):
    if rng.random() < 0.3:
        return rng.choice(["12", "-7", "+3", " 42 ", "9223372036854775807",
                           "-9223372036854775808", "9223372036854775808", "0", "-0", "007",
                           "1.5", "1e3", "inf", "NaN", "-", "+", ""]) + "".join(
            rng.choice(CHARS) for _ in range(rng.randint(0, 1)))
    return "".join(rng.choice(CHARS) for _ in range(rng.randint(0, n)))


def strings_program(seed):
    """The string and parse builtins (C fast paths and Python ones) on random text."""
    rng = random.Random(seed)
    lines = ["fn main() -> List<String> {", "let mut out = []"]
    for k in range(rng.randint(1, 4)):
        t, sep = _text(rng, 8), _text(rng, 2)
        lines += [f'let t{k} = "{t}"', f'let p{k} = "{sep}"', f'let w{k} = __builtin_string_split(t{k}, p{k})']
        exprs = [f"__builtin_int_to_string(parse_int(t{k}))",
                 f"match try_parse_int(t{k}) {{ Ok(v) => __builtin_int_to_string(v), Err(e) => e, }}",
                 f"match __builtin_int_parse(t{k}) {{ Some(v) => __builtin_int_to_string(v), None => \"none\", }}",
                 f"match __builtin_float_parse(t{k}) {{ Some(v) => __builtin_float_to_string(v), None => \"none\", }}",
                 f"__builtin_string_trim(t{k})", f"__builtin_string_to_upper(t{k})",
                 f"__builtin_string_to_lower(t{k})",
                 f"__builtin_bool_to_string(__builtin_string_starts_with(t{k}, p{k}))",
                 f"__builtin_bool_to_string(str_starts_with(t{k}, p{k}))",
                 f"__builtin_bool_to_string(__builtin_string_ends_with(t{k}, p{k}))",
                 f"__builtin_bool_to_string(str_contains(t{k}, p{k}))",
                 f"__builtin_string_join(w{k}, \"|\")", f"__builtin_string_join(w{k}, p{k})",
                 f"__builtin_int_to_string(list_len(w{k}))",
                 f"__builtin_string_join(__builtin_string_split(__builtin_string_trim(t{k}), \" \"), p{k})",
                 f"__builtin_string_join(__builtin_string_chars(t{k}), \",\")",
                 f"__builtin_int_to_string(__builtin_string_len(t{k}))",
                 f"__builtin_string_replace(t{k}, p{k}, \"#\")",
                 f"__builtin_string_join([t{k}, p{k}, t{k}], p{k})"]
        for e in rng.sample(exprs, rng.randint(3, len(exprs))):
            lines.append(f"out = list_push(out, {e})")
        if rng.random() < 0.3:
            lines.append(f"for x in w{k} {{ out = list_push(out, __builtin_string_trim(x)) }}")
    if rng.random() < 0.3:
        a, b = rng.randint(0, 6), rng.randint(0, 9)
        lines.append(f'out = list_push(out, __builtin_string_slice("{_text(rng, 8)}", {a}, {b}))')
    lines += ["out", "}"]
    return "\n".join(lines) + "\n"


def strbuild_program(seed):
    """Strings built by appends (`s = s ++ piece`, vm/string_builders.pxi) held in a local, a
    callee's parameter, a record field and an App-style reducer's state, with the String read,
    shared (kept in a list, another local, a map key), appended to itself and met by non-ASCII
    pieces between the appends."""
    rng = random.Random(seed)
    n = rng.randint(1, 300)
    pieces = ['"ab"', '"x"', '"0123456789"', '__builtin_int_to_string(i)', '"' + "q" * 70 + '"',
              '""', '"\u00e9"' if rng.random() < 0.3 else '"e"', "p"]
    holder = rng.choice(["local", "call", "field", "reducer"])
    lines = ["type S { text: String, n: Int }",
             "fn add(s: String, x: String) -> String { s ++ x }",
             "fn upd(st: S, x: String) -> S { S { ..st, text: st.text ++ x, n: st.n + 1 } }",
             "fn main() -> List<String> {",
             "let mut out: List<String> = []", "let mut m: Map<String, Int> = map_new()",
             f'let p = "{_text(rng, 3)}"', 'let mut s = ""', 'let mut st = S { text: "", n: 0 }',
             "let mut i = 0", f"while i < {n} {{"]
    piece = rng.choice(pieces)
    grow = {"local": f"s = s ++ {piece}", "call": f"s = add(s, {piece})",
            "field": f"st = S {{ ..st, text: st.text ++ {piece} }}",
            "reducer": f"st = upd(st, {piece})"}[holder]
    cur = "s" if holder in ("local", "call") else "st.text"
    lines.append(grow)
    extra = [f"if i % {rng.randint(2, 60)} == 0 {{ out = list_push(out, {cur}) }}",
             f"if i % {rng.randint(2, 40)} == 1 {{ m = __builtin_map_set(m, {cur}, i) }}",
             f"if __builtin_map_contains_key(m, {cur}) {{ out = list_push(out, \"hit\") }}",
             f"if __builtin_string_len({cur}) > {rng.randint(50, 400)} {{ out = list_push(out, "
             f"__builtin_string_slice({cur}, 0, 3)) }}",
             f"if i == {rng.randint(0, n)} {{ let t = {cur} out = list_push(out, t ++ \"!\") }}",
             f"if i == {rng.randint(0, n)} && __builtin_string_len({cur}) < 4000 "
             f"{{ {'s = s ++ s' if cur == 's' else 'st = S { ..st, text: st.text ++ st.text }'} }}",
             f"if str_contains({cur}, \"9a\") {{ out = list_push(out, \"9a\") }}"]
    for e in rng.sample(extra, rng.randint(0, len(extra))):
        lines.append(e)
    lines += ["i = i + 1", "}", f"out = list_push(out, {cur})",
              "out = list_push(out, __builtin_int_to_string(__builtin_map_len(m)))", "out", "}"]
    return "\n".join(lines) + "\n"


STATE = ("type St { acc: Int, s: String, xs: List<Int>, m: Map<String, Int>, os: List<Option<Int>>, "
         "mo: Map<String, Option<Int>>, shs: List<Sh>, bx: Box, g: Fn(Int) -> Int }\n")


def app_program(seed):
    """An App-style reducer: `main()` builds a state record, `step(st)` (called again and
    again on the previous result, a host value) runs random statements on its fields."""
    rng = random.Random(seed)
    body = "\n".join(_stmt(rng, k, 0) for k in range(rng.randint(2, 6)))
    fields = ["acc", "s", "xs", "m", "os", "mo", "shs", "bx", "g"]
    pack = "St { " + ", ".join(f"{f}: {f}" for f in fields) + " }"
    return (PRELUDE + STATE + "fn main() -> St {\n"
            f"St {{ acc: {rng.choice(['0', '5', BIG])}, s: {rng.choice(TEXTS)}, xs: [2, 1], "
            "m: fill(3), os: [Some(2), None], mo: map_new(), shs: [Sh::Seg(1)], "
            "bx: Box { m: map_new(), o: Some(1) }, g: dbl }\n}\n"
            "fn step(st: St) -> St !{time.now, random, net.fetch, fs.read, db.query} {\n"
            + "".join(f"let mut {f} = st.{f}\n" for f in fields)
            + "let mut f = 0.5\nlet mut p = P { x: 1, y: 2, name: \"p\" }\nlet mut words = [\"w\"]\n"
            "let mut rs = [Ok(1), Err(\"e\")]\nlet mut ms = [m]\nlet mut mm = map_new()\nlet mut i = 0\n"
            f"while i < {rng.randint(1, 6)} {{\n{body}\ni = i + 1\n}}\n{pack}\n}}\n")


TYPED = {"Int": ["a", "b", "0", "1", "-1", "7", BIG], "Float": ["f", "h", "0.0", "-0.0", "2.5", "100000000000000000000.0"],
         "String": ["s", "\"m\"", "\"\"", "\"\u00e9\""], "Bool": ["t", "true", "false"]}


def _operand(rng, ty):
    if rng.random() < 0.1:
        ty = rng.choice(list(TYPED))      # sometimes the wrong type: the VM's type errors
    return rng.choice(TYPED[ty])


def _tstmt(rng, depth):
    ty = rng.choice(["Int", "Int", "Float", "String", "Bool"])
    v = {"Int": rng.choice("ab"), "Float": rng.choice("fh"), "String": "s", "Bool": "t"}[ty]
    x, y = _operand(rng, ty), _operand(rng, ty)
    kind = rng.randrange(4 if depth < 2 else 2)
    if kind == 0:
        op = {"Int": ["+", "-", "*", "/", "%"], "Float": ["+", "-", "*", "/"],
              "String": ["++"], "Bool": ["&&", "||", "==", "!="]}[ty]
        return f"{v} = {x} {rng.choice(op)} {y}"
    cmp = rng.choice(["<", "<=", ">", ">=", "==", "!="] if ty != "Bool" else ["==", "!="])
    if kind == 1:
        return f"t = {x} {cmp} {y}"
    body = "\n".join(_tstmt(rng, depth + 1) for _ in range(rng.randint(1, 3)))
    if kind == 2:
        return f"if {x} {cmp} {y} {{\n{body}\n}} else {{\nb = b + 1\n}}"
    return (f"let mut w{depth} = 0\nwhile w{depth} < {rng.randint(0, 5)} && {x} {cmp} {y} {{\n{body}\n"
            f"w{depth} = w{depth} + 1\n}}")


def typed_program(seed):
    """Int, Float, String and Bool locals and constants under every operator and comparison
    (the fused compare and arithmetic paths), sometimes on operands of the wrong type."""
    rng = random.Random(seed)
    body = "\n".join(_tstmt(rng, 0) for _ in range(rng.randint(1, 5)))
    return ("fn main() -> String {\n"
            f"let mut a = {rng.choice(['0', '3', BIG, '-' + BIG])}\nlet mut b = -2\n"
            "let mut f = 0.5\nlet mut h = -1.25\nlet mut s = \"q\"\nlet mut t = true\nlet mut i = 0\n"
            f"while i < {rng.randint(1, 20)} {{\n{body}\ni = i + 1\n}}\n"
            "__builtin_int_to_string(a) ++ \" \" ++ __builtin_int_to_string(b) ++ \" \" ++ "
            "__builtin_float_to_string(f) ++ \" \" ++ __builtin_float_to_string(h) ++ \" \" ++ s ++ "
            "\" \" ++ __builtin_bool_to_string(t)\n}\n")


HOST_BODIES = [
    ("Option<Int>", "Int", "match x { Some(v) => v + 1, None => 0, }"),
    ("Option<Int>", "List<Option<Int>>", "[x, x, Some(2)]"),
    ("Result<Int, String>", "Int", "match x { Ok(v) => v * 2, Err(e) => __builtin_string_len(e), }"),
    ("Sh", "Int", "score(x) + score(x)"),
    ("Sh", "Bool", "x == Sh::Seg(5)"),
    ("P", "Int", "x.x + x.y"),
    ("P", "P", "P { ..x, y: 9 }"),
    ("Fn(Int) -> Int", "Int", "x(3) + x(4)"),
    ("List<Int>", "Int", "list_get(x, 1) + list_len(x)"),
    ("List<Int>", "List<Int>", "let mut out = []\nlet mut i = 0\n"
     "while i < list_len(x) { out = list_push(out, list_get(x, i))  i = i + 1 }\nout"),
    ("List<Int>", "Bool", "let mut i = 1\nlet mut up = true\n"
     "while i < list_len(x) { if list_get(x, i - 1) > list_get(x, i) { up = false }  i = i + 1 }\nup"),
    ("List<Int>", "List<Int>", "sort(x)"),
    ("Map<String, Int>", "Int", "__builtin_map_len(x) + match __builtin_map_get(x, \"a\") { Some(v) => v, None => 0, }"),
    ("Map<String, Int>", "Map<String, Int>", "let mut m = x\nm = __builtin_map_set(m, \"0\", 1)\n"
     "m = __builtin_map_remove(m, \"a\")\nm"),
    ("Map<String, Int>", "String", "keys_text(bump(x, \"b\"))"),
    ("Int", "Int", "let mut a = x\nlet mut i = 0\nwhile i < 3 { a = a + 1  i = i + 1 }\na * 2"),
    ("Int", "Bool", "x < 3 && x != 0"),
    ("Int", "Int", "x / -1 + x % 3"),
    ("String", "Int", "parse_int(x) + list_len(__builtin_string_split(x, \",\"))"),
    ("String", "String", "__builtin_string_join(__builtin_string_split(__builtin_string_trim(x), \",\"), \"|\")"),
    ("String", "Bool", "x == \"a,b\" || __builtin_string_starts_with(x, \"\u00e9\")"),
    ("Float", "Float", "x * 2.0 + 1.0"),
    ("Float", "Bool", "x < 1.0"),
    ("Bool", "Int", "if x { 1 } else { 2 }"),
]
HOST_ARGS = ["5", "-1", "2**63-1", "2**63", "-2**63", "-2**63-1", "2**70", "True", "False", "1.5",
             "float('nan')", "'a,b'", "'\u00e9,x'", "''", "(1, 2, 3)", "(3, 1, 2)", "(1, 2**70)",
             "()", "('a',)", "[1, 2]", "Some(5)", "Some(True)", "Some(2**70)", "Some('s')", "NONE",
             "None", "Ok(4)", "Err('bad')", "Ok(2**64)", "Enum(0, 1, 5)", "Enum(0, 0, None)",
             "Enum(0, 3, Some(2))", "Enum(0, 3, NONE)", "Enum(0, 9, 1)", "Enum(5, 1, 1)",
             "Enum(0, 1, (1, 2))", "Enum(0, 2, 'xy')", "Record(1, (1, 2, 'n'))", "Record(1, (1,))",
             "Record(0, (1, 2, 'n'))", "Record(1, (2**70, 1, 'n'))", "MapValue({'a': 1})",
             "MapValue({'a': 2**70})", "{'a': 1}", "MapValue({'b': 'x', 'a': 3})", "FnRef(0)",
             "FnRef(1)", "FnRef(99)", "FnRef(-1)", "ActorId(0)"]


def host_program(seed):
    """A main of one parameter and a host value for it, of its type or (often) of another."""
    rng = random.Random(seed)
    ty, ret, body = rng.choice(HOST_BODIES)
    return (PRELUDE + f"fn main(x: {ty}) -> {ret} {{\n{body}\n}}\n",
            f"({rng.choice(HOST_ARGS)},)")
