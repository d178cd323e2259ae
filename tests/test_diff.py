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
