"""The fourteen Triskel Epic Tales: each one's effect, when it is offered, and its limits.

Card texts: docs/cards.md; rulings: docs/rulings.md. The Triskel reaction windows are
offered on public facts (docs/rulings.md, "Who is asked"): a window for "any player" asks every
seat that holds an Epic Tale, a window about "your clan" or "your attack" asks that seat only.
"""

from games import rules
from games.rules import view_for
from games.rules.catalog import CARDS, EPIC

from .positions import Table, first, types
from .triskel_positions import (
    asked,
    decline,
    decline_watching,
    offered,
    react,
    reactions,
    settle,
    skip_to,
    trigger,
    warlord_clash,
)

THREE = ("green", "blue", "orange")

# The Moor is where the clashes happen: green (3) against blue (2), 1 Citadel. Green is chieftain
# of the Valley, blue of the Plains; orange is not in the clash.
CLASH = """
    moor    0,0   green 3  blue 2  citadels 1
    valley  1,0   green 2
    plains  0,1   blue 2  orange 1
    cove    -1,1  orange 1
"""


def warlord(hands, island=CLASH, **position):
    """A table where green has just played Warlord in the Moor (its windows still open)."""
    return warlord_clash(island, hands, capital="cove", **position)


def to_citadels(table, shelter: bool):
    """Decline the windows up to blue's Citadels step, then shelter 1 blue clan or not."""
    settle(table)
    assert table.awaiting() == {"blue": "citadel"}
    table.do("blue", "citadel" if shelter else "no_citadel")


def to_maneuver(table, seat: str):
    """Decline every window until `seat` must maneuver."""
    settle(table)
    assert table.awaiting() == {seat: "maneuver"}, table.awaiting()


def dagdas_club_choice() -> Table:
    """Green attacks blue with The Dagda's Club and chooses what blue loses: green's attack
    choice is open."""
    table = warlord({"green": ["ep_dagdas_club"], "blue": ["act_bard", "ep_eriu"]})
    to_citadels(table, shelter=False)
    to_maneuver(table, "green")
    table.do("green", "attack", target="blue")
    react(table, "green", "ep_dagdas_club", mode="choose")
    settle(table)
    return table


def new_alliance_replaces_blue(card):
    """Blue, holding `card`, is only in the Moor; green's New Alliance replaces a blue clan
    there, outside any clash. Returns the table with the removal's window open."""
    island = """
        moor    0,0   green 3  blue 2
        plains  1,0   orange 2
    """
    table = Table(
        island,
        seats=THREE,
        capital="plains",
        decline=False,
        hands={"green": ["act_new_alliance"], "blue": [card]},
    )
    table.play("green", "act_new_alliance", mode="replace", territory="moor", opponent="blue")
    return table


def attack(table, attacker: str, target: str, answer=None):
    """`attacker` attacks; windows declined; the target answers with `answer` if asked."""
    table.do(attacker, "attack", target=target)
    settle(table)
    if answer is not None:
        table.do(target, answer)
        settle(table)


# -- The Dagda -------------------------------------------------------------------------------


def test_the_dagda_cancels_an_advantage_card_and_reshuffles_the_epic_tales():
    """The Dagda: "When any player plays an Epic Tale card or an Advantage card. That card's
    effect is ignored and the card is discarded. Then shuffle the Epic Tale discard pile,
    including The Dagda itself, back together with the Epic Tale deck to form a new deck."
    (ruling U5: whatever kind of card was cancelled)."""
    table = Table(
        CLASH,
        seats=THREE,
        capital="cove",
        decline=False,
        hands={"green": ["act_new_clans", "adv_valley"], "blue": ["ep_the_dagda"]},
        epic_deck=["ep_eriu"],
        epic_discard=["ep_tuans_memory", "ep_balors_eye"],
    )
    table.play("green", "act_new_clans", territories=["valley", "valley"])
    skip_to(table, "after_season_card")
    react(table, "green", "adv_valley", territory="moor")
    assert trigger(table) == "card_declared"
    assert asked(table) == ["blue"]  # orange holds no Epic Tale; green played the card
    assert offered(table, "blue", "ep_the_dagda")
    events = react(table, "blue", "ep_the_dagda")
    settle(table)
    assert first(events, "CardCancelled").payload["card"] == "adv_valley"
    assert table.clans("moor") == {"green": 3, "blue": 2}  # Valley placed no clan
    assert "adv_valley" in table.state.advantage_played
    assert sorted(table.state.epic_deck) == sorted(
        ["ep_eriu", "ep_tuans_memory", "ep_balors_eye", "ep_the_dagda"]
    )
    assert table.state.epic_discard == []
    assert "ep_the_dagda" not in table.hand("blue")


