"""The server's RFC 6902 diff (app/games/diff.py; DESIGN.md, Realtime: patches from one
version to the next): applied by an independent implementation (jsonpatch), it turns
the old view into exactly the new one, JSON types included."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.diff import make_patch

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from([1.0, 0.5])
    | st.text(alphabet="ab/~", max_size=3)
)
documents = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text(alphabet="ab/~", max_size=3), inner, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=500, deadline=None, database=None)
@given(st.dictionaries(st.text(max_size=3), documents, max_size=4), st.data())
def test_patch_applied_by_jsonpatch_gives_the_new_view_exactly(old: Any, data: Any) -> None:
    """For random pairs of documents (often close to each other), RFC 6902 application
    of make_patch(old, new) to old gives new, with identical JSON text (keys sorted:
    object members have no order)."""
    new = data.draw(
        st.one_of(
            st.just(copy.deepcopy(old)), st.dictionaries(st.text(max_size=3), documents, max_size=4)
        )
    )
    if data.draw(st.booleans()) and old:
        new = copy.deepcopy(old)
        key = data.draw(st.sampled_from(sorted(new)))
        new[key] = data.draw(documents)
    patched = jsonpatch.apply_patch(old, make_patch(old, new))
    assert json.dumps(patched, sort_keys=True) == json.dumps(new, sort_keys=True)


def test_equal_views_give_an_empty_patch_and_bool_is_not_int() -> None:
    """No change, no operation; `true` replacing `1` is a change (JSON types differ)."""
    view = {"a": [1, {"b": True}], "c": "x"}
    assert make_patch(view, copy.deepcopy(view)) == []
    assert make_patch({"a": [1], "b": 1}, {"a": [True], "b": 2}) == [
        {"op": "replace", "path": "/a/0", "value": True},
        {"op": "replace", "path": "/b", "value": 2},
    ]


def _share(old: Any, data: Any) -> Any:
    """A new document made from `old` the way consecutive views are: most subtrees kept
    as the very same objects, some copied, some replaced, list elements moved in and out."""
    how = data.draw(st.sampled_from(["same", "same", "copy", "walk", "new"]))
    if how == "same":
        return old
    if how == "copy":
        return copy.deepcopy(old)
    if how == "new" or not isinstance(old, dict | list):
        return data.draw(documents)
    if isinstance(old, dict):
        return {k: _share(v, data) for k, v in old.items() if data.draw(st.integers(0, 5))}
    items = [_share(v, data) for v in old]
    for _ in range(data.draw(st.integers(0, 2))):
        at = data.draw(st.integers(0, len(items)))
        items.insert(at, data.draw(st.sampled_from(old)) if old else data.draw(documents))
    if items and data.draw(st.booleans()):
        del items[data.draw(st.integers(0, len(items) - 1))]
    return items


@settings(max_examples=500, deadline=None, database=None)
@given(st.dictionaries(st.text(max_size=3), documents, max_size=4), st.data())
def test_patch_between_views_that_share_subtrees_gives_the_new_view_exactly(
    old: Any, data: Any
) -> None:
    """Views that hold some subtrees as the same objects (the engine shares its unit and
    action documents): identity skips those subtrees and matches list elements, and the
    patch still turns the old view into exactly the new one."""
    new = _share(old, data)
    before = json.dumps(old, sort_keys=True)
    patch = make_patch(old, new)
    assert json.dumps(old, sort_keys=True) == before, "make_patch changed the old view"
    patched = jsonpatch.apply_patch(old, patch)
    assert json.dumps(patched, sort_keys=True) == json.dumps(new, sort_keys=True)


def test_a_shared_list_of_actions_with_one_action_added_is_one_add() -> None:
    """The prompt's actions are shared objects: an action added in the middle of the list
    is one `add`, the others matched by identity."""
    actions = [{"kind": "place", "hex": f"H{i}"} for i in range(40)]
    new = [*actions[:20], {"kind": "done"}, *actions[20:]]
    new[5], new[30] = new[30], new[5]
    patch = make_patch({"actions": actions}, {"actions": new})
    assert json.loads(json.dumps(jsonpatch.apply_patch({"actions": actions}, patch))) == {
        "actions": new
    }
    assert len(patch) <= 5, patch
