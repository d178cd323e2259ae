"""Held-out inputs for the zlib Adler-32 kernel: empty and tiny inputs, every
byte value, runs of one byte, text, the standard check string, runs of 0xff (the largest sums) around the reduction intervals, and random
bytes of lengths around the multiples of 4, 8 and 16 (the harness also hashes
each input from several start offsets and with several tail lengths). Timing
inputs are large random buffers."""

from __future__ import annotations

import random


def _random(n: int, seed: int) -> bytes:
    rng = random.Random(seed)
    return bytes(rng.randrange(256) for _ in range(n))


def cases() -> list[dict[str, object]]:
    out: list[dict[str, object]] = [
        {"id": "empty", "stdin": b"", "covers": ["sizes"]},
        {"id": "one", "stdin": b"a", "covers": ["sizes"]},
        {"id": "check", "stdin": b"Wikipedia", "covers": ["values"]},
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
    # Around zopfli's chunk of 5550 bytes, and long enough for several.
    for n in (5549, 5550, 5551, 11100, 32767, 32768, 32769, 32776, 65543):
        out.append({"id": f"random-{n}", "stdin": _random(n, 300 + n), "covers": ["sizes"]})
    # All 0xff: the largest sums before each reduction.
    for n in (4096, 5550, 5551, 32768, 32780, 65536, 100_003):
        out.append({"id": f"ff-{n}", "stdin": b"\xff" * n, "covers": ["values"]})
    # s1 = 65520 (its largest value) after the first `chunk` bytes, then all
    # 0xff: the sums overflow 32 bits unless they are reduced at least every
    # 5552 bytes (zlib's NMAX), which zopfli's 5550 respects.
    for chunk in (5553, 5560):
        head = bytes(chunk - 257) + b"\xff" * 256 + bytes([239])
        out.append({"id": f"max-sums-{chunk}", "stdin": head + b"\xff" * 6000,
                    "covers": ["values"]})
    out.append({"id": "ff-then-zeros", "stdin": b"\xff" * 50_000 + bytes(20_001),
                "covers": ["values"]})
    return out


def timing_inputs() -> list[dict[str, object]]:
    return [
        # Made from each evaluation's own secret seed (see runners/kernel.py).
        {"id": "random-256k", "size": 262_144, "make": lambda seed: _random(262_144, seed)},
        {"id": "random-64k", "size": 65_541, "make": lambda seed: _random(65_541, seed)},
    ]
