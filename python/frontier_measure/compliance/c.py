"""Compliance of C kernels (kernel scale): source inspection plus ELF symbol
inspection of the candidate's compiled object.

Source rules (comments and string literals are blanked first, so a rule never
fires on prose): no inline assembly unless the task allows it; no call to a
prohibited function. What the compiler may read (headers, `#embed`ded files,
probes) is not judged from the text: the compile, in the side's sandbox,
gives its own account, which c_reads.py checks. Object rules (pyelftools on the relocatable object the
candidate's sources compile to): every undefined symbol, i.e. every function
the kernel calls outside itself, must be on the task's allowed list, and the
entry functions must be defined there. The object check also catches calls
the source hides behind macros.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from elftools.elf.elffile import ELFFile
from elftools.elf.sections import SymbolTableSection

from . import Finding

SOURCE_SUFFIXES = (".c", ".h")
# ELF sections through which an object asks lld to read more files.
LINKER_REQUESTS = (".deplibs", ".linker-options")
_ASM = re.compile(r"\b(asm|__asm__|__asm)\b")
_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


@dataclass
class CRules:
    """C compliance rules (tests/checklist.toml [compliance] of a kernel task)."""

    allowed_headers: list[str] = field(default_factory=lambda: ["stdint.h", "stddef.h"])
    prohibited_calls: list[str] = field(default_factory=list)
    allow_inline_asm: bool = False
    allowed_symbols: list[str] = field(default_factory=lambda: ["memcpy", "memset", "memmove"])
    required_symbols: list[str] = field(default_factory=list)


def strip_c(text: str) -> str:
    """Blank comments, string and character literals, keeping line numbers."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            # Keep the quotes of #include "file" usable: only blank the inside.
            out.append(c + " " * max(0, j - i - 2) + (text[j - 1] if j - i >= 2 else ""))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def inspect_sources(root: Path, rules: CRules) -> list[Finding]:
    findings: list[Finding] = []
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in SOURCE_SUFFIXES)
    for path in files:
        rel = path.relative_to(root).as_posix()
        raw = path.read_text(errors="replace")
        code = strip_c(raw)
        if not rules.allow_inline_asm:
            for m in _ASM.finditer(code):
                findings.append(Finding(rel, _line(code, m.start()), "inline-asm",
                                        f"inline assembly ('{m.group(1)}') is not allowed"))
        banned = set(rules.prohibited_calls)
        for m in _CALL.finditer(code):
            if m.group(1) in banned:
                findings.append(Finding(rel, _line(code, m.start()), "prohibited-call",
                                        f"call to {m.group(1)}()"))
    return findings


def inspect_object(obj: Path, rules: CRules, label: str) -> list[Finding]:
    """Undefined symbols must be allowed; required entry points must be defined."""
    findings: list[Finding] = []
    defined: set[str] = set()
    with obj.open("rb") as fh:
        elf = ELFFile(fh)
        for sec in elf.iter_sections():
            if sec.name in LINKER_REQUESTS:
                # The evaluator links the object: it must not ask the linker
                # to read files it names (`#pragma comment(lib, "...")`).
                findings.append(Finding(label, 0, "linker-request",
                                        f"carries a {sec.name} section (files for the "
                                        "linker to read)"))
            if not isinstance(sec, SymbolTableSection):
                continue
            for sym in sec.iter_symbols():
                if not sym.name or sym["st_info"]["type"] in ("STT_FILE", "STT_SECTION"):
                    continue
                if sym["st_shndx"] == "SHN_UNDEF":
                    if sym.name not in rules.allowed_symbols:
                        findings.append(Finding(label, 0, "forbidden-symbol",
                                                f"calls or references '{sym.name}' outside the "
                                                "kernel (not in the allowed symbols)"))
                elif sym["st_info"]["bind"] in ("STB_GLOBAL", "STB_WEAK"):
                    defined.add(sym.name)
    for name in rules.required_symbols:
        if name not in defined:
            findings.append(Finding(label, 0, "missing-entry", f"does not define '{name}'"))
    # Any other global definition could interpose on the harness or libc at
    # static link time (a candidate's own printf, read or main): helpers must be static.
    for name in sorted(defined - set(rules.required_symbols)):
        findings.append(Finding(label, 0, "extra-global",
                                f"defines global symbol '{name}' (only "
                                f"{', '.join(rules.required_symbols) or 'the entry'} may be "
                                "global; make helpers static)"))
    return findings


def inspect(root: Path, rules: CRules) -> list[Finding]:
    """Source inspection only (the object check needs a compiler; see runners/kernel.py)."""
    return inspect_sources(Path(root), rules)
