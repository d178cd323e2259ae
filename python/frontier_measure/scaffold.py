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


def public_api(workspace: Path, entry: str, imports: list[str] | None = None) -> list[str]:
    """Public callables of the package (and of the submodules in `imports`,
    as `submodule.name`), found by importing the workspace's copy in a child
    process. A copy of the same package installed where the tool runs is
    never what is read: the import must come from `workspace`, or this fails
    saying where it came from."""
    workspace = workspace.resolve()
    code = ("import importlib, inspect, json, os, sys\n"
            f"ws = {str(workspace)!r}\n"
            "sys.path.insert(0, ws)\n"
            f"m = importlib.import_module({entry!r})\n"
            "where = os.path.realpath(getattr(m, '__file__', None) or '')\n"
            "if not where.startswith(ws + os.sep):\n"
            "    sys.exit(f'imported {m.__name__} from {where or \"nowhere\"}, not the workspace')\n"
            "def api(mod, prefix):\n"
            "    names = getattr(mod, '__all__', None) or "
            "[n for n in vars(mod) if not n.startswith('_')]\n"
            "    out = []\n"
            "    for n in sorted(set(names)):\n"
            "        o = getattr(mod, n, None)\n"
            "        if inspect.isclass(o):\n"
            "            out.append(prefix + n)\n"
            "            out += [f'{prefix}{n}.{a}' for a, v in sorted(vars(o).items())\n"
            "                    if not a.startswith('_') and callable(v)]\n"
            "        elif callable(o) and not inspect.ismodule(o):\n"
            "            out.append(prefix + n)\n"
            "    return out\n"
            "out = api(m, '')\n"
            f"for sub in {list(imports or [])!r}:\n"
            "    out += api(importlib.import_module(sub), sub.split('.', 1)[1] + '.')\n"
            "print(json.dumps(out))\n")
    # -I: no PYTHONPATH, no user site; the tool's own site-packages stay (a
    # package's dependencies may be there) but come after the workspace.
    r = subprocess.run([sys.executable, "-I", "-B", "-c", code], capture_output=True, text=True,
                       timeout=120, cwd=tempfile.gettempdir())
    if r.returncode != 0:
        why = (r.stderr.strip().splitlines() or ["no output"])[-1]
        raise TaskError(workspace, [f"cannot import '{entry}' from the workspace to draft its "
                                    f"API: {why}"])
    return list(json.loads(r.stdout.strip().splitlines()[-1]))


def public_submodules(package: Path) -> list[str]:
    """The package's public submodules (dotted, one level down; not its own
    tests): the modules an API kept in submodules is reached through."""
    out = []
    for f in sorted(package.iterdir()):
        name = f.stem if f.suffix == ".py" else f.name
        if name.startswith("_") or name in ("tests", "test", "conftest"):
            continue
        if (f.suffix == ".py" and f.is_file()) or (f / "__init__.py").is_file():
            out.append(f"{package.name}.{name}")
    return out


# Licence texts recognised by phrases, with their SPDX identifiers (first match).
_LICENCE_TEXTS = [
    (("Apache License", "Version 2.0"), "Apache-2.0"),
    (("Permission is hereby granted, free of charge",), "MIT"),
    (("Redistribution and use in source and binary forms", "Neither the name"), "BSD-3-Clause"),
    (("Redistribution and use in source and binary forms",), "BSD-2-Clause"),
    (("Mozilla Public License Version 2.0",), "MPL-2.0"),
    (("GNU LESSER GENERAL PUBLIC LICENSE", "Version 3"), "LGPL-3.0-or-later"),
    (("GNU LESSER GENERAL PUBLIC LICENSE", "Version 2.1"), "LGPL-2.1-or-later"),
    (("GNU GENERAL PUBLIC LICENSE", "Version 3"), "GPL-3.0-or-later"),
    (("GNU GENERAL PUBLIC LICENSE", "Version 2"), "GPL-2.0-or-later"),
    (("PYTHON SOFTWARE FOUNDATION LICENSE",), "PSF-2.0"),
    (("Permission to use, copy, modify, and/or distribute",), "ISC"),
    (("This is free and unencumbered software released into the public domain",), "Unlicense"),
]
# Trove classifiers that name one licence, for a source whose files say nothing.
_CLASSIFIERS = {"MIT License": "MIT", "Apache Software License": "Apache-2.0",
                "BSD License": "BSD-3-Clause", "ISC License (ISCL)": "ISC",
                "Mozilla Public License 2.0 (MPL 2.0)": "MPL-2.0",
                "Python Software Foundation License": "PSF-2.0",
                "The Unlicense (Unlicense)": "Unlicense"}


