"""Paired log-ratio statistics for reference-vs-candidate rounds, over blocks.

Each round gives d = ln c(reference) - ln c(candidate); d > 0 means the
candidate was cheaper. Rounds come in mirror-image pairs (AB then BA, or BA
then AB) as the scheduler laid them out, and a pair is the smallest unit:
u = (d_first + d_second) / 2. Its two rounds are not independent (in A B B A
the two B batches run back to back and share the machine's state), and
averaging them cancels any first-or-second position effect exactly. Pairs are
taken from the schedule's own labels, never from positions in a list, so a
round without its mirror (an odd count, a plan in two stages) is left out
rather than paired with a stranger.

Pairs are grouped into *blocks*, and the block is the unit of the interval:

* a block is one pair of fresh worker processes (module and package scale):
  memory layout and start-up state make one process a few per cent faster or
  slower than another running the identical code, a random effect that rounds
  inside one process cannot average out. Only the spread between processes
  shows it, so the interval must be built from it;
* a block is a run of consecutive pairs (commands, callables): pairs close in
  time share the machine's load, so they are not independent, and an interval
  that treats them as such is too narrow when the load drifts (the batch-means
  method: means of consecutive batches are nearly independent).

A block's value is the median of its pair means (robust to a pair hit by a
load spike); the estimate is the mean of the block values with a Student t
interval over blocks (B - 1 degrees of freedom). Checked in bench/: A/A
comparisons called "different" at most at the nominal rate and known ratios
covered at 95%, on a quiet machine and under a load generator.

An interval after a pilot (rounds="auto": a pilot of blocks, then one
extension sized from the pilot's width) takes the wider of two standard
errors: the spread of all blocks, and the pilot's spread over the square root
of all blocks, with the pilot's degrees of freedom (Stein's two-stage rule,
exact for normal block values whatever the pilot decided). The first alone is too narrow on
average: a pilot stops when its spread happens to look small, and an extended
run replaces a spread that looked large by a fresh, smaller one, so the
spreads that decided never pay for the decision. Known 1.10x ratios were
covered in 92-94% of 100 trials that way (bench/known_ratio.py), and
simulated normal ones at the pilot sizes seen in 93.2-94.2%, against 94.9%
with the rule (tests/test_stats.py).

Claims of "at least X times faster" are margin tests: the one-sided lower
confidence bound must exceed ln X, strictly. Comparing a point estimate with X
instead would pass half the time at a true ratio of exactly X.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import numpy as np

# Below this no claim is made. With 5 blocks (t with 4 degrees of freedom) A/A
# comparisons under load were called different 7-7.5% of the time (bench/,
# 200 trials each, callables and commands); with 8 or more, 4-5.5%.
MIN_BLOCKS = 8
Verdict = Literal["faster", "slower", "indistinguishable", "insufficient"]
Samples = Sequence[float] | np.ndarray


# ---------------------------------------------------------------- Student t

def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with `df` degrees of freedom."""
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


@lru_cache(maxsize=1024)
def t_quantile(p: float, df: int) -> float:
    """The p-quantile of Student's t (p in (0.5, 1)), by bisection on t_cdf."""
    if not 0.5 <= p < 1.0 or df < 1:
        raise ValueError("t_quantile needs 0.5 <= p < 1 and df >= 1")
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2.0


# ---------------------------------------------------------------- rounds, pairs, blocks

def log_ratios(reference: Samples, candidate: Samples) -> np.ndarray:
    r = np.asarray(reference, dtype=float)
    c = np.asarray(candidate, dtype=float)
    if r.shape != c.shape:
        raise ValueError("reference and candidate need the same number of rounds")
    if np.any(r <= 0) or np.any(c <= 0):
        raise ValueError("costs must be positive to take logarithms")
    return np.log(r) - np.log(c)


def pair_means(d: Samples, pairs: Sequence[int]) -> dict[int, float]:
    """Mean log ratio of each complete pair (exactly two rounds with its label)."""
    members: dict[int, list[float]] = {}
    for value, p in zip(np.asarray(d, dtype=float), pairs, strict=True):
        members.setdefault(int(p), []).append(float(value))
    return {p: (v[0] + v[1]) / 2.0 for p, v in members.items() if len(v) == 2}


def block_values(d: Samples, pairs: Sequence[int], blocks: Sequence[int]) -> dict[int, float]:
    """Each block's median pair mean (blocks with no complete pair are left out)."""
    u = pair_means(d, pairs)
    block_of = {int(p): int(b) for p, b in zip(pairs, blocks, strict=True)}
    grouped: dict[int, list[float]] = {}
    for p, value in u.items():
        grouped.setdefault(block_of[p], []).append(value)
    return {b: float(np.median(v)) for b, v in sorted(grouped.items())}


