"""The capability table (docs/spec/vm.md §5.1, docs/spec/language.md §3.7)."""
import pytest

from boruna.core import capabilities as caps


def test_ids_wire_names_and_variants():
    table = [(c.id, c.wire_name, c.variant) for c in caps.CAPABILITIES]
    assert table == [
        (0, "net.fetch", "NetFetch"), (1, "fs.read", "FsRead"), (2, "fs.write", "FsWrite"),
        (3, "db.query", "DbQuery"), (4, "ui.render", "UiRender"), (5, "time.now", "TimeNow"),
        (6, "random", "Random"), (7, "llm.call", "LlmCall"), (8, "actor.spawn", "ActorSpawn"),
        (9, "actor.send", "ActorSend"), (10, "step.input", "StepInput"),
    ]


@pytest.mark.parametrize("spelling, cap_id", [
    ("net.fetch", 0), ("net", 0), ("fs.read", 1), ("fs.write", 2), ("db.query", 3), ("db", 3),
    ("ui.render", 4), ("ui", 4), ("time.now", 5), ("time", 5), ("random", 6),
    ("llm.call", 7), ("llm", 7), ("actor_spawn", 8), ("actor.spawn", 8),
    ("actor_send", 9), ("actor.send", 9), ("step.input", 10), ("step_input", 10),
])
def test_source_spellings(spelling, cap_id):
    assert caps.from_source_name(spelling).id == cap_id


@pytest.mark.parametrize("name", ["fs", "db.write", "made.up", "network", "Net", "net.fetch ",
                                  "NetFetch", ""])
def test_unknown_source_spellings(name):
    assert caps.from_source_name(name) is None


def test_lookups():
    assert caps.by_id(10).wire_name == "step.input"
    assert caps.by_id(11) is None
    assert caps.by_id(-1) is None
    assert caps.by_wire_name("net") is None
    assert caps.by_wire_name("net.fetch").id == 0
    assert caps.by_variant("LlmCall").wire_name == "llm.call"
    assert caps.alias_target("time").wire_name == "time.now"
    assert caps.alias_target("time.now") is None


def test_capability_set_hash_matches_the_reference_golden_value():
    assert caps.capability_set_hash() == (
        "sha256:980d017dc54e30c39c329484b501fbe46914d9ad344bfcb4610b0280f4300a67")
    assert [c.wire_name for c in caps.sorted_by_name()] == [
        "actor.send", "actor.spawn", "db.query", "fs.read", "fs.write", "llm.call",
        "net.fetch", "random", "step.input", "time.now", "ui.render"]
    assert {c.version for c in caps.CAPABILITIES} == {"1"}
