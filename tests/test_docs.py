"""The documentation site (mkdocs.yml, docs/): it builds with `mkdocs build --strict`, every
example on it is either run here or marked illustrative, and the examples marked tested run.

Examples are fenced code blocks. Each carries a title (shown above the block): "tested"
(run by this file: `sh` blocks line by line with the installed `frontier-measure` on PATH,
`python` blocks as a script, `toml` blocks parsed) or one starting with "illustrative"
(written to be read, not run: placeholders like CMD or DIR, output of a run elsewhere).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
BIN = Path(sys.executable).parent

FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+)(?P<info>.*)$")


def blocks(path: Path) -> list[tuple[int, str, str, str]]:
    """(line, language, title, body) of every fenced block of a page."""
    out = []
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        info, indent, fence = m.group("info").strip(), m.group("indent"), m.group("fence")
        lang = info.split()[0] if info and not info.startswith("title") else ""
        t = re.search(r'title="([^"]*)"', info)
        body = []
        j = i + 1
        while j < len(lines) and lines[j].strip() != fence:
            body.append(lines[j][len(indent):])
            j += 1
        out.append((i + 1, lang, t.group(1) if t else "", "\n".join(body)))
        i = j + 1
    return out


def pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def all_blocks() -> list[tuple[str, int, str, str, str]]:
    return [(str(p.relative_to(ROOT)), line, lang, title, body)
            for p in pages() for line, lang, title, body in blocks(p)]


def test_every_example_is_tested_or_marked_illustrative() -> None:
    unmarked = [f"{page}:{line}" for page, line, _, title, _ in all_blocks()
                if not (title == "tested" or title.startswith("illustrative"))]
    assert not unmarked, ("code blocks without title=\"tested\" or title=\"illustrative...\": "
                          + ", ".join(unmarked))
    assert any(title == "tested" for *_, title, _ in all_blocks())


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env.pop("NO_COLOR", None)
    return env


TESTED = [(page, line, lang, body) for page, line, lang, title, body in all_blocks()
          if title == "tested"]


@pytest.mark.parametrize(("page", "line", "lang", "body"), TESTED,
                         ids=[f"{p}:{n}" for p, n, _, _ in TESTED])
def test_tested_example_runs(page: str, line: int, lang: str, body: str, tmp_path: Path) -> None:
    where = f"{page}:{line}"
    if lang == "toml":
        tomllib.loads(body)
        return
    if lang == "python":
        r = subprocess.run([sys.executable, "-c", body], cwd=ROOT, env=_env(),
                           capture_output=True, text=True, timeout=240)
        assert r.returncode == 0, f"{where}: exit {r.returncode}\n{r.stdout}\n{r.stderr}"
        return
    assert lang in ("sh", "console", "bash"), f"{where}: a tested block of '{lang}' is not run"
    for cmd in body.splitlines():
        cmd = cmd.split("  #", 1)[0].strip()  # a comment after two spaces is prose
        if not cmd or cmd.startswith("#"):
            continue
        argv = shlex.split(cmd)
        r = subprocess.run(["bash", "-c", cmd], cwd=ROOT, env=_env(), capture_output=True,
                           text=True, timeout=240)
        assert r.returncode == 0, f"{where}: {argv[:3]}... exit {r.returncode}\n{r.stderr[-2000:]}"


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_site_builds_strictly(tmp_path: Path) -> None:
    if importlib.util.find_spec("mkdocs") is None:
        pytest.skip("mkdocs is not installed (the 'docs' extra: pip install -e '.[docs]')")
    site = tmp_path / "site"
    env = _env()
    env["NO_MKDOCS_2_WARNING"] = "1"
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f",
                        str(ROOT / "mkdocs.yml"), "-d", str(site)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=1100)
    assert r.returncode == 0, r.stderr[-4000:]
    cli = (site / "reference" / "cli" / "index.html").read_text()
    for command in ("compare", "eval", "validate", "record", "report"):
        assert f"frontier-measure {command}" in cli, command
    result = (site / "reference" / "result-json" / "index.html").read_text()
    assert "strict_success" in result
    for figure in ("bundled_oracles", "vs_tools", "sim_speed"):
        svg = (site / "figures" / f"{figure}.svg").read_text()
        assert svg.lstrip().startswith("<?xml") and "<svg" in svg, figure


def test_docs_hooks_render_from_the_code() -> None:
    """The generated parts without a whole build: every CLI command appears, every schema
    field, every task.toml key task.py reads."""
    spec = importlib.util.spec_from_file_location("fm_docs_hooks", DOCS / "hooks" / "fm_docs.py")
    assert spec is not None and spec.loader is not None
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    import click

    from frontier_measure import cli

    text = hooks.render_cli()
    for name, cmd in cli.main.commands.items():
        assert f"`frontier-measure {name}`" in text, name
        if isinstance(cmd, click.Group):
            for sub in cmd.commands:
                assert f"`frontier-measure {name} {sub}`" in text, (name, sub)
    fields = hooks.render_task_fields()
    for key in ("scale", "entry", "threshold", "cost", "max_item_mb", "min_blocks"):
        assert f"`{key}`" in fields, key
    import json

    for name in ("result", "compare"):
        schema = json.loads((ROOT / "python" / "frontier_measure" / "schemas" /
                             f"{name}.schema.json").read_text())
        rendered = hooks.render_schema(name)
        tables = [schema] + [d for d in schema.get("$defs", {}).values() if isinstance(d, dict)]
        props = [p for table in tables for p in table.get("properties", {})]
        assert props, name
        for prop in props:
            assert f"{prop}`" in rendered, (name, prop)
    csvs = sorted((DOCS / "data").glob("*.csv"))
    used = "\n".join(p.read_text() for p in pages())
    for path in csvs:
        assert f"fm:table {path.stem}" in used, f"docs/data/{path.name} is on no page"
        assert hooks.render_table(path.stem).count("\n|") >= 2
