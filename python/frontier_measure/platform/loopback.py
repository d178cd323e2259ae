"""Serving an aiohttp application on loopback, on a port the system picks."""

from __future__ import annotations

from aiohttp import web


async def serve(app: web.Application, host: str = "127.0.0.1", port: int = 0) \
        -> tuple[web.AppRunner, int]:
    """Start serving `app` on the running loop; returns its runner (cleanup() stops it)
    and the port it listens on (port 0: any free one)."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    server = getattr(site, "_server", None)
    if server is not None and server.sockets:
        port = server.sockets[0].getsockname()[1]
    return runner, port
