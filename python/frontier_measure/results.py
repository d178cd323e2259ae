"""result.json: the record of one evaluation, and the reward derived from it.

Reports (tables, figures, html) are rendered from this file only, never from
live objects, so its shape is a stable, versioned contract:

    {
      "schema": "frontier-measure/result", "schema_version": 3,
      "task":       {"name", "path", "scale", "threshold", "cost", "entry", "digest"},
      "candidate":  {"path", "is_oracle", "digest"},
      "started_at", "elapsed_s",
      "compliance": {"compliant": bool, "findings": [{"file", "line", "rule", "detail"}]},
      "build"?:     {"reference": {"ok", "command", "status", "log", "seconds"}, "candidate": ...},
      "functional": {"ran": bool, "passed": int, "failed": int, "total": int,
                     "excluded": int, "pass_rate": float|null, "summary": "N/M items passed",
                     "case_failures": {case id: reason},
                     "problems": [{"case", "rule", "reason"}],   # timeouts, left processes
                     "items": [{"id", "case", "passed", "diff"?: [str], "missing"?: true}],
                     "excluded_items": {item id: reason}},
      "performance": {"ran": bool, "cost", "unit", "threshold",
                      "inputs": [{"id", "size", "loops", "rounds", "pairs", "blocks",
                                  "speedup", "ci_low", "ci_high", "lower_bound", "verdict",
                                  "meets_threshold", "confidence", "half_width",
                                  "reference_median", "candidate_median", "elapsed_s",
                                  "warnings", "error", "error_side", "outputs_checked",
                                  ... the runner's own figures (processes, commands, cycles),
                                  "samples": [{"index", "pair", "block", "reference_first",
                                               "reference", "candidate",
                                               "reference_wall_ns", ...,
                                               # module/package: the batch's wall time
                                               # before the path's cost is taken off,
                                               # and its dry run's
                                               "reference_raw_wall_ns",
                                               "reference_dry_wall_ns", ...}]}],
                      "worst_input", "speedup", "verdict", "meets_threshold",
                      "timing_seed"},  # the inputs' seed, drawn afresh per evaluation
      "strict_success": bool,
      "failure": null | {"stage": "compliance"|"functional"|"performance"|"error",
                         "rule", "reason"},
      "reward": {"reward", "speedup", "functional_pass_rate", "compliant"},  # reward.json
      "isolation": {...}, "environment": {...},  # environment.environment()
      "seal": {"key", "mac"}
    }

Ratios are reference cost / candidate cost: above 1 means the candidate is faster.
A failure at stage "error" is the evaluation's own (a broken task, a reference
that fails, an isolation failure), never a verdict on the candidate.
A failure at stage "performance" with rule "inconclusive" is no verdict either:
the noise left a timing input's threshold undecided (`outcome`: exit status 3,
no reward, counted apart from failures by reports).

A result is only as good as the hands it passed through. The digests name
exactly what was judged (`tree_digest` of the task and of the candidate), and
the seal is an HMAC over the whole record under a key that only the account
running the evaluator can read (`seal_key`: never in a side's view). `report`
accepts a result only if its seal verifies and, where the files it names are
still there, their digests match: a result.json written by anyone else, or an
evaluated candidate edited afterwards, is turned away.
"""

from __future__ import annotations

import contextlib
import fnmatch
import hashlib
import hmac
import json
import math
import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

SCHEMA = "frontier-measure/result"
SCHEMA_VERSION = 3
# Version 1 lacks pairs, blocks and builds; version 2 the digests and the seal.
# Reports need none of them, but only sealed results are trusted (see `verify`).
READABLE_VERSIONS = (1, 2, 3)
# Files tools leave next to sources; never part of what is judged (the runners
# leave them out of a side's copy too).
DIGEST_IGNORED = ("__pycache__", "*.pyc", "*.pyo", ".pytest_cache", ".mypy_cache")


def new(task: dict[str, Any], candidate: Path, oracle: Path) -> dict[str, Any]:
    """A result before any stage has run: every runner starts from this, so
    an evaluation that breaks off still leaves a well-formed record."""
    import datetime as _dt

    return {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "task": task,
        "candidate": {"path": str(candidate), "is_oracle": candidate == oracle},
        "started_at": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "compliance": None,
        "functional": {"ran": False},
        "performance": {"ran": False},
        "strict_success": False,
        "failure": None,
    }


