"""Regimes' parts: the spec axis, the database's new tables (and an old database
opened by this version), the scripted model's tool calls and choices, the control
endpoint, the delegate MCP server against it, the language-server client and its
edit feedback with the real pyright, the tool layer's configuration, and the
regime tables of the report. Real processes and HTTP on loopback; no Docker."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import sys
from pathlib import Path

import aiohttp
import anyio
import pytest

from frontier_measure.platform import metrics, regimes, spec
from frontier_measure.platform.control import ControlServer, NodeRoute
from frontier_measure.platform.db import Database
from frontier_measure.platform.lsp import PYRIGHT_SETTINGS, LanguageServer
from frontier_measure.platform.lsp_server import EditFeedback
from frontier_measure.platform.runner import plan
from frontier_measure.platform.scripted_model import ScriptedModelServer, ScriptError, load_script

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "examples" / "agents" / "scripted-model"
PYRIGHT = ROOT / ".agents" / "bin" / "pyright-langserver"
needs_pyright = pytest.mark.skipif(not PYRIGHT.exists(),
                                   reason="pyright not installed (scripts/agents.sh, needs npm)")


# ---------------------------------------------------------------- the spec axis


def _spec(tmp_path: Path, text: str) -> spec.Spec:
    f = tmp_path / "s.toml"
    f.write_text('[tasks]\npaths = ["."]\n[agents.nop]\n' + text)
    return spec.load(f)


def test_regimes_in_the_spec(tmp_path: Path) -> None:
    s = _spec(tmp_path, """
[run]
regimes = ["S1", "S1-lsp", "S2-naive", "S3"]
exclude = [{ agent = "nop", regime = "S[23]*" }, { regime = "S1", prompt_mode = "lazy" }]
[regimes.S1-lsp]
lsp = "pyright"
kind = "S1"
[regimes.S2-naive]
kind = "S2"
chunker = "naive"
k = 5
[regimes.S3]
max_children = 2
child_timeout_s = 60
""")
    assert s.regime("S1") == regimes.Regime("S1", "S1")
    assert s.regime("S1-lsp").lsp == "pyright" and s.regime("S1-lsp").needs_tools
    naive = s.regime("S2-naive")
    assert (naive.kind, naive.chunker, naive.k, naive.retrieval) == ("S2", "naive", 5, True)
    assert (s.regime("S3").max_children, s.regime("S3").child_timeout_s) == (2, 60.0)
    assert s.excluded({"task": "t", "agent": "nop", "model": "-", "prompt_mode": "base",
                       "regime": "S2-naive"})
    assert not s.excluded({"task": "t", "agent": "nop", "model": "-", "prompt_mode": "base",
                           "regime": "S1"})


def test_regime_problems_are_named(tmp_path: Path) -> None:
    with pytest.raises(spec.SpecError) as e:
        _spec(tmp_path, """
