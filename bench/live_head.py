"""Live pages: what one poll of a page's head costs (web/live.py), against a minimal Django view
and against the game page itself, all in the same run (called by `python -m bench` as the live
section).

    .venv/bin/python -m bench.live_head [--quick]      (alone: prepares the bench database first)

A 4-player game is played to about 2,000 events (500 with --quick), as in bench/web_page.py.
Every request goes through Django's test client and the whole middleware stack, as the
signed-in player of a seat with a decision pending (so "your_turn" is looked up): the game
page's head `/games/<id>/head.json` as the page's script asks it (with the page's token naming
its viewer, web.head_viewer) and without it (read through the session: a page's first head,
then one every HEAD_VIEWER_SECONDS), "My games"' head `/live/home.json` (with the token), the game page (what a
reload would cost instead), and the minimal view, interleaved so that load from elsewhere falls on
all of them. Each head counts its poll in the cache as in production (the per-client rate limit,
web.live.polls_limited); the limit itself is lifted here, or the bench's own polls, far faster
than a page's, would be refused. Figures are milliseconds per request (median and 95th percentile); every open page
costs one head request per poll (every 4 seconds in view, 12 hidden), and one page fetch per
change.
"""

from __future__ import annotations

import sys

EVENTS = 2_000
QUICK_EVENTS = 500


def measure(*, quick: bool = False) -> dict:
    """{"head": [ms...], "home": [ms...], "game": [ms...], "minimal": [ms...], "events": n}."""
    from bench import web_page
    from games import store
    from web import head_viewer

    game, seat = web_page.build_game(events=QUICK_EVENTS if quick else EVENTS, seed="bench-live")
    head = f"/games/{game.pk}/head.json"
    urls = {
        "head": head,
        "head_session": head,
        "home": "/live/home.json",
        "game": f"/games/{game.pk}/",
        "minimal": "/bench/minimal/",
    }
    # The game page's script names its viewer with the page's token (web.head_viewer); without
    # it (the page's first head, then one every HEAD_VIEWER_SECONDS) the head reads the session.
    token = {head_viewer.HEADER: head_viewer.issue(seat.user_id)}
    samples = web_page.interleaved(
        urls,
        rounds=40 if quick else 200,
        user=seat.user,
        headers={"head": token, "home": token},
        HEAD_POLLS_PER_CLIENT_PER_MINUTE=10**9,
    )
    return {**samples, "events": store.head(game)[0]}


def run(*, quick: bool = False) -> list:
    """The live section's rows (bench.table.Row): each head's median and p95 against the minimal
    view's, and the game head's p95 against the game page's (what a reload would cost)."""
    from bench.clock import median, percentile
    from bench.table import Row

    s = measure(quick=quick)
    p95 = lambda xs: percentile(xs, 95)  # noqa: E731
    note = (
        f"4 players, {s['events']} events, signed-in seat with a decision; {len(s['head'])} requests "
        "each; persistent DB connection"
    )
    rows = []
    for name, label in (("head", "game page head (one poll)"), ("home", "My games head (one poll)")):
        for stat, fn in (("median", median), ("p95", p95)):
            rows.append(
                Row(
                    "live",
                    f"{label}, {stat}",
                    fn(s[name]),
                    "ms",
                    baseline_name=f"minimal view {stat}",
                    baseline=fn(s["minimal"]),
                    note=note,
                )
            )
    against = (
        (
            "game page head (one poll), median, against the same head reading the session",
            median(s["head"]),
            "the head without the page's token (its first, then one every HEAD_VIEWER_SECONDS)",
            median(s["head_session"]),
            note + "; the page's token (web.head_viewer) spares the session and the user",
        ),
        (
            "game page head (one poll), p95, against a reload",
            p95(s["head"]),
            "game page p95",
            p95(s["game"]),
            note,
        ),
    )
    for figure, value, baseline_name, baseline, said in against:
        rows.append(
            Row("live", figure, value, "ms", baseline_name=baseline_name, baseline=baseline, note=said)
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