def test_the_dagda_cancels_an_epic_tale_which_is_shuffled_back_too():
    """The Dagda on an Epic Tale (Streng's Resolve: "Right after you perform an Attack maneuver:
    gain 1 Deed"): no Deed; "the card is discarded. Then shuffle the Epic Tale discard pile,
    including The Dagda itself, back together with the Epic Tale deck" — the cancelled Epic Tale,
    discarded first, is in the new deck."""
    table = warlord(
        {"green": ["ep_strengs_resolve"], "blue": ["act_bard", "ep_the_dagda"]},
        epic_deck=["ep_eriu"],
        epic_discard=["ep_tuans_memory"],
    )
    to_citadels(table, shelter=False)
    to_maneuver(table, "green")
    table.do("green", "attack", target="blue")
    # Green, asked when its attack is declared (it may hold The Dagda's Club), says then that it
    # will play Streng's Resolve right after the attack (docs/rulings.md, "One Triskel question
    # per clash step"): the window after the maneuver does not ask it again.
    assert skip_to(table, "attack_declared")[:1] == ["green"]
    table.do("green", {"type": "decline", "then": "ep_strengs_resolve"})
    settle(table)
    table.do("blue", "attack_response", choice="discard", card="act_bard")
    skip_to(table, "card_declared")
    assert asked(table) == ["blue"] and offered(table, "blue", "ep_the_dagda")
    react(table, "blue", "ep_the_dagda")
    settle(table)
    assert table.state.deeds["green"] == 0
    assert sorted(table.state.epic_deck) == sorted(
        ["ep_eriu", "ep_tuans_memory", "ep_strengs_resolve", "ep_the_dagda"]
    )
    assert table.state.epic_discard == []


def test_the_dagda_is_not_offered_for_action_cards_but_is_for_your_own_card():
    """The Dagda: "When any player plays an Epic Tale card or an Advantage card" — not an Action
    card; and "any player" includes you: its holder is asked about their own Advantage card
    and may cancel it."""
    table = Table(
        CLASH,
        seats=THREE,
        capital="cove",
        decline=False,
        hands={"green": ["act_new_clans"], "blue": ["ep_the_dagda", "adv_valley", "act_sanctuary"]},
    )
    table.play("green", "act_new_clans", territories=["valley", "valley"])
    # Blue is asked (holding Action cards, it could hold Geis), but The Dagda is no answer.
    assert trigger(table) == "card_declared" and asked(table) == ["blue"]
    assert table.legal("blue") == [{"type": "decline"}]
    settle(table)
    table.play("blue", "act_sanctuary", territory="plains")
    skip_to(table, "after_season_card")
    react(table, "blue", "adv_valley", territory="plains")
    assert trigger(table) == "card_declared"  # a window for blue's own Valley
    assert offered(table, "blue", "ep_the_dagda")
    events = react(table, "blue", "ep_the_dagda") + settle(table)
    assert first(events, "CardCancelled").payload == {
        "card": "adv_valley",
        "seat": "blue",
        "by": "blue",
        "cause": "The Dagda",
    }
    assert table.clans("plains")["blue"] == 2  # the Valley placed no clan


# -- Lug Samildanach -------------------------------------------------------------------------


def test_lug_samildanach_takes_the_resolved_action_card():
    """Lug Samildanach: "After an Action card (anyone's) has been resolved. Put that Action card
    into your hand instead of letting it be discarded." Every seat holding an Epic Tale is asked,
    the card's player included; a seat without one is not."""
    table = Table(
        CLASH,
        seats=THREE,
        capital="cove",
        decline=False,
        hands={"green": ["act_new_clans", "ep_eriu"], "orange": ["ep_lug_samildanach"]},
    )
    table.play("green", "act_new_clans", territories=["valley", "valley"])
    assert trigger(table) == "action_resolved"
    assert asked(table) == ["green", "orange"]  # blue holds no Epic Tale
    assert offered(table, "orange", "ep_lug_samildanach")
    assert reactions(table, "green") == []
    react(table, "orange", "ep_lug_samildanach")
    settle(table)
    assert table.clans("valley")["green"] == 4  # the card was resolved first
    assert "act_new_clans" in table.hand("orange")
    assert "act_new_clans" not in table.state.action_discard
    assert "ep_lug_samildanach" in table.state.epic_discard


def test_lug_samildanach_answers_only_action_cards():
    """Lug Samildanach takes "that Action card": an Advantage card played is not offered to it."""
    table = Table(
        CLASH,
        seats=THREE,
        capital="cove",
        decline=False,
        hands={"green": ["act_new_clans", "adv_valley"], "orange": ["ep_lug_samildanach"]},
    )
    table.play("green", "act_new_clans", territories=["valley", "valley"])
    decline(table)  # the window after New Clans
    skip_to(table, "after_season_card")
    react(table, "green", "adv_valley", territory="moor")
    assert trigger(table) == "card_declared"  # orange may hold The Dagda
    decline(table)
    assert trigger(table) == "turn_ended"  # Valley resolved: no action_resolved window
    assert table.clans("moor")["green"] == 4
    assert "adv_valley" in table.state.advantage_played


# -- Lug's Spear -----------------------------------------------------------------------------


