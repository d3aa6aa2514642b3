"""The live table of a workflow run's step states, redrawn on stderr when it is a terminal.

It is fed the run's progress messages (`step fetch: started`, `step fetch: completed`,
`step gate: awaiting_approval`, `step x: failed (runtime_error)`, `step x: 200000 VM steps`)
and redraws the steps seen so far (the last `MAX_ROWS`, plus a count line) in place;
`close()` erases it, as the command then prints the run's final state.
"""
from __future__ import annotations

import re

from boruna.cli.style import Style

MAX_ROWS = 15
_MESSAGE = re.compile(r"step (.+): (started|completed|failed|skipped|retrying|"
                      r"awaiting_approval|awaiting_external_event|awaiting_input|"
                      r"(\d+) VM steps)")
_STATE = {"started": "running", "retrying": "pending (retry)"}


class StepTable:
    def __init__(self, stream, style: Style):
        self.stream = stream
        self.style = style
        self.states: dict[str, str] = {}
        self.lines = 0

    def __call__(self, _count, message=None) -> None:
        match = _MESSAGE.fullmatch(message or "")
        if match is None:
            return
        step, event, steps = match.group(1), match.group(2), match.group(3)
        if steps is not None:
            self.states[step] = f"running, {int(steps):,} VM steps"
        else:
            self.states[step] = _STATE.get(event, event)
        self.draw()

    def rows(self) -> list[str]:
        items = list(self.states.items())
        shown = items[-MAX_ROWS:]
        rows = [f"  {step:<20} {state}" for step, state in shown]
        done = sum(1 for _, s in items if s == "completed")
        summary = f"{len(items)} step(s) seen, {done} completed"
        if len(items) > len(shown):
            summary += f" ({len(items) - len(shown)} earlier not shown)"
        return [self.style.note(summary)] + rows

    def draw(self) -> None:
        rows = self.rows()
        up = f"\x1b[{self.lines}F\x1b[J" if self.lines else ""
        self.stream.write(up + "\n".join(rows) + "\n")
        self.stream.flush()
        self.lines = len(rows)

    def close(self) -> None:
        if self.lines:
            self.stream.write(f"\x1b[{self.lines}F\x1b[J")
            self.stream.flush()
            self.lines = 0
