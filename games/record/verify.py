"""Check a game from its export, with no database: `python -m games.verify EXPORT.json [--head HASH]
[--talk HASH]`.

Anyone holding a game's export (`manage.py export_game`, or "Download the record" on the game's
page) can check it with this module, which needs only Python, `games.rules` and the small pure
modules the record is defined by (`games.record.hashchain`, `games.record.options`, `games.record.talk_chain`) — no Django,
no server. It checks:

1. the event log's chain, link by link: seq 1..N, each `prev_hash` the hash before it (the first,
   the seed commitment), each hash recomputed from what the entry shows (`games.record.hashchain`). In a
   version-2 record every link can be recomputed, redacted or not: a private event's link hashes
   its public part and hidden digest, which every export carries; what an entry shows must be
   that public part (a seat may be shown more of a described position: its own hand where
   others see a count), and a private event shown whole is checked against its hidden digest
   with its salt (given to the seats that may read it, derived from the seed once revealed) —
   these are the export's "proofs". In a version-1 record a private event's hash covers its
   whole payload and a salt from the seed: before the end of the game such a link can only be
   checked by a seat shown the event whole (its export gives it the salt), the others cannot be
   checked at all;
2. the table talk's chain in the same way (`games.record.talk_chain.check_export`): a version-2 export lists
   the links of the messages its reader may not read, so every link is checked; in version 1
   those are gaps that cannot be;
3. a fingerprint (`--head HASH`, the whole hash or its first 12 or more hex digits): an event of
   the log must have the hash HASH — the fingerprint an email named (the log's last hash when it
   was written), whichever email: a log cut short before that event, or rewritten up to it,
   holds no such hash any more; the report says which event has it;
4. a message of the table talk (`--talk HASH`, the same forms): the talk must hold a message
   whose hash is HASH — the fingerprint the email relaying that message named; talk edited or
   removed up to that message, or cut short before it, holds no such hash any more;
5. for a finished game (the export is `complete`: the seed is revealed and nothing is redacted):
   sha256(seed) is the commitment; `rules.start_game` with the seats, seed, set-up and options
   gives exactly the events before the first command (every shuffle follows from the seed);
   every command, decided again by `rules.decide` against the fold of the events before it with
   `rules.rng_for(seed, seq)` (a take-back by `rules.take_back_events` against the move it took
   back: the last command before it but for standing Triskel policies, which are no move), gives
   exactly its recorded events; the winner is the one the
   rules elect.

It always prints the fingerprint it reached: the last hash of the event log and of the table
talk. Compare them with the ones your last emails name, or pass any email's as `--head` (and a
relayed message's as `--talk`): whoever holds an export can recompute a whole chain after an
edit, but cannot make it hold the hash you kept.

Exit status: 0 every check passed and every link was checked ("OK"); 1 a problem ("FAILED");
2 the file is not an export; 3 no problem found, but some links (or some hidden parts shown
whole) could not be checked — a version-1 record of a game in progress ("NOT FULLY CHECKED",
never "OK").
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from games import rules
from games.record.hashchain import (
    CHAIN_VERSIONS,
    MIN_HEAD_DIGITS,
    canonical_json,
    event_hash,
    event_salt,
    hidden_digest,
    link_hash,
    normalise,
    public_part,
)
from games.record.options import rules_options
from games.record.talk_chain import TalkCheck, check_export

FORMAT = "inis-pbem-export/1"
EXIT_OK, EXIT_FAILED, EXIT_UNREADABLE, EXIT_NOT_FULLY_CHECKED = 0, 1, 2, 3


@dataclass
class ExportCheck:
    """The outcome: what was checked and one line per problem.

    events, commands: counts in the export; complete: the seed was revealed (the whole record
    was replayed); chain_version: the record's (1 or 2); links_checked / links_unchecked: links
    of the event log recomputed / that could not be; unconfirmed: private events whose shown
    content could not be checked against what their link covers (shown whole with no salt, or
    shown upcast to a newer version than the one hashed); head, head_seq: the last hash of the event
    log and its seq (the commitment and 0 without events); anchor, anchor_seq: the fingerprint
    given (`--head`) and the event whose hash it is (0 when none is, or none was given); talk:
    the table talk's `TalkCheck`.
    """

    events: int = 0
    commands: int = 0
    complete: bool = False
    chain_version: int = 1
    links_checked: int = 0
    links_unchecked: int = 0
    unconfirmed: int = 0
    head: str = ""
    head_seq: int = 0
    anchor: str = ""
    anchor_seq: int = 0
    talk: TalkCheck = field(default_factory=TalkCheck)
    problems: list[str] = field(default_factory=list)

    @property
    def fully_checked(self) -> bool:
        """Every link of both chains was recomputed, and every hidden part shown was checked."""
        return not (self.links_unchecked or self.unconfirmed or self.talk.unchecked or self.talk.unconfirmed)

    @property
    def ok(self) -> bool:
        """No problem, and nothing left unchecked: the only outcome printed "OK"."""
        return not self.problems and self.fully_checked

    @property
    def exit_status(self) -> int:
        """EXIT_OK, EXIT_FAILED or EXIT_NOT_FULLY_CHECKED (see the module docstring)."""
        if self.problems:
            return EXIT_FAILED
        return EXIT_OK if self.fully_checked else EXIT_NOT_FULLY_CHECKED

    def lines(self) -> list[str]:
        """The report: the verdict, one `  - ` line per problem, then what was checked and the
        fingerprints reached."""
        if self.complete:
            scope = "the whole record (seed, chain, set-up, every command, the winner)"
        else:
            scope = "the public part only (the game is not over: its seed is still secret)"
        if self.problems:
            verdict = f"FAILED ({len(self.problems)} problem(s))"
        else:
            verdict = "OK" if self.fully_checked else "NOT FULLY CHECKED"
        out = [f"{verdict}: {self.events} events and {self.commands} commands; checked {scope}."]
        out += [f"  - {problem}" for problem in self.problems]
        out.append(
            f"Event log (chain version {self.chain_version}): "
            + _links(
                self.links_checked,
                self.links_unchecked,
                "private events of a version-1 record, whose hashes need the seed "
                "(revealed at the end of the game)",
            )
        )
        if self.unconfirmed:
            out.append(
                f"  {self.unconfirmed} private event(s) could not be checked against what their "
                "hash covers: the export gives no salt for them, or shows them upcast to a newer shape."
            )
        talk = self.talk
        out.append(
            "Table talk: "
            + (
                _links(
                    talk.checked,
                    talk.unchecked,
                    "private messages of a version-1 record that you may not "
                    "read, or whose salt the export does not give",
                )
                if talk.links
                else "no message."
            )
        )
        if talk.erased:
            out.append(
                f"  {talk.erased} message(s) show no words: their authors erased their accounts, "
                "which destroyed the keys of their sealed words; their links check all the same."
            )
        if talk.unconfirmed:
            out.append(
                f"  {talk.unconfirmed} private message(s) could not be checked against their "
                "hidden digest: the export gives no salt for them."
            )
        out.append(
            f"Fingerprint of the event log: {self.head} (event #{self.head_seq})."
            if self.head_seq
            else "Fingerprint of the event log: none (no event)."
        )
        if self.anchor_seq:
            out.append(
                f"The fingerprint {self.anchor} is that of event #{self.anchor_seq}: "
                "the event log holds it, unchanged up to that event."
            )
        out.append(
            f"Fingerprint of the table talk: {talk.head} (message #{talk.head_number})."
            if talk.head_number
            else "Fingerprint of the table talk: none (no message)."
        )
        return out


def _links(checked: int, unchecked: int, why: str) -> str:
    total = checked + unchecked
    if not unchecked:
        return f"all {total} links checked."
    return f"{checked} of {total} links checked; {unchecked} could not be: {why}."


def verify_export(export: dict[str, Any], *, head: str | None = None, talk: str | None = None) -> ExportCheck:
    """Check an export (the dict `games.store.exports.export_game` gives; see the module docstring).

    head: the hash (or its first MIN_HEAD_DIGITS or more hex digits) of an event the event log
    must hold (a fingerprint an email named); `anchor_seq` of the result says which.
    talk: the hash (the same forms) of a message the table talk must hold.
    Never raises for a bad record: each problem is a line of the result. Raises ValueError when
    `export` is not an export of this format at all, KeyError / TypeError when it lacks fields.
    """
    if not isinstance(export, dict) or export.get("format") != FORMAT:
        raise ValueError(f"not a game export of format {FORMAT}")
    game, events = export["game"], export["events"]
    check = ExportCheck(
        events=len(events),
        commands=len(export["commands"]),
        complete=bool(export.get("complete")) and game.get("seed") is not None,
        chain_version=game.get("chain_version", 1),
    )
    if check.chain_version not in CHAIN_VERSIONS:
        check.problems.append(
            f"chain version {check.chain_version!r} is unknown to this verifier (it reads {CHAIN_VERSIONS})"
        )
        return check
    seed: str | None = game.get("seed") if check.complete else None
    if seed is not None and hashlib.sha256(seed.encode("utf-8")).hexdigest() != game["seed_commitment"]:
        check.problems.append("the revealed seed does not match the commitment published at the start")
    proofs = export.get("proofs") or {}
    by_seq = {proof["seq"]: proof for proof in proofs.get("events", [])}
    _check_chain(game["seed_commitment"], events, by_seq, seed, export.get("viewer"), check)
    check.talk = check_export(
        export.get("press", []),
        proofs.get("press", []),
        proofs.get("press_hidden", []),
        seed_commitment=game["seed_commitment"],
        chain_version=check.chain_version,
        seed=seed,
    )
    check.problems += [f"table talk: {problem}" for problem in check.talk.problems]
    if head is not None:
        _check_head(head.strip().lower(), [entry["hash"] for entry in events[: check.head_seq]], check)
    if talk is not None:
        hashes = [entry["hash"] for entry in [*export.get("press", []), *proofs.get("press_hidden", [])]]
        _check_talk_anchor(talk.strip().lower(), hashes, check)
    if check.complete and not check.problems:
        assert seed is not None  # complete: the seed is revealed
        _replay(export, seed, check.problems)
    return check


def _is_hash(what: str, given: str, check: ExportCheck) -> bool:
    """Whether `given` (lower case) is a hash or its first MIN_HEAD_DIGITS or more hex digits;
    if not, a problem naming `what` ("head", "talk") is added to `check`."""
    if len(given) >= MIN_HEAD_DIGITS and all(c in "0123456789abcdef" for c in given):
        return True
    check.problems.append(f"{what}: {given!r} is not a hash (at least {MIN_HEAD_DIGITS} hex digits)")
    return False


def _check_head(head: str, hashes: list[str], check: ExportCheck) -> None:
    """A problem unless exactly one of the event log's `hashes` (those of events #1, #2, ... as
    far as the chain was read) is (or starts with) `head`; that event's seq in `check.anchor_seq`."""
    if not _is_hash("head", head, check):
        return
    check.anchor = head
    found = [seq for seq, h in enumerate(hashes, start=1) if isinstance(h, str) and h.startswith(head)]
    if not found:
        check.problems.append(
            f"head: no event of the event log has the fingerprint {head}: the log was cut short or "
            f"rewritten up to that event (or {head} was shown after this export was made)"
        )
    elif len(found) > 1:
        check.problems.append(f"head: {head} is the start of several events' hashes; give more digits")
    else:
        check.anchor_seq = found[0]