def test_lugs_spear_forbids_triskel_cards_during_the_clash_only():
    """Lug's Spear: "At the start of a clash. No one, including you, may play Triskel cards during
    this clash." Ruling U18: a player not in the clash (orange) may play it. After the clash,
    Triskel windows open again."""
    table = warlord({"blue": ["ep_dagdas_club"], "orange": ["ep_lugs_spear"]})
    assert skip_to(table, "clash_started") == ["blue", "orange"]
    assert offered(table, "orange", "ep_lugs_spear")
    assert not offered(table, "blue", "ep_lugs_spear")
    react(table, "orange", "ep_lugs_spear")
    skip_to(table, "card_declared")  # The Dagda could still cancel the Spear
    decline(table)
    assert table.clash()["spear"] is True
    table.do("blue", "no_citadel")
    assert trigger(table) is None
    table.do("green", "attack", target="blue")
    # Blue holds The Dagda's Club but cannot save the clan: no removal window under the Spear.
    assert trigger(table) is None
    assert table.clans("moor") == {"green": 3, "blue": 1}
    table.do("blue", "attack", target="green")
    assert trigger(table) is None
    table.do("green", "withdraw", moves={"valley": 2})
    table.do("blue", "end_clash")
    # The clash is over: the Warlord is resolved and the Lug Samildanach window opens again.
    assert table.clash() is None
    assert trigger(table) == "action_resolved" and "blue" in asked(table)


def test_lugs_spear_is_offered_only_at_the_start_of_a_clash():
    """Lug's Spear's trigger is "at the start of a clash": at the end of a turn it is not
    playable (its holder is asked, holding an Epic Tale, but may only decline)."""
    table = Table(
        CLASH,
        seats=THREE,
        capital="cove",
        decline=False,
        hands={"green": ["act_new_clans"], "orange": ["ep_lugs_spear"]},
    )
    table.play("green", "act_new_clans", territories=["valley", "valley"])
    skip_to(table, "turn_ended")
    assert "orange" in asked(table)
    assert not offered(table, "orange", "ep_lugs_spear")


# -- Battle Frenzy ---------------------------------------------------------------------------


def test_battle_frenzy_brings_every_sheltered_clan_out():
    """Battle Frenzy: "During a clash, at the end of the Citadels step. Take every clan out of the
    Citadels of the clashing territory; all of them are now exposed." """
    table = warlord({"green": ["ep_battle_frenzy"]})
    to_citadels(table, shelter=True)
    assert skip_to(table, "citadels_ended") == ["green"]
    assert offered(table, "green", "ep_battle_frenzy")
    react(table, "green", "ep_battle_frenzy")
    settle(table)
    assert table.decision("green").context["exposed"] == {"green": 3, "blue": 2}
    assert table.decision("green").context["sheltered"] == {}


def test_battle_frenzy_needs_a_sheltered_clan():
    """Battle Frenzy takes clans "out of the Citadels": with nobody sheltered it is not offered."""
    table = warlord({"green": ["ep_battle_frenzy"]})
    to_citadels(table, shelter=False)
    skip_to(table, "citadels_ended")
    assert not offered(table, "green", "ep_battle_frenzy")


# -- Streng's Resolve ------------------------------------------------------------------------


def test_strengs_resolve_gains_a_deed_after_your_attack():
    """Streng's Resolve: "Right after you perform an Attack maneuver. Gain 1 Deed." The attacked
    player, holding an Epic Tale too, is not asked."""
    table = warlord({"green": ["ep_strengs_resolve"], "blue": ["act_bard", "ep_eriu"]})
    to_citadels(table, shelter=False)
    to_maneuver(table, "green")
    table.do("green", "attack", target="blue")
    # Asked when its attack is declared (it holds an Epic Tale, so may hold The Dagda's Club),
    # green says Streng's Resolve ahead (docs/rulings.md, "One Triskel question per clash step").
    assert skip_to(table, "attack_declared") == ["green"]
    assert {"type": "decline", "then": "ep_strengs_resolve"} in table.legal("green")
    events = table.do("green", {"type": "decline", "then": "ep_strengs_resolve"})
    events += table.do("blue", "attack_response", choice="discard", card="act_bard")
    assert not [d for d in table.pending() if d.seat == "green" and d.kind == "reaction"]
    events += settle(table)
    assert first(events, "DeedGained").payload == {"seat": "green", "count": 1, "cause": "Streng's Resolve"}
    assert table.state.deeds["green"] == 1


def test_strengs_resolve_is_not_offered_after_a_withdraw_or_an_attack_on_you():
    """Streng's Resolve answers "you perform an Attack maneuver": not a Withdraw, nor an attack
    another player performed against you."""
    table = warlord({"green": ["ep_eriu"], "blue": ["ep_strengs_resolve"]})
    to_citadels(table, shelter=False)
    to_maneuver(table, "green")
    table.do("green", "attack", target="blue")  # blue has no Action card: a clan is removed
    windows = decline_watching(table, "blue", "ep_strengs_resolve")
    # Green was asked about its own attack once, when it was declared (Streng's Resolve said
    # ahead or not, the window after it asks green no more: one question per clash step).
    assert windows[0] == "attack_declared"
    to_maneuver(table, "blue")
    table.do("blue", "withdraw", moves={"plains": 1})
    decline_watching(table, "blue", "ep_strengs_resolve")
    assert table.state.deeds["blue"] == 0


# -- Diarmuid and Gráinne --------------------------------------------------------------------