def tree_digest(root: str | Path) -> str:
    """sha256 over a directory as it would be judged: every file's relative
    path, executable bit and content, symbolic links by their target (never
    followed), in a fixed order; tool caches (DIGEST_IGNORED) left out."""
    root = Path(root)
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        keep = []
        for name in sorted(dirnames):
            if any(fnmatch.fnmatch(name, pat) for pat in DIGEST_IGNORED):
                continue
            if (Path(dirpath) / name).is_symlink():  # os.walk does not descend into them
                filenames.append(name)
            else:
                keep.append(name)
        dirnames[:] = keep
        for name in sorted(filenames):
            if any(fnmatch.fnmatch(name, pat) for pat in DIGEST_IGNORED):
                continue
            p = Path(dirpath) / name
            rel = p.relative_to(root).as_posix().encode()
            st = p.lstat()
            if stat.S_ISLNK(st.st_mode):
                h.update(b"L" + rel + b"\0" + os.readlink(p).encode() + b"\0")
            elif stat.S_ISREG(st.st_mode):
                h.update(b"F" + rel + b"\0" + (b"x" if st.st_mode & 0o111 else b"-"))
                with open(p, "rb") as f:
                    h.update(hashlib.file_digest(f, "sha256").digest())
            else:
                h.update(b"O" + rel + b"\0")  # a fifo or device: by name only, never opened
    return "sha256:" + h.hexdigest()


def state_dir() -> Path:
    """The evaluator's private state ($FM_STATE_DIR, else $XDG_STATE_HOME or
    ~/.local/state, /frontier-measure): created 0700, never in a side's view."""
    env = os.environ.get("FM_STATE_DIR")
    if env:
        d = Path(env)
    else:
        base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        d = Path(base) / "frontier-measure"
    d.mkdir(parents=True, exist_ok=True, mode=0o700)
    return d


def seal_key() -> bytes:
    """This account's sealing key, made on first use (0600). Results sealed
    under another key (another machine or account) do not verify here."""
    path = state_dir() / "seal.key"
    try:
        key = path.read_bytes()
    except FileNotFoundError:
        fd, tmp = tempfile.mkstemp(prefix=".seal.key.", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(os.urandom(32))
        try:
            os.link(tmp, path)  # first writer wins when two evaluators start at once
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp)
        key = path.read_bytes()
    if len(key) != 32:
        raise RuntimeError(f"{path}: not a frontier-measure seal key (remove it to make a new one)")
    st = path.stat()
    if st.st_uid != os.geteuid() or st.st_mode & 0o077:
        raise RuntimeError(f"{path}: must be owned by this account and readable by it alone")
    return key


def _canonical(result: dict[str, Any]) -> bytes:
    body = {k: v for k, v in result.items() if k != "seal"}
    return json.dumps(_clean(body), sort_keys=True, separators=(",", ":"),
                      allow_nan=False).encode()


def seal(result: dict[str, Any]) -> dict[str, Any]:
    """Add (or renew) the seal: an HMAC-SHA256 over the record without it."""
    key = seal_key()
    result["seal"] = {"key": hashlib.sha256(b"frontier-measure seal key id\0" + key).hexdigest()[:16],
                      "mac": hmac.new(key, _canonical(result), "sha256").hexdigest()}
    return result


def verify(result: dict[str, Any]) -> str | None:
    """Why a result cannot be trusted, or None: its seal must verify under
    this account's key, and the task and candidate it names, where they still
    exist, must be the files it judged."""
    s = result.get("seal")
    if not isinstance(s, dict) or not isinstance(s.get("mac"), str):
        return "not sealed (written by hand, or by a frontier-measure before version 3)"
    key = seal_key()
    key_id = hashlib.sha256(b"frontier-measure seal key id\0" + key).hexdigest()[:16]
    if s.get("key") != key_id:
        return "sealed under another key (another machine or account)"
    try:
        body = _canonical(result)
    except (TypeError, ValueError):
        return "seal does not match the record (edited after the evaluation)"
    if not hmac.compare_digest(s["mac"], hmac.new(key, body, "sha256").hexdigest()):
        return "seal does not match the record (edited after the evaluation)"
    for part in ("task", "candidate"):
        d = result.get(part) or {}
        path, digest = d.get("path"), d.get("digest")
        if isinstance(path, str) and isinstance(digest, str) and Path(path).is_dir() \
                and tree_digest(path) != digest:
            return f"the {part} at {path} changed after it was judged (digest mismatch)"
    return None


