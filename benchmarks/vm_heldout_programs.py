"""The held-out VM programs (issue 25): 13 programs in the idioms agents write that the first
suite (vm_suite_programs.py) does not use, each as `.ax` source, the same algorithm in plain
Python, and in Lua (Lua 5.4 and LuaJIT `-joff`; LuaJIT has no `//`, so integer division is
`math.floor(a / b)` on non-negative operands). Written before the VM work of issue 25 and kept
out of its tuning loop (the figures are recorded, the VM was not tuned on them).

Idioms: `for x in xs` with calls through `Fn` parameters (map / filter / fold written as
functions taking functions), map counting with `match map_get` + `map_set` and other map
reads in between, merge sort with `let x = list_get(..)`, `&&` conditions and several
`while` / `list_push` loops, string parsing, JSON-like nested records, recursion over lists,
function values carried with records (closures over records), an App-style reducer holding a
list in its state, tokenising, grids as lists of lists, a queue (BFS), string building.
Programs whose `main` takes a map receive an empty one (maps have no source syntax).
"""

FOLDFN = """fn fold(xs: List<Int>, init: Int, f: Fn(Int, Int) -> Int) -> Int {
    let mut acc = init
    for x in xs { acc = f(acc, x) }
    acc
}
fn map_all(xs: List<Int>, f: Fn(Int) -> Int) -> List<Int> {
    let mut out = []
    for x in xs { out = list_push(out, f(x)) }
    out
}
fn keep(xs: List<Int>, p: Fn(Int) -> Bool) -> List<Int> {
    let mut out = []
    for x in xs { if p(x) { out = list_push(out, x) } }
    out
}
fn add(a: Int, b: Int) -> Int { a + b }
fn sq(x: Int) -> Int { x * x % 1000 }
fn even(x: Int) -> Bool { x % 2 == 0 }
fn main() -> Int {
    let mut xs = []
    let mut i = 0
    while i < 2000 { xs = list_push(xs, i)  i = i + 1 }
    let mut total = 0
    let mut r = 0
    while r < 40 {
        total = total + fold(keep(map_all(xs, sq), even), r, add)
        r = r + 1
    }
    total
}
"""


def _py_fold(xs, init, f):
    acc = init
    for x in xs:
        acc = f(acc, x)
    return acc


def _py_map_all(xs, f):
    out = []
    for x in xs:
        out.append(f(x))
    return out


def _py_keep(xs, p):
    out = []
    for x in xs:
        if p(x):
            out.append(x)
    return out


def _py_add(a, b):
    return a + b


def _py_sq(x):
    return x * x % 1000


def _py_even(x):
    return x % 2 == 0


def py_foldfn():
    xs = list(range(2000))
    total = 0
    for r in range(40):
        total += _py_fold(_py_keep(_py_map_all(xs, _py_sq), _py_even), r, _py_add)
    return total


WORDCOUNT = """fn main(m0: Map<String, Int>) -> Int {
    let words = __builtin_string_split("the cat and the dog and the bird saw a cat by the door", " ")
    let mut m = m0
    let mut seen = 0
    let mut r = 0
    while r < 1500 {
        for w in words {
            let key = w ++ __builtin_int_to_string(r % 20)
            let n = match __builtin_map_get(m, key) { Some(v) => v, None => 0 }
            if __builtin_map_contains_key(m, "the0") { seen = seen + 1 }
            m = __builtin_map_set(m, key, n + 1)
        }
        seen = seen + __builtin_map_len(m)
        r = r + 1
    }
    let mut best = 0
    for k in __builtin_map_keys(m) {
        let c = match __builtin_map_get(m, k) { Some(v) => v, None => 0 }
        if c > best { best = c }
    }
    seen + best
}
"""


def py_wordcount():
    words = "the cat and the dog and the bird saw a cat by the door".split(" ")
    m = {}
    seen = 0
    for r in range(1500):
        for w in words:
            key = w + str(r % 20)
            n = m.get(key, 0)
            if "the0" in m:
                seen += 1
            m[key] = n + 1
        seen += len(m)
    best = 0
    for k in sorted(m):
        if m[k] > best:
            best = m[k]
    return seen + best


