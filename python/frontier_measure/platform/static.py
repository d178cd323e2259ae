"""Gate+: what RefactorPlatform's gate (the task's AST tests) cannot see.

The AST tests look at the files they name. A rename that misses one call site
(`length = super_len(body)` after `super_len` became `complex_len`) passes them
and fails at run time with a NameError. Gate+ adds, after the gate:

* a static check of the patched tree: pyright (the one the LSP regime ships,
  scripts/agents.sh) or, without it, pyflakes, on the changed Python files and
  the files that import them. Only diagnostics of the kinds a refactoring breaks
  count (undefined names, unresolved imports, missing attributes and import
  symbols, syntax errors), and only the ones the pristine tree does not have
  already: a repository whose dependencies are not installed here has
  unresolved imports in both trees, which says nothing about the patch;
* an import smoke test of the changed modules, in the task's container image
  (the patched tree mounted read-only, no network), again against the pristine
  tree: a module that imported before the patch and does not after fails it; a
  module that did not import before either (its dependencies are not in the
  image) is inconclusive and named as such.

Neither runs the candidate on the host.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import checkout as co

# pyright rules a refactoring that leaves a dangling reference trips.
PYRIGHT_RULES = frozenset({"reportUndefinedVariable", "reportMissingImports",
                           "reportAttributeAccessIssue", "reportPossiblyUnbound"})
# pyflakes messages of the same kinds (it does not resolve imports).
PYFLAKES_KINDS = ("undefined name", "syntax error", "invalid syntax", "unexpected indent")
MAX_FILES = 400  # a bound on what one gate checks: changed files first, then importers
SKIP_DIRS = frozenset({".git", "__pycache__", "node_modules", ".venv", "venv", ".tox",
                       ".mypy_cache", ".pytest_cache", "build", "dist"})


@dataclass
class Finding:
    path: str
    line: int
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message} ({self.rule})"


# ---------------------------------------------------------------- what to check


def changed_python(pristine: Path, workspace: Path) -> tuple[list[str], list[str]]:
    """(Python files the patch added or modified, Python files it deleted), relative."""
    changes = co.tree_changes(pristine, workspace)
    alive = [c.path for c in changes.items if c.path.endswith(".py") and c.kind != "deleted"]
    gone = [c.path for c in changes.items if c.path.endswith(".py") and c.kind == "deleted"]
    return alive, gone


def module_of(root: Path, rel: str) -> tuple[str, str] | None:
    """(module name, the directory it is imported from) of a file: up the chain of
    packages (directories with __init__.py) from the file."""
    p = Path(rel)
    if p.suffix != ".py":
        return None
    parts = [p.stem] if p.stem != "__init__" else []
    d = p.parent
    while str(d) not in ("", ".") and (root / d / "__init__.py").is_file():
        parts.insert(0, d.name)
        d = d.parent
    if not parts:
        return None
    return ".".join(parts), ("" if str(d) == "." else str(d))


def python_files(root: Path) -> list[str]:
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        rel = os.path.relpath(dirpath, root)
        for name in sorted(filenames):
            if name.endswith(".py"):
                out.append(name if rel == "." else f"{rel}/{name}")
    return out


def _imported(tree: ast.AST, own: str | None, is_package: bool) -> set[str]:
    """Every module name an AST imports (and, for `from X import y`, X.y too: y
    may be a submodule)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                if own is None:
                    continue
                pkg = own.split(".") if is_package else own.split(".")[:-1]
                up = pkg[:len(pkg) - (node.level - 1)] if node.level > 1 else pkg
                base = ".".join(up + ([node.module] if node.module else []))
            if base:
                out.add(base)
                out.update(f"{base}.{a.name}" for a in node.names)
    return out


def importers(root: Path, modules: set[str], exclude: set[str]) -> list[str]:
    """Python files of the tree that import one of `modules` (or a package above one)."""
    if not modules:
        return []
    leaves = {m.rsplit(".", 1)[-1] for m in modules}
    out = []
    for rel in python_files(root):
        if rel in exclude:
            continue
        try:
            text = (root / rel).read_text()
        except (OSError, UnicodeDecodeError):
            continue
        if "import" not in text or not any(leaf in text for leaf in leaves):
            continue  # cheap filter: most files of a big tree never name the module
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        own = module_of(root, rel)
        names = _imported(tree, own[0] if own else None, rel.endswith("__init__.py"))
        if names & modules:
            out.append(rel)
    return out


