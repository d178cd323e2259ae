"""The wire codec and canonical observations: plain data only, exact floats."""

from __future__ import annotations

import math

import msgpack
import numpy as np
import pytest

from frontier_measure.observe import (
    DecodeError,
    Ref,
    canonical,
    describe,
    digest,
    fast_digest,
    from_canonical,
    pack,
    unpack,
)


@pytest.mark.parametrize("value", [
    None, True, 0, -1, 2**70, -(2**65), 1.5, -0.0, math.inf, "héllo", "lone \ud800 surrogate",
    b"\x00\xff",
    [1, [2, (3, 4)]], (1,), {"a": 1, (1, 2): [3]}, {1, 2, 3}, frozenset({"x"}),
    np.arange(6, dtype=np.int32).reshape(2, 3), np.array([1.5, np.nan]), np.float32(2.5),
    Ref("obj"),
])
def test_wire_round_trip_keeps_types(value):
    back = unpack(pack(value))
    assert type(back) is type(value)
    assert canonical(back) == canonical(value)


def test_wire_floats_are_bit_exact():
    for x in (-0.0, 0.1, 5e-324, float.fromhex("0x1.fffffffffffffp+1023")):
        assert math.copysign(1, unpack(pack(x))) == math.copysign(1, x)
        assert unpack(pack(x)).hex() == x.hex()


def test_wire_refuses_objects_both_ways():
    with pytest.raises(TypeError):
        pack(object())
    with pytest.raises(TypeError):
        pack(np.array([object()], dtype=object))
    # A hand-made frame carrying an object-dtype array is refused on decoding.
    inner = pack(["|O", [1], b"\x00" * 8])
    evil = msgpack.packb(msgpack.ExtType(4, inner))
    with pytest.raises(DecodeError):
        unpack(evil)
    with pytest.raises(DecodeError):
        unpack(msgpack.packb(msgpack.ExtType(99, b"")))
    with pytest.raises(DecodeError):
        unpack(b"\xc1")  # never used in msgpack


def test_canonical_distinguishes_what_behaviour_distinguishes():
    assert canonical(1) != canonical(1.0) != canonical(True)
    assert canonical([1]) != canonical((1,))
    assert canonical(0.0) != canonical(-0.0)
    assert canonical(float("nan")) == canonical(-float("nan"))
    assert canonical({"b": 1, "a": 2}) != canonical({"a": 2, "b": 1})  # dict order is behaviour
    assert canonical({"b", "a"}) == canonical({"a", "b"})  # set order is not
    assert canonical(np.zeros(2, np.float32)) != canonical(np.zeros(2, np.float64))
    assert canonical(np.zeros((2, 1))) != canonical(np.zeros((1, 2)))
    e = canonical(ValueError("bad"))
    assert e == {"$exception": "ValueError", "message": "bad"}


def test_a_str_subclass_is_not_a_str_and_crosses_the_wire():
    class Html(str):  # tabulate returns one for its html formats
        pass

    assert canonical(Html("<b>")) == {"$object": "Html", "value": "<b>"}
    assert unpack(pack(canonical(Html("<b>")))) == canonical(Html("<b>"))
    assert fast_digest([(Html("x"), [])]) != fast_digest([("x", [])])


def test_canonical_objects_by_type_and_repr_without_addresses():
    class Plain:
        pass

    class Shown:
        def __repr__(self):
            return "Shown(1)"

    assert canonical(Plain()) == {"$object": "Plain"}
    assert canonical(Shown()) == {"$object": "Shown", "repr": "Shown(1)"}


def test_from_canonical_inverts_data():
    v = {"k": [1, 2.5, (3, frozenset({1})), {4}], 5: b"x", "big": 2**80}
    assert from_canonical(canonical(v)) == v
    a = np.array([[1.0, -0.0], [np.inf, 2.0]])
    assert np.array_equal(from_canonical(canonical(a)), a)


def test_digests():
    assert digest(canonical([1, 2])) == digest(canonical([1, 2]))
    assert fast_digest([1, 2.0]) != fast_digest([1, 2])
    assert fast_digest((1,)) != fast_digest([1])
    assert fast_digest(-0.0) != fast_digest(0.0)
    assert fast_digest(np.array([np.nan])) == fast_digest(np.array([-np.nan]))
    assert fast_digest({"b", "a"}) == fast_digest({"a", "b"})


