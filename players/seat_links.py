"""Seat links: the address in a game email, which acts for one seat of one game, for a while.

Every email about a game carries the address of the seat's page, `/games/<game>/seat/<token>/`
(and `.../history/`). The token is `<seat id>.<time>.<signature>`: Django's `TimestampSigner`
(HMAC-SHA256 under SECRET_KEY, the time it was made in base 62) over the seat's id, under a salt
that holds the game's id and the seat's current secret (`Seat.token`), made and checked by
`players.signed_tokens` (where every signed token is). So a link

- is valid for SEAT_LINK_DAYS (default 7: a few days longer than the longest preset deadline,
  four days; every prompt and reminder carries a fresh one);
- stops acting when the seat changes hands (`games.play.table.seat_replace` gives the seat a new
  secret, and the old signatures no longer match) and when the game is over (then every page of
  the game is public: the link leads to the public page);
- names its seat only: following it signs nobody in. It puts a *seat grant* in the visitor's
  session (the link itself, checked again on every request, so the grant ends with the link),
  which lets the visitor see that seat's page, history, island and export and decide for it,
  in that game only. Other games, "My games", the lobby, the email preferences and the host
  tools still need a real sign-in (the emailed sign-in link, `/signin/`).

A signed-in player is unaffected: their own seats come from their account, as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse

from games.store.models import Game, Seat
from players.push_devices import follow_session_key
from players.signed_tokens import BadToken, check_seat_link, seat_link_token, seat_of_link

# Where the grants live in the session: {"<game id>": ["<link token>", ...]}, one per seat.
SESSION_KEY = "seat_links"

# The form of the seat secrets that addresses carried before seat links expired (raw
# `Seat.token`s): such an address no longer opens anything.
OLD_ADDRESS_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")


class LinkRefused(Exception):
    """A seat link that does not act. `reason` is one of:
    "damaged": not of the form of a link (a 400: the address was cut or changed);
    "over": the game is over (its pages are public: go to the public page);
    "stale": it ran out (older than SEAT_LINK_DAYS), its seat changed hands, it is an address
    of the old form, or its signature does not match."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Grant:
    """A seat link that acts now: the seat (with its game) and the link's token."""

    seat: Seat
    token: str


def lifetime() -> timedelta:
    """How long a seat link acts after it is made: SEAT_LINK_DAYS days."""
    return timedelta(days=settings.SEAT_LINK_DAYS)


def link_token(*, game_id: int, seat_id: int, seat_secret: str) -> str:
    """A new seat link token `<seat id>.<time>.<signature>` (at most ~70 URL-safe characters)
    for the seat `seat_id` (`Seat.pk`) of game `game_id`; `seat_secret` is its `Seat.token`."""
    return seat_link_token(game_id=game_id, seat_id=seat_id, seat_secret=seat_secret)


def seat_link_url(*, game_id: int, seat_id: int, seat_secret: str, history: bool = False) -> str:
    """The absolute address (SITE_URL) of a new seat link: to the seat's game page, or to its
    history when `history`."""
    token = link_token(game_id=game_id, seat_id=seat_id, seat_secret=seat_secret)
    name = "games:seat_history" if history else "games:seat"
    return settings.SITE_URL + reverse(name, args=[int(game_id), token])


def check(game: Game, token: str) -> Grant:
    """The seat a link token acts for in `game`, now. Raises LinkRefused ("damaged", "over" or
    "stale", see there). One query (the seat), none for a damaged token."""
    try:
        seat_id = seat_of_link(token)
    except BadToken:
        raise LinkRefused("stale" if OLD_ADDRESS_RE.fullmatch(token) else "damaged") from None
    if game.is_over:
        raise LinkRefused("over")
    seat = Seat.objects.select_related("game", "user").filter(game=game, pk=seat_id, is_bot=False).first()
    if seat is None:
        raise LinkRefused("stale")
    try:
        check_seat_link(token, game_id=game.pk, seat_secret=seat.token, max_age=lifetime())
    except BadToken:  # forged, of another seat, game or purpose, or expired
        raise LinkRefused("stale") from None
    return Grant(seat=seat, token=token)


def grant(request: HttpRequest, given: Grant) -> None:
    """Remember in the session that its visitor may act for `given.seat` (until the link runs
    out). The session key changes, as at a sign-in, so a session fixed in advance by somebody
    else does not receive the grant."""
    grants = dict(request.session.get(SESSION_KEY) or {})
    key = str(given.seat.game_id)
    kept = [t for t in grants.get(key, []) if not t.startswith(f"{given.seat.pk}.")]
    grants[key] = [*kept, given.token]
    request.session.cycle_key()
    request.session[SESSION_KEY] = grants
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:  # the devices turned on from it follow it
        follow_session_key(request.session, getattr(user, "email", "") or "")


def holds_links(request: HttpRequest, game: Game) -> bool:
    """Whether the visitor's session holds any seat link of `game`, valid or not (not checked)."""
    session = getattr(request, "session", None)
    return bool(session is not None and (session.get(SESSION_KEY) or {}).get(str(game.pk)))


def granted_seats(request: HttpRequest, game: Game) -> list[Seat]:
    """The seats of `game` the visitor's session holds a seat link for that still acts (each
    link checked again: expiry, change of hands, end of the game), in seating order. Links that
    no longer act are dropped from the session."""
    session = getattr(request, "session", None)
    if session is None:
        return []
    grants = session.get(SESSION_KEY) or {}
    tokens = grants.get(str(game.pk)) or []
    if not isinstance(tokens, list) or not tokens:
        return []
    seats, live = [], []
    for token in tokens:
        try:
            seats.append(check(game, str(token)).seat)
            live.append(token)
        except LinkRefused:
            pass
    if live != tokens:
        grants = dict(grants)
        if live:
            grants[str(game.pk)] = live
        else:
            grants.pop(str(game.pk), None)
        session[SESSION_KEY] = grants
    return sorted(seats, key=lambda s: s.position)
