"""The agent's session as a terminal: its commands and their output, step by step.

A CLI agent's own output says little (mini-swe-agent's default agent prints
nothing per step), but everything it saw and did passed through the gateway,
which appends each request and its answer to the attempt's
`transcript.jsonl` as it happens (gzipped when the attempt ends). Read back in
order, that is the session a terminal would have shown:

    ── step 2 · 0.8 s · 3,104 in / 212 out
    » Membership is tested on a list, which is quadratic.
    $ cat > dedupe.py <<'PYEOF' ...
    [exit 0]

A request carries the output of the previous step's commands (tool results)
and the answer carries the next commands (tool calls), in either API (OpenAI
chat completions, Anthropic messages), streamed or not.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
from pathlib import Path
from typing import Any

from ..platform.scripted_model import message_text

OUTPUT_CHARS = 4000  # of one command's output
TASK_LINES = 12  # of the task statement, shown once
FIRST = 256 * 1024  # a browser that joins late sees this much of the session's end


def _clip(text: str, limit: int = OUTPUT_CHARS) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n… ({len(text) - limit:,} more characters)"


def _output(text: str) -> str:
    """A tool result as a terminal shows it: mini-swe-agent's {"returncode", "output"}
    becomes the output and its exit status; anything else is shown as it is."""
    with contextlib.suppress(ValueError, TypeError):
        data = json.loads(text)
        if isinstance(data, dict) and "output" in data:
            out = str(data.get("output") or "")
            code = data.get("returncode")
            return _clip(out) + ("" if out.endswith("\n") or not out else "\n") + \
                (f"[exit {code}]\n" if code is not None else "")
    return _clip(text) + ("" if text.endswith("\n") else "\n")


def _results(messages: list[Any]) -> list[str]:
    """Tool results sent since the model's last answer."""
    last = max((i for i, m in enumerate(messages)
                if isinstance(m, dict) and m.get("role") == "assistant"), default=None)
    if last is None:
        return []
    out = []
    for m in messages[last + 1:]:
        if isinstance(m, dict) and m.get("role") in ("tool", "user"):
            text = message_text(m.get("content"))
            if text:
                out.append(_output(text))
    return out


def _answer(response: Any) -> tuple[list[str], list[str]]:
    """(what the model said, the commands it asked for) of one answer."""
    says: list[str] = []
    calls: list[str] = []
    if not isinstance(response, dict):
        return says, calls
    if isinstance(response.get("stream"), list):
        return _streamed(response["stream"])
    for choice in response.get("choices") or []:
        msg = (choice or {}).get("message") or {}
        if isinstance(msg.get("content"), str) and msg["content"].strip():
            says.append(msg["content"])
        for call in msg.get("tool_calls") or []:
            calls.append(_command((call.get("function") or {}).get("arguments")))
    for block in response.get("content") or [] if isinstance(response.get("content"), list) else []:
        if isinstance(block, dict) and block.get("type") == "text" and block.get("text"):
            says.append(str(block["text"]))
        elif isinstance(block, dict) and block.get("type") == "tool_use":
            calls.append(_command(block.get("input")))
    return says, calls


def _streamed(events: list[Any]) -> tuple[list[str], list[str]]:
    text: list[str] = []
    args: dict[int, list[str]] = {}
    for e in events:
        if not isinstance(e, dict):
            continue
        for choice in e.get("choices") or []:  # OpenAI chunks
            delta = (choice or {}).get("delta") or {}
            if isinstance(delta.get("content"), str):
                text.append(delta["content"])
            for call in delta.get("tool_calls") or []:
                args.setdefault(int(call.get("index") or 0), []).append(
                    str((call.get("function") or {}).get("arguments") or ""))
        delta = e.get("delta") if e.get("type") == "content_block_delta" else None
        if isinstance(delta, dict):  # Anthropic events
            if delta.get("type") == "text_delta":
                text.append(str(delta.get("text") or ""))
            elif delta.get("type") == "input_json_delta":
                args.setdefault(int(e.get("index") or 0), []).append(
                    str(delta.get("partial_json") or ""))
    said = "".join(text).strip()
    return ([said] if said else []), [_command("".join(a)) for _, a in sorted(args.items())]


def _command(arguments: Any) -> str:
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return arguments
    if isinstance(arguments, dict):
        cmd = arguments.get("command")
        return cmd if isinstance(cmd, str) else json.dumps(arguments)
    return str(arguments)


def render(record: dict[str, Any], step: int) -> str:
    """One gateway record (request and answer) as terminal text."""
    request = record.get("request")
    messages = (request.get("messages") if isinstance(request, dict) else None) or []
    out: list[str] = []
    if step == 1:
        users = [m for m in messages if isinstance(m, dict) and m.get("role") == "user"]
        task = message_text(users[0].get("content")).strip().splitlines() if users else []
        if task:
            more = f"\n… ({len(task) - TASK_LINES} more lines)" if len(task) > TASK_LINES else ""
            out.append("(task) " + "\n".join(task[:TASK_LINES]) + more + "\n")
    out += _results(messages)
    latency = record.get("latency_s")
    head = f"── step {step}" + (f" · {latency:.1f} s" if isinstance(latency, (int, float)) else "")
    if record.get("status") not in (None, 200):
        head += f" · HTTP {record.get('status')}"
    out.append(head + "\n")
    says, calls = _answer(record.get("response"))
    out += ["» " + s.strip().replace("\n", "\n  ") + "\n" for s in says]
    out += ["$ " + c.rstrip() + "\n" for c in calls]
    return "".join(out)


class SessionTail:
    """Follows an attempt's transcript: the live transcript.jsonl line by line
    while it runs, then the gzipped one (rendered whole, once) when it ends."""

    def __init__(self, first: int = FIRST) -> None:
        self.first = first
        self.source: tuple[str, int, int] | None = None  # (name, device, inode)
        self.offset = 0
        self.steps = 0
        self._partial = b""

    def read(self, adir: Path | None) -> tuple[bool, str] | None:
        """(reset, text) of what is new, or None."""
        if adir is None:
            return None
        live, done = adir / "transcript.jsonl", adir / "transcript.jsonl.gz"
        for path in (live, done):
            try:
                st = os.stat(path)
            except OSError:
                continue
            source = (path.name, st.st_dev, st.st_ino)
            if source != self.source:
                self.source, self.offset, self.steps, self._partial = source, 0, 0, b""
                text = self._read_all(path) if path is done else self._read_new(path)
                return True, text[-self.first:]
            if path is live:
                text = self._read_new(path)
                return (False, text) if text else None
            return None
        if self.source is not None:  # the attempt was started again
            self.source, self.offset, self.steps = None, 0, 0
            return True, ""
        return None

    def _lines(self, data: bytes) -> str:
        out = []
        for raw in data.split(b"\n"):
            with contextlib.suppress(ValueError):
                rec = json.loads(raw.decode(errors="replace"))
                if isinstance(rec, dict):
                    self.steps += 1
                    out.append(render(rec, self.steps))
        return "".join(out)

    def _read_new(self, path: Path) -> str:
        try:
            with open(path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except OSError:
            return ""
        self.offset += len(data)
        data = self._partial + data
        # Only whole lines: the gateway may be writing the next one.
        cut = data.rfind(b"\n") + 1
        self._partial = data[cut:]
        return self._lines(data[:cut].rstrip(b"\n")) if cut else ""

    def _read_all(self, path: Path) -> str:
        try:
            with gzip.open(path, "rb") as f:
                data = f.read()
        except (OSError, EOFError):
            return ""
        return self._lines(data.rstrip(b"\n"))
