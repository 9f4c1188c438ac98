"""Replay by move: the history and the island at an earlier point step by command (one
player's decision and what followed from it), with each event on demand."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from games import rules, store
from games.models import Command
from games.services import SeatSpec, create_game, submit_command

pytestmark = pytest.mark.django_db


def plain(fragment: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment))).strip()


@pytest.fixture
def game(clash_position):
    """Green plays Migration from the Valley (3 clans to the Cove, starting a clash), then the
    next player asked answers: two commands after the set-up."""
    game = create_game(
        seats=[SeatSpec(email="g@example.org"), SeatSpec(email="b@example.org")],
        seed="replay",
        setup=clash_position,
        play_bots=False,
    )
    _state, seq = store.load(game)
    migration = {"type": "play", "card": "act_migration", "from": "valley", "moves": {"cove": 3}}
    assert submit_command(
        game=game, seat=game.seats.get(colour="green"), command=migration, expected_seq=seq
    ).accepted
    state, seq = store.load(game)
    colour = rules.pending(state)[0].seat
    answer = rules.legal_commands(state, colour)[0]
    assert submit_command(
        game=game, seat=game.seats.get(colour=colour), command=answer, expected_seq=seq
    ).accepted
    return game


def moves_of(body: str) -> list[dict]:
    found = []
    for m in re.finditer(
        r'<li class="move" data-first-seq="(\d+)" data-last-seq="(\d+)">(.*?)</li>\s*(?=<li class="move"|</ol>\s*$|\Z)',
        body,
        re.S,
    ):
        found.append({"first": int(m.group(1)), "last": int(m.group(2)), "html": m.group(3)})
    return found


def test_the_history_lists_one_item_per_move_with_its_events_on_demand(client, game):
    commands = list(Command.objects.filter(game=game).order_by("first_seq"))
    body = client.get(reverse("games:history", args=[game.pk])).content.decode()
    spans = [
        (int(a), int(b))
        for a, b in re.findall(r'<li class="move" data-first-seq="(\d+)" data-last-seq="(\d+)"', body)
    ]
    # The set-up (before any command), then one item per command, spanning its events.
    assert spans[0][0] == 1 and spans[0][1] == commands[0].first_seq - 1
    assert spans[1:] == [(c.first_seq, c.last_seq) for c in commands]
    migration = body[body.index(f'data-first-seq="{commands[0].first_seq}"') :]
    migration = migration[: migration.index('<li class="move"', 10)]
    headline = plain(re.search(r'<span class="headline">(.*?)</span>', migration, re.S).group(1))
    assert headline.startswith("Green played Migration")
    # Each event of the move, with its own link (no hash: the fingerprint is once, at the top),
    # inside a <details> (shown on demand).
    details = migration[migration.index("<details>") : migration.index("</details>")]
    assert "events</summary>" in details
    for seq in range(commands[0].first_seq, commands[0].last_seq + 1):
        assert game.events.get(seq=seq).hash not in details
    assert "waits for possible Triskel reactions" in plain(details)
    assert f'data-seq="{commands[0].first_seq}"' in details and "2 events</summary>" in details
    # Every event instead, as before.
    flat = client.get(reverse("games:history", args=[game.pk]) + "?by=event").content.decode()
    assert '<li class="move"' not in flat and "Show the history move by move" in flat


def test_the_island_steps_from_move_to_move(client, game):
    commands = list(Command.objects.filter(game=game).order_by("first_seq"))
    set_up_end = commands[0].first_seq - 1
    at = client.get(reverse("games:island_at", args=[game.pk, commands[0].last_seq])).content.decode()
    previous = re.search(r'href="[^"]*/at/(\d+)/[^"]*" data-step="previous-move">Previous move<', at)
    following = re.search(r'href="[^"]*/at/(\d+)/[^"]*" data-step="next-move">Next move<', at)
    assert previous and int(previous.group(1)) == set_up_end
    assert following and int(following.group(1)) == commands[1].last_seq
    # From the middle of the set-up, the next move ends with the set-up; at the start there is
    # no previous move.
    start = client.get(reverse("games:island_at", args=[game.pk, 0])).content.decode()
    assert "Previous move" not in start
    assert re.search(rf'/at/{set_up_end}/[^"]*" data-step="next-move"', start)
    last = client.get(reverse("games:island_at", args=[game.pk, commands[-1].last_seq])).content.decode()
    assert "Next move" not in last and "Previous event" in last and "Next event" not in last


def test_a_step_by_move_shows_the_move_a_player_made(client, game):
    """The island after green's Migration: the page tells the move (green played Migration from
    the Valley), not only the command's last event, an engine step."""
    migration = Command.objects.filter(game=game).order_by("first_seq").first()
    body = client.get(reverse("games:island_at", args=[game.pk, migration.last_seq])).content.decode()
    move = plain(body[body.index('id="move"') : body.index("</section>", body.index('id="move"'))])
    assert "Migration" in move and "Cove" in move
    assert "Step advanced" not in move
    # Green, stepping through its own game, reads its move told to it.
    client.force_login(game.seats.get(colour="green").user)
    body = client.get(reverse("games:island_at", args=[game.pk, migration.last_seq])).content.decode()
    move = plain(body[body.index('id="move"') : body.index("</section>", body.index('id="move"'))])
    assert "You played Migration" in move and "Green played" not in move


