"""`boruna.core.paths.library_file`: the one lookup of a library's source file."""
import os

from boruna.core.paths import library_file


def test_library_file_is_found_inside_the_libs_dir(tmp_path):
    (tmp_path / "lib-a" / "src").mkdir(parents=True)
    (tmp_path / "lib-a" / "src" / "core.ax").write_text("fn a() -> Int { 1 }\n")
    assert library_file(tmp_path, "lib-a") == tmp_path / "lib-a" / "src" / "core.ax"
    assert library_file(str(tmp_path), "lib-b") is None


def test_a_symlink_out_of_the_libs_dir_counts_as_missing(tmp_path):
    outside = tmp_path / "outside" / "src"
    outside.mkdir(parents=True)
    (outside / "core.ax").write_text("fn a() -> Int { 1 }\n")
    libs = tmp_path / "libs"
    libs.mkdir()
    os.symlink(tmp_path / "outside", libs / "evil")
    assert library_file(libs, "evil") is None
