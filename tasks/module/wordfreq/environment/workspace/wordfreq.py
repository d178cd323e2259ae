"""Word-frequency ranking for plain text."""

import re

WORD = re.compile(r"[a-z']+")


def top_words(text, n=10, stopwords=()):
    """The `n` most frequent words of `text` as (word, count) tuples.

    Words are runs of ASCII letters and apostrophes, compared in lower case.
    Words in `stopwords` are ignored. Ties are broken alphabetically.

    Raises TypeError("text must be a str") and ValueError("n must be non-negative").
    """
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    if n < 0:
        raise ValueError("n must be non-negative")
    words = []
    for w in WORD.findall(text.lower()):
        if w not in stopwords:
            words.append(w)
    distinct = []
    for w in words:
        if w not in distinct:
            distinct.append(w)
    counts = [(w, words.count(w)) for w in distinct]
    counts.sort(key=lambda pair: (-pair[1], pair[0]))
    return counts[:n]
