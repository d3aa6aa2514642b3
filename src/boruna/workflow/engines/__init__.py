"""Engines: run one step (compile, execute, journal its effects through a callback) and
return its outcome. `base.py` is the interface, `step.py` the step itself, `local.py` and
`dask.py` where it runs."""
