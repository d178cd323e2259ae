# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2021 Taneli Hukkinen
# Licensed to PSF under a Contributor Agreement.

from __future__ import annotations

from collections.abc import Iterable
import re
import string
from types import MappingProxyType
from typing import Any, BinaryIO, NamedTuple

from ._re import (
    RE_DATETIME,
    RE_LOCALTIME,
    RE_NUMBER,
    match_to_datetime,
    match_to_localtime,
    match_to_number,
)
from ._types import Key, ParseFloat, Pos

ASCII_CTRL = frozenset(chr(i) for i in range(32)) | frozenset(chr(127))

# Neither of these sets include quotation mark or backslash. They are
# currently handled as separate cases in the parser functions.
ILLEGAL_BASIC_STR_CHARS = ASCII_CTRL - frozenset("\t")
ILLEGAL_MULTILINE_BASIC_STR_CHARS = ASCII_CTRL - frozenset("\t\n")

ILLEGAL_LITERAL_STR_CHARS = ILLEGAL_BASIC_STR_CHARS
ILLEGAL_MULTILINE_LITERAL_STR_CHARS = ILLEGAL_MULTILINE_BASIC_STR_CHARS

ILLEGAL_COMMENT_CHARS = ILLEGAL_BASIC_STR_CHARS

TOML_WS = frozenset(" \t")
TOML_WS_AND_NEWLINE = TOML_WS | frozenset("\n")
BARE_KEY_CHARS = frozenset(string.ascii_letters + string.digits + "-_")
KEY_INITIAL_CHARS = BARE_KEY_CHARS | frozenset("\"'")
HEXDIGIT_CHARS = frozenset(string.hexdigits)

BASIC_STR_ESCAPE_REPLACEMENTS = MappingProxyType(
    {
        "\\b": "\u0008",  # backspace
        "\\t": "\u0009",  # tab
        "\\n": "\u000A",  # linefeed
        "\\f": "\u000C",  # form feed
        "\\r": "\u000D",  # carriage return
        '\\"': "\u0022",  # quote
        "\\\\": "\u005C",  # backslash
    }
)


# Precompiled scanners: each matches a run of characters in one pass
# instead of testing one character at a time.
_WS = re.compile(r"[ \t]*").match
_WS_NL = re.compile(r"[ \t\n]*").match
# A bare single-part key, then "=" (the common key/value pair).
_SIMPLE_KEY = re.compile(r"([A-Za-z0-9_-]+)[ \t]*=[ \t]*").match
# The run of a basic string's characters that need no attention.
_BASIC_RUN = re.compile(r'[^"\\\x00-\x08\x0a-\x1f\x7f]*').match
_ML_BASIC_RUN = re.compile(r'[^"\\\x00-\x08\x0b-\x1f\x7f]*').match
# A whole one-line basic string without escapes.
_PLAIN_BASIC = re.compile(r'"([^"\\\x00-\x08\x0a-\x1f\x7f]*)"').match
# A comment's legal characters (after "#").
_COMMENT_RUN = re.compile(r"[^\x00-\x08\x0a-\x1f\x7f]*").match
# A whole "key = value" statement whose key is bare and whose value is a
# scalar written on one line: group 1 the key, then one of 2 a basic string
# without escapes, 3 a literal string, 4 an integer, 5 a float, 6 a boolean,
# 7 a local time, 8 a date or date-time; then a comment and the end of the
# line (or of the document).
_TIME = r"(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]{1,6}[0-9]*)?"
_SCALAR = (
    r"(?:\"(?!\"\")([^\"\\\x00-\x08\x0a-\x1f\x7f]*)\""
    r"|'(?!'')([^'\x00-\x08\x0a-\x1f\x7f]*)'"
    r"|([+-]?(?:0|[1-9](?:_?[0-9])*)|0x[0-9A-Fa-f](?:_?[0-9A-Fa-f])*"
    r"|0o[0-7](?:_?[0-7])*|0b[01](?:_?[01])*)"
    r"|([+-]?(?:0|[1-9](?:_?[0-9])*)(?:\.[0-9](?:_?[0-9])*)?"
    r"(?:[eE][+-]?[0-9](?:_?[0-9])*)?|[+-]?(?:inf|nan))"
    r"|(true|false)"
    r"|(" + _TIME + r")"
    r"|([0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])"
    r"(?:[Tt ]" + _TIME + r"(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])?)?))"
)
_KV_LINE = re.compile(
    r"([A-Za-z0-9_-]+)[ \t]*=[ \t]*" + _SCALAR
    + r"[ \t]*(?:#[^\x00-\x08\x0a-\x1f\x7f]*)?(?:\n|\Z)"
).match
# An array's item that is such a scalar (groups shifted down by one: 1 basic
# string ... 7 date-time), then whitespace and "," or "]".
_ARRAY_ITEM = re.compile(_SCALAR + r"[ \t\n]*[,\]]").match
# Table headers whose key parts are all bare.
_HEADER_KEY = r"[ \t]*([A-Za-z0-9_-]+(?:[ \t]*\.[ \t]*[A-Za-z0-9_-]+)*)[ \t]*"
_BARE_HEADER = re.compile(r"\[" + _HEADER_KEY + r"\]").match
_BARE_AOT_HEADER = re.compile(r"\[\[" + _HEADER_KEY + r"\]\]").match
_DOT_SPLIT = re.compile(r"[ \t]*\.[ \t]*").split
# A bare key part and the whitespace after it.
_BARE_KEY_WS = re.compile(r"([A-Za-z0-9_-]+)[ \t]*").match
_DIGITS = frozenset("0123456789")
_DIGITS_SIGNS = frozenset("0123456789+-")
_RE_DATETIME_MATCH = RE_DATETIME.match
_RE_LOCALTIME_MATCH = RE_LOCALTIME.match
_RE_NUMBER_MATCH = RE_NUMBER.match


