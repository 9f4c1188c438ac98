"""The game page's panels: the victory track, the game-over page naming how the High King won,
the clash panel (kept during a Triskel window inside the clash), the legend, clans marked by a
letter, and the history's step controls in words."""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings
from django.urls import reverse

from games import store
from games.services import SeatSpec, create_game, submit_command

pytestmark = pytest.mark.django_db


def text_of(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def section(response, element_id: str) -> str:
    """The visible text of the element with id `element_id` (a <section>)."""
    body = response.content.decode()
    start = body.index(f'id="{element_id}"')
    end = body.index("</section>", start)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body[start:end])))


# Green: present in 6 territories, chieftain over blue's 2 clans in the Hills (the Forest is a tie:
# no chieftain), a Pretender; blue: 3 territories and 2 Deeds, no Pretender token.
WON = {
    "territories": {
        "moor": {"cell": [0, 0], "clans": {"green": 2}, "sanctuaries": 1},
        "plains": {"cell": [1, 0], "clans": {"green": 1}},
        "valley": {"cell": [0, 1], "clans": {"green": 1}},
        "hills": {"cell": [1, -1], "clans": {"green": 3, "blue": 2}},
        "cove": {"cell": [-1, 0], "clans": {"green": 1}},
        "forest": {"cell": [-1, 1], "clans": {"green": 1, "blue": 1}},
        "mountains": {"cell": [0, -1], "clans": {"blue": 1}},
    },
    "capital": "plains",
    "brenn": "blue",
    "turn": "green",
    "opened": True,
    "phase": "assembly",
    "round": 2,
    "pretenders": ["green"],
    "deeds": {"blue": 2},
    "hands": {"green": [], "blue": []},
}


def two_players(setup, seed="panels", **options) -> tuple:
    game = create_game(
        seats=[SeatSpec(email="green@example.org"), SeatSpec(email="blue@example.org")],
        seed=seed,
        setup=setup,
        options=options,
        play_bots=False,
    )
    return game, game.seats.get(colour="green"), game.seats.get(colour="blue")


def test_the_game_over_page_names_the_winning_condition_and_the_final_track(client):
    game, green, blue = two_players(WON)
    game.refresh_from_db()
    assert game.is_over and game.winner == "green"
    client.force_login(blue.user)
    response = client.get(reverse("games:detail", args=[game.pk]))
    over = section(response, "game-over")
    assert "green is elected High King" in over
    assert "meeting 1 victory condition: present in 6 territories." in over
    final = section(response, "final-track")
    # green: 6 territories, blue's 2 clans under its chieftainship, 1 Sanctuary, a Pretender.
    assert re.search(r"green 6 of 6 2 of 6 1 of 6 0 Pretender 1", final), final
    assert re.search(r"blue 3 of 6 0 of 6 0 of 6 2 — 0", final), final
    client.force_login(green.user)
    assert "you are elected High King" in section(
        client.get(reverse("games:detail", args=[game.pk])), "game-over"
    )


def test_the_victory_track_counts_each_player_while_the_game_goes_on(client, clash_position):
    game, green, _blue = two_players(clash_position)
    track = section(client.get(reverse("games:detail", args=[game.pk])), "track")
    # green: the Valley and the Forest; blue: the Cove and the Plains (a Sanctuary; the Capital).
    assert re.search(r"green 2 of 6 0 of 6 0 of 6 0 — 0", track), track
    assert re.search(r"blue 2 of 6 0 of 6 1 of 6 0 — 0", track), track
    assert 'id="game-over"' not in client.get(reverse("games:detail", args=[game.pk])).content.decode()