def _check_talk_anchor(anchor: str, hashes: list[str], check: ExportCheck) -> None:
    """A problem unless one of the table talk's message `hashes` is (or starts with) `anchor`."""
    if _is_hash("talk", anchor, check) and not any(
        isinstance(h, str) and h.startswith(anchor) for h in hashes
    ):
        check.problems.append(
            f"talk: no message of the table talk has the fingerprint {anchor}: the talk was changed "
            f"or cut short up to that message (or {anchor} was shown after this export was made)"
        )


def _check_chain(
    commitment: str,
    events: list[dict[str, Any]],
    proofs: dict[int, dict[str, Any]],
    seed: str | None,
    viewer: str | None,
    check: ExportCheck,
) -> None:
    prev_hash = commitment
    check.head = commitment
    for number, entry in enumerate(events, start=1):
        if entry["seq"] != number:
            check.problems.append(
                f"chain: expected event #{number}, found #{entry['seq']} (a gap or a duplicate)"
            )
            return
        if entry["prev_hash"] != prev_hash:
            check.problems.append(f"chain: event #{number} does not follow the hash of #{number - 1}")
        link = _link_v2 if check.chain_version >= 2 else _link_v1
        computed = link(entry, proofs.get(number, {}), seed, viewer, check)
        if computed is None:
            check.links_unchecked += 1
        else:
            check.links_checked += 1
            if computed != entry["hash"]:
                check.problems.append(f"chain: event #{number} ({entry['type']}) does not match its hash")
        prev_hash = entry["hash"]
        check.head, check.head_seq = prev_hash, number


