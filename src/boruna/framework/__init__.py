"""The Elm-style App framework: protocol validator, runtime, effects, policies, test runner.

Public entry points: `validate_app(source_or_program) -> AppValidation` and
`run_app_test(source_or_module, messages, policy=None, max_steps=...) -> AppTestResult`.
"""
from .app_policy import AppPolicy
from .effects import EFFECT_KINDS, Effect, IgnoredEffect, parse_effects
from .errors import FrameworkError
from .executor import MockEffectExecutor
from .messages import parse_message, split_message_list
from .runtime import MAX_CYCLES, AppRuntime, CycleOutcome
from .test_runner import AppTestResult, run_app_test
from .ui_tree import UiNode, value_to_ui_tree
from .validator import AppValidation, validate_app, validate_program

__all__ = [
    "AppPolicy", "AppRuntime", "AppTestResult", "AppValidation", "CycleOutcome", "EFFECT_KINDS",
    "Effect", "FrameworkError", "IgnoredEffect", "MAX_CYCLES", "MockEffectExecutor",
    "UiNode", "parse_effects", "parse_message", "run_app_test", "split_message_list",
    "validate_app", "validate_program", "value_to_ui_tree",
]
