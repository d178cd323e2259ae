"""Held-out cases and timing inputs of the wordlist test task (tests/test_authoring_audit.py)."""

import random

_NEW = {"call": "Lexicon", "as": "lx"}


def _q(method, *args):
    return {"call": f"$lx.{method}", "args": list(args)}


def cases():
    out = [
        {"id": "load", "covers": ["load"], "ops": [
            _NEW, {"op": "len", "args": ["$lx"]}, {"op": "in", "args": ["elan", "$lx"]},
            {"op": "in", "args": ["zzz", "$lx"]}]},
        {"id": "extra", "covers": ["extra"], "ops": [
            {"call": "Lexicon", "args": [["zzz", "elan", "zzz"]], "as": "lx"},
            {"op": "len", "args": ["$lx"]}, {"op": "in", "args": ["zzz", "$lx"]},
            {"call": "Lexicon", "args": [["no way"]]}, {"call": "Lexicon", "args": [[3]]}]},
        {"id": "count", "covers": ["count-prefix"], "ops": [
            _NEW, _q("count_prefix", ""), _q("count_prefix", "ka"), _q("count_prefix", "kato"),
            _q("count_prefix", "x")]},
        {"id": "with-prefix", "covers": ["with-prefix"], "ops": [
            _NEW, _q("with_prefix", "ri"), _q("with_prefix", "ri", 3), _q("with_prefix", "q", 0),
            _q("with_prefix", "zz")]},
        {"id": "limit", "covers": ["limit"], "ops": [_NEW, _q("with_prefix", "a", -1)]},
        {"id": "anagrams", "covers": ["anagrams"], "ops": [
            _NEW, _q("anagrams", "elan"), _q("anagrams", "kato"), _q("anagrams", "toka"),
            _q("anagrams", "")]},
    ]
    rng = random.Random(5)
    letters = "aeiklnoprstu"
    for k in range(4):
        ops = [_NEW]
        for _ in range(12):
            p = "".join(rng.choice(letters) for _ in range(rng.randint(1, 3)))
            ops += [_q("count_prefix", p), _q("with_prefix", p, rng.randint(0, 6)),
                    _q("anagrams", p + rng.choice(letters))]
        out.append({"id": f"random-{k}", "covers": ["count-prefix", "with-prefix", "anagrams"],
                    "ops": ops})
    return out


def timing_inputs():
    def make(queries):
        def one(seed):
            rng = random.Random(seed)
            ops = [_NEW]
            for _ in range(queries):
                p = "".join(rng.choice("abdegiklmnopqrstuvz") for _ in range(rng.randint(1, 3)))
                ops += [_q("count_prefix", p), _q("with_prefix", p, 5), _q("anagrams", p + "a")]
            return {"ops": ops}
        return one

    return [{"id": "queries40", "size": 40, "make": make(40)},
            {"id": "queries160", "size": 160, "make": make(160)}]