def _link_v1(
    entry: dict[str, Any], proof: dict[str, Any], seed: str | None, viewer: str | None, check: ExportCheck
) -> str | None:
    """The hash of a version-1 entry from what it shows (and its proof's salt), or None when
    that cannot be computed."""
    if entry.get("redacted"):
        return None
    salt = ""
    if entry["visibility"] is not None:
        salt = (
            event_salt(seed, entry["seq"], entry["visibility"]) if seed is not None else proof.get("salt", "")
        )
        if not salt:
            return None
    return event_hash(
        entry["prev_hash"],
        seq=entry["seq"],
        type=entry["type"],
        version=entry["version"],
        payload=entry["payload"],
        visibility=entry["visibility"],
        salt=salt,
    )


def _link_v2(
    entry: dict[str, Any], proof: dict[str, Any], seed: str | None, viewer: str | None, check: ExportCheck
) -> str:
    """The hash of a version-2 entry from what it shows and its proof (always computable); what
    it shows of a private event is checked against its public part and, with the salt, its
    hidden digest."""
    number, digest = entry["seq"], proof.get("hidden_digest")
    fields = {"seq": number, "type": entry["type"], "version": proof.get("version", entry["version"])}
    if digest is None:
        if entry.get("redacted") or entry["visibility"] is not None:
            check.problems.append(
                f"chain: event #{number} ({entry['type']}) is private but carries no hidden digest"
            )
        return link_hash(entry["prev_hash"], public=entry["payload"], hidden_digest=None, **fields)
    public: Any = proof.get("public")  # any JSON: what the export says
    if entry.get("redacted") and fields["version"] != entry["version"]:
        check.unconfirmed += 1  # shown upcast to a newer shape: its public part was hashed as stored
    elif entry.get("redacted"):
        if not _shows_at_most_more(entry["payload"], public, seat=viewer is not None):
            check.problems.append(
                f"chain: event #{number} ({entry['type']}) does not match its hash: it shows "
                "what its public part does not"
            )
    else:
        _check_hidden_part(entry, proof, digest, seed, check)
    return link_hash(entry["prev_hash"], public=public, hidden_digest=digest, **fields)