MSORT = """fn merge(a: List<Int>, b: List<Int>) -> List<Int> {
    let mut out = []
    let mut i = 0
    let mut j = 0
    let na = list_len(a)
    let nb = list_len(b)
    while i < na && j < nb {
        let x = list_get(a, i)
        let y = list_get(b, j)
        if x <= y { out = list_push(out, x)  i = i + 1 } else { out = list_push(out, y)  j = j + 1 }
    }
    while i < na { out = list_push(out, list_get(a, i))  i = i + 1 }
    while j < nb { out = list_push(out, list_get(b, j))  j = j + 1 }
    out
}
fn sort(xs: List<Int>) -> List<Int> {
    let n = list_len(xs)
    if n < 2 { xs } else {
        let mid = n / 2
        let mut left = []
        let mut right = []
        let mut k = 0
        while k < n {
            let v = list_get(xs, k)
            if k < mid { left = list_push(left, v) } else { right = list_push(right, v) }
            k = k + 1
        }
        merge(sort(left), sort(right))
    }
}
fn main() -> Int {
    let mut xs = []
    let mut seed = 7
    let mut i = 0
    while i < 15000 {
        seed = (seed * 1103 + 12345) % 65521
        xs = list_push(xs, seed)
        i = i + 1
    }
    let s = sort(xs)
    let mut ok = 1
    let mut k = 1
    while k < list_len(s) && ok == 1 {
        if list_get(s, k - 1) > list_get(s, k) { ok = 0 }
        k = k + 1
    }
    ok * (list_get(s, 0) + list_get(s, 7500) + list_get(s, 14999))
}
"""


def _py_merge2(a, b):
    out = []
    i = j = 0
    na, nb = len(a), len(b)
    while i < na and j < nb:
        x = a[i]
        y = b[j]
        if x <= y:
            out.append(x)
            i += 1
        else:
            out.append(y)
            j += 1
    while i < na:
        out.append(a[i])
        i += 1
    while j < nb:
        out.append(b[j])
        j += 1
    return out


def _py_sort2(xs):
    n = len(xs)
    if n < 2:
        return xs
    mid = n // 2
    left, right = [], []
    for k in range(n):
        if k < mid:
            left.append(xs[k])
        else:
            right.append(xs[k])
    return _py_merge2(_py_sort2(left), _py_sort2(right))


def py_msort():
    xs = []
    seed = 7
    for _ in range(15000):
        seed = (seed * 1103 + 12345) % 65521
        xs.append(seed)
    s = _py_sort2(xs)
    ok = 1
    k = 1
    while k < len(s) and ok == 1:
        if s[k - 1] > s[k]:
            ok = 0
        k += 1
    return ok * (s[0] + s[7500] + s[14999])


CSV = """fn main() -> Int {
    let mut lines = []
    let mut i = 0
    while i < 3000 {
        lines = list_push(lines, "id" ++ __builtin_int_to_string(i) ++ ";" ++ __builtin_int_to_string(i % 97)
                          ++ "; " ++ __builtin_int_to_string(i * 3 % 1000) ++ " ;ok")
        i = i + 1
    }
    let text = __builtin_string_join(lines, "\\n")
    let mut total = 0
    let mut r = 0
    while r < 5 {
        for line in __builtin_string_split(text, "\\n") {
            let cols = __builtin_string_split(line, ";")
            if list_len(cols) == 4 && str_starts_with(list_get(cols, 0), "id") {
                total = total + parse_int(list_get(cols, 1)) + parse_int(__builtin_string_trim(list_get(cols, 2)))
                if __builtin_string_trim(list_get(cols, 3)) == "ok" { total = total + 1 }
            }
        }
        r = r + 1
    }
    total
}
"""


def py_csv():
    lines = []
    for i in range(3000):
        lines.append("id" + str(i) + ";" + str(i % 97) + "; " + str(i * 3 % 1000) + " ;ok")
    text = "\n".join(lines)
    total = 0
    for _ in range(5):
        for line in text.split("\n"):
            cols = line.split(";")
            if len(cols) == 4 and cols[0].startswith("id"):
                total += int(cols[1]) + int(cols[2].strip())
                if cols[3].strip() == "ok":
                    total += 1
    return total


