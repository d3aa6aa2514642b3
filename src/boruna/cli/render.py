"""Human-readable output of the library results (the `--json` output comes from
`boruna.service` instead).

Compile errors and diagnostics read like a good compiler's:

```
error[E009]: undefined variable: widht
 --> prog.ax:3:5
  |
3 |     widht * 2
  |     ^^^^^
  = help: did you mean: 'width'?
```
"""
from __future__ import annotations

from typing import Any, Iterable

from boruna.cli.snippet import gutter_width, render_snippet, source_line
from boruna.cli.style import Style

# ------------------------------------------------------------------ small helpers


def field(obj: Any, name: str, default: Any = None) -> Any:
    """Read `name` from a dataclass-like object or a dict."""
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def enum_text(value: Any) -> str:
    """The text of a plain string or of an Enum member (its value, else its name)."""
    if value is None:
        return ""
    inner = getattr(value, "value", value)
    if not isinstance(inner, str):
        inner = getattr(value, "name", str(value))
    return str(inner)


def pretty_json(obj: Any) -> str:
    """Indented JSON, non-ASCII kept, NaN/Infinity as null; the `--json` printer
    (`service.envelope.render`), so values nested at any depth print too."""
    from boruna.service.envelope import render

    return render(obj)


def plural(n: int, word: str, many: str | None = None) -> str:
    """`1 step`, `2 steps`; `many` for irregular plurals (`fix` -> `fixes`)."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


# ------------------------------------------------------------------ messages


def split_message(message: str) -> tuple[str, list[str], list[str]]:
    """Split a compiler message into (headline, help lines, note lines).

    The compiler appends `\\n  did you mean: 'x'?`; that becomes a help line. Lines that
    echo the source text and its caret (the reference's E001 decoration) are dropped,
    since the excerpt is drawn separately.
    """
    lines = message.split("\n")
    hints: list[str] = []

    def cut_hint(text: str) -> str:
        # `msg — check for mismatched braces ...`: the part after the dash is advice.
        if " \u2014 " in text:
            text, hint = text.split(" \u2014 ", 1)
            hints.append(hint.strip())
        return text

    headline = cut_hint(lines[0])
    helps: list[str] = []
    notes: list[str] = []
    for extra in lines[1:]:
        text = cut_hint(extra.strip())
        if not text:
            continue
        if text.startswith("did you mean"):
            helps.append(text)
        else:
            notes.append(text)
    return headline, helps + hints, notes


def format_problem(severity: str, code: str | None, message: str, path: str, source: str,
                   line: int | None, col: int | None, style: Style,
                   helps: Iterable[str] = (), extra_notes: Iterable[str] = (),
                   end_col: int | None = None, labels: Iterable[tuple] = ()) -> list[str]:
    """One compiler-style report: headline, location, excerpt (the span underlined when
    `end_col` is known, then each secondary `(line, col, end_col, message)` label drawn under
    its own line), note and help lines."""
    headline, msg_helps, notes = split_message(message)
    if line and notes:
        echoed = (source_line(source, line) or "").strip()
        notes = [n for n in notes if n != echoed and set(n) != {"^"}]
    notes = notes + list(extra_notes)
    label = f"{severity}[{code}]" if code else severity
    painted = style.error(label) if severity == "error" else (
        style.warning(label) if severity == "warning" else style.note(label))
    out = [f"{painted}{style.bold(': ' + headline)}"]
    if line:
        labels = list(labels)
        out.extend(render_snippet(source, path, line, col or None, style, end_col=end_col,
                                  labels=labels))
        pad = " " * gutter_width(source, line, labels)
    else:
        out.append(f" {style.gutter('-->')} {path}")
        pad = ""
    for note in notes:
        out.append(f"{pad} {style.gutter('=')} note: {note}")
    for text in list(msg_helps) + list(helps):
        out.append(f"{pad} {style.gutter('=')} help: {text}")
    return out


def format_compile_error(err: Any, path: str, source: str, style: Style,
                         helps: Iterable[str] = ()) -> str:
    """A CompileError (code, message, line, col) as a compiler-style report, with any extra
    `= help:` lines."""
    line = field(err, "line") or None
    col = field(err, "col") or None
    code = field(err, "diagnostic_code") or field(err, "code")
    return "\n".join(format_problem("error", code, field(err, "message", str(err)),
                                    path, source, line, col, style, helps))


def format_runtime_error(message: str, places: dict, path: str, source: str | None,
                         style: Style) -> list[str]:
    """A runtime error drawn like a compile error: the headline, then (when the run's
    `location` is known and the source is at hand) the excerpt with the failing expression
    underlined, and one note per frame of the `stack`, innermost first."""
    location = places.get("location")
    headline = f"runtime error: {message}"
    if location and source is not None:
        out = format_problem("error", None, headline, path, source, location["line"],
                             location["col"], style)
        pad = " " * gutter_width(source, location["line"])
    else:
        out = [f"{style.error('error')}: {headline}"]
        pad = ""
    for k, entry in enumerate(places.get("stack", ())):
        if "omitted" in entry:
            text = f"... {entry['omitted']} more calls"
        else:
            where = (f" at {path}:{entry['line']}:{entry['col']}"
                     if entry.get("line") is not None else "")
            text = f"{'in' if k == 0 else 'called from'} {entry['function']}{where}"
        out.append(f"{pad} {style.gutter('=')} note: {text}")
    return out


# ------------------------------------------------------------------ diagnostics


def _patches(diag: Any) -> list:
    patches = field(diag, "patches")
    if patches is None:
        patches = field(diag, "suggested_patches")
    return list(patches or [])


def format_diagnostic(diag: Any, path: str, source: str, style: Style) -> str:
    """One diagnostic of `check_source` with its location, excerpt and fixes."""
    loc = field(diag, "location")
    line = field(loc, "line") if loc is not None else None
    col = field(loc, "col") if loc is not None else None
    end_col = None
    if loc is not None and field(loc, "end_line") == line:
        end_col = field(loc, "end_col")
    helps = []
    notes = []
    labels = []
    for info in field(diag, "related") or []:
        where = field(info, "location")
        if (line and where is not None and field(where, "col") and field(where, "end_col")
                and field(where, "end_line") in (None, field(where, "line"))):
            labels.append((field(where, "line"), field(where, "col"), field(where, "end_col"),
                           field(info, "message")))
            continue
        suffix = f" (line {field(where, 'line')})" if where is not None and field(where, "line") else ""
        notes.append(f"{field(info, 'message')}{suffix}")
    for patch in _patches(diag):
        conf = enum_text(field(patch, "confidence")).capitalize()
        desc = field(patch, "description", "")
        helps.append(f"fix ({field(patch, 'id')}, confidence: {conf}): {desc}")
    return "\n".join(format_problem(enum_text(field(diag, "severity")) or "error",
                                    field(diag, "id"), field(diag, "message", ""), path,
                                    source, line, col, style, helps, notes, end_col, labels))


def format_diagnostics_summary(diags: list, path: str, style: Style) -> str:
    """`prog.ax: 2 errors, 1 warning; 1 fix available (run: boruna repair prog.ax)`."""
    if not diags:
        return f"{path}: {style.ok('no diagnostics')}"
    counts: dict[str, int] = {}
    for d in diags:
        sev = enum_text(field(d, "severity")) or "error"
        counts[sev] = counts.get(sev, 0) + 1
    parts = [plural(counts[s], s) for s in ("error", "warning", "info", "hint") if s in counts]
    parts += [plural(n, s) for s, n in counts.items() if s not in ("error", "warning", "info", "hint")]
    text = f"{path}: {', '.join(parts)}"
    fixable = sum(1 for d in diags if any(field(p, "edits") for p in _patches(d)))
    if fixable:
        command = "boruna repair - --dry-run" if path == "<stdin>" else f"boruna repair {path}"
        text += f"; {plural(fixable, 'fix', 'fixes')} available (run: {command})"
    return text