def _check_hidden_part(
    entry: dict[str, Any], proof: dict[str, Any], digest: str, seed: str | None, check: ExportCheck
) -> None:
    """A private event shown whole: its public part must be what its payload gives, its payload
    and visibility what its hidden digest covers (when the salt is known)."""
    number, label = entry["seq"], f"chain: event #{entry['seq']} ({entry['type']})"
    visibility = entry["visibility"]
    try:
        expected = public_part(type=entry["type"], version=entry["version"], payload=entry["payload"])
    except (KeyError, TypeError, ValueError, AttributeError):
        expected = None
    if expected is None or canonical_json(expected) != canonical_json(proof.get("public")):
        check.problems.append(
            f"{label} does not match its hash: its public part is not what its payload gives"
        )
    salt = event_salt(seed, number, visibility or []) if seed is not None else proof.get("salt")
    if not salt:
        check.unconfirmed += 1
    elif visibility is None or hidden_digest(salt, payload=entry["payload"], visibility=visibility) != digest:
        check.problems.append(
            f"{label} does not match its hash: its payload is not what its hidden digest covers"
        )


def _shows_at_most_more(shown: object, public: object, *, seat: bool) -> bool:
    """Whether a redacted entry's `shown` payload is its hashed `public` part — or, to a seat,
    that part with a list where the public part gives only its count (its own hand in a
    described position)."""
    if seat and isinstance(shown, list) and isinstance(public, dict) and set(public) == {"count"}:
        return bool(len(shown) == public["count"])
    if isinstance(shown, dict) and isinstance(public, dict):
        return shown.keys() == public.keys() and all(
            _shows_at_most_more(shown[key], public[key], seat=seat) for key in public
        )
    if isinstance(shown, list) and isinstance(public, list):
        return len(shown) == len(public) and all(
            _shows_at_most_more(a, b, seat=seat) for a, b in zip(shown, public)
        )
    return type(shown) is type(public) and shown == public


def _stored(entry: dict[str, Any]) -> dict[str, Any]:
    stored: dict[str, Any] = normalise(
        rules.upcast({k: entry[k] for k in ("type", "version", "payload", "visibility")})
    )
    return stored


def _fresh(events: Iterable[rules.Event]) -> list[dict[str, Any]]:
    return [normalise(event.to_json()) for event in events]


