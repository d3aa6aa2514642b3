"""What the blind trial of the guide (issue 23) found in the agent documents."""
from boruna.service import agent_docs


def test_e009_says_type_mismatches_are_errors_and_names_the_only_warnings():
    text = " ".join(agent_docs.explain("E009").split())
    assert "As a warning from `boruna_check`'s type checker" not in text
    assert ("It is an **error** when the program would stop with a type error at run time or "
            "produce a value that contradicts its annotations") in text
    assert ("It is a **warning** only where the VM's rules make the code run as written but "
            "not as meant") in text


ACTORS = '''type Note { text: String }

fn worker() -> Int {
    emit Note { text: "worker ran" }
    let n: Int = receive
    send n 1        // an E009 error (an Int is no ActorId), never reached: worker never runs
    n
}

fn main() -> Int {
    let a = spawn worker
    send a 21
    let reply: Int = receive
    reply
}
'''


def test_the_guide_says_what_actors_do_in_a_run_and_a_run_does_it():
    from boruna.service.running import run_tool

    response = run_tool(ACTORS)
    # the spawned worker never ran (no UI tree), the message was never delivered, and
    # main's receive returned Unit: no reply can reach main
    assert (response["success"], response["result"], response["ui_output"]) == (True, None, [])
    flat = " ".join(agent_docs.guide().split())
    for text in ("### Actors: no replies in a run", "but **`f` never runs**",
                 "queues the message and it is **never delivered**",
                 "`receive` never waits and returns Unit", "So an actor cannot reply"):
        assert text in flat
