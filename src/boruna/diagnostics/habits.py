"""What to write instead, for habits from other languages (an addition, issue 23).

For a parse or lexer error caused by a construct Boruna does not have, `habit_advice(err,
ctx)` returns `(help, fixes)`: a help line that says what to write instead and, where the
rewrite is mechanical, a fix. Covered: a qualified enum variant in a pattern (`C::Red =>`),
`return` as a match arm's body (`_ => return 0`), ranges (`for i in 0..10`), lambdas
(`|x| x + 1`). `indexing_diagnostics(ctx)` (an analyzer) reports `xs[0]`, which parses (as
`xs` followed by the list `[0]`) but never indexes.
"""
from __future__ import annotations

import re
from typing import Optional

from boruna.core.builtins import INDEXING_BUILTIN as GET
from boruna.language import ast as A

import boruna.diagnostics.registry as R
from .context import CheckContext
from .fix import Applicability, Edit, Fix
from .model import Diagnostic
from .source_text import matching_close_brace

_QUALIFIED_ARM = re.compile(r"^(\s*)([A-Z]\w*)::(\w+)(?=\s*(\(|=>))")
_FOR_RANGE = re.compile(r"^(\s*)for\s+([a-z_]\w*)\s+in\s+(.+?)\.\.(=?)(.+?)\s*\{\s*$")
_LAMBDA = re.compile(r"\|\s*([a-z_]\w*(\s*,\s*[a-z_]\w*)*)?\s*\|")


def habit_advice(err, ctx: CheckContext) -> tuple[Optional[str], list[Fix]]:
    for advise in (_qualified_pattern, _return_arm, _range, _lambda):
        found = advise(err, ctx)
        if found is not None:
            return found
    return None, []


def _before(err, ctx: CheckContext) -> Optional[str]:
    index = ctx.index_of(err.line, err.col)
    if index is None:
        return None
    return ctx.masked_text(err.line)[:index]


def _qualified_pattern(err, ctx: CheckContext):
    if err.code != "E002" or err.found != "ColonColon":
        return None
    text = ctx.line_text(err.line) or ""
    found = _QUALIFIED_ARM.match(ctx.masked_text(err.line))
    if found is None:
        return None
    enum, variant = found.group(2), found.group(3)
    help_text = (f"patterns name a variant without its enum: write `{variant} =>`, not "
                 f"`{enum}::{variant} =>` (`{enum}::{variant}` is how a value is built)")
    edits = []
    for number in range(err.line, len(ctx.lines) + 1):
        masked = ctx.masked_text(number)
        if number > err.line and re.match(r"^\s*(fn|type|enum|export)\b", masked):
            break
        arm = _QUALIFIED_ARM.match(masked)
        if arm is not None and arm.group(2) == enum:
            line = ctx.line_text(number)
            edits.append(Edit(number, line, line[:arm.start(2)] + line[arm.end(2) + 2:],
                              ctx.file))
    if not edits or text == "":
        return help_text, []
    return help_text, [Fix(id="E002-unqualify-pattern",
                           description=f"drop `{enum}::` from the match patterns",
                           applicability=Applicability.SAFE,
                           rationale="a pattern names the variant alone",
                           edits=edits)]


def _return_arm(err, ctx: CheckContext):
    if err.code != "E002" or err.found != "'return'":
        return None
    before = _before(err, ctx)
    if before is None or not before.rstrip().endswith("=>"):
        return None
    help_text = "`return` is a statement: in a match arm write `_ => { return 0 }`"
    text = ctx.line_text(err.line)
    index = ctx.index_of(err.line, err.col)
    rest = text[index:]
    body = rest.rstrip()
    comma = ""
    if body.endswith(","):
        body, comma = body[:-1].rstrip(), ","
    if "{" in body or "}" in body or "//" in body:
        return help_text, []
    new_text = f"{text[:index]}{{ {body} }}{comma}"
    return help_text, [Fix(id="E002-return-arm", description="put the `return` in a block",
                           applicability=Applicability.SAFE,
                           rationale="an arm's body is an expression; a block holds statements",
                           edits=[Edit(err.line, text, new_text, ctx.file)])]


