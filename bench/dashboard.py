"""The live dashboard with 1,000 attempts: how soon the first page is on screen,
how soon a change in the database reaches it, and what an idle dashboard costs.

A run database of 1,000 attempts (dashboard/synthetic.py: written through the
platform's own Database API, ~4,400 gateway rows, 3,200 checks) is served by
`frontier-measure serve` in its own process and opened in Debian's headless
Chromium (Playwright), as an operator would.

  first page       a fresh browser context per load: navigation start to the
                   first picture of the whole queue painted (the page marks it
                   two animation frames after rendering); beside it the server's
                   share: the time to the page's first byte and a GET of the
                   snapshot JSON the page's stream starts with
  update           a writer commits a state change of one attempt (start, then
                   finish, through the platform's Database API), with that
                   attempt filtered into view; latency = the browser's clock when
                   the page redrew the row minus the writer's clock right after
                   its commit returned (one machine, one clock)
  idle cost        CPU of the server process over 20 s with one page open and
                   nothing changing (the poller's PRAGMA data_version, keep-alives)

Targets: first page ≤ 1.5 s and updates ≤ 1.0 s at the 95th percentile; the
poller asks every 0.2 s, so a change waits 0.1 s for it on average.

Usage: python bench/dashboard.py [--attempts 1000] [--loads 10] [--updates 20]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
import urllib.request
from pathlib import Path

from _util import show
from frontier_measure.dashboard import harness, synthetic
from frontier_measure.platform.db import Database

FIRST_PAGE_TARGET_S = 1.5
UPDATE_TARGET_S = 1.0


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def cpu_s(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def first_pages(browser: object, url: str, loads: int) -> tuple[list[float], list[float]]:
    paint, first_byte = [], []
    for _ in range(loads):
        context = browser.new_context(viewport={"width": 1500, "height": 860})  # type: ignore[attr-defined]
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        paint.append(page.evaluate("window.__fm.firstRender") / 1000)
        nav = json.loads(page.evaluate(
            "JSON.stringify(performance.getEntriesByType('navigation')[0].toJSON())"))
        first_byte.append(nav["responseStart"] / 1000)
        context.close()
    return paint, first_byte


def snapshot_gets(url: str, n: int) -> tuple[list[float], int]:
    times, size = [], 0
    for _ in range(n):
        t0 = time.perf_counter()
        with urllib.request.urlopen(url + "api/snapshot", timeout=60) as r:
            size = len(r.read())
        times.append(time.perf_counter() - t0)
    return times, size


def updates(browser: object, url: str, db_path: Path, n: int) -> list[float]:
    context = browser.new_context(viewport={"width": 1500, "height": 860})  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    db = Database(db_path)
    pending = [int(r["id"]) for r in db.attempts(state="pending")][:n]
    out = []
    for attempt in pending:
        page.fill("#f-text", f"#{attempt}")
        page.wait_for_selector(f'#attempt-rows tr[data-id="{attempt}"]')
        time.sleep(0.3)
        gen = 0
        for change in ("start", "finish"):
            if change == "start":
                gen = db.start(attempt, f"attempts/a{attempt:05d}")
            else:
                db.finish(attempt, gen, {"outcome": "passed", "passed": 1, "wall_s": 1.0})
            committed = time.time()
            deadline = time.monotonic() + 30
            while True:
                applied = page.evaluate(f"window.__fm.applied[{attempt}] || 0") / 1000
                if applied >= committed - 0.05 or time.monotonic() > deadline:
                    break
                time.sleep(0.01)
            out.append(applied - committed)
            time.sleep(0.2)
    db.close()
    context.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--attempts", type=int, default=1000)
    ap.add_argument("--loads", type=int, default=10)
    ap.add_argument("--updates", type=int, default=20, help="attempts changed (twice each)")
    ap.add_argument("--idle", type=float, default=20.0, help="seconds of idle measured")
    args = ap.parse_args()
    why = harness.unavailable()
    if why:
        raise SystemExit(f"cannot drive a browser here: {why}")
    with tempfile.TemporaryDirectory(prefix="fm-dash-bench-") as tmp:
        db_path = Path(tmp) / "bench" / "state.sqlite"
        t0 = time.perf_counter()
        synthetic.make(db_path, args.attempts, running=4, pending=max(args.updates, 40)).close()
        made = time.perf_counter() - t0
        with harness.Server(db_path) as server, harness.browser() as browser:
            snap, size = snapshot_gets(server.url, 20)
            paint, first_byte = first_pages(browser, server.url, args.loads)
            lat = updates(browser, server.url, db_path, args.updates)
            context = browser.new_context()
            page = context.new_page()
            page.goto(server.url)
            page.wait_for_selector("body[data-ready='1']", timeout=60_000)
            time.sleep(1)
            c0, w0 = cpu_s(server.proc.pid), time.monotonic()
            time.sleep(args.idle)
            idle = (cpu_s(server.proc.pid) - c0) / (time.monotonic() - w0)
            context.close()
    load = os.getloadavg()
    print(f"{args.attempts} attempts (database written in {made:.1f} s); "
          f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} CPUs")
    ms = lambda x: f"{x * 1000:.0f} ms"  # noqa: E731
    show("The dashboard with 1,000 attempts",
         ["what", "n", "median", "p95", "max", "target", "met"],
         [["first page on screen (navigation → painted)", len(paint), ms(statistics.median(paint)),
           ms(pct(paint, 0.95)), ms(max(paint)), f"p95 ≤ {FIRST_PAGE_TARGET_S:g} s",
           "yes" if pct(paint, 0.95) <= FIRST_PAGE_TARGET_S else "NO"],
          ["  of which: the page's first byte", len(first_byte), ms(statistics.median(first_byte)),
           ms(pct(first_byte, 0.95)), ms(max(first_byte)), "", ""],
          [f"  server: GET /api/snapshot ({size / 1024:.0f} KiB)", len(snap),
           ms(statistics.median(snap)), ms(pct(snap, 0.95)), ms(max(snap)), "", ""],
          ["update: commit → row redrawn", len(lat), ms(statistics.median(lat)),
           ms(pct(lat, 0.95)), ms(max(lat)), f"p95 ≤ {UPDATE_TARGET_S:g} s",
           "yes" if pct(lat, 0.95) <= UPDATE_TARGET_S else "NO"],
          ["idle server, one page open (CPU of one core)", 1, f"{idle * 100:.1f}%", "", "", "", ""]])


if __name__ == "__main__":
    main()
