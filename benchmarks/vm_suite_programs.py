"""The 13 programs of the VM benchmark suite (issue 11), each as `.ax` source, the same
algorithm in plain Python, and in Lua (run by Lua 5.4 and LuaJIT `-joff` when present).

Maps have no source syntax, so the map program takes an empty map as `main`'s argument
(`ARGS`); every other program runs `main()`.
"""

FIB = """fn fib(n: Int) -> Int {
    if n < 2 { n } else { fib(n - 1) + fib(n - 2) }
}
fn main() -> Int { fib(27) }
"""

LOOP = """fn main() -> Int {
    let mut acc = 0
    let mut i = 0
    while i < 3000000 {
        acc = acc + i % 7
        i = i + 1
    }
    acc
}
"""

RECORDS = """type P { x: Int, y: Int }
fn step(p: P, k: Int) -> P {
    P { x: p.y + k, y: p.x }
}
fn main() -> Int {
    let mut p = P { x: 0, y: 0 }
    let mut i = 0
    while i < 500000 {
        p = step(p, i % 3)
        i = i + 1
    }
    p.x + p.y
}
"""

STRINGS = """fn main() -> Int {
    let mut total = 0
    let mut i = 0
    while i < 200000 {
        let s = __builtin_int_to_string(i) ++ "x"
        total = total + __builtin_string_len(s)
        i = i + 1
    }
    total
}
"""

INTERP = """enum Ins { Push(Int), Add, Dec, JmpNz(Int), Halt }
fn exec(code: List<Ins>, n: Int) -> Int {
    let mut pc = 0
    let mut a = n
    let mut acc = 0
    let mut running = true
    while running {
        match list_get(code, pc) {
            Push(v) => { acc = acc + v  pc = pc + 1 },
            Add => { acc = acc + a  pc = pc + 1 },
            Dec => { a = a - 1  pc = pc + 1 },
            JmpNz(t) => { if a != 0 { pc = t } else { pc = pc + 1 } },
            Halt => { running = false },
            _ => { running = false },
        }
    }
    acc
}
fn main() -> Int {
    let code = [Ins::Push(1), Ins::Add, Ins::Dec, Ins::JmpNz(0), Ins::Halt]
    exec(code, 100000)
}
"""

# Primes below 60,000 by trial division against the list of primes found so far.
SIEVE = """fn main() -> Int {
    let mut primes = []
    let mut n = 2
    while n < 60000 {
        let mut j = 0
        let mut prime = true
        let count = list_len(primes)
        while j < count {
            let p = list_get(primes, j)
            if p * p > n { j = count } else {
                if n % p == 0 { prime = false  j = count } else { j = j + 1 }
            }
        }
        if prime { primes = list_push(primes, n) }
        n = n + 1
    }
    list_len(primes)
}
"""

MERGESORT = """fn slice(xs: List<Int>, lo: Int, hi: Int) -> List<Int> {
    let mut out = []
    let mut i = lo
    while i < hi { out = list_push(out, list_get(xs, i))  i = i + 1 }
    out
}
fn merge(a: List<Int>, b: List<Int>) -> List<Int> {
    let mut out = []
    let mut i = 0
    let mut j = 0
    let na = list_len(a)
    let nb = list_len(b)
    while i < na || j < nb {
        let take_a = if j >= nb { true } else { if i >= na { false } else { list_get(a, i) <= list_get(b, j) } }
        if take_a {
            out = list_push(out, list_get(a, i))
            i = i + 1
        } else {
            out = list_push(out, list_get(b, j))
            j = j + 1
        }
    }
    out
}
fn sort(xs: List<Int>) -> List<Int> {
    let n = list_len(xs)
    if n < 2 { xs } else {
        let mid = n / 2
        merge(sort(slice(xs, 0, mid)), sort(slice(xs, mid, n)))
    }
}
fn main() -> Int {
    let mut xs = []
    let mut seed = 12345
    let mut i = 0
    while i < 20000 {
        seed = (seed * 75 + 74) % 65537
        xs = list_push(xs, seed % 100000)
        i = i + 1
    }
    let s = sort(xs)
    list_get(s, 0) + list_get(s, 9999) + list_get(s, 19999)
}
"""

STRBUILD = """fn main() -> Int {
    let mut total = 0
    let mut i = 0
    while i < 20000 {
        let line = __builtin_int_to_string(i) ++ ",x" ++ __builtin_int_to_string(i % 10) ++ ", 7 "
        let parts = __builtin_string_split(line, ",")
        let joined = __builtin_string_join(parts, ";")
        if str_starts_with(list_get(parts, 1), "x") {
            total = total + parse_int(list_get(parts, 2)) + parse_int(list_get(parts, 0))
        }
        total = total + __builtin_string_len(joined)
        i = i + 1
    }
    total
}
"""

