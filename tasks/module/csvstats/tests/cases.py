"""Held-out cases and timing inputs for the csvstats task."""

import random


def _csv(seed, rows, cols, missing=0.1):
    rng = random.Random(seed)
    lines = [",".join(f"c{i}" for i in range(cols))]
    for _ in range(rows):
        cells = []
        for _ in range(cols):
            r = rng.random()
            if r < missing:
                cells.append("")
            elif r < 0.5:
                cells.append(str(rng.randrange(-1000, 1000)))
            else:
                cells.append(repr(rng.uniform(-1e3, 1e3)))
        lines.append(",".join(cells))
    return "\n".join(lines) + "\n"


def cases():
    out = [
        {"id": "basic", "covers": ["stats"], "call": "column_stats",
         "args": ["a,b\n1,2\n3,4\n5,6\n"]},
        {"id": "float-sum", "covers": ["float-sum"], "call": "column_stats",
         "args": ["x\n0.1\n0.2\n0.3\n1e16\n1\n-1e16\n"]},
        {"id": "missing", "covers": ["missing"], "call": "column_stats",
         "args": ["a,b,c\n1,,3\n,5,\n7,8,9\n"]},
        {"id": "empty-column", "covers": ["empty-column"], "call": "column_stats",
         "args": ["a,b\n1,\n2,\n"]},
        {"id": "spaces", "covers": ["spaces"], "call": "column_stats",
         "args": [" a , b \n 1 , 2\n3,  4 \n"]},
        {"id": "blank-lines", "covers": ["blank-lines"], "call": "column_stats",
         "args": ["a\n1\n\n   \n2\n"]},
        {"id": "blank-line-error", "covers": ["blank-lines", "bad-cell"], "call": "column_stats",
         "args": ["a\n1\n\nx\n"]},
        {"id": "number-forms", "covers": ["number-forms"], "call": "column_stats",
         "args": ["a,b,c\n1e3,-inf,+5\n2.5E-3,inf,nan\n-0,1_000,.5\n"]},
        {"id": "header-only", "covers": ["header-only"], "call": "column_stats",
         "args": ["a,b,c\n"]},
        {"id": "no-newline", "covers": ["stats"], "call": "column_stats", "args": ["a,b\n1,2"]},
        {"id": "empty", "covers": ["empty-input"], "call": "column_stats", "args": [""]},
        {"id": "blank", "covers": ["empty-input"], "call": "column_stats", "args": [" \n\n"]},
        {"id": "ragged", "covers": ["ragged"], "call": "column_stats",
         "args": ["a,b\n1,2\n3\n4,5\n"]},
        {"id": "ragged-long", "covers": ["ragged"], "call": "column_stats",
         "args": ["a,b\n1,2,3\n"]},
        {"id": "bad-cell", "covers": ["bad-cell"], "call": "column_stats",
         "args": ["a,b\n1,2\n3,four\n"]},
        {"id": "order-columns", "covers": ["error-order"], "call": "column_stats",
         "args": ["a,b\n1,x\ny,2\n"]},
        {"id": "order-ragged-first", "covers": ["error-order"], "call": "column_stats",
         "args": ["a,b\n1,x\n2\nz,3\n"]},
        {"id": "order-bad-first", "covers": ["error-order"], "call": "column_stats",
         "args": ["a,b\nq,1\n2\n"]},
        {"id": "order-later-column", "covers": ["error-order"], "call": "column_stats",
         "args": ["a,b,c\n1,2,x\n3,y,4\n"]},
    ]
    for k in range(10):
        out.append({"id": f"random-{k}", "covers": ["stats", "missing", "float-sum"],
                    "call": "column_stats", "args": [_csv(k, 5 + 20 * k, 1 + k % 6)]})
    return out


def timing_inputs():
    def make(rows, cols):
        def one(seed):
            return {"call": "column_stats", "args": [_csv(seed, rows, cols)]}
        return one

    return [
        {"id": "rows200-cols8", "size": 200, "make": make(200, 8)},
        {"id": "rows600-cols12", "size": 600, "make": make(600, 12)},
    ]
