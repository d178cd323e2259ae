"""Running bundled tasks in a Harbor trial.

In a trial the agent works in the container built from environment/Dockerfile;
afterwards the verifier uploads only the task's tests/ directory to /tests, runs
/tests/test.sh and reads /logs/verifier/reward.json. So tests/ must carry all the
verifier needs and the agent must never see:

    tests/task.toml     copy of the task's settings
    tests/reference/    pristine copy of environment/workspace/ (the agent changes
                        /workspace, which becomes the candidate)
    tests/wheels/       frontier-measure's wheel and those of its dependencies, for
                        images without it (unpacked offline, no pip needed)

`export()` writes such a task directory; `test_script()` is the one test.sh every
bundled task uses (authoring layout and trial layout alike); `Trial` runs a real
trial with the Docker engine (oracle or nop agent) and reads the reward back.
"""

from __future__ import annotations

import fcntl
import grp
import hashlib
import importlib.metadata
import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .task import TaskError

# Where the candidate lives in the task's image when task.toml does not say.
DEFAULT_WORKDIR = {"module": "/workspace", "package": "/workspace",
                   "kernel": "/app", "repository": "/app"}
DEPENDENCIES = ("click", "numpy", "msgpack", "pyelftools")
BASE_IMAGE = "frontier-measure/base:bookworm-1"
ZERO_REWARD = {"reward": 0, "speedup": 0, "functional_pass_rate": 0, "compliant": 0}

# The one verifier script of every task; @NAME@ and @CANDIDATE@ are filled in per task.
TEST_SCRIPT = r"""#!/usr/bin/env bash
# Harbor verifier of this task. Generated from the template in
# python/frontier_measure/harbor.py by `frontier-measure harbor scripts`: edit the
# template, not this file.
#
# It works in two layouts: in the task directory (tests/ next to task.toml and
# environment/workspace/), and in a Harbor trial, where only tests/ is uploaded to
# /tests and carries task.toml, reference/ and wheels/ (`frontier-measure harbor
# export`). It clears the verifier log directory first (in Harbor's shared mode the
# agent can write there) and writes reward.json last, always: a flat map of numbers,
# zero with the reason in error.txt when the evaluator cannot run. Harbor ignores
# the exit code.
set -u
umask 022
LOGS="${FM_LOGS:-/logs/verifier}"
CANDIDATE="${FM_CANDIDATE:-@CANDIDATE@}"
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$LOGS"
mkdir -p "$LOGS/out"
staged="$LOGS/out/reward.json"

finish() {
    # The only place reward.json is written, as the very last step.
    if [ -n "$1" ] || [ ! -s "$staged" ]; then
        echo "${1:-the evaluator wrote no reward (see eval.txt)}" >"$LOGS/error.txt"
        printf '{"reward": 0, "speedup": 0, "functional_pass_rate": 0, "compliant": 0}\n' \
            >"$staged"
    fi
    chmod 644 "$staged"
    mv -f "$staged" "$LOGS/reward.json"
    exit "$2"
}

# The task: given, around this directory, or rebuilt from the verifier layout.
if [ -n "${FM_TASK_DIR:-}" ]; then
    task=$FM_TASK_DIR
elif [ -f "$here/../task.toml" ] && [ -d "$here/../environment/workspace" ]; then
    task=$(cd "$here/.." && pwd)
elif [ -f "$here/task.toml" ] && [ -d "$here/reference" ]; then
    task="$(mktemp -d /tmp/fm-verifier.XXXXXX)/@NAME@"
    mkdir "$task" && cp "$here/task.toml" "$task/" && ln -s "$here" "$task/tests" \
        || finish "cannot lay out the task under $task" 1
else
    finish "no task around $here (task.toml with environment/workspace/ or reference/)" 1
fi

# The evaluator: given, installed, or unpacked from the wheels shipped in tests/.
if [ -n "${FM_BIN:-}" ]; then
    fm=("$FM_BIN")
elif command -v frontier-measure >/dev/null 2>&1; then
    fm=(frontier-measure)
elif python3 -c 'import frontier_measure' >/dev/null 2>&1; then
    fm=(python3 -m frontier_measure)
elif [ -d "$here/wheels" ]; then
    key=$(cat "$here"/wheels/*.whl 2>/dev/null | cksum | cut -d' ' -f1)
    site=${FM_SITE:-/opt/frontier-measure/$key/site-packages}
    if [ ! -d "$site" ]; then
        unpack=(python3 - "$here/wheels" "$site")
        "${unpack[@]}" >"$LOGS/install.txt" 2>&1 <<'PY' || finish "unpacking failed: install.txt" 1
import shutil
import sys
import zipfile
from pathlib import Path

wheels, site = Path(sys.argv[1]), Path(sys.argv[2])
partial = site.with_name(site.name + ".partial")
shutil.rmtree(partial, ignore_errors=True)
found = sorted(wheels.glob("*.whl"))
if not found:
    sys.exit(f"no wheels in {wheels}")
for whl in found:
    with zipfile.ZipFile(whl) as z:
        z.extractall(partial)
    print("unpacked", whl.name)
# What a wheel keeps under NAME.data/purelib or platlib belongs at the top.
for data in partial.glob("*.data"):
    for kind in ("purelib", "platlib"):
        if (data / kind).is_dir():
            shutil.copytree(data / kind, partial, dirs_exist_ok=True)
partial.rename(site)
PY
    fi
    # The directory name ends in site-packages so the evaluator hands it to its workers.
    fm=(env "PYTHONPATH=$site" python3 -m frontier_measure)
    "${fm[@]}" --version >>"$LOGS/install.txt" 2>&1 \
        || finish "the wheels in tests/wheels do not run here (see install.txt)" 1
else
    finish "frontier-measure is not installed and tests/wheels/ is missing" 1
fi

"${fm[@]}" eval "$task" --candidate "$CANDIDATE" --out "$LOGS/out" --reward "$staged" \
    >"$LOGS/eval.txt" 2>&1
finish "" $?
"""