REDUCER = """type State { count: Int, total: Int, last: String }
type Msg { tag: String, payload: Int }
fn update(state: State, msg: Msg) -> State {
    match msg.tag {
        "add" => State { count: state.count + 1, total: state.total + msg.payload, last: msg.tag },
        "sub" => State { count: state.count + 1, total: state.total - msg.payload, last: msg.tag },
        "reset" => State { count: state.count + 1, total: 0, last: msg.tag },
        _ => state,
    }
}
fn main() -> Int {
    let mut s = State { count: 0, total: 0, last: "" }
    let mut i = 0
    while i < 200000 {
        let k = i % 10
        let tag = if k == 9 { "reset" } else { if k % 2 == 0 { "add" } else { "sub" } }
        s = update(s, Msg { tag: tag, payload: i % 13 })
        i = i + 1
    }
    s.count + s.total
}
"""

MAPS = """fn main(m0: Map<String, Int>) -> Int {
    let mut m = m0
    let mut i = 0
    let mut total = 0
    while i < 20000 {
        let key = "k" ++ __builtin_int_to_string(i % 200)
        let old = match __builtin_map_get(m, key) { Some(v) => v, None => 0 }
        m = __builtin_map_set(m, key, old + i)
        if i % 7 == 0 { m = __builtin_map_remove(m, "k" ++ __builtin_int_to_string(i % 50)) }
        if __builtin_map_contains_key(m, "k3") { total = total + 1 }
        i = i + 1
    }
    total + __builtin_map_len(m)
}
"""

FNVALUES = """fn inc(x: Int) -> Int { x + 1 }
fn dbl(x: Int) -> Int { x * 2 }
fn is_odd(x: Int) -> Bool { x % 2 == 1 }
fn map_list(xs: List<Int>, f: Fn(Int) -> Int) -> List<Int> {
    let mut out = []
    let mut i = 0
    let n = list_len(xs)
    while i < n { out = list_push(out, f(list_get(xs, i)))  i = i + 1 }
    out
}
fn filter_list(xs: List<Int>, p: Fn(Int) -> Bool) -> List<Int> {
    let mut out = []
    let mut i = 0
    let n = list_len(xs)
    while i < n {
        let x = list_get(xs, i)
        if p(x) { out = list_push(out, x) }
        i = i + 1
    }
    out
}
fn main() -> Int {
    let mut xs = []
    let mut i = 0
    while i < 1000 { xs = list_push(xs, i)  i = i + 1 }
    let mut total = 0
    let mut r = 0
    while r < 100 {
        let ys = filter_list(map_list(map_list(xs, inc), dbl), is_odd)
        let zs = filter_list(map_list(xs, inc), is_odd)
        total = total + list_len(ys) + list_len(zs)
        r = r + 1
    }
    total
}
"""

MANDEL = """fn main() -> Int {
    let mut count = 0
    let mut y = -1.2
    while y < 1.2 {
        let mut x = -2.0
        while x < 0.6 {
            let mut zr = 0.0
            let mut zi = 0.0
            let mut k = 0
            while k < 50 && zr * zr + zi * zi < 4.0 {
                let t = zr * zr - zi * zi + x
                zi = 2.0 * zr * zi + y
                zr = t
                k = k + 1
            }
            if k == 50 { count = count + 1 }
            x = x + 0.04
        }
        y = y + 0.04
    }
    count
}
"""

ACK = """fn ack(m: Int, n: Int) -> Int {
    if m == 0 { n + 1 } else {
        if n == 0 { ack(m - 1, 1) } else { ack(m - 1, ack(m, n - 1)) }
    }
}
fn main() -> Int {
    let mut total = 0
    let mut r = 0
    while r < 30 { total = total + ack(2, 100) + ack(3, 4)  r = r + 1 }
    total
}
"""


# ---------------------------------------------------------------- the same algorithms in Python

def py_fib(n=27):
    return n if n < 2 else py_fib(n - 1) + py_fib(n - 2)


def py_loop():
    acc = 0
    i = 0
    while i < 3000000:
        acc = acc + i % 7
        i = i + 1
    return acc


class _P:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


def _py_step(p, k):
    return _P(p.y + k, p.x)


