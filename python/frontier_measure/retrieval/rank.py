"""Ranking chunks against a query: BM25 (the bm25s library).

bm25s keeps the index as a sparse matrix of precomputed per-term scores, so a
query costs a few array lookups. The index hands it term ids from a vocabulary
of its own that only grows (a file's ids are computed once, when the file is
read), so a rebuild is bm25s's pass over the ids and nothing more. It is rebuilt
whenever a file changes: BM25's IDF depends on every document.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


class BM25Ranker:
    name = "bm25"

    def __init__(self, k1: float = 1.2, b: float = 0.75) -> None:
        self.k1 = k1
        self.b = b
        self._model = None
        self.vocab: dict[str, int] = {}

    def build(self, docs: Sequence[Sequence[int]], vocab: dict[str, int]) -> None:
        """Index documents given as term ids of `vocab` (term -> id, ids 0..n-1)."""
        import bm25s

        self.vocab = vocab
        if not docs or not vocab:
            self._model = None
            return
        model = bm25s.BM25(k1=self.k1, b=self.b)
        model.index((docs, dict(vocab)), create_empty_token=False, show_progress=False)
        self._model = model

    def top(self, query: Sequence[str], k: int) -> list[tuple[int, float]]:
        """The k best documents as (index, score), best first; documents sharing no
        term with the query are left out."""
        model = self._model
        if model is None or k <= 0:
            return []
        ids = [self.vocab[t] for t in query if t in self.vocab]
        if not ids:
            return []
        scores = np.asarray(model.get_scores_from_ids(ids))
        k = min(k, int(np.count_nonzero(scores > 0)))
        if k == 0:
            return []
        best = np.argpartition(-scores, k - 1)[:k]
        # Ties broken by document order, so a ranking is reproducible.
        best = best[np.lexsort((best, -scores[best]))]
        return [(int(i), float(scores[i])) for i in best]
