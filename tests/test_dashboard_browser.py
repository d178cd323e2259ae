"""The dashboard in a real browser (Playwright driving Debian's headless Chromium):
the page follows a database as it changes, a live run launched from the page
(the real mini-swe-agent, the scripted model, Docker) shows its session and its
container while it works, a retry runs, a stop stops, exports download.

FM_DASHBOARD_SCREENSHOTS=DIR keeps screenshots of the live run there (the
README's docs/dashboard.png is made that way)."""

from __future__ import annotations

import contextlib
import fcntl
import io
import os
import re
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from frontier_measure.dashboard import harness, synthetic
from frontier_measure.platform.db import Database

ROOT = Path(__file__).resolve().parents[1]
DEDUPE = ROOT / "tasks" / "module" / "dedupe"
MINI = ROOT / ".agents" / "bin" / "mini"
SHOTS = os.environ.get("FM_DASHBOARD_SCREENSHOTS")

pytestmark = pytest.mark.skipif(harness.unavailable() is not None,
                                reason=harness.unavailable() or "")


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with harness.browser() as b:
        yield b


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1500, "height": 860}, accept_downloads=True)
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.on("dialog", lambda d: d.accept())
    yield p
    context.close()
    assert errors == [], errors


def _wait(cond: Callable[[], Any], timeout: float, what: str, every: float = 0.25,
          show: Callable[[], Any] | None = None) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = cond()
        if got:
            return got
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout:g} s waiting for {what}"
                         + (f"; the page shows {show()}" if show else ""))


def _rows(page: Any) -> list[str]:
    """The queue's rows in view, as "id:status"."""
    return [f"{r.get_attribute('data-id')}:{r.get_attribute('data-state')}"
            for r in page.locator("#attempt-rows tr[data-id]").all()]


def _show(page: Any, attempt: int) -> Any:
    """Filter the queue down to one attempt and return its row."""
    page.fill("#f-text", f"#{attempt}")
    row = page.locator(f'#attempt-rows tr[data-id="{attempt}"]')
    row.wait_for(timeout=10_000)
    return row


def _download(page: Any, action: Callable[[], None]) -> bytes:
    with page.expect_download(timeout=60_000) as info:
        action()
    path = info.value.path()
    return Path(path).read_bytes()


def _shot(page: Any, name: str) -> None:
    if not SHOTS:
        return
    out = Path(SHOTS) / name
    out.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(out))
    try:  # a palette PNG is a third of the size, and a screenshot needs no more colours
        from PIL import Image

        Image.open(out).convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT) \
            .save(out, optimize=True)
    except ImportError:
        pass


