"""The live progress line: steps so far and steps/s, throttled, erased at the end."""
import io

from boruna.cli.progress import ProgressLine, format_rate
from boruna.cli.style import Style


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_format_rate():
    assert format_rate(950) == "950 steps/s"
    assert format_rate(12_345) == "12.3k steps/s"
    assert format_rate(4_560_000) == "4.56M steps/s"


def test_nothing_is_drawn_for_a_short_run():
    clock, stream = Clock(), io.StringIO()
    line = ProgressLine(stream, Style(False), clock=clock)
    clock.now += 0.1
    line(100_000)
    line.close()
    assert stream.getvalue() == ""


def test_draws_steps_and_rate_then_erases():
    clock, stream = Clock(), io.StringIO()
    line = ProgressLine(stream, Style(False), clock=clock)
    clock.now += 0.5
    line(1_000_000)
    assert stream.getvalue() == \
        "\r\x1b[2Krunning 1,000,000 steps (2.00M steps/s, 0.5s) - Ctrl-C to stop"
    line.close()
    assert stream.getvalue().endswith("\r\x1b[2K")
    assert line.last_steps == 1_000_000


def test_redraws_are_throttled():
    clock, stream = Clock(), io.StringIO()
    line = ProgressLine(stream, Style(False), clock=clock)
    clock.now += 1.0
    line(100_000)
    clock.now += 0.01
    line(200_000)
    clock.now += 0.2
    line(300_000)
    assert stream.getvalue().count("\r\x1b[2K") == 2
    assert "300,000 steps" in stream.getvalue()
    assert "200,000 steps" not in stream.getvalue()
