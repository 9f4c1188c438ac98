"""Writes of following: follow and unfollow a public game (docs/spectators.md)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from games import store
from games.models import Game, TableEvent
from press import selectors as press_selectors
from watching.models import Follow
from watching.selectors import is_public


class FollowError(Exception):
    """The game cannot be followed (the message says why, for the visitor); nothing was written."""


def _heads(game: Game) -> dict:
    """The `told_*` marks of a new follow: the game's three logs as they are now."""
    return {
        "told_seq": store.head(game)[0],
        "told_table_seq": TableEvent.objects.filter(game=game).aggregate(m=Max("seq"))["m"] or 0,
        "told_press_number": press_selectors.last_number(game),
    }


def follow(*, user, game: Game) -> tuple[Follow, bool]:
    """`user` follows `game` from now on: (the Follow, True when it is new). Following twice
    changes nothing. The first digest tells what happens after this call.

    Raises FollowError when the game is not public, is over (its whole record is on its page
    then, nothing more will happen), or the user has no email address to send the digest to.
    """
    if not is_public(game):
        raise FollowError(_("This game is not public: only its players follow it."))
    if game.is_over:
        raise FollowError(_("This game is over: its whole record, the seed included, is on its page."))
    if not (user.email or "").strip():
        raise FollowError(_("Your account has no email address to send the news to."))
    existing = Follow.objects.filter(user=user, game=game).first()
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            return Follow.objects.create(user=user, game=game, **_heads(game)), True
    except IntegrityError:  # the same click twice at once: the other one made it
        return Follow.objects.get(user=user, game=game), False


def unfollow(*, user, game_id: int | None = None) -> int:
    """`user` stops following the game `game_id` (None: every game); returns how many follows
    ended (0: there was none; unfollowing twice is not an error)."""
    follows = Follow.objects.filter(user=user)
    if game_id is not None:
        follows = follows.filter(game_id=game_id)
    return follows.delete()[0]
