"""What a push or a chat message says about a decision (notifications.channels.decision_note):
the seat's own decision in a few words, all in its player's language (docs/notifications.md,
"What a push says")."""

from __future__ import annotations

from games import rules, store
from games.services import submit_command
from notifications.channels.decision_note import note_for
from notifications.models import Outbox
from players import preferences
from tests.notifications.email_positions import END, game_from


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
