"""Cards answering cards: the interactions issue 4 asks for.

Geis against Lug Samildanach (ruling U8), The Dagda against an Epic Tale maneuver, Lug's Spear
against Battle Frenzy and the maneuver Epic Tales, Hills against Iron Mine, Diarmuid and Gráinne
against an attack and Balor's Eye, the Mountains toll on a Withdraw, the Gates on the Assembly
toss and on The Morrigan's flip, Oengus's Ploy against the end of the Season. Card texts:
docs/cards.md; rulings: docs/rulings.md.
"""

from .positions import Table, first, types
from .triskel_positions import (
    asked,
    by_seed,
    decline,
    offered,
    react,
    reactions,
    settle,
    skip_to,
    trigger,
    warlord_clash,
)

THREE = ("green", "blue", "orange")

CLASH = """
    moor       0,0   green 3  blue 2  citadels 1
    mountains  1,0   green 2
    plains     0,1   blue 2  orange 1
    cove       -1,1  orange 1
"""


def warlord(hands, island=CLASH, **position):
    """Green has just played Warlord in the Moor (windows still open)."""
    return warlord_clash(island, hands, capital="cove", **position)


def windows_opened(events, wanted: str) -> list:
    """The contexts of the `wanted` windows that `events` opened."""
    return [
        e.payload["frame"]["context"]
        for e in events
        if e.type == "ProcedureStarted"
        and e.payload["frame"]["kind"] == "window"
        and e.payload["frame"]["trigger"] == wanted
    ]


def test_geis_cancels_a_card_so_lug_samildanach_cannot_take_it():
    """Ruling U8: "A Geis-cancelled card is never 'resolved', so Lug Samildanach cannot take
    it." Geis: "that card has no effect and is discarded"; Lug Samildanach answers "after an
    Action card (anyone's) has been resolved" — here only Geis itself was resolved."""
    table = Table(
        CLASH,
        seats=THREE,
        capital="cove",
        decline=False,
        hands={"green": ["act_new_clans"], "blue": ["act_geis"], "orange": ["ep_lug_samildanach"]},
    )
    table.play("green", "act_new_clans", territories=["mountains", "mountains"])
    assert trigger(table) == "card_declared" and asked(table) == ["blue"]
    react(table, "blue", "act_geis")
    # The only action_resolved window is Geis's: Lug Samildanach may take Geis, not New Clans.
    assert trigger(table) == "action_resolved"
    assert table.state.top()["context"]["card"] == "act_geis"
    assert offered(table, "orange", "ep_lug_samildanach")
    react(table, "orange", "ep_lug_samildanach")
    settle(table)
    assert [c["card"] for c in windows_opened(table.events, "action_resolved")] == ["act_geis"]
    assert table.clans("mountains") == {"green": 2}  # New Clans had no effect
    assert "act_new_clans" in table.state.action_discard
    assert "act_new_clans" not in table.hand("orange")
    assert "act_geis" in table.hand("orange")


def test_the_dagda_cancels_an_epic_tale_maneuver():
    """The Dagda ("When any player plays an Epic Tale card ... That card's effect is ignored")
    against Ogma's Eloquence ("The clash ends immediately"): the clash goes on. Ruling: the
    cancelled Epic Tale was still the player's maneuver, so the next player maneuvers."""
    table = warlord(
        {"green": ["ep_ogmas_eloquence"], "blue": ["ep_the_dagda", "act_bard"]},
        epic_deck=["ep_eriu"],
        epic_discard=[],
    )
    settle(table)
    table.do("blue", "citadel")
    settle(table)
    table.do("green", "play", card="ep_ogmas_eloquence")
    assert trigger(table) == "card_declared" and asked(table) == ["blue"]
    assert offered(table, "blue", "ep_the_dagda")
    events = react(table, "blue", "ep_the_dagda") + settle(table)
    assert first(events, "CardCancelled").payload["card"] == "ep_ogmas_eloquence"
    assert "ClashEnded" not in types(events)
    assert table.clash() is not None
    assert table.awaiting() == {"blue": "maneuver"}
    assert sorted(table.state.epic_deck) == ["ep_eriu", "ep_ogmas_eloquence", "ep_the_dagda"]