def consecutive_blocks(rounds: int, pairs_per_block: int) -> tuple[list[int], list[int]]:
    """Pair and block labels for `rounds` rounds laid out as consecutive mirror
    pairs, `pairs_per_block` pairs to a block (a lone last round gets a pair
    of its own, which is then incomplete)."""
    pairs = [i // 2 for i in range(rounds)]
    return pairs, [p // max(1, pairs_per_block) for p in pairs]


@dataclass(frozen=True)
class Summary:
    """What the rounds say. Ratios are reference cost / candidate cost."""

    rounds: int
    pairs: int
    blocks: int
    confidence: float
    speedup: float
    ci_low: float | None
    ci_high: float | None
    lower_bound: float | None  # one-sided, at `confidence`
    verdict: Verdict
    threshold: float | None
    meets_threshold: bool | None  # margin test; None when no threshold asked
    autocorrelation: float  # lag-1, between consecutive block values
    warnings: list[str] = field(default_factory=list)
    pilot_blocks: int | None = None  # the blocks whose width sized the rest, if any
    note: str | None = None  # why the verdict is "insufficient" and what a claim would take

    @property
    def half_width(self) -> float | None:
        """Half-width of the interval in log space (0.01 is about +-1%)."""
        if self.ci_low is None or self.ci_high is None:
            return None
        m = math.log(self.speedup)
        return max(m - math.log(self.ci_low), math.log(self.ci_high) - m)

    def to_dict(self) -> dict[str, object]:
        return {
            "rounds": self.rounds,
            "pairs": self.pairs,
            "blocks": self.blocks,
            "confidence": self.confidence,
            "speedup": self.speedup,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "lower_bound": self.lower_bound,
            "verdict": self.verdict,
            "threshold": self.threshold,
            "meets_threshold": self.meets_threshold,
            "autocorrelation": self.autocorrelation,
            "half_width": self.half_width,
            "pilot_blocks": self.pilot_blocks,
            "note": self.note,
            "warnings": list(self.warnings),
        }


def lag1_autocorrelation(x: Samples) -> float:
    a = np.asarray(x, dtype=float)
    if len(a) < 3:
        return 0.0
    c = a - a.mean()
    denom = float(np.dot(c, c))
    if denom == 0.0:
        return 0.0
    return float(np.dot(c[:-1], c[1:]) / denom)


def exceeds(lower_bound: float | None, threshold: float) -> bool:
    """The margin test: a lower bound strictly above the threshold (a bound
    equal to it, to the last bit, is not a claim of 'at least')."""
    return lower_bound is not None and lower_bound > threshold


def summarize(
    reference: Samples,
    candidate: Samples,
    *,
    pairs: Sequence[int] | None = None,
    blocks: Sequence[int] | None = None,
    confidence: float = 0.95,
    threshold: float | None = None,
    pilot_blocks: int | None = None,
) -> Summary:
    """Summarize per-round costs. `pairs` and `blocks` label each round with
    the pair and block the schedule put it in; by default consecutive rounds
    are pairs and each pair is its own block. `pilot_blocks`: blocks labelled
    below it were a pilot whose interval decided how many blocks to run (see
    the module's docstring). Deterministic."""
    if not 0.5 < confidence < 1.0:
        raise ValueError("confidence must be in (0.5, 1)")
    if threshold is not None and threshold <= 0:
        raise ValueError("threshold must be positive")
    d = log_ratios(reference, candidate)
    n = len(d)
    if pairs is None or blocks is None:
        pairs, blocks = consecutive_blocks(n, 1)
    if len(pairs) != n or len(blocks) != n:
        raise ValueError("every round needs a pair and a block label")
    complete = pair_means(d, pairs)
    values = block_values(d, pairs, blocks)
    v = np.array(list(values.values()))
    b = len(v)
    warnings: list[str] = []
    if n - 2 * len(complete):
        warnings.append(f"{n - 2 * len(complete)} round(s) without their mirror round left out")
    if b == 0:
        return Summary(n, 0, 0, confidence, float("nan"), None, None, None, "insufficient",
                       threshold, None if threshold is None else False, 0.0,
                       [*warnings, "no complete AB/BA pair was measured"])
    est = float(v.mean())
    ci: tuple[float, float] | None = None
    lower: float | None = None
    rho = lag1_autocorrelation(v)
    staged = False  # whether a pilot's spread entered the interval
    if b < MIN_BLOCKS:
        warnings.append(f"only {b} block(s) of pairs: at least {MIN_BLOCKS} blocks are needed "
                        "for any claim")
        verdict: Verdict = "insufficient"
    else:
        # (spread, degrees of freedom) behind each candidate standard error
        spreads = [(float(v.std(ddof=1)), b - 1)]
        pilot = [x for k, x in values.items() if k < pilot_blocks] if pilot_blocks else []
        staged = 2 <= len(pilot) < b
        if staged:
            spreads.append((float(np.std(pilot, ddof=1)), len(pilot) - 1))
        two = max(t_quantile(1.0 - (1.0 - confidence) / 2.0, df) * sd
                  for sd, df in spreads) / math.sqrt(b)
        one = max(t_quantile(confidence, df) * sd for sd, df in spreads) / math.sqrt(b)
        ci = (est - two, est + two)
        lower = est - one
        verdict = "faster" if ci[0] > 0 else "slower" if ci[1] < 0 else "indistinguishable"
        if b >= 10 and abs(rho) > max(0.3, 2.0 / math.sqrt(b)):
            warnings.append(
                f"lag-1 autocorrelation {rho:+.2f} between blocks: they are not independent "
                "(drift, throttling or order effects); the interval may be too narrow")
    meets: bool | None = None
    if threshold is not None:
        meets = lower is not None and exceeds(lower, math.log(threshold))
    return Summary(
        rounds=n,
        pairs=len(complete),
        blocks=b,
        confidence=confidence,
        speedup=math.exp(est),
        ci_low=math.exp(ci[0]) if ci else None,
        ci_high=math.exp(ci[1]) if ci else None,
        lower_bound=math.exp(lower) if lower is not None else None,
        verdict=verdict,
        threshold=threshold,
        meets_threshold=meets,
        autocorrelation=rho,
        warnings=warnings,
        pilot_blocks=pilot_blocks if staged else None,
    )


def spread(values: Samples) -> float:
    """Robust relative spread: median absolute deviation / median."""
    x = np.asarray(values, dtype=float)
    if len(x) == 0:
        return 0.0
    m = float(np.median(x))
    if m == 0:
        return 0.0
    return float(np.median(np.abs(x - m)) / m)