class TOMLDecodeError(ValueError):
    """An error raised if a document is not valid TOML."""


def load(__fp: BinaryIO, *, parse_float: ParseFloat = float) -> dict[str, Any]:
    """Parse TOML from a binary file object."""
    b = __fp.read()
    try:
        s = b.decode()
    except AttributeError:
        raise TypeError(
            "File must be opened in binary mode, e.g. use `open('foo.toml', 'rb')`"
        ) from None
    return loads(s, parse_float=parse_float)


def loads(__s: str, *, parse_float: ParseFloat = float) -> dict[str, Any]:  # noqa: C901
    """Parse TOML from a string."""

    # The spec allows converting "\r\n" to "\n", even in string
    # literals. Let's do so to simplify parsing.
    src = __s.replace("\r\n", "\n")
    pos = 0
    out = Output(NestedDict(), Flags())
    header: Key = ()
    # The table the current section's single-part keys go to.
    nest = out.data.dict
    parse_float = make_safe_parse_float(parse_float)
    flags = out.flags
    ws = _WS
    simple_key = _SIMPLE_KEY
    kv_line = _KV_LINE
    key_initial = KEY_INITIAL_CHARS
    bare_chars = BARE_KEY_CHARS
    end = len(src)

    # Parse one statement at a time
    # (typically means one line in TOML source)
    while True:
        # 1. Skip line leading whitespace
        if pos >= end:
            break
        char = src[pos]
        if char in TOML_WS:
            pos = ws(src, pos).end()
            if pos >= end:
                break
            char = src[pos]
        if char == "\n":
            pos += 1
            continue
        if char in bare_chars:
            # Fast path: a whole "key = scalar" statement in one match.
            m = kv_line(src, pos)
            if m is not None:
                kind = m.lastindex
                if kind == 2:
                    value = m.group(2)
                elif kind == 4:
                    value = int(m.group(4), 0)
                elif kind == 5:
                    value = parse_float(m.group(5))
                elif kind == 6:
                    value = m.group(6) == "true"
                elif kind == 3:
                    value = m.group(3)
                elif kind == 7:
                    value = match_to_localtime(_RE_LOCALTIME_MATCH(m.group(7)))
                else:
                    try:
                        value = match_to_datetime(_RE_DATETIME_MATCH(m.group(8)))
                    except ValueError:
                        # parsed again below, where it raises
                        value = nest
                key_stem = m.group(1)
                if value is not nest and key_stem not in nest:
                    nest[key_stem] = value
                    pos = m.end()
                    continue
        if char in key_initial:
            m = simple_key(src, pos)
            if m is not None:
                # A bare single-part key: its parent is the section's table,
                # which is never frozen (its header was checked).
                key_stem = m.group(1)
                pos, value = parse_value(src, m.end(), parse_float)
                if key_stem in nest:
                    raise suffixed_err(src, pos, "Cannot overwrite a value")
                if isinstance(value, (dict, list)):
                    flags.set(header + (key_stem,), Flags.FROZEN, recursive=True)
                nest[key_stem] = value
            else:
                pos = key_value_rule(src, pos, out, header, parse_float)
        elif char == "[":
            flags.finalize_pending()
            if src.startswith("[", pos + 1):
                pos, header, nest = create_list_rule(src, pos, out)
            else:
                pos, header, nest = create_dict_rule(src, pos, out)
        elif char != "#":
            raise suffixed_err(src, pos, "Invalid statement")

        if pos >= end:
            break
        char = src[pos]
        if char in TOML_WS:
            pos = ws(src, pos).end()
            if pos >= end:
                break
            char = src[pos]

        # 3. Skip comment
        if char == "#":
            pos = _COMMENT_RUN(src, pos + 1).end()
            if pos >= end:
                break
            char = src[pos]
            if char != "\n":
                raise suffixed_err(src, pos, f"Found invalid character {char!r}")

        # 4. Expect end of line or end of file
        if char != "\n":
            raise suffixed_err(
                src, pos, "Expected newline or end of document after a statement"
            )
        pos += 1

    return out.data.dict


