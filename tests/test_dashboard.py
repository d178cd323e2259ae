"""The dashboard's parts, without a browser: read-only queries that tolerate a
growing schema, the poller and its stream, the terminal and session tails,
resource readings, the runner lock, the launch form, the guard on every route."""

from __future__ import annotations

import asyncio
import fcntl
import gzip
import hashlib
import json
import os
import subprocess
import sys
import time
import tomllib
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from frontier_measure.cli import main
from frontier_measure.dashboard import app as app_mod
from frontier_measure.dashboard import artefacts, jobs, launch, session, store, synthetic, usage
from frontier_measure.dashboard.events import Live
from frontier_measure.platform import spec as spec_mod
from frontier_measure.platform.db import Database, connect_readonly

BASE = "http://127.0.0.1:8765"


@pytest.fixture
def syn(tmp_path: Path) -> Path:
    """A 60-attempt run database: finished, running and pending attempts."""
    path = tmp_path / "run" / "state.sqlite"
    synthetic.make(path, 60, running=3, pending=10).close()
    return path


def _ids(rows: list[dict]) -> set[int]:
    return {int(r["id"]) for r in rows}


def _files(path: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in path.parent.glob("state.sqlite*") if not p.name.endswith("-shm")}


# ---------------------------------------------------------------- store


def test_store_reads_live_telemetry_and_what_changed(syn: Path) -> None:
    conn = connect_readonly(syn)
    rows = store.attempts(conn)
    assert len(rows) == 60
    running = [r for r in rows if r["state"] == "running"]
    assert len(running) == 3
    # A running attempt's own columns are empty until it finishes: the queue sums the gateway's rows.
    assert all(r["requests"] > 0 and r["tokens_in"] > 0 and r["cost"] > 0 for r in running)
    before = store.cursor_now(conn)
    assert store.changes_since(conn, before).attempt_ids == set()

    db = Database(syn)
    pending = [int(r["id"]) for r in db.attempts(state="pending")]
    gen = db.start(pending[0], "attempts/x")
    db.record_request(synthetic.request(running[0]["id"], running[0]["generation"], 1,
                                        __import__("random").Random(0)))
    db.close()
    changes = store.changes_since(conn, before)
    assert changes.attempt_ids == {pending[0], running[0]["id"]}
    assert [e["kind"] for e in changes.events] == ["started"] and gen == 1
    assert not changes.rescan and changes.cursor.after(before)
    conn.close()


def test_store_tolerates_a_grown_or_partial_schema(tmp_path: Path, syn: Path) -> None:
    # Another branch adds columns and tables (regimes): the views keep working.
    db = Database(syn)
    db.conn.execute("ALTER TABLE attempts ADD COLUMN feedback_rounds INTEGER DEFAULT 2")
    db.conn.execute("CREATE TABLE regimes (id INTEGER PRIMARY KEY, name TEXT)")
    db.close()
    conn = connect_readonly(syn)
    assert len(store.attempts(conn)) == 60
    assert store.attempt(conn, 1)["feedback_rounds"] == 2  # the detail view shows every column
    conn.close()
    # A database with only some of the tables (an older or foreign one) reads as empty.
    bare = tmp_path / "bare.sqlite"
    c = __import__("sqlite3").connect(bare)
    c.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY, name TEXT)")
    c.commit()
    c.close()
    conn = connect_readonly(bare)
    assert store.attempts(conn) == [] and store.cursor_now(conn) == store.Cursor()
    assert store.changes_since(conn, store.Cursor()).events == []
    conn.close()


