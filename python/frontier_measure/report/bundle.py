"""The ZIP bundle: every rendered file plus the source result files.

Byte-identical for the same inputs: members in sorted order, one fixed
timestamp and mode, fixed compression level."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Mapping

from .model import Report

_EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest time a ZIP entry can carry


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "_"


def result_members(report: Report) -> dict[str, str]:
    """Zip member name -> source file, one per attempt:
    results/<scale>/<task>/<attempt>-<label>/result.json"""
    out = {}
    for a in report.attempts:
        name = (f"results/{a.scale}/{_safe(a.task)}/{a.number:03d}-{_safe(a.label)}/"
                "result.json")
        out[name] = a.source
    return out


def build(files: Mapping[str, bytes], report: Report) -> bytes:
    """`files`: rendered report files by member name (e.g. "report.html")."""
    members: dict[str, bytes] = dict(files)
    for name, source in result_members(report).items():
        with open(source, "rb") as f:
            members[name] = f.read()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3  # unix, whatever the host
            z.writestr(info, members[name], compresslevel=9)
    return buf.getvalue()
