"""The capability Policy: model, strict parser, error contract, JSON Schema (docs/spec/policy.md).

Entry points:
- `parse_policy(value)` — the MCP `policy` argument: None → allow-all, the two
  shorthands, or an object validated strictly; anything else is `invalid_policy`.
- `parse_policy_text(text)` — a policy *file body* (`boruna_policy_validate`, CLI
  files): serde-style JSON syntax errors, the positional-array quirk, no shorthands.
- `load_policy_file(path)` — a policy file named on the command line.
All failures raise `PolicyError` with the exact kind and message of docs/spec/policy.md §6;
`PolicyError.error_object()` is the structured `E` of §6.3.

`python -m boruna.runtime.policy` prints the JSON Schema (docs/policy.schema.json).
"""
from __future__ import annotations

import json
import math
import os
from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field

from boruna.core.capabilities import CAPABILITIES, Capability, alias_target, by_wire_name
from boruna.core.display import float_to_string
from boruna.core.errors import ErrorKind
from boruna.core.jsonread import U64_MAX, JsonSyntaxError, OutOfRange, loads, number_value
from boruna.core.unicode import debug_str

SCHEMA_VERSION = 1
DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024
DEFAULT_TIMEOUT_MS = 30_000
HTTP_METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS")
TOP_LEVEL_FIELDS = ("schema_version", "rules", "default_allow", "net_policy")
NET_POLICY_FIELDS = ("allowed_domains", "allowed_methods", "max_response_bytes", "timeout_ms",
                     "allow_redirects")
RULE_FIELDS = ("allow", "budget")
SCHEMA_DOC = "docs/reference/policy-schema.md"

CapabilityName = Literal[tuple(c.wire_name for c in CAPABILITIES)]  # type: ignore[valid-type]
HttpMethod = Literal[HTTP_METHODS]  # type: ignore[valid-type]


# ─── the model ────────────────────────────────────────────────────────────────

class PolicyRule(BaseModel):
    """Per-capability rule. `budget` 0 means unlimited."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    allow: bool = Field(description="Whether the capability may be invoked.")
    budget: int = Field(ge=0, le=U64_MAX,
                        description="Maximum calls per run; 0 means unlimited.")


class NetPolicy(BaseModel):
    """Bounds for the live HTTP handler (inert under the mock handler)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    allowed_domains: list[str] = Field(
        default_factory=list,
        description="Exact hosts or `*.suffix` patterns; empty means every domain.")
    allowed_methods: list[HttpMethod] = Field(  # type: ignore[valid-type]
        default_factory=list, description="Upper-case HTTP methods; empty means every method.")
    max_response_bytes: int = Field(default=DEFAULT_MAX_RESPONSE_BYTES, ge=1, le=U64_MAX)
    timeout_ms: int = Field(default=DEFAULT_TIMEOUT_MS, ge=1, le=U64_MAX)
    allow_redirects: bool = True


