"""`value_to_ui_tree`: a `view()` result as a generic UI node tree (tooling.md §3.6).

Record → node tagged by field 0 when it is a string (else `div`), the other fields as props
`field_<i>`; String/Int/Bool → `text` node with prop `value`; List → `list` node whose
children are its items; anything else → `raw` node with prop `value`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from boruna.core.values import Record


@dataclass
class UiNode:
    tag: str
    props: dict[str, Any] = field(default_factory=dict)
    children: list["UiNode"] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"tag": self.tag, "props": dict(self.props),
                "children": [c.to_dict() for c in self.children]}


def value_to_ui_tree(value: Any) -> UiNode:
    """Convert a runtime value (iteratively, so deep lists cannot overflow the stack)."""
    root = UiNode("raw")
    work = [(value, root)]
    while work:
        v, node = work.pop()
        t = type(v)
        if t is Record:
            fields = v.fields
            if fields and type(fields[0]) is str:
                node.tag = fields[0]
            else:
                node.tag = "div"
            node.props = {f"field_{i}": fields[i] for i in range(1, len(fields))}
        elif t is str or t is int or t is bool:
            node.tag, node.props = "text", {"value": v}
        elif t is tuple:
            node.tag = "list"
            node.children = [UiNode("raw") for _ in v]
            work.extend(zip(v, node.children))
        else:
            node.tag, node.props = "raw", {"value": v}
    return root