def test_diarmuid_and_grainne_moves_the_removed_clan_without_a_clash():
    """Diarmuid and Gráinne: "When 1 of your clans is removed, by any cause. Instead of returning
    it to your reserve, place that clan in a different territory where you are present. This does
    not start a clash." Here the cause is green's New Alliance (replace)."""
    island = """
        moor    0,0   green 3  blue 2
        valley  1,0   green 2  blue 1
        plains  0,1   orange 2
    """
    table = Table(
        island,
        seats=THREE,
        capital="plains",
        decline=False,
        hands={"green": ["act_new_alliance", "ep_eriu"], "blue": ["ep_diarmuid_grainne"]},
    )
    table.play("green", "act_new_alliance", mode="replace", territory="moor", opponent="blue")
    assert trigger(table) == "clan_removed"
    assert asked(table) == ["blue"]  # only the owner of the clan
    assert offered(table, "blue", "ep_diarmuid_grainne")
    assert reactions(table, "blue") == [{"type": "react", "card": "ep_diarmuid_grainne", "to": "valley"}]
    events = react(table, "blue", "ep_diarmuid_grainne", to="valley") + settle(table)
    moved = first(events, "ClansMoved").payload
    assert moved["moves"] == [["moor", "valley", 1]] and moved["cause"] == "Diarmuid and Gráinne"
    assert table.clans("valley") == {"green": 2, "blue": 2}
    assert table.clans("moor") == {"green": 4, "blue": 1}
    assert table.state.reserve["blue"] == 12 - 3
    assert "ClashStarted" not in types(table.events)


def test_diarmuid_and_grainne_needs_another_territory_where_you_are_present():
    """ "a different territory where you are present": with clans only where the clan is removed,
    Diarmuid and Gráinne cannot be played."""
    table = new_alliance_replaces_blue("ep_diarmuid_grainne")
    assert trigger(table) == "clan_removed"
    assert not offered(table, "blue", "ep_diarmuid_grainne")
    decline(table)
    assert table.clans("moor") == {"green": 4, "blue": 1}


def fianna_maneuver():
    """Blue maneuvers in the Moor holding The Fianna, 1 clan exposed and 1 in the Citadel (green
    attacked, blue discarded Bard)."""
    table = warlord({"blue": ["ep_the_fianna", "act_bard"]})
    to_citadels(table, shelter=True)
    to_maneuver(table, "green")
    attack(table, "green", "blue")
    table.do("blue", "attack_response", choice="discard", card="act_bard")
    to_maneuver(table, "blue")
    return table


def attack_on_blue_answered_by_diarmuid_and_grainne(options=None):
    """Green conquers the Hills (blue 2) and attacks blue, who holds no Action card, so its clan
    is removed; blue's Diarmuid and Gráinne places it in the Cove instead. Green holds Bard.
    Returns the table with the window after green's maneuver open (or the next decision)."""
    island = """
        hills   0,0   blue 2
        valley  1,0   green 3
        cove    0,1   blue 1
    """
    table = Table(
        island,
        seats=THREE,
        capital="valley",
        brenn="green",
        flock="clockwise",
        decline=False,
        options=options,
        hands={"green": ["act_conquest", "act_bard"], "blue": ["ep_diarmuid_grainne"]},
    )
    table.play("green", "act_conquest", territory="hills", moves={"valley": 2})
    settle(table)
    table.do("green", "attack", target="blue")
    assert trigger(table) == "clan_removed"
    events = react(table, "blue", "ep_diarmuid_grainne", to="cove")
    assert first(events, "ClansMoved").payload["moves"] == [["hills", "cove", 1]]
    assert table.clans("hills") == {"blue": 1, "green": 2}
    return table


def test_a_clan_removed_to_another_territory_by_diarmuid_and_grainne_counts_for_bard():
    """Bard, Triskel: "Immediately after one of YOUR maneuvers has removed 1 or more opposing
    clans. Gain 1 Deed token." Diarmuid and Gráinne: "When 1 of your clans is removed [...]
    Instead of returning it to your reserve, place that clan in a different territory": the clan
    is still removed (docs/rulings.md, "Removed by a maneuver")."""
    table = attack_on_blue_answered_by_diarmuid_and_grainne()
    assert trigger(table) == "after_maneuver"
    assert offered(table, "green", "act_bard")
    events = react(table, "green", "act_bard")
    assert first(events, "DeedGained").payload["seat"] == "green"


def test_rules_revision_1_gives_no_bard_after_diarmuid_and_grainne():
    """Games begun before rules revision 2 keep their rules (games/rules/revisions.py): a clan
    that Diarmuid and Gráinne placed elsewhere did not count as removed for Bard."""
    table = attack_on_blue_answered_by_diarmuid_and_grainne({"rules_revision": 1})
    assert trigger(table) == "after_maneuver"
    assert reactions(table, "green") == []
    decline(table)
    assert table.awaiting() == {"blue": "maneuver"}
    assert "act_bard" in table.hand("green")


# -- The Dagda's Club ------------------------------------------------------------------------


def test_the_dagdas_club_spares_a_clan_about_to_be_removed():
    """The Dagda's Club, first mode: "When 1 of your clans would be removed. That clan is not
    removed." Only the clan's owner is asked."""
    table = warlord({"green": ["ep_eriu"], "blue": ["ep_dagdas_club"]})
    to_citadels(table, shelter=False)
    to_maneuver(table, "green")
    table.do("green", "attack", target="blue")
    assert skip_to(table, "clan_removed") == ["blue"]
    assert reactions(table, "blue") == [{"type": "react", "card": "ep_dagdas_club", "mode": "spare"}]
    # Blue's prompt speaks to blue: "your clan", not "blue's clan".
    (prompt,) = [d.prompt for d in table.pending() if d.seat == "blue"]
    assert prompt.startswith("Triskel: your clan is about to be removed. Play a Triskel card")
    with rules.speaking("fr"):
        (prompt,) = [d.prompt for d in table.pending() if d.seat == "blue"]
    assert prompt.startswith("Triskel : un de vos clans va être retiré.")
    events = react(table, "blue", "ep_dagdas_club", mode="spare") + settle(table)
    assert first(events, "ClanSpared").payload["seat"] == "blue"
    assert "ClansRemoved" not in types(events)
    assert table.clans("moor") == {"green": 3, "blue": 2}
    assert "ep_dagdas_club" in table.state.epic_discard


