"""A long-lived worker process that runs one side (reference or candidate).

Started by the evaluator as `python -I -B -m frontier_measure.worker` through
the core's ProcessHandle, under the side's own account, in a private copy of
the side's directory. It talks length-prefixed msgpack frames (see observe.py)
on the fds that were its stdin/stdout; fd 0 and 1 are then pointed at
/dev/null so code under test can neither read requests nor corrupt replies by
printing. Requests:

    load     {root, entry}           import the entry module/package
    observe  {ops}                   run a case, return its canonical observations
    prepare  {calls: bytes}          decode the inputs of the next timed batch (one
                                     list of ops per call: a fresh copy for each)
    time     {}                      time the prepared calls with the core's
                                     callable timer; reply immediately with ns
    digests  {}                      digests of each timed call's outputs
    exit     {}

Everything the worker needs from outside (the timer, the codec) is bound
before any code under test is imported.
"""

from __future__ import annotations

import gc
import io
import os
import struct
import sys
from typing import Any

from . import _core
from .observe import Ref, canonical, fast_digest, pack, unpack

_time_callable = _core.time_callable
_now_ns = _core.now_ns
_HEADER = struct.Struct(">I")
MUTABLE = (list, dict, set, bytearray)


def _read_exact(fd: int, n: int) -> bytes:
    chunks = []
    while n:
        b = os.read(fd, min(n, 1 << 20))
        if not b:
            raise EOFError
        chunks.append(b)
        n -= len(b)
    return b"".join(chunks)


def read_frame(fd: int) -> Any:
    (n,) = _HEADER.unpack(_read_exact(fd, 4))
    return unpack(_read_exact(fd, n))


def write_frame(fd: int, value: Any) -> None:
    data = pack(value)
    buf = memoryview(_HEADER.pack(len(data)) + data)
    while buf:
        n = os.write(fd, buf)
        buf = buf[n:]


class _Sink(io.StringIO):
    """Stdout during timed calls: written to and thrown away."""


