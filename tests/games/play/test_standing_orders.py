"""Standing orders answer a seat's later decisions in the command's transaction (docs/standing-orders.md).

The positions: a 2-player island, green to play its Season turn. Green and blue both have clans
in the Valley; blue alone in the Cove, green alone in the Plains. The rulebook situations: a
Warlord played into a territory starts a clash there (the rulebook, "Clash"); the attacked player
discards an Action card or loses a clan ("Attack"); a player with exposed clans may propose peace
and everybody votes ("Peace"); a player withdraws exposed clans to a neighbouring territory where
it is chieftain ("Withdraw"); Geis answers another player's Action card ("Triskel").
"""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import rules, store
from games.models import Command, SeatClock, StandingOrder
from games.play import standing_orders
from games.play.standing_orders import OrderError, set_order
from games.services import submit_command
from games.store.verification import verify_game
from inis_pbem.tasks import sweep
from tests.notifications.email_positions import ASSEMBLY, game_from
from tests.notifications.test_inbound import send_all


def position(green_hand, blue_hand, **extra):
    return {
        "territories": {
            "valley": {"cell": [0, 0], "clans": {"green": 3, "blue": 2}},
            "cove": {"cell": [1, 0], "clans": {"blue": 2}},
            "plains": {"cell": [0, 1], "clans": {"green": 1}},
        },
        "capital": "plains",
        "brenn": "green",
        "turn": "green",
        "opened": True,
        "phase": "season",
        "round": 1,
        "hands": {"green": green_hand, "blue": blue_hand},
        **extra,
    }


@pytest.fixture
def table(make_game):
    """make(green_hand, blue_hand) -> (game, green, blue): a 2-player game in that position."""

    def make(green_hand, blue_hand, **extra):
        game = make_game(
            n_players=2,
            seed="orders",
            setup=position(green_hand, blue_hand, **extra),
            options={"reaction_mode": "holders"},
        )
        green, blue = game.seats.order_by("position")
        return game, green, blue

    return make


def play(game, seat, command):
    """Submit `command` for `seat`; then green declines its own Triskel windows (the Bard after
    its plays and maneuvers), which these tests are not about. Returns the state."""
    result = submit_command(game=game, seat=seat, command=command, expected_seq=store.head(game)[0])
    assert result.accepted, result.message
    state = store.load(game)[0]
    if ("green", "reaction") in waiting(state):
        return play(game, game.seats.get(colour="green"), {"type": "decline"})
    return state


def ordered(game, seat):
    """The commands the seat's orders played, in order."""
    return [
        c.body
        for c in Command.objects.filter(game=game, seat=seat, command_id__startswith="order:").order_by(
            "first_seq"
        )
    ]


def waiting(state):
    return [(d.seat, d.kind) for d in rules.pending(state)]


def test_geis_is_declined_when_the_card_played_concerns_nobody_of_mine(table):
    """Blue holds Geis, with the order "ask me about Geis only when it concerns me". Green plays
    New Clans into the Plains, where blue has no clan: blue is not asked, and declines."""
    game, green, blue = table(["act_new_clans", "act_warlord"], ["act_geis", "act_bard"])
    set_order(game, blue, {"kind": "triskel", "card": "act_geis"})
    state = play(game, green, {"type": "play", "card": "act_new_clans", "territories": ["plains", "plains"]})
    assert ordered(game, blue) == [{"type": "decline"}]
    assert ("blue", "reaction") not in waiting(state)
    assert StandingOrder.objects.filter(seat=blue, kind="triskel").exists()  # it stays
    assert verify_game(game).ok


def test_geis_is_asked_when_the_card_played_targets_a_territory_of_mine(table):
    """The same order; green plays Warlord into the Valley, where blue has clans: blue is asked."""
    game, green, blue = table(["act_new_clans", "act_warlord"], ["act_geis", "act_bard"])
    set_order(game, blue, {"kind": "triskel", "card": "act_geis"})
    state = play(game, green, {"type": "play", "card": "act_warlord", "territory": "valley"})
    assert waiting(state) == [("blue", "reaction")]
    assert ordered(game, blue) == []


