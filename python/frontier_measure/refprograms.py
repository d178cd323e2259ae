"""Reference programs for the simulator, built from public sources nobody here
wrote: the official RISC-V ISA tests (riscv-tests, p environment) and, for the
core models, Dhrystone and CoreMark.

The sources arrive as tarballs (the project's shared data directory, see
``data_dir()``); they are unpacked into a cache directory named after the
tarball's digest and built there with Debian's ``riscv64-unknown-elf-gcc``, so
nothing of them is copied into the project and a rebuild happens only when the
tarball, the flags or the compiler change.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tarfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GCC = "riscv64-unknown-elf-gcc"
# The suites of riscv-tests' isa/Makefile for RV64 that this simulator
# implements (no Zb*, Zfh, Zicbo*, Svnapot, hypervisor, packed SIMD).
ISA_SUITES = ("rv64ui", "rv64um", "rv64ua", "rv64uf", "rv64ud", "rv64uc", "rv64mi", "rv64si")
# riscv-tests' own compile flags for these suites (isa/Makefile).
ISA_FLAGS = ("-march=rv64g", "-mabi=lp64d", "-static", "-mcmodel=medany", "-fvisibility=hidden",
             "-nostdlib", "-nostartfiles")


class RefProgramError(RuntimeError):
    """A reference program's sources are missing or did not build; the message says which and why."""


def data_dir() -> Path:
    """Where the source tarballs live: $FRONTIER_MEASURE_DATA, else ../shared/data beside the checkout."""
    env = os.environ.get("FRONTIER_MEASURE_DATA")
    return Path(env) if env else ROOT.parent / "shared" / "data"


def cache_dir() -> Path:
    return ROOT / "build" / "refprograms"


def have_gcc() -> bool:
    return shutil.which(GCC) is not None


def missing_reason(tarball_prefix: str) -> str | None:
    """Why the programs from this tarball cannot be built here, or None."""
    if not have_gcc():
        return f"{GCC} not installed (scripts/setup.sh installs gcc-riscv64-unknown-elf)"
    if not list(data_dir().glob(f"{tarball_prefix}-*.tar.gz")):
        return f"no {tarball_prefix}-*.tar.gz in {data_dir()} (set FRONTIER_MEASURE_DATA)"
    return None


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


def _gcc_version() -> str:
    r = subprocess.run([GCC, "--version"], capture_output=True, text=True, check=True)
    return r.stdout.splitlines()[0]