class Flags:
    """Flags that map to parsed keys/namespaces."""

    # Marks an immutable namespace (inline array or inline table).
    FROZEN = 0
    # Marks a nest that has been explicitly created and can no longer
    # be opened using the "[table]" syntax.
    EXPLICIT_NEST = 1

    def __init__(self) -> None:
        self._flags: dict[str, dict] = {}
        self._pending_flags: set[tuple[Key, int]] = set()

    def add_pending(self, key: Key, flag: int) -> None:
        self._pending_flags.add((key, flag))

    def finalize_pending(self) -> None:
        for key, flag in self._pending_flags:
            self.set(key, flag, recursive=False)
        self._pending_flags.clear()

    def unset_all(self, key: Key) -> None:
        cont = self._flags
        for k in key[:-1]:
            if k not in cont:
                return
            cont = cont[k]["nested"]
        cont.pop(key[-1], None)

    def set(self, key: Key, flag: int, *, recursive: bool) -> None:  # noqa: A003
        cont = self._flags
        key_parent, key_stem = key[:-1], key[-1]
        for k in key_parent:
            if k not in cont:
                cont[k] = {"flags": set(), "recursive_flags": set(), "nested": {}}
            cont = cont[k]["nested"]
        if key_stem not in cont:
            cont[key_stem] = {"flags": set(), "recursive_flags": set(), "nested": {}}
        cont[key_stem]["recursive_flags" if recursive else "flags"].add(flag)

    def is_(self, key: Key, flag: int) -> bool:
        if not key:
            return False  # document root has no flags
        cont = self._flags
        for k in key[:-1]:
            if k not in cont:
                return False
            inner_cont = cont[k]
            if flag in inner_cont["recursive_flags"]:
                return True
            cont = inner_cont["nested"]
        key_stem = key[-1]
        if key_stem in cont:
            cont = cont[key_stem]
            return flag in cont["flags"] or flag in cont["recursive_flags"]
        return False


class NestedDict:
    def __init__(self) -> None:
        # The parsed content of the TOML document
        self.dict: dict[str, Any] = {}

    def get_or_create_nest(
        self,
        key: Key,
        *,
        access_lists: bool = True,
    ) -> dict:
        cont: Any = self.dict
        for k in key:
            if k not in cont:
                cont[k] = {}
            cont = cont[k]
            if access_lists and isinstance(cont, list):
                cont = cont[-1]
            if not isinstance(cont, dict):
                raise KeyError("There is no nest behind this key")
        return cont

    def append_nest_to_list(self, key: Key) -> dict:
        cont = self.get_or_create_nest(key[:-1])
        last_key = key[-1]
        if last_key in cont:
            list_ = cont[last_key]
            if not isinstance(list_, list):
                raise KeyError("An object other than list found behind this key")
            nest: dict = {}
            list_.append(nest)
        else:
            nest = {}
            cont[last_key] = [nest]
        return nest


class Output(NamedTuple):
    data: NestedDict
    flags: Flags


def skip_chars(src: str, pos: Pos, chars: Iterable[str]) -> Pos:
    try:
        while src[pos] in chars:
            pos += 1
    except IndexError:
        pass
    return pos


