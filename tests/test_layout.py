"""The package's shape: no import cycles between its modules (lazy imports
inside functions count too: a cycle is a cycle whenever it is taken)."""

from __future__ import annotations

import ast
from pathlib import Path

import frontier_measure

PKG = Path(frontier_measure.__file__).resolve().parent
NAME = "frontier_measure"


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in PKG.rglob("*.py") if "_container" not in p.parts}


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    is_pkg = path.name == "__init__.py"
    here = name if is_pkg else name.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith(NAME))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.rsplit(".", node.level - 1)[0] if node.level > 1 else here
                mod = f"{base}.{node.module}" if node.module else base
            elif (node.module or "").startswith(NAME):
                mod = node.module or ""
            else:
                continue
            for a in node.names:
                sub = f"{mod}.{a.name}"
                out.add(sub if sub in known else mod)
    return {m for m in out if m in known and m != name}


def test_no_import_cycles():
    mods = _modules()
    known = set(mods)
    graph = {m: _imports(m, p, known) for m, p in mods.items()}
    # A package imports its parent package's __init__ implicitly; that edge is
    # not a design choice and is left out, as are the edges *to* a parent.
    for m in graph:
        graph[m] = {d for d in graph[m] if not m.startswith(d + ".")}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        stack.append(m)
        for d in sorted(graph[m]):
            if state.get(d) == 1:
                cycles.append(stack[stack.index(d):] + [d])
            elif d not in state:
                visit(d, stack)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])
    assert cycles == [], "\n".join(" -> ".join(c) for c in cycles)


def test_every_scale_has_one_runner_file():
    from frontier_measure.runners import RUNNERS
    from frontier_measure.task import SCALES

    assert set(RUNNERS) == set(SCALES)
    for module in set(RUNNERS.values()):
        mod = __import__(module, fromlist=["x"])
        for fn in ("configure", "cases", "timing_inputs", "held_out", "inspect", "item_rule",
                   "validate", "open_session"):
            assert callable(getattr(mod, fn, None)), f"{module}.{fn}"
