"""Generated programs mixing every statement form (if without else, send, emit, blocks, for,
match, records) compile to code whose operand-stack depth is consistent on every path and never
negative, and they run without `stack underflow` (docs/spec/README.md rule 3)."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boruna.bytecode.module import Function
from boruna.bytecode.opcodes import BUILTINS
from boruna.compiler import compile_source
from boruna.api import run

_ARITY = {op: n for _, (n, op) in BUILTINS.items() if op != "CapCall"}
_BINARY = {"Add", "Sub", "Mul", "Div", "Mod", "Eq", "Neq", "Lt", "Lte", "Gt", "Gte", "And", "Or",
           "Concat"}


def stack_effect(ins) -> int:
    name = ins[0]
    if name in ("PushConst", "LoadLocal", "LoadGlobal", "SpawnActor", "ReceiveMsg", "Dup"):
        return 1
    if name in ("StoreLocal", "StoreGlobal", "Pop", "EmitUi", "Assert", "JmpIf", "JmpIfNot"):
        return -1
    if name in _BINARY:
        return -1
    if name in ("Neg", "Not", "MakeEnum", "GetField", "GetFieldNamed", "Jmp", "Match", "Nop"):
        return 0
    if name == "Call":
        return 1 - ins[2]
    if name == "CallIndirect":
        return -ins[1]
    if name in ("MakeRecord",):
        return 1 - ins[2]
    if name == "MakeList":
        return 1 - ins[1]
    if name == "CapCall":
        return 1 - ins[2]
    if name in ("SendMsg", "GuardSeal"):
        return -2
    if name in _ARITY:
        return 1 - _ARITY[name]
    raise AssertionError(f"no stack effect for {ins}")


def _reaches_return(code, ip: int) -> bool:
    """Whether `ip` is a `Ret` (or the end), directly or through a chain of `Jmp`s: depths
    meeting there only decide whether a value or Unit is returned."""
    seen = set()
    while ip < len(code) and code[ip][0] == "Jmp" and ip not in seen:
        seen.add(ip)
        ip = code[ip][1]
    return ip >= len(code) or code[ip][0] == "Ret"


def check_balance(fn: Function) -> None:
    """Abstract interpretation of the operand-stack depth over every path of `fn`. Paths may
    only meet with different depths right before a `Ret` (or the end, or a `Jmp` chain to
    one), where 0 and 1 both mean "return this value or Unit"."""
    code = fn.code
    depth: dict[int, set] = {0: {0}}
    work = [(0, 0)]
    seen = set()
    while work:
        ip, d = work.pop()
        if (ip, d) in seen:
            continue
        seen.add((ip, d))
        if ip >= len(code) or code[ip][0] == "Ret":
            assert d in (0, 1), f"{fn.name}:{ip} returns at depth {d}"
            continue
        ins = code[ip]
        name = ins[0]
        if name == "Match":
            assert d >= 1, f"{fn.name}:{ip} Match on an empty stack"
            succ = [arm.target for arm in fn.match_tables[ins[1]]]
        else:
            nd = d + stack_effect(ins)
            pops = {"StoreLocal": 1, "Pop": 1, "JmpIfNot": 1, "JmpIf": 1}.get(name, 0)
            assert d - pops >= 0 and nd >= 0, f"{fn.name}:{ip} {ins} underflows at depth {d}"
            if name == "Jmp":
                succ = [ins[1]]
            elif name in ("JmpIf", "JmpIfNot"):
                succ = [ip + 1, ins[1]]
            else:
                succ = [ip + 1]
            d = nd
        for s in succ:
            known = depth.setdefault(s, set())
            known.add(d)
            at_return = _reaches_return(code, s)
            assert len(known) == 1 or at_return, f"{fn.name}: depths {known} meet at {s}"
            work.append((s, d))


ints = st.integers(-3, 9).map(str)


def exprs(names):
    leaf = st.one_of(ints, st.sampled_from(names))

    def extend(inner):
        return extend_plain(inner) if "w" not in names else st.one_of(
            extend_plain(inner), inner.map(lambda e: f"send w ({e})"))

    def extend_plain(inner):
        return st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "==", "<"]), inner).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(inner, inner, inner).map(lambda t: f"if {t[0]} > 2 {{ {t[1]} }} else {{ {t[2]} }}"),
            st.tuples(inner, inner).map(lambda t: f"if {t[0]} > 2 {{ {t[1]} }}"),
            st.tuples(inner, inner).map(lambda t: f"{{ let q = {t[0]}\n q + {t[1]} }}"),
            inner.map(lambda e: f"{{ let z = {e} }}"),
            inner.map(lambda e: f"helper({e})"),
            st.tuples(inner, inner, inner).map(
                lambda t: f"match {t[0]} {{ 0 => {t[1]}, 1 => {t[2]}, _ => 7 }}"),
            st.tuples(inner, inner).map(
                lambda t: f"match Some({t[0]}) {{ Some(v) => v + {t[1]}, None => 0 }}"),
            inner.map(lambda e: f"P {{ b: {e}, a: 1 }}.a"),
            inner.map(lambda e: f"list_len([{e}, 1])"),
            inner.map(lambda e: f"emit ({e})"),
        )

    return st.recursive(leaf, extend, max_leaves=5)


def _safe(text: str) -> str:
    """A statement starting with `(` would be a call of the previous line: wrap it."""
    return "{ " + text + " }" if text.startswith("(") else text


def stmts(names):
    e = exprs(names).map(_safe)
    return st.lists(st.one_of(
        e.map(lambda x: x),
        e.map(lambda x: f"acc = {x}"),
        st.tuples(e, e).map(lambda t: f"if {t[0]} > 1 {{ acc = {t[1]} }}"),
        e.map(lambda x: f"for it in [1, 2] {{ acc = acc + it\n {x} }}"),
        e.map(lambda x: f"let tmp = {x}"),
    ), min_size=1, max_size=4)


@st.composite
def programs(draw):
    body = draw(stmts(["acc", "w"]))
    tail = _safe(draw(exprs(["acc"])))
    hbody = draw(exprs(["x"]))
    return ("type P { a: Int, b: Int }\n"
            f"fn helper(x: Int) -> Int {{\n    {hbody}\n}}\n"
            "fn worker() -> Int { 0 }\n"
            "fn main() -> Int {\n    let w = spawn worker\n    let mut acc = 1\n    "
            + "\n    ".join(body) + f"\n    {tail}\n}}\n")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_generated_programs_are_stack_balanced_and_never_underflow(src):
    module = compile_source(src)
    for fn in module.functions:
        check_balance(fn)
    out = run(module, max_steps=20_000)
    assert out.error is None or "stack underflow" not in out.error, (src, out.error)
    sliced = run(module, max_steps=20_000, slice_steps=7, on_progress=lambda s: None)
    assert (sliced.ok, sliced.steps, sliced.error) == (out.ok, out.steps, out.error)


def test_reference_quirk_programs_are_balanced():
    for src in [
        "fn main() -> Int {\n    let mut x = 0\n    if true { x = 5 }\n    x\n}\n",
        "fn worker() -> Int { 1 }\nfn main() -> Int {\n    let a = spawn worker\n    send a 5\n    7\n}\n",
        "fn noop() {\n}\nfn main() -> Int { 1 + noop() }\n",
        "fn f(x: Int) -> Int {\n    if x > 0 { 1 } else { return 2 }\n}\nfn main() -> Int { f(3) }\n",
        # a tail match whose arm is an if without else: 0 or 1 values reach the Ret via a Jmp
        "fn h(x: Int) -> Int {\n    match x { 0 => if x > 2 { 5 }, 1 => x, _ => 7 }\n}\n"
        "fn main() -> Int { h(1) }\n",
    ]:
        for fn in compile_source(src).functions:
            check_balance(fn)
