"""The lexicon: the package's words.txt, read through importlib.resources,
kept sorted and indexed by letters."""

import bisect
from importlib import resources


class LexiconError(ValueError):
    """A query the lexicon cannot answer."""


def _load() -> list[str]:
    text = resources.files(__package__).joinpath("words.txt").read_text(encoding="utf-8")
    return [w for w in text.split() if w]


class Lexicon:
    """The package's words, and any extra ones given."""

    def __init__(self, extra=()):
        self.words = _load()
        seen = set(self.words)
        for w in extra:
            if not isinstance(w, str) or not w.isalpha():
                raise LexiconError(f"not a word: {w!r}")
            if w not in seen:
                seen.add(w)
                self.words.append(w)
        self._set = seen
        self._sorted = sorted(seen)
        self._by_letters = {}
        for w in self._sorted:
            self._by_letters.setdefault("".join(sorted(w)), []).append(w)

    def __len__(self):
        return len(self.words)

    def __contains__(self, word):
        return word in self._set

    def _range(self, prefix):
        lo = bisect.bisect_left(self._sorted, prefix)
        hi = bisect.bisect_left(self._sorted, prefix + "\U0010ffff") if prefix else len(self._sorted)
        return lo, hi

    def count_prefix(self, prefix):
        """How many words start with `prefix`."""
        lo, hi = self._range(prefix)
        return hi - lo

    def with_prefix(self, prefix, limit=10):
        """The first `limit` words starting with `prefix`, in sorted order."""
        if limit < 0:
            raise LexiconError("limit must not be negative")
        lo, hi = self._range(prefix)
        return self._sorted[lo:min(hi, lo + limit)]

    def anagrams(self, word):
        """The other words made of the same letters, sorted."""
        return [w for w in self._by_letters.get("".join(sorted(word)), []) if w != word]
