"""The runner for module and package scale: Python code run in worker processes.

Each side runs in its own long-lived worker (frontier_measure.worker), started
through the core's ProcessHandle from a private copy of the side's directory,
under the side's own unprivileged account when we are root (isolation/), with
a process limit and an address-space limit. Only plain data crosses (observe.py).

Timing goes through the core's paired scheduler. `WorkerSide` is a `_core.Side`:
for each batch the evaluator makes `loops` fresh inputs (one per call, each
from its own seed, so a cache across calls never hits), hands them to the
worker outside the timed region, then asks it to time the batch with the core's
callable timer. Two checks keep the numbers honest:

* the evaluator times the whole request itself; a worker that reports less
  time than that, beyond what the request's own overhead can explain, has had
  its timer tampered with;
* after each batch the worker returns a digest of every timed call's outputs
  (return value or exception, and the arguments after the call); the
  candidate's must equal the reference's for the same seeds, so a cache keyed
  on the wrong thing, lazy results or work moved outside the call all show.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import secrets
import select
import shutil
import struct
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import _core, perf
from ..diff import Tolerance, differences
from ..isolation import Policy, ensure_account, guard_acquire, guard_release, is_root
from ..observe import DecodeError, pack, unpack
from . import InputTiming, Observation, Progress

SIDES = ("reference", "candidate")
_HEADER = struct.Struct(">I")
MAX_REPLY = 256 << 20
# A worker's own reply overhead (framing, a few Python calls) next to the
# batch it times; anything the evaluator sees beyond this plus the relative
# allowance is time the worker did not report.
TIMER_SLACK_NS = 500_000
TIMER_SLACK_REL = 0.03
ROUND_TRIP_SHARE = 0.5
ROUND_TRIP_SLACK_NS = 5_000_000
MAX_TIMEOUTS = 3  # hung cases before the rest of a side's cases are given up


class WorkerFailure(Exception):
    """A worker died, timed out, or broke the protocol."""

    def __init__(self, side: str, reason: str) -> None:
        self.side = side
        self.reason = reason
        super().__init__(f"{side}: {reason}")


class TimingViolation(Exception):
    """Something found while timing that disqualifies a side's numbers."""

    def __init__(self, side: str, reason: str) -> None:
        self.side = side
        self.reason = reason
        super().__init__(f"{side}: {reason}")


def _world_executable(path: str) -> bool:
    """Whether an unprivileged account can execute `path` (every directory on
    the way traversable by others, the file readable and executable by them)."""
    try:
        for p in (Path(path), Path(os.path.realpath(path))):
            if not p.is_file() or (p.stat().st_mode & 0o005) != 0o005:
                return False
            if not all(parent.stat().st_mode & 0o001 for parent in p.parents):
                return False
        return True
    except OSError:
        return False


_PYTHON_CACHE: dict[bool, tuple[str, list[str]]] = {}


def worker_python(switched: bool) -> tuple[str, list[str]]:
    """(interpreter, site-packages dirs) for a worker. Running as another
    account, the interpreter must be reachable by it: ours may live under a
    private home (pyenv), so fall back to a system interpreter of the same
    minor version, given our site-packages (readable by all) explicitly."""
    if switched in _PYTHON_CACHE:
        return _PYTHON_CACHE[switched]
    sitedirs = [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))
                and Path(p).is_dir()]
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    found = sys.executable
    if switched:
        options = [sys.executable, os.path.realpath(sys.executable),
                   f"/usr/bin/python{version}", f"/usr/local/bin/python{version}"]
        usable = [o for o in options if _world_executable(o)]
        if not usable:
            raise _core.IsolationError(
                f"no Python {version} interpreter that an unprivileged account can execute "
                f"(tried {', '.join(options)}); install python{version} system-wide")
        found = usable[0]
        import frontier_measure

        package_dir = Path(frontier_measure.__file__).resolve().parent
        if not all(_traversable(Path(d)) for d in [*sitedirs, str(package_dir)]):
            # The evaluator's environment sits below a private directory (a
            # home, a 0700 checkout): the worker gets a staged copy instead.
            sitedirs = [str(_staged_site(package_dir))]
    _PYTHON_CACHE[switched] = (found, sitedirs)
    return found, sitedirs


