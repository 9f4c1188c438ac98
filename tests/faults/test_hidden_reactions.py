"""Who a Triskel window asked is hidden information (reaction mode "holders", docs/rulings.md).

A window asks only the players holding a card that can answer. The property: two games that
differ only in which player holds the answering card (so in who is asked) look the same to every
other player and to a spectator, in every channel — view, board, export, pages, history, emails
and the text of refused commands — while the window waits and after it closes. Only the asked
seat's own prompt differs.

Geis: "Triskel, when an opponent plays an Action card (after they have fully declared it)":
green plays New Clans and one of its opponents holds Geis.
"""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from games import rules, store
from games.services import SeatSpec, create_game, submit_command
from games.store.exports import export_game
from tests.faults.test_hidden_information import _texts_for
from tests.geis_window import FILLERS, OPPONENTS, game_at_geis_position, geis_position, play_new_clans

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _normalised(text: str, game) -> str:
    """`text` without what differs between any two games: ids (a push's tag "inis-12-green"
    included), tokens, hashes, times."""
    pk = str(game.pk)
    text = re.sub(
        rf"(/games/|[Gg]ame |game-|data-game=\"|Inis |inis-|\"id\": |\"game\": |game=){pk}\b", r"\1N", text
    )
    text = re.sub(r"\b(green|blue|orange|white)\.[0-9a-f]{8}@example\.org", r"\1@example.org", text)
    text = re.sub(r'data-live-version="[^"]*"', 'data-live-version="V"', text)  # the live pages' poll version
    text = re.sub(r"\d{4}-\d{2}-\d{2}[T ][\d:.]+(?:[+-]\d{2}:?\d{2}|Z)?", "TIME", text)
    text = re.sub(r"\b\d{1,2}:\d{2}\b", "TIME", text)
    text = re.sub(r"[A-Za-z0-9_\-:.=+/]{24,}", "TOKEN", text)
    return re.sub(r"\b[0-9a-f]{8,}\b", "HEX", text)


# Commands a curious player might send while the window waits (the shared helper also tries
# another seat's legal commands, which differ here by construction).
PROBES = (
    {"type": "decline"},
    {"type": "react", "card": "act_geis"},
    {"type": "pass"},
    {"type": "play", "card": "act_new_clans", "territories": ["moor"]},
)


def _seen_by(game, colour, state) -> dict[str, str]:
    seat = game.seats.get(colour=colour) if colour else None
    texts = _texts_for(game, seat, state)
    if seat is not None:
        client = Client()
        client.force_login(seat.user)
        texts["my games"] = client.get(reverse("lobby:home")).content.decode()
        texts["errors"] = "\n".join(
            submit_command(game=game, seat=seat, command=probe, expected_seq=state.seq).message
            for probe in PROBES
        )
    return {channel: _normalised(text, game) for channel, text in texts.items()}


