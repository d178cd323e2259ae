"""MkDocs hooks of the documentation site (mkdocs.yml: `hooks`).

What the pages show that the code or the data already say is generated here, at build time,
so it cannot drift from them:

- `<!-- fm:cli -->`: every command's `--help`, walked from the click group (`cli.main`);
- `<!-- fm:schema result -->`, `<!-- fm:schema compare -->`: the JSON Schemas the package
  ships (`frontier_measure/schemas/`), as a field table and the schema itself;
- `<!-- fm:task-fields -->`: the `[metadata.frontier]` keys `task.py` reads, with their types
  and defaults, and the `[metadata.frontier.timing]` keys (`task.TimingSettings`);
- `<!-- fm:table NAME -->`: `docs/data/NAME.csv` as a Markdown table;
- the benchmarks' figures (`figures/*.svg`), drawn by `docs/figures.py` from `docs/data/`.
"""

from __future__ import annotations

import ast
import csv
import dataclasses
import importlib.util
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PACKAGE = ROOT / "python" / "frontier_measure"

_MARKER = re.compile(r"<!--\s*fm:([a-z-]+)(?:\s+([\w./-]+))?\s*-->")


def _import_package() -> None:
    # The checkout's package, whether or not it is installed (the native core is not needed:
    # cli.py and task.py load it only when a command runs).
    if str(ROOT / "python") not in sys.path:
        sys.path.insert(0, str(ROOT / "python"))


# ---------------------------------------------------------------- the CLI


def _walk(cmd: Any, ctx: Any, path: list[str], out: list[str], depth: int) -> None:
    import click

    name = " ".join(path)
    out.append(f"{'#' * min(depth, 6)} `{name}`\n")
    if getattr(cmd, "hidden", False):
        out.append("Hidden from `--help` (plumbing the agent platform starts).\n")
    formatter = click.HelpFormatter(width=96, max_width=96)
    cmd.format_help(ctx, formatter)
    out.append("```text\n" + formatter.getvalue().rstrip() + "\n```\n")
    if isinstance(cmd, click.Group):
        for sub in sorted(cmd.commands):
            child = cmd.commands[sub]
            sub_ctx = click.Context(child, info_name=sub, parent=ctx)
            _walk(child, sub_ctx, path + [sub], out, depth + 1)


def render_cli() -> str:
    _import_package()
    import click

    from frontier_measure import cli

    root = cli.main
    ctx = click.Context(root, info_name="frontier-measure", terminal_width=96, max_content_width=96)
    out: list[str] = []
    _walk(root, ctx, ["frontier-measure"], out, 2)
    return "\n".join(out)


# ---------------------------------------------------------------- JSON Schemas


def _type_of(node: dict[str, Any]) -> str:
    if "const" in node:
        return f"`{json.dumps(node['const'])}`"
    if "enum" in node:
        return "one of " + ", ".join(f"`{json.dumps(v)}`" for v in node["enum"])
    if "$ref" in node:
        return f"see `{node['$ref'].rsplit('/', 1)[-1]}`"
    for key in ("oneOf", "anyOf"):
        if key in node:
            return " or ".join(_type_of(n) for n in node[key])
    kind = node.get("type", "")
    if isinstance(kind, list):
        kind = " or ".join(kind)
    if kind == "array" and isinstance(node.get("items"), dict):
        inner = _type_of(node["items"])
        return f"array of {inner}" if inner else "array"
    return str(kind)