def test_cumulative_metrics_and_funnels(syn: Path) -> None:
    conn = connect_readonly(syn)
    rows = store.attempts(conn)
    m = store.cumulative(rows, store.stage_checks(conn))
    # The queue's rows carry gate+ and what was spent: the totals are the database's.
    plus = conn.execute("SELECT COUNT(*) FROM attempts WHERE state = 'finished' "
                        "AND passed_plus = 1").fetchone()[0]
    spent = conn.execute("SELECT SUM(cost) FROM requests").fetchone()[0]
    conn.close()
    assert 0 < plus < m["totals"]["passed"] and m["totals"]["passed_plus"] == plus
    assert m["totals"]["cost"] == pytest.approx(spent, rel=1e-5)
    finished = [r for r in rows if r["state"] == "finished"]
    assert m["totals"]["finished"] == len(finished) == 47
    assert m["totals"]["passed"] == sum(bool(r["passed"]) for r in finished)
    counts = [n for _, n in m["funnel"]]
    assert counts[0] == 60 and counts == sorted(counts, reverse=True)
    perf = [n for _, n in m["performance_funnel"]]
    assert perf == sorted(perf, reverse=True) and perf[-1] == m["totals"]["passed"]
    assert {c["label"] for c in m["configs"]} >= {"mini / fix / base / S1", "nop / - / lazy / S1"}
    assert all(c["pr_task"] is None or 0 <= c["pr_task"] <= 1 for c in m["configs"])
    # Gate+ beside the gate; the funnel's last stage is gate+ (never more than the gate).
    assert all({"pr_task_plus", "ce_plus", "cost_per_attempt", "usage_source"} <= set(c)
               for c in m["configs"])
    assert m["funnel"][-1][0] == "passed gate+" and m["funnel"][-1][1] <= m["funnel"][-2][1]


# ---------------------------------------------------------------- the poller and its stream


def test_poller_publishes_each_change_once_and_never_writes(syn: Path) -> None:
    async def go() -> tuple[list[bytes], dict]:
        live = Live(syn, poll_s=3600)  # polled by hand below
        await live.start()
        stream = live.stream()
        first = await stream.__anext__()
        got = [first]
        await live.poll()  # nothing changed: nothing published
        db = Database(syn)
        running = [int(r["id"]) for r in db.attempts(state="running")]
        db.finish(running[0], 1, {"outcome": "passed", "passed": 1, "wall_s": 3.0})
        db.close()
        await live.poll()
        got.append(await asyncio.wait_for(stream.__anext__(), 5))
        await live.poll()  # the same change is not published twice
        assert live.subscribers == 1
        await stream.aclose()
        snapshot = live.snapshot()
        await live.stop()
        return got, snapshot

    before = _files(syn)
    got, snapshot = asyncio.run(go())
    assert _files(syn) != before  # the writer wrote ...
    first, update = (g.decode() for g in got)
    assert first.startswith("retry: 2000\n\n") and "event: snapshot" in first
    data = json.loads(first.split("data: ", 1)[1])
    assert len(data["attempts"]) == 60 and data["columns"] == list(store.ROW_FIELDS)
    assert "event: update" in update
    delta = json.loads(update.split("data: ", 1)[1])
    (row,) = delta["attempts"]
    view = dict(zip(store.ROW_FIELDS, row, strict=True))
    assert view["state"] == "finished" and view["outcome"] == "passed"
    assert delta["metrics"]["totals"]["finished"] == 48
    assert [e["kind"] for e in delta["events"]] == ["finished"]
    assert snapshot["cursor"] == delta["cursor"]


def test_dashboard_never_writes_the_database(syn: Path) -> None:
    before = _files(syn)
    client = TestClient(app_mod.create_app(syn, poll_s=0.05), base_url=BASE)
    with client:
        for path in ("/api/snapshot", "/api/attempts/1", "/api/attempts/1/workspace",
                     "/api/attempts/1/configuration", "/api/attempts/1/verification",
                     "/api/export/attempts.csv", "/api/export.zip", "/api/catalog"):
            assert client.get(path).status_code == 200, path
        time.sleep(0.2)
        # A writer is never held up: it takes the write lock at once while the dashboard reads.
        db = Database(syn)
        t0 = time.monotonic()
        db.event(None, None, None, "probe")
        assert time.monotonic() - t0 < 5
        db.close()
        after_write = _files(syn)
        assert client.get("/api/snapshot").status_code == 200
    assert before != after_write and _files(syn) == after_write


def test_a_replaced_database_starts_the_picture_over(tmp_path: Path) -> None:
    path = tmp_path / "r" / "state.sqlite"

    async def go() -> list[str]:
        live = Live(path, poll_s=3600)
        await live.start()
        assert live.snapshot()["exists"] is False
        stream = live.stream()
        await stream.__anext__()
        synthetic.make(path, 5, running=0, pending=5).close()
        await live.poll()
        kinds = [" ".join((await stream.__anext__()).decode().split("\n")[:2])]
        synthetic.make(path, 3, running=0, pending=3).close()  # a new file, fewer rows
        await live.poll()
        kinds.append(" ".join((await stream.__anext__()).decode().split("\n")[:2]))
        assert len(live.rows) == 3
        await stream.aclose()
        await live.stop()
        return kinds

    # Planning is one event; the new file's ids start again, so it is read whole.
    assert asyncio.run(go()) == ["id: 1.0.5 event: snapshot", "id: 1.0.3 event: snapshot"]


