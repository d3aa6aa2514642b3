"""Workflow DAGs: the JSON schema, validation rules and execution order, and the durable
runner: `boruna.workflow.run(directory, inputs=..., policy=..., data_dir=...)`,
`resume(run_id)`, `decide(run_id, step, "approve", role=...)`, `status(run_id)` return a
typed `WorkflowRun` (`api.py`)."""


def __getattr__(name):
    if name in ("run", "resume", "decide", "status", "WorkflowRun", "StepState", "RunError"):
        from boruna.workflow import api

        return getattr(api, name)
    raise AttributeError(f"module 'boruna.workflow' has no attribute {name!r}")
