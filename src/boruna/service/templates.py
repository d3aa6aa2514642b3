"""`boruna_template_list` and `boruna_template_apply`: app templates from a templates directory."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from boruna.core.errors import ErrorKind
from boruna.service.boundary import tool_boundary
from boruna.service.envelope import ok
from boruna.service.results import Failure, use_case


@dataclass
class TemplateList:
    """The templates of a directory (`assets.templates.TemplateInfo`, sorted by name)."""

    templates: list
    success = True

    def to_json(self) -> dict:
        return ok(count=len(self.templates), templates=[t.to_dict() for t in self.templates])


@dataclass
class TemplateApplied:
    """A rendered template (`assets.templates.AppliedTemplate`); nothing is written."""

    applied: Any
    success = True

    def to_json(self) -> dict:
        return ok(**self.applied.to_dict())


class TemplateFailure(Failure):
    """A `template_error` of `apply_template`: `reason` is the TemplateError's (`not_found`,
    `missing_argument` or None); `templates` lists the directory for advice (None when it
    cannot be listed), read only when a renderer asks."""

    def __init__(self, err, templates_dir):
        super().__init__(ErrorKind.TEMPLATE_ERROR, err.message)
        self.reason = err.reason
        self.templates_dir = templates_dir

    @cached_property
    def templates(self) -> list | None:
        from boruna.assets.templates import TemplateError, list_templates as list_dir

        try:
            return list_dir(self.templates_dir)
        except TemplateError:
            return None


@use_case
def list_templates(templates_dir):
    """Every template's name, version, description, dependencies, capabilities and arguments.

    A missing, unreadable or malformed templates directory is `template_error`.
    """
    from boruna.assets.templates import TemplateError, list_templates as list_dir

    try:
        return TemplateList(list_dir(templates_dir))
    except TemplateError as err:
        return Failure(ErrorKind.TEMPLATE_ERROR, err.message)


@use_case
def apply_template(templates_dir, template_name: str, args, validate: bool = False,
                   cancel_event=None):
    """Render `template_name` with `args` ("key=value" strings or a dict); optionally compile
    the output. A malformed argument is `invalid_args`, anything else `template_error`; a set
    `cancel_event` (threading.Event) stops it between its steps (`cancelled`)."""
    from boruna.assets.templates import TemplateArgsError, TemplateCancelled, TemplateError
    from boruna.assets.templates import apply_template as apply

    try:
        return TemplateApplied(apply(templates_dir, template_name, args, validate=bool(validate),
                                     cancel_event=cancel_event))
    except TemplateArgsError as err:
        return Failure(ErrorKind.INVALID_ARGS, err.message)
    except TemplateCancelled as err:
        return Failure(ErrorKind.CANCELLED, err.message)
    except TemplateError as err:
        return TemplateFailure(err, templates_dir)


@tool_boundary
def template_list_tool(templates_dir) -> dict:
    """See `list_templates`."""
    return list_templates(templates_dir).to_json()


@tool_boundary
def template_apply_tool(templates_dir, template_name: str, args, validate: bool = False,
                        cancel_event=None) -> dict:
    """See `apply_template`."""
    return apply_template(templates_dir, template_name, args, validate,
                          cancel_event=cancel_event).to_json()
