"""A typed codec between the game state's classes and JSON types, driven by annotations.

`codec(T)` reads the type `T` once and builds the two functions that turn a value of it
into JSON types (dicts with string keys, lists, strings, numbers, booleans, None) and
back, exact inverses:

- a dataclass is an object of its fields (every field, by name: no defaults assumed);
- a NamedTuple, a tuple and a list are arrays (a fixed tuple and a NamedTuple keep
  their length, and come back as tuples);
- a dict (or a read-only `Mapping`) with string keys (`str` or a `Literal` of strings)
  is an object, kept in its order; a dict with any other key (`UnitKey`) is an array of
  `[key, value]` pairs;
- `X | None` is X or null; a `Literal` is its value; `object` holds JSON types only
  (what the state keeps there: victory points, a pending combat's event data).

Ints are JSON numbers at any size (Python's json reads them back exactly: the dice
generator's 64-bit state and the 128-bit seed). Decoding checks every value against
its type and raises `CodecError` naming where it failed; a type the codec cannot map
(a set, an enum, a union of two classes) is refused when its codec is built, so a
new field of such a type fails at import, not in the middle of a game.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Mapping
from functools import cache
from operator import attrgetter
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

Encode = Callable[[Any], Any]
Decode = Callable[[Any], Any]


class CodecError(ValueError):
    """A document that is not a value of the type: `where` is the path to the fault."""

    def __init__(self, reason: str, where: tuple[str, ...] = ()) -> None:
        super().__init__(f"{'.'.join(where) or '(top)'}: {reason}")
        self.reason = reason
        self.where = where

    def inside(self, key: object) -> CodecError:
        return CodecError(self.reason, (str(key), *self.where))


@dataclasses.dataclass(frozen=True)
class Codec:
    encode: Encode
    decode: Decode
    plain: bool = False  # encode is the identity (a str, an int, ...): callers skip it


def _same(value: Any) -> Any:
    return value


def _checked(kind: type | tuple[type, ...], name: str) -> Decode:
    def decode(value: Any) -> Any:
        if type(value) not in (kind if isinstance(kind, tuple) else (kind,)):
            raise CodecError(f"expected {name}, got {type(value).__name__}")
        return value

    return decode


# Exact types: a bool is not an int here, though Python says it is.
_SCALARS: dict[Any, Codec] = {
    str: Codec(_same, _checked(str, "a string"), plain=True),
    int: Codec(_same, _checked(int, "an integer"), plain=True),
    float: Codec(_same, _checked((float, int), "a number"), plain=True),
    bool: Codec(_same, _checked(bool, "a boolean"), plain=True),
    type(None): Codec(_same, _checked(type(None), "null"), plain=True),
}


@cache
def codec(tp: Any, names: tuple[tuple[str, type], ...] = ()) -> Codec:
    """The codec of `tp`. `names` are classes the annotations name but their modules
    import only for type checking (an import cycle), as (name, class) pairs."""
    if tp in _SCALARS:
        return _SCALARS[tp]
    if tp is object:
        return Codec(json_copy, json_copy)
    origin, args = get_origin(tp), get_args(tp)
    if origin is Literal:
        return _literal(args)
    if origin in (Union, types.UnionType):
        return _optional(tp, args, names)
    if origin is list:
        return _list(codec(args[0], names))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _variadic_tuple(codec(args[0], names))
        return _fixed_tuple(tuple(codec(a, names) for a in args))
    if origin in (dict, Mapping):  # a Mapping (read-only in the state) is a dict in JSON
        return _dict(codec(args[0], names), codec(args[1], names), _string_keys(args[0]))
    if isinstance(tp, type) and issubclass(tp, tuple) and hasattr(tp, "_fields"):
        return _named_tuple(tp, names)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass(tp, names)
    raise TypeError(f"no JSON codec for the type {tp!r}")


def _string_keys(tp: Any) -> bool:
    if tp is str:
        return True
    return get_origin(tp) is Literal and all(type(a) is str for a in get_args(tp))


def json_copy(value: Any) -> Any:
    """A copy of a value made of JSON types only (else CodecError)."""
    kind = type(value)
    if kind in (str, int, float, bool) or value is None:
        return value
    if kind is list:
        out = []
        for i, v in enumerate(value):
            try:
                out.append(json_copy(v))
            except CodecError as exc:
                raise exc.inside(i) from None
        return out
    if kind is dict:
        copy = {}
        for k, v in value.items():
            if type(k) is not str:
                raise CodecError(f"a key {type(k).__name__} in a JSON object")
            try:
                copy[k] = json_copy(v)
            except CodecError as exc:
                raise exc.inside(k) from None
        return copy
    raise CodecError(f"expected JSON types, got {kind.__name__}")


def _literal(values: tuple[Any, ...]) -> Codec:
    allowed = frozenset(values)

    def decode(value: Any) -> Any:
        if type(value) not in (str, int, bool) or value not in allowed:
            raise CodecError(f"expected one of {sorted(map(repr, allowed))}, got {value!r}")
        return value

    return Codec(_same, decode, plain=True)


def _optional(tp: Any, args: tuple[Any, ...], names: tuple[tuple[str, type], ...]) -> Codec:
    others = [a for a in args if a is not type(None)]
    if len(others) != 1 or len(args) != 2:
        raise TypeError(f"no JSON codec for the union {tp!r}: only `X | None`")
    inner = codec(others[0], names)

    def encode(value: Any) -> Any:
        return None if value is None else inner.encode(value)

    def decode(value: Any) -> Any:
        return None if value is None else inner.decode(value)

    return Codec(encode, decode, plain=inner.plain)


def _array(value: Any) -> list[Any]:
    if type(value) is not list:
        raise CodecError(f"expected an array, got {type(value).__name__}")
    return value


def _items(item: Codec, value: Any) -> list[Any]:
    out = []
    for i, v in enumerate(_array(value)):
        try:
            out.append(item.decode(v))
        except CodecError as exc:
            raise exc.inside(i) from None
    return out


def _list(item: Codec) -> Codec:
    if item.plain:
        return Codec(list, lambda value: _items(item, value))
    return Codec(lambda value: [item.encode(v) for v in value], lambda value: _items(item, value))


def _variadic_tuple(item: Codec) -> Codec:
    if item.plain:
        return Codec(list, lambda value: tuple(_items(item, value)))
    return Codec(
        lambda value: [item.encode(v) for v in value], lambda value: tuple(_items(item, value))
    )


def _positional(items: tuple[Codec, ...], value: Any) -> list[Any]:
    array = _array(value)
    if len(array) != len(items):
        raise CodecError(f"expected {len(items)} items, got {len(array)}")
    out = []
    for i, (item, v) in enumerate(zip(items, array, strict=True)):
        try:
            out.append(item.decode(v))
        except CodecError as exc:
            raise exc.inside(i) from None
    return out


def _fixed_tuple(items: tuple[Codec, ...]) -> Codec:
    def encode(value: Any) -> Any:
        return [item.encode(v) for item, v in zip(items, value, strict=True)]

    return Codec(
        list if all(i.plain for i in items) else encode,
        lambda value: tuple(_positional(items, value)),
    )


def _named_tuple(cls: type, names: tuple[tuple[str, type], ...]) -> Codec:
    hints = get_type_hints(cls, localns=dict(names))
    items = tuple(codec(hints[f], names) for f in cls._fields)  # type: ignore[attr-defined]

    def encode(value: Any) -> Any:
        return [item.encode(v) for item, v in zip(items, value, strict=True)]

    return Codec(
        list if all(i.plain for i in items) else encode,
        lambda value: cls(*_positional(items, value)),
    )


def _dict(key: Codec, value: Codec, string_keys: bool) -> Codec:
    if string_keys:
        return _object(key, value)

    def encode(d: Any) -> Any:
        return [[key.encode(k), value.encode(v)] for k, v in d.items()]

    def decode(pairs: Any) -> Any:
        out = {}
        for i, pair in enumerate(_array(pairs)):
            try:
                k, v = _positional((key, value), pair)
            except CodecError as exc:
                raise exc.inside(i) from None
            if k in out:
                raise CodecError(f"the key {k!r} twice", (str(i),))
            out[k] = v
        return out

    return Codec(encode, decode)


def _object(key: Codec, value: Codec) -> Codec:
    def decode(d: Any) -> Any:
        if type(d) is not dict:
            raise CodecError(f"expected an object, got {type(d).__name__}")
        out = {}
        for k, v in d.items():
            try:
                out[key.decode(k)] = value.decode(v)
            except CodecError as exc:
                raise exc.inside(k) from None
        return out

    if value.plain:
        return Codec(dict, decode)
    encode = value.encode
    return Codec(lambda d: {k: encode(v) for k, v in d.items()}, decode)


def _dataclass(cls: type, names: tuple[tuple[str, type], ...]) -> Codec:
    hints = get_type_hints(cls, localns=dict(names))
    fields = tuple((f.name, codec(hints[f.name], names)) for f in dataclasses.fields(cls))
    order = tuple(name for name, _ in fields)
    expected = frozenset(order)
    values = attrgetter(*order) if len(order) > 1 else lambda v: (getattr(v, order[0]),)
    coded = tuple((i, c.encode) for i, (_, c) in enumerate(fields) if not c.plain)

    def encode(value: Any) -> Any:
        got = list(values(value))
        for i, enc in coded:
            got[i] = enc(got[i])
        return dict(zip(order, got, strict=True))

    def decode(d: Any) -> Any:
        if type(d) is not dict:
            raise CodecError(f"expected an object of {cls.__name__}, got {type(d).__name__}")
        if d.keys() != expected:
            missing, extra = sorted(expected - d.keys()), sorted(d.keys() - expected)
            raise CodecError(f"{cls.__name__} fields: missing {missing}, unknown {extra}")
        kwargs = {}
        for name, c in fields:
            try:
                kwargs[name] = c.decode(d[name])
            except CodecError as exc:
                raise exc.inside(name) from None
        return cls(**kwargs)

    return Codec(encode, decode)
