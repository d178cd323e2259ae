"""`frontier-measure task new`: a package task scaffolded from real code.

From a directory holding a Python package, or from a pinned PyPI release
(`--from-pypi NAME==VERSION`: its source distribution, fetched with pip), it
writes a Harbor task directory:

    task.toml              scale "package", the entry, a threshold to set, and
                           [metadata] source, source_sha256 and license as found
    instruction.md         a draft of what the agent is told
    environment/           Dockerfile + workspace/ (the package, its licence files)
    solution/              solve.sh + workspace/ (a copy of the reference: the
                           author turns it into the faster oracle)
    tests/                 checklist.toml (the imports the package uses, its own
                           tests/ excluded, one draft behaviour per public callable),
                           cases.py (a draft case per public callable, timing inputs
                           to write), test.sh

The library's own tests and compiled files are not copied into the workspace.
What is left to the author: describe behaviours, write cases and timing inputs,
write the oracle, `record`, `validate --strict`, `mutate`.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

from .task import TaskError

LICENSE_FILES = re.compile(r"^(LICEN[CS]E|COPYING|AUTHORS|NOTICE)(\.\w+)?$", re.I)
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.pyo", "*.so", "*.pyd")


def fetch_sdist(requirement: str, dest: Path) -> Path:
    """The source distribution of a pinned PyPI release, downloaded with pip."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*==[A-Za-z0-9.+!_-]+", requirement):
        raise TaskError(Path(requirement), ["--from-pypi needs a pinned NAME==VERSION"])
    r = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps",
                        "--no-binary", ":all:", "-d", str(dest), requirement],
                       capture_output=True, text=True)
    found = sorted(p for p in dest.iterdir() if p.suffix in (".gz", ".zip"))
    if r.returncode != 0 or not found:
        raise TaskError(Path(requirement), [f"pip download failed: {r.stderr.strip()[-500:]}"])
    return found[0]


def unpack(archive: Path, dest: Path) -> Path:
    """An sdist unpacked; its top directory."""
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as z:
            z.extractall(dest)
    else:
        with tarfile.open(archive) as t:
            t.extractall(dest, filter="data")
    tops = [p for p in dest.iterdir() if p.is_dir()]
    return tops[0] if len(tops) == 1 else dest


PACKAGE_BASES = ("", "src", "lib")  # where sdists keep their packages (PyYAML: lib/yaml)


def find_package(root: Path, name: str | None = None) -> Path:
    """The importable package in a source tree: the one named like the
    project if there is one, else the only public package at the top level or
    under src/ or lib/ (private ones, such as PyYAML's `_yaml` bindings, only
    when there is nothing else)."""
    bases = [root / b for b in PACKAGE_BASES]
    candidates = [d for b in bases if b.is_dir() for d in sorted(b.iterdir())
                  if (d / "__init__.py").is_file() and d.name not in ("tests", "test", "docs")]
    if name:
        want = name.lower().replace("-", "_")
        for d in candidates:
            if d.name.lower() in (want, want.removeprefix("py")):
                return d
    public = [d for d in candidates if not d.name.startswith("_")]
    for found in (public, candidates):
        if len(found) == 1:
            return found[0]
    looked = ", ".join(f"{b}/" if b else "the top level" for b in PACKAGE_BASES)
    raise TaskError(root, [f"cannot tell which package to use (looked in {looked}; found: "
                           f"{', '.join(d.name for d in candidates) or 'none'}): give the "
                           "package's own directory with --from"])


def imports_of(package: Path) -> list[str]:
    """Top-level modules the package imports, other than itself."""
    found: set[str] = set()
    for f in package.rglob("*.py"):
        if "tests" in f.relative_to(package).parts:
            continue
        try:
            tree = ast.parse(f.read_bytes())
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                found.add(node.module.split(".")[0])
    return sorted(found - {package.name, "__future__"})


def public_api(workspace: Path, entry: str) -> list[str]:
    """Public callables of the package, found by importing it in a child process."""
    code = ("import inspect, json, sys\n"
            f"sys.path.insert(0, {str(workspace)!r})\n"
            f"import {entry} as m\n"
            "names = getattr(m, '__all__', None) or [n for n in vars(m) if not n.startswith('_')]\n"
            "out = []\n"
            "for n in sorted(set(names)):\n"
            "    o = getattr(m, n, None)\n"
            "    if inspect.isclass(o):\n"
            "        out.append(n)\n"
            "        out += [f'{n}.{a}' for a, v in sorted(vars(o).items())\n"
            "                if not a.startswith('_') and callable(v)]\n"
            "    elif callable(o) and not inspect.ismodule(o):\n"
            "        out.append(n)\n"
            "print(json.dumps(out))\n")
    r = subprocess.run([sys.executable, "-B", "-c", code], capture_output=True, text=True,
                       timeout=120, cwd=tempfile.gettempdir())
    if r.returncode != 0:
        return []
    return list(json.loads(r.stdout.strip().splitlines()[-1]))


def _licence(root: Path) -> str:
    info = root / "PKG-INFO"
    if info.is_file():
        text = info.read_text(errors="replace")
        m = re.search(r"^License-Expression: (.+)$", text, re.M) or \
            re.search(r"^License: (.+)$", text, re.M)
        if m and m.group(1).strip() not in ("", "UNKNOWN"):
            return m.group(1).strip()
        m = re.search(r"^Classifier: License :: (.+)$", text, re.M)
        if m:
            return m.group(1).strip()
    return "TODO: the licence (see environment/workspace/LICENSE)"