def test_the_clash_panel_shows_exposed_and_sheltered_clans_and_whose_maneuver_is_next(client, clash_position):
    game, green, blue = two_players(clash_position, reaction_mode="quick")
    state, seq = store.load(game)
    assert submit_command(
        game=game,
        seat=green,
        expected_seq=seq,
        command={"type": "play", "card": "act_migration", "from": "valley", "moves": {"cove": 3}},
    ).accepted
    panel = section(client.get(reverse("games:detail", args=[game.pk])), "clash")
    assert "Clash in the Cove" in panel and "Green started it (the instigator)" in panel
    assert "Next to choose a Citadel: blue" in panel
    state, seq = store.load(game)
    assert submit_command(game=game, seat=blue, expected_seq=seq, command={"type": "citadel"}).accepted
    response = client.get(reverse("games:detail", args=[game.pk]))
    panel = section(response, "clash")
    # blue: 2 clans in the Cove, 1 sheltered; green: 3, all exposed.
    assert re.search(r"green \(instigator\) 3 0", panel) and re.search(r"blue 1 1", panel), panel
    assert "Next maneuver: green" in panel
    assert response.content.decode().count('class="clash"') == 1
    # On the island too, blue's sheltered clan apart from its exposed one; green's 3 all exposed.
    cove = response.content.decode()
    cove = cove[cove.index('<g class="territory" data-territory="cove"') + 1 :]
    cove = cove[: cove.index('<g class="territory"')] if '<g class="territory"' in cove else cove
    assert (
        '<g class="clans sheltered" data-seat="blue" data-count="1"><title>1 blue clan sheltered in a Citadel'
        in cove
    )
    assert '<g class="clans" data-seat="blue" data-count="1"><title>1 blue clan exposed' in cove
    assert '<g class="clans" data-seat="green" data-count="3"><title>3 green clans<' in cove


def test_the_clash_stays_in_view_during_a_triskel_window_inside_it(client, clash_position):
    """With reactions asked of every player (mode "strict"), the clash's own steps open Triskel
    windows (the clash started, the Citadels step ended): while one waits, the clash is still on,
    and its panel and outline stay."""
    from games import rules

    game, green, blue = two_players(clash_position, reaction_mode="strict")
    state, seq = store.load(game)
    assert submit_command(
        game=game,
        seat=green,
        expected_seq=seq,
        command={"type": "play", "card": "act_migration", "from": "valley", "moves": {"cove": 3}},
    ).accepted
    for _ in range(10):
        state, seq = store.load(game)
        top = state.top()
        if top["kind"] == "window" and any(f["kind"] == "clash" for f in state.stack):
            break
        decision = rules.pending(state)[0]
        seat = green if decision.seat == "green" else blue
        assert submit_command(
            game=game, seat=seat, expected_seq=seq, command=rules.legal_commands(state, decision.seat)[0]
        ).accepted
    else:
        pytest.fail("no window opened inside the clash")
    response = client.get(reverse("games:detail", args=[game.pk]))
    assert "Clash in the Cove" in section(response, "clash")
    assert response.content.decode().count('class="clash"') == 1
    # The player asked sees each lone answer once: its button, the title above it saying the
    # same kept for screen readers only.
    asked = rules.pending(state)[0].seat
    client.force_login((green if asked == "green" else blue).user)
    body = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert '<legend class="visually-hidden">Decline (play no Triskel card)</legend>' in body
    assert ">Decline (play no Triskel card)</button>" in body


def test_the_island_has_a_legend_and_clans_marked_by_their_letter(client, clash_position):
    game, _green, _blue = two_players(clash_position)
    response = client.get(reverse("games:detail", args=[game.pk]))
    legend = section(response, "legend") if 'id="legend"' in response.content.decode() else text_of(response)
    for word in ("Capital", "Sanctuary", "Citadel", "chieftain", "Brenn", "Pretender"):
        assert word in legend
    # The dashed chip of clans sheltered in a Citadel during a clash has its entry too.
    assert "clans sheltered in a Citadel during the clash (pale chip, dashed rim" in legend
    body = response.content.decode()
    assert re.search(r'data-seat="green" data-count="4">.*?>G4</text>', body)
    assert re.search(r'data-seat="blue" data-count="2">.*?>B2</text>', body)


def test_the_step_controls_are_words(client, make_game, play):
    game = make_game(n_players=2, seed="steps")
    play(game, 3)
    body = client.get(reverse("games:island_at", args=[game.pk, 2])).content.decode()
    for label in ("Start of the game", "Previous event", "Next event", "Latest event"):
        assert label in body
    assert not re.search("[\u23ee\u23ed\u25c0\u25b6]", body)


