"""What a push or a chat message says about a decision (notifications.channels.decision_note):
the seat's own decision in a few words, all in its player's language (docs/notifications.md,
"What a push says")."""

from __future__ import annotations

from games import rules, store
from games.services import SeatSpec, create_game, submit_command
from notifications.channels.decision_note import note_for
from notifications.models import Outbox
from players import preferences
from players.models import Player
from tests.notifications.email_positions import EMAILS, END, MIGRATE_TO_COVE, MIGRATION, game_from


def test_a_french_players_note_of_a_triskel_window_is_french_throughout(db):
    """The rules word what opened a Triskel window ("your Bard has been resolved") in the
    language active when they are asked: a French player's note must not read
    "Réaction Triskel (your Bard has been resolved)"."""
    game = game_from(END, seed="note-fr", options={"reaction_mode": "strict"})
    seats = {seat.colour: seat for seat in game.seats.all()}
    player = preferences.player_for(seats["blue"].email)
    player.language = "fr"
    player.save()
    for colour, command in (("green", {"type": "pass"}), ("blue", {"type": "play", "card": "act_bard"})):
        _state, seq = store.load(game)
        assert submit_command(game=game, seat=seats[colour], command=command, expected_seq=seq).accepted
    state, _seq = store.load(game)
    assert [d.kind for d in rules.pending_for(state, "blue") if d.seat == "blue"] == ["reaction"]
    row = Outbox.objects.filter(seat=seats["blue"], kind=Outbox.Kind.PROMPT).latest("id")

    note = note_for(row)

    assert note.title == f"Inis {game.pk} : à vous de jouer"
    assert note.body.startswith("Réaction Triskel (") and "Barde" in note.body
    assert "Bard " not in note.body and "resolved" not in note.body


def _blues_note_after_greens_migration(*, language: str, seed: str, green_is_a_bot: bool = False):
    """Blue's note of the Triskel window green's Migration opens (blue holds the Bard), green
    being Ann (player1) or a hard bot, blue Bob (player2) reading `language`."""
    Player.objects.create(email="player1@example.org", display_name="Ann")
    Player.objects.create(email="player2@example.org", display_name="Bob", language=language)
    green_seat = SeatSpec(is_bot=True, bot_level="hard") if green_is_a_bot else SeatSpec(email=EMAILS[0])
    seats = [green_seat] + [SeatSpec(email=address) for address in EMAILS[1:]]
    game = create_game(
        seats=seats, seed=seed, setup=MIGRATION, play_bots=False, options={"reaction_mode": "strict"}
    )
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    assert blue.email == "player2@example.org"
    _state, seq = store.load(game)
    assert submit_command(game=game, seat=green, command=MIGRATE_TO_COVE, expected_seq=seq).accepted
    row = Outbox.objects.filter(seat=blue, kind=Outbox.Kind.PROMPT).latest("id")
    return note_for(row)


def test_a_note_names_the_player_who_opened_the_window_as_the_email_does(db):
    """Names are public at a table, and the email of the same decision reads "Triskel reaction
    (Ann (green) has declared Migration)": the push and the chat message say the same, not
    "green has declared Migration"."""
    note = _blues_note_after_greens_migration(language="en", seed="note-names-en")

    assert note.body == "Triskel reaction (Ann (green) has declared Migration)"


def test_a_french_note_names_the_player_too(db):
    note = _blues_note_after_greens_migration(language="fr", seed="note-names-fr")

    assert note.body.startswith("Réaction Triskel (") and "Ann (vert) a annoncé Migration" in note.body
    assert "Bob" not in note.body  # blue reads of their own decision, not of Bob


def test_a_note_names_a_bots_seat_in_the_readers_language(db):
    english = _blues_note_after_greens_migration(language="en", seed="note-bot", green_is_a_bot=True)

    assert english.body == "Triskel reaction (Hard bot (green) has declared Migration)"