def test_lugs_spear_forbids_battle_frenzy_and_the_maneuver_epic_tales():
    """Lug's Spear: "No one, including you, may play Triskel cards during this clash. That
    includes the Epic Tale maneuvers, which are Triskel cards." No window opens at the end of
    the Citadels step (Battle Frenzy), and no maneuver Epic Tale is a legal maneuver."""
    table = warlord(
        {
            "green": ["ep_ogmas_eloquence", "ep_battle_frenzy"],
            "blue": ["ep_tale_of_cuchulain", "ep_the_fianna", "act_bard"],
            "orange": ["ep_lugs_spear"],
        }
    )
    skip_to(table, "clash_started")
    react(table, "orange", "ep_lugs_spear")
    skip_to(table, "card_declared")  # The Dagda could still answer the Spear: nobody holds it
    decline(table)
    assert table.awaiting() == {"blue": "citadel"}
    table.do("blue", "citadel")
    assert trigger(table) is None  # no citadels_ended window for Battle Frenzy
    assert table.awaiting() == {"green": "maneuver"}
    assert table.decision("green").context["sheltered"] == {"blue": 1}
    assert all(c["type"] != "play" for c in table.legal("green"))
    table.refuse("green", "play", card="ep_ogmas_eloquence")
    table.do("green", "attack", target="blue")
    assert trigger(table) is None
    table.do("blue", "attack_response", choice="discard", card="act_bard")
    assert table.awaiting() == {"blue": "maneuver"}
    # Blue has exactly 1 exposed clan: Tale of Cúchulain would be legal but for the Spear.
    assert all(c["type"] != "play" for c in table.legal("blue"))
    table.refuse("blue", "play", card="ep_tale_of_cuchulain", remove=["green", "green"])
    table.refuse("blue", "play", card="ep_the_fianna", to="plains", count=1)


def test_lugs_spear_forbids_the_mountains_card_in_the_toll():
    """Lug's Spear: "No one, including you, may play Triskel cards during this clash." The
    Mountains Advantage card ("when you move 1 or more clans into the Mountains: Ignore the
    Mountains territory effect") is a Triskel card: a Withdraw into the Mountains during such a
    clash pays the toll, the card is neither offered nor accepted."""
    table = warlord({"green": ["act_bard", "act_druid", "adv_mountains"], "orange": ["ep_lugs_spear"]})
    skip_to(table, "clash_started")
    react(table, "orange", "ep_lugs_spear")
    settle(table)
    table.do("blue", "no_citadel")
    settle(table)
    table.do("green", "withdraw", moves={"mountains": 3})
    assert table.awaiting() == {"green": "mountains_toll"}
    assert {"type": "react", "card": "adv_mountains"} not in table.legal("green")
    assert "Mountains card" not in table.decision("green").prompt
    table.refuse("green", "react", card="adv_mountains")
    table.do("green", "mountains_toll", pay="discard", card="act_bard")
    assert "adv_mountains" in table.hand("green")
    assert table.clans("mountains") == {"green": 5}