def test_the_dagdas_club_lets_the_attacker_choose():
    """The Dagda's Club, second mode: "When you perform an Attack maneuver. You, not the attacked
    player, choose whether the attacked player removes 1 clan or discards 1 Action card." The
    attacked player, holding an Epic Tale, is not asked in that window."""
    table = warlord({"green": ["ep_dagdas_club"], "blue": ["act_bard", "ep_eriu"]})
    to_citadels(table, shelter=False)
    to_maneuver(table, "green")
    table.do("green", "attack", target="blue")
    assert trigger(table) == "attack_declared" and asked(table) == ["green"]
    assert reactions(table, "green") == [{"type": "react", "card": "ep_dagdas_club", "mode": "choose"}]
    react(table, "green", "ep_dagdas_club", mode="choose")
    settle(table)
    assert table.awaiting() == {"green": "attack_choice"}
    table.do("green", "attack_choice", choice="remove")
    settle(table)  # blue could have discarded Bard, but green chose
    assert table.clans("moor") == {"green": 3, "blue": 1}
    assert "act_bard" in table.hand("blue")


def test_the_dagdas_club_attacker_can_force_a_discard():
    """The Dagda's Club, second mode, the other choice: the attacked player must discard an
    Action card and may not remove a clan instead."""
    table = warlord({"green": ["ep_dagdas_club"], "blue": ["act_bard"]})
    to_citadels(table, shelter=False)
    to_maneuver(table, "green")
    table.do("green", "attack", target="blue")
    react(table, "green", "ep_dagdas_club", mode="choose")
    settle(table)
    table.do("green", "attack_choice", choice="discard")
    assert table.legal("blue") == [{"type": "attack_response", "choice": "discard", "card": "act_bard"}]
    assert "discard" in table.refuse("blue", "attack_response", choice="remove")
    table.do("blue", "attack_response", choice="discard", card="act_bard")
    assert table.clans("moor") == {"green": 3, "blue": 2}


# -- Dagda's Cauldron ------------------------------------------------------------------------


def test_dagdas_cauldron_returns_the_removed_clans_when_the_clash_ends():
    """Dagda's Cauldron: "During a clash, when 1 of your clans is removed. Put this card face up
    in front of you. Place on it every clan of yours that is removed during this clash, starting
    with the one just removed. When the clash ends, put up to 3 of those clans back into the
    clashing territory; any others return to your reserve. Then discard this card." """
    table = warlord({"blue": ["ep_dagdas_cauldron"]})
    to_citadels(table, shelter=False)
    to_maneuver(table, "green")
    table.do("green", "attack", target="blue")
    assert skip_to(table, "clan_removed") == ["blue"]
    assert offered(table, "blue", "ep_dagdas_cauldron")
    react(table, "blue", "ep_dagdas_cauldron")
    settle(table)
    assert table.state.in_front == {"ep_dagdas_cauldron": "blue"}
    assert table.clash()["cauldron"] == {"blue": 1}
    assert table.clans("moor") == {"green": 3, "blue": 1}
    assert table.state.reserve["blue"] == 12 - 4  # the clan is on the card, not in reserve
    # Every view shows the clan on the card, so reserve + island + card make 12.
    for viewer in (None, "green", "blue"):
        view = view_for(table.state, viewer)
        on_island = sum(t["clans"].get("blue", 0) for t in view["territories"].values())
        assert view["cauldron"] == {"blue": 1}
        assert view["reserve"]["blue"] + on_island + view["cauldron"]["blue"] == 12
    table.do("blue", "attack", target="green")
    settle(table)
    table.do("green", "attack", target="blue")
    settle(table)  # blue's last clan here goes on the card too (no window: no Epic Tale left)
    assert table.clash()["cauldron"] == {"blue": 2}
    events = table.do("green", "end_clash")
    assert first(events, "CauldronEmptied").payload == {
        "seat": "blue",
        "territory": "moor",
        "back": 2,
        "to_reserve": 0,
    }
    assert table.clans("moor") == {"green": 2, "blue": 2}
    assert table.state.in_front == {}
    assert "ep_dagdas_cauldron" in table.state.epic_discard


