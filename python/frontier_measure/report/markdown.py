"""The report as Markdown, with figures referenced as separate SVG files."""

from __future__ import annotations

from collections.abc import Mapping

from . import sections
from .model import Report
from .tables import Table


def _cell(text: str) -> str:
    # A pipe would end the cell; a newline would end the row.
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def table(t: Table) -> str:
    if not t.rows:
        return "_(none)_\n"
    rule = {"l": ":---", "r": "---:", "c": ":---:"}
    lines = ["| " + " | ".join(_cell(h) for h in t.flat_headers) + " |",
             "| " + " | ".join(rule[a] for a in t.align) + " |"]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in t.rows]
    out = "\n".join(lines) + "\n"
    for note in t.notes:
        out += f"\n_{_cell(note)}_\n"
    return out


def render(report: Report, figures: Mapping[str, str], figure_dir: str = "figures") -> str:
    """Markdown text; `figures` maps figure stems to SVG text (written next to it
    under `figure_dir` by the caller)."""
    out: list[str] = []
    for block in sections.blocks(report, figures):
        if block.kind == "title":
            out.append(f"# {block.text}\n")
        elif block.kind == "heading":
            out.append(f"{'#' * (block.level + 1)} {block.text}\n")
        elif block.kind == "text":
            out.append(f"{block.text}\n")
        elif block.kind == "table":
            assert block.table is not None
            out.append(table(block.table))
        elif block.kind == "figure":
            out.append(f"![{block.text}]({figure_dir}/{block.figure}.svg)\n")
    return "\n".join(out)