[run]
regimes = ["S1", "S4", "X"]
exclude = [{ colour = "red" }]
[regimes.X]
kind = "S9"
lsp = "clangd"
chunker = "words"
k = 0
bogus = 1
[regimes.S1-c]
chunker = "ast"
""")
    problems = "\n".join(e.value.problems)
    for expected in ("[run].regimes: unknown regime 'S4'", "[regimes.X].kind: 'S9'",
                     "[regimes.X].lsp: 'clangd'", "[regimes.X].chunker: 'words'",
                     "[regimes.X].k: expected a positive integer", "[regimes.X].bogus: unknown key",
                     "[regimes.S1-c].chunker: only S2 has a code index", "[run].exclude[0]"):
        assert expected in problems, problems


def test_plan_leaves_out_excluded_combinations(tmp_path: Path) -> None:
    from frontier_measure.platform.agents import make
    from frontier_measure.platform.tasks import load

    s = _spec(tmp_path, '[run]\nregimes = ["S1", "S3"]\nprompt_modes = ["base", "lazy"]\n'
                        'exclude = [{ regime = "S3", prompt_mode = "lazy" }]\n')
    task = load(ROOT / "tasks" / "module" / "dedupe")
    planned = plan(s, [task], {"nop": make("nop", {}, tmp_path)})
    assert sorted((p["prompt_mode"], p["regime"]) for p in planned) == [
        ("base", "S1"), ("base", "S3"), ("lazy", "S1")]


def test_tools_of_an_agent_node(tmp_path: Path) -> None:
    r = regimes.Regime("S3-lsp", "S3", lsp="pyright")
    root = regimes.tools(r, tmp_path / "ws", tmp_path / "pristine", "http://x/n/t", ["/bin2"])
    assert [s["name"] for s in root["servers"]] == ["delegate", "lsp"]
    assert root["after_action"] == {"server": "lsp", "tool": "after_action"}
    lsp = root["servers"][1]
    assert not lsp["expose"] and lsp["args"][-4:] == ["--server", "pyright", "--pristine",
                                                      str(tmp_path / "pristine")]
    assert lsp["env"]["FM_CONTROL_URL"] == "http://x/n/t"
    assert lsp["env"]["PATH"].startswith("/bin2:")
    child = regimes.tools(r, tmp_path / "ws", None, "u", [], child=True)
    assert [s["name"] for s in child["servers"]] == ["lsp"]  # children do not delegate
    s2 = regimes.tools(regimes.Regime("S2n", "S2", chunker="naive", k=3), tmp_path, None, "u", [])
    assert s2["servers"][0]["args"][-4:] == ["--chunker", "naive", "--k", "3"]
    assert s2["after_action"] is None
    assert "search_code" in regimes.Regime("S2", "S2").note()
    assert "delegate" in r.note() and "delegate" not in r.note(child=True)
    assert regimes.Regime("S1", "S1").note() == ""


# ---------------------------------------------------------------- the database


OLD_SCHEMA = """
CREATE TABLE runs (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, spec_path TEXT, spec TEXT,
    created_at TEXT NOT NULL);
CREATE TABLE attempts (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, key TEXT NOT NULL UNIQUE,
    task TEXT NOT NULL, task_path TEXT NOT NULL, kind TEXT NOT NULL, scale TEXT, agent TEXT NOT NULL,
    model TEXT NOT NULL, prompt_mode TEXT NOT NULL, regime TEXT NOT NULL, number INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending', generation INTEGER NOT NULL DEFAULT 0, outcome TEXT,
    passed INTEGER, started_at TEXT, finished_at TEXT, wall_s REAL, agent_s REAL, gate_s REAL,
    steps INTEGER, requests INTEGER, tokens_in INTEGER, tokens_out INTEGER, tokens_cached INTEGER,
    cost REAL, files_changed INTEGER, lines_added INTEGER, lines_removed INTEGER, speedup REAL,
    codebleu REAL, dir TEXT, error TEXT);
CREATE TABLE requests (id INTEGER PRIMARY KEY, attempt_id INTEGER, generation INTEGER,
    at TEXT NOT NULL, api TEXT, path TEXT, model TEXT, status INTEGER, latency_s REAL,
    tokens_in INTEGER, tokens_out INTEGER, tokens_cached INTEGER, tokens_cache_write INTEGER,
    cost REAL, usage_source TEXT, stream INTEGER, step INTEGER, error TEXT);
INSERT INTO runs VALUES (1, 'old', 's.toml', '', '2026-01-01');
INSERT INTO attempts(id, run_id, key, task, task_path, kind, agent, model, prompt_mode, regime,
    number, state, outcome, passed, cost) VALUES (1, 1, 'k', 't', '/t', 'refactorbench', 'a', 'm',
    'base', 'S1', 1, 'finished', 'passed', 1, 0.5);
