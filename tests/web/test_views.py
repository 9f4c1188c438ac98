"""web.views: the game page (decisions as forms, who may act), the island at an event, the
history, the JSON download, and the seat links of emails (more in test_seat_links.py)."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games import rules, store
from games.models import Command
from games.record.hashchain import canonical_json
from players import seat_links as seat_access


@pytest.fixture
def game(make_game):
    return make_game(seed="web")


def seat_to_move(game):
    state, seq = store.load(game)
    return game.seats.get(colour=rules.pending(state)[0].seat), state, seq


def signed_in(client, seat):
    client.force_login(seat.user)
    return client


def post(client, game, seat, seq, *, command=None, nonce="n1", **fields):
    """A decision form posted, already confirmed (the confirm step: tests/web/test_confirm_and_take_back.py)."""
    data = {"seat": seat.colour, "expected_seq": seq, "nonce": nonce, "confirmed": "1", **fields}
    if command is not None:
        data["choice"] = canonical_json(command)
    return client.post(reverse("games:detail", args=[game.pk]), data)


def text_of(response) -> str:
    """The page's visible text (tags dropped, entities decoded)."""
    import html

    return html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_public_list_shows_games(client, game):
    response = client.get(reverse("games:list"))
    assert response.status_code == 200 and f"Game {game.pk}" in response.content.decode()


def test_the_public_list_names_the_players_as_the_game_pages_do(db, client, django_assert_max_num_queries):
    """docs/web.md, "Players by name": "All games" names a player "Gil (green)", a bot by its
    level "Hard bot (blue)", a player with no chosen name by their colour alone (never a word of
    their address), the winner alike, in the reader's language; its reads do not grow with the
    games listed."""
    import html

    from django.conf import settings

    from games.services import SeatSpec, create_game
    from players.preferences import set_display_name
    from tests.web.test_game_page_panels import WON

    set_display_name("gil@example.org", "Gil")
    by_name = create_game(
        seats=[SeatSpec(email="gil@example.org"), SeatSpec(is_bot=True, bot_level="hard")],
        seed="list-1",
        setup=WON,
        play_bots=False,
    )
    by_bot = create_game(
        seats=[SeatSpec(is_bot=True), SeatSpec(email="zed@example.org")],
        seed="list-2",
        setup=WON,
        play_bots=False,
    )
    by_name.refresh_from_db(), by_bot.refresh_from_db()
    assert (by_name.winner, by_bot.winner) == ("green", "green")

    def rows() -> dict:
        """{game id: its row's text}."""
        with django_assert_max_num_queries(3):  # the games, their seats, the names
            body = client.get(reverse("games:list")).content.decode()
        found = {}
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S):
            link = re.search(r'href="/games/(\d+)/"', row)
            if link:
                found[int(link[1])] = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", row)).split())
        return found

    english = rows()
    assert "over — Gil (green) won Gil (green), Hard bot (blue)" in english[by_name.pk], english
    assert "over — Random bot (green) won Random bot (green), blue" in english[by_bot.pk], english
    assert "(bot)" not in str(english) and "zed" not in str(english)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    french = rows()
    assert "Gil (vert) a gagné Gil (vert), Robot difficile (bleu)" in french[by_name.pk], french
    assert "Robot au hasard (vert) a gagné Robot au hasard (vert), bleu" in french[by_bot.pk], french
    assert "(green)" not in str(french) and "Hard bot" not in str(french) and "zed" not in str(french)


