"""Resources and prompts over MCP: the agent docs listed, read and used by the two prompts."""
import pytest

from mcp.shared.exceptions import MCPError

from boruna.diagnostics.registry import ALL_CODES
from boruna.service import agent_docs


def _read(server, uri):
    result = server.run(server.session.read_resource, uri)
    assert len(result.contents) == 1
    content = result.contents[0]
    assert (str(content.uri), content.mime_type) == (uri, "text/markdown")
    return content.text


def test_initialize_advertises_resources_and_prompts(mcp_server):
    caps = mcp_server.init.capabilities
    assert caps.tools is not None and caps.resources is not None and caps.prompts is not None
    assert "boruna://guide" in mcp_server.init.instructions


def test_resources_list_holds_the_guide_the_codes_libs_and_templates(mcp_server):
    listed = mcp_server.run(mcp_server.session.list_resources).resources
    uris = [str(r.uri) for r in listed]
    assert uris == (["boruna://guide", "boruna://codes", "boruna://libs", "boruna://templates",
                     "boruna://workflows"]
                    + [f"boruna://codes/{code}" for code in ALL_CODES])
    assert all(r.mime_type == "text/markdown" and r.title and r.description for r in listed)
    templates = mcp_server.run(mcp_server.session.list_resource_templates).resource_templates
    assert [t.uri_template for t in templates] == ["boruna://codes/{code}"]


def test_every_listed_resource_reads_as_the_service_text(mcp_server):
    from boruna.assets.directories import default_libs_dir, default_templates_dir

    for entry in agent_docs.documents():
        text = _read(mcp_server, entry["uri"])
        assert text == agent_docs.document(entry["uri"], libs_dir=default_libs_dir(),
                                           templates_dir=default_templates_dir())


def test_libs_and_templates_come_from_the_served_directories(mcp_server):
    libs = _read(mcp_server, "boruna://libs")
    assert "## std-validation (std.validation 1.0.0)" in libs
    assert ("fn validate_min_length(field: String, value: String, min: Int) -> "
            "ValidationResult") in libs
    templates = _read(mcp_server, "boruna://templates")
    assert "| `entity_name` | string | yes | Table / entity to manage (used in the queries) |" \
        in templates


def test_unknown_resource_is_invalid_params(mcp_server):
    with pytest.raises(MCPError) as info:
        mcp_server.run(mcp_server.session.read_resource, "boruna://codes/E999")
    assert (info.value.error.code, info.value.error.message) == (
        -32602, "resource not found: boruna://codes/E999")


def test_prompts_list_and_write_program_attaches_the_guide(mcp_server):
    prompts = mcp_server.run(mcp_server.session.list_prompts).prompts
    assert [(p.name, [(a.name, a.required) for a in p.arguments]) for p in prompts] == [
        ("write_program", [("task", True)]), ("fix_diagnostics", [("source", True)])]
    got = mcp_server.run(mcp_server.session.get_prompt, "write_program",
                         {"task": "sum the squares of 1..10"})
    first, second = got.messages
    assert "sum the squares of 1..10" in first.content.text
    assert second.content.type == "resource"
    assert str(second.content.resource.uri) == "boruna://guide"
    assert second.content.resource.text == agent_docs.guide()


def test_fix_diagnostics_reports_the_diagnostics_and_attaches_their_codes(mcp_server):
    source = "fn main() -> Int {\n    let total = 3\n    totl + 1\n}\n"
    got = mcp_server.run(mcp_server.session.get_prompt, "fix_diagnostics", {"source": source})
    text = got.messages[0].content.text
    assert source in text and '"id": "E003"' in text and "undefined variable: totl" in text
    attached = [str(m.content.resource.uri) for m in got.messages[1:]]
    assert attached == ["boruna://codes/E003"]


@pytest.mark.parametrize("name, arguments, message", [
    ("nope", {}, "unknown prompt: nope"),
    ("fix_diagnostics", {}, "missing argument: source"),
    ("write_program", None, "missing argument: task"),
])
def test_bad_prompt_requests_are_invalid_params(mcp_server, name, arguments, message):
    with pytest.raises(MCPError) as info:
        mcp_server.run(mcp_server.session.get_prompt, name, arguments)
    assert (info.value.error.code, info.value.error.message) == (-32602, message)