def _toml(task_dir: Path) -> dict[str, Any]:
    try:
        return tomllib.loads((task_dir / "task.toml").read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise TaskError(task_dir, [f"task.toml: {exc}"]) from None


def candidate_dir(task_dir: Path) -> str:
    """Where the agent's work is in the task's image: [environment].workdir."""
    doc = _toml(task_dir)
    workdir = doc.get("environment", {}).get("workdir")
    if isinstance(workdir, str) and workdir:
        return workdir
    scale = doc.get("metadata", {}).get("frontier", {}).get("scale", "module")
    return DEFAULT_WORKDIR.get(scale, "/workspace")


def test_script(task_dir: str | Path) -> str:
    """The tests/test.sh of a task."""
    root = Path(task_dir)
    return (TEST_SCRIPT.replace("@CANDIDATE@", candidate_dir(root))
            .replace("@NAME@", root.resolve().name))


def write_test_scripts(tasks: list[Path], check: bool = False) -> list[Path]:
    """Write each task's tests/test.sh from the template; with `check`, write
    nothing and return the tasks whose script differs from it."""
    differ = []
    for t in tasks:
        path = t / "tests" / "test.sh"
        want = test_script(t)
        have = path.read_text() if path.is_file() else None
        if have != want:
            differ.append(t)
            if not check:
                path.write_text(want)
        if not check:
            path.chmod(0o755)
    return differ


# ----------------------------------------------------------------- wheels


def checkout() -> Path:
    """The source checkout this module runs from (wheels are built from it)."""
    root = Path(__file__).resolve().parents[2]
    if not (root / "pyproject.toml").is_file():
        raise RuntimeError("frontier-measure is not running from a source checkout; "
                           "give the wheels directory with --wheels")
    return root


def _source_digest(root: Path) -> str:
    """Hash of what goes into the wheel, so a changed source builds a new one."""
    h = hashlib.sha256()
    files = [root / "pyproject.toml", root / "CMakeLists.txt"]
    for sub in ("python", "cpp", "simulators"):
        files += sorted(p for p in (root / sub).rglob("*") if p.is_file()
                        and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".so"))
    for p in files:
        if p.is_file():
            h.update(str(p.relative_to(root)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _run(argv: list[str], what: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    try:
        r = subprocess.run(argv, capture_output=True, text=True, **kwargs)
    except subprocess.TimeoutExpired as exc:
        raise RuntimeError(f"{what} timed out after {exc.timeout:g} s") from None
    except OSError as exc:
        raise RuntimeError(f"{what}: cannot run {argv[0]} ({exc.strerror})") from None
    if r.returncode != 0:
        tail = "\n".join((r.stdout + r.stderr).strip().splitlines()[-15:])
        raise RuntimeError(f"{what} failed (exit {r.returncode}):\n{tail}")
    return r


def build_wheels(cache: Path | None = None) -> Path:
    """frontier-measure's wheel (built from this checkout) and its dependencies'
    wheels (the versions installed here), in one directory cached under build/.

    The wheels are for this interpreter (CPython version, platform), so the
    task's image needs the same CPython minor version on a glibc at least as new
    as the one it is built on."""
    root = checkout()
    cache = cache or root / "build" / "harbor"
    out = cache / f"wheels-{_source_digest(root)}"
    if (out / "complete").is_file():
        return out
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / "lock", "w") as lock:
        # One build at a time: concurrent exports share the cache and its cmake directory.
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "complete").is_file():
            _build_wheels(root, cache, out)
    return out


def _build_wheels(root: Path, cache: Path, out: Path) -> None:
    partial = cache / (out.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    pip = [sys.executable, "-m", "pip"]
    # Its own build directory: the editable install's build/<wheel tag> is left alone.
    _run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(partial),
          "--config-settings=build-dir=" + str(cache / "cmake"), str(root)],
         "building the frontier-measure wheel", timeout=3600)
    pins = [f"{d}=={importlib.metadata.version(d)}" for d in DEPENDENCIES]
    _run([*pip, "download", "--no-deps", "--only-binary=:all:", "-q", "-d", str(partial),
          *pins], "fetching the dependencies' wheels", timeout=600)
    (partial / "complete").write_text("\n".join(sorted(p.name for p in partial.glob("*.whl"))))
    shutil.rmtree(out, ignore_errors=True)
    partial.rename(out)
    for old in cache.glob("wheels-*"):  # earlier sources' wheels are not needed again
        if old != out:
            shutil.rmtree(old, ignore_errors=True)


