"""CRLF files compile, run and keep their line endings when `boruna repair` rewrites them."""


def test_repair_keeps_crlf_line_endings(cli, tmp_path):
    prog = tmp_path / "crlf.ax"
    prog.write_bytes(b"fn main() -> Int {\r\n    let count = 2\r\n    countt\r\n}\r\n")
    result = cli("repair", prog)
    assert result.code == 0
    assert prog.read_bytes() == b"fn main() -> Int {\r\n    let count = 2\r\n    count\r\n}\r\n"
    assert cli("run", prog).out == "2\nsteps: 5\n"
