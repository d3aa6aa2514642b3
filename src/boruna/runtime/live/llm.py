"""`llm.call(prompt)`: one chat completion from an OpenAI-compatible endpoint.

The request posts `{"model", "messages": [{"role": "user", "content": prompt}]}` to
`ENDPOINT/chat/completions` with the API key as a bearer token. It gets one deadline,
DEFAULT_LLM_TIMEOUT_MS shortened to what is left of the run's wall clock, for everything
(`http.exchange`). A redirect is never followed: the key would go with it, and the answer
would come from a host nobody configured; a 3xx is an error naming where it pointed.
"""
from __future__ import annotations

import json
import time
import urllib.parse

from boruna.runtime.handlers import HandlerError
from boruna.runtime.live.http import RequestTimeout, default_port, exchange, resolve

DEFAULT_LLM_TIMEOUT_MS = 30_000
MAX_LLM_RESPONSE_BYTES = 10 * 1024 * 1024


def ask(endpoint: str, model, api_key, prompt: str, clock) -> str:
    """The answer's `choices[0].message.content`."""
    url = endpoint.rstrip("/") + "/chat/completions"
    try:
        parts = urllib.parse.urlsplit(url)
        port = default_port(parts)
    except ValueError as err:
        raise HandlerError(f"llm.call failed: invalid endpoint '{endpoint}': {err}")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise HandlerError(f"llm.call failed: the endpoint must be an http(s) URL: {endpoint}")
    body = json.dumps({"model": model or "default",
                       "messages": [{"role": "user", "content": prompt}]}).encode("utf-8")
    headers = {"Content-Type": "application/json", "Accept-Encoding": "identity"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    deadline = time.monotonic() + clock.budget(DEFAULT_LLM_TIMEOUT_MS / 1000.0)
    try:
        addresses = resolve(parts.hostname, port, deadline, clock)
        answer = exchange("POST", url, addresses, deadline, clock, MAX_LLM_RESPONSE_BYTES,
                          headers=headers, body=body)
    except RequestTimeout:
        raise HandlerError(f"llm.call failed: timed out after {DEFAULT_LLM_TIMEOUT_MS} ms "
                           "(or at the run's wall clock)") from None
    except HandlerError as err:
        raise HandlerError(f"llm.call failed: {err.message}") from None
    if 300 <= answer.status < 400:
        where = answer.headers.get("Location") or "nowhere"
        raise HandlerError(f"llm.call failed: the endpoint answered {answer.status} (a redirect "
                           f"to {where}); llm.call does not follow redirects")
    if answer.status >= 400 or answer.status < 200:
        raise HandlerError(f"llm.call failed: HTTP Error {answer.status}: {answer.reason}")
    if len(answer.body) > MAX_LLM_RESPONSE_BYTES:
        raise HandlerError(f"llm.call failed: the answer is larger than "
                           f"{MAX_LLM_RESPONSE_BYTES} bytes")
    try:
        return str(json.loads(answer.body.decode("utf-8"))["choices"][0]["message"]["content"])
    except (ValueError, KeyError, IndexError, TypeError, RecursionError) as err:
        raise HandlerError(f"llm.call failed: unexpected answer: {err}") from None