JSONREC = """type Addr { city: String, zip: Int }
type User { name: String, age: Int, addr: Addr, tags: List<String> }
fn make(i: Int) -> User {
    let mut tags = ["t" ++ __builtin_int_to_string(i % 5)]
    if i % 3 == 0 { tags = list_push(tags, "admin") }
    User { name: "u" ++ __builtin_int_to_string(i), age: 18 + i % 50,
           addr: Addr { city: if i % 2 == 0 { "Oslo" } else { "Rome" }, zip: 1000 + i % 900 },
           tags: tags }
}
fn score(u: User) -> Int {
    let mut s = u.age
    if u.addr.city == "Oslo" { s = s + u.addr.zip % 10 }
    for t in u.tags { if t == "admin" { s = s + 100 } }
    s + __builtin_string_len(u.name)
}
fn main() -> Int {
    let mut users = []
    let mut i = 0
    while i < 4000 { users = list_push(users, make(i))  i = i + 1 }
    let mut total = 0
    let mut r = 0
    while r < 10 {
        for u in users { total = total + score(u) }
        r = r + 1
    }
    total
}
"""


def _py_make(i):
    tags = ["t" + str(i % 5)]
    if i % 3 == 0:
        tags.append("admin")
    return {"name": "u" + str(i), "age": 18 + i % 50,
            "addr": {"city": "Oslo" if i % 2 == 0 else "Rome", "zip": 1000 + i % 900},
            "tags": tags}


def _py_score(u):
    s = u["age"]
    if u["addr"]["city"] == "Oslo":
        s += u["addr"]["zip"] % 10
    for t in u["tags"]:
        if t == "admin":
            s += 100
    return s + len(u["name"])


def py_jsonrec():
    users = [_py_make(i) for i in range(4000)]
    total = 0
    for _ in range(10):
        for u in users:
            total += _py_score(u)
    return total


RECSUM = """fn total(xs: List<Int>, lo: Int, hi: Int) -> Int {
    if hi - lo <= 4 {
        let mut s = 0
        let mut i = lo
        while i < hi { s = s + list_get(xs, i)  i = i + 1 }
        s
    } else {
        let mid = (lo + hi) / 2
        total(xs, lo, mid) + total(xs, mid, hi)
    }
}
fn count_max(xs: List<Int>, i: Int, best: Int) -> Int {
    if i >= list_len(xs) { best } else {
        let x = list_get(xs, i)
        count_max(xs, i + 1, if x > best { x } else { best })
    }
}
fn main() -> Int {
    let mut xs = []
    let mut i = 0
    while i < 5000 { xs = list_push(xs, (i * 37) % 1001)  i = i + 1 }
    let mut acc = 0
    let mut r = 0
    while r < 60 {
        acc = acc + total(xs, 0, list_len(xs)) + count_max(list_push([], r), 0, 0)
        r = r + 1
    }
    acc
}
"""


def _py_total(xs, lo, hi):
    if hi - lo <= 4:
        s = 0
        for i in range(lo, hi):
            s += xs[i]
        return s
    mid = (lo + hi) // 2
    return _py_total(xs, lo, mid) + _py_total(xs, mid, hi)


def _py_count_max(xs, i, best):
    if i >= len(xs):
        return best
    x = xs[i]
    return _py_count_max(xs, i + 1, x if x > best else best)


def py_recsum():
    xs = [(i * 37) % 1001 for i in range(5000)]
    acc = 0
    for r in range(60):
        acc += _py_total(xs, 0, len(xs)) + _py_count_max([r], 0, 0)
    return acc


CLOSREC = """type Cfg { scale: Int, offset: Int, limit: Int }
type Op { cfg: Cfg, f: Fn(Cfg, Int) -> Int }
fn lin(c: Cfg, x: Int) -> Int { x * c.scale + c.offset }
fn clamp(c: Cfg, x: Int) -> Int { if x > c.limit { c.limit } else { x } }
fn run(ops: List<Op>, x: Int) -> Int {
    let mut v = x
    for op in ops {
        let f = op.f
        v = f(op.cfg, v)
    }
    v
}
fn main() -> Int {
    let ops = [Op { cfg: Cfg { scale: 3, offset: 1, limit: 0 }, f: lin },
               Op { cfg: Cfg { scale: 1, offset: 0, limit: 5000 }, f: clamp },
               Op { cfg: Cfg { scale: 2, offset: -7, limit: 0 }, f: lin }]
    let mut total = 0
    let mut i = 0
    while i < 60000 {
        total = total + run(ops, i % 3000)
        i = i + 1
    }
    total
}
"""


def _py_lin(c, x):
    return x * c["scale"] + c["offset"]


def _py_clamp(c, x):
    return c["limit"] if x > c["limit"] else x