def skip_until(
    src: str,
    pos: Pos,
    expect: str,
    *,
    error_on: frozenset[str],
    error_on_eof: bool,
) -> Pos:
    try:
        new_pos = src.index(expect, pos)
    except ValueError:
        new_pos = len(src)
        if error_on_eof:
            raise suffixed_err(src, new_pos, f"Expected {expect!r}") from None

    if not error_on.isdisjoint(src[pos:new_pos]):
        while src[pos] not in error_on:
            pos += 1
        raise suffixed_err(src, pos, f"Found invalid character {src[pos]!r}")
    return new_pos


def skip_comment(src: str, pos: Pos) -> Pos:
    if src.startswith("#", pos):
        end = _COMMENT_RUN(src, pos + 1).end()
        if end < len(src) and src[end] != "\n":
            raise suffixed_err(src, end, f"Found invalid character {src[end]!r}")
        return end
    return pos


def skip_comments_and_array_ws(src: str, pos: Pos) -> Pos:
    while True:
        pos = _WS_NL(src, pos).end()
        if not src.startswith("#", pos):
            return pos
        pos = skip_comment(src, pos)


def create_dict_rule(src: str, pos: Pos, out: Output) -> tuple[Pos, Key, dict]:
    m = _BARE_HEADER(src, pos)
    if m is not None:
        text = m.group(1)
        key = tuple(_DOT_SPLIT(text)) if "." in text else (text,)
        pos = m.end() - 1
    else:
        pos += 1  # Skip "["
        pos = skip_chars(src, pos, TOML_WS)
        pos, key = parse_key(src, pos)

    flags = out.flags
    if flags.is_(key, Flags.EXPLICIT_NEST) or flags.is_(key, Flags.FROZEN):
        raise suffixed_err(src, pos, f"Cannot declare {key} twice")
    flags.set(key, Flags.EXPLICIT_NEST, recursive=False)
    try:
        nest = out.data.get_or_create_nest(key)
    except KeyError:
        raise suffixed_err(src, pos, "Cannot overwrite a value") from None

    if not src.startswith("]", pos):
        raise suffixed_err(src, pos, "Expected ']' at the end of a table declaration")
    return pos + 1, key, nest


def create_list_rule(src: str, pos: Pos, out: Output) -> tuple[Pos, Key, dict]:
    m = _BARE_AOT_HEADER(src, pos)
    if m is not None:
        text = m.group(1)
        key = tuple(_DOT_SPLIT(text)) if "." in text else (text,)
        pos = m.end() - 2
    else:
        pos += 2  # Skip "[["
        pos = skip_chars(src, pos, TOML_WS)
        pos, key = parse_key(src, pos)

    flags = out.flags
    if flags.is_(key, Flags.FROZEN):
        raise suffixed_err(src, pos, f"Cannot mutate immutable namespace {key}")
    # Free the namespace now that it points to another empty list item...
    flags.unset_all(key)
    # ...but this key precisely is still prohibited from table declaration
    flags.set(key, Flags.EXPLICIT_NEST, recursive=False)
    try:
        nest = out.data.append_nest_to_list(key)
    except KeyError:
        raise suffixed_err(src, pos, "Cannot overwrite a value") from None

    if not src.startswith("]]", pos):
        raise suffixed_err(src, pos, "Expected ']]' at the end of an array declaration")
    return pos + 2, key, nest


def key_value_rule(
    src: str, pos: Pos, out: Output, header: Key, parse_float: ParseFloat
) -> Pos:
    pos, key, value = parse_key_value_pair(src, pos, parse_float)
    key_parent, key_stem = key[:-1], key[-1]
    abs_key_parent = header + key_parent

    relative_path_cont_keys = (header + key[:i] for i in range(1, len(key)))
    for cont_key in relative_path_cont_keys:
        # Check that dotted key syntax does not redefine an existing table
        if out.flags.is_(cont_key, Flags.EXPLICIT_NEST):
            raise suffixed_err(src, pos, f"Cannot redefine namespace {cont_key}")
        # Containers in the relative path can't be opened with the table syntax or
        # dotted key/value syntax in following table sections.
        out.flags.add_pending(cont_key, Flags.EXPLICIT_NEST)

    if out.flags.is_(abs_key_parent, Flags.FROZEN):
        raise suffixed_err(
            src, pos, f"Cannot mutate immutable namespace {abs_key_parent}"
        )

    try:
        nest = out.data.get_or_create_nest(abs_key_parent)
    except KeyError:
        raise suffixed_err(src, pos, "Cannot overwrite a value") from None
    if key_stem in nest:
        raise suffixed_err(src, pos, "Cannot overwrite a value")
    # Mark inline table and array namespaces recursively immutable
    if isinstance(value, (dict, list)):
        out.flags.set(header + key, Flags.FROZEN, recursive=True)
    nest[key_stem] = value
    return pos


