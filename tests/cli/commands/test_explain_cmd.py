"""`boruna explain CODE` and `boruna guide [TOPIC]` print the same texts as the MCP resources."""
from boruna.assets.directories import default_libs_dir, default_templates_dir
from boruna.service import agent_docs


def test_explain_prints_the_code_resource(cli):
    result = cli("explain", "E003")
    assert (result.code, result.err) == (0, "")
    assert result.out == agent_docs.document("boruna://codes/E003").rstrip("\n") + "\n"
    assert cli("explain", "missing_main").out.startswith("# MISSING_MAIN: missing-main")


def test_explain_unknown_code_fails_with_a_pointer_to_the_code_list(cli):
    result = cli("explain", "E999")
    assert (result.code, result.out) == (1, "")
    assert result.err == "error: unknown diagnostic code 'E999' (see 'boruna codes')\n"


def test_guide_prints_the_language_guide_by_default(cli):
    result = cli("guide")
    assert result.code == 0
    assert result.out == agent_docs.guide().rstrip("\n") + "\n"


def test_guide_topics_match_the_resources(cli):
    expected = {
        "codes": agent_docs.document("boruna://codes"),
        "libs": agent_docs.document("boruna://libs", libs_dir=default_libs_dir()),
        "templates": agent_docs.document("boruna://templates",
                                         templates_dir=default_templates_dir()),
    }
    for topic, text in expected.items():
        assert cli("guide", topic).out == text.rstrip("\n") + "\n"


def test_guide_reads_the_given_directories(cli, tmp_path):
    out = cli("guide", "libs", "--libs-dir", str(tmp_path)).out
    assert out.endswith("No libraries are available to this server.\n")
    assert cli("guide", "nope").code == 2
