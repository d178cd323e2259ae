"""A deterministic model server for tests: it plays scripted trajectories.

There is no model on a test machine, yet the agents must be the real ones. This
server speaks the OpenAI chat completions API and the Anthropic messages API
(both with and without streaming) and answers from a script:

    # fix.toml: the model "fix"
    [[trajectories]]
    match = "dedupe"              # a regular expression searched in the first user message
    [[trajectories.turns]]
    say = "Let me look at the file."
    bash = "cat dedupe.py"        # one call of the agent's `bash` tool
    [[trajectories.turns]]
    bash = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"

The model name picks the script (`<dir>/<model>.toml`; a provider prefix such as
"openai/" is ignored), the first user message picks the trajectory, and the
number of assistant messages already in the conversation picks the turn. So the
server keeps no state: concurrent attempts, retried requests and a restarted
server all get the same answer to the same request. Past the last turn it
repeats the last one.

A turn may call another tool than bash (the MCP tools of a regime), and may
depend on what the agent saw last (the text of the messages after the last
assistant turn: tool results, feedback), so a script can react to a search
result, a language server's complaint or a sub-agent's report:

    [[trajectories.turns]]
    tool = "search_code"                   # any tool the agent offers
    args = { query = "render_template_string" }
    [[trajectories.turns]]
    [[trajectories.turns.choices]]         # the first choice whose `when` matches
    when = "is unknown import symbol"      # (a regular expression) is played;
    bash = "..."                           # a choice without `when` always matches
    [[trajectories.turns.choices]]
    bash = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"

Usage figures are deterministic too: prompt tokens are the request's messages
in UTF-8 bytes / 4, completion tokens the reply's; everything before the last
user or tool message counts as a cached prefix. A script may say `usage = false`
to leave usage out (the gateway then counts itself).
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import tomllib
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from . import loopback

SUBMIT = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"


@dataclass
class Turn:
    say: str = ""
    bash: str | None = None
    tool: str | None = None  # a tool other than bash (args: its arguments)
    args: dict[str, Any] = field(default_factory=dict)
    when: str | None = None  # as a choice: played when this is found in the last observation

    def call(self, default_tool: str) -> tuple[str, dict[str, Any]] | None:
        """(tool name, arguments) of the turn's tool call, if it makes one."""
        if self.tool is not None:
            return self.tool, self.args
        if self.bash is not None:
            return default_tool, {"command": self.bash}
        return None


@dataclass
class Trajectory:
    match: str
    turns: list[list[Turn]]  # per step, its choices


@dataclass
class Script:
    name: str
    trajectories: list[Trajectory]
    usage: bool = True
    tool: str = "bash"

    def turn(self, first_user: str, index: int, last: str = "") -> Turn:
        for t in self.trajectories:
            if re.search(t.match, first_user):
                if not t.turns:
                    break
                for choice in t.turns[min(index, len(t.turns) - 1)]:
                    if choice.when is None or re.search(choice.when, last):
                        return choice
                break
        # No trajectory (or no choice) for this: give up at once, as a model without a plan would.
        return Turn(say="I cannot do this task.", bash=SUBMIT)


class ScriptError(Exception):
    pass


def _turn(table: Any, where: str) -> Turn:
    if not isinstance(table, dict):
        raise ScriptError(f"{where}: expected a table")
    unknown = set(table) - {"say", "bash", "tool", "args", "when"}
    if unknown:
        raise ScriptError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    if "bash" in table and "tool" in table:
        raise ScriptError(f"{where}: a turn calls bash or another tool, not both")
    if not isinstance(table.get("args", {}), dict):
        raise ScriptError(f"{where}: args must be a table")
    return Turn(say=str(table.get("say", "")), bash=table.get("bash"), tool=table.get("tool"),
                args=dict(table.get("args", {})), when=table.get("when"))


def load_script(path: Path) -> Script:
    try:
        doc = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ScriptError(f"{path}: {exc}") from None
    trajs = []
    for i, t in enumerate(doc.get("trajectories", [])):
        if not isinstance(t, dict) or not isinstance(t.get("match", ""), str):
            raise ScriptError(f"{path}: trajectories[{i}] needs a string 'match'")
        turns = []
        for j, turn in enumerate(t.get("turns", [])):
            where = f"{path}: trajectories[{i}].turns[{j}]"
            if "choices" in turn:
                if set(turn) != {"choices"} or not isinstance(turn["choices"], list):
                    raise ScriptError(f"{where}: a turn with choices has nothing else")
                turns.append([_turn(c, f"{where}.choices[{k}]")
                              for k, c in enumerate(turn["choices"])])
            else:
                turns.append([_turn(turn, where)])
        trajs.append(Trajectory(match=t.get("match", ""), turns=turns))
    return Script(name=path.stem, trajectories=trajs, usage=bool(doc.get("usage", True)),
                  tool=str(doc.get("tool", "bash")))