class Policy(BaseModel):
    """A capability policy (schema version 1), already validated and normalised."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, title="Boruna capability policy",
        json_schema_extra={
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "description": "Capability policy, schema version 1. Objects only; the CLI and "
                           "MCP also accept the shorthands \"allow-all\" and \"deny-all\".",
        })

    schema_version: Optional[Literal[1]] = Field(
        default=1, description="Only 1 is supported; null means the default.")
    rules: dict[CapabilityName, PolicyRule] = Field(  # type: ignore[valid-type]
        default_factory=dict,
        description="Canonical capability name → rule. Aliases such as `net` are rejected.")
    default_allow: bool = Field(
        default=False,
        description="Decides every capability without a rule: false = allowlist mode.")
    net_policy: Optional[NetPolicy] = None

    @classmethod
    def allow_all(cls) -> "Policy":
        return cls(default_allow=True)

    @classmethod
    def deny_all(cls) -> "Policy":
        return cls(default_allow=False)

    def allows(self, cap: Union[str, Capability]) -> bool:
        """Whether the policy permits `cap` (its rule's `allow`, else `default_allow`)."""
        name = cap.wire_name if isinstance(cap, Capability) else cap
        rule = self.rules.get(name)
        return rule.allow if rule is not None else self.default_allow

    def budget(self, cap: Union[str, Capability]) -> Optional[int]:
        """The call budget for `cap`: None when unlimited (no rule, or budget 0)."""
        name = cap.wire_name if isinstance(cap, Capability) else cap
        rule = self.rules.get(name)
        if rule is None or rule.budget == 0:
            return None
        return rule.budget

    def normalized(self) -> dict:
        """The effective policy of docs/spec/policy.md §8, in its canonical key order."""
        net = None
        if self.net_policy is not None:
            np = self.net_policy
            net = {"allowed_domains": list(np.allowed_domains),
                   "allowed_methods": list(np.allowed_methods),
                   "max_response_bytes": np.max_response_bytes,
                   "timeout_ms": np.timeout_ms,
                   "allow_redirects": np.allow_redirects}
        return {"schema_version": SCHEMA_VERSION,
                "rules": {k: {"allow": self.rules[k].allow, "budget": self.rules[k].budget}
                          for k in sorted(self.rules)},
                "default_allow": self.default_allow,
                "net_policy": net}

    def normalized_json(self) -> str:
        """Compact JSON of `normalized()` (stable; suitable for cache-key hashing)."""
        return json.dumps(self.normalized(), separators=(",", ":"), ensure_ascii=False)


def policy_json_schema() -> dict:
    """The published JSON Schema of a policy file, generated from the model."""
    return Policy.model_json_schema()


def policy_json_schema_text() -> str:
    """`policy_json_schema()` as the committed file's text (2-space indent, newline)."""
    return json.dumps(policy_json_schema(), indent=2, ensure_ascii=False) + "\n"


# ─── errors ───────────────────────────────────────────────────────────────────

class PolicyError(Exception):
    """A rejected policy. `kind` is the fine error kind (`policy.unknown_field`, …, or
    `invalid_policy` for MCP shape errors); `message` is the exact text."""

    def __init__(self, kind: ErrorKind, message: str, *, path: Optional[str] = None,
                 found: Any = None, hint: Optional[str] = None, field: Optional[str] = None):
        super().__init__(message)
        self.kind = ErrorKind(kind)
        self.message = message
        self.path = path
        self.found = found
        self.hint = hint
        self.field = field

    def __str__(self) -> str:
        return self.message

    @property
    def run_error_kind(self) -> ErrorKind:
        """What `boruna_run` reports as `error_kind`: always `invalid_policy`."""
        return ErrorKind.INVALID_POLICY

    @property
    def kind_message(self) -> str:
        """The error as one line, its kind first: every `policy.*` message already starts
        with its kind; a shape error (`invalid_policy`) gets it prefixed."""
        if self.kind is ErrorKind.INVALID_POLICY:
            return f"{self.kind}: {self.message}"
        return self.message

    @property
    def policy_error(self) -> Optional[str]:
        """The finer kind to report beside `invalid_policy` (None for shape errors)."""
        return None if self.kind is ErrorKind.INVALID_POLICY else self.kind.value

    def error_object(self) -> dict:
        """The structured error `E` of docs/spec/policy.md §6.3, keys sorted."""
        obj: dict = {"error_kind": self.kind.value}
        if self.kind is ErrorKind.POLICY_INVALID_NET_POLICY:
            obj["field"] = self.field
        if self.kind in (ErrorKind.POLICY_INVALID_CAPABILITY,
                         ErrorKind.POLICY_UNKNOWN_SCHEMA_VERSION):
            obj["found"] = self.found
        if self.hint is not None:
            obj["hint"] = self.hint
        obj["message"] = self.message
        if self.kind is ErrorKind.POLICY_UNKNOWN_FIELD:
            obj["path"] = self.path
        return obj


def _parse_error(serde_message: str) -> PolicyError:
    return PolicyError(ErrorKind.POLICY_PARSE_ERROR, f"policy.parse_error: {serde_message}")


def _unknown_field(path: str, found: str) -> PolicyError:
    return PolicyError(ErrorKind.POLICY_UNKNOWN_FIELD,
                       f"policy.unknown_field: unknown field {debug_str(found)} at {path}",
                       path=path)


def _invalid_net(field: str, reason: str) -> PolicyError:
    return PolicyError(ErrorKind.POLICY_INVALID_NET_POLICY,
                       f"policy.invalid_net_policy: net_policy.{field}: {reason}", field=field)


# ─── serde-style typed decoding ───────────────────────────────────────────────

def _unexpected(v: Any) -> str:
    if v is None:
        return "null"
    t = type(v)
    if t is bool:
        return f"boolean `{'true' if v else 'false'}`"
    if t is int:
        return f"integer `{v}`"
    if t is float:
        text = float_to_string(v)
        if math.isfinite(v) and "." not in text:
            text += ".0"
        return f"floating point `{text}`"
    if t is str:
        return f"string {debug_str(v)}"
    if t is list:
        return "sequence"
    return "map"


def _type_error(v: Any, expected: str) -> PolicyError:
    return _parse_error(f"invalid type: {_unexpected(v)}, expected {expected}")


def _bool(v: Any) -> bool:
    if type(v) is not bool:
        raise _type_error(v, "a boolean")
    return v


def _unsigned(v: Any, expected: str) -> int:
    if type(v) is int:
        if v < 0:
            raise _parse_error(f"invalid value: integer `{v}`, expected {expected}")
        return v
    raise _type_error(v, expected)


def _string_list(v: Any) -> list[str]:
    if type(v) is not list:
        raise _type_error(v, "a sequence")
    for item in v:
        if type(item) is not str:
            raise _type_error(item, "a string")
    return list(v)


def _expected_fields(fields: tuple[str, ...]) -> str:
    quoted = [f"`{f}`" for f in fields]
    if len(quoted) == 2:
        return f"{quoted[0]} or {quoted[1]}"
    return "one of " + ", ".join(quoted)


def _struct_fields(v: Any, struct: str, fields: tuple[str, ...], required: int) -> dict:
    """Map an object or a positional array onto `fields` (serde derive semantics).
    `required` = how many leading fields have no default."""
    if type(v) is dict:
        for key in sorted(v):
            if key not in fields:
                raise _parse_error(f"unknown field `{key}`, expected {_expected_fields(fields)}")
        return dict(v)
    if type(v) is list:
        if len(v) < required:
            raise _parse_error(
                f"invalid length {len(v)}, expected struct {struct} with {len(fields)} elements")
        return {"__positional__": v}
    raise _type_error(v, f"struct {struct}")


def _decode_rule(v: Any) -> PolicyRule:
    raw = _struct_fields(v, "PolicyRule", RULE_FIELDS, 2)
    if "__positional__" in raw:
        items = raw["__positional__"]
        allow = _bool(items[0])
        budget = _unsigned(items[1], "u64")
        if len(items) > 2:
            raise _parse_error(f"invalid length {len(items)}, expected fewer elements in array")
        return PolicyRule.model_construct(allow=allow, budget=budget)
    values: dict = {}
    for key in sorted(raw):
        values[key] = _bool(raw[key]) if key == "allow" else _unsigned(raw[key], "u64")
    for key in RULE_FIELDS:
        if key not in values:
            raise _parse_error(f"missing field `{key}`")
    return PolicyRule.model_construct(**values)


_NET_DECODERS = {
    "allowed_domains": _string_list,
    "allowed_methods": _string_list,
    "max_response_bytes": lambda v: _unsigned(v, "usize"),
    "timeout_ms": lambda v: _unsigned(v, "u64"),
    "allow_redirects": _bool,
}


def _decode_net_policy(v: Any) -> dict:
    raw = _struct_fields(v, "NetPolicyFileV1", NET_POLICY_FIELDS, 0)
    if "__positional__" in raw:
        items = raw["__positional__"]
        values = {}
        for name, item in zip(NET_POLICY_FIELDS, items):
            values[name] = _NET_DECODERS[name](item)
        if len(items) > len(NET_POLICY_FIELDS):
            raise _parse_error(f"invalid length {len(items)}, expected fewer elements in array")
    else:
        values = {key: _NET_DECODERS[key](raw[key]) for key in sorted(raw)}
    return values


def _decode_rules(v: Any) -> dict:
    if type(v) is not dict:
        raise _type_error(v, "a map")
    return {key: _decode_rule(v[key]) for key in sorted(v)}


_TOP_DECODERS = {
    "schema_version": lambda v: None if v is None else _unsigned(v, "u64"),
    "rules": _decode_rules,
    "default_allow": _bool,
    "net_policy": lambda v: None if v is None else _decode_net_policy(v),
}


def _check_unknown_fields(doc: dict) -> None:
    """Pass 2 of docs/spec/policy.md §5: unknown keys, in ascending byte order, with dotted paths."""
    for key in sorted(doc):
        if key not in TOP_LEVEL_FIELDS:
            raise _unknown_field(key, key)
        value = doc[key]
        if key == "net_policy" and type(value) is dict:
            for k in sorted(value):
                if k not in NET_POLICY_FIELDS:
                    raise _unknown_field(f"net_policy.{k}", k)
        elif key == "rules" and type(value) is dict:
            for cap in sorted(value):
                rule = value[cap]
                if type(rule) is dict:
                    for k in sorted(rule):
                        if k not in RULE_FIELDS:
                            raise _unknown_field(f"rules.{cap}.{k}", k)


def _normalise_numbers(v: Any) -> Any:
    """Give a decoded JSON value serde_json's number typing (see jsonread.number_value);
    non-finite floats (unrepresentable in JSON) become null."""
    root: list = [None]
    work: list = [(v, root, 0)]
    while work:
        x, target, key = work.pop()
        t = type(x)
        if t is dict:
            out: Any = {}
            for k, item in x.items():
                out[k] = None
                work.append((item, out, k))
        elif t is list or t is tuple:
            out = [None] * len(x)
            work.extend((item, out, i) for i, item in enumerate(x))
        elif t is float and not math.isfinite(x):
            out = None
        elif t is int:
            out = number_value(x)
        else:
            out = x
        target[key] = out
    return root[0]


def _check_numbers(doc: Any) -> None:
    """A number too large for any field (beyond the float range: `OutOfRange`) is a parse
    error naming where it stands (`rules.net.fetch.budget`), the first in key order."""
    work: list = [(doc, "")]
    while work:
        value, path = work.pop()
        if type(value) is OutOfRange:
            where = f" (line {value.line} column {value.column})" if value.line else ""
            raise _parse_error(f"number out of range at {path or 'the top level'}{where}: "
                               f"{value.describe()} does not fit any policy field (counts, "
                               f"sizes and times are integers up to {U64_MAX})")
        if type(value) is dict:
            work.extend((value[key], f"{path}.{key}" if path else key)
                        for key in sorted(value, reverse=True))
        elif type(value) is list:
            work.extend((item, f"{path}[{index}]")
                        for index, item in reversed(list(enumerate(value))))


def validate_policy_value(doc: Any) -> Policy:
    """Strictly validate an already-decoded policy file body (passes 2–5 of §5)."""
    _check_numbers(doc)
    if type(doc) is dict:
        _check_unknown_fields(doc)
        decoded = {key: _TOP_DECODERS[key](doc[key]) for key in sorted(doc)}
    elif type(doc) is list:
        decoded = {}
        for name, item in zip(TOP_LEVEL_FIELDS, doc):
            decoded[name] = _TOP_DECODERS[name](item)
        if len(doc) > len(TOP_LEVEL_FIELDS):
            raise _parse_error(f"invalid length {len(doc)}, expected fewer elements in array")
    else:
        raise _type_error(doc, "struct PolicyFileV1")

    version = decoded.get("schema_version")
    if version is not None and version != SCHEMA_VERSION:
        raise PolicyError(
            ErrorKind.POLICY_UNKNOWN_SCHEMA_VERSION,
            f"policy.unknown_schema_version: schema_version {version} not supported by this "
            f"binary (expected {SCHEMA_VERSION})", found=version)

    rules = decoded.get("rules") or {}
    for key in sorted(rules):
        if by_wire_name(key) is None:
            target = alias_target(key)
            if target is not None:
                raise PolicyError(
                    ErrorKind.POLICY_INVALID_CAPABILITY,
                    f"policy.invalid_capability: unknown capability {debug_str(key)} — "
                    f"did you mean {debug_str(target.wire_name)}?",
                    found=key, hint=target.wire_name)
            raise PolicyError(
                ErrorKind.POLICY_INVALID_CAPABILITY,
                f"policy.invalid_capability: unknown capability {debug_str(key)}",
                found=key)

    net = decoded.get("net_policy")
    net_policy = None
    if net is not None:
        if net.get("max_response_bytes", DEFAULT_MAX_RESPONSE_BYTES) == 0:
            raise _invalid_net("max_response_bytes", "must be > 0")
        if net.get("timeout_ms", DEFAULT_TIMEOUT_MS) == 0:
            raise _invalid_net("timeout_ms", "must be > 0")
        for method in net.get("allowed_methods", []):
            if method not in HTTP_METHODS:
                upper = "".join(c.upper() if "a" <= c <= "z" else c for c in method)
                if upper in HTTP_METHODS:
                    reason = (f"method {debug_str(method)} must be upper-case "
                              f"({debug_str(upper)})")
                else:
                    reason = (f"unknown HTTP method {debug_str(method)}; allowed: "
                              + ", ".join(HTTP_METHODS))
                raise _invalid_net("allowed_methods", reason)
        net_policy = NetPolicy(**net)

    return Policy.model_construct(
        schema_version=SCHEMA_VERSION,
        rules={k: rules[k] for k in sorted(rules)},
        default_allow=decoded.get("default_allow", False),
        net_policy=net_policy)


def parse_policy_text(text: str) -> Policy:
    """Parse a policy file body (no shorthands): docs/spec/policy.md §5 in full."""
    try:
        doc = loads(text, keep_out_of_range=True)
    except JsonSyntaxError as exc:
        raise _parse_error(exc.message) from None
    return validate_policy_value(doc)


_SHORTHANDS = {"allow-all": Policy.allow_all, "deny-all": Policy.deny_all}
_shorthand_policies: dict[str, Policy] = {}


def _shorthand(name: str) -> Policy:
    """The Policy of shorthand `name`, built once (a Policy is frozen: it can be shared)."""
    policy = _shorthand_policies.get(name)
    if policy is None:
        policy = _shorthand_policies[name] = _SHORTHANDS[name]()
    return policy


def parse_policy(value: Any, default: Optional[Policy] = None) -> Policy:
    """Resolve an MCP `policy` argument (docs/spec/mcp.md §3.3).

    None → `default` (allow-all unless given); `"allow-all"` / `"deny-all"`; an
    object → strict validation. Other strings, booleans, numbers and arrays raise
    `PolicyError(ErrorKind.INVALID_POLICY, ...)`.
    """
    if value is None:
        return default if default is not None else _shorthand("allow-all")
    if type(value) is str:
        if value in _SHORTHANDS:
            return _shorthand(value)
        raise PolicyError(
            ErrorKind.INVALID_POLICY,
            f"policy string must be 'allow-all' or 'deny-all' (got '{value}'); pass an object "
            f"for fine-grained policy — see {SCHEMA_DOC}")
    if isinstance(value, Policy):
        return value
    if type(value) is dict:
        return validate_policy_value(_normalise_numbers(value))
    if type(value) is bool:
        got = "boolean"
    elif type(value) in (int, float):
        got = "number"
    elif type(value) in (list, tuple):
        got = "array"
    else:
        got = type(value).__name__
    raise PolicyError(
        ErrorKind.INVALID_POLICY,
        f"policy must be a string ('allow-all'/'deny-all') or an object; got {got}")


def os_error_text(exc: OSError) -> str:
    """Rust's io::Error Display: `No such file or directory (os error 2)`."""
    if exc.errno is not None and exc.strerror:
        return f"{exc.strerror} (os error {exc.errno})"
    return str(exc)


def load_policy_file(path: Union[str, os.PathLike]) -> Policy:
    """Read and strictly parse a policy file; unreadable → `policy.io_error`."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
        text = data.decode("utf-8")
    except OSError as exc:
        raise PolicyError(ErrorKind.POLICY_IO_ERROR,
                          f"policy.io_error: {os.fspath(path)}: {os_error_text(exc)}") from None
    except UnicodeDecodeError:
        raise PolicyError(ErrorKind.POLICY_IO_ERROR,
                          f"policy.io_error: {os.fspath(path)}: stream did not contain valid "
                          "UTF-8") from None
    return parse_policy_text(text)


def main() -> None:
    """Print the policy JSON Schema (regenerates docs/policy.schema.json)."""
    import sys
    sys.stdout.write(policy_json_schema_text())


if __name__ == "__main__":
    main()