def test_the_history_gives_the_fingerprint_once_at_the_top(client, game):
    """No 64-hex hash on every row: the game's fingerprint (the last event's hash) once."""
    body = client.get(reverse("games:history", args=[game.pk])).content.decode()
    head = store.head(game)[1]
    assert len(re.findall(r"\b[0-9a-f]{64}\b", body.replace(game.seed_commitment, ""))) == 0
    assert f'id="head-hash">{head[:16]}<' in body
    assert body.index('id="head-hash"') < body.index('id="events"')


def test_the_island_in_the_middle_of_a_move_keeps_the_clash_outline(client, game):
    """Between two events of one move (the rules half-way through a step), a clash already
    started is still on the island: its outline and the clash panel, as after the move."""
    last = store.head(game)[0]
    middles = [
        seq
        for seq in range(1, last + 1)
        if not store.is_settled(game, seq) and rules.current_clash(store.load(game, until=seq)[0])
    ]
    assert middles, "no event in the middle of a move during the clash"
    for seq in middles:
        body = client.get(reverse("games:island_at", args=[game.pk, seq])).content.decode()
        assert 'class="clash"' in body, seq
        assert "Clash in the Cove" in plain(body), seq


def test_the_event_by_event_history_keeps_its_view_from_page_to_page(client, game, monkeypatch):
    """Reading every event, a click on another page number shows that page event by event too."""
    monkeypatch.setattr("web.pages.HISTORY_PAGE_SIZE", 10)
    flat = client.get(reverse("games:history", args=[game.pk]) + "?by=event").content.decode()
    pager = flat[flat.index('<p class="pager">') :]
    pager = pager[: pager.index("</p>")]
    numbered = re.findall(r'<a href="\?page=(\d+)([^"]*)">\d+</a>', pager)
    assert numbered, pager
    assert all("by=event" in rest for _page, rest in numbered)
    other = client.get(reverse("games:history", args=[game.pk]) + f"?page={numbered[0][0]}&by=event")
    assert '<li class="move"' not in other.content.decode()


def test_the_table_log_names_who_acted_the_host_or_the_site_once(client, game):
    """The host gives green more time; then blue's player erases their account and the site gives
    the seat to the bot. The history labels each act by who did it ("host", "site"), and the
    island at that point tells each once, not "Host: The host gave…" nor the site's act as the
    host's."""
    from games.play import table

    table.deadline_extend(game=game, colour="green", hours=12)
    table.seat_left(seat=game.seats.get(colour="blue"))
    body = client.get(reverse("games:history", args=[game.pk])).content.decode()
    acts = [
        (label, plain(text))
        for label, text in re.findall(
            r'<li class="table-event" data-table-seq="\d+"><span class="seq">([^<]*)</span><span>(.*?)</span></li>',
            body,
            re.S,
        )
    ]
    assert [label for label, _text in acts] == ["host", "site"]
    assert acts[0][1].startswith("The host gave green 12 more hours")
    assert acts[1][1].startswith("The player of blue left the site")
    _state, seq = store.load(game)
    island = plain(client.get(reverse("games:island_at", args=[game.pk, seq])).content.decode())
    assert "The host gave green 12 more hours" in island and "The player of blue left the site" in island
    assert "Host:" not in island


