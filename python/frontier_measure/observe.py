"""Safe encodings of values that cross between the evaluator and a worker.

Two forms, both plain data (never pickle: a candidate's bytes are only ever
decoded into lists, dicts, strings and numbers):

* the **wire** form (`pack` / `unpack`): msgpack with a few extension types so
  that inputs keep their Python types on the way into a worker (tuple vs list,
  set, numpy arrays, big ints, bytes) and floats stay bit-exact (msgpack float64);
* the **canonical observation** (`canonical` / `from_canonical`): a JSON-able
  tree describing what a call produced. Floats are written with `float.hex`, so
  NaN, infinities and -0.0 survive JSON and compare bit-exactly; sets are sorted
  so their iteration order (which varies between processes) does not matter.
  Golden outputs are stored in this form and diffs are computed on it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

import msgpack


def _numpy() -> Any:
    """numpy, if this process has imported it (else no value can be a numpy
    array, and a worker need not pay for importing it)."""
    return sys.modules.get("numpy")

# Wire extension codes.
_EXT_TUPLE = 1
_EXT_SET = 2
_EXT_FROZENSET = 3
_EXT_NDARRAY = 4
_EXT_BIGINT = 5
_EXT_REF = 6
_EXT_NPSCALAR = 7

# Only numeric/bool/str numpy dtypes cross the wire: an object array would be a
# way to smuggle arbitrary objects.
_SAFE_KINDS = set("biufcSU")

MAX_FRAME = 1 << 30


class Ref:
    """A reference to a value stored by an earlier operation of the same case
    (package scale: `{"as": "t"}` then `Ref("t")` as an argument)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ref) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("Ref", self.name))

    def __repr__(self) -> str:
        return f"Ref({self.name!r})"


class DecodeError(ValueError):
    """Bytes from a worker that are not a valid wire value."""


class ReplyCapExceeded(DecodeError):
    """A reply over the evaluator's cap on values (see `unpack_reply`)."""


def _default(obj: Any) -> Any:
    if isinstance(obj, tuple):
        return msgpack.ExtType(_EXT_TUPLE, pack(list(obj)))
    if isinstance(obj, frozenset):
        return msgpack.ExtType(_EXT_FROZENSET, pack(list(obj)))
    if isinstance(obj, set):
        return msgpack.ExtType(_EXT_SET, pack(list(obj)))
    if isinstance(obj, Ref):
        return msgpack.ExtType(_EXT_REF, obj.name.encode())
    np = _numpy()
    if np is not None and isinstance(obj, np.ndarray):
        if obj.dtype.kind not in _SAFE_KINDS:
            raise TypeError(f"numpy arrays of dtype {obj.dtype} cannot cross the wire")
        arr = np.ascontiguousarray(obj)
        return msgpack.ExtType(
            _EXT_NDARRAY, pack([arr.dtype.str, list(arr.shape), arr.tobytes()])
        )
    if np is not None and isinstance(obj, np.generic):
        arr = np.asarray(obj)
        if arr.dtype.kind not in _SAFE_KINDS:
            raise TypeError(f"numpy scalars of dtype {arr.dtype} cannot cross the wire")
        return msgpack.ExtType(_EXT_NPSCALAR, pack([arr.dtype.str, arr.tobytes()]))
    if isinstance(obj, int):  # beyond 64 bits (smaller ones are native)
        return msgpack.ExtType(_EXT_BIGINT, str(int(obj)).encode())
    if isinstance(obj, bytearray):
        return bytes(obj)
    raise TypeError(f"cannot encode a value of type {type(obj).__name__}")


