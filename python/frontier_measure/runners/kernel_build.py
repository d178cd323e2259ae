"""Compiling a kernel side's sources in a sandbox of its own.

The compiler runs on the side's code: `#embed`, `__has_embed`,
`__has_include` and `#include` open files at build time, with names a macro
or `__FILE__` can build. So the side's sources are compiled (-c, one object
each) where nothing but its staged sources, the task's fixed headers and the
toolchain is in view: a sandbox of the local isolation backend (isolation/
local.py: fresh user, mount, PID, IPC, network namespaces, the side's
per-evaluation id, its cgroup, the sides' system-call allow-list), with the
toolchain shown read-only at TOOLCHAIN_IN_VIEW. The task's tests/, its golden
outputs, the oracle and the evaluator's files are not there to be read.

The same compile writes the compiler's account of what it read (-MD -MF, -H),
which compliance/c_reads.py checks against the task's header rules. Linking
the objects with the evaluator's harness happens outside, as the evaluator:
it reads only the objects, the harness and the C library (an object's
dependent-library requests are ignored: --no-dependent-libraries).

Objects and accounts are kept under the build cache by the hash of what went
into them (staged files, flags, toolchain), so each content is compiled once.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import sim
from ..compliance import Finding, c_reads

TOOLCHAIN_IN_VIEW = "/opt/fm-toolchain"
BUILD_DIR = "build"  # in the side's area
COMPILE_TIMEOUT_S = 300.0  # a loaded machine; zig's first C compile also sets up its cache
# The compiler's caches live in the sandbox's own /tmp (gone with it).
_ENV = {"ZIG_GLOBAL_CACHE_DIR": "/tmp/zig-cache", "ZIG_LOCAL_CACHE_DIR": "/tmp/zig-cache"}


@dataclass(frozen=True)
class Toolchain:
    """The C compiler for the side's build, as the sandbox sees it and as the host does."""

    argv: tuple[str, ...]  # in the sandbox
    host_argv: tuple[str, ...]  # without a sandbox (none could be made here)
    view: tuple[tuple[str, str], ...]  # (host directory, path in the sandbox)
    include_dirs: tuple[str, ...]  # <...> search directories, host paths
    identity: str  # what the cache key holds of it

    def in_view(self, path: str) -> str:
        for host, inside in self.view:
            if path == host or path.startswith(host + "/"):
                return inside + path[len(host):]
        return path


def _search_dirs(argv: list[str]) -> list[str]:
    """The compiler's <...> include search list (-E -v on an empty file)."""
    # zig names them relative to the working directory: run it from /.
    r = subprocess.run([*argv, "-E", "-v", "-x", "c", "/dev/null", "-o", "/dev/null"],
                       capture_output=True, text=True, cwd="/")
    dirs, inside = [], False
    for line in r.stderr.splitlines():
        if line.startswith("#include <...> search starts here"):
            inside = True
        elif line.startswith("End of search list"):
            break
        elif inside and line.startswith(" "):
            dirs.append(os.path.normpath(os.path.join("/", line.strip())))
    return dirs


@functools.cache
def toolchain() -> Toolchain:
    host = sim.compiler()
    if host[0] == sys.executable:
        # `python -m ziglang cc` only execs the zig binary next to the package;
        # the sandbox runs that binary, which finds its lib/ beside itself.
        import ziglang

        zdir = str(Path(ziglang.__file__).resolve().parent)
        rest = host[host.index("cc"):]
        zig_host = [f"{zdir}/zig", *rest]
        return Toolchain(argv=(f"{TOOLCHAIN_IN_VIEW}/zig", *rest), host_argv=tuple(zig_host),
                         view=((zdir, TOOLCHAIN_IN_VIEW),),
                         include_dirs=tuple(_search_dirs(zig_host)),
                         identity=repr((host[3:], Path(zdir, "zig").stat().st_size,
                                        Path(zdir, "zig").stat().st_mtime_ns)))
    # A Debian cross gcc lives under /usr, which every sandbox shows.
    return Toolchain(argv=tuple(host), host_argv=tuple(host), view=(),
                     include_dirs=tuple(_search_dirs(list(host))), identity=repr(host))


@dataclass
class Compiled:
    """A side's sources compiled: objects in the cache, or the compiler's complaint."""

    ok: bool
    objects: list[Path] = field(default_factory=list)
    log: str = ""
    findings: list[Finding] = field(default_factory=list)  # what the account shows
    sandboxed: bool = True
    cached: bool = False


