"""RefactorBench as tasks this platform runs.

The snapshot (a tarball of microsoft/RefactorBench, see shared/data/README.md)
holds nine repositories, 100 tasks stated in three prompt modes and one file of
AST unit tests per task. `import_snapshot()` unpacks it into a cache directory
(never into this repository) and writes one Harbor task directory per task:

    <out>/tasks/<repo>/<task>/
        task.toml           [metadata.refactorbench]: repository, task, the test file, and
                            `checkout`, the path of the repository's one shared checkout
        instruction.md      the base statement (What+Where)
        prompts/{descriptive,base,lazy}.md
        environment/Dockerfile   FROM the repository's shared image (build_images())
        tests/test.sh       Harbor verifier: every AST test must pass (reward 1, else 0)
        tests/<test file>, tests/run_ast_tests.py
        solution/solve.sh, solution/reference/   only for the tasks with a hand-made
                            refactoring (solutions/): the oracle, and the files it
                            changes (CodeBLEU's reference)

The 100 tasks share one checkout per repository (the unpacked snapshot's
`repositories/<repo>_refactor/`): an attempt gets a private overlay or copy of it.
Task-to-test and task-to-statement pairs come from the snapshot's own mapping files
(`scripts/{base,descriptive,lazy}_mapping.py`, read as data, never run).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import shutil
import subprocess
import tarfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..checkout import Checkout, digest
from ..tasks import PROMPT_MODES

HERE = Path(__file__).resolve().parent
SNAPSHOT_NAME = "refactorbench-2c93696.tar.gz"
SOURCE = "microsoft/RefactorBench@2c936969a6738a54a4f4df9175339c6d201785ac"
BASE_IMAGE = os.environ.get("FM_DOCKER_IMAGE", "frontier-measure/base:bookworm-1")


class SnapshotError(Exception):
    pass


def default_snapshot() -> Path | None:
    """$FM_REFACTORBENCH, else shared/data/ beside this checkout (or its parent)."""
    env = os.environ.get("FM_REFACTORBENCH")
    if env:
        return Path(env)
    here = Path(__file__).resolve()
    for parent in here.parents:
        for cand in (parent / "shared" / "data" / SNAPSHOT_NAME,
                     parent.parent / "shared" / "data" / SNAPSHOT_NAME):
            if cand.is_file():
                return cand
    return None


def cache_root() -> Path:
    return Path(os.environ.get("FM_CACHE") or Path.home() / ".cache" / "frontier-measure")


def _sha(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:12]


def unpack(snapshot: Path, cache: Path | None = None) -> Path:
    """The unpacked snapshot (unpacked once per machine; safe extraction)."""
    if not snapshot.is_file():
        raise SnapshotError(f"{snapshot}: no RefactorBench snapshot there")
    root = (cache or cache_root()) / "refactorbench" / _sha(snapshot)
    src = root / "src"
    if (root / "unpacked").is_file():
        return src
    partial = root / "src.partial"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    with tarfile.open(snapshot) as tar:
        tar.extractall(partial, filter="data")
    top = [p for p in partial.iterdir()]
    inner = top[0] if len(top) == 1 and top[0].is_dir() and not (partial / "problems").is_dir() \
        else partial
    shutil.rmtree(src, ignore_errors=True)
    inner.rename(src) if inner != partial else partial.rename(src)
    shutil.rmtree(partial, ignore_errors=True)
    (root / "unpacked").write_text(str(snapshot) + "\n")
    return src


@dataclass(frozen=True)
class Entry:
    repo: str  # flask
    task: str  # render-template-str
    test: Path
    problems: dict[str, Path]  # prompt mode -> statement file

    @property
    def id(self) -> str:
        return f"{self.repo}/{self.task}"


def entries(src: Path) -> list[Entry]:
    """Every task of the unpacked snapshot, from its mapping files."""
    maps = {}
    for mode in PROMPT_MODES:
        path = src / "scripts" / f"{mode}_mapping.py"
        try:
            tree = ast.parse(path.read_text())
            value = next(n.value for n in tree.body if isinstance(n, ast.Assign))
            maps[mode] = ast.literal_eval(value)
        except (OSError, SyntaxError, StopIteration, ValueError) as exc:
            raise SnapshotError(f"{path}: cannot read the mapping ({exc})") from None
    out = []
    for test_rel, base_rel in sorted(maps["base"].items()):
        test = (src / "scripts" / test_rel).resolve()
        repo = test.parent.name.removesuffix("_refactor")
        task = Path(base_rel).name.removesuffix(".txt").removesuffix("-task")
        problems = {m: (src / "scripts" / maps[m][test_rel]).resolve() for m in PROMPT_MODES
                    if test_rel in maps[m]}
        missing = [m for m in PROMPT_MODES if m not in problems or not problems[m].is_file()]
        if missing or not test.is_file():
            raise SnapshotError(f"{test_rel}: missing {'the test file' if not test.is_file() else ''}"
                                f"{' statements: ' + ', '.join(missing) if missing else ''}")
        out.append(Entry(repo, task, test, problems))
    return out


def image_name(repo: str, checkout: Path) -> str:
    return f"frontier-measure/refactorbench-{repo}:{digest(checkout)}"


TEST_SH = r"""#!/usr/bin/env bash
# Harbor verifier of a RefactorBench task (written by frontier-measure's importer):
# runs the task's AST tests against the repository in $FM_WORKSPACE (default
# /workspace); reward 1 only when every test passes. Clears the log directory first
# and writes reward.json last.
set -u
LOGS="${FM_LOGS:-/logs/verifier}"
WS="${FM_WORKSPACE:-@WORKDIR@}"
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$LOGS"
mkdir -p "$LOGS"
gate="$WS/.fm-gate-$$"
mkdir -p "$gate"
(cd "$gate" && python3 -I "$here/run_ast_tests.py" "$here/@TEST@") >"$LOGS/tests.json" 2>"$LOGS/error.txt"
rm -rf "$gate"
python3 - "$LOGS/tests.json" >"$LOGS/reward.json.partial" <<'PY'
import json, sys
try:
    tests = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1]).get("tests", [])
