"""The Harbor part of task.toml, checked without Harbor installed.

Harbor reads [task], [verifier], [agent], [environment] and [solution] into its
own task model and rejects a task whose fields have the wrong form. These
checks give a task author the same answers (and a few Harbor only gives at
run time: non-positive timeouts and resources), one line per problem naming
the table and field. [metadata] is free-form for Harbor; frontier-measure's
own settings under [metadata.frontier] are checked by task.load().

What is checked follows Harbor's task model of schema 1.x (Harbor 0.25-0.26):

    top level     schema_version (or its old name version): a string
    [task]        name "org/name"; version, description: strings; authors: a list
                  of tables { name = "...", email = "..." }; keywords: strings
    [verifier]    timeout_sec > 0; env: strings; user: name or uid;
                  environment_mode "shared" | "separate"; network policy
    [agent]       timeout_sec > 0; user; network policy
    [environment] build_timeout_sec > 0; cpus > 0 (number); memory_mb,
                  storage_mb > 0, gpus >= 0 (whole numbers); os "linux" |
                  "windows"; docker_image, workdir (absolute): strings; env;
                  network policy
    network       network_mode "no-network" | "public" | "allowlist";
                  allowed_hosts (strings) only with "allowlist"
    lint          [metadata.harbor.lint] ignore holds "shared-verifier" unless the
                  verifier runs apart ([verifier] environment_mode = "separate"):
                  `harbor lint` fails without it

Unknown fields of these tables are reported too: Harbor ignores them, so a
misspelt `timout_sec` would silently fall back to the default.
"""

from __future__ import annotations

import re
from typing import Any

NETWORK_MODES = ("no-network", "public", "allowlist")
ORG_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$")

TOP_LEVEL = {"schema_version", "version", "task", "metadata", "verifier", "agent", "environment",
             "solution", "source", "multi_step_reward_strategy", "steps", "artifacts"}
TASK_FIELDS = {"name", "version", "description", "authors", "keywords"}
PHASE_FIELDS = {"timeout_sec", "user", "network_mode", "allowed_hosts"}
VERIFIER_FIELDS = PHASE_FIELDS | {"env", "environment_mode", "environment", "collect"}
ENVIRONMENT_FIELDS = {"build_timeout_sec", "docker_image", "os", "cpus", "memory_mb", "storage_mb",
                      "gpus", "gpu_types", "tpu", "mcp_servers", "env", "skills_dir", "healthcheck",
                      "workdir", "allow_internet", "network_mode", "allowed_hosts",
                      "memory", "storage"}  # the last two: Harbor's deprecated spellings


def _kind(value: Any) -> str:
    return "boolean" if isinstance(value, bool) else {
        str: "string", int: "integer", float: "number", list: "array", dict: "table",
    }.get(type(value), type(value).__name__)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Checker:
    def __init__(self) -> None:
        self.problems: list[str] = []

    def add(self, where: str, message: str) -> None:
        self.problems.append(f"task.toml {where}: {message}")

    def string(self, table: dict[str, Any], key: str, where: str) -> None:
        if key in table and not isinstance(table[key], str):
            self.add(f"{where}.{key}", f"expected a string, got {_kind(table[key])} {table[key]!r}")

    def strings(self, table: dict[str, Any], key: str, where: str) -> None:
        v = table.get(key)
        if key in table and (not isinstance(v, list) or not all(isinstance(s, str) for s in v)):
            self.add(f"{where}.{key}", f"expected an array of strings, got {v!r}")

    def str_map(self, table: dict[str, Any], key: str, where: str) -> None:
        v = table.get(key)
        if key in table and (not isinstance(v, dict) or not all(isinstance(s, str) for s in v.values())):
            self.add(f"{where}.{key}", f"expected a table of strings (NAME = \"value\"), got {v!r}")

    def positive(self, table: dict[str, Any], key: str, where: str, *, whole: bool = False,
                 zero: bool = False) -> None:
        if key not in table:
            return
        v = table[key]
        ok_type = _is_int(v) if whole else _is_number(v)
        if not ok_type:
            want = "a whole number" if whole else "a number"
            self.add(f"{where}.{key}", f"expected {want}, got {_kind(v)} {v!r}")
        elif v < 0 or (v == 0 and not zero):
            self.add(f"{where}.{key}", f"must be {'>= 0' if zero else 'positive'}, got {v!r}")

    def user(self, table: dict[str, Any], where: str) -> None:
        if "user" in table and not (isinstance(table["user"], str) or _is_int(table["user"])):
            self.add(f"{where}.user", f"expected a user name or uid, got {table['user']!r}")

    def network(self, table: dict[str, Any], where: str, default: str | None) -> None:
        mode = table.get("network_mode", default)
        if "network_mode" in table and mode not in NETWORK_MODES:
            self.add(f"{where}.network_mode", f"unknown mode {mode!r} (choose from "
                     f"{', '.join(repr(m) for m in NETWORK_MODES)}; 'no-network' for offline)")
            return
        if "allowed_hosts" in table:
            self.strings(table, "allowed_hosts", where)
            if mode != "allowlist":
                self.add(f"{where}.allowed_hosts", "only allowed with network_mode = \"allowlist\"")

    def unknown(self, table: dict[str, Any], known: set[str], where: str) -> None:
        for key in sorted(set(table) - known):
            self.add(f"{where}.{key}", "not a Harbor field (Harbor ignores it; misspelt?)")

    def table(self, doc: dict[str, Any], key: str) -> dict[str, Any] | None:
        if key not in doc:
            return None
        if not isinstance(doc[key], dict):
            self.add(f"[{key}]", f"must be a table, got {_kind(doc[key])}")
            return None
        return doc[key]


