"""Python source inspection (module and package scale).

Every file under the candidate root is looked at:

* `.py` files are parsed and walked. Imports are checked against the task's
  permitted modules (the candidate's own modules are always permitted); every
  name or attribute chain is resolved through import aliases (`import os as o;
  o.system`, `from os import system as run`, `getattr(os, "system")`) and
  checked against the escape hatches and the task's prohibited calls. A mere
  reference counts, not only a call: `f = eval` is as good as calling it.
* source is decoded exactly as Python decodes it (from the bytes, by their
  coding cookie), so a cookie cannot make the interpreter read code the
  inspector saw as a comment.
* `__builtins__` and builtins reached by subscript (`__builtins__['eval']`,
  `vars(builtins)['exec']`) resolve like attributes; so does reaching a
  module through another one (`os.sys`, `random._os`): a module that is not
  permitted is not permitted as an attribute either.
* native code (`.so`, `.pyd`, `.dylib`, `.dll`, or any ELF file) is flagged:
  it cannot be inspected. `__pycache__` directories and `.pyc` files are
  neither inspected nor run (the runner leaves them out of the side's copy:
  `IGNORED`), nor are the paths a task excludes (a library's own `tests/`).
* symbolic links (to files or directories) leaving the candidate root are
  flagged, and so is a module named like one of the standard library's
  (it would shadow it for every library the candidate imports).

Escape hatches are flagged unless the task lists them in `allow`:
`__import__`, `importlib`, `exec`, `eval`, `compile`, `ctypes`, `cffi`,
`subprocess`, `os.system` and the other process-spawning `os` calls,
`multiprocessing`, `threading`, `concurrent`, `signal`, `sys.settrace`,
`sys.setprofile`, `native` code, and anything touching `frontier_measure`.
`getattr(X, name)` with a computed name on a module or built-in X is flagged
too (it may reach anything); `allow = ["getattr:str"]` accepts it for X = str,
whatever the name turns out to be (dunders included: `str.__base__` is `object`,
and its subclasses lead to every module's globals). That is why the run-time
audit hook, not this inspection, is what refuses processes, imports, `exec`
and files, however they were reached (tests/hostile/getattr_walk).
`allow = ["os.system('')"]` permits that one exact call (a string literal),
in the source and at run time, and nothing else of `os.system`.

Some ways into the interpreter's internals are flagged by what they touch,
whatever they are reached from (each can be accepted by listing its key in
`allow`; the audit hook still judges what they lead to):

* `import-machinery`: a module's `__loader__` or `__spec__`, the loaders that
  run a file by its path (`SourceFileLoader`, `spec_from_file_location` ...),
  `.load_module(...)` and `.get_data(path)`: they run as code a file this
  inspection never read (a `.txt` beside the module). Keys: the name itself.
* `builtins-access`: the builtins module taken as a value (`b = __builtins__`,
  `f(vars(builtins))`, `__builtins__.get(...)`), where an alias hides what is
  reached through it, and `.__self__` (`len.__self__` is the builtins module).
  Reading one builtin by a literal name (`__builtins__['x']`,
  `hasattr(__builtins__, 'cmp')`) resolves like any name and is not flagged.
  Keys: `__builtins__`, `__self__`.
* `subclass-walk`: `__subclasses__`, except on a class of the candidate's own
  module (`().__class__.__base__.__subclasses__()` lists every class of the
  process, and their methods' globals every module's). Key: `__subclasses__`.
* `frame-access`: `tb_frame`, `gi_frame`, `cr_frame`, `ag_frame`, `f_globals`,
  `f_locals`, `f_builtins`: a frame's namespaces are those of whoever runs
  below the candidate, the evaluator included. (`f_back` and `f_code` alone
  are not: walking frames to count them or name them, as the bundled semver
  and markdown do, reaches no namespace.) Key: `frames`.
* `globals-access`: a function's `__globals__` (its module's namespace). Key:
  `__globals__`.
Attribute names are found in `obj.NAME`, in `getattr`/`setattr`/`delattr`
and `operator.attrgetter` with a literal name, and as string literals.
"""

from __future__ import annotations

