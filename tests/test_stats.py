"""The statistics on hand-computed samples."""

from __future__ import annotations

import math

import numpy as np
import pytest

from frontier_measure import stats


def test_binomial_tail_is_exact():
    assert stats._binom_half_cdf(10, 1) == pytest.approx(11 / 1024)
    assert stats._binom_half_cdf(10, 2) == pytest.approx(56 / 1024)
    assert stats._binom_half_cdf(5, 5) == 1.0
    assert stats._binom_half_cdf(5, -1) == 0.0


@pytest.mark.parametrize(
    ("n", "tail", "rank"),
    [
        (5, 0.025, 0),   # 2/32 > 0.05: no two-sided 95% interval from 5 rounds
        (6, 0.025, 1),   # 1/64 <= 0.025
        (10, 0.025, 2),  # P(B<=1) = 11/1024 <= 0.025 < P(B<=2) = 56/1024
        (10, 0.05, 2),   # one-sided: 56/1024 = 0.0547 > 0.05
        (20, 0.025, 6),  # textbook: the 6th and 15th order statistics
    ],
)
def test_sign_rank_matches_tables(n, tail, rank):
    assert stats.sign_rank(n, tail) == rank


def test_interval_uses_order_statistics():
    d = [0.9, 0.1, 0.5, 0.3, 0.7, 0.2, 0.8, 0.4, 0.6, 1.0]
    lo, hi = stats.sign_interval(d, 0.95)
    assert (lo, hi) == (0.2, 0.9)  # x(2), x(9)
    assert stats.sign_lower_bound(d, 0.95) == 0.2
    assert stats.sign_interval(d[:5]) is None


def test_pairs_are_the_unit():
    d = [0.2, 0.0, -0.1, 0.3, 0.5]
    assert list(stats.pair_means(d)) == pytest.approx([0.1, 0.1])  # the lone 5th round is left out


def test_summary_on_hand_computed_rounds():
    # The candidate is exactly twice as fast in every round but the last:
    # 12 pairs, 11 with mean ln 2 and one with mean ln 2 / 2.
    ref = [2.0] * 23 + [1.0]
    cand = [1.0] * 24
    s = stats.summarize(ref, cand, threshold=1.5)
    assert s.rounds == 24
    assert s.speedup == pytest.approx(2.0)
    # 12 pairs: the two-sided 95% interval is u(3)..u(10), the one-sided bound u(3).
    assert s.ci_low == pytest.approx(2.0) and s.ci_high == pytest.approx(2.0)
    assert s.verdict == "faster"
    assert s.meets_threshold is True
    # A margin test: at exactly the true ratio the claim must not pass.
    assert stats.summarize(ref, cand, threshold=2.0).meets_threshold is False


def test_verdicts():
    up = [1.1, 1.2, 1.15, 1.3, 1.12, 1.25, 1.18, 1.22, 1.05, 1.4, 1.11, 1.09]
    assert stats.summarize(up, [1.0] * 12).verdict == "faster"
    assert stats.summarize([1.0] * 12, up).verdict == "slower"
    mixed = [1.1, 0.95, 0.9, 1.02, 1.05, 0.97, 0.96, 1.01, 1.03, 0.99, 0.98, 1.0]
    assert stats.summarize(mixed, [1.0] * 12).verdict == "indistinguishable"


def test_refuses_claims_from_fewer_than_six_pairs():
    s = stats.summarize([2.0] * 11, [1.0] * 11, threshold=1.1)
    assert s.verdict == "insufficient"
    assert s.ci_low is None
    assert s.meets_threshold is False
    assert any("at least 12 rounds (6 pairs)" in w for w in s.warnings)
    assert stats.summarize([2.0] * 12, [1.0] * 12).verdict == "faster"


def test_deterministic():
    rng = np.random.default_rng(1)
    ref = rng.lognormal(0.1, 0.05, 50)
    cand = rng.lognormal(0.0, 0.05, 50)
    assert stats.summarize(ref, cand) == stats.summarize(ref, cand)


def test_flags_autocorrelated_rounds():
    # A slow drift makes consecutive rounds alike.
    d = np.linspace(-0.2, 0.2, 40)
    ref = np.exp(d)
    s = stats.summarize(ref, np.ones(40))
    assert s.autocorrelation > 0.8  # of the 20 pair means of a linear drift
    assert any("autocorrelation" in w for w in s.warnings)


def test_half_width_in_log_space():
    s = stats.summarize([1.01, 0.99, 1.0, 1.02, 0.98, 1.0, 1.01, 0.99, 1.03, 1.0, 0.97, 1.0],
                        [1.0] * 12)
    assert s.half_width == pytest.approx(max(math.log(s.speedup) - math.log(s.ci_low),
                                             math.log(s.ci_high) - math.log(s.speedup)))


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="positive"):
        stats.summarize([0.0] * 6, [1.0] * 6)
    with pytest.raises(ValueError, match="same number"):
        stats.summarize([1.0] * 6, [1.0] * 7)