def _traversable(path: Path) -> bool:
    """Whether every directory from / down to `path` may be entered by others."""
    try:
        return all(q.stat().st_mode & 0o001 for q in [path, *path.parents])
    except OSError:
        return False


# What a worker imports beyond the standard library.
_WORKER_PACKAGES = ("msgpack", "numpy", "numpy.libs")
_STAGE_ROOT = Path("/var/tmp/frontier-measure-site")


def _staged_site(package_dir: Path) -> Path:
    """A world-readable copy of the packages a worker needs (frontier_measure,
    with its built extension, and its dependencies), made once per content and
    reused. Keyed by every file's path, size and mtime, so a rebuilt extension
    or an edited source gets a fresh copy."""
    import frontier_measure._core as core_mod

    core_file = Path(core_mod.__file__).resolve()
    sources: list[tuple[str, Path]] = [("frontier_measure", package_dir)]
    for name in _WORKER_PACKAGES:
        spec_dir = next((Path(d) / name for d in sys.path
                         if d.endswith(("site-packages", "dist-packages"))
                         and (Path(d) / name).is_dir()), None)
        if spec_dir is not None:
            sources.append((name, spec_dir))
    key = hashlib.sha256()
    for name, src in sources:
        for f in sorted(src.rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts:
                st = f.stat()
                key.update(f"{name}/{f.relative_to(src)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    st = core_file.stat()
    key.update(f"{core_file.name}:{st.st_size}:{st.st_mtime_ns}".encode())
    dest = _STAGE_ROOT / key.hexdigest()[:16]
    if dest.is_dir():
        return dest
    _STAGE_ROOT.mkdir(mode=0o755, parents=True, exist_ok=True)
    os.chmod(_STAGE_ROOT, 0o755)
    tmp = Path(tempfile.mkdtemp(prefix=".stage-", dir=_STAGE_ROOT))
    try:
        for name, src in sources:
            shutil.copytree(src, tmp / name, ignore=shutil.ignore_patterns("__pycache__"))
        if not any((tmp / "frontier_measure").glob("_core*.so")):
            shutil.copy2(core_file, tmp / "frontier_measure" / core_file.name)
        for d, _dirs, files in os.walk(tmp):
            os.chmod(d, 0o755)
            for fname in files:
                shared_object = fname.endswith(".so") or ".so." in fname
                os.chmod(os.path.join(d, fname), 0o755 if shared_object else 0o644)
        try:
            tmp.rename(dest)
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)  # another evaluator staged it first
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return dest


def _own_run_queue_wait() -> int:
    """ns this thread of the evaluator has spent waiting for a CPU."""
    try:
        with open("/proc/thread-self/schedstat") as f:
            return int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return 0


class WorkerProcess:
    """One running frontier_measure.worker, spoken to in msgpack frames."""

    def __init__(self, side: str, root: Path, entry: str, *, owner: tuple[int, int] | None,
                 home: Path, policy: Policy) -> None:
        self.side = side
        self.root = root
        self.entry = entry
        spec = _core.ProcessSpec()
        # -I: no user site, no PYTHON* variables, no cwd on sys.path; -B: no .pyc
        # written into the side's copy. The interpreter must be one the side's
        # account can execute, and it gets our site-packages explicitly.
        python, sitedirs = worker_python(owner is not None)
        boot = ("import site, sys\n"
                # The interpreter's own site dirs (e.g. Debian's dist-packages) go:
                # only our environment's packages may be imported.
                "sys.path[:] = [p for p in sys.path if not p.endswith("
                "('site-packages', 'dist-packages'))]\n"
                f"for d in {sitedirs!r}: site.addsitedir(d)\n"
                "from frontier_measure.worker import main\n"
                "sys.exit(main())\n")
        spec.argv = [python, "-I", "-B", "-c", boot]
        spec.cwd = str(root)
        spec.inherit_env = False
        spec.env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": str(home),
            "TMPDIR": str(home),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            # One thread per BLAS/OpenMP pool: the process limit counts threads,
            # and timing is single-core by design.
            "OPENBLAS_NUM_THREADS": "1",
            "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
        }
        spec.keep_stdin_open = True
        spec.cpus = list(policy.cpus)
        lim = _core.Limits()
        if owner is not None:
            lim.nproc = policy.nproc
            spec.uid, spec.gid = owner
        lim.address_space = policy.memory_mb << 20
        lim.file_size = policy.file_size_mb << 20
        lim.open_files = policy.open_files
        spec.limits = lim
        self.handle = _core.ProcessHandle(spec)
        self._in = self.handle.stdin_fd
        self._out = self.handle.stdout_fd

    # ---- framing
    def _read_exact(self, n: int, deadline: float) -> bytes:
        buf = bytearray()
        while len(buf) < n:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise WorkerFailure(self.side, "timed out")
            ready, _, _ = select.select([self._out], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(self._out, min(n - len(buf), 1 << 20))
            if not chunk:
                raise WorkerFailure(self.side, self._death())
            buf += chunk
        return bytes(buf)

    def _death(self) -> str:
        try:
            r = self.handle.wait()
        except Exception as exc:  # the handle may already be reaped
            return f"worker exited ({exc})"
        tail = r.stderr.decode(errors="replace").strip().splitlines()[-3:]
        why = f"worker exited ({r.describe()})"
        return why + (": " + " | ".join(tail) if tail else "")

    def request(self, msg: dict[str, Any], timeout: float) -> dict[str, Any]:
        data = pack(msg)
        frame = memoryview(_HEADER.pack(len(data)) + data)
        try:
            while frame:
                n = os.write(self._in, frame)
                frame = frame[n:]
        except BrokenPipeError:
            raise WorkerFailure(self.side, self._death()) from None
        deadline = time.monotonic() + timeout
        try:
            (n,) = _HEADER.unpack(self._read_exact(4, deadline))
            if n > MAX_REPLY:
                raise WorkerFailure(self.side, f"reply of {n} bytes exceeds the limit")
            reply = unpack(self._read_exact(n, deadline))
        except WorkerFailure as exc:
            if exc.reason == "timed out":
                self.kill()
                raise WorkerFailure(self.side, f"timed out after {timeout:g} s") from None
            raise
        except DecodeError as exc:
            self.kill()
            raise WorkerFailure(self.side, f"broke the protocol: {exc}") from None
        if not isinstance(reply, dict):
            self.kill()
            raise WorkerFailure(self.side, "broke the protocol: reply is not a map")
        return reply

    def schedstat(self) -> tuple[int, int] | None:
        """(ns on CPU, ns waiting in the run queue) summed over the worker's
        threads, from the kernel; None where /proc has no schedstat."""
        on_cpu = waited = 0
        try:
            for tid in os.listdir(f"/proc/{self.handle.pid}/task"):
                with open(f"/proc/{self.handle.pid}/task/{tid}/schedstat") as f:
                    fields = f.read().split()
                on_cpu += int(fields[0])
                waited += int(fields[1])
        except (OSError, ValueError, IndexError):
            return None
        return on_cpu, waited

    def kill(self) -> None:
        if self.handle.running:
            self.handle.signal_group(9)
            self.handle.resume()
            self.handle.wait()

    def close(self) -> None:
        if self.handle.running:
            try:
                self.handle.resume()
                self.request({"cmd": "exit"}, timeout=5)
                self.handle.wait()
            except (WorkerFailure, OSError):
                self.kill()


class InputMaker:
    """Fresh, seeded inputs for timed calls, packed once per batch and shared
    by both sides (the k-th batch of each side gets the same seeds)."""

    def __init__(self, make: Callable[[int], list[dict[str, Any]]], base_seed: int) -> None:
        self.make = make
        self.base = base_seed
        self.phase = 0
        self._cache: dict[tuple[int, int, int], bytes] = {}

    def batch(self, block: int, loops: int) -> bytes:
        key = (self.phase, block, loops)
        if key not in self._cache:
            if len(self._cache) > 4:
                self._cache.clear()
            first = self.base + self.phase * 10**9 + block * 100_000
            self._cache[key] = pack([self.make(first + i) for i in range(loops)])
        return self._cache[key]


class DigestCheck:
    """Compares the outputs of timed calls of the two sides, batch by batch.

    Exact tasks compare a digest of every call. With a float tolerance, digests
    of equal-enough outputs differ, so the full outputs of a few calls per
    batch are compared instead, with the tolerance; which calls is drawn from
    a key the worker never sees, so it cannot be right only where we look."""

    def __init__(self, tolerance: Tolerance, per_batch: int = 6) -> None:
        self.tolerance = tolerance
        self.per_batch = per_batch
        self.key = secrets.randbits(64)
        self.seen: dict[str, dict[tuple[int, int], tuple[list[str], dict[int, Any]]]] = {
            s: {} for s in SIDES}
        self.compared = 0

    def sample(self, key: tuple[int, int], loops: int) -> list[int]:
        if self.tolerance.exact:
            return []
        rng = random.Random(hash((self.key, key)))
        return sorted(rng.sample(range(loops), min(loops, self.per_batch)))

    def add(self, side: str, key: tuple[int, int], digests: list[str],
            values: dict[int, Any]) -> None:
        self.seen[side][key] = (digests, values)
        other = self.seen["candidate" if side == "reference" else "reference"].get(key)
        if other is None:
            return
        ref, ref_values = self.seen["reference"].pop(key)
        cand, cand_values = self.seen["candidate"].pop(key)
        if len(ref) != len(cand):
            return  # calibration batches of different sizes share no inputs
        if self.tolerance.exact:
            bad = [i for i, (a, b) in enumerate(zip(ref, cand, strict=True)) if a != b]
            self.compared += len(ref)
        else:
            bad = [i for i in sorted(ref_values)
                   if i not in cand_values
                   or differences(ref_values[i], cand_values[i], self.tolerance)]
            self.compared += len(ref_values)
        if bad:
            raise TimingViolation(
                "candidate",
                f"timed call {bad[0] + 1} of batch {key[1] + 1} returned something different "
                "from the reference on the same input: results are not computed on each "
                "call (caching across calls, or work moved out of the timed region), or "
                "they depend on the input in a way the held-out cases did not show",
            )


class WorkerSide(_core.Side):
    """One side of a paired comparison, backed by a worker process."""

    def __init__(self, name: str, worker: WorkerProcess, inputs: InputMaker, check: DigestCheck,
                 timeout: float) -> None:
        super().__init__()
        self.name = name
        self.worker = worker
        self.inputs = inputs
        self.check = check
        self.timeout = timeout
        self.block = 0
        self.max_gap = 0.0  # largest unreported share of a request seen

    def measure(self, loops: int) -> _core.Batch:
        payload = self.inputs.batch(self.block, loops)
        self.worker.request({"cmd": "prepare", "calls": payload}, self.timeout)
        before, me_before = self.worker.schedstat(), _own_run_queue_wait()
        t0 = _core.now_ns()
        reply = self.worker.request({"cmd": "time"}, self.timeout)
        observed = _core.now_ns() - t0
        after, me_after = self.worker.schedstat(), _own_run_queue_wait()
        if "error" in reply:
            raise TimingViolation(self.name, f"worker error while timing: {reply['error']}")
        wall, cpu = int(reply.get("wall_ns", -1)), int(reply.get("cpu_ns", -1))
        if reply.get("loops") != loops:
            raise TimingViolation(self.name, f"ran {reply.get('loops')} calls, {loops} asked")
        # What the worker cannot hide: the CPU time the kernel charged it while
        # the request ran. A single-threaded worker's timed region lasts at
        # least as long as the CPU it used there, and it uses very little CPU
        # outside it, so a reported time below that was not measured honestly.
        # The round trip we timed is checked too, but only loosely: on a shared
        # (virtual) machine a process can lose the CPU in ways the kernel does
        # not count as run-queue wait (steal, reclaim), so it bounds only
        # gross under-reporting.
        waited = after[1] - before[1] if before and after else 0
        waited += me_after - me_before  # the evaluator's own preemptions
        on_cpu = after[0] - before[0] if before and after else 0
        cpu_floor = on_cpu - (TIMER_SLACK_NS + TIMER_SLACK_REL * on_cpu)
        trip_floor = ROUND_TRIP_SHARE * (observed - waited) - ROUND_TRIP_SLACK_NS
        floor = max(cpu_floor, trip_floor)
        if wall <= 0 or wall < floor:
            raise TimingViolation(
                self.name,
                f"reported {wall / 1e6:.3f} ms for a batch that used {on_cpu / 1e6:.3f} ms "
                f"of CPU by the kernel's count (round trip {observed / 1e6:.3f} ms, "
                f"run-queue wait {waited / 1e6:.3f} ms): the timer was tampered with",
            )
        if wall > observed:
            raise TimingViolation(self.name, f"reported {wall / 1e6:.3f} ms, longer than the "
                                  f"{observed / 1e6:.3f} ms the whole request took")
        self.max_gap = max(self.max_gap, (on_cpu - wall) / max(on_cpu, 1))
        key = (self.inputs.phase, self.block)
        reply = self.worker.request({"cmd": "digests", "sample": self.check.sample(key, loops)},
                                    self.timeout)
        digests, values = reply.get("digests"), reply.get("values", {})
        if not isinstance(digests, list) or len(digests) != loops or not isinstance(values, dict):
            raise TimingViolation(self.name, "worker did not return one digest per timed call")
        self.check.add(self.name, key, digests, values)
        self.block += 1
        b = _core.Batch()
        b.loops = loops
        b.wall_ns = wall
        b.cpu_ns = cpu
        return b

    def suspend(self) -> None:
        self.worker.handle.suspend()

    def resume(self) -> None:
        self.worker.handle.resume()


# Accounts of the module/package workers. They are not the repository runner's
# (isolation.ACCOUNTS): that runner kills every process of its accounts between
# commands, which would take down a worker of a concurrent evaluation.
ACCOUNTS = {"reference": "fm-py-ref", "candidate": "fm-py-cand"}


class ModuleSession:
    """Private copies of both sides and workers over them, for one evaluation.

    As root, each side's copy belongs to its own account and is closed to the
    other (mode 0700 under a 0711 base), and the task's tests/ directory is
    closed to both for the session (restored afterwards). Without root both
    sides run as the evaluator's account: stated in `describe()`.
    """

    def __init__(self, task: Any, candidate_dir: Path, *, policy: Policy | None = None,
                 guard: bool = True) -> None:
        self.task = task
        self.policy = policy or Policy(nproc=32, memory_mb=4096, disk_mb=512,
                                       timeout_s=task.case_timeout_s)
        self.notes: list[str] = []
        self.owners: dict[str, tuple[int, int] | None] = {s: None for s in SIDES}
        self._guarded: list[Path] = []
        self.base = Path(tempfile.mkdtemp(prefix="fm-py-"))
        try:
            os.chmod(self.base, 0o711)  # sides may pass through to their own area only
            if is_root():
                for side in SIDES:
                    self.owners[side] = ensure_account(ACCOUNTS[side])
            else:
                self.notes.append("not root: both sides run as the evaluator's own account "
                                  "(no account switch, no process limit)")
            self.dirs = {
                "reference": self._private_copy("reference", task.reference_dir),
                "candidate": self._private_copy("candidate", Path(candidate_dir)),
            }
            if guard:
                self._guard(task.tests_dir)
        except Exception:
            self.close()
            raise
        self.timer_gaps: dict[str, float] = {}

    def _private_copy(self, side: str, source: Path) -> Path:
        area = self.base / side
        area.mkdir(mode=0o700)
        dest = area / "side"
        shutil.copytree(source, dest, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        owner = self.owners[side]
        if owner is not None:
            for root, dirs, files in os.walk(area):
                os.lchown(root, *owner)
                for n in dirs + files:
                    os.lchown(os.path.join(root, n), *owner)
        return dest

    def _guard(self, path: Path) -> None:
        """Close the held-out data to both sides for the session."""
        if not is_root():
            self.notes.append(f"{path} stays readable by the sides (not root)")
            return
        guard_acquire(path)
        self._guarded.append(path)
        self.notes.append(f"{path} closed to the sides (mode 0700) during the evaluation")

    def area(self, side: str) -> Path:
        return self.base / side

    def spawn(self, side: str) -> WorkerProcess:
        w = WorkerProcess(side, self.dirs[side], self.task.entry, owner=self.owners[side],
                          home=self.area(side), policy=self.policy)
        reply = w.request({"cmd": "load", "root": str(self.dirs[side]),
                           "entry": self.task.entry}, self.task.case_timeout_s)
        if "error" in reply:
            w.close()
            raise WorkerFailure(side, str(reply["error"]))
        return w

    # ---- functional
    def observe(self, side: str, cases: list[Any]) -> Observation:
        """Run every case on a side, in one worker (a new one after a case
        kills or hangs it). A side that cannot even start, or that has hung
        MAX_TIMEOUTS times, fails its remaining cases without running them."""
        obs = Observation()
        worker: WorkerProcess | None = None
        timeouts = 0
        try:
            for n, case in enumerate(cases):
                if worker is None:
                    try:
                        worker = self.spawn(side)
                    except WorkerFailure as exc:
                        for rest in cases[n:]:
                            obs.failures[rest.id] = exc.reason
                        break
                try:
                    reply = worker.request({"cmd": "observe", "ops": case.ops},
                                           self.task.case_timeout_s)
                except WorkerFailure as exc:
                    obs.failures[case.id] = exc.reason
                    worker.kill()
                    worker = None
                    timeouts += exc.reason.startswith("timed out")
                    if timeouts >= MAX_TIMEOUTS:
                        for rest in cases[n + 1:]:
                            obs.failures[rest.id] = (f"not run: {timeouts} cases of the {side} "
                                                     "had timed out")
                        break
                    continue
                if "error" in reply:
                    obs.failures[case.id] = str(reply["error"])
                    continue
                items = reply.get("items", {})
                if not isinstance(items, dict):
                    obs.failures[case.id] = "worker sent malformed items"
                    continue
                for key, value in items.items():
                    obs.items[f"{case.id}/{key}"] = value
        finally:
            if worker is not None:
                worker.close()
        return obs

    def timing_digests(self, side: str, inputs: list[Any], seeds: int = 2) -> dict[str, str]:
        """Digests of a side's outputs on the first seeds of each timing input
        (recording uses these to prove timing inputs are deterministic)."""
        out: dict[str, str] = {}
        worker = self.spawn(side)
        try:
            for t in inputs:
                maker = InputMaker(t.make, 0)
                worker.request({"cmd": "prepare", "calls": maker.batch(0, seeds)},
                               self.task.case_timeout_s)
                worker.request({"cmd": "time"}, self.task.case_timeout_s * seeds)
                d = worker.request({"cmd": "digests"}, self.task.case_timeout_s)["digests"]
                out[t.id] = ":".join(d)
        finally:
            worker.close()
        return out

    # ---- performance
    def time(self, inputs: list[Any], progress: Progress | None = None) -> list[InputTiming]:
        results = []
        for k, t in enumerate(inputs):
            if progress:
                progress(f"timing {t.id}")
            results.append(self._time_one(t, seed=k))
            if results[-1].error:
                break  # the candidate is disqualified; no need to time the rest
        return results

    def _time_one(self, t: Any, seed: int) -> InputTiming:
        settings = self.task.timing
        started = time.perf_counter()
        maker = InputMaker(t.make, base_seed=1000 + seed * 10**11)
        check = DigestCheck(self.task.tolerance)
        request_timeout = max(60.0, settings.max_time_s * 4)
        workers: dict[str, WorkerProcess] = {}
        collected: list[Any] = []
        rounds_done = 0
        loops = 0
        warnings: list[str] = []
        try:
            for side in SIDES:
                workers[side] = self.spawn(side)
                workers[side].handle.suspend()
            ref = WorkerSide("reference", workers["reference"], maker, check, request_timeout)
            cand = WorkerSide("candidate", workers["candidate"], maker, check, request_timeout)
            maker.phase = 1
            loops = perf.calibrate_loops(ref, cand, int(settings.batch_ms * 1e6),
                                         int(settings.max_batch_ms * 1e6))
            # Rounds start from a common block count, so the k-th batch of each
            # side gets the same inputs and their outputs can be compared.
            maker.phase = 2
            ref.block = cand.block = 0

            def count(done: int, _planned: int) -> None:
                nonlocal rounds_done
                rounds_done = done

            collected, summary, plan_warnings = perf.run_rounds(
                ref, cand, loops=loops, cost=self.task.cost, warmup=settings.warmup,
                confidence=settings.confidence, threshold=self.task.threshold, precision=settings.precision,
                max_time=settings.max_time_s, min_rounds=max(settings.min_rounds, 6),
                max_rounds=settings.max_rounds, seed=seed, progress=count)
            warnings.extend(plan_warnings)
            self.timer_gaps[t.id] = max(ref.max_gap, cand.max_gap)
        except (TimingViolation, WorkerFailure) as exc:
            side = exc.side
            return InputTiming(
                id=t.id, size=t.size, loops=loops, summary={"rounds": rounds_done},
                rounds=[], reference_median=float("nan"), candidate_median=float("nan"),
                elapsed_s=time.perf_counter() - started,
                error=f"{side}: {exc.reason}" if side != "candidate" else exc.reason,
            )
        finally:
            for w in workers.values():
                w.close()
        records, ref_costs, cand_costs = perf.round_records(collected, self.task.cost)
        warnings.extend(perf.noise_warnings(ref_costs, cand_costs))
        return InputTiming(
            id=t.id, size=t.size, loops=loops, summary=summary.to_dict(),
            rounds=records,
            reference_median=float(sorted(ref_costs)[len(ref_costs) // 2]),
            candidate_median=float(sorted(cand_costs)[len(cand_costs) // 2]),
            elapsed_s=time.perf_counter() - started,
            warnings=warnings,
            outputs_checked=check.compared,
        )

    def describe(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "backend": "local",
            "account_switch": is_root(),
            "accounts": dict(ACCOUNTS) if is_root() else None,
            "policy": {"nproc": self.policy.nproc if is_root() else None,
                       "memory_mb": self.policy.memory_mb,
                       "file_size_mb": self.policy.file_size_mb,
                       "open_files": self.policy.open_files, "cpus": list(self.policy.cpus)},
            "worker_python": worker_python(is_root())[0],
        }
        d["workers"] = "one long-lived python worker per side (frontier_measure.worker)"
        d["timer_check"] = {
            "slack_ns": TIMER_SLACK_NS, "slack_rel": TIMER_SLACK_REL,
            "largest_unreported_share": self.timer_gaps,
        }
        d["notes"] = list(self.notes)
        return d

    def close(self) -> None:
        for p in self._guarded:
            with contextlib.suppress(OSError):
                guard_release(p)
        self._guarded.clear()
        shutil.rmtree(self.base, ignore_errors=True)

    def __enter__(self) -> ModuleSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_session(task: Any, candidate_dir: Path, **options: Any) -> ModuleSession:
    return ModuleSession(task, candidate_dir, **options)
