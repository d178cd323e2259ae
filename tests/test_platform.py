"""The agent platform's parts: scripted model, gateway, prices, checkouts, state,
metrics. Real HTTP on loopback, real files; no Docker needed here."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import aiohttp
import pytest

from frontier_measure.platform import checkout, metrics, spec
from frontier_measure.platform.db import Database
from frontier_measure.platform.gateway import Endpoint, Gateway
from frontier_measure.platform.prices import PriceTable, count_tokens
from frontier_measure.platform.scripted_model import ScriptedModelServer

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "examples" / "agents" / "scripted-model"


def _conversation(task: str, turns: int) -> list[dict]:
    msgs = [{"role": "system", "content": "You are an agent."}, {"role": "user", "content": task}]
    for i in range(turns):
        msgs += [{"role": "assistant", "content": f"turn {i}"}, {"role": "user", "content": "ok"}]
    return msgs


# ---------------------------------------------------------------- the scripted model


def test_scripted_model_picks_turn_from_the_conversation() -> None:
    s = ScriptedModelServer(SCRIPTS)
    first = s.openai_reply({"model": "openai/fix", "messages": _conversation("Make dedupe fast", 0)})
    call = first["choices"][0]["message"]["tool_calls"][0]
    assert call["function"]["name"] == "bash"
    assert json.loads(call["function"]["arguments"]) == {"command": "cat dedupe.py"}
    last = s.openai_reply({"model": "fix", "messages": _conversation("Make dedupe fast", 9)})
    assert "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" in last["choices"][0]["message"]["tool_calls"][0][
        "function"]["arguments"]
    # Same request, same answer: no state in the server.
    again = s.openai_reply({"model": "openai/fix", "messages": _conversation("Make dedupe fast", 0)})
    assert again == first
    assert first["usage"]["prompt_tokens"] > 0 and first["usage"]["completion_tokens"] > 0
    anth = s.anthropic_reply({"model": "give-up", "messages": _conversation("anything", 0)})
    assert anth["content"][-1]["type"] == "tool_use" and anth["content"][-1]["input"] == {"command": "ls"}


# ---------------------------------------------------------------- the gateway


async def _through_gateway(tmp_path: Path, requests: list[tuple[str, dict, dict]]) \
        -> tuple[list[dict], list[int], list[str]]:
    rows: list[dict] = []
    server = ScriptedModelServer(SCRIPTS)
    await server.serve()
    gw = Gateway(PriceTable.load(), rows.append)
    await gw.start()
    statuses, bodies = [], []
    try:
        async with aiohttp.ClientSession() as http:
            for api, body, headers in requests:
                base = server.base_url if api == "openai" else server.base_url[:-3]
                token = gw.open(7, 1, Endpoint("scripted", base, api, "real-key"),
                                tmp_path / "transcript.jsonl")
                url = gw.base_url(token) + ("/chat/completions" if api == "openai" else "/v1/messages")
                async with http.post(url, json=body, headers=headers) as r:
                    statuses.append(r.status)
                    bodies.append(await r.text())
    finally:
        await gw.stop()
        await server.aclose()
    return rows, statuses, bodies


def test_gateway_records_usage_of_both_apis_streamed_or_not(tmp_path: Path) -> None:
    conv = _conversation("Make dedupe fast", 1)
    rows, statuses, bodies = asyncio.run(_through_gateway(tmp_path, [
        ("openai", {"model": "fix", "messages": conv}, {"Authorization": "Bearer token"}),
        ("openai", {"model": "fix", "messages": conv, "stream": True}, {}),
        ("anthropic", {"model": "fix", "messages": conv[1:], "max_tokens": 100}, {}),
        ("anthropic", {"model": "fix", "messages": conv[1:], "max_tokens": 100, "stream": True}, {}),
        ("openai", {"model": "no-such-script", "messages": conv}, {}),
    ]))
    assert statuses == [200, 200, 200, 200, 400]
    assert "data: [DONE]" in bodies[1] and "message_stop" in bodies[3]
    ok = rows[:4]
    assert [r["step"] for r in rows] == [1, 1, 1, 1, 0]
    assert all(r["usage_source"] == "api" and r["tokens_in"] > 0 and r["tokens_out"] > 0 for r in ok)
    # The streamed answers report what the plain ones do (the gateway asked for usage).
    assert (ok[0]["tokens_in"], ok[0]["tokens_out"]) == (ok[1]["tokens_in"], ok[1]["tokens_out"])
    assert (ok[2]["tokens_in"], ok[2]["tokens_out"], ok[2]["tokens_cached"]) == \
        (ok[3]["tokens_in"], ok[3]["tokens_out"], ok[3]["tokens_cached"])
    assert all(r["cost"] > 0 and r["attempt_id"] == 7 for r in ok)
    assert rows[4]["error"] and rows[4]["status"] == 400
    lines = (tmp_path / "transcript.jsonl").read_text().splitlines()
    assert len(lines) == 5 and json.loads(lines[0])["request"]["model"] == "fix"


def test_gateway_counts_tokens_when_the_api_reports_none(tmp_path: Path) -> None:
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "quiet.toml").write_text('usage = false\n[[trajectories]]\nmatch = ""\n'
                                        '[[trajectories.turns]]\nsay = "hello there"\nbash = "ls"\n')
    rows: list[dict] = []

    async def go() -> None:
        server = ScriptedModelServer(scripts)
        await server.serve()
        gw = Gateway(PriceTable.load(), rows.append)
        await gw.start()
        try:
            token = gw.open(1, 1, Endpoint("scripted", server.base_url, "openai"))
            async with aiohttp.ClientSession() as http, http.post(
                    gw.base_url(token) + "/chat/completions",
                    json={"model": "quiet", "messages": _conversation("x", 0)}) as r:
                assert r.status == 200
        finally:
            await gw.stop()
            await server.aclose()

    asyncio.run(go())
    (row,) = rows
    assert row["usage_source"] in ("bytes/4", "tiktoken:o200k_base", "tiktoken:cl100k_base")
    assert row["tokens_in"] > 0 and row["tokens_out"] > 0
    assert row["cost"] > 0  # priced by the bundled table's "scripted/*" entry


def test_prices_most_specific_match_and_user_override(tmp_path: Path) -> None:
    mine = tmp_path / "prices.toml"
    mine.write_text('[models."gpt-4.1"]\ninput = 1.0\n[models."my-*"]\ninput = 5\noutput = 6\n')
    table = PriceTable.load(mine)
    p = table.price("openai/gpt-4.1")
    assert p is not None and p.input == 1.0 and p.output == 8.0  # merged over the bundled rates
    assert table.price("my-model") is not None and table.price("my-model").source == "my-*"
    assert table.price("fix", "scripted").source == "scripted/*"
    assert table.price("unknown") is None
    # 1M uncached in, 1M cached in, 1M out at (2, 0.5, 8) $/M
    assert PriceTable.load().price("gpt-4.1").cost(2_000_000, 1_000_000, 1_000_000) == \
        pytest.approx(2.0 + 0.5 + 8.0)
    n, how = count_tokens("hello world " * 10)
    assert n > 0 and how


# ---------------------------------------------------------------- checkouts


def test_checkout_changes_and_patch(tmp_path: Path) -> None:
    pristine = tmp_path / "pristine"
    (pristine / "pkg").mkdir(parents=True)
    (pristine / "pkg" / "a.py").write_text("x = 1\ny = 2\n")
    (pristine / "gone.txt").write_text("bye\n")
    (pristine / "same.txt").write_text("same\n")
    c = checkout.Checkout.create(pristine, tmp_path / "scratch")
    try:
        ws = c.path
        (ws / "pkg" / "a.py").write_text("x = 1\ny = 3\n")
        (ws / "gone.txt").unlink()
        (ws / "new.py").write_text("print('hi')\n")
        (ws / "__pycache__").mkdir()
        (ws / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0junk")
        changes = c.changes()
        assert [(x.path, x.kind) for x in changes.items] == [
            ("gone.txt", "deleted"), ("new.py", "added"), ("pkg/a.py", "modified")]
        assert changes.line_counts() == (2, 2)
        patch = changes.patch()
        # The patch applies to the pristine tree and gives the workspace.
        target = tmp_path / "target"
        subprocess.run(["cp", "-a", str(pristine), str(target)], check=True)
        (tmp_path / "p.diff").write_text(patch)
        subprocess.run(["git", "apply", str(tmp_path / "p.diff")], cwd=target, check=True)
        assert (target / "pkg" / "a.py").read_text() == "x = 1\ny = 3\n"
        assert not (target / "gone.txt").exists() and (target / "new.py").is_file()
    finally:
        c.close()
    assert not (tmp_path / "scratch").exists()
    assert (pristine / "gone.txt").is_file()  # the pristine tree is never written


# ---------------------------------------------------------------- state


def test_db_transitions_survive_reopen_and_recover(tmp_path: Path) -> None:
    db = Database(tmp_path / "s.sqlite")
    run = db.run_id("r", "spec.toml", "")
    planned = [{"key": f"t|a|-|base|S1|{n}", "task": "t", "task_path": "/t", "kind": "performance",
                "agent": "a", "model": "-", "prompt_mode": "base", "regime": "S1", "number": n}
               for n in (1, 2)]
    assert db.ensure_attempts(run, planned) == 2
    assert db.ensure_attempts(run, planned) == 0
    g1 = db.start(1, "attempts/a00001")
    db.finish(1, g1, {"outcome": "passed", "passed": 1, "cost": 0.5},
              [{"name": "x", "passed": True, "output": "ok"}])
    db.start(2, "attempts/a00002")
    db.close()  # the runner dies with attempt 2 running
    db = Database(tmp_path / "s.sqlite")
    assert db.recover(run) == [2]
    assert db.attempt(1)["state"] == "finished" and db.attempt(1)["generation"] == 1
    # Interrupted, with no runtime (the runner's death is not the attempt's end).
    assert db.attempt(2)["state"] == "interrupted" and db.attempt(2)["wall_s"] is None
    assert db.start(2, "attempts/a00002") == 2
    with pytest.raises(RuntimeError):
        db.finish(2, 1, {"outcome": "failed"})  # a stale generation cannot finish it
    db.finish(2, 2, {"outcome": "failed", "passed": 0})
    db.retry(1)
    assert db.attempt(1)["state"] == "pending"
    kinds = [r["kind"] for r in db.rows("SELECT kind FROM events ORDER BY id")]
    assert kinds == ["planned", "started", "finished", "started", "interrupted", "started",
                     "finished", "retry"]
    # A stopped runner interrupts a running attempt: its runtime ends there; a stale
    # generation cannot; an interrupted attempt is retried as a finished one is.
    g = db.start(1, "attempts/a00001")
    db.set_stage(1, g, "lock-wait", "held by pid 42")
    assert (db.attempt(1)["stage"], db.attempt(1)["stage_note"]) == ("lock-wait", "held by pid 42")
    assert not db.interrupt(1, g - 1, 3.0, "stopped")
    assert db.interrupt(1, g, 3.0, "the run was stopped")
    row = db.attempt(1)
    assert row["state"] == "interrupted" and row["wall_s"] == 3.0 and row["stage"] is None
    assert row["error"] == "interrupted: the run was stopped" and row["spent"] == 0.0
    db.retry(1)
    assert db.attempt(1)["state"] == "pending"
    db.close()


# ---------------------------------------------------------------- metrics


def _att(task: str, model: str, n: int, passed: bool, cost: float = 1.0, steps: int = 3,
         outcome: str | None = None) -> dict:
    return {"state": "finished", "task": task, "agent": "mini", "model": model, "prompt_mode": "base",
            "regime": "S1", "number": n, "passed": int(passed), "cost": cost, "steps": steps,
            "outcome": outcome or ("passed" if passed else "failed"), "kind": "refactorbench"}


def test_metrics_pr_task_ce_and_errors() -> None:
    atts = [_att("t1", "m", 1, True), _att("t1", "m", 2, False), _att("t2", "m", 1, False),
            _att("t2", "m", 2, False, outcome="error")]
    (s,) = metrics.summarize(atts)
    assert s.tasks == 2 and s.attempts == 3 and s.errors == 1 and s.passed == 1
    assert s.pr_task == pytest.approx((0.5 + 0.0) / 2)
    assert s.ce == pytest.approx(4.0)  # every cost counts, errors included
    assert s.solved == 1


def test_mcnemar_exact() -> None:
    assert metrics.mcnemar_exact(0, 0) == 1.0
    assert metrics.mcnemar_exact(5, 0) == pytest.approx(2 / 32)
    assert metrics.mcnemar_exact(10, 2) == pytest.approx(2 * 79 / 4096)
    atts = [_att(f"t{i}", "a", 1, True) for i in range(6)] + \
           [_att(f"t{i}", "b", 1, i == 0) for i in range(6)]
    p = metrics.compare(atts, metrics.config_of(atts[0]), metrics.config_of(atts[6]))
    assert (p.pairs, p.both, p.first_only, p.second_only) == (6, 1, 5, 0)
    assert p.p_value == pytest.approx(0.0625)
    assert len(metrics.all_pairs(atts)) == 1


# ---------------------------------------------------------------- specs


def test_spec_names_every_problem(tmp_path: Path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text('[run]\nisolation = "vm"\nprompt_modes = ["terse"]\nregimes = ["S4"]\n'
                 '[models.m]\nendpoint = "nowhere"\n[extra]\n')
    with pytest.raises(spec.SpecError) as e:
        spec.load(f)
    text = "\n".join(e.value.problems)
    for needle in ("[extra]: unknown table", "[run].isolation", "unknown mode 'terse'",
                   "unknown regime 'S4'", "[tasks]: no tasks", "no [endpoints.nowhere]",
                   "[agents]: no agents"):
        assert needle in text
    ci = spec.load(ROOT / "examples" / "agents" / "ci.toml")
    assert ci.name == "ci" and set(ci.models) == {"fix", "wrong-fix", "give-up"}


def test_command_agent_output_through_a_pipe_or_a_terminal(tmp_path: Path) -> None:
    """agent.log has the agent's output either way; with terminal = "pty" the agent
    writes to a terminal (of 160 columns) and the bytes are copied as they come."""
    from frontier_measure.platform import tasks as tasks_mod
    from frontier_measure.platform.agents import AttemptContext, command

    task = tasks_mod.load(Path(__file__).resolve().parents[1] / "tasks" / "module" / "dedupe")
    probe = ("import os, sys; print('tty', sys.stdout.isatty(), os.get_terminal_size().columns "
             "if sys.stdout.isatty() else 0, os.environ['TERM']); print('err', file=sys.stderr)")
    logs = {}
    for terminal in ("pipe", "pty"):
        agent = command.CommandAgent.from_table(
            "probe", {"command": ["python3", "-c", probe], "uses_model": False,
                      "terminal": terminal}, tmp_path)
        work = tmp_path / terminal
        (work / "ws").mkdir(parents=True)
        ctx = AttemptContext(task=task, instruction="", workspace=work / "ws", container=None,
                             directory=work, timeout_s=30)
        outcome = asyncio.run(agent.run(ctx))
        assert outcome.exit_code == 0 and outcome.error is None, outcome
        logs[terminal] = (work / "agent" / "agent.log").read_text()
    assert "tty False 0 dumb" in logs["pipe"] and "err" in logs["pipe"]
    assert "tty True 160 xterm-256color" in logs["pty"] and "err" in logs["pty"]
    with pytest.raises(ValueError, match="terminal must be"):
        command.CommandAgent.from_table("x", {"command": ["true"], "terminal": "tmux"}, tmp_path)
