"""What a C compile read, by the compiler's own account, against a kernel task's rules.

A regex over `#include` lines sees neither `#include` through a macro, nor
`#embed` / `__has_embed` / `__has_include` (which read or probe files), nor a
path built from `__FILE__`. The compiler knows what it opened, and says so in
two forms (both from the one real compile of the side's sources):

* its dependency file (-MD -MF): every file the preprocessor read or probed:
  headers, `#embed`ded files, files named in `__has_embed`/`__has_include`
  that exist, forced includes (-include);
* its include tree (-H, on stderr): every header entered, with its depth, so
  the file that included it is known.

The rules: a header entered from the side's own files (its sources and the
task's fixed headers) must be one the task allows (by its name below the
toolchain's include directories); headers entered from the toolchain's own
headers are theirs to choose; any other file read, by whatever directive, is a
forbidden read naming the file. A compile that gives no account of what it
read (clang writes no dependency file when an `#embed` names a missing file)
is a finding too: nothing it read can be vouched for.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import PurePosixPath

from . import Finding

_TREE_LINE = re.compile(r"^(\.+) (.+)$")
_EMBED = re.compile(r"^[ \t]*#[ \t]*embed[ \t]+(\S+)", re.M)
_NOT_FOUND = re.compile(r"^(?P<src>[^:\n]+):(?P<line>\d+):\d+: (?:fatal )?error: "
                        r"'(?P<name>[^'\n]+)' file not found", re.M)


def parse_depfile(text: str) -> list[str]:
    """The prerequisites of a make-syntax dependency file (clang's -MD):
    backslash-newline continues a line, `\\ ` is a space in a name, `$$` a
    dollar, `\\#` a hash. The targets (before the first unescaped ':' that
    ends a word) are left out."""
    text = text.replace("\\\r\n", " ").replace("\\\n", " ")
    words: list[str] = []
    cur: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text) and text[i + 1] in " #\\":
            cur.append(text[i + 1])
            i += 2
            continue
        if c == "$" and text.startswith("$$", i):
            cur.append("$")
            i += 2
            continue
        if c in " \t\n":
            if cur:
                words.append("".join(cur))
                cur = []
        else:
            cur.append(c)
        i += 1
    if cur:
        words.append("".join(cur))
    # The first word ending in ':' (or a lone ':') closes the targets.
    for k, w in enumerate(words):
        if w == ":":
            return words[k + 1:]
        if w.endswith(":"):
            return words[k + 1:]
    return words


def parse_tree(stderr: str) -> list[tuple[int, str]]:
    """(depth, path) of each header the compiler entered, from -H's lines
    ('. a.h', '.. b.h'); diagnostics between them are skipped, and the
    "Multiple include guards may be useful for:" list after them too."""
    out = []
    for line in stderr.splitlines():
        if line.startswith("Multiple include guards may be useful for"):
            break
        m = _TREE_LINE.match(line)
        if m:
            out.append((len(m.group(1)), m.group(2)))
    return out


def _norm(path: str, cwd: str) -> str:
    return os.path.normpath(path if path.startswith("/") else os.path.join(cwd, path))


def header_name(path: str, include_dirs: Iterable[str]) -> str | None:
    """The name a header is included by (`stdint.h`, `bits/alltypes.h`): its
    path below the deepest include directory holding it; None outside them."""
    best: str | None = None
    for d in include_dirs:
        d = os.path.normpath(d)
        if path.startswith(d + "/"):
            rel = path[len(d) + 1:]
            if best is None or len(rel) < len(best):
                best = rel
    return best


def check(*, source: str, cwd: str, own: Iterable[str], depfile: str | None, stderr: str,
          include_dirs: Iterable[str], allowed_headers: Iterable[str],
          compiled: bool = True, text: str = "") -> list[Finding]:
    """Findings for one compiled source (`source`, relative to `cwd`, the
    directory the compile ran in, as the compiler saw it). `own` holds the
    paths, relative to `cwd`, of the side's staged files (its sources and the
    task's fixed headers). For a compile that failed (`compiled` false), the
    headers it entered and the files of the side's own that it could not
    find. `text` is the source, only to name what a missing account hides."""
    dirs = [os.path.normpath(d) for d in include_dirs]
    allowed = set(allowed_headers)
    mine = {_norm(p, cwd) for p in own}
    main = _norm(source, cwd)
    mine.add(main)
    findings: list[Finding] = []

    def show(path: str) -> str:
        return os.path.relpath(path, cwd) if path.startswith(cwd.rstrip("/") + "/") else path

    # Headers entered, each with the file that entered it.
    stack = [main]
    entered: set[str] = set()
    for depth, raw in parse_tree(stderr):
        path = _norm(raw, cwd)
        if depth > len(stack):  # a malformed tree: judge it as the side's own include
            depth = len(stack)
        del stack[depth:]
        parent = stack[-1]
        stack.append(path)
        entered.add(path)
        if parent in mine and path not in mine:
            name = header_name(path, dirs)
            if name not in allowed:
                what = name if name is not None else path
                findings.append(Finding(show(parent), 0, "forbidden-header",
                                        f"includes {what} ({path}; allowed: "
                                        f"{', '.join(sorted(allowed)) or 'none'})"))
    if not compiled:
        own_names = {os.path.basename(p) for p in mine}
        return findings + [f for f in missing_files(stderr, allowed) if f.file in own_names]
    if depfile is None:
        named = sorted(set(_EMBED.findall(text)))
        findings.append(Finding(source, 0, "no-read-account",
                                "the compiler gave no account of the files it read (clang "
                                "writes none when an #embed names a file it cannot find"
                                + (f"; its #embed lines name {', '.join(named)}" if named else "")
                                + ")"))
        return findings
    for raw in parse_depfile(depfile):
        path = _norm(raw, cwd)
        if path in mine or path in entered:
            continue
        if header_name(path, dirs) in allowed:
            continue  # a probe (__has_include) of a header it may include anyway
        findings.append(Finding(source, 0, "forbidden-read",
                                f"the compiler read {show(path)} (an #embed, __has_embed or "
                                "__has_include names it): only the side's own sources and the "
                                "allowed headers may be read"))
    return findings


def missing_files(stderr: str, allowed_headers: Iterable[str]) -> list[Finding]:
    """A failed compile's 'file not found' errors as findings: the side named
    a file outside what its build can see (the task's tests/, the golden
    outputs, the evaluator's files are not in its view)."""
    allowed = set(allowed_headers)
    out = []
    for m in _NOT_FOUND.finditer(stderr):
        name = m.group("name")
        if PurePosixPath(name).name in allowed and not name.startswith(("/", ".")):
            continue
        out.append(Finding(os.path.basename(m.group("src")), int(m.group("line")),
                           "forbidden-read",
                           f"reads '{name}', which is not in its build's view (only its own "
                           "sources and the allowed headers are)"))
    return out
