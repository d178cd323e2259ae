"""The model gateway: every request an agent makes to a model goes through it.

Why a thin server of our own rather than LiteLLM's proxy: the gateway is a
measurement instrument, and the project's rule is that the evaluator measures
(nothing an agent reports about itself is a cost). It must attribute each request
to one attempt and generation, write it to the run's database in the runner's own
transaction order, keep the full transcript beside the attempt, and hold the real
API keys so that agents never see them. LiteLLM's proxy keeps spend per virtual
key in Postgres and would still need a callback for all of that; what is left
for us is a pass-through of three request shapes, which is what this is.

An attempt's agent is given a base URL `http://127.0.0.1:PORT/t/<token>` (plus
the endpoint's own suffix, e.g. `/v1` for OpenAI-style clients) and the token as
its API key. The gateway forwards `/t/<token>/<rest>` to `<endpoint base>/<rest>`
with the endpoint's real key, streams the answer back unchanged, and records:
model, status, latency, tokens in/out/cached (from the API's usage fields: OpenAI
chat completions and responses, Anthropic messages, streamed or not; where a
response carries none, counted with `prices.count_tokens`), the cost from the
price table, and whether it was a step (a model output). For streamed OpenAI chat
completions it asks the upstream for the usage chunk (`stream_options.include_usage`).
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from . import loopback
from .db import now
from .prices import PriceTable, count_tokens

# Paths whose successful answer is a model output (one step of an agent).
MODEL_PATHS = ("chat/completions", "messages", "responses", "completions")
HOP_HEADERS = {"host", "content-length", "transfer-encoding", "connection", "authorization",
               "x-api-key", "accept-encoding", "keep-alive"}


@dataclass(frozen=True)
class Endpoint:
    """Where a model is served: an OpenAI- or Anthropic-style API."""

    name: str
    base_url: str  # as a client of this API would be configured (OpenAI style: with /v1)
    api: str = "openai"  # openai | anthropic
    api_key: str = ""  # the real key (from the environment), never given to an agent

    def auth_headers(self) -> dict[str, str]:
        if not self.api_key:
            return {}
        if self.api == "anthropic":
            return {"x-api-key": self.api_key}
        return {"Authorization": f"Bearer {self.api_key}"}


@dataclass
class Route:
    """What one token stands for: an attempt generation and its endpoint."""

    attempt_id: int
    generation: int
    endpoint: Endpoint
    transcript: Path | None = None
    node_id: int | None = None  # the agent of the attempt's tree (tree.py) using the token
    requests: int = 0
    steps: int = 0


@dataclass
class Usage:
    tokens_in: int = 0  # every input token, cached and cache-written ones included
    tokens_out: int = 0
    cached: int = 0
    cache_write: int = 0
    source: str = "api"


def usage_of(obj: Any) -> Usage | None:
    """Usage from a response body or a streamed event, in any of the three shapes."""
    if not isinstance(obj, dict):
        return None
    u = obj.get("usage")
    if not isinstance(u, dict):
        for key in ("response", "message"):  # responses: response.completed; anthropic: message_start
            inner = obj.get(key)
            if isinstance(inner, dict) and isinstance(inner.get("usage"), dict):
                return usage_of(inner)
        return None
    if "prompt_tokens" in u or "completion_tokens" in u:  # OpenAI chat completions
        details = u.get("prompt_tokens_details") or {}
        return Usage(int(u.get("prompt_tokens") or 0), int(u.get("completion_tokens") or 0),
                     int(details.get("cached_tokens") or 0))
    if "cache_read_input_tokens" in u or "cache_creation_input_tokens" in u \
            or ("input_tokens" in u and "input_tokens_details" not in u
                and obj.get("type") in ("message", "message_start", "message_delta")):
        read = int(u.get("cache_read_input_tokens") or 0)  # Anthropic: input excludes the cache
        write = int(u.get("cache_creation_input_tokens") or 0)
        return Usage(int(u.get("input_tokens") or 0) + read + write, int(u.get("output_tokens") or 0),
                     read, write)
    if "input_tokens" in u or "output_tokens" in u:  # OpenAI responses
        details = u.get("input_tokens_details") or {}
        return Usage(int(u.get("input_tokens") or 0), int(u.get("output_tokens") or 0),
                     int(details.get("cached_tokens") or 0))
    return None


def _merge_stream_usage(events: list[Any]) -> Usage | None:
    """Usage of a streamed answer: the last usage seen (OpenAI), or Anthropic's
    message_start input figures with message_delta's output count."""
    found: Usage | None = None
    for e in events:
        u = usage_of(e)
        if u is None:
            continue
        if isinstance(e, dict) and e.get("type") == "message_delta" and found is not None:
            found = Usage(found.tokens_in, u.tokens_out or found.tokens_out, found.cached,
                          found.cache_write)
        elif found is None or u.tokens_in or u.tokens_out:
            found = u
    return found


def _sse_data(raw: bytes) -> list[Any]:
    events = []
    for line in raw.decode(errors="replace").splitlines():
        if line.startswith("data:"):
            payload = line[5:].strip()
            if payload and payload != "[DONE]":
                try:
                    events.append(json.loads(payload))
                except ValueError:
                    continue
    return events


def _output_text(obj: Any) -> str:
    """The text and tool arguments of an answer (for counting tokens ourselves)."""
    parts: list[str] = []

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                if k in ("content", "text", "arguments", "partial_json", "input", "output_text") \
                        and isinstance(x, str):
                    parts.append(x)
                elif k == "input" and isinstance(x, dict):
                    parts.append(json.dumps(x))
                else:
                    walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(obj)
    return "".join(parts)