# Each example is two games and every page of three viewers, twice: a few examples, no shrinking
# (a failure already names the channel and the seats).
@settings(
    max_examples=4,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(asked=st.permutations(OPPONENTS), fillers=st.permutations(FILLERS))
def test_no_channel_shows_who_a_triskel_window_asked(asked, fillers):
    first, second, onlooker = asked
    games = []
    for holder in (first, second):
        # New players for each game (hypothesis keeps the database between examples).
        game = game_at_geis_position(
            holder,
            seed="hidden-reactions",
            email=f"{{colour}}.{uuid.uuid4().hex[:8]}@example.org",
            fillers=fillers,
        )
        play_new_clans(game)
        games.append((game, holder))
    (game_a, holder_a), (game_b, holder_b) = games
    state_a, _ = store.load(game_a)
    state_b, _ = store.load(game_b)
    assert [d.seat for d in rules.pending(state_a)] == [holder_a]
    assert [d.seat for d in rules.pending(state_b)] == [holder_b]
    for viewer in ("green", onlooker, None):
        seen_a, seen_b = _seen_by(game_a, viewer, state_a), _seen_by(game_b, viewer, state_b)
        for channel in seen_a:
            assert seen_a[channel] == seen_b[channel], (
                f"{viewer or 'a spectator'}'s {channel} tells whether {holder_a} or {holder_b} was asked"
            )

    # Each asked seat declines; the window closes and green's New Clans resolves. What follows
    # depends on the hands (whose turn may be forced), so the logs are compared up to the close.
    for game, holder in games:
        state, seq = store.load(game)
        result = submit_command(
            game=game, seat=game.seats.get(colour=holder), command={"type": "decline"}, expected_seq=seq
        )
        assert result.accepted, result.message
    for viewer in ("green", onlooker, None):
        logs = []
        for game, _holder in games:
            export = export_game(game=game, colour=viewer)
            closed = next(e["seq"] for e in export["events"] if e["type"] == "ReactionsRevealed")
            logs.append(
                _normalised(
                    json.dumps(
                        [
                            {k: v for k, v in e.items() if k not in ("hash", "prev_hash", "recorded_at")}
                            for e in export["events"]
                            if e["seq"] <= closed
                        ]
                        + [c for c in export["commands"] if c["first_seq"] <= closed]
                    ),
                    game,
                )
            )
        assert logs[0] == logs[1], f"{viewer or 'a spectator'}'s export tells who was asked"


def _strict_game_at_geis(holder: str):
    """The Geis position in reaction mode "strict": the window asks every opponent holding an
    Action card, so all three are asked, each of them seen to be."""
    return create_game(
        seats=[
            SeatSpec(email=f"{colour}.{uuid.uuid4().hex[:8]}@example.org") for colour in ("green", *OPPONENTS)
        ],
        seed="answered-in-secret",
        setup=geis_position(holder),
        options={"reaction_mode": "strict"},
        play_bots=False,
    )


def test_while_a_window_waits_nobody_sees_whether_a_player_played_a_card_or_declined():
    """Blue holds Geis and is asked, with orange and white, about green's New Clans; blue answers
    first and the window waits for the others. "All asked seats answer privately" (docs/rulings.md):
    until the plays are revealed, whether blue played Geis or declined shows in no channel of
    green, orange or a spectator: not in the export's commands either, where blue's answer is an
    "answer"."""
    seen = []
    for answer in ({"type": "react", "card": "act_geis"}, {"type": "decline"}):
        game = _strict_game_at_geis("blue")
        play_new_clans(game)
        state, seq = store.load(game)
        assert {d.seat for d in rules.pending(state)} == set(OPPONENTS)
        assert answer in rules.legal_commands(state, "blue")
        result = submit_command(
            game=game, seat=game.seats.get(colour="blue"), command=answer, expected_seq=seq
        )
        assert result.accepted, result.message
        state, _ = store.load(game)
        assert {d.seat for d in rules.pending(state)} == {"orange", "white"}
        commands = export_game(game=game, colour="orange")["commands"]
        assert commands[-1]["seat"] == "blue" and commands[-1]["command"] == {"type": "answer"}
        seen.append(
            {
                viewer: {
                    channel: _normalised(text, game)
                    for channel, text in _texts_for(
                        game, viewer and game.seats.get(colour=viewer), state
                    ).items()
                }
                for viewer in ("green", "orange", None)
            }
        )
    for viewer, channels in seen[0].items():
        for channel, text in channels.items():
            assert text == seen[1][viewer][channel], (
                f"{viewer or 'a spectator'}'s {channel} tells whether blue played Geis or declined"
            )


def test_an_answer_in_a_window_asking_only_holders_shows_neither_its_seat_nor_its_kind():
    """In reaction mode "holders" the Geis holder alone is asked; until the end of the game the
    others' exports show its answer with no seat and as an "answer", never "react"."""
    game = game_at_geis_position(
        "white", seed="anonymous-answer", email=f"{{colour}}.{uuid.uuid4().hex[:8]}@example.org"
    )
    play_new_clans(game)
    state, seq = store.load(game)
    result = submit_command(
        game=game,
        seat=game.seats.get(colour="white"),
        command={"type": "react", "card": "act_geis"},
        expected_seq=seq,
    )
    assert result.accepted, result.message
    for viewer in ("green", "blue", None):
        commands = export_game(game=game, colour=viewer)["commands"]
        answer = next(c for c in commands if c["first_seq"] == result.first_seq)
        assert answer["seat"] is None and answer["command"] == {"type": "answer"}
    own = export_game(game=game, colour="white")["commands"]
    assert {"seat": "white", "command": {"type": "react", "card": "act_geis"}} in [
        {"seat": c["seat"], "command": c["command"]} for c in own
    ]


def _page_text(client: Client, path: str) -> str:
    html = client.get(path, follow=True).content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("holder", ["blue", "white"])
def test_the_host_tools_refuse_every_present_seat_alike_while_a_window_asks_only_holders(holder):
    """docs/rulings.md, "Who is asked": who was asked "is hidden like a hand: pages, emails,
    errors … say only 'waiting for possible Triskel reactions'". The host (green, at the table)
    of a rated game tries to give away each opponent's seat while the window waits on the Geis
    holder: every refusal reads the same, none names a deadline running for the holder."""
    from lobby.models import Proposal

    game = game_at_geis_position(
        holder, seed=f"host-{holder}", email=f"{{colour}}.{uuid.uuid4().hex[:8]}@example.org"
    )
    green = game.seats.get(colour="green")
    game.host = green.user
    game.save(update_fields=["host"])
    Proposal.objects.create(host=green.user, game=game, rated=True)
    play_new_clans(game)
    client = Client()
    client.force_login(green.user)
    said = {}
    for colour in OPPONENTS:
        client.post(f"/games/{game.pk}/host/", {"action": "replace", "seat": colour, "email": ""})
        text = _page_text(client, f"/games/{game.pk}/host/")
        refusal = re.search(r"is not late: .*?\(or when they leave the game\)\.( [^.]*\.)?", text)
        assert refusal, text[:500]
        said[colour] = refusal.group(0)
    assert len(set(said.values())) == 1, said
    assert "runs out" not in said[holder] and "no deadline" not in said[holder]


@pytest.mark.parametrize("holder", ["blue", "white"])
def test_a_private_answer_is_no_answer_time_at_the_table(holder):
    """The answer times ("answers in about N minutes" under each seat) count the answers the
    table sees the seat give. An answer in a window that asked only the holders would tell
    everybody which seat held Geis (docs/rulings.md, "Who is asked"): not counted."""
    game = game_at_geis_position(
        holder, seed=f"times-{holder}", email=f"{{colour}}.{uuid.uuid4().hex[:8]}@example.org"
    )
    play_new_clans(game)
    viewers = {"orange": Client(), "spectator": Client()}
    viewers["orange"].force_login(game.seats.get(colour="orange").user)
    before = {
        who: _page_text(client, f"/games/{game.pk}/").count("answers in about")
        for who, client in viewers.items()
    }
    _state, seq = store.load(game)
    result = submit_command(
        game=game,
        seat=game.seats.get(colour=holder),
        command={"type": "decline"},
        expected_seq=seq,
        command_id=f"web:{uuid.uuid4().hex}",
    )
    assert result.accepted, result.message
    after = {
        who: _page_text(client, f"/games/{game.pk}/").count("answers in about")
        for who, client in viewers.items()
    }
    assert after == before


def test_a_private_window_let_pass_is_no_missed_deadline():
    """The deadline default of a window that asked only the Geis holder (its decline) does not
    count as a missed deadline: three of them would make the stand-in take the seat, and the
    host's tools would show the holder absent (docs/rulings.md, "Who is asked")."""
    from datetime import timedelta

    from django.utils import timezone

    from games.play.models import SeatClock
    from inis_pbem.tasks import sweep

    game = game_at_geis_position(
        "blue", seed="missed", email=f"{{colour}}.{uuid.uuid4().hex[:8]}@example.org"
    )
    play_new_clans(game)
    SeatClock.objects.filter(seat__game=game, seat__colour="blue").update(
        opened_at=timezone.now() - timedelta(hours=49)
    )
    assert sweep.apply().result["deadlines"] == 1
    clock = SeatClock.objects.get(seat__game=game, seat__colour="blue")
    assert (clock.missed_in_row, clock.stand_in) == (0, False)
