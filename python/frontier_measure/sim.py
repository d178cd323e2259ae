"""Front end of the cycle-counting RISC-V simulator (frontier_measure._core.Simulator).

Loads a static RISC-V ELF (pyelftools), builds the Linux initial stack or sets up
bare-metal machine mode, runs it under a machine description from
simulators/machines/ and returns what the program printed plus the statistics.
Also compiles C for riscv64 with the `ziglang` package (or a Debian cross gcc).

The cycle count is a pure function of (ELF, stdin, argv, machine file): no host
time enters it, so two runs anywhere give the same number.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import struct
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from elftools.common.exceptions import ELFError
from elftools.elf.constants import P_FLAGS
from elftools.elf.elffile import ELFFile

from . import _core

SimulatorFault = _core.SimulatorFault

EM_RISCV = "EM_RISCV"
STT_FUNC = 2
PAGE = 4096
# User-mode address space: one flat region. Static ELFs from zig/gcc link at
# 0x10000 or 0x1000000, well inside it; the stack sits at the top.
USER_BASE = 0x10000
USER_SIZE = 1 << 30
STACK_SIZE = 8 << 20
# Machine mode: memory starts at the lowest loaded address (0x80000000 by convention).
MACHINE_SIZE = 64 << 20
DEFAULT_MAX_INSTRUCTIONS = 10_000_000_000
# Exit statuses of `frontier-measure sim run` besides the program's own:
# as timeout(1) for a spent budget, the next value for any other fault.
EXIT_BUDGET = 124
EXIT_FAULT = 125

# auxv keys (linux/auxvec.h).
AT_NULL, AT_PHDR, AT_PHENT, AT_PHNUM, AT_PAGESZ, AT_BASE, AT_FLAGS, AT_ENTRY = 0, 3, 4, 5, 6, 7, 8, 9
AT_UID, AT_EUID, AT_GID, AT_EGID, AT_HWCAP, AT_CLKTCK, AT_SECURE = 11, 12, 13, 14, 16, 17, 23
AT_RANDOM, AT_EXECFN = 25, 31
# HWCAP: one bit per single-letter extension, bit (letter - 'a'): IMAFDC.
HWCAP_RV64GC = sum(1 << (ord(c) - ord("a")) for c in "imafdc")


class CompileError(RuntimeError):
    """A C or assembly source did not compile for riscv64; the message holds the compiler's output."""


# ---------------------------------------------------------------------------
# Machine descriptions


def machines_dir() -> Path:
    env = os.environ.get("FRONTIER_MEASURE_MACHINES")
    if env:
        return Path(env)
    checkout = Path(__file__).resolve().parents[2] / "simulators" / "machines"
    if checkout.is_dir():
        return checkout
    return Path(__file__).resolve().parent / "machines"  # installed with the wheel


# The machine `default` names: a real core, with sources for every number.
DEFAULT_MACHINE = "rocket"


def machines() -> list[str]:
    """Names of the bundled machine descriptions (`default` is DEFAULT_MACHINE)."""
    return sorted(p.stem for p in machines_dir().glob("*.machine"))


def machine_name(machine: str | os.PathLike[str]) -> str:
    """The bundled name a machine argument stands for ("default" resolved), or a file's stem."""
    if str(machine) == "default":
        return DEFAULT_MACHINE
    return Path(str(machine)).stem if str(machine).endswith(".machine") else str(machine)


def load_machine(machine: str | os.PathLike[str]) -> str:
    """The text of a machine description: a bundled name ("default", "rocket", ...) or a path."""
    if str(machine) == "default":
        machine = DEFAULT_MACHINE
    p = Path(machine)
    if p.suffix == ".machine" or p.exists():
        if not p.is_file():
            raise FileNotFoundError(f"machine file not found: {p}")
        text = p.read_text()
    else:
        f = machines_dir() / f"{machine}.machine"
        if not f.is_file():
            raise FileNotFoundError(
                f"unknown machine {str(machine)!r}; bundled: {', '.join(machines()) or 'none'} "
                f"(default = {DEFAULT_MACHINE})"
            )
        text = f.read_text()
    _core.parse_machine(text)  # validate now, with the file's own line numbers
    return text


# ---------------------------------------------------------------------------
# ELF loading


@dataclass(frozen=True)
class Segment:
    vaddr: int
    data: bytes
    memsz: int
    executable: bool
    writable: bool = True


