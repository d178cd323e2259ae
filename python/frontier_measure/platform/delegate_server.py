"""The delegate tool, as an MCP server for the tool layer (regime S3).

    frontier-measure delegate serve        (FM_CONTROL_URL: the agent node's control URL)

One tool, `delegate(task)`: the runner starts a child agent on the same
workspace with `task` as its whole instruction, waits for it, and answers with
what it did (its outcome, steps, the files changed so far, its last message).
The child is the same agent (the same CLI, the same model) run by the same
runner; it has the terminal tools, its own model token and its own telemetry,
and its place in the attempt's tree of agents is recorded (tree.py). The server
itself only forwards: the runner measures and records the delegation.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from typing import Any

from .telemetry import ENV

DESCRIPTION = ("Hand a self-contained part of the work to a sub-agent. It works in the same "
               "workspace with a terminal (not with this tool), starting from nothing but the "
               "task you write, and reports back when it is done. Write the task so it can be "
               "done without this conversation: what to change, where, and how to tell it is "
               "done.")


def forward(url: str, task: str, timeout: float = 7200) -> str:
    req = urllib.request.Request(f"{url}/delegate", data=json.dumps({"task": task}).encode(),
                                 method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return str(json.loads(r.read())["result"])
    except urllib.error.HTTPError as exc:
        try:
            return f"Delegation refused: {json.loads(exc.read())['error']}"
        except (ValueError, KeyError):
            return f"Delegation failed: HTTP {exc.code}"
    except (urllib.error.URLError, OSError, ValueError, KeyError) as exc:
        return f"Delegation failed: {exc}"


def build_server(url: str) -> Any:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("frontier-measure-delegate", log_level="WARNING")

    @server.tool(name="delegate", description=DESCRIPTION, structured_output=False)
    def delegate(task: str) -> str:
        return forward(url, task)

    return server


def serve() -> None:
    url = os.environ.get(ENV)
    if not url:
        raise SystemExit(f"delegate serve: ${ENV} is not set (the runner sets it for its agents)")
    build_server(url).run("stdio")