import ast
import builtins
import fnmatch
import os
import sys
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
# Modules that are escape hatches in themselves: reaching one as an attribute
# of another module (`os.sys`) is as good as importing it.
REACHABLE_MODULES = ESCAPE_MODULES | {"sys", "os", "posix", "builtins", "socket", "marshal",
                                      "pickle", "io", "_io", "shutil"}
# What the runner leaves out of a side's copy, so never runs: not inspected.
IGNORED = ("__pycache__", "*.pyc", "*.pyo")
STDLIB = frozenset(sys.stdlib_module_names)
NATIVE_SUFFIXES = (".so", ".pyd", ".dylib", ".dll")
ALWAYS_ALLOWED = {"__future__"}
BUILTIN_NAMES = set(dir(builtins))

# Names and attributes that lead into the interpreter's internals: (rule,
# the key a task lists in `allow` to accept it, why).
_LOADING = "runs a file as code by its path, a file this inspection never read"
INTERNALS = {
    "__loader__": ("import-machinery", "__loader__", "a module's loader " + _LOADING),
    "__spec__": ("import-machinery", "__spec__", "a module's spec leads to its loader, which "
                 + _LOADING),
    "load_module": ("import-machinery", "load_module", "a loader's load_module " + _LOADING),
    "SourceFileLoader": ("import-machinery", "SourceFileLoader", _LOADING),
    "SourcelessFileLoader": ("import-machinery", "SourcelessFileLoader", _LOADING),
    "ExtensionFileLoader": ("import-machinery", "ExtensionFileLoader", _LOADING),
    "FileLoader": ("import-machinery", "FileLoader", _LOADING),
    "SourceLoader": ("import-machinery", "SourceLoader", _LOADING),
    "spec_from_file_location": ("import-machinery", "spec_from_file_location", _LOADING),
    "__self__": ("builtins-access", "__self__",
                 "the object a built-in function is bound to: for len, print ... the builtins "
                 "module"),
    "__subclasses__": ("subclass-walk", "__subclasses__",
                       "lists the classes of the whole process, and through their methods the "
                       "globals of every module"),
    "__globals__": ("globals-access", "__globals__",
                    "a function's module namespace, the evaluator's as well as the candidate's"),
    **{name: ("frame-access", "frames", "a frame's namespaces are those of whatever runs below "
                                        "the candidate, the evaluator included")
       for name in ("tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_globals", "f_locals",
                    "f_builtins")},
}
# Attributes of the builtins module that read it as a value, not one builtin.
_BUILTINS_SELF = {"__dict__", "__name__", "__doc__"}
_ATTRIBUTE_CALLS = {"getattr", "setattr", "delattr", "builtins.getattr", "builtins.setattr",
                    "builtins.delattr"}


def _allowed_module(name: str, allowed: list[str]) -> bool:
    return any(name == a or name.startswith(a + ".") for a in allowed)


def _literal_argument(call: ast.Call) -> str | None:
    """The one string literal a call is given, if that is all it is given:
    the shape of the exact call a task may permit, in `allow` and in the
    candidate's source alike."""
    if len(call.args) == 1 and not call.keywords and isinstance(call.args[0], ast.Constant) \
            and isinstance(call.args[0].value, str):
        return call.args[0].value
    return None


