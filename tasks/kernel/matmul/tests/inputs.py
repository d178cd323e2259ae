"""Held-out inputs for the matmul kernel: functional cases (edge sizes,
extreme values that wrap) and timing inputs. Deterministic: the cases from
fixed seeds, the timing inputs from the seed the evaluator passes to make(seed)."""

from __future__ import annotations

import random
import struct


def _matrix_input(n: int, seed: int, lo: int = -1000, hi: int = 1000) -> bytes:
    rng = random.Random(seed)
    vals = [rng.randint(lo, hi) for _ in range(2 * n * n)]
    return struct.pack(f"<I{2 * n * n}i", n, *vals)


def cases() -> list[dict[str, object]]:
    out: list[dict[str, object]] = [
        {"id": "empty", "stdin": struct.pack("<I", 0), "covers": ["sizes"]},
        {"id": "one", "stdin": struct.pack("<I2i", 1, -7, 6), "covers": ["sizes"]},
        {"id": "identity", "stdin": struct.pack("<I18i", 3, 1, 0, 0, 0, 1, 0, 0, 0, 1,
                                                *range(1, 10)), "covers": ["values"]},
        {"id": "wrap", "stdin": _matrix_input(5, 1, -2**31, 2**31 - 1), "covers": ["overflow"]},
    ]
    for n in (2, 6, 7, 17, 33):
        out.append({"id": f"random-{n}", "stdin": _matrix_input(n, 100 + n), "covers": ["sizes"]})
    return out


def timing_inputs() -> list[dict[str, object]]:
    # Made from each evaluation's own secret seed (see runners/kernel.py).
    return [{"id": f"n{n}", "size": n, "make": lambda seed, n=n: _matrix_input(n, seed)}
            for n in (112, 128, 160)]
