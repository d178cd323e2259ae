"""Held-out cases and timing inputs for the statistics task (CPython 3.11's statistics as
statistics_src).

Fractions and Decimals cannot cross to a side as values: a case builds them there from
strings with the module's own names, `groupby(strings, Fraction)` read into a dict, whose
keys are the numbers in order (so each list holds distinct values; `+` and `*` on lists
repeat them).
"""

import math
import random

NAN = float("nan")
INF = float("inf")


def _nums(name, ctor, strings):
    """Ops keeping under NAME the list of ctor(s) for each of STRINGS (distinct values)."""
    return [{"get": ctor, "as": name + "_t", "observe": False},
            {"call": "groupby", "args": [list(strings), "$" + name + "_t"],
             "as": name + "_g", "observe": False},
            {"op": "dict", "args": ["$" + name + "_g"], "as": name + "_d", "observe": False},
            {"op": "list", "args": ["$" + name + "_d"], "as": name, "observe": False}]


def _one(name, ctor, text):
    return {"call": ctor, "args": [text], "as": name, "observe": False}


def _call(cid, covers, fn, *args, **kw):
    return {"id": cid, "covers": covers, "call": fn, "args": list(args), "kwargs": kw}


def _on(cid, covers, build, calls):
    """A case that builds values (BUILD ops), then makes each call of CALLS:
    (fn, args, kwargs) with "$name" arguments."""
    ops = list(build)
    for fn, args, kw in calls:
        ops.append({"call": fn, "args": list(args), "kwargs": dict(kw)})
    return {"id": cid, "covers": covers, "ops": ops}


def _fracs(rng, n, top=60, den=12):
    """N strings p/q of distinct rational values."""
    from fractions import Fraction
    seen, out = set(), []
    while len(out) < n:
        p, q = rng.randint(-top, top), rng.randint(1, den)
        if Fraction(p, q) not in seen:
            seen.add(Fraction(p, q))
            out.append(f"{p}/{q}")
    return out


def _decs(rng, n, places=4, top=10**5):
    from decimal import Decimal
    seen, out = set(), []
    while len(out) < n:
        d = Decimal(rng.randint(-top, top)).scaleb(-rng.randint(0, places))
        if d in seen:
            continue
        seen.add(d)
        out.append(str(d))
    return out


def _floats(rng, n, kind):
    if kind == "gauss":
        return [rng.gauss(50.0, 20.0) for _ in range(n)]
    if kind == "wide":
        return [rng.uniform(0.5, 2.0) * 10.0 ** rng.randint(-30, 30) * rng.choice((1, -1))
                for _ in range(n)]
    if kind == "positive":
        return [rng.uniform(0.1, 500.0) for _ in range(n)]
    if kind == "short":
        return [round(rng.uniform(-100, 100), 2) for _ in range(n)]
    raise ValueError(kind)


AVERAGES = ["mean", "fmean", "geometric_mean", "harmonic_mean", "median", "median_low",
            "median_high", "median_grouped", "mode", "multimode"]
SPREAD = ["pvariance", "variance", "pstdev", "stdev"]
COVERS = {"mean": "mean", "fmean": "fmean", "geometric_mean": "geometric-mean",
          "harmonic_mean": "harmonic-mean", "median": "medians", "median_low": "medians",
          "median_high": "medians", "median_grouped": "median-grouped", "mode": "modes",
          "multimode": "modes", "pvariance": "variance", "variance": "variance",
          "pstdev": "stdev", "stdev": "stdev", "quantiles": "quantiles"}


def _all(cid, data, fns=AVERAGES + SPREAD, extra=()):
    covers = sorted({COVERS[f] for f in fns} | set(extra))
    return {"id": cid, "covers": covers,
            "ops": [{"call": f, "args": [data]} for f in fns]}


def _all_on(cid, build, name, fns=AVERAGES + SPREAD, extra=()):
    covers = sorted({COVERS[f] for f in fns} | set(extra))
    return {"id": cid, "covers": covers,
            "ops": list(build) + [{"call": f, "args": ["$" + name]} for f in fns]}


