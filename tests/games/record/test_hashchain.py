"""games.record.hashchain: the canonical serialisation and the chained, salted hashes."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from games.record.hashchain import canonical_json, event_hash, event_salt, normalise

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
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
    for field, value in [
        ("seq", 4),
        ("type", "U"),
        ("version", 2),
        ("payload", {"a": 2}),
        ("visibility", []),
    ]:
        assert event_hash("a" * 64, **{**base, field: value}) != reference


def test_private_events_are_salted_with_the_seed_public_ones_are_not():
    assert event_salt("seed", 5, None) == ""
    salt = event_salt("seed", 5, ["green"])
    assert len(salt) == 64
    assert salt != event_salt("seed", 6, ["green"]) != event_salt("other", 5, ["green"])
    assert event_salt("seed", 5, []) == salt  # who may see it does not matter, only that it is private


# -- version 2: every link checkable from what anybody is shown --------------------------------

from itertools import combinations  # noqa: E402

from games import rules  # noqa: E402
from games.record.hashchain import chained_hash, hidden_digest, hide, link_hash, public_part  # noqa: E402


def test_a_public_event_hashes_the_same_in_both_versions():
    event = dict(seq=3, type="GameStarted", version=1, payload={"seats": ["green", "blue"]}, visibility=None)
    assert (
        chained_hash("a" * 64, chain_version=2, seed="s", **event)
        == chained_hash("a" * 64, chain_version=1, seed="s", **event)
        == event_hash("a" * 64, **event)
    )


def test_a_private_link_is_its_public_part_and_hidden_digest():
    payload = {"seat": "blue", "block": 1, "cards": ["act_bard", "act_geis"]}
    hidden = hide("seed", seq=9, type="ActionCardsDealt", version=1, payload=payload, visibility=["blue"])
    assert hidden.public == {"seat": "blue", "block": 1, "count": 2, "redacted": True}
    assert hidden.public == rules.redact(rules.Event("ActionCardsDealt", payload, ("blue",)), None).payload
    assert hidden.salt == event_salt("seed", 9, ["blue"])
    assert hidden.digest == hidden_digest(hidden.salt, payload=payload, visibility=["blue"])
    link = chained_hash(
        "a" * 64,
        chain_version=2,
        seed="seed",
        seq=9,
        type="ActionCardsDealt",
        version=1,
        payload=payload,
        visibility=["blue"],
    )
    assert link == link_hash(
        "a" * 64, seq=9, type="ActionCardsDealt", version=1, public=hidden.public, hidden_digest=hidden.digest
    )
    # The hidden part counts: another card, or another reader, is another link.
    for other_payload, other_visibility in (
        ({**payload, "cards": ["act_bard", "act_druid"]}, ["blue"]),
        (payload, ["green"]),
    ):
        assert (
            chained_hash(
                "a" * 64,
                chain_version=2,
                seed="seed",
                seq=9,
                type="ActionCardsDealt",
                version=1,
                payload=other_payload,
                visibility=other_visibility,
            )
            != link
        )


def test_who_may_read_an_event_is_hidden_in_its_digest_not_shown_in_its_public_part():
    """Who answered a Triskel window privately shows who was asked (docs/rulings.md)."""
    assert public_part(
        type="ReactionAnsweredPrivately", version=1, payload={"seat": "white", "play": None}
    ) == {"redacted": True}


def test_a_hand_cannot_be_found_from_its_digest_without_the_salt():
    """Every hand of four Action cards tried against the digest: none matches without the salt
    (unsalted, or salted with a guess), exactly the right one with it."""
    actions = sorted(c for c, card in rules.CARDS.items() if card.type == "action")
    hand = ["act_bard", "act_druid", "act_festival", "act_geis"]
    salt = event_salt("a secret seed of 192 bits", 9, ["blue"])
    digest = hidden_digest(salt, payload={"seat": "blue", "block": 1, "cards": hand}, visibility=["blue"])

    def matches(key: str) -> list:
        return [
            list(c)
            for c in combinations(actions, 4)
            if hidden_digest(key, payload={"seat": "blue", "block": 1, "cards": list(c)}, visibility=["blue"])
            == digest
        ]

    assert len(list(combinations(actions, 4))) > 2000
    assert matches("") == [] and matches(event_salt("a guessed seed", 9, ["blue"])) == []
    assert matches(salt) == [hand]


# The version-2 hashes of sample events, pinned: a change to what a spectator is shown of a
# private event (rules.redact) changes them, which needs a new chain version (games.record.hashchain).
PINNED = [
    (
        "ActionCardsDealt",
        {"seat": "blue", "block": 1, "cards": ["act_bard", "act_druid", "act_geis", "act_festival"]},
        ["blue"],
        "a0ca2aba56f8c84f177f15b9333fea404d7ef1d73329ce0398a0ad038b7ad84e",
    ),
    (
        "ReactionAnsweredPrivately",
        {"seat": "white", "play": None},
        ["white"],
        "01f0167078b883cf57a55b32c37a36574455db1b15be6ddd176de22f1e701479",
    ),
    (
        "CardDiscarded",
        {"seat": "green", "card": "ep_eriu", "from_hand": True, "cause": "x"},
        ["green"],
        "5010bf7eabb7d579b959c3bd8616d54b0200bccb4ddab00a8f75f6c59a11239b",
    ),
    (
        "GameStarted",
        {"seats": ["green", "blue"], "setup": "random"},
        None,
        "2d5e6a36ce4dd67feb35a8433c62112d124897571e0c36ceb93b98cb8608c3bc",
    ),
]


def test_version_2_hashes_are_pinned():
    for kind, payload, visibility, expected in PINNED:
        assert (
            chained_hash(
                "0" * 64,
                chain_version=2,
                seed="pinned-seed",
                seq=7,
                type=kind,
                version=1,
                payload=payload,
                visibility=visibility,
            )
            == expected
        ), kind