def test_describe_is_readable():
    assert describe(canonical((1, 2.5, "x"))) == "(1, 2.5, 'x')"
    assert describe(canonical(-0.0)) == "-0.0"
    assert "ValueError('bad')" in describe(canonical(ValueError("bad")))


# ---- one item at a time, within the cap (the evaluator's memory)

def _stream(reply: dict, cap: int = 1 << 20, most: int = 10) -> tuple[dict, str | None]:
    import io

    from frontier_measure.observe import stream_items

    got: dict = {}
    error = stream_items(io.BytesIO(pack(reply)), cap, most, got.__setitem__)
    return got, error


def test_items_are_decoded_one_by_one_and_checked_against_the_cap():
    from frontier_measure.observe import ItemCapExceeded, values_cap

    cap = 1 << 16
    assert values_cap(cap) == 4096
    got, error = _stream({"items": {"0/result": pack([1, "a"]), "0/stdout": pack(""),
                                    "1/result": pack(list(range(5000))),
                                    "2/result": pack("x" * (cap + 1))}}, cap)
    assert error is None
    assert got["0/result"] == [1, "a"] and got["0/stdout"] == ""
    for name, why in (("1/result", "holds more than 4,096 values"),
                      ("2/result", f"takes {cap + 6:,} bytes")):
        assert isinstance(got[name], ItemCapExceeded)
        assert why in got[name].reason and "max_item_mb = 0.0625" in got[name].reason


def test_a_reply_that_breaks_the_item_protocol_is_a_decode_error():
    assert _stream({"error": "boom " * 2000})[1].startswith("boom")  # kept, cut
    assert len(_stream({"error": "boom " * 2000})[1]) <= 4000
    for bad in ({"items": {"0/result": 5}},           # not sent packed
                {"items": {i: pack(1) for i in range(3)}},  # not a name
                {"items": {str(i): pack(1) for i in range(11)}},  # more than the case has
                {"items": {"0/result": pack(1) + b"x"}},  # more than one value
                {"other": 1}, [1, 2]):
        with pytest.raises(DecodeError):
            _stream(bad)
    with pytest.raises(DecodeError, match="extension type"):
        _stream({"items": {"0/result": pack((1, 2))}})  # replies are plain data
    deep = b"\x91" * 1100 + b"\xc0"  # deeper than the decoder goes
    with pytest.raises(DecodeError):
        _stream({"items": {"0/result": deep}})


def test_timed_outputs_decode_only_the_calls_picked():
    from frontier_measure.observe import ItemCapExceeded, TimedOutputs

    calls = [[[i, []]] for i in range(50)]
    calls[7] = [[list(range(100_000)), []]]
    t = TimedOutputs(pack({"values": calls}))
    assert len(t) == 50 and t.error is None
    assert dict(t.pick([3, 49], 1 << 16)) == {3: [[3, []]], 49: [[49, []]]}
    with pytest.raises(ItemCapExceeded):
        dict(t.pick([7], 1 << 16))
    assert TimedOutputs(pack({"error": "x"})).error == "x"
    with pytest.raises(DecodeError):
        TimedOutputs(pack({"values": [1], "more": 2}))


def test_an_array_from_a_timed_call_counts_as_its_canonical_values():
    from frontier_measure.observe import ItemCapExceeded, from_timed, timed_value

    arr = timed_value(np.zeros(100))
    assert len(from_timed(arr, 300)["$ndarray"]["values"]) == 100
    with pytest.raises(ItemCapExceeded):
        from_timed(arr, 299)


def test_describe_stops_at_its_limit_whatever_the_size():
    import time

    big = list(range(3_000_000))
    t0 = time.perf_counter()
    text = describe(big, 60)
    assert len(text) == 60 and text.endswith("...") and text.startswith("[0, 1, 2")
    assert describe("x" * 50_000_000, 20) == "'xxxxxxxxxxxxxxxx..."
    assert describe({"$bytes": "ab" * 10_000_000}, 20).startswith("b'\\xab\\xab")
    assert time.perf_counter() - t0 < 0.5