def _lint_ignored(doc: dict[str, Any]) -> list[Any]:
    """[metadata.harbor.lint].ignore: the rules of `harbor lint` the task turns off."""
    table: Any = doc
    for key in ("metadata", "harbor", "lint"):
        table = table.get(key) if isinstance(table, dict) else None
    ignore = table.get("ignore") if isinstance(table, dict) else None
    return ignore if isinstance(ignore, list) else []


def check(doc: dict[str, Any]) -> list[str]:
    """Every problem Harbor's task model would have with this task.toml."""
    c = _Checker()
    for key in ("schema_version", "version"):
        c.string(doc, key, "(top level)")
    c.unknown(doc, TOP_LEVEL, "(top level)")
    c.table(doc, "metadata")

    task = c.table(doc, "task")
    if task is not None:
        where = "[task]"
        name = task.get("name")
        if name is None:
            c.add(where, "missing field 'name'")
        elif not isinstance(name, str) or not ORG_NAME.match(name) or ".." in name:
            c.add(f"{where}.name", f"expected \"org/name\" (letters, digits, '.', '_', '-'), got {name!r}")
        c.string(task, "description", where)
        if "version" in task and (not isinstance(task["version"], str) or not task["version"]):
            c.add(f"{where}.version", f"expected a non-empty string, got {task['version']!r}")
        c.strings(task, "keywords", where)
        authors = task.get("authors")
        if "authors" in task:
            if not isinstance(authors, list):
                c.add(f"{where}.authors", f"expected an array of tables like "
                      f"[{{ name = \"...\" }}], got {_kind(authors)} {authors!r}")
            else:
                for i, a in enumerate(authors):
                    at = f"{where}.authors[{i}]"
                    if not isinstance(a, dict):
                        c.add(at, f'expected a table like {{ name = "{a}" }}, got {_kind(a)} {a!r}'
                              if isinstance(a, str) else f"expected a table, got {_kind(a)} {a!r}")
                        continue
                    if not isinstance(a.get("name"), str):
                        c.add(f"{at}.name", "missing or not a string")
                    c.string(a, "email", at)
                    c.unknown(a, {"name", "email"}, at)
        c.unknown(task, TASK_FIELDS, where)

    verifier = c.table(doc, "verifier")
    if verifier is not None:
        where = "[verifier]"
        c.positive(verifier, "timeout_sec", where)
        c.str_map(verifier, "env", where)
        c.user(verifier, where)
        mode = verifier.get("environment_mode")
        if "environment_mode" in verifier and mode not in ("shared", "separate"):
            c.add(f"{where}.environment_mode", f"expected 'shared' or 'separate', got {mode!r}")
        c.network(verifier, where, None)
        c.unknown(verifier, VERIFIER_FIELDS, where)

    # `harbor lint` flags a verifier that shares the agent's container. Every
    # frontier-measure task's does, on purpose (it must see the agent's work;
    # tests/test.sh trusts nothing in it), and says so to the lint.
    mode = verifier.get("environment_mode", "shared") if verifier is not None else "shared"
    if mode != "separate" and "shared-verifier" not in _lint_ignored(doc):
        c.add("[metadata.harbor.lint].ignore", 'must hold "shared-verifier": the verifier '
              "shares the agent's container on purpose, and `harbor lint` fails without it")

    agent = c.table(doc, "agent")
    if agent is not None:
        where = "[agent]"
        c.positive(agent, "timeout_sec", where)
        c.user(agent, where)
        c.network(agent, where, None)
        c.unknown(agent, PHASE_FIELDS, where)

    env = c.table(doc, "environment")
    if env is not None:
        where = "[environment]"
        c.positive(env, "build_timeout_sec", where)
        c.positive(env, "cpus", where)
        for key in ("memory_mb", "storage_mb"):
            c.positive(env, key, where, whole=True)
        c.positive(env, "gpus", where, whole=True, zero=True)
        if "os" in env and (not isinstance(env["os"], str) or env["os"].lower() not in ("linux", "windows")):
            c.add(f"{where}.os", f"expected 'linux' or 'windows', got {env['os']!r}")
        for key in ("docker_image", "skills_dir"):
            c.string(env, key, where)
        c.string(env, "workdir", where)
        if isinstance(env.get("workdir"), str) and not env["workdir"].startswith("/"):
            c.add(f"{where}.workdir", f"must be an absolute path, got {env['workdir']!r}")
        c.strings(env, "gpu_types", where)
        c.str_map(env, "env", where)
        if "allow_internet" in env and not isinstance(env["allow_internet"], bool):
            c.add(f"{where}.allow_internet", f"expected true or false, got {env['allow_internet']!r}")
        c.network(env, where, "public")
        c.unknown(env, ENVIRONMENT_FIELDS, where)

    solution = c.table(doc, "solution")
    if solution is not None:
        c.str_map(solution, "env", "[solution]")
        c.unknown(solution, {"env"}, "[solution]")
    return c.problems