def _ext_hook(code: int, data: bytes) -> Any:
    if code in (_EXT_TUPLE, _EXT_SET, _EXT_FROZENSET):
        items = unpack(data)
        if not isinstance(items, list):
            raise DecodeError("malformed container")
        if code == _EXT_TUPLE:
            return tuple(items)
        return set(items) if code == _EXT_SET else frozenset(items)
    if code == _EXT_REF:
        return Ref(data.decode())
    if code in (_EXT_NDARRAY, _EXT_NPSCALAR):
        import numpy as np  # an input that is an array: the side gets numpy
    if code == _EXT_NDARRAY:
        dtype, shape, raw = unpack(data)
        dt = np.dtype(dtype)
        if dt.kind not in _SAFE_KINDS:
            raise DecodeError(f"refusing numpy dtype {dt}")
        return np.frombuffer(raw, dtype=dt).reshape(shape).copy()
    if code == _EXT_NPSCALAR:
        dtype, raw = unpack(data)
        dt = np.dtype(dtype)
        if dt.kind not in _SAFE_KINDS:
            raise DecodeError(f"refusing numpy dtype {dt}")
        return np.frombuffer(raw, dtype=dt)[0]
    if code == _EXT_BIGINT:
        return int(data.decode())
    raise DecodeError(f"unknown extension type {code}")


def _no_ext(code: int, data: bytes) -> Any:
    raise DecodeError(f"extension type {code} in a reply (replies are plain data)")


# A Python str may hold lone surrogates ('\ud800' is a value a library can
# return); strict UTF-8 cannot carry them, so strings cross the wire with
# the surrogates passed through, and come back as the same str.
STR_ERRORS = "surrogatepass"


def unpack_reply(data: bytes, max_values: int) -> Any:
    """Decode a worker's reply: plain data only, and at most `max_values`
    values, counted before anything is built (decoding builds one Python
    object per value, so a small reply of nested empty lists would otherwise
    cost the evaluator gigabytes)."""
    from . import _core

    n = _core.packed_values(data, max_values)
    if n < 0:
        raise DecodeError("malformed or cut-short data")
    if n > max_values:
        raise ReplyCapExceeded(f"the reply holds more than {max_values:,} values "
                               "(the cap on what a side may return per reply)")
    try:
        return msgpack.unpackb(data, ext_hook=_no_ext, raw=False, strict_map_key=False,
                               use_list=True, unicode_errors=STR_ERRORS)
    except DecodeError:
        raise
    except Exception as exc:
        raise DecodeError(f"undecodable data: {exc}") from None


# ------------------------------------------------------------------- items

# The cap on one item (an observation, or one timed call's outputs) as the
# evaluator receives it: task.toml [metadata.frontier] max_item_mb, in bytes
# of its packed form, and one value per BYTES_PER_VALUE of those bytes. Both
# are needed: a decoded value costs the evaluator 30 to 80 bytes whatever it
# took on the wire (an empty list is one byte packed and 64 bytes decoded), so
# a byte cap alone lets a small item grow twentyfold once decoded.
DEFAULT_MAX_ITEM_MB = 16
BYTES_PER_VALUE = 16


