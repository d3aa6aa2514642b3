"""The live progress line of a long `boruna run`, drawn on stderr when it is a terminal.

It is the `on_progress(steps)` callback of `boruna.runtime.execute.run`, which calls it
after every unfinished slice of the VM; it redraws at most every `interval` seconds and
only once the run has lasted `delay` seconds, so short runs print nothing.
"""
from __future__ import annotations

import time

from boruna.cli.style import Style


def format_rate(rate: float) -> str:
    """`950 steps/s`, `12.3k steps/s`, `4.56M steps/s`."""
    if rate >= 1e6:
        return f"{rate / 1e6:.2f}M steps/s"
    if rate >= 1e3:
        return f"{rate / 1e3:.1f}k steps/s"
    return f"{rate:.0f} steps/s"


class ProgressLine:
    """Callable progress reporter; `close()` erases the line."""

    def __init__(self, stream, style: Style, delay: float = 0.25, interval: float = 0.1,
                 clock=time.monotonic):
        self.stream = stream
        self.style = style
        self.delay = delay
        self.interval = interval
        self.clock = clock
        self.start = clock()
        self.last_draw: float | None = None
        self.drawn = False
        self.last_steps = 0

    def line(self, steps: int, now: float) -> str:
        elapsed = max(now - self.start, 1e-9)
        return (f"{self.style.note('running')} {steps:,} steps "
                f"({format_rate(steps / elapsed)}, {elapsed:.1f}s) - Ctrl-C to stop")

    def __call__(self, steps: int, *_args) -> None:
        self.last_steps = steps
        now = self.clock()
        if now - self.start < self.delay:
            return
        if self.last_draw is not None and now - self.last_draw < self.interval:
            return
        self.last_draw = now
        self.stream.write("\r\x1b[2K" + self.line(steps, now))
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            self.drawn = False
