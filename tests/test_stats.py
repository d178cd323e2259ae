"""The statistics on hand-computed samples."""

from __future__ import annotations

import math

import numpy as np
import pytest

from frontier_measure import perf, stats


@pytest.mark.parametrize(
    ("p", "df", "expected"),
    [  # textbook table values
        (0.975, 1, 12.706), (0.975, 4, 2.776), (0.975, 5, 2.571), (0.975, 9, 2.262),
        (0.95, 4, 2.132), (0.95, 9, 1.833), (0.975, 30, 2.042), (0.975, 1000, 1.962),
    ],
)
def test_t_quantiles_match_tables(p, df, expected):
    assert stats.t_quantile(p, df) == pytest.approx(expected, abs=6e-4)


def test_t_cdf_is_symmetric():
    assert stats.t_cdf(0.0, 7) == pytest.approx(0.5)
    assert stats.t_cdf(-1.3, 7) == pytest.approx(1 - stats.t_cdf(1.3, 7))


def test_pairs_come_from_the_labels_not_the_positions():
    d = [0.2, 0.0, -0.1, 0.3, 0.5]
    # Consecutive labels: (0,1) and (2,3) pair up, the lone fifth round does not.
    assert stats.pair_means(d, [0, 0, 1, 1, 2]) == pytest.approx({0: 0.1, 1: 0.1})
    # A plan in two stages: round 2 has no mirror, so it never pairs with round 3.
    assert stats.pair_means(d, [0, 0, 1, 2, 2]) == pytest.approx({0: 0.1, 2: 0.4})


def test_block_value_is_the_median_of_its_pairs():
    # Three pairs in block 0 (means 0.1, 0.2, 3.0: a spike), one in block 1.
    d = [0.1, 0.1, 0.2, 0.2, 3.0, 3.0, 0.5, 0.7]
    values = stats.block_values(d, [0, 0, 1, 1, 2, 2, 3, 3], [0, 0, 0, 0, 0, 0, 1, 1])
    assert values == pytest.approx({0: 0.2, 1: 0.6})


def test_summary_on_hand_computed_blocks():
    # Eight blocks of one pair each, every block value ln 2: exact.
    ref, cand = [2.0] * 16, [1.0] * 16
    s = stats.summarize(ref, cand, threshold=1.5)
    assert (s.rounds, s.pairs, s.blocks) == (16, 8, 8)
    assert s.speedup == pytest.approx(2.0)
    assert s.ci_low == pytest.approx(2.0) and s.ci_high == pytest.approx(2.0)
    assert s.verdict == "faster" and s.meets_threshold is True
    # A margin test: at exactly the true ratio the claim does not pass.
    assert stats.summarize(ref, cand, threshold=2.0).meets_threshold is False


def test_interval_is_student_t_over_block_values():
    # Block values (log) 0.1 .. 0.8: mean 0.45, sd 0.24495; t(7) quantiles.
    d = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    ref = np.exp(np.repeat(d, 2))
    s = stats.summarize(ref, np.ones(16))
    se = 0.244949 / math.sqrt(8)
    assert math.log(s.speedup) == pytest.approx(0.45)
    assert math.log(s.ci_low) == pytest.approx(0.45 - 2.364624 * se, rel=1e-4)
    assert math.log(s.ci_high) == pytest.approx(0.45 + 2.364624 * se, rel=1e-4)
    assert math.log(s.lower_bound) == pytest.approx(0.45 - 1.894579 * se, rel=1e-4)


