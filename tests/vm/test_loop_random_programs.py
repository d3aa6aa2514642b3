"""Random well-formed programs over the whole language (records, enums, Option/Result,
nested matches, loops, early returns, recursion, function values, every builtin with
arguments of any type, emit, spawn/send/receive, step_input under policies) never crash:
`boruna_run` always answers with a structured response, and a run in small slices gives
exactly the outcome, steps and ui_output of a run in one go."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boruna.bytecode.opcodes import BUILTINS
from boruna.compiler import compile_source
from boruna.language.errors import CompileError
from boruna.api import run
from boruna.service.running import run_tool

HEADER = """type Pt { x: Int, y: Int }
type Tag { y: String, x: Int }
enum Sh { Dot, Circle(Int), Box(Pt) }
enum Alt { Box, Dot(Int) }
fn rec(n: Int) -> Int { if n <= 0 { 0 } else { n + rec(n - 1) } }
fn noop() {}
fn noop_or(x: Int) { if x > 0 { x } }
fn pick(b: Bool) -> Fn(Int) -> Int { if b { inc } else { rec } }
fn inc(v: Int) -> Int ensures result > v { if v > 5 { return v + 1 } v + 1 }
fn worker() -> Int { receive }
"""
CALLABLE = sorted(n for n in BUILTINS if n != "step_input")
STRINGS = ["\"\"", "\"a,b\"", "\"héllo 😀\"", "\" 42 \"", "\"x\\ty\"", "\"ß\"", "\"-7\"",
           "\"1e3\""]


LEAVES = ["0", "1", "2", "7", "-3", "300", "9223372036854775807", "(-9223372036854775807 - 1)",
          "0.5", "2.0", "true", "false", "None", "Sh::Dot", "Alt::Box", "inc", "noop",
          "receive", "n", "acc", "[]"] + STRINGS
PATTERNS = ["0", "1", "\"a,b\"", "true", "None", "Some(v)", "Some(0)", "Ok(v)", "Err(\"x\")",
            "Circle(v)", "Box(v)", "Dot", "Dot(v)", "Box(Pt)", "Some(Circle(v))", "v", "_"]
OPS = ["+", "-", "*", "/", "%", "==", "!=", "<", ">=", "&&", "||", "++"]


class Gen:
    """Program text from a seeded random source (fast, reproducible from the seed)."""

    def __init__(self, seed):
        self.r = random.Random(seed)

    def expr(self, depth):
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            return r.choice(LEAVES)
        e = lambda: self.expr(depth - 1)
        k = r.randrange(26)
        if k == 0:
            return f"({e()} {r.choice(OPS)} {e()})"
        if k == 1:
            return f"(-{e()})"
        if k == 2:
            return f"(!{e()})"
        if k == 3:
            name = r.choice(CALLABLE)
            return f"{name}({', '.join(e() for _ in range(BUILTINS[name][0]))})"
        if k == 4:
            return f"[{', '.join(e() for _ in range(r.randrange(4)))}]"
        if k == 5:
            return f"Pt {{ y: {e()}, x: {e()} }}"
        if k == 6:
            return f"Tag {{ y: {e()}, x: {e()} }}"
        if k == 7:
            return f"Pt {{ ..Pt {{ x: 1, y: 2 }}, y: {e()} }}"
        if k == 8:
            return f"({e()}).{r.choice('xy')}"
        if k == 9:
            return r.choice(["Sh::Circle({})", "Sh::Box(Pt {{ x: {}, y: 0 }})", "Alt::Dot({})",
                             "Some({})", "Ok({})", "Err({})"]).format(e())
        if k == 10:
            return f"(if {e()} {{ {e()} }} else {{ {e()} }})"
        if k == 11:
            return f"(if {e()} {{ {e()} }})"
        if k in (12, 13, 14):
            arms = " ".join(f"{r.choice(PATTERNS)} => {e()}," for _ in range(r.randrange(1, 5)))
            return f"(match {e()} {{ {arms} }})"
        if k == 15:
            return f"{{ let w = {e()} {e()} }}"
        if k == 16:
            return f"{r.choice(['rec', 'inc', 'noop_or'])}({e()})"
        if k == 17:
            return f"pick({e()})(3)"
        if k == 18:
            return f"(emit ({e()}))"
        if k == 19:
            return f"{{ send (spawn worker) ({e()}) }}"
        if k == 20:
            return f"step_input({e()})"
        if k == 21:
            return f"{{ let f = {r.choice(['inc', 'rec', 'noop'])} f({e()}) }}"
        return f"({e()} {r.choice(OPS)} {e()})"

    def stmt(self):
        r = self.r
        e = lambda: self.expr(3)
        k = r.randrange(8)
        if k == 0:
            return f"let n = {e()}"
        if k == 1:
            return f"acc = {e()}"
        if k == 2:
            return f"{{ {e()} }}"
        if k == 3:
            return f"if {e()} {{ acc = {e()} }}"
        if k == 4:
            return f"for it in {e()} {{ acc = {e()} }}"
        if k == 5:
            return f"let mut k = 0 while k < {r.randrange(5)} {{ k = k + 1 {{ {e()} }} }}"
        if k == 6:
            return f"if acc == 7 {{ return {e()} }}"
        return f"{{ {e()} }}"

    def program(self):
        body = "\n    ".join(self.stmt() for _ in range(self.r.randrange(6)))
        return (f"{HEADER}fn main() -> Int {{\n    let mut acc = 7\n    let mut n = 1\n"
                f"    {body}\n    {{ {self.expr(4)} }}\n}}\n")


POLICIES = ["allow-all", "deny-all",
            {"default_allow": True, "rules": {"step.input": {"allow": True, "budget": 1}}}]


@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.integers(0, 2**64), st.sampled_from(POLICIES), st.sampled_from([1, 3, 17]))
def test_random_programs_never_crash_and_slice_identically(seed, policy, k):
    src = Gen(seed).program()
    response = run_tool(src, policy=policy, max_steps=5000)
    assert list(response)[:2] == ["success", "protocol_version"]
    if response["success"]:
        assert {"result", "steps", "ui_output"} <= set(response)
    else:
        assert response.get("error_kind") in ("runtime_error", None) or "errors" in response
        if "errors" not in response:
            assert isinstance(response["message"], str) and response["message"]
    try:
        module = compile_source(src)
    except CompileError:
        assert "errors" in response
        return
    whole = run(module, policy=policy, max_steps=5000)
    sliced = run(module, policy=policy, max_steps=5000, slice_steps=k,
                 on_progress=lambda steps: None)
    assert repr((sliced.ok, sliced.result, sliced.error, sliced.steps, sliced.ui_output)) == \
        repr((whole.ok, whole.result, whole.error, whole.steps, whole.ui_output))
    assert whole.steps == response["steps"]
