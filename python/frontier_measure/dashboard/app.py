"""The dashboard's web application: FastAPI routes over one run database.

    GET  /                                  the page (static/)
    GET  /api/stream                        SSE: a snapshot, then every change (events.py)
    GET  /api/snapshot                      the same snapshot as JSON
    GET  /api/attempts/{id}                 the whole row, its requests, events, checks
    GET  /api/attempts/{id}/live            SSE: the agent's session (commands and output)
                                            and process output, resource usage and
                                            lines changed (while it runs)
    GET  /api/attempts/{id}/terminal        the same as text (?stream=session|process)
    GET  /api/attempts/{id}/workspace       file tree and diff (live, or as judged)
    GET  /api/attempts/{id}/file?path=P     one file of that workspace
    GET  /api/attempts/{id}/configuration   prompt mode and prompt, agent, model, run
    GET  /api/attempts/{id}/verification    gate sub-checks, items, timing inputs
    GET  /api/attempts/{id}/speedups.svg    the evaluator's per-input speedup figure
    POST /api/attempts/{id}/retry           run this attempt again, alone (a job)
    GET  /api/catalog                       what the launch form offers
    POST /api/launch                        launch a run (a job)
    POST /api/stop                          stop the runner, cancel queued jobs
    POST /api/jobs/{id}/cancel              cancel a queued job
    GET  /api/jobs/{id}/log                 a job's output
    GET  /api/export.zip                    the run as a ZIP (platform/export.py)
    GET  /api/export/{table}.csv            one table as CSV

Views read the database read-only (store.py); runs are launched, retried and
stopped through the platform's runner in processes of their own (jobs.py), so
nothing the server does can hold up a runner.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import sqlite3
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.background import BackgroundTask

from ..platform import checkout as co
from ..platform import export
from ..platform.db import Database, connect_readonly
from ..platform.runner import db_label
from . import artefacts, launch, store
from .events import Live, sse
from .jobs import Jobs
from .security import Guard, is_loopback, loopback_hosts
from .session import SessionTail

STATIC = Path(__file__).resolve().parent / "static"
TERMINAL_S = 0.25  # the terminal is read this often
USAGE_S = 1.0  # resources are sampled this often
LINES_S = 3.0  # lines changed are counted this often (a walk of the checkout)
TOKEN_MIN = 16
CSV_TABLES = ("attempts", "requests", "checks", "events", "summary")
NO_CACHE = {"Cache-Control": "no-store"}
# matplotlib's SVG styles its elements inline; it may do that, and nothing else.
SVG_POLICY = {"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"}


class Json(JSONResponse):
    """JSON without NaN or infinity (a result may hold them; JSON may not)."""

    def render(self, content: Any) -> bytes:
        return json.dumps(store.finite(content), allow_nan=False, separators=(",", ":")).encode()


class Dashboard:
    """The state behind the routes: the live picture, the jobs, the paths."""

    def __init__(self, db_path: Path, poll_s: float | None = None) -> None:
        self.db_path = db_path.resolve()
        self.live = Live(self.db_path) if poll_s is None else Live(self.db_path, poll_s)
        self.jobs = Jobs(self.live)
        self.label = db_label(self.db_path)
        self.docker = co.docker_available() is None

    @contextlib.contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """A short read-only connection (route handlers run in worker threads)."""
        try:
            conn = connect_readonly(self.db_path)
        except sqlite3.OperationalError:
            raise HTTPException(404, f"no database at {self.db_path} yet") from None
        try:
            yield conn
        finally:
            conn.close()

    def run_specs(self) -> list[dict[str, Any]]:
        """The runs with their spec text (none before the database exists)."""
        try:
            conn = connect_readonly(self.db_path)
        except sqlite3.OperationalError:
            return []
        try:
            return store.runs(conn, specs=True)
        finally:
            conn.close()

    def row(self, attempt_id: int) -> dict[str, Any]:
        with self.read() as conn:
            row = store.attempt(conn, attempt_id)
        if row is None:
            raise HTTPException(404, f"no attempt {attempt_id}")
        return row


def create_app(db_path: Path, *, token: str | None = None, host: str = "127.0.0.1",
               port: int = 8765, poll_s: float | None = None) -> Any:
    """The ASGI application (the FastAPI app behind the guard)."""
    d = Dashboard(db_path, poll_s)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await d.live.start()
        await d.jobs.start()
        try:
            yield
        finally:
            await d.jobs.close()
            await d.live.stop()

    app = FastAPI(title="frontier-measure dashboard", lifespan=lifespan, docs_url=None,
                  redoc_url=None, openapi_url=None)
    app.state.dashboard = d

    # ------------------------------------------------------------------ the page

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # ------------------------------------------------------------------ the run

    @app.get("/api/snapshot")
    def snapshot() -> Json:
        return Json(d.live.snapshot(), headers=NO_CACHE)

    @app.get("/api/stream")
    async def stream() -> StreamingResponse:
        return StreamingResponse(d.live.stream(), media_type="text/event-stream",
                                 headers={**NO_CACHE, "X-Accel-Buffering": "no"})

    @app.get("/api/catalog")
    def catalog() -> Json:
        return Json(launch.catalog(d.run_specs(), d.docker), headers=NO_CACHE)

    @app.post("/api/launch")
    async def launch_run(request: Request) -> Json:
        form = await _json(request)
        runs = await asyncio.to_thread(d.run_specs)
        cat = await asyncio.to_thread(launch.catalog, runs, d.docker)
        name = cat["run"] or d.db_path.parent.name
        try:
            doc = launch.compose(form, cat, name)
            path = await asyncio.to_thread(launch.write_spec, doc, d.db_path.parent)
        except launch.LaunchError as exc:
            return Json({"problems": exc.problems}, status_code=400)
        job = d.jobs.submit("run", path)
        return Json({"job": job.view(), "spec": path.read_text()})

    @app.post("/api/stop")
    def stop() -> Json:
        return Json(d.jobs.stop())

    @app.post("/api/jobs/{job_id}/cancel")
    def cancel(job_id: int) -> Json:
        try:
            return Json(d.jobs.cancel(job_id).view())
        except KeyError:
            raise HTTPException(404, f"no job {job_id}") from None
        except ValueError as exc:
            raise HTTPException(409, str(exc)) from None

    @app.get("/api/jobs/{job_id}/log")
    def job_log(job_id: int) -> PlainTextResponse:
        for job in d.jobs.jobs:
            if job.id == job_id and job.log is not None and job.log.is_file():
                return PlainTextResponse(job.log.read_text(errors="replace"), headers=NO_CACHE)
        raise HTTPException(404, f"no log of job {job_id}")

    # ------------------------------------------------------------------ one attempt

    @app.get("/api/attempts/{attempt_id}")
    def attempt(attempt_id: int) -> Json:
        with d.read() as conn:
            row = store.attempt(conn, attempt_id)
            if row is None:
                raise HTTPException(404, f"no attempt {attempt_id}")
            gen = int(row.get("generation") or 0)
            body = {"attempt": row, "view": store.attempts(conn, [attempt_id])[0],
                    "requests": store.requests_of(conn, attempt_id, gen),
                    "events": store.events_of(conn, attempt_id),
                    "checks": store.checks(conn, attempt_id)}
        return Json(body, headers=NO_CACHE)

    @app.post("/api/attempts/{attempt_id}/retry")
    def retry(attempt_id: int) -> Json:
        row = d.row(attempt_id)
        if row.get("state") == "running":
            raise HTTPException(409, f"attempt {attempt_id} is running")
        with d.read() as conn:
            run = store.run_of(conn, int(row["run_id"]))
        spec = Path(str((run or {}).get("spec_path") or ""))
        if not spec.is_file():
            raise HTTPException(409, f"the run's spec {spec} is gone; run it again from a "
                                     "terminal with --retry")
        job = d.jobs.submit("retry", spec, attempt_id)
        return Json({"job": job.view()})

    @app.get("/api/attempts/{attempt_id}/live")
    async def live(attempt_id: int) -> StreamingResponse:
        d.row(attempt_id)  # 404 before the stream starts
        return StreamingResponse(_attempt_stream(d, attempt_id), media_type="text/event-stream",
                                 headers={**NO_CACHE, "X-Accel-Buffering": "no"})

    @app.get("/api/attempts/{attempt_id}/terminal")
    def terminal(attempt_id: int, stream: str = "process") -> PlainTextResponse:
        adir = artefacts.attempt_dir(d.db_path.parent, d.row(attempt_id))
        if stream == "session":
            got = SessionTail(first=1 << 62).read(adir)
            return PlainTextResponse(got[1] if got else "", headers=NO_CACHE)
        path = artefacts.terminal_path(adir) if adir is not None else None
        if path is None or not path.is_file():
            raise HTTPException(404, "no terminal output yet")
        return PlainTextResponse(path.read_text(errors="replace"), headers=NO_CACHE)

    @app.get("/api/attempts/{attempt_id}/workspace")
    def workspace(attempt_id: int) -> Json:
        return Json(artefacts.workspace(d.db_path.parent, d.row(attempt_id)),
                            headers=NO_CACHE)

    @app.get("/api/attempts/{attempt_id}/file")
    def file(attempt_id: int, path: str) -> Json:
        try:
            return Json(artefacts.read_file(d.db_path.parent, d.row(attempt_id), path),
                                headers=NO_CACHE)
        except FileNotFoundError:
            raise HTTPException(404, f"no file {path!r} in this workspace") from None

    @app.get("/api/attempts/{attempt_id}/configuration")
    def configuration(attempt_id: int) -> Json:
        row = d.row(attempt_id)
        with d.read() as conn:
            run = store.run_of(conn, int(row["run_id"]))
        return Json(artefacts.configuration(d.db_path.parent, row, run), headers=NO_CACHE)

    @app.get("/api/attempts/{attempt_id}/verification")
    def verification(attempt_id: int) -> Json:
        row = d.row(attempt_id)
        with d.read() as conn:
            checks = store.checks(conn, attempt_id)
        return Json(artefacts.verification(d.db_path.parent, row, checks),
                            headers=NO_CACHE)

    @app.get("/api/attempts/{attempt_id}/speedups.svg")
    def speedups(attempt_id: int) -> Response:
        svg = artefacts.speedups_figure(artefacts.result_files(d.db_path.parent,
                                                               d.row(attempt_id)))
        if svg is None:
            raise HTTPException(404, "no timed inputs (or no matplotlib) for a figure")
        return Response(svg, media_type="image/svg+xml", headers={**NO_CACHE, **SVG_POLICY})

    # ------------------------------------------------------------------ export

    @app.get("/api/export.zip")
    async def export_zip() -> FileResponse:
        if not d.db_path.is_file():
            raise HTTPException(404, "no database yet")
        fd, tmp = tempfile.mkstemp(prefix="fm-export-", suffix=".zip")
        os.close(fd)
        await asyncio.to_thread(export.write_zip, d.db_path, Path(tmp))
        return FileResponse(tmp, media_type="application/zip",
                            filename=f"{d.db_path.parent.name}.zip",
                            background=BackgroundTask(os.unlink, tmp))

    @app.get("/api/export/{table}.csv")
    def export_csv(table: str) -> Response:
        if table not in CSV_TABLES:
            raise HTTPException(404, f"no table {table} (choose from {', '.join(CSV_TABLES)})")
        if not d.db_path.is_file():
            raise HTTPException(404, "no database yet")
        db = Database(d.db_path, readonly=True)
        try:
            text = export.csv_files(db)[f"{table}.csv"]
        finally:
            db.close()
        name = f"{d.db_path.parent.name}-{table}.csv"
        return Response(text, media_type="text/csv; charset=utf-8",
                        headers={**NO_CACHE, "Content-Disposition": f'attachment; filename="{name}"'})

    hosts = loopback_hosts(port) if is_loopback(host) else None
    return Guard(app, port=port, token=token, hosts=hosts)


async def _json(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        raise HTTPException(400, "the body must be JSON") from None
    if not isinstance(body, dict):
        raise HTTPException(400, "the body must be a JSON object")
    return body


async def _attempt_stream(d: Dashboard, attempt_id: int) -> AsyncIterator[bytes]:
    """One attempt, live: terminal output as it is written, resources and lines
    changed while it runs. Ends when the browser goes away."""
    from .usage import AttemptProbe

    tail = artefacts.TerminalTail()
    steps = SessionTail()
    probe: AttemptProbe | None = None
    generation: tuple[Any, Any] | None = None
    full: dict[str, Any] = {}
    next_usage = next_lines = 0.0
    last_beat = time.monotonic()
    yield b"retry: 2000\n\n"
    while True:
        row = d.live.rows.get(attempt_id)
        if row is None:
            yield sse("gone", {"id": attempt_id})
            return
        adir = artefacts.attempt_dir(d.db_path.parent, row)
        got = await asyncio.to_thread(tail.read, artefacts.terminal_path(adir) if adir else None)
        if got is not None:
            reset, text, offset = got
            yield sse("terminal", {"stream": "process", "reset": reset, "text": text,
                                   "clipped": reset and offset > len(text.encode())})
            last_beat = time.monotonic()
        said = await asyncio.to_thread(steps.read, adir)
        if said is not None:
            yield sse("terminal", {"stream": "session", "reset": said[0], "text": said[1]})
            last_beat = time.monotonic()
        now = time.monotonic()
        running = row.get("state") == "running"
        if (row.get("generation"), row.get("state")) != generation:
            generation = (row.get("generation"), row.get("state"))
            probe = None
            full = await asyncio.to_thread(d.row, attempt_id)  # the queue's row lacks task_path
        if running and now >= next_usage and adir is not None:
            if probe is None:
                probe = AttemptProbe(d.label, attempt_id, adir / "agent" / "agent.pid")
            sample = await asyncio.to_thread(probe.sample)
            yield sse("usage", sample)
            next_usage, last_beat = now + USAGE_S, now
        if running and now >= next_lines:
            checkout = artefacts.live_checkout(d.db_path.parent, full)
            if checkout is not None:
                counts = await asyncio.to_thread(_line_counts, checkout)
                if counts is not None:
                    yield sse("lines", counts)
            next_lines = now + LINES_S
        if now - last_beat > 15:
            yield b": keepalive\n\n"
            last_beat = now
        await asyncio.sleep(TERMINAL_S)


def _line_counts(checkout: co.Checkout) -> dict[str, int] | None:
    try:
        changes = checkout.changes()
    except OSError:
        return None
    added, removed = changes.line_counts()
    return {"files_changed": changes.files, "lines_added": added, "lines_removed": removed}


# ---------------------------------------------------------------- serving


def check_binding(host: str, token: str | None) -> None:
    """Loopback needs nothing; any other address needs a token (ValueError says why)."""
    if token is not None and len(token) < TOKEN_MIN:
        raise ValueError(f"--token: at least {TOKEN_MIN} characters (e.g. python -c "
                         "'import secrets; print(secrets.token_urlsafe(24))')")
    if token is not None and not all(c.isalnum() or c in "-._~" for c in token):
        raise ValueError("--token: letters, digits and - . _ ~ only (it travels in a cookie)")
    if not is_loopback(host) and token is None:
        raise ValueError(f"binding to {host} exposes runs and transcripts beyond this machine: "
                         "give --token (or bind to 127.0.0.1)")


def bind(host: str, port: int) -> socket.socket:
    """The listening socket (port 0: any free port; read it back from the socket)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host.strip("[]"), port))
    sock.listen(128)
    sock.setblocking(False)
    return sock


def serve(sock: socket.socket, db_path: Path, *, host: str, token: str | None,
          poll_s: float | None = None) -> None:
    """Serve until interrupted (Ctrl-C). Runs launched from the page go on."""
    import uvicorn

    port = sock.getsockname()[1]
    app = create_app(db_path, token=token, host=host, port=port, poll_s=poll_s)
    config = uvicorn.Config(app, log_level="warning", access_log=False,
                            timeout_graceful_shutdown=2, lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])
