"""Deadlines: when a seat's decision runs out, and the default played then.

The rules for players are in docs/deadlines.md (keep both in step). How long a decision may wait
is the game's: `games.record.options.deadline_hours` (per decision kind, 0 for none), plus the host's
extensions (`extension_hours`), plus the time the host had the game paused (`paused_seconds`).
The player's vacation does not count either. All pure: clocks and the sweep are in
`games.play.schedule` and `games.play.standins`.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from games import rules
from games.record.options import deadline_hours, extension_hours, is_paused, paused_seconds

# A reminder goes this long before a deadline (but not before half of the decision's time).
REMINDER_HOURS = 12
# Deadlines run out in a row before the bot plays the seat until its player comes back.
MISSES_BEFORE_STAND_IN = 3

# The default played at the deadline, per kind: the first legal command matching one of these
# templates (a template matches a command when every field it names has that value; several
# matches: one at random). When none matches, the stand-in bot's choice (`games.play.standins`,
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


def without_vacation(opened_at: datetime, duration: timedelta, away: tuple | None) -> datetime:
    """`opened_at + duration`, where time inside the vacation `away` = (start, end) does not count
    (aware datetimes; None: no vacation)."""
    start, end = away if away else (None, None)
    if not start or not end or end <= start or end <= opened_at:
        return opened_at + duration
    if opened_at >= start:  # opened during the vacation: the clock starts when it ends
        return end + duration
    if opened_at + duration <= start:
        return opened_at + duration
    return end + (duration - (start - opened_at))


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
    While the game is paused, the time paused so far is added, so a paused game's deadline stays
    ahead of `now`.
    """
    hours = deadline_hours(options, kind)
    if hours <= 0:
        return None
    hours += extension_hours(options, colour, since_seq=since_seq)
    ends = without_vacation(opened_at, timedelta(hours=hours), away)
    ends += timedelta(seconds=paused_seconds(options, opened_at, now))
    if is_paused(options) and ends <= now:
        ends = now + timedelta(minutes=1)
    return ends


def remind_at(opened_at: datetime, ends: datetime) -> datetime:
    """The reminder's time: REMINDER_HOURS before the deadline, but not before half of the
    decision's time has passed (a short deadline gets its reminder half-way)."""
    half = opened_at + (ends - opened_at) / 2
    return max(ends - timedelta(hours=REMINDER_HOURS), half)


def _matches(command: dict, template: dict) -> bool:
    return all(command.get(k) == v for k, v in template.items())


def template_command(state, colour: str, kind: str, rng) -> dict | None:
    """The command of the first template of `kind` (DEFAULTS) that matches a legal command of
    `colour` (several matches: one chosen with `rng`, a `random.Random`); None when none does."""
    legal = rules.legal_commands(state, colour)
    for template in DEFAULTS.get(kind, []):
        matching = [c for c in legal if _matches(c, template)]
        if matching:
            return dict(matching[0] if len(matching) == 1 else rng.choice(matching))
    return None


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