def parse_key_value_pair(
    src: str, pos: Pos, parse_float: ParseFloat
) -> tuple[Pos, Key, Any]:
    m = _SIMPLE_KEY(src, pos)
    if m is not None:
        pos, value = parse_value(src, m.end(), parse_float)
        return pos, (m.group(1),), value
    pos, key = parse_key(src, pos)
    if not src.startswith("=", pos):
        raise suffixed_err(src, pos, "Expected '=' after a key in a key/value pair")
    pos = _WS(src, pos + 1).end()
    pos, value = parse_value(src, pos, parse_float)
    return pos, key, value


def parse_key(src: str, pos: Pos) -> tuple[Pos, Key]:
    m = _BARE_KEY_WS(src, pos)
    if m is not None:
        key: Key = (m.group(1),)
        pos = m.end()
    else:
        pos, key_part = parse_key_part(src, pos)
        key = (key_part,)
        pos = skip_chars(src, pos, TOML_WS)
    while src.startswith(".", pos):
        pos = skip_chars(src, pos + 1, TOML_WS)
        m = _BARE_KEY_WS(src, pos)
        if m is not None:
            key += (m.group(1),)
            pos = m.end()
        else:
            pos, key_part = parse_key_part(src, pos)
            key += (key_part,)
            pos = skip_chars(src, pos, TOML_WS)
    return pos, key


def parse_key_part(src: str, pos: Pos) -> tuple[Pos, str]:
    try:
        char: str | None = src[pos]
    except IndexError:
        char = None
    if char == "'":
        return parse_literal_str(src, pos)
    if char == '"':
        return parse_one_line_basic_str(src, pos)
    raise suffixed_err(src, pos, "Invalid initial character for a key part")


def parse_one_line_basic_str(src: str, pos: Pos) -> tuple[Pos, str]:
    pos += 1
    return parse_basic_str(src, pos, multiline=False)


def parse_array(src: str, pos: Pos, parse_float: ParseFloat) -> tuple[Pos, list]:
    pos += 1
    array: list = []
    append = array.append
    item = _ARRAY_ITEM

    pos = skip_comments_and_array_ws(src, pos)
    if src.startswith("]", pos):
        return pos + 1, array
    while True:
        m = item(src, pos)
        if m is not None:
            # a scalar, then "," or "]" (no comment between)
            kind = m.lastindex
            if kind == 1:
                value = m.group(1)
            elif kind == 3:
                value = int(m.group(3), 0)
            elif kind == 4:
                value = parse_float(m.group(4))
            elif kind == 5:
                value = m.group(5) == "true"
            elif kind == 2:
                value = m.group(2)
            elif kind == 6:
                value = match_to_localtime(_RE_LOCALTIME_MATCH(m.group(6)))
            else:
                try:
                    value = match_to_datetime(_RE_DATETIME_MATCH(m.group(7)))
                except ValueError:
                    m = None  # parsed again below, where it raises
        if m is not None:
            append(value)
            pos = m.end()
            if src[pos - 1] == "]":
                return pos, array
        else:
            pos, val = parse_value(src, pos, parse_float)
            append(val)
            pos = skip_comments_and_array_ws(src, pos)

            c = src[pos : pos + 1]
            if c == "]":
                return pos + 1, array
            if c != ",":
                raise suffixed_err(src, pos, "Unclosed array")
            pos += 1

        pos = skip_comments_and_array_ws(src, pos)
        if src.startswith("]", pos):
            return pos + 1, array


