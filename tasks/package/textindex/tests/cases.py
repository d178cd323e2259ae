"""Held-out cases and timing inputs for the textindex package task."""

import random

_WORDS_TEXT = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi "
         "rho sigma tau upsilon phi chi psi omega red green blue cyan magenta yellow black "
         "white north south east west one two three four five six seven eight nine ten "
         "apple banana cherry grape lemon mango peach pear plum")
WORDS = _WORDS_TEXT.split()


def _doc(rng, n):
    return " ".join(rng.choice(WORDS) if rng.random() < 0.9 else rng.choice(WORDS).upper() + ","
                    for _ in range(n))


def _new():
    return {"call": "Index", "as": "ix"}


def _add(i, text):
    return {"call": "$ix.add", "args": [i, text]}


def cases():
    base = [_new(), _add("a", "The quick brown fox"), _add("b", "the lazy dog, the END"),
            _add(3, "Quick! Quick? dog-days 2024")]
    out = [
        {"id": "add-count", "covers": ["add-count", "ids"], "ops": base},
        {"id": "search", "covers": ["search", "search-case"], "ops": [
            *base, {"call": "$ix.search", "args": ["quick"]}, {"call": "$ix.search", "args": ["THE"]},
            {"call": "$ix.search", "args": ["dog,"]}, {"call": "$ix.search", "args": ["2024"]}]},
        {"id": "search-missing", "covers": ["search-missing"], "ops": [
            *base, {"call": "$ix.search", "args": ["cat"]}]},
        {"id": "search-multi", "covers": ["search-multi"], "ops": [
            *base, {"call": "$ix.search", "args": ["quick fox"]}]},
        {"id": "search-empty", "covers": ["search-empty"], "ops": [
            *base, {"call": "$ix.search", "args": ["!!"]}, {"call": "$ix.count", "args": [""]}]},
        {"id": "search-all", "covers": ["search-all"], "ops": [
            *base, {"call": "$ix.search_all", "args": [["quick", "dog"]]},
            {"call": "$ix.search_all", "args": [("the",)]},
            {"call": "$ix.search_all", "args": [["the dog"]]},
            {"call": "$ix.search_all", "args": [["fox", "cat"]]}]},
        {"id": "search-all-empty", "covers": ["search-all-empty"], "ops": [
            *base, {"call": "$ix.search_all", "args": [[]]},
            {"call": "$ix.search_all", "args": [["--"]]}]},
        {"id": "count", "covers": ["count"], "ops": [
            *base, {"call": "$ix.count", "args": ["quick"]}, {"call": "$ix.count", "args": ["the"]},
            {"call": "$ix.count", "args": ["nothing"]}]},
        {"id": "remove", "covers": ["remove"], "ops": [
            *base, {"call": "$ix.remove", "args": ["b"]}, {"call": "$ix.search", "args": ["dog"]},
            _add("b", "dog again"), {"call": "$ix.search", "args": ["dog"]},
            {"call": "$ix.count", "args": ["the"]}]},
        {"id": "remove-missing", "covers": ["remove-missing"], "ops": [
            *base, {"call": "$ix.remove", "args": ["zz"]}, {"call": "$ix.remove", "args": [3.5]}]},
        {"id": "duplicate", "covers": ["duplicate"], "ops": [
            *base, _add("a", "again"), _add(3, "x"), {"call": "$ix.__len__"}]},
        {"id": "not-str", "covers": ["not-str"], "ops": [
            _new(), _add("x", b"bytes"), _add("y", None), {"call": "$ix.__len__"},
            {"call": "$ix.search", "args": [5]}]},
        {"id": "len-contains", "covers": ["len-contains"], "ops": [
            *base, {"call": "$ix.__len__"}, {"call": "$ix.__contains__", "args": ["a"]},
            {"call": "$ix.__contains__", "args": ["q"]}, {"call": "$ix.__contains__", "args": [3]}]},
        {"id": "tokenize", "covers": ["tokenize"], "ops": [
            {"call": "tokenize", "args": [t]} for t in ("Hello, World!", "", "a1b2 C3", "ÄÖ ok")]},
        {"id": "tokenize-bad", "covers": ["tokenize", "not-str"], "ops": [
            {"call": "tokenize", "args": [42]}]},
    ]
    for k in range(8):
        rng = random.Random(k)
        ops = [_new()]
        for i in range(5 + 4 * k):
            ops.append(_add(f"d{i}", _doc(rng, 5 + rng.randrange(20))))
        for _ in range(6):
            ops.append({"call": "$ix.search", "args": [rng.choice(WORDS)]})
            ops.append({"call": "$ix.search_all", "args": [rng.sample(WORDS, 2)]})
            ops.append({"call": "$ix.count", "args": [rng.choice(WORDS)]})
        ops.append({"call": "$ix.remove", "args": ["d0"]})
        ops.append({"call": "$ix.search", "args": [WORDS[0]]})
        out.append({"id": f"random-{k}", "covers": ["search", "search-all", "count"], "ops": ops})
    return out


def timing_inputs():
    def make(docs, words, queries):
        def one(seed):
            rng = random.Random(seed)
            ops = [_new()]
            for i in range(docs):
                ops.append(_add(i, _doc(rng, words)))
            for _ in range(queries):
                ops.append({"call": "$ix.search", "args": [rng.choice(WORDS)]})
                ops.append({"call": "$ix.search_all", "args": [rng.sample(WORDS, 2)]})
                ops.append({"call": "$ix.count", "args": [rng.choice(WORDS)]})
            return {"ops": ops}
        return one

    return [
        {"id": "docs50", "size": 50, "make": make(50, 30, 10)},
        {"id": "docs200", "size": 200, "make": make(200, 40, 20)},
    ]