def _spdx_of_text(text: str) -> str | None:
    flat = " ".join(text.split())
    for phrases, spdx in _LICENCE_TEXTS:
        if all(p in flat for p in phrases):
            return spdx
    return None


def licence(root: Path) -> tuple[str, list[str]]:
    """The source's licence as an SPDX expression, and its licence files.
    The package's own declaration first (PKG-INFO's License-Expression), else
    what its licence files say (several licences: an OR, as dual-licensed
    projects such as packaging ship them), else its classifiers."""
    files = sorted(f.name for f in root.iterdir() if f.is_file() and LICENSE_FILES.match(f.name))
    info = root / "PKG-INFO"
    text = info.read_text(errors="replace") if info.is_file() else ""
    m = re.search(r"^License-Expression: (.+)$", text, re.M)
    if m and m.group(1).strip():
        return m.group(1).strip(), files
    # The older License field holds anything (often a whole licence text):
    # taken only when it reads as an SPDX expression.
    m = re.search(r"^License: ([A-Za-z0-9.+-]+(?: (?:OR|AND|WITH) [A-Za-z0-9.+-]+)*)\s*$", text,
                  re.M)
    if m and m.group(1) != "UNKNOWN":
        return m.group(1), files
    found: list[str] = []
    for name in files:
        spdx = _spdx_of_text((root / name).read_text(errors="replace"))
        if spdx and spdx not in found:
            found.append(spdx)
    if found:
        return " OR ".join(found), files
    for c in re.findall(r"^Classifier: License :: OSI Approved :: (.+)$", text, re.M):
        if c.strip() in _CLASSIFIERS:
            return _CLASSIFIERS[c.strip()], files
    return "TODO: the licence's SPDX identifier", files


def new_task(dest: Path, *, source: Path | None = None, pypi: str | None = None) -> Path:
    """Scaffold a package task at `dest` from a source tree or a PyPI release."""
    # Resolved first: everything below reads and imports the copy written here.
    dest = dest.resolve()
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
        spdx, licence_files = licence(root)
    ws = dest / "environment" / "workspace"
    own_tests = [f"{entry}/{d.name}" for d in (ws / entry).iterdir()
                 if d.is_dir() and d.name in ("tests", "test")]
    api = public_api(ws, entry)
    imports: list[str] = []
    if not api:
        # Nothing public at the top (packaging keeps its API in submodules):
        # the submodules are imported with the entry and drafted instead.
        imports = public_submodules(ws / entry)
        api = public_api(ws, entry, imports)
    where = ", ".join(f"environment/workspace/{f}" for f in licence_files) or "no licence file"
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
license = "{spdx} ({where})"

[metadata.frontier]
scale = "package"
entry = "{entry}"
import = {json.dumps(imports)}  # submodules imported with the entry (cases call `sub.name`)
threshold = 1.5  # TODO: what the oracle reaches with a margin
cost = "wall"
repetitions = 5
case_timeout_s = 30

# Harbor's lint: the verifier shares the agent's container on purpose (it must
# see the agent's work); tests/test.sh trusts nothing in it (README, Harbor).
[metadata.harbor.lint]
ignore = ["shared-verifier"]

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
    # one of three prompts (docs/getting-started/run-agents.md): drafts of the others.
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

A case is {{"id", "covers", "ops"}}: operations on the public API (docs/reference/task-format.md,
"Operations of a case"). Public callables found:
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
