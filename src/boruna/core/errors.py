"""One error-kind vocabulary, and runtime errors carrying the reference VM's Display texts.

`ErrorKind` names every kind of failure the package reports: the VM's error variants
(`VmError.kind`), what a run ended with (`RunOutcome.error_kind`), the `error_kind` of every
service response, and the policy validator's finer kinds. Its values are the wire strings, so
a kind compares equal to (and serializes as) the text clients see. Callers branch on kinds,
never on a message's wording.

`VmError.message` is the string users see (docs/spec/vm.md §4.6: `boruna_run`'s `message`, the CLI's
`runtime error: ...`).
"""
from __future__ import annotations

from enum import Enum
from typing import Iterable, Optional

from boruna.core.limits import MAX_COLLECTION_LEN, MAX_STACK, MAX_STRING_BYTES


class ErrorKind(str, Enum):
    """Every error kind; `str(kind)` and `f"{kind}"` are the wire string."""

    # VM error variants (VmError.kind)
    RUNTIME = "runtime"
    STACK_UNDERFLOW = "stack_underflow"
    STACK_OVERFLOW = "stack_overflow"
    INVALID_FUNCTION = "invalid_function"
    INVALID_CONSTANT = "invalid_constant"
    INVALID_LOCAL = "invalid_local"
    INVALID_GLOBAL = "invalid_global"
    TYPE_ERROR = "type_error"
    DIVISION_BY_ZERO = "division_by_zero"
    OVERFLOW = "overflow"
    CAPABILITY_DENIED = "capability_denied"          # also a boruna_run_sealed error_kind
    CAPABILITY_BUDGET_EXCEEDED = "capability_budget_exceeded"
    UNKNOWN_CAPABILITY = "unknown_capability"
    ASSERTION_FAILED = "assertion_failed"
    CONTRACT_VIOLATION = "contract_violation"
    INDEX_OUT_OF_BOUNDS = "index_out_of_bounds"
    MATCH_EXHAUSTED = "match_exhausted"
    STEP_LIMIT = "step_limit"
    WALL_TIME = "wall_time"                          # also RunOutcome.error_kind
    MEMORY_LIMIT = "memory_limit"
    WORK_LIMIT = "work_limit"                        # also RunOutcome.error_kind
    BYTECODE = "bytecode"
    INTERNAL = "internal"
    CANCELLED = "cancelled"                          # also RunOutcome and service error_kind

    # service responses (`error_kind`) and RunOutcome.error_kind
    RUNTIME_ERROR = "runtime_error"
    PARSE_ERROR = "parse_error"
    COMPILE_ERROR = "compile_error"
    INVALID_POLICY = "invalid_policy"
    LIMIT_EXCEEDED = "limit_exceeded"
    UNSUPPORTED_LIMIT = "unsupported_limit"
    INVALID_OUTPUT_SCHEMA = "invalid_output_schema"
    VALIDATION_FAILED = "validation_failed"
    VALIDATION_ERROR = "validation_error"
    SERIALIZATION_ERROR = "serialization_error"
    FRAMEWORK_ERROR = "framework_error"
    TEMPLATE_ERROR = "template_error"
    INVALID_ARGS = "invalid_args"
    INVALID_BYTECODE = "invalid_bytecode"
    INVALID_DIAGNOSTICS = "invalid_diagnostics"
    INTERNAL_ERROR = "internal_error"
    SERVER_BUSY = "server_busy"                  # MCP: the tool's lane is full
    REPLAY_MISMATCH = "replay_mismatch"          # `boruna run --replay`: differs from its tape
    # suspended runs (docs/snapshots.md): a resume token or snapshot refused, an answer of
    # the wrong type for the delegated capability's result
    INVALID_RESUME_TOKEN = "invalid_resume_token"
    INVALID_SNAPSHOT = "invalid_snapshot"
    INVALID_ANSWER = "invalid_answer"

    # workflow runs (`boruna_workflow_run`/`_status`/`_resume`/`_decide`, `boruna workflow ...`)
    INVALID_INPUTS = "invalid_inputs"            # run inputs missing or unknown
    INVALID_PATH = "invalid_path"                # a workflow directory outside the allowed root
    IO_ERROR = "io_error"                        # workflow.json / a bundle cannot be read or written
    NOT_FOUND = "not_found"                      # no such run or step
    INVALID_STATE = "invalid_state"              # e.g. approving a step that does not wait
    ROLE_MISMATCH = "role_mismatch"              # approve --role differs from required_role
    INVALID_TOKEN = "invalid_token"              # trigger --token differs from the step's
    WORKFLOW_CHANGED = "workflow_changed"        # resume: the workflow hash differs
    LEASE_HELD = "lease_held"                    # another runner drives the run
    JOURNAL_CORRUPT = "journal_corrupt"          # runs.db is not a database
    JOURNAL_LOCKED = "journal_locked"            # runs.db busy beyond the timeout
    DISK_FULL = "disk_full"                      # runs.db cannot grow
    JOURNAL_ERROR = "journal_error"              # any other journal failure
    ENGINE_UNAVAILABLE = "engine_unavailable"    # --engine dask without `distributed`
    EVIDENCE_INVALID = "evidence_invalid"        # `boruna evidence verify`: the bundle differs

    # a compile error's finer kind (`CompileError.reason`; never on the wire)
    UNDEFINED_VARIABLE = "undefined_variable"    # names (E009) or an assignment (E008)
    UNDEFINED_VALUE = "undefined_value"          # a name used as a value (E008)
    UNKNOWN_FUNCTION = "unknown_function"        # `spawn` of a non-function (E008)
    OVER_255 = "over_255"                        # more than 255 params/items/args/fields (E008)
    IMPORT_NOT_FOUND = "import_not_found"        # `import "x"` of a library that is not there (E002)

    # the policy validator's finer kinds (docs/spec/policy.md §6.3; `policy_error` beside invalid_policy)
    POLICY_PARSE_ERROR = "policy.parse_error"
    POLICY_UNKNOWN_FIELD = "policy.unknown_field"
    POLICY_INVALID_CAPABILITY = "policy.invalid_capability"
    POLICY_UNKNOWN_SCHEMA_VERSION = "policy.unknown_schema_version"
    POLICY_INVALID_NET_POLICY = "policy.invalid_net_policy"
    POLICY_IO_ERROR = "policy.io_error"

    __str__ = str.__str__
    __format__ = str.__format__
    __hash__ = str.__hash__


