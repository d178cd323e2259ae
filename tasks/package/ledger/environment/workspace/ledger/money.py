"""Money formatting."""


def format_cents(cents):
    """'-12.05' for -1205: cents as a decimal string with two places."""
    if not isinstance(cents, int) or isinstance(cents, bool):
        raise TypeError("cents must be an int")
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}.{part:02d}"
