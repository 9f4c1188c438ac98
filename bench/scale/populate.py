"""Populate the scale database: `python -m bench.scale.populate --first I --count N` creates N
4-player games of simulated players (emails `p<i>-<seat>@scale.test`), each waiting on its first
decision, or `--finished K` plays K games of bots that play to win to their end and prints the
database bytes they added. Runs with the service's settings from the environment (the scale
database; no REDIS_URL, so tasks run in this process and the emails go to memory)."""

from __future__ import annotations

import argparse
import json
import os
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "inis_pbem.settings")


def player_email(game_index: int, seat: int) -> str:
    """The address of the simulated player of seat `seat` (0..3) in the `game_index`-th game."""
    return f"p{game_index}-{seat}@scale.test"


def create_games(first: int, count: int) -> float:
    """Create `count` games numbered from `first`; returns the CPU seconds a game took."""
    from django.db import connection

    from games.services import SeatSpec, create_game

    # Filling the bench's own database: a commit need not wait for the disk (the service's
    # commits do; this is set on this connection only).
    with connection.cursor() as cursor:
        cursor.execute("SET synchronous_commit TO off")
    started = time.process_time()
    for index in range(first, first + count):
        create_game(seats=[SeatSpec(email=player_email(index, k)) for k in range(4)], seed=f"scale-{index}")
    return (time.process_time() - started) / max(count, 1)


def database_bytes() -> int:
    """pg_database_size of the current database, after a checkpoint of the statistics."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_database_size(current_database())")
        return int(cursor.fetchone()[0])


def table_bytes() -> dict[str, int]:
    """Bytes of each table of the service (heap, indexes and TOAST), by table name."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, pg_total_relation_size(c.oid) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' AND c.relkind = 'r'"
        )
        return {name: int(size) for name, size in cursor.fetchall()}


def finish_games(count: int, level: str) -> dict:
    """Play `count` 4-player games of bots of `level` to their end (in this process) and return
    {"games", "events", "bytes_by_table"}: what the finished games added to each table."""
    from games.models import Event
    from games.services import SeatSpec, create_game

    before, events_before = table_bytes(), Event.objects.count()
    for index in range(count):
        create_game(
            seats=[SeatSpec(is_bot=True, bot_level=level) for _ in range(4)], seed=f"finished-{index}"
        )
    after = table_bytes()
    return {
        "games": count,
        "events": Event.objects.count() - events_before,
        "bytes_by_table": {t: after[t] - before.get(t, 0) for t in after if after[t] != before.get(t, 0)},
    }


def seat_links(path: str) -> int:
    """Write the seat link of every player seat, as [{"game", "link"}] (paths, no host), to
    `path`; the number of links."""
    from urllib.parse import urlparse

    from games.models import Seat
    from players.seat_links import seat_link_url

    links = [
        {
            "game": seat.game_id,
            "link": urlparse(
                seat_link_url(game_id=seat.game_id, seat_id=seat.pk, seat_secret=seat.token)
            ).path,
        }
        for seat in Seat.objects.filter(is_bot=False).only("id", "game_id", "token").iterator()
    ]
    with open(path, "w") as out:
        json.dump(links, out)
    return len(links)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, default=0)
    parser.add_argument("--finished", type=int, default=0)
    parser.add_argument("--level", default="easy")
    parser.add_argument("--links", help="write every player seat's link to this JSON file")
    args = parser.parse_args()
    import django

    django.setup()
    out = {}
    if args.count:
        out["cpu_seconds_a_game"] = create_games(args.first, args.count)
    if args.finished:
        out["finished"] = finish_games(args.finished, args.level)
    if args.links:
        out["links"] = seat_links(args.links)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
