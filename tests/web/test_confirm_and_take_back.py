"""The game page asks to confirm a move that ends your turn or starts a clash (a preference turns
it off), and offers to take back your last move while nobody has acted since (docs/rulings.md,
"Taking back a move"). Without JavaScript: a confirm step page, and a "Take back" form."""

import re

from django.urls import reverse

from games import rules, store
from games.models import Command, Event
from games.record.hashchain import canonical_json
from games.services import submit_command
from players.preferences import player_for
from tests.games.play.test_take_backs import NEW_CLANS, position


def game_and_green(make_game, client):
    game = make_game(n_players=2, seed="confirm", setup=position(), options={"reaction_mode": "quick"})
    green = game.seats.get(colour="green")
    client.force_login(green.user)
    return game, green


def post_move(client, game, nonce, **extra):
    data = {
        "seat": "green",
        "expected_seq": store.head(game)[0],
        "nonce": nonce,
        "choice": canonical_json(NEW_CLANS),
        **extra,
    }
    return client.post(reverse("games:detail", args=[game.pk]), data)


def test_a_card_play_asks_to_confirm_first(make_game, client):
    """Playing New Clans ends green's turn: the first post shows the move in words and writes
    nothing; the confirm step's own form sends it."""
    game, _green = game_and_green(make_game, client)
    seq = store.head(game)[0]

    asked = post_move(client, game, "c1")

    page = asked.content.decode()
    assert asked.status_code == 200 and "Confirm your move" in page and "New Clans" in page
    assert store.head(game)[0] == seq
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page))
    assert fields["confirmed"] == "1" and fields["nonce"] == "c1"
    sent = post_move(client, game, "c1", confirmed="1")
    assert sent.status_code == 302 and store.head(game)[0] > seq


def test_the_question_and_its_preference_say_clash_as_the_rulebook_does(make_game, client):
    """A move that starts a clash ("conflit"), not a "fight" ("combat"): the preference, the
    generic confirm sentence and the doc that quotes them use the rulebook's word."""
    from pathlib import Path

    from django.conf import settings
    from django.utils import translation

    from web.confirm import consequence

    game_and_green(make_game, client)
    preferences = reverse("lobby:preferences")
    assert (
        "ask me to confirm a move that ends my turn or starts a clash"
        in client.get(preferences, follow=True).content.decode()
    )
    with translation.override("en"):
        assert consequence("a type with no sentence of its own") == "This ends your turn or starts a clash."
    with translation.override("fr"):
        assert (
            consequence("a type with no sentence of its own")
            == "Cela termine votre tour ou déclenche un conflit."
        )
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    assert (
        "un coup qui termine mon tour ou déclenche un conflit"
        in client.get(preferences, follow=True).content.decode()
    )
    doc = (Path(settings.BASE_DIR) / "docs" / "web.md").read_text()
    assert "starts a fight" not in doc and "A move that ends your turn or starts a clash" in doc


def test_the_preference_turns_the_question_off(make_game, client):
    game, green = game_and_green(make_game, client)
    player = player_for(green.email)
    player.confirm_moves = False
    player.save()

    assert post_move(client, game, "c2").status_code == 302


def test_take_back_on_the_page_then_refused_after_the_other_player_acted(make_game, client):
    game, green = game_and_green(make_game, client)
    post_move(client, game, "c3", confirmed="1")
    url = reverse("games:detail", args=[game.pk])
    assert "Take back your last move" in client.get(url).content.decode()
    seq = store.head(game)[0]

    taken = client.post(
        url, {"seat": "green", "expected_seq": seq, "nonce": "t1", "take_back": "1"}, follow=True
    )

    assert "Your move was taken back" in taken.content.decode()
    state, _ = store.load(game)
    assert state.territories["valley"]["clans"] == {"green": 3}
    assert Command.objects.filter(game=game).last().body == {"type": "take_back"}
    # Green plays again; blue answers: green may no longer take back.
    post_move(client, game, "c4", confirmed="1")
    blue = game.seats.get(colour="blue")
    assert submit_command(
        game=game, seat=blue, expected_seq=store.head(game)[0], command={"type": "pass"}
    ).accepted
    assert "Take back your last move" not in client.get(url).content.decode()
    refused = client.post(
        url, {"seat": "green", "expected_seq": store.head(game)[0], "nonce": "t2", "take_back": "1"}
    )
    assert refused.status_code == 400 and "another player has acted" in refused.content.decode()


