"""What a push or a private chat message says about a decision: a few words, the seat's own.

Only the public facts of the seat's pending decisions (`rules.pending_for` as that seat may know
them, worded by `notifications.wording.decisions_title`): never a card of the hand, nor what
another seat must decide. The push service sees only ciphertext, a chat service the text: both
get the same minimal words.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import translation
from django.utils.translation import gettext as _

from games import rules, store
from notifications import prompts, wording
from notifications.models import Outbox
from players import preferences
from players.display_names import game_seat_names


@dataclass(frozen=True)
class DecisionNote:
    """title: one line ("Inis 12: your move"); body: what to decide ("Your Season turn");
    url: the seat's page (a seat link: it acts for that seat of that game only); tag: the same
    for every note of one seat, so a newer one replaces the older on the device."""

    title: str
    body: str
    url: str
    tag: str

    def as_payload(self) -> dict:
        """The note as the service worker reads it (static/push-worker.js)."""
        return {"title": self.title, "body": self.body, "url": self.url, "tag": self.tag}


def note_for(row: Outbox) -> DecisionNote:
    """The note of the PROMPT or REMINDER `row` (with its game and seat), in its player's
    language, as the seat may see the game at `row.seq`, naming the other players as the email
    of the same decision does ("Ann (green) has declared Migration", a bot's seat and a departed
    player's in the reader's language: `players.display_names.game_seat_names`). Queries: the
    player, the state (`store.load_telling`), the seats with their names. Raises
    store.StoreError when the log cannot be folded up to `row.seq`, ValueError for a row about
    no seat."""
    game, seat = row.game, row.seat
    if game is None or seat is None:
        raise ValueError(f"outbox row {row.pk} is about no seat: it has no decision to tell")
    # Looked up, never made: a push or a chat message is written outside its row's lock, and
    # an erasure committed since must not see its address come back (docs/privacy.md).
    player = preferences.preferences_of(row.to_email)
    state, _events = store.load_telling(game, until=row.seq, after=row.seq)
    with translation.override(player.language or "en"), rules.players_named(game_seat_names(game.pk)):
        # Inside the player's language and the table's names: the rules word a decision's prompt
        # (a card's name, who set off a Triskel window) with those active when they compute it,
        # as the decision's email does (`prompts_at_delivery.write`).
        decisions = [d for d in rules.pending_for(state, seat.colour) if d.seat == seat.colour]
        what = wording.decisions_title(decisions, seat.colour) if decisions else _("a decision")
        if row.kind == Outbox.Kind.REMINDER:
            title = _("Inis {game}: your deadline is near").format(game=game.pk)
        else:
            title = _("Inis {game}: your move").format(game=game.pk)
        body = what[:1].upper() + what[1:]
    return DecisionNote(
        title=title,
        body=body,
        url=prompts.seat_url(game.pk, seat.pk, seat.token),
        tag=f"inis-{game.pk}-{seat.colour}",
    )
