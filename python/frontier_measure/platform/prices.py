"""The price table and the token counts that costs are computed from.

Costs are the gateway's: tokens as the API's usage fields report them (where a
response has none, counted by `count_tokens`), times the price table's rate.
Nothing an agent reports about itself enters a cost.

The table is TOML (data/prices.toml, bundled; a user's file is merged over it):
US dollars per million tokens for `input`, `cached_input`, `cache_write` and
`output`, keyed by model name or glob pattern.
"""

from __future__ import annotations

import fnmatch
import math
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

BUNDLED = Path(__file__).resolve().parent / "data" / "prices.toml"
RATES = ("input", "cached_input", "cache_write", "output")


@dataclass(frozen=True)
class Price:
    input: float
    output: float
    cached_input: float | None = None  # None: cached tokens cost as much as uncached ones
    cache_write: float | None = None
    source: str = ""  # the table key that matched

    def cost(self, tokens_in: int, tokens_out: int, cached: int = 0, cache_write: int = 0) -> float:
        """Dollars for one request. `tokens_in` counts every input token, cached
        and cache-written ones included."""
        plain = max(0, tokens_in - cached - cache_write)
        c = plain * self.input + tokens_out * self.output
        c += cached * (self.input if self.cached_input is None else self.cached_input)
        c += cache_write * (self.input if self.cache_write is None else self.cache_write)
        return c / 1e6


class PriceError(Exception):
    pass


class PriceTable:
    def __init__(self, entries: dict[str, dict[str, float]]) -> None:
        self.entries = entries

    @classmethod
    def load(cls, *extra: str | Path) -> PriceTable:
        """The bundled table with each file in `extra` merged over it."""
        entries: dict[str, dict[str, float]] = {}
        for path in (BUNDLED, *extra):
            for name, rates in _read(Path(path)).items():
                entries[name] = {**entries.get(name, {}), **rates}
        return cls(entries)

    def price(self, model: str, endpoint: str = "") -> Price | None:
        """The price of `model` (as sent, provider prefix dropped) at `endpoint`."""
        bare = model.split("/", 1)[1] if "/" in model else model
        names = [f"{endpoint}/{bare}"] if endpoint else []
        names.append(bare)
        key = next((n for n in names if n in self.entries), None)
        if key is None:
            patterns = [p for p in self.entries if any(c in p for c in "*?[")
                        and any(fnmatch.fnmatchcase(n, p) for n in names)]
            key = max(patterns, key=len, default=None)
        if key is None:
            return None
        e = self.entries[key]
        return Price(input=e.get("input", 0.0), output=e.get("output", 0.0),
                     cached_input=e.get("cached_input"), cache_write=e.get("cache_write"),
                     source=key)


def _read(path: Path) -> dict[str, dict[str, float]]:
    try:
        doc = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise PriceError(f"{path}: {exc}") from None
    models = doc.get("models", {})
    if not isinstance(models, dict):
        raise PriceError(f"{path}: [models] must be a table")
    out: dict[str, dict[str, float]] = {}
    for name, rates in models.items():
        if not isinstance(rates, dict):
            raise PriceError(f"{path}: [models.\"{name}\"] must be a table")
        for k, v in rates.items():
            if k not in RATES:
                raise PriceError(f"{path}: [models.\"{name}\"].{k}: unknown rate "
                                 f"(known: {', '.join(RATES)})")
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
                raise PriceError(f"{path}: [models.\"{name}\"].{k}: must be a number >= 0")
        out[name] = {k: float(v) for k, v in rates.items()}
    return out


# ---------------------------------------------------------------- token counting


@cache
def _encoding() -> Any:
    """tiktoken's o200k_base or cl100k_base when it is installed and its data is
    at hand offline (TIKTOKEN_CACHE_DIR); None otherwise."""
    try:
        import tiktoken
    except ImportError:
        return None
    for name in ("o200k_base", "cl100k_base"):
        try:
            return tiktoken.get_encoding(name)
        except Exception:  # no network, no cached file: try the next, then give up
            continue
    return None


def count_tokens(text: str) -> tuple[int, str]:
    """Tokens in `text` and how they were counted: with tiktoken's encoding when
    available ("tiktoken:<name>"), else UTF-8 bytes / 4 rounded up ("bytes/4",
    the usual rule of thumb for English text and code with BPE tokenizers)."""
    enc = _encoding()
    if enc is not None:
        return len(enc.encode(text, disallowed_special=())), f"tiktoken:{enc.name}"
    return math.ceil(len(text.encode()) / 4), "bytes/4"
