"""The Elm-style App framework: protocol validator, runtime, effects, policies, test runner.

Public entry points: `validate_app(source_or_program) -> AppValidation` and
`run_app_test(source_or_module, messages, policy=None, max_steps=...) -> AppTestResult`.
Modules import each other, never this package: `errors` and `messages` at the bottom, then
`effects`, `app_policy` (the App's PolicySet), `runtime` (`AppRuntime`,
`MAX_CYCLES`), `test_runner`; `validator` stands apart.
"""
from .app_policy import AppPolicy
from .effects import EFFECT_KINDS, Effect, IgnoredEffect, parse_effects
from .errors import FrameworkError
from .messages import parse_message, split_message_list
from .runtime import MAX_CYCLES, AppRuntime, CycleOutcome
from .test_runner import AppTestResult, run_app_test
from .validator import AppValidation, validate_app, validate_program

__all__ = [
    "AppPolicy", "AppRuntime", "AppTestResult", "AppValidation", "CycleOutcome", "EFFECT_KINDS",
    "Effect", "FrameworkError", "IgnoredEffect", "MAX_CYCLES", "parse_effects", "parse_message",
    "run_app_test", "split_message_list", "validate_app", "validate_program",
]