def _clash(table, blue_orders, blue_hand=("act_geis", "act_new_clans")):
    """Green plays Warlord into the Valley (blue declines Geis): a clash, green's maneuver."""
    game, green, blue = table(["act_warlord", "act_bard"], list(blue_hand))
    for order in blue_orders:
        set_order(game, blue, order)
    state = play(game, green, {"type": "play", "card": "act_warlord", "territory": "valley"})
    if ("blue", "reaction") in waiting(state):
        state = play(game, blue, {"type": "decline"})
    assert waiting(state) == [("green", "maneuver")]
    return game, green, blue


def test_an_attack_is_answered_by_discarding_the_first_listed_card_held(table):
    game, green, blue = _clash(
        table, [{"kind": "attack", "answer": "discard", "cards": ["act_sanctuary", "act_new_clans"]}]
    )
    play(game, green, {"type": "attack", "target": "blue"})
    assert ordered(game, blue) == [{"type": "attack_response", "choice": "discard", "card": "act_new_clans"}]
    assert verify_game(game).ok


def test_an_attack_order_that_fits_no_legal_answer_asks(table):
    """Blue's order discards the Sanctuary, which blue does not hold: blue is asked."""
    game, green, blue = _clash(table, [{"kind": "attack", "answer": "discard", "cards": ["act_sanctuary"]}])
    state = play(game, green, {"type": "attack", "target": "blue"})
    assert waiting(state) == [("blue", "attack_response")] and ordered(game, blue) == []


def test_peace_is_refused_by_order(table):
    game, green, blue = _clash(table, [{"kind": "peace", "agree": False}])
    state = play(game, green, {"type": "propose_peace"})
    assert ordered(game, blue) == [{"type": "peace_vote", "agree": False}]
    assert ("blue", "peace_vote") not in waiting(state)


def test_a_maneuver_withdraws_to_the_first_listed_territory(table):
    """After green's attack (blue removes a clan by order), blue's maneuver: blue withdraws its
    last exposed clan to the Cove, where it is chieftain."""
    game, green, blue = _clash(
        table, [{"kind": "attack", "answer": "remove"}, {"kind": "withdraw", "to": ["plains", "cove"]}]
    )
    play(game, green, {"type": "attack", "target": "blue"})
    assert ordered(game, blue) == [
        {"type": "attack_response", "choice": "remove"},
        {"type": "withdraw", "moves": {"cove": 1}},
    ]
    assert verify_game(game).ok


def test_a_queued_play_is_played_on_the_next_turn(table):
    game, green, blue = table(["act_bard", "act_warlord"], ["act_new_clans", "act_sanctuary"])
    set_order(
        game,
        blue,
        {
            "kind": "queue_play",
            "command": {"type": "play", "card": "act_new_clans", "territories": ["cove", "cove"]},
        },
    )
    state = play(game, green, {"type": "play", "card": "act_bard"})
    assert ordered(game, blue) == [{"type": "play", "card": "act_new_clans", "territories": ["cove", "cove"]}]
    assert not StandingOrder.objects.filter(seat=blue).exists()  # used once
    assert waiting(state)[0][0] == "green"
    assert verify_game(game).ok


def test_a_queued_play_watching_a_territory_that_changed_asks(table):
    """Blue queued New Clans in the Cove unless the Valley changes; green builds a Citadel there:
    blue is asked on its turn, and the order is gone."""
    game, green, blue = table(["act_citadel", "act_bard"], ["act_new_clans", "act_geis"])
    set_order(
        game,
        blue,
        {
            "kind": "queue_play",
            "command": {"type": "play", "card": "act_new_clans", "territories": ["cove", "cove"]},
            "watch": ["valley"],
        },
    )
    state = play(game, green, {"type": "play", "card": "act_citadel", "territory": "valley"})
    if ("blue", "reaction") in waiting(state):
        state = play(game, blue, {"type": "decline"})
    assert waiting(state) == [("blue", "season_turn")]
    assert ordered(game, blue) == [] and not StandingOrder.objects.filter(seat=blue).exists()


