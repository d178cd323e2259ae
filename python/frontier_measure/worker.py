"""A long-lived worker process that runs one side (reference or candidate).

Started by the evaluator (runners/module.py) through the core's process
runner, under the side's own account and cgroup, in a private copy of the
side's directory. It talks length-prefixed msgpack frames (see observe.py) on
the fds that were its stdin/stdout; fd 0 and 1 are then pointed at /dev/null
so code under test can neither read requests nor corrupt replies by printing.

    load     {root, entry, policy}  install the run-time compliance policy (an audit
                                   hook: for the candidate, or, reporting every
                                   violation and going on, for the reference an
                                   author audits), then import the entry
    observe  {ops}                 run a case; its canonical observations, each
                                   item packed on its own (bytes)
    run      {scripts, calls,      run timed calls, each with its own fresh input:
              values, dry, warm}   a call is [index into scripts, its literal
                                   arguments] (see split_call); reply with a
                                   digest of every call's outputs, or with
                                   `values` their canonical forms. A dry run
                                   does all of that but the calls: it calls a
                                   no-op and takes the outputs of the last real
                                   run again (what the measurement path itself
                                   costs, see runners/module.py `HarnessCost`).
                                   A warm-up run is a real run whose outputs
                                   are kept apart, so the batch after it frees
                                   them and the batch before it inside a timed
                                   window
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
import keyword
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


# ------------------------------------------------------------ timed calls, compiled
#
# A timed call is a script of operations. Walked one operation at a time --
# resolve the target, substitute the references, call, scan the arguments --
# it cost 2.3 us per operation: on package/ledger, whose timed calls are 667
# operations, twice the oracle's own work, on both sides, inside the timed
# window. So a timed call travels as its script (the operations without their
# literal arguments: kind, target, which arguments are references to kept
# values, under which name a result is kept) and, apart, those literals; the
# worker compiles each form of operation once and runs a call as those
# functions one after the other, close to what a timeit snippet written by
# hand would cost.
#
#   script    [[kind, target, [None | name, ...], [[key, None | name], ...], as], ...]
#             (per argument: None for a literal, else the kept value's name)
#   literals  every literal argument of the call, positional then keyword, one
#             operation after the other: one flat list (decoding a container per
#             operation cost more than running it)

def split_call(ops: list[dict[str, Any]]) -> tuple[list[Any], list[Any]]:
    """A timed call's operations (runners/module.normalise_ops) as its script
    and its literal arguments."""
    script: list[Any] = []
    literals: list[Any] = []
    for op in ops:
        refs = [a.name if isinstance(a, Ref) else None for a in op["args"]]
        krefs = [[k, v.name if isinstance(v, Ref) else None] for k, v in op["kwargs"].items()]
        script.append([op["kind"], op["target"], refs, krefs, op.get("as")])
        literals += [a for a in op["args"] if not isinstance(a, Ref)]
        literals += [v for v in op["kwargs"].values() if not isinstance(v, Ref)]
    return script, literals


def _attribute(expr: str, name: str) -> str:
    # A name that is an identifier is read as an attribute; any other through
    # getattr with the name as a literal: nothing of a name becomes code.
    if name.isidentifier() and not keyword.iskeyword(name):
        return f"{expr}.{name}"
    return f"_getattr({expr}, {name!r})"


def _scan(names: list[str], into: str) -> list[str]:
    """Lines that note the mutable ones of the named arguments, if any, as
    `[index of this operation's output, [those arguments]]` in `into`. The
    common case -- every argument of an immutable builtin type -- costs a
    type check per argument and allocates nothing."""
    if not names:
        return []
    test = " or ".join(f"type({x}) not in _IMMUTABLE" for x in names)
    return [f"    if {test}:",
            f"        mm = [x for x in ({', '.join(names)},) if _is_mutable(x)]",
            "        if mm:",
            f"            {into}.append([len(V) - 1, mm])"]


def _operation_source(op: list[Any], dry: bool) -> str:
    """One operation of a script as a function of (module, kept values, the
    call's literals, the index of this operation's first literal, the call's
    outputs so far, the mutable arguments noted so far): it appends its value
    (or exception) to the outputs `V` and, when it was given mutable
    arguments, notes them (their state after the call; keyword arguments are
    not scanned, as in a case) in `M`. An operation whose target or kept
    values cannot be resolved gives that exception, its literal arguments
    scanned. The dry variant takes every step but the call itself (it calls
    a no-op) and appends the real run's output (`R`, by position) instead:
    the measurement path without the code under test, for runners/module.py's
    HarnessCost.

    Nothing is allocated per operation beyond the code under test's own
    values: outputs go into one flat list per call, not a tuple and a list
    each. On bench/fine_ops (10,000 operations of 2-8 us per call) the
    tuple-and-list form cost 4-6 us per operation, most of it in the garbage
    collector walking the tens of thousands of kept containers it made,
    which the dry run (allocating nothing) did not see and so could not take
    off: the direct timing's ratio 2.9x read 1.9x."""
    kind, target, refs, krefs, name = op
    if kind == "op":
        head = f"_OPS[{target!r}]"
    else:
        path = target[1:].split(".") if target.startswith("$") else ["m", *target.split(".")]
        head = f"env[{path[0]!r}]" if target.startswith("$") else "m"
        for part in path[1:]:
            head = _attribute(head, part)
    n = 0  # literals so far: the next one is L[i + n]

    def value(ref: str | None) -> str:
        nonlocal n
        if ref is not None:
            return f"env[{ref!r}]"
        n += 1
        return f"L[i + {n - 1}]"

    args = [value(r) for r in refs]
    kwargs = [f"{key!r}: {value(r)}" for key, r in krefs]
    xs = [f"x{k}" for k in range(len(args))]
    replay = "R[len(V)]"
    lines = [f"def op(m, env, L, i, V, M{', R' if dry else ''}):", "    try:", f"        f = {head}"]
    lines += [f"        {x} = {e}" for x, e in zip(xs, args, strict=True)]
    if kwargs:
        lines.append(f"        k = {{{', '.join(kwargs)}}}")
    lines += ["    except Exception as exc:", f"        V.append({replay if dry else 'exc'})"]
    lines += ["    " + line for line in _scan([e for e in args if e.startswith("L[")], "M")]
    lines.append("        return")
    if kind == "get":
        call = "f"
    else:
        call = f"{'_noop' if dry else 'f'}({', '.join(xs + (['**k'] if kwargs else []))})"
    lines += ["    try:", f"        v = {call}"]
    if dry:
        lines.append(f"        v = {replay}")
    if name is not None:
        lines.append(f"        env[{name!r}] = v")
    lines += ["    except Exception as exc:", f"        v = {replay}" if dry else "        v = exc"]
    lines.append("    V.append(v)")
    # A dry run scans the arguments too: it stands for every step of the path
    # but the call.
    lines += _scan(xs, "M")
    return "\n".join(lines) + "\n"