def py_records():
    p = _P(0, 0)
    i = 0
    while i < 500000:
        p = _py_step(p, i % 3)
        i = i + 1
    return p.x + p.y


def py_strings():
    total = 0
    i = 0
    while i < 200000:
        s = str(i) + "x"
        total = total + len(s.encode("utf-8"))
        i = i + 1
    return total


def py_interp():
    code = [("Push", 1), ("Add", 0), ("Dec", 0), ("JmpNz", 0), ("Halt", 0)]
    pc, a, acc, running = 0, 100000, 0, True
    while running:
        op, v = code[pc]
        if op == "Push":
            acc = acc + v
            pc = pc + 1
        elif op == "Add":
            acc = acc + a
            pc = pc + 1
        elif op == "Dec":
            a = a - 1
            pc = pc + 1
        elif op == "JmpNz":
            pc = v if a != 0 else pc + 1
        else:
            running = False
    return acc


def py_sieve():
    primes = []
    n = 2
    while n < 60000:
        j = 0
        prime = True
        count = len(primes)
        while j < count:
            p = primes[j]
            if p * p > n:
                j = count
            elif n % p == 0:
                prime = False
                j = count
            else:
                j = j + 1
        if prime:
            primes.append(n)
        n = n + 1
    return len(primes)


def _py_slice(xs, lo, hi):
    out = []
    i = lo
    while i < hi:
        out.append(xs[i])
        i = i + 1
    return out


def _py_merge(a, b):
    out = []
    i = j = 0
    na, nb = len(a), len(b)
    while i < na or j < nb:
        take_a = True if j >= nb else (False if i >= na else a[i] <= b[j])
        if take_a:
            out.append(a[i])
            i = i + 1
        else:
            out.append(b[j])
            j = j + 1
    return out


def _py_sort(xs):
    n = len(xs)
    if n < 2:
        return xs
    mid = n // 2
    return _py_merge(_py_sort(_py_slice(xs, 0, mid)), _py_sort(_py_slice(xs, mid, n)))


def py_mergesort():
    xs = []
    seed = 12345
    i = 0
    while i < 20000:
        seed = (seed * 75 + 74) % 65537
        xs.append(seed % 100000)
        i = i + 1
    s = _py_sort(xs)
    return s[0] + s[9999] + s[19999]


def py_strbuild():
    total = 0
    i = 0
    while i < 20000:
        line = str(i) + ",x" + str(i % 10) + ", 7 "
        parts = line.split(",")
        joined = ";".join(parts)
        if parts[1].startswith("x"):
            total = total + int(parts[2].strip()) + int(parts[0].strip())
        total = total + len(joined.encode("utf-8"))
        i = i + 1
    return total


class _State:
    __slots__ = ("count", "total", "last")

    def __init__(self, count, total, last):
        self.count, self.total, self.last = count, total, last


class _Msg:
    __slots__ = ("tag", "payload")

    def __init__(self, tag, payload):
        self.tag, self.payload = tag, payload


def _py_update(state, msg):
    if msg.tag == "add":
        return _State(state.count + 1, state.total + msg.payload, msg.tag)
    if msg.tag == "sub":
        return _State(state.count + 1, state.total - msg.payload, msg.tag)
    if msg.tag == "reset":
        return _State(state.count + 1, 0, msg.tag)
    return state


def py_reducer():
    s = _State(0, 0, "")
    i = 0
    while i < 200000:
        k = i % 10
        tag = "reset" if k == 9 else ("add" if k % 2 == 0 else "sub")
        s = _py_update(s, _Msg(tag, i % 13))
        i = i + 1
    return s.count + s.total


def py_maps():
    m = {}
    i = 0
    total = 0
    while i < 20000:
        key = "k" + str(i % 200)
        old = m.get(key, 0)
        m[key] = old + i
        if i % 7 == 0:
            m.pop("k" + str(i % 50), None)
        if "k3" in m:
            total = total + 1
        i = i + 1
    return total + len(m)


def _inc(x):
    return x + 1


def _dbl(x):
    return x * 2


def _is_odd(x):
    return x % 2 == 1


def _map_list(xs, f):
    out = []
    i = 0
    n = len(xs)
    while i < n:
        out.append(f(xs[i]))
        i = i + 1
    return out


def _filter_list(xs, p):
    out = []
    i = 0
    n = len(xs)
    while i < n:
        x = xs[i]
        if p(x):
            out.append(x)
        i = i + 1
    return out