def test_pass_until_something_concerns_me(table):
    """Blue passes while green plays into the Plains; when green's card lands in the Valley, the
    order turns itself off and blue is asked."""
    game, green, blue = table(["act_new_clans", "act_bard", "act_citadel"], ["act_festival", "act_sanctuary"])
    set_order(game, blue, {"kind": "pass_until"})
    state = play(game, green, {"type": "play", "card": "act_new_clans", "territories": ["plains", "plains"]})
    assert ordered(game, blue) == [{"type": "pass"}]
    assert waiting(state) == [("green", "season_turn")]
    state = play(game, green, {"type": "play", "card": "act_citadel", "territory": "valley"})
    assert waiting(state) == [("blue", "season_turn")]
    assert ordered(game, blue) == [{"type": "pass"}]
    assert not StandingOrder.objects.filter(seat=blue, kind="pass_until").exists()
    assert verify_game(game).ok


def test_a_draft_ranking_keeps_the_highest_ranked_cards_of_each_pack(table):
    """The Assembly's draft: each player keeps cards from the pack in front of them and passes
    the rest (the rulebook, "Assembly: draft"). Blue's ranking keeps the best-ranked cards of
    every pack that reaches it after the order was set."""
    game, green, blue = table([], [], phase="assembly")
    ranking = sorted((c for c in rules.CARDS if c.startswith("act_")), reverse=True)
    set_order(game, blue, {"kind": "draft", "ranking": ranking})
    state = store.load(game)[0]
    for _turn in range(12):
        if not any(kind == "draft" for _seat, kind in waiting(state)) or ordered(game, blue):
            break
        colour = waiting(state)[0][0]
        seat = green if colour == "green" else blue
        state = play(game, seat, rules.legal_commands(state, colour)[0])
    done = Command.objects.filter(game=game, seat=blue, command_id__startswith="order:").order_by("first_seq")
    assert done.exists(), "a pack reached blue after its order"
    before = store.load(game, until=done[0].first_seq - 1)[0]
    offered = {card for c in rules.legal_commands(before, "blue") for card in c["keep"]}
    keep = len(done[0].body["keep"])
    assert done[0].body["keep"] == sorted(sorted(offered, key=ranking.index)[:keep])
    assert verify_game(game).ok


def test_a_draft_pack_holding_a_card_marked_ask_me_is_asked(table):
    game, green, blue = table([], [], phase="assembly")
    every = [c for c in rules.CARDS if c.startswith("act_")]
    set_order(game, blue, {"kind": "draft", "ranking": every[1:], "ask": every})
    state = store.load(game)[0]
    for _turn in range(12):
        if not any(kind == "draft" for _seat, kind in waiting(state)):
            break
        colour = waiting(state)[0][0]
        state = play(game, green if colour == "green" else blue, rules.legal_commands(state, colour)[0])
    assert ordered(game, blue) == []


@pytest.mark.parametrize(
    "body",
    [
        {"kind": "sing"},
        {"kind": "triskel", "card": "act_druid"},
        {"kind": "attack", "answer": "flee"},
        {"kind": "attack", "answer": "discard", "cards": []},
        {"kind": "peace", "agree": "maybe"},
        {"kind": "withdraw", "to": ["atlantis"]},
        {"kind": "queue_play", "command": {"type": "attack", "target": "blue"}},
        {"kind": "draft", "ranking": ["act_excalibur"]},
        {"kind": "stand_in", "decision": "draft"},
        {"kind": "stand_in"},
    ],
)
def test_bad_orders_are_refused_with_a_reason_and_nothing_is_stored(table, body):
    game, green, blue = table(["act_bard"], ["act_geis"])
    with pytest.raises(OrderError) as refused:
        set_order(game, blue, body)
    assert str(refused.value)
    assert not StandingOrder.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {"kind": "withdraw", "to": ["forest"]},
        {"kind": "queue_play", "command": {"type": "pass"}, "watch": ["valley", "forest"]},
    ],
)
def test_an_order_naming_a_territory_off_the_island_is_refused(table, body):
    """docs/email-commands.md lists "a territory not on the island" among the refusals: the
    Forest is a territory of the game, but not of this island (Valley, Cove, Plains)."""
    game, green, blue = table(["act_bard"], ["act_geis"])
    with pytest.raises(OrderError) as refused:
        set_order(game, green, body)
    assert str(refused.value) == (
        "The Forest is not on the island: name territories in play (Cove, Plains, Valley)."
    )
    assert not StandingOrder.objects.exists()