def cases():
    rng = random.Random(20230211)
    out = []
    # ---- plain data: every average and spread on the same data
    out += [
        _all("ints-small", [1, 2, 2, 3, 4, 7, 9]),
        _all("ints-even", [4, 1, 3, 2, 8, 6]),
        _all("ints-negative", [-5, 3, -1, 0, 2, -5, 8, 8]),
        _all("ints-big", [10**30 + 1, 10**30 + 3, 10**30 + 3, 3 * 10**29, 7 * 10**30]),
        _all("floats-doc", [2.75, 1.75, 1.25, 0.25, 0.5, 1.25, 3.5]),
        _all("floats-tenths", [0.1, 0.2, 0.3, 0.1, 0.7, 0.2]),
        _all("floats-cancel", [1e50, 1.0, -1e50] * 10),
        _all("floats-wide", _floats(random.Random(3), 40, "wide")),
        _all("floats-huge", [1.5e308, 1.7e308, 1.0e308, 1.6e308]),
        _all("floats-tiny", [5e-324, 1e-320, 2.5e-310, 1e-300]),
        _all("floats-zeros", [0.0, -0.0, 0.0]),
        _all("floats-zero-and-tiny", [0.0, 3e-200, 0.0, 1.5]),
        _all("floats-integral", [1e22, 3e22, 2e22, 4.0]),
        _all("floats-gauss", _floats(random.Random(4), 60, "gauss")),
        _all("floats-short", _floats(random.Random(5), 25, "short")),
        _all("mixed-int-float", [1, 2.5, 3, 4.25, 2]),
        _all("bools", [True, False, True, True]),
        _all("bools-ints", [True, 2, False, 3]),
        _all("single-int", [7]),
        _all("single-float", [2.5]),
        _all("two-floats", [1.0, 4.0]),
        _all("tuple-data", (3.5, 1.25, 2.0, 8.0)),
        _all("negative-floats", [-1.5, -2.25, -0.5]),
        _all("nan", [1.0, NAN, 3.0]),
        _all("nan-first", [NAN, 1.0, 2.0, 3.0]),
        _all("inf", [1.0, INF, 2.0]),
        _all("minus-inf", [-INF, 2.0, 3.0]),
        _all("inf-both", [INF, 1.0, -INF]),
        _all("int-and-inf", [1, INF, 5]),
        _all("empty", []),
        _all("strings", ["a", "b", "b", "c"]),
        _all("none", [None, None]),
    ]
    # ---- Fractions and Decimals
    fr = _nums("fr", "Fraction", ["3/7", "1/21", "5/3", "1/3"])
    out.append(_all_on("fractions-doc", fr, "fr"))
    fr2 = _nums("fr", "Fraction", _fracs(random.Random(6), 30))
    out.append(_all_on("fractions-random", fr2, "fr"))
    fr3 = _nums("fr", "Fraction", ["1/4", "5/4", "1/2", "-7/8"])
    out.append(_all_on("fractions-negative", fr3, "fr"))
    fr4 = _nums("fr", "Fraction", ["2", "6", "-4"])
    out.append(_all_on("fractions-integral", fr4, "fr"))
    fr5 = _nums("fr", "Fraction", ["1/6"])
    out.append(_all_on("fraction-single", fr5, "fr"))
    de = _nums("de", "Decimal", ["0.5", "0.75", "0.625", "0.375"])
    out.append(_all_on("decimals-doc", de, "de"))
    de2 = _nums("de", "Decimal", ["27.5", "30.25", "34.5", "41.75", "30.2500001"])
    out.append(_all_on("decimals-var", de2, "de"))
    de3 = _nums("de", "Decimal", _decs(random.Random(7), 30))
    out.append(_all_on("decimals-random", de3, "de"))
    de4 = _nums("de", "Decimal", ["1E+5", "3E+4", "2.5E+3", "7E+5"])
    out.append(_all_on("decimals-exponents", de4, "de"))
    de5 = _nums("de", "Decimal", ["0.1375", "0.2108", "0.3061", "0.0419", "-0.0000001"])
    out.append(_all_on("decimals-precise", de5, "de"))
    de6 = _nums("de", "Decimal", ["1", "NaN", "3"])
    out.append(_all_on("decimals-nan", de6, "de"))
    de7 = _nums("de", "Decimal", ["1", "Infinity", "3"])
    out.append(_all_on("decimals-inf", de7, "de"))
    # a signalling NaN cannot be hashed (a dict key): repeat() puts it in a list
    de8 = _nums("de", "Decimal", ["2", "3"]) + [
        _one("sn", "Decimal", "sNaN"),
        {"call": "repeat", "args": ["$sn", 1], "as": "snr", "observe": False},
        {"op": "list", "args": ["$snr"], "as": "snl", "observe": False},
        {"op": "+", "args": ["$de", "$snl"], "as": "ds", "observe": False}]
    out.append(_all_on("decimals-snan", de8, "ds"))
    de9 = _nums("de", "Decimal", ["1.23456789012345678901234567890123", "2", "3.000000000001"])
    out.append(_all_on("decimals-long", de9, "de"))
    de10 = _nums("de", "Decimal", ["0.0", "-1.50"]) + [
        {"op": "*", "args": ["$de", 2], "as": "de2", "observe": False}]
    out.append(_all_on("decimals-zeros", de10, "de2"))
    for k, pair in enumerate([["0", "1"], ["1", "2"], ["0", "0.1"], ["3", "7"]]):
        out.append(_all_on(f"decimals-pair-{k}", _nums("de", "Decimal", pair), "de", SPREAD))
    dc = _nums("de", "Decimal", ["2.50"]) + [
        {"op": "*", "args": ["$de", 3], "as": "dc", "observe": False}]
    out.append(_all_on("decimals-constant", dc, "dc", SPREAD + ["mean", "median"]))
    dz = _nums("de", "Decimal", ["0E-1000000", "1.5", "0E+999", "-2"])
    out.append(_all_on("decimals-far-zeros", dz, "de", SPREAD + ["mean", "quantiles"]))
    de11 = _nums("de", "Decimal", ["1E+400", "2E-400", "3"])
    out.append(_all_on("decimals-far", de11, "de", SPREAD + ["mean", "harmonic_mean"]))
    # repeated values (lists concatenated and repeated)
    rep = _nums("fr", "Fraction", ["1/2", "2/3", "5/6"]) + [
        {"op": "*", "args": ["$fr", 3], "as": "fr3", "observe": False},
        {"op": "[:]", "args": ["$fr3", 0, 7], "as": "frr", "observe": False}]
    out.append(_all_on("fractions-repeated", rep, "frr"))
    # mixed numeric types
    mix = (_nums("fr", "Fraction", ["1/3", "2/3"]) + _nums("de", "Decimal", ["0.5", "1.5"])
           + [{"op": "+", "args": ["$fr", [1, 2.0]], "as": "ff", "observe": False},
              {"op": "+", "args": ["$fr", "$de"], "as": "fd", "observe": False},
              {"op": "+", "args": ["$de", [1, 3]], "as": "di", "observe": False},
              {"op": "+", "args": ["$de", [1.5]], "as": "dfl", "observe": False},
              {"op": "+", "args": [[2.5], "$de"], "as": "fld", "observe": False},
              {"op": "+", "args": ["$fr", [True, 4]], "as": "fb", "observe": False}])
    # Decimal with float or Fraction is refused by a TypeError whose message names the
    # two types in the order of a set of types, which varies between processes: those
    # mixtures are only sorted and counted here.
    mixfns = ["mean", "harmonic_mean", "median", "pvariance", "variance", "stdev", "pstdev"]
    for name, fns in [("ff", mixfns), ("fb", mixfns), ("di", [f for f in mixfns if f !=
                                                              "harmonic_mean"]),
                      ("fd", ["median", "median_low", "mode", "multimode"]),
                      ("dfl", ["median", "median_high", "multimode"]),
                      ("fld", ["median", "quantiles"])]:
        out.append(_all_on(f"mixed-{name}", mix, name, fns, extra=["coercion"]))
    out.append(_all("mixed-str", [1, "2", 3], ["mean", "variance", "pstdev"], ["coercion"]))
    out.append(_all("mixed-none", [1.5, None], ["mean", "variance"], ["coercion"]))
    out.append(_on("mixed-inf-decimal-inf", ["coercion", "mean", "variance"],
                   _nums("de", "Decimal", ["Infinity"])
                   + [{"op": "+", "args": [[INF], "$de"], "as": "x", "observe": False},
                      {"op": "+", "args": ["$de", [NAN]], "as": "y", "observe": False}],
                   [("mean", ["$x"], {}), ("variance", ["$y"], {}),
                    ("pvariance", ["$x"], {"mu": 0})]))
    # iterators: read once
    for k, data in enumerate([[1, 2, 3, 4], [0.5, 0.25, 4.0], [], [2.0, NAN], ["x", "y", "x"]]):
        ops = []
        for fn in AVERAGES + SPREAD + ["quantiles"]:
            ops += [{"op": "iter", "args": [data], "as": "it", "observe": False},
                    {"call": fn, "args": ["$it"]}]
        out.append({"id": f"iterators-{k}", "covers": sorted(set(COVERS.values())),
                    "ops": ops})
    out.append({"id": "iterator-fractions", "covers": ["mean", "variance", "harmonic-mean"],
                "ops": _nums("fr", "Fraction", ["1/3", "1/5", "7/2"]) + [
                    {"op": "iter", "args": ["$fr"], "as": "it", "observe": False},
                    {"call": "variance", "args": ["$it"]},
                    {"op": "iter", "args": ["$fr"], "as": "it2", "observe": False},
                    {"call": "harmonic_mean", "args": ["$it2"]},
                    {"op": "iter", "args": ["$fr"], "as": "it3", "observe": False},
                    {"call": "harmonic_mean", "args": ["$it3"], "kwargs": {"weights": [1, 2, 3]}},
                    {"op": "iter", "args": ["$fr"], "as": "it4", "observe": False},
                    {"call": "stdev", "args": ["$it4"], "kwargs": {"xbar": 1}}]})
    out.append(_call("not-iterable", ["mean"], "mean", 5))
    out.append(_call("dict-data", ["mean", "variance"], "variance", {1: "a", 4: "b", 9: "c"}))
    out.append(_call("string-data", ["mean"], "mean", "123"))
    # ---- fmean with weights
    out += [
        _call("fmean-doc", ["fmean"], "fmean", [3.5, 4.0, 5.25]),
        _call("fmean-weights", ["fmean"], "fmean", [85, 92, 83, 91], weights=[0.2, 0.2, 0.3, 0.3]),
        _call("fmean-weights-len", ["fmean"], "fmean", [1, 2], weights=[1, 2, 3]),
        _call("fmean-weights-zero", ["fmean"], "fmean", [1, 2], weights=[1, -1]),
        _call("fmean-empty", ["fmean"], "fmean", []),
        _call("fmean-tuple-weights", ["fmean"], "fmean", (1.5, 2.5), weights=(3, 1)),
    ]
    out.append({"id": "fmean-iterators", "covers": ["fmean"], "ops": [
        {"op": "iter", "args": [[1.0, 2.0, 4.0]], "as": "it", "observe": False},
        {"call": "fmean", "args": ["$it"]},
        {"op": "iter", "args": [[]], "as": "e", "observe": False},
        {"call": "fmean", "args": ["$e"]},
        {"op": "iter", "args": [[1.0, 2.0, 4.0]], "as": "it2", "observe": False},
        {"op": "iter", "args": [[1, 0, 2]], "as": "w", "observe": False},
        {"call": "fmean", "args": ["$it2"], "kwargs": {"weights": "$w"}}]})
    # ---- geometric mean
    out += [
        _call("geomean-doc", ["geometric-mean"], "geometric_mean", [54, 24, 36]),
        _call("geomean-zero", ["geometric-mean"], "geometric_mean", [1.0, 0.0, 2.0]),
        _call("geomean-negative", ["geometric-mean"], "geometric_mean", [1.0, -2.0]),
        _call("geomean-empty", ["geometric-mean"], "geometric_mean", []),
    ]
    # ---- harmonic mean: weights, zeros, negatives
    hw = _nums("fr", "Fraction", ["1/2", "3/4"]) + _nums("de", "Decimal", ["2.5", "0.4"])
    out += [
        _call("harmonic-doc", ["harmonic-mean"], "harmonic_mean", [40, 60]),
        _call("harmonic-weights", ["harmonic-mean"], "harmonic_mean", [40, 60], weights=[5, 30]),
        _call("harmonic-weights-float", ["harmonic-mean"], "harmonic_mean", [2.5, 3.0, 10.0],
              weights=[0.5, 1.5, 2.0]),
        _call("harmonic-weights-zero", ["harmonic-mean"], "harmonic_mean", [2.5, 3.0, 10.0],
              weights=[0, 1, 0]),
        _call("harmonic-weights-all-zero", ["harmonic-mean"], "harmonic_mean", [2.5, 3.0],
              weights=[0, 0]),
        _call("harmonic-weights-negative", ["harmonic-mean"], "harmonic_mean", [2.5, 3.0],
              weights=[1, -1]),
        _call("harmonic-weights-len", ["harmonic-mean"], "harmonic_mean", [2.5, 3.0],
              weights=[1]),
        _call("harmonic-weights-data-zero", ["harmonic-mean"], "harmonic_mean", [2.5, 0, 3.0],
              weights=[1, 2, 3]),
        _call("harmonic-weights-zero-on-zero", ["harmonic-mean"], "harmonic_mean", [2.5, 0, 3.0],
              weights=[1, 0, 3]),
        _call("harmonic-weights-negative-data", ["harmonic-mean"], "harmonic_mean",
              [2.5, -1, 3.0], weights=[1, 1, 1]),
        _call("harmonic-zero", ["harmonic-mean"], "harmonic_mean", [1.0, 0, 2.0]),
        _call("harmonic-zero-then-negative", ["harmonic-mean"], "harmonic_mean", [1.0, 0, -2.0]),
        _call("harmonic-negative-then-zero", ["harmonic-mean"], "harmonic_mean", [1.0, -2.0, 0]),
        _call("harmonic-single", ["harmonic-mean"], "harmonic_mean", [2.5]),
        _call("harmonic-single-negative", ["harmonic-mean"], "harmonic_mean", [-2.5]),
        _call("harmonic-single-str", ["harmonic-mean"], "harmonic_mean", ["x"]),
        _call("harmonic-huge", ["harmonic-mean"], "harmonic_mean", [1e308, 1.5e308, 2e-308]),
        _call("harmonic-tiny-recip", ["harmonic-mean"], "harmonic_mean", [1.7e308, 1.7e308]),
        _call("harmonic-str", ["harmonic-mean"], "harmonic_mean", [1, "2"]),
        _call("harmonic-nan-later", ["harmonic-mean"], "harmonic_mean", [1.0, NAN, 2.0]),
        _call("harmonic-weights-iter", ["harmonic-mean"], "harmonic_mean", [1.0, 2.0, 4.0],
              weights=(1, 2, 3)),
        _on("harmonic-fraction-decimal", ["harmonic-mean"], hw, [
            ("harmonic_mean", ["$fr"], {}), ("harmonic_mean", ["$de"], {}),
            ("harmonic_mean", ["$fr"], {"weights": "$de"}),
            ("harmonic_mean", ["$de"], {"weights": [1, 3]}),
            ("harmonic_mean", ["$de"], {"weights": "$fr"}),
            ("harmonic_mean", [[2.0, 8.0]], {"weights": "$fr"}),
            ("harmonic_mean", ["$fr"], {"weights": [2.0, 1.0]})]),
        _on("harmonic-decimal-nan", ["harmonic-mean"],
            _nums("de", "Decimal", ["1", "NaN", "-2"]) + _nums("dz", "Decimal", ["2", "0"]), [
                ("harmonic_mean", ["$de"], {}), ("harmonic_mean", ["$dz"], {}),
                ("harmonic_mean", [[1.0, 2.0, 3.0]], {"weights": "$de"}),
                ("harmonic_mean", ["$dz"], {"weights": [1, 1]})]),
    ]
    out.append({"id": "harmonic-weights-iterator", "covers": ["harmonic-mean"], "ops": [
        {"op": "iter", "args": [[1, 2, 3]], "as": "w", "observe": False},
        {"call": "harmonic_mean", "args": [[2.0, 4.0, 8.0]], "kwargs": {"weights": "$w"}}]})
    # ---- medians
    out += [
        _call("median-strings", ["medians"], "median_low", ["d", "a", "c", "b"]),
        _call("median-strings-high", ["medians"], "median_high", ["d", "a", "c", "b"]),
        _call("median-mixed-even", ["medians"], "median", [1, 2.5, 3, 10]),
        _call("median-grouped-doc", ["median-grouped"], "median_grouped",
              [25] * 172 + [35] * 484 + [45] * 387 + [55] * 22 + [65] * 6, 10),
        _call("median-grouped-interval", ["median-grouped"], "median_grouped",
              [1, 2, 2, 3, 4, 4, 4, 4, 4, 5], 2),
        _call("median-grouped-float-interval", ["median-grouped"], "median_grouped",
              [1.5, 2.5, 2.5, 3.5], 0.5),
        _call("median-grouped-str", ["median-grouped"], "median_grouped", ["a", "b"]),
        _call("median-grouped-bad-interval", ["median-grouped"], "median_grouped", [1, 2],
              "wide"),
        _call("median-grouped-str-numbers", ["median-grouped"], "median_grouped",
              ["3", "1", "2"], "2"),
        _call("median-grouped-empty", ["median-grouped"], "median_grouped", []),
    ]
    out.append(_on("median-grouped-fractions", ["median-grouped"],
                   _nums("fr", "Fraction", ["1/2", "3/2", "5/2"]) + _nums("de", "Decimal",
                                                                           ["1.5", "2.5"]),
                   [("median_grouped", ["$fr"], {}), ("median_grouped", ["$de"], {"interval": 1}),
                    ("median_grouped", [[1, 2, 3]], {"interval": "$fr"})]))
    # ---- mode and multimode
    out += [
        _call("mode-doc", ["modes"], "mode", [1, 1, 2, 3, 3, 3, 3, 4]),
        _call("mode-nominal", ["modes"], "mode", ["red", "blue", "blue", "red", "green", "red"]),
        _call("mode-first", ["modes"], "mode", ["red", "red", "green", "blue", "blue"]),
        _call("mode-empty", ["modes"], "mode", []),
        _call("mode-string", ["modes"], "multimode", "aabbbbccddddeeffffgg"),
        _call("mode-unhashable", ["modes"], "mode", [[1], [1]]),
        _call("multimode-empty", ["modes"], "multimode", ""),
        _call("multimode-equal", ["modes"], "multimode", [1, 1.0, True, 2, 2]),
    ]
    # ---- quantiles
    qdata = [105, 129, 87, 86, 111, 111, 89, 81, 108, 92, 110, 100, 75, 105, 103, 109, 76,
             119, 99, 91, 103, 129, 106, 101, 84, 111, 74, 87, 86, 103, 103, 106, 86, 111, 75,
             87, 102, 121, 111, 88, 89, 101, 106, 95, 103, 107, 101, 81, 109, 104]
    for method in ["exclusive", "inclusive"]:
        for n in [1, 2, 4, 10, 100]:
            out.append(_call(f"quantiles-{method}-{n}", ["quantiles"], "quantiles", qdata,
                             n=n, method=method))
        out.append(_call(f"quantiles-{method}-two", ["quantiles"], "quantiles", [1.5, 4.0],
                         n=7, method=method))
        out.append(_call(f"quantiles-{method}-small-n", ["quantiles"], "quantiles",
                         [3.0, 1.0, 2.0], n=8, method=method))
        out.append(_on(f"quantiles-{method}-exact", ["quantiles"],
                       _nums("fr", "Fraction", ["1/3", "1/7", "5/2", "9/4"])
                       + _nums("de", "Decimal", ["1.5", "0.25", "7"]),
                       [("quantiles", ["$fr"], {"n": 5, "method": method}),
                        ("quantiles", ["$de"], {"n": 3, "method": method})]))
    out += [
        _call("quantiles-default", ["quantiles"], "quantiles", [7, 1, 3, 9, 4, 4]),
        _call("quantiles-n0", ["quantiles"], "quantiles", [1, 2, 3], n=0),
        _call("quantiles-one-point", ["quantiles"], "quantiles", [1]),
        _call("quantiles-bad-method", ["quantiles"], "quantiles", [1, 2, 3], method="median"),
        _call("quantiles-floats", ["quantiles"], "quantiles", _floats(random.Random(8), 33,
                                                                       "gauss"), n=9),
    ]
    # ---- variance and stdev with a given mean
    fl = _floats(random.Random(9), 20, "short")
    given = _nums("fr", "Fraction", ["1/6", "1/2", "5/3"]) + [
        _one("fm", "Fraction", "7/9"), _one("dm", "Decimal", "31.5")] + _nums(
        "de", "Decimal", ["27.5", "30.25", "34.5", "41.75"])
    out += [
        _on("given-mean", ["variance", "stdev"], given, [
            ("variance", [fl], {"xbar": 3.25}), ("pvariance", [fl], {"mu": 3}),
            ("stdev", [fl], {"xbar": -1.5}), ("pstdev", [fl], {"mu": 0.1}),
            ("variance", ["$fr"], {"xbar": "$fm"}), ("pvariance", ["$fr"], {"mu": "$fm"}),
            ("stdev", ["$fr"], {"xbar": "$fm"}), ("pstdev", ["$fr"], {"mu": 1}),
            ("variance", ["$de"], {"xbar": "$dm"}), ("pstdev", ["$de"], {"mu": "$dm"}),
            ("stdev", ["$de"], {"xbar": 30}), ("pvariance", ["$de"], {"mu": 2.5}),
            ("pvariance", ["$fr"], {"mu": 0.5}), ("variance", [[1, 2, 3]], {"xbar": "$fm"}),
            ("variance", [[1, 2, 3]], {"xbar": "$dm"}), ("pvariance", [[]], {"mu": 1}),
            ("variance", [[2.0]], {"xbar": 1.0}), ("pstdev", [[1, 2]], {"mu": "x"}),
            ("pvariance", [[INF, 1.0]], {"mu": 1.0}), ("stdev", [[NAN, 1.0]], {"xbar": 0}),
            ("pvariance", [[1e200, -1e200]], {"mu": 0.0}),
            ("pstdev", [(1, 5, 9)], {"mu": 5}), ("variance", [[True, False, True]], {"xbar": 1})]),
    ]
    # stdev rounding: exact square roots and values just off them
    out += [
        _call("stdev-doc", ["stdev"], "stdev", [1.5, 2.5, 2.5, 2.75, 3.25, 4.75]),
        _call("pstdev-doc", ["stdev"], "pstdev", [1.5, 2.5, 2.5, 2.75, 3.25, 4.75]),
        _call("stdev-square", ["stdev"], "pstdev", [1, 3]),
        _call("stdev-big-ints", ["stdev"], "stdev", [10**40, 3 * 10**40, 10**20]),
        _call("stdev-tiny", ["stdev"], "pstdev", [1e-300, 3e-300, 2e-300]),
        _call("stdev-constant", ["stdev"], "stdev", [2.5, 2.5, 2.5]),
    ]
    for k in range(6):
        r = random.Random(100 + k)
        data = _floats(r, 8 + 10 * k, ["gauss", "wide", "short"][k % 3])
        out.append(_all(f"random-floats-{k}", data, ["mean", "pvariance", "variance", "pstdev",
                                                      "stdev", "harmonic_mean", "fmean",
                                                      "median_grouped"]))
        ints = [r.randint(-10**k, 10**(k + 2)) for _ in range(15 + 5 * k)]
        out.append(_all(f"random-ints-{k}", ints, ["mean", "pvariance", "variance", "pstdev",
                                                    "stdev", "harmonic_mean", "median",
                                                    "mode", "quantiles"]))
        out.append(_all_on(f"random-decimals-{k}", _nums("de", "Decimal", _decs(r, 6 + 5 * k,
                                                                                 places=k)),
                           "de", ["mean", "pvariance", "variance", "pstdev", "stdev",
                                  "harmonic_mean", "median"]))
        out.append(_all_on(f"random-fractions-{k}", _nums("fr", "Fraction",
                                                          _fracs(r, 5 + 4 * k, den=3 + 5 * k)),
                           "fr", ["mean", "pvariance", "variance", "pstdev", "stdev",
                                  "harmonic_mean", "median"]))
    # ---- covariance, correlation, linear regression
    x = [1, 2, 3, 4, 5, 6, 7, 8, 9]
    y = [1, 2, 3, 1, 2, 3, 1, 2, 3]
    z = [9, 8, 7, 6, 5, 4, 3, 2, 1]
    fx = _floats(random.Random(10), 30, "gauss")
    fy = [2.5 * v - 3 + random.Random(11).gauss(0, 5) for v in fx]
    out += [
        _call("covariance-doc", ["covariance"], "covariance", x, y),
        _call("covariance-neg", ["covariance"], "covariance", z, x),
        _call("covariance-floats", ["covariance"], "covariance", fx, fy),
        _call("covariance-len", ["covariance"], "covariance", x, y[:-1]),
        _call("covariance-short", ["covariance"], "covariance", [1], [2]),
        _call("correlation-doc", ["correlation"], "correlation", x, z),
        _call("correlation-self", ["correlation"], "correlation", x, x),
        _call("correlation-floats", ["correlation"], "correlation", fx, fy),
        _call("correlation-constant", ["correlation"], "correlation", x, [3] * 9),
        _call("correlation-len", ["correlation"], "correlation", x, [1, 2]),
        _call("correlation-short", ["correlation"], "correlation", [], []),
        _call("linreg-doc", ["linear-regression"], "linear_regression", x, z),
        _call("linreg-floats", ["linear-regression"], "linear_regression", fx, fy),
        _call("linreg-proportional", ["linear-regression"], "linear_regression", fx, fy,
              proportional=True),
        _call("linreg-proportional-ints", ["linear-regression"], "linear_regression", x, y,
              proportional=True),
        _call("linreg-constant", ["linear-regression"], "linear_regression", [2, 2, 2], x[:3]),
        _call("linreg-zero-proportional", ["linear-regression"], "linear_regression", [0, 0],
              [1, 2], proportional=True),
        _call("linreg-len", ["linear-regression"], "linear_regression", x, y[:3]),
        _call("linreg-short", ["linear-regression"], "linear_regression", [1], [1]),
        _call("linreg-tuples", ["linear-regression"], "linear_regression", (1.5, 2.5, 4.0),
              (0.5, -1.0, 2.0)),
    ]
    out.append(_on("relations-exact-types", ["covariance", "correlation", "linear-regression"],
                   _nums("fr", "Fraction", ["1/3", "1/2", "7/4"])
                   + _nums("de", "Decimal", ["1.5", "2.5", "0.5"]),
                   [("covariance", ["$fr", [1, 2, 3]], {}), ("correlation", ["$fr", "$fr"], {}),
                    ("linear_regression", ["$fr", [3.0, 1.0, 2.0]], {}),
                    ("covariance", ["$de", [1, 2, 3]], {}),
                    ("linear_regression", ["$de", "$de"], {"proportional": True})]))
    out.append({"id": "linreg-result", "covers": ["linear-regression"], "ops": [
        {"call": "linear_regression", "args": [x, z], "as": "r"},
        {"get": "$r.slope"}, {"get": "$r.intercept"}, {"op": "repr", "args": ["$r"]},
        {"call": "LinearRegression", "args": [1, 2]}]})
    # ---- NormalDist
    out += _normal_cases()
    out.append({"id": "statistics-error", "covers": ["errors"], "ops": [
        {"get": "StatisticsError", "as": "E", "observe": False},
        {"call": "StatisticsError", "args": ["boom"]},
        {"op": "type", "args": ["$E"]},
        {"call": "mean", "args": [[]]}, {"call": "variance", "args": [[1]]},
        {"call": "stdev", "args": [[1.0]]}, {"call": "pvariance", "args": [[]]},
        {"call": "pstdev", "args": [[]]}, {"call": "median", "args": [[]]},
        {"call": "median_low", "args": [[]]}, {"call": "median_high", "args": [[]]},
        {"call": "harmonic_mean", "args": [[]]}]})
    return out