def _py_run(ops, x):
    v = x
    for op in ops:
        f = op["f"]
        v = f(op["cfg"], v)
    return v


def py_closrec():
    ops = [{"cfg": {"scale": 3, "offset": 1, "limit": 0}, "f": _py_lin},
           {"cfg": {"scale": 1, "offset": 0, "limit": 5000}, "f": _py_clamp},
           {"cfg": {"scale": 2, "offset": -7, "limit": 0}, "f": _py_lin}]
    total = 0
    for i in range(60000):
        total += _py_run(ops, i % 3000)
    return total


APPLIST = """type State { items: List<Int>, total: Int, last: String }
enum Msg { Add(Int), Double, Clear }
fn update(s: State, m: Msg) -> State {
    match m {
        Add(n) => State { ..s, items: list_push(s.items, n), total: s.total + n },
        Double => State { ..s, total: s.total * 2 % 1000003, last: "double" },
        Clear => State { items: [], total: s.total, last: "clear" },
    }
}
fn main() -> Int {
    let mut s = State { items: [], total: 0, last: "" }
    let mut i = 0
    while i < 60000 {
        let m = if i % 1000 == 999 { Msg::Clear } else { if i % 7 == 0 { Msg::Double } else { Msg::Add(i % 100) } }
        s = update(s, m)
        i = i + 1
    }
    s.total + list_len(s.items)
}
"""


def _py_app_update(s, m):
    tag, n = m
    if tag == "add":
        return {"items": _py_push(s["items"], n), "total": s["total"] + n, "last": s["last"]}
    if tag == "double":
        return {"items": s["items"], "total": s["total"] * 2 % 1000003, "last": "double"}
    return {"items": [], "total": s["total"], "last": "clear"}


def _py_push(items, n):
    items.append(n)
    return items


def py_applist():
    s = {"items": [], "total": 0, "last": ""}
    for i in range(60000):
        if i % 1000 == 999:
            m = ("clear", 0)
        elif i % 7 == 0:
            m = ("double", 0)
        else:
            m = ("add", i % 100)
        s = _py_app_update(s, m)
    return s["total"] + len(s["items"])


TOKENS = """fn is_digit(c: String) -> Bool { c >= "0" && c <= "9" }
fn main() -> Int {
    let src = "let x1 = 42 + y * (17 - 3) ; z = x1 * 2 + 100 ; "
    let mut text = ""
    let mut r = 0
    while r < 60 { text = text ++ src  r = r + 1 }
    let mut total = 0
    let mut pass = 0
    while pass < 6 {
        let mut num = 0
        let mut in_num = false
        let mut idents = 0
        for c in __builtin_string_chars(text) {
            if is_digit(c) {
                num = num * 10 + parse_int(c)
                in_num = true
            } else {
                if in_num { total = total + num  num = 0  in_num = false }
                if c >= "a" && c <= "z" { idents = idents + 1 }
            }
        }
        total = total + num + idents
        pass = pass + 1
    }
    total
}
"""


def py_tokens():
    src = "let x1 = 42 + y * (17 - 3) ; z = x1 * 2 + 100 ; "
    text = ""
    for _ in range(60):
        text = text + src
    total = 0
    for _ in range(6):
        num = 0
        in_num = False
        idents = 0
        for c in list(text):
            if "0" <= c <= "9":
                num = num * 10 + int(c)
                in_num = True
            else:
                if in_num:
                    total += num
                    num = 0
                    in_num = False
                if "a" <= c <= "z":
                    idents += 1
        total += num + idents
    return total


GRID = """fn make(n: Int, seed: Int) -> List<List<Int>> {
    let mut rows = []
    let mut i = 0
    while i < n {
        let mut row = []
        let mut j = 0
        while j < n { row = list_push(row, (i * seed + j * 7) % 10)  j = j + 1 }
        rows = list_push(rows, row)
        i = i + 1
    }
    rows
}
fn mul(a: List<List<Int>>, b: List<List<Int>>, n: Int) -> List<List<Int>> {
    let mut out = []
    let mut i = 0
    while i < n {
        let ra = list_get(a, i)
        let mut row = []
        let mut j = 0
        while j < n {
            let mut s = 0
            let mut k = 0
            while k < n { s = s + list_get(ra, k) * list_get(list_get(b, k), j)  k = k + 1 }
            row = list_push(row, s % 1000)
            j = j + 1
        }
        out = list_push(out, row)
        i = i + 1
    }
    out
}
fn main() -> Int {
    let n = 40
    let c = mul(make(n, 3), make(n, 5), n)
    let mut t = 0
    for row in c { for x in row { t = t + x } }
    t
}
"""