"""


def test_an_older_database_gains_the_new_columns_and_keeps_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    c = sqlite3.connect(path)
    c.executescript(OLD_SCHEMA)
    c.close()
    db = Database(path)
    try:
        row = db.attempt(1)
        assert row is not None and row["outcome"] == "passed" and row["delegated"] is None
        cols = {r["name"] for r in db.rows("PRAGMA table_info(requests)")}
        assert "node_id" in cols
        assert db.rows("SELECT COUNT(*) AS n FROM nodes")[0]["n"] == 0
    finally:
        db.close()
    Database(path).close()  # opening again changes nothing


def test_nodes_requests_and_tool_totals(tmp_path: Path) -> None:
    db = Database(tmp_path / "s.sqlite")
    try:
        root = db.open_node(3, 1, None, 0, "mini", "do it")
        child = db.open_node(3, 1, root, 1, "mini", "do part")
        for node, cost in ((root, 0.25), (root, 0.25), (child, 0.125)):
            db.record_request({"attempt_id": 3, "generation": 1, "at": "x", "node_id": node,
                               "step": 1, "tokens_in": 100, "tokens_out": 10, "cost": cost})
        db.close_node(child, {"agent_s": 2.0, "exit_code": 0, "timed_out": 0})
        db.close_node(root, {"agent_s": 5.0, "exit_code": 0, "timed_out": 0})
        nodes = db.nodes(3, 1)
        assert [(n["parent_id"], n["depth"], n["steps"], n["cost"], n["state"]) for n in nodes] == [
            (None, 0, 2, 0.5, "finished"), (root, 1, 1, 0.125, "finished")]
        assert db.telemetry(3, 1)["cost"] == 0.625
        for server, tool, d, t in (("lsp", "lsp-start", 1.0, 0), ("lsp", "after_action", 2.0, 40),
                                   ("index", "index-build", 0.5, 0), ("index", "search_code", 0.1, 300),
                                   ("delegate", "delegate", 9.0, 80)):
            db.record_tool_call({"attempt_id": 3, "generation": 1, "node_id": root, "server": server,
                                 "tool": tool, "duration_s": d, "tokens": t, "ok": 1,
                                 "detail": {"x": 1}})
        totals = db.tool_totals(3, 1)
        assert totals == {"tool_calls": 5, "tool_s": 12.6, "tool_tokens": 420, "lsp_s": 3.0,
                          "lsp_tokens": 40, "index_s": 0.5, "index_tokens": 0}
        assert json.loads(db.rows("SELECT detail FROM tool_calls LIMIT 1")[0]["detail"]) == {"x": 1}
    finally:
        db.close()


# ---------------------------------------------------------------- the scripted model


def test_scripted_model_calls_other_tools_and_reacts_to_what_it_saw() -> None:
    s = ScriptedModelServer(SCRIPTS)
    task = ("Rename render_template_string to render_template_str.\n\nYou also have the tool "
            "`search_code(query, k)`: ...")
    first = s.openai_reply({"model": "tools", "messages": [{"role": "user", "content": task}]})
    call = first["choices"][0]["message"]["tool_calls"][0]["function"]
    assert call["name"] == "search_code"
    assert json.loads(call["arguments"]) == {"query": "render_template_string", "k": 5}

    def second(seen: str) -> str:
        msgs = [{"role": "user", "content": task}, first["choices"][0]["message"],
                {"role": "tool", "tool_call_id": "c", "content": seen}]
        reply = s.openai_reply({"model": "tools", "messages": msgs})
        return json.loads(reply["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"])[
            "command"]

    assert second("## 1. src/flask/templating.py:153-162\n  153  def render_template_string(x):") \
        .startswith("grep -rl render_template_string")
    assert second("No chunk of the repository matches") == \
        "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"
    # Anthropic: the same choice, with the tool result in a content block.
    anth = s.anthropic_reply({"model": "tools", "messages": [
        {"role": "user", "content": task},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "search_code",
                                           "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": [
            {"type": "text", "text": "def render_template_string("}]}]}]})
    assert anth["content"][-1]["input"]["command"].startswith("grep -rl")


def test_script_errors_are_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[[trajectories]]\nmatch = ""\n[[trajectories.turns]]\nbash = "ls"\ntool = "x"\n')
    with pytest.raises(ScriptError, match=r"turns\[0\]: a turn calls bash or another tool"):
        load_script(bad)
    bad.write_text('[[trajectories]]\nmatch = ""\n[[trajectories.turns]]\nsay = "a"\n'
                   '[[trajectories.turns.choices]]\nbash = "ls"\n')
    with pytest.raises(ScriptError, match="a turn with choices has nothing else"):
        load_script(bad)


# ---------------------------------------------------------------- control and delegation


def test_control_endpoint_records_telemetry_and_runs_delegations(tmp_path: Path) -> None:
    rows: list[dict] = []
    asked: list[str] = []

    async def child(task: str) -> str:
        asked.append(task)
        return f"Sub-agent 1 finished: {task.upper()}"

    async def go() -> list[tuple[int, dict]]:
        control = ControlServer(rows.append)
        await control.start()
        out = []
        try:
            parent = control.open(NodeRoute(5, 2, 11, delegate=child))
            leaf = control.open(NodeRoute(5, 2, 12))
            gone = control.open(NodeRoute(5, 2, 13))
            control.close(gone)
            async with aiohttp.ClientSession() as http:
                for token, path, body in (
                        (parent, "telemetry", {"server": "lsp", "tool": "after_action",
                                               "duration_s": 1.5, "tokens": 7, "detail": {"a": 1}}),
                        (parent, "delegate", {"task": "rename x"}),
                        (leaf, "delegate", {"task": "rename y"}),
                        (parent, "delegate", {"task": ""}),
                        (gone, "telemetry", {"server": "s", "tool": "t"}),
                        (parent, "telemetry", {"tool": "no server"})):
                    async with http.post(f"{control.url(token)}/{path}", json=body) as r:
                        out.append((r.status, await r.json()))
        finally:
            await control.stop()
        return out

    out = asyncio.run(go())
    assert [s for s, _ in out] == [200, 200, 403, 400, 401, 400]
    assert out[1][1] == {"result": "Sub-agent 1 finished: RENAME X"} and asked == ["rename x"]
    assert rows == [{"attempt_id": 5, "generation": 2, "node_id": 11, "server": "lsp",
                     "tool": "after_action", "duration_s": 1.5, "tokens": 7, "ok": 1,
                     "detail": {"a": 1}}]


def test_delegate_mcp_server_forwards_to_the_control_endpoint(tmp_path: Path) -> None:
    """The delegate tool as an agent's tool layer sees it: an MCP server process
    over stdio, forwarding to the runner's control endpoint."""
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters

    async def child(task: str) -> str:
        await asyncio.sleep(0.1)
        return f"done: {task}"

    async def go() -> tuple[list[str], str, str]:
        control = ControlServer(lambda row: None)
        await control.start()
        try:
            env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path)}
            ok = StdioServerParameters(command=sys.executable,
                                       args=["-m", "frontier_measure", "delegate", "serve"],
                                       env=env | {"FM_CONTROL_URL": control.url(
                                           control.open(NodeRoute(1, 1, 1, delegate=child)))})
            async with Client(ok) as client:
                tools = (await client.list_tools()).tools
                result = await client.call_tool("delegate", {"task": "split the module"})
            refused = StdioServerParameters(
                command=sys.executable, args=["-m", "frontier_measure", "delegate", "serve"],
                env=env | {"FM_CONTROL_URL": control.url(control.open(NodeRoute(1, 1, 2)))})
            async with Client(refused) as client:
                no = await client.call_tool("delegate", {"task": "x"})
            return [t.name for t in tools], result.content[0].text, no.content[0].text
        finally:
            await control.stop()

    names, result, refused = anyio.run(go)
    assert names == ["delegate"]
    assert result == "done: split the module"
    assert refused == "Delegation refused: this agent may not delegate"