def test_the_page_follows_a_database_of_1000_attempts(tmp_path: Path, page: Any) -> None:
    db_path = tmp_path / "run" / "state.sqlite"
    synthetic.make(db_path, 1000, running=4, pending=40).close()
    with harness.Server(db_path) as server:
        page.goto(server.url)
        page.wait_for_selector("body[data-ready='1']", timeout=30_000)
        assert page.inner_text("#queue-counts").startswith("1000 · ")
        # The queue is virtual: a page of rows, not a thousand.
        assert 10 < page.locator("#attempt-rows tr[data-id]").count() < 200
        assert page.inner_text("#runner") == "idle" and page.is_disabled("#stop")
        # Filters.
        page.select_option("#f-state", "pending")
        _wait(lambda: page.inner_text("#queue-counts").startswith("40 of 1000"), 10, "40 pending")
        page.select_option("#f-state", "")
        page.select_option("#f-agent", "nop")
        agents = page.locator("#attempt-rows tr[data-id] td:nth-child(3)")
        _wait(lambda: set(agents.all_inner_texts()) == {"nop"}, 10, "only nop's attempts")
        page.select_option("#f-agent", "")

        # Without a runner, attempts left running are shown interrupted ...
        assert "4 interrupted · 426 passed · 40 pending" in page.inner_text("#queue-counts")
        # ... and with one (this test holds the runner lock as a runner would), running.
        lock = os.open(db_path.parent / "runner.lock", os.O_RDWR | os.O_CREAT, 0o644)
        fcntl.flock(lock, fcntl.LOCK_EX)
        os.write(lock, f"{os.getpid()}\n".encode())
        _wait(lambda: page.inner_text("#runner") == f"runner {os.getpid()}", 10, "the runner pill")
        assert page.is_enabled("#stop") and "4 running" in page.inner_text("#queue-counts")

        # A change in the database reaches the row without a reload.
        db = Database(db_path)
        pending = [int(r["id"]) for r in db.attempts(state="pending")]
        target = pending[0]
        row = _show(page, target)
        assert row.get_attribute("data-state") == "pending"
        row.click()
        assert page.inner_text("#sel-title").startswith(f"#{target} ")
        gen = db.start(target, f"attempts/a{target:05d}")
        page.wait_for_selector(f'tr[data-id="{target}"][data-state="running"]', timeout=10_000)
        assert page.inner_text("#sel-status") == "running"
        db.finish(target, gen, {"outcome": "passed", "passed": 1, "wall_s": 12.5, "steps": 3},
                  [{"name": "functional", "passed": True, "output": "85/85 items passed"}])
        page.wait_for_selector(f'tr[data-id="{target}"][data-state="passed"]', timeout=10_000)
        db.close()
        assert page.inner_text("#m-steps") == "3"
        os.close(lock)  # the "runner" goes away
        _wait(lambda: page.inner_text("#runner") == "idle", 10, "the runner pill to go idle")
        page.click("button[data-tab='verify']")
        page.wait_for_selector("#verify table.checks")
        assert "85/85 items passed" in page.inner_text("#verify")
        page.click("button[data-tab='config']")
        page.wait_for_selector("#config h3")
        assert "PROMPT MODE: DESCRIPTIVE" in page.inner_text("#config").upper()

        # Retrying needs the run's spec: this synthetic run has none, and the page says so.
        page.click(f'tr[data-id="{target}"] button.retry')
        _wait(lambda: "spec" in page.inner_text("#events"), 10, "the retry's refusal")

        # Exports.
        data = _download(page, lambda: page.click("#export-zip"))
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            names = z.namelist()
            assert "tables/attempts.csv" in names and "platform.md" in names
            assert "attempts/a00001/agent/agent.log" in names
        csv = _download(page, lambda: page.select_option("#export-csv", "attempts")).decode()
        assert len(csv.splitlines()) == 1001 and csv.startswith("id,run_id,key,")


