"""The live dashboard: `frontier-measure serve`, a web page over a run database.

Three columns: the task queue (every attempt, its live status, runtime and
verdict; filters; retry), the selected attempt (live telemetry; tabs for the
agent's terminal output, the workspace's files and diff, the prompt and
configuration, the verification), and the environment (the container's limits
and usage, the agent's processes) with the run's cumulative metrics (PR_task,
CE, funnels). Runs are launched, stopped and exported from the page.

    app.py        FastAPI routes; serve() on Uvicorn
    events.py     the poller (PRAGMA data_version) and the SSE streams
    store.py      read-only queries, defensive about the schema
    artefacts.py  an attempt's files: terminal, workspace, configuration, verification
    usage.py      container (Docker API, cgroup files) and agent session (/proc) usage
    jobs.py       runner processes: launch, retry, stop (the runner lock, /proc/locks)
    launch.py     the launch form's catalogue and the spec it writes
    security.py   loopback by default, a token elsewhere, host and origin checks
    static/       the page: plain HTML, CSS and JavaScript (no build step)

Install with the `dashboard` extra (FastAPI, Uvicorn).
"""
