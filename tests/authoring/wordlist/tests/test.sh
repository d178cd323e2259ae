#!/bin/bash -p
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
CANDIDATE = GIVEN.get("FM_CANDIDATE", "/workspace")
AGENT = "agent"  # the account the agent worked as (made by harbor export)
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
    sys.exit(code)


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
    task = Path(tempfile.mkdtemp(prefix="fm-verifier.")) / "graphs"
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
with open(LOGS / "eval.txt", "w") as log:
    r = subprocess.run([*fm, "eval", str(task), "--candidate", CANDIDATE, "--out",
                        str(LOGS / "out"), "--reward", str(staged)],
                       stdout=log, stderr=subprocess.STDOUT, env=env)
finish("", r.returncode)
VERIFIER
