"""Held-out cases and timing inputs for the base58 module task.

Cases encode and decode known and generated payloads with the bitcoin, ripple
and a few other alphabets, with and without checksums, valid and invalid.
Timing inputs encode and decode generated payloads of several hundred bytes."""

import hashlib
import random

BTC = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
XRP = b"rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz"


def _encode(data, alphabet=BTC):
    """A plain base-N encoder to make timing inputs (not the task's code)."""
    n = int.from_bytes(data, "big")
    out = []
    base = len(alphabet)
    while n:
        n, r = divmod(n, base)
        out.append(alphabet[r])
    zeros = len(data) - len(data.lstrip(b"\0"))
    return bytes([alphabet[0]] * zeros + out[::-1])


def _check(data):
    return data + hashlib.sha256(hashlib.sha256(data).digest()).digest()[:4]


def _payload(seed, n, zeros=0):
    rng = random.Random(seed)
    return b"\0" * zeros + bytes(rng.randrange(256) for _ in range(n))


def c(cid, covers, f, *args, **kwargs):
    return {"id": cid, "covers": covers, "call": f, "args": list(args), "kwargs": kwargs}


def cases():
    out = [
        c("enc-hello", ["encode"], "b58encode", b"hello world"),
        c("enc-str", ["encode", "str-input"], "b58encode", "hello world"),
        c("enc-empty", ["encode", "empty"], "b58encode", b""),
        c("enc-zero-byte", ["encode", "leading-zeros"], "b58encode", b"\0"),
        c("enc-zeros", ["encode", "leading-zeros"], "b58encode", b"\0\0\0\x01\x02"),
        c("enc-only-zeros", ["encode", "leading-zeros"], "b58encode", b"\0\0\0\0"),
        c("enc-one", ["encode"], "b58encode", b"\x01"),
        c("enc-57", ["encode"], "b58encode", b"\x39"),
        c("enc-58", ["encode"], "b58encode", b"\x3a"),
        c("enc-ff", ["encode"], "b58encode", b"\xff" * 40),
        c("enc-bytearray", ["encode"], "b58encode", bytearray(b"\0abc")),
        c("enc-xrp", ["encode", "alphabets"], "b58encode", b"\0\0hello", alphabet=XRP),
        c("enc-xrp-long", ["encode", "alphabets"], "b58encode", _payload(5, 90, 2), alphabet=XRP),
        c("enc-base10", ["encode", "alphabets"], "b58encode", b"\0\x01\x00", alphabet=b"0123456789"),
        c("enc-base2", ["encode", "alphabets"], "b58encode", b"\x05\xa0", alphabet=b"01"),
        c("enc-base256", ["encode", "alphabets"], "b58encode", _payload(6, 50),
          alphabet=bytes(range(255, -1, -1))),
        c("enc-base3-long", ["encode", "alphabets"], "b58encode", _payload(7, 120), alphabet=b"xyz"),
        c("enc-str-alphabet", ["encode", "alphabets", "errors"], "b58encode", b"\x01\x02",
          alphabet=BTC.decode()),
        c("enc-str-alphabet-zeros", ["encode", "alphabets", "errors"], "b58encode", b"\0",
          alphabet=BTC.decode()),
        c("enc-non-ascii", ["str-input", "errors"], "b58encode", "héllo"),
        c("enc-int-arg", ["errors"], "b58encode", 12),
        c("int-zero", ["encode-int"], "b58encode_int", 0),
        c("int-zero-no-one", ["encode-int"], "b58encode_int", 0, default_one=False),
        c("int-one", ["encode-int"], "b58encode_int", 1),
        c("int-57", ["encode-int"], "b58encode_int", 57),
        c("int-58", ["encode-int"], "b58encode_int", 58),
        c("int-big", ["encode-int"], "b58encode_int", 2 ** 255 - 19),
        c("int-huge", ["encode-int"], "b58encode_int", 7 ** 900),
        c("int-58-power", ["encode-int"], "b58encode_int", 58 ** 40),
        c("int-58-power-minus", ["encode-int"], "b58encode_int", 58 ** 40 - 1),
        c("int-58-power-big", ["encode-int"], "b58encode_int", 58 ** 333 + 58 ** 20),
        c("int-xrp", ["encode-int", "alphabets"], "b58encode_int", 123456789, alphabet=XRP),
        c("int-xrp-zero", ["encode-int", "alphabets"], "b58encode_int", 0, alphabet=XRP),
        c("int-true", ["encode-int"], "b58encode_int", True),
        c("int-false", ["encode-int"], "b58encode_int", False),
        c("int-hex-alphabet", ["encode-int", "alphabets"], "b58encode_int", 3 ** 200,
          alphabet=b"0123456789abcdef"),
        c("int-str-alphabet", ["encode-int", "errors"], "b58encode_int", 99, alphabet="ab"),
        c("dec-hello", ["decode"], "b58decode", b"StV1DL6CwTryKyV"),
        c("dec-str", ["decode", "str-input"], "b58decode", "StV1DL6CwTryKyV"),
        c("dec-empty", ["decode", "empty"], "b58decode", b""),
        c("dec-ones", ["decode", "leading-zeros"], "b58decode", b"1111"),
        c("dec-ones-value", ["decode", "leading-zeros"], "b58decode", "11126"),
        c("dec-trailing-space", ["decode", "whitespace"], "b58decode", "StV1DL6CwTryKyV \n\t"),
        c("dec-leading-space", ["decode", "whitespace", "errors"], "b58decode", " StV1"),
        c("dec-invalid-0", ["decode", "errors"], "b58decode", "abc0def"),
        c("dec-invalid-l", ["decode", "errors"], "b58decode", b"lll"),
        c("dec-invalid-late", ["decode", "errors"], "b58decode", _encode(_payload(8, 60)) + b"+"),
        c("dec-invalid-high", ["decode", "errors"], "b58decode", b"ab\xffcd"),
        c("dec-non-ascii", ["decode", "errors", "str-input"], "b58decode", "abcé"),
        c("dec-autofix", ["decode", "autofix"], "b58decode", "StV1DL6CwTryKyV0OIl", autofix=True),
        c("dec-autofix-off", ["decode", "autofix", "errors"], "b58decode", "StV0", autofix=False),
        c("dec-xrp", ["decode", "alphabets"], "b58decode", "rrrHZ6Un3", alphabet=XRP),
        c("dec-xrp-long", ["decode", "alphabets"], "b58decode",
          _encode(_payload(9, 100, 3), XRP), alphabet=XRP),
        c("dec-xrp-autofix", ["decode", "autofix", "alphabets"], "b58decode", "rp0OIl",
          alphabet=XRP, autofix=True),
        c("dec-base10", ["decode", "alphabets"], "b58decode", "0256", alphabet=b"0123456789"),
        c("dec-base10-autofix", ["decode", "alphabets", "autofix"], "b58decode", "0256oO",
          alphabet=b"0123456789", autofix=True),
        c("dec-space-alphabet", ["decode", "alphabets", "whitespace"], "b58decode_int",
          "ab  ", alphabet=b" ab"),
        c("dec-space-alphabet-bytes", ["decode", "alphabets", "whitespace"], "b58decode",
          b" ab  ", alphabet=b" ab"),
        c("dec-long", ["decode"], "b58decode", _encode(_payload(10, 333, 1))),
        c("dec-int", ["decode-int"], "b58decode_int", "StV1DL6CwTryKyV"),
        c("dec-int-one", ["decode-int"], "b58decode_int", b"1"),
        c("dec-int-empty", ["decode-int", "empty"], "b58decode_int", b""),
        c("dec-int-ones", ["decode-int", "leading-zeros"], "b58decode_int", "1112"),
        c("dec-int-space", ["decode-int", "whitespace"], "b58decode_int", b"2Z \n"),
        c("dec-int-invalid", ["decode-int", "errors"], "b58decode_int", "2Z!"),
        c("dec-int-autofix", ["decode-int", "autofix"], "b58decode_int", b"0Il", autofix=True),
        c("dec-int-long", ["decode-int"], "b58decode_int", _encode(_payload(11, 250))),
        c("dec-int-11", ["decode-int"], "b58decode_int", b"zzzzzzzzzzz"),
        c("dec-int-12", ["decode-int"], "b58decode_int", b"2zzzzzzzzzzz"),
        c("dec-int-10", ["decode-int"], "b58decode_int", b"zzzzzzzzzz"),
        c("dec-int-str-alphabet", ["decode-int", "errors"], "b58decode_int", "ba",
          alphabet="ab"),
        c("dec-int-hex", ["decode-int", "alphabets"], "b58decode_int", "ff" * 40 + "1",
          alphabet=b"0123456789abcdef"),
        c("dec-int-base2", ["decode-int", "alphabets"], "b58decode_int", "1" * 70 + "0",
          alphabet=b"01"),
        c("dec-int-none", ["errors"], "b58decode_int", None),
        c("check-enc", ["check"], "b58encode_check", b"hello world"),
        c("check-enc-str", ["check", "str-input"], "b58encode_check", "hello"),
        c("check-enc-empty", ["check", "empty"], "b58encode_check", b""),
        c("check-enc-zeros", ["check", "leading-zeros"], "b58encode_check", b"\0\0\x05"),
        c("check-enc-xrp", ["check", "alphabets"], "b58encode_check", b"\0abc", alphabet=XRP),
        c("check-dec", ["check"], "b58decode_check", _encode(_check(b"hello world"))),
        c("check-dec-str", ["check", "str-input"], "b58decode_check",
          _encode(_check(b"\0\0payload")).decode()),
        c("check-dec-xrp", ["check", "alphabets"], "b58decode_check",
          _encode(_check(b"\0xrp"), XRP), alphabet=XRP),
        c("check-dec-autofix", ["check", "autofix"], "b58decode_check",
          _encode(_check(b"\0fix")).replace(b"1", b"l"), autofix=True),
        c("check-dec-no-autofix", ["check", "autofix", "errors"], "b58decode_check",
          _encode(_check(b"\0fix")).replace(b"1", b"l")),
        c("dec-int-no-autofix", ["decode-int", "autofix", "errors"], "b58decode_int", "StV0Il"),
        c("check-bad", ["check", "errors"], "b58decode_check",
          _encode(_check(b"hello world"))[:-1] + b"2"),
        c("check-short", ["check", "errors"], "b58decode_check", b"2"),
        c("check-empty", ["check", "errors", "empty"], "b58decode_check", b""),
        c("scrub-str", ["str-input"], "scrub_input", "abc"),
        c("scrub-bytes", ["str-input"], "scrub_input", b"abc"),
        c("scrub-other", ["str-input"], "scrub_input", [1, 2]),
        {"id": "constants", "covers": ["alphabets"], "ops": [
            {"get": n} for n in ("BITCOIN_ALPHABET", "RIPPLE_ALPHABET", "XRP_ALPHABET",
                                 "alphabet", "__version__")]},
    ]
    for k in range(14):
        rng = random.Random(k)
        data = _payload(100 + k, rng.randrange(0, 80), rng.randrange(0, 3))
        al = XRP if k % 4 == 3 else BTC
        out.append({"id": f"random-{k}", "covers": ["encode", "decode", "check"], "ops": [
            {"call": "b58encode", "args": [data], "kwargs": {"alphabet": al}},
            {"call": "b58decode", "args": [_encode(data, al)], "kwargs": {"alphabet": al}},
            {"call": "b58encode_check", "args": [data], "kwargs": {"alphabet": al}},
            {"call": "b58decode_check", "args": [_encode(_check(data), al)],
             "kwargs": {"alphabet": al}},
            {"call": "b58decode_int", "args": [_encode(data, al)], "kwargs": {"alphabet": al}},
            {"call": "b58encode_int", "args": [int.from_bytes(data, "big")],
             "kwargs": {"alphabet": al}}]})
    return out


def timing_inputs():
    def enc(n):
        def one(seed):
            return {"call": "b58encode", "args": [_payload(seed, n, seed % 3)]}
        return one

    def dec(n):
        def one(seed):
            return {"call": "b58decode", "args": [_encode(_payload(seed, n, seed % 3)).decode()]}
        return one

    def check(n):
        def one(seed):
            return {"call": "b58decode_check", "args": [_encode(_check(_payload(seed, n)))]}
        return one

    return [
        {"id": "encode-1000", "size": 1000, "make": enc(1000)},
        {"id": "decode-1000", "size": 1000, "make": dec(1000)},
        {"id": "decode-check-600", "size": 600, "make": check(600)},
    ]