@pytest.mark.needs_docker
@pytest.mark.slow
@pytest.mark.skipif(not MINI.exists(), reason="mini-swe-agent not installed (scripts/agents.sh)")
def test_a_live_run_launched_retried_stopped_and_exported(tmp_path: Path, page: Any) -> None:
    db_path = tmp_path / "live" / "state.sqlite"
    with harness.Server(db_path) as server:
        page.goto(server.url)
        page.wait_for_selector("body[data-ready='1']", timeout=30_000)
        assert page.is_visible("#queue-empty")

        # Launch: dedupe, mini-swe-agent with two scripted models, in Docker.
        page.click("#launch-open")
        page.wait_for_selector("#launch[open] #l-tasks input")
        page.check(f'input[name="task"][value="{DEDUPE}"]')
        page.check('input[name="agent"][value="mini-swe-agent"]')
        page.check('input[name="model"][value="fix"]')
        page.check('input[name="model"][value="wrong-fix"]')
        page.fill("#l-timeout", "300")
        page.select_option("#l-isolation", "docker")
        page.click("#launch-go")
        page.wait_for_selector("#launch", state="hidden", timeout=10_000)

        # The attempts appear and run; the page follows them live.
        page.wait_for_selector('tr[data-id="1"][data-state="running"]', timeout=90_000)
        page.wait_for_selector('tr[data-id="2"]', timeout=10_000)
        assert page.inner_text("#runner").startswith("runner ")
        page.click('tr[data-id="1"]')
        # The agent's session, as the gateway saw it, step by step.
        # (Polled from here: the page's content security policy forbids evaluating strings.)
        _wait(lambda: "$ cat dedupe.py" in page.inner_text("#term-session"), 90, "the session")
        # Its container, with its limits, and the telemetry so far.
        page.wait_for_selector("#env h3", timeout=30_000)
        env = page.inner_text("#env")
        if "limits" in env:  # the container is there (on a slow machine it may be gone)
            assert "4.0 GiB" in env and "1024 pids" in env
        # The gateway's rows reach the page through the poller: soon, not at once.
        _wait(lambda: page.inner_text("#m-requests").isdigit()
              and int(page.inner_text("#m-requests")) >= 1, 30, "the requests so far")
        assert page.inner_text("#m-cost").startswith("$")
        if page.locator('tr[data-id="1"][data-state="running"]').count():
            # A later step makes a fuller picture for the README (when the run is not over yet).
            with contextlib.suppress(AssertionError):
                _wait(lambda: "── step 3" in page.inner_text("#term-session"), 20, "step 3")
                # The lines changed so far, counted in the live checkout every few seconds.
                _wait(lambda: page.inner_text("#m-lines") not in ("–", "+0 −0"), 10, "lines changed")
        _shot(page, "dashboard.png")

        # Both finish: the fix passes its gate, the wrong fix does not.
        # (The fix is 4-5x faster against a 3x threshold: on a machine loaded by other work
        # the performance check may not show it above 3x, and the verdict is "failed". The
        # page must show whichever verdict the gate gave; the platform's tests judge the gate.)
        fixed = page.wait_for_selector(
            'tr[data-id="1"]:is([data-state="passed"], [data-state="failed"])', timeout=240_000)
        fix_state = fixed.get_attribute("data-state")
        page.wait_for_selector('tr[data-id="2"][data-state="failed"]', timeout=240_000)
        _wait(lambda: page.inner_text("#runner") == "idle", 60, "the runner to end")
        page.click("button[data-tab='verify']")
        page.wait_for_selector("#verify img.figure", timeout=30_000)
        verify = page.inner_text("#verify").lower()
        assert "strict success" in verify and re.search(r"speedup \d+\.\d\d×", verify)
        # The evaluator's figure (drawn by matplotlib on the first request: give it time).
        _wait(lambda: page.evaluate("document.querySelector('#verify img.figure').naturalWidth") > 100,
              60, "the speedup figure")
        page.click("button[data-tab='files']")
        page.wait_for_selector("#tree li.modified", timeout=30_000)
        assert "seen = set()" in page.inner_text("#diff")
        _shot(page, "dashboard-verification.png")
        session = page.inner_text("#term-session")
        assert "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" in session

        # Retry the failed attempt, alone: a new generation, judged again.
        page.fill("#f-text", "#2")
        page.click('tr[data-id="2"] button.retry')
        page.wait_for_selector('tr[data-id="2"][data-state="running"]', timeout=90_000)
        page.wait_for_selector('tr[data-id="2"][data-state="failed"]', timeout=240_000)
        page.click('tr[data-id="2"]')
        _wait(lambda: "generation 2" in page.inner_text("#sel-sub"), 10, "generation 2")

        # Export the run.
        data = _download(page, lambda: page.click("#export-zip"))
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            names = set(z.namelist())
        assert {"tables/attempts.csv", "attempts/a00001/patch.diff",
                "attempts/a00001/transcript.jsonl.gz"} <= names

        # Launch more attempts and stop the run while they work.
        page.click("#launch-open")
        page.wait_for_selector("#launch[open] #l-tasks input")
        page.check(f'input[name="task"][value="{DEDUPE}"]')
        page.check('input[name="agent"][value="mini-swe-agent"]')
        page.check('input[name="model"][value="give-up"]')
        page.click("#launch-go")
        page.wait_for_selector("#launch", state="hidden", timeout=10_000)
        page.fill("#f-text", "give-up")
        _wait(lambda: page.locator('#attempt-rows tr[data-state="running"]').count() == 1, 90,
              "the new attempt to run", show=lambda: _rows(page))
        page.click("#stop")
        _wait(lambda: page.inner_text("#runner") == "idle", 90, "the runner to stop")
        page.wait_for_selector('#attempt-rows tr[data-state="interrupted"]', timeout=10_000)
    stopped = Database(db_path, readonly=True)
    try:
        rows = {r["model"]: r for r in stopped.attempts()}
        # Interrupted, with the time it ran: to be run again from scratch next time.
        assert rows["give-up"]["state"] == "interrupted" and rows["give-up"]["wall_s"] > 0
        assert rows["fix"]["outcome"] == fix_state and rows["wrong-fix"]["generation"] == 2
    finally:
        stopped.close()
    from frontier_measure.platform import checkout, runner

    # The stopped run left nothing: no container, no checkout (an overlay mount as root).
    leftover = checkout.remove_labelled_containers(runner.db_label(db_path))
    assert leftover == []
    mounts = Path("/proc/mounts").read_text()
    assert str(db_path.parent / "scratch") not in mounts
    assert not any((db_path.parent / "scratch").glob("*/workspace"))