def _py_gmake(n, seed):
    return [[(i * seed + j * 7) % 10 for j in range(n)] for i in range(n)]


def py_grid():
    n = 40
    a, b = _py_gmake(n, 3), _py_gmake(n, 5)
    out = []
    for i in range(n):
        ra = a[i]
        row = []
        for j in range(n):
            s = 0
            for k in range(n):
                s += ra[k] * b[k][j]
            row.append(s % 1000)
        out.append(row)
    t = 0
    for row in out:
        for x in row:
            t += x
    return t


BFS = """fn key(n: Int) -> String { __builtin_int_to_string(n) }
fn main(m0: Map<String, Int>) -> Int {
    let w = 90
    let mut seen = __builtin_map_set(m0, "0", 0)
    let mut queue = [0]
    let mut head = 0
    let mut far = 0
    while head < list_len(queue) {
        let cur = list_get(queue, head)
        head = head + 1
        let d = match __builtin_map_get(seen, key(cur)) { Some(v) => v, None => 0 }
        if d > far { far = d }
        let x = cur % w
        let y = cur / w
        let mut k = 0
        while k < 4 {
            let nx = if k == 0 { x + 1 } else { if k == 1 { x - 1 } else { x } }
            let ny = if k == 2 { y + 1 } else { if k == 3 { y - 1 } else { y } }
            let nxt = ny * w + nx
            if nx >= 0 && nx < w && ny >= 0 && ny < w && (nxt % 7 != 3 || nxt % w == 0) {
                if !__builtin_map_contains_key(seen, key(nxt)) {
                    seen = __builtin_map_set(seen, key(nxt), d + 1)
                    queue = list_push(queue, nxt)
                }
            }
            k = k + 1
        }
    }
    list_len(queue) * 1000 + far + __builtin_map_len(seen)
}
"""


def py_bfs():
    w = 90
    seen = {"0": 0}
    queue = [0]
    head = 0
    far = 0
    while head < len(queue):
        cur = queue[head]
        head += 1
        d = seen.get(str(cur), 0)
        if d > far:
            far = d
        x = cur % w
        y = cur // w
        for k in range(4):
            nx = x + 1 if k == 0 else (x - 1 if k == 1 else x)
            ny = y + 1 if k == 2 else (y - 1 if k == 3 else y)
            nxt = ny * w + nx
            if 0 <= nx < w and 0 <= ny < w and (nxt % 7 != 3 or nxt % w == 0):
                if str(nxt) not in seen:
                    seen[str(nxt)] = d + 1
                    queue.append(nxt)
    return len(queue) * 1000 + far + len(seen)


STRJOIN = """fn render(xs: List<Int>) -> String {
    let mut parts = []
    for x in xs {
        if x % 3 == 0 { parts = list_push(parts, "<" ++ __builtin_int_to_string(x) ++ ">") }
        else { parts = list_push(parts, __builtin_int_to_string(x)) }
    }
    "[" ++ __builtin_string_join(parts, ", ") ++ "]"
}
fn main() -> Int {
    let mut xs = []
    let mut i = 0
    while i < 300 { xs = list_push(xs, i * 11 % 500)  i = i + 1 }
    let mut total = 0
    let mut r = 0
    while r < 200 {
        let s = render(xs)
        total = total + __builtin_string_len(s)
        if __builtin_string_contains(s, "<99>") { total = total + 1 }
        r = r + 1
    }
    total
}
"""


def _py_render(xs):
    parts = []
    for x in xs:
        if x % 3 == 0:
            parts.append("<" + str(x) + ">")
        else:
            parts.append(str(x))
    return "[" + ", ".join(parts) + "]"


def py_strjoin():
    xs = [i * 11 % 500 for i in range(300)]
    total = 0
    for _ in range(200):
        s = _py_render(xs)
        total += len(s)
        if "<99>" in s:
            total += 1
    return total


