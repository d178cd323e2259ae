"""Secret timing inputs: every evaluation makes its timing inputs from a seed
of its own, drawn afresh (runners.fresh_timing_seed) and recorded in
result.json only with the verdict; both sides are timed on the same inputs; an
explicit seed makes the same inputs again. And the attack this closes: a
candidate that answers the inputs of the old fixed seeds from a table
(tests/hostile/memoised_inputs) buys nothing."""

from __future__ import annotations

import json
import os
import shutil
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from eval_support import ROOT, quick_task
from frontier_measure import runners, schemas
from frontier_measure.cli import main
from frontier_measure.evaluate import evaluate
from frontier_measure.runners import TimingInput, input_seed
from frontier_measure.runners.kernel import KernelSession
from frontier_measure.runners.module import WorkerSide
from frontier_measure.runners.repository import RepositorySession
from frontier_measure.task import TaskError, load_module

HISTOGRAM = ROOT / "tasks" / "kernel" / "histogram"
HOSTILE = Path(__file__).resolve().parent / "hostile"
MEMOISED = next(e for e in tomllib.loads((HOSTILE / "corpus.toml").read_text())["candidate"]
                if e["name"] == "memoised_inputs")


def _recording(t: TimingInput, log: list) -> TimingInput:
    """The same timing input, its maker logging every seed it is given."""
    def make(seed, _make=t.payload):
        log.append(seed)
        return _make(seed)
    return TimingInput(t.id, make, t.size)


def test_seeds_are_fresh_and_each_input_gets_its_own():
    assert len({runners.fresh_timing_seed() for _ in range(50)}) == 50
    assert all(0 <= runners.fresh_timing_seed() < 2**63 for _ in range(50))
    assert input_seed(5, "a") == input_seed(5, "a")
    assert len({input_seed(5, "a"), input_seed(5, "b"), input_seed(6, "a")}) == 3


def test_a_seed_outside_its_range_is_refused():
    with pytest.raises(ValueError, match="timing_seed"):
        evaluate(HISTOGRAM, timing_seed=-1)


# --------------------------------------------------------------------- kernel


