"""JSON Schemas of the files frontier-measure writes, shipped with the package:

    result.schema.json    result.json of `eval` (results.py, schema_version 1-3)
    compare.schema.json   the file `compare --json` writes and baselines hold
                          (comparisons.document; schema_version 1 and 2)

`frontier-measure schema NAME` prints one; `load(NAME)` returns it as a dict.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

NAMES = ("result", "compare")


def text(name: str) -> str:
    if name not in NAMES:
        raise ValueError(f"unknown schema '{name}' (choose from {', '.join(NAMES)})")
    return resources.files(__package__).joinpath(f"{name}.schema.json").read_text()


def load(name: str) -> dict[str, Any]:
    return json.loads(text(name))
