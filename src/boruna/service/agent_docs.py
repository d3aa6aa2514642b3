"""The texts written for agents: the language guide, one explanation per diagnostic code,
the standard libraries' signatures, the template catalogue, and the two prompts.

`document(uri, ...)` is the one function serving them all (MCP resources/read, `boruna guide`,
`boruna explain CODE`); `documents()` lists them. Hand-written parts are markdown package data
in `boruna/docs_agent/`; tables that must never drift are generated from the code: builtins
from the compiler's builtin table, capabilities from the capability table, codes from the
diagnostic registry, libraries and templates from the directories the caller serves.
"""
from __future__ import annotations

import re
from importlib import resources

GUIDE_URI = "boruna://guide"
CODES_URI = "boruna://codes"
CODE_URI_PREFIX = "boruna://codes/"
LIBS_URI = "boruna://libs"
TEMPLATES_URI = "boruna://templates"
WORKFLOWS_URI = "boruna://workflows"
MIME_TYPE = "text/markdown"

def _text(*parts: str) -> str:
    return resources.files("boruna").joinpath("docs_agent", *parts).read_text(encoding="utf-8")


def builtins_table() -> str:
    """Every builtin with its arity, signature and doc, from the one builtin table
    (`core.builtins.BUILTINS`, in its order)."""
    from boruna.core.builtins import BUILTINS

    rows = ["| Builtin | Arity | Signature | What it does |", "|---|---|---|---|"]
    for b in BUILTINS:
        rows.append(f"| `{b.name}` | {b.arity} | `{b.signature}` | {b.doc.replace('|', chr(92) + '|')} |")
    return "\n".join(rows)


def capabilities_table() -> str:
    """Every capability: the name policies use, the spellings `!{...}` accepts and the
    builtins that call it (`core.builtins.BUILTINS`)."""
    from boruna.core.builtins import BUILTINS
    from boruna.core.capabilities import sorted_by_name
    from boruna.language.tokens import KEYWORDS

    rows = ["| Capability (policy name) | Spellings in `!{...}` | Builtin |", "|---|---|---|"]
    for cap in sorted_by_name():
        writable = [s for s in (cap.wire_name, *cap.aliases)
                    if not any(part in KEYWORDS for part in s.split("."))]
        spellings = ", ".join(f"`{s}`" for s in writable)
        callers = ", ".join(f"`{b.name}`" for b in BUILTINS if b.capability == cap.wire_name)
        rows.append(f"| `{cap.wire_name}` | {spellings} | {callers or '—'} |")
    return "\n".join(rows)


def guide() -> str:
    """The language guide with its generated tables filled in."""
    return (_text("guide.md").replace("<!-- builtins -->", builtins_table())
            .replace("<!-- capabilities -->", capabilities_table()))


def _code_info(code: str):
    from boruna.diagnostics.registry import ALL_CODES

    return ALL_CODES.get(code.strip().upper())


def explain(code: str) -> str | None:
    """`boruna explain CODE`: the code's explanation with a fixed example (None if unknown)."""
    info = _code_info(code)
    if info is None:
        return None
    return (f"# {info.code}: {info.name} ({info.category})\n\n{info.summary}\n\n"
            + _text("codes", f"{info.code}.md"))


def codes_index() -> str:
    from boruna.diagnostics.registry import ALL_CODES

    rows = ["# Diagnostic codes", "",
            "Read `boruna://codes/<CODE>` (CLI: `boruna explain CODE`) for an explanation, an "
            "erroneous example and its fix.", "",
            "| Code | Name | Category | Meaning |", "|---|---|---|---|"]
    rows += [f"| `{i.code}` | {i.name} | {i.category} | {i.summary} |" for i in ALL_CODES.values()]
    return "\n".join(rows) + "\n"


def libraries(libs_dir) -> str:
    """Every library in `libs_dir`: manifest facts and the exact signatures it declares."""
    from boruna.assets.libraries import LibraryError, library_source, list_libraries
    from boruna.service.symbols import symbols_tool

    out = ["# Standard libraries", "",
           'Import one with a line `import "<directory>"` (e.g. `import "std-validation"`); '
           "its functions and types are then available directly. Each library's `main` is a "
           "self-test and is not imported.", ""]
    try:
        infos = list_libraries(libs_dir) if libs_dir is not None else []
    except LibraryError as err:
        return "\n".join(out + [f"Libraries unavailable: {err.message}", ""])
    for info in infos:
        caps = ", ".join(info.required_capabilities) or "none"
        out += [f"## {info.dir_name} ({info.name} {info.version})", "", info.description, "",
                f"Capabilities: {caps}", "",
                f"From: {info.origin} (`{info.path.parent}`)", "", "```ax"]
        try:
            listed = symbols_tool(library_source(libs_dir, info.dir_name))
        except LibraryError as err:
            listed = {"success": False, "message": err.message}
        if listed.get("success"):
            out += [s["signature"] for s in listed["symbols"] if s["name"] != "main"]
        else:
            out.append(f"// unreadable: {listed.get('message')}")
        out += ["```", ""]
    if not infos:
        out.append("No libraries are available to this server.")
    return "\n".join(out)


