"""The built-in agents: oracle, nop, replay."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path
from typing import Any

from . import AgentOutcome, AttemptContext

SUBMIT = "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"


class Nop:
    """Changes nothing: a sanity check that must score 0."""

    uses_model = False

    def __init__(self, name: str, table: dict[str, Any], base_dir: Path) -> None:
        self.name = name

    async def run(self, ctx: AttemptContext) -> AgentOutcome:
        return AgentOutcome(steps=0)


class Oracle:
    """The task's known-good solution: solution/workspace/ copied over the
    workspace, or solution/solve.sh run where the agent's commands run."""

    uses_model = False

    def __init__(self, name: str, table: dict[str, Any], base_dir: Path) -> None:
        self.name = name

    async def run(self, ctx: AttemptContext) -> AgentOutcome:
        sol = ctx.task.solution
        if sol is None:
            return AgentOutcome(error=f"{ctx.task.name}: the task has no solution (no oracle)")
        if sol.is_dir():
            shutil.copytree(sol, ctx.workspace, dirs_exist_ok=True)
            return AgentOutcome(steps=1, log=f"copied {sol} over the workspace\n")
        code, out = await ctx.sh(f"bash -s <<'FM_SOLVE_EOF'\n{sol.read_text()}\nFM_SOLVE_EOF")
        return AgentOutcome(exit_code=code, steps=1, log=out,
                            error=None if code == 0 else f"solve.sh failed (exit {code})")


def commands_of(path: Path) -> list[str]:
    """The shell commands of a recorded trajectory, in order: a JSON list of
    commands (or of {"command": ...}), a mini-swe-agent trajectory (.traj.json),
    or a frontier-measure transcript (transcript.jsonl[.gz], the gateway's)."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        text = f.read()
    if path.name.endswith((".jsonl", ".jsonl.gz")):
        out: list[str] = []
        for line in text.splitlines():
            rec = json.loads(line)
            out += _calls(rec.get("response"))
        return out
    doc = json.loads(text)
    if isinstance(doc, list):
        return [c["command"] if isinstance(c, dict) else str(c) for c in doc]
    if isinstance(doc, dict) and "messages" in doc:  # mini-swe-agent
        out = []
        for m in doc["messages"]:
            for a in (m.get("extra") or {}).get("actions", []) if m.get("role") == "assistant" else []:
                if "command" in a:  # bash; calls of a regime's MCP tools are not replayed
                    out.append(a["command"])
        return out
    raise ValueError(f"{path}: not a trajectory this agent can replay")


def _calls(response: Any) -> list[str]:
    """bash tool calls of one recorded model answer (OpenAI or Anthropic)."""
    out: list[str] = []
    if not isinstance(response, dict):
        return out
    for choice in response.get("choices", []):
        for call in (choice.get("message") or {}).get("tool_calls") or []:
            try:
                out.append(json.loads(call["function"]["arguments"])["command"])
            except (KeyError, ValueError, TypeError):
                continue
    for block in response.get("content", []) if isinstance(response.get("content"), list) else []:
        if isinstance(block, dict) and block.get("type") == "tool_use":
            cmd = (block.get("input") or {}).get("command")
            if isinstance(cmd, str):
                out.append(cmd)
    return out


class Replay:
    """Re-applies a recorded trajectory: runs its commands, in order, in a fresh
    checkout (without a model). `trajectory` names the recording; a relative path
    is taken from the spec's directory."""

    uses_model = False

    def __init__(self, name: str, table: dict[str, Any], base_dir: Path) -> None:
        self.name = name
        if "trajectory" not in table:
            raise ValueError(f"[agents.{name}]: replay needs trajectory = \"FILE\"")
        self.path = (base_dir / str(table["trajectory"])).resolve()

    async def run(self, ctx: AttemptContext) -> AgentOutcome:
        try:
            commands = commands_of(self.path)
        except (OSError, ValueError) as exc:
            return AgentOutcome(error=f"cannot read the trajectory: {exc}")
        log = []
        steps = 0
        for cmd in commands:
            if cmd.strip().startswith("echo " + SUBMIT) or cmd.strip() == f"echo {SUBMIT}":
                break
            steps += 1
            code, out = await ctx.sh(cmd)
            log.append(f"$ {cmd}\n{out}[exit {code}]\n")
        return AgentOutcome(steps=steps, log="".join(log))


BUILTIN: dict[str, Any] = {"nop": Nop, "oracle": Oracle, "replay": Replay}