class ItemCapExceeded(DecodeError):
    """One item over the task's cap on an item's size; `reason` says by how much."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def values_cap(max_bytes: int) -> int:
    """How many values an item may hold under a cap of `max_bytes`."""
    return max(1, max_bytes // BYTES_PER_VALUE)


def describe_cap(max_bytes: int) -> str:
    """The cap, and where an author sets it, for messages."""
    mib = round(max_bytes / (1 << 20), 4)  # as the author wrote it, before whole bytes
    return (f"the cap on what a side may return per item (task.toml [metadata.frontier] "
            f"max_item_mb = {mib:g}: {max_bytes:,} bytes, {values_cap(max_bytes):,} values)")


def unpack_item(data: bytes, max_bytes: int) -> Any:
    """Decode one item sent packed on its own, plain data only, after
    checking it against the cap: its size first, then its values, counted
    without building anything (what the evaluator holds of an item is at
    most what the cap allows, whatever the side sent)."""
    if len(data) > max_bytes:
        raise ItemCapExceeded(f"exceeds {describe_cap(max_bytes)}: it takes {len(data):,} bytes")
    try:
        return unpack_reply(data, values_cap(max_bytes))
    except ReplyCapExceeded:
        raise ItemCapExceeded(f"exceeds {describe_cap(max_bytes)}: it holds more than "
                              f"{values_cap(max_bytes):,} values") from None


MAX_ERROR = 4000  # characters kept of an error a worker reports
_KEY_LEN = 4096  # an item's name, an error's: short strings
_BIN_LENGTH = {0xC4: 1, 0xC5: 2, 0xC6: 4}  # bin8/16/32: bytes of the length that follows


def _stream(file_like: Any) -> msgpack.Unpacker:
    # Only small values (names, an error) are decoded from the stream itself;
    # items are read as raw bytes past it (read_bytes), so nothing bounds the
    # buffer but these limits.
    return msgpack.Unpacker(file_like, read_size=1 << 16, max_buffer_size=2 << 20,
                            raw=False, strict_map_key=False, use_list=True,
                            ext_hook=_no_ext, unicode_errors=STR_ERRORS,
                            max_str_len=1 << 20, max_bin_len=0, max_array_len=16,
                            max_map_len=16)


def _bin_length(u: msgpack.Unpacker) -> int:
    kind = u.read_bytes(1)
    if len(kind) != 1 or kind[0] not in _BIN_LENGTH:
        raise DecodeError("an item is not sent as bytes")
    head = u.read_bytes(_BIN_LENGTH[kind[0]])
    if len(head) != _BIN_LENGTH[kind[0]]:
        raise DecodeError("cut short")
    return int.from_bytes(head, "big")


def stream_items(file_like: Any, max_item_bytes: int, max_items: int,
                 on_item: Callable[[str, Any], None]) -> str | None:
    """Read an `observe` reply ({"items": {name: packed item}} or {"error":
    text}) from `file_like` as it arrives: each item on its own, checked
    against the cap (`unpack_item`), decoded, handed to on_item(name, value)
    and dropped, so the evaluator holds one item at a time whatever the
    reply's size. An item over the cap is handed over as its ItemCapExceeded
    and its bytes are read past in blocks, never held. Returns the error the
    worker reported, if any; a reply of any other shape is a DecodeError."""
    u = _stream(file_like)
    error = None
    try:
        for _ in range(u.read_map_header()):
            key = u.unpack()
            if key == "error":
                error = str(u.unpack())[:MAX_ERROR]
                continue
            if key != "items":
                raise DecodeError(f"unexpected field {str(key)[:40]!r} in a reply")
            count = u.read_map_header()
            if count > max_items:
                raise DecodeError(f"{count:,} items for a case that has at most {max_items:,}")
            for _ in range(count):
                name = u.unpack()
                if type(name) is not str or len(name) > _KEY_LEN:
                    raise DecodeError("an item's name is not a short string")
                size = _bin_length(u)
                if size > max_item_bytes:
                    left = size
                    while left:
                        block = u.read_bytes(min(left, 1 << 20))
                        if not block:
                            raise DecodeError("cut short")
                        left -= len(block)
                    on_item(name, ItemCapExceeded(
                        f"exceeds {describe_cap(max_item_bytes)}: it takes {size:,} bytes"))
                    continue
                data = u.read_bytes(size)
                if len(data) != size:
                    raise DecodeError("cut short")
                try:
                    value = unpack_item(data, max_item_bytes)
                except ItemCapExceeded as exc:
                    value = exc
                del data
                on_item(name, value)
        if u.read_bytes(1):
            raise DecodeError("extra data after the reply")
    except DecodeError:
        raise
    except (ValueError, msgpack.OutOfData, msgpack.StackError) as exc:
        raise DecodeError(f"undecodable data: {type(exc).__name__} {exc}"[:200]) from None
    return error


class _View:
    """A file-like reader over bytes without copying them (io.BytesIO copies
    anything that is not bytes)."""

    def __init__(self, data: bytes | bytearray | memoryview) -> None:
        self.view = memoryview(data)
        self.at = 0

    def read(self, n: int = -1) -> bytes:
        end = len(self.view) if n < 0 else min(self.at + n, len(self.view))
        out = bytes(self.view[self.at:end])
        self.at = end
        return out


class TimedOutputs:
    """A timed batch's reply ({"values": [call outputs, ...]} or {"error":
    text}) kept as the bytes it came in. Only its length is read at once;
    `pick` decodes the calls asked for, each checked against the item cap,
    and steps over the rest without building them: a batch of a thousand
    calls of a megabyte each costs the evaluator its bytes, not the
    gigabytes its decoded values would."""

    def __init__(self, data: bytes | bytearray) -> None:
        self.data = data
        self.error: str | None = None
        self.count = 0
        u = _stream(_View(data))
        try:
            if u.read_map_header() != 1:
                raise DecodeError("a timed reply has one field")
            key = u.unpack()
            if key == "error":
                self.error = str(u.unpack())[:MAX_ERROR]
                return
            if key != "values":
                raise DecodeError(f"unexpected field {str(key)[:40]!r} in a timed reply")
            self.count = u.read_array_header()
            self._start = u.tell()
        except DecodeError:
            raise
        except (ValueError, msgpack.OutOfData, msgpack.StackError) as exc:
            raise DecodeError(f"undecodable data: {type(exc).__name__} {exc}"[:200]) from None

    def __len__(self) -> int:
        return self.count

    def pick(self, wanted: list[int], max_item_bytes: int) -> Iterator[tuple[int, Any]]:
        """(index, decoded outputs) of the calls `wanted` (indices below len),
        in order, one at a time: the caller holds one call's values at most."""
        view = memoryview(self.data)[self._start:]
        # Calls are stepped over with the decoder's own skip, which builds
        # nothing but buffers one call's bytes at most.
        u = msgpack.Unpacker(_View(view), read_size=1 << 16,
                             max_buffer_size=max(len(view), 1 << 16))
        todo = set(wanted)
        try:
            for i in range(max(todo, default=-1) + 1):
                start = u.tell()
                u.skip()
                if i in todo:
                    yield i, unpack_item(bytes(view[start:u.tell()]), max_item_bytes)
        except DecodeError:
            raise
        except (ValueError, msgpack.OutOfData, msgpack.StackError) as exc:
            raise DecodeError(f"undecodable data: {type(exc).__name__} {exc}"[:200]) from None


