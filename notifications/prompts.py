"""The emails a seat receives, rendered from the rules' view of the game for that seat only.

Each email is a template triplet under templates/emails/ (`<name>.subject.txt`, `<name>.txt`,
`<name>.html`) rendered by `render_email`. The functions here are pure (no database): they take a
`Recipient`, a GameState and lines already redacted for the recipient (`notifications.happenings`).

Subjects say what the email is and what it needs, first word first: "Your move: ...",
"Accepted: ... — Your move: ..." (a prompt that also accepts the seat's reply),
"Accepted: ...", "Rejected: ...", "News", "Reminder: ...", "Game over: ...", each ending with
"— Inis <game>" (`notifications.wording` words the decision).

Language: every email is written in its recipient's language (`Recipient.language`, the player's
preference): each function here renders inside `translation.override` of it, so the rules' prompts
and option lines, card and territory names, seat colours, dates and the templates' sentences all
come out in it. English is the source language.

Hidden information: the board comes from `notifications.email_board` (the public view and the
recipient's own), the hand and the draft from `rules.view_for(state, colour)`, the decisions and
options are the recipient's own, whom the game waits for comes from `rules.pending_for` (which
hides who was asked in a Triskel window), and what happened is redacted by `rules.redact` for the
recipient; nothing about another seat's hand is ever put in a context.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from email.utils import make_msgid
from functools import partial, wraps
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from games import rules
from games.play import standing_orders
from games.rules import own_prompt, usual_moves
from games.store import selectors
from games.story.dates import dated
from games.story.descriptions import describe_command
from games.story.names import joined, player_name
from games.story.second_person import second_person
from notifications import email_board, wording
from notifications.command_language.help import describe_syntax
from notifications.tokens import reply_address
from players import seat_links
from players.signed_tokens import email_links_token

# How many legal commands an email lists (numbered as `legal_commands` lists them); the seat's
# page lists them all, and a number beyond the list still works in a reply.
MAX_LISTED_COMMANDS = 30
# How many lines of "what happened" an email shows (the most recent); the rest is on the page.
MAX_HAPPENED_LINES = 40

CLASH_KINDS = frozenset({"citadel", "maneuver", "attack_response", "attack_choice", "peace_vote"})


@dataclass(frozen=True)
class RenderedEmail:
    """subject: one line; text and html: the two bodies; headers: extra headers (str -> str)."""

    subject: str
    text: str
    html: str
    headers: dict


@dataclass(frozen=True)
class Recipient:
    """Who an email goes to and how they want it: a player seat and its preferences.

    seat_id: `Seat.pk` (in reply tokens); seat_token: the seat page's secret; player_id: the
    `Player` (unsubscribe and preference links); language: "en" or "fr" (card and territory
    names, answers); time_zone: an IANA name for deadlines. log_fingerprint: seq (None: the
    last event now) -> the short hash of the game's log at that event (`fingerprint`); given by
    `of` (it reads the database), None for a Recipient made by hand (no fingerprint line).
    standing_orders: () -> the seat's standing orders (`games.play.standing_orders`), listed in
    its prompts; given by `of` (it reads the database), None for a Recipient made by hand (no
    orders listed).
    """

    game_id: int
    seat_id: int
    colour: str
    email: str
    seat_token: str
    player_id: int
    language: str = "en"
    time_zone: str = "UTC"
    log_fingerprint: Callable[[int | None], str] | None = field(default=None, compare=False, repr=False)
    standing_orders: Callable[[], list] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, seat, player) -> Recipient:
        """The Recipient of a `games.Seat` and its `players.Player`."""
        return cls(
            game_id=seat.game_id,
            seat_id=seat.pk,
            colour=seat.colour,
            email=seat.email,
            seat_token=seat.token,
            player_id=player.pk,
            language=player.language,
            time_zone=player.time_zone,
            log_fingerprint=partial(_log_fingerprint_at, seat.game_id),
            standing_orders=partial(standing_orders.orders_of_seat, seat.pk),
        )


def _orders_of(r: Recipient) -> list:
    """The recipient's standing orders (reads the database through `Recipient.of`'s reader)."""
    return r.standing_orders() if r.standing_orders is not None else []


def _log_fingerprint_at(game_id: int, seq: int | None) -> str:
    return selectors.log_fingerprint(game_id=game_id, seq=seq)  # reads the database


def fingerprint(r: Recipient, seq: int | None = None) -> str:
    """The short hash of the game's log at event `seq` (None: its last event now), which every
    game email names in its footer so that the player can later check the record still holds
    it (`verify_game --head`); "" when `r` has no access to the log or the game no such event."""
    return r.log_fingerprint(seq) if r.log_fingerprint is not None else ""


def render_email(name: str, context: dict, *, headers: dict) -> RenderedEmail:
    """Render templates/emails/<name>.subject.txt, .txt and .html with `context`."""
    subject = " ".join(render_to_string(f"emails/{name}.subject.txt", context).split())
    return RenderedEmail(
        subject=subject,
        text=render_to_string(f"emails/{name}.txt", context),
        html=render_to_string(f"emails/{name}.html", context),
        headers=headers,
    )


def _domain() -> str:
    return urlsplit(settings.SITE_URL).hostname or "localhost"


def seat_url(game_id: int, seat_id: int, seat_token: str, *, history: bool = False) -> str:
    """The absolute address of a new seat link to the seat's page (or its history): it acts
    for that seat of that game only, for SEAT_LINK_DAYS, and signs nobody in
    (`players.seat_links`). seat_token: the seat's secret `Seat.token`, never shown."""
    return seat_links.seat_link_url(game_id=game_id, seat_id=seat_id, seat_secret=seat_token, history=history)