def py_fnvalues():
    xs = list(range(1000))
    total = 0
    r = 0
    while r < 100:
        ys = _filter_list(_map_list(_map_list(xs, _inc), _dbl), _is_odd)
        zs = _filter_list(_map_list(xs, _inc), _is_odd)
        total = total + len(ys) + len(zs)
        r = r + 1
    return total


def py_mandel():
    count = 0
    y = -1.2
    while y < 1.2:
        x = -2.0
        while x < 0.6:
            zr = zi = 0.0
            k = 0
            while k < 50 and zr * zr + zi * zi < 4.0:
                t = zr * zr - zi * zi + x
                zi = 2.0 * zr * zi + y
                zr = t
                k = k + 1
            if k == 50:
                count = count + 1
            x = x + 0.04
        y = y + 0.04
    return count


def _py_ack(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return _py_ack(m - 1, 1)
    return _py_ack(m - 1, _py_ack(m, n - 1))


def py_ack():
    total = 0
    r = 0
    while r < 30:
        total = total + _py_ack(2, 100) + _py_ack(3, 4)
        r = r + 1
    return total


# ---------------------------------------------------------------- the same algorithms in Lua
# (each chunk prints its result; integer division and modulo as in the VM for these inputs)

LUA = {
    "fib27": "local function fib(n) if n < 2 then return n end return fib(n-1) + fib(n-2) end\n"
             "print(fib(27))",
    "loop3m": "local acc, i = 0, 0\nwhile i < 3000000 do acc = acc + i % 7 i = i + 1 end\n"
              "print(acc)",
    "records500k": "local function step(p, k) return {x = p.y + k, y = p.x} end\n"
                   "local p, i = {x = 0, y = 0}, 0\n"
                   "while i < 500000 do p = step(p, i % 3) i = i + 1 end\nprint(p.x + p.y)",
    "strings200k": "local total, i = 0, 0\nwhile i < 200000 do local s = tostring(i) .. 'x' "
                   "total = total + #s i = i + 1 end\nprint(total)",
    "interp": "local code = {{'Push', 1}, {'Add', 0}, {'Dec', 0}, {'JmpNz', 0}, {'Halt', 0}}\n"
              "local pc, a, acc, running = 0, 100000, 0, true\n"
              "while running do local ins = code[pc + 1] local op, v = ins[1], ins[2]\n"
              "  if op == 'Push' then acc = acc + v pc = pc + 1\n"
              "  elseif op == 'Add' then acc = acc + a pc = pc + 1\n"
              "  elseif op == 'Dec' then a = a - 1 pc = pc + 1\n"
              "  elseif op == 'JmpNz' then if a ~= 0 then pc = v else pc = pc + 1 end\n"
              "  else running = false end end\nprint(acc)",
    "sieve": "local primes, n = {}, 2\nwhile n < 60000 do local j, prime, count = 0, true, #primes\n"
             "  while j < count do local p = primes[j + 1]\n"
             "    if p * p > n then j = count elseif n % p == 0 then prime = false j = count\n"
             "    else j = j + 1 end end\n"
             "  if prime then primes[#primes + 1] = n end n = n + 1 end\nprint(#primes)",
    "mergesort": "local function slice(xs, lo, hi) local out, i = {}, lo\n"
                 "  while i < hi do out[#out + 1] = xs[i + 1] i = i + 1 end return out end\n"
                 "local function merge(a, b) local out, i, j, na, nb = {}, 0, 0, #a, #b\n"
                 "  while i < na or j < nb do local take\n"
                 "    if j >= nb then take = true elseif i >= na then take = false\n"
                 "    else take = a[i + 1] <= b[j + 1] end\n"
                 "    if take then out[#out + 1] = a[i + 1] i = i + 1\n"
                 "    else out[#out + 1] = b[j + 1] j = j + 1 end end return out end\n"
                 "local function sort(xs) local n = #xs if n < 2 then return xs end\n"
                 "  local mid = math.floor(n / 2) return merge(sort(slice(xs, 0, mid)), sort(slice(xs, mid, n))) end\n"
                 "local xs, seed, i = {}, 12345, 0\n"
                 "while i < 20000 do seed = (seed * 75 + 74) % 65537\n"
                 "  xs[#xs + 1] = seed % 100000 i = i + 1 end\n"
                 "local s = sort(xs)\nprint(s[1] + s[10000] + s[20000])",
    "strbuild": "local total, i = 0, 0\nwhile i < 20000 do\n"
                "  local line = tostring(i) .. ',x' .. tostring(i % 10) .. ', 7 '\n"
                "  local parts = {} for piece in (line .. ','):gmatch('([^,]*),') do parts[#parts + 1] = piece end\n"
                "  local joined = table.concat(parts, ';')\n"
                "  if parts[2]:sub(1, 1) == 'x' then\n"
                "    total = total + tonumber((parts[3]:gsub('^%s+', ''):gsub('%s+$', ''))) + tonumber(parts[1]) end\n"
                "  total = total + #joined i = i + 1 end\nprint(total)",
    "reducer": "local function update(s, m)\n"
               "  if m.tag == 'add' then return {count = s.count + 1, total = s.total + m.payload, last = m.tag} end\n"
               "  if m.tag == 'sub' then return {count = s.count + 1, total = s.total - m.payload, last = m.tag} end\n"
               "  if m.tag == 'reset' then return {count = s.count + 1, total = 0, last = m.tag} end\n"
               "  return s end\n"
               "local s, i = {count = 0, total = 0, last = ''}, 0\n"
               "while i < 200000 do local k = i % 10 local tag\n"
               "  if k == 9 then tag = 'reset' elseif k % 2 == 0 then tag = 'add' else tag = 'sub' end\n"
               "  s = update(s, {tag = tag, payload = i % 13}) i = i + 1 end\nprint(s.count + s.total)",
    "maps": "local m, i, total, n = {}, 0, 0, 0\nwhile i < 20000 do local key = 'k' .. tostring(i % 200)\n"
            "  local old = m[key] or 0 if m[key] == nil then n = n + 1 end m[key] = old + i\n"
            "  if i % 7 == 0 then local r = 'k' .. tostring(i % 50) if m[r] ~= nil then n = n - 1 m[r] = nil end end\n"
            "  if m['k3'] ~= nil then total = total + 1 end i = i + 1 end\nprint(total + n)",
    "fnvalues": "local function inc(x) return x + 1 end local function dbl(x) return x * 2 end\n"
                "local function is_odd(x) return x % 2 == 1 end\n"
                "local function map_list(xs, f) local out, i, n = {}, 0, #xs\n"
                "  while i < n do out[#out + 1] = f(xs[i + 1]) i = i + 1 end return out end\n"
                "local function filter_list(xs, p) local out, i, n = {}, 0, #xs\n"
                "  while i < n do local x = xs[i + 1] if p(x) then out[#out + 1] = x end i = i + 1 end return out end\n"
                "local xs = {} for i = 0, 999 do xs[#xs + 1] = i end\n"
                "local total, r = 0, 0\nwhile r < 100 do\n"
                "  local ys = filter_list(map_list(map_list(xs, inc), dbl), is_odd)\n"
                "  local zs = filter_list(map_list(xs, inc), is_odd)\n"
                "  total = total + #ys + #zs r = r + 1 end\nprint(total)",
    "mandelbrot": "local count, y = 0, -1.2\nwhile y < 1.2 do local x = -2.0\n"
                  "  while x < 0.6 do local zr, zi, k = 0.0, 0.0, 0\n"
                  "    while k < 50 and zr * zr + zi * zi < 4.0 do\n"
                  "      local t = zr * zr - zi * zi + x zi = 2.0 * zr * zi + y zr = t k = k + 1 end\n"
                  "    if k == 50 then count = count + 1 end x = x + 0.04 end\n"
                  "  y = y + 0.04 end\nprint(count)",
    "ackermann": "local function ack(m, n) if m == 0 then return n + 1 end\n"
                 "  if n == 0 then return ack(m - 1, 1) end return ack(m - 1, ack(m, n - 1)) end\n"
                 "local total, r = 0, 0\n"
                 "while r < 30 do total = total + ack(2, 100) + ack(3, 4) r = r + 1 end\nprint(total)",
}

# name -> (.ax source, Python function, whether main takes an empty map)
SUITE = {
    "fib27": (FIB, py_fib, False),
    "loop3m": (LOOP, py_loop, False),
    "records500k": (RECORDS, py_records, False),
    "strings200k": (STRINGS, py_strings, False),
    "interp": (INTERP, py_interp, False),
    "sieve": (SIEVE, py_sieve, False),
    "mergesort": (MERGESORT, py_mergesort, False),
    "strbuild": (STRBUILD, py_strbuild, False),
    "reducer": (REDUCER, py_reducer, False),
    "maps": (MAPS, py_maps, True),
    "fnvalues": (FNVALUES, py_fnvalues, False),
    "mandelbrot": (MANDEL, py_mandel, False),
    "ackermann": (ACK, py_ack, False),
}