def pack(value: Any) -> bytes:
    """Encode a plain Python value (see module doc) as msgpack bytes."""
    return msgpack.packb(value, default=_default, strict_types=True, use_bin_type=True,
                         unicode_errors=STR_ERRORS)


def unpack(data: bytes) -> Any:
    """Decode bytes made by `pack`. Only plain data types can come out."""
    try:
        return msgpack.unpackb(
            data, ext_hook=_ext_hook, raw=False, strict_map_key=False, use_list=True,
            unicode_errors=STR_ERRORS,
        )
    except DecodeError:
        raise
    except Exception as exc:  # msgpack raises several unrelated types
        raise DecodeError(f"undecodable data: {exc}") from None


# ---------------------------------------------------------------- canonical form


def _float(x: float) -> dict[str, str]:
    return {"$float": float(x).hex()}


def _sort_key(c: Any) -> str:
    return json.dumps(c, sort_keys=True)


def canonical(value: Any, _depth: int = 0) -> Any:
    """The canonical observation of a value: a JSON-able tree.

    bool/None/str/int stay as they are (ints beyond 64 bits become {"$int"}),
    floats become {"$float": hex}, and containers are tagged so a tuple is not
    a list. Unknown objects are described by their type name and, when the
    type defines one, their repr.
    """
    if _depth > 200:
        return {"$object": "...", "repr": "nesting too deep"}
    d = _depth + 1
    if value is None or type(value) in (bool, str):  # a str subclass is not a str (below)
        return value
    if isinstance(value, int) and type(value) is int:
        if -(2**63) <= value < 2**63:
            return value
        return {"$int": str(value)}
    if isinstance(value, float) and type(value) is float:
        return _float(value)
    if type(value) is list:
        return [canonical(v, d) for v in value]
    if type(value) is tuple:
        return {"$tuple": [canonical(v, d) for v in value]}
    if type(value) is dict:
        return {"$dict": [[canonical(k, d), canonical(v, d)] for k, v in value.items()]}
    if type(value) in (set, frozenset):
        tag = "$set" if type(value) is set else "$frozenset"
        return {tag: sorted((canonical(v, d) for v in value), key=_sort_key)}
    if isinstance(value, (bytes, bytearray)):
        return {"$bytes" if type(value) is bytes else "$bytearray": bytes(value).hex()}
    np = _numpy()
    if np is not None and isinstance(value, np.ndarray) and type(value) is not np.ndarray:
        # A subclass is not the array type (it may compute, or answer, differently).
        return {"$object": type(value).__name__, "value": canonical(np.asarray(value), d)}
    if np is not None and isinstance(value, np.ndarray):
        if value.dtype.kind in "fc":
            flat = [canonical(complex(v) if value.dtype.kind == "c" else float(v))
                    for v in value.ravel().tolist()]
        elif value.dtype.kind in "biuSU":
            flat = [canonical(v) for v in value.ravel().tolist()]
        else:
            flat = [canonical(v, d) for v in value.ravel().tolist()]
        return {"$ndarray": {"dtype": value.dtype.str, "shape": list(value.shape),
                             "values": flat}}
    if np is not None and isinstance(value, np.generic):
        return {"$npscalar": {"dtype": value.dtype.str, "value": canonical(value.item(), d)}}
    if isinstance(value, complex) and type(value) is complex:
        return {"$complex": [value.real.hex(), value.imag.hex()]}
    if isinstance(value, BaseException):
        return {"$exception": type(value).__name__, "message": _safe_str(value)}
    # Subclasses of builtins (e.g. a namedtuple, a dict subclass) keep their type name.
    for base in (tuple, list, dict):
        if isinstance(value, base):
            inner = canonical(base(value), d)
            return {"$object": type(value).__name__, "value": inner}
    for scalar in (int, float, str):
        if isinstance(value, scalar):
            return {"$object": type(value).__name__, "value": canonical(scalar(value), d)}
    out: dict[str, Any] = {"$object": type(value).__name__}
    if type(value).__repr__ is not object.__repr__:
        out["repr"] = _safe_repr(value)
    return out