def test_a_spectator_sees_the_island_and_the_commitment_but_no_hand_seed_or_token(client, game, play):
    play(game, 60)
    response = client.get(reverse("games:detail", args=[game.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert '<svg class="island"' in body and game.seed_commitment in body
    assert "web" not in text_of(response).split()
    assert all(seat.token not in body for seat in game.seats.all())
    state, _ = store.load(game)
    for colour in state.seats:
        for card in state.hands[colour]:
            if rules.CARDS[card].type != "advantage":
                assert f'data-card="{card}"' not in body


def test_a_seat_link_opens_its_seat_without_signing_in_and_the_old_address_opens_nothing(client, game):
    seat = game.seats.get(colour="green")
    assert client.get(reverse("games:seat", args=[game.pk, seat.token])).status_code == 410
    link = seat_access.link_token(game_id=game.pk, seat_id=seat.pk, seat_secret=seat.token)
    response = client.get(reverse("games:seat", args=[game.pk, link]))
    assert response.status_code == 302 and "sesame" not in response.url
    page = client.get(response.url)
    assert "you play" in text_of(page) and "green" in text_of(page)
    assert not page.wsgi_request.user.is_authenticated


def test_the_seat_page_offers_every_legal_command(client, game):
    seat, state, seq = seat_to_move(game)
    response = signed_in(client, seat).get(reverse("games:detail", args=[game.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    for command in rules.legal_commands(state, seat.colour):
        assert rules.describe_command(state, command) in text_of(response)
    assert f'name="expected_seq" value="{seq}"' in body


def test_a_listed_command_is_applied_once_even_if_sent_twice(client, game):
    seat, state, seq = seat_to_move(game)
    command = rules.legal_commands(state, seat.colour)[0]
    signed_in(client, seat)
    first = post(client, game, seat, seq, command=command)
    assert first.status_code == 302
    assert "Accepted" in text_of(client.get(first.url))
    assert post(client, game, seat, seq, command=command).status_code == 302
    record = Command.objects.get(game=game)
    assert record.body == command and record.command_id == "web:n1"


def test_an_illegal_command_shows_the_rules_message_and_changes_nothing(client, game):
    seat, state, seq = seat_to_move(game)
    on_the_island = set(state.territories)
    elsewhere = next(name for name in rules.TERRITORY_INFO if name not in on_the_island)
    forged = {"type": rules.legal_commands(state, seat.colour)[0]["type"], "territory": elsewhere}
    with pytest.raises(rules.IllegalCommand) as rules_say:
        rules.decide(state, seat.colour, forged, rng=rules.rng_for(game.seed, seq))
    response = post(signed_in(client, seat), game, seat, seq, command=forged)
    assert response.status_code == 400
    assert str(rules_say.value) in text_of(response)
    # A name no rule knows is no choice of the page's: said so, not in the rules' field words.
    unknown = post(client, game, seat, seq, command={**forged, "territory": "atlantis"}, nonce="n2")
    assert unknown.status_code == 400 and "not one of the choices offered" in text_of(unknown)
    assert store.head(game)[0] == seq and not Command.objects.exists()


def test_a_forged_form_is_refused_and_changes_nothing(client, game):
    seat, _state, seq = seat_to_move(game)
    signed_in(client, seat)
    garbled = post(client, game, seat, seq, choice="{not json")
    assert garbled.status_code == 400 and "not a command" in text_of(garbled)
    unknown_group = post(client, game, seat, seq, group="play:act_nothing")
    assert unknown_group.status_code == 400
    no_seq = client.post(reverse("games:detail", args=[game.pk]), {"seat": seat.colour, "choice": "{}"})
    assert no_seq.status_code == 400
    assert store.head(game)[0] == seq and not Command.objects.exists()


def test_acting_for_another_seat_is_refused_and_changes_nothing(client, game):
    seat, state, seq = seat_to_move(game)
    other = game.seats.exclude(pk=seat.pk).first()
    command = rules.legal_commands(state, seat.colour)[0]
    signed_in(client, other)
    response = post(client, game, seat, seq, command=command)  # other's login, seat's colour
    assert response.status_code == 403
    assert client.get(reverse("games:detail", args=[game.pk]) + f"?as={seat.colour}").status_code == 403
    assert store.head(game)[0] == seq and not Command.objects.exists()


def test_a_player_of_another_game_and_an_anonymous_visitor_cannot_act(client, game):
    from games.services import SeatSpec, create_game

    seat, state, seq = seat_to_move(game)
    command = rules.legal_commands(state, seat.colour)[0]
    elsewhere = create_game(
        seats=[SeatSpec(email="stranger@example.org"), SeatSpec(is_bot=True)],
        seed="elsewhere",
        play_bots=False,
    )
    stranger = elsewhere.seats.get(colour="green")
    assert post(client, game, seat, seq, command=command).status_code == 403  # not signed in
    client.force_login(stranger.user)
    assert post(client, game, seat, seq, command=command).status_code == 403
    assert store.head(game)[0] == seq and not Command.objects.exists()


@pytest.mark.parametrize("fields", [{}, {"choice": "{}"}])
def test_a_decision_from_an_account_with_no_seat_here_is_refused_before_its_form_is_read(
    client, game, fields
):
    """docs/web.md: "a decision posted for another seat, by a player of another game or by a
    visitor who holds neither is refused with 403 and writes nothing", even a form that names no
    seat (it is not "incomplete": the game is not theirs)."""
    from players.accounts import user_for_email

    _seat, _state, seq = seat_to_move(game)
    client.force_login(user_for_email("stranger@example.org"))
    response = client.post(
        reverse("games:detail", args=[game.pk]), {"expected_seq": seq, "nonce": "n1", **fields}
    )
    assert response.status_code == 403
    page = text_of(response)
    assert "You do not play in this game." in page and "The form was incomplete" not in page
    assert store.head(game)[0] == seq and not Command.objects.exists()


def test_a_migration_split_over_territories_is_built_from_inputs(client, db, clash_position):
    """Migration from the Valley's 4 clans to 3 neighbours has more ways than a list shows: the
    page offers a builder (from, clans per destination), read back into the legal command."""
    from django.http import QueryDict

    from games.services import SeatSpec, create_game
    from web.decision_forms import MAX_LISTED, command_from_post

    game = create_game(
        seats=[SeatSpec(email="g@example.org"), SeatSpec(email="b@example.org")],
        seed="builder",
        setup=clash_position,
        play_bots=False,
    )
    green = game.seats.get(colour="green")
    state, seq = store.load(game)
    legal = rules.legal_commands(state, "green")
    migrations = [c for c in legal if c.get("card") == "act_migration"]
    assert len(migrations) > MAX_LISTED
    target = {"type": "play", "card": "act_migration", "from": "valley", "moves": {"cove": 2, "plains": 1}}
    assert target in legal
    page = signed_in(client, green).get(reverse("games:detail", args=[game.pk]))
    body = page.content.decode()
    assert 'name="group" value="play:act_migration"' in body and 'name="f:moves:cove"' in body
    data = QueryDict(mutable=True)
    data.update(
        {
            "group": "play:act_migration",
            "f:from": '"valley"',
            "f:moves:plains": "1",
            "f:moves:cove": "2",
            "f:moves:forest": "0",
        }
    )
    built = command_from_post(data, legal)
    assert built == target and list(built["moves"]) == list(next(c for c in legal if c == target)["moves"])
    data.update({"seat": "green", "expected_seq": str(seq), "nonce": "b1", "confirmed": "1"})
    assert client.post(reverse("games:detail", args=[game.pk]), data).status_code == 302
    assert Command.objects.get(game=game, command_id="web:b1").body == target
    too_many = QueryDict(mutable=True)
    too_many.update(
        {
            "group": "play:act_migration",
            "f:from": '"valley"',
            "f:moves:cove": "9",
            "seat": "green",
            "expected_seq": str(store.head(game)[0]),
            "nonce": "b2",
        }
    )
    refused = client.post(reverse("games:detail", args=[game.pk]), too_many)
    assert refused.status_code == 400 and not Command.objects.filter(command_id="web:b2").exists()


def test_the_history_is_redacted_for_the_viewer_and_the_island_can_be_replayed(client, make_game, play):
    from games.rules import card_name

    game = make_game(seed="history")
    play(game, 50)
    state, seq = store.load(game)
    hidden = {c for colour in state.seats for c in state.hands[colour] if rules.CARDS[c].type != "advantage"}
    assert hidden, "no hidden card in any hand yet: play further"
    spectator = client.get(reverse("games:history", args=[game.pk]) + "?steps=1")
    # The game's fingerprint (the head hash's first 16 digits) once, at the top.
    assert (
        spectator.status_code == 200
        and f'id="head-hash">{store.head(game)[1][:16]}<' in spectator.content.decode()
    )
    for card in hidden:
        assert card_name(card) not in text_of(spectator)
    signed_in(client, game.seats.get(colour="green"))
    mine = text_of(client.get(reverse("games:history", args=[game.pk]) + "?steps=1&page=1"))
    dealt_to_green = next(
        row
        for row in game.events.filter(type="ActionCardsDealt").order_by("seq")
        if row.payload["seat"] == "green"
    )
    # Told to its reader, as the game page is: green's own lines say "you".
    assert "(private to you)" in mine
    assert (
        "Blue was dealt 4 cards." in mine
        and "You were dealt " + ", ".join(card_name(c) for c in dealt_to_green.payload["cards"]) in mine
        and "Green was dealt" not in mine
    )
    at = client.get(reverse("games:island_at", args=[game.pk, 10]))
    assert at.status_code == 200 and "after event 10 of" in text_of(at)
    assert 'rel="next"' in at.content.decode() and 'rel="prev"' in at.content.decode()
    assert client.get(reverse("games:island_at", args=[game.pk, seq + 1])).status_code == 404


def test_the_download_is_the_redacted_export_for_the_viewer(client, make_game, play):
    from games.store import exports

    game = make_game(seed="download")
    play(game, 40)
    green = game.seats.get(colour="green")
    response = signed_in(client, green).get(reverse("games:export", args=[game.pk]))
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    assert json.loads(response.content) == json.loads(
        json.dumps(exports.export_game(game=game, colour="green"))
    )
    client.logout()
    public = json.loads(client.get(reverse("games:export", args=[game.pk])).content)
    assert public["viewer"] is None


def test_a_finished_game_reveals_the_seed_every_hand_and_the_whole_history(client, db):
    from games.play.bot_seats import play_bots
    from games.services import SeatSpec, create_game

    game = create_game(seats=[SeatSpec(is_bot=True)] * 2, seed="finished-seed", play_bots=False)
    play_bots(game, max_commands=20000, max_rounds=60)
    game.refresh_from_db()
    assert game.is_over
    page = client.get(reverse("games:detail", args=[game.pk]))
    assert "finished-seed" in text_of(page) and game.winner in text_of(page)
    assert "hand (revealed at the end)" in text_of(page)
    history = client.get(reverse("games:history", args=[game.pk]) + "?steps=1&page=1")
    assert "finished-seed" in text_of(history) and "partly hidden" not in text_of(history)


@pytest.fixture
def over_with_a_private_event(db):
    """A two-player game that ends at once: green passes with Druid in hand, blue holds nothing,
    and the Assembly elects green; green's hand is discarded on the way (an event private to
    green). Returns the game and that event's seq."""
    from games.services import SeatSpec, create_game, submit_command
    from tests.games.record.test_verify import ENDGAME

    game = create_game(
        seats=[SeatSpec(email="green@example.org"), SeatSpec(email="blue@example.org")],
        seed="over-with-a-private-event-3c1d0f",
        setup={**ENDGAME, "hands": {"green": ["act_druid"], "blue": []}},
        play_bots=False,
    )
    green = game.seats.get(colour="green")
    assert submit_command(game=game, seat=green, command={"type": "pass"}, expected_seq=store.head(game)[0])
    game.refresh_from_db()
    assert game.is_over
    private = game.events.get(type="CardDiscarded")
    assert private.visibility == ["green"]
    return game, private.seq


def test_after_the_end_only_its_reader_sees_a_line_marked_private_to_them(client, over_with_a_private_event):
    """Once the game is over every line is shown whole, but "(private to you)" still means what
    it says: green's discarded hand is marked so for green alone, not for blue nor a visitor."""
    game, seq = over_with_a_private_event

    def line(response) -> str:
        body = response.content.decode()
        found = re.search(rf'<li data-seq="{seq}">(.*?)</li>', body, re.S)
        assert found, f"no line #{seq}"
        return found.group(1)

    history = reverse("games:history", args=[game.pk]) + "?by=event&steps=1"
    visitor = line(client.get(history))
    assert "Druid" in visitor and "private to you" not in visitor
    signed_in(client, game.seats.get(colour="blue"))
    assert "private to you" not in line(client.get(history))
    signed_in(client, game.seats.get(colour="green"))
    assert "(private to you)" in line(client.get(history))


def test_the_game_page_shows_a_fingerprint_that_verify_game_finds_in_the_record(client, game, play, capsys):
    """The log as evidence: the page names the hash of the record's last entry; a player who
    keeps it can later have `verify_game --head` check that the record still holds it."""
    from django.core.management import call_command

    play(game, 10)
    body = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    shown = re.search(r'id="head-hash">([0-9a-f]{16})<', body).group(1)
    assert store.head(game)[1].startswith(shown)
    call_command("verify_game", str(game.pk), "--head", shown)
    assert "OK" in capsys.readouterr().out


def test_the_fairness_panel_tells_a_player_how_to_check_the_game_without_the_site(
    client, game, play, tmp_path
):
    """Under the fingerprint, the game page says how to check the game offline: the verifier's
    command, which, given the downloaded log and the fingerprint shown, says OK (docs/fairness.md,
    "Checking a game yourself")."""
    import subprocess
    from pathlib import Path

    play(game, 10)
    for name in ("games:detail", "games:history"):
        body = client.get(reverse(name, args=[game.pk])).content.decode()
        hint = re.search(r'<p class="hint" id="check-yourself">(.*?)</p>', body, re.S).group(1)
        assert "To check the game yourself" in hint and "download the log (JSON)" in hint
    command = re.search(r"<code>(python3 -m games.verify [^<]+)</code>", hint).group(1)
    assert command == "python3 -m games.verify FILE.json --head FINGERPRINT"
    shown = re.search(r'id="head-hash">([0-9a-f]{16})<', body).group(1)
    log = tmp_path / "log.json"
    log.write_bytes(client.get(reverse("games:export", args=[game.pk])).content)
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        command.replace("FILE.json", str(log)).replace("FINGERPRINT", shown).split(),
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0 and done.stdout.startswith("OK: "), done.stdout + done.stderr


def clash_in_the_hills(seed: str):
    """A 3-player game where green has just played Migration into the Hills, where blue has 2
    clans and orange 1: the clash begins, green (the instigator) to maneuver first."""
    from games.services import SeatSpec, create_game, submit_command

    position = {
        "territories": {
            "hills": {"cell": [0, 0], "clans": {"blue": 2, "orange": 1}},
            "valley": {"cell": [1, 0], "clans": {"green": 3}},
        },
        "capital": "valley",
        "brenn": "green",
        "turn": "green",
        "opened": True,
        "phase": "season",
        "round": 1,
        "hands": {"green": ["act_migration"]},
    }
    game = create_game(
        seats=[SeatSpec(email=f"{c}@example.org") for c in ("green", "blue", "orange")],
        seed=seed,
        setup=position,
        play_bots=False,
    )
    result = submit_command(
        game=game,
        seat=game.seats.get(colour="green"),
        expected_seq=store.head(game)[0],
        command={"type": "play", "card": "act_migration", "from": "valley", "moves": {"hills": 2}},
    )
    assert result.accepted, result.message
    return game


def test_a_player_with_exposed_clans_may_propose_peace_before_anothers_maneuver(client, db):
    """Resolution: "Before each maneuver, players with exposed clans may discuss and agree to
    immediately end the clash": blue, who is not about to maneuver, finds the proposal on its
    page under "At any time", and sending it starts the vote."""
    game = clash_in_the_hills("peace-on-the-page-0123456789abcdef")
    blue = game.seats.get(colour="blue")
    assert [d.seat for d in rules.pending(store.load(game)[0])] == ["green"]
    signed_in(client, blue)
    body = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "At any time" in body and "Propose to end the clash" in body
    response = post(
        client, game, blue, store.head(game)[0], command={"type": "propose_peace"}, nonce="peace-1"
    )
    assert response.status_code == 302
    state, _ = store.load(game)
    assert {d.seat: d.kind for d in rules.pending(state)} == {"green": "peace_vote", "orange": "peace_vote"}


def test_after_the_end_the_island_at_an_earlier_event_shows_every_hand(client, over_with_a_private_event):
    """After the end every hand is shown, on the island at an earlier event too: a visitor
    stepping back to the start sees green's hand then (Druid), as the history tells it whole."""
    game, _seq = over_with_a_private_event
    at = client.get(reverse("games:island_at", args=[game.pk, 2]))
    assert at.status_code == 200 and "Druid" in text_of(at)


def test_a_hand_of_one_card_is_counted_in_the_singular(client, over_with_a_private_event):
    """The board's hand column: green holding Druid alone reads "1 card: 1 Action, …", blue's
    empty hand "0 cards: …"; each count of a type has its own plural, as in the email board."""
    game, _seq = over_with_a_private_event
    text = text_of(client.get(reverse("games:island_at", args=[game.pk, 2])))
    assert "1 card: 1 Action, 0 Advantages, 0 Epic Tales" in text
    assert "0 cards: 0 Actions, 0 Advantages, 0 Epic Tales" in text


def test_each_count_of_a_hand_has_its_own_plural_in_english_and_in_french(client, db):
    """A hand of two Action cards reads "2 cards: 2 Actions, …" ("2 cartes : 2 Actions, 0
    Avantage, …"; French says 0 in the singular), not "2 Action"."""
    from games.services import SeatSpec, create_game
    from tests.games.record.test_verify import ENDGAME

    game = create_game(
        seats=[SeatSpec(email="green@example.org"), SeatSpec(email="blue@example.org")],
        seed="two-actions",
        setup={**ENDGAME, "hands": {"green": ["act_druid", "act_bard"], "blue": []}},
        play_bots=False,
    )
    page = reverse("games:detail", args=[game.pk])
    assert "2 cards: 2 Actions, 0 Advantages, 0 Epic Tales" in text_of(client.get(page))
    french = text_of(client.get(page, HTTP_ACCEPT_LANGUAGE="fr"))
    assert "2 cartes : 2 Actions, 0 Avantage, 0 Récit épique" in french


def test_a_finished_game_gives_its_fingerprint_not_the_fingerprint_so_far(client, over_with_a_private_event):
    game, _seq = over_with_a_private_event
    for name in ("games:detail", "games:history"):
        text = text_of(client.get(reverse(name, args=[game.pk])))
        assert "Fingerprint of the game:" in text and "so far" not in text


def test_a_move_accepted_on_the_web_names_the_player_it_concerns_as_the_page_does(client, db):
    """Resolution: "The player performing the maneuver can attack another player with exposed
    clans". Green attacks the blue clans of Bran: the page's options read "Attack Bran (blue)",
    and so does the notice of the accepted move, not "the blue player"."""
    from players.preferences import set_display_name

    game = clash_in_the_hills("attack-named-0123456789abcdef")
    set_display_name("blue@example.org", "Bran")
    green = game.seats.get(colour="green")
    state, seq = store.load(game)
    attack = next(
        c for c in rules.legal_commands(state, "green") if c["type"] == "attack" and c.get("target") == "blue"
    )
    signed_in(client, green)
    assert "Bran (blue)" in text_of(client.get(reverse("games:detail", args=[game.pk])))

    response = post(client, game, green, seq, command=attack, nonce="attack-1")

    assert response.status_code == 302
    notice = " ".join(text_of(client.get(response.url)).split())
    assert "Accepted: Attack Bran (blue)" in notice, notice
