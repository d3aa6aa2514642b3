"""What the blind trial of the guide (issue 23) found in the agent documents."""
from boruna.service import agent_docs


def test_e009_says_type_mismatches_are_errors_and_names_the_only_warnings():
    text = " ".join(agent_docs.explain("E009").split())
    assert "As a warning from `boruna_check`'s type checker" not in text
    assert ("It is an **error** when the program would stop with a type error at run time or "
            "produce a value that contradicts its annotations") in text
    assert ("It is a **warning** only where the VM's rules make the code run as written but "
            "not as meant") in text