def player_urls(player_id: int) -> dict:
    """{"unsubscribe": ..., "preferences": ...}: the player's signed links."""
    token = email_links_token(player_id)
    return {
        "unsubscribe": settings.SITE_URL + reverse("email:unsubscribe", args=[token]),
        "preferences": settings.SITE_URL + reverse("email:preferences", args=[token]),
    }


def thread_root(game_id: int, colour: str) -> str:
    """The Message-ID every email of the game to this seat refers to: one thread per game and seat."""
    return f"<inis-game-{game_id}-{colour}@{_domain()}>"


def mail_headers(
    r: Recipient, *, reply_seq: int | None, automatic: str = "auto-generated", message_key: str | None = None
) -> dict:
    """Threading (a fresh Message-ID, or with `message_key` the one of that key; References /
    In-Reply-To the thread root), the seat's Reply-To for the decision at `reply_seq` (None: no
    reply address), one-click unsubscribe from news (RFC 2369 / RFC 8058), and Auto-Submitted
    (RFC 3834) so that auto-responders stay quiet."""
    root = thread_root(r.game_id, r.colour)
    links = player_urls(r.player_id)
    idstring = f"inis-{r.game_id}-{r.colour}"
    headers = {
        "Message-ID": (
            f"<{message_key}.{idstring}@{_domain()}>"
            if message_key
            else make_msgid(idstring, domain=_domain())
        ),
        "References": root,
        "In-Reply-To": root,
        "List-Unsubscribe": f"<{links['unsubscribe']}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "Auto-Submitted": automatic,
    }
    if reply_seq is not None:
        headers["Reply-To"] = reply_address(
            game_id=r.game_id, seat_id=r.seat_id, seq=reply_seq, seat_secret=r.seat_token
        )
    return headers


def in_language(function):
    """Render `function(r, ...)` (r: a `Recipient`) in `r.language` (`translation.override`)."""

    @wraps(function)
    def written(r, *args, **kwargs):
        with translation.override(r.language or "en"):
            return function(r, *args, **kwargs)

    return written


