"""Policies enforced on real runs through the gateway (docs/spec/policy.md §7, §10 V5; docs/spec/vm.md T27/T28)."""
import pytest

from boruna.api import run
from boruna.runtime.policy import PolicyError

V5 = ("fn main() -> Int !{step.input} {\n"
      "    let _a: String = step_input(\"x\")\n"
      "    let _b: String = step_input(\"y\")\n"
      "    1\n"
      "}\n")
T27 = "fn main() -> String {\n    step_input(\"doc\")\n}\n"


def test_t27_allow_all_returns_the_mock_empty_string():
    out = run(T27, policy="allow-all")
    assert (out.ok, out.result, out.steps) == (True, "", 4)
    assert out.capabilities_called == ["step.input"]


def test_t28_deny_all():
    out = run(T27, policy="deny-all")
    assert (out.ok, out.error, out.steps) == (False, "capability denied: step.input", 2)


@pytest.mark.parametrize("policy, ok, outcome, steps", [
    ({"rules": {"step.input": {"allow": True, "budget": 1}}}, False,
     "capability budget exceeded: step.input", 5),
    ({"rules": {"step.input": {"allow": True, "budget": 2}}}, True, 1, 9),
    ({"rules": {"step.input": {"allow": True, "budget": 0}}}, True, 1, 9),
    ("deny-all", False, "capability denied: step.input", 2),
    ({}, False, "capability denied: step.input", 2),          # object form defaults to deny
    (None, True, 1, 9),                                        # omitted means allow-all
    ({"default_allow": True, "rules": {"step.input": {"allow": False, "budget": 0}}}, False,
     "capability denied: step.input", 2),
])
def test_v5_budgeted_step_input(policy, ok, outcome, steps):
    out = run(V5, policy=policy)
    assert out.ok is ok and out.steps == steps
    assert (out.result if ok else out.error) == outcome


def test_step_input_in_a_callee_passes_the_declaration_check():
    # codegen adds step.input to the declared list of the function that calls step_input
    # (`helper`); the check looks only at the executing function, so `main` needs nothing.
    src = ("fn helper() -> String {\n    step_input(\"a\")\n}\n"
           "fn main() -> String {\n    helper()\n}\n")
    out = run(src, policy="allow-all")
    assert (out.ok, out.result) == (True, "")


def test_invalid_policy_objects_raise_before_running():
    with pytest.raises(PolicyError) as info:
        run(T27, policy={"rules": {"step_input": {"allow": True, "budget": 0}}})
    assert info.value.message == (
        'policy.invalid_capability: unknown capability "step_input" — did you mean "step.input"?')
