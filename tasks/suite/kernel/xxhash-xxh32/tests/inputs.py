"""Held-out inputs for the XXH32 kernel: empty and tiny inputs, every byte
value, runs of one byte, text, and random bytes of lengths around the
multiples of 4, 8 and 16 (the harness also hashes each input from every
start alignment, with several seeds and tail lengths). Timing inputs are
large random buffers."""

from __future__ import annotations

import random


def _random(n: int, seed: int) -> bytes:
    rng = random.Random(seed)
    return bytes(rng.randrange(256) for _ in range(n))


def cases() -> list[dict[str, object]]:
    out: list[dict[str, object]] = [
        {"id": "empty", "stdin": b"", "covers": ["sizes"]},
        {"id": "one", "stdin": b"a", "covers": ["sizes"]},
        {"id": "check", "stdin": b"Nobody inspects the spammish repetition", "covers": ["values"]},
        {"id": "all-bytes", "stdin": bytes(range(256)), "covers": ["values"]},
        {"id": "all-bytes-down", "stdin": bytes(range(255, -1, -1)), "covers": ["values"]},
        {"id": "zeros", "stdin": bytes(100), "covers": ["values"]},
        {"id": "ones", "stdin": b"\xff" * 77, "covers": ["values"]},
        {"id": "text", "stdin": b"The quick brown fox jumps over the lazy dog.\n" * 9,
         "covers": ["values"]},
    ]
    for n in (2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 1000, 4093, 4096):
        out.append({"id": f"random-{n}", "stdin": _random(n, 100 + n), "covers": ["sizes"]})
    out.append({"id": "random-5000", "stdin": _random(5000, 7), "covers": ["sizes"]})
    return out


def timing_inputs() -> list[dict[str, object]]:
    return [
        # Made from each evaluation's own secret seed (see runners/kernel.py).
        {"id": "random-256k", "size": 262_144, "make": lambda seed: _random(262_144, seed)},
        {"id": "random-64k", "size": 65_541, "make": lambda seed: _random(65_541, seed)},
    ]
