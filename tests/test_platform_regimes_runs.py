"""Regimes end to end: the real mini-swe-agent, its tools reached through the
platform's tool layer (a real MCP client, MCP server processes over stdio), the
scripted model server, Docker checkouts of RefactorBench's flask/render-template-str.

    S1        terminal only                         the scripted edit is incomplete: fails
    S1-lsp    + pyright's feedback after each edit  the feedback shows the dangling
                                                    import, the model fixes it: passes
    S2-ast    + the code index, AST chunks          found through search_code: passes
    S2-naive  + the code index, token windows       likewise, with window results
    S3        + delegate: the model "tools" delegates the rename (a child agent runs);
              the model "fix" does the work itself (delegation offered, not used)
"""

from __future__ import annotations

import gzip
import json
import sqlite3
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from frontier_measure.cli import main
from frontier_measure.platform import checkout, refactorbench, runner

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "examples" / "agents" / "regimes.toml"
MINI = ROOT / ".agents" / "bin" / "mini"
PYRIGHT = ROOT / ".agents" / "bin" / "pyright-langserver"
SNAPSHOT = refactorbench.default_snapshot()


def _transcript(run_dir: Path, attempt: sqlite3.Row) -> list[dict]:
    with gzip.open(run_dir / attempt["dir"] / "transcript.jsonl.gz", "rt") as f:
        return [json.loads(line) for line in f]


def _seen(records: list[dict]) -> str:
    """Everything the agent sent its model (tool results and feedback included)."""
    return "\n".join(json.dumps(r["request"]["messages"][-1]) for r in records)


@pytest.mark.needs_docker
@pytest.mark.slow
@pytest.mark.skipif(not MINI.exists(), reason="mini-swe-agent not installed (scripts/agents.sh)")
@pytest.mark.skipif(not PYRIGHT.exists(), reason="pyright not installed (scripts/agents.sh)")
@pytest.mark.skipif(SNAPSHOT is None or not SNAPSHOT.is_file(),
                    reason="RefactorBench snapshot absent (shared/data/ or $FM_REFACTORBENCH)")
def test_five_regimes_with_mini_swe_agent_in_docker(tmp_path: Path) -> None:
    db = tmp_path / "regimes" / "state.sqlite"
    result = CliRunner().invoke(main, ["run", str(SPEC), "--db", str(db), "--quiet"])
    assert result.exit_code == 0, result.output
    c = sqlite3.connect(db)
    c.row_factory = sqlite3.Row
    try:
        attempts = {(r["model"], r["regime"]): r for r in c.execute("SELECT * FROM attempts")}
        nodes = c.execute("SELECT * FROM nodes ORDER BY id").fetchall()
        calls = c.execute("SELECT * FROM tool_calls ORDER BY id").fetchall()
        requests = c.execute("SELECT attempt_id, node_id FROM requests").fetchall()
    finally:
        c.close()
    assert {k: r["outcome"] for k, r in attempts.items()} == {
        ("tools", "S1"): "failed", ("tools", "S1-lsp"): "passed", ("tools", "S2-ast"): "passed",
        ("tools", "S2-naive"): "passed", ("tools", "S3"): "passed", ("fix", "S3"): "passed"}
    run_dir = db.parent

    def calls_of(key: tuple[str, str]) -> list[sqlite3.Row]:
        return [x for x in calls if x["attempt_id"] == attempts[key]["id"]]

    # S1: no tools, no tool telemetry, one agent.
    s1 = attempts[("tools", "S1")]
    assert not calls_of(("tools", "S1")) and s1["tool_calls"] == 0 and s1["lsp_s"] is None
    assert s1["delegated"] is None and s1["children"] == 0

    # S1-lsp: the language server started, looked at each edit, and its feedback (measured
    # in time and tokens) reached the model.
    lsp = attempts[("tools", "S1-lsp")]
    kinds = [x["tool"] for x in calls_of(("tools", "S1-lsp"))]
    assert kinds == ["lsp-start", "after_action", "after_action"]
    assert lsp["lsp_s"] > 0 and lsp["lsp_tokens"] > 0 and lsp["tool_calls"] == 3
    seen = _seen(_transcript(run_dir, lsp))
    assert "src/flask/__init__.py:39:25: error:" in seen
    assert "is unknown import symbol (reportAttributeAccessIssue)" in seen
    assert "no new errors in src/flask/__init__.py" in seen

    # S2: the index built once per attempt, searched through MCP; the chunker shows.
    for regime, chunker, first_hit in (("S2-ast", "ast", "(function render_template_string)"),
                                       ("S2-naive", "naive", "(window)")):
        rows = calls_of(("tools", regime))
        assert [x["tool"] for x in rows] == ["index-build", "search_code"]
        build = json.loads(rows[0]["detail"])
        assert build["chunker"] == chunker and build["files"] == 82 and build["rebuilt"]
        assert attempts[("tools", regime)]["index_s"] > 0
        assert attempts[("tools", regime)]["tool_tokens"] == rows[1]["tokens"] > 0
        results = _seen(_transcript(run_dir, attempts[("tools", regime)]))
        assert results.count("## ") >= 5 and first_hit in results.split("## 2.")[0]
        assert "def render_template_string(" in results

    # S3: the tree of agents. "tools" delegated once; the child's requests are its own.
    s3 = attempts[("tools", "S3")]
    assert (s3["delegated"], s3["children"]) == (1, 1)
    tree = [n for n in nodes if n["attempt_id"] == s3["id"]]
    assert [(n["depth"], n["parent_id"] == tree[0]["id"]) for n in tree] == [(0, False), (1, True)]
    assert tree[1]["instruction"].startswith("Rename the function render_template_string of "
                                             "src/flask")
    assert tree[0]["steps"] == 3 and tree[1]["steps"] == 3 and s3["steps"] == 6
    assert {r["node_id"] for r in requests if r["attempt_id"] == s3["id"]} == \
        {tree[0]["id"], tree[1]["id"]}
    (deleg,) = calls_of(("tools", "S3"))
    assert deleg["tool"] == "delegate" and json.loads(deleg["detail"])["child"] == tree[1]["id"]
    assert "Sub-agent 1 finished" in _seen(_transcript(run_dir, s3))
    assert (run_dir / s3["dir"] / "children" / "c1" / "agent" / "trajectory.json").is_file()
    fix = attempts[("fix", "S3")]
    assert (fix["delegated"], fix["children"]) == (0, 0)
    assert len([n for n in nodes if n["attempt_id"] == fix["id"]]) == 1

    r = subprocess.run(["docker", "ps", "-aq", "--filter",
                        f"label={checkout.LABEL}={runner.db_label(db)}"],
                       capture_output=True, text=True, check=True)
    assert not r.stdout.split()

    out = tmp_path / "report"
    rep = CliRunner().invoke(main, ["report", str(db), "--out", str(out)])
    assert rep.exit_code == 0, rep.output
    text = (out / "platform.md").read_text()
    assert "## Regimes" in text and "### Regimes compared on the same tasks" in text
    assert ("| mini / tools / base / S1 | mini / tools / base / S1-lsp | 1 | 0.0% | 100.0% | "
            "+100.0 pp | 0 | 1 |") in text
    assert "| mini / fix / base / S3 | 1 | 0 (0%) | 0 | 100.0% | n/a | 100.0% |" in text
    assert "| mini / tools / base / S3 | 1 | 1 (100%) | 1 | 100.0% | 100.0% | n/a |" in text
    assert (out / "nodes.csv").is_file() and (out / "tool_calls.csv").is_file()
