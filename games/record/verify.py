"""Check a game from its public export, with no database: `python -m games.verify export.json`.

Anyone holding a game's export (`manage.py export_game`, or "Download the record" on the game's
page) can check it with this module, which needs only Python, `games.rules` and the two small
pure modules the record is defined by (`games.record.hashchain`, `games.record.options`) — no Django, no
server. For a finished game (the export is `complete`: the seed is revealed and nothing is
redacted) it re-derives:

1. the seed commitment: sha256(seed) equals the commitment published when the game was created;
2. the hash chain: each event's hash from its content (private events with their salt, derived
   from the seed) and each `prev_hash` from the previous hash, the first from the commitment;
3. the set-up: `rules.start_game` with the seats, seed, set-up and rules options gives exactly
   the events before the first command (so every shuffle follows from the seed);
4. every command: decided again by `rules.decide` against the fold of the events before it with
   `rules.rng_for(seed, seq)`, it gives exactly its recorded events;
5. the end: the winner the export names is the one the rules elect.

For a game still in progress (the seed is secret) only what is public is checked: the chain's
links and the hashes of public events. Exit status: 0 when every check passed, 1 otherwise, 2
when the file cannot be read. What the checks cannot see: a log cut short before the export was
made; compare the last hash with one you kept (every email names it) for that.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import dataclass, field

from games import rules
from games.record.hashchain import event_hash, event_salt, normalise
from games.record.options import rules_options

FORMAT = "inis-pbem-export/1"


@dataclass
class ExportCheck:
    """The outcome: what was checked (counts of events and commands) and one line per problem."""

    events: int = 0
    commands: int = 0
    complete: bool = False
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        scope = ("the whole record (seed, chain, set-up, every command, the winner)" if self.complete
                 else "the public part only (the game is not over: its seed is still secret)")
        verdict = "OK" if self.ok else f"FAILED ({len(self.problems)} problem(s))"
        return ([f"{verdict}: {self.events} events and {self.commands} commands; checked {scope}."]
                + [f"  - {problem}" for problem in self.problems])


def verify_export(export: dict) -> ExportCheck:
    """Check an export (the dict `games.store.exports.export_game` gives; see the module docstring).

    Never raises for a bad record: each problem is a line of the result. Raises ValueError when
    `export` is not an export of this format at all.
    """
    if not isinstance(export, dict) or export.get("format") != FORMAT:
        raise ValueError(f"not a game export of format {FORMAT}")
    game, events = export["game"], export["events"]
    check = ExportCheck(events=len(events), commands=len(export["commands"]),
                        complete=bool(export.get("complete")) and game.get("seed") is not None)
    seed = game.get("seed") if check.complete else None
    if seed is not None and hashlib.sha256(seed.encode("utf-8")).hexdigest() != game["seed_commitment"]:
        check.problems.append("the revealed seed does not match the commitment published at the start")
    _check_chain(game["seed_commitment"], events, seed, check.problems)
    if check.complete and not check.problems:
        _replay(export, seed, check.problems)
    return check


def _check_chain(commitment: str, events: list[dict], seed: str | None, problems: list[str]) -> None:
    prev_hash = commitment
    for number, entry in enumerate(events, start=1):
        if entry["seq"] != number:
            problems.append(f"chain: expected event #{number}, found #{entry['seq']} (a gap or a duplicate)")
            return
        if entry["prev_hash"] != prev_hash:
            problems.append(f"chain: event #{number} does not follow the hash of #{number - 1}")
        private = entry["visibility"] is not None
        if not entry.get("redacted") and (seed is not None or not private):
            salt = event_salt(seed, number, entry["visibility"]) if private else ""
            computed = event_hash(prev_hash, seq=number, type=entry["type"], version=entry["version"],
                                  payload=entry["payload"], visibility=entry["visibility"], salt=salt)
            if computed != entry["hash"]:
                problems.append(f"chain: event #{number} ({entry['type']}) does not match its hash")
        prev_hash = entry["hash"]


def _stored(entry: dict) -> dict:
    return normalise(rules.upcast({k: entry[k] for k in ("type", "version", "payload", "visibility")}))


def _fresh(events) -> list[dict]:
    return [normalise(event.to_json()) for event in events]


def _compare(label: str, fresh: list[dict], stored: list[dict], problems: list[str]) -> bool:
    if len(fresh) != len(stored):
        problems.append(f"{label}: the rules give {len(fresh)} events, the record holds {len(stored)}")
        return False
    for expected, entry in zip(fresh, stored):
        if expected != _stored(entry):
            problems.append(f"{label}: event #{entry['seq']} is not what the rules give")
            return False
    return True


def _replay(export: dict, seed: str, problems: list[str]) -> None:
    game, events = export["game"], export["events"]
    colours = [seat["colour"] for seat in sorted(export["seats"], key=lambda s: s["position"])]
    setup = game["position"] if game["setup"] == "position" else game["setup"]
    try:
        setup_events = rules.start_game(colours, seed=seed, setup=setup,
                                        options=rules_options(game["options"]) or None)
    except rules.CommandError as error:
        problems.append(f"set-up: the rules refuse this game's configuration: {error}")
        return
    if not _compare("set-up", _fresh(setup_events), events[:len(setup_events)], problems):
        return
    state = rules.fold(setup_events)
    expected_first = len(setup_events) + 1
    for record in sorted(export["commands"], key=lambda c: c["first_seq"]):
        label = f"command #{record['first_seq']}-{record['last_seq']} ({record['seat']})"
        if record["first_seq"] != expected_first or record["last_seq"] > len(events):
            problems.append(f"{label}: the commands do not cover the events in order")
            return
        before = record["first_seq"] - 1
        try:
            decided = rules.decide(state, record["seat"], record["command"], rng=rules.rng_for(seed, before))
        except rules.CommandError as error:
            problems.append(f"{label}: not legal at that point: {error}")
            return
        if not _compare(label, _fresh(decided), events[before:record["last_seq"]], problems):
            return
        rules.apply_events(state, events[before:record["last_seq"]])
        expected_first = record["last_seq"] + 1
    if expected_first != len(events) + 1:
        problems.append(f"events #{expected_first}-#{len(events)} were recorded by no command")
        return
    if (state.winner or None) != (game.get("winner") or None):
        problems.append(f"the record names {game.get('winner')!r} as the winner, the rules elect {state.winner!r}")


def main(argv=None) -> int:
    """The command line: `python -m games.verify EXPORT.json` (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("export", help="the game's export (JSON), or - for standard input")
    args = parser.parse_args(argv)
    try:
        if args.export == "-":
            export = json.load(sys.stdin)
        else:
            with open(args.export, encoding="utf-8") as handle:
                export = json.load(handle)
        check = verify_export(export)
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"Cannot read {args.export} as a game export: {error}", file=sys.stderr)
        return 2
    print("\n".join(check.lines()))
    return 0 if check.ok else 1


if __name__ == "__main__":
    sys.exit(main())