def _input_text(body: Any) -> str:
    if not isinstance(body, dict):
        return ""
    return json.dumps({k: body.get(k) for k in ("system", "messages", "input", "instructions", "tools")
                       if k in body}, sort_keys=True)


@dataclass
class Gateway:
    prices: PriceTable
    record: Callable[[dict[str, Any]], None]  # gets one row per request (db.record_request)
    host: str = "127.0.0.1"
    port: int = 0
    routes: dict[str, Route] = field(default_factory=dict)
    _runner: web.AppRunner | None = None
    _session: aiohttp.ClientSession | None = None

    def open(self, attempt_id: int, generation: int, endpoint: Endpoint,
             transcript: Path | None = None, node_id: int | None = None) -> str:
        """A new token for one attempt generation (and one agent of its tree)."""
        token = secrets.token_hex(12)
        self.routes[token] = Route(attempt_id, generation, endpoint, transcript, node_id)
        return token

    def close_route(self, token: str) -> Route | None:
        return self.routes.pop(token, None)

    def base_url(self, token: str) -> str:
        """The base URL an agent is given, in its endpoint's convention."""
        route = self.routes[token]
        suffix = "/v1" if route.endpoint.base_url.rstrip("/").endswith("/v1") else ""
        return f"http://{self.host}:{self.port}/t/{token}{suffix}"

    async def start(self) -> None:
        app = web.Application(client_max_size=256 << 20)
        app.router.add_route("*", "/t/{token}/{tail:.*}", self._proxy)
        self._runner, self.port = await loopback.serve(app, self.host, self.port)
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=900))

    async def stop(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _proxy(self, request: web.Request) -> web.StreamResponse:
        route = self.routes.get(request.match_info["token"])
        if route is None:
            return web.json_response({"error": {"message": "unknown or expired gateway token"}},
                                     status=401)
        assert self._session is not None
        tail = request.match_info["tail"]
        base = route.endpoint.base_url.rstrip("/")
        if base.endswith("/v1") and tail.startswith("v1/"):
            tail = tail[3:]
        url = f"{base}/{tail}"
        if request.query_string:
            url += "?" + request.query_string
        raw = await request.read()
        body: Any = None
        if raw:
            try:
                body = json.loads(raw)
            except ValueError:
                body = None
        stream = isinstance(body, dict) and bool(body.get("stream"))
        if stream and route.endpoint.api == "openai" and tail.rstrip("/").endswith("chat/completions"):
            # Ask for the usage chunk: measured counts instead of our own estimate.
            body["stream_options"] = {**(body.get("stream_options") or {}), "include_usage": True}
            raw = json.dumps(body).encode()
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_HEADERS}
        headers.update(route.endpoint.auth_headers())
        is_model = request.method == "POST" and tail.rstrip("/").endswith(MODEL_PATHS)
        started = time.perf_counter()
        route.requests += 1
        row: dict[str, Any] = {"attempt_id": route.attempt_id, "generation": route.generation,
                               "node_id": route.node_id,
                               "at": now(), "api": route.endpoint.api, "path": "/" + tail,
                               "model": body.get("model") if isinstance(body, dict) else None,
                               "stream": int(stream), "step": 0}
        response_record: Any = None
        try:
            async with self._session.request(request.method, url, data=raw or None,
                                             headers=headers) as up:
                out = web.StreamResponse(status=up.status, headers={
                    k: v for k, v in up.headers.items()
                    if k.lower() not in HOP_HEADERS | {"content-encoding"}})
                await out.prepare(request)
                chunks = []
                async for chunk in up.content.iter_any():
                    chunks.append(chunk)
                    await out.write(chunk)
                await out.write_eof()
                row["status"] = up.status
                data = b"".join(chunks)
                if "text/event-stream" in up.headers.get("Content-Type", ""):
                    events = _sse_data(data)
                    usage = _merge_stream_usage(events)
                    response_record = {"stream": events}
                else:
                    try:
                        parsed = json.loads(data) if data else None
                    except ValueError:
                        parsed = data.decode(errors="replace")[:20000]
                    usage = usage_of(parsed)
                    response_record = parsed
        except aiohttp.ClientError as exc:
            row.update(status=502, error=f"upstream {route.endpoint.name}: {exc}")
            out = web.json_response({"error": {"message": row["error"]}}, status=502)
            usage = None
        row["latency_s"] = time.perf_counter() - started
        ok = row["status"] == 200
        if ok and is_model:
            if usage is None:
                tin, how = count_tokens(_input_text(body))
                tout, _ = count_tokens(_output_text(response_record))
                usage = Usage(tin, tout, source=how)
            row["step"] = 1
            route.steps += 1
        if usage is not None:
            price = self.prices.price(str(row["model"] or ""), route.endpoint.name)
            row.update(tokens_in=usage.tokens_in, tokens_out=usage.tokens_out,
                       tokens_cached=usage.cached, tokens_cache_write=usage.cache_write,
                       usage_source=usage.source,
                       cost=price.cost(usage.tokens_in, usage.tokens_out, usage.cached,
                                       usage.cache_write) if price else None)
            if price is None:
                row["error"] = (row.get("error") or "") + f"no price for model {row['model']!r}"
        if not ok and row.get("error") is None:
            row["error"] = (json.dumps(response_record)[:2000]
                            if response_record is not None else f"HTTP {row['status']}")
        self.record(row)
        if route.transcript is not None:
            with open(route.transcript, "a") as f:
                f.write(json.dumps({"at": row["at"], "node": route.node_id, "path": row["path"],
                                    "status": row["status"], "latency_s": row["latency_s"],
                                    "request": body, "response": response_record}) + "\n")
        return out