def split_allow(allow: list[str]) -> tuple[list[str], set[str], list[str]]:
    """A task's `allow` as (the escape hatches it names, the shell commands it
    permits one exact call for, the entries that look like exact calls but are
    not that form). The one exact call is `os.system('...')` (a released
    library may run one at import: sqlglot 1.0.0 calls `os.system('')` to
    switch a Windows console to colours); it is permitted in the source (the
    literal argument) and at run time (the audit hook compares the command),
    never `os.system` as such."""
    names: list[str] = []
    commands: set[str] = set()
    bad: list[str] = []
    for entry in allow:
        if "(" not in entry:
            names.append(entry)
            continue
        try:
            node = ast.parse(entry, mode="eval").body
        except SyntaxError:
            node = None
        command = _literal_argument(node) if isinstance(node, ast.Call) \
            and ast.unparse(node.func) == "os.system" else None
        if command is None:
            bad.append(entry)
        else:
            commands.add(command)
    return names, commands, bad


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
        self.modules: set[str] = {"builtins"}  # dotted names known to be modules
        self.findings: list[Finding] = []
        self.allow: set[str] = set(rules.allow)
        self.commands = split_allow(list(rules.allow))[1]
        self.accepted: set[int] = set()  # ids of name nodes of permitted exact calls
        self.prohibited = set(rules.prohibited_calls)

    def add(self, node: ast.AST, rule: str, detail: str) -> None:
        self.findings.append(Finding(self.rel, getattr(node, "lineno", 0), rule, detail))

    # ---- imports
    def _permitted(self, name: str) -> bool:
        """Whether the task permits module `name` by name: itself or a package
        above it in allowed_imports, or (escape hatches) in allow, so that
        `importlib.resources` can be permitted without `importlib`."""
        parts = name.split(".")
        prefixes = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
        if parts[0] in ESCAPE_MODULES:
            return bool(prefixes & (self.allow | set(self.rules.allowed_imports)))
        return _allowed_module(name, self.rules.allowed_imports)

    def _check_module(self, node: ast.AST, name: str) -> None:
        root = name.split(".")[0]
        if root in self.own or root in ALWAYS_ALLOWED:
            return
        if self._permitted(name):
            return
        if root in ESCAPE_MODULES:
            self.add(node, "escape-hatch", f"imports '{name}'")
        else:
            self.add(node, "forbidden-import",
                     f"imports '{name}', which the task does not permit")

    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            self._check_module(node, a.name)
            parts = a.name.split(".")
            self.modules.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
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
        # `from importlib import resources` is permitted when the submodule
        # is, whatever the package.
        names = [a.name for a in node.names if a.name != "*"]
        if not (names and all(self._permitted(f"{mod}.{n}") for n in names)):
            self._check_module(node, mod)
        for a in node.names:
            full = f"{mod}.{a.name}"
            if a.name == "*":
                continue
            # `from os import system` is a reference to os.system.
            self._check_name(node, full)
            if mod.split(".")[0] not in self.own and a.name in REACHABLE_MODULES:
                self._check_module(node, a.name)
            self.aliases[a.asname or a.name] = full

    # ---- names
    def _dotted(self, node: ast.AST) -> str | None:
        """The dotted name an expression resolves to, through import aliases,
        `__builtins__`, constant subscripts and vars()/globals()."""
        if isinstance(node, ast.Name):
            if node.id in self.aliases:
                return self.aliases[node.id]
            if node.id == "__builtins__":
                return "builtins"
            return node.id if node.id in BUILTIN_NAMES else None
        if isinstance(node, ast.Attribute):
            base = self._dotted(node.value)
            if base is None:
                return None
            if node.attr == "__dict__":
                return base
            return f"{base}.{node.attr}"
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                and isinstance(node.slice.value, str):
            key = node.slice.value
            base = self._dotted(node.value)
            if base in ("globals", "builtins.globals") and key == "__builtins__":
                return "builtins"
            return f"{base}.{key}" if base else None
        if isinstance(node, ast.Call) and node.args and not node.keywords:
            fn = self._dotted(node.func)
            if fn in ("vars", "builtins.vars"):
                return self._dotted(node.args[0])
            if fn in ("globals", "builtins.globals"):
                return "globals"
            if fn in ("getattr", "builtins.getattr") and len(node.args) >= 2 and \
                    isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
                base = self._dotted(node.args[0])
                return f"{base}.{node.args[1].value}" if base else None
        if isinstance(node, ast.Call) and not node.args:
            fn = self._dotted(node.func)
            if fn in ("globals", "builtins.globals"):
                return "globals"
        return None

    def _is_module(self, dotted: str) -> bool:
        """Whether a dotted name is a module brought in by an import."""
        return dotted in self.modules

    def _check_name(self, node: ast.AST, dotted: str) -> None:
        if dotted.startswith(".") or id(node) in self.accepted:
            return
        # A module reached through another one (`os.sys`, `random._os`).
        parts = dotted.split(".")
        for i in range(1, len(parts)):
            base, attr = ".".join(parts[:i]), parts[i].lstrip("_")
            if self._is_module(base) and attr in REACHABLE_MODULES and attr != base \
                    and not self._permitted(attr) and attr.split(".")[0] not in self.own:
                self.add(node, "module-via-attribute",
                         f"reaches module '{attr}' through '{'.'.join(parts[:i + 1])}'")
                return
        bare = dotted[len("builtins."):] if dotted.startswith("builtins.") else dotted
        if parts[0] in ESCAPE_MODULES and parts[0] not in self.own and len(parts) > 1 \
                and not self._permitted(dotted):
            # `import importlib.resources` binds `importlib`: its other
            # parts are as forbidden as ever.
            self.add(node, "escape-hatch", f"uses '{dotted}'")
            return
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

    def visit_Subscript(self, node: ast.Subscript) -> None:
        d = self._dotted(node)
        if d:
            self._check_name(node, d)
        elif not (isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
            # `vars(os)[name]` with a computed name is getattr by another spelling.
            base = self._dotted(node.value)
            if base and self._is_module(base) and base.split(".")[0] not in self.own:
                self.add(node, "escape-hatch",
                         f"dynamic attribute access on module '{base}' cannot be inspected")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        fn = self._dotted(node.func)
        if fn == "os.system" and _literal_argument(node) in self.commands:
            self.accepted.add(id(node.func))  # the one exact call the task permits
        if fn in ("getattr", "builtins.getattr", "setattr", "delattr") and len(node.args) >= 2:
            base = self._dotted(node.args[0])
            attr = node.args[1]
            if base and isinstance(attr, ast.Constant) and isinstance(attr.value, str):
                self._check_name(node, f"{base}.{attr.value}")
            elif base and base.split(".")[0] not in self.own and not base.startswith(".") \
                    and f"getattr:{base}" not in self.allow:
                what = "module" if self._is_module(base) else "built-in"
                self.add(node, "escape-hatch",
                         f"dynamic attribute access on {what} '{base}' cannot be inspected "
                         f"(a task that accepts it lists \"getattr:{base}\" in allow)")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and "frontier_measure" in node.value:
            self.add(node, "escape-hatch", "mentions 'frontier_measure' (the evaluator)")


    # ---- internals (a pass of its own, after the visit: every node, with its parent)
    def internals(self, tree: ast.AST) -> None:
        parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                parents[child] = node
        own_classes = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in INTERNALS:
                self._internal(node, node.id)
            elif isinstance(node, ast.Attribute):
                self._internal_attribute(node, node.value, node.attr, parents, own_classes)
            elif isinstance(node, ast.Call):
                fn = self._dotted(node.func)
                if fn in _ATTRIBUTE_CALLS and len(node.args) >= 2 and \
                        isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
                    self._internal_attribute(node, node.args[0], node.args[1].value, parents,
                                             own_classes)
                elif fn == "operator.attrgetter":
                    for a in node.args:
                        if isinstance(a, ast.Constant) and isinstance(a.value, str):
                            for part in a.value.split("."):
                                self._internal_attribute(node, None, part, parents, own_classes)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and node.value in INTERNALS:
                self._internal(node, node.value)
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                    and node.slice.value == "__builtins__" \
                    and self._dotted(node.value) not in ("globals", "builtins.globals"):
                # Some other namespace's builtins (f.__globals__['__builtins__']).
                self._builtins_value(node, "reads another namespace's '__builtins__'")
            elif isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)) \
                    and self._dotted(node) == "builtins" \
                    and not self._resolved_use(node, parents.get(node)):
                self._builtins_value(node, "takes the builtins module as a value: what is reached "
                                           "through an alias escapes this inspection")

    def _internal(self, node: ast.AST, name: str) -> None:
        rule, key, why = INTERNALS[name]
        if key not in self.allow:
            self.add(node, rule, f"uses '{name}': {why}")

    def _builtins_value(self, node: ast.AST, why: str) -> None:
        if "__builtins__" not in self.allow:
            self.add(node, "builtins-access", why)

    def _internal_attribute(self, node: ast.AST, base: ast.AST | None, attr: str,
                            parents: dict[ast.AST, ast.AST], own_classes: set[str]) -> None:
        if attr == "__subclasses__" and isinstance(base, ast.Name) and \
                (base.id in own_classes or self.aliases.get(base.id, "").startswith(".")):
            return  # a class of the candidate's own lists only its own subclasses
        if attr == "get_data":
            call = parents.get(node)
            if isinstance(call, ast.Call) and call.func is node and (call.args or call.keywords) \
                    and "get_data" not in self.allow:
                # A loader's get_data(path): what a loader reads as a module's
                # source (YAML's loader.get_data() takes no argument).
                self.add(node, "import-machinery", f"uses 'get_data(...)': {_LOADING}")
            return
        if attr in INTERNALS:
            self._internal(node, attr)
        elif attr == "__builtins__":
            self._builtins_value(node, "reads another namespace's '__builtins__'")
        elif base is not None and self._dotted(base) == "builtins" and \
                attr not in BUILTIN_NAMES and attr not in _BUILTINS_SELF:
            self._builtins_value(node, f"uses the builtins module as a mapping ('.{attr}'): what "
                                       "it looks up escapes this inspection")

    def _resolved_use(self, node: ast.AST, parent: ast.AST | None) -> bool:
        """Whether an expression that is the builtins module is used where the
        name it leads to is resolved and checked: `X.name`, `X['name']`,
        `getattr(X, 'name')`, `hasattr(X, 'name')`, `vars(X)` (itself judged
        by its own use), `isinstance(X, ...)`, `type(X)`."""
        if isinstance(parent, ast.Attribute):
            return parent.value is node
        if isinstance(parent, ast.Subscript):
            return parent.value is node and isinstance(parent.slice, ast.Constant) \
                and isinstance(parent.slice.value, str)
        if isinstance(parent, ast.Call) and parent.args and parent.args[0] is node:
            fn = (self._dotted(parent.func) or "").removeprefix("builtins.")
            if fn in ("getattr", "hasattr"):
                return len(parent.args) >= 2 and isinstance(parent.args[1], ast.Constant) \
                    and isinstance(parent.args[1].value, str)
            return fn in ("vars", "isinstance", "type")
        return False


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


