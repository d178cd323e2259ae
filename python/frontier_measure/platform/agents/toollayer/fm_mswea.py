"""frontier-measure's tool layer for mini-swe-agent: MCP tools and an after-action hook.

mini-swe-agent (2.x) gives its model one tool, `bash`. The regimes S2 and S3
(and LSP feedback) give an agent more: tools served by MCP servers. This module
is loaded by mini-swe-agent itself, as its agent and model classes
(`--agent-class fm_mswea.ToolAgent --model-class fm_mswea.ToolModel`, with this
directory on PYTHONPATH: the template does it), and adds them through a real MCP
client (the official `mcp` SDK, installed in mini-swe-agent's venv by
scripts/agents.sh), over stdio to server processes it starts:

* every tool of a server marked `expose` is offered to the model next to `bash`,
  with the name, description and JSON schema the server declares; a call of one
  becomes an MCP `tools/call` and its text result the observation;
* the after-action hook (`{"server": ..., "tool": ...}`) is called with no
  arguments after every bash command, and whatever it answers (a language
  server's new errors) is appended to that command's observation.

The configuration is a JSON file the platform writes per agent (`$FM_TOOLS`):
`{"servers": [{"name", "command", "args", "env", "expose"}], "after_action":
{...} | null}`. Without it, the classes behave as mini-swe-agent's own
DefaultAgent and LitellmModel. Standalone on purpose: it imports only the
standard library, mini-swe-agent and mcp, never frontier_measure.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
from pathlib import Path
from typing import Any

import litellm
from jinja2 import StrictUndefined, Template
from minisweagent.agents.default import DefaultAgent
from minisweagent.exceptions import FormatError
from minisweagent.models.litellm_model import LitellmModel
from minisweagent.models.utils.actions_toolcall import BASH_TOOL, parse_toolcall_actions

CALL_TIMEOUT_S = float(os.environ.get("FM_TOOL_TIMEOUT", "7200"))


class Hub:
    """One MCP client session per configured server, on an event loop in a thread
    of its own (mini-swe-agent's agent loop is synchronous)."""

    def __init__(self, servers: list[dict[str, Any]], timeout: float = 120) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="mcp-hub", daemon=True)
        self.thread.start()
        self.sessions: dict[str, Any] = {}
        self.tools: dict[str, str] = {}  # exposed tool -> its server
        self.schemas: list[dict[str, Any]] = []
        self._stop = asyncio.run_coroutine_threadsafe(self._make_event(), self.loop).result(10)
        self._tasks: list[Any] = []
        try:
            # All servers start at once; each is waited for in turn.
            started = []
            for spec in servers:
                fut = asyncio.run_coroutine_threadsafe(self._ready_future(), self.loop).result(10)
                self._tasks.append(asyncio.run_coroutine_threadsafe(self._serve(spec, fut), self.loop))
                started.append((spec, fut))
            for spec, fut in started:
                session, tools = asyncio.run_coroutine_threadsafe(self._wait(fut), self.loop) \
                    .result(timeout)
                self.sessions[spec["name"]] = session
                if spec.get("expose", True):
                    for t in tools:
                        if t.name == "bash" or t.name in self.tools:
                            continue
                        self.tools[t.name] = spec["name"]
                        self.schemas.append({"type": "function", "function": {
                            "name": t.name, "description": t.description or "",
                            "parameters": t.input_schema or {"type": "object", "properties": {}}}})
        except BaseException:
            self.close()
            raise

    async def _make_event(self) -> asyncio.Event:
        return asyncio.Event()

    async def _ready_future(self) -> asyncio.Future[Any]:
        return self.loop.create_future()

    @staticmethod
    async def _wait(fut: asyncio.Future[Any]) -> Any:
        return await fut

    async def _serve(self, spec: dict[str, Any], ready: asyncio.Future[Any]) -> None:
        # The client is entered and left in this one task (its cancel scopes demand it);
        # calls from other tasks of the loop use the session meanwhile.
        from mcp.client import Client
        from mcp.client.stdio import StdioServerParameters

        params = StdioServerParameters(command=spec["command"], args=list(spec.get("args", [])),
                                       env=dict(spec.get("env") or {}) or None,
                                       cwd=spec.get("cwd"))
        try:
            async with Client(params) as client:
                listed = await client.list_tools()
                ready.set_result((client, listed.tools))
                await self._stop.wait()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(RuntimeError(f"MCP server '{spec['name']}' did not start: "
                                                 f"{exc!r}"))
            else:
                raise

    def call(self, server: str, tool: str, arguments: dict[str, Any],
             timeout: float = CALL_TIMEOUT_S) -> tuple[str, bool]:
        """(text of the result, whether the server said it is an error)."""
        session = self.sessions[server]
        result = asyncio.run_coroutine_threadsafe(session.call_tool(tool, arguments),
                                                  self.loop).result(timeout)
        text = "\n".join(getattr(c, "text", "") for c in result.content
                         if getattr(c, "type", "") == "text")
        return text, bool(getattr(result, "is_error", False))

    def close(self) -> None:
        if not self.loop.is_running():
            return
        self.loop.call_soon_threadsafe(self._stop.set)
        for t in self._tasks:
            # A server that died already has nothing more to close.
            with contextlib.suppress(BaseException):
                t.result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