except Exception:
    tests = []
passed = sum(1 for t in tests if t["passed"])
print(json.dumps({"reward": 1 if tests and passed == len(tests) else 0,
                  "tests_passed": passed, "tests_total": len(tests)}))
PY
[ -s "$LOGS/reward.json.partial" ] || echo '{"reward": 0, "tests_passed": 0, "tests_total": 0}' \
    >"$LOGS/reward.json.partial"
mv -f "$LOGS/reward.json.partial" "$LOGS/reward.json"
"""


def _toml_str(s: str) -> str:
    return json.dumps(s)  # a JSON string is a valid TOML basic string


def _import_key(e: Entry, checkout: Path) -> str:
    """What a written task depends on: this importer, its inputs, its solution."""
    h = hashlib.sha256()
    for p in (Path(__file__), HERE / "run_ast_tests.py", e.test, *e.problems.values(),
              HERE / "solutions" / f"{e.repo}--{e.task}.sh"):
        h.update(p.read_bytes() if p.is_file() else b"-")
    h.update(str(checkout).encode())
    return h.hexdigest()[:16]


def write_task(e: Entry, checkout: Path, dest: Path) -> Path:
    key = _import_key(e, checkout)
    marker = dest / ".fm-import"
    if marker.is_file() and marker.read_text().strip() == key:
        return dest  # written by this importer from the same inputs: nothing to do
    if dest.exists():
        shutil.rmtree(dest)
    (dest / "prompts").mkdir(parents=True)
    (dest / "environment").mkdir()
    (dest / "tests").mkdir()
    statements = {m: e.problems[m].read_text().strip() + "\n" for m in PROMPT_MODES}
    for m, text in statements.items():
        (dest / "prompts" / f"{m}.md").write_text(text)
    (dest / "instruction.md").write_text(statements["base"])
    rel_checkout = os.path.relpath(checkout, dest)
    image = image_name(e.repo, checkout)
    (dest / "task.toml").write_text(f"""[task]
