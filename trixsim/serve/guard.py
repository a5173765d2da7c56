"""What the server checks before any route: the Host header (a DNS-rebinding page reaching
a server on 127.0.0.1 names a foreign host) and the security headers on every answer."""

from __future__ import annotations

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
       "object-src 'none'")
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
           "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer",
           "Cross-Origin-Opener-Policy": "same-origin"}

LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def host_names(host: str, origins: tuple[str, ...] = ()) -> frozenset[str] | None:
    """The Host names a server listening on ``host`` answers to: the loopback names for a
    loopback address, the name itself for a named one, None (any) on every interface;
    plus the host names of the allowed origins."""
    extra = {o.partition("://")[2].split("/")[0].rsplit(":", 1)[0].lower() for o in origins}
    if host in ("0.0.0.0", "::", ""):
        return None
    if host.lower() in LOOPBACK or host.startswith("127."):
        return LOOPBACK | {host} | extra
    return frozenset({host.lower(), *extra})


class Guard:
    """Security headers on every HTTP answer; a 400 for a Host this server is not (a
    DNS-rebinding page reaching a server on 127.0.0.1 names a foreign host)."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str] | None) -> None:
        self.app, self.hosts = app, hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        if self.hosts is not None:
            host = Headers(scope=scope).get("host", "")
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name.strip("[]").lower() not in self.hosts:
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 4400})
                    return
                response = PlainTextResponse("unknown host", status_code=400,
                                             headers=HEADERS)
                return await response(scope, receive, send)

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for k, v in HEADERS.items():
                    headers[k] = v
            await send(message)

        await self.app(scope, receive, secured)


__all__ = ["CSP", "HEADERS", "LOOPBACK", "Guard", "host_names"]
