"""Deadlines: when a seat's decision runs out, and the default played then.

The rules for players are in docs/deadlines.md (keep both in step). How long a decision may wait
is the game's: `games.record.options.deadline_hours` (per decision kind, 0 for none), plus the host's
extensions (`extension_hours`); that time counts from when the decision opened, the time the host
had the game paused and the player's vacation not counting (their union: `not_counting`), and so
does the reminder's. All pure: clocks and the sweep are in `games.play.schedule` and
`games.play.standins`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta

from games import rules
from games.record.options import deadline_hours, extension_hours, is_paused

# A reminder goes this long before a deadline, in counted time (but not before half of the
# decision's time).
REMINDER_HOURS = 12
# Deadlines run out in a row before the bot plays the seat until its player comes back.
MISSES_BEFORE_STAND_IN = 3

# The default played at the deadline, per kind: the first legal command matching one of these
# templates (a template matches a command when every field it names has that value; several
# matches: the one that adds no field to the template, else one at random: `fitting`). When none matches, the stand-in bot's choice (`games.play.standins`,
# the bot that plays absent players, deciding on what the seat may see): e.g. a draft pick or the
# card a Druid takes, never a uniform random one.
DEFAULTS = {
    "season_turn": [{"type": "pass"}],
    "citadel": [{"type": "no_citadel"}],
    "reaction": [{"type": "decline"}],
    "peace_vote": [{"type": "peace_vote", "agree": True}],
    "attack_response": [{"type": "attack_response", "choice": "remove"}],
    "attack_choice": [{"type": "attack_choice", "choice": "remove"}],
    "maneuver": [{"type": "end_clash"}, {"type": "propose_peace"}, {"type": "withdraw"}],
    "card_choice": [{"type": "scouts_move", "skip": True}, {"type": "tailtu_move", "skip": True}],
}


# A span of time (start, end), aware datetimes, during which no decision's clock runs.
Span = tuple[datetime, datetime]


def merged_spans(spans: Iterable[tuple | None]) -> list[Span]:
    """`spans` ((start, end) pairs; None and empty ones left out) sorted and merged where they
    overlap or touch: time inside two of them is left out once."""
    merged: list[Span] = []
    for start, end in sorted(span for span in spans if span and span[0] and span[1] and span[1] > span[0]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def not_counting(options: dict, now: datetime, away: tuple | None) -> list[Span]:
    """The spans in which no clock of the player runs: their vacation `away` ((start, end) or
    None) and the host's pauses of the game (`options["pauses"]`, an open one lasting until
    `now`), merged (`merged_spans`): a pause during the vacation is not left out twice."""
    pauses = [
        (
            datetime.fromisoformat(pause["from"]),
            datetime.fromisoformat(pause["until"]) if pause.get("until") else now,
        )
        for pause in options.get("pauses") or []
    ]
    return merged_spans([away, *pauses])


def counted_until(start: datetime, duration: timedelta, stopped: list[Span]) -> datetime:
    """When `duration` of counted time has passed since `start`, time inside the spans `stopped`
    (sorted, not overlapping: `merged_spans`) not counting: a clock started inside one of them
    starts when it ends, and a span that begins once `duration` has passed changes nothing."""
    at, left = start, duration
    for span_start, span_end in stopped:
        if span_end <= at:
            continue
        if span_start > at:
            if at + left <= span_start:
                return at + left
            left -= span_start - at
        at = span_end
    return at + left


def counted_between(start: datetime, end: datetime, stopped: list[Span]) -> timedelta:
    """The counted time from `start` to `end` (zero when `end` is not after `start`), time inside
    the spans `stopped` (sorted, not overlapping: `merged_spans`) not counting."""
    if end <= start:
        return timedelta(0)
    inside = sum(
        (
            min(span_end, end) - max(span_start, start)
            for span_start, span_end in stopped
            if span_end > start and span_start < end
        ),
        timedelta(0),
    )
    return end - start - inside


def without_vacation(opened_at: datetime, duration: timedelta, away: tuple | None) -> datetime:
    """`opened_at + duration`, where time inside the vacation `away` = (start, end) does not count
    (aware datetimes; None: no vacation)."""
    return counted_until(opened_at, duration, merged_spans([away]))


def _decision_time(options: dict, kind: str, colour: str, since_seq: int) -> timedelta | None:
    """The counted time a decision of `kind` that `colour` has had since seq `since_seq` may wait:
    the game's hours for the kind plus the host's extensions; None when the kind has no deadline."""
    hours = deadline_hours(options, kind)
    if hours <= 0:
        return None
    return timedelta(hours=hours + extension_hours(options, colour, since_seq=since_seq))


def deadline(
    *,
    options: dict,
    kind: str,
    colour: str,
    since_seq: int,
    opened_at: datetime,
    now: datetime,
    away: tuple | None = None,
) -> datetime | None:
    """When the decision of `kind` that `colour` has had since seq `since_seq` (opened at
    `opened_at`) runs out, as of `now`; None when the game gives that kind no deadline.

    options: the game's options (hours per kind, extensions, pauses); away: the player's vacation.
    The decision's time (`_decision_time`) counts from `opened_at`, time on vacation or paused
    not counting (`not_counting`: a pause during the vacation is left out once). While the game
    is paused, the time paused so far is left out, so a paused game's deadline stays ahead of
    `now`.
    """
    duration = _decision_time(options, kind, colour, since_seq)
    if duration is None:
        return None
    ends = counted_until(opened_at, duration, not_counting(options, now, away))
    if is_paused(options) and ends <= now:
        ends = now + timedelta(minutes=1)
    return ends


def remind_at(
    *,
    options: dict,
    kind: str,
    colour: str,
    since_seq: int,
    opened_at: datetime,
    now: datetime,
    away: tuple | None = None,
) -> datetime | None:
    """When the reminder of the decision (`deadline`'s arguments) goes, as of `now`:
    REMINDER_HOURS of the decision's counted time before its deadline, but not before half of
    that time has passed (a short deadline gets its reminder half-way). Counted like the
    deadline: a decision opened during the player's vacation is reminded only after the vacation
    has ended, and never during it. None when the kind has no deadline."""
    duration = _decision_time(options, kind, colour, since_seq)
    if duration is None:
        return None
    elapsed = max(duration - timedelta(hours=REMINDER_HOURS), duration / 2)
    return counted_until(opened_at, elapsed, not_counting(options, now, away))


def fitting(legal: Sequence[Mapping[str, object]], kind: str) -> list[Mapping[str, object]]:
    """The commands of `legal` (`rules.legal_commands`' list) a deadline of `kind` may play
    (one of them, at random when several): those matching the first template of `kind`
    (DEFAULTS) that matches any, each field the template names having its value; where one of
    them adds no field to the template, that one alone, since a field the template does not name
    is a choice the player did not make (a Triskel window's plain "decline", not the decline that
    plays a card later in the clash's step). [] when no template matches."""
    for template in DEFAULTS.get(kind, []):
        matching = [c for c in legal if all(c.get(k) == v for k, v in template.items())]
        if matching:
            exact = [c for c in matching if c.keys() == template.keys()]
            return exact[:1] or matching
    return []


def template_command(state, colour: str, kind: str, rng) -> dict | None:
    """The command a deadline of `kind` plays for `colour` by the templates (`fitting`; several:
    one chosen with `rng`, a `random.Random`); None when no template matches."""
    matching = fitting(rules.legal_commands(state, colour), kind)
    if not matching:
        return None
    return dict(matching[0] if len(matching) == 1 else rng.choice(matching))


def default_command(state, colour: str, kind: str, rng, stand_in) -> dict | None:
    """The command played for `colour` when its decision of `kind` runs out: the template's
    (`template_command`), else `stand_in()` (the stand-in bot's command for the seat, a dict, or
    None when it has none ready: then None).

    Raises ValueError when the seat has no legal command (nothing to decide).
    """
    if not rules.legal_commands(state, colour):
        raise ValueError(f"{colour} has nothing to decide")
    command = template_command(state, colour, kind, rng)
    return command if command is not None else stand_in()