def ignored(name: str) -> bool:
    """Whether the runner leaves a file or directory out of a side's copy."""
    return any(fnmatch.fnmatch(name, pattern) for pattern in IGNORED)


def excluded(rel: str, rules: Any) -> bool:
    """Whether the task says a path is not candidate code (e.g. a real
    library's own tests/): neither inspected nor copied for the side."""
    return any(rel == e.rstrip("/") or rel.startswith(e.rstrip("/") + "/")
               for e in getattr(rules, "exclude", []))


def inspect(root: Path, rules: Any) -> list[Finding]:
    root = root.resolve()
    findings: list[Finding] = []
    if not root.is_dir():
        return [Finding(".", 0, "missing", f"candidate directory {root} does not exist")]
    own = _own_modules(root)
    allow = set(rules.allow)
    for name in sorted(own):
        if name in STDLIB:
            entry = f"{name}.py" if (root / f"{name}.py").exists() else f"{name}/"
            findings.append(Finding(entry, 0, "shadows-stdlib",
                                    f"a module named like the standard library's '{name}' "
                                    "would be imported in its place"))
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        keep = []
        for d in sorted(dirnames):
            rel = str((here / d).relative_to(root))
            if ignored(d) or excluded(rel, rules):
                continue
            if (here / d).is_symlink():
                target = (here / d).resolve()
                if target != root and root not in target.parents:
                    findings.append(Finding(rel, 0, "symlink-escape",
                                            f"symbolic link to {target}, outside the candidate"))
                    continue
            keep.append(d)
        dirnames[:] = keep
        for name in sorted(filenames):
            path = here / name
            rel = str(path.relative_to(root))
            if ignored(name) or excluded(rel, rules):
                continue
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
            if not name.endswith(".py"):
                continue
            try:
                # From the bytes: Python honours a coding cookie, so must we.
                tree = ast.parse(path.read_bytes(), filename=rel)
            except (SyntaxError, UnicodeDecodeError, ValueError, LookupError) as exc:
                line = getattr(exc, "lineno", 0) or 0
                findings.append(Finding(rel, line, "syntax-error", f"cannot be parsed: {exc}"))
                continue
            v = _Visitor(rel, rules, own)
            v.visit(tree)
            v.internals(tree)
            findings.extend(v.findings)
    # One finding per (file, line, rule, detail) is enough.
    unique = sorted(set(findings), key=lambda f: (f.file, f.line, f.rule, f.detail))
    return unique
