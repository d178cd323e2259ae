"""The ledger itself."""

from .money import format_cents


class Ledger:
    """Postings to named accounts. Entry ids count from 0 in posting order."""

    def __init__(self, name="ledger"):
        self.name = name
        self._entries = []  # (entry id, account, cents, memo)

    def post(self, account, cents, memo=""):
        """Record `cents` (an int, may be negative) on `account`; returns the entry id."""
        if not isinstance(account, str) or not account:
            raise ValueError("account must be a non-empty string")
        if not isinstance(cents, int) or isinstance(cents, bool):
            raise TypeError("cents must be an int")
        entry_id = len(self._entries)
        self._entries.append((entry_id, account, cents, str(memo)))
        return entry_id

    def balance(self, account):
        """Sum of the account's postings (0 for an unknown account)."""
        total = 0
        for _, acc, cents, _ in self._entries:
            if acc == account:
                total += cents
        return total

    def history(self, account, last=None):
        """The account's postings as (entry id, cents, memo), oldest first;
        only the `last` most recent when given."""
        rows = [(eid, cents, memo) for eid, acc, cents, memo in self._entries
                if acc == account]
        if last is not None:
            if last < 0:
                raise ValueError("last must be non-negative")
            rows = rows[len(rows) - last:] if last else []
        return rows

    def accounts(self):
        """Names of all accounts with postings, sorted."""
        names = []
        for _, acc, _, _ in self._entries:
            if acc not in names:
                names.append(acc)
        return sorted(names)

    def top(self, n=3):
        """The `n` accounts with the highest balances as (account, formatted
        balance); ties by name."""
        ranked = [(acc, self.balance(acc)) for acc in self.accounts()]
        ranked.sort(key=lambda pair: (-pair[1], pair[0]))
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