def parse_inline_table(src: str, pos: Pos, parse_float: ParseFloat) -> tuple[Pos, dict]:
    pos += 1
    nested_dict = NestedDict()
    flags = Flags()

    pos = _WS(src, pos).end()
    if src.startswith("}", pos):
        return pos + 1, nested_dict.dict
    while True:
        pos, key, value = parse_key_value_pair(src, pos, parse_float)
        key_parent, key_stem = key[:-1], key[-1]
        if flags.is_(key, Flags.FROZEN):
            raise suffixed_err(src, pos, f"Cannot mutate immutable namespace {key}")
        try:
            nest = nested_dict.get_or_create_nest(key_parent, access_lists=False)
        except KeyError:
            raise suffixed_err(src, pos, "Cannot overwrite a value") from None
        if key_stem in nest:
            raise suffixed_err(src, pos, f"Duplicate inline table key {key_stem!r}")
        nest[key_stem] = value
        pos = _WS(src, pos).end()
        c = src[pos : pos + 1]
        if c == "}":
            return pos + 1, nested_dict.dict
        if c != ",":
            raise suffixed_err(src, pos, "Unclosed inline table")
        if isinstance(value, (dict, list)):
            flags.set(key, Flags.FROZEN, recursive=True)
        pos += 1
        pos = _WS(src, pos).end()


def parse_basic_str_escape(
    src: str, pos: Pos, *, multiline: bool = False
) -> tuple[Pos, str]:
    escape_id = src[pos : pos + 2]
    pos += 2
    if multiline and escape_id in {"\\ ", "\\\t", "\\\n"}:
        # Skip whitespace until next non-whitespace character or end of
        # the doc. Error if non-whitespace is found before newline.
        if escape_id != "\\\n":
            pos = skip_chars(src, pos, TOML_WS)
            try:
                char = src[pos]
            except IndexError:
                return pos, ""
            if char != "\n":
                raise suffixed_err(src, pos, "Unescaped '\\' in a string")
            pos += 1
        pos = skip_chars(src, pos, TOML_WS_AND_NEWLINE)
        return pos, ""
    if escape_id == "\\u":
        return parse_hex_char(src, pos, 4)
    if escape_id == "\\U":
        return parse_hex_char(src, pos, 8)
    try:
        return pos, BASIC_STR_ESCAPE_REPLACEMENTS[escape_id]
    except KeyError:
        raise suffixed_err(src, pos, "Unescaped '\\' in a string") from None


def parse_basic_str_escape_multiline(src: str, pos: Pos) -> tuple[Pos, str]:
    return parse_basic_str_escape(src, pos, multiline=True)


def parse_hex_char(src: str, pos: Pos, hex_len: int) -> tuple[Pos, str]:
    hex_str = src[pos : pos + hex_len]
    if len(hex_str) != hex_len or not HEXDIGIT_CHARS.issuperset(hex_str):
        raise suffixed_err(src, pos, "Invalid hex value")
    pos += hex_len
    hex_int = int(hex_str, 16)
    if not is_unicode_scalar_value(hex_int):
        raise suffixed_err(src, pos, "Escaped character is not a Unicode scalar value")
    return pos, chr(hex_int)


def parse_literal_str(src: str, pos: Pos) -> tuple[Pos, str]:
    pos += 1  # Skip starting apostrophe
    start_pos = pos
    pos = skip_until(
        src, pos, "'", error_on=ILLEGAL_LITERAL_STR_CHARS, error_on_eof=True
    )
    return pos + 1, src[start_pos:pos]  # Skip ending apostrophe


def parse_multiline_str(src: str, pos: Pos, *, literal: bool) -> tuple[Pos, str]:
    pos += 3
    if src.startswith("\n", pos):
        pos += 1

    if literal:
        delim = "'"
        end_pos = skip_until(
            src,
            pos,
            "'''",
            error_on=ILLEGAL_MULTILINE_LITERAL_STR_CHARS,
            error_on_eof=True,
        )
        result = src[pos:end_pos]
        pos = end_pos + 3
    else:
        delim = '"'
        pos, result = parse_basic_str(src, pos, multiline=True)

    # Add at maximum two extra apostrophes/quotes if the end sequence
    # is 4 or 5 chars long instead of just 3.
    if not src.startswith(delim, pos):
        return pos, result
    pos += 1
    if not src.startswith(delim, pos):
        return pos, result + delim
    pos += 1
    return pos, result + (delim * 2)