name = {_toml_str("refactorbench/" + e.id)}
description = {_toml_str(statements["lazy"].strip())}
authors = [{{ name = "RefactorBench" }}]
keywords = ["refactoring", "multi-file", "refactorbench", {_toml_str(e.repo)}]

[metadata]
category = "refactoring"
source = {_toml_str(SOURCE)}

[metadata.refactorbench]
repository = {_toml_str(e.repo)}
task = {_toml_str(e.task)}
test = {_toml_str(e.test.name)}
checkout = {_toml_str(rel_checkout)}

[verifier]
timeout_sec = 300

[agent]
timeout_sec = 3600

[environment]
docker_image = {_toml_str(image)}
workdir = "/workspace"
network_mode = "no-network"
""")
    (dest / "environment" / "Dockerfile").write_text(
        f"# The repository's shared image (frontier-measure refactorbench import --images).\n"
        f"FROM {image}\nWORKDIR /workspace\n")
    shutil.copy2(e.test, dest / "tests" / e.test.name)
    shutil.copy2(HERE / "run_ast_tests.py", dest / "tests" / "run_ast_tests.py")
    (dest / "tests" / "test.sh").write_text(TEST_SH.replace("@TEST@", e.test.name)
                                            .replace("@WORKDIR@", "/workspace"))
    (dest / "tests" / "test.sh").chmod(0o755)
    solution = HERE / "solutions" / f"{e.repo}--{e.task}.sh"
    if solution.is_file():
        _write_solution(solution, checkout, dest)
    marker.write_text(key + "\n")
    return dest


def _write_solution(script: Path, checkout: Path, dest: Path) -> None:
    """solution/solve.sh and solution/reference/ (the files it changes, as changed)."""
    (dest / "solution").mkdir()
    shutil.copy2(script, dest / "solution" / "solve.sh")
    scratch = Checkout.create(checkout, dest / "solution" / ".scratch")
    try:
        r = subprocess.run(["bash", str(script)], cwd=scratch.path, capture_output=True,
                           text=True, timeout=300)
        if r.returncode != 0:
            raise SnapshotError(f"{script.name} failed: {r.stderr[-500:]}")
        for c in scratch.changes().items:
            if c.after is not None and not c.after.startswith(b"-> "):
                target = dest / "solution" / "reference" / c.path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(c.after)
    finally:
        scratch.close()


def import_snapshot(snapshot: Path | None = None, out: Path | None = None,
                    select: list[str] | None = None) -> list[Path]:
    """Write the task directories (all, or those whose 'repo/task' matches one of
    the glob patterns in `select`); returns them, sorted."""
    import fnmatch

    snap = snapshot or default_snapshot()
    if snap is None:
        raise SnapshotError(f"no RefactorBench snapshot found (set FM_REFACTORBENCH or put "
                            f"{SNAPSHOT_NAME} in shared/data/)")
    src = unpack(Path(snap))
    out = out or src.parent / "tasks"
    everything = entries(src)
    if select:
        # A pattern that selects nothing is a mistake (a typo, a task's old name):
        # name it rather than run fewer tasks than asked for.
        idle = [p for p in select if not any(fnmatch.fnmatchcase(e.id, p) for e in everything)]
        if idle:
            repos = sorted({e.repo for e in everything})
            raise SnapshotError(
                "select: " + ", ".join(f"'{p}'" for p in idle) + " matches no RefactorBench "
                f"task (tasks are 'repo/task'; repositories: {', '.join(repos)})")
    written = []
    for e in everything:
        if select and not any(fnmatch.fnmatchcase(e.id, p) for p in select):
            continue
        checkout = src / "repositories" / f"{e.repo}_refactor"
        written.append(write_task(e, checkout, out / e.repo / e.task))
    return sorted(written)


# ---------------------------------------------------------------- lazy statements

# A token that names a code target by itself: `backticked`, snake_case, CamelCase or
# a name with a digit inside, a file name with an extension, a path.
_TARGET = re.compile(r"`[^`]+`|\b\w*[a-z0-9]_\w+|\b\w*[a-z0-9][A-Z]\w*|\b[\w-]+\.[a-z]{1,4}\b"
                     r"|\w+/\w+")
# Parts of the test's strings too common to count as naming something.
_GENERIC = frozenset({"src", "tests", "test", "lib", "utils", "util", "the", "and", "module",
                      "modules", "file", "files", "class", "function", "init", "main"})


def _test_names(test: Path) -> set[str]:
    """The names a task's AST test looks for: the parts of its path and name strings."""
    try:
        tree = ast.parse(test.read_text())
    except (OSError, SyntaxError, ValueError):
        return set()
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and re.fullmatch(r"[\w./-]+", node.value):
            out.update(p.lower() for p in re.split(r"[./-]", node.value) if len(p) >= 5)
    return out - _GENERIC