def _range(err, ctx: CheckContext):
    if err.code != "E002" or err.found != "DotDot":
        return None
    help_text = ("there are no ranges: count with a `while` loop: `let mut i = 0` then "
                 "`while i < 10 { … i = i + 1 }`")
    number = err.line
    text = ctx.line_text(number)
    header = _FOR_RANGE.match(ctx.masked_text(number))
    if text is None or header is None:
        return help_text, []
    indent, var = header.group(1), header.group(2)
    start, inclusive, stop = (text[header.start(3):header.end(3)].strip(), header.group(4),
                              text[header.start(5):header.end(5)].strip())
    brace = ctx.masked_text(number).rindex("{")
    close = matching_close_brace(ctx.masked, number - 1, brace)
    if close is None:
        return help_text, []
    close_line = ctx.lines[close[0]]
    if close_line.strip() != "}":
        return help_text, []
    compare = "<=" if inclusive else "<"
    body_indent = indent + "    "
    edits = [Edit(number, text, f"{indent}let mut {var} = {start}\n"
                                f"{indent}while {var} {compare} {stop} {{", ctx.file),
             Edit(close[0] + 1, close_line, f"{body_indent}{var} = {var} + 1\n{close_line}",
                  ctx.file)]
    return help_text, [Fix(id="E002-range-loop", description="count with a `while` loop",
                           applicability=Applicability.UNSAFE,
                           rationale=(f"`{var}` now lives after the loop too; the loop body "
                                      f"must not `return` before the increment matters"),
                           edits=edits)]


def _lambda(err, ctx: CheckContext):
    if err.code != "E001":
        return None
    text = ctx.line_text(err.line) or ""
    index = ctx.index_of(err.line, err.col)
    if index is None or text[index:index + 1] != "|" or not _LAMBDA.match(text[index:]):
        return None
    return ("there are no lambdas or closures: define a named function, e.g. "
            "`fn add_one(x: Int) -> Int { x + 1 }`, and pass it by name "
            "(a parameter of type `Fn(Int) -> Int`)"), []


# ------------------------------------------------------------------ `xs[0]`

def indexing_diagnostics(ctx: CheckContext) -> list[Diagnostic]:
    """`xs[0]`: a name (or call) followed on the same line, without a space, by a list
    literal statement: the list is a statement of its own, nothing is indexed."""
    if ctx.program is None:
        return []
    out = []
    spans = None
    for fn in ctx.program.functions():
        if not any(type(stmt.expr) is A.ListLit for stmt in ctx.nodes_of(fn, A.ExprStmt)):
            continue        # no list literal statement: nothing can look indexed
        for block in ctx.nodes_of(fn, A.Block):
            stmts = block.stmts
            for prev, stmt in zip(stmts, stmts[1:]):
                if not (type(stmt) is A.ExprStmt and type(stmt.expr) is A.ListLit
                        and stmt.line == prev.line):
                    continue
                target = prev.value if type(prev) in (A.Let, A.Assign) else getattr(
                    prev, "expr", None)
                if type(target) not in (A.Ident, A.Call, A.FieldAccess):
                    continue
                if spans is None:
                    from .types.spans import Spans
                    spans = Spans(ctx.source)
                end = spans.end(target)
                if end is None or end != (stmt.line, stmt.expr.col):
                    continue
                out.append(_indexing(ctx, spans, target, stmt.expr))
    return out


def _indexing(ctx: CheckContext, spans, target, lst: A.ListLit) -> Diagnostic:
    line = ctx.line_text(lst.line)
    start = ctx.index_of(target.line, target.col)
    list_end = spans.end(lst)
    stop = ctx.index_of(lst.line, list_end[1]) if list_end and list_end[0] == lst.line else None
    name = line[start:ctx.index_of(lst.line, lst.col)] if start is not None else "xs"
    inner = line[ctx.index_of(lst.line, lst.col) + 1:stop - 1] if stop else "0"
    message = (f"there is no indexing syntax: `{name}[{inner}]` is `{name}` followed by the "
               f"list `[{inner}]`, and nothing is indexed")
    diag = Diagnostic(R.E002_PARSE, "error", message,
                      ctx.location(target.line, target.col, lst.line,
                                   list_end[1] if list_end else None),
                      help=f"write `{GET}({name}, {inner})`")
    if start is not None and stop is not None and len(lst.items) == 1 and target.line == lst.line:
        new = f"{line[:start]}{GET}({name}, {inner}){line[stop:]}"
        diag.fixes.append(Fix(id="E002-list-get", description=f"write `{GET}({name}, {inner})`",
                              applicability=Applicability.SAFE,
                              rationale=f"{GET} reads one element",
                              edits=[Edit(lst.line, line, new, ctx.file)]))
    return diag