def new_task(dest: Path, *, source: Path | None = None, pypi: str | None = None) -> Path:
    """Scaffold a package task at `dest` from a source tree or a PyPI release."""
    if dest.exists() and any(dest.iterdir()):
        raise TaskError(dest, ["already exists and is not empty"])
    with tempfile.TemporaryDirectory(prefix="fm-task-new-") as tmp:
        digest = ""
        if pypi is not None:
            archive = fetch_sdist(pypi, Path(tmp) / "dl")
            digest = hashlib.sha256(archive.read_bytes()).hexdigest()
            root = unpack(archive, Path(tmp) / "src")
            project = pypi.split("==")[0]
            origin = f"{pypi.replace('==', ' ')} from PyPI (https://pypi.org/project/" \
                     f"{project}/{pypi.split('==')[1]}/)"
        elif source is not None:
            root, project, origin = source.resolve(), source.resolve().name, str(source)
        else:
            raise TaskError(dest, ["give a source directory or --from-pypi NAME==VERSION"])
        package = find_package(root, project)
        entry = package.name
        for side in ("environment", "solution"):
            ws = dest / side / "workspace"
            shutil.copytree(package, ws / entry, ignore=SKIP)
            for f in sorted(root.iterdir()):
                if f.is_file() and LICENSE_FILES.match(f.name):
                    shutil.copy2(f, ws / f.name)
        licence = _licence(root)
    ws = dest / "environment" / "workspace"
    own_tests = [f"{entry}/{d.name}" for d in (ws / entry).iterdir()
                 if d.is_dir() and d.name in ("tests", "test")]
    api = public_api(ws, entry)
    (dest / "tests").mkdir(parents=True)
    (dest / "task.toml").write_text(f'''[task]
name = "frontier-measure/{entry}"
description = "Make {entry} faster without changing its public API's behaviour."
authors = [{{ name = "TODO" }}]
keywords = ["python", "package", "performance"]

[metadata]
category = "performance-refactoring"
source = "{origin}"
source_sha256 = "{digest}"
license = "{licence}"

[metadata.frontier]
scale = "package"
entry = "{entry}"
threshold = 1.5  # TODO: what the oracle reaches with a margin
cost = "wall"
repetitions = 5
case_timeout_s = 30

[verifier]
timeout_sec = 900

[agent]
timeout_sec = 3600

[environment]
build_timeout_sec = 600
cpus = 2
memory_mb = 4096
network_mode = "no-network"
workdir = "/workspace"
''')
    # instruction.md is also the base prompt; the agent platform gives an agent
    # one of three prompts (README, "Running agents"): drafts of the others.
    task_text = (f"`/workspace/{entry}/` is {origin}. Make it faster.\n\n"
                 "Keep the public API's behaviour exactly (TODO: name it: functions, values, "
                 "exceptions and their messages). Use only the modules the package already "
                 "uses; no caching of results across calls, no native code.\n\n"
                 "Your code is judged on held-out cases and timed on generated inputs of "
                 "several sizes: it must be at least TODO x faster than the original on every "
                 "size.\n")
    instruction = f"# Faster {entry}\n\n{task_text}"
    (dest / "instruction.md").write_text(instruction)
    (dest / "prompts").mkdir()
    (dest / "prompts" / "base.md").write_text(instruction)
    (dest / "prompts" / "descriptive.md").write_text(
        f"{instruction}\nHow: TODO: where the time goes, and what a faster version does "
        "instead.\n")
    (dest / "prompts" / "lazy.md").write_text(f"Make the {entry} package faster.\n")
    (dest / "environment" / "Dockerfile").write_text(
        "FROM python:3.11-slim\n\nWORKDIR /workspace\nCOPY workspace/ /workspace/\n")
    solve = dest / "solution" / "solve.sh"
    solve.write_text("#!/usr/bin/env bash\n# Oracle: replace the workspace with the known-good "
                     "faster version.\nset -euo pipefail\ncp -r \"$(dirname \"$0\")/workspace/.\" "
                     "/workspace/\n")
    solve.chmod(0o755)
    behaviours = "\n".join(f'{re.sub(r"[^a-z0-9]+", "-", n.lower()).strip("-")} = '
                           f'"TODO: what {n} promises"' for n in api) or \
        'api = "TODO: every promised behaviour"'
    (dest / "tests" / "checklist.toml").write_text(
        "[compliance]\n"
        f"allowed_imports = {json.dumps(imports_of(ws / entry))}\n"
        "prohibited_calls = []\nallow = []\n"
        f"exclude = {json.dumps(own_tests)}  # the library's own tests are not candidate code\n\n"
        f"[behaviours]\n{behaviours}\n")
    drafts = "\n".join(f'        # {{"id": "{n.lower()}", "covers": ["'
                       f'{re.sub(r"[^a-z0-9]+", "-", n.lower()).strip("-")}"], "ops": []}},'
                       for n in api)
    (dest / "tests" / "cases.py").write_text(f'''"""Held-out cases and timing inputs for {entry}.

Drafted by `frontier-measure task new`.

A case is {{"id", "covers", "ops"}}: operations on the public API (README,
"Evaluating tasks"). Public callables found:
{chr(10).join("    " + n for n in api)}
"""


def cases():
    return [
{drafts}
    ]


def timing_inputs():
    # >= 2 sizes; make(seed) builds one timed call from a fresh seed
    return []
''')
    from .harbor import write_test_scripts

    write_test_scripts([dest])
    return dest
