"""Colour only on a terminal; NO_COLOR turns it off, FORCE_COLOR / --color=always on."""
import io

from boruna.cli.style import Style, colour_enabled


class Tty(io.StringIO):
    def isatty(self):
        return True


def test_plain_stream_has_no_colour():
    assert colour_enabled(io.StringIO(), "auto", {}) is False


def test_terminal_has_colour():
    assert colour_enabled(Tty(), "auto", {}) is True


def test_no_color_wins_over_terminal():
    assert colour_enabled(Tty(), "auto", {"NO_COLOR": "1"}) is False


def test_empty_no_color_is_ignored():
    assert colour_enabled(Tty(), "auto", {"NO_COLOR": ""}) is True


def test_force_color_on_a_pipe():
    assert colour_enabled(io.StringIO(), "auto", {"FORCE_COLOR": "1"}) is True
    assert colour_enabled(io.StringIO(), "auto", {"CLICOLOR_FORCE": "0"}) is False


def test_explicit_mode_wins():
    assert colour_enabled(io.StringIO(), "always", {"NO_COLOR": "1"}) is True
    assert colour_enabled(Tty(), "never", {}) is False


def test_closed_stream_counts_as_no_terminal():
    stream = io.StringIO()
    stream.close()
    assert colour_enabled(stream, "auto", {}) is False


def test_paint():
    assert Style(True).error("error") == "\x1b[1;31merror\x1b[0m"
    assert Style(False).error("error") == "error"
    assert Style(True).paint("", "bold") == ""