def test_forest_answers_dagdas_cauldron():
    """Dagda's Cauldron is an Epic Tale its holder plays, though it lies in front of them instead
    of going to the discard: the Forest ("after you play an Epic Tale card: Draw 1 Epic Tale
    card") answers it like any other (docs/rulings.md, "A cancelled card was played"; rules
    revision 2). In revision 1 no window opened for a card kept out of the discard."""
    for revision, forest in ((2, True), (1, False)):
        table = warlord(
            {"blue": ["ep_dagdas_cauldron", "adv_forest"]},
            epic_deck=["ep_tuans_memory", "ep_balors_eye"],
            options={"rules_revision": revision},
        )
        to_citadels(table, shelter=False)
        to_maneuver(table, "green")
        table.do("green", "attack", target="blue")
        skip_to(table, "clan_removed")
        react(table, "blue", "ep_dagdas_cauldron")
        if forest:
            assert trigger(table) == "after_epic_played" and offered(table, "blue", "adv_forest")
            react(table, "blue", "adv_forest")
            assert table.hand("blue") == ["ep_tuans_memory"]
        else:
            decline_watching(table, "blue", "adv_forest")
            assert table.hand("blue") == ["adv_forest"]
        assert table.state.in_front == {"ep_dagdas_cauldron": "blue"}


def test_dagdas_cauldron_holds_at_most_three_clans_back():
    """Dagda's Cauldron: "put up to 3 of those clans back ...; any others return to your reserve"
    (ruling U19)."""
    island = """
        moor    0,0   green 6  blue 5
        valley  1,0   green 2
        cove    -1,1  orange 1
    """
    table = warlord({"blue": ["ep_dagdas_cauldron"]}, island=island)
    settle(table)
    to_maneuver(table, "green")
    table.do("green", "attack", target="blue")
    skip_to(table, "clan_removed")
    react(table, "blue", "ep_dagdas_cauldron")
    settle(table)
    for _ in range(4):
        table.do("blue", "attack", target="green")
        settle(table)
        table.do("green", "attack", target="blue")
        settle(table)
    assert table.clash()["cauldron"] == {"blue": 5}
    events = table.do("green", "end_clash")
    assert first(events, "CauldronEmptied").payload["back"] == 3
    assert first(events, "CauldronEmptied").payload["to_reserve"] == 2
    assert table.clans("moor")["blue"] == 3
    assert table.state.reserve["blue"] == 12 - 3


def test_dagdas_cauldron_takes_the_clans_removed_in_the_clash_not_a_toll_paid_elsewhere():
    """Dagda's Cauldron: "Place on it every clan of yours that is removed during this clash";
    docs/rulings.md, "Dagda's Cauldron: the clans of the clash": those removed in the clashing
    territory. Blue, with the Cauldron in front of it, withdraws a clan from the Plains to the
    Mountains and, holding no Action card, pays the Mountains' toll with a clan: that clan was
    removed in the Mountains, outside the clash, and goes to blue's reserve."""
    island = """
        plains     0,0   green 2  blue 3
        mountains  1,0   blue 2
        cove      -1,1   orange 1
    """
    table = warlord({"blue": ["ep_dagdas_cauldron"]}, island=island, territory="plains")
    to_maneuver(table, "green")
    table.do("green", "attack", target="blue")
    skip_to(table, "clan_removed")
    react(table, "blue", "ep_dagdas_cauldron")
    settle(table)
    reserve = table.state.reserve["blue"]
    events = table.do("blue", "withdraw", moves={"mountains": 1})
    assert first(events, "ClansRemoved").payload["territory"] == "mountains"
    assert table.clash()["cauldron"] == {"blue": 1}
    assert table.state.reserve["blue"] == reserve + 1


def test_dagdas_cauldron_is_not_offered_outside_a_clash():
    """Dagda's Cauldron answers a removal "during a clash": a clan removed by New Alliance is
    asked about (its owner holds an Epic Tale) but the Cauldron is not among the answers."""
    table = new_alliance_replaces_blue("ep_dagdas_cauldron")
    assert trigger(table) == "clan_removed" and asked(table) == ["blue"]
    assert table.legal("blue") == [{"type": "decline"}]


# -- Oengus's Ploy ---------------------------------------------------------------------------


def test_oengus_ploy_takes_the_next_turn():
    """Oengus's Ploy: "At the end of any player's turn in the Season phase. You take the next
    turn." Ruling U14: turn order then continues from you."""
    table = Table(
        CLASH,
        seats=THREE,
        capital="cove",
        decline=False,
        flock="clockwise",
        hands={"green": ["act_new_clans"], "orange": ["ep_oengus_ploy"], "blue": ["act_bard"]},
    )
    table.play("green", "act_new_clans", territories=["valley", "valley"])
    skip_to(table, "turn_ended")
    assert asked(table) == ["orange"]  # green and blue hold no Epic Tale
    assert offered(table, "orange", "ep_oengus_ploy")
    react(table, "orange", "ep_oengus_ploy")
    settle(table)
    assert table.awaiting() == {"orange": "season_turn"}  # blue is skipped
    table.do("orange", "pass")
    settle(table)
    assert table.awaiting() == {"green": "season_turn"}  # on from orange, clockwise


def test_oengus_ploy_is_not_asked_of_a_seat_without_an_epic_tale():
    """The turn_ended window is offered only to seats holding an Epic Tale: with none in any
    hand, turns follow one another without a window."""
    table = Table(CLASH, seats=THREE, capital="cove", decline=False, hands={"green": ["act_new_clans"]})
    table.play("green", "act_new_clans", territories=["valley", "valley"])
    assert trigger(table) is None
    assert table.awaiting() == {"blue": "season_turn"}


# -- Cathbad's Word --------------------------------------------------------------------------