def test_the_clash_panel_names_the_next_player_the_rules_will_ask_not_one_absent_from_it(client):
    """Rulebook, Clash: "players take turns performing a maneuver, in turn order, starting with the
    instigator"; a player with no exposed clan there is skipped. Green attacks orange in the Cove;
    blue, between them in turn order, has no clan in the Cove: while the Triskel window after
    green's maneuver waits, the panel names orange next, as the rules will ask, not blue."""
    from games import rules

    setup = {
        "territories": {
            "valley": {"cell": [0, 0], "clans": {"green": 4}},
            "cove": {"cell": [1, 0], "clans": {"orange": 3}},
            "plains": {"cell": [0, 1], "clans": {"blue": 1}, "sanctuaries": 1},
            "forest": {"cell": [-1, 1], "clans": {"green": 1, "orange": 1}},
        },
        "capital": "plains",
        "brenn": "green",
        "turn": "green",
        "opened": True,
        "phase": "season",
        "round": 1,
        "hands": {
            "green": ["act_migration", "act_bard", "ep_eriu"],
            "blue": ["act_geis"],
            "orange": ["act_new_clans", "act_druid"],
        },
    }
    game = create_game(
        seats=[SeatSpec(email=f"{c}@example.org") for c in ("green", "blue", "orange")],
        seed="next-in-clash",
        setup=setup,
        options={"reaction_mode": "strict"},
        play_bots=False,
    )
    seats = {s.colour: s for s in game.seats.all()}
    state, seq = store.load(game)
    assert state.turn_order_from("green") == ["green", "blue", "orange"]
    assert submit_command(
        game=game,
        seat=seats["green"],
        expected_seq=seq,
        command={"type": "play", "card": "act_migration", "from": "valley", "moves": {"cove": 3}},
    ).accepted
    attacked = False
    for _ in range(30):
        state, seq = store.load(game)
        decision = rules.pending(state)[0]
        frame = rules.current_clash(state)
        if attacked and frame is not None and state.top()["kind"] == "window" and not frame["attack"]:
            break
        legal = rules.legal_commands(state, decision.seat)
        if decision.kind == "maneuver":
            command = next(c for c in legal if c["type"] == "attack")
            attacked = True
        elif decision.kind == "attack_response":
            command = next(c for c in legal if c.get("choice") != "discard" and "card" not in c)
        else:
            command = next((c for c in legal if c["type"] in ("pass", "decline")), legal[0])
        assert submit_command(
            game=game, seat=seats[decision.seat], expected_seq=seq, command=command
        ).accepted
    else:
        pytest.fail("no Triskel window after green's attack")
    client.force_login(seats["blue"].user)
    panel = section(client.get(reverse("games:detail", args=[game.pk])), "clash")
    assert "Next maneuver: orange" in panel, panel
    assert "blue" not in panel, panel


def test_the_page_names_players_by_name_with_their_colour(client, clash_position):
    """Names are public at a table: the clash panel, a decision ("Ann (green) attacks you"), the
    recent lines and the victory track say "Ann (green)", not "green" alone."""
    from players.preferences import player_for

    game, green, blue = two_players(clash_position, reaction_mode="quick")
    for seat, name in ((green, "Ann"), (blue, "Bob")):
        player = player_for(seat.email)
        player.display_name = name
        player.save()
    state, seq = store.load(game)
    assert submit_command(
        game=game,
        seat=green,
        expected_seq=seq,
        command={"type": "play", "card": "act_migration", "from": "valley", "moves": {"cove": 3}},
    ).accepted
    state, seq = store.load(game)
    assert submit_command(game=game, seat=blue, expected_seq=seq, command={"type": "citadel"}).accepted
    state, seq = store.load(game)
    assert submit_command(
        game=game, seat=green, expected_seq=seq, command={"type": "attack", "target": "blue"}
    ).accepted
    client.force_login(blue.user)
    response = client.get(reverse("games:detail", args=[game.pk]))
    panel = section(response, "clash")
    assert "Ann (green) started it (the instigator)" in panel, panel
    assert "Ann (green) attacks Bob (blue) , who must answer" in panel, panel
    page = text_of(response)
    assert "Ann (green) attacks you" in page
    assert "Ann (green) played Migration" in page
    assert re.search(r"Bob \(blue\) 2 of 6", section(response, "track"))


