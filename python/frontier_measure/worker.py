"""A long-lived worker process that runs one side (reference or candidate).

Started by the evaluator (runners/module.py) through the core's process
runner, under the side's own account and cgroup, in a private copy of the
side's directory. It talks length-prefixed msgpack frames (see observe.py) on
the fds that were its stdin/stdout; fd 0 and 1 are then pointed at /dev/null
so code under test can neither read requests nor corrupt replies by printing.

    load     {root, entry, policy}  install the run-time compliance policy (an audit
                                   hook, for the candidate), then import the entry
    observe  {ops}                 run a case; its canonical observations
    run      {calls, values, dry}  run timed calls (one list of operations per
                                   call, each with its own fresh input); reply
                                   with a digest of every call's outputs (and,
                                   with `values`, the canonical outputs). A dry
                                   run does all of that but the calls: it
                                   dispatches to a no-op and digests the outputs
                                   of the last real run again (what the
                                   measurement path itself costs, see
                                   runners/module.py `HarnessCost`)
    exit     {}

The worker keeps no clock. A timed batch is timed by the evaluator, from the
moment it sends the `run` request (the inputs travel in it) to the moment it
has read the whole reply; the CPU cost is what the kernel charged the side's
cgroup meanwhile. Decoding the inputs, running the calls and turning every
output into plain data (the digest) all happen inside that window, so a side
gains nothing by doing work while a batch is handed over, by returning lazy
objects that compute when they are inspected, or by patching a timer: there
is no timer here to patch, and nothing it reports is a cost.
"""

from __future__ import annotations

import io
import operator
import os
import struct
import sys
from collections.abc import Callable
from typing import Any

from .observe import Ref, canonical, fast_digest, pack, timed_value, unpack

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


def _noop(*_args: Any, **_kwargs: Any) -> None:
    return None


def _slice(obj: Any, start: Any = None, stop: Any = None, step: Any = None) -> Any:
    return obj[start:stop:step]


def _setitem(obj: Any, key: Any, value: Any) -> None:
    obj[key] = value


def _delitem(obj: Any, key: Any) -> None:
    del obj[key]


# Builtins and operators a case may apply to values (`{"op": "len", "args":
# ["$t"]}`): what an author would otherwise reach through dunder methods. Each
# takes its operands as positional arguments, in the order Python writes them
# (`{"op": "in", "args": [x, "$c"]}` is `x in c`). The names are the case
# format's: runners/module.py refuses any other.
OPERATIONS: dict[str, Callable[..., Any]] = {
    # builtins
    "len": len, "list": list, "tuple": tuple, "sorted": sorted, "set": set,
    "frozenset": frozenset, "dict": dict, "str": str, "repr": repr, "bool": bool,
    "int": int, "float": float, "bytes": bytes, "abs": abs, "round": round,
    "min": min, "max": max, "sum": sum, "any": any, "all": all, "next": next, "iter": iter,
    "callable": callable,
    "reversed": lambda x: list(reversed(x)),
    "enumerate": lambda x, start=0: list(enumerate(x, start)),
    "type": lambda x: type(x).__name__,
    # comparisons and membership
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge, "is": operator.is_, "is not": operator.is_not,
    "in": lambda x, container: x in container,
    "not in": lambda x, container: x not in container,
    # arithmetic and bitwise
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "@": operator.matmul,
    "&": operator.and_, "|": operator.or_, "^": operator.xor, "<<": operator.lshift,
    ">>": operator.rshift, "neg": operator.neg, "pos": operator.pos, "~": operator.invert,
    "not": operator.not_,
    # indexing and slicing: [] is obj[key]; [:] is obj[start:stop:step]
    "[]": operator.getitem, "[:]": _slice, "[]=": _setitem, "del []": _delitem,
}