# Compiled operations by their form: a script of hundreds of operations has a
# handful of forms (compiling a whole script as one function took 75-400 ms on
# the bundled package tasks, far more than running it).
_OPERATIONS_COMPILED: dict[Any, tuple[Callable[..., Any], Callable[..., Any], int]] = {}
# The globals of every compiled operation: one dict, made here, so that it is
# sealed with the rest of the worker (install_policy) and a change the side's
# code makes to it through a frame is caught.
_SCOPE: dict[str, Any] = {"__builtins__": __builtins__, "_OPS": OPERATIONS, "_getattr": getattr,
                          "_noop": _noop}


def _compiled(op: list[Any]) -> tuple[Callable[..., Any], Callable[..., Any], int]:
    """The real and dry function of an operation, and how many literals it takes."""
    kind, target, refs, krefs, name = op
    key = (kind, target, tuple(refs), tuple(tuple(kr) for kr in krefs), name)
    done = _OPERATIONS_COMPILED.get(key)
    if done is None:
        pair = []
        for dry in (False, True):
            exec(compile(_operation_source(op, dry), "<timed operation>", "exec"), _SCOPE)
            pair.append(_SCOPE.pop("op"))
        literals = sum(r is None for r in refs) + sum(r is None for _, r in krefs)
        done = _OPERATIONS_COMPILED[key] = (pair[0], pair[1], literals)
    return done


# A timed call's outputs: every operation's value (or exception), in order,
# and [index, [its mutable arguments]] for each operation given any.
CallOutputs = tuple[list[Any], list[list[Any]]]


def output_pairs(outs: CallOutputs) -> list[tuple[Any, list[Any]]]:
    """A call's outputs as (value, mutable arguments) per operation: the form
    of a `values` reply (runners/module.py `_from_timed`)."""
    values, mutated = outs
    noted = {j: mm for j, mm in mutated}
    return [(v, noted.get(j, [])) for j, v in enumerate(values)]


