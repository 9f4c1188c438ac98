"""Reads of the lobby: a player's games (the ones waiting for them first), invitations, proposals."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Max, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import rules, store
from games.models import Game, Seat
from games.record.options import is_paused
from games.story.names import player_name
from lobby.models import Invitation, Proposal
from players.display_names import seat_names_by_game

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class MyGame:
    """One of a player's games. colours: the seats they play; waiting_for_me: one of them has a
    decision pending; waiting_for: every colour with a decision pending; last_move: when the
    last event was recorded; unreadable: its log cannot be read now (its row says so, the
    other games still show); names: {colour: the name players read} of its seats
    (`players.display_names.seat_names`)."""

    game: Game
    colours: list
    waiting_for_me: bool
    waiting_for: list
    round: int
    paused: bool
    last_move: datetime | None
    unreadable: bool = False
    names: dict = field(default_factory=dict)

    @property
    def waiting_words(self) -> list[str]:
        """`waiting_for` as the reader reads it, in the active language: each player by name
        ("Ciara (white)", "Hard bot (blue)"; the colour alone for a player with no name yet),
        "possible Triskel reactions" ("d'éventuelles réactions Triskel")."""
        with rules.players_named(self.names):
            return [
                _(POSSIBLE_REACTIONS) if who == POSSIBLE_REACTIONS else player_name(who)
                for who in self.waiting_for
            ]

    @property
    def winner_words(self) -> str:
        """The winner of a finished game by name ("Aoife (green)"), "" when the reader won (the
        page says "you won" then) or nobody did."""
        winner = self.game.winner
        if not winner or winner in self.colours:
            return ""
        with rules.players_named(self.names):
            return player_name(winner)


def my_games(*, user) -> list[MyGame]:
    """The games `user` plays: those waiting for them first, then the other games in progress,
    then the finished ones; the most recently moved first within each.

    Costs one state load per game in progress (from its latest snapshot). A game whose log
    cannot be read (store.StoreError or any other failure to load) is listed as unreadable and logged for the operator,
    never raised: one broken game must not hide the others."""
    seats = (
        Seat.objects.filter(user=user)
        .select_related("game")
        .annotate(last_move=Max("game__events__recorded_at"))
        .order_by("game_id", "position")
    )
    by_game: dict[int, list[Seat]] = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append(seat)
    names = seat_names_by_game(Seat.objects.filter(game_id__in=list(by_game)))
    out = []
    for mine in by_game.values():
        game = mine[0].game
        colours = [s.colour for s in mine]
        waiting, round_, unreadable = [], 0, False
        if not game.is_over:
            try:
                state, _seq = store.load(game)
            except Exception:  # any reader's failure (StoreError, a snapshot the rules refuse)
                logger.exception("My games: game %s cannot be read", game.pk)
                unreadable = True
            else:
                waiting = _waiting_for(state, colours)
                round_ = state.round
        out.append(
            MyGame(
                game=game,
                colours=colours,
                waiting_for_me=bool(set(colours) & set(waiting)),
                waiting_for=waiting,
                round=round_,
                paused=is_paused(game.options),
                last_move=mine[0].last_move,
                unreadable=unreadable,
                names=names.get(game.pk, {}),
            )
        )
    rank = {True: 0, False: 1}
    out.sort(
        key=lambda g: (
            rank[g.waiting_for_me],
            g.game.is_over,
            -(g.last_move.timestamp() if g.last_move else 0),
        )
    )
    return out


# How "My games" names the anonymous entry of a Triskel window that asks only who can answer.
POSSIBLE_REACTIONS = gettext_noop("possible Triskel reactions")


def _waiting_for(state, colours: list[str]) -> list[str]:
    """Who the game waits for as the player of `colours` may know it: their own seats with a
    decision, the others as `rules.pending_for` shows them (never who a private Triskel window
    asked: that is POSSIBLE_REACTIONS)."""
    seats = set()
    for colour in colours:
        seats |= {d.seat for d in rules.pending_for(state, colour)}
    named = sorted((s for s in seats if s is not None), key=state.seats.index)
    return named + ([POSSIBLE_REACTIONS] if None in seats else [])


def open_invitations(*, user) -> list[Invitation]:
    """Invitations waiting for `user`'s answer, in open proposals, newest first."""
    return list(
        Invitation.objects.filter(
            user=user, status=Invitation.Status.PENDING, proposal__status=Proposal.Status.OPEN
        )
        .select_related("proposal__host")
        .order_by("-proposal__created_at")
    )


def gathering_tables(*, user) -> list[Proposal]:
    """The tables still gathering players where `user` is the host or has a seat (joined, or an
    invitation accepted), the oldest first. Each carries `seats_taken` (accepted places, bots
    included) and `seat_count`; its `host` is loaded."""
    tables = list(
        Proposal.objects.filter(status=Proposal.Status.OPEN)
        .filter(Q(host=user) | Q(invitations__user=user, invitations__status=Invitation.Status.ACCEPTED))
        .distinct()
        .select_related("host")
        .prefetch_related("invitations")
        .order_by("created_at", "pk")
    )
    for table in tables:
        places = list(table.invitations.all())
        table.seats_taken = sum(
            1 for p in places if p.status == Invitation.Status.ACCEPTED
        )  # read by the template
        table.seat_count = len(places)  # read by the template
    return tables


def seats_kept(game: Game) -> bool:
    """Whether the present players of `game` keep their seats against its host (the trust rule
    of `games.play.table.seat_replace`, docs/rulings.md "Host tools"): its table was proposed
    as rated, or gathered players who may not know each other (`Proposal.among_strangers`: an
    open table, a rematch, a table a player joined). A game without a table, or from a private
    unrated table of invited players, leaves the host every seat. Two queries at most."""
    proposal = Proposal.objects.filter(game_id=game.pk).first()
    return proposal is not None and (proposal.rated or proposal.among_strangers)