def test_at_sixteen_orders_a_queued_play_still_replaces_pass_until(table):
    """docs/standing-orders.md: "A seat holds at most 16 orders … (setting one again replaces it;
    a queued play and "pass until" replace each other)": the swap keeps the count at 16."""
    game, green, blue = table(["act_bard"], ["act_geis"])
    set_order(game, green, {"kind": "pass_until"})
    triskels = [card for card, info in rules.CARDS.items() if rules.TRISKEL in info.timings]
    for card in triskels[:15]:
        set_order(game, green, {"kind": "triskel", "card": card})
    set_order(game, green, {"kind": "queue_play", "command": {"type": "pass"}})
    kinds = list(StandingOrder.objects.filter(seat=green).values_list("kind", flat=True))
    assert len(kinds) == 16 and "queue_play" in kinds and "pass_until" not in kinds
    with pytest.raises(OrderError, match="You have 16 orders already"):
        set_order(game, green, {"kind": "peace", "agree": True})


def test_only_a_card_an_order_can_queue_is_queued_or_offered(table):
    """Blue holds Migration (its play takes clans from several places, which no order holds),
    Geis (Triskel only) and Sanctuary. A queued Migration is refused as a card no order can
    queue, not as a card missing from the hand; a queued Warlord, which blue lacks, is refused
    offering Sanctuary alone; nothing is stored."""
    game, green, blue = table(["act_bard"], ["act_migration", "act_geis", "act_sanctuary"])
    assert standing_orders.queueable_cards(store.load(game)[0], "blue") == ["act_sanctuary"]
    migration = {"type": "play", "card": "act_migration", "from": "cove", "moves": {"valley": 1}}
    with pytest.raises(OrderError) as refused:
        set_order(game, blue, {"kind": "queue_play", "command": migration})
    assert str(refused.value) == (
        "Migration cannot be queued: its play takes choices an order does not hold. Play it on your turn."
    )
    with pytest.raises(OrderError) as refused:
        set_order(
            game,
            blue,
            {"kind": "queue_play", "command": {"type": "play", "card": "act_warlord", "territory": "cove"}},
        )
    assert (
        str(refused.value)
        == "Warlord is not in your hand: you may queue Sanctuary, a pass or a Pretender token."
    )
    assert not StandingOrder.objects.exists()


def test_cancelled_orders_answer_nothing(table):
    game, green, blue = _clash(table, [{"kind": "peace", "agree": False}])
    assert standing_orders.cancel_order(blue) == 1
    state = play(game, green, {"type": "propose_peace"})
    assert ("blue", "peace_vote") in waiting(state) and ordered(game, blue) == []


def test_at_the_deadline_the_seats_orders_come_before_the_default(db):
    """Green set a draft ranking while its pick was open: the order does not answer at once (the
    player reading the prompt does), but at the deadline it picks instead of the default."""
    game = game_from(ASSEMBLY, seed="deadline-orders")
    send_all()
    green = game.seats.get(colour="green")
    state, seq = store.load(game)
    offered = sorted({card for c in rules.legal_commands(state, "green") for card in c["keep"]})
    ranking = list(reversed(offered))
    set_order(game, green, {"kind": "draft", "ranking": ranking})
    assert ordered(game, green) == []
    SeatClock.objects.filter(seat=green).update(opened_at=timezone.now() - timedelta(days=30))

    sweep.apply()

    command = Command.objects.get(game=game, seat=green)
    keep = len(command.body["keep"])
    assert command.body == {"type": "draft", "keep": sorted(ranking[:keep])}
    assert command.command_id == f"order:green:{seq}"
    assert verify_game(game).ok


# The maneuver commands (the rulebook, "Clash": Attack, Withdraw, an Epic Tale played, peace, the end).
MANEUVERS = {"attack", "withdraw", "propose_peace", "end_clash", "play"}


def test_the_stand_in_bot_makes_my_maneuvers_in_clashes(table):
    """ "Clash": each player in the clash, in turn, performs one maneuver (Attack, Withdraw, an Epic
    Tale, or proposing peace). Blue lets the stand-in bot make its maneuvers and removes a clan
    when attacked: after green's attack, blue's maneuver is made at once, by the seat's own
    command, and verify_game decides it again."""
    game, green, blue = _clash(
        table, [{"kind": "attack", "answer": "remove"}, {"kind": "stand_in", "decision": "maneuver"}]
    )
    state = play(game, green, {"type": "attack", "target": "blue"})
    played = ordered(game, blue)
    assert played[0] == {"type": "attack_response", "choice": "remove"}
    assert len(played) == 2 and played[1]["type"] in MANEUVERS
    assert ("blue", "maneuver") not in waiting(state)
    assert verify_game(game).ok


