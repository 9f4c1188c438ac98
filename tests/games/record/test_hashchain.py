"""games.record.hashchain: the canonical serialisation and the chained, salted hashes."""
from __future__ import annotations

import json

from hypothesis import given, strategies as st

from games.record.hashchain import canonical_json, event_hash, event_salt, normalise

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=20,
)
payloads = st.dictionaries(st.text(max_size=5), json_values, max_size=5)


@given(payloads)
def test_canonical_json_ignores_key_order_and_round_trips(payload):
    shuffled = dict(reversed(list(payload.items())))
    assert canonical_json(payload) == canonical_json(shuffled)
    assert json.loads(canonical_json(payload)) == payload
    assert normalise(payload) == payload


@given(payloads, payloads)
def test_any_change_of_payload_changes_the_hash(one, two):
    def digest(payload):
        return event_hash("0" * 64, seq=3, type="T", version=1, payload=payload, visibility=None)

    assert (digest(one) == digest(two)) == (canonical_json(one) == canonical_json(two))


def test_each_field_and_the_previous_hash_count():
    base = dict(seq=3, type="T", version=1, payload={"a": 1}, visibility=None)
    reference = event_hash("a" * 64, **base)
    assert event_hash("b" * 64, **base) != reference
    for field, value in [("seq", 4), ("type", "U"), ("version", 2), ("payload", {"a": 2}), ("visibility", [])]:
        assert event_hash("a" * 64, **{**base, field: value}) != reference


def test_private_events_are_salted_with_the_seed_public_ones_are_not():
    assert event_salt("seed", 5, None) == ""
    salt = event_salt("seed", 5, ["green"])
    assert len(salt) == 64
    assert salt != event_salt("seed", 6, ["green"]) != event_salt("other", 5, ["green"])
    assert event_salt("seed", 5, []) == salt  # who may see it does not matter, only that it is private