HISTO = """enum Ev { Click(Int), Key(String), Tick }
fn classify(e: Ev) -> String {
    match e {
        Click(x) => if x > 50 { "right" } else { "left" },
        Key(k) => "key:" ++ k,
        Tick => "tick",
    }
}
fn count_if(evs: List<Ev>, p: Fn(Ev) -> Bool) -> Int {
    let mut n = 0
    for e in evs { if p(e) { n = n + 1 } }
    n
}
fn is_click(e: Ev) -> Bool { match e { Click(_) => true, _ => false } }
fn main(m0: Map<String, Int>) -> Int {
    let mut evs = []
    let mut i = 0
    while i < 3000 {
        let e = if i % 5 == 0 { Ev::Tick } else { if i % 5 == 1 { Ev::Key(if i % 2 == 0 { "a" } else { "b" }) } else { Ev::Click(i % 100) } }
        evs = list_push(evs, e)
        i = i + 1
    }
    let mut hist = m0
    let mut r = 0
    let mut clicks = 0
    while r < 8 {
        for e in evs {
            let k = classify(e)
            hist = __builtin_map_set(hist, k, match __builtin_map_get(hist, k) { Some(v) => v + 1, None => 1 })
        }
        clicks = clicks + count_if(evs, is_click)
        r = r + 1
    }
    let mut t = clicks
    for v in __builtin_map_values(hist) { t = t * 7 % 1000003 + v }
    t
}
"""


def _py_classify(e):
    tag, x = e
    if tag == "click":
        return "right" if x > 50 else "left"
    if tag == "key":
        return "key:" + x
    return "tick"


def _py_is_click(e):
    return e[0] == "click"


def _py_count_if(evs, p):
    n = 0
    for e in evs:
        if p(e):
            n += 1
    return n


def py_histo():
    evs = []
    for i in range(3000):
        if i % 5 == 0:
            e = ("tick", None)
        elif i % 5 == 1:
            e = ("key", "a" if i % 2 == 0 else "b")
        else:
            e = ("click", i % 100)
        evs.append(e)
    hist = {}
    clicks = 0
    for _ in range(8):
        for e in evs:
            k = _py_classify(e)
            hist[k] = hist.get(k, 0) + 1
        clicks += _py_count_if(evs, _py_is_click)
    t = clicks
    for k in sorted(hist):
        t = t * 7 % 1000003 + hist[k]
    return t


