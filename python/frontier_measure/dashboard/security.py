"""Who may talk to the dashboard: a guard in front of every route.

The dashboard starts and stops runs that spend money, and shows transcripts,
so every request passes these checks, the event streams included:

* **Bound to loopback by default.** Binding to another address needs a token
  (`serve` refuses to start without one). The token is sent as
  `Authorization: Bearer T`, or as a cookie the server sets when the page is
  opened once with `?token=T` (an EventSource cannot send headers; a cookie it
  does send). Tokens are compared in constant time.
* **The Host header is checked** on loopback: a page on another site cannot
  reach the dashboard by pointing its own name at 127.0.0.1 (DNS rebinding).
* **Requests that change something** (POST) must carry `X-FM-Request: 1`, and
  an `Origin`, when sent, must be the dashboard's own. A custom header makes a
  cross-site request need a CORS preflight, and the dashboard answers none: it
  sends no `Access-Control-Allow-Origin` at all, wildcard or otherwise.
* Every response says `nosniff`, no framing, no referrer, and a content
  security policy that allows the dashboard's own scripts and nothing else.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

REQUEST_HEADER = "x-fm-request"
SAFE_METHODS = ("GET", "HEAD")
HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
     b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
]


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def loopback_hosts(port: int) -> set[str]:
    """Host header values a browser sends for a dashboard on loopback."""
    names = ("127.0.0.1", "localhost", "[::1]")
    return {f"{n}:{port}" for n in names} | (set(names) if port == 80 else set())


def cookie_name(port: int) -> str:
    # Cookies do not tell ports apart: two dashboards on one host keep their own.
    return f"fm_dashboard_{port}"


class Guard:
    """ASGI middleware: host, token and request-origin checks, and the headers."""

    def __init__(self, app: ASGIApp, *, port: int, token: str | None,
                 hosts: set[str] | None) -> None:
        self.app = app
        self.port = port
        self.token = token.encode() if token else None
        self.hosts = hosts  # None: any Host (a token guards the server)
        self.cookie = cookie_name(port)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            # Nothing here speaks WebSocket; refuse it rather than pass it through unchecked.
            await send({"type": "websocket.close", "code": 1008})
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        if self.hosts is not None and host not in self.hosts:
            await _deny(send, 421, f"this dashboard does not answer to Host '{host}'")
            return
        if scope["method"] not in SAFE_METHODS:
            if headers.get(REQUEST_HEADER) != "1":
                await _deny(send, 403, f"a request that changes something needs the header "
                                       f"{REQUEST_HEADER}: 1")
                return
            origin = headers.get("origin")
            if origin is not None and origin not in (f"http://{host}", f"https://{host}"):
                await _deny(send, 403, f"requests from {origin} are not accepted")
                return
        if self.token is not None:
            given = _bearer(headers) or _cookie(headers, self.cookie)
            if given is None or not hmac.compare_digest(given.encode(), self.token):
                query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
                offered = (query.get("token") or [""])[0]
                if scope["path"] == "/" and offered and hmac.compare_digest(offered.encode(),
                                                                             self.token):
                    await _login(send, self.cookie, offered)
                    return
                await _deny(send, 401, "a token is needed: open the address serve printed "
                                       "(with ?token=...), or send Authorization: Bearer TOKEN")
                return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                # A route may set its own policy (the figures: SVG with inline styles).
                have = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *((k, v) for k, v in HEADERS if k not in have)]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _bearer(headers: dict[str, str]) -> str | None:
    auth = headers.get("authorization", "")
    return auth[7:].strip() if auth.lower().startswith("bearer ") else None


def _cookie(headers: dict[str, str], name: str) -> str | None:
    for part in headers.get("cookie", "").split(";"):
        k, _, v = part.strip().partition("=")
        if k == name:
            return v
    return None


async def _deny(send: Send, status: int, reason: str) -> None:
    body = json.dumps({"detail": reason}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *HEADERS]})
    await send({"type": "http.response.body", "body": body})


async def _login(send: Send, cookie: str, token: str) -> None:
    """The token from the address goes into a cookie, and out of the address bar."""
    await send({"type": "http.response.start", "status": 303,
                "headers": [(b"location", b"/"), (b"content-length", b"0"),
                            (b"set-cookie", f"{cookie}={token}; Path=/; HttpOnly; "
                                            f"SameSite=Strict".encode()), *HEADERS]})
    await send({"type": "http.response.body", "body": b""})