def _in_zone(deadline: datetime, time_zone: str) -> tuple[datetime, str]:
    """`deadline` in the player's zone, and the zone's name (UTC when the name is unknown)."""
    try:
        zone = ZoneInfo(time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        zone, time_zone = ZoneInfo("UTC"), "UTC"
    return deadline.astimezone(zone), time_zone


def format_deadline(deadline: datetime | None, time_zone: str) -> str:
    """ "Friday 14 March 2025, 18:00 (Europe/Paris)", in the player's zone and the active language
    ("vendredi 14 mars 2025, 18:00 (Europe/Paris)"); "" without a deadline."""
    if deadline is None:
        return ""
    local, time_zone = _in_zone(deadline, time_zone)
    return f"{dated(local, 'l j F Y, H:i')} ({time_zone})"


def format_short_deadline(deadline: datetime | None, time_zone: str) -> str:
    """ "Fri 14 Mar 18:00 Europe/Paris" for a subject line, in the player's zone and the active
    language; "" without one."""
    if deadline is None:
        return ""
    local, time_zone = _in_zone(deadline, time_zone)
    return f"{dated(local, 'D j M H:i')} {time_zone}"


def short(text: str, limit: int = 90) -> str:
    """`text` on one line, cut to `limit` characters with "…" (subject lines stay readable)."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1].rstrip(" ,;:.") + "…"


def clash_lines(decision, colour: str | None = None) -> list[str]:
    """The public facts of a clash decision (`Decision.context`): where, who instigated it, the
    turn order, the exposed and the sheltered clans, free Citadels, told to `colour` ("you").
    Empty for other decisions."""
    c = decision.context or {}
    if decision.kind not in CLASH_KINDS or "territory" not in c:
        return []
    french = translation.get_language() == "fr"

    def who(seat):
        # English says "you" afterwards (`games.story.second_person`); French says it here.
        return _("you") if french and colour and seat == colour else player_name(seat)

    def counts(d):
        return ", ".join(f"{who(seat)} {n}" for seat, n in d.items()) or _("none")

    lines = [
        _("Clash in {the_territory} (instigator: {instigator}).").format(
            the_territory=rules.territory_phrase(c["territory"]), instigator=who(c.get("instigator"))
        )
    ]
    # The players with clans in the territory, exposed or sheltered, as the game page's clash
    # panel lists them: a seat with no clan there takes no part in the clash.
    in_clash = [
        s
        for s in c.get("turn_order") or ()
        if (c.get("exposed") or {}).get(s) or (c.get("sheltered") or {}).get(s)
    ]
    if in_clash:
        lines.append(_("Turn order: {seats}.").format(seats=", ".join(who(s) for s in in_clash)))
    lines.append(_("Exposed clans: {clans}.").format(clans=counts(c.get("exposed") or {})))
    lines.append(_("Sheltered clans (in Citadels): {clans}.").format(clans=counts(c.get("sheltered") or {})))
    if "free_citadels" in c:
        lines.append(_("Free Citadels: {count}.").format(count=c["free_citadels"]))
    return [second_person(line, colour) for line in lines]


@dataclass
class DecisionBlock:
    """What a seat must decide now, as its emails show it (see `decision_block`)."""

    decisions: list = field(default_factory=list)  # [{"prompt", "kind", "clash": [lines], "barred": [lines]}]
    notes: list = field(default_factory=list)  # why cards of the hand cannot be played now
    title: str = ""  # the decisions in a few words (subjects)
    default: str = ""  # what a deadline plays, in words
    orders: list = field(default_factory=list)  # the seat's standing orders in words ("order 1: …")
    order_first: str = ""  # the standing order that answers at the deadline if it fits, in words
    options: list = field(default_factory=list)  # [{"number", "description"}]
    more_options: int = 0
    syntax: str = ""
    waiting_for: list = field(default_factory=list)  # whom the others wait for, in words
    hand: list = field(default_factory=list)  # card lines with texts, then the draft's held cards
    draft_choices: list = field(default_factory=list)
    board: str = ""


def waiting_words(state, colour: str | None) -> list[str]:
    """Whom the game waits for, as `colour` may know it (`rules.pending_for`): the other seats'
    names ("Ann (blue)" inside `rules.players_named`), and "possible Triskel reactions" for a window whose asked seats are hidden."""
    words = []
    for d in rules.pending_for(state, colour):
        word = player_name(d.seat) if d.seat is not None else _("possible Triskel reactions")
        if d.seat != colour and word not in words:
            words.append(word)
    return words


def decision_block(state, colour: str, language: str = "en", orders: list | None = None) -> DecisionBlock:
    """The seat's decisions (with clash facts, and why a usual move is not offered:
    `usual_moves`), its legal options numbered from 1 in `legal_commands` order (the reply
    parser numbers them the same way), what a deadline would play, the command syntax for the
    decision kind (naming only the usual moves offered), why cards of its hand cannot be played
    now (`rules.why_not_playable`), its hand and draft cards with their texts, and the board (`email_board.board_text`) —
    all as `colour` may see them. A decision's prompt names only the usual moves legal for the
    seat now (`usual_moves.own_prompt`). orders: the seat's standing orders (`StandingOrder`
    rows), which the block lists (private to the seat, like its hand; None: none listed)."""
    mine = [d for d in rules.pending_for(state, colour) if d.seat == colour]
    orders = orders or []
    answering = [o for o in orders if mine and mine[0].kind in standing_orders.answers(o)]
    commands = rules.legal_commands(state, colour) if mine else []
    view = rules.view_for(state, colour)
    draft = view.get("draft") or {}
    usual = {d.kind: usual_moves(state, colour, d.kind) for d in mine}
    return DecisionBlock(
        decisions=[
            {
                "prompt": joined(own_prompt(state, colour, d)),
                "kind": d.kind,
                "clash": clash_lines(d, colour),
                "barred": [reason for _key, reason in usual[d.kind].barred],
            }
            for d in mine
        ],
        notes=rules.why_not_playable(state, colour) if mine else [],
        title=wording.decisions_title(mine, colour),
        default=(
            wording.default_words(state, colour, mine[0].kind, lambda c: describe_command(state, c, colour))
            if mine
            else ""
        ),
        orders=standing_orders.listed(orders),
        order_first=standing_orders.describe(answering[0]) if answering else "",
        options=[
            {"number": n, "description": describe_command(state, command, colour)}
            for n, command in enumerate(commands[:MAX_LISTED_COMMANDS], start=1)
        ],
        more_options=max(0, len(commands) - MAX_LISTED_COMMANDS),
        syntax=(
            describe_syntax(
                mine[0].kind, language, offered=usual[mine[0].kind].offered or None, legal=commands
            )
            if mine
            else ""
        ),
        waiting_for=waiting_words(state, colour),
        hand=[rules.card_line(c, language) for c in view.get("hand", [])]
        # Step 6: the cards kept in the draft join the hand when it ends; until then the seat
        # holds them, and those it held from its last pick while it waits for a pack.
        + [
            _("Held in the draft: {card}").format(card=rules.card_line(c, language))
            for c in draft.get("kept", []) + draft.get("held", [])
        ],
        draft_choices=[rules.card_line(c, language) for c in (draft.get("choices") or [])],
        board=email_board.board_text(state, colour),
    )


def _base_context(r: Recipient, state) -> dict:
    return {
        "r": r,
        "game_id": r.game_id,
        "colour": r.colour,
        "seq": state.seq,
        "seat_url": seat_url(r.game_id, r.seat_id, r.seat_token),
        "history_url": seat_url(r.game_id, r.seat_id, r.seat_token, history=True),
        "links": player_urls(r.player_id),
        "fingerprint": fingerprint(r, state.seq),
    }


def _happened(lines: list[str]) -> tuple[list[str], int]:
    return lines[-MAX_HAPPENED_LINES:], max(0, len(lines) - MAX_HAPPENED_LINES)


@in_language
def prompt_email(
    r: Recipient,
    state,
    *,
    happened: list[str],
    deadline: datetime | None,
    decision_seq: int,
    message_key: str | None = None,
    accepted: list = (),
) -> RenderedEmail:
    """The prompt for `r`'s pending decisions in `state`.

    happened: lines since the seat's last prompt, already redacted for it (oldest first).
    deadline: when the default applies (None: no deadline). decision_seq: the seq the seat's
    decision opened at, carried by the reply address. message_key: makes the Message-ID the
    same each time this email is written (None: a fresh one). accepted: the seat's replies
    accepted since its last email (`notifications.acceptances.Accepted`, as `fold_into` orders
    them): the prompt opens with them, its subject reads "Accepted: … — Your move: …", and it answers the
    last of them in its thread (In-Reply-To its Message-ID).
    """
    shown, earlier = _happened(happened)
    block = decision_block(state, r.colour, r.language, _orders_of(r))
    context = {
        **_base_context(r, state),
        "block": block,
        "title": short(block.title),
        "happened": shown,
        "earlier": earlier,
        "deadline": format_deadline(deadline, r.time_zone),
        "accepted": list(accepted),
        "accepted_summary": short(
            pgettext("between the parts of a list", "; ").join(a.summary for a in accepted), 60
        ),
    }
    headers = mail_headers(r, reply_seq=decision_seq, message_key=message_key)
    # The newest reply said: the last one, but for a take-back, said first and yet the newest
    # (its prompt goes at once, taking every acceptance held: `acceptances.fold_into`).
    newest_first = [*(a for a in accepted if a.undid), *reversed(accepted)]
    answered = next((a for a in newest_first if a.in_reply_to), None)
    if answered is not None:
        headers.update({"In-Reply-To": answered.in_reply_to, "References": answered.references})
    return render_email("prompt", context, headers=headers)


@in_language
def reminder_email(r: Recipient, state, *, deadline: datetime | None, decision_seq: int) -> RenderedEmail:
    """A reminder that `r`'s decision runs out at `deadline`, with the decision again."""
    block = decision_block(state, r.colour, r.language, _orders_of(r))
    context = {
        **_base_context(r, state),
        "block": block,
        "title": short(block.title),
        "deadline": format_deadline(deadline, r.time_zone),
        "short_deadline": format_short_deadline(deadline, r.time_zone),
    }
    return render_email("reminder", context, headers=mail_headers(r, reply_seq=decision_seq))