# ---------------------------------------------------------------- language server


def _lsp_tree(root: Path) -> None:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("from .util import helper as helper\n")
    (root / "pkg" / "util.py").write_text("import os\n\n\ndef helper():\n    return os.sep\n\n\n"
                                          "def untouched():\n    return undefined_name\n")


@needs_pyright
def test_language_server_publishes_diagnostics_of_the_text_sent(tmp_path: Path) -> None:
    _lsp_tree(tmp_path)
    with LanguageServer([str(PYRIGHT), "--stdio"], tmp_path, PYRIGHT_SETTINGS) as lsp:
        before = lsp.diagnostics("pkg/util.py", (tmp_path / "pkg" / "util.py").read_text())
        assert [d["message"] for d in before if d.get("severity") == 1] == [
            '"undefined_name" is not defined']
        after = lsp.diagnostics("pkg/util.py", "def helper(:\n    return 1\n")
        assert after and after[0]["range"]["start"] == {"line": 0, "character": 11}
        assert "undefined_name" not in json.dumps(after)  # the new text, not the old


@needs_pyright
def test_edit_feedback_reports_only_new_errors_of_changed_files(tmp_path: Path) -> None:
    pristine, ws = tmp_path / "pristine", tmp_path / "ws"
    _lsp_tree(pristine)
    _lsp_tree(ws)
    rows: list[tuple[str, float, int]] = []

    class Recorder:
        def report(self, tool: str, duration_s: float, tokens: int = 0, ok: bool = True,
                   detail: dict | None = None) -> None:
            rows.append((tool, duration_s, tokens))

    fb = EditFeedback(ws, "pyright", pristine, Recorder(),  # type: ignore[arg-type]
                      argv=[str(PYRIGHT), "--stdio"])
    try:
        fb.start_in_background()
        assert fb.after_action() == ""  # nothing changed
        # Rename the definition, leave the re-export: a new error in the changed files.
        util = ws / "pkg" / "util.py"
        util.write_text(util.read_text().replace("def helper", "def helper_fn"))
        (ws / "pkg" / "__init__.py").write_text("from .util import helper as helper\n\n")
        text = fb.after_action()
        assert text.startswith("Language server (pyright): new errors in the files you changed")
        assert 'pkg/__init__.py:1:19: error: "helper" is unknown import symbol' in text
        assert "undefined_name" not in text  # the pristine tree had it already
        (ws / "pkg" / "__init__.py").write_text("from .util import helper_fn as helper\n")
        assert fb.after_action() == \
            "Language server (pyright): no new errors in pkg/__init__.py."
    finally:
        fb.close()
    assert [r[0] for r in rows] == ["lsp-start", "after_action", "after_action"]
    assert rows[1][2] > rows[2][2] > 0


