"""Reading the user's files: one clear error line for every failure, never a traceback."""
import pytest

from boruna.cli import files

from boruna.cli.errors import CliError
from boruna.cli.files import decode_utf8, read_text, write_text


def test_reads_utf8_text(tmp_path):
    path = tmp_path / "a.ax"
    path.write_bytes("fn main() -> String { \"héllo\" }\n".encode())
    assert read_text(str(path)) == "fn main() -> String { \"héllo\" }\n"


def test_drops_a_leading_bom(tmp_path):
    path = tmp_path / "bom.ax"
    path.write_bytes(b"\xef\xbb\xbffn main() {}")
    assert read_text(str(path)) == "fn main() {}"


def test_missing_file(tmp_path):
    with pytest.raises(CliError) as info:
        read_text(str(tmp_path / "nope.ax"))
    assert info.value.message == f"cannot read '{tmp_path / 'nope.ax'}': no such file or directory"
    assert info.value.exit_code == 1


def test_directory_instead_of_file(tmp_path):
    with pytest.raises(CliError) as info:
        read_text(str(tmp_path))
    assert info.value.message == f"cannot read '{tmp_path}': is a directory"


def test_empty_path():
    with pytest.raises(CliError) as info:
        read_text("")
    assert info.value.message == "cannot read '': empty file name"


def test_nul_in_path_is_a_clean_error():
    with pytest.raises(CliError) as info:
        read_text("a\0b.ax")
    assert info.value.message.startswith("cannot read 'a\0b.ax': ")


def test_unreadable_file(tmp_path, monkeypatch):
    path = tmp_path / "secret.ax"
    path.write_text("fn main() {}")

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(files, "open", denied, raising=False)
    with pytest.raises(CliError) as info:
        read_text(str(path))
    assert info.value.message == f"cannot read '{path}': permission denied"


def test_non_utf8_reports_byte_line_and_column():
    data = b"fn main() {\n  let x = \"\xff\"\n}"
    with pytest.raises(CliError) as info:
        decode_utf8(data, "bad.ax")
    assert info.value.message == \
        "'bad.ax' is not valid UTF-8: invalid byte 0xff at line 2, column 12"


def test_truncated_multibyte_sequence_at_end():
    with pytest.raises(CliError) as info:
        decode_utf8(b"ok\n\xe2\x82", "t.ax")
    assert info.value.message == "'t.ax' is not valid UTF-8: invalid byte 0xe2 at line 2, column 1"


def test_write_into_missing_directory(tmp_path):
    target = tmp_path / "no" / "such" / "out.axbc"
    with pytest.raises(CliError) as info:
        write_text(str(target), "x")
    assert info.value.message == f"cannot write '{target}': no such file or directory"


def test_write_onto_a_directory(tmp_path):
    with pytest.raises(CliError) as info:
        write_text(str(tmp_path), "x")
    assert info.value.message == f"cannot write '{tmp_path}': is a directory"
