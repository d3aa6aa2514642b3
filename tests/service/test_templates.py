"""`apply_template` failures keep the TemplateError's reason and, on demand, the directory's
templates; the JSON stays the `template_error` envelope."""
from boruna import service
from boruna.assets.directories import TEMPLATES, resolve_dir
from boruna.assets.templates import MISSING_ARGUMENT, NOT_FOUND

BUNDLED = resolve_dir(None, TEMPLATES)


def test_unknown_template_is_not_found():
    failure = service.apply_template(BUNDLED, "nope", [])
    assert failure.to_json() == {"success": False, "protocol_version": 1,
                                 "error_kind": "template_error",
                                 "message": "template 'nope' not found"}
    assert failure.reason == NOT_FOUND
    assert "crud-admin" in [t.name for t in failure.templates]


def test_missing_argument_reason():
    failure = service.apply_template(BUNDLED, "crud-admin", ["entity_name=u"])
    assert (failure.reason, failure.message) == (MISSING_ARGUMENT,
                                                 "missing required argument: fields")


def test_an_unlistable_directory_gives_no_templates(tmp_path):
    failure = service.apply_template(tmp_path / "missing", "x", [])
    assert (failure.reason, failure.templates) == (NOT_FOUND, None)
