"""IPv4 address helpers: the oracle of bench/fine_ops (same behaviour, less work)."""

_OK = frozenset("0123456789")


def parse(text):
    """The address written as four dotted decimals, as an int."""
    if type(text) is not str and not isinstance(text, str):
        raise TypeError("an address is a str")
    parts = text.split(".")
    if len(parts) != 4:
        raise ValueError(f"not four parts: {text!r}")
    value = 0
    for part in parts:
        if not 0 < len(part) <= 3 or not _OK.issuperset(part):
            raise ValueError(f"bad part {part!r}")
        n = int(part)
        if n > 255:
            raise ValueError(f"bad part {part!r}")
        value = (value << 8) | n
    return value


def to_text(value):
    """An int address as four dotted decimals."""
    if type(value) is not int and (not isinstance(value, int) or isinstance(value, bool)) \
            or not 0 <= value < 4294967296:
        raise ValueError(f"not an address: {value!r}")
    return f"{value >> 24}.{(value >> 16) & 255}.{(value >> 8) & 255}.{value & 255}"


# (first, past the last) of each private or loopback range
_PRIVATE = ((0x0A000000, 0x0B000000), (0xAC100000, 0xAC200000),
            (0xC0A80000, 0xC0A90000), (0x7F000000, 0x80000000))


def is_private(value):
    """Whether an int address is in a private or loopback range."""
    if type(value) is not int and (not isinstance(value, int) or isinstance(value, bool)):
        raise TypeError("an address is an int")
    # A plain loop: any() over a generator costs more than the three compares.
    for lo, hi in _PRIVATE:  # noqa: SIM110
        if lo <= value < hi:
            return True
    return False
