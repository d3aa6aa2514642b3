"""Property tests: random Int/Bool programs against a small Python model of docs/spec/vm.md §3–§4.

The model evaluates the same expression tree with i64-checked arithmetic (truncating `/` and
`%`, `integer overflow in …`, `/` checks a zero divisor before the types), type-strict equality,
truthiness for `!`, `&&`, `||` and `if`, and the reference's type-error texts; it also counts
the ops the codegen of docs/spec/vm.md §2.4 dispatches, so `steps` is checked exactly (§4.2:
ops + 1 on success, ops up to and including the failing one on an error)."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boruna.compiler import compile_source
from boruna.api import run

I64_MIN, I64_MAX = -(2**63), 2**63 - 1
BIG = [0, 1, 2, 3, 7, 10, 3037000499, 3037000500, 4611686018427387904, I64_MAX]
ARITH = {"+": "addition", "-": "subtraction", "*": "multiplication"}
ORDER = ["<", "<=", ">", ">="]
BINOPS = ["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||"]

# helper functions every generated program declares: name -> (params, body tree)
HELPERS = {
    "twice": (["a"], ("bin", "*", ("var", "a"), ("int", 2))),
    "diff": (["a", "b"], ("bin", "-", ("var", "a"), ("var", "b"))),
}


class Fail(Exception):
    pass


def tname(v):
    return "Bool" if v[0] == "B" else "Int"


def truthy(v):
    return v[1] != 0 if v[0] == "I" else v[1]


def checked(n, what):
    if not I64_MIN <= n <= I64_MAX:
        raise Fail(f"integer overflow in {what}")
    return ("I", n)


def binop(op, a, b):
    if op in ARITH:
        if a[0] == "I" and b[0] == "I":
            r = a[1] + b[1] if op == "+" else a[1] - b[1] if op == "-" else a[1] * b[1]
            return checked(r, ARITH[op])
        raise Fail(f"type error: expected numeric, got {tname(b) if a[0] == 'I' else tname(a)}")
    if op in ("/", "%"):
        # Div checks the zero divisor before the types; Mod only for Int x Int (docs/spec/vm.md §3.4)
        if b == ("I", 0) and (op == "/" or a[0] == "I"):
            raise Fail("division by zero")
        if a[0] == "I" and b[0] == "I":
            q = abs(a[1]) // abs(b[1])
            q = q if (a[1] >= 0) == (b[1] >= 0) else -q
            if op == "/":
                return checked(q, "division")
            return checked(a[1] - q * b[1], "remainder") if q <= I64_MAX else \
                checked(2**63, "remainder")
        expected = "numeric" if op == "/" else "Int"
        raise Fail(f"type error: expected {expected}, got "
                   f"{tname(b) if a[0] == 'I' else tname(a)}")
    if op == "==":
        return ("B", a == b)
    if op == "!=":
        return ("B", a != b)
    if op in ORDER:
        if a[0] == "I" and b[0] == "I":
            x, y = a[1], b[1]
            return ("B", {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op])
        raise Fail(f"type error: expected comparable, got {tname(a)}")
    if op == "&&":
        return ("B", truthy(a) and truthy(b))
    return ("B", truthy(a) or truthy(b))


class Model:
    def __init__(self):
        self.ops = 0

    def op(self, n=1):
        self.ops += n

    def eval(self, e, env):
        kind = e[0]
        if kind == "int":
            self.op()
            return ("I", e[1])
        if kind == "bool":
            self.op()
            return ("B", e[1])
        if kind == "var":
            self.op()
            return env[e[1]]
        if kind == "neg":
            v = self.eval(e[1], env)
            self.op()
            if v[0] != "I":
                raise Fail("type error: expected numeric, got Bool")
            return checked(-v[1], "negation")
        if kind == "not":
            v = self.eval(e[1], env)
            self.op()
            return ("B", not truthy(v))
        if kind == "bin":
            a = self.eval(e[2], env)
            b = self.eval(e[3], env)
            self.op()
            return binop(e[1], a, b)
        if kind == "if":
            c = self.eval(e[1], env)
            self.op()                           # JmpIfNot
            if truthy(c):
                v = self.eval(e[2], env)
                self.op()                       # Jmp(end)
                return v
            return self.eval(e[3], env)
        if kind == "call":
            params, body = HELPERS[e[1]]
            args = [self.eval(a, env) for a in e[2]]
            self.op()                           # Call
            v = self.eval(body, dict(zip(params, args)))
            self.op()                           # Ret
            return v
        raise AssertionError(kind)

    def program(self, lets, final):
        env = {}
        try:
            for name, e in lets:
                env[name] = self.eval(e, env)
                self.op()                       # StoreLocal
            v = self.eval(final, env)
            self.op()                           # Ret
        except Fail as f:
            return False, str(f), self.ops
        return True, v, self.ops + 1


def render(e):
    kind = e[0]
    if kind == "int":
        return str(e[1])
    if kind == "bool":
        return "true" if e[1] else "false"
    if kind == "var":
        return e[1]
    if kind == "neg":
        return f"(-{render(e[1])})"
    if kind == "not":
        return f"(!{render(e[1])})"
    if kind == "bin":
        return f"({render(e[2])} {e[1]} {render(e[3])})"
    if kind == "if":
        return f"(if {render(e[1])} {{ {render(e[2])} }} else {{ {render(e[3])} }})"
    if kind == "call":
        return f"{e[1]}({', '.join(render(a) for a in e[2])})"
    raise AssertionError(kind)


_EXPRS = {}


def exprs(names):
    """Expression trees over `names` (strategies are cached: building one is slow)."""
    key = tuple(names)
    if key not in _EXPRS:
        _EXPRS[key] = _exprs(key)
    return _EXPRS[key]


def _exprs(names):
    leaves = [st.one_of(st.integers(0, 12), st.sampled_from(BIG)).map(lambda n: ("int", n)),
              st.booleans().map(lambda b: ("bool", b))]
    if names:
        leaves.append(st.sampled_from(list(names)).map(lambda n: ("var", n)))
    leaf = st.one_of(*leaves)

    def extend(inner):
        return st.one_of(
            st.tuples(st.sampled_from(BINOPS), inner, inner).map(lambda t: ("bin",) + t),
            inner.map(lambda x: ("neg", x)),
            inner.map(lambda x: ("not", x)),
            st.tuples(inner, inner, inner).map(lambda t: ("if",) + t),
            inner.map(lambda x: ("call", "twice", [x])),
            st.tuples(inner, inner).map(lambda t: ("call", "diff", list(t))),
        )

    return st.recursive(leaf, extend, max_leaves=8)


@st.composite
def programs(draw):
    lets = []
    names = []
    for i in range(draw(st.integers(0, 3))):
        lets.append((f"v{i}", draw(exprs(list(names)))))
        names.append(f"v{i}")
    return lets, draw(exprs(names))


def source(lets, final):
    helpers = "".join(f"fn {name}({', '.join(p + ': Int' for p in params)}) -> Int "
                      f"{{ {render(body)} }}\n" for name, (params, body) in HELPERS.items())
    body = "".join(f"    let {n} = {render(e)}\n" for n, e in lets)
    # the final expression is wrapped in a block: a line starting with `(` would continue
    # the previous `let` as a call (docs/spec/language.md §2.1); a block adds no op
    return f"{helpers}fn main() -> Int {{\n{body}    {{ {render(final)} }}\n}}\n"


def vm_value(result):
    if type(result) is bool:
        return ("B", result)
    assert type(result) is int
    return ("I", result)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_vm_agrees_with_the_i64_model(prog):
    lets, final = prog
    want_ok, want, want_steps = Model().program(lets, final)
    out = run(compile_source(source(lets, final)))
    if want_ok:
        assert out.ok, (source(lets, final), out.error)
        assert vm_value(out.result) == want
    else:
        assert not out.ok and out.error == want, (source(lets, final), out.result, out.error)
    assert out.steps == want_steps


def test_model_counts_match_hand_derived_spec_programs():
    # docs/spec/vm.md T01 (7 steps), T15 (overflow at step 3), T35-like eager && (division first)
    assert Model().program([], ("bin", "+", ("int", 1),
                                ("bin", "*", ("int", 2), ("int", 3)))) == (True, ("I", 7), 7)
    assert Model().program([], ("bin", "+", ("int", I64_MAX), ("int", 1))) == \
        (False, "integer overflow in addition", 3)
    assert Model().program([("z", ("int", 0))],
                           ("bin", "&&", ("bool", False),
                            ("bin", "/", ("int", 1), ("var", "z")))) == \
        (False, "division by zero", 6)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), st.sampled_from([1, 2, 3, 5, 11]))
def test_model_programs_give_identical_outcomes_in_slices(prog, k):
    module = compile_source(source(*prog))
    whole = run(module)
    sliced = run(module, slice_steps=k, on_progress=lambda steps: None)
    assert (sliced.ok, sliced.result, sliced.error, sliced.steps) == \
        (whole.ok, whole.result, whole.error, whole.steps)
