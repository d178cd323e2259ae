"""Held-out cases and timing inputs for the hashids module task.

A case builds a Hashids(salt, min_length, alphabet), looks at the alphabet,
separators and guards it derived, and encodes and decodes values, hex strings
and tampered hashids. Timing inputs encode and decode hashids of 150 values
and decode a long hex hashid, with a short and a long salt."""

import random

ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890"
LONG_SALT = "Kq3vR8sLm2XwT9pZc7YdN4hGf6JbA1eQu5oIiWnMlVxSyDkEgCtHrOjPaUzB0F"


def h(cid, covers, ctor, ops):
    """Hashids(*ctor) as $h, its derived state, then `ops` (calls on $h)."""
    out = [{"call": "Hashids", "args": list(ctor), "as": "h"}]
    out += [{"get": f"$h.{a}"} for a in ("_alphabet", "_separators", "_guards", "_salt",
                                         "_min_length")]
    for op in ops:
        name, *args = op
        out.append({"call": f"$h.{name}", "args": args})
    return {"id": cid, "covers": covers, "ops": out}


def roundtrip(values):
    """encode(*values), then decode what it gave."""
    return [{"call": "$h.encode", "args": list(values), "as": "e"},
            {"call": "$h.decode", "args": ["$e"]}]


def h_round(cid, covers, ctor, values_list, extra=()):
    case = h(cid, covers, ctor, extra)
    for values in values_list:
        case["ops"] += roundtrip(values)
    return case


def _encoded_values(seed, n):
    rng = random.Random(seed)
    return [rng.randrange(10 ** rng.randrange(1, 8)) for _ in range(n)]


def cases():
    out = [
        h_round("default", ["encode", "decode"], (), [[1], [1, 2, 3], [0], [12345],
                                                      [2 ** 64, 5], [0, 0, 0]]),
        h("doc-example", ["encode", "decode", "alphabet", "min-length"],
          ("arbitrary salt", 16, "abcdefghijkl0123456"),
          [("encode", 1, 23, 456), ("decode", "1d6216i30h53elk3"),
           ("decode", "1d6216i30h53elk4")]),
        h_round("salt", ["encode", "decode", "salt"], ("this is my salt",),
                [[1, 2, 3], [999999999], [7, 7, 7, 7]]),
        h_round("salt-unicode", ["salt"], ("sél日本",), [[5, 6]]),
        h_round("salt-long", ["salt"], (LONG_SALT,), [[1, 2, 3], [10 ** 12, 0, 42]]),
        h_round("salt-very-long", ["salt"], (LONG_SALT * 3, 8), [[3, 1, 4, 1, 5, 9, 2, 6]]),
        h_round("min-length", ["min-length"], ("salt", 8), [[1], [1, 2], [123456789]]),
        h_round("min-length-long", ["min-length"], ("salt", 40), [[1], [5, 6, 7]]),
        h_round("min-length-odd", ["min-length"], ("", 13), [[0], [99]]),
        h_round("min-length-exact", ["min-length"], ("", 3), [[1], [1000]]),
        h_round("min-length-trim-one", ["min-length"], ("", 47), [[0], [3]]),
        h_round("alphabet-three", ["alphabet"], ("", 0, "cfhistuCFHISTUabc"), [[1], [4, 5]]),
        h_round("alphabet-three-salt", ["alphabet", "min-length"], ("pep", 9, "cfhistuCFHISTUxyz"),
                [[12, 3]]),
        h_round("min-length-str", ["min-length"], ("x", "10"), [[3]]),
        h_round("min-length-negative", ["min-length"], ("x", -5), [[3]]),
        h_round("min-length-float", ["min-length"], ("x", 6.9), [[3]]),
        h_round("alphabet-hex", ["alphabet"], ("", 0, "0123456789abcdef"), [[1, 2, 3], [255]]),
        h_round("alphabet-dupes", ["alphabet"], ("s", 0, "aabbccddeeffgghhiijjkkllmmnnoopp"),
                [[10, 20]]),
        h_round("alphabet-separators-only", ["alphabet"], ("s", 0, "cfhistuCFHISTU01"),
                [[1], [2, 3]]),
        h_round("alphabet-few-separators", ["alphabet"], ("salt", 10, "abcdefghijklmnopqrstuvwxyz"),
                [[1, 2], [300]]),
        h_round("alphabet-unicode", ["alphabet"], ("", 0, "äöüß€日本語abcdefghijklmnop"),
                [[7, 8, 9]]),
        h_round("alphabet-no-separators", ["alphabet"], ("salt", 0, "abdegjklmnopqrvwxyz"),
                [[4, 5]]),
        {"id": "alphabet-short", "covers": ["alphabet", "errors"], "ops": [
            {"call": "Hashids", "args": ["", 0, "abcdefghijklmno"]},
            {"call": "Hashids", "args": ["", 0, "abcabcabcabcabcabc"]},
            {"call": "Hashids", "args": ["", 0, "abcdefghijklmnop"]},
            {"call": "Hashids", "args": ["", 0, "abcdefghijklmnoo"]}]},
        h("invalid-values", ["invalid-values"], ("salt",),
          [("encode",), ("encode", -1), ("encode", 1, -2), ("encode", "abc"),
           ("encode", "12"), ("encode", 1.5), ("encode", 2.0), ("encode", None),
           ("encode", True), ("encode", False, 3), ("encode", [1])]),
        h("decode-invalid", ["decode", "invalid-hashid"], ("this is my salt",),
          [("decode", ""), ("decode", None), ("decode", 123), ("decode", b"abc"),
           ("decode", "a"), ("decode", "xyz"), ("decode", "laHquq"), ("decode", "laHqur"),
           ("decode", "!!!"), ("decode", "aaaaaaaaaa"), ("decode", "c"), ("decode", "cc"),
           ("decode", "cLc"), ("decode", "ccc"), ("decode", "Lc"), ("decode", "cL")]),
        h("decode-guards", ["decode", "min-length", "invalid-hashid"], ("salt", 20),
          [("encode", 1, 2), ("decode", "x" * 20)]),
        h("hex", ["hex"], ("hex salt",),
          [("encode_hex", "507f1f77bcf86cd799439011"), ("decode_hex", "y42LW46J9luq3Xq9XMly"),
           ("encode_hex", "deadbeef"), ("encode_hex", "0"), ("encode_hex", ""),
           ("encode_hex", "xyz"), ("encode_hex", "ff" * 40), ("decode_hex", ""),
           ("decode_hex", "invalid")]),
        h("deprecated", ["deprecated"], ("old",),
          [("encrypt", 1, 2, 3), ("decrypt", "ZvsgCe"), ("encrypt", -1)]),
        {"id": "deprecated-roundtrip", "covers": ["deprecated", "encode", "decode"], "ops": [
            {"call": "Hashids", "args": ["old api"], "as": "h"},
            {"call": "$h.encrypt", "args": [4, 5, 6], "as": "e"},
            {"call": "$h.decrypt", "args": ["$e"]},
            {"call": "$h.decode", "args": ["$e"]}]},
        {"id": "hex-roundtrip", "covers": ["hex"], "ops": [
            {"call": "Hashids", "args": ["hex", 30], "as": "h"},
            {"call": "$h.encode_hex", "args": ["0123456789abcdef0123456789abcdef01"], "as": "e"},
            {"call": "$h.decode_hex", "args": ["$e"]}]},
        {"id": "module", "covers": ["module"], "ops": [
            {"get": "__version__"}, {"get": "RATIO_SEPARATORS"}, {"get": "RATIO_GUARDS"},
            {"get": "Hashids.ALPHABET"}, {"get": "StrType"}]},
        {"id": "tampered", "covers": ["invalid-hashid"], "ops": _tampered()},
    ]
    for k in range(10):
        rng = random.Random(k)
        salt = rng.choice(["", "pepper", "a much longer salt for these values", LONG_SALT])
        ml = rng.choice([0, 0, 12, 30])
        out.append(h_round(f"random-{k}", ["encode", "decode"], (salt, ml),
                           [_encoded_values(k, rng.randrange(1, 12)),
                            _encoded_values(100 + k, rng.randrange(1, 4))]))
    return out