class UnsafeOutput(Exception):
    """The directory results were to go to could be written by someone else."""


def prepare_out(out: str | Path, *, not_inside: Sequence[Path] = ()) -> Path:
    """The directory results go to, made by the evaluator itself: an existing
    one is used only if it is a real directory (not a symbolic link) owned by
    this account and writable by it alone, and never one inside a directory
    the candidate controls (`not_inside`)."""
    out = Path(out)
    for base in not_inside:
        if out.resolve() == base.resolve() or base.resolve() in out.resolve().parents:
            raise UnsafeOutput(f"{out}: results may not go inside {base} (the candidate's files)")
    with contextlib.suppress(FileExistsError):
        out.mkdir(parents=True, mode=0o755)
    st = out.lstat()
    if stat.S_ISLNK(st.st_mode):
        raise UnsafeOutput(f"{out}: is a symbolic link; results go only to a real directory")
    if not stat.S_ISDIR(st.st_mode):
        raise UnsafeOutput(f"{out}: exists and is not a directory")
    if st.st_uid != os.geteuid():
        raise UnsafeOutput(f"{out}: owned by uid {st.st_uid}, not by this account "
                              f"(uid {os.geteuid()}); results go only to a directory it owns")
    if st.st_mode & 0o022:
        raise UnsafeOutput(f"{out}: writable by others (mode {stat.S_IMODE(st.st_mode):o}); "
                              "results go only to a directory no one else can write")
    return out


def write_result(result: dict[str, Any], path: str | Path) -> Path:
    """Seal a result and write it atomically."""
    return write_json(seal(result), path)


def reward(result: dict[str, Any]) -> dict[str, float]:
    """The flat map of numbers a Harbor verifier writes as reward.json."""
    perf = result.get("performance") or {}
    fun = result.get("functional") or {}
    speedup = perf.get("speedup")
    if speedup is None or (isinstance(speedup, float) and math.isnan(speedup)):
        speedup = 0.0
    rate = fun.get("pass_rate")
    return {
        "reward": 1.0 if result.get("strict_success") else 0.0,
        "speedup": float(speedup),
        "functional_pass_rate": float(rate) if rate is not None else 0.0,
        "compliant": 1.0 if (result.get("compliance") or {}).get("compliant") else 0.0,
    }