def _compare(
    label: str, fresh: list[dict[str, Any]], stored: list[dict[str, Any]], problems: list[str]
) -> bool:
    if len(fresh) != len(stored):
        problems.append(f"{label}: the rules give {len(fresh)} events, the record holds {len(stored)}")
        return False
    for expected, entry in zip(fresh, stored):
        if expected != _stored(entry):
            problems.append(f"{label}: event #{entry['seq']} is not what the rules give")
            return False
    return True


def _replay(export: dict[str, Any], seed: str, problems: list[str]) -> None:
    game, events = export["game"], export["events"]
    colours = [seat["colour"] for seat in sorted(export["seats"], key=lambda s: s["position"])]
    setup = game["position"] if game["setup"] == "position" else game["setup"]
    try:
        setup_events = rules.start_game(
            colours, seed=seed, setup=setup, options=rules_options(game["options"]) or None
        )
    except rules.CommandError as error:
        problems.append(f"set-up: the rules refuse this game's configuration: {error}")
        return
    if not _compare("set-up", _fresh(setup_events), events[: len(setup_events)], problems):
        return
    state = rules.fold(setup_events)
    expected_first = len(setup_events) + 1
    previous = None
    for record in sorted(export["commands"], key=lambda c: c["first_seq"]):
        label = f"command #{record['first_seq']}-{record['last_seq']} ({record['seat']})"
        if record["first_seq"] != expected_first or record["last_seq"] > len(events):
            problems.append(f"{label}: the commands do not cover the events in order")
            return
        before = record["first_seq"] - 1
        try:
            if record["command"].get("type") == rules.TAKE_BACK:
                decided = _take_back_again(events, record, previous, seed)
            else:
                decided = rules.decide(
                    state, record["seat"], record["command"], rng=rules.rng_for(seed, before)
                )
        except rules.CommandError as error:
            problems.append(f"{label}: not legal at that point: {error}")
            return
        if not _compare(label, _fresh(decided), events[before : record["last_seq"]], problems):
            return
        rules.apply_events(state, events[before : record["last_seq"]])
        expected_first = record["last_seq"] + 1
        if record["command"].get("type") not in rules.NO_MOVE_COMMANDS:
            previous = record  # a policy is no move: a take-back passes over it
    if expected_first != len(events) + 1:
        problems.append(f"events #{expected_first}-#{len(events)} were recorded by no command")
        return
    if (state.winner or None) != (game.get("winner") or None):
        problems.append(
            f"the record names {game.get('winner')!r} as the winner, the rules elect {state.winner!r}"
        )


def _take_back_again(
    events: list[dict[str, Any]], record: dict[str, Any], previous: dict[str, Any] | None, seed: str
) -> list[rules.Event]:
    """The events of the take-back `record`, decided again (`rules.take_back_events`) against
    the move it took back (`previous`: the last command before it that is not a standing
    Triskel policy, `rules.NO_MOVE_COMMANDS`; None: none) and the fold of the events up to that
    command. Raises rules.CommandError when the rules refuse it (or there was no move to take
    back)."""
    if previous is None:
        raise rules.IllegalCommand("there was no move to take back")
    return rules.take_back_events(
        rules.fold(events[: previous["first_seq"] - 1]),
        record["seat"],
        previous["command"],
        mover=previous["seat"],
        first_seq=previous["first_seq"],
        last_seq=previous["last_seq"],
        seed_rng=rules.rng_for(seed, previous["first_seq"] - 1),
    )


def main(argv: list[str] | None = None) -> int:
    """The command line: `python -m games.verify EXPORT.json [--head HASH] [--talk HASH]` (see
    the module docstring); returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("export", help="the game's export (JSON), or - for standard input")
    parser.add_argument(
        "--head",
        metavar="HASH",
        default=None,
        help="the hash (or its first 12 or more hex digits) of an event the event log must hold: "
        "the fingerprint an email of the game names, or the game page shows",
    )
    parser.add_argument(
        "--talk",
        metavar="HASH",
        default=None,
        help="the hash (or its first 12 or more hex digits) of a message the table talk must "
        "hold: the fingerprint the email relaying that message names",
    )
    args = parser.parse_args(argv)
    try:
        if args.export == "-":
            export = json.load(sys.stdin)
        else:
            with open(args.export, encoding="utf-8") as handle:
                export = json.load(handle)
        check = verify_export(export, head=args.head, talk=args.talk)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        print(f"Cannot read {args.export} as a game export: {error}", file=sys.stderr)
        return EXIT_UNREADABLE
    print("\n".join(check.lines()))
    return check.exit_status


if __name__ == "__main__":
    sys.exit(main())