CAPABILITY_REFUSALS = frozenset({ErrorKind.CAPABILITY_DENIED,
                                 ErrorKind.CAPABILITY_BUDGET_EXCEEDED})
"""VM kinds meaning the policy (or the function's declaration) refused a capability call."""


class VmError(Exception):
    """A runtime error. `str(err) == err.message`; `kind` is an ErrorKind."""

    def __init__(self, message: str, kind: str = ErrorKind.RUNTIME, *,
                 capability: Optional[str] = None, limit: Optional[int] = None,
                 expected: Optional[str] = None, got: Optional[str] = None):
        super().__init__(message)
        self.message = message
        self.kind = ErrorKind(kind)
        self.capability = capability  # wire name, for capability_denied / budget errors
        self.limit = limit             # max_steps / wall ms, where relevant
        self.expected = expected       # type_error: the expected type
        self.got = got                 # type_error: the type found
        # set by the VM when the error stops a run: (function index, pc) of each frame,
        # innermost first (the places are looked up in the module's line tables)
        self.frames: tuple[tuple[int, int], ...] = ()

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"VmError({self.kind.value!r}, {self.message!r})"


def stack_underflow() -> VmError:
    return VmError("stack underflow", ErrorKind.STACK_UNDERFLOW)


def stack_overflow(limit: int = MAX_STACK) -> VmError:
    """`limit` is 4096 for the operand stack, 256 for call depth."""
    return VmError(f"stack overflow (max {limit})", ErrorKind.STACK_OVERFLOW, limit=limit)


def invalid_function(index: int) -> VmError:
    return VmError(f"invalid function index: {index}", ErrorKind.INVALID_FUNCTION)


def invalid_constant(index: int) -> VmError:
    return VmError(f"invalid constant index: {index}", ErrorKind.INVALID_CONSTANT)


def invalid_local(index: int) -> VmError:
    return VmError(f"invalid local index: {index}", ErrorKind.INVALID_LOCAL)


def invalid_global(index: int) -> VmError:
    return VmError(f"invalid global index: {index}", ErrorKind.INVALID_GLOBAL)


