"""The warm worker of `mutate` (module and package scale): one process,
started once per run, that forks a fresh child for each mutant.

Not an evaluation (see _localrun.py): the code is the author's reference
with one change, run in plain child processes of the evaluator with no
isolation and no clock. What this process adds is speed without shared
state. It starts once, imports the worker's own modules and the standard
library modules the reference uses, and compiles every source file of the
reference once; it never imports the reference itself. For each mutant (the
file already rewritten on disk by the evaluator) it forks a child, which
imports the entry from those files (the unchanged ones from the compiled
code kept here, the changed one compiled afresh), runs the cases in the
order asked and sends each case's items as soon as it has them. The
evaluator compares them as they come and stops the child at the first
difference. Whatever a mutant does to its process (module globals, caches,
monkeypatched standard library, threads, its own children) dies with its
child: the next mutant is forked from this process, which no mutant code has
run in.

Frames, both ways: 4 bytes of length (big-endian), then one byte of kind,
then msgpack. The evaluator sends `{init...}`, `{preload}`, `{run}` and
`{stop}` (kind "E"); this process answers with its own frames (kind "Z") and
forwards each frame a child writes as a kind "C" frame, re-framed here: a
child can write anything into its pipe, but never a frame that reads as this
process's own, so it cannot end its run early in the evaluator's eyes or
make a later mutant's run read its replies.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.machinery
import math
import os
import resource
import select
import signal
import sys
from typing import Any

from .observe import pack, unpack

HEADER = 5  # length (4) and kind (1)
MAX_FRAME = 1 << 28  # a child's frame over this is not read: the child is stopped


def write_frame(fd: int, kind: bytes, payload: bytes) -> None:
    data = (len(payload) + 1).to_bytes(4, "big") + kind + payload
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def read_exact(fd: int, n: int) -> bytes | None:
    """n bytes from fd, or None at end of file (the worker's own reader)."""
    from .worker import _read_exact

    try:
        return _read_exact(fd, n)
    except EOFError:
        return None


def read_frame(fd: int) -> tuple[bytes, bytes] | None:
    head = read_exact(fd, 4)
    if head is None:
        return None
    size = int.from_bytes(head, "big")
    body = read_exact(fd, size)
    if body is None or size < 1:
        return None
    return body[:1], body[1:]


CPU_WATCH_S = 0.05  # how often a child's CPU time is read
_TICK = os.sysconf("SC_CLK_TCK")


def _cpu_s(pid: int) -> float:
    """CPU time a process has used so far (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICK  # utime, stime


class _Frames:
    """A child's pipe, read as it comes (never blocking the loop): whole
    frames out, and whether the child broke the framing."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buf = bytearray()
        self.eof = False
        self.bad = ""

    def feed(self) -> list[bytes]:
        chunk = os.read(self.fd, 1 << 20)
        if not chunk:
            self.eof = True
            return []
        self.buf += chunk
        out = []
        while len(self.buf) >= 4:
            size = int.from_bytes(self.buf[:4], "big")
            if size > MAX_FRAME:
                self.bad = f"a reply of {size:,} bytes (over {MAX_FRAME:,})"
                return out
            if len(self.buf) < 4 + size:
                break
            out.append(bytes(self.buf[4:4 + size]))
            del self.buf[:4 + size]
        return out


class _Server:
    def __init__(self, ctl_in: int, ctl_out: int) -> None:
        self.ctl_in = ctl_in
        self.ctl_out = ctl_out
        self.root = ""
        self.entry = ""
        self.imports: list[str] = []
        self.cases: list[tuple[str, Any]] = []
        self.code: dict[str, tuple[bytes, Any]] = {}  # path -> (its source, compiled)
        self.own_names: set[str] = set()  # top-level modules the reference provides
        self.errfile = ""
        self.worker: Any = None

    def reply(self, msg: dict[str, Any]) -> None:
        write_frame(self.ctl_out, b"Z", pack(msg))

    # ---- set-up

    def init(self, req: dict[str, Any]) -> None:
        self.root = os.path.realpath(req["root"])
        self.entry = req["entry"]
        self.imports = list(req.get("imports", ()))
        self.cases = [(cid, ops) for cid, ops in req["cases"]]
        self.errfile = req["errfile"]
        from . import worker  # imported here once, for every child

        self.worker = worker
        for name in os.listdir(self.root):
            stem, ext = os.path.splitext(name)
            if ext == ".py" or os.path.isdir(os.path.join(self.root, name)):
                self.own_names.add(stem if ext == ".py" else name)
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames.sort()
            for name in filenames:
                if not name.endswith(".py"):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, "rb") as f:
                    source = f.read()
                # One that does not compile is compiled (and fails) in the
                # child, as a plain import would.
                with contextlib.suppress(SyntaxError, ValueError):
                    self.code[path] = (source, compile(source, path, "exec", dont_inherit=True))
        self._hook_imports()
        sys.path.insert(0, self.root)
        self.reply({"ok": True, "compiled": len(self.code)})

    def _hook_imports(self) -> None:
        """Files below the root are imported from their source as it is on
        disk now, compiled here once when unchanged; never from a cached .pyc
        (one a mutant wrote would otherwise be read by the next)."""
        original = importlib.machinery.SourceFileLoader.get_code
        root = self.root + os.sep
        code = self.code

        def get_code(loader: Any, fullname: str) -> Any:
            path = loader.get_filename(fullname)
            real = os.path.realpath(path)
            if not real.startswith(root):
                return original(loader, fullname)
            source = loader.get_data(path)
            kept = code.get(real)
            if kept is not None and kept[0] == source:
                return kept[1]
            return compile(source, path, "exec", dont_inherit=True)

        importlib.machinery.SourceFileLoader.get_code = get_code  # type: ignore[method-assign]

    def preload(self, names: list[str]) -> None:
        """Standard-library modules the reference's run imported, imported
        here once instead of in every child; none the reference provides
        itself (a file of the root named like one is the reference's)."""
        done = 0
        sys.path.remove(self.root)
        try:
            for name in names:
                top = name.split(".", 1)[0]
                if top not in sys.stdlib_module_names or top in self.own_names \
                        or name in sys.modules:
                    continue
                try:
                    importlib.import_module(name)
                    done += 1
                except BaseException:  # noqa: BLE001 - a platform's module, say
                    pass
        finally:
            sys.path.insert(0, self.root)
        self.reply({"ok": True, "preloaded": done})

    # ---- one mutant

    def run(self, req: dict[str, Any]) -> None:
        order = [int(i) for i in req["order"]]
        cpu_limit = float(req.get("cpu", 60.0))
        cpu = math.ceil(cpu_limit) + 1  # the kernel's limit, should the watch below miss
        r, w = os.pipe()
        err = os.open(self.errfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        pid = os.fork()
        if pid == 0:  # the child: never returns
            try:
                os.setpgid(0, 0)
                os.close(r)
                os.close(self.ctl_in)
                os.close(self.ctl_out)
                os.dup2(err, 2)
                os.close(err)
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
                resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
                self._child(w, order, bool(req.get("modules")))
            finally:
                os._exit(70)
        os.close(w)
        os.close(err)
        with contextlib.suppress(OSError):  # the child did it first, or is gone already
            os.setpgid(pid, pid)
        self.reply({"started": pid})
        frames = _Frames(r)
        stopped = over_cpu = False
        try:
            while not frames.eof:
                ready, _, _ = select.select([r, self.ctl_in], [], [], CPU_WATCH_S)
                if not stopped and _cpu_s(pid) > cpu_limit:
                    # A loop: ended on its CPU time, which a busy machine does
                    # not stretch as it does the wall clock.
                    stopped = over_cpu = True
                    os.killpg(pid, signal.SIGKILL)
                if self.ctl_in in ready:
                    got = read_frame(self.ctl_in)
                    if got is None:  # the evaluator is gone
                        os.killpg(pid, signal.SIGKILL)
                        raise SystemExit(0)
                    if unpack(got[1]).get("stop"):
                        stopped = True
                        os.killpg(pid, signal.SIGKILL)
                if r in ready:
                    for frame in frames.feed():
                        write_frame(self.ctl_out, b"C", frame)
                    if frames.bad:
                        stopped = True
                        os.killpg(pid, signal.SIGKILL)
                        break
        finally:
            os.close(r)
        _, status, usage = os.wait4(pid, 0)
        with contextlib.suppress(OSError):  # what it started and left running
            os.killpg(pid, signal.SIGKILL)
        with open(self.errfile, "rb") as f:
            f.seek(max(0, os.fstat(f.fileno()).st_size - 4000))
            tail = f.read().decode(errors="replace")
        self.reply({"exit": os.waitstatus_to_exitcode(status), "stopped": stopped,
                    "over_cpu": over_cpu,
                    "bad": frames.bad, "stderr": tail,
                    "cpu_s": usage.ru_utime + usage.ru_stime})

    def _child(self, w: int, order: list[int], modules: bool) -> None:
        def send(msg: dict[str, Any]) -> None:
            data = pack(msg)
            write = (len(data)).to_bytes(4, "big") + data
            view = memoryview(write)
            while view:
                view = view[os.write(w, view):]

        before = set(sys.modules)
        worker = self.worker.Worker()
        real_stdout = sys.stdout
        try:
            worker.module = self.worker.import_entry(self.entry, self.imports)
        except BaseException as exc:  # noqa: BLE001 - any failure to import kills it
            send({"error": f"importing '{self.entry}' raised {type(exc).__name__}: {exc}"})
            os._exit(0)
        for i in order:
            cid, ops = self.cases[i]
            try:
                items = worker.observe(ops)
            except BaseException as exc:  # noqa: BLE001
                sys.stdout = real_stdout
                send({"case": i, "failure": f"{type(exc).__name__}: {exc}"})
                continue
            send({"case": i, "items": {f"{cid}/{k}": v for k, v in items.items()}})
        done: dict[str, Any] = {"done": True}
        if modules:
            root = self.root + os.sep
            done["modules"] = sorted(
                name for name, m in list(sys.modules.items()) if name not in before
                and not os.path.realpath(str(getattr(m, "__file__", "") or "")).startswith(root))
        send(done)
        os._exit(0)

    def serve(self) -> None:
        while True:
            got = read_frame(self.ctl_in)
            if got is None:
                return
            req = unpack(got[1])
            if "init" in req:
                self.init(req["init"])
            elif "preload" in req:
                self.preload(list(req["preload"]))
            elif "run" in req:
                self.run(req["run"])
            # a "stop" that came after its run ended: nothing to stop


def main() -> int:
    # The evaluator's pipes move to private descriptors; what the code under
    # test reads or prints goes nowhere (as in _localrun, it is not observed).
    ctl_in, ctl_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.close(devnull)
    sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 - fd 1, now /dev/null
    # Ctrl-C reaches the evaluator, which stops this process by closing its pipe.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _Server(ctl_in, ctl_out).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
