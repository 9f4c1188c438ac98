"""The table channel (through apprise, like a player's chat): a game's public news to the chat
its host set (`games.models.TableChannel`: a Discord or Matrix webhook...).

What it says is what a spectator reads, and nothing else: the moves in the words of the public
history (`happenings.lines_for` with no seat: every event redacted for a spectator first), who
must decide now (`rules.pending_for` as a spectator knows it: a Triskel window that asks only
the seats able to answer says "possible Triskel reactions", never who), the game's deadline for
that decision (its table option, in hours: a seat's own deadline also tells its player's
vacation, which is theirs), whether the game is paused, the result, and the game's public page.
Never a hand, a held card, a private message, a seat link or an email address.

One outbox row (kind TABLE_NEWS, channel chat) per append that changed something (`item`,
written by `notifications.receivers` with the seats' prompts, in the command's transaction);
its text is written at its delivery (`send`) from the log up to the row's `seq`, in the
channel's language. An append that tells a spectator nothing new (no public line, the game
waiting on the same seats as before it: a player's private Triskel policy) is posted nowhere.
The outbox's once-only hand-off, retries and admin resend are those of every row; a game whose
channel was removed meanwhile is told nothing, nor is any game once the operator turned chat
off (CHAT_TARGETS: the chat channel's sender closes the row first, `turned_off`).
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import rules, store
from games.models import Game, TableChannel
from games.record.options import deadline_hours, is_paused
from games.story.names import player_name
from notifications import happenings
from notifications.channels import chat_post
from notifications.models import Outbox
from players.chat_targets import encrypted
from players.display_names import seat_names


class TableNewsFailed(Exception):
    """The table's chat service did not take the message (retried)."""


def item(game: Game, *, after: int, upto: int) -> dict:
    """The outbox item (`notifications.outbox.enqueue_all`'s dict) of the table news of the
    events after seq `after` up to `upto`: written at its delivery, to no address (the table's
    channel is the game's, not a player's)."""
    return dict(
        kind=Outbox.Kind.TABLE_NEWS,
        channel=Outbox.Channel.CHAT,
        to_email="",
        seq=upto,
        game=game,
        headers={"after": after},
    )


def words(row: Outbox, *, language: str = "en") -> tuple[str, str]:
    """(title, text) of the TABLE_NEWS `row` as a spectator reads the game at `row.seq`, in
    `language`. Raises store.StoreError when the log cannot be folded up to `row.seq`,
    ValueError for a row about no game."""
    title, lines, _new = _news(row, language)
    return title, "\n".join(lines)


def _news(row: Outbox, language: str) -> tuple[str, list[str], bool]:
    """(title, lines, whether they tell a spectator anything new) of the TABLE_NEWS `row`, as
    `words` says. Nothing is new when its events have no public line and the game waits on the
    same seats, with the same deadline, as before them: a private act that changes nothing a
    spectator sees (a Triskel policy set: docs/rulings.md, "what you are told never depend on
    whether another player set a policy"). Folds the log once more (up to the row's `after`)
    only then."""
    game = row.game
    if game is None:
        raise ValueError(f"outbox row {row.pk} is about no game: it has no table news to tell")
    after = int(row.headers.get("after", row.seq - 1))
    state, events = store.load_telling(game, until=row.seq, after=after)
    with translation.override(language), rules.players_named(seat_names(game.seats.all())):
        lines = [line for _seq, line in happenings.lines_for(events, None, language=language)]
        new = bool(lines) or rules.is_over(state)
        if rules.is_over(state):
            title = _("Inis {game}: the game is over").format(game=game.pk)
        else:
            title = _("Inis {game}: news").format(game=game.pk)
            waiting = _waiting(state, game.options)
            new = new or waiting != _waiting(store.load(game, until=after)[0], game.options)
            lines += waiting
        lines.append(settings.SITE_URL + reverse("games:detail", args=[game.pk]))
    return title, lines, new


def _waiting(state, options: dict) -> list[str]:
    """Who must decide now, and the game's deadline for it, as a spectator knows them."""
    decisions = rules.pending_for(state, None)
    seats = list(dict.fromkeys(d.seat for d in decisions if d.seat is not None))
    said = []
    if seats:
        names = ", ".join(player_name(seat) for seat in seats)
        said.append(_("Waiting for {names}.").format(names=names))
    if any(d.seat is None for d in decisions):
        said.append(_("Waiting for possible Triskel reactions."))
    if is_paused(options):
        said.append(_("The game is paused: no deadline runs."))
    elif decisions and (hours := deadline_hours(options, decisions[0].kind)):
        said.append(
            ngettext(
                "Deadline: {hours} hour for this decision.",
                "Deadline: {hours} hours for this decision.",
                hours,
            ).format(hours=hours)
        )
    return said


def send(row: Outbox) -> None:
    """The sender of TABLE_NEWS rows (called by the chat channel's sender): the row's words to
    its game's table channel (kept on the row as its subject and text). Raises TableNewsFailed
    when the chat service did not take them; a game with no channel any more is done, and so is
    a row that tells a spectator nothing new (`_news`: a private act), posted nowhere."""
    channel = TableChannel.objects.filter(game=row.game).first() if row.game_id is not None else None
    if channel is None:
        return
    title, lines, new = _news(row, channel.language)
    if not new:  # a private act, told to nobody (`_news`)
        return
    row.subject, row.body_text = title, "\n".join(lines)
    Outbox.objects.filter(pk=row.pk).update(subject=row.subject[:255], body_text=row.body_text)
    try:  # a channel kept before addresses were made encrypted: `encrypted`
        taken = chat_post.post(
            encrypted(channel.url), title=row.subject, body=row.body_text, timeout=settings.CHAT_TIMEOUT
        )
    except ValueError:
        raise TableNewsFailed("the table channel's address is no longer one apprise takes") from None
    if not taken:
        raise TableNewsFailed("the table's chat service did not take the message (refused, 5xx or time-out)")
