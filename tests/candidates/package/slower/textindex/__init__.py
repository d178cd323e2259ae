"""A small in-memory full-text index."""

from .index import Index
from .tokens import tokenize

__all__ = ["Index", "tokenize"]