def _normal_cases():
    out = []
    nd = [{"call": "NormalDist", "args": [2.4, 1.6], "as": "a"},
          {"call": "NormalDist", "args": [3.2, 2.0], "as": "b"}]
    xs = [-3.0, -0.5, 0.0, 1.0, 2.4, 2.5, 7.25, 40.0]
    ops = list(nd)
    for x in xs:
        ops += [{"call": "$a.pdf", "args": [x]}, {"call": "$a.cdf", "args": [x]},
                {"call": "$a.zscore", "args": [x]}]
    for p in [1e-300, 1e-20, 0.0001, 0.01, 0.02425, 0.1, 0.075, 0.25, 0.5, 0.6, 0.9, 0.925,
              0.97575, 0.999, 1 - 1e-12]:
        ops += [{"call": "$a.inv_cdf", "args": [p]}, {"call": "$b.inv_cdf", "args": [p]}]
    ops += [{"call": "$a.overlap", "args": ["$b"]}, {"call": "$b.overlap", "args": ["$a"]},
            {"call": "$a.overlap", "args": ["$a"]}, {"call": "$a.quantiles"},
            {"call": "$b.quantiles", "args": [10]}, {"call": "$a.quantiles", "args": [1]}]
    out.append({"id": "normal-methods", "covers": ["normal-pdf-cdf", "normal-inv-cdf",
                                                   "normal-overlap"], "ops": ops})
    ops = list(nd)
    ops += [{"get": "$a." + p} for p in ["mean", "median", "mode", "stdev", "variance"]]
    ops += [{"op": "+", "args": ["$a", "$b"]}, {"op": "-", "args": ["$a", "$b"]},
            {"op": "+", "args": ["$a", 3]}, {"op": "+", "args": [3, "$a"]},
            {"op": "-", "args": ["$a", 1.5]}, {"op": "-", "args": [10, "$a"]},
            {"op": "*", "args": ["$a", -2]}, {"op": "*", "args": [0.5, "$a"]},
            {"op": "/", "args": ["$a", -4]}, {"op": "neg", "args": ["$a"]},
            {"call": "$a.__pos__"}, {"op": "==", "args": ["$a", "$a"]},
            {"op": "==", "args": ["$a", "$b"]}, {"op": "!=", "args": ["$a", "$b"]},
            {"op": "==", "args": ["$a", 2.4]}, {"op": "repr", "args": ["$a"]},
            {"op": "str", "args": ["$b"]}, {"call": "$a.__hash__", "as": "h", "observe": False},
            {"call": "NormalDist", "args": [2.4, 1.6], "as": "a2", "observe": False},
            {"call": "$a2.__hash__", "as": "h2", "observe": False},
            {"op": "==", "args": ["$h", "$h2"]},
            {"call": "$a.__getstate__"},
            {"call": "NormalDist", "as": "c"},
            {"call": "$c.__setstate__", "args": [[5.0, 0.5]]}, {"op": "repr", "args": ["$c"]},
            {"op": "/", "args": ["$a", 0]}, {"op": "*", "args": ["$a", "x"]},
            {"op": "+", "args": ["$a", "x"]}, {"op": "-", "args": ["$a", None]},
            {"op": "type", "args": ["$a"]}, {"call": "NormalDist", "args": [1, 0]},
            {"call": "NormalDist", "args": [1, -0.1]}, {"call": "NormalDist", "args": ["x", 1]},
            {"call": "NormalDist", "args": [True, 2]}]
    out.append({"id": "normal-arithmetic", "covers": ["normal-arithmetic", "normal-basics"],
                "ops": ops})
    z = [{"call": "NormalDist", "args": [1.0, 0.0], "as": "z"},
         {"call": "NormalDist", "args": [1.0, 2.0], "as": "o"}]
    out.append({"id": "normal-sigma-zero", "covers": ["normal-pdf-cdf", "normal-inv-cdf",
                                                      "normal-overlap", "errors"],
                "ops": z + [
                    {"call": "$z.pdf", "args": [1.0]}, {"call": "$z.cdf", "args": [1.0]},
                    {"call": "$z.zscore", "args": [1.0]}, {"call": "$z.inv_cdf", "args": [0.5]},
                    {"call": "$o.inv_cdf", "args": [0.0]}, {"call": "$o.inv_cdf", "args": [1.0]},
                    {"call": "$o.inv_cdf", "args": [-0.5]}, {"call": "$o.inv_cdf", "args": [NAN]},
                    {"call": "$z.overlap", "args": ["$o"]}, {"call": "$o.overlap", "args": ["$z"]},
                    {"call": "$o.overlap", "args": [1.0]},
                    {"call": "$o.quantiles", "args": [0]}, {"call": "$z.quantiles"},
                    {"call": "$o.pdf", "args": ["x"]}, {"call": "$o.cdf", "args": [INF]},
                    {"call": "$o.pdf", "args": [NAN]}]})
    pairs = [((0.0, 1.0), (0.0, 1.0)), ((0.0, 1.0), (5.0, 1.0)), ((1.0, 2.0), (1.0, 3.0)),
             ((-4.0, 0.5), (10.0, 7.0)), ((2.0, 1.0), (0.0, 1.0)), ((0.0, 1e-3), (0.0, 1e3))]
    ops = []
    for k, ((m1, s1), (m2, s2)) in enumerate(pairs):
        ops += [{"call": "NormalDist", "args": [m1, s1], "as": f"p{k}", "observe": False},
                {"call": "NormalDist", "args": [m2, s2], "as": f"q{k}", "observe": False},
                {"call": f"$p{k}.overlap", "args": [f"$q{k}"]},
                {"call": f"$q{k}.overlap", "args": [f"$p{k}"]}]
    out.append({"id": "normal-overlaps", "covers": ["normal-overlap"], "ops": ops})
    fl = _floats(random.Random(12), 40, "gauss")
    out.append({"id": "normal-from-samples", "covers": ["normal-samples", "normal-basics"],
                "ops": _nums("fr", "Fraction", ["1/3", "2/3", "7/3"]) + _nums(
                    "de", "Decimal", ["1.5", "2.5"]) + [
                    {"get": "NormalDist", "as": "N", "observe": False},
                    {"call": "NormalDist.from_samples", "args": [fl]},
                    {"call": "$N.from_samples", "args": [[1, 2, 3, 4]]},
                    {"call": "NormalDist.from_samples", "args": ["$fr"]},
                    {"call": "NormalDist.from_samples", "args": ["$de"]},
                    {"call": "NormalDist.from_samples", "args": [[2.5]]},
                    {"call": "NormalDist.from_samples", "args": [[]]},
                    {"call": "NormalDist.from_samples", "args": [[1.0, INF]]},
                    {"call": "NormalDist.from_samples", "args": [[1.0, NAN, 2.0]]},
                    {"call": "NormalDist.from_samples", "args": [["a", "b"]]},
                    {"op": "iter", "args": [[3.0, 1.0, 2.0]], "as": "it", "observe": False},
                    {"call": "NormalDist.from_samples", "args": ["$it"]}]})
    out.append({"id": "normal-samples-seeded", "covers": ["normal-samples"], "ops": [
        {"call": "NormalDist", "args": [100.0, 15.0], "as": "n", "observe": False},
        {"call": "$n.samples", "args": [10], "kwargs": {"seed": 42}},
        {"call": "$n.samples", "args": [5], "kwargs": {"seed": "text seed"}},
        {"call": "$n.samples", "args": [0], "kwargs": {"seed": 1}},
        {"call": "$n.samples", "args": [3], "kwargs": {"seed": 2.5}},
        {"call": "$n.samples", "args": [-2], "kwargs": {"seed": 3}},
        {"call": "$n.samples", "args": [7], "as": "s", "observe": False},
        {"op": "len", "args": ["$s"]},
        {"call": "NormalDist", "args": [0.0, 0.0], "as": "z", "observe": False},
        {"call": "$z.samples", "args": [3], "kwargs": {"seed": 9}},
        {"call": "NormalDist", "args": [1.0, 2.0], "as": "o", "observe": False},
        {"call": "$o.samples", "args": [40], "kwargs": {"seed": 2024}, "as": "x"},
        {"call": "NormalDist.from_samples", "args": ["$x"]}]})
    return out


