"""The outputs contract checked before a run, where the source says enough: `main`'s declared
return type against the step's declared `outputs` (a record type must have every declared
output as a field, of the declared type where both are plain; a single `result` must match).
What only the run can tell (a value's shape behind a type the source does not pin) is checked
when the step returns (`engines/step.outputs_of`)."""
from __future__ import annotations

from boruna.workflow.model import RESULT, SourceStep, Workflow

_PLAIN = {"Int", "Float", "String", "Bool", "Unit"}


def _head(text: str) -> str:
    return text.split("<", 1)[0].strip()


def _fits(label: str, type_text: str) -> bool:
    label_head, type_head = _head(label), _head(type_text)
    if label_head not in _PLAIN | {"List", "Map", "Number"} or type_head not in _PLAIN | {
            "List", "Map"}:
        return True         # a free label, or a type the value's JSON form does not pin
    if label_head == "Number":
        return type_head in ("Int", "Float")
    return label_head == type_head


def static_problems(workflow: Workflow, sources: dict) -> list[dict]:
    from boruna.language.ast import FnDef, RecordKind, TypeDef
    from boruna.language.errors import CompileError
    from boruna.language.frontend import parse
    from boruna.language.type_text import type_text

    problems = []
    for sid in workflow.step_ids():
        step = workflow.steps[sid]
        if not isinstance(step, SourceStep) or not step.outputs or sid not in sources:
            continue
        try:
            program = parse(sources[sid])
        except (CompileError, RecursionError):
            continue        # the run reports the compile error
        mains = [i for i in program.items if isinstance(i, FnDef) and i.name == "main"]
        if not mains:
            continue
        returned = type_text(mains[0].return_type)
        records = {i.name: i.kind for i in program.items
                   if isinstance(i, TypeDef) and isinstance(i.kind, RecordKind)}
        names = sorted(step.outputs)

        def problem(text):
            problems.append({"kind": "ContractViolation", "message": f"step '{sid}': {text}"})

        if names == [RESULT]:
            if not _fits(step.outputs[RESULT], returned):
                problem(f"output 'result' is declared {step.outputs[RESULT]}, but main returns "
                        f"{returned}")
            continue
        record = records.get(returned)
        if record is None:
            if _head(returned) in _PLAIN | {"List"}:
                problem(f"main returns {returned}, but the step declares outputs "
                        f"{', '.join(names)}: return a record with those fields")
            continue
        fields = {name: type_text(ty) for name, ty in record.fields}
        missing = [n for n in names if n not in fields]
        if missing:
            problem(f"main returns {returned}, which has no field(s) {', '.join(missing)} "
                    f"(declared outputs)")
        for name in names:
            if name in fields and not _fits(step.outputs[name], fields[name]):
                problem(f"output '{name}' is declared {step.outputs[name]}, but {returned}."
                        f"{name} is {fields[name]}")
    return problems