# The subject's words of an answer given no summary, per outcome.
ANSWER_SUMMARIES = {
    "accepted": gettext_lazy("your reply"),
    "stale": gettext_lazy("too late for that decision"),
    "rejected": gettext_lazy("your reply was not played"),
    "info": gettext_lazy("nothing played"),
}


@in_language
def answer_email(  # noqa: PLR0913 - what the answer says, keyword-only, the optional parts defaulted
    r: Recipient,
    state,
    *,
    outcome: str,
    message: str,
    decision_seq: int | None,
    deadline: datetime | None = None,
    note: str = "",
    summary: str = "",
    talk_sent: bool = False,
    decision_open: bool = False,
) -> RenderedEmail:
    """The answer to a reply of `r`.

    outcome: "accepted" (message: what was understood and done), "rejected" (message: why; the
    current options follow; nothing changed), "stale" (the decision had moved on; the current one
    follows), or "info" (message only, e.g. the game is over). `message` must already be safe for
    `r` (the command language and the rules name only the seat's own cards). note: an extra line
    (e.g. "welcome back"). decision_seq: the seq for the Reply-To (None: no reply address).
    summary: the subject's words after "Accepted: " or "Rejected: " (what was played, or why
    not). The subject starts "Accepted:" for outcome "accepted", "Rejected:" otherwise (nothing
    was played). talk_sent: with "rejected", the reply's move was refused but its table talk was
    sent (the answer opens "Your move was not played", not "nothing changed"; `note` says what
    was sent). decision_open: with "accepted", the reply played no move and left the seat's
    decision open: the answer does not open "Done." (docs/email-commands.md keeps that for a
    seat with nothing more to decide).
    """
    block = (
        decision_block(state, r.colour, r.language, _orders_of(r))
        if outcome in ("rejected", "stale")
        else None
    )
    context = {
        **_base_context(r, state),
        "outcome": outcome,
        "message": message,
        "note": note,
        "talk_sent": talk_sent,
        "decision_open": decision_open,
        "block": block,
        "deadline": format_deadline(deadline, r.time_zone),
        "summary": short(summary or str(ANSWER_SUMMARIES.get(outcome, ANSWER_SUMMARIES["info"]))),
    }
    return render_email(
        "answer", context, headers=mail_headers(r, reply_seq=decision_seq, automatic="auto-replied")
    )


