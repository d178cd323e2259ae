"""Metrics over a run's finished attempts, and the tables of its report.

A configuration is (agent, model, prompt mode, regime). Per configuration:

    PR_task   the task pass rate: the mean over tasks of the share of that task's
              attempts that passed the gate (no partial credit within an attempt;
              with one attempt per task, the share of tasks passed)
    solved    tasks passed by at least one attempt
    CE        cost per success: everything the configuration spent (every attempt, every
              generation: retried and interrupted ones too, from the gateway's rows) /
              number of passed attempts (undefined without a success)
    gate+     the same under gate+ (gate.py: the gate and a static check of the patched
              tree and an import smoke test): passed, PR_task, solved and CE
    steps, tokens in/out/cached, wall time: means per finished attempt; spent: the
              total and the total / finished attempts

Attempts whose outcome is `error` (the platform's own failure, not the agent's)
or `inconclusive` (the gate's timing too noisy to decide the threshold) are left
out of every rate and counted apart; a timeout is a failure.

McNemar's exact test compares two configurations on the tasks both ran: pairs
are (task, attempt number); only discordant pairs (one passed, the other not)
carry information, and under "no difference" each is equally likely to go either
way, so the two-sided p-value is a binomial tail with p = 1/2.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

EXCLUDED = ("error", "inconclusive")


@dataclass(frozen=True)
class Config:
    agent: str
    model: str
    prompt_mode: str
    regime: str

    def label(self) -> str:
        return f"{self.agent} / {self.model} / {self.prompt_mode} / {self.regime}"


def config_of(a: dict[str, Any]) -> Config:
    return Config(a["agent"], a["model"], a["prompt_mode"], a["regime"])


@dataclass
class Summary:
    config: Config
    tasks: int
    attempts: int
    passed: int
    errors: int
    pr_task: float | None
    solved: int
    cost: float
    ce: float | None
    steps: float | None
    tokens_in: float | None
    tokens_out: float | None
    tokens_cached: float | None
    wall_s: float | None
    # gate+ (the gate and the static check and the import smoke test, gate.py)
    passed_plus: int = 0
    pr_task_plus: float | None = None
    solved_plus: int = 0
    ce_plus: float | None = None
    finished: int = 0  # finished attempts, errors included (the divisor of spent/attempt)
    usage_source: str | None = None  # api | estimated | mixed (tokens counted by the gateway)

    @property
    def cost_per_attempt(self) -> float | None:
        return self.cost / self.finished if self.finished else None


def _mean(xs: Iterable[Any]) -> float | None:
    vals = [float(x) for x in xs if x is not None]
    return statistics.fmean(vals) if vals else None


def summarize(attempts: Sequence[dict[str, Any]]) -> list[Summary]:
    """One summary per configuration, over finished attempts; what was spent over
    every attempt of the configuration, finished or not, every generation of each
    (`spent`, from the gateway's rows; `cost` where an attempt has no `spent`)."""
    everyone: dict[Config, list[dict[str, Any]]] = {}
    for a in attempts:
        everyone.setdefault(config_of(a), []).append(a)
    out = []
    for cfg in sorted(everyone, key=lambda c: (c.agent, c.model, c.prompt_mode, c.regime)):
        rows = [a for a in everyone[cfg] if a.get("state") == "finished"]
        if not rows:
            continue
        counted = [a for a in rows if a.get("outcome") not in EXCLUDED]
        by_task: dict[str, list[int]] = {}
        plus: dict[str, list[int]] = {}
        for a in counted:
            by_task.setdefault(a["task"], []).append(int(bool(a.get("passed"))))
            plus.setdefault(a["task"], []).append(int(bool(a.get("passed_plus"))))
        passed = sum(sum(v) for v in by_task.values())
        passed_plus = sum(sum(v) for v in plus.values())
        cost = sum(spent(a) for a in everyone[cfg])
        sources = {a.get("usage_source") for a in everyone[cfg]} - {None}
        out.append(Summary(
            config=cfg, tasks=len(by_task), attempts=len(counted), passed=passed,
            errors=len(rows) - len(counted),
            pr_task=statistics.fmean(sum(v) / len(v) for v in by_task.values()) if by_task else None,
            solved=sum(1 for v in by_task.values() if any(v)),
            cost=cost, ce=cost / passed if passed else None,
            steps=_mean(a.get("steps") for a in counted),
            tokens_in=_mean(a.get("tokens_in") for a in counted),
            tokens_out=_mean(a.get("tokens_out") for a in counted),
            tokens_cached=_mean(a.get("tokens_cached") for a in counted),
            wall_s=_mean(a.get("wall_s") for a in counted),
            passed_plus=passed_plus,
            pr_task_plus=statistics.fmean(sum(v) / len(v) for v in plus.values()) if plus else None,
            solved_plus=sum(1 for v in plus.values() if any(v)),
            ce_plus=cost / passed_plus if passed_plus else None,
            finished=len(rows),
            usage_source=(sources.pop() if len(sources) == 1 else "mixed" if sources else None)))
    return out


def spent(a: dict[str, Any]) -> float:
    """What an attempt cost in all (every generation); its last generation's cost
    for rows from before `spent` was recorded."""
    x = a.get("spent")
    return float(x if x is not None else a.get("cost") or 0.0)


# ---------------------------------------------------------------- McNemar


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact p-value of McNemar's test from the discordant counts
    b (first passed, second failed) and c (the reverse)."""
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


@dataclass
class Paired:
    first: Config
    second: Config
    pairs: int
    both: int
    neither: int
    first_only: int  # b
    second_only: int  # c
    p_value: float
    discordant: list[str]  # "task #n: first|second"


def compare(attempts: Sequence[dict[str, Any]], first: Config, second: Config) -> Paired:
    """Paired outcomes of two configurations on (task, attempt number)."""
    def outcomes(cfg: Config) -> dict[tuple[str, int], bool]:
        return {(a["task"], int(a["number"])): bool(a.get("passed")) for a in attempts
                if a.get("state") == "finished" and a.get("outcome") not in EXCLUDED
                and config_of(a) == cfg}

    x, y = outcomes(first), outcomes(second)
    keys = sorted(set(x) & set(y))
    b = [k for k in keys if x[k] and not y[k]]
    c = [k for k in keys if y[k] and not x[k]]
    return Paired(first, second, len(keys), sum(x[k] and y[k] for k in keys),
                  sum(not x[k] and not y[k] for k in keys), len(b), len(c),
                  mcnemar_exact(len(b), len(c)),
                  [f"{t} #{n}: first" for t, n in b] + [f"{t} #{n}: second" for t, n in c])


def all_pairs(attempts: Sequence[dict[str, Any]]) -> list[Paired]:
    """Every two configurations that share tasks: the ones differing in one factor."""
    cfgs = sorted({config_of(a) for a in attempts if a.get("state") == "finished"},
                  key=lambda c: (c.agent, c.model, c.prompt_mode, c.regime))
    out = []
    for i, f in enumerate(cfgs):
        for s in cfgs[i + 1:]:
            differ = sum(getattr(f, k) != getattr(s, k)
                         for k in ("agent", "model", "prompt_mode", "regime"))
            if differ == 1:
                p = compare(attempts, f, s)
                if p.pairs:
                    out.append(p)
    return out


# ---------------------------------------------------------------- tables


def _f(x: float | None, fmt: str = "{:.2f}") -> str:
    return "n/a" if x is None else fmt.format(x)


def summary_table(summaries: Sequence[Summary]) -> tuple[list[str], list[list[str]]]:
    # Totals say so; every other figure is a mean per finished attempt.
    headers = ["agent", "model", "prompt mode", "regime", "tasks", "attempts", "passed",
               "PR_task", "solved", "passed gate+", "PR_task gate+", "solved gate+",
               "spent $ total", "spent $/attempt", "CE $/success", "CE gate+ $/success",
               "steps/attempt", "tokens in/attempt", "tokens out/attempt", "cached in/attempt",
               "tokens from", "wall s/attempt", "errors"]
    rows = [[s.config.agent, s.config.model, s.config.prompt_mode, s.config.regime,
             str(s.tasks), str(s.attempts), str(s.passed), _f(s.pr_task, "{:.1%}"),
             f"{s.solved}/{s.tasks}", str(s.passed_plus), _f(s.pr_task_plus, "{:.1%}"),
             f"{s.solved_plus}/{s.tasks}", f"{s.cost:.5f}", _f(s.cost_per_attempt, "{:.5f}"),
             _f(s.ce, "{:.5f}"), _f(s.ce_plus, "{:.5f}"), _f(s.steps, "{:.1f}"),
             _f(s.tokens_in, "{:.0f}"), _f(s.tokens_out, "{:.0f}"), _f(s.tokens_cached, "{:.0f}"),
             s.usage_source or "n/a", _f(s.wall_s, "{:.1f}"), str(s.errors)] for s in summaries]
    return headers, rows


def scale_table(attempts: Sequence[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """Performance tasks per scale: pass rate, steps and speedup per configuration."""
    groups: dict[tuple[str, Config], list[dict[str, Any]]] = {}
    for a in attempts:
        if a.get("state") == "finished" and a.get("kind") == "performance" \
                and a.get("outcome") not in EXCLUDED:
            groups.setdefault((a.get("scale") or "?", config_of(a)), []).append(a)
    headers = ["scale", "configuration", "attempts", "strict successes", "steps (mean)",
               "steps (median)", "median speedup"]
    rows = []
    for (scale, cfg), rows_ in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1].label())):
        steps = [a["steps"] for a in rows_ if a.get("steps") is not None]
        speed = [a["speedup"] for a in rows_ if a.get("speedup") is not None]
        rows.append([scale, cfg.label(), str(len(rows_)), str(sum(bool(a["passed"]) for a in rows_)),
                     _f(statistics.fmean(steps) if steps else None, "{:.1f}"),
                     _f(statistics.median(steps) if steps else None, "{:.0f}"),
                     _f(statistics.median(speed) if speed else None, "{:.2f}x")])
    return headers, rows


def pairs_table(pairs: Sequence[Paired]) -> tuple[list[str], list[list[str]]]:
    headers = ["first", "second", "pairs", "both passed", "neither", "first only",
               "second only", "McNemar exact p"]
    rows = [[p.first.label(), p.second.label(), str(p.pairs), str(p.both), str(p.neither),
             str(p.first_only), str(p.second_only), f"{p.p_value:.4g}"] for p in pairs]
    return headers, rows


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- regimes


def _rate(rows: Sequence[dict[str, Any]]) -> float | None:
    return sum(bool(a.get("passed")) for a in rows) / len(rows) if rows else None


def _counted(attempts: Sequence[dict[str, Any]]) -> dict[Config, list[dict[str, Any]]]:
    groups: dict[Config, list[dict[str, Any]]] = {}
    for a in attempts:
        if a.get("state") == "finished" and a.get("outcome") not in EXCLUDED:
            groups.setdefault(config_of(a), []).append(a)
    return groups


def _costs(rows: Sequence[dict[str, Any]]) -> tuple[float | None, float | None]:
    """(cost per attempt, cost per success) of some attempts."""
    if not rows:
        return None, None
    cost = sum(spent(a) for a in rows)  # every generation, as the summary counts it
    passed = sum(bool(a.get("passed")) for a in rows)
    return cost / len(rows), (cost / passed if passed else None)


def regime_table(attempts: Sequence[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """Per configuration: pass rate, what an attempt costs and what a success costs,
    and what the regime's tools cost (means per attempt; the tool servers' own
    measurements, the model's tokens are in the cost already)."""
    headers = ["configuration", "attempts", "pass rate", "spent $/attempt", "spent $/success",
               "tool calls", "tool s", "tool tokens", "LSP s", "LSP tokens", "index s",
               "delegated"]
    rows = []
    for cfg, rs in sorted(_counted(attempts).items(), key=lambda kv: kv[0].label()):
        per_attempt, per_success = _costs(rs)
        used = [a["delegated"] for a in rs if a.get("delegated") is not None]
        rows.append([cfg.label(), str(len(rs)), _f(_rate(rs), "{:.1%}"),
                     _f(per_attempt, "{:.4f}"), _f(per_success, "{:.4f}"),
                     _f(_mean(a.get("tool_calls") for a in rs), "{:.1f}"),
                     _f(_mean(a.get("tool_s") for a in rs), "{:.2f}"),
                     _f(_mean(a.get("tool_tokens") for a in rs), "{:.0f}"),
                     _f(_mean(a.get("lsp_s") for a in rs), "{:.2f}"),
                     _f(_mean(a.get("lsp_tokens") for a in rs), "{:.0f}"),
                     _f(_mean(a.get("index_s") for a in rs), "{:.2f}"),
                     f"{sum(used)}/{len(used)}" if used else "-"])
    return headers, rows


def delegation_table(attempts: Sequence[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """Regimes with a delegate tool: how often delegation was used, and the pass rate
    where it was requested (every attempt) against where it was used."""
    headers = ["configuration", "attempts", "delegated", "children", "pass rate (requested)",
               "pass rate (used)", "pass rate (not used)"]
    rows = []
    for cfg, rs in sorted(_counted(attempts).items(), key=lambda kv: kv[0].label()):
        rs = [a for a in rs if a.get("delegated") is not None]
        if not rs:
            continue
        used = [a for a in rs if a["delegated"]]
        unused = [a for a in rs if not a["delegated"]]
        rows.append([cfg.label(), str(len(rs)), f"{len(used)} ({len(used) / len(rs):.0%})",
                     str(sum(int(a.get("children") or 0) for a in rs)),
                     _f(_rate(rs), "{:.1%}"), _f(_rate(used), "{:.1%}"),
                     _f(_rate(unused), "{:.1%}")])
    return headers, rows


@dataclass
class RegimePair:
    paired: Paired
    rate_first: float | None
    rate_second: float | None
    cost_first: tuple[float | None, float | None]  # per attempt, per success
    cost_second: tuple[float | None, float | None]


def regime_pairs(attempts: Sequence[dict[str, Any]]) -> list[RegimePair]:
    """Every two configurations that differ only in their regime, on the (task,
    attempt number) pairs both ran: pass rates, discordant pairs with McNemar's
    exact test, cost per attempt and per success over those same pairs."""
    out = []
    for p in all_pairs(attempts):
        if p.first.regime == p.second.regime:
            continue

        def rows(cfg: Config, keys: set[tuple[str, int]]) -> list[dict[str, Any]]:
            return [a for a in _counted(attempts).get(cfg, [])
                    if (a["task"], int(a["number"])) in keys]

        keys_a = {(a["task"], int(a["number"])) for a in _counted(attempts).get(p.first, [])}
        keys_b = {(a["task"], int(a["number"])) for a in _counted(attempts).get(p.second, [])}
        a_rows, b_rows = rows(p.first, keys_a & keys_b), rows(p.second, keys_a & keys_b)
        out.append(RegimePair(p, _rate(a_rows), _rate(b_rows), _costs(a_rows), _costs(b_rows)))
    return out


def regime_pairs_table(pairs: Sequence[RegimePair]) -> tuple[list[str], list[list[str]]]:
    headers = ["first", "second", "pairs", "pass rate first", "pass rate second", "difference",
               "first only", "second only", "McNemar exact p", "spent $/attempt first, second",
               "spent $/success first, second"]
    rows = []
    for r in pairs:
        p = r.paired
        diff = None if r.rate_first is None or r.rate_second is None \
            else 100 * (r.rate_second - r.rate_first)
        rows.append([p.first.label(), p.second.label(), str(p.pairs), _f(r.rate_first, "{:.1%}"),
                     _f(r.rate_second, "{:.1%}"), _f(diff, "{:+.1f} pp"), str(p.first_only),
                     str(p.second_only), f"{p.p_value:.4g}",
                     f"{_f(r.cost_first[0], '{:.4f}')}, {_f(r.cost_second[0], '{:.4f}')}",
                     f"{_f(r.cost_first[1], '{:.4f}')}, {_f(r.cost_second[1], '{:.4f}')}"])
    return headers, rows
