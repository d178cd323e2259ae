'''Base58 encoding

Implementations of Base58 and Base58Check encodings that are compatible
with the bitcoin network.
'''

# This module is based upon base58 snippets found scattered over many bitcoin
# tools written in python. From what I gather the original source is from a
# forum post by Gavin Andresen, so direct your praise to him.
# This module adds shiny packaging and support for python3.

from functools import lru_cache
from hashlib import sha256
from typing import Mapping, Union

__version__ = '2.1.1'

# 58 character alphabet used
BITCOIN_ALPHABET = \
    b'123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
RIPPLE_ALPHABET = b'rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz'
XRP_ALPHABET = RIPPLE_ALPHABET

# Retro compatibility
alphabet = BITCOIN_ALPHABET


def scrub_input(v: Union[str, bytes]) -> bytes:
    if isinstance(v, str):
        v = v.encode('ascii')

    return v


def _chunk(base: int) -> int:
    """How many digits of `base` fit in one digit (30 bits) of a Python int:
    dividing a long int by a one-digit int is its fastest division."""
    k = 1
    while base ** (k + 1) < 1 << 30:
        k += 1
    return k


def _digits(i: int, base: int) -> bytearray:
    """The digits of i > 0 in `base` (2 to 256), most significant first.

    Divide and conquer: i is split by base**(k * 2**j) into a high and a low
    half, each converted the same way, down to chunks of k digits that fit in
    one digit of a Python int. A few divisions by large powers cost far less
    than one division by `base` per digit of a long number."""
    k = _chunk(base)
    powers = [base ** k]
    while powers[-1] * powers[-1] <= i:
        powers.append(powers[-1] * powers[-1])
    out = bytearray()

    def emit(x: int, j: int, pad: bool) -> None:
        # x < powers[j + 1] (or < powers[0] when j < 0)
        if j < 0:
            part = bytearray()
            while x:
                x, d = divmod(x, base)
                part.append(d)
            if pad:
                part.extend(bytes(k - len(part)))
            part.reverse()
            out.extend(part)
            return
        q, r = divmod(x, powers[j])
        if q or pad:
            emit(q, j - 1, pad)
            emit(r, j - 1, True)
        else:
            emit(r, j - 1, False)

    emit(i, len(powers) - 1, False)
    return out


def b58encode_int(
    i: int, default_one: bool = True, alphabet: bytes = BITCOIN_ALPHABET
) -> bytes:
    """
    Encode an integer using Base58
    """
    if not i and default_one:
        return alphabet[0:1]
    if type(i) is int and i > 0 and type(alphabet) is bytes \
            and 2 <= len(alphabet) <= 256:
        table = alphabet + bytes(256 - len(alphabet))
        return bytes(_digits(i, len(alphabet))).translate(table)
    string = b""
    base = len(alphabet)
    while i:
        i, idx = divmod(i, base)
        string = alphabet[idx:idx+1] + string
    return string


def b58encode(
    v: Union[str, bytes], alphabet: bytes = BITCOIN_ALPHABET
) -> bytes:
    """
    Encode a string using Base58
    """
    v = scrub_input(v)

    origlen = len(v)
    v = v.lstrip(b'\0')
    newlen = len(v)

    acc = int.from_bytes(v, byteorder='big')  # first byte is most significant

    result = b58encode_int(acc, default_one=False, alphabet=alphabet)
    return alphabet[0:1] * (origlen - newlen) + result


@lru_cache()
def _get_base58_decode_map(alphabet: bytes,
                           autofix: bool) -> Mapping[int, int]:
    invmap = {char: index for index, char in enumerate(alphabet)}

    if autofix:
        groups = [b'0Oo', b'Il1']
        for group in groups:
            pivots = [c for c in group if c in invmap]
            if len(pivots) == 1:
                for alternative in group:
                    invmap[alternative] = invmap[pivots[0]]

    return invmap


def b58decode_int(
    v: Union[str, bytes], alphabet: bytes = BITCOIN_ALPHABET, *,
    autofix: bool = False
) -> int:
    """
    Decode a Base58 encoded string as an integer
    """
    if b' ' not in alphabet:
        v = v.rstrip()
    v = scrub_input(v)

    map = _get_base58_decode_map(alphabet, autofix=autofix)

    decimal = 0
    base = len(alphabet)
    if type(v) is bytes and base >= 2:
        try:
            digits = [map[char] for char in v]
        except KeyError as e:
            raise ValueError(
                "Invalid character {!r}".format(chr(e.args[0]))
            ) from None
        # k digits at a time into a small integer, then one big
        # multiply-add per chunk instead of one per digit
        k = _chunk(base)
        big = base ** k
        n = len(digits)
        first = n % k or k
        for d in digits[:first]:
            decimal = decimal * base + d
        for start in range(first, n, k):
            chunk = 0
            for d in digits[start:start + k]:
                chunk = chunk * base + d
            decimal = decimal * big + chunk
        return decimal
    try:
        for char in v:
            decimal = decimal * base + map[char]
    except KeyError as e:
        raise ValueError(
            "Invalid character {!r}".format(chr(e.args[0]))
        ) from None
    return decimal


def b58decode(
    v: Union[str, bytes], alphabet: bytes = BITCOIN_ALPHABET, *,
    autofix: bool = False
) -> bytes:
    """
    Decode a Base58 encoded string
    """
    v = v.rstrip()
    v = scrub_input(v)

    origlen = len(v)
    v = v.lstrip(alphabet[0:1])
    newlen = len(v)

    acc = b58decode_int(v, alphabet=alphabet, autofix=autofix)

    return b'\0' * (origlen - newlen) + acc.to_bytes((acc.bit_length() + 7) // 8, 'big')


def b58encode_check(
    v: Union[str, bytes], alphabet: bytes = BITCOIN_ALPHABET
) -> bytes:
    """
    Encode a string using Base58 with a 4 character checksum
    """
    v = scrub_input(v)

    digest = sha256(sha256(v).digest()).digest()
    return b58encode(v + digest[:4], alphabet=alphabet)


def b58decode_check(
    v: Union[str, bytes], alphabet: bytes = BITCOIN_ALPHABET, *,
    autofix: bool = False
) -> bytes:
    '''Decode and verify the checksum of a Base58 encoded string'''

    result = b58decode(v, alphabet=alphabet, autofix=autofix)
    result, check = result[:-4], result[-4:]
    digest = sha256(sha256(result).digest()).digest()

    if check != digest[:4]:
        raise ValueError("Invalid checksum")

    return result