class ToolModel(LitellmModel):
    """LitellmModel with the hub's tools offered next to bash."""

    extra_tools: list[dict[str, Any]] = []

    def _query(self, messages: list[dict[str, str]], **kwargs: Any) -> Any:
        if not self.extra_tools:
            return super()._query(messages, **kwargs)
        return litellm.completion(model=self.config.model_name, messages=messages,
                                  tools=[BASH_TOOL, *self.extra_tools],
                                  **(self.config.model_kwargs | kwargs))

    def _parse_actions(self, response: Any) -> list[dict[str, Any]]:
        names = {t["function"]["name"] for t in self.extra_tools}
        calls = response.choices[0].message.tool_calls or []
        if not names or not calls:
            return super()._parse_actions(response)
        kwargs = {"format_error_template": self.config.format_error_template,
                  "template_kwargs": {"finish_reason": response.choices[0].finish_reason}}
        actions = []
        for call in calls:
            if call.function.name not in names:
                actions += parse_toolcall_actions([call], **kwargs)
                continue
            try:
                args = json.loads(call.function.arguments or "{}")
                if not isinstance(args, dict):
                    raise ValueError("the arguments are not a JSON object")
            except ValueError as exc:
                raise FormatError({
                    "role": "user",
                    "content": Template(self.config.format_error_template,
                                        undefined=StrictUndefined).render(
                        actions=[], has_tool_calls=True,
                        error=f"Error parsing the arguments of '{call.function.name}': {exc}.",
                        **kwargs["template_kwargs"]),
                    "extra": {"interrupt_type": "FormatError"}}) from None
            actions.append({"tool": call.function.name, "arguments": args,
                            "tool_call_id": call.id})
        return actions


class ToolAgent(DefaultAgent):
    """DefaultAgent whose actions may be MCP tool calls, with the after-action hook."""

    def __init__(self, model: Any, env: Any, **kwargs: Any) -> None:
        super().__init__(model, env, **kwargs)
        self.hub: Hub | None = None
        self.after: dict[str, str] | None = None
        path = os.environ.get("FM_TOOLS")
        if path and Path(path).is_file():
            cfg = json.loads(Path(path).read_text())
            if cfg.get("servers"):
                self.hub = Hub(cfg["servers"])
                model.extra_tools = self.hub.schemas
            self.after = cfg.get("after_action")

    def run(self, task: str = "", **kwargs: Any) -> dict[str, Any]:
        try:
            return super().run(task, **kwargs)
        finally:
            if self.hub is not None:
                self.hub.close()

    def _tool(self, action: dict[str, Any]) -> dict[str, Any]:
        assert self.hub is not None
        try:
            text, is_error = self.hub.call(self.hub.tools[action["tool"]], action["tool"],
                                           action["arguments"])
            return {"output": text, "returncode": 1 if is_error else 0, "exception_info": ""}
        except Exception as exc:  # the tool failed: the model is told, the agent goes on
            return {"output": "", "returncode": -1,
                    "exception_info": f"The tool '{action['tool']}' failed: {exc!r}"}

    def _after_action(self, output: dict[str, Any]) -> dict[str, Any]:
        if self.hub is None or not self.after:
            return output
        try:
            text, _ = self.hub.call(self.after["server"], self.after["tool"], {})
        except Exception as exc:
            text = f"(after-action feedback failed: {exc!r})"
        if text:
            output = dict(output, output=f"{output.get('output', '')}\n\n{text}".lstrip("\n"))
        return output

    def execute_actions(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        outputs = []
        for action in message.get("extra", {}).get("actions", []):
            if "tool" in action:
                outputs.append(self._tool(action))
            else:
                outputs.append(self._after_action(self.env.execute(action)))
        return self.add_messages(*self.model.format_observation_messages(
            message, outputs, self.get_template_vars()))
