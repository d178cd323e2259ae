"""Python source inspection (module and package scale).

Every file under the candidate root is looked at:

* `.py` files are parsed and walked. Imports are checked against the task's
  permitted modules (the candidate's own modules are always permitted); every
  name or attribute chain is resolved through import aliases (`import os as o;
  o.system`, `from os import system as run`, `getattr(os, "system")`) and
  checked against the escape hatches and the task's prohibited calls. A mere
  reference counts, not only a call: `f = eval` is as good as calling it.
* native code (`.so`, `.pyd`, `.dylib`, `.dll`, or any ELF file) and compiled
  bytecode (`.pyc`) are flagged: they cannot be inspected.
* symbolic links leaving the candidate root are flagged.

Escape hatches are flagged unless the task lists them in `allow`:
`__import__`, `importlib`, `exec`, `eval`, `compile`, `ctypes`, `cffi`,
`subprocess`, `os.system` and the other process-spawning `os` calls,
`multiprocessing`, `threading`, `concurrent`, `signal`, `sys.settrace`,
`sys.setprofile`, `native` code, and anything touching `frontier_measure`.
"""

from __future__ import annotations

import ast
import builtins
import os
from pathlib import Path
from typing import Any

from . import Finding

ESCAPE_MODULES = {
    "importlib", "ctypes", "cffi", "subprocess", "multiprocessing", "threading", "_thread",
    "concurrent", "signal", "frontier_measure", "_posixsubprocess", "pty", "gc",
}
ESCAPE_CALLS = {
    "__import__", "exec", "eval", "compile", "breakpoint",
    "builtins.__import__", "builtins.exec", "builtins.eval", "builtins.compile",
    "os.system", "os.popen", "os.fork", "os.forkpty", "os.kill", "os.killpg",
    "os.posix_spawn", "os.posix_spawnp", "os.register_at_fork",
    "sys.settrace", "sys.setprofile", "sys.addaudithook",
}
ESCAPE_PREFIXES = ("os.exec", "os.spawn")
NATIVE_SUFFIXES = (".so", ".pyd", ".dylib", ".dll")
ALWAYS_ALLOWED = {"__future__"}
BUILTIN_NAMES = set(dir(builtins))


def _allowed_module(name: str, allowed: list[str]) -> bool:
    return any(name == a or name.startswith(a + ".") for a in allowed)


def _hatch_key(dotted: str) -> str:
    """The name a task uses in `allow` to permit an escape hatch."""
    if dotted.startswith("builtins."):
        dotted = dotted[len("builtins."):]
    return dotted.split(".")[0] if dotted.split(".")[0] in ESCAPE_MODULES else dotted


