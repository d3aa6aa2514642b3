"""The patch for an enum variant used as a value without its enum (`Circle(2.0)` where the
language wants `Shape::Circle(2.0)`; patterns stay unqualified). An addition: the reference
only offered a rename to the closest name."""
from __future__ import annotations

from typing import Optional

from .context import CheckContext
from .fix import Applicability, Edit, Fix


def owning_enums(ctx: CheckContext, name: str) -> list[str]:
    """The enums of the program that declare a variant called `name`, in declaration order."""
    return [enum for enum, variants in ctx.enums.items()
            if any(variant == name for variant, _payload in variants)]


def _value_uses(ctx: CheckContext, line: int) -> dict[str, list[int]]:
    """Identifier expressions on `line` (values, never patterns): name -> character indexes."""
    from boruna.language import ast as A

    text = ctx.line_text(line) or ""
    out: dict[str, list[int]] = {}
    if ctx.program is None:
        return out
    for fn in ctx.program.functions():
        for node in ctx.nodes_of(fn, A.Ident):
            if node.line == line and node.col:
                index = ctx.index_of(line, node.col)
                if index is not None and text[index:index + len(node.name)] == node.name:
                    out.setdefault(node.name, []).append(index)
    return out


def qualify_variant_patch(ctx: CheckContext, code: str, name: str, line: int
                          ) -> Optional[Fix]:
    """`E003-qualify-NAME`: write `Enum::NAME` for the value uses of NAME on its line, when
    exactly one enum declares a variant NAME. Other bare variants on the same line (each
    declared by exactly one enum, and not a function's name) are qualified too, so one repair
    fixes a line such as `[Circle(1.0), Empty]`."""
    owners = owning_enums(ctx, name)
    text = ctx.line_text(line) if line else None
    if len(owners) != 1 or text is None:
        return None
    uses = _value_uses(ctx, line)
    if name not in uses:
        return None
    functions = {fn.name for fn in ctx.program.functions()}
    edits: dict[int, str] = {}
    for variant, positions in uses.items():
        enums = owning_enums(ctx, variant)
        if len(enums) != 1 or (variant != name and variant in functions):
            continue
        for pos in positions:
            edits[pos] = enums[0]
    new_line = text
    for pos in sorted(edits, reverse=True):
        new_line = f"{new_line[:pos]}{edits[pos]}::{new_line[pos:]}"
    enum = owners[0]
    return Fix(
        id=f"{code}-qualify-{name}",
        description=f"write '{enum}::{name}'",
        applicability=Applicability.SAFE,
        rationale=(f"'{name}' is a variant of enum '{enum}'; a variant is built as "
                   f"{enum}::{name} (only patterns name it alone)"),
        edits=[Edit(start_line=line, old_text=text, new_text=new_line, file=ctx.file)])
