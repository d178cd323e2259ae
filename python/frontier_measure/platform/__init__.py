"""The agent platform: run coding agents on tasks, measure them, gate their patches.

    spec.py           the experiment spec (TOML): tasks, agents, models, prompt modes,
                      regimes, attempts, concurrency, timeouts
    tasks.py          what the platform needs of a task: its pristine workspace, its
                      prompts in three modes, its gate
    db.py             the run's state in SQLite (runs, attempts, events, requests, checks)
    runner.py         asyncio workers: one attempt = fresh checkout, agent, patch, gate
    cluster.py        the runner on a Ray cluster (`run --cluster`): agent and evaluation
                      stages as Ray tasks, one timing slot per node, node-loss retries
    checkout.py       isolated checkouts: a private copy (an overlay when root) and the
                      attempt's container
    agents/           built-in agents (oracle, nop, replay) and the command agent with
                      its templates (mini-swe-agent, Codex CLI, Claude Code, aider)
    gateway.py        the model gateway every agent talks to: records each request
    prices.py         the price table (TOML, user-extensible) and token counting
    scripted_model.py a deterministic model server that plays scripted trajectories
    gate.py           the conjunctive verification gate (+ CodeBLEU as a diagnostic)
    gate_process.py   the gate in a process of its own, which a stopped run stops
    refactorbench/    the RefactorBench importer and its AST-test runner
    metrics.py        PR_task, cost per success, McNemar's exact test, tables
    export.py         a whole run as ZIP and CSV

Nothing here times code itself: performance tasks are judged by
`frontier_measure.evaluate.evaluate`, whose timing holds the measurement lock.
"""