# ---------------------------------------------------------------- reports


def _attempt(model: str, regime: str, task: str, passed: int, cost: float,
             **extra: object) -> dict:
    return {"state": "finished", "outcome": "passed" if passed else "failed", "agent": "mini",
            "model": model, "prompt_mode": "base", "regime": regime, "task": task, "number": 1,
            "passed": passed, "cost": cost, **extra}


def test_regime_tables() -> None:
    attempts = []
    for i in range(6):
        t = f"t{i}"
        attempts.append(_attempt("m", "S1", t, int(i < 2), 1.0))
        attempts.append(_attempt("m", "S2", t, int(i < 5), 2.0, tool_calls=3, index_s=0.5))
        attempts.append(_attempt("m", "S3", t, int(i % 2 == 0), 3.0, delegated=int(i < 4),
                                 children=int(i < 4)))
    attempts.append(_attempt("m", "S3", "t9", 0, 1.0, outcome="error"))  # the platform's failure
    (s1_s2, *_rest) = metrics.regime_pairs(attempts)
    assert (s1_s2.paired.first.regime, s1_s2.paired.second.regime) == ("S1", "S2")
    assert (s1_s2.paired.first_only, s1_s2.paired.second_only) == (0, 3)
    assert (s1_s2.rate_first, s1_s2.rate_second) == (2 / 6, 5 / 6)
    assert s1_s2.cost_first == (1.0, 3.0) and s1_s2.cost_second == (2.0, 12 / 5)
    headers, rows = metrics.regime_pairs_table(metrics.regime_pairs(attempts))
    assert rows[0][5] == "+50.0 pp" and rows[0][8] == "0.25"
    _, table = metrics.delegation_table(attempts)
    assert table == [["mini / m / base / S3", "6", "4 (67%)", "4", "50.0%", "50.0%", "50.0%"]]
    _, rt = metrics.regime_table(attempts)
    s2 = next(r for r in rt if r[0].endswith("/ S2"))
    assert s2[1:6] == ["6", "83.3%", "2.0000", "2.4000", "3.0"] and s2[-1] == "-"