class _Visitor(ast.NodeVisitor):
    def __init__(self, rel: str, rules: Any, own: set[str]) -> None:
        self.rel = rel
        self.rules = rules
        self.own = own
        self.aliases: dict[str, str] = {}
        self.findings: list[Finding] = []
        self.allow = set(rules.allow)
        self.prohibited = set(rules.prohibited_calls)

    def add(self, node: ast.AST, rule: str, detail: str) -> None:
        self.findings.append(Finding(self.rel, getattr(node, "lineno", 0), rule, detail))

    # ---- imports
    def _check_module(self, node: ast.AST, name: str) -> None:
        root = name.split(".")[0]
        if root in self.own or root in ALWAYS_ALLOWED:
            return
        if root in ESCAPE_MODULES:
            if root not in self.allow:
                self.add(node, "escape-hatch", f"imports '{name}'")
            return
        if not _allowed_module(name, self.rules.allowed_imports):
            self.add(node, "forbidden-import",
                     f"imports '{name}', which the task does not permit")

    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            self._check_module(node, a.name)
            if a.asname:
                self.aliases[a.asname] = a.name
            else:
                root = a.name.split(".")[0]
                self.aliases[root] = root

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:  # relative: the candidate's own code
            for a in node.names:
                self.aliases[a.asname or a.name] = f".{a.name}"
            return
        mod = node.module or ""
        self._check_module(node, mod)
        for a in node.names:
            full = f"{mod}.{a.name}"
            if a.name == "*":
                continue
            # `from os import system` is a reference to os.system.
            self._check_name(node, full)
            if mod.split(".")[0] not in self.own and a.name in ESCAPE_MODULES:
                self._check_module(node, full)
            self.aliases[a.asname or a.name] = full

    # ---- names
    def _dotted(self, node: ast.AST) -> str | None:
        if isinstance(node, ast.Name):
            if node.id in self.aliases:
                return self.aliases[node.id]
            return node.id if node.id in BUILTIN_NAMES else None
        if isinstance(node, ast.Attribute):
            base = self._dotted(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def _check_name(self, node: ast.AST, dotted: str) -> None:
        if dotted.startswith("."):
            return
        bare = dotted[len("builtins."):] if dotted.startswith("builtins.") else dotted
        if bare in ESCAPE_CALLS or dotted in ESCAPE_CALLS or bare.startswith(ESCAPE_PREFIXES):
            key = _hatch_key(dotted)
            if key not in self.allow and bare not in self.allow:
                self.add(node, "escape-hatch", f"uses '{bare}'")
            return
        if bare.split(".")[0] in ("frontier_measure",):
            self.add(node, "escape-hatch", f"touches '{bare}'")
            return
        for p in self.prohibited:
            if bare == p or bare.startswith(p + "."):
                self.add(node, "prohibited-call", f"uses '{bare}', which the task prohibits")
                return

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            d = self._dotted(node)
            if d:
                self._check_name(node, d)
        elif isinstance(node.ctx, ast.Store) and node.id in self.aliases:
            # Rebinding a name hides the import from then on (approximation: flow-insensitive).
            pass

    def visit_Attribute(self, node: ast.Attribute) -> None:
        d = self._dotted(node)
        if d:
            self._check_name(node, d)
            return  # the chain is resolved as a whole
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        fn = self._dotted(node.func)
        if fn in ("getattr", "builtins.getattr", "setattr", "delattr") and len(node.args) >= 2:
            base = self._dotted(node.args[0])
            attr = node.args[1]
            if base and isinstance(attr, ast.Constant) and isinstance(attr.value, str):
                self._check_name(node, f"{base}.{attr.value}")
            elif base and base.split(".")[0] not in self.own and not base.startswith("."):
                self.add(node, "escape-hatch",
                         f"dynamic attribute access on module '{base}' cannot be inspected")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and "frontier_measure" in node.value:
            self.add(node, "escape-hatch", "mentions 'frontier_measure' (the evaluator)")


def _own_modules(root: Path) -> set[str]:
    own = set()
    for p in root.iterdir():
        if p.suffix == ".py":
            own.add(p.stem)
        elif p.is_dir() and not p.name.startswith("."):
            own.add(p.name)
    return own


def _is_elf(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def inspect(root: Path, rules: Any) -> list[Finding]:
    root = root.resolve()
    findings: list[Finding] = []
    if not root.is_dir():
        return [Finding(".", 0, "missing", f"candidate directory {root} does not exist")]
    own = _own_modules(root)
    allow = set(rules.allow)
    for dirpath, _dirnames, filenames in os.walk(root):
        for name in sorted(filenames):
            path = Path(dirpath) / name
            rel = str(path.relative_to(root))
            if path.is_symlink():
                target = path.resolve()
                if root not in target.parents:
                    findings.append(Finding(rel, 0, "symlink-escape",
                                            f"symbolic link to {target}, outside the candidate"))
                    continue
            if name.endswith(NATIVE_SUFFIXES) or (not name.endswith(".py") and _is_elf(path)):
                if "native" not in allow:
                    findings.append(Finding(rel, 0, "native-code",
                                            "native code cannot be inspected"))
                continue
            if name.endswith((".pyc", ".pyo")):
                if "bytecode" not in allow:
                    findings.append(Finding(rel, 0, "compiled-code",
                                            "compiled bytecode cannot be inspected"))
                continue
            if not name.endswith(".py"):
                continue
            try:
                source = path.read_text(encoding="utf-8")
                tree = ast.parse(source, filename=rel)
            except (SyntaxError, UnicodeDecodeError, ValueError) as exc:
                line = getattr(exc, "lineno", 0) or 0
                findings.append(Finding(rel, line, "syntax-error", f"cannot be parsed: {exc}"))
                continue
            v = _Visitor(rel, rules, own)
            v.visit(tree)
            findings.extend(v.findings)
    # One finding per (file, line, rule, detail) is enough.
    unique = sorted(set(findings), key=lambda f: (f.file, f.line, f.rule, f.detail))
    return unique