class TimedScript:
    """A script as its compiled operations: `real(module, literals)` runs a
    call, `dry(module, literals, replay)` its dry run (see _operation_source)."""

    def __init__(self, script: list[Any]) -> None:
        self.plan: list[tuple[Callable[..., Any], Callable[..., Any], int]] = []
        base = 0
        for op in script:
            real, dry, literals = _compiled(op)
            self.plan.append((real, dry, base))
            base += literals

    def real(self, m: Any, literals: list[Any]) -> CallOutputs:
        env: dict[str, Any] = {}
        values: list[Any] = []
        mutated: list[list[Any]] = []
        for op, _, i in self.plan:
            op(m, env, literals, i, values, mutated)
        return values, mutated

    def dry(self, m: Any, literals: list[Any], replay: CallOutputs) -> CallOutputs:
        env: dict[str, Any] = {}
        values: list[Any] = []
        scanned: list[list[Any]] = []  # scanned as in the real run; the real run's are given back
        replayed = replay[0]
        for _, op, i in self.plan:
            op(m, env, literals, i, values, scanned, replayed)
        return values, replay[1]


class Worker:
    def __init__(self) -> None:
        self.module: Any = None
        self.kept: list[CallOutputs] | None = None  # the last real run's outputs
        self.warm_kept: list[CallOutputs] | None = None  # a warm-up run's
        self.scripts: dict[bytes, TimedScript] = {}  # compiled, by their packed form
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

    def _script(self, packed: bytes) -> TimedScript:
        script = self.scripts.get(packed)
        if script is None:
            if len(self.scripts) >= 64:  # timing inputs come and go; a few scripts each
                self.scripts.clear()
            script = self.scripts[packed] = TimedScript(unpack(packed))
        return script

    def run(self, scripts: list[bytes], calls: list[list[Any]], values: bool, dry: bool = False,
            warm: bool = False) -> dict[str, Any]:
        """Run every call, each on its own input, and turn its outputs into
        plain data right away: a digest (and the canonical values if asked).

        The outputs of a real run are kept until the next real run starts, so
        they are freed inside the next timed window (every batch pays for
        freeing the one before it, on both sides alike) and a dry run can
        digest them again. A warm-up run (the untimed call before a timed
        batch) frees nothing and keeps its outputs apart: freeing the last
        batch's outputs, and its own, stays inside the next timed window."""
        if dry:
            kept = self.kept
            if kept is None or len(kept) != len(calls):
                return {"error": "a dry run needs the real run of the same batch before it"}
        elif warm:
            self.warm_kept = None
            kept = []
        else:
            self.kept = None
            self.warm_kept = None
            kept = []
        digests: list[str] = []
        canon: list[Any] = []
        real_stdout = sys.stdout
        sys.stdout = _Sink()
        try:
            module = self.module
            for k, (index, literals) in enumerate(calls):
                script = self._script(scripts[index])
                outs = script.dry(module, literals, kept[k]) if dry else script.real(module, literals)
                if not dry:
                    kept.append(outs)
                if not values:
                    digests.append(fast_digest(outs))
                else:
                    canon.append([[timed_value(v), [timed_value(a) for a in m]]
                                  for v, m in output_pairs(outs)])
        finally:
            sys.stdout = real_stdout
        if warm:
            self.warm_kept = kept
        else:
            self.kept = kept
        # With the values, the evaluator compares those (with the task's
        # tolerance): a digest as well would only lengthen the path.
        reply: dict[str, Any] = {"values": canon} if values else {"digests": digests}
        return reply

    # ---- protocol

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        cmd = req.get("cmd")
        if cmd == "run":
            return self.run(req["scripts"], req["calls"], bool(req.get("values")),
                            bool(req.get("dry")), bool(req.get("warm")))
        if cmd == "observe":
            # Each item packed on its own: the evaluator reads them one at a
            # time, checking each against its cap before decoding it.
            return {"items": {k: pack(v) for k, v in self.observe(req["ops"]).items()}}
        if cmd == "load":
            root, entry = req["root"], req["entry"]
            if req.get("policy") is not None:
                install_policy(req["policy"], self)
            sys.path.insert(0, root)
            real_stdout = sys.stdout
            sys.stdout = io.StringIO()
            try:
                self.module = import_entry(entry, req.get("imports", ()))
            except BaseException as exc:
                return {"error": f"importing '{entry}' raised {type(exc).__name__}: {exc}"}
            finally:
                sys.stdout = real_stdout
            return {"ok": True}
        if cmd == "ping":
            return {"ok": True, "pid": os.getpid(), "uid": os.getuid()}
        return {"error": f"unknown command {cmd!r}"}


