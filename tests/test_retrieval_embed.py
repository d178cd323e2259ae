"""Dense re-ranking (retrieval/embed.py) with the local all-MiniLM-L6-v2, where it is
installed: it is optional (it brings PyTorch), so this skips on a machine without it."""

from __future__ import annotations

from pathlib import Path

import pytest

from frontier_measure.retrieval import embed
from frontier_measure.retrieval.chunks import Chunk
from frontier_measure.retrieval.index import Hit

pytestmark = pytest.mark.skipif(embed.unavailable() is not None,
                                reason=str(embed.unavailable()))


@pytest.mark.slow
def test_rerank_fuses_bm25_and_cosine_ranks_and_caches_vectors(tmp_path: Path) -> None:
    e = embed.Embedder(max_tokens=64, cache=tmp_path / "vectors.sqlite")
    texts = ["def add(a, b):\n    return a + b",
             "def open_config_file(path):\n    return json.load(open(path))",
             "class Colour:\n    RED = 1"]
    hits = [Hit(r + 1, 3.0 - r, Chunk(f"m{r}.py", "function", "", ((0, 1),), ((1, 2),)))
            for r in range(3)]
    again = embed.rerank(e, "read the settings from a JSON configuration file", hits, texts)
    assert [h.rank for h in again] == [1, 2, 3]
    assert sorted(h.chunk.path for h in again) == ["m0.py", "m1.py", "m2.py"]
    # Second by BM25, first by meaning: the fusion puts it first.
    assert again[0].chunk.path == "m1.py"
    read = e.tokens
    assert read > 0
    embed.rerank(e, "read the settings from a JSON configuration file", hits, texts)
    assert e.tokens == read  # every vector came from the cache