def test_a_history_page_ends_on_a_whole_move_and_keeps_its_moves_as_the_game_goes_on(
    make_game, play, monkeypatch
):
    """Paged by move, no move is cut across two pages (its header shown twice), and a link to
    page N keeps showing the same moves while the game goes on."""
    from web import pages

    monkeypatch.setattr("web.pages.HISTORY_PAGE_SIZE", 10)
    game = make_game(seed="paged-by-move")
    play(game, 30)

    def spans_by_page() -> list[list[tuple[int, int]]]:
        """Per page, the spans of its moves; each page's events are those of its moves, in order."""
        count = pages.history_page(game=game, seat=None, page=None, steps=True).pages
        found = []
        for n in range(1, count + 1):
            moves = pages.history_page(game=game, seat=None, page=n, steps=True).moves
            spans = [(m.first_seq, m.last_seq) for m in moves]
            events = [line.seq for m in moves for line in m.lines if line.kind == "event"]
            assert events == list(range(spans[0][0], spans[-1][1] + 1)), f"page {n}: not whole moves"
            found.append(spans)
        return found

    before = spans_by_page()
    assert len(before) > 3
    every = [span for page in before for span in page]
    assert len(every) == len(set(every)), "a move on two pages"
    commands = set(Command.objects.filter(game=game).values_list("first_seq", "last_seq"))
    assert commands <= set(every)

    play(game, 10)
    after = spans_by_page()
    assert after[: len(before) - 1] == before[:-1]


@pytest.mark.parametrize(
    ("language", "middle", "step"),
    [
        (
            "en",
            "This event is in the middle of a move: nobody had a decision to make here.",
            "is a step the rules take on their own: nobody decided anything there.",
        ),
        (
            "fr",
            "Cet événement est au milieu d'un coup : personne n'avait de décision à prendre ici.",
            "est une étape que les règles font d'elles-mêmes : personne n'y a rien décidé.",
        ),
    ],
)
def test_the_island_between_events_of_a_move_says_so_in_words(client, game, language, middle, step):
    """A spectator stepping event by event lands in the middle of a move, or on a step the rules
    took alone: the page says so in the players' words, not the engine's ("one command's events",
    "the engine's own steps"; in French "d'un même ordre", "du moteur")."""
    from games.models import Event
    from games.story.event_text import is_bookkeeping

    last = store.head(game)[0]
    middle_seqs = [seq for seq in range(1, last + 1) if not store.is_settled(game, seq)]
    step_seqs = [
        e.seq for e in Event.objects.filter(game=game).order_by("seq") if is_bookkeeping(e.type, e.payload)
    ]
    assert middle_seqs and step_seqs
    pages = {
        seq: plain(
            client.get(
                reverse("games:island_at", args=[game.pk, seq]), HTTP_ACCEPT_LANGUAGE=language
            ).content.decode()
        )
        for seq in sorted(set(middle_seqs + step_seqs))
    }
    assert all(middle in pages[seq] for seq in middle_seqs)
    # A step alone in its move is that move's line; the hint is for a step after a player's move.
    assert any(step in pages[seq] for seq in step_seqs)
    for seq, page in pages.items():
        for jargon in ("command", "engine", "moteur", "même ordre"):
            assert jargon not in page, (seq, jargon)


def test_a_seat_left_reads_in_french_with_the_colour_as_a_word(client, game):
    """In French the player who left is "le joueur bleu" (as "le joueur orange", never "le
    joueur de orange")."""
    from games.play import table

    table.seat_left(seat=game.seats.get(colour="blue"))
    body = client.get(reverse("games:history", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Le joueur bleu a quitté le site : le bot joue cette place désormais." in plain(body)
    assert "joueur de " not in plain(body)