@dataclass(frozen=True)
class Symbol:
    name: str
    addr: int
    size: int


@dataclass
class Program:
    """A loaded RISC-V ELF: what the simulator needs and what inspection needs.

    Symbols are read only when asked for (a profile, the bare-metal `tohost`
    word, inspection): a static libc binary carries thousands of them and a
    short kernel run should not pay for reading them.
    """

    path: Path
    entry: int
    segments: list[Segment]
    phdr_addr: int
    phent: int
    phnum: int
    _symtab: tuple[int, int, int, int] | None = field(default=None, repr=False)  # off, size, stroff, strsize
    _symbols: dict[str, int] | None = field(default=None, repr=False)
    _functions: list[Symbol] | None = field(default=None, repr=False)

    @property
    def symbols(self) -> dict[str, int]:
        """Every named symbol -> address (the first of a name wins)."""
        if self._symbols is None:
            self._read_symbols()
        assert self._symbols is not None
        return self._symbols

    @property
    def functions(self) -> list[Symbol]:
        """STT_FUNC symbols with a size, one name per address (the shortest), sorted by address."""
        if self._functions is None:
            self._read_symbols()
        assert self._functions is not None
        return self._functions

    def _read_symbols(self) -> None:
        symbols: dict[str, int] = {}
        by_addr: dict[int, Symbol] = {}
        if self._symtab is not None:
            off, size, stroff, strsize = self._symtab
            with self.path.open("rb") as fh:
                fh.seek(off)
                table = fh.read(size)
                fh.seek(stroff)
                strtab = fh.read(strsize)
            # Elf64_Sym: st_name u32, st_info u8, st_other u8, st_shndx u16, st_value u64, st_size u64.
            for name_off, info, _other, _shndx, value, sym_size in struct.iter_unpack("<IBBHQQ", table):
                if not name_off:
                    continue
                name = strtab[name_off:strtab.index(b"\0", name_off)].decode("utf-8", "replace")
                symbols.setdefault(name, value)
                if info & 0xF == STT_FUNC and sym_size > 0:
                    old = by_addr.get(value)
                    if old is None or (len(name), name) < (len(old.name), old.name):
                        by_addr[value] = Symbol(name, value, sym_size)
        self._symbols = symbols
        self._functions = sorted(by_addr.values(), key=lambda s: s.addr)

    def _may_have_symbol(self, name: str) -> bool:
        """False when no symbol can have this name (it is not in the string table): cheap."""
        if self._symbols is not None or self._symtab is None:
            return self._symtab is not None and name in self.symbols
        _, _, stroff, strsize = self._symtab
        with self.path.open("rb") as fh:
            fh.seek(stroff)
            return b"\0" + name.encode() + b"\0" in fh.read(strsize)

    @property
    def machine_mode(self) -> bool:
        """Bare-metal programs talk through `tohost` and link at 0x80000000."""
        return self.entry >= 0x8000_0000 or (self._may_have_symbol("tohost") and "tohost" in self.symbols)

    @property
    def code_range(self) -> tuple[int, int]:
        xs = [s for s in self.segments if s.executable]
        return min(s.vaddr for s in xs), max(s.vaddr + s.memsz for s in xs)

    def read_only_pages(self) -> list[tuple[int, int]]:
        """Page ranges [lo, hi) that Linux maps without write permission: those
        of segments without PF_W, less any page a writable segment shares
        (the kernel maps page by page, and such a page ends up writable)."""
        writable = set()
        for s in self.segments:
            if s.writable:
                writable.update(range(s.vaddr // PAGE, (s.vaddr + s.memsz + PAGE - 1) // PAGE))
        pages = sorted({p for s in self.segments if not s.writable
                        for p in range(s.vaddr // PAGE, (s.vaddr + s.memsz + PAGE - 1) // PAGE)} - writable)
        ranges: list[tuple[int, int]] = []
        for p in pages:
            if ranges and ranges[-1][1] == p * PAGE:
                ranges[-1] = (ranges[-1][0], (p + 1) * PAGE)
            else:
                ranges.append((p * PAGE, (p + 1) * PAGE))
        return ranges

    @property
    def end(self) -> int:
        return max(s.vaddr + s.memsz for s in self.segments)

    @property
    def start(self) -> int:
        return min(s.vaddr for s in self.segments)


class NotAProgram(ValueError):
    """A file the simulator cannot load: not an ELF, not 64-bit RISC-V, not
    static; the message names the file and what it is instead."""


def load_elf(path: str | os.PathLike[str]) -> Program:
    path = Path(path)
    with path.open("rb") as fh:
        try:
            elf = ELFFile(fh)
        except ELFError as exc:
            raise NotAProgram(f"{path}: not an ELF file ({exc}); give a static RISC-V "
                              "executable (e.g. built with zig cc -target "
                              "riscv64-linux-musl -static)") from None
        if elf["e_machine"] != EM_RISCV or elf.elfclass != 64:
            raise NotAProgram(f"{path}: not a 64-bit RISC-V ELF ({elf['e_machine']}, "
                              f"{elf.elfclass}-bit)")
        if elf["e_type"] != "ET_EXEC":
            raise NotAProgram(f"{path}: only static executables are supported "
                              f"(got {elf['e_type']})")
        segments: list[Segment] = []
        phdr_addr = 0
        for seg in elf.iter_segments():
            if seg["p_type"] == "PT_INTERP":
                raise NotAProgram(f"{path}: dynamically linked; link with -static")
            if seg["p_type"] == "PT_PHDR":
                phdr_addr = seg["p_vaddr"]
            if seg["p_type"] != "PT_LOAD" or seg["p_memsz"] == 0:
                continue
            segments.append(
                Segment(seg["p_vaddr"], seg.data(), seg["p_memsz"], bool(seg["p_flags"] & P_FLAGS.PF_X),
                        bool(seg["p_flags"] & P_FLAGS.PF_W))
            )
        if not segments:
            raise NotAProgram(f"{path}: no PT_LOAD segment")
        if not phdr_addr:
            # The program headers usually sit in the first segment's file image.
            for seg in elf.iter_segments():
                off = elf["e_phoff"]
                if seg["p_type"] == "PT_LOAD" and seg["p_offset"] <= off < seg["p_offset"] + seg["p_filesz"]:
                    phdr_addr = seg["p_vaddr"] + off - seg["p_offset"]
                    break
        # Where the symbol table is; it is read later, if at all.
        symtab = None
        for i in range(elf.num_sections()):
            hdr = elf._get_section_header(i)
            if hdr["sh_type"] == "SHT_SYMTAB" and hdr["sh_entsize"] == 24:
                strhdr = elf._get_section_header(hdr["sh_link"])
                symtab = (hdr["sh_offset"], hdr["sh_size"], strhdr["sh_offset"], strhdr["sh_size"])
                break
        return Program(path=path, entry=elf["e_entry"], segments=segments, phdr_addr=phdr_addr,
                       phent=elf["e_phentsize"], phnum=elf["e_phnum"], _symtab=symtab)


def _initial_stack(sim: Any, prog: Program, stack_top: int, argv: Sequence[str],
                   envp: Sequence[str]) -> int:
    """Lay out argc/argv/envp/auxv as the Linux kernel does; returns sp."""
    blob = bytearray()
    # Strings and AT_RANDOM bytes go at the top; pointers are filled in below them.
    strings = [a.encode() + b"\0" for a in argv] + [e.encode() + b"\0" for e in envp]
    random16 = hashlib.sha256(b"frontier-measure AT_RANDOM").digest()[:16]
    area = sum(len(s) for s in strings) + len(random16)
    area_base = (stack_top - area - 64) & ~15
    addrs = []
    for s in strings:
        addrs.append(area_base + len(blob))
        blob += s
    random_addr = area_base + len(blob)
    blob += random16
    sim.write_memory(area_base, bytes(blob))
    arg_addrs, env_addrs = addrs[: len(argv)], addrs[len(argv):]
    auxv = [
        (AT_PHDR, prog.phdr_addr), (AT_PHENT, prog.phent), (AT_PHNUM, prog.phnum),
        (AT_PAGESZ, PAGE), (AT_BASE, 0), (AT_FLAGS, 0), (AT_ENTRY, prog.entry),
        (AT_UID, 0), (AT_EUID, 0), (AT_GID, 0), (AT_EGID, 0), (AT_HWCAP, HWCAP_RV64GC),
        (AT_CLKTCK, 100), (AT_SECURE, 0), (AT_RANDOM, random_addr),
        (AT_EXECFN, arg_addrs[0] if arg_addrs else 0), (AT_NULL, 0),
    ]
    words = [len(argv), *arg_addrs, 0, *env_addrs, 0]
    for k, v in auxv:
        words += [k, v]
    sp = (area_base - 8 * len(words)) & ~15
    sim.write_memory(sp, b"".join(w.to_bytes(8, "little") for w in words))
    return sp


def prepare(prog: Program, *, machine_text: str, stdin: bytes = b"", argv: Sequence[str] | None = None,
            envp: Sequence[str] = (), timing: bool = True, profile: bool = False) -> Any:
    """A _core.Simulator with the program loaded and ready to run."""
    if prog.machine_mode:
        base = prog.start & ~(PAGE - 1)
        size = max(MACHINE_SIZE, (prog.end - base + PAGE - 1) & ~(PAGE - 1))
        sim = _core.Simulator("machine", base, size, machine_text)
    else:
        base, size = USER_BASE, USER_SIZE
        if not any(s.executable for s in prog.segments):
            # (Machine mode does not ask: there all memory may hold code, and
            # riscv-tests' own linker script marks its one segment RW.)
            raise ValueError(f"{prog.path}: no executable PT_LOAD segment")
        if prog.start < base or prog.end > base + size - STACK_SIZE - (64 << 20):
            raise ValueError(f"{prog.path}: segments outside the simulated address space")
        sim = _core.Simulator("user", base, size, machine_text)
    for seg in prog.segments:
        sim.write_memory(seg.vaddr, seg.data)  # the rest of memsz is already zero
    # Machine mode: any memory may hold code (programs write code and run it
    # after fence.i); user mode: the ELF's executable segments.
    sim.set_code_range(*((base, base + size) if prog.machine_mode else prog.code_range))
    if not prog.machine_mode:
        for lo, hi in prog.read_only_pages():
            sim.protect(lo, hi)
    sim.pc = prog.entry
    sim.timing = timing
    if profile and prog.functions:
        sim.set_profile_ranges([(f.addr, f.addr + f.size) for f in prog.functions])
    if prog.machine_mode:
        sim.set_tohost(prog.symbols.get("tohost", 0))
        sim.set_fromhost(prog.symbols.get("fromhost", 0))
        sim.set_reg(2, base + size - 16)  # a usable sp; bare-metal startup code usually sets its own
    else:
        stack_top = base + size - PAGE
        sp = _initial_stack(sim, prog, stack_top, list(argv) if argv else [prog.path.name], envp)
        sim.set_reg(2, sp)
        brk = (prog.end + PAGE - 1) & ~(PAGE - 1)
        sim.set_brk(brk)
        sim.set_mmap_area(brk + (16 << 20), stack_top - STACK_SIZE)
        sim.set_stdin(stdin)
    return sim


@dataclass
class SimResult:
    stdout: bytes
    stderr: bytes
    exit_code: int  # negative: ended by that signal (abort() gives -6)
    stats: dict[str, Any]
    profile: list[tuple[str, int]] = field(default_factory=list)  # (function, cycles) descending
    machine: str = "default"
    timing: bool = True

    @property
    def cycles(self) -> int:
        return int(self.stats["cycles"])

    def to_dict(self) -> dict[str, Any]:
        return {
            "exit_code": self.exit_code,
            "stdout": self.stdout.decode("utf-8", "replace"),
            "stderr": self.stderr.decode("utf-8", "replace"),
            "machine": self.machine,
            "timing": self.timing,
            "stats": self.stats,
            "profile": [{"function": n, "cost": c} for n, c in self.profile],
        }


def exit_status(exit_code: int) -> int:
    """The process exit status that stands for a program's exit code, as a
    shell reports it: 0-255 as is (bare-metal codes above 255 become 255, so a
    failure never wraps round to 0), killed by signal n: 128 + n."""
    if exit_code < 0:
        return 128 + min(-exit_code, 127)
    return min(exit_code, 255)


def fault_status(fault: BaseException) -> int:
    """The exit status for a run that ended in a SimulatorFault."""
    return EXIT_BUDGET if getattr(fault, "code", "") == "budget_exceeded" else EXIT_FAULT


def run(elf: str | os.PathLike[str] | Program, stdin: bytes = b"", machine: str = "default",
        max_instructions: int = DEFAULT_MAX_INSTRUCTIONS, argv: Sequence[str] | None = None,
        timing: bool = True, *, max_cycles: int | None = None, profile: bool = False,
        envp: Sequence[str] = ()) -> SimResult:
    """Run a static RISC-V ELF to completion and return its output and statistics.

    Raises SimulatorFault (with .code and .pc) on an illegal instruction, a bad
    access, an unknown syscall, or when the instruction/cycle budget runs out.
    """
    prog = elf if isinstance(elf, Program) else load_elf(elf)
    text = load_machine(machine)
    sim = prepare(prog, machine_text=text, stdin=stdin, argv=argv, envp=envp, timing=timing,
                  profile=profile)
    sim.run(max_instructions, max_cycles if max_cycles is not None else (1 << 64) - 1)
    prof: list[tuple[str, int]] = []
    if profile and prog.functions:
        counts = sim.profile()
        names = [f.name for f in prog.functions] + ["(other)"]
        prof = sorted(((n, c) for n, c in zip(names, counts, strict=True) if c), key=lambda t: (-t[1], t[0]))
    return SimResult(stdout=sim.stdout, stderr=sim.stderr, exit_code=sim.exit_code,
                     stats=sim.stats(), profile=prof, machine=machine_name(machine), timing=timing)


# ---------------------------------------------------------------------------
# Compiling for riscv64


def have_zig() -> bool:
    return importlib.util.find_spec("ziglang") is not None


def compiler() -> list[str]:
    """The C compiler command for static riscv64 Linux programs."""
    if have_zig():
        return [sys.executable, "-m", "ziglang", "cc", "-target", "riscv64-linux-musl"]
    gcc = shutil.which("riscv64-linux-gnu-gcc")
    if gcc:
        return [gcc]
    raise CompileError("no riscv64 C compiler: install the `ziglang` package "
                       "(pip install frontier-measure[kernel]) or Debian's gcc-riscv64-linux-gnu")


def _run_compiler(cmd: list[str]) -> None:
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise CompileError(f"{' '.join(cmd)}\n{r.stderr.strip()}")


def compile_c(sources: Sequence[str | os.PathLike[str]], out: str | os.PathLike[str],
              opt: str = "-O2", flags: Sequence[str] = ()) -> Path:
    """Compile C sources into a static riscv64 Linux executable."""
    cmd = [*compiler(), "-static", opt, *flags, *map(str, sources), "-o", str(out)]
    if cmd[0] != sys.executable:
        cmd.append("-lm")
    _run_compiler(cmd)
    return Path(out)


def assemble_bare(sources: Sequence[str | os.PathLike[str]], out: str | os.PathLike[str],
                  linker_script: str | os.PathLike[str], flags: Sequence[str] = ()) -> Path:
    """Assemble/link a bare-metal (machine mode) program with a linker script."""
    if not have_zig():
        raise CompileError("bare-metal builds need the `ziglang` package")
    cmd = [sys.executable, "-m", "ziglang", "cc", "-target", "riscv64-freestanding",
           "-mcpu=baseline_rv64", "-nostdlib", "-static", "-T", str(linker_script), *flags,
           *map(str, sources), "-o", str(out)]
    _run_compiler(cmd)
    return Path(out)


def cached_build(sources: Sequence[str | os.PathLike[str]], cache_dir: str | os.PathLike[str],
                 opt: str = "-O2", flags: Sequence[str] = (), *,
                 linker_script: str | os.PathLike[str] | None = None) -> Path:
    """compile_c / assemble_bare, reusing an earlier build with identical inputs.

    The key hashes the source bytes, the flags and the compiler command, so an
    edited source or a different compiler gives a fresh build.
    """
    paths = [Path(s) for s in sources]
    h = hashlib.sha256()
    h.update(repr((opt, list(flags), str(linker_script), compiler() if linker_script is None else
                   "zig-bare")).encode())
    for p in [*paths, *([Path(linker_script)] if linker_script else [])]:
        h.update(p.name.encode() + b"\0" + p.read_bytes())
    cache = Path(cache_dir)
    cache.mkdir(parents=True, exist_ok=True)
    out = cache / f"{paths[0].stem}-{h.hexdigest()[:16]}.elf"
    if out.exists():
        return out
    tmp = out.with_suffix(f".tmp{os.getpid()}")
    if linker_script is None:
        compile_c(paths, tmp, opt=opt, flags=flags)
    else:
        assemble_bare(paths, tmp, linker_script, flags=flags)
    tmp.replace(out)  # atomic: parallel builders never see a half-written ELF
    return out