# ---------------------------------------------------------------- terminal and session


def test_terminal_tail_reads_incrementally_and_starts_over(tmp_path: Path) -> None:
    log = tmp_path / "agent.log"
    tail = artefacts.TerminalTail(first=8)
    assert tail.read(log) is None
    log.write_bytes(b"0123456789abcdef")
    assert tail.read(log) == (True, "89abcdef", 16)  # a late joiner sees the end
    assert tail.read(log) is None
    with open(log, "ab") as f:
        f.write("é".encode()[:1])  # half a character: held back
    assert tail.read(log) == (False, "", 17)
    with open(log, "ab") as f:
        f.write("é".encode()[1:] + b"\n")
    assert tail.read(log) == (False, "é\n", 19)
    log.unlink()
    log.write_text("new\n")  # the attempt ran again
    assert tail.read(log) == (True, "new\n", 4)


def _record(messages: list[dict], said: str, command: str) -> dict:
    return {"status": 200, "latency_s": 0.5, "request": {"messages": messages},
            "response": {"choices": [{"message": {"role": "assistant", "content": said, "tool_calls": [
                {"function": {"name": "bash", "arguments": json.dumps({"command": command})}}]}}]}}


def test_session_from_the_gateway_transcript(tmp_path: Path) -> None:
    adir = tmp_path / "a00001"
    adir.mkdir()
    first = [{"role": "system", "content": "sys"}, {"role": "user", "content": "Make dedupe fast"}]
    result = json.dumps({"returncode": 0, "output": "def dedupe(): ...\n"})
    second = first + [{"role": "assistant", "content": "look"}, {"role": "tool", "content": result}]
    live = adir / "transcript.jsonl"
    tail = session.SessionTail()
    assert tail.read(adir) is None
    line1 = json.dumps(_record(first, "Let me look.", "cat dedupe.py")) + "\n"
    line2 = json.dumps(_record(second, "Now a set.", "sed -i s/a/b/ dedupe.py")) + "\n"
    live.write_text(line1 + line2[:20])  # the gateway is writing the second line
    reset, text = tail.read(adir)
    assert reset and "(task) Make dedupe fast" in text and "» Let me look.\n$ cat dedupe.py\n" in text
    assert "step 2" not in text
    with open(live, "a") as f:
        f.write(line2[20:])
    reset, text = tail.read(adir)
    assert not reset and text.startswith("def dedupe(): ...\n[exit 0]\n── step 2 · 0.5 s\n")
    assert "$ sed -i s/a/b/ dedupe.py" in text
    # The attempt ends: the transcript is gzipped and read whole, once.
    with gzip.open(adir / "transcript.jsonl.gz", "wt") as f:
        f.write(line1 + line2)
    live.unlink()
    reset, text = tail.read(adir)
    assert reset and text.count("── step") == 2 and tail.read(adir) is None
    # Anthropic, streamed: text and tool input arrive in deltas.
    events = [{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
              {"type": "content_block_delta", "index": 1,
               "delta": {"type": "input_json_delta", "partial_json": '{"command": "l'}},
              {"type": "content_block_delta", "index": 1,
               "delta": {"type": "input_json_delta", "partial_json": 's -la"}'}}]
    text = session.render({"request": {"messages": first}, "response": {"stream": events}}, 1)
    assert "» Hi\n$ ls -la\n" in text


# ---------------------------------------------------------------- resources


def test_cgroup_v2_files_and_cpu_rate(tmp_path: Path) -> None:
    cg = tmp_path / "cg"
    cg.mkdir()
    (cg / "cpu.stat").write_text("usage_usec 2000000\nuser_usec 1500000\n")
    (cg / "memory.current").write_text("104857600\n")
    (cg / "memory.max").write_text("max\n")
    (cg / "pids.current").write_text("7\n")
    (cg / "pids.max").write_text("1024\n")
    (cg / "cpu.max").write_text("150000 100000\n")
    got = usage.read_cgroup({"": cg})
    assert got == {"cpu_ns": 2_000_000_000, "memory": 104857600, "memory_peak": None,
                   "memory_limit": None, "pids": 7, "pids_limit": 1024,
                   "cpu_quota_us": 150000, "cpu_period_us": 100000}
    rate = usage._Rate()
    assert rate.update(1_000_000_000) is None  # a rate needs two readings
    time.sleep(0.2)
    assert rate.update(1_100_000_000) == pytest.approx(50.0, rel=0.5)


def test_agent_session_usage_from_proc(tmp_path: Path) -> None:
    from frontier_measure.platform.checkout import kill_session, process_start

    proc = subprocess.Popen(["bash", "-c", "sleep 30 & sleep 30 & wait"], start_new_session=True)
    try:
        pid_file = tmp_path / "agent.pid"
        pid_file.write_text(f"{proc.pid} {process_start(proc.pid)}\n")
        probe = usage.SessionProbe(pid_file)
        deadline = time.monotonic() + 10
        got = probe.sample()
        while (got is None or got["processes"] < 3) and time.monotonic() < deadline:
            time.sleep(0.05)
            got = probe.sample()
        assert got is not None and got["processes"] == 3 and got["memory"] > 0
        pid_file.write_text(f"{proc.pid} 1\n")  # another process under a reused pid
        assert probe.sample() is None
    finally:
        kill_session(proc.pid)
        proc.wait()


# ---------------------------------------------------------------- the runner lock and jobs


def test_runner_pid_from_proc_locks(tmp_path: Path) -> None:
    assert jobs.runner_pid(tmp_path) is None
    lock = tmp_path / "runner.lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    os.write(fd, b"424242\n")
    assert jobs.runner_pid(tmp_path) is None  # the file alone is no runner
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    try:
        assert jobs.runner_pid(tmp_path) == 424242
    finally:
        os.close(fd)
    assert jobs.runner_pid(tmp_path) is None


def test_jobs_wait_for_the_runner_lock_and_report_failures(tmp_path: Path, syn: Path) -> None:
    fake = tmp_path / "fake-python"
    calls = tmp_path / "calls"
    fake.write_text(f"#!/bin/sh\necho \"$@\" >> {calls}\necho 'runner says: no such spec' >&2\nexit 3\n")
    fake.chmod(0o755)
    lock = syn.parent / "runner.lock"

    async def go() -> list[dict]:
        live = Live(syn, poll_s=3600)
        await live.start()
        queue = jobs.Jobs(live, python=str(fake))
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        fcntl.flock(fd, fcntl.LOCK_EX)  # someone else's runner holds the database
        await queue.start()
        job = queue.submit("retry", tmp_path / "spec.toml", attempt=7)
        await asyncio.sleep(1.2)
        assert job.state == "queued" and live.status["runner"]["active"]
        extra = queue.submit("run", tmp_path / "spec.toml")
        assert queue.cancel(extra.id).state == "cancelled"
        os.close(fd)
        for _ in range(100):
            if job.state not in ("queued", "running"):
                break
            await asyncio.sleep(0.1)
        await queue.close()
        await live.stop()
        return live.status["jobs"]

    views = asyncio.run(go())
    assert [(v["kind"], v["state"]) for v in views] == [("retry", "failed"), ("run", "cancelled")]
    assert views[0]["exit_code"] == 3 and "no such spec" in views[0]["message"]
    (args,) = calls.read_text().splitlines()
    assert args == f"-m frontier_measure run {tmp_path / 'spec.toml'} --db {syn.resolve()} " \
                   "--quiet --retry 7"


# ---------------------------------------------------------------- the launch form


def test_launch_form_makes_a_spec_the_platform_accepts(tmp_path: Path) -> None:
    cat = launch.catalog([], docker=False)
    dedupe = next(t["path"] for t in cat["tasks"] if t["name"].endswith("/dedupe"))
    assert {"nop", "oracle", "mini-swe-agent"} <= set(cat["agents"]) and "fix" in cat["models"]
    assert cat["uses_model"]["mini-swe-agent"] and not cat["uses_model"]["nop"]
    form = {"tasks": [dedupe], "agents": ["mini-swe-agent", "nop"], "models": ["fix"],
            "prompt_modes": ["base", "lazy"], "regimes": ["S1"], "attempts": 2,
            "concurrency": 1, "timeout_s": 120, "isolation": "copy"}
    path = launch.write_spec(launch.compose(form, cat, "study"), tmp_path)
    s = spec_mod.load(path)
    assert (s.name, s.attempts, s.isolation, s.prompt_modes) == ("study", 2, "copy", ["base", "lazy"])
    assert s.task_paths == [Path(dedupe)] and set(s.agents) == {"mini-swe-agent", "nop"}
    assert s.endpoints["scripted"].kind == "scripted" and s.models["fix"].endpoint == "scripted"
    with pytest.raises(launch.LaunchError) as err:
        launch.compose({"tasks": ["/etc"], "agents": ["mini-swe-agent"], "attempts": 0}, cat, "x")
    problems = "\n".join(err.value.problems)
    assert "tasks: unknown '/etc'" in problems and "attempts: expected a number from 1" in problems
    assert "models: the chosen agents use a model" in problems


def test_toml_writer_round_trips() -> None:
    doc = {"run": {"name": 'a "quoted" name', "n": 3, "x": 1.5, "ok": True, "modes": ["a", "b"]},
           "agents": {"my agent": {"template": "t", "env": {"K": "v\nw"}}}}
    assert tomllib.loads(launch.to_toml(doc)) == doc


# ---------------------------------------------------------------- routes and the guard


def test_routes_over_a_synthetic_run(syn: Path) -> None:
    adir = syn.parent / "attempts" / "a00001"
    (adir / "patch.diff").write_text("diff --git a/dedupe.py b/dedupe.py\n--- a/dedupe.py\n"
                                     "+++ b/dedupe.py\n@@ -1 +1 @@\n-a\n+b\n")
    with TestClient(app_mod.create_app(syn, poll_s=0.05), base_url=BASE) as client:
        snap = client.get("/api/snapshot").json()
        assert len(snap["attempts"]) == 60 and snap["status"]["runner"]["active"] is False
        detail = client.get("/api/attempts/1").json()
        assert detail["attempt"]["key"].startswith("frontier-measure/dedupe|")
        assert [c["name"] for c in detail["checks"]][:2] in (["compliance", "functional"], [])
        ws = client.get("/api/attempts/1/workspace").json()
        assert ws["source"] == "pristine" and ws["changes"] == {"dedupe.py": "modified"}
        assert "dedupe.py" in ws["files"]
        f = client.get("/api/attempts/1/file", params={"path": "dedupe.py"}).json()
        assert "def dedupe" in f["text"]
        for evil in ("../../../etc/passwd", "/etc/passwd"):
            assert client.get("/api/attempts/1/file", params={"path": evil}).status_code == 404
        conf = client.get("/api/attempts/1/configuration").json()
        assert conf["prompt_mode"] == "descriptive" and "dedupe" in conf["prompt"]
        assert client.get("/api/attempts/9999").status_code == 404
        term = client.get("/api/attempts/1/terminal")
        assert term.text.startswith("synthetic agent output of attempt 1")
        csv = client.get("/api/export/attempts.csv")
        assert csv.headers["content-disposition"] == 'attachment; filename="run-attempts.csv"'
        assert len(csv.text.splitlines()) == 61
        z = client.get("/api/export.zip")
        with zipfile.ZipFile(__import__("io").BytesIO(z.content)) as zf:
            assert "tables/attempts.csv" in zf.namelist() and "platform.md" in zf.namelist()
        bad = client.post("/api/launch", json={"agents": []}, headers={"X-FM-Request": "1"})
        assert bad.status_code == 400 and "benchmark: choose tasks" in " ".join(bad.json()["problems"])
        # The synthetic run's spec file does not exist: a retry says so instead of queueing.
        retry = client.post("/api/attempts/1/retry", headers={"X-FM-Request": "1"})
        assert retry.status_code == 409 and "spec" in retry.json()["detail"]
        running = next(r[0] for r in snap["attempts"] if r[store.ROW_FIELDS.index("state")] == "running")
        assert client.post(f"/api/attempts/{running}/retry",
                           headers={"X-FM-Request": "1"}).status_code == 409


def test_guard_token_host_origin_and_no_cors(syn: Path) -> None:
    token = "t0ken-for-the-dashboard-tests"
    app = app_mod.create_app(syn, token=token, host="0.0.0.0", port=8765, poll_s=0.05)
    with TestClient(app, base_url="http://dash.example:8765") as client:
        for path in ("/", "/api/snapshot", "/api/stream", "/api/attempts/1/live", "/static/app.js",
                     "/api/export.zip"):
            r = client.get(path)
            assert r.status_code == 401, path
        assert client.get("/api/snapshot", headers={"Authorization": "Bearer wrong"}).status_code == 401
        ok = client.get("/api/snapshot", headers={"Authorization": f"Bearer {token}"})
        assert ok.status_code == 200 and "access-control-allow-origin" not in ok.headers
        assert ok.headers["x-frame-options"] == "DENY" and "script-src 'self'" in \
            ok.headers["content-security-policy"]
        login = client.get(f"/?token={token}", follow_redirects=False)
        assert login.status_code == 303 and login.headers["location"] == "/"
        assert "HttpOnly" in login.headers["set-cookie"] and "SameSite=Strict" in login.headers["set-cookie"]
        assert client.get("/").status_code == 200  # the cookie now goes with every request
        pre = client.options("/api/stop", headers={"Origin": "https://evil.example",
                                                   "Access-Control-Request-Method": "POST"})
        assert "access-control-allow-origin" not in pre.headers
        assert client.post("/api/stop").status_code == 403  # no X-FM-Request header
        assert client.post("/api/stop", headers={"X-FM-Request": "1",
                                                 "Origin": "https://evil.example"}).status_code == 403
        assert client.post("/api/stop", headers={"X-FM-Request": "1",
                                                 "Origin": "http://dash.example:8765"}).status_code == 200
    # On loopback without a token, only loopback names are answered (DNS rebinding).
    with TestClient(app_mod.create_app(syn, poll_s=0.05), base_url="http://evil.example:8765") as c:
        assert c.get("/api/snapshot").status_code == 421
    with TestClient(app_mod.create_app(syn, poll_s=0.05), base_url="http://localhost:8765") as c:
        assert c.get("/api/snapshot").status_code == 200


def test_serve_refuses_other_addresses_without_a_token(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "x.sqlite"), "--host", "0.0.0.0"])
    assert r.exit_code != 0 and "give --token" in r.output
    r = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "x.sqlite"), "--host", "0.0.0.0",
                                  "--token", "short"])
    assert r.exit_code != 0 and "at least 16 characters" in r.output
    assert app_mod.check_binding("127.0.0.1", None) is None
    assert app_mod.check_binding("::1", None) is None