def _tampered():
    ops = [{"call": "Hashids", "args": ["tamper", 10], "as": "h", "observe": False},
           {"call": "$h.encode", "args": [11, 22, 33]}]
    # encode(11, 22, 33) with this salt and min_length 10, each character
    # changed, dropped or doubled in turn: decode must reject or accept as the
    # original does
    base = "PxgTwHvFLNL"
    for k in range(len(base)):
        for variant in (base[:k] + base[k + 1:], base[:k] + base[k] + base[k:],
                        base[:k] + ("a" if base[k] != "a" else "b") + base[k + 1:]):
            ops.append({"call": "$h.decode", "args": [variant]})
    return ops


def timing_inputs():
    def decode(n, salt):
        def one(seed):
            return {"ops": [{"call": "Hashids", "args": [salt], "as": "h"},
                            {"call": "$h.encode", "args": _encoded_values(seed, n), "as": "e"},
                            {"call": "$h.decode", "args": ["$e"]}]}
        return one

    def encode(n, salt):
        def one(seed):
            return {"ops": [{"call": "Hashids", "args": [salt], "as": "h"},
                            {"call": "$h.encode", "args": _encoded_values(seed, n)}]}
        return one

    def hex_decode(n, salt):
        def one(seed):
            rng = random.Random(seed)
            hexs = "".join(rng.choice("0123456789abcdef") for _ in range(n))
            return {"ops": [{"call": "Hashids", "args": [salt, 20], "as": "h"},
                            {"call": "$h.encode_hex", "args": [hexs], "as": "e"},
                            {"call": "$h.decode_hex", "args": ["$e"]}]}
        return one

    return [
        {"id": "roundtrip-150", "size": 150, "make": decode(150, "this is my salt")},
        {"id": "encode-150-long-salt", "size": 150, "make": encode(150, LONG_SALT)},
        {"id": "hex-1200-long-salt", "size": 1200, "make": hex_decode(1200, LONG_SALT)},
    ]