def timing_inputs():
    def floats_call(fn, n, kind, **kw):
        def one(seed):
            data = _floats(random.Random(seed), n, kind)
            return {"id": "t", "covers": [], "call": fn, "args": [data], "kwargs": kw}
        return one

    def ints_call(fn, n):
        def one(seed):
            rng = random.Random(seed)
            return {"id": "t", "covers": [], "call": fn,
                    "args": [[rng.randint(-10**6, 10**6) for _ in range(n)]]}
        return one

    def from_samples(n):
        def one(seed):
            data = _floats(random.Random(seed), n, "gauss")
            return {"id": "t", "covers": [], "call": "NormalDist.from_samples", "args": [data]}
        return one

    return [
        {"id": "mean-floats4000", "size": 4000, "make": floats_call("mean", 4000, "gauss")},
        {"id": "stdev-wide3000", "size": 3000, "make": floats_call("stdev", 3000, "wide")},
        {"id": "variance-short4000", "size": 4000,
         "make": floats_call("variance", 4000, "short")},
        {"id": "pvariance-ints5000", "size": 5000, "make": ints_call("pvariance", 5000)},
        {"id": "harmonic3000", "size": 3000,
         "make": floats_call("harmonic_mean", 3000, "positive")},
        {"id": "from-samples4000", "size": 4000, "make": from_samples(4000)},
    ]