def parse_basic_str(src: str, pos: Pos, *, multiline: bool) -> tuple[Pos, str]:
    if multiline:
        run = _ML_BASIC_RUN
        parse_escapes = parse_basic_str_escape_multiline
    else:
        run = _BASIC_RUN
        parse_escapes = parse_basic_str_escape
    result = ""
    start_pos = pos
    while True:
        pos = run(src, pos).end()
        try:
            char = src[pos]
        except IndexError:
            raise suffixed_err(src, pos, "Unterminated string") from None
        if char == '"':
            if not multiline:
                return pos + 1, result + src[start_pos:pos]
            if src.startswith('"""', pos):
                return pos + 3, result + src[start_pos:pos]
            pos += 1
            continue
        if char == "\\":
            result += src[start_pos:pos]
            pos, parsed_escape = parse_escapes(src, pos)
            result += parsed_escape
            start_pos = pos
            continue
        raise suffixed_err(src, pos, f"Illegal character {char!r}")


def parse_value(  # noqa: C901
    src: str, pos: Pos, parse_float: ParseFloat
) -> tuple[Pos, Any]:
    try:
        char: str | None = src[pos]
    except IndexError:
        char = None

    # Basic strings
    if char == '"':
        if src.startswith('"""', pos):
            return parse_multiline_str(src, pos, literal=False)
        m = _PLAIN_BASIC(src, pos)
        if m is not None:
            return m.end(), m.group(1)
        return parse_basic_str(src, pos + 1, multiline=False)

    if char in _DIGITS_SIGNS:
        # Dates and times start with digits: "dddd-" or "dd:".
        if char in _DIGITS:
            if src.startswith("-", pos + 4):
                datetime_match = _RE_DATETIME_MATCH(src, pos)
                if datetime_match:
                    try:
                        datetime_obj = match_to_datetime(datetime_match)
                    except ValueError as e:
                        raise suffixed_err(src, pos, "Invalid date or datetime") from e
                    return datetime_match.end(), datetime_obj
            elif src.startswith(":", pos + 2):
                localtime_match = _RE_LOCALTIME_MATCH(src, pos)
                if localtime_match:
                    return localtime_match.end(), match_to_localtime(localtime_match)
        number_match = _RE_NUMBER_MATCH(src, pos)
        if number_match:
            if number_match.group("floatpart"):
                return number_match.end(), parse_float(number_match.group())
            return number_match.end(), int(number_match.group(), 0)
        first_four = src[pos : pos + 4]
        if first_four in {"-inf", "+inf", "-nan", "+nan"}:
            return pos + 4, parse_float(first_four)
        raise suffixed_err(src, pos, "Invalid value")

    # Literal strings
    if char == "'":
        if src.startswith("'''", pos):
            return parse_multiline_str(src, pos, literal=True)
        return parse_literal_str(src, pos)

    # Booleans
    if char == "t":
        if src.startswith("true", pos):
            return pos + 4, True
    elif char == "f":
        if src.startswith("false", pos):
            return pos + 5, False

    # Arrays
    elif char == "[":
        return parse_array(src, pos, parse_float)

    # Inline tables
    elif char == "{":
        return parse_inline_table(src, pos, parse_float)

    # Special floats
    first_three = src[pos : pos + 3]
    if first_three in {"inf", "nan"}:
        return pos + 3, parse_float(first_three)

    raise suffixed_err(src, pos, "Invalid value")


def suffixed_err(src: str, pos: Pos, msg: str) -> TOMLDecodeError:
    """Return a `TOMLDecodeError` where error message is suffixed with
    coordinates in source."""

    def coord_repr(src: str, pos: Pos) -> str:
        if pos >= len(src):
            return "end of document"
        line = src.count("\n", 0, pos) + 1
        if line == 1:
            column = pos + 1
        else:
            column = pos - src.rindex("\n", 0, pos)
        return f"line {line}, column {column}"

    return TOMLDecodeError(f"{msg} (at {coord_repr(src, pos)})")


def is_unicode_scalar_value(codepoint: int) -> bool:
    return (0 <= codepoint <= 55295) or (57344 <= codepoint <= 1114111)


def make_safe_parse_float(parse_float: ParseFloat) -> ParseFloat:
    """A decorator to make `parse_float` safe.

    `parse_float` must not return dicts or lists, because these types
    would be mixed with parsed TOML tables and arrays, thus confusing
    the parser. The returned decorated callable raises `ValueError`
    instead of returning illegal types.
    """
    # The default `float` callable never returns illegal types. Optimize it.
    if parse_float is float:  # type: ignore[comparison-overlap]
        return float

    def safe_parse_float(float_str: str) -> Any:
        float_value = parse_float(float_str)
        if isinstance(float_value, (dict, list)):
            raise ValueError("parse_float must not return dicts or lists")
        return float_value

    return safe_parse_float