def _clean(value: Any) -> Any:
    """JSON has no NaN/inf: write them as null."""
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def write_json(data: Any, path: str | Path) -> Path:
    """Write JSON atomically: a reader sees the old file or the new one, never half."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(_clean(data), f, indent=1, allow_nan=False)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def load(path: str | Path) -> dict[str, Any]:
    data = json.loads(Path(path).read_text())
    if data.get("schema") != SCHEMA:
        raise ValueError(f"{path}: not a frontier-measure result")
    if data.get("schema_version") not in READABLE_VERSIONS:
        raise ValueError(f"{path}: result schema version {data.get('schema_version')} "
                         f"(this frontier-measure reads {', '.join(map(str, READABLE_VERSIONS))})")
    return data


# ---------------------------------------------------------------- the stages' sections


def failure(stage: str, rule: str, reason: str) -> dict[str, str]:
    return {"stage": stage, "rule": rule, "reason": reason}


def functional(items: list[Any], recorded: dict[str, Any], case_failures: dict[str, str],
               problems: list[Any], tolerance: Any) -> dict[str, Any]:
    """The functional section from the item comparison (diff.ItemResult list)."""
    passed = sum(i.passed for i in items)
    return {
        "ran": True,
        "passed": passed,
        "failed": len(items) - passed,
        "total": len(items),
        "excluded": len(recorded.get("excluded", {})),
        "pass_rate": passed / len(items) if items else None,
        "summary": f"{passed}/{len(items)} items passed",
        "case_failures": dict(case_failures),
        "problems": [{"case": p.case, "rule": p.rule, "reason": p.reason} for p in problems],
        "items": [i.to_dict() for i in items],
        "excluded_items": recorded.get("excluded", {}),
        "tolerance": {"float_rel": tolerance.rel, "float_abs": tolerance.abs},
    }


def _lower(d: dict[str, Any]) -> float:
    lb = d.get("lower_bound")
    return -math.inf if lb is None else float(lb)


def _fmt(x: float | None) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.2f}x"


def performance(timings: list[Any], threshold: float, cost: str,
                unit: str) -> tuple[dict[str, Any], dict[str, str] | None]:
    """The performance section from every timing input (runners.InputTiming),
    and the failure, if any. The worst input decides: every input's one-sided
    lower bound must exceed the threshold (an intersection-union test)."""
    inputs = [t.to_dict() for t in timings]
    perf: dict[str, Any] = {"ran": True, "cost": cost, "unit": unit, "threshold": threshold,
                            "inputs": inputs}
    broken = next((t for t in inputs if t["error"]), None)
    if broken is not None:
        perf.update(worst_input=broken["id"], speedup=None, verdict="violation",
                    meets_threshold=False)
        # A timed run whose output is wrong is a functional failure: the
        # timed runs are the ones that count, whatever the held-out cases said.
        stage = broken.get("error_stage") or "performance"
        rule = broken.get("error_rule") or ("timing-violation" if stage == "performance"
                                            else "timed-output-differs")
        return perf, failure(stage, rule, f"timing input '{broken['id']}': {broken['error']}")
    if not inputs:
        perf.update(worst_input=None, speedup=None, verdict=None, meets_threshold=False)
        return perf, failure("performance", "no-timing-inputs", "the task has no timing inputs")
    worst = min(inputs, key=_lower)
    meets = all(d["meets_threshold"] for d in inputs)
    perf.update(worst_input=worst["id"], speedup=worst["speedup"], verdict=worst["verdict"],
                meets_threshold=meets)
    if meets:
        return perf, None
    # An input shown below the threshold decides "no"; an input whose interval
    # still reaches above it (or that has none) decides nothing: the noise,
    # not the candidate, is the reason, and that is not a failure.
    shown = [d for d in inputs if not d["meets_threshold"] and not _open(d, threshold)]
    if not shown:
        open_ = [d for d in inputs if not d["meets_threshold"]]
        worst = min(open_, key=_lower)
        perf.update(worst_input=worst["id"], speedup=worst["speedup"], verdict="inconclusive")
        why = (worst.get("note") or
               f"interval {_fmt(worst['ci_low'])}..{_fmt(worst['ci_high'])} still straddles "
               f"the {threshold:g}x threshold after {worst.get('blocks')} blocks")
        return perf, failure(
            "performance", INCONCLUSIVE,
            f"timing input '{worst['id']}': undecided, the machine was too noisy ({why}; "
            f"speedup {_fmt(worst['speedup'])}): no verdict on the candidate, and no reward; "
            "re-run on a quieter machine")
    worst = min(shown, key=_lower)
    perf.update(worst_input=worst["id"], speedup=worst["speedup"], verdict=worst["verdict"])
    v = worst["verdict"]
    rule = {"slower": "slower", "indistinguishable": "no-speedup",
            "insufficient": "insufficient-data"}.get(v, "below-threshold")
    desc = {"slower": "slower than the reference",
            "indistinguishable": "no speedup: the difference is inside the noise",
            "insufficient": "too few blocks of rounds for any claim",
            }.get(v, f"not shown to be above {threshold:g}x")
    return perf, failure(
        "performance", rule,
        f"timing input '{worst['id']}': {desc} (speedup {_fmt(worst['speedup'])}, "
        f"95% CI {_fmt(worst['ci_low'])}..{_fmt(worst['ci_high'])}, threshold {threshold:g}x)")


# The rule of a performance stage that could not decide: the evaluation's
# outcome is "inconclusive" (exit status 3, no reward), never a "no".
INCONCLUSIVE = "inconclusive"


def _open(d: dict[str, Any], threshold: float) -> bool:
    """Whether an input's rounds leave the threshold undecided (perf.undecided)."""
    if d.get("verdict") == "insufficient" or d.get("ci_high") is None:
        return True
    return float(d["ci_high"]) > threshold


def outcome(result: dict[str, Any]) -> str:
    """"success", "failed", "inconclusive" (the noise decided nothing) or
    "error" (the evaluation's own failure): what reports count apart."""
    if result.get("strict_success"):
        return "success"
    f = result.get("failure") or {}
    if f.get("stage") == "error":
        return "error"
    if f.get("stage") == "performance" and f.get("rule") == INCONCLUSIVE:
        return "inconclusive"
    return "failed"