class Worker:
    def __init__(self) -> None:
        self.module: Any = None
        self.kept: list[list[tuple[Any, list[Any]]]] | None = None  # the last real run's outputs
        # Operations of the last observed case that failed before reaching the
        # code under test: (index, the exception), e.g. a name the module lacks.
        self.unresolved: list[tuple[int, str]] = []

    # ---- running operations

    def _resolve(self, target: str, env: dict[str, Any], kind: str = "call") -> Any:
        if kind == "op":
            return OPERATIONS[target]
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
        self.unresolved = []
        not_kept: dict[str, str] = {}  # "as" names of operations that raised: why
        real_stdout = sys.stdout
        for j, op in enumerate(ops):
            buf = io.StringIO()
            sys.stdout = buf
            args: list[Any] = []
            kwargs: dict[str, Any] = {}
            resolved = False
            try:
                args, kwargs = self._args(op, env)
                fn = self._resolve(op["target"], env, op["kind"])
                resolved = op["kind"] != "get"
                value = fn if op["kind"] == "get" else fn(*args, **kwargs)
                if "as" in op:
                    env[op["as"]] = value
                result = canonical(value)
            except BaseException as exc:  # SystemExit etc. are observations too
                if not resolved and isinstance(exc, KeyError) and exc.args and \
                        exc.args[0] in not_kept:
                    # The value was never kept: say why, not that the name is missing.
                    self.unresolved.append((j, f"'${exc.args[0]}' was not kept: "
                                               f"{not_kept[exc.args[0]]}"))
                elif not resolved and isinstance(exc, (AttributeError, KeyError, NameError)):
                    self.unresolved.append((j, f"{type(exc).__name__}: {exc}"))
                if "as" in op:
                    not_kept[op["as"]] = f"operation {j} raised {type(exc).__name__}: {exc}"
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

    def _call(self, ops: list[dict[str, Any]],
              replay: list[tuple[Any, list[Any]]] | None = None) -> list[tuple[Any, list[Any]]]:
        """Run one timed call's operations; each one's value (or exception)
        with the mutable arguments it was given (their state after the call).
        With `replay` (a dry run) every step but the call itself is taken, and
        the values of the real run stand in for the results."""
        env: dict[str, Any] = {}
        outs: list[tuple[Any, list[Any]]] = []
        module = self.module
        for j, op in enumerate(ops):
            target = op["target"]
            args: list[Any] = op["args"]
            try:
                kind = op["kind"]
                if kind == "op":
                    obj, attr = OPERATIONS[target], ""
                elif target.startswith("$"):
                    base, _, attr = target[1:].partition(".")
                    obj = env[base]
                else:
                    obj, attr = module, target
                for part in attr.split(".") if attr else ():
                    obj = getattr(obj, part)
                if kind != "get":
                    kwargs: dict[str, Any] = op["kwargs"]
                    args = [env[a.name] if isinstance(a, Ref) else a for a in args]
                    kwargs = {k: env[v.name] if isinstance(v, Ref) else v for k, v in kwargs.items()}
                    value = (_noop if replay is not None else obj)(*args, **kwargs)
                else:
                    value, args = obj, []
                if replay is not None:
                    value = replay[j][0]
                if "as" in op:
                    env[op["as"]] = value
            except Exception as exc:
                value = exc if replay is None else replay[j][0]
            # A dry run scans the arguments too: it stands for every step of the
            # path but the call (without this scan, the dry run of a call of
            # hundreds of operations cost half of the real run's path).
            mutated = [a for a in args if _is_mutable(a)]
            outs.append(replay[j] if replay is not None else (value, mutated))
        return outs

    def run(self, calls: list[list[dict[str, Any]]], values: bool, dry: bool = False
            ) -> dict[str, Any]:
        """Run every call, each on its own input, and turn its outputs into
        plain data right away: a digest (and the canonical values if asked).

        The outputs of a real run are kept until the next real run starts, so
        they are freed inside the next timed window (every batch pays for
        freeing the one before it, on both sides alike) and a dry run can
        digest them again."""
        if dry:
            kept = self.kept
            if kept is None or len(kept) != len(calls):
                return {"error": "a dry run needs the real run of the same batch before it"}
        else:
            self.kept = None
            kept = []
        digests: list[str] = []
        canon: list[Any] = []
        real_stdout = sys.stdout
        sys.stdout = _Sink()
        try:
            for k, ops in enumerate(calls):
                outs = self._call(ops, kept[k] if dry else None)
                if not dry:
                    kept.append(outs)
                digests.append(fast_digest(outs))
                if values:
                    canon.append([[timed_value(v), [timed_value(a) for a in m]]
                                  for v, m in outs])
        finally:
            sys.stdout = real_stdout
        self.kept = kept
        reply: dict[str, Any] = {"digests": digests}
        if values:
            reply["values"] = canon
        return reply

    # ---- protocol

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        cmd = req.get("cmd")
        if cmd == "run":
            return self.run(req["calls"], bool(req.get("values")), bool(req.get("dry")))
        if cmd == "observe":
            return {"items": self.observe(req["ops"])}
        if cmd == "load":
            root, entry = req["root"], req["entry"]
            if req.get("policy") is not None:
                install_policy(req["policy"])
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
        if cmd == "ping":
            return {"ok": True, "pid": os.getpid(), "uid": os.getuid()}
        return {"error": f"unknown command {cmd!r}"}


VIOLATION_EXIT = 86  # the exit status of a worker ended by its audit hook


def install_policy(policy: dict[str, Any]) -> None:
    """The side's run-time compliance policy, as an audit hook of the native
    core: installed before any of the side's code is imported, and out of its
    reach from then on (see cpp/bindings/bind_audit.cpp)."""
    import sysconfig

    from . import _core

    stdlib = sysconfig.get_paths()["stdlib"]
    machinery = ["<frozen importlib", "<frozen zipimport", os.path.join(stdlib, "importlib") + "/"]
    _core.install_audit_hook(policy["root"], list(policy["allowed"]), list(policy["hatches"]),
                             list(policy["write_roots"]), machinery, 2, VIOLATION_EXIT)


_IMMUTABLE = frozenset({int, float, str, bool, bytes, tuple, complex, type(None)})


def _is_mutable(x: Any) -> bool:
    if type(x) in _IMMUTABLE:  # the common case, without the isinstance checks
        return False
    if isinstance(x, MUTABLE):
        return True
    np = sys.modules.get("numpy")  # an ndarray exists only where numpy was imported
    return np is not None and isinstance(x, np.ndarray)


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