def test_the_stand_in_bot_answers_the_triskel_window_of_my_own_maneuver(table):
    """ "Bard" (Triskel): after a maneuver of yours that removed an opponent's clan, gain a Deed.
    Green holds the Bard and lets the stand-in bot answer the Triskel windows of its own plays:
    after green's attack costs blue a clan, green is not asked about the Bard."""
    game, green, blue = _clash(table, [{"kind": "attack", "answer": "remove"}])
    set_order(game, green, {"kind": "stand_in", "decision": "own_triskel"})
    result = submit_command(
        game=game, seat=green, command={"type": "attack", "target": "blue"}, expected_seq=store.head(game)[0]
    )
    assert result.accepted, result.message
    state = store.load(game)[0]
    assert ("green", "reaction") not in waiting(state)
    assert [c["type"] for c in ordered(game, green)] in (["react"], ["decline"])
    assert verify_game(game).ok


def test_a_triskel_window_opened_by_another_players_play_is_not_handed_to_the_bot(table):
    """Blue holds Geis, which answers another player's Action card ("Geis", Triskel), and lets the
    stand-in bot answer only after its own plays: green's Warlord into the Valley asks blue."""
    game, green, blue = table(["act_new_clans", "act_warlord"], ["act_geis", "act_bard"])
    set_order(game, blue, {"kind": "stand_in", "decision": "own_triskel"})
    state = play(game, green, {"type": "play", "card": "act_warlord", "territory": "valley"})
    assert waiting(state) == [("blue", "reaction")]
    assert ordered(game, blue) == []


def test_a_stand_in_bot_that_fails_leaves_the_maneuver_to_the_player(table, monkeypatch):
    """Should the bot fail, green's attack is still accepted and blue is asked for its maneuver,
    as without the order."""
    game, green, blue = _clash(
        table, [{"kind": "attack", "answer": "remove"}, {"kind": "stand_in", "decision": "maneuver"}]
    )

    def broken(*args, **kwargs):
        raise RuntimeError("the bot broke")

    monkeypatch.setattr(standing_orders.bots, "choose", broken)
    state = play(game, green, {"type": "attack", "target": "blue"})
    assert ("blue", "maneuver") in waiting(state)
    assert ordered(game, blue) == [{"type": "attack_response", "choice": "remove"}]


def test_warlord_in_my_clashes_is_asked_only_when_i_am_attacked(table):
    """ "Warlord" (Triskel): in a clash you are involved in, right after any maneuver, place a clan
    there and choose who performs the next maneuver. Blue holds Warlord with the order "ask me
    about Warlord in my clashes only when I am attacked". Green's Conquest starts a clash in the
    Valley; green attacks blue: blue is asked, in one prompt with its maneuver, which comes next
    (docs/rulings.md, "A Triskel window folded into your maneuver"). Blue attacks green in turn,
    which declines Warlord: after its own maneuver blue is attacked by nobody, so the order
    declines for it."""
    game, green, blue = table(["act_conquest", "act_sanctuary"], ["act_warlord", "act_new_clans"])
    set_order(game, blue, {"kind": "attack", "answer": "remove"})
    set_order(game, blue, {"kind": "triskel", "card": "act_warlord", "when": "attacked"})
    state = play(
        game, green, {"type": "play", "card": "act_conquest", "territory": "valley", "moves": {"plains": 1}}
    )
    assert waiting(state) == [("green", "maneuver")]
    state = play(game, green, {"type": "attack", "target": "blue"})
    assert waiting(state) == [("blue", "maneuver")]
    assert {"type": "react", "card": "act_warlord", "next": "blue"} in rules.legal_commands(state, "blue")
    state = play(game, blue, {"type": "attack", "target": "green"})
    state = play(game, green, {"type": "attack_response", "choice": "remove"})
    assert ("blue", "reaction") not in waiting(state)
    assert ordered(game, blue)[-1] == {"type": "decline"}
    assert verify_game(game).ok


