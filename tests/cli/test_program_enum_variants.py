"""A bare enum variant used as a value: `run` says how to write it, `repair` writes it."""


def test_run_explains_a_bare_variant(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with open("light.ax", "w") as handle:
        handle.write("enum Light { Red, Green }\n"
                     "fn same(l: Light) -> Light { l }\n"
                     "fn main() -> Int {\n    match same(Red) { Green => 1, Red => 0 }\n}\n")
    result = cli("run", "light.ax")
    assert result.code == 1
    assert result.err.splitlines() == [
        "error[E003]: undefined variable: Red",
        " --> light.ax:4:16",
        "  |",
        "4 |     match same(Red) { Green => 1, Red => 0 }",
        "  |                ^^^",
        "  = help: 'Red' is a variant of enum 'Light': write Light::Red "
        "(boruna repair light.ax does it)",
    ]
    assert cli("repair", "light.ax").code == 0
    assert cli("run", "light.ax").out == "0\nsteps: 10\n"


def test_undefined_name_that_is_no_variant_gets_no_variant_help(cli, tmp_path):
    prog = tmp_path / "x.ax"
    prog.write_text("enum Light { Red }\nfn main() -> Int {\n    Blue\n}\n")
    result = cli("run", prog)
    assert result.code == 1
    assert "variant" not in result.err
