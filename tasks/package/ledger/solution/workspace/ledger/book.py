"""The ledger itself."""

from .money import format_cents


class Ledger:
    """Postings to named accounts. Entry ids count from 0 in posting order."""

    def __init__(self, name="ledger"):
        self.name = name
        self._entries = []  # (entry id, account, cents, memo)
        self._balances = {}  # account -> running balance
        self._by_account = {}  # account -> [(entry id, cents, memo)]

    def post(self, account, cents, memo=""):
        """Record `cents` (an int, may be negative) on `account`; returns the entry id."""
        if not isinstance(account, str) or not account:
            raise ValueError("account must be a non-empty string")
        if not isinstance(cents, int) or isinstance(cents, bool):
            raise TypeError("cents must be an int")
        entry_id = len(self._entries)
        memo = str(memo)
        self._entries.append((entry_id, account, cents, memo))
        self._balances[account] = self._balances.get(account, 0) + cents
        rows = self._by_account.get(account)
        if rows is None:
            self._by_account[account] = [(entry_id, cents, memo)]
        else:
            rows.append((entry_id, cents, memo))
        return entry_id

    def balance(self, account):
        """Sum of the account's postings (0 for an unknown account)."""
        try:
            return self._balances.get(account, 0)
        except TypeError:  # unhashable: cannot name any account
            return 0

    def history(self, account, last=None):
        """The account's postings as (entry id, cents, memo), oldest first;
        only the `last` most recent when given."""
        try:
            rows = list(self._by_account.get(account, ()))
        except TypeError:
            rows = []
        if last is not None:
            if last < 0:
                raise ValueError("last must be non-negative")
            rows = rows[len(rows) - last:] if last else []
        return rows

    def accounts(self):
        """Names of all accounts with postings, sorted."""
        return sorted(self._balances)

    def top(self, n=3):
        """The `n` accounts with the highest balances as (account, formatted
        balance); ties by name."""
        ranked = sorted(self._balances.items(), key=lambda pair: (-pair[1], pair[0]))
        return [(acc, format_cents(b)) for acc, b in ranked[:n]]

    def reverse(self, entry_id):
        """Post the opposite of entry `entry_id`; returns the new entry id."""
        if not isinstance(entry_id, int) or not 0 <= entry_id < len(self._entries):
            raise KeyError(f"no entry {entry_id!r}")
        _, acc, cents, memo = self._entries[entry_id]
        return self.post(acc, -cents, f"reversal of {entry_id}: {memo}")

    def __len__(self):
        return len(self._entries)

    def __repr__(self):
        return f"Ledger({self.name!r}, {len(self._entries)} entries)"
