"""Rematch: at a game's end, one of its players asks the same seats again, at a new table with
the same options (docs/rematch.md).

The first player who asks opens the table (`Proposal.rematch_of` the game) and hosts it: they
sit first, their place taken; every other player's place is asked by email as any invitation,
and bots keep their places and levels; the place of a player who erased their account waits
for the host to ask somebody for it or give it to a bot. A player who asks after them takes the place kept for them: one click each. The table
starts when every place is taken; the player who opened it may give a place nobody takes to a
bot (the table's page, as for any table).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from games.models import Game, Seat
from games.record.options import DEFAULT_DEADLINES, can_be_dealt_again, reaction_mode
from lobby.models import Invitation, Proposal
from lobby.services import LobbyError, PlaceSpec, invitation_answer, proposal_create


def rematch(*, game_id: int, user) -> Proposal:
    """`user` asks for a rematch of the finished game `game_id`: opens its rematch table, or
    takes their place at the one already open. Returns the table (started when it filled).
    Raises LobbyError (no such game, not over, not one of its players, set up from a described
    position, its rematch already started); nothing is written then."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise LobbyError(_("There is no game {number}.").format(number=game_id))
        if not game.is_over:
            raise LobbyError(
                _("Game {number} is not over: a rematch is asked for once it ends.").format(number=game_id)
            )
        seats = list(game.seats.order_by("position"))
        if not any(seat.user_id == user.pk for seat in seats):
            raise LobbyError(
                _("Only the players of game {number} may ask for its rematch.").format(number=game_id)
            )
        earlier = Proposal.objects.filter(rematch_of=game).exclude(status=Proposal.Status.CANCELLED).first()
        if earlier is not None:
            return _join(earlier, user)
        if not can_be_dealt_again(game.setup):
            raise LobbyError(
                _(
                    "Game {number} began on a described island: a rematch needs a random or a discovery set-up."
                ).format(number=game_id)
            )
        return _open(game, seats, user)


def _open(game: Game, seats: list[Seat], user) -> Proposal:
    """The new table: `user` in the first place (taken), then the other seats of `game` in
    their order; the same options and bots' level; `user` its host."""
    options = game.options or {}
    first = Proposal.objects.filter(game=game).first()
    places = [_place(seat) for seat in seats if seat.user_id != user.pk]
    return proposal_create(
        host=user,
        places=places,
        host_plays=True,
        setup=game.setup,
        deadlines=options.get("deadlines") or DEFAULT_DEADLINES,
        reaction_mode=reaction_mode(options),
        public=bool(options.get("public", False)),
        press_public_after_end=bool(options.get("press_public_after_end", False)),
        language=first.language if first else "en",
        rated=first.rated if first else False,
        rematch_of=game,
        bot_level=first.bot_level if first else "hard",
    )


def _place(seat: Seat) -> PlaceSpec:
    """The place of the rematch for `seat`: its player asked again, its bot at its level, or,
    for a player who erased their account (`Seat.left_at`, the stand-in playing it or nobody),
    an open place for the host to ask somebody for or give to a bot."""
    if seat.left_at is not None or not (seat.is_bot or seat.email):
        return PlaceSpec(is_open=True)
    if seat.is_bot:
        return PlaceSpec(is_bot=True, bot_level=seat.bot_level)
    return PlaceSpec(email=seat.email)


def _join(proposal: Proposal, user) -> Proposal:
    """`user` takes their place at the rematch table already open (nothing when they have it)."""
    if proposal.status != Proposal.Status.OPEN:
        raise LobbyError(
            _("The rematch has begun already: it is game {number}.").format(number=proposal.game_id)
            if proposal.game_id
            else _("The rematch table is closed.")
        )
    place = proposal.invitations.filter(user=user).first()
    if place is None:
        raise LobbyError(_("The rematch table has no place for you any more: ask its host."))
    if place.status == Invitation.Status.ACCEPTED:
        return proposal
    return invitation_answer(invitation=place, user=user, accept=True)