def test_the_stand_in_bot_does_not_answer_a_triskel_window_folded_into_my_maneuver(table):
    """Blue holds Warlord and lets the stand-in bot make its maneuvers. Green's attack opens a
    window about Warlord in the step of blue's maneuver, one decision with it: blue is asked, since
    the bot would answer a window someone else's move opened."""
    game, green, blue = table(["act_conquest", "act_sanctuary"], ["act_warlord", "act_new_clans"])
    set_order(game, blue, {"kind": "attack", "answer": "remove"})
    set_order(game, blue, {"kind": "stand_in", "decision": "maneuver"})
    play(game, green, {"type": "play", "card": "act_conquest", "territory": "valley", "moves": {"plains": 1}})
    state = play(game, green, {"type": "attack", "target": "blue"})
    assert waiting(state) == [("blue", "maneuver")]
    assert ordered(game, blue) == [{"type": "attack_response", "choice": "remove"}]


def test_a_triskel_order_names_when_it_asks(table):
    """An order asks "when it concerns me" or "only when I am attacked"; anything else is refused."""
    game, _green, blue = table(["act_conquest"], ["act_warlord"])
    with pytest.raises(OrderError, match="attacked"):
        set_order(game, blue, {"kind": "triskel", "card": "act_warlord", "when": "sometimes"})
    set_order(game, blue, {"kind": "triskel", "card": "all", "when": "attacked"})
    order = StandingOrder.objects.get(seat=blue, kind="triskel")
    assert order.body == {"card": "all", "when": "attacked"}
    assert "only when I am attacked" in standing_orders.describe(order)


def test_the_stand_in_bot_places_my_setup_clans(make_game):
    """The rulebook, "Setup": the Brenn places the Capital, then each player in turn, from the
    Brenn, places 1 clan in any territory, twice. Blue leaves its setup clans to the stand-in bot:
    each time blue's placement comes, a clan of blue's is placed at once, by blue's own command,
    while green is asked for its own. Blue, the Brenn, still chooses the Capital itself: that
    choice opens the game. verify_game decides the log again."""
    game = make_game(n_players=2, seed="orders-setup")
    seats = {seat.colour: seat for seat in game.seats.all()}
    set_order(game, seats["blue"], {"kind": "stand_in", "decision": "setup"})
    asked = []
    for _turn in range(10):
        state = store.load(game)[0]
        decisions = [(d.seat, d.kind) for d in rules.pending(state)]
        if not decisions or decisions[0][1] not in ("choose_capital", "place_clan"):
            break
        asked.append(decisions[0])
        seat = decisions[0][0]
        play(game, seats[seat], rules.legal_commands(state, seat)[0])
    assert asked == [("blue", "choose_capital"), ("green", "place_clan"), ("green", "place_clan")]
    placed = ordered(game, seats["blue"])
    assert [c["type"] for c in placed] == ["place_clan", "place_clan"]
    assert sum(state.clans(t, "blue") for t in state.territories) == 2
    assert verify_game(game).ok


def test_the_stand_in_bot_takes_the_card_druid_offers_me(table):
    """ "Druid" (Season): take 1 card from the Action discard pile. Green plays the Druid with the
    order that lets the stand-in bot make the choices its cards ask once played: the card is
    taken at once, from the discard pile, by green's own command."""
    game, green, blue = table(
        ["act_druid", "act_warlord"], ["act_new_clans"], action_discard=["act_conquest", "act_bard"]
    )
    set_order(game, green, {"kind": "stand_in", "decision": "card_choices"})
    state = play(game, green, {"type": "play", "card": "act_druid"})
    (taken,) = ordered(game, green)
    assert taken["type"] == "choose" and taken["card"] in ("act_conquest", "act_bard")
    assert taken["card"] in state.action_cards("green")
    assert ("green", "card_choice") not in waiting(state)
    assert verify_game(game).ok


def test_the_card_choices_order_answers_no_other_decision(table):
    """The same order leaves green's Season turn and its maneuvers in a clash to green."""
    game, green, blue = table(["act_warlord", "act_druid"], ["act_new_clans"])
    set_order(game, green, {"kind": "stand_in", "decision": "card_choices"})
    state = store.load(game)[0]
    assert waiting(state) == [("green", "season_turn")]
    state = play(game, green, {"type": "play", "card": "act_warlord", "territory": "valley"})
    assert ("green", "maneuver") in waiting(state)
    assert ordered(game, green) == []