ASSEMBLY = """
    moor    0,0   green 3  blue 2
    valley  1,0   green 1  orange 2
    plains  0,1   blue 2
"""


def finish_draft(table):
    """Every seat keeps the first legal choice until the draft is over."""
    while any(kind == "draft" for kind in table.awaiting().values()):
        for seat, kind in table.awaiting().items():
            if kind == "draft":
                table.do(seat, table.legal(seat)[0])


def test_cathbads_word_chooses_the_set_aside_card_and_takes_it():
    """Cathbad's Word: "At the start of the Assembly phase. You, not chance, choose which Action
    card is set aside this Assembly. At the end of the Assembly, after the draft, put that card
    into your hand, then set aside 1 Action card from your hand face down." """
    table = Table(
        ASSEMBLY,
        seats=THREE,
        capital="moor",
        brenn="green",
        phase="assembly",
        decline=False,
        hands={"blue": ["ep_cathbads_word"]},
    )
    assert trigger(table) == "assembly_started"
    assert asked(table) == ["blue"]  # green and orange hold no Epic Tale
    assert offered(table, "blue", "ep_cathbads_word")
    react(table, "blue", "ep_cathbads_word")
    settle(table)
    assert table.awaiting() == {"blue": "card_choice"}
    choices = table.legal("blue")
    assert {"type": "set_aside", "card": "act_geis"} in choices and len(choices) == 13
    table.do("blue", "set_aside", card="act_geis")
    assert table.state.set_aside == "act_geis"
    finish_draft(table)
    settle(table)
    assert table.awaiting() == {"blue": "card_choice"}
    assert "act_geis" in table.hand("blue")
    give_up = table.legal("blue")[0]["card"]
    table.do("blue", "set_aside", card=give_up)
    settle(table)
    assert table.state.set_aside == give_up
    assert give_up not in table.hand("blue")
    assert len(table.state.action_cards("blue")) == 4
    assert table.state.phase == "season"


def test_cathbads_word_is_offered_only_at_the_start_of_the_assembly():
    """Cathbad's Word's trigger is the start of the Assembly: during the Season its holder may not
    play it (asked at a turn's end for holding an Epic Tale, it may only decline)."""
    table = Table(
        CLASH,
        seats=THREE,
        capital="cove",
        decline=False,
        hands={"green": ["act_new_clans"], "blue": ["ep_cathbads_word"]},
    )
    table.play("green", "act_new_clans", territories=["valley", "valley"])
    skip_to(table, "turn_ended")
    assert asked(table) == ["blue"] and not offered(table, "blue", "ep_cathbads_word")


# -- the four maneuvers ----------------------------------------------------------------------


def test_ogmas_eloquence_ends_the_clash_at_once():
    """Ogma's Eloquence: "During a clash, as your maneuver. The clash ends immediately; sheltered
    clans leave their Citadels." """
    table = warlord({"green": ["ep_ogmas_eloquence"]})
    to_citadels(table, shelter=True)
    to_maneuver(table, "green")
    assert {"type": "play", "card": "ep_ogmas_eloquence"} in table.legal("green")
    events = table.do("green", "play", card="ep_ogmas_eloquence")
    events += settle(table)
    ended = first(events, "ClashEnded").payload
    assert ended["reason"] == "Ogma's Eloquence" and ended["released"] == {"blue": 1}
    assert table.clash() is None
    assert table.clans("moor") == {"green": 3, "blue": 2}


def test_maneuver_epic_tales_are_played_only_as_your_maneuver():
    """The four maneuver Epic Tales are Triskel cards "played on your maneuver turn during a
    clash": not on a Season turn, and not while another player maneuvers."""
    table = Table(
        CLASH,
        seats=THREE,
        capital="cove",
        decline=False,
        hands={"green": ["ep_ogmas_eloquence", "act_warlord"], "blue": ["ep_the_fianna", "act_bard"]},
    )
    assert all(c.get("card") != "ep_ogmas_eloquence" for c in table.legal("green"))
    message = table.refuse("green", "play", card="ep_ogmas_eloquence")
    assert "Triskel" in message
    table.play("green", "act_warlord", territory="moor")
    settle(table)
    table.do("blue", "no_citadel")
    to_maneuver(table, "green")
    assert table.legal("blue") == []  # not blue's maneuver: The Fianna waits
    table.refuse("blue", "play", card="ep_the_fianna", to="plains", count=1)


def test_the_fianna_moves_clans_out_even_from_the_citadels_without_a_clash():
    """The Fianna: "During a clash, as your maneuver. Move 1 or more of your clans, exposed or
    sheltered in Citadels, from the clashing territory into 1 adjacent territory. No chieftain
    requirement, unlike Withdraw. This move does not start a clash." """
    table = fianna_maneuver()
    fianna = [c for c in table.legal("blue") if c.get("card") == "ep_the_fianna"]
    # 1 exposed and 1 sheltered clan: up to 2, to any adjacent territory (green's Valley too,
    # where blue is not chieftain).
    assert {"type": "play", "card": "ep_the_fianna", "to": "valley", "count": 2, "sheltered": 1} in fianna
    assert max(c["count"] for c in fianna) == 2
    table.do("blue", "play", card="ep_the_fianna", to="valley", count=2, sheltered=1)
    settle(table)
    assert table.clans("valley") == {"green": 2, "blue": 2}
    assert "blue" not in table.clans("moor")
    assert [e.payload["territory"] for e in table.events if e.type == "ClashStarted"] == ["moor"]
    assert table.awaiting() == {"green": "maneuver"}  # green alone may end the clash
    assert {"type": "end_clash"} in table.legal("green")