def import_entry(entry: str, imports: Any = ()) -> Any:
    """The module under test, with the submodules the task imports with it
    (each then an attribute of its parent: `version.Version` resolves)."""
    import importlib

    module = importlib.import_module(entry)
    for name in imports:
        importlib.import_module(name)
    return module


VIOLATION_EXIT = 86  # the exit status of a worker ended by its audit hook
# importlib's files that are import machinery (an import through them is
# judged at the frame that called them).
_MACHINERY_FILES = ("__init__.py", "_bootstrap.py", "_bootstrap_external.py", "_abc.py", "abc.py",
                    "machinery.py", "util.py")


def install_policy(policy: dict[str, Any], worker: Worker | None = None) -> None:
    """The side's run-time compliance policy, as an audit hook of the native
    core: installed before any of the side's code is imported, and out of its
    reach from then on (see cpp/bindings/bind_audit.cpp). Then the worker's
    own modules are taken out of the side's sight and sealed (`_seal`)."""
    import sysconfig

    from . import _core

    paths = sysconfig.get_paths()
    stdlib = paths["stdlib"]
    # The import machinery: the frozen bootstrap and what drives it
    # (import_module, reload, find_spec, loaders). The rest of importlib
    # (resources, metadata) is a library like any other: what its modules
    # import for themselves is theirs, not their caller's.
    machinery = ["<frozen importlib", "<frozen zipimport"]
    machinery += sorted({os.path.join(d, "importlib", f) for d in (stdlib, os.path.realpath(stdlib))
                         for f in _MACHINERY_FILES})
    # Where library code may come from: the standard library, the evaluator's
    # package, and every directory on sys.path now, before the side's root is
    # put there (the site directories this worker was started with, a staged
    # copy of ours among them; the interpreter's own were taken off at boot).
    # The hook resolves them, never counts the side's root or writable
    # directories among them, and trusts code from them only when it is equal
    # to what the files there compile to.
    libraries = [stdlib, paths["platstdlib"], getattr(sys, "_stdlib_dir", None) or stdlib,
                 os.path.dirname(os.path.abspath(__file__))]
    libraries += [p for p in sys.path if os.path.isabs(p)]
    stdlib_roots = [stdlib, paths["platstdlib"], getattr(sys, "_stdlib_dir", None) or stdlib]
    _core.install_audit_hook(policy["root"], list(policy["allowed"]), list(policy["hatches"]),
                             list(policy["write_roots"]), machinery, libraries, 2, VIOLATION_EXIT,
                             not policy.get("report"), policy.get("library_imports") == "listed",
                             stdlib_roots)
    _seal(_core, worker)


# What the worker's own code reads at run time, beyond its modules: names in
# these modules (and builtins) that the worker's and observe's code looks up.
_RUNTIME_MODULES = ("frontier_measure.worker", "frontier_measure.observe")


