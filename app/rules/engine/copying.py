"""How the state is copied: `State.clone`, on every action, is code written from annotations.

`copier(T)` reads the dataclass `T` once and writes one Python function for it, and one for
each dataclass its fields hold, that copies a value field by field as its type says:

- what cannot change is shared, not copied: a `str`, `int`, `float`, `bool`, `None` or
  `Literal`; a NamedTuple or tuple of such values (`UnitKey`); a frozen dataclass whose
  fields are all such values (`Unit`, `TakeBack`: a change is a new one put in its place);
- a list or dict of such values is copied with `.copy()`; of anything else, item by item;
- a `Mapping` is read-only (mypy sees to it): shared, when what it holds is shared or
  JSON types (`object`), as a report's data (`Draft`) is;
- `X | None` is None or X copied; a dataclass is its constructor called with each field
  copied; `object` holds JSON types only (app/rules/engine/codec.py) and is copied as JSON.

So a clone shares no list, dict or record that can change with the state it came from,
and it is made without a pickle round trip (a mid-game Scenario One state: 101 us by
pickle, with every record reduced by a Python function, against 21-30 us). A type it
cannot copy (a set, a union of two classes, a frozen dataclass holding a list) is refused
when the copier is built, so a new field of such a type fails at the first clone, not in
the middle of a game. `tests/rules/engine/test_clone.py` checks that a clone shares nothing that
can change and equals the original, on states of every kind of game.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from app.rules.engine.codec import json_copy

T = TypeVar("T")

_SHARED = (str, int, float, bool, type(None))


class _Writer:
    """The source of the copy functions for one top dataclass and those it holds."""

    def __init__(self, names: tuple[tuple[str, type], ...]) -> None:
        self.names = dict(names)
        self.env: dict[str, Any] = {"_json": json_copy}
        self.functions: dict[type, str] = {}  # dataclass -> its copy function's name
        self.source: list[str] = []

    def expr(self, tp: Any, src: str, depth: int) -> str | None:
        """An expression copying the value `src` of type `tp`; None: it is shared."""
        if tp in _SHARED:
            return None
        if tp is object:
            return f"_json({src})"
        origin, args = get_origin(tp), get_args(tp)
        if origin is Literal:
            return None
        if origin in (Union, types.UnionType):
            others = [a for a in args if a is not type(None)]
            if len(others) != 1 or len(args) != 2:
                raise TypeError(f"no copy for the union {tp!r}: only `X | None`")
            v = f"_v{depth}"
            inner = self.expr(others[0], v, depth + 1)
            return None if inner is None else f"(None if ({v} := {src}) is None else {inner})"
        if origin is list:
            x = f"_x{depth}"
            inner = self.expr(args[0], x, depth + 1)
            return f"{src}.copy()" if inner is None else f"[{inner} for {x} in {src}]"
        if origin is Mapping:  # read-only: shared, with what it holds
            if self.expr(args[1], "_", depth + 1) not in (None, "_json(_)"):
                raise TypeError(f"no copy for {tp!r}: a Mapping holding what can change")
            return None
        if origin is dict:
            if self.expr(args[0], "_", depth + 1) is not None:
                raise TypeError(f"no copy for {tp!r}: a key that can change")
            k, x = f"_k{depth}", f"_x{depth}"
            inner = self.expr(args[1], x, depth + 1)
            if inner is None:
                return f"{src}.copy()"
            return f"{{{k}: {inner} for {k}, {x} in {src}.items()}}"
        if origin is tuple:
            items = args[:1] if len(args) == 2 and args[1] is Ellipsis else args
            if any(self.expr(a, "_", depth + 1) is not None for a in items):
                raise TypeError(f"no copy for {tp!r}: a tuple holding what can change")
            return None
        if isinstance(tp, type) and issubclass(tp, tuple) and hasattr(tp, "_fields"):
            hints = get_type_hints(tp, localns=self.names)
            if any(self.expr(hints[f], "_", depth + 1) is not None for f in tp._fields):
                raise TypeError(f"no copy for {tp.__name__}: a NamedTuple holding what can change")
            return None
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            name = self.dataclass(tp)
            return None if name is None else f"{name}({src})"
        raise TypeError(f"no copy for the type {tp!r}")

    def dataclass(self, cls: type) -> str | None:
        """The name of `cls`'s copy function, written on first use; None: it is shared."""
        if cls in self.functions:
            return self.functions[cls]
        hints = get_type_hints(cls, localns=self.names)
        fields = dataclasses.fields(cls)
        if not all(f.init for f in fields):
            raise TypeError(f"no copy for {cls.__name__}: a field __init__ does not take")
        frozen = cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
        if frozen:
            if any(self.expr(hints[f.name], "_", 1) is not None for f in fields):
                raise TypeError(f"no copy for {cls.__name__}: frozen, holding what can change")
            return None
        name = f"_copy_{cls.__name__}"
        self.functions[cls] = name
        self.env[cls.__name__] = cls
        args = []
        for f in fields:
            src = f"o.{f.name}"
            args.append(self.expr(hints[f.name], src, 0) or src)
        self.source.append(f"def {name}(o):\n    return {cls.__name__}({', '.join(args)})\n")
        return name


def copier(cls: type[T], names: tuple[tuple[str, type], ...] = ()) -> Callable[[T], T]:
    """The function that copies a value of the dataclass `cls`, sharing only what cannot
    change. `names` are classes the annotations name but their modules import only for
    type checking (an import cycle), as (name, class) pairs."""
    writer = _Writer(names)
    name = writer.dataclass(cls)
    if name is None:
        raise TypeError(f"{cls.__name__} cannot change: it needs no copy")
    exec(compile("\n".join(writer.source), f"<copy {cls.__name__}>", "exec"), writer.env)
    made: Callable[[T], T] = writer.env[name]
    return made