def test_hills_ignores_an_iron_mine_attack():
    """Hills: "Ignore that attack: you neither remove a clan nor discard an Action card" wins
    over Iron Mine: "The attacked player must do both". Both answer the same attack; the
    attacker's card resolves first (active player first), then Hills sets the attack aside."""
    island = """
        hills   0,0  green 3  blue 2
        moor    1,0  green 1
        valley  0,1  orange 2
    """
    table = Table(
        island,
        seats=THREE,
        capital="valley",
        decline=False,
        hands={"green": ["act_warlord", "adv_iron_mine"], "blue": ["adv_hills", "act_bard"]},
    )
    table.play("green", "act_warlord", territory="hills")
    settle(table)
    table.do("green", "attack", target="blue")
    assert trigger(table) == "attack_declared" and asked(table) == ["green", "blue"]
    assert offered(table, "green", "adv_iron_mine") and offered(table, "blue", "adv_hills")
    table.do("green", "react", card="adv_iron_mine")
    events = table.do("blue", "react", card="adv_hills") + settle(table)
    revealed = first(events, "ReactionsRevealed").payload["plays"]
    assert [p["card"] for p in revealed] == ["adv_iron_mine", "adv_hills"]
    assert first(events, "AttackAnswered").payload["choice"] == "ignored (Hills)"
    assert table.clans("hills") == {"green": 3, "blue": 2}
    assert table.hand("blue") == ["act_bard"]
    assert {"adv_iron_mine", "adv_hills"} <= set(table.state.advantage_played)


def test_diarmuid_and_grainne_saves_a_clan_removed_by_an_attack():
    """Diarmuid and Gráinne: "When 1 of your clans is removed, by any cause ... place that clan
    in a different territory where you are present. This does not start a clash." The attacked
    clan goes to the Plains, where orange is: no clash there."""
    table = warlord({"blue": ["ep_diarmuid_grainne"]})
    settle(table)
    table.do("blue", "no_citadel")
    settle(table)
    table.do("green", "attack", target="blue")  # blue has no Action card: a clan is removed
    assert skip_to(table, "clan_removed") == ["blue"]
    assert reactions(table, "blue") == [{"type": "react", "card": "ep_diarmuid_grainne", "to": "plains"}]
    react(table, "blue", "ep_diarmuid_grainne", to="plains")
    settle(table)
    assert table.clans("moor") == {"green": 3, "blue": 1}
    assert table.clans("plains") == {"blue": 3, "orange": 1}
    assert table.state.reserve["blue"] == 12 - 4
    assert [e.payload["territory"] for e in table.events if e.type == "ClashStarted"] == ["moor"]
    assert table.awaiting() == {"blue": "maneuver"}


def test_diarmuid_and_grainne_saves_a_clan_from_balors_eye():
    """Balor's Eye: "Remove any 1 clan (any player's, yours included) from any territory."
    Diarmuid and Gráinne answers a removal "by any cause"."""
    table = Table(
        CLASH,
        seats=THREE,
        capital="cove",
        decline=False,
        hands={"green": ["ep_balors_eye"], "blue": ["ep_diarmuid_grainne"]},
    )
    balor = {"type": "play", "card": "ep_balors_eye", "territory": "moor", "owner": "blue"}
    assert balor in table.legal("green")
    table.do("green", balor)
    assert skip_to(table, "clan_removed") == ["blue"]
    react(table, "blue", "ep_diarmuid_grainne", to="plains")
    settle(table)
    assert table.clans("moor") == {"green": 3, "blue": 1}
    assert table.clans("plains") == {"blue": 3, "orange": 1}
    assert "ep_balors_eye" in table.state.epic_discard
    assert "ClashStarted" not in types(table.events)


def test_mountains_toll_is_paid_on_a_withdraw():
    """Mountains: "When 1 or more clans are moved into this territory, their owner must either
    discard 1 Action card or lose 1 of those clans" — whatever moves them, a Withdraw too (ruling
    U9), once for the whole Withdraw."""
    table = warlord({"green": ["act_bard"]})
    settle(table)
    table.do("blue", "no_citadel")
    settle(table)
    table.do("green", "withdraw", moves={"mountains": 3})
    settle(table)
    assert table.awaiting() == {"green": "mountains_toll"}
    table.do("green", "mountains_toll", pay="discard", card="act_bard")
    settle(table)
    assert table.clans("mountains") == {"green": 5}
    assert "green" not in table.clans("moor")
    assert types(table.events).count("MountainsTollPaid") == 1
    assert table.awaiting() == {"blue": "maneuver"}  # the Withdraw was green's maneuver


