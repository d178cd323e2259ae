"""Item-by-item comparison and its diffs."""

from __future__ import annotations

import numpy as np

from frontier_measure.diff import Tolerance, compare_items, differences, summary_line
from frontier_measure.observe import canonical as c


def test_equal_values_have_no_differences():
    assert differences(c([1, (2.5, "x")]), c([1, (2.5, "x")])) == []


def test_floats_are_bit_exact_without_tolerance():
    d = differences(c(0.1 + 0.2), c(0.3))
    assert d and "expected 0.30000000000000004, got 0.3" in d[0]
    assert differences(c(0.0), c(-0.0))
    assert differences(c(float("nan")), c(float("nan"))) == []


def test_tolerance_applies_to_floats_and_arrays():
    tol = Tolerance(rel=1e-9)
    assert differences(c(1.0), c(1.0 + 1e-12), tol) == []
    assert differences(c(1.0), c(1.001), tol)
    a = np.array([1.0, 2.0, np.nan])
    assert differences(c(a), c(a * (1 + 1e-13)), tol) == []
    assert differences(c(float("inf")), c(1e308), tol)


def test_paths_name_the_difference():
    d = differences(c({"a": [1, 2, 3]}), c({"a": [1, 5, 3]}))
    assert d == ["['a'][1]: expected 2, got 5"]
    d = differences(c([1, 2]), c([1, 2, 3]))
    assert d[0] == "value: expected 2 elements, got 3"
    d = differences(c((1, 2)), c([1, 2]))
    assert "expected (1, 2), got [1, 2]" in d[0]


def test_exception_type_and_message():
    d = differences(c(ValueError("a")), c(ValueError("b")))
    assert d == ["exception message: expected 'a', got 'b'"]
    d = differences(c(ValueError("a")), c(TypeError("a")))
    assert "ValueError" in d[0] and "TypeError" in d[0]
    d = differences(c(ValueError("a")), c(3))
    assert d


def test_dict_keys_and_order():
    assert "keys differ" in differences(c({"a": 1}), c({"b": 1}))[0]
    assert "different order" in differences(c({"a": 1, "b": 2}), c({"b": 2, "a": 1}))[0]


def test_array_dtype_and_shape():
    d = differences(c(np.zeros(3)), c(np.zeros(3, np.float32)))
    assert "float32" in d[0]


def test_compare_items_counts_and_missing_reason():
    golden = {"k1/0/result": c(1), "k1/0/stdout": "", "k2/0/result": c([1])}
    observed = {"k1/0/result": c(1), "k1/0/stdout": "hi\n"}
    res = compare_items(golden, observed, missing_reason={"k2": "timed out after 20 s"})
    assert summary_line(res) == "1/3 items passed"
    by = {r.id: r for r in res}
    assert by["k1/0/stdout"].diff == ["value: expected '', got 'hi\\n'"]
    assert by["k2/0/result"].diff == ["timed out after 20 s"]
    assert by["k2/0/result"].case == "k2"


def test_types_are_compared_exactly():
    # Python's == says True == 1 == 1.0; the comparison must not.
    assert differences(c(False), c(0))
    assert differences(c(True), c(1))
    assert differences(c(1), c(1.0))
    assert differences(c([0, 1]), c([False, True]))
    assert differences(c({False: "a"}), c({0: "a"}))
    assert differences(c({"k": 1}), c({"k": True}))


def test_subclasses_of_builtins_are_not_the_builtin():
    class Lazy(list):
        pass

    class Flag(int):
        pass

    assert differences(c([1, 2]), c(Lazy([1, 2])))
    assert differences(c(3), c(Flag(3)))


def test_mapping_items_are_compared_key_by_key():
    d = differences({"a": "file 644 1 x", "b": "dir 755"}, {"a": "file 644 2 y", "c": "dir 755"})
    assert d == ["added: c", "removed: b", "changed: a: expected file 644 1 x, got file 644 2 y"]


def test_multi_line_text_gets_a_unified_diff():
    d = differences("one\ntwo\nthree\n", "one\n2\nthree\n")
    assert "-two" in d and "+2" in d


def test_excluded_keys_of_a_mapping_item_are_left_out():
    golden = {"k/0/files": {"out.txt": "file 644 3 abc"}}
    observed = {"k/0/files": {"out.txt": "file 644 3 abc", "stamp": "file 644 9 zzz"}}
    res = compare_items(golden, observed, excluded=["k/0/files:stamp"])
    assert res[0].passed
    assert not compare_items(golden, observed)[0].passed


def test_items_compared_as_they_arrive_keep_only_their_differences():
    from frontier_measure.diff import Checked, checker

    golden = {"a/0/result": c([1, 2]), "a/0/stdout": "", "b/0/files": {"x": "file 1"}}
    keep = checker(golden, excluded=["b/0/files:t"])
    observed = {"a/0/result": keep("a/0/result", c([1, 3])),
                "a/0/stdout": keep("a/0/stdout", ""),
                "b/0/files": keep("b/0/files", {"x": "file 1", "t": "other"}),
                "z/0/result": keep("z/0/result", c(1))}  # no golden item: dropped
    assert all(isinstance(v, Checked) for v in observed.values())
    results = {r.id: r for r in compare_items(golden, observed, excluded=["b/0/files:t"])}
    assert results["a/0/result"].diff == ["[1]: expected 2, got 3"]
    assert results["a/0/stdout"].passed and results["b/0/files"].passed


def test_diffs_of_huge_values_stay_short_and_quick():
    import time

    t0 = time.process_time()
    n = 1_000_000
    d = differences(c(list(range(n))), c(list(range(1, n + 1))))
    assert len(d) == 9 and d[-1] == "... (more differences)"
    # Dicts of many keys: one pass each, never every key against every other.
    d = differences(c({i: 0 for i in range(200_000)}), c({i + 1: 0 for i in range(200_000)}))
    assert d and "keys differ (missing [0], unexpected [200000])" in d[0]
    # Texts of many lines: around their first difference only, lines cut.
    e = "".join(f"line {i}\n" for i in range(500_000))
    a = e.replace("line 250000\n", "line 250000" + "!" * 5000 + "\n")
    d = differences(e, a)
    assert "first differ at character 2,888,901, line 250,001" in d[0]
    assert d[1] == "@@ from line 249,999 @@"
    assert d[2:5] == [" line 249998", " line 249999", "-line 250000"]
    assert d[5].startswith("+line 250000!!!") and all(len(x) <= 400 for x in d)
    assert d[6] == " line 250001"
    msg = differences(c(ValueError("x" * 10**6)), c(ValueError("y" * 10**6)))
    assert len(msg) == 1 and len(msg[0]) <= 400
    # CPU time, not wall time: the machine's load does not count. Quadratic
    # steps would take hours; the linear ones take a few seconds.
    assert time.process_time() - t0 < 60


def test_deeply_nested_values_compare_without_a_crash():
    e = a = None
    for _ in range(1000):  # as deep as the decoder goes
        e, a = [e], [a]
    assert compare_items({"x": e}, {"x": a})[0].passed
    a[0] = 1
    assert not compare_items({"x": e}, {"x": a})[0].passed
