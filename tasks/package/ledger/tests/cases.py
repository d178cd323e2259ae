"""Held-out cases and timing inputs for the ledger package task.

A case is a short script of operations on the public API; `"as"` keeps a
result (the ledger) for later operations, named "$name"."""

import random

ACCOUNTS = [f"acct-{i:03d}" for i in range(200)]


def _new(name="books"):
    return {"call": "Ledger", "args": [name], "as": "l"}


def _posts(seed, n, accounts):
    rng = random.Random(seed)
    return [{"call": "$l.post", "args": [rng.choice(accounts), rng.randrange(-5000, 20000)],
             "kwargs": {"memo": f"m{i}"} if i % 3 == 0 else {}}
            for i in range(n)]


def cases():
    out = [
        {"id": "post-ids", "covers": ["post-ids", "len-repr"], "ops": [
            _new(), {"call": "$l.post", "args": ["cash", 100]},
            {"call": "$l.post", "args": ["bank", -50, "fee"]},
            {"call": "$l.post", "args": ["cash", 0]},
            {"call": "len", "args": []} if False else {"call": "$l.__len__"},
            {"call": "$l.__repr__"}]},
        {"id": "balance", "covers": ["balance", "balance-unknown"], "ops": [
            _new(), {"call": "$l.post", "args": ["a", 500]}, {"call": "$l.post", "args": ["a", -700]},
            {"call": "$l.post", "args": ["b", 1]}, {"call": "$l.balance", "args": ["a"]},
            {"call": "$l.balance", "args": ["b"]}, {"call": "$l.balance", "args": ["zzz"]}]},
        {"id": "history", "covers": ["history", "memo"], "ops": [
            _new(), {"call": "$l.post", "args": ["a", 5, 123]}, {"call": "$l.post", "args": ["b", 6]},
            {"call": "$l.post", "args": ["a", 7, "x"]}, {"call": "$l.history", "args": ["a"]},
            {"call": "$l.history", "args": ["nobody"]}]},
        {"id": "history-last", "covers": ["history-last"], "ops": [
            _new(), *[{"call": "$l.post", "args": ["a", i]} for i in range(5)],
            {"call": "$l.history", "args": ["a"], "kwargs": {"last": 2}},
            {"call": "$l.history", "args": ["a", 0]}, {"call": "$l.history", "args": ["a", 9]}]},
        {"id": "history-negative", "covers": ["history-negative"], "ops": [
            _new(), {"call": "$l.post", "args": ["a", 1]}, {"call": "$l.history", "args": ["a", -1]}]},
        {"id": "accounts", "covers": ["accounts"], "ops": [
            _new(), *[{"call": "$l.post", "args": [a, 1]} for a in ["m", "b", "m", "a", "b"]],
            {"call": "$l.accounts"}]},
        {"id": "top", "covers": ["top", "format"], "ops": [
            _new(), *[{"call": "$l.post", "args": [a, c]} for a, c in
                      [("x", 250), ("y", 250), ("z", -5), ("w", 1000), ("x", 1)]],
            {"call": "$l.top"}, {"call": "$l.top", "args": [10]}, {"call": "$l.top", "args": [0]}]},
        {"id": "reverse", "covers": ["reverse"], "ops": [
            _new(), {"call": "$l.post", "args": ["a", 300, "rent"]},
            {"call": "$l.reverse", "args": [0]}, {"call": "$l.balance", "args": ["a"]},
            {"call": "$l.history", "args": ["a"]}]},
        {"id": "reverse-missing", "covers": ["reverse-missing"], "ops": [
            _new(), {"call": "$l.post", "args": ["a", 1]}, {"call": "$l.reverse", "args": [5]},
            {"call": "$l.reverse", "args": [-1]}, {"call": "$l.reverse", "args": ["0"]}]},
        {"id": "bad-account", "covers": ["bad-account"], "ops": [
            _new(), {"call": "$l.post", "args": ["", 1]}, {"call": "$l.post", "args": [7, 1]},
            {"call": "$l.__len__"}]},
        {"id": "bad-cents", "covers": ["bad-cents"], "ops": [
            _new(), {"call": "$l.post", "args": ["a", 1.5]}, {"call": "$l.post", "args": ["a", True]},
            {"call": "$l.post", "args": ["a", "5"]}, {"call": "$l.balance", "args": ["a"]}]},
        {"id": "format", "covers": ["format"], "ops": [
            {"call": "format_cents", "args": [c]} for c in (0, 5, -5, 1205, -1205, 100, 10**12)]},
        {"id": "format-bad", "covers": ["format"], "ops": [
            {"call": "format_cents", "args": [1.0]}, {"call": "format_cents", "args": [False]}]},
        {"id": "default-name", "covers": ["len-repr"], "ops": [
            {"call": "Ledger", "as": "l"}, {"call": "$l.__repr__"}, {"get": "$l.name"}]},
    ]
    for k in range(10):
        accs = ACCOUNTS[: 3 + 4 * k]
        ops = [_new(f"r{k}"), *_posts(k, 20 + 15 * k, accs)]
        rng = random.Random(1000 + k)
        for _ in range(6):
            ops.append({"call": "$l.balance", "args": [rng.choice(accs)]})
        ops += [{"call": "$l.top", "args": [5]}, {"call": "$l.accounts"},
                {"call": "$l.reverse", "args": [rng.randrange(20)]},
                {"call": "$l.history", "args": [accs[0]], "kwargs": {"last": 3}},
                {"call": "$l.__len__"}]
        out.append({"id": f"random-{k}", "covers": ["balance", "top", "history"], "ops": ops})
    return out


def timing_inputs():
    def make(posts, accounts, queries):
        def one(seed):
            rng = random.Random(seed)
            accs = ACCOUNTS[:accounts]
            ops = [_new(), *_posts(seed, posts, accs)]
            for i in range(queries):
                ops.append({"call": "$l.balance", "args": [rng.choice(accs)]})
                if i % 10 == 0:
                    ops.append({"call": "$l.top", "args": [5]})
            ops.append({"call": "$l.history", "args": [accs[0]], "kwargs": {"last": 5}})
            return {"ops": ops}
        return one

    return [
        {"id": "posts200", "size": 200, "make": make(200, 30, 80)},
        {"id": "posts500", "size": 500, "make": make(500, 60, 150)},
    ]