def _seal(core: Any, worker: Worker | None) -> None:
    """Take the evaluator's modules out of the side's sight, then seal what the
    worker runs on, before the side's code is imported.

    Two layers, because neither is enough alone. Dropping our modules from
    sys.modules (and from the package's attributes, and the boot script's
    `main`) closes the door a candidate finds first: a lookup by name. But
    the worker's frames are below every call the candidate makes, and a
    frame's globals are the worker's module, so the objects stay reachable
    by other ways (frames, tracebacks, a function's __globals__). The seal
    is what holds whatever the way: the native core keeps, out of Python's
    reach, the identity of every name in our modules and classes, every
    function's code, defaults and closure, each name our run-time code reads
    from other modules (os.write, msgpack.packb, builtins), and the worker
    object's class; the worker checks it before and after every request but
    a timed batch (main) and the core ends the process, as a violation, on
    any change. Its limit: state the worker changes by design (the outputs
    it keeps, its caches of compiled scripts) is not sealed, and a change
    undone before the batch ends goes unseen."""
    import builtins
    import types

    ours = {name: m for name, m in list(sys.modules.items())
            if name == "frontier_measure" or name.startswith("frontier_measure.")}
    # The package stays in sys.modules: observe's fast_digest imports _core
    # from it (`from . import _core`) on every call, and finds it as its
    # attribute; its submodule attributes go.
    for name in ours:
        if name != "frontier_measure":
            del sys.modules[name]
    package = ours.get("frontier_measure")
    if package is not None:
        for attr, value in list(vars(package).items()):
            if isinstance(value, types.ModuleType) and attr != "_core":
                delattr(package, attr)
    boot = sys.modules.get("__main__")
    for attr, value in list(vars(boot).items()) if boot is not None else ():
        if str(getattr(value, "__module__", "")).startswith("frontier_measure"):
            delattr(boot, attr)  # `main`, imported by the boot script

    namespaces: list[tuple[str, Any]] = []
    functions: list[tuple[str, Any]] = []
    seen: set[int] = set()
    read_names: set[str] = set()
    read_from: dict[str, Any] = {"builtins": builtins}

    def function(label: str, fn: Any, runtime: bool) -> None:
        if not isinstance(fn, types.FunctionType) or id(fn) in seen:
            return
        seen.add(id(fn))
        functions.append((label, fn))
        codes = [fn.__code__]
        while runtime and codes:
            code = codes.pop()
            read_names.update(code.co_names)
            codes += [c for c in code.co_consts if isinstance(c, types.CodeType)]

    for name, module in ours.items():
        namespaces.append((name, module))
        runtime = name in _RUNTIME_MODULES
        for key, value in vars(module).items():
            label = f"{name}.{key}"
            if isinstance(value, types.FunctionType):
                function(label, value, runtime)
            elif isinstance(value, type) and id(value) not in seen and \
                    str(value.__module__).startswith("frontier_measure") and \
                    value.__module__ != "frontier_measure._core":
                seen.add(id(value))
                namespaces.append((label, value))
                for k, v in vars(value).items():
                    for f in (v, getattr(v, "__func__", None), getattr(v, "fget", None),
                              getattr(v, "fset", None), getattr(v, "fdel", None)):
                        function(f"{label}.{k}", f, runtime)
            elif runtime and isinstance(value, types.ModuleType) and value is not sys and \
                    not value.__name__.startswith("frontier_measure"):
                read_from[value.__name__] = value
    namespaces += [("frontier_measure.worker.OPERATIONS", OPERATIONS),
                   ("frontier_measure.worker._SCOPE", _SCOPE)]
    for key, fn in OPERATIONS.items():
        function(f"frontier_measure.worker.OPERATIONS[{key!r}]", fn, True)
    names = [(f"{mod_name}.{key}", module, key)
             for mod_name, module in sorted(read_from.items())
             for key in sorted(read_names & set(vars(module)))]
    objects = [("the worker", worker, sorted(vars(worker)))] if worker is not None else []
    core.seal_evaluator(namespaces, functions, names, objects)


_IMMUTABLE = frozenset({int, float, str, bool, bytes, tuple, complex, type(None)})


def _is_mutable(x: Any) -> bool:
    if type(x) in _IMMUTABLE:  # the common case, without the isinstance checks
        return False
    if isinstance(x, MUTABLE):
        return True
    np = sys.modules.get("numpy")  # an ndarray exists only where numpy was imported
    return np is not None and isinstance(x, np.ndarray)


_SCOPE.update(_is_mutable=_is_mutable, _IMMUTABLE=_IMMUTABLE)


def main() -> int:
    from . import _core

    # Taken now, before any side's code runs, into a local of this frame
    # (which code elsewhere cannot rebind): the check of the worker's seal
    # (install_policy). Without a seal it returns at once.
    intact = _core.verify_sealed
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
        # The seal is checked around every request but a timed batch: its
        # window is the side's cost, and the reference has no seal to check.
        # A change made during a batch is seen at the next request (a warm-up,
        # an observation, or the exit every worker is closed with).
        timed = req.get("cmd") == "run" and not req.get("dry") and not req.get("warm")
        if not timed:
            intact()
        if req.get("cmd") == "exit":
            write_frame(proto_out, {"ok": True})
            return 0
        try:
            reply = w.handle(req)
        except BaseException as exc:
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        if not timed:
            intact()
        write_frame(proto_out, reply)


if __name__ == "__main__":
    sys.exit(main())
