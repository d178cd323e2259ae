"""Paired log-ratio statistics for reference-vs-candidate rounds.

Each round gives d = ln c(reference) - ln c(candidate); d > 0 means the
candidate was cheaper. Rounds come in mirror-image pairs (AB then BA, or BA then
AB), and the unit of analysis is the pair: u = (d_first + d_second) / 2. Within
a pair the two rounds are not independent (in A B B A the two B batches run
back to back and share the machine's state), and treating them as independent
made A/A comparisons claim a difference 6.7% of the time at a nominal 4.1%;
over pairs it was 2.0% at a nominal 2.1% (same data, bench/aa_false_positives).
Averaging a pair also cancels any first-or-second position effect exactly.

The estimate is exp(median u). Its interval comes from order statistics and the
binomial distribution (the sign test): it assumes only that pairs are
independent with a common median, not normality or symmetry, so it holds on
skewed timing data where t- and Wilcoxon intervals under-cover.

Claims of "at least X times faster" are margin tests: the one-sided lower
confidence bound of the median must exceed ln X. Comparing a point estimate with
X instead would pass half the time at a true ratio of exactly X.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import numpy as np

MIN_PAIRS = 6  # below this no exact 95% sign-test interval exists
MIN_ROUNDS = 2 * MIN_PAIRS
Verdict = Literal["faster", "slower", "indistinguishable", "insufficient"]
Samples = Sequence[float] | np.ndarray


@lru_cache(maxsize=4096)
def _binom_half_cdf(n: int, k: int) -> float:
    """P(B <= k) for B ~ Binomial(n, 1/2), computed exactly."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    total = sum(math.comb(n, i) for i in range(k + 1))
    return total / 2**n


def sign_rank(n: int, tail_alpha: float) -> int:
    """Largest 1-based rank k with P(B <= k-1) <= tail_alpha; 0 if none.

    The order statistic x_(k) is then a lower bound for the median with
    confidence at least 1 - tail_alpha (and x_(n-k+1) an upper bound).
    """
    k = 0
    while k < n and _binom_half_cdf(n, k) <= tail_alpha:
        k += 1
    return k


def sign_interval(d: Samples, confidence: float = 0.95) -> tuple[float, float] | None:
    """Two-sided distribution-free interval for the median of d, or None if n is too small."""
    x = np.sort(np.asarray(d, dtype=float))
    k = sign_rank(len(x), (1.0 - confidence) / 2.0)
    if k == 0:
        return None
    return float(x[k - 1]), float(x[len(x) - k])


def sign_lower_bound(d: Samples, confidence: float = 0.95) -> float | None:
    """One-sided lower confidence bound for the median of d, or None if n is too small."""
    x = np.sort(np.asarray(d, dtype=float))
    k = sign_rank(len(x), 1.0 - confidence)
    if k == 0:
        return None
    return float(x[k - 1])


def lag1_autocorrelation(d: Samples) -> float:
    x = np.asarray(d, dtype=float)
    if len(x) < 3:
        return 0.0
    c = x - x.mean()
    denom = float(np.dot(c, c))
    if denom == 0.0:
        return 0.0
    return float(np.dot(c[:-1], c[1:]) / denom)


def log_ratios(reference: Samples, candidate: Samples) -> np.ndarray:
    r = np.asarray(reference, dtype=float)
    c = np.asarray(candidate, dtype=float)
    if r.shape != c.shape:
        raise ValueError("reference and candidate need the same number of rounds")
    if np.any(r <= 0) or np.any(c <= 0):
        raise ValueError("costs must be positive to take logarithms")
    return np.log(r) - np.log(c)


@dataclass(frozen=True)
class Summary:
    """What the rounds say. Ratios are reference cost / candidate cost."""

    rounds: int
    confidence: float
    speedup: float
    ci_low: float | None
    ci_high: float | None
    lower_bound: float | None  # one-sided, at `confidence`
    verdict: Verdict
    threshold: float | None
    meets_threshold: bool | None  # margin test; None when no threshold asked
    autocorrelation: float
    warnings: list[str] = field(default_factory=list)

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
            "pairs": self.rounds // 2,
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
            "warnings": list(self.warnings),
        }


def pair_means(d: Samples) -> np.ndarray:
    """Mean log ratio of each mirror-image pair of rounds (0,1), (2,3), ...; a
    last round without its mirror is left out."""
    x = np.asarray(d, dtype=float)
    m = len(x) // 2
    return (x[0 : 2 * m : 2] + x[1 : 2 * m : 2]) / 2.0


def summarize(
    reference: Samples,
    candidate: Samples,
    *,
    confidence: float = 0.95,
    threshold: float | None = None,
) -> Summary:
    """Summarize per-round costs, given in round order (consecutive rounds form
    the AB/BA pairs). Deterministic: same samples, same numbers."""
    if not 0.5 < confidence < 1.0:
        raise ValueError("confidence must be in (0.5, 1)")
    if threshold is not None and threshold <= 0:
        raise ValueError("threshold must be positive")
    n = len(log_ratios(reference, candidate))
    d = pair_means(log_ratios(reference, candidate))
    pairs = len(d)
    warnings: list[str] = []
    if pairs == 0:
        return Summary(0, confidence, float("nan"), None, None, None, "insufficient",
                       threshold, None if threshold is None else False, 0.0,
                       [f"{n} round(s): no complete AB/BA pair was measured"])
    med = float(np.median(d))
    interval = sign_interval(d, confidence) if pairs >= MIN_PAIRS else None
    lower = sign_lower_bound(d, confidence) if pairs >= MIN_PAIRS else None
    rho = lag1_autocorrelation(d)
    if pairs < MIN_PAIRS:
        warnings.append(f"only {n} rounds ({pairs} AB/BA pairs): at least {MIN_ROUNDS} rounds "
                        f"({MIN_PAIRS} pairs) are needed for any claim")
        verdict: Verdict = "insufficient"
    else:
        assert interval is not None
        if interval[0] > 0:
            verdict = "faster"
        elif interval[1] < 0:
            verdict = "slower"
        else:
            verdict = "indistinguishable"
    if pairs >= 10 and abs(rho) > max(0.3, 2.0 / math.sqrt(pairs)):
        warnings.append(
            f"lag-1 autocorrelation {rho:+.2f} between pairs of rounds: they are not independent "
            "(drift, throttling or order effects); the interval may be too narrow"
        )
    meets: bool | None = None
    if threshold is not None:
        meets = lower is not None and lower > math.log(threshold)
    return Summary(
        rounds=n,
        confidence=confidence,
        speedup=math.exp(med),
        ci_low=math.exp(interval[0]) if interval else None,
        ci_high=math.exp(interval[1]) if interval else None,
        lower_bound=math.exp(lower) if lower is not None else None,
        verdict=verdict,
        threshold=threshold,
        meets_threshold=meets,
        autocorrelation=rho,
        warnings=warnings,
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