@in_language
def news_email(r: Recipient, state, *, lines: list[str]) -> RenderedEmail:
    """Non-urgent news for `r` (lines redacted for it), for a player who takes news emails (at
    most one a minute per seat, `notifications.news`). It says whom the game waits for as `r` may
    know it, and whether `r` itself has a decision open (its prompt is a separate email)."""
    context = {
        **_base_context(r, state),
        "lines": lines,
        "waiting_for": waiting_words(state, r.colour),
        "your_move": any(d.seat == r.colour for d in rules.pending_for(state, r.colour)),
    }
    return render_email("news", context, headers=mail_headers(r, reply_seq=None))


@in_language
def notice_email(
    r: Recipient, state, *, message: str, decision_seq: int | None, about: str = "about your seat"
) -> RenderedEmail:
    """A notice about the seat itself (replaced by the bot, back at the table); `about`: the
    subject's words after "Notice: "."""
    context = {**_base_context(r, state), "message": message, "about": short(about)}
    return render_email("notice", context, headers=mail_headers(r, reply_seq=decision_seq))


@in_language
def game_over_email(
    r: Recipient,
    state,
    *,
    seed: str,
    seed_commitment: str,
    happened: list[str] = (),
    accepted: list = (),
    rematch: bool = True,
) -> RenderedEmail:
    """The end of the game: what happened last, the winner, the final board, the revealed seed;
    accepted: the seat's replies accepted since its last email (`notifications.acceptances`),
    said first; rematch: whether to say that a reply "rematch" asks for one (not for a game
    begun on a described island, which cannot be dealt again)."""
    shown, earlier = _happened(list(happened))
    context = {
        **_base_context(r, state),
        "winner": state.winner,
        "you_won": state.winner == r.colour,
        "board": email_board.board_text(state, r.colour),
        "seed": seed,  # the game is over: the seed is revealed to everybody
        "seed_commitment": seed_commitment,
        "public_history_url": settings.SITE_URL + reverse("games:history", args=[r.game_id]),
        "happened": shown,
        "earlier": earlier,
        "accepted": list(accepted),
        "rematch": rematch,
    }
    # The seat's reply address: a reply "rematch" asks for the rematch (docs/rematch.md).
    return render_email("game_over", context, headers=mail_headers(r, reply_seq=state.seq))


