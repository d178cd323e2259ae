"""Malformed task directories (tests/task_fuzz.py makes them): the loader and
every command that reads a task end in a clear message naming the file (and
the field), and a non-zero exit, never a traceback. The authoring commands
that run the reference (record, mutate) are run on a sample too: each either
does its work (the variant is still a valid task) or ends in a task problem.

Quick by default (a fixed sample of each class, a few through the CLI);
FM_FUZZ=full runs the whole sweep over every bundled task in process."""

from __future__ import annotations

import os
import random
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import task_fuzz as fz  # noqa: E402

FULL = os.environ.get("FM_FUZZ") == "full"
PER_CLASS = 10  # the quick sample: variants per class


def _sample() -> list[fz.Variant]:
    everything = [v for v in fz.variants(full=FULL) if not v.unreadable]
    if FULL:
        return everything
    rng = random.Random(10)
    out: list[fz.Variant] = []
    for kind in fz.CLASSES:
        of_kind = [v for v in everything if v.kind == kind]
        out.extend(rng.sample(of_kind, min(PER_CLASS, len(of_kind))))
    return out


VARIANTS = _sample()


def _copy(v: fz.Variant, tmp_path: Path) -> Path:
    return fz.make_copy(v, tmp_path)


@pytest.mark.parametrize("v", VARIANTS, ids=lambda v: v.id)
def test_validate_names_the_problem(v: fz.Variant, tmp_path: Path) -> None:
    d = _copy(v, tmp_path)
    o = fz.in_process(v, d)
    assert o.status == "ok", f"{v.id}: {o.status}\n{o.output}"


# One variant per kind of damage the CLI must turn into a message; each goes
# through every command that reads a task.
# Each command is a fresh interpreter (seconds apiece on a busy machine): the
# quick run sends one variant through them, FM_FUZZ=full four.
CLI_CASES = ["wrong-type", "garbage", "symlink-loop", "raises"] if FULL else ["raises"]
# (`harbor export` is left out: it builds the evaluator's wheels first.)
COMMANDS = ["validate", "record", "mutate", "eval"]


def _cli_variant(kind: str) -> fz.Variant:
    return next(v for v in VARIANTS if v.kind == kind and v.must_fail
                and v.task == "module/dedupe")


@pytest.mark.parametrize("kind", CLI_CASES)
def test_commands_exit_with_a_message(kind: str) -> None:
    v = _cli_variant(kind)
    base = fz.scratch()
    try:
        d = fz.make_copy(v, base)
        for command in COMMANDS:
            args = {"validate": ["validate", str(d)], "record": ["record", str(d), "--runs", "2"],
                    "mutate": ["mutate", str(d), "--max", "1"],
                    "eval": ["eval", str(d), "--out", str(base / "results")]}[command]
            code, out = fz.run_cli(args, cwd=base, timeout=120)
            assert code not in (0, None), f"{v.id} {command}: exit {code}\n{out}"
            assert "Traceback" not in out, f"{v.id} {command}:\n{out}"
            if command == "validate":
                assert fz.judge(v, True, out).status == "ok", f"{v.id} {command}:\n{out}"
    finally:
        fz.release(base)
        shutil.rmtree(base, ignore_errors=True)


# record and mutate, in process: one variant per class of each of two tasks
# (FM_FUZZ=full: every sampled variant of the module and package tasks).
RUN_TASKS = ("module/dedupe", "package/graphs")


def _run_sample() -> list[fz.Variant]:
    pool = [v for v in VARIANTS if v.task in RUN_TASKS and not v.hangs]
    if FULL:
        return pool
    out: list[fz.Variant] = []
    for task in RUN_TASKS:
        for kind in fz.CLASSES:
            out += [v for v in pool if v.task == task and v.kind == kind][:1]
    return out


@pytest.mark.parametrize("v", _run_sample(), ids=lambda v: v.id)
def test_record_and_mutate_name_the_problem(v: fz.Variant, tmp_path: Path) -> None:
    d = _copy(v, tmp_path)
    for command in ("record", "mutate"):
        o = fz.in_process_run(v, d, command)
        assert o.status == "ok", f"{v.id} {command}: {o.status}\n{o.output}"
