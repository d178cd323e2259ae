"""Agents: what works in an attempt's checkout.

Built in (builtin.py): `oracle` (the task's known-good solution), `nop` (changes
nothing: must score 0), `replay` (re-applies a recorded trajectory's commands).
The command agent (command.py) runs any CLI agent from a template: mini-swe-agent
(installed and tested here), Codex CLI, Claude Code and aider (templates/).

An agent gets an `AttemptContext` and returns an `AgentOutcome`; it never sees
the gate, the task's tests/ or the real model API key (only the gateway's
per-attempt token and base URL).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..checkout import Container, kill_session, run_process
from ..tasks import PlatformTask


@dataclass
class ModelAccess:
    """How an agent reaches its model: through the gateway, never directly."""

    name: str  # the model name to send
    base_url: str  # the gateway's per-attempt URL, in the endpoint's convention
    api_key: str  # the gateway's per-attempt token (not a real key)
    api: str  # openai | anthropic


@dataclass
class AttemptContext:
    task: PlatformTask
    instruction: str
    workspace: Path  # the checkout on the host
    container: Container | None  # the attempt's container (isolation = docker)
    directory: Path  # the attempt's artefact directory (agent files under agent/)
    timeout_s: float
    model: ModelAccess | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    # The regime's tools for this agent (regimes.tools(): MCP servers and the
    # after-action hook), or None: terminal tools only, nothing to set up.
    tools: dict[str, Any] | None = None

    @property
    def isolation(self) -> str:
        return "docker" if self.container is not None else "copy"

    @property
    def workdir(self) -> str:
        """Where the agent's commands see the workspace."""
        return self.container.workdir if self.container is not None else str(self.workspace)

    async def sh(self, command: str, timeout: float | None = None) -> tuple[int, str]:
        """Run a shell command where the agent's commands run (container or checkout)."""
        t = timeout or self.timeout_s
        if self.container is not None:
            return await self.container.exec(command, t)
        code, out, err = await run_process(["bash", "-c", command], timeout=t, cwd=self.workspace)
        return code, out + err


@dataclass
class AgentOutcome:
    exit_code: int = 0
    timed_out: bool = False
    error: str | None = None  # the agent could not run (not a verdict on its work)
    log: str = ""  # the agent's own output (kept as an artefact)
    steps: int | None = None  # for agents without a model: their own count of actions
    files: dict[str, Path] = field(default_factory=dict)  # artefacts the agent left (name -> path)


class Agent(Protocol):
    name: str
    uses_model: bool

    async def run(self, ctx: AttemptContext) -> AgentOutcome: ...


async def run_with_backstop(agent: Agent, ctx: AttemptContext) -> AgentOutcome:
    """The agent's turn. The agent enforces the timeout on its own process; this
    is the backstop for one that does not."""
    try:
        return await asyncio.wait_for(agent.run(ctx), ctx.timeout_s + 120)
    except TimeoutError:
        return AgentOutcome(timed_out=True)


def make(name: str, table: dict[str, Any], base_dir: Path) -> Agent:
    """The agent a spec's [agents.<name>] table describes."""
    from . import builtin, command

    kind = table.get("kind") or ("command" if "template" in table or "command" in table else name)
    if kind in builtin.BUILTIN:
        agent: Agent = builtin.BUILTIN[kind](name, table, base_dir)
        return agent
    if kind == "command":
        return command.CommandAgent.from_table(name, table, base_dir)
    raise ValueError(f"[agents.{name}]: unknown kind '{kind}' (built in: "
                     f"{', '.join(builtin.BUILTIN)}; or kind = \"command\")")


__all__ = ["Agent", "AgentOutcome", "AttemptContext", "ModelAccess", "kill_session", "make",
           "run_with_backstop"]
