"""The pytest plugin: installing frontier-measure gives a test suite the
fm_compare fixture through the pytest11 entry point (no import, no conftest),
and a threshold not met fails the test with the numbers. Verdicts on callables
of a tenfold ratio and on identical callables, never timed assertions."""

from __future__ import annotations

from importlib.metadata import entry_points

pytest_plugins = ["pytester"]

SUITE = '''
def work(n):
    return lambda: sum(range(n))

def test_faster(fm_compare):
    r = fm_compare(work(40000), work(4000), threshold=2, rounds=16)
    assert r.verdict == "faster"

def test_not_three_times_faster(fm_compare):
    fm_compare(work(4000), work(4000), threshold=3, rounds=16)

def test_much_slower(fm_compare):
    fm_compare(work(4000), work(40000), max_slowdown=1.5, rounds=16)

def test_commands_too(fm_compare):
    fm_compare("sleep 0.03", "sleep 0.01", rounds=16, warmup=0, max_slowdown=1.05)
'''


def test_the_entry_point_is_registered():
    found = [e for e in entry_points(group="pytest11") if e.name == "frontier_measure"]
    assert [e.value for e in found] == ["frontier_measure.pytest_plugin"]


def test_fm_compare_passes_and_fails_with_a_clear_message(pytester):
    pytester.makepyfile(test_timing=SUITE)
    # A fresh interpreter: the fixture comes from the installed entry point alone.
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-rf")
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines([
        "fm_compare: the candidate is not shown at least 3x faster than the reference: "
        "speedup *, 95% interval * .. *, one-sided lower bound *, verdict * "
        "(16 rounds in 8 blocks, cost wall)",
        "fm_compare: the candidate is not shown at most 1.5x slower than the reference: "
        "*verdict slower*",
    ])
    result.stdout.fnmatch_lines([
        "FAILED test_timing.py::test_not_three_times_faster - Failed: fm_compare: *",
        "FAILED test_timing.py::test_much_slower - Failed: fm_compare: *",
    ])
    # The timer's own frames are not shown: the message is the failure.
    assert "perf.py" not in result.stdout.str()
    result.stdout.fnmatch_lines(["*frontier-measure comparisons*",
                                 "test_timing.py::test_faster: speedup *"])