def _key(staged: Path, sources: list[str], opt: str) -> str:
    h = hashlib.sha256()
    h.update(repr((staged.name, sources, opt, toolchain().identity, 3)).encode())
    return h.hexdigest()[:24]


def compile_side(staged: Path, sources: list[str], opt: str, allowed_headers: list[str],
                 cache: Path, side: str) -> Compiled:
    """Compile each of `sources` (relative to `staged`, the side's staged
    build directory, named by its content) to an object, in the side's
    sandbox; findings from the compiler's account of what it read."""
    dest = cache / "obj" / _key(staged, sources, opt)
    record = dest / "account.json"
    if record.is_file():
        acc = json.loads(record.read_text())
    else:
        acc = _compile_in_sandbox(staged, sources, opt, side)
        tmp = dest.with_name(f"{dest.name}.tmp{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        for name, data in acc.pop("objects").items():
            (tmp / name).write_bytes(data)
        (tmp / "account.json").write_text(json.dumps(acc))
        try:
            tmp.rename(dest)
        except OSError:  # another evaluation compiled the same content first
            shutil.rmtree(tmp, ignore_errors=True)
        acc = json.loads(record.read_text())
    tc = toolchain()
    dirs = [tc.in_view(d) for d in tc.include_dirs] if acc["sandboxed"] else list(tc.include_dirs)
    out = Compiled(ok=acc["ok"], log=acc["log"], sandboxed=acc["sandboxed"])
    for src in sources:
        one = acc["sources"].get(src)
        if one is None:
            continue
        out.findings += c_reads.check(source=src, cwd=acc["cwd"], own=acc["own"],
                                      depfile=one["depfile"], stderr=one["stderr"],
                                      include_dirs=dirs, allowed_headers=allowed_headers,
                                      compiled=one["ok"],
                                      text=(staged / src).read_text(errors="replace"))
        if acc["ok"]:
            out.objects.append(dest / _object_name(src))
    return out


def _object_name(src: str) -> str:
    return src.replace("/", "__") + ".o"


def _compile_in_sandbox(staged: Path, sources: list[str], opt: str, side: str) -> dict[str, Any]:
    from ..isolation import Policy, open_backend

    tc = toolchain()
    # The compiler reserves address space generously: the memory limit of a
    # build is the cgroup's and this RLIMIT_AS, both set for a compiler.
    policy = Policy(memory_mb=4096, disk_mb=256, file_size_mb=256, timeout_s=COMPILE_TIMEOUT_S,
                    read_only=list(tc.view))
    b = open_backend("local", policy)
    try:
        sandboxed = bool(getattr(b, "sandboxed", False))
        argv = list(tc.argv if sandboxed else tc.host_argv)
        b.fresh_copy(side, staged, BUILD_DIR)
        cwd = b.side_path(side, BUILD_DIR)
        own = sorted(p.relative_to(staged).as_posix() for p in staged.rglob("*") if p.is_file())
        # In a sandbox /tmp is the command's own; without one, the caches go
        # in the build directory (a shared /tmp would hold another id's).
        env = _ENV if sandboxed else {k: f"{cwd}/.zig-cache" for k in _ENV}
        acc: dict[str, Any] = {"ok": True, "log": "", "cwd": cwd, "own": own,
                               "sandboxed": sandboxed, "sources": {}, "objects": {}}
        area = b.area(side) / BUILD_DIR
        for src in sources:
            obj, dep = _object_name(src), _object_name(src)[:-2] + ".d"
            r = b.run(side, [*argv, "-c", opt, "-I", ".", "-H", "-MD", "-MF", dep, src,
                             "-o", obj], cwd=BUILD_DIR, env=env, timeout=COMPILE_TIMEOUT_S)
            stderr = r.stderr.decode(errors="replace")
            depfile = (area / dep).read_text(errors="replace") if (area / dep).is_file() else None
            ok = r.ok and (area / obj).is_file()
            acc["sources"][src] = {"stderr": stderr, "depfile": depfile, "ok": ok}
            if not ok:
                acc["ok"] = False
                why = "" if r.exit_code else f" ({r.describe()})"
                acc["log"] += f"{src}{why}:\n{_diagnostics(stderr)}\n"
                continue
            acc["objects"][obj] = (area / obj).read_bytes()
        acc["log"] = acc["log"].strip()
        return acc
    finally:
        b.close()


def _diagnostics(stderr: str) -> str:
    """The compiler's messages without -H's include tree."""
    return "\n".join(line for line in stderr.splitlines()
                     if not c_reads._TREE_LINE.match(line)).strip()