GATES = """
    gates   0,0  green 2  blue 1  sanctuaries 1
    valley  1,0  orange 2
    plains  0,1  blue 2  green 1
"""


def gates_toll_happened(table, brenn="orange"):
    """Each player present in the Gates lost 1 clan there and drew 1 Epic Tale, Brenn first."""
    order = [s for s in table.state.turn_order_from(brenn) if s in ("green", "blue")]
    assert [e.payload["seat"] for e in table.events if e.type == "GatesOpened"] == order
    assert table.clans("gates") == {"green": 1}
    for seat in ("green", "blue"):
        assert len([c for c in table.hand(seat) if c.startswith("ep_")]) >= 1


def test_gates_fire_when_the_assembly_toss_changes_the_flock():
    """Gates of Tír na nÓg, "whenever the turn direction changes": at the Assembly toss when it
    lands on the other side (U10)."""

    def assembly(seed):
        return Table(
            GATES,
            seats=THREE,
            capital="valley",
            brenn="orange",
            phase="assembly",
            flock="clockwise",
            seed=seed,
            decline=False,
        )

    table = by_seed(assembly, lambda t: t.state.flock == "counterclockwise", prefix="toss")
    settle(table)
    gates_toll_happened(table)


def test_gates_fire_when_the_morrigan_flips_the_flock():
    """The Morrigan: "You may flip the Flock of Crows token to its other side ... Flipping
    changes turn direction, so it triggers Gates of Tír na nÓg." """
    table = Table(
        GATES,
        seats=THREE,
        capital="valley",
        brenn="orange",
        flock="clockwise",
        turn="green",
        decline=False,
        hands={"green": ["ep_the_morrigan"]},
    )
    flip = {"type": "play", "card": "ep_the_morrigan", "flip": True}
    assert flip in table.legal("green")
    table.do("green", flip)
    settle(table)
    assert table.state.flock == "counterclockwise"
    gates_toll_happened(table)
    assert "ep_the_morrigan" in table.state.epic_discard


def test_oengus_ploy_reopens_a_season_that_was_about_to_end():
    """Oengus's Ploy: "At the end of any player's turn in the Season phase. You take the next
    turn. If the Season would have ended because everyone passed, it continues instead." Ruling
    U14: turn order then continues from you, and the Season ends only when everyone has passed
    consecutively again."""
    table = Table(
        CLASH,
        seats=THREE,
        capital="cove",
        decline=False,
        flock="clockwise",
        turn="orange",
        passes=2,
        hands={"blue": ["ep_oengus_ploy"]},
    )
    table.do("orange", "pass")  # green and blue passed before: the Season is about to end
    assert trigger(table) == "turn_ended" and asked(table) == ["blue"]
    assert offered(table, "blue", "ep_oengus_ploy")
    events = react(table, "blue", "ep_oengus_ploy") + settle(table)
    assert "SeasonEnded" not in types(events)
    assert table.awaiting() == {"blue": "season_turn"}  # not green, next in turn order
    table.do("blue", "pass")
    assert table.awaiting() == {"orange": "season_turn"}
    table.do("orange", "pass")
    assert table.awaiting() == {"green": "season_turn"}
    events = table.do("green", "pass")
    assert "SeasonEnded" in types(events)


def test_the_dagda_cancels_lugs_spear_so_triskels_stay_allowed():
    """The Dagda answers any Epic Tale, Lug's Spear included (docs/rulings.md, "The Dagda
    against the Mountains card or Lug's Spear"): with the Spear cancelled, Battle Frenzy is offered
    at the end of the Citadels step."""
    table = warlord({"green": ["ep_battle_frenzy"], "blue": ["ep_the_dagda"], "orange": ["ep_lugs_spear"]})
    skip_to(table, "clash_started")
    react(table, "orange", "ep_lugs_spear")
    assert trigger(table) == "card_declared" and offered(table, "blue", "ep_the_dagda")
    react(table, "blue", "ep_the_dagda")
    settle(table)
    assert not table.clash().get("spear")
    table.do("blue", "citadel")
    assert trigger(table) == "citadels_ended"
    assert offered(table, "green", "ep_battle_frenzy")