@dataclass(frozen=True)
class DigestSection:
    """One game's part of a digest: the seat, its lines (redacted for it), its page, and the
    short hash of the game's log when the digest was written (`fingerprint`; "" for none)."""

    game_id: int
    colour: str
    seat_url: str
    lines: list
    fingerprint: str = ""


def digest_email(
    *, email: str, player_id: int, sections: list[DigestSection], language: str = "en"
) -> RenderedEmail:
    """The daily digest of news for one player, across their games, in `language` (the lines
    were written in it when the news happened)."""
    links = player_urls(player_id)
    headers = {
        "Message-ID": make_msgid("inis-digest", domain=_domain()),
        "List-Unsubscribe": f"<{links['unsubscribe']}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "Auto-Submitted": "auto-generated",
    }
    context = {
        "email": email,
        "sections": sections,
        "links": links,
        "lines": sum(len(s.lines) for s in sections),
    }
    with translation.override(language or "en"):
        return render_email("digest", context, headers=headers)


def stranger_email(*, to_subject: str, reason: str, language: str = "en") -> RenderedEmail:
    """The answer to a message we cannot tie to a seat (no reply token, or an invalid one): it
    says why and how to reply, and names no game, seat or card; in `language` (the sender's
    Player's, when the address has one; `reason` must already be in it)."""
    context = {"subject": to_subject, "reason": reason}
    headers = {"Message-ID": make_msgid("inis-answer", domain=_domain()), "Auto-Submitted": "auto-replied"}
    with translation.override(language or "en"):
        return render_email("stranger", context, headers=headers)
