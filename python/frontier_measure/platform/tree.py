"""The tree of agents of one attempt: its root agent, and the children it
delegates to (regime S3).

Every node is the same agent (the spec's CLI agent, the same model) run by the
same runner, on the same workspace and container. Each has its own gateway
token, so its model requests are its own (requests.node_id), its own control
token for its tool servers' telemetry, and its own row in `nodes` with its
outcome and totals; the attempt's figures are the sum over the tree.

Delegation is a request from the root's `delegate` tool server to the control
endpoint (control.py): the child starts with the task the parent wrote (plus
what its tools are), the parent's tool call waits until the child has finished,
and the parent is told the child's outcome, the files changed so far and the
child's last message. Children have the terminal tools (and the language
server's feedback, when the regime has it), not the delegate tool: the tree is
one level deep. A child's time limit never reaches past the attempt's; a
child still running when the root ends is stopped.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import agents as agents_mod
from . import regimes as regimes_mod
from .checkout import Checkout, Container
from .control import ControlServer, Delegate, NodeRoute
from .db import Database
from .gateway import Endpoint, Gateway
from .tasks import PlatformTask
from .telemetry import tokens_of


def last_message(transcript: Path, node_id: int) -> str:
    """The text of the last model answer a node got (from the gateway's transcript)."""
    if not transcript.exists():
        return ""
    opener = gzip.open if transcript.suffix == ".gz" else open
    text = ""
    with opener(transcript, "rt") as f:
        for line in f:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if rec.get("node") != node_id or not isinstance(rec.get("response"), dict):
                continue
            resp = rec["response"]
            for choice in resp.get("choices") or []:
                text = (choice.get("message") or {}).get("content") or text
            for block in resp.get("content") or [] if isinstance(resp.get("content"), list) else []:
                if isinstance(block, dict) and block.get("type") == "text":
                    text = block.get("text") or text
    return str(text)


@dataclass
class AgentTree:
    db: Database
    gateway: Gateway
    control: ControlServer
    attempt_id: int
    generation: int
    directory: Path  # the attempt's artefact directory
    task: PlatformTask
    agent_name: str
    agent: agents_mod.Agent
    regime: regimes_mod.Regime
    checkout: Checkout
    container: Container | None
    transcript: Path
    timeout_s: float
    model: tuple[str, Endpoint] | None  # (model name to send, its endpoint) for model agents
    image: str = ""
    tool_path: list[str] = field(default_factory=list)  # PATH head of the tool servers
    children: int = 0
    delegations_refused: int = 0

    def __post_init__(self) -> None:
        self.deadline = time.monotonic() + self.timeout_s
        self._running: set[asyncio.Task[Any]] = set()

    async def run(self, instruction: str) -> agents_mod.AgentOutcome:
        """The root agent's turn, with whatever it delegates."""
        try:
            _, outcome = await self._node(None, 0, instruction, self.directory, self.timeout_s)
            return outcome
        finally:
            for t in list(self._running):
                t.cancel()
            if self._running:
                await asyncio.gather(*self._running, return_exceptions=True)

    def figures(self) -> dict[str, Any]:
        out = self.db.tool_totals(self.attempt_id, self.generation)
        out["children"] = self.children
        out["delegated"] = int(self.children > 0) if self.regime.delegation else None
        return out

    async def _node(self, parent: int | None, depth: int, instruction: str, directory: Path,
                    timeout_s: float) -> tuple[int, agents_mod.AgentOutcome]:
        child = depth > 0
        note = self.regime.note(child=child)
        text = f"{instruction.rstrip()}\n\n{note}\n" if note else instruction
        node = self.db.open_node(self.attempt_id, self.generation, parent, depth, self.agent_name,
                                 text)
        token = None
        model = None
        if self.agent.uses_model and self.model is not None:
            name, endpoint = self.model
            token = self.gateway.open(self.attempt_id, self.generation, endpoint, self.transcript,
                                      node_id=node)
            model = agents_mod.ModelAccess(name, self.gateway.base_url(token), token, endpoint.api)
        route = NodeRoute(self.attempt_id, self.generation, node,
                          self._delegator(node, depth) if self.regime.delegation and not child
                          else None)
        ctrl = self.control.open(route)
        tools = regimes_mod.tools(self.regime, self.checkout.path, self.task.pristine,
                                  self.control.url(ctrl), self.tool_path, child=child) \
            if self.regime.needs_tools else None
        ctx = agents_mod.AttemptContext(
            task=self.task, instruction=text, workspace=self.checkout.path,
            container=self.container, directory=directory, timeout_s=timeout_s, model=model,
            extra={"image": self.image, "node": node, "depth": depth}, tools=tools)
        t0 = time.perf_counter()
        outcome = agents_mod.AgentOutcome(error="stopped before it ended")
        try:
            outcome = await agents_mod.run_with_backstop(self.agent, ctx)
            return node, outcome
        finally:
            if token is not None:
                self.gateway.close_route(token)
            self.control.close(ctrl)
            self.db.close_node(node, {"agent_s": time.perf_counter() - t0,
                                      "exit_code": outcome.exit_code,
                                      "timed_out": int(outcome.timed_out), "error": outcome.error})

    def _delegator(self, parent: int, depth: int) -> Delegate:
        async def delegate(task: str) -> str:
            me = asyncio.current_task()
            if me is not None:
                self._running.add(me)
            try:
                return await self._delegate(parent, depth, task)
            finally:
                if me is not None:
                    self._running.discard(me)

        return delegate

    async def _delegate(self, parent: int, depth: int, task: str) -> str:
        t0 = time.perf_counter()
        left = self.deadline - time.monotonic()
        limit = min(self.regime.child_timeout_s or self.timeout_s, left - 15)
        refusal = None
        if self.children >= self.regime.max_children:
            refusal = f"this attempt has had its {self.regime.max_children} sub-agents"
        elif limit < 30:
            refusal = f"only {max(0, left):.0f} s are left of this attempt"
        if refusal is not None:
            self.delegations_refused += 1
            text = f"Delegation refused: {refusal}. Do the work yourself."
            self._record(parent, time.perf_counter() - t0, text, {"refused": refusal})
            return text
        self.children += 1
        n = self.children
        node, outcome = await self._node(parent, depth + 1, task,
                                         self.directory / "children" / f"c{n}", limit)
        tel = self.db.telemetry(self.attempt_id, self.generation, node)
        changes = await asyncio.to_thread(self.checkout.changes)
        files = [c.path for c in changes.items]
        status = ("timed out" if outcome.timed_out else
                  f"failed ({outcome.error})" if outcome.error else "finished")
        shown = ", ".join(files[:40]) + (f" and {len(files) - 40} more" if len(files) > 40 else "")
        last = last_message(self.transcript, node).strip()
        text = (f"Sub-agent {n} {status} after {time.perf_counter() - t0:.0f} s and "
                f"{tel['steps']} model steps.\n"
                f"Files changed in the workspace so far: {shown or 'none'}.")
        if last:
            text += f"\nIts last message: {last[:2000]}"
        self._record(parent, time.perf_counter() - t0, text,
                     {"child": node, "steps": tel["steps"], "exit_code": outcome.exit_code,
                      "timed_out": outcome.timed_out, "files": len(files)})
        return text

    def _record(self, node: int, duration: float, text: str, detail: dict[str, Any]) -> None:
        self.db.record_tool_call({"attempt_id": self.attempt_id, "generation": self.generation,
                                  "node_id": node, "server": "delegate", "tool": "delegate",
                                  "duration_s": duration, "tokens": tokens_of(text),
                                  "ok": int("refused" not in detail), "detail": detail})