def _safe_str(value: Any) -> str:
    try:
        return str(value)
    except Exception as exc:  # a broken __str__ is itself an observation
        return f"<str() raised {type(exc).__name__}>"


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _safe_repr(value: Any) -> str:
    """The repr, without the memory address default reprs carry ("<generator
    object f at 0x7f...>"): where an object lives is no behaviour, and would
    make every recording of it differ."""
    try:
        return _ADDRESS.sub(" at 0x?", repr(value))
    except Exception as exc:
        return f"<repr() raised {type(exc).__name__}>"


def from_canonical(c: Any) -> Any:
    """Rebuild a Python value from its canonical form (data types only)."""
    if c is None or isinstance(c, (bool, int, str)):
        return c
    if isinstance(c, list):
        return [from_canonical(v) for v in c]
    if isinstance(c, dict):
        if "$float" in c:
            return float.fromhex(c["$float"])
        if "$int" in c:
            return int(c["$int"])
        if "$tuple" in c:
            return tuple(from_canonical(v) for v in c["$tuple"])
        if "$dict" in c:
            return {from_canonical(k): from_canonical(v) for k, v in c["$dict"]}
        if "$set" in c:
            return {from_canonical(v) for v in c["$set"]}
        if "$frozenset" in c:
            return frozenset(from_canonical(v) for v in c["$frozenset"])
        if "$bytes" in c:
            return bytes.fromhex(c["$bytes"])
        if "$ndarray" in c:
            import numpy as np

            a = c["$ndarray"]
            return np.array([from_canonical(v) for v in a["values"]],
                            dtype=np.dtype(a["dtype"])).reshape(a["shape"])
    raise ValueError(f"not a canonical data value: {str(c)[:80]}")