def test_the_seats_table_names_a_bot_by_its_level_as_the_turn_order_does(client):
    """A bot at the table reads "Hard bot" in the seats' table too, not "(bot)": the turn order,
    the victory track and the history already call it so."""
    game = create_game(
        seats=[SeatSpec(email="green@example.org"), SeatSpec(is_bot=True, bot_level="hard")],
        seed="panels-bot",
        setup=WON,
        play_bots=False,
    )
    client.force_login(game.seats.get(colour="green").user)
    response = client.get(reverse("games:detail", args=[game.pk]))
    body = response.content.decode()
    start = body.index('<table class="facts">', body.index('class="panel facts-box"'))
    seats_table = body[start : body.index("</table>", start)]
    row = re.search(r'<tr data-seat="blue">.*?</tr>', seats_table, re.S).group(0)
    assert "Hard bot" in row and "(bot)" not in row


def test_the_winner_reads_the_end_of_the_game_said_to_them(client):
    """The High King's own page says "you", as its history does ("You are elected High King."),
    in English and in French; the other player reads the winner named."""
    game, green, blue = two_players(WON)
    client.force_login(green.user)
    response = client.get(reverse("games:detail", args=[game.pk]))
    head, over = text_of(response), section(response, "game-over")
    assert "The game is over: you are the High King." in head
    assert "The game is over: you are elected High King" in over and "green is elected" not in over
    assert (
        "At the Assembly, you were a Pretender meeting 1 victory condition: present in 6 territories." in over
    )
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"  # green's preference, as at sign-in
    response = client.get(reverse("games:detail", args=[game.pk]))
    head, over = text_of(response), section(response, "game-over")
    assert "La partie est terminée : vous êtes le Haut-roi." in head
    assert "La partie est terminée : vous êtes élu Haut-roi" in over and "vert est élu" not in over
    assert "À l'Assemblée, vous étiez Prétendant et remplissiez 1 condition de victoire" in over
    client.force_login(blue.user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "green is elected High King" in section(
        client.get(reverse("games:detail", args=[game.pk])), "game-over"
    )


def test_a_hand_revealed_at_the_end_is_headed_by_its_players_name(client):
    """The heading over a hand shown once the game is over names its player as the rest of the
    page does ("Ann (green)"), not by the colour alone."""
    from players.preferences import player_for

    game, green, blue = two_players(WON)
    player = player_for(green.email)
    player.display_name = "Ann"
    player.save()
    client.force_login(blue.user)
    assert "Ann (green)'s hand (revealed at the end)" in text_of(
        client.get(reverse("games:detail", args=[game.pk]))
    )
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    page = text_of(client.get(reverse("games:detail", args=[game.pk])))
    assert "Main du joueur Ann (vert), révélée à la fin" in page


@pytest.mark.parametrize(
    ("language", "heading"),
    [
        ("en", "Player 1 (left, green)'s hand (revealed at the end)"),
        ("fr", "Main de Joueur 1 (parti, vert), révélée à la fin"),
    ],
)
def test_the_hand_of_a_player_who_left_is_headed_naturally(client, language, heading):
    """A player who erased their account is "Player 1 (left)" ("Joueur 1 (parti)"): the heading
    over their hand reads "Player 1 (left, green)'s hand", and in French "Main de Joueur 1
    (parti, vert)", never "(left) (green)" nor "du joueur Joueur 1"."""
    from players.erasure import erase_account

    game, green, blue = two_players(WON)
    erase_account(green.user_id)
    client.force_login(blue.user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = text_of(client.get(reverse("games:detail", args=[game.pk])))
    assert heading in page, page
    assert "(left) (" not in page and "(parti) (" not in page and "joueur Joueur" not in page
