"""The run journal: the one writer of runs, steps, effects and audit entries (`store.py`)."""
