"""A word list shipped as package data, with prefix and anagram queries."""

from .lexicon import Lexicon, LexiconError

__all__ = ["Lexicon", "LexiconError"]