def lazy_names_target(task: Path) -> bool | None:
    """Whether a task's lazy statement (What only) names what to change: a token
    that is a name by its shape, or a word among the names its AST test looks for.
    "Rename the function and update references." names nothing, though the test
    wants one exact new name. None: not a RefactorBench task with a lazy prompt."""
    import tomllib

    try:
        lazy = (task / "prompts" / "lazy.md").read_text()
        rb = tomllib.loads((task / "task.toml").read_text())["metadata"]["refactorbench"]
    except (OSError, KeyError, ValueError):
        return None
    if _TARGET.search(lazy):
        return True
    words = {w.lower() for w in re.findall(r"[A-Za-z_]\w+", lazy)}
    return bool(words & _test_names(task / "tests" / str(rb.get("test", ""))))


def images_of(tasks: list[Path]) -> dict[str, Path]:
    """The shared image each of these tasks runs in, with the checkout it is built
    from: one per repository among them."""
    import tomllib

    out: dict[str, Path] = {}
    for task in sorted(tasks):
        doc = tomllib.loads((task / "task.toml").read_text())
        rb = doc.get("metadata", {}).get("refactorbench", {})
        checkout = (task / rb.get("checkout", "")).resolve()
        image = doc["environment"]["docker_image"]
        if image not in out and checkout.is_dir():
            out[image] = checkout
    return out


def build_images(tasks: list[Path],
                 progress: Callable[[int, int, str, str], None] | None = None) -> list[str]:
    """Build the shared image (the base image with the checkout at /workspace) of
    each repository among `tasks` that is not built yet, and only those; returns
    the image names. progress(i, n, image, state): state is 'present', 'building'
    or 'built' (with the seconds it took)."""
    import time

    wanted = images_of(tasks)
    for i, (image, checkout) in enumerate(sorted(wanted.items()), 1):
        if subprocess.run(["docker", "image", "inspect", image], capture_output=True).returncode == 0:
            if progress:
                progress(i, len(wanted), image, "present")
            continue
        if progress:
            progress(i, len(wanted), image, "building")
        t0 = time.monotonic()
        df = f"FROM {BASE_IMAGE}\nCOPY . /workspace\nWORKDIR /workspace\n"
        r = subprocess.run(["docker", "build", "-q", "-t", image, "-f", "-", str(checkout)],
                           input=df, capture_output=True, text=True, timeout=3600)
        if r.returncode != 0:
            raise SnapshotError(f"docker build of {image} failed: {r.stderr[-800:]}")
        if progress:
            progress(i, len(wanted), image, f"built in {time.monotonic() - t0:.0f} s")
    return sorted(wanted)