def test_blocks_are_the_unit_of_the_interval():
    # The same 32 pairs, once as 32 blocks, once as 8 blocks of 4 pairs whose
    # levels differ (a process-level effect): the second interval is wider.
    rng = np.random.default_rng(3)
    level = np.repeat(rng.normal(0, 0.05, 8), 8)
    d = level + rng.normal(0, 0.005, 64)
    ref = np.exp(d)
    pairs = [i // 2 for i in range(64)]
    fine = stats.summarize(ref, np.ones(64), pairs=pairs, blocks=pairs)
    coarse = stats.summarize(ref, np.ones(64), pairs=pairs, blocks=[p // 4 for p in pairs])
    assert coarse.blocks == 8 and fine.blocks == 32
    assert coarse.half_width > 2 * fine.half_width


def test_verdicts():
    up = [1.1, 1.2, 1.15, 1.3, 1.12, 1.25, 1.18, 1.22, 1.05, 1.4, 1.11, 1.09, 1.2, 1.1, 1.3,
          1.15]
    assert stats.summarize(up, [1.0] * 16).verdict == "faster"
    assert stats.summarize([1.0] * 16, up).verdict == "slower"
    mixed = [1.1, 0.95, 0.9, 1.02, 1.05, 0.97, 0.96, 1.01, 1.03, 0.99, 0.98, 1.0, 1.02, 0.98,
             1.0, 1.01]
    assert stats.summarize(mixed, [1.0] * 16).verdict == "indistinguishable"


def test_refuses_claims_from_too_few_blocks():
    s = stats.summarize([2.0] * 15, [1.0] * 15, threshold=1.1)  # 7 complete pairs
    assert s.verdict == "insufficient"
    assert s.ci_low is None
    assert s.meets_threshold is False
    assert any(f"at least {stats.MIN_BLOCKS} blocks" in w for w in s.warnings)
    assert any("without their mirror" in w for w in s.warnings)
    assert stats.summarize([2.0] * 16, [1.0] * 16).verdict == "faster"


def test_deterministic():
    rng = np.random.default_rng(1)
    ref = rng.lognormal(0.1, 0.05, 50)
    cand = rng.lognormal(0.0, 0.05, 50)
    assert stats.summarize(ref, cand) == stats.summarize(ref, cand)


def test_flags_autocorrelated_blocks():
    d = np.linspace(-0.2, 0.2, 40)  # a slow drift makes consecutive blocks alike
    s = stats.summarize(np.exp(d), np.ones(40))
    assert s.autocorrelation > 0.8
    assert any("autocorrelation" in w for w in s.warnings)


def test_half_width_in_log_space():
    s = stats.summarize([1.01, 0.99, 1.0, 1.02, 0.98, 1.0, 1.01, 0.99, 1.03, 1.0, 0.97, 1.0,
                         1.02, 0.99, 1.0, 1.01], [1.0] * 16)
    assert s.half_width == pytest.approx(max(math.log(s.speedup) - math.log(s.ci_low),
                                             math.log(s.ci_high) - math.log(s.speedup)))


def test_exceeds_is_strict():
    assert stats.exceeds(1.5, 1.5) is False
    assert stats.exceeds(math.nextafter(1.5, 2.0), 1.5) is True
    assert stats.exceeds(None, 1.0) is False


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="positive"):
        stats.summarize([0.0] * 6, [1.0] * 6)
    with pytest.raises(ValueError, match="same number"):
        stats.summarize([1.0] * 6, [1.0] * 7)
    with pytest.raises(ValueError, match="label"):
        stats.summarize([1.0] * 6, [1.0] * 6, pairs=[0, 0, 1], blocks=[0, 0, 0])


def _blocks_as_rounds(values):
    """Rounds whose pairs (one per block) have the given log ratios."""
    d = np.repeat(np.asarray(values, dtype=float), 2)
    labels = [i // 2 for i in range(len(d))]
    return np.exp(d), np.ones(len(d)), labels


def test_a_wide_pilot_keeps_the_interval_wide():
    # A pilot of 8 widely spread blocks, then 24 tight ones: the tight blocks
    # alone would give a narrow interval, but the pilot's spread sized them.
    pilot = [0.05, -0.05, 0.04, -0.04, 0.06, -0.06, 0.03, -0.03]
    ref, cand, labels = _blocks_as_rounds(pilot + [0.001, -0.001] * 12)
    plain = stats.summarize(ref, cand, pairs=labels, blocks=labels)
    staged = stats.summarize(ref, cand, pairs=labels, blocks=labels, pilot_blocks=8)
    sd = float(np.std(pilot, ddof=1))
    expected = stats.t_quantile(0.975, 7) * sd / math.sqrt(32)
    assert staged.half_width == pytest.approx(expected)
    assert staged.half_width > plain.half_width
    assert staged.speedup == plain.speedup  # the estimate is every block's mean
    assert staged.lower_bound < plain.lower_bound
    assert staged.pilot_blocks == 8 and plain.pilot_blocks is None


def test_a_tight_pilot_changes_nothing_and_a_pilot_of_everything_is_no_pilot():
    rng = np.random.default_rng(3)
    values = list(rng.normal(0.0, 0.001, 8)) + list(rng.normal(0.0, 0.05, 24))
    ref, cand, labels = _blocks_as_rounds(values)
    plain = stats.summarize(ref, cand, pairs=labels, blocks=labels)
    assert stats.summarize(ref, cand, pairs=labels, blocks=labels, pilot_blocks=8).ci_low == \
        plain.ci_low
    whole = stats.summarize(ref, cand, pairs=labels, blocks=labels, pilot_blocks=32)
    assert whole.ci_low == plain.ci_low and whole.pilot_blocks is None


def _two_stage_coverage(pilot_aware: bool, trials: int = 3000) -> float:
    """perf.run_blocks' rule on normal block values (true log ratio 0): a
    pilot of 8 blocks stops when its half-width is within 1%, else runs the
    blocks that twice its width predicts. The spread per block is where the
    bench's commands sit (pilot half-width 0.8-1.3%)."""
    rng = np.random.default_rng(20261202)
    covered = 0
    for _ in range(trials):
        sigma = rng.uniform(0.009, 0.016)
        values = list(rng.normal(0.0, sigma, 8))
        ref, cand, labels = _blocks_as_rounds(values)
        s = stats.summarize(ref, cand, pairs=labels, blocks=labels)
        if s.half_width > 0.01:
            total = perf.blocks_for_precision(8, s.half_width, 0.01)
            ref, cand, labels = _blocks_as_rounds(values + list(rng.normal(0.0, sigma, total - 8)))
            s = stats.summarize(ref, cand, pairs=labels, blocks=labels,
                                pilot_blocks=8 if pilot_aware else None)
        covered += s.ci_low <= 1.0 <= s.ci_high
    return covered / trials


def test_the_two_stage_interval_covers_at_its_level():
    # Over 40,000 trials the pilot-aware rule covers 94.9%, and the same rule
    # without the pilot's spread about 93% (the defect bench/known_ratio.py
    # showed: 92-94% of 100 trials). Seeded, so the figures are fixed; 3,000
    # trials are +-0.4% of Monte Carlo error (one standard error).
    aware, unaware = _two_stage_coverage(pilot_aware=True), _two_stage_coverage(pilot_aware=False)
    assert aware >= 0.94
    assert unaware <= aware - 0.01
