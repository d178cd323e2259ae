"""The command agent: any CLI agent, from a template.

A template (templates/<name>.toml, or a file named in the spec) says how to run
one agent non-interactively:

    uses_model = true
    isolation = ["docker", "copy"]        # where it can work
    tools = "layer"                       # how it gets a regime's tools (S2, S3, LSP):
                                          # "layer": the platform's tool layer (toollayer/,
                                          # for mini-swe-agent); "mcp": the agent speaks MCP
                                          # itself (${mcp_config}; no after-edit hook);
                                          # absent: terminal regimes only
    command = ["mini", "-t", "${instruction}", ...]   # argv; ${var} placeholders
    outputs = ["trajectory.json"]         # files it leaves in ${agent_dir}, kept
    terminal = "pipe"                     # or "pty": its stdout/stderr is a terminal
    [env]        NAME = "value"           # its whole environment, besides PATH/HOME/LANG
    [files]      "config.yaml" = "..."    # written into ${agent_dir} first
    [vars]       step_limit = "100"       # placeholders of its own (overridable)
    [variants.docker.vars] / [variants.copy.vars]     # per isolation

Placeholders: instruction, instruction_file, agent_dir, workspace (as the agent's
commands see it: the container's workdir or the host checkout), workspace_host,
container, docker (a `docker` bound to the attempt's container), image, model,
base_url, api_key, api, timeout_s, tool_layer (the directory of the tool layer's
module), tools_file (its configuration, written when the regime has tools),
mcp_config (the regime's MCP servers as {"mcpServers": {...}}, always written),
and the template's vars. A spec's
[agents.<name>] table may override command, env, files, vars, outputs, terminal and add
`path` (directories put first on PATH).

The agent's environment is built from scratch: the runner's own variables (and
any real API key in them) are not passed on. Its stdout and stderr go to
agent/agent.log as they are written (PYTHONUNBUFFERED for Python agents), so the
dashboard can follow them live: through a pipe, or with `terminal = "pty"` through
a pseudo-terminal (160x50, TERM=xterm-256color) for agents that draw for a
terminal, its bytes copied to agent.log as they come (escape sequences included).
It runs in a session of its own and is killed, whole, at the attempt's
operational timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import shutil
import struct
import termios
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from string import Template
from typing import Any

from ..checkout import kill_session, process_start
from . import AgentOutcome, AttemptContext

TEMPLATES = Path(__file__).resolve().parent / "templates"
ATTACH = Path(__file__).resolve().parent / "docker-attach.sh"
TOOL_LAYER = Path(__file__).resolve().parent / "toollayer"
TOOL_MODES = ("layer", "mcp")


def tools_dir() -> Path | None:
    """.agents/bin of this checkout (scripts/agents.sh installs the CLI agents there)."""
    env = os.environ.get("FM_AGENTS_BIN")
    if env:
        return Path(env)
    root = Path(__file__).resolve().parents[4]
    return root / ".agents" / "bin" if (root / ".agents" / "bin").is_dir() else None


def load_template(ref: str, base_dir: Path) -> dict[str, Any]:
    path = TEMPLATES / f"{ref}.toml"
    if not path.is_file():
        path = (base_dir / ref).resolve()
    try:
        return tomllib.loads(path.read_text())
    except FileNotFoundError:
        known = ", ".join(sorted(p.stem for p in TEMPLATES.glob("*.toml")))
        raise ValueError(f"no agent template '{ref}' (bundled: {known}; or a .toml file)") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: {exc}") from None


def _merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    out = dict(a)
    for k, v in b.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


@dataclass
class CommandAgent:
    name: str
    command: list[str]
    uses_model: bool = True
    isolation: list[str] = field(default_factory=lambda: ["docker", "copy"])
    env: dict[str, str] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    vars: dict[str, str] = field(default_factory=dict)
    variants: dict[str, Any] = field(default_factory=dict)
    outputs: list[str] = field(default_factory=list)
    path: list[str] = field(default_factory=list)
    tools: str | None = None  # layer | mcp | None
    terminal: str = "pipe"  # pipe | pty

    @classmethod
    def from_table(cls, name: str, table: dict[str, Any], base_dir: Path) -> CommandAgent:
        doc: dict[str, Any] = load_template(str(table["template"]), base_dir) \
            if "template" in table else {}
        doc = _merge(doc, {k: v for k, v in table.items() if k not in ("template", "kind")})
        if not isinstance(doc.get("command"), list) or not doc["command"]:
            raise ValueError(f"[agents.{name}]: command must be a non-empty list (argv)")
        if doc.get("tools") is not None and doc["tools"] not in TOOL_MODES:
            raise ValueError(f"[agents.{name}]: tools = {doc['tools']!r} (choose from "
                             f"{', '.join(TOOL_MODES)})")
        terminal = str(doc.get("terminal", "pipe"))
        if terminal not in ("pipe", "pty"):
            raise ValueError(f"[agents.{name}]: terminal must be \"pipe\" or \"pty\", not {terminal!r}")
        return cls(name=name, command=[str(c) for c in doc["command"]],
                   uses_model=bool(doc.get("uses_model", True)),
                   isolation=list(doc.get("isolation", ["docker", "copy"])),
                   env={k: str(v) for k, v in doc.get("env", {}).items()},
                   files={k: str(v) for k, v in doc.get("files", {}).items()},
                   vars={k: str(v) for k, v in doc.get("vars", {}).items()},
                   variants=dict(doc.get("variants", {})),
                   outputs=[str(o) for o in doc.get("outputs", [])],
                   path=[str((base_dir / p).resolve()) for p in doc.get("path", [])],
                   tools=doc.get("tools"), terminal=terminal)

    def placeholders(self, ctx: AttemptContext, agent_dir: Path) -> dict[str, str]:
        v = dict(self.vars)
        v.update({str(k): str(x) for k, x in
                  self.variants.get(ctx.isolation, {}).get("vars", {}).items()})
        m = ctx.model
        v.update(instruction=ctx.instruction, instruction_file=str(agent_dir / "instruction.md"),
                 agent_dir=str(agent_dir), workspace=ctx.workdir,
                 workspace_host=str(ctx.workspace),
                 container=ctx.container.id if ctx.container else "",
                 docker=str(agent_dir / "docker-attach.sh"),
                 image=str(ctx.extra.get("image", "")), timeout_s=f"{ctx.timeout_s:g}",
                 model=m.name if m else "", base_url=m.base_url if m else "",
                 api_key=m.api_key if m else "", api=m.api if m else "",
                 tool_layer=str(TOOL_LAYER), tools_file=str(agent_dir / "fm-tools.json"),
                 mcp_config=str(agent_dir / "mcp.json"))
        return v

    def write_tools(self, ctx: AttemptContext, agent_dir: Path) -> str | None:
        """The regime's tools in the form this agent takes them; a reason when it cannot."""
        servers = (ctx.tools or {}).get("servers", [])
        exposed = {s["name"]: {"command": s["command"], "args": s.get("args", []),
                               "env": s.get("env", {})} for s in servers if s.get("expose", True)}
        (agent_dir / "mcp.json").write_text(json.dumps({"mcpServers": exposed}, indent=1))
        if ctx.tools is None:
            return None
        regime = ctx.tools.get("regime", "?")
        if self.tools is None:
            return (f"agent '{self.name}' cannot run regime {regime}: its template gives it no "
                    "tools besides its own (no `tools = \"layer\"` or `\"mcp\"`)")
        if self.tools == "mcp" and ctx.tools.get("after_action"):
            return (f"agent '{self.name}' cannot run regime {regime}: language-server feedback "
                    "after each edit needs the platform's tool layer (tools = \"layer\")")
        if self.tools == "layer":
            (agent_dir / "fm-tools.json").write_text(json.dumps(ctx.tools, indent=1))
        return None

    async def run(self, ctx: AttemptContext) -> AgentOutcome:
        if ctx.isolation not in self.isolation:
            return AgentOutcome(error=f"agent '{self.name}' does not support isolation "
                                f"'{ctx.isolation}' (its template allows "
                                f"{', '.join(self.isolation)})")
        agent_dir = ctx.directory / "agent"
        agent_dir.mkdir(parents=True, exist_ok=True)
        (agent_dir / "instruction.md").write_text(ctx.instruction)
        shutil.copy2(ATTACH, agent_dir / "docker-attach.sh")
        (agent_dir / "docker-attach.sh").chmod(0o755)
        home = agent_dir / "home"
        home.mkdir(exist_ok=True)
        values = self.placeholders(ctx, agent_dir)
        why = self.write_tools(ctx, agent_dir)
        if why is not None:
            return AgentOutcome(error=why)
        try:
            for fname, text in self.files.items():
                target = (agent_dir / Template(fname).substitute(values)).resolve()
                if agent_dir.resolve() not in target.parents:
                    raise ValueError(f"file {fname!r} is outside the agent directory")
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(Template(text).substitute(values))
            argv = [Template(a).substitute(values) for a in self.command]
            env = {"PATH": ":".join([*self.path, *([str(tools_dir())] if tools_dir() else []),
                                     os.environ.get("PATH", "/usr/bin:/bin")]),
                   "HOME": str(home), "LANG": "C.UTF-8", "TERM": "dumb",
                   # Python agents write agent.log as they go (the dashboard follows it),
                   # not in 8 KiB blocks when their buffer fills or they exit.
                   "PYTHONUNBUFFERED": "1",
                   "FM_CONTAINER": values["container"]}
            if self.terminal == "pty":
                env["TERM"] = "xterm-256color"
            env.update({k: Template(v).substitute(values) for k, v in self.env.items()})
        except (KeyError, ValueError) as exc:
            return AgentOutcome(error=f"agent '{self.name}': template: {exc}")
        exe = shutil.which(argv[0], path=env["PATH"])
        if exe is None:
            return AgentOutcome(error=f"agent '{self.name}': '{argv[0]}' not found on its PATH "
                                "(scripts/agents.sh installs mini-swe-agent)")
        cwd = ctx.workspace if ctx.isolation == "copy" else agent_dir
        log_path = agent_dir / "agent.log"
        started = time.monotonic()
        with open(log_path, "wb") as log:
            copier: asyncio.Task[None] | None = None
            if self.terminal == "pty":
                master, slave = os.openpty()
                fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 160, 0, 0))
                try:
                    proc = await asyncio.create_subprocess_exec(
                        exe, *argv[1:], cwd=cwd, env=env, stdin=asyncio.subprocess.DEVNULL,
                        stdout=slave, stderr=slave, start_new_session=True)
                except BaseException:
                    os.close(master)
                    raise
                finally:
                    os.close(slave)
                copier = asyncio.create_task(copy_terminal(master, log))
            else:
                proc = await asyncio.create_subprocess_exec(
                    exe, *argv[1:], cwd=cwd, env=env, stdin=asyncio.subprocess.DEVNULL,
                    stdout=log, stderr=asyncio.subprocess.STDOUT, start_new_session=True)
            # Who to kill if the runner dies before the agent ends (runner.kill_leftover_agents).
            (agent_dir / "agent.pid").write_text(f"{proc.pid} {process_start(proc.pid)}\n")
            timed_out = False
            try:
                await asyncio.wait_for(proc.wait(), ctx.timeout_s)
            except TimeoutError:
                timed_out = True
            finally:
                # The whole session goes, whatever the agent left running.
                kill_session(proc.pid)
                if proc.returncode is None:
                    await proc.wait()
                if copier is not None:
                    # The session is gone, so is every writer: the copy ends at once.
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(copier, 10)
        files = {o: agent_dir / o for o in self.outputs if (agent_dir / o).is_file()}
        text = log_path.read_text(errors="replace")
        return AgentOutcome(exit_code=proc.returncode or 0, timed_out=timed_out, log=text[-200000:],
                            files=files,
                            error=None if timed_out or proc.returncode == 0 else
                            f"exit {proc.returncode} after {time.monotonic() - started:.0f} s")


async def copy_terminal(master: int, log: Any) -> None:
    """Copy what is written to a pseudo-terminal into `log` as it comes, until every
    process holding its other side has closed it; `master` is closed at the end."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()
    os.set_blocking(master, False)

    def readable() -> None:
        try:
            data = os.read(master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: no writer is left
            data = b""
        if data:
            log.write(data)
            log.flush()
        elif not done.done():
            done.set_result(None)

    loop.add_reader(master, readable)
    try:
        await done
    finally:
        loop.remove_reader(master)
        os.close(master)
