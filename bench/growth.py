"""How cost grows with a game's length.

- latency of one command (`services.submit_command`, wall time, median of several) in games whose
  logs hold about 50, 500, 5,000 and 50,000 events, snapshots in place as the service writes them
  (every SNAPSHOT_EVERY events), against the latency at seq 50 in the same run: with snapshots it
  must stay flat;
- rebuilding a 50,000-event game's state from the database without snapshots (`store.load` before
  any snapshot exists) against a bare read of the same rows (one psycopg query) and JSON decode of
  their payload and visibility.

The long logs are made quickly and validly: the game is played in memory by `bench.players`'
endless bot through `rules.decide` with the game's own seed and `rules.rng_for`, exactly as the
service would decide it, then bulk-inserted with its commands, its hash chain (`store.chain_rows`)
and its snapshots. Such a game verifies (`verify_game`) like one played command by command.
"""

from __future__ import annotations

import json
import random
import time

from bench.clock import median
from bench.table import Row

SECTION = "growth"
LENGTHS = (50, 500, 5_000, 50_000)


def play_log(game, *, until: int, checkpoints: tuple) -> tuple[list, list, dict]:
    """Play `game` (its set-up stored) in memory past `until` events.

    Returns (commands, snapshots, marks): commands as (seat colour, command, events, seq before);
    snapshots as (seq, state JSON) where the service would have written them; marks maps each
    checkpoint to the first command boundary at or after it (a settled state awaiting decisions).
    """
    from django.conf import settings

    from bench.players import next_move
    from games import rules, store
    from games.record.hashchain import normalise

    state, seq = store.load(game)
    rng = random.Random(f"growth-{game.pk}")
    commands, snapshots, marks = [], [], {}
    last_snapshot = 0
    while state.seq < until:
        seat, command = next_move(state, rng)
        before = state.seq
        events = rules.decide(state, seat, command, rng=rules.rng_for(game.seed, before))
        for event in events:
            rules.evolve(state, rules.Event.from_json(normalise(event.to_json())))
        commands.append((seat, command, events, before))
        if state.seq - last_snapshot >= settings.SNAPSHOT_EVERY:
            snapshots.append((state.seq, normalise(state.to_json())))
            last_snapshot = state.seq
        for mark in checkpoints:
            if mark not in marks and state.seq >= mark:
                marks[mark] = state.seq
    return commands, snapshots, marks


def store_log(game, commands: list, *, upto: int) -> None:
    """Bulk-insert the commands (and their events) that end at or before seq `upto`."""
    from games import store
    from games.models import Command, Event, Game
    from games.record.hashchain import normalise

    game = Game.objects.get(pk=game.pk)
    seats = {s.colour: s for s in game.seats.all()}
    seq, prev_hash = store.head(game)
    batch = 2_000
    chosen = [c for c in commands if c[3] + len(c[2]) <= upto and c[3] >= seq]
    for start in range(0, len(chosen), batch):
        part = chosen[start : start + batch]
        records = Command.objects.bulk_create(
            [
                Command(
                    game=game,
                    seat=seats[seat],
                    body=normalise(command),
                    client_seq=before,
                    first_seq=before + 1,
                    last_seq=before + len(events),
                )
                for seat, command, events, before in part
            ]
        )
        rows = []
        for record, (_seat, _command, events, before) in zip(records, part):
            chained = store.chain_rows(game, events, after_seq=before, prev_hash=prev_hash, command=record)
            prev_hash = chained[-1].hash
            rows.extend(chained)
        Event.objects.bulk_create(rows, batch_size=5_000)


def store_snapshots(game, snapshots: list, *, upto: int) -> None:
    from games.models import Snapshot

    Snapshot.objects.bulk_create(
        [Snapshot(game=game, seq=seq, state=state) for seq, state in snapshots if seq <= upto]
    )


def command_latency(game, count: int) -> list[float]:
    """Seconds each of `count` commands took in `submit_command` (the choice is made untimed)."""
    from bench.players import next_move
    from games import store
    from games.services import submit_command

    seats = {s.colour: s for s in game.seats.all()}
    rng = random.Random(f"latency-{game.pk}-{store.head(game)[0]}")
    took = []
    for _ in range(count):
        state, seq = store.load(game)
        seat, command = next_move(state, rng)
        start = time.perf_counter()
        result = submit_command(game=game, seat=seats[seat], command=command, expected_seq=seq)
        took.append(time.perf_counter() - start)
        assert result.accepted, result.message
    return took


def bare_read(conninfo: str, game_id: int) -> int:
    """Read the game's event rows with one psycopg query and decode their JSON; rows read."""
    import psycopg

    with psycopg.connect(conninfo) as conn:
        rows = conn.execute(
            "SELECT seq, type, version, payload, visibility FROM games_event WHERE game_id = %s ORDER BY seq",
            (game_id,),
        ).fetchall()
    for _seq, _type, _version, payload, visibility in rows:
        json.loads(payload)
        if visibility is not None:
            json.loads(visibility)
    return len(rows)


def best_of(runs: int, work) -> float:
    """The fastest of `runs` timed calls of `work()`, in seconds (the least disturbed run)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def run(env, *, quick: bool) -> list[Row]:
    from bench.players import new_game
    from games import store

    samples = 8 if quick else 25
    games = {n: new_game(f"growth-{n}") for n in LENGTHS}
    longest = games[LENGTHS[-1]]
    commands, snapshots, marks = play_log(longest, until=LENGTHS[-1], checkpoints=LENGTHS)
    # Every game has the same seats and set-up but its own seed: replay the log for each seed.
    logs = {LENGTHS[-1]: (commands, snapshots)}
    for n in LENGTHS[:-1]:
        c, s, _ = play_log(games[n], until=n, checkpoints=(n,))
        logs[n] = (c, s)

    rows = []
    store_log(longest, commands, upto=10**9)
    events = store.head(longest)[0]
    # Alternated, fastest of each: a burst of load elsewhere on the machine hits both sides.
    rebuild = bare = float("inf")
    for _ in range(3):
        rebuild = min(rebuild, best_of(1, lambda: store.load(longest)))
        bare = min(bare, best_of(1, lambda: bare_read(env.conninfo, longest.pk)))
    rows.append(
        Row(
            SECTION,
            f"rebuild without snapshots (~{LENGTHS[-1]:,} events)",
            rebuild * 1000,
            "ms",
            "bare read + JSON decode",
            bare * 1000,
            goal=("<=", 1.5),
            note=f"{events:,} events; {events / rebuild:,.0f} vs {events / bare:,.0f} events/s",
        )
    )

    for n in LENGTHS[:-1]:
        store_log(games[n], logs[n][0], upto=10**9)
    for n in LENGTHS:
        store_snapshots(games[n], logs[n][1], upto=10**9)
    # Round-robin over the lengths, one command each in turn, so that load from elsewhere on a
    # shared machine falls on every length alike.
    took = {n: [] for n in LENGTHS}
    for _ in range(samples):
        for n in LENGTHS:
            took[n].extend(command_latency(games[n], 1))
    latency = {n: median(took[n]) for n in LENGTHS}
    for n in LENGTHS[1:]:
        seq = store.head(games[n])[0] - samples  # where the measured commands started (about)
        rows.append(
            Row(
                SECTION,
                f"one command at seq ~{n:,} (snapshots)",
                latency[n] * 1000,
                "ms",
                f"one command at seq ~{LENGTHS[0]}",
                latency[LENGTHS[0]] * 1000,
                goal=("<=", 1.5) if n == LENGTHS[-1] else None,
                note=f"median of {samples}, from seq {seq:,}",
            )
        )
    return rows
