"""The retrieval benchmark on RefactorBench: does the index find what a task is about?

For each task, the query is its problem statement in one prompt mode
(descriptive: What+Where+How, base: What+Where, lazy: What), and the relevant
set is what its AST tests inspect (relevance.py). The index is built over the
repository as it is before the refactoring, once per chunker, and asked for
the best `depth` chunks. Per query:

    file Recall@k   share of the relevant files with a chunk among the top k
    def Recall@k    share of the relevant definitions whose def/class line a chunk
                    among the top k covers (tasks without relevant definitions are
                    left out of this one)
    RR              1 / rank of the first relevant chunk within `depth` (0 if none):
                    a chunk is relevant when it covers a relevant definition's line,
                    or, for a task without relevant definitions, when it is in a
                    relevant file; MRR is its mean

Means are over tasks, per chunker and prompt mode. `bench/retrieval.py` runs all
100 tasks; the tests run a slice.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cache import ChunkCache
from .index import BuildStats, CodeIndex, Hit, make_chunker
from .relevance import Relevant, relevant_set

KS = (5, 10, 20)
MODES = ("descriptive", "base", "lazy")


@dataclass
class Query:
    task: str
    mode: str
    chunker: str
    file_recall: dict[int, float]
    def_recall: dict[int, float] | None
    rr: float


@dataclass
class Build:
    repo: str
    chunker: str
    stats: BuildStats
    mean_terms: float


@dataclass
class Results:
    queries: list[Query] = field(default_factory=list)
    builds: list[Build] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # tasks without a relevant file
    ks: tuple[int, ...] = KS


@dataclass(frozen=True)
class BenchTask:
    id: str  # repo/task
    repo: str
    checkout: Path
    test: Path
    statements: dict[str, str]  # prompt mode -> problem statement


def score(hits: Sequence[Hit], rel: Relevant, ks: Iterable[int]) -> tuple[
        dict[int, float], dict[int, float] | None, float]:
    ks = tuple(ks)
    file_recall: dict[int, float] = {}
    def_recall: dict[int, float] | None = {} if rel.definitions else None
    for k in ks:
        top = hits[:k]
        files = {h.chunk.path for h in top}
        file_recall[k] = len(rel.files & files) / len(rel.files)
        if def_recall is not None:
            found = sum(1 for d in rel.definitions
                        if any(h.chunk.path == d.path and h.chunk.covers(d.line) for h in top))
            def_recall[k] = found / len(rel.definitions)
    rr = 0.0
    for h in hits:
        if rel.definitions:
            good = any(h.chunk.path == d.path and h.chunk.covers(d.line) for d in rel.definitions)
        else:
            good = h.chunk.path in rel.files
        if good:
            rr = 1.0 / h.rank
            break
    return file_recall, def_recall, rr


def refactorbench_tasks(src: Path, select: Sequence[str] | None = None) -> list[BenchTask]:
    """The tasks of an unpacked RefactorBench snapshot (platform/refactorbench.py)."""
    import fnmatch

    from ..platform.refactorbench import entries

    out = []
    for e in entries(src):
        if select and not any(fnmatch.fnmatchcase(e.id, p) for p in select):
            continue
        out.append(BenchTask(e.id, e.repo, src / "repositories" / f"{e.repo}_refactor", e.test,
                             {m: p.read_text().strip() for m, p in e.problems.items()}))
    return out


def run(tasks: Sequence[BenchTask], chunkers: Sequence[str] = ("ast", "naive"),
        modes: Sequence[str] = MODES, ks: Sequence[int] = KS, depth: int = 100,
        cache: ChunkCache | None = None, log: bool = False,
        options: dict[str, dict[str, int]] | None = None, embedder: Any = None,
        rerank_depth: int = 50) -> Results:
    """Every task's queries against each chunker's index (`options`: a chunker's
    parameters, e.g. {"naive": {"size": 100, "overlap": 25}}). With an embedder
    (embed.py), BM25's best `rerank_depth` chunks are re-ranked by it and each
    query is scored twice: as `<chunker>` and as `<chunker>+minilm`."""
    res = Results(ks=tuple(ks))
    by_repo: dict[str, list[BenchTask]] = {}
    for t in tasks:
        by_repo.setdefault(t.repo, []).append(t)
    for repo, repo_tasks in sorted(by_repo.items()):
        rels = {t.id: relevant_set(t.test, t.checkout) for t in repo_tasks}
        for name in chunkers:
            index = CodeIndex(repo_tasks[0].checkout,
                              make_chunker(name, **(options or {}).get(name, {})), cache=cache)
            stats = index.refresh()
            sizes = [len(ids) for e in index.entries.values() for ids in e.ids]
            res.builds.append(Build(repo, name, stats, statistics.fmean(sizes) if sizes else 0.0))
            if log:
                print(f"  {repo:9s} {name:5s} {stats.files:5d} files {stats.chunks:6d} chunks "
                      f"{stats.total_s:6.1f} s (chunked {stats.chunked}, cached {stats.cached})",
                      flush=True)
            for t in repo_tasks:
                rel = rels[t.id]
                if not rel.files:
                    if name == chunkers[0]:
                        res.skipped.append(t.id)
                    continue
                for mode in modes:
                    hits = index.search(t.statements[mode], depth)
                    fr, dr, rr = score(hits, rel, ks)
                    res.queries.append(Query(t.id, mode, name, fr, dr, rr))
                    if embedder is not None:
                        from .embed import rerank

                        top = hits[:rerank_depth]
                        again = rerank(embedder, t.statements[mode], top,
                                       [index.text(h.chunk) for h in top]) + hits[rerank_depth:]
                        fr, dr, rr = score(again, rel, ks)
                        res.queries.append(Query(t.id, mode, f"{name}+minilm", fr, dr, rr))
    return res


def _mean(xs: list[float]) -> float | None:
    return statistics.fmean(xs) if xs else None


def summary(res: Results) -> list[dict[str, object]]:
    """One row per chunker and prompt mode: means over tasks."""
    rows = []
    keys = sorted({(q.chunker, q.mode) for q in res.queries},
                  key=lambda cm: (cm[0], MODES.index(cm[1]) if cm[1] in MODES else 9))
    for chunker, mode in keys:
        qs = [q for q in res.queries if q.chunker == chunker and q.mode == mode]
        with_defs = [q for q in qs if q.def_recall is not None]
        row: dict[str, object] = {"chunker": chunker, "mode": mode, "tasks": len(qs),
                                  "tasks_with_defs": len(with_defs)}
        for k in res.ks:
            row[f"file_R@{k}"] = _mean([q.file_recall[k] for q in qs])
        for k in res.ks:
            row[f"def_R@{k}"] = _mean([q.def_recall[k] for q in with_defs if q.def_recall])
        row["MRR"] = _mean([q.rr for q in qs])
        rows.append(row)
    return rows


def markdown(res: Results) -> str:
    rows = summary(res)
    ks = res.ks
    head = (["chunker", "prompt mode", "tasks"] + [f"file R@{k}" for k in ks]
            + [f"def R@{k}" for k in ks] + ["MRR"])
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [str(r["chunker"]), str(r["mode"]), f"{r['tasks']} ({r['tasks_with_defs']})"]
        cells += [_pct(r[f"file_R@{k}"]) for k in ks] + [_pct(r[f"def_R@{k}"]) for k in ks]
        cells.append("n/a" if r["MRR"] is None else f"{float(r['MRR']):.3f}")  # type: ignore[arg-type]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def _pct(x: object) -> str:
    return "n/a" if x is None else f"{100 * float(x):.1f}%"  # type: ignore[arg-type]


def builds_markdown(res: Results) -> str:
    head = ["repository", "chunker", "files", "chunks", "terms/chunk", "build s", "chunked",
            "from cache"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for b in res.builds:
        s = b.stats
        out.append(f"| {b.repo} | {b.chunker} | {s.files} | {s.chunks} | {b.mean_terms:.0f} | "
                   f"{s.total_s:.1f} | {s.chunked} | {s.cached} |")
    return "\n".join(out) + "\n"

