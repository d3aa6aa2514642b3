"""Workflow DAGs: the JSON schema, validation rules and execution order."""
