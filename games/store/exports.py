"""The export of a game: its configuration, event log and commands, as one seat may see them.

Shape (JSON):
    {"format": "inis-pbem-export/1",
     "game": {"id", "created_at", "status", "winner", "setup", "options", "player_count",
              "seed_commitment", "seed" (None until the game is over), "position" (idem),
              "chain_version" (1 or 2: games.record.hashchain, press.chain)},
     "seats": [{"colour", "position", "is_bot"}],          # no emails, no tokens
     "viewer": colour or None, "complete": bool (game over: nothing is redacted),
     "events": [HistoryEntry.to_json(), ...],              # see games.store.selectors.history_entry
     "commands": [{"first_seq", "last_seq", "seat", "client_seq", "command", "redacted"}],
     "table_events": [{"seq", "type", "payload", "actor", "at_seq", "recorded_at"}],
                                                           # the table log (docs/table-log.md)
     "press": [{"number", "at_seq", "sender", "recipients", "text", "sent_at", "prev_hash", "hash"}],
                                                           # table talk the viewer may read (docs/press.md)
     "proofs": {                                           # what checks the hashes without the seed
         "events": [{"seq", "public", "hidden_digest", "salt"}],
                    # per private event: "public" and "hidden_digest" in a version-2 chain (what
                    # its link hashes in place of the payload); "salt" while the game is in progress,
                    # only for an event the viewer is shown whole; "version" when it is shown
                    # upcast, the version its link hashes (games.store.selectors.event_proof)
         "press": [{"number", "salt", "hidden_digest"}],   # per private message the viewer reads
         "press_hidden": [{"number", "prev_hash", "hash", "hidden_digest"}]}}
                    # version 2: the links of the messages the viewer may not read (press.selectors)

"press" and the proofs' "press" and "press_hidden" are added by the press app (`register_section`,
in its AppConfig.ready()): the store imports no app above it.

Every link of a version-2 record can be recomputed from any export (`python -m games.verify`);
nothing in it lets a reader recover what it may not see: the digests are salted with secrets
that only the seats shown the whole of an event or message get (games.record.hashchain, games.record.talk_chain).

A command can be hidden information (a draft pick names the card taken) and the rules do not say
which fields are secret, so before the end of the game another seat's command shows only its
type; the events, redacted by the rules, carry whatever of it is public. An answer to a Triskel
window shows not even that: whether a player played a card or declined (or gave the maneuver the
window was folded into) is secret until the window's plays are revealed, so another seat's answer
shows the type "answer" until the end of the game, and no seat (None) in a window that asks only
the seats able to answer, as its event names nobody (docs/rulings.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.store import selectors
from games.store.models import Command, Event, Game

FORMAT = "inis-pbem-export/1"

# What apps above the store add to every export, in the order registered: sections (key,
# entries) after "table_events", and proofs (key, entries) in "proofs" after "events", where
# entries(game=Game, colour=str | None) gives the key's JSON value, only what `colour` may read.
# Registered in those apps' AppConfig.ready() (press: its table talk and their proofs).
_SECTIONS: list[tuple[str, Callable[..., object]]] = []
_PROOFS: list[tuple[str, Callable[..., object]]] = []
_OWN_KEYS = frozenset(
    {"format", "game", "seats", "viewer", "complete", "events", "commands", "table_events", "proofs"}
)


def register_section(
    key: str, entries: Callable[..., object], *, proofs: dict[str, Callable[..., object]] | None = None
) -> None:
    """Add the section `key` to every export, `entries(game=..., colour=...)` (a JSON value of what
    `colour` may read; None: a spectator), and `proofs` ({key: entries} the same way) to its
    "proofs". Registering a key again replaces its function. Raises ValueError for a key the
    export itself uses."""
    if key in _OWN_KEYS or "events" in (proofs or {}):
        raise ValueError(f"{key!r} is a key of the export itself")
    _SECTIONS[:] = [(k, f) for k, f in _SECTIONS if k != key] + [(key, entries)]
    for proof_key, proof_entries in (proofs or {}).items():
        _PROOFS[:] = [(k, f) for k, f in _PROOFS if k != proof_key] + [(proof_key, proof_entries)]


# The events that record a seat's answer to a Triskel window (first of its command's events): the
# second names nobody, in a game whose windows ask only the seats able to answer (docs/rulings.md).
WINDOW_ANSWERS = ("ReactionAnswered", "ReactionAnsweredPrivately")
# What another seat's answer shows before the end: not "react", "decline" or a maneuver.
ANSWER = "answer"


def redact_command(
    record: Command, colour: str | None, *, complete: bool, answer: str | None = None
) -> dict[str, Any]:
    """The command `record` as `colour` may see it (whole for its own seat or when complete).

    answer: the type of the event recording `record` as its seat's answer to a Triskel window
    (one of WINDOW_ANSWERS), None when it is no such answer. Another seat's answer then shows
    only the type "answer", and no seat (None) when that event names nobody."""
    whole = complete or (colour is not None and record.seat.colour == colour)
    shown = record.body if whole else {"type": ANSWER if answer else record.body.get("type")}
    anonymous = not whole and answer == "ReactionAnsweredPrivately"
    return {
        "first_seq": record.first_seq,
        "last_seq": record.last_seq,
        "seat": None if anonymous else record.seat.colour,
        "client_seq": record.client_seq,
        "command": shown,
        "redacted": not whole,
    }


def _window_answers(game: Game) -> dict[int, tuple[str, str | None]]:
    """{seq: (event type, answering seat)} of the events of `game` that record an answer to a
    Triskel window."""
    rows = Event.objects.filter(game=game, type__in=WINDOW_ANSWERS).only("seq", "type", "payload")
    return {row.seq: (row.type, row.payload.get("seat")) for row in rows}


def _answer_of(record: Command, answers: dict[int, tuple[str, str | None]]) -> str | None:
    """The type of the event by which `record` answered a Triskel window, if it did: the answer is
    the first event its command caused, by its own seat (a command that opens a window may also
    record the answers that standing orders give at once, its own seat's among them)."""
    kind, seat = answers.get(record.first_seq, (None, None))
    return kind if seat == record.seat.colour else None


def export_game(*, game: Game, colour: str | None = None) -> dict[str, Any]:
    """The export of `game` for `colour` (None: a spectator); see the module docstring."""
    complete = game.is_over
    commands = Command.objects.filter(game=game).select_related("seat").order_by("first_seq")
    answers = {} if complete else _window_answers(game)
    history, event_proofs = selectors.history_and_proofs(game=game, colour=colour)
    export: dict[str, Any] = {
        "format": FORMAT,
        "game": {
            "id": game.pk,
            "created_at": game.created_at.isoformat(),
            "status": game.status,
            "winner": game.winner or None,
            "setup": game.setup,
            "options": game.options,
            "player_count": game.player_count,
            "seed_commitment": game.seed_commitment,
            "seed": game.revealed_seed,
            "position": game.position if complete else None,
            "chain_version": game.chain_version,
        },
        "seats": [
            {"colour": seat.colour, "position": seat.position, "is_bot": seat.is_bot}
            for seat in game.seats.all()
        ],
        "viewer": colour,
        "complete": complete,
        "events": [entry.to_json() for entry in history],
        "commands": [
            redact_command(record, colour, complete=complete, answer=_answer_of(record, answers))
            for record in commands
        ],
        # Public: host actions carry no hidden information and no email address.
        "table_events": [
            {
                "seq": t.seq,
                "type": t.type,
                "payload": t.payload,
                "actor": t.actor,
                "at_seq": t.at_seq,
                "recorded_at": t.recorded_at.isoformat(),
            }
            for t in selectors.table_events(game=game)
        ],
    }
    for key, entries in _SECTIONS:
        export[key] = entries(game=game, colour=colour)
    export["proofs"] = {"events": event_proofs}
    for key, entries in _PROOFS:
        export["proofs"][key] = entries(game=game, colour=colour)
    return export
