"""Triskel windows that ask only the players able to answer (rules option `reactions: "holders"`).

Rulebook, Reminder on Triskel cards: "Triskel cards can be played only during the specific timing
indicated on the card. When the card is played, it is played in response to an action." At the
table a player who holds no card able to answer says nothing and play goes on; one who can may
pause. docs/rulings.md ("Who a Triskel window asks") records the choice: in this mode a window
asks only the seats holding a card that can legally answer now, and who was asked is hidden like
a hand; only the wait shows that someone could answer.
"""

from games.rules import InvalidCommand, pending, pending_for, redact, start_game, view_for

from .positions import Table, types

HOLDERS = {"reactions": "holders"}

GEIS_ISLAND = """
    moor    0,0  green 2  blue 1
    plains  1,0  blue 2
    valley  0,1  orange 1
    cove   -1,1  white 1
"""


def geis_table(orange_hand=("act_bard",), **hands):
    """Green holds New Clans; blue holds Geis; orange holds `orange_hand`; white holds nothing."""
    hands = {
        "green": ["act_new_clans"],
        "blue": ["act_geis", "act_druid"],
        "orange": list(orange_hand),
        "white": [],
        **hands,
    }
    return Table(
        GEIS_ISLAND, capital="plains", flock="clockwise", decline=False, hands=hands, options=HOLDERS
    )


def asked(table) -> list:
    return [d.seat for d in pending(table.state) if d.kind == "reaction"]


def test_only_the_holder_of_an_answering_card_is_asked():
    """Geis: "Triskel, when an opponent plays an Action card". Blue holds Geis and is asked;
    orange holds an Action card (the Bard) that cannot answer and is not asked, as at the table
    where orange would have nothing to say."""
    table = geis_table()
    events = table.play("green", "act_new_clans", territories=["moor", "moor"])
    assert "ClansPlaced" not in types(events)  # the window waits for blue
    assert asked(table) == ["blue"]
    assert [c["card"] for c in table.legal("blue") if c["type"] == "react"] == ["act_geis"]
    assert "nothing to decide" in table.refuse("orange", "decline")


def test_a_window_nobody_can_answer_does_not_open():
    """With no Geis in any hand, nobody can answer New Clans: the card resolves at once, with no
    window and nobody waited for (the strict mode would ask blue and orange, who hold Action
    cards)."""
    table = geis_table(blue=["act_druid"])
    events = table.play("green", "act_new_clans", territories=["moor", "moor"])
    assert "ClansPlaced" in types(events)
    assert not any(e.type == "ProcedureStarted" and e.payload["frame"]["kind"] == "window" for e in events)
    assert all(d.kind != "reaction" for d in pending(table.state))


def test_the_public_mode_still_asks_every_seat_that_could_answer_on_public_facts():
    """Games started without the option keep today's rule (docs/rulings.md): every opponent
    holding an Action card is asked about Geis."""
    table = Table(
        GEIS_ISLAND,
        capital="plains",
        flock="clockwise",
        decline=False,
        hands={"green": ["act_new_clans"], "blue": ["act_geis"], "orange": ["act_bard"], "white": []},
    )
    table.play("green", "act_new_clans", territories=["moor", "moor"])
    assert asked(table) == ["blue", "orange"]


def test_who_was_asked_reaches_nobody_else():
    """Blue was asked; orange, white, green and a spectator learn only that the table waits for
    possible Triskel reactions: no view, event or error names blue."""
    table = geis_table()
    events = table.play("green", "act_new_clans", territories=["moor", "moor"])
    for seat in ("green", "orange", "white", None):
        shown = view_for(table.state, seat)["pending"]
        assert shown == [
            {
                "seat": None,
                "kind": "reaction",
                "prompt": "Waiting for possible Triskel reactions: green has declared New Clans.",
                "context": {"trigger": "card_declared", "actor": "green"},
            }
        ]
        for event in events:
            assert "blue" not in str(redact(event, seat).payload)
    assert "blue" not in table.refuse("orange", "decline")
    own = view_for(table.state, "blue")["pending"]
    assert [d["seat"] for d in own] == ["blue", None]
    answered = table.do("blue", "decline")
    assert answered[0].type == "ReactionAnsweredPrivately"
    assert redact(answered[0], "white").payload == {"redacted": True}
    assert redact(answered[0], "blue").payload == {"seat": "blue", "play": None}
    assert "ClansPlaced" in types(answered)


def test_a_seat_sees_the_same_whether_another_was_asked_or_not():
    """In one game blue holds Geis and orange the Bard; in the other they hold the other's card.
    The first asks blue, the second orange. White's view, white's log and a spectator's view are
    the same in both: nothing shows who was asked."""
    games = []
    for blue, orange in ((["act_geis"], ["act_bard"]), (["act_bard"], ["act_geis"])):
        table = geis_table(orange_hand=orange, blue=blue)
        table.play("green", "act_new_clans", territories=["moor", "moor"])
        games.append(table)
    blue_asked, orange_asked = games
    assert asked(blue_asked) == ["blue"] and asked(orange_asked) == ["orange"]
    for seat in ("white", "green", None):
        assert view_for(blue_asked.state, seat) == view_for(orange_asked.state, seat)
        assert [redact(e, seat).to_json() for e in blue_asked.events] == [
            redact(e, seat).to_json() for e in orange_asked.events
        ]
    blue_asked.do("blue", "decline")
    orange_asked.do("orange", "decline")
    for seat in ("white", "green", None):
        assert [redact(e, seat).to_json() for e in blue_asked.events] == [
            redact(e, seat).to_json() for e in orange_asked.events
        ]


def test_the_window_closes_when_every_asked_seat_has_answered_and_plays_resolve():
    """Geis: "that card has no effect and is discarded": blue answers with Geis in a window where
    only blue was asked, and New Clans is cancelled."""
    table = geis_table()
    table.play("green", "act_new_clans", territories=["moor", "moor"])
    events = table.do("blue", "react", card="act_geis")
    assert "ClansPlaced" not in types(events)
    assert "act_new_clans" not in table.state.hands["green"]
    assert not pending_for(table.state, "white") or all(
        d["kind"] != "reaction" for d in view_for(table.state, "white")["pending"]
    )


def test_the_option_is_checked():
    """A game is started with a known reactions mode only."""
    try:
        start_game(["green", "blue"], seed="x", options={"reactions": "sometimes"})
    except InvalidCommand as error:
        assert "public or holders" in str(error)
    else:
        raise AssertionError("an unknown reactions mode was accepted")