def templates(templates_dir) -> str:
    """Every template with its arguments (type, required or default, description)."""
    from boruna.assets.templates import TemplateError, list_templates, template_manifest

    out = ["# App templates", "",
           "Render one with `boruna_template_apply` (`template_name`, `args` as "
           '`"key=value"` strings, `validate: true` to compile the result).', ""]
    try:
        infos = list_templates(templates_dir) if templates_dir is not None else []
    except TemplateError as err:
        return "\n".join(out + [f"Templates unavailable: {err.message}", ""])
    for info in infos:
        out += [f"## {info.name} {info.version}", "", info.description, "",
                f"Capabilities: {', '.join(info.capabilities) or 'none'}; libraries: "
                f"{', '.join(info.dependencies) or 'none'}", "",
                "| Argument | Type | Required | Description |", "|---|---|---|---|"]
        try:
            specs = template_manifest(templates_dir, info.name).args
        except TemplateError:
            specs = {}
        for name in sorted(specs):
            spec = specs[name]
            required = "yes" if spec.required else (
                f"no (default `{spec.default}`)" if spec.has_default() else "no")
            cells = (f"`{name}`", spec.type, required, spec.description)
            out.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        out.append("")
    if not infos:
        out.append("No templates are available to this server.")
    return "\n".join(out)


def documents() -> list[dict]:
    """The resources: uri, name, title, description (codes each have their own)."""
    from boruna.diagnostics.registry import ALL_CODES

    listed = [
        {"uri": GUIDE_URI, "name": "guide", "title": "Boruna language guide",
         "description": "Read first: syntax, types, every builtin with its signature, "
                        "capabilities and policies, the App protocol, common mistakes and "
                        "their fixes, a worked example."},
        {"uri": CODES_URI, "name": "codes", "title": "Diagnostic codes",
         "description": "Every diagnostic code boruna_check reports, with its meaning."},
        {"uri": LIBS_URI, "name": "libs", "title": "Standard libraries",
         "description": "Each library's import name, capabilities and exact signatures."},
        {"uri": TEMPLATES_URI, "name": "templates", "title": "App templates",
         "description": "Each template with its arguments (for boruna_template_apply)."},
        {"uri": WORKFLOWS_URI, "name": "workflows", "title": "Workflow format",
         "description": "The workflow.json format (steps, edges, inputs), the rules "
                        "boruna_workflow_validate checks, and an example."},
    ]
    for info in ALL_CODES.values():
        listed.append({"uri": CODE_URI_PREFIX + info.code, "name": f"code-{info.code}",
                       "title": f"{info.code} {info.name}",
                       "description": f"{info.summary} Explanation and a fixed example."})
    return listed


def document(uri: str, libs_dir=None, templates_dir=None) -> str | None:
    """The markdown text of resource `uri`; None when there is no such resource."""
    if uri == GUIDE_URI:
        return guide()
    if uri == CODES_URI:
        return codes_index()
    if uri.startswith(CODE_URI_PREFIX):
        code = uri[len(CODE_URI_PREFIX):]
        return explain(code) if code == code.upper() else None
    if uri == LIBS_URI:
        return libraries(libs_dir)
    if uri == TEMPLATES_URI:
        return templates(templates_dir)
    if uri == WORKFLOWS_URI:
        return _text("workflows.md")
    return None


# ----------------------------------------------------------------------------- prompts

PROMPTS: list[dict] = [
    {"name": "write_program", "title": "Write a Boruna program",
     "description": "Write a Boruna (.ax) program for a task, with the language guide attached.",
     "arguments": [{"name": "task", "description": "What the program should do.",
                    "required": True}]},
    {"name": "fix_diagnostics", "title": "Fix these diagnostics",
     "description": "Fix the diagnostics boruna_check reports for a source, with the "
                    "explanation of every code involved attached.",
     "arguments": [{"name": "source", "description": "The .ax source to fix.",
                    "required": True}]},
]


class PromptError(Exception):
    """An unknown prompt or a missing argument (the MCP server reports invalid params)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _fill(template: str, **values: str) -> str:
    """`template` with each `{name}` replaced in one pass (values may contain braces)."""
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), m.group(0)), template)


def prompt(name: str, arguments: dict | None, libs_dir=None) -> dict:
    """`{"description", "messages": [...]}`: each message `{"text": ...}` or `{"uri": ...}`
    (an attached resource, read with `document`). Raises PromptError."""
    spec = next((p for p in PROMPTS if p["name"] == name), None)
    if spec is None:
        raise PromptError(f"unknown prompt: {name}")
    arguments = arguments or {}
    for arg in spec["arguments"]:
        if arg["required"] and not isinstance(arguments.get(arg["name"]), str):
            raise PromptError(f"missing argument: {arg['name']}")
    if name == "write_program":
        text = _fill(_text("prompts", "write_program.md"), task=arguments["task"])
        return {"description": spec["description"], "messages": [{"text": text},
                                                                 {"uri": GUIDE_URI}]}
    source = arguments["source"]
    from boruna.service.diagnostics import check_tool
    from boruna.service.envelope import render
    from boruna.service.errors import guard_source

    guard_source(source)
    checked = check_tool(source, libs_dir=libs_dir)
    found = checked.get("diagnostics", [])
    text = _fill(_text("prompts", "fix_diagnostics.md"), source=source,
                 diagnostics=render(found))
    codes = dict.fromkeys(d["id"] for d in found if _code_info(d["id"]) is not None)
    return {"description": spec["description"],
            "messages": [{"text": text}] + [{"uri": CODE_URI_PREFIX + c} for c in codes]}