def files_to_check(pristine: Path, workspace: Path) -> tuple[list[str], list[str]]:
    """(changed Python files, their importers) in the patched tree."""
    alive, gone = changed_python(pristine, workspace)
    mods = set()
    for rel, root in [(r, workspace) for r in alive] + [(r, pristine) for r in gone]:
        m = module_of(root, rel)
        if m:
            mods.add(m[0])
    imp = importers(workspace, mods, set(alive))
    room = max(0, MAX_FILES - len(alive))
    return alive[:MAX_FILES], imp[:room]


# ---------------------------------------------------------------- the checkers


def pyright_command() -> list[str] | None:
    """pyright's CLI: on PATH, in .agents/bin, or beside the language server there."""
    from .agents.command import tools_dir

    found = shutil.which("pyright")
    tools = tools_dir()
    if found is None and tools is not None:
        found = shutil.which("pyright", path=str(tools))
        if found is None and (tools / "pyright-langserver").exists():
            # scripts/agents.sh links only the language server; the CLI is its
            # package's index.js (node_modules/pyright/{index,langserver.index}.js).
            beside = (tools / "pyright-langserver").resolve().parent / "index.js"
            found = str(beside) if beside.is_file() else None
    return [found] if found else None


def pyflakes_command() -> list[str] | None:
    import importlib.util
    import sys

    return [sys.executable, "-m", "pyflakes"] if importlib.util.find_spec("pyflakes") else None


def checker() -> str | None:
    if pyright_command():
        return "pyright"
    if pyflakes_command():
        return "pyflakes"
    return None


def run_pyright(root: Path, files: list[str], timeout_s: float) -> list[Finding]:
    cmd = pyright_command()
    assert cmd is not None
    present = [f for f in files if (root / f).is_file()]
    if not present:
        return []
    r = subprocess.run([*cmd, "--outputjson", *present], cwd=root, capture_output=True,
                       text=True, timeout=timeout_s,
                       env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
                            "HOME": os.environ.get("HOME", "/tmp")})
    try:
        report = json.loads(r.stdout)
    except ValueError:
        raise RuntimeError(f"pyright gave no report (exit {r.returncode}): "
                           f"{(r.stderr or r.stdout)[-800:]}") from None
    out = []
    for d in report.get("generalDiagnostics", []):
        rule = d.get("rule") or ("syntax" if d.get("severity") == "error" else "")
        if d.get("severity") != "error" or (rule not in PYRIGHT_RULES and rule != "syntax"):
            continue
        path = os.path.relpath(d.get("file", ""), root)
        out.append(Finding(path, int(d.get("range", {}).get("start", {}).get("line", 0)) + 1,
                           rule, str(d.get("message", "")).splitlines()[0]))
    return out


def run_pyflakes(root: Path, files: list[str], timeout_s: float) -> list[Finding]:
    cmd = pyflakes_command()
    assert cmd is not None
    present = [f for f in files if (root / f).is_file()]
    if not present:
        return []
    r = subprocess.run([*cmd, *present], cwd=root, capture_output=True, text=True,
                       timeout=timeout_s)
    out = []
    for line in (r.stdout + r.stderr).splitlines():
        parts = line.split(":", 3)
        if len(parts) < 3 or not parts[1].isdigit():
            continue
        msg = parts[-1].strip()
        if any(k in msg for k in PYFLAKES_KINDS):
            out.append(Finding(parts[0], int(parts[1]), "pyflakes", msg))
    return out


def _new(after: list[Finding], before: list[Finding]) -> list[Finding]:
    """Findings of the patched tree the pristine one does not have (by file, rule and
    message: lines move under a patch, so they are not compared)."""
    seen = Counter((f.path, f.rule, f.message) for f in before)
    out = []
    for f in after:
        k = (f.path, f.rule, f.message)
        if seen[k]:
            seen[k] -= 1
        else:
            out.append(f)
    return out