def type_error(expected: str, got: str) -> VmError:
    """`type error: expected {expected}, got {got}`; `got` is usually `values.type_name(v)`."""
    return VmError(f"type error: expected {expected}, got {got}", ErrorKind.TYPE_ERROR,
                   expected=expected, got=got)


def division_by_zero() -> VmError:
    return VmError("division by zero", ErrorKind.DIVISION_BY_ZERO)


def overflow(op: str) -> VmError:
    """`op`: addition, subtraction, multiplication, division, remainder or negation."""
    return VmError(f"integer overflow in {op}", ErrorKind.OVERFLOW)


def capability_denied(wire_name: str) -> VmError:
    return VmError(f"capability denied: {wire_name}", ErrorKind.CAPABILITY_DENIED,
                   capability=wire_name)


def capability_budget_exceeded(wire_name: str) -> VmError:
    return VmError(f"capability budget exceeded: {wire_name}",
                   ErrorKind.CAPABILITY_BUDGET_EXCEEDED, capability=wire_name)


def unknown_capability(cap_id: int) -> VmError:
    return VmError(f"unknown capability id: {cap_id}", ErrorKind.UNKNOWN_CAPABILITY)


def assertion_failed(msg: str) -> VmError:
    return VmError(f"assertion failed: {msg}", ErrorKind.ASSERTION_FAILED)


def capability_error(handler_message: str) -> VmError:
    """A capability handler failure: `assertion failed: capability error: {msg}`."""
    return assertion_failed(f"capability error: {handler_message}")


def contract_violation(message: str, counterexample: Iterable[str] = ()) -> VmError:
    """`{message} [counterexample: ({args})]`; `counterexample` holds Display strings."""
    joined = ", ".join(counterexample)
    return VmError(f"{message} [counterexample: ({joined})]", ErrorKind.CONTRACT_VIOLATION)


def index_out_of_bounds(index: int, length: int) -> VmError:
    return VmError(f"list index out of bounds: index {index}, length {length}",
                   ErrorKind.INDEX_OUT_OF_BOUNDS)


def match_exhausted() -> VmError:
    return VmError("no match found for value", ErrorKind.MATCH_EXHAUSTED)


def row_column_missing(column: str, columns) -> VmError:
    """A row accessor (`row_int`, ...) named a column the row lacks."""
    listed = ", ".join(columns) if columns else "none"
    return VmError(f"row has no column `{column}` (columns: {listed})", ErrorKind.RUNTIME)


def row_column_type(column: str, expected: str, got: str) -> VmError:
    """A row accessor found a value of another type in the column."""
    return VmError(f"type error: column `{column}`: expected {expected}, got {got}",
                   ErrorKind.TYPE_ERROR, expected=expected, got=got)


def step_limit(max_steps: int) -> VmError:
    return VmError(f"max execution steps exceeded ({max_steps})", ErrorKind.STEP_LIMIT,
                   limit=max_steps)


def wall_time_exceeded(ms: int) -> VmError:
    return VmError(f"wall-clock execution limit exceeded ({ms} ms)", ErrorKind.WALL_TIME, limit=ms)


def bytecode_error(detail: str) -> VmError:
    return VmError(f"bytecode error: {detail}", ErrorKind.BYTECODE)


def execution_cancelled() -> VmError:
    """The run's cancel event was set (MCP cancellation, Ctrl-C)."""
    return VmError("execution cancelled", ErrorKind.CANCELLED)


def string_too_large(nbytes: Optional[int] = None) -> VmError:
    """A string value over MAX_STRING_BYTES (`nbytes` None: its size is not known, e.g. SQLite
    refused to build it)."""
    size = "a value" if nbytes is None else f"{nbytes} bytes"
    return VmError(f"string too large: {size} exceeds the limit of {MAX_STRING_BYTES} bytes",
                   ErrorKind.MEMORY_LIMIT)


def collection_too_large(n: int) -> VmError:
    return VmError(f"collection too large: {n} elements exceeds the limit of "
                   f"{MAX_COLLECTION_LEN} elements", ErrorKind.MEMORY_LIMIT)


def value_memory_exceeded(cap: int) -> VmError:
    return VmError(f"memory limit exceeded: live values use more than {cap} bytes",
                   ErrorKind.MEMORY_LIMIT)