def test_another_players_policy_leaves_the_take_back_offered(make_game, client):
    """docs/rulings.md, "Taking back a move": a standing Triskel policy is no move. After green's
    New Clans, blue sets "never ask" for Geis (private to blue): green's page still offers to
    take the move back, as it would without blue's policy, and the take-back is accepted, blue's
    policy standing. The "Last move" panel then tells no longer of New Clans."""
    game, _green = game_and_green(make_game, client)
    post_move(client, game, "c6", confirmed="1")
    url = reverse("games:detail", args=[game.pk])
    page_seq = store.head(game)[0]
    blue = game.seats.get(colour="blue")
    never = {"type": "set_policy", "card": "act_geis", "policy": "never"}
    assert submit_command(game=game, seat=blue, expected_seq=page_seq, command=never).accepted

    assert "Take back your last move" in client.get(url).content.decode()
    # docs/web.md: a Triskel policy is no move: the panel still shows green's New Clans.
    assert "New Clans" in last_move_text(client, game) and "policy" not in last_move_text(client, game)
    taken = client.post(
        url, {"seat": "green", "expected_seq": page_seq, "nonce": "t4", "take_back": "1"}, follow=True
    )

    assert "Your move was taken back" in taken.content.decode()
    state, _ = store.load(game)
    assert state.territories["valley"]["clans"] == {"green": 3}
    assert state.policies["blue"]["act_geis"] == "never"
    assert "New Clans" not in last_move_text(client, game)


def last_move_text(client, game) -> str:
    """The page's "Last move:" paragraph in words ("" when the page shows none)."""
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    found = re.search(r'<p class="last-move" id="last-move">(.*?)</p>', page, re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1))) if found else ""


def test_after_a_take_back_the_last_move_is_no_longer_the_move_taken_back(make_game, client):
    """Green plays New Clans, then takes it back: the island is as before it, so "Last move"
    no longer tells of New Clans; the take-back reads in words in the history, not as a line
    "partly hidden" from the player."""
    game, _green = game_and_green(make_game, client)
    post_move(client, game, "c5", confirmed="1")
    assert "New Clans" in last_move_text(client, game)
    client.post(
        reverse("games:detail", args=[game.pk]),
        {"seat": "green", "expected_seq": store.head(game)[0], "nonce": "t3", "take_back": "1"},
    )

    assert "New Clans" not in last_move_text(client, game)
    history = client.get(reverse("games:history", args=[game.pk])).content.decode()
    # Green reads its own take-back told to it.
    taken = next(line for line in history.split("<li") if "You took back your last move" in line)
    assert "partly hidden" not in taken, taken


def test_the_question_says_what_the_move_does(make_game, client):
    """The confirm step and the page's dialog say what this move does, not one sentence for all:
    a card play ends the turn; the pass also says when the Season ends."""
    game, _green = game_and_green(make_game, client)
    asked = post_move(client, game, "c3").content.decode()
    assert "This ends your turn." in asked and "starts a clash" not in asked

    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    confirms = set(re.findall(r'data-group="([^"]+)"[^>]*data-confirm="([^"]*)"', page))
    assert (
        "pass",
        "This ends your turn. If every other player passes too, the Season ends. Send it?",
    ) in confirms
    assert any(key.startswith("play") and text == "This ends your turn. Send it?" for key, text in confirms)


def test_the_page_links_to_its_panels_far_down(make_game, client):
    """Standing orders and table talk sit below the whole table: links at the top lead there."""
    game, _green = game_and_green(make_game, client)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    nav = page[page.index('<nav class="page-anchors"') :]
    nav = nav[: nav.index("</nav>")]
    assert 'href="#decision"' in nav and 'href="#orders"' in nav and 'href="#talk"' in nav
    assert page.index('<nav class="page-anchors"') < page.index('id="decision"') < page.index('id="orders"')
    for anchor in ("orders", "talk", "decision"):
        assert f'id="{anchor}"' in page


def test_a_move_that_drew_at_random_offers_no_take_back(make_game, client):
    """docs/rulings.md, "Taking back a move": a move that drew something at random stands. The
    Brenn chooses the Capital and the Flock of Crows is tossed (rulebook, Setup: "the Brenn ...
    tosses the Flock of Crows"): every event of that move is public, yet the page must not offer
    a take-back the rules would refuse ("That move drew something at random")."""
    game = make_game(n_players=3, seed="capital-toss")
    state, seq = store.load(game)
    (asked,) = [d for d in rules.pending(state) if d.kind == "choose_capital"]
    brenn = game.seats.get(colour=asked.seat)
    command = rules.legal_commands(state, brenn.colour)[0]
    assert submit_command(game=game, seat=brenn, command=command, expected_seq=seq).accepted
    assert any(e.type == "FlockTossed" for e in Event.objects.filter(game=game, seq__gt=seq))
    client.force_login(brenn.user)

    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()

    assert "Take back your last move" not in page
    refused = client.post(
        reverse("games:detail", args=[game.pk]),
        {"seat": brenn.colour, "expected_seq": store.head(game)[0], "nonce": "t9", "take_back": "1"},
    )
    assert refused.status_code == 400 and "drew something at random" in refused.content.decode()
