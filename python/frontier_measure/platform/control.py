"""The control endpoint: what the runner offers the tool servers of its agents.

A small aiohttp server on loopback, beside the model gateway. Each agent node of
an attempt's tree (tree.py) gets a token and the URL `http://127.0.0.1:PORT/n/
<token>`, which its tool servers receive as `FM_CONTROL_URL`:

    POST <url>/telemetry   {server, tool, duration_s, tokens, ok, detail}
                           one measured tool call, written to the run's database
                           (tool_calls) against the node's attempt generation
    POST <url>/delegate    {task} -> {result}   (only nodes allowed to delegate)
                           starts a child agent and answers when it has finished

A token stands for one node until its agent ends; then requests with it are
refused (401), so a leftover server cannot write into a later attempt.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from . import loopback

Delegate = Callable[[str], Awaitable[str]]


@dataclass
class NodeRoute:
    attempt_id: int
    generation: int
    node_id: int
    delegate: Delegate | None = None


@dataclass
class ControlServer:
    record: Callable[[dict[str, Any]], None]  # db.record_tool_call
    host: str = "127.0.0.1"
    port: int = 0

    def __post_init__(self) -> None:
        self.routes: dict[str, NodeRoute] = {}
        self._runner: web.AppRunner | None = None

    def open(self, route: NodeRoute) -> str:
        token = secrets.token_hex(12)
        self.routes[token] = route
        return token

    def close(self, token: str) -> None:
        self.routes.pop(token, None)

    def url(self, token: str) -> str:
        return f"http://{self.host}:{self.port}/n/{token}"

    async def start(self) -> None:
        app = web.Application(client_max_size=16 << 20)
        app.router.add_post("/n/{token}/telemetry", self._telemetry)
        app.router.add_post("/n/{token}/delegate", self._delegate)
        self._runner, self.port = await loopback.serve(app, self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _body(self, request: web.Request) -> tuple[NodeRoute | None, dict[str, Any]]:
        route = self.routes.get(request.match_info["token"])
        try:
            body = await request.json()
        except (ValueError, json.JSONDecodeError):
            body = None
        return route, body if isinstance(body, dict) else {}

    async def _telemetry(self, request: web.Request) -> web.Response:
        route, body = await self._body(request)
        if route is None:
            return web.json_response({"error": "unknown or expired token"}, status=401)
        try:
            row: dict[str, Any] = {"attempt_id": route.attempt_id, "generation": route.generation,
                   "node_id": route.node_id, "server": str(body["server"]),
                   "tool": str(body["tool"]), "duration_s": float(body.get("duration_s") or 0.0),
                   "tokens": int(body.get("tokens") or 0), "ok": int(bool(body.get("ok", True))),
                   "detail": body.get("detail") if isinstance(body.get("detail"), dict) else {}}
        except (KeyError, TypeError, ValueError) as exc:
            return web.json_response({"error": f"bad telemetry: {exc}"}, status=400)
        self.record(row)
        return web.json_response({"ok": True})

    async def _delegate(self, request: web.Request) -> web.Response:
        route, body = await self._body(request)
        if route is None:
            return web.json_response({"error": "unknown or expired token"}, status=401)
        if route.delegate is None:
            return web.json_response({"error": "this agent may not delegate"}, status=403)
        task = body.get("task")
        if not isinstance(task, str) or not task.strip():
            return web.json_response({"error": "'task' must be a non-empty string"}, status=400)
        return web.json_response({"result": await route.delegate(task)})
