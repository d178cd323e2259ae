"""Held-out inputs for the stencil kernel: degenerate grids, single rows and
columns, extreme temperatures and conductivities, and timing grids."""

from __future__ import annotations

import random
import struct


def _grid(w: int, h: int, steps: int, seed: int, tmax: int = 10_000,
          cond: tuple[int, int] = (0, 256)) -> bytes:
    rng = random.Random(seed)
    cells: list[int] = []
    for _ in range(w * h):
        cells += [rng.randint(-tmax, tmax), rng.randint(*cond)]
    return struct.pack(f"<3i{2 * w * h}i", w, h, steps, *cells)


def cases() -> list[dict[str, object]]:
    return [
        {"id": "empty", "stdin": _grid(0, 0, 3, 1), "covers": ["shapes"]},
        {"id": "row", "stdin": _grid(9, 1, 4, 2), "covers": ["shapes"]},
        {"id": "column", "stdin": _grid(1, 9, 4, 3), "covers": ["shapes"]},
        {"id": "two-by-two", "stdin": _grid(2, 2, 5, 4), "covers": ["shapes"]},
        {"id": "small", "stdin": _grid(6, 6, 3, 5), "covers": ["values"]},
        {"id": "zero-steps", "stdin": _grid(6, 5, 0, 6), "covers": ["values"]},
        {"id": "extreme", "stdin": _grid(7, 8, 6, 7, tmax=2**31 - 1), "covers": ["overflow"]},
        {"id": "full-conductivity", "stdin": _grid(11, 7, 9, 8, cond=(256, 256)),
         "covers": ["values"]},
        {"id": "wide", "stdin": _grid(61, 5, 4, 9), "covers": ["shapes"]},
        {"id": "tall", "stdin": _grid(5, 61, 4, 10), "covers": ["shapes"]},
    ]


def timing_inputs() -> list[dict[str, object]]:
    return [
        # Made from each evaluation's own secret seed (see runners/kernel.py).
        {"id": "64x64x24", "size": 64 * 64 * 24, "make": lambda seed: _grid(64, 64, 24, seed)},
        {"id": "96x80x16", "size": 96 * 80 * 16, "make": lambda seed: _grid(96, 80, 16, seed)},
    ]
