"""pytest plugin, registered as the `pytest11` entry point `frontier_measure`:
installing frontier-measure gives every test suite the `fm_compare` fixture.

    def test_new_parser_is_faster(fm_compare):
        fm_compare(lambda: parse_old(TEXT), lambda: parse_new(TEXT), threshold=1.5)

`fm_compare(reference, candidate, **options)` is frontier_measure.compare()
(callables, commands or sides; the same options) and returns its Comparison.
It fails the test, with the numbers and no traceback into the timer, when
`threshold=X` is given and the one-sided lower bound of reference/candidate
does not exceed X, or when `max_slowdown=F` is given and it does not exceed
1/F (the candidate not shown at most F times slower). At the end of the
session every comparison made is listed, one line each.

Nothing is imported from frontier_measure until a test asks for the fixture:
the plugin loads in every pytest session of the environment.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

_MADE = pytest.StashKey[list[tuple[str, str]]]()


def _describe(r: Any) -> str:
    s = r.summary

    def x(v: float | None) -> str:
        return "n/a" if v is None else f"{v:.3f}x"

    return (f"speedup {x(s.speedup)}, {s.confidence:.0%} interval {x(s.ci_low)} .. {x(s.ci_high)}, "
            f"one-sided lower bound {x(s.lower_bound)}, verdict {s.verdict} "
            f"({s.rounds} rounds in {s.blocks} blocks, cost {r.cost})")


@pytest.fixture
def fm_compare(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """Time a candidate against a reference (frontier_measure.compare) and fail
    the test when `threshold` or `max_slowdown` is not met."""
    made = request.config.stash.setdefault(_MADE, [])

    def run(reference: Any, candidate: Any, *, threshold: float | None = None,
            max_slowdown: float | None = None, **options: Any) -> Any:
        from frontier_measure import stats
        from frontier_measure.perf import compare

        if max_slowdown is not None and not max_slowdown >= 1.0:
            raise ValueError("max_slowdown is a factor of at least 1 (1.05: at most 5% slower)")
        r = compare(reference, candidate, threshold=threshold, **options)
        text = _describe(r)
        made.append((request.node.nodeid, text))
        request.node.user_properties.append(("fm_compare", r.summary.to_dict()))
        if threshold is not None and not r.meets_threshold:
            pytest.fail(f"fm_compare: the candidate is not shown at least {threshold:g}x faster "
                        f"than the reference: {text}", pytrace=False)
        if max_slowdown is not None and not stats.exceeds(r.summary.lower_bound, 1.0 / max_slowdown):
            pytest.fail(f"fm_compare: the candidate is not shown at most {max_slowdown:g}x slower "
                        f"than the reference: {text}", pytrace=False)
        return r

    return run


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    made = config.stash.get(_MADE, [])
    if not made:
        return
    terminalreporter.section("frontier-measure comparisons")
    for nodeid, text in made:
        terminalreporter.write_line(f"{nodeid}: {text}")
