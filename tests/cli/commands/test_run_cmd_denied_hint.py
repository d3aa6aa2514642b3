"""The hint under a denied capability: `declare it` only when the program does not."""
FILES = 'fn main() -> String !{fs.read} {\n    fs_read("notes.txt")\n}\n'


def test_a_declared_capability_denied_by_the_policy_gets_only_the_policy_hint(cli, tmp_path):
    path = tmp_path / "files.ax"
    path.write_text(FILES)
    result = cli("run", path, "-p", "deny-all")
    assert result.code == 1
    assert result.err.startswith("error: runtime error: capability denied: fs.read\n")
    assert ("  = help: the program declares `fs.read`; the policy denies it: run with a policy "
            "that allows it (--policy allow-all or a policy file)\n") in result.err
    assert "declare it on the function" not in result.err