def unpack(tarball_prefix: str) -> Path:
    """The unpacked source tree of data_dir()/<prefix>-*.tar.gz (its top directory), cached by digest."""
    found = sorted(data_dir().glob(f"{tarball_prefix}-*.tar.gz"))
    if not found:
        raise RefProgramError(f"no {tarball_prefix}-*.tar.gz in {data_dir()}")
    tarball = found[-1]
    dest = cache_dir() / f"{tarball_prefix}-{_digest(tarball)}"
    done = dest / ".unpacked"
    if not done.exists():
        tmp = dest.with_name(dest.name + f".tmp{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        with tarfile.open(tarball) as tf:
            tf.extractall(tmp, filter="data")
        (tmp / ".unpacked").write_text(tarball.name + "\n")
        shutil.rmtree(dest, ignore_errors=True)
        tmp.replace(dest)  # atomic: a parallel unpacker never sees half a tree
    tops = [p for p in dest.iterdir() if p.is_dir()]
    if len(tops) != 1:
        raise RefProgramError(f"{tarball}: expected one top-level directory, found {len(tops)}")
    return tops[0]


def build_key(*parts: object) -> str:
    """A short digest of everything a build depends on besides the unpacked sources."""
    return hashlib.sha256(repr((*parts, _gcc_version())).encode()).hexdigest()[:16]


def run_gcc(cmd: Sequence[str], out: Path, cwd: Path | None = None) -> Path:
    """Run a compiler command that writes `out`; atomic, and an error names the command."""
    tmp = out.with_name(out.name + f".tmp{os.getpid()}")
    cmd = [*cmd, "-o", str(tmp)]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    if r.returncode != 0:
        raise RefProgramError(f"{' '.join(cmd)}\n{r.stderr.strip()}")
    tmp.replace(out)
    return out


# ---------------------------------------------------------------------------
# riscv-tests: the ISA suite


@dataclass(frozen=True)
class IsaTest:
    suite: str  # rv64ui, ...
    name: str   # add, ...

    @property
    def id(self) -> str:
        return f"{self.suite}-p-{self.name}"


def isa_tests(root: Path | None = None) -> list[IsaTest]:
    """Every p-environment test of ISA_SUITES, as listed by the suites' Makefrags."""
    root = root or unpack("riscv-tests")
    tests = []
    for suite in ISA_SUITES:
        text = (root / "isa" / suite / "Makefrag").read_text()
        m = re.search(rf"^{suite}_sc_tests\s*=((?:.*\\\n)*.*)$", text, re.M)
        if not m:
            raise RefProgramError(f"{root}/isa/{suite}/Makefrag: no {suite}_sc_tests list")
        names = m.group(1).replace("\\\n", " ").split()
        tests += [IsaTest(suite, n) for n in names]
    return tests


def build_isa(tests: Sequence[IsaTest] | None = None, jobs: int = 2) -> dict[str, Path]:
    """Build the given (default: all) ISA tests; returns test id -> ELF path."""
    root = unpack("riscv-tests")
    tests = list(tests) if tests is not None else isa_tests(root)
    out_dir = cache_dir() / f"isa-{root.parent.name}-{build_key(ISA_FLAGS)}"
    out_dir.mkdir(parents=True, exist_ok=True)

    def one(t: IsaTest) -> tuple[str, Path]:
        out = out_dir / t.id
        if not out.exists():
            run_gcc([GCC, *ISA_FLAGS, f"-I{root / 'env' / 'p'}", f"-I{root / 'isa' / 'macros' / 'scalar'}",
                     f"-T{root / 'env' / 'p' / 'link.ld'}", str(root / "isa" / t.suite / f"{t.name}.S")], out)
        return t.id, out

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return dict(pool.map(one, tests))


# ---------------------------------------------------------------------------
# Dhrystone and CoreMark, bare metal with riscv-tests' benchmark runtime

# riscv-tests' benchmark runtime: crt.S (reset, FP enable, stack), syscalls.c
# (printf through the HTIF syscall proxy, setStats, exit through tohost) and
# test.ld (code at 0x80000000). picolibc supplies the C headers.
BARE_ARCH = ("-march=rv64gc", "-mabi=lp64d", "-mcmodel=medany")
BARE_LINK = ("-static", "-nostdlib", "-nostartfiles", "-lm", "-lgcc")
PORT_DIR = ROOT / "bench" / "bare_port"  # our CoreMark port and strcmp


def _runtime(root: Path, out_dir: Path, flags: Sequence[str]) -> tuple[list[str], list[str]]:
    """(include flags, sources and objects) of riscv-tests' benchmark runtime,
    with its byte-at-a-time strcmp weakened so bench/bare_port/strcmp.c wins."""
    common = root / "benchmarks" / "common"
    incs = [f"-I{root / 'env'}", f"-I{common}"]
    syscalls = out_dir / "syscalls.o"
    run_gcc([GCC, "--specs=picolibc.specs", *BARE_ARCH, *flags, "-fno-builtin-printf", *incs, "-c",
             str(common / "syscalls.c")], syscalls)
    r = subprocess.run([GCC.replace("gcc", "objcopy"), "--weaken-symbol=strcmp", str(syscalls)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RefProgramError(f"objcopy --weaken-symbol=strcmp {syscalls}: {r.stderr.strip()}")
    return incs, [str(syscalls), str(common / "crt.S"), str(PORT_DIR / "strcmp.c")]


def _port_digest() -> str:
    return hashlib.sha256(b"".join(p.read_bytes() for p in sorted(PORT_DIR.glob("*.[ch]")))).hexdigest()[:12]


def build_dhrystone(flags: Sequence[str]) -> Path:
    """riscv-tests' Dhrystone (two compilation units, as the benchmark's rules
    ask), built with `flags`. It prints `mcycle = N` and `minstret = N` for
    its timed loop of dhrystone_runs() runs."""
    root = unpack("riscv-tests")
    src = root / "benchmarks" / "dhrystone"
    key = build_key(tuple(flags), BARE_ARCH, _port_digest())
    out_dir = cache_dir() / f"dhrystone-{root.parent.name}-{key}"
    out = out_dir / "dhrystone.elf"
    if not out.exists():
        out_dir.mkdir(parents=True, exist_ok=True)
        incs, runtime = _runtime(root, out_dir, flags)
        run_gcc([GCC, "--specs=picolibc.specs", *BARE_ARCH, *flags, "-DPREALLOCATE=1",
                 "-Wno-implicit-int", "-Wno-implicit-function-declaration",
                 *incs, f"-I{src}", str(src / "dhrystone.c"), str(src / "dhrystone_main.c"), *runtime,
                 *BARE_LINK, f"-T{root / 'benchmarks' / 'common' / 'test.ld'}"], out)
    return out


def dhrystone_runs() -> int:
    """The number of timed runs riscv-tests' Dhrystone makes (fixed in its header)."""
    header = (unpack("riscv-tests") / "benchmarks" / "dhrystone" / "dhrystone.h").read_text()
    m = re.search(r"^#define\s+NUMBER_OF_RUNS\s+(\d+)", header, re.M)
    if not m:
        raise RefProgramError("dhrystone.h: no NUMBER_OF_RUNS")
    return int(m.group(1))


def build_coremark(flags: Sequence[str], iterations: int) -> Path:
    """CoreMark's core sources with this project's port (bench/bare_port),
    built with `flags` for `iterations` iterations. A modified port: its
    scores are CoreMark-derived."""
    cm = unpack("coremark")
    rt = unpack("riscv-tests")
    key = build_key(tuple(flags), iterations, BARE_ARCH, _port_digest(), rt.parent.name)
    out_dir = cache_dir() / f"coremark-{cm.parent.name}-{key}"
    out = out_dir / "coremark.elf"
    if not out.exists():
        out_dir.mkdir(parents=True, exist_ok=True)
        incs, runtime = _runtime(rt, out_dir, flags)
        core = [str(cm / f) for f in ("core_list_join.c", "core_main.c", "core_matrix.c", "core_state.c",
                                      "core_util.c")]
        flags_str = " ".join(flags).replace('"', "")
        # -fno-builtin-printf: the runtime has printf but no puts for gcc to call instead.
        run_gcc([GCC, "--specs=picolibc.specs", *BARE_ARCH, *flags, "-fno-builtin-printf",
                 f"-DITERATIONS={iterations}",
                 "-DPERFORMANCE_RUN=1", f'-DFLAGS_STR="{flags_str}"', f"-I{PORT_DIR}", f"-I{cm}",
                 *incs, *core, str(PORT_DIR / "core_portme.c"), *runtime, *BARE_LINK,
                 f"-T{rt / 'benchmarks' / 'common' / 'test.ld'}"], out)
    return out
