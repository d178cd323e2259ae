"""A ledger of postings to named accounts, in integer cents."""

from .book import Ledger
from .money import format_cents

__all__ = ["Ledger", "format_cents"]