def test_the_fianna_player_chooses_which_clans_move():
    """The Fianna: "Move 1 or more of your clans, exposed or sheltered in Citadels" — the player
    chooses which: here the sheltered clan leaves and the exposed one stays in the clash."""
    table = fianna_maneuver()
    fianna = [c for c in table.legal("blue") if c.get("card") == "ep_the_fianna" and c["to"] == "valley"]
    assert [(c["count"], c["sheltered"]) for c in fianna] == [(1, 0), (1, 1), (2, 1)]
    table.do("blue", "play", card="ep_the_fianna", to="valley", count=1, sheltered=1)
    settle(table)
    assert table.clans("valley") == {"green": 2, "blue": 1}
    assert table.clash()["sheltered"].get("blue", 0) == 0
    assert table.clans("moor")["blue"] == 1  # the exposed clan stays, exposed


def test_the_battle_of_moytura_brings_clans_in_and_places_one():
    """The Battle of Moytura: "During a clash, as your maneuver. Move 1 or more of your clans
    from 1 or more territories adjacent to the clashing territory into it, then place 1 clan from
    your reserve there. All of these are exposed." """
    table = warlord({"green": ["ep_battle_of_moytura"]})
    to_citadels(table, shelter=False)
    to_maneuver(table, "green")
    moytura = [c for c in table.legal("green") if c.get("card") == "ep_battle_of_moytura"]
    assert moytura == [
        {"type": "play", "card": "ep_battle_of_moytura", "moves": {"valley": 1}},
        {"type": "play", "card": "ep_battle_of_moytura", "moves": {"valley": 2}},
    ]
    table.do("green", "play", card="ep_battle_of_moytura", moves={"valley": 2})
    settle(table)
    assert table.clans("moor") == {"green": 3 + 2 + 1, "blue": 2}
    assert "valley" not in table.state.present("green")
    assert table.decision("blue").context["exposed"] == {"green": 6, "blue": 2}


def test_the_battle_of_moytura_needs_your_clans_next_to_the_clash():
    """The Battle of Moytura moves clans "from territories adjacent to the clashing territory":
    with none there it is not among the maneuvers."""
    island = """
        moor    0,0   green 3  blue 2
        plains  0,1   blue 2  orange 1
        cove    -1,1  orange 1
    """
    table = warlord({"green": ["ep_battle_of_moytura"]}, island=island)
    to_maneuver(table, "green")
    assert all(c.get("card") != "ep_battle_of_moytura" for c in table.legal("green"))


def test_tale_of_cuchulain_removes_two_exposed_clans():
    """Tale of Cúchulain: "During a clash, as your maneuver, only if you have exactly 1 exposed
    clan there. Remove any 2 exposed clans from the clashing territory." """
    table = warlord({"blue": ["ep_tale_of_cuchulain", "act_bard"]})
    to_citadels(table, shelter=True)  # blue: 1 exposed, 1 sheltered
    to_maneuver(table, "green")
    attack(table, "green", "blue")
    table.do("blue", "attack_response", choice="discard", card="act_bard")
    to_maneuver(table, "blue")
    tale = [c for c in table.legal("blue") if c.get("card") == "ep_tale_of_cuchulain"]
    assert {"type": "play", "card": "ep_tale_of_cuchulain", "remove": ["green", "green"]} in tale
    table.do("blue", "play", card="ep_tale_of_cuchulain", remove=["green", "green"])
    settle(table)
    assert table.clans("moor") == {"green": 1, "blue": 2}
    assert table.state.reserve["green"] == 12 - 3


def test_tale_of_cuchulain_needs_exactly_one_exposed_clan():
    """Tale of Cúchulain: "only if you have exactly 1 exposed clan there": with 2 it is not
    among the maneuvers."""
    table = warlord({"blue": ["ep_tale_of_cuchulain", "act_bard"]})
    to_citadels(table, shelter=False)  # blue: 2 exposed
    to_maneuver(table, "green")
    attack(table, "green", "blue")
    table.do("blue", "attack_response", choice="discard", card="act_bard")
    to_maneuver(table, "blue")
    assert all(c.get("card") != "ep_tale_of_cuchulain" for c in table.legal("blue"))


def test_every_triskel_epic_tale_is_covered():
    """The fourteen Triskel Epic Tales of docs/cards.md are the ones tested above."""
    triskels = {c for c, info in CARDS.items() if info.type == EPIC and "triskel" in info.timings}
    assert triskels == {
        "ep_the_dagda",
        "ep_lug_samildanach",
        "ep_lugs_spear",
        "ep_battle_frenzy",
        "ep_strengs_resolve",
        "ep_diarmuid_grainne",
        "ep_dagdas_club",
        "ep_dagdas_cauldron",
        "ep_oengus_ploy",
        "ep_cathbads_word",
        "ep_battle_of_moytura",
        "ep_the_fianna",
        "ep_ogmas_eloquence",
        "ep_tale_of_cuchulain",
    }
