"""Telemetry from the tool servers an agent uses, to the runner that owns the run.

The MCP servers of the regimes (the code index, the language server's feedback,
delegation) run as processes of the agent's tool layer, on the host, outside the
agent's commands' reach. Each call they serve is measured by the server itself
(its own clock around its own work; tokens of what it hands back to the model,
counted like the gateway counts them) and posted to the runner's control
endpoint, whose URL the runner gives each agent node in `FM_CONTROL_URL`
(control.py). The runner writes it to the run's database in its own transaction
order. Without the variable (a server started by hand) nothing is sent.

    reporter = Reporter.from_env("index")
    reporter.report("search_code", duration_s=0.01, tokens=812, detail={"k": 8})
"""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from .prices import count_tokens

ENV = "FM_CONTROL_URL"


def tokens_of(text: str) -> int:
    """Tokens of text fed back to a model, counted as the gateway counts (prices.py)."""
    return count_tokens(text)[0]


@dataclass
class Reporter:
    server: str
    url: str | None = None

    @classmethod
    def from_env(cls, server: str) -> Reporter:
        return cls(server, os.environ.get(ENV) or None)

    def report(self, tool: str, duration_s: float, tokens: int = 0, ok: bool = True,
               detail: dict[str, Any] | None = None) -> None:
        """Send one measured call (best effort: a lost report never fails the tool)."""
        if not self.url:
            return
        body = json.dumps({"server": self.server, "tool": tool, "duration_s": duration_s,
                           "tokens": tokens, "ok": ok, "detail": detail or {}}).encode()
        req = urllib.request.Request(f"{self.url}/telemetry", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                r.read()
        except (urllib.error.URLError, OSError) as exc:
            # stdout is the MCP transport of a stdio server: complaints go to stderr.
            print(f"{self.server}: telemetry not sent: {exc}", file=sys.stderr)