def _fields(node: dict[str, Any], prefix: str, rows: list[tuple[str, str, str, str]]) -> None:
    required = set(node.get("required", []))
    for name, sub in (node.get("properties") or {}).items():
        if not isinstance(sub, dict):
            continue
        path = f"{prefix}{name}"
        desc = " ".join(str(sub.get("description", "")).split())
        rows.append((path, _type_of(sub), "yes" if name in required else "", desc))
        if isinstance(sub.get("properties"), dict):
            _fields(sub, path + ".", rows)
        items = sub.get("items")
        if isinstance(items, dict) and isinstance(items.get("properties"), dict):
            _fields(items, path + "[].", rows)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_schema(name: str) -> str:
    path = PACKAGE / "schemas" / f"{name}.schema.json"
    schema = json.loads(path.read_text())
    rows: list[tuple[str, str, str, str]] = []
    _fields(schema, "", rows)
    for def_name, node in sorted((schema.get("$defs") or {}).items()):
        if isinstance(node, dict) and isinstance(node.get("properties"), dict):
            _fields(node, f"{def_name}: ", rows)
    lines = [f"**{schema.get('title', name)}.** {schema.get('description', '')}", "",
             "| field | type | required | description |", "|---|---|---|---|"]
    lines += [f"| `{_cell(p)}` | {_cell(t)} | {r} | {_cell(d)} |" for p, t, r, d in rows]
    lines += ["", f"??? note \"The whole schema (`frontier_measure/schemas/{path.name}`)\"", "",
              "    ```json"]
    lines += ["    " + ln for ln in json.dumps(schema, indent=2).splitlines()]
    lines += ["    ```", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------- task.toml


def _task_keys() -> list[tuple[str, str, str, str]]:
    """The keys task.py reads with get(TABLE, "key", type, where, ..., default=/required=)."""
    tree = ast.parse((PACKAGE / "task.py").read_text())
    rows = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "get" and len(node.args) >= 4):
            continue
        key, kind, where = node.args[1], node.args[2], node.args[3]
        if not isinstance(key, ast.Constant) or not isinstance(key.value, str):
            continue
        kw = {k.arg: k.value for k in node.keywords}
        if "required" in kw and isinstance(kw["required"], ast.Constant) and kw["required"].value:
            default = "required"
        elif "default" in kw:
            default = ast.unparse(kw["default"])
        else:
            default = ""
        table = ast.unparse(where)
        if isinstance(where, ast.Name) and where.id == "where":
            table = "[metadata.frontier]"
        elif isinstance(where, ast.JoinedStr):
            table = "[metadata.frontier." + table.split(".", 1)[-1].rstrip("'\"") + "]"
        else:
            table = table.strip("'\"")
        rows.append((table, key.value, ast.unparse(kind), default))
    return rows


def render_task_fields() -> str:
    _import_package()
    lines = ["| table | key | type | default |", "|---|---|---|---|"]
    seen = set()
    for table, key, kind, default in _task_keys():
        if (table, key) in seen or table.endswith(".timing]"):
            continue
        seen.add((table, key))
        lines.append(f"| `{table}` | `{key}` | `{kind}` | {('`' + default + '`') if default else ''} |")
    # The timing table's keys and defaults are TimingSettings' fields.
    from frontier_measure import task as task_mod

    for f in dataclasses.fields(task_mod.TimingSettings):
        kind = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
        lines.append(f"| `[metadata.frontier.timing]` | `{f.name}` | `{kind}` | `{f.default!r}` |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- data tables


def render_table(name: str) -> str:
    path = DOCS / "data" / f"{name}.csv"
    with path.open(newline="") as fh:
        rows = [r for r in csv.reader(fh) if r and not r[0].startswith("#")]
    head, body = rows[0], rows[1:]
    buf = io.StringIO()
    buf.write("| " + " | ".join(_cell(h) for h in head) + " |\n")
    buf.write("|" + "---|" * len(head) + "\n")
    for r in body:
        buf.write("| " + " | ".join(_cell(c) for c in r) + " |\n")
    buf.write(f"\n<small>Data: `docs/data/{name}.csv`.</small>\n")
    return buf.getvalue()


RENDERERS = {
    "cli": lambda arg: render_cli(),
    "schema": render_schema,
    "task-fields": lambda arg: render_task_fields(),
    "table": render_table,
}


def expand(markdown: str) -> str:
    def one(m: re.Match[str]) -> str:
        kind, arg = m.group(1), m.group(2)
        if kind not in RENDERERS:
            raise ValueError(f"unknown docs marker fm:{kind}")
        return RENDERERS[kind](arg)

    return _MARKER.sub(one, markdown)


# ---------------------------------------------------------------- MkDocs hooks


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return expand(markdown)


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    spec = importlib.util.spec_from_file_location("_fm_figures", DOCS / "figures.py")
    assert spec is not None and spec.loader is not None
    figures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(figures)
    for name, svg in figures.draw_all().items():
        files.append(File.generated(config, f"figures/{name}.svg", content=svg))
    return files