def message_text(content: Any) -> str:
    """The text of a message's content: a string, or a list of content blocks (text
    blocks, and tool results whose content is a string or blocks in turn)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict):
                text = block.get("text")
                parts.append(text if isinstance(text, str) else message_text(block.get("content")))
        return "\n".join(parts)
    return ""


def _tokens(data: Any) -> int:
    return max(1, len(json.dumps(data, sort_keys=True).encode()) // 4)


@dataclass
class ScriptedModelServer:
    """The server; `start()` runs it on loopback in a thread of its own."""

    scripts_dir: Path
    host: str = "127.0.0.1"
    port: int = 0
    requests: int = 0
    _scripts: dict[str, Script] = field(default_factory=dict)
    _thread: threading.Thread | None = None
    _loop: asyncio.AbstractEventLoop | None = None
    _runner: web.AppRunner | None = None

    # ------------------------------------------------------------------ scripts

    def script(self, model: str) -> Script:
        name = model.rsplit("/", 1)[-1]
        if name not in self._scripts:
            path = self.scripts_dir / f"{name}.toml"
            if not re.fullmatch(r"[A-Za-z0-9_.-]+", name) or not path.is_file():
                raise ScriptError(f"no script for model '{model}' in {self.scripts_dir}")
            self._scripts[name] = load_script(path)
        return self._scripts[name]

    # ------------------------------------------------------------------ answers

    def _pick(self, body: dict[str, Any], system_in_messages: bool) -> tuple[Script, Turn, int, int]:
        messages = body.get("messages") or []
        if not isinstance(messages, list):
            raise ScriptError("messages must be a list")
        script = self.script(str(body.get("model", "")))
        users = [m for m in messages if isinstance(m, dict) and m.get("role") == "user"]
        first_user = message_text(users[0].get("content")) if users else ""
        index = sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant")
        last = max((i for i, m in enumerate(messages)
                    if isinstance(m, dict) and m.get("role") == "assistant"), default=-1)
        # What the agent saw since its last turn: tool results, feedback.
        seen = "\n".join(message_text(m.get("content")) for m in messages[last + 1:]
                         if isinstance(m, dict) and m.get("role") in ("user", "tool")) \
            if last >= 0 else ""
        prompt = _tokens(messages) + (0 if system_in_messages else _tokens(body.get("system", "")))
        # The cached prefix: all but the messages added since the last assistant turn.
        cached = _tokens(messages[:last + 1]) if last >= 0 else 0
        return script, script.turn(first_user, index, seen), prompt, min(cached, prompt)

    def openai_reply(self, body: dict[str, Any]) -> dict[str, Any]:
        script, turn, prompt, cached = self._pick(body, True)
        message: dict[str, Any] = {"role": "assistant", "content": turn.say or None}
        call = turn.call(script.tool)
        if call is not None:
            args = json.dumps(call[1], sort_keys=True)
            message["tool_calls"] = [{
                "id": "call_" + uuid.uuid5(uuid.NAMESPACE_OID, call[0] + args + turn.say).hex[:24],
                "type": "function",
                "function": {"name": call[0], "arguments": args},
            }]
        completion = _tokens(message)
        reply: dict[str, Any] = {
            "id": "chatcmpl-scripted", "object": "chat.completion", "created": 0,
            "model": body.get("model"),
            "choices": [{"index": 0, "message": message,
                         "finish_reason": "tool_calls" if call is not None else "stop"}],
        }
        if script.usage:
            reply["usage"] = {"prompt_tokens": prompt, "completion_tokens": completion,
                              "total_tokens": prompt + completion,
                              "prompt_tokens_details": {"cached_tokens": cached}}
        return reply

    def anthropic_reply(self, body: dict[str, Any]) -> dict[str, Any]:
        script, turn, prompt, cached = self._pick(body, False)
        content: list[dict[str, Any]] = []
        if turn.say:
            content.append({"type": "text", "text": turn.say})
        call = turn.call(script.tool)
        if call is not None:
            key = call[0] + json.dumps(call[1], sort_keys=True)
            content.append({"type": "tool_use", "name": call[0],
                            "id": "toolu_" + uuid.uuid5(uuid.NAMESPACE_OID, key).hex[:24],
                            "input": call[1]})
        reply: dict[str, Any] = {
            "id": "msg_scripted", "type": "message", "role": "assistant",
            "model": body.get("model"), "content": content,
            "stop_reason": "tool_use" if call is not None else "end_turn",
            "stop_sequence": None,
        }
        if script.usage:
            reply["usage"] = {"input_tokens": prompt - cached, "output_tokens": _tokens(content),
                              "cache_read_input_tokens": cached,
                              "cache_creation_input_tokens": 0}
        return reply

    # ------------------------------------------------------------------ HTTP

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        self.requests += 1
        try:
            body = await request.json()
            reply = self.openai_reply(body)
        except (ScriptError, ValueError) as exc:
            return web.json_response({"error": {"message": str(exc), "type": "invalid_request_error"}},
                                     status=400)
        if not body.get("stream"):
            return web.json_response(reply)
        message = reply["choices"][0]["message"]
        delta: dict[str, Any] = {"role": "assistant", "content": message.get("content")}
        if "tool_calls" in message:
            delta["tool_calls"] = [{"index": 0, **c} for c in message["tool_calls"]]
        chunks = [{"id": reply["id"], "object": "chat.completion.chunk", "model": reply["model"],
                   "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
                  {"id": reply["id"], "object": "chat.completion.chunk", "model": reply["model"],
                   "choices": [{"index": 0, "delta": {},
                                "finish_reason": reply["choices"][0]["finish_reason"]}]}]
        if "usage" in reply and (body.get("stream_options") or {}).get("include_usage"):
            chunks.append({"id": reply["id"], "object": "chat.completion.chunk",
                           "model": reply["model"], "choices": [], "usage": reply["usage"]})
        events = [f"data: {json.dumps(c)}\n\n" for c in chunks] + ["data: [DONE]\n\n"]
        return await self._sse(request, events)

    async def _messages(self, request: web.Request) -> web.StreamResponse:
        self.requests += 1
        try:
            body = await request.json()
            reply = self.anthropic_reply(body)
        except (ScriptError, ValueError) as exc:
            return web.json_response({"type": "error", "error": {"type": "invalid_request_error",
                                                                 "message": str(exc)}}, status=400)
        if not body.get("stream"):
            return web.json_response(reply)
        usage = reply.get("usage", {})
        start = {**reply, "content": [], "stop_reason": None,
                 "usage": {k: v for k, v in usage.items() if k != "output_tokens"}
                 | ({"output_tokens": 1} if usage else {})}
        events: list[tuple[str, dict[str, Any]]] = [
            ("message_start", {"type": "message_start", "message": start})]
        for i, block in enumerate(reply["content"]):
            if block["type"] == "text":
                events += [("content_block_start", {"type": "content_block_start", "index": i,
                                                    "content_block": {"type": "text", "text": ""}}),
                           ("content_block_delta", {"type": "content_block_delta", "index": i,
                                                    "delta": {"type": "text_delta",
                                                              "text": block["text"]}})]
            else:
                events += [("content_block_start", {"type": "content_block_start", "index": i,
                                                    "content_block": {**block, "input": {}}}),
                           ("content_block_delta", {"type": "content_block_delta", "index": i,
                                                    "delta": {"type": "input_json_delta",
                                                              "partial_json": json.dumps(block["input"])}})]
            events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
        delta: dict[str, Any] = {"type": "message_delta",
                                 "delta": {"stop_reason": reply["stop_reason"], "stop_sequence": None}}
        if usage:
            delta["usage"] = {"output_tokens": usage["output_tokens"]}
        events += [("message_delta", delta), ("message_stop", {"type": "message_stop"})]
        return await self._sse(request, [f"event: {k}\ndata: {json.dumps(v)}\n\n" for k, v in events])

    @staticmethod
    async def _sse(request: web.Request, events: list[str]) -> web.StreamResponse:
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await resp.prepare(request)
        for e in events:
            await resp.write(e.encode())
        await resp.write_eof()
        return resp

    async def _models(self, request: web.Request) -> web.Response:
        names = sorted(p.stem for p in self.scripts_dir.glob("*.toml"))
        return web.json_response({"object": "list", "data": [{"id": n, "object": "model"}
                                                             for n in names]})

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_post("/chat/completions", self._chat)
        app.router.add_post("/v1/messages", self._messages)
        app.router.add_get("/v1/models", self._models)
        return app

    async def serve(self) -> None:
        """Start serving on the running loop (port 0: any free port, then set)."""
        self._runner, self.port = await loopback.serve(self.app(), self.host, self.port)

    async def aclose(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL (Anthropic clients take the part before /v1)."""
        return f"http://{self.host}:{self.port}/v1"

    def start(self) -> ScriptedModelServer:
        """Serve in a background thread (for tests and the CLI)."""
        ready = threading.Event()
        errors: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                loop.run_until_complete(self.serve())
            except BaseException as exc:  # reported to start()'s caller
                errors.append(exc)
                ready.set()
                return
            ready.set()
            loop.run_forever()
            loop.run_until_complete(self.aclose())
            loop.close()

        self._thread = threading.Thread(target=run, name="scripted-model", daemon=True)
        self._thread.start()
        ready.wait(30)
        if errors:
            raise errors[0]
        return self

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(30)
            self._thread = None

    def __enter__(self) -> ScriptedModelServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