def static_check(pristine: Path, workspace: Path, timeout_s: float = 300) \
        -> tuple[bool | None, str, dict[str, Any]]:
    """(passed, output, details). passed is None when no checker is installed."""
    tool = checker()
    changed, imp = files_to_check(pristine, workspace)
    details: dict[str, Any] = {"tool": tool, "changed": changed, "importers": imp}
    if not changed:
        return True, "no Python file changed", details
    if tool is None:
        return None, ("not run: neither pyright (scripts/agents.sh) nor pyflakes is "
                      "installed"), details
    run = run_pyright if tool == "pyright" else run_pyflakes
    files = changed + imp
    after = run(workspace, files, timeout_s)
    # The pristine tree is checked only where the patched one has findings (a
    # second pyright run is the gate+'s largest cost).
    flagged = sorted({f.path for f in after})
    before = run(pristine, flagged, timeout_s) if flagged else []
    new = _new(after, before)
    details["findings"] = [str(f) for f in new]
    head = (f"{tool} on {len(changed)} changed file(s) and {len(imp)} importer(s): ")
    if new:
        return False, head + f"{len(new)} new problem(s)\n" + "\n".join(str(f) for f in new[:50]), \
            details
    return True, head + "nothing the pristine tree does not have", details


# ---------------------------------------------------------------- import smoke test

SMOKE = r"""
import importlib, json, sys
out = {}
for mod, base in json.loads(sys.argv[1]):
    path = "/fm-tree/" + base if base else "/fm-tree"
    sys.path.insert(0, path)
    try:
        importlib.import_module(mod)
        out[mod] = None
    except BaseException as exc:
        out[mod] = f"{type(exc).__name__}: {exc}"[:400]
    finally:
        sys.path.remove(path)
print(json.dumps(out))
"""


def task_image(task_path: Path) -> str | None:
    try:
        doc = tomllib.loads((task_path / "task.toml").read_text())
    except (OSError, tomllib.TOMLDecodeError):
        return None
    return doc.get("environment", {}).get("docker_image")


def _image_present(image: str) -> bool:
    return subprocess.run(["docker", "image", "inspect", image],
                          capture_output=True).returncode == 0


def _imports_in(image: str, tree: Path, modules: list[tuple[str, str]],
                timeout_s: float) -> dict[str, str | None]:
    r = subprocess.run(
        ["docker", "run", "--rm", "--network", "none", "--memory", "1g", "--pids-limit", "256",
         "-e", "PYTHONDONTWRITEBYTECODE=1", "-v", f"{tree.resolve()}:/fm-tree:ro",
         "-w", "/fm-tree", "--entrypoint", "python3", image, "-I", "-c", SMOKE,
         json.dumps(modules)], capture_output=True, text=True, timeout=timeout_s)
    try:
        return dict(json.loads(r.stdout.strip().splitlines()[-1]))
    except (ValueError, IndexError):
        raise RuntimeError(f"no report from the container (exit {r.returncode}): "
                           f"{r.stderr[-600:]}") from None


def import_smoke(task_path: Path, pristine: Path, workspace: Path, base_image: str,
                 timeout_s: float = 300) -> tuple[bool | None, str]:
    """(passed, output): the changed modules imported in the task's image, patched
    tree against pristine. None: could not run, or nothing conclusive."""
    alive, _ = changed_python(pristine, workspace)
    modules = sorted({m for rel in alive if (m := module_of(workspace, rel))})
    if not modules:
        return True, "no importable module changed"
    if shutil.which("docker") is None:
        return None, "not run: no docker here"
    # The task's own image is its base image with the pristine checkout copied in;
    # the tree is mounted over it, so the base image is as good when it is absent.
    image = task_image(task_path)
    if not image or not _image_present(image):
        image = base_image
        if not _image_present(image):
            return None, f"not run: neither the task's image nor {base_image} is built"
    after = _imports_in(image, workspace, modules, timeout_s)
    before = _imports_in(image, pristine, modules, timeout_s)
    broke = [m for m, _ in modules if after.get(m) and before.get(m) is None and m in before]
    inconclusive = [m for m, _ in modules if before.get(m)]
    lines = [f"{m}: {'ok' if after.get(m) is None else after[m]}"
             + (f" (pristine: {before[m]})" if before.get(m) else "") for m, _ in modules]
    text = f"in {image}:\n" + "\n".join(lines)
    if broke:
        return False, f"{len(broke)} module(s) no longer import; " + text
    if len(inconclusive) == len(modules):
        return None, "inconclusive: no changed module imports in the pristine tree either; " + text
    return True, text