# -- Master Craftsman's named discard ---------------------------------------------------------

MC_MOOR = """
    moor    0,0  green 2  blue 1
    plains  1,0  orange 1
    valley  0,1  white 1
"""


def craftsman_naming(card, hands, options=None):
    """Four players (Master Craftsman is a 4-player card): green plays Master Craftsman naming
    `card` as its discard (secretly); blue, holding Geis, is asked in the window on it."""
    table = Table(
        MC_MOOR,
        capital="plains",
        decline=False,
        hands={"green": ["act_master_craftsman", card], "blue": ["act_geis"], **hands},
        epic_deck=["ep_eriu", "ep_tuans_memory"],
        options=options,
    )
    table.play("green", "act_master_craftsman", discard=card)
    assert trigger(table) == "card_declared" and asked(table) == ["blue"]
    return table


def test_the_card_named_as_master_craftsmans_discard_cannot_be_played_before_it_resolves():
    """Master Craftsman, Season: "Discard 1 card of any type from your hand if you have one, then
    draw 1 Epic Tale card". The discard is named with the play and carried out when the card
    resolves, after the window in which Geis may answer it. Ruling ("Master Craftsman (Season
    half)"): the named card is as good as laid down with the play, so the Moor ("at any time")
    cannot be played meanwhile; it is discarded when Master Craftsman resolves. (Its play used
    to leave the card to discard gone, and the decline of the window then failed: the game
    could not go on.)"""
    table = craftsman_naming("adv_moor", {})
    assert not [c for c in table.legal("green") if c["type"] == "moor"]
    message = table.refuse("green", "moor", opponent="blue")
    assert message == (
        "You named the Moor Advantage card as the card Master Craftsman discards: "
        "you cannot play it until Master Craftsman is resolved."
    )
    events = decline(table, "blue") + settle(table)
    assert first(events, "CardDiscarded").payload["card"] == "adv_moor"
    assert table.hand("green") == ["ep_eriu"]
    assert "adv_moor" in table.state.advantage_played
    assert table.awaiting() == {"blue": "season_turn"}


def test_the_dagda_named_as_master_craftsmans_discard_cannot_answer_a_moor_meanwhile():
    """The same for The Dagda named as the discard: while the window on Master Craftsman waits,
    orange plays the Moor at green; The Dagda (which answers "when any player plays an Epic Tale
    card or an Advantage card") is not offered to green, and is discarded face up when Master
    Craftsman resolves."""
    table = craftsman_naming("ep_the_dagda", {"orange": ["adv_moor"]})
    table.do("orange", "moor", opponent="green")
    assert trigger(table) == "card_declared"
    assert not offered(table, "green", "ep_the_dagda")
    settle(table)
    assert table.hand("green") == ["ep_eriu"]
    assert table.state.epic_discard == ["ep_the_dagda"]


def test_rules_revision_1_lets_the_named_discard_be_played_and_discards_nothing_else():
    """Games of rules revision 1 (begun before the ruling, `games.rules.revisions`) let the Moor
    be played while it is the named discard: Master Craftsman then finds it gone, discards
    nothing else and still draws ("You still draw if you had nothing to discard")."""
    table = craftsman_naming("adv_moor", {}, options={"rules_revision": 1})
    table.do("green", "moor", opponent="blue")
    settle(table)
    assert table.hand("green") == ["ep_eriu"]
    assert table.state.advantage_played == ["adv_moor"]
    assert table.awaiting() == {"blue": "season_turn"}
