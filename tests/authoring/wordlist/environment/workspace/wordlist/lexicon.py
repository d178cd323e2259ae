"""The lexicon: the package's words.txt, read through importlib.resources."""

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
        for w in extra:
            if not isinstance(w, str) or not w.isalpha():
                raise LexiconError(f"not a word: {w!r}")
            if w not in self.words:
                self.words.append(w)

    def __len__(self):
        return len(self.words)

    def __contains__(self, word):
        return word in self.words

    def count_prefix(self, prefix):
        """How many words start with `prefix`."""
        return sum(1 for w in self.words if w.startswith(prefix))

    def with_prefix(self, prefix, limit=10):
        """The first `limit` words starting with `prefix`, in sorted order."""
        if limit < 0:
            raise LexiconError("limit must not be negative")
        return sorted(w for w in self.words if w.startswith(prefix))[:limit]

    def anagrams(self, word):
        """The other words made of the same letters, sorted."""
        key = sorted(word)
        return sorted(w for w in self.words if w != word and sorted(w) == key)