def test_serve_prints_its_address_and_answers(tmp_path: Path) -> None:
    db = tmp_path / "run" / "state.sqlite"
    proc = subprocess.Popen([sys.executable, "-m", "frontier_measure", "serve", "--db", str(db),
                             "--port", "0"], stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline() if proc.stderr else ""
        assert line.startswith(f"dashboard of {db} at http://127.0.0.1:")
        url = line.split(" at ")[1].strip()
        import urllib.request

        with urllib.request.urlopen(url + "api/snapshot", timeout=30) as r:
            snap = json.loads(r.read())
        assert snap["exists"] is False and snap["attempts"] == []
    finally:
        proc.terminate()
        proc.wait(30)
        if proc.stderr:
            proc.stderr.close()


def test_nan_and_infinity_reach_the_page_as_null(syn: Path) -> None:
    # A result may hold NaN (no estimate); JSON may not, and JSON.parse would reject the message.
    db = Database(syn)
    db.conn.execute("UPDATE attempts SET speedup = ?, cost = ? WHERE id = 1", (float("nan"), float("inf")))
    db.close()
    with TestClient(app_mod.create_app(syn, poll_s=0.05), base_url=BASE) as client:
        body = client.get("/api/snapshot").text
        assert "NaN" not in body and "Infinity" not in body
        row = dict(zip(store.ROW_FIELDS, json.loads(body)["attempts"][0], strict=True))
        assert row["speedup"] is None and row["cost"] is None
        assert client.get("/api/attempts/1").json()["attempt"]["speedup"] is None
    from frontier_measure.dashboard.events import sse

    assert sse("update", {"x": [float("nan"), 1.5]}) == b'event: update\ndata: {"x":[null,1.5]}\n\n'
