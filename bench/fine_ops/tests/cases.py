"""Held-out cases and timing inputs of bench/fine_ops: each timed call is
thousands of single-call operations of a few microseconds each, the kind of
input on which the measurement path's cost per operation shows."""

import random


def _addresses(seed, n):
    rng = random.Random(seed)
    # a quarter of them in private ranges, so both branches of is_private run
    out = []
    for _ in range(n):
        if rng.random() < 0.25:
            out.append(rng.choice((0x0A000000, 0xAC100000, 0xC0A80000, 0x7F000000))
                       + rng.randrange(1 << 16))
        else:
            out.append(rng.randrange(1 << 32))
    return out


def _text(n):
    return f"{n >> 24}.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}"


def cases():
    xs = _addresses(7, 40)
    return [
        {"id": "parse", "covers": ["parse"], "ops": [
            {"call": "parse", "args": [t]} for t in
            ["0.0.0.0", "255.255.255.255", "10.1.2.3", "192.168.001.010", *map(_text, xs)]]},
        {"id": "parse-bad", "covers": ["parse-bad"], "ops": [
            {"call": "parse", "args": [t]} for t in
            ["", "1.2.3", "1.2.3.4.5", "256.0.0.1", "1..2.3", "1.2.3.x", "1234.1.1.1",
             " 1.2.3.4", "1.2.3.-4", 12, None]]},
        {"id": "to-text", "covers": ["to-text"], "ops": [
            {"call": "to_text", "args": [x]} for x in [0, 1, 2**32 - 1, *xs]]},
        {"id": "to-text-bad", "covers": ["to-text-bad"], "ops": [
            {"call": "to_text", "args": [x]} for x in [-1, 2**32, True, 1.0, "1", None]]},
        {"id": "private", "covers": ["private"], "ops": [
            {"call": "is_private", "args": [x]} for x in
            [0x0A000000, 0x0AFFFFFF, 0x0B000000, 0xAC0FFFFF, 0xAC100000, 0xAC1FFFFF, 0xAC200000,
             0xC0A80000, 0xC0A8FFFF, 0xC0A90000, 0x7F000001, 0x80000000, 0, *xs]]},
        {"id": "private-bad", "covers": ["private"], "ops": [
            {"call": "is_private", "args": [x]} for x in ["10.0.0.1", None, 1.5, False]]},
    ]


def _timed(ops_per_call):
    def make(seed):
        ops = []
        for x in _addresses(seed, ops_per_call // 3 + 1):
            ops += [{"call": "parse", "args": [_text(x)]}, {"call": "to_text", "args": [x]},
                    {"call": "is_private", "args": [x]}]
        return {"ops": ops[:ops_per_call]}
    return make


def timing_inputs():
    return [
        {"id": "ops10000", "size": 10_000, "make": _timed(10_000)},
        {"id": "ops1000", "size": 1_000, "make": _timed(1_000)},
    ]
