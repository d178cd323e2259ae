"""Differential fuzzing of the semver task: generated version strings.

Versions are drawn from SemVer 2.0's grammar: major.minor.patch (zero, small,
and beyond 64 bits), a pre-release of dot-separated identifiers (numeric,
alphanumeric, hyphens, numbers with leading zeros) and build metadata; one in
four is broken at one place (a part dropped, doubled or given a leading zero,
a space, a letter, non-ASCII text). Each is parsed, its fields, string,
dict and tuple observed, bumped every way, its next version taken, and it is
compared with a second version by compare(), the rich operators, max_ver,
min_ver and match() with a drawn operator."""

from hypothesis import strategies as st

NUMBER = st.one_of(st.integers(0, 12), st.integers(0, 10**6),
                   st.sampled_from([2**63, 10**20]))
IDENT = st.one_of(
    st.integers(0, 20).map(str), st.sampled_from(["alpha", "beta", "rc", "RC", "x-y", "--",
                                                  "0a", "a0", "01", "00", "dev", "z"]),
    st.text("abz09-", min_size=1, max_size=4))
PRE = st.lists(IDENT, min_size=1, max_size=4).map(".".join)
BUILD = st.lists(st.text("ab09-", min_size=1, max_size=4), min_size=1, max_size=3).map(".".join)


@st.composite
def version(draw):
    v = ".".join(str(draw(NUMBER)) for _ in range(3))
    if draw(st.booleans()):
        v += "-" + draw(PRE)
    if draw(st.integers(0, 2)) == 0:
        v += "+" + draw(BUILD)
    if draw(st.integers(0, 3)) == 0:
        at = draw(st.integers(0, len(v)))
        v = v[:at] + draw(st.sampled_from(["", ".", "0", "-", "+", " ", "v", "é", ".."])) \
            + v[at + draw(st.integers(0, 1)):]
    return v


OPERATOR = st.sampled_from(["<", "<=", ">", ">=", "==", "!=", "", "=", "~"])


def _one(v):
    return {"ops": [
        {"call": "parse", "args": [v]}, {"call": "VersionInfo.isvalid", "args": [v]},
        {"call": "VersionInfo.parse", "args": [v], "as": "v", "observe": False},
        {"op": "str", "args": ["$v"]}, {"call": "$v.to_dict"}, {"call": "$v.to_tuple"},
        {"call": "$v.bump_major"}, {"call": "$v.bump_minor"}, {"call": "$v.bump_patch"},
        {"call": "$v.bump_prerelease"}, {"call": "$v.bump_prerelease", "args": ["dev"]},
        {"call": "$v.bump_build"}, {"call": "$v.finalize_version"},
        {"call": "$v.next_version", "args": ["major"]},
        {"call": "$v.next_version", "args": ["minor"]},
        {"call": "$v.next_version", "args": ["patch"]},
        {"call": "$v.next_version", "args": ["prerelease"]},
        {"call": "bump_prerelease", "args": [v, "rc"]},
        {"call": "bump_build", "args": [v], "kwargs": {"token": "ci"}}]}


def _two(t):
    a, b, op = t
    return {"ops": [
        {"call": "compare", "args": [a, b]},
        {"call": "VersionInfo.parse", "args": [a], "as": "a", "observe": False},
        {"call": "VersionInfo.parse", "args": [b], "as": "b", "observe": False},
        {"op": "<", "args": ["$a", "$b"]}, {"op": "==", "args": ["$a", "$b"]},
        {"op": ">=", "args": ["$a", b]},
        {"call": "max_ver", "args": [a, b]}, {"call": "min_ver", "args": [a, b]},
        {"call": "match", "args": [a, op + b]}]}


def targets():
    return [
        {"id": "versions", "examples": 150, "strategy": version().map(_one)},
        {"id": "pairs", "examples": 150,
         "strategy": st.tuples(version(), version(), OPERATOR).map(_two)},
        {"id": "close-pairs", "examples": 100,
         "strategy": st.tuples(version(), PRE, OPERATOR).map(
             lambda t: _two((t[0], t[0].split("-")[0].split("+")[0] + "-" + t[1], t[2])))},
    ]
