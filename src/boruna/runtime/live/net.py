"""`net.fetch(url)`: an HTTP GET under the policy's `net_policy`.

Domains, methods, body size, timeout and redirects come from `net_policy`; loopback and
private addresses are refused unless `allowed_domains` names the host exactly. The request
gets one deadline, `timeout_ms` shortened to what is left of the run's wall clock, for
everything including every redirect hop (`http.exchange`). Each hop is checked again (scheme,
domain, addresses) before it is taken, and the connection goes to the addresses checked. A
fetch sends no credentials of any kind (no Authorization, no Cookie, no header of the
caller's), so a redirect to another origin carries nothing but the URL.
"""
from __future__ import annotations

import ipaddress
import time
import urllib.parse

from boruna.runtime.handlers import HandlerError
from boruna.runtime.live.http import RequestTimeout, default_port, exchange, resolve

MAX_REDIRECTS = 10
DEFAULT_NET_TIMEOUT_MS = 30_000
DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024
REDIRECT_STATUSES = (301, 302, 303, 307, 308)


def _setting(net, field: str, default):
    value = getattr(net, field, None) if net is not None else None
    return default if value is None else value


def fetch(url: str, net, clock) -> str:
    """The body of `url` as text, under `net` (a NetPolicy or None) and the run's `clock`."""
    domains = list(_setting(net, "allowed_domains", []))
    methods = list(_setting(net, "allowed_methods", []))
    limit = int(_setting(net, "max_response_bytes", DEFAULT_MAX_RESPONSE_BYTES))
    timeout_ms = _setting(net, "timeout_ms", DEFAULT_NET_TIMEOUT_MS)
    redirects = MAX_REDIRECTS if _setting(net, "allow_redirects", True) else 0
    if methods and "GET" not in methods:
        raise HandlerError(f"HTTP method 'GET' not in allowlist: [{', '.join(methods)}]")
    deadline = time.monotonic() + clock.budget(min(int(timeout_ms), 2**31) / 1000.0)
    current = url
    try:
        while True:
            addresses = check_url(current, domains, deadline, clock)
            answer = exchange("GET", current, addresses, deadline, clock, limit,
                              headers={"Accept-Encoding": "identity"})
            if answer.status in REDIRECT_STATUSES and redirects > 0:
                location = answer.headers.get("Location")
                if not location:
                    raise HandlerError(f"redirect {answer.status} without a Location header")
                current = urllib.parse.urljoin(current, location)
                redirects -= 1
                continue
            break
    except RequestTimeout:
        raise HandlerError(f"HTTP request timed out after {timeout_ms} ms") from None
    if len(answer.body) > limit:
        raise HandlerError(f"response body exceeds max_response_bytes ({limit})")
    try:
        return answer.body.decode("utf-8")
    except UnicodeDecodeError:
        raise HandlerError("response body is not valid UTF-8") from None


def host_allowed(host: str, domains: list) -> bool:
    for pattern in domains:
        if pattern.startswith("*."):
            if host.endswith(pattern[1:]) or host == pattern[2:]:
                return True
        elif host == pattern:
            return True
    return False


def _is_private(ip) -> bool:
    return (ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_unspecified
            or ip.is_reserved or ip.is_multicast or ip in ipaddress.ip_network("100.64.0.0/10"))


def check_url(url: str, domains: list, deadline: float, clock) -> list:
    """The addresses to connect to for `url`: scheme http/https, host in the allowlist, and
    no private address unless the allowlist names the host exactly."""
    try:
        parts = urllib.parse.urlsplit(url)
        port = default_port(parts)
    except ValueError as err:
        raise HandlerError(f"invalid URL '{url}': {err}")
    if parts.scheme not in ("http", "https"):
        raise HandlerError(f"blocked scheme '{parts.scheme}': only http/https allowed")
    host = parts.hostname or ""
    if not host:
        raise HandlerError("URL has no host")
    if domains and not host_allowed(host, domains):
        raise HandlerError(f"domain '{host}' not in allowlist: [{', '.join(domains)}]")
    named = host in domains
    if not named and host.lower() == "localhost":
        raise HandlerError(f"blocked request to localhost ({host})")
    addresses = resolve(host, port, deadline, clock)
    if not named:
        for _, sockaddr in addresses:
            ip = ipaddress.ip_address(sockaddr[0].split("%")[0])
            if _is_private(ip):
                raise HandlerError(f"blocked request to private/reserved IP ({ip}); name the "
                                   f"host in net_policy.allowed_domains to allow it")
    return addresses