def digest(c: Any) -> str:
    """A short stable digest of a canonical tree."""
    text = json.dumps(c, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def describe(c: Any, limit: int = 120) -> str:
    """A short human-readable rendering of a canonical value, for diffs. It
    stops once `limit` characters are written: a value of millions of
    elements costs no more to describe than a short one."""
    out = _Budget(limit)
    with contextlib.suppress(_Full):
        _render(c, out)
    text = "".join(out.parts)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _Full(Exception):
    """The rendering has reached its limit."""


class _Budget:
    def __init__(self, limit: int) -> None:
        self.parts: list[str] = []
        self.left = limit + 1  # one more than fits shows that there was more

    def add(self, text: str) -> None:
        self.parts.append(text[: self.left])
        self.left -= len(text)
        if self.left <= 0:
            raise _Full


def _scalar(x: Any, out: _Budget) -> None:
    # A long string or bytes value is cut before its repr is made.
    if isinstance(x, (str, bytes)) and len(x) > out.left:
        out.add(repr(x[: max(out.left, 0) + 1]))
    else:
        out.add(repr(x))


def _each(values: Any, out: _Budget) -> None:
    for i, v in enumerate(values):
        if i:
            out.add(", ")
        _render(v, out)


def _render(c: Any, out: _Budget) -> None:
    if isinstance(c, dict):
        if "$float" in c:
            x = float.fromhex(c["$float"])
            if math.isnan(x) or math.isinf(x) or x == 0.0:
                out.add(repr(x) if not (x == 0.0 and math.copysign(1, x) < 0) else "-0.0")
                return
            out.add(repr(x))
            return
        if "$int" in c:
            out.add(str(c["$int"]))
            return
        if "$tuple" in c:
            out.add("(")
            _each(c["$tuple"], out)
            out.add(f"{',' if len(c['$tuple']) == 1 else ''})")
            return
        if "$dict" in c:
            out.add("{")
            for i, (k, v) in enumerate(c["$dict"]):
                out.add(", " if i else "")
                _render(k, out)
                out.add(": ")
                _render(v, out)
            out.add("}")
            return
        if "$set" in c or "$frozenset" in c:
            vals = c.get("$set", c.get("$frozenset"))
            if not vals:
                out.add("set()")
                return
            out.add("{")
            _each(vals, out)
            out.add("}")
            return
        if "$bytes" in c:
            # Two hex digits a byte: only what can be shown is converted.
            _scalar(bytes.fromhex(c["$bytes"][: 2 * out.left + 2]), out)
            return
        if "$ndarray" in c:
            a = c["$ndarray"]
            out.add(f"array(dtype={a['dtype']}, shape={tuple(a['shape'])}, [")
            _each(a["values"][:8], out)
            out.add(", ...])" if len(a["values"]) > 8 else "])")
            return
        if "$exception" in c:
            out.add(f"{c['$exception']}(")
            _scalar(c.get("message", ""), out)
            out.add(")")
            return
        if "$object" in c:
            out.add(f"<{c['$object']}")
            if c.get("repr"):
                out.add(" ")
                out.add(str(c["repr"]))
            elif "value" in c:
                inner = _Budget(out.left)
                with contextlib.suppress(_Full):
                    _render(c["value"], inner)
                text = "".join(inner.parts)
                if text:
                    out.add(" " + text)
            out.add(">")
            return
        # Any other mapping, as JSON writes it.
        out.add("{")
        for i, (k, v) in enumerate(c.items()):
            out.add(", " if i else "")
            out.add(json.dumps(k) if isinstance(k, str) else json.dumps(str(k)))
            out.add(": ")
            if isinstance(v, (dict, list)):
                _render(v, out)
            else:
                out.add(json.dumps(v) if not isinstance(v, str) or len(v) < out.left
                        else json.dumps(v[: out.left + 1]))
        out.add("}")
        return
    if isinstance(c, list):
        out.add("[")
        _each(c, out)
        out.add("]")
        return
    _scalar(c, out)


def _canonical_bytes(value: Any) -> bytes:
    """What the native digest cannot walk itself, as bytes: a numpy array of
    numbers by its dtype, shape and data (every NaN alike, the rest
    bit-exact, as in its canonical form), anything else by its canonical form."""
    np = _numpy()
    if np is not None and type(value) is np.ndarray and value.dtype.kind in "biufc":
        arr = np.ascontiguousarray(value)
        if arr.dtype.kind in "fc" and np.isnan(arr).any():
            arr = arr.copy()
            arr[np.isnan(arr)] = np.nan
        return b"A" + arr.dtype.str.encode() + repr(arr.shape).encode() + b"\0" + arr.tobytes()
    return b"C" + json.dumps(canonical(value), sort_keys=True).encode()


def timed_value(value: Any) -> Any:
    """A timed output as a worker returns it for a comparison with a tolerance:
    its canonical form, except that an exact numpy array of numbers goes as its
    bytes, {"$array": [dtype, shape, data]}. Turning every element into its
    canonical form inside the timed window cost about 1 us per element, which
    on an array-valued task was most of the measurement path; the bytes are
    already plain data (no code of the side runs when they are read), and the
    evaluator makes the canonical form (`from_timed`) only of the outputs it
    compares. A canonical form is never a dict with the key "$array", so no
    other value reads as one."""
    np = _numpy()
    if np is not None and type(value) is np.ndarray and value.dtype.kind in "biufc":
        return {"$array": [value.dtype.str, list(value.shape),
                           np.ascontiguousarray(value).tobytes()]}
    return canonical(value)


def from_timed(value: Any, max_values: int | None = None) -> Any:
    """The canonical form of a value made by `timed_value` (checked: a known
    numeric dtype, a shape that matches the bytes). With `max_values`, an
    array whose canonical form would hold more values (three an element: a
    tagged map, its key, its text) is over the cap: it came as bytes, but
    is compared in that form."""
    if type(value) is not dict or list(value) != ["$array"]:
        return value
    import numpy as np

    try:
        dtype, shape, data = value["$array"]
        # The type first: np.dtype builds structured dtypes from lists and tuples.
        dt = np.dtype(dtype) if type(dtype) is str else None
        ok = (dt is not None and dt.kind in "biufc" and type(data) is bytes
              and type(shape) is list and all(type(n) is int and n >= 0 for n in shape)
              and math.prod(shape) * dt.itemsize == len(data))
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise DecodeError("malformed array in a timed output")
    if max_values is not None and 3 * math.prod(shape) > max_values:
        raise ItemCapExceeded(f"an array of {math.prod(shape):,} elements is compared as "
                              f"{3 * math.prod(shape):,} values, more than {max_values:,}")
    return canonical(np.frombuffer(data, dtype=dt).reshape(shape))


def fast_digest(value: Any) -> str:
    """A digest that is equal for two values exactly when their canonical forms
    are: exact builtin types are walked by the native core (fast enough to run
    inside a timed window), anything else through `canonical`."""
    from . import _core

    return _core.plain_digest(value, _canonical_bytes).hex()