class Worker:
    def __init__(self) -> None:
        self.module: Any = None
        self.prepared: list[list[tuple[Any, ...]]] = []
        self.outputs: list[Any] = []
        self._next: Any = _exhausted

    # ---- running operations

    def _resolve(self, target: str, env: dict[str, Any]) -> Any:
        if target.startswith("$"):
            name, _, attr = target[1:].partition(".")
            obj = env[name]
        else:
            obj, attr = self.module, target
        for part in attr.split(".") if attr else ():
            obj = getattr(obj, part)
        return obj

    @staticmethod
    def _args(op: dict[str, Any], env: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
        args = [env[a.name] if isinstance(a, Ref) else a for a in op["args"]]
        kwargs = {k: env[v.name] if isinstance(v, Ref) else v for k, v in op["kwargs"].items()}
        return args, kwargs

    def observe(self, ops: list[dict[str, Any]]) -> dict[str, Any]:
        env: dict[str, Any] = {}
        items: dict[str, Any] = {}
        real_stdout = sys.stdout
        for j, op in enumerate(ops):
            buf = io.StringIO()
            sys.stdout = buf
            args: list[Any] = []
            kwargs: dict[str, Any] = {}
            try:
                args, kwargs = self._args(op, env)
                fn = self._resolve(op["target"], env)
                value = fn(*args, **kwargs) if op["kind"] == "call" else fn
                if "as" in op:
                    env[op["as"]] = value
                result = canonical(value)
            except BaseException as exc:  # SystemExit etc. are observations too
                result = canonical(exc)
            finally:
                sys.stdout = real_stdout
            if op.get("observe", True):
                items[f"{j}/result"] = result
                items[f"{j}/stdout"] = buf.getvalue()
                for i, a in enumerate(op["args"]):
                    if not isinstance(a, Ref) and _is_mutable(args[i] if i < len(args) else a):
                        items[f"{j}/arg{i}"] = canonical(args[i])
                for k, v in op["kwargs"].items():
                    if not isinstance(v, Ref) and _is_mutable(kwargs.get(k, v)):
                        items[f"{j}/kwarg:{k}"] = canonical(kwargs[k])
        return items

    @staticmethod
    def _compile(op: dict[str, Any]) -> tuple[Any, ...]:
        """An op as a tuple the timed loop can run with little overhead of its
        own (the same for both sides, but it dilutes the ratio)."""
        target = op["target"]
        if target.startswith("$"):
            base, _, attr = target[1:].partition(".")
        else:
            base, attr = None, target
        refs = any(isinstance(a, Ref) for a in op["args"]) or any(
            isinstance(v, Ref) for v in op["kwargs"].values())
        return (op["kind"] == "call", base, tuple(attr.split(".")) if attr else (),
                op["args"], op["kwargs"], refs, op.get("as"))

    def _timed_once(self) -> None:
        ops = self._next()
        env: dict[str, Any] = {}
        outs: list[Any] = []
        module = self.module
        for is_call, base, parts, args, kwargs, refs, store in ops:
            try:
                obj = module if base is None else env[base]
                for part in parts:
                    obj = getattr(obj, part)
                if is_call:
                    if refs:
                        args = [env[a.name] if isinstance(a, Ref) else a for a in args]
                        kwargs = {k: env[v.name] if isinstance(v, Ref) else v
                                  for k, v in kwargs.items()}
                    value = obj(*args, **kwargs)
                else:
                    value = obj
                if store is not None:
                    env[store] = value
            except Exception as exc:
                value = exc
            outs.append((value, args if is_call else ()))
        self.outputs.append(outs)

    # ---- protocol

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        cmd = req.get("cmd")
        if cmd == "load":
            root, entry = req["root"], req["entry"]
            sys.path.insert(0, root)
            real_stdout = sys.stdout
            sys.stdout = io.StringIO()
            try:
                import importlib

                self.module = importlib.import_module(entry)
            except BaseException as exc:
                return {"error": f"importing '{entry}' raised {type(exc).__name__}: {exc}"}
            finally:
                sys.stdout = real_stdout
            return {"ok": True}
        if cmd == "observe":
            return {"items": self.observe(req["ops"])}
        if cmd == "prepare":
            self.prepared = [[self._compile(op) for op in ops] for ops in unpack(req["calls"])]
            self.outputs = []
            gc.collect()
            return {"ok": True, "calls": len(self.prepared)}
        if cmd == "time":
            entered = _now_ns()
            loops = len(self.prepared)
            it = iter(self.prepared)
            self._next = it.__next__
            real_stdout = sys.stdout
            sys.stdout = _Sink()
            try:
                batch = _time_callable(self._timed_once, loops)
            finally:
                sys.stdout = real_stdout
            return {"loops": int(batch.loops), "wall_ns": int(batch.wall_ns),
                    "cpu_ns": int(batch.cpu_ns), "handled_ns": _now_ns() - entered}
        if cmd == "digests":
            # With a float tolerance digests cannot be compared; the evaluator
            # then also asks for the full outputs of a few calls it picks.
            sample = set(req.get("sample", []))
            out = []
            values = {}
            for i, outs in enumerate(self.outputs):
                flat = [(v, [a for a in args if _is_mutable(a)]) for v, args in outs]
                out.append(fast_digest(flat))
                if i in sample:
                    values[i] = [[canonical(v), [canonical(a) for a in m]] for v, m in flat]
            # Free the batch here, not at the next "time" request, where the
            # deallocation would show up as unreported time.
            self.prepared, self.outputs, self._next = [], [], _exhausted
            return {"digests": out, "values": values}
        if cmd == "ping":
            return {"ok": True, "pid": os.getpid(), "uid": os.getuid()}
        return {"error": f"unknown command {cmd!r}"}


def _exhausted() -> Any:
    raise StopIteration


def _is_mutable(x: Any) -> bool:
    import numpy as np

    return isinstance(x, (*MUTABLE, np.ndarray))


def main() -> int:
    proto_in = os.dup(0)
    proto_out = os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False))
    sys.dont_write_bytecode = True
    w = Worker()
    while True:
        try:
            req = read_frame(proto_in)
        except EOFError:
            return 0
        if req.get("cmd") == "exit":
            write_frame(proto_out, {"ok": True})
            return 0
        try:
            reply = w.handle(req)
        except BaseException as exc:
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        write_frame(proto_out, reply)


if __name__ == "__main__":
    sys.exit(main())