@pytest.mark.needs_zig
def test_two_evaluations_draw_different_seeds_recorded_in_result_json(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    seeds = []
    for k in range(2):
        res = evaluate(HISTOGRAM, out=tmp_path / str(k))
        assert res["strict_success"], res["failure"]
        written = json.loads((tmp_path / str(k) / "kernel-histogram" / "result.json").read_text())
        jsonschema.validate(written, schemas.load("result"))
        assert written["performance"]["timing_seed"] == res["performance"]["timing_seed"]
        seeds.append(written["performance"]["timing_seed"])
    assert seeds[0] != seeds[1]


@pytest.mark.needs_zig
def test_both_sides_run_on_the_same_inputs_and_a_seed_makes_them_again(monkeypatch):
    task, runner = runners.load(HISTOGRAM)
    seen: list[tuple[str, bytes]] = []
    run = KernelSession._run

    def recording_run(self, side, stdin, *, timing):
        seen.append((side, stdin))
        return run(self, side, stdin, timing=timing)

    monkeypatch.setattr(KernelSession, "_run", recording_run)

    def timed(seed):
        seen.clear()
        made: list[int] = []
        inputs = [_recording(t, made) for t in runner.timing_inputs(task)]
        with runner.open_session(task, task.oracle_dir) as session:
            rows = session.time(inputs, seed=seed)
        assert all(r.error is None for r in rows)
        assert len(made) == len(inputs)  # each input made once, for both sides
        assert [s for s, _ in seen] == ["reference", "candidate"] * len(inputs)
        assert all(seen[i][1] == seen[i + 1][1] for i in range(0, len(seen), 2))
        return [stdin for _, stdin in seen[::2]], [r.extra["reference_cycles"] for r in rows]

    first, cycles = timed(1234)
    again, cycles_again = timed(1234)
    other, _ = timed(1235)
    fresh, _ = timed(None)
    assert first == again and cycles == cycles_again
    assert all(a != b for a, b in zip(first, other, strict=True))
    assert all(a != b for a, b in zip(first, fresh, strict=True))
    assert [len(s) for s in first] == [len(s) for s in other]  # the same sizes


@pytest.mark.needs_zig
def test_command_line_takes_an_explicit_seed(tmp_path):
    r = CliRunner().invoke(main, ["eval", str(HISTOGRAM), "--out", str(tmp_path),
                                  "--timing-seed", "42"])
    assert r.exit_code == 0, r.output
    written = json.loads((tmp_path / "kernel-histogram" / "result.json").read_text())
    assert written["performance"]["timing_seed"] == 42
    r = CliRunner().invoke(main, ["eval", str(HISTOGRAM), "--timing-seed", "-3"])
    assert r.exit_code == 2


def test_a_maker_that_returns_no_bytes_is_a_task_error(tmp_path):
    task_dir = tmp_path / "histogram"
    shutil.copytree(HISTOGRAM, task_dir)
    inputs = task_dir / "tests" / "inputs.py"
    inputs.write_text(inputs.read_text().replace(
        '"make": lambda seed: _mixed(100_000, seed)', '"make": lambda seed: "text"'))
    task, runner = runners.load(task_dir)
    with pytest.raises(TaskError, match=r"'mixed-100k': make\(\d+\): must return bytes"):
        [t.payload(0) for t in runner.timing_inputs(task)]
    assert any("must return bytes" in p for p in runner.validate(task))


@pytest.mark.needs_zig
def test_memoised_inputs_of_the_old_seeds_buy_nothing():
    entry = MEMOISED
    res = evaluate(ROOT / "tasks" / entry["task"], HOSTILE / entry["candidate"])
    failure = res["failure"]
    assert not res["strict_success"] and failure is not None
    assert failure["stage"] == entry["stage"] and failure["rule"] in entry["rules"], failure
    assert res["performance"]["speedup"] < entry["max_speedup"], res["performance"]


@pytest.mark.needs_zig
def test_memoised_inputs_did_pay_on_the_old_fixed_inputs():
    # The attack is real: on the inputs every evaluation used before (the
    # generator at seeds 21 and 22), its stored counts are right and free.
    task, runner = runners.load(HISTOGRAM)
    gen = load_module(task, task.settings.inputs, ("timing_inputs",))._mixed
    old = [TimingInput("mixed-300k", lambda seed: gen(300_000, 21), 300_000),
           TimingInput("mixed-100k", lambda seed: gen(100_000, 22), 100_000)]
    with runner.open_session(task, HOSTILE / "memoised_inputs") as session:
        rows = session.time(old)
    assert all(r.error is None for r in rows)
    assert min(r.summary["speedup"] for r in rows) > 50


# --------------------------------------------------------------------- module


@pytest.mark.slow
def test_module_sides_get_the_same_requests_and_seeds_do_not_repeat(tmp_path, monkeypatch):
    task_dir = quick_task(tmp_path, "module", "dedupe", min_blocks=2, max_blocks=2)
    task, runner = runners.load(task_dir)
    first = runner.timing_inputs(task)[0]
    requests: dict[tuple[str, int, int, int], list[bytes]] = {}
    exchange = WorkerSide._exchange

    def recording_exchange(self, request):
        key = (self.name, self.inputs.phase, self.process, self.block)
        requests.setdefault(key, []).append(request)
        return exchange(self, request)

    monkeypatch.setattr(WorkerSide, "_exchange", recording_exchange)

    def timed(seed):
        requests.clear()
        made: list[int] = []
        with runner.open_session(task, task.oracle_dir) as session:
            [row] = session.time([_recording(first, made)], seed=seed)
        assert row.error is None and row.outputs_checked > 0
        # Rounds (phase 2): each batch of the candidate carried the very bytes
        # the reference's batch of the same place carried.
        rounds = {k[1:]: v for k, v in requests.items() if k[0] == "reference" and k[1] == 2}
        assert rounds
        for place, sent in rounds.items():
            assert requests.get(("candidate", *place)) == sent, place
        return made

    seeded = timed(77)
    again = timed(77)
    fresh = timed(None)
    public = timed(0)  # the seeds every evaluation used before
    assert seeded[0] == again[0]  # the first input made (a warm-up call) is the same
    assert not set(fresh) & set(public) and not set(seeded) & set(public)
    assert not set(fresh) & set(seeded)


# --------------------------------------------------------------------- repository


def test_repository_setup_makes_its_data_from_the_seed(tmp_path):
    task, runner = runners.load(ROOT / "tasks" / "repository" / "logstat")
    small = next(t for t in runner.timing_inputs(task) if t.id == "small")
    session = SimpleNamespace(task=task, settings=task.settings)

    def made(seed: int, name: str) -> bytes:
        dest = tmp_path / name
        RepositorySession._prepare(session, small, dest, seed)
        return (dest / "big.log").read_bytes()

    first, again, other = made(5, "a"), made(5, "b"), made(6, "c")
    assert first == again and first != other
    assert first.count(b"\n") == other.count(b"\n") == 20_000
    assert "FM_TIMING_SEED" not in os.environ  # the seed went to the setup only
