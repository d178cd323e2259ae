"""The index."""

from .tokens import tokenize


class Index:
    """Documents (str text) under hashable ids, searchable by word."""

    def __init__(self):
        self._docs = {}  # id -> text, in insertion order

    def add(self, doc_id, text):
        """Index `text` under `doc_id`; returns the number of terms it holds."""
        if doc_id in self._docs:
            raise ValueError(f"document {doc_id!r} already indexed")
        terms = tokenize(text)
        self._docs[doc_id] = text
        return len(terms)

    def remove(self, doc_id):
        """Forget a document; KeyError for an unknown id."""
        if doc_id not in self._docs:
            raise KeyError(doc_id)
        del self._docs[doc_id]

    def search(self, word):
        """Ids of the documents containing `word`, in the order they were added."""
        (term,) = tokenize(word) or [None]
        return [doc_id for doc_id, text in self._docs.items() if term in tokenize(text)]

    def search_all(self, words):
        """Ids of the documents containing every word, in the order they were added."""
        terms = []
        for w in words:
            terms.extend(tokenize(w))
        if not terms:
            return []
        found = []
        for doc_id, text in self._docs.items():
            doc_terms = tokenize(text)
            if all(t in doc_terms for t in terms):
                found.append(doc_id)
        return found

    def count(self, word):
        """How many times `word` occurs over all documents."""
        (term,) = tokenize(word) or [None]
        return sum(tokenize(text).count(term) for text in self._docs.values())

    def __len__(self):
        return len(self._docs)

    def __contains__(self, doc_id):
        return doc_id in self._docs
