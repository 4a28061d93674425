"""RFC 6902 JSON Patch between two views (DESIGN.md, Realtime).

`jsonpatch.make_patch` compares every subtree through `json.dumps` and costs several
milliseconds on a 17 kB view; this walks both documents once, skipping equal subtrees
with `==`, and emits the same kinds of operations (`add`, `remove`, `replace`). The
result applies with any RFC 6902 implementation (the tests apply it with `jsonpatch`).

Equal subtrees are found with Python's `==` (C speed), then confirmed node by node for
JSON types, since under `==` the values `1`, `1.0` and `true` are equal while as JSON
they are not. Both steps skip a subtree that both documents hold as one object, and the
engine shares its unit and action documents between views, so the cost is mostly that of
the parts built afresh.
"""

from __future__ import annotations

import difflib
from collections.abc import Hashable
from typing import Any

Op = dict[str, Any]


def pointer(path: str, key: str | int) -> str:
    return f"{path}/{str(key).replace('~', '~0').replace('/', '~1')}"


ARRAYS = (list, tuple)  # a tuple from the engine is a JSON array too


def same(a: Any, b: Any) -> bool:
    """Equal as JSON values (a bool is not a number, 1 is not 1.0)."""
    if a is b:  # a value shared by both views (the engine's unit views are)
        return True
    if type(a) is not type(b):
        if not (isinstance(a, ARRAYS) and isinstance(b, ARRAYS)) or list(a) != list(b):
            return False
    elif a != b:
        return False
    return not isinstance(a, dict | list | tuple) or _same_types(a, b)


def _same_types(a: Any, b: Any) -> bool:
    """Of two values equal under `==`: the same JSON type at every node (a walk that
    skips the subtrees both hold as one object, which the engine's shared documents
    make most of a view)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and all(_same_node(v, b[k]) for k, v in a.items())
    if isinstance(a, ARRAYS):
        return isinstance(b, ARRAYS) and all(map(_same_node, a, b))
    return type(a) is type(b)


CONTAINERS = frozenset({dict, list, tuple})


def _same_node(a: Any, b: Any) -> bool:
    if a is b:
        return True
    kind = type(a)
    if kind is type(b) and kind not in CONTAINERS:
        return True  # equal scalars of one type
    return _same_types(a, b)


def make_patch(old: Any, new: Any) -> list[Op]:
    """The operations that turn `old` into `new`."""
    ops: list[Op] = []
    _diff(old, new, "", ops)
    return ops


def _diff(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        _diff_dicts(old, new, path, ops)
    elif isinstance(old, ARRAYS) and isinstance(new, ARRAYS):
        _diff_lists(old, new, path, ops)
    elif not same(old, new):
        ops.append({"op": "replace", "path": path, "value": new})


def _diff_dicts(old: dict[str, Any], new: dict[str, Any], path: str, ops: list[Op]) -> None:
    for key in old:
        if key not in new:
            ops.append({"op": "remove", "path": pointer(path, key)})
    for key, value in new.items():
        if key not in old:
            ops.append({"op": "add", "path": pointer(path, key), "value": value})
        elif not same(old[key], value):
            _diff(old[key], value, pointer(path, key), ops)


def _diff_lists(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    """Keep the common head and tail; match the middles with difflib (a unit that moves
    from one list position to another is one remove and one add, not a cascade of
    replacements), and patch each changed block in place."""
    shortest = min(len(old), len(new))
    head = 0
    while head < shortest and same(old[head], new[head]):
        head += 1
    tail = 0
    while tail < shortest - head and same(old[-1 - tail], new[-1 - tail]):
        tail += 1
    old_mid, new_mid = old[head : len(old) - tail], new[head : len(new) - tail]
    if len(old_mid) <= 1 or len(new_mid) <= 1:
        _replace_block(old_mid, new_mid, path, head, ops)
        return
    matcher = difflib.SequenceMatcher(
        None, [_key(x) for x in old_mid], [_key(x) for x in new_mid], autojunk=False
    )
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":  # the list now reads new[:head + j1] + old_mid[i1:] + tail
            _replace_block(old_mid[i1:i2], new_mid[j1:j2], path, head + j1, ops)


def _key(value: Any) -> Hashable:
    """What the list matcher compares: a scalar by its JSON type and value; a container
    by identity (both lists are alive, so one id is one object). Equal containers that
    are distinct objects then do not match, which only makes the patch longer: the
    elements left unmatched are diffed pairwise. The engine shares its unit and action
    documents between views, so the long lists (the prompt's actions) match well."""
    if isinstance(value, dict | list | tuple):
        return id(value)
    return type(value).__name__, value


def _replace_block(olds: Any, news: Any, path: str, at: int, ops: list[Op]) -> None:
    """Turn the elements `olds` at index `at` into `news`: pairwise diffs, then removes
    of the old surplus or adds of the new."""
    common = min(len(olds), len(news))
    for i in range(common):
        _diff(olds[i], news[i], pointer(path, at + i), ops)
    for _ in range(len(olds) - common):
        ops.append({"op": "remove", "path": pointer(path, at + common)})
    for j in range(common, len(news)):
        ops.append({"op": "add", "path": pointer(path, at + j), "value": news[j]})