# ----------------------------------------------------------------- export


def _rewrite_from(dockerfile: str, base: str) -> str:
    """The Dockerfile with its FROM lines on `base` (no registry needed)."""
    lines = []
    for line in dockerfile.splitlines():
        if line.strip().upper().startswith("FROM "):
            line = f"FROM {base}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def _ignore_candidates(directory: str, names: list[str]) -> set[str]:
    # tests/candidates holds the failing candidates of the project's own tests.
    return {"candidates"} & set(names) if Path(directory).name == "tests" else set()


def export(task_dir: str | Path, out: str | Path, *, base: str | None = None,
           wheels: Path | None = None) -> Path:
    """Write task `task_dir` as a self-contained Harbor task directory `out`.

    `base` replaces the Dockerfile's FROM image; `wheels` is a directory of
    wheels to ship (default: built from this checkout, cached)."""
    src = Path(task_dir).resolve()
    dest = Path(out).resolve()
    for rel in ("task.toml", "environment/Dockerfile", "tests", "environment/workspace"):
        if not (src / rel).exists():
            raise TaskError(src, [f"{rel}: missing"])
    if dest == src or src in dest.parents:
        raise ValueError(f"{dest}: inside the task itself")
    wheel_dir = wheels or build_wheels()
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(src, dest, ignore=_ignore_candidates)
    for junk in [*dest.rglob("__pycache__"), *dest.rglob("*.pyc")]:
        if junk.exists():
            shutil.rmtree(junk) if junk.is_dir() else junk.unlink()
    tests = dest / "tests"
    shutil.copy2(src / "task.toml", tests / "task.toml")
    shutil.copytree(src / "environment" / "workspace", tests / "reference",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (tests / "wheels").mkdir()
    for whl in sorted(wheel_dir.glob("*.whl")):
        shutil.copy2(whl, tests / "wheels" / whl.name)
    (tests / "test.sh").write_text(test_script(src))
    (tests / "test.sh").chmod(0o755)
    if base:
        df = dest / "environment" / "Dockerfile"
        df.write_text(_rewrite_from(df.read_text(), base))
    return dest


# ----------------------------------------------------------------- trial


def _docker(*args: str, what: str, timeout: float = 600, **kwargs: Any) \
        -> subprocess.CompletedProcess[str]:
    return _run(["docker", *args], what, timeout=timeout, **kwargs)


def _tree_digest(path: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(path.rglob("*")):
        rel = str(p.relative_to(path)).encode()
        if p.is_symlink():
            h.update(b"L" + rel + b"\0" + os.readlink(p).encode() + b"\0")
        elif p.is_file():
            h.update(b"F" + rel + b"\0" + bytes([p.stat().st_mode & 0o111 != 0])
                     + p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def build_image(exported: Path) -> str:
    """The image of an exported task's environment/, tagged by its content hash
    (an unchanged environment is not built again)."""
    name = exported.name.lower().replace("_", "-")
    tag = f"frontier-measure/trial-{name}:{_tree_digest(exported / 'environment')}"
    try:
        _docker("image", "inspect", tag, what="docker image inspect")
    except RuntimeError:
        _docker("build", "-q", "-t", tag, str(exported / "environment"),
                what=f"docker build of {exported / 'environment'}", timeout=1800)
    return tag


@dataclass
class Verdict:
    """What the verifier left in /logs/verifier."""

    reward: dict[str, float]
    error: str  # error.txt: why the evaluator could not run ('' when it ran)
    eval_log: str  # eval.txt: the evaluator's own output


class Trial:
    """One task's container: the agent's turn, then the verifier's, as Harbor
    runs them (tests/ uploaded to /tests only after the agent is done)."""

    def __init__(self, exported: Path, image: str) -> None:
        self.task = exported
        self.image = image
        self.container: str | None = None

    def __enter__(self) -> Trial:
        r = _docker("run", "-d", "--network", "none", "--label", "frontier-measure-trial=1",
                    self.image, "sleep", "infinity", what="starting the trial container")
        self.container = r.stdout.strip()
        # Without a user namespace a uid is the same inside and outside the
        # container, and an evaluator on this machine sweeping its side account
        # with kill(-1) would reach the trial's processes of that uid. So the
        # accounts the verifier creates here get uids no account here has.
        taken = {a.pw_uid for a in pwd.getpwall()} | {g.gr_gid for g in grp.getgrall()}
        first = next(u for u in range(200_000, 1 << 30, 1000)
                     if taken.isdisjoint(range(u, u + 1000)))
        self.exec("printf 'SYS_UID_MIN %d\\nSYS_UID_MAX %d\\nSYS_GID_MIN %d\\nSYS_GID_MAX %d\\n' "
                  f"{first} {first + 999} {first} {first + 999} >>/etc/login.defs; "
                  "mkdir -p /logs/agent /logs/verifier")
        return self

    def __exit__(self, *exc: object) -> None:
        if self.container:
            subprocess.run(["docker", "rm", "-f", self.container], capture_output=True)
            self.container = None

    def exec(self, script: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        """Run a shell script in the container as root; fail if it fails."""
        assert self.container, "the trial is not running"
        return _docker("exec", self.container, "bash", "-c", script,
                       what=f"in the container: {script}", timeout=timeout)

    def read(self, path: str) -> str | None:
        assert self.container, "the trial is not running"
        r = subprocess.run(["docker", "exec", self.container, "cat", path],
                           capture_output=True, text=True)
        return r.stdout if r.returncode == 0 else None

    def oracle(self) -> None:
        """Harbor's oracle agent: upload solution/ and run solve.sh."""
        assert self.container
        _docker("cp", str(self.task / "solution"), f"{self.container}:/solution",
                what="uploading solution/")
        self.exec("bash /solution/solve.sh")

    def verify(self, timeout: float | None = None) -> Verdict:
        """Upload tests/ to /tests, run /tests/test.sh (its exit code is
        ignored, as Harbor does) and read /logs/verifier/reward.json."""
        assert self.container
        if timeout is None:
            timeout = float(_toml(self.task).get("verifier", {}).get("timeout_sec", 600))
        _docker("cp", str(self.task / "tests"), f"{self.container}:/tests",
                what="uploading tests/")
        try:
            subprocess.run(["docker", "exec", self.container, "bash", "/tests/test.sh"],
                           capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"the verifier did not finish in {timeout:g} s "
                               "([verifier] timeout_sec)") from None
        raw = self.read("/logs/verifier/reward.json")
        if raw is None:
            raise RuntimeError("the verifier left no /logs/verifier/reward.json")
        reward = json.loads(raw)
        if not isinstance(reward, dict) or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in reward.values()):
            raise RuntimeError(f"reward.json is not a flat map of numbers: {raw!r}")
        return Verdict(reward, (self.read("/logs/verifier/error.txt") or "").strip(),
                       self.read("/logs/verifier/eval.txt") or "")


AGENTS = ("oracle", "nop")


def prepare(task_dir: str | Path, work: Path | None = None,
            base: str | None = None) -> tuple[Path, str]:
    """Export a task for a trial on the local base image and build its image."""
    base = base or os.environ.get("FM_DOCKER_IMAGE", BASE_IMAGE)
    src = Path(task_dir).resolve()
    work = work or Path(tempfile.mkdtemp(prefix="fm-harbor-"))
    exported = export(src, work / src.name, base=base)
    return exported, build_image(exported)


def trial(task_dir: str | Path, agent: str = "oracle", *, base: str | None = None) -> Verdict:
    """A whole trial: export, build, the agent's turn, the verifier's."""
    if agent not in AGENTS:
        raise ValueError(f"unknown agent '{agent}' (choose from {', '.join(AGENTS)})")
    with tempfile.TemporaryDirectory(prefix="fm-harbor-") as tmp:
        exported, image = prepare(task_dir, Path(tmp), base)
        with Trial(exported, image) as t:
            if agent == "oracle":
                t.oracle()
            return t.verify()


def iter_lines(verdict: Verdict) -> Iterator[str]:
    yield "reward.json: " + json.dumps(verdict.reward)
    if verdict.error:
        yield "error.txt: " + verdict.error
