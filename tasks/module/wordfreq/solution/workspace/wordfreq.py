"""Word-frequency ranking for plain text."""

import heapq
import re
from collections import Counter

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
    counts = Counter(WORD.findall(text.lower()))
    for w in set(stopwords):
        counts.pop(w, None)
    # (-count, word) is unique per word, so the order is total and matches a full sort.
    return [(w, c) for c, w in
            ((-neg, w) for neg, w in heapq.nsmallest(n, ((-c, w) for w, c in counts.items())))]
