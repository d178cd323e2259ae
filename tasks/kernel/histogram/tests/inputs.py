"""Held-out inputs for the character-class histogram: every byte value, class
boundaries, empty and one-byte inputs, and timing inputs whose classes are
drawn at random (so a branch on the class is unpredictable), from the seed
the evaluator passes to make(seed)."""

from __future__ import annotations

import random

CLASSES = [
    bytes(range(ord("a"), ord("z") + 1)),
    bytes(range(ord("A"), ord("Z") + 1)),
    bytes(range(ord("0"), ord("9") + 1)),
    b" \t\n\r",
    bytes(c for c in range(0x21, 0x7F) if not chr(c).isalnum()),
    bytes(c for c in range(256) if c < 0x20 and c not in b"\t\n\r" or c >= 0x7F),
]


def _mixed(n: int, seed: int) -> bytes:
    rng = random.Random(seed)
    return bytes(rng.choice(CLASSES[rng.randrange(6)]) for _ in range(n))


def cases() -> list[dict[str, object]]:
    rng = random.Random(3)
    return [
        {"id": "empty", "stdin": b"", "covers": ["sizes"]},
        {"id": "one", "stdin": b"x", "covers": ["sizes"]},
        {"id": "all-bytes", "stdin": bytes(range(256)), "covers": ["classes"]},
        {"id": "boundaries", "stdin": b"`az{@AZ[/09:\x1f \x20!~\x7f\x80\xff\t\n\r\x0b\x0c",
         "covers": ["classes"]},
        {"id": "text", "stdin": b"The quick brown fox, 42 times!\n\tJumped over: the lazy dog?\r\n",
         "covers": ["classes"]},
        {"id": "random-bytes", "stdin": bytes(rng.randrange(256) for _ in range(4099)),
         "covers": ["sizes"]},
        {"id": "mixed", "stdin": _mixed(1001, 4), "covers": ["classes"]},
    ]


def timing_inputs() -> list[dict[str, object]]:
    # Made from each evaluation's own secret seed: fixed inputs could be
    # recognised by their length and first bytes and answered from a table.
    return [
        {"id": "mixed-300k", "size": 300_000, "make": lambda seed: _mixed(300_000, seed)},
        {"id": "mixed-100k", "size": 100_000, "make": lambda seed: _mixed(100_000, seed)},
    ]
