"""`boruna_template_list` and `boruna_template_apply`: app templates from a templates directory."""
from __future__ import annotations

from boruna.service.boundary import tool_boundary
from boruna.service.envelope import fail, ok


@tool_boundary
def template_list_tool(templates_dir) -> dict:
    """Every template's name, version, description, dependencies, capabilities and argument names.

    A missing, unreadable or malformed templates directory is `template_error`.
    """
    from boruna.assets.templates import TemplateError, list_templates

    try:
        infos = list_templates(templates_dir)
    except TemplateError as err:
        return fail("template_error", err.message)
    return ok(count=len(infos), templates=[info.to_dict() for info in infos])


@tool_boundary
def template_apply_tool(templates_dir, template_name: str, args, validate: bool = False) -> dict:
    """Render `template_name` with `args` ("key=value" strings); optionally compile the output."""
    from boruna.assets.templates import TemplateArgsError, TemplateError, apply_template

    try:
        applied = apply_template(templates_dir, template_name, args, validate=bool(validate))
    except TemplateArgsError as err:
        return fail("invalid_args", err.message)
    except TemplateError as err:
        return fail("template_error", err.message)
    return ok(**applied.to_dict())
