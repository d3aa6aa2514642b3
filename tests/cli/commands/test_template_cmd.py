"""`boruna template apply` failures: the advice comes from the one `apply_template` result
(its reason and the directory's templates), not from a second listing or the message text."""
import pytest

from boruna import service


@pytest.fixture
def no_listing(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("template apply listed the templates a second time")

    monkeypatch.setattr(service, "list_templates", refuse)


def test_unknown_template_names_the_closest(cli, tmp_path, monkeypatch, no_listing):
    monkeypatch.chdir(tmp_path)
    result = cli("template", "apply", "crud-adm", "--args", "entity_name=x")
    assert (result.code, result.out) == (1, "")
    assert result.err == (
        "error: template 'crud-adm' not found (did you mean 'crud-admin'? available: "
        "auth-app, crud-admin, form-basic, offline-sync, realtime-feed)\n")


def test_missing_argument_lists_what_the_template_takes(cli, tmp_path, monkeypatch, no_listing):
    monkeypatch.chdir(tmp_path)
    result = cli("template", "apply", "crud-admin", "--args", "entity_name=users")
    assert result.err == ('error: missing required argument: fields (crud-admin takes '
                          'entity_name, fields: --args "entity_name=...,fields=...")\n')


def test_other_template_errors_have_no_advice(cli, tmp_path, no_listing):
    result = cli("template", "apply", "../x", "--dir", tmp_path)
    assert (result.code, result.err) == (1, "error: invalid template name '../x'\n")
