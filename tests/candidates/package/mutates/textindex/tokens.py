"""Splitting text into index terms."""

import re

_WORD = re.compile(r"[0-9a-z]+")


def tokenize(text):
    """Lower-case alphanumeric runs of `text`, in order."""
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    return _WORD.findall(text.lower())
