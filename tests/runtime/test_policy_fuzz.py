"""No input crashes the policy parser: every outcome is a Policy or a PolicyError."""
import json

from hypothesis import given, settings, strategies as st

from boruna.runtime.policy import Policy, PolicyError, parse_policy, parse_policy_text

_KEYS = st.sampled_from(["schema_version", "rules", "default_allow", "net_policy", "net.fetch",
                         "step.input", "net", "allow", "budget", "timeout_ms",
                         "max_response_bytes", "allowed_methods", "allowed_domains",
                         "allow_redirects", "x"])
_SCALARS = (st.none() | st.booleans() | st.integers(min_value=-(2 ** 66), max_value=2 ** 66)
            | st.floats(allow_nan=False, allow_infinity=False)
            | st.sampled_from(["GET", "post", "allow-all", "", "1"]))
_DOCS = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=5)
                     | st.dictionaries(_KEYS, inner, max_size=5), max_leaves=25)


def _outcome(fn, arg):
    try:
        result = fn(arg)
    except PolicyError as err:
        assert err.message.startswith(err.kind + ":") or err.kind == "invalid_policy"
        assert err.error_object()["error_kind"] == err.kind
        return "error"
    assert isinstance(result, Policy)
    assert json.loads(result.normalized_json())["schema_version"] == 1
    return "ok"


@settings(max_examples=200)
@given(_DOCS)
def test_documents(doc):
    text_outcome = _outcome(parse_policy_text, json.dumps(doc))
    if isinstance(doc, dict):
        assert _outcome(parse_policy, doc) == text_outcome


@settings(max_examples=200)
@given(st.text(alphabet='{}[]":,0123456789.-+eEtruefalsn \\u\n', max_size=40))
def test_arbitrary_text(text):
    _outcome(parse_policy_text, text)