# ---------------------------------------------------------------- agents and their tools


def test_templates_take_a_regime_s_tools_or_refuse_it(tmp_path: Path) -> None:
    from frontier_measure.platform.agents import AttemptContext
    from frontier_measure.platform.agents.command import CommandAgent
    from frontier_measure.platform.tasks import load

    task = load(ROOT / "tasks" / "module" / "dedupe")
    tools = regimes.tools(regimes.Regime("S2-lsp", "S2", lsp="pyright"), tmp_path, None, "u", [])

    def ctx(d: str, t: dict | None) -> AttemptContext:
        (tmp_path / d).mkdir()
        return AttemptContext(task=task, instruction="x", workspace=tmp_path, container=None,
                              directory=tmp_path / d, timeout_s=5, tools=t)

    mini = CommandAgent.from_table("mini", {"template": "mini-swe-agent"}, tmp_path)
    assert mini.tools == "layer" and mini.write_tools(ctx("a", tools), tmp_path / "a") is None
    written = json.loads((tmp_path / "a" / "fm-tools.json").read_text())
    assert written["after_action"]["server"] == "lsp" and written["regime"] == "S2-lsp"
    assert list(json.loads((tmp_path / "a" / "mcp.json").read_text())["mcpServers"]) == ["index"]
    claude = CommandAgent.from_table("cc", {"template": "claude-code"}, tmp_path)
    assert "after each edit needs the platform's tool layer" in \
        str(claude.write_tools(ctx("c", tools), tmp_path / "c"))
    no_lsp = regimes.tools(regimes.Regime("S3", "S3"), tmp_path, None, "u", [])
    assert claude.write_tools(ctx("d", no_lsp), tmp_path / "d") is None
    assert "${mcp_config}" in claude.command
    aider = CommandAgent.from_table("aider", {"template": "aider"}, tmp_path)
    assert "cannot run regime S3" in str(aider.write_tools(ctx("e", no_lsp), tmp_path / "e"))
    assert aider.write_tools(ctx("f", None), tmp_path / "f") is None  # S1: nothing to give


def test_last_message_of_a_node_from_the_transcript(tmp_path: Path) -> None:
    from frontier_measure.platform.tree import last_message

    t = tmp_path / "transcript.jsonl"
    t.write_text("\n".join(json.dumps(r) for r in (
        {"node": 1, "response": {"choices": [{"message": {"content": "parent"}}]}},
        {"node": 2, "response": {"choices": [{"message": {"content": "first"}}]}},
        {"node": 2, "response": {"content": [{"type": "text", "text": "child done"}]}},
        {"node": 2, "response": "not json"})) + "\n")
    assert last_message(t, 2) == "child done"
    assert last_message(t, 1) == "parent" and last_message(t, 3) == ""