LUA = {
    "foldfn": """local function fold(xs, init, f) local acc = init for _, x in ipairs(xs) do acc = f(acc, x) end return acc end
local function map_all(xs, f) local out = {} for _, x in ipairs(xs) do out[#out + 1] = f(x) end return out end
local function keep(xs, p) local out = {} for _, x in ipairs(xs) do if p(x) then out[#out + 1] = x end end return out end
local function add(a, b) return a + b end
local function sq(x) return x * x % 1000 end
local function even(x) return x % 2 == 0 end
local xs = {} for i = 0, 1999 do xs[#xs + 1] = i end
local total = 0
for r = 0, 39 do total = total + fold(keep(map_all(xs, sq), even), r, add) end
print(total)""",
    "wordcount": """local words = {} for w in ("the cat and the dog and the bird saw a cat by the door"):gmatch("%S+") do words[#words + 1] = w end
local m, n_keys, seen = {}, 0, 0
for r = 0, 1499 do
  for _, w in ipairs(words) do
    local key = w .. tostring(r % 20)
    local n = m[key] or 0
    if m["the0"] ~= nil then seen = seen + 1 end
    if m[key] == nil then n_keys = n_keys + 1 end
    m[key] = n + 1
  end
  seen = seen + n_keys
end
local best = 0
for _, c in pairs(m) do if c > best then best = c end end
print(seen + best)""",
    "msort": """local function merge(a, b) local out, i, j, na, nb = {}, 0, 0, #a, #b
  while i < na and j < nb do local x, y = a[i + 1], b[j + 1]
    if x <= y then out[#out + 1] = x i = i + 1 else out[#out + 1] = y j = j + 1 end end
  while i < na do out[#out + 1] = a[i + 1] i = i + 1 end
  while j < nb do out[#out + 1] = b[j + 1] j = j + 1 end
  return out end
local function sort(xs) local n = #xs if n < 2 then return xs end
  local mid = math.floor(n / 2) local left, right = {}, {}
  for k = 0, n - 1 do local v = xs[k + 1] if k < mid then left[#left + 1] = v else right[#right + 1] = v end end
  return merge(sort(left), sort(right)) end
local xs, seed = {}, 7
for i = 1, 15000 do seed = (seed * 1103 + 12345) % 65521 xs[#xs + 1] = seed end
local s = sort(xs)
local ok, k = 1, 1
while k < #s and ok == 1 do if s[k] > s[k + 1] then ok = 0 end k = k + 1 end
print(ok * (s[1] + s[7501] + s[15000]))""",
    "csv": """local lines = {}
for i = 0, 2999 do lines[#lines + 1] = "id" .. tostring(i) .. ";" .. tostring(i % 97) .. "; " .. tostring(i * 3 % 1000) .. " ;ok" end
local text = table.concat(lines, "\\n")
local function split(s, sep) local out, start = {}, 1
  while true do local a = string.find(s, sep, start, true)
    if not a then out[#out + 1] = string.sub(s, start) return out end
    out[#out + 1] = string.sub(s, start, a - 1) start = a + #sep end end
local function trim(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end
local total = 0
for r = 1, 5 do
  for _, line in ipairs(split(text, "\\n")) do
    local cols = split(line, ";")
    if #cols == 4 and string.sub(cols[1], 1, 2) == "id" then
      total = total + tonumber(cols[2]) + tonumber(trim(cols[3]))
      if trim(cols[4]) == "ok" then total = total + 1 end
    end
  end
end
print(total)""",
    "jsonrec": """local function make(i)
  local tags = {"t" .. tostring(i % 5)}
  if i % 3 == 0 then tags[#tags + 1] = "admin" end
  return {name = "u" .. tostring(i), age = 18 + i % 50,
          addr = {city = (i % 2 == 0) and "Oslo" or "Rome", zip = 1000 + i % 900}, tags = tags} end
local function score(u) local s = u.age
  if u.addr.city == "Oslo" then s = s + u.addr.zip % 10 end
  for _, t in ipairs(u.tags) do if t == "admin" then s = s + 100 end end
  return s + #u.name end
local users = {} for i = 0, 3999 do users[#users + 1] = make(i) end
local total = 0
for r = 1, 10 do for _, u in ipairs(users) do total = total + score(u) end end
print(total)""",
    "recsum": """local function total(xs, lo, hi)
  if hi - lo <= 4 then local s = 0 for i = lo, hi - 1 do s = s + xs[i + 1] end return s end
  local mid = math.floor((lo + hi) / 2)
  return total(xs, lo, mid) + total(xs, mid, hi) end
local function count_max(xs, i, best)
  if i >= #xs then return best end
  local x = xs[i + 1]
  return count_max(xs, i + 1, (x > best) and x or best) end
local xs = {} for i = 0, 4999 do xs[#xs + 1] = (i * 37) % 1001 end
local acc = 0
for r = 0, 59 do acc = acc + total(xs, 0, #xs) + count_max({r}, 0, 0) end
print(acc)""",
    "closrec": """local function lin(c, x) return x * c.scale + c.offset end
local function clamp(c, x) if x > c.limit then return c.limit end return x end
local function run(ops, x) local v = x for _, op in ipairs(ops) do local f = op.f v = f(op.cfg, v) end return v end
local ops = {{cfg = {scale = 3, offset = 1, limit = 0}, f = lin},
             {cfg = {scale = 1, offset = 0, limit = 5000}, f = clamp},
             {cfg = {scale = 2, offset = -7, limit = 0}, f = lin}}
local total = 0
for i = 0, 59999 do total = total + run(ops, i % 3000) end
print(total)""",
    "applist": """local function update(s, tag, n)
  if tag == "add" then s.items[#s.items + 1] = n return {items = s.items, total = s.total + n, last = s.last} end
  if tag == "double" then return {items = s.items, total = s.total * 2 % 1000003, last = "double"} end
  return {items = {}, total = s.total, last = "clear"} end
local s = {items = {}, total = 0, last = ""}
for i = 0, 59999 do
  if i % 1000 == 999 then s = update(s, "clear", 0)
  elseif i % 7 == 0 then s = update(s, "double", 0)
  else s = update(s, "add", i % 100) end
end
print(s.total + #s.items)""",
    "tokens": """local src = "let x1 = 42 + y * (17 - 3) ; z = x1 * 2 + 100 ; "
local text = "" for r = 1, 60 do text = text .. src end
local total = 0
for pass = 1, 6 do
  local num, in_num, idents = 0, false, 0
  for i = 1, #text do local c = string.sub(text, i, i)
    if c >= "0" and c <= "9" then num = num * 10 + tonumber(c) in_num = true
    else
      if in_num then total = total + num num = 0 in_num = false end
      if c >= "a" and c <= "z" then idents = idents + 1 end
    end
  end
  total = total + num + idents
end
print(total)""",
    "grid": """local function make(n, seed) local rows = {}
  for i = 0, n - 1 do local row = {} for j = 0, n - 1 do row[#row + 1] = (i * seed + j * 7) % 10 end rows[#rows + 1] = row end
  return rows end
local n = 40
local a, b = make(n, 3), make(n, 5)
local out = {}
for i = 1, n do local ra, row = a[i], {}
  for j = 1, n do local s = 0 for k = 1, n do s = s + ra[k] * b[k][j] end row[#row + 1] = s % 1000 end
  out[#out + 1] = row end
local t = 0
for _, row in ipairs(out) do for _, x in ipairs(row) do t = t + x end end
print(t)""",
    "bfs": """local w = 90
local seen, nseen = {["0"] = 0}, 1
local queue, head, far = {0}, 0, 0
while head < #queue do
  local cur = queue[head + 1] head = head + 1
  local d = seen[tostring(cur)] or 0
  if d > far then far = d end
  local x, y = cur % w, math.floor(cur / w)
  for k = 0, 3 do
    local nx = (k == 0) and x + 1 or ((k == 1) and x - 1 or x)
    local ny = (k == 2) and y + 1 or ((k == 3) and y - 1 or y)
    local nxt = ny * w + nx
    if nx >= 0 and nx < w and ny >= 0 and ny < w and (nxt % 7 ~= 3 or nxt % w == 0) then
      if seen[tostring(nxt)] == nil then seen[tostring(nxt)] = d + 1 nseen = nseen + 1 queue[#queue + 1] = nxt end
    end
  end
end
print(#queue * 1000 + far + nseen)""",
    "strjoin": """local function render(xs) local parts = {}
  for _, x in ipairs(xs) do
    if x % 3 == 0 then parts[#parts + 1] = "<" .. tostring(x) .. ">" else parts[#parts + 1] = tostring(x) end end
  return "[" .. table.concat(parts, ", ") .. "]" end
local xs = {} for i = 0, 299 do xs[#xs + 1] = i * 11 % 500 end
local total = 0
for r = 1, 200 do local s = render(xs) total = total + #s
  if string.find(s, "<99>", 1, true) then total = total + 1 end end
print(total)""",
    "histo": """local function classify(e)
  if e[1] == "click" then if e[2] > 50 then return "right" end return "left" end
  if e[1] == "key" then return "key:" .. e[2] end
  return "tick" end
local function is_click(e) return e[1] == "click" end
local function count_if(evs, p) local n = 0 for _, e in ipairs(evs) do if p(e) then n = n + 1 end end return n end
local evs = {}
for i = 0, 2999 do
  if i % 5 == 0 then evs[#evs + 1] = {"tick"}
  elseif i % 5 == 1 then evs[#evs + 1] = {"key", (i % 2 == 0) and "a" or "b"}
  else evs[#evs + 1] = {"click", i % 100} end
end
local hist, clicks = {}, 0
for r = 1, 8 do
  for _, e in ipairs(evs) do local k = classify(e) hist[k] = (hist[k] or 0) + 1 end
  clicks = clicks + count_if(evs, is_click)
end
local keys = {} for k in pairs(hist) do keys[#keys + 1] = k end table.sort(keys)
local t = clicks
for _, k in ipairs(keys) do t = t * 7 % 1000003 + hist[k] end
print(t)""",
}

# name -> (.ax source, Python function, whether main takes an empty map)
SUITE = {
    "foldfn": (FOLDFN, py_foldfn, False),
    "wordcount": (WORDCOUNT, py_wordcount, True),
    "msort": (MSORT, py_msort, False),
    "csv": (CSV, py_csv, False),
    "jsonrec": (JSONREC, py_jsonrec, False),
    "recsum": (RECSUM, py_recsum, False),
    "closrec": (CLOSREC, py_closrec, False),
    "applist": (APPLIST, py_applist, False),
    "tokens": (TOKENS, py_tokens, False),
    "grid": (GRID, py_grid, False),
    "bfs": (BFS, py_bfs, True),
    "strjoin": (STRJOIN, py_strjoin, False),
    "histo": (HISTO, py_histo, True),
}
