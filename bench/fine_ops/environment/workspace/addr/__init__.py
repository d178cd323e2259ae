"""IPv4 address helpers: the reference side of bench/fine_ops, a package task
whose timed calls are thousands of operations of a few microseconds each."""

_DIGITS = "0123456789"


def parse(text):
    """The address written as four dotted decimals, as an int."""
    if not isinstance(text, str):
        raise TypeError("an address is a str")
    parts = text.split(".")
    if len(parts) != 4:
        raise ValueError(f"not four parts: {text!r}")
    value = 0
    for part in parts:
        if not part or len(part) > 3:
            raise ValueError(f"bad part {part!r}")
        n = 0
        for ch in part:
            d = _DIGITS.find(ch)
            if d < 0:
                raise ValueError(f"bad part {part!r}")
            n = n * 10 + d
        if n > 255:
            raise ValueError(f"bad part {part!r}")
        value = value * 256 + n
    return value


def to_text(value):
    """An int address as four dotted decimals."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**32:
        raise ValueError(f"not an address: {value!r}")
    parts = []
    for shift in (24, 16, 8, 0):
        parts.append(str((value // (2 ** shift)) % 256))
    return ".".join(parts)


_PRIVATE = [("10.0.0.0", 8), ("172.16.0.0", 12), ("192.168.0.0", 16), ("127.0.0.0", 8)]


_PRIVATE_BASES = [(parse(net), bits) for net, bits in _PRIVATE]


def is_private(value):
    """Whether an int address is in a private or loopback range."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("an address is an int")
    for base, bits in _PRIVATE_BASES:
        span = 2 ** (32 - bits)
        if base <= value < base + span:
            return True
    return False
