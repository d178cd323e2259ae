"""End to end at package scale (tasks/package/textindex): operation scripts on
the public API, with the same three stages and the same failing kinds as at
module scale (tests/candidates/package)."""

from __future__ import annotations

import pytest

from eval_support import CANDIDATES, failure, quick_task, run

pytestmark = pytest.mark.slow
CAND = CANDIDATES / "package"


@pytest.fixture(scope="module")
def task(tmp_path_factory):
    return quick_task(tmp_path_factory.mktemp("eval-package"), "package", "textindex")


def test_oracle_is_a_strict_success(task):
    res = run(task, None)
    assert res["functional"]["failed"] == 0 and res["functional"]["total"] > 500
    assert res["strict_success"], res["failure"]
    assert all(i["verdict"] == "faster" for i in res["performance"]["inputs"])


def test_reference_against_itself_is_indistinguishable(task):
    for _attempt in range(3):  # see the module-scale test for why three runs
        res = run(task, task / "environment" / "workspace")
        assert res["functional"]["failed"] == 0
        verdicts = {i["verdict"] for i in res["performance"]["inputs"]}
        if verdicts == {"indistinguishable"}:
            break
    assert verdicts == {"indistinguishable"}
    assert failure(res) == ("performance", "no-speedup")


@pytest.mark.parametrize("kind,stage,rule", [
    ("wrong_value", "functional", "wrong-value"),
    ("wrong_message", "functional", "wrong-exception"),
    ("mutates", "functional", "mutated-argument"),
    ("forbidden_import", "compliance", "forbidden-import"),
    ("dynamic_import", "compliance", "escape-hatch"),
    ("slower", "performance", "slower"),
    ("caching", "performance", "timing-violation"),
])
def test_candidates_fail_for_the_right_reason(task, kind, stage, rule):
    res = run(task, CAND / kind)
    assert failure(res) == (stage, rule), res["failure"]
    if stage == "compliance":
        f = res["compliance"]["findings"][0]
        assert f["file"].startswith("textindex/") and f["line"] > 0
    if kind == "caching":
        assert res["functional"]["failed"] == 0
        assert "caching across calls" in res["failure"]["reason"]
    if kind == "mutates":
        assert res["failure"]["reason"].split(":")[0].endswith("/arg0")
