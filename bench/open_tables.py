"""Community: the open tables page (`/tables/`, docs/open-tables.md) with 1,000 tables looking
for players, against a minimal Django view, in the same run.

    .venv/bin/python -m bench.open_tables [--quick]      (alone: prepares the bench database first)

The tables are opened through `lobby.services.proposal_create` (each appends to the gathering's
log) by 50 hosts, in every speed, language and player count, then folded into the read model
(`community.projections.feed`, as the relay does after each commit). The page is requested by a
visitor through Django's test client and the whole middleware stack, unfiltered (the 200 tables
that waited longest, `community.open_tables.open_tables`) and filtered by language, interleaved
with the minimal view. Figures are milliseconds per request (median and 95th percentile). The
page is kept a minute per version of the list (`community.list_cache`), so a reader after the
first is served it again; the "rendered afresh" rows measure the page with the speed layers off,
each request rendering the list, as the first reader after a change does.
"""

from __future__ import annotations

import sys

TABLES = 1_000
HOSTS = 50


def open_tables(count: int) -> None:
    """`count` open tables by HOSTS hosts, across speeds, languages and player counts, folded."""
    from community import projections
    from games.record.options import DEADLINE_PRESETS
    from lobby import services
    from players.accounts import user_for_email

    hosts = [user_for_email(f"host{n}@bench.example") for n in range(HOSTS)]
    speeds = list(DEADLINE_PRESETS)
    for n in range(count):
        services.proposal_create(
            host=hosts[n % HOSTS],
            places=[services.PlaceSpec(is_open=True)] * (1 + n % 3),
            host_plays=True,
            setup="random",
            deadlines=dict(DEADLINE_PRESETS[speeds[n % len(speeds)]]),
            reaction_mode="holders",
            listed=True,
            language=("en", "fr")[n % 2],
        )
    projections.feed()


def measure(*, quick: bool = False) -> dict:
    """{"page": [ms...], "filtered": [ms...], "minimal": [ms...], "tables": n}."""
    from bench import web_page
    from community.models import OpenTable

    open_tables(TABLES)
    urls = {
        "page": "/tables/",
        "filtered": "/tables/?language=fr&players=3",
        "minimal": "/bench/minimal/",
    }
    rounds = 25 if quick else 100
    samples = web_page.interleaved(urls, rounds=rounds)
    # The same page with the speed layers off: each request renders the list afresh (what the
    # first reader after a change pays), against the minimal view of that same run.
    afresh = web_page.interleaved(
        {"page": urls["page"], "minimal": urls["minimal"]}, rounds=rounds, SPEED_LAYERS=False
    )
    return {
        **samples,
        "afresh": afresh["page"],
        "minimal_afresh": afresh["minimal"],
        "tables": OpenTable.objects.count(),
    }


def run(*, quick: bool = False) -> list:
    """The community rows (bench.table.Row): the open tables page's median and p95 against the
    minimal view's; the p95 carries the goal (within 10x)."""
    from bench.clock import median, percentile
    from bench.table import Row

    s = measure(quick=quick)
    note = f"{s['tables']} open tables, a visitor; {len(s['page'])} requests each; persistent DB connection"
    rows = []
    for name, label, minimal in (
        ("page", "open tables page", "minimal"),
        ("filtered", "open tables page, filtered", "minimal"),
        ("afresh", "open tables page, rendered afresh (speed layers off)", "minimal_afresh"),
    ):
        for stat, fn in (("median", median), ("p95", lambda xs: percentile(xs, 95))):
            rows.append(
                Row(
                    "community",
                    f"{label}, {stat}",
                    fn(s[name]),
                    "ms",
                    baseline_name=f"minimal view {stat}",
                    baseline=fn(s[minimal]),
                    goal=("<=", 10.0) if (name, stat) == ("page", "p95") else None,
                    note=note,
                )
            )
    return rows


def main(argv: list[str]) -> int:
    from bench import environment
    from bench.table import markdown

    environment.prepare()
    print(markdown(run(quick="--quick" in argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
