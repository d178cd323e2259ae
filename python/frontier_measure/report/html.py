"""The report as one self-contained HTML page: inline CSS, figures inline as SVG,
no scripts and nothing fetched from elsewhere."""

from __future__ import annotations

import html as _html
from collections.abc import Mapping

from . import sections
from .model import Report
from .tables import FAIL, NA, NONE, OK, Table

_CSS = """
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif;
       color: #1f2328; margin: 0; background: #fff; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 32px 64px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 36px 0 8px; padding-bottom: 4px; border-bottom: 2px solid #d0d7de; }
h3 { font-size: 16px; margin: 22px 0 6px; }
p.overview { color: #57606a; margin: 0 0 12px; }
p.note { color: #57606a; font-size: 12.5px; margin: 4px 0 10px; max-width: 900px; }
nav { font-size: 13px; margin: 8px 0 16px; }
nav a { margin-right: 14px; color: #0969da; text-decoration: none; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 13px; margin: 6px 0; }
th, td { border: 1px solid #d8dee4; padding: 4px 8px; vertical-align: top; }
th { background: #f3f5f7; font-weight: 600; white-space: nowrap; }
th[rowspan] { vertical-align: bottom; }
th.group { background: #e8ecf0; border-bottom: 2px solid #c5ccd3; }
td.group-start, th.group-start { border-left: 2px solid #c5ccd3; }
table.grouped td, table.grouped th { padding: 4px 6px; }
/* the task name stays visible while many attempts scroll sideways */
table.grouped td:first-child { position: sticky; left: 0; background: #fff; z-index: 1; }
table.grouped th[rowspan]:first-child { position: sticky; left: 0; z-index: 1; }
td:first-child { white-space: nowrap; }
td.l:last-child { min-width: 18em; }
tbody tr:nth-child(even) td { background: #fafbfc; }
td.l { text-align: left; } td.r { text-align: right; white-space: nowrap;
  font-variant-numeric: tabular-nums; } td.c { text-align: center; }
td.ok { color: #1a7f37; font-weight: 700; }
td.fail { color: #cf222e; font-weight: 700; }
td.na { color: #8c959f; }
td.empty { background: #f6f8fa !important; }
figure { margin: 10px 0 14px; }
figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 12.5px; color: #57606a; }
section.skipped td { color: #9a6700; }
""".strip()


def _esc(text: str) -> str:
    return _html.escape(text, quote=True)


def _cls(cell: str, align: str) -> str:
    kind = {OK: "ok", FAIL: "fail", NA: "na", NONE: "na", "": "empty"}.get(cell, "")
    return f"{align} {kind}".strip()


def table(t: Table) -> str:
    if not t.rows:
        return '<p class="note">(none)</p>'
    if t.groups:
        top, sub, col = [], [], 0
        for label, span in t.groups:
            cols = t.headers[col:col + span]
            col += span
            if label:
                top.append(f'<th colspan="{span}" class="group group-start">{_esc(label)}</th>')
                sub += [f'<th class="group-start">{_esc(h)}</th>' if k == 0
                        else f"<th>{_esc(h)}</th>" for k, h in enumerate(cols)]
            else:
                top += [f'<th rowspan="2">{_esc(h)}</th>' for h in cols]
        head = "".join(top) + "</tr><tr>" + "".join(sub)
    else:
        head = "".join(f"<th>{_esc(h)}</th>" for h in t.headers)
    # A rule left of each attempt's group of columns keeps wide tables readable.
    starts, col = set(), 0
    for label, span in t.groups:
        if label:
            starts.add(col)
        col += span
    body = "\n".join(
        "<tr>" + "".join(
            f'<td class="{_cls(c, a)}{" group-start" if k in starts else ""}">{_esc(c)}</td>'
            for k, (c, a) in enumerate(zip(row, t.align, strict=True))) + "</tr>"
        for row in t.rows)
    notes = "".join(f'<p class="note">{_esc(n)}</p>' for n in t.notes)
    cls = ' class="grouped"' if t.groups else ""
    return (f'<div class="scroll"><table id="table-{_esc(t.key)}"{cls}>'
            f"<thead><tr>{head}</tr></thead>"
            f"<tbody>\n{body}\n</tbody></table></div>{notes}")


def _anchor(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-")


def render(report: Report, figures: Mapping[str, str]) -> str:
    parts: list[str] = []
    toc: list[tuple[str, str]] = []
    for block in sections.blocks(report, figures):
        if block.kind == "title":
            parts.append(f"<h1>{_esc(block.text)}</h1>")
        elif block.kind == "heading":
            level = block.level + 1
            anchor = ""
            if level == 2:
                anchor = _anchor(block.text)
                toc.append((anchor, block.text))
            ident = f' id="{anchor}"' if anchor else ""
            parts.append(f"<h{level}{ident}>{_esc(block.text)}</h{level}>")
        elif block.kind == "text":
            cls = "overview" if len(parts) == 1 else "note"
            parts.append(f'<p class="{cls}">{_esc(block.text)}</p>')
        elif block.kind == "table":
            assert block.table is not None
            parts.append(table(block.table))
        elif block.kind == "figure":
            parts.append(f'<figure role="img" aria-label="{_esc(block.text)}">'
                         f"{figures[block.figure]}</figure>")
    nav = "<nav>" + "".join(f'<a href="#{a}">{_esc(t)}</a>' for a, t in toc) + "</nav>"
    # The table of contents goes after the title and overview line.
    body = "\n".join(parts[:2] + [nav] + parts[2:])
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{_esc(sections.TITLE)}</title>\n"
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<style>\n{_CSS}\n</style>\n</head>\n<body>\n<main>\n{body}\n</main>\n"
            "</body>\n</html>\n")
