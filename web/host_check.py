"""Host and Origin checks: a page of another site can neither read the table through a name
of its own (DNS rebinding) nor change it from the player's browser (cross-site requests)."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable, Set
from urllib.parse import urlsplit

from flask import Flask, current_app, request

from web.errors import ActionError

CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""Methods that change the table: they must come from the page itself."""

LOCAL_NAMES = ("localhost",)
"""Names that mean this machine wherever it runs."""

DEFAULT_PORTS = {"http": 80, "https": 443}


def init_app(app: Flask) -> None:
    """Check every request's Host, and the Origin of every request that changes something."""
    configured = {name.lower().rstrip(".") for name in app.config.get("ALLOWED_HOSTS") or ()}
    app.extensions["configured_hosts"] = frozenset(configured)
    app.extensions["allowed_hosts"] = frozenset(configured | set(machine_names()) | {*LOCAL_NAMES})
    app.before_request(_check_request)


def machine_names() -> list[str]:
    """This machine's own names on the network: its hostname, and that name under .local."""
    name = socket.gethostname().lower().rstrip(".")
    if not name:
        return []
    short = name.split(".")[0]
    return sorted({name, short, f"{short}.local"})


def split_host(host: str) -> tuple[str, int | None] | None:
    """The name (an IPv6 address in its brackets) and port of a Host header or an Origin's
    authority, in lower case; None when it is not one."""
    host = host.strip().lower().rpartition("@")[2]
    if host.startswith("["):
        end = host.find("]")
        name, rest = host[: end + 1], host[end + 1 :]
        if end < 0 or rest and not rest.startswith(":"):
            return None
        port = rest[1:]
    else:
        name, _, port = host.partition(":")
        name = name.rstrip(".")
    if not name or port and not (port.isascii() and port.isdigit() and len(port) <= 5):
        return None
    return name, int(port) if port else None


def host_name(host: str) -> str | None:
    """The name or address in a Host header, without its port; None when it is not one."""
    parts = split_host(host)
    return None if parts is None else parts[0]


def is_ip_literal(name: str) -> bool:
    """Whether a host name is an IPv4 address or a bracketed IPv6 address."""
    try:
        ipaddress.ip_address(name[1:-1] if name.startswith("[") and name.endswith("]") else name)
    except ValueError:
        return False
    return not name.count(":") or name.startswith("[")


def host_allowed(host: str, allowed: Iterable[str]) -> bool:
    """Whether a Host header names this server: an IP address (a rebinding name never is one),
    localhost, this machine's names, or a configured name."""
    name = host_name(host)
    return name is not None and (is_ip_literal(name) or name in allowed)


def origin_allowed(origin: str, own_host: str, names: Set[str], configured: Set[str]) -> bool:
    """Whether an Origin (or Referer) is this page: the request's own name and port (where the
    Host names no port, as through a proxy, http's or https's), one of this machine's `names`
    with that port, or a `configured` name. `null`, sent by sandboxed or privacy-hiding
    pages, is not."""
    parts = urlsplit(origin.strip())
    if parts.scheme not in DEFAULT_PORTS:
        return False
    sender, own = split_host(parts.netloc), split_host(own_host)
    if sender is None or own is None:
        return False
    name, port = sender[0], sender[1] or DEFAULT_PORTS[parts.scheme]
    if name in configured:
        return True
    same_port = port == own[1] if own[1] is not None else port in DEFAULT_PORTS.values()
    return same_port and (name == own[0] or name in names and not is_ip_literal(name))


def _check_request() -> None:
    """Refuse, with 403, a request to a name that is not this server's, and a request that
    changes the table but was sent by a page of another site."""
    allowed = current_app.extensions["allowed_hosts"]
    host = request.headers.get("Host") or request.environ.get("SERVER_NAME", "")
    if not host_allowed(host, allowed):
        raise ActionError(
            403,
            f"this server does not answer to the name {host[:80]!r}; open it by its address "
            "or add the name to allowed_hosts in the configuration file",
        )
    if request.method not in CHANGING_METHODS:
        return
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        raise ActionError(403, "a page of another site may not change this table")
    sender = request.headers.get("Origin") or request.headers.get("Referer")
    configured = current_app.extensions["configured_hosts"]
    if sender is not None and not origin_allowed(sender, host, allowed, configured):
        raise ActionError(
            403, f"a page of another site ({sender[:80]!r}) may not change this table"
        )
