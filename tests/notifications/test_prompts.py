"""Prompt emails: what a player reads when a decision is theirs, and when it is sent at all."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import rules, store
from games.play.models import SeatClock
from games.rules.card_reference import card_line
from games.services import submit_command
from games.store import selectors
from games.story.descriptions import describe_command
from inis_pbem.tasks import sweep
from notifications import email_board, outbox, tokens
from notifications.command_language.help import describe_syntax
from notifications.models import Outbox
from notifications.prompts import MAX_LISTED_COMMANDS
from players import signed_tokens
from players.models import Player
from tests.notifications import mail_clients
from tests.notifications.email_positions import ASSEMBLY, CLASH, END, MIGRATE_TO_COVE, MIGRATION, game_from
from tests.notifications.test_inbound import feed, last_to, prompt_for, send_all


def test_a_prompt_shows_the_decision_options_syntax_hand_board_deadline_and_page(db):
    Player.objects.create(email="player1@example.org", time_zone="Europe/Paris")
    game = game_from(MIGRATION, seed="prompt-contents")
    state, seq = store.load(game)
    prompt = prompt_for(game, "green")
    text = prompt.body
    green = game.seats.get(colour="green")

    assert prompt.subject == f"Your move: your Season turn — Inis {game.pk}"
    # Green meets no victory condition: the prompt does not offer a Pretender token, and says why.
    assert ">> Your turn in the Season: play a Season card or pass.\n" in text
    assert "You cannot take a Pretender token: you meet no victory condition" in text
    legal = rules.legal_commands(state, "green")
    listed = [f"{n}. {describe_command(state, c)}" for n, c in enumerate(legal[:MAX_LISTED_COMMANDS], 1)]
    positions = [text.index(line + "\n") for line in listed]
    assert positions == sorted(positions), "options are listed in legal_commands order"
    assert describe_syntax("season_turn", offered=("season_card", "pass")) in text
    assert '"pretender"' not in text
    for card in ("act_migration", "act_geis"):
        assert card_line(card) in text
    assert email_board.board_text(state, "green") in text
    assert f"/games/{game.pk}/seat/{green.pk}." in text and green.token not in text  # a seat link
    deadline = SeatClock.objects.get(seat=green).deadline
    local = deadline.astimezone(__import__("zoneinfo").ZoneInfo("Europe/Paris"))
    assert (
        f"Deadline: {local:%A} {local.day} {local:%B %Y, %H:%M} (Europe/Paris). If you have not "
        "answered by then, this is played for you: Pass."
    ) in text
    # No engine words, no repository paths.
    assert "event" not in text.split("The board:")[0] and "docs/" not in text and ".md" not in text
    # The HTML part lists the same options.
    html = prompt.alternatives[0][0]
    assert prompt.alternatives[0][1] == "text/html"
    assert all(f"<li>{describe_command(state, c)}</li>" in html.replace("&amp;", "&") for c in legal[:5])


def test_the_prompt_tells_what_happened_since_the_seats_last_prompt_only(db):
    game = game_from(END, seed="happened")
    first = prompt_for(game, "green")
    assert "What happened since your last move" in first.body
    seats = {s.colour: s for s in game.seats.all()}
    state, seq = store.load(game)
    assert submit_command(
        game=game, seat=seats["green"], command={"type": "pretender"}, expected_seq=seq
    ).accepted
    # Blue's turn next; its prompt tells green's Pretender token, told to blue.
    blue = prompt_for(game, "blue").body
    assert "- Green took a Pretender token.\n" in blue
    state, seq = store.load(game)
    assert submit_command(game=game, seat=seats["blue"], command={"type": "pass"}, expected_seq=seq).accepted
    # Orange, white and green can only pass (played for them, nobody asked): the Season ends and
    # green is elected. Green's last email tells what happened since its previous prompt only.
    send_all()
    over = next(m for m in reversed(mail.outbox) if m.to == ["player1@example.org"]).body
    happened = over.split("What happened since your last move:")[1].split("\n\n")[0]
    assert "- You took a Pretender token." in happened  # told to green
    assert "Blue passed." in happened and "Orange passed." in happened and "White passed." in happened
    assert "The game started" not in happened  # before green's previous prompt


@pytest.mark.parametrize(
    "step, colour, expected",
    [
        (
            1,
            "blue",
            [
                "Clash in the Cove (instigator: green).",
                # Orange and white have no clan in the Cove: they take no part in the clash.
                "Turn order: green, you.",
                "Exposed clans: green 1, you 1.",
                "Sheltered clans (in Citadels): none.",
                "Free Citadels: 1.",
            ],
        ),
        (
            2,
            "green",
            [
                "Clash in the Cove (instigator: you).",
                "Turn order: you, blue.",
                "Exposed clans: you 1.",
                "Sheltered clans (in Citadels): blue 1.",
                "Free Citadels: 0.",
            ],
        ),
    ],
)
def test_clash_prompts_name_the_clash_the_exposed_and_sheltered_clans_and_the_turn_order(
    db, step, colour, expected
):
    game = game_from(CLASH, seed="clash-prompts")
    seats = {s.colour: s for s in game.seats.all()}
    state, seq = store.load(game)
    submit_command(game=game, seat=seats["green"], command=MIGRATE_TO_COVE, expected_seq=seq)
    if step == 2:
        state, seq = store.load(game)
        assert submit_command(
            game=game, seat=seats["blue"], command={"type": "citadel"}, expected_seq=seq
        ).accepted
    text = prompt_for(game, colour).body
    for line in expected:
        assert line in text
    assert "orange" not in text.split("Turn order:")[1].split("\n")[0]


def test_a_prompt_whose_decision_was_taken_meanwhile_is_not_sent(db):
    game = game_from(END, seed="taken")
    row = Outbox.objects.get(game=game, kind=Outbox.Kind.PROMPT)
    state, seq = store.load(game)
    # Green decides on the web before the email went out.
    submit_command(game=game, seat=row.seat, command={"type": "pass"}, expected_seq=seq)

    assert outbox.deliver(row.pk) is False

    row.refresh_from_db()
    assert row.status == Outbox.Status.SKIPPED
    assert not [m for m in mail.outbox if m.extra_headers.get("Message-ID") == row.headers["Message-ID"]]


def test_simultaneous_decisions_prompt_every_seat_concerned_once(db):
    game = game_from(ASSEMBLY, seed="simultaneous")
    prompts = Outbox.objects.filter(game=game, kind=Outbox.Kind.PROMPT)
    assert sorted(p.seat.colour for p in prompts) == ["blue", "green", "orange", "white"]
    state, seq = store.load(game)
    green = game.seats.get(colour="green")
    submit_command(game=game, seat=green, command=rules.legal_commands(state, "green")[0], expected_seq=seq)
    # Green's pick changes nobody else's decision: no new prompt for them.
    assert Outbox.objects.filter(game=game, kind=Outbox.Kind.PROMPT).count() == 4


def test_a_prompt_delivered_after_others_played_shows_the_game_as_its_decision_found_it(db):
    """Prompts are written when they are delivered. White's draft prompt, delivered only after
    green picked, is the email of white's decision: its footer names the log as it was then,
    and it still lists white's own draft choices."""
    game = game_from(ASSEMBLY, seed="written-late")
    white = game.seats.get(colour="white")
    first = Outbox.objects.get(seat=white, kind=Outbox.Kind.PROMPT)
    state, seq = store.load(game)
    choices = [card_line(card, "en") for card in rules.view_for(state, "white")["draft"]["choices"]]
    green = game.seats.get(colour="green")
    submit_command(game=game, seat=green, command=rules.legal_commands(state, "green")[0], expected_seq=seq)
    _after, picked_seq = store.load(game)
    assert picked_seq > seq

    assert outbox.deliver(first.pk) is True  # white's decision did not change: still current
    first.refresh_from_db()
    assert first.seq == seq and first.subject == f"Your move: draft (keep 1 of 4) — Inis {game.pk}"
    assert selectors.log_fingerprint(game_id=game.pk, seq=seq) in first.body_text
    assert selectors.log_fingerprint(game_id=game.pk, seq=picked_seq) not in first.body_text
    assert all(choice in first.body_text for choice in choices)
    assert [m.subject for m in mail.outbox if m.to == [white.email]] == [first.subject]


def test_a_prompt_delivered_after_its_deadline_moved_shows_the_deadline_as_it_stands(db):
    """A prompt is written when it is delivered: if the seat's deadline moved meanwhile (the
    player set a vacation), the email gives the deadline the default will apply at."""
    game = game_from(END, seed="deadline-moved")
    row = Outbox.objects.get(game=game, kind=Outbox.Kind.PROMPT)
    moved = timezone.now().replace(microsecond=0) + timedelta(days=9)
    SeatClock.objects.filter(seat=row.seat).update(deadline=moved)

    assert outbox.deliver(row.pk) is True
    row.refresh_from_db()
    local = moved.astimezone(UTC)
    assert f"Deadline: {local:%A} {local.day} {local:%B %Y, %H:%M} (UTC)." in row.body_text


def test_mail_headers_thread_reply_and_unsubscribe(db):
    game = game_from(END, seed="headers")
    prompt = prompt_for(game, "green")
    green = game.seats.get(colour="green")
    headers = prompt.extra_headers

    assert headers["References"] == headers["In-Reply-To"] == f"<inis-game-{game.pk}-green@127.0.0.1>"
    assert headers["List-Unsubscribe"].startswith("<http://127.0.0.1:8000/email/unsubscribe/")
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert headers["Auto-Submitted"] == "auto-generated"
    token = tokens.token_in_address(prompt.reply_to[0])
    ref = signed_tokens.read_reply_token(token)
    signed_tokens.check_reply_token(token, green.token)
    assert (ref.game_id, ref.seat_id, ref.seq) == (game.pk, green.pk, SeatClock.objects.get(seat=green).seq)
    assert len(prompt.reply_to[0].split("@")[0]) <= 64  # RFC 5321: a local part is at most 64 characters


def test_a_reminder_goes_before_the_deadline_with_the_decision(db):

    game = game_from(END, seed="reminder")
    send_all()
    clock = SeatClock.objects.get(seat__game=game, seat__colour="green")
    # 40 hours into a 48-hour decision: past the reminder (12 hours before), before the deadline.
    SeatClock.objects.filter(pk=clock.pk).update(opened_at=timezone.now() - timedelta(hours=40))

    sweep.apply()
    sweep.apply()

    reminders = Outbox.objects.filter(seat=clock.seat, kind=Outbox.Kind.REMINDER)
    assert reminders.count() == 1
    text = reminders.get().body_text
    assert text.startswith(f"Reminder: Inis game {game.pk} waits for your move (green): your Season turn.")
    assert reminders.get().subject.startswith("Reminder: your Season turn (deadline ")
    assert reminders.get().subject.endswith(f"UTC) — Inis {game.pk}")
    assert "1. Pass" in text and "2. Take a Pretender token" in text


def test_a_prompt_names_the_other_players_by_name_and_the_reader_as_you(db):
    """Names are public at a table: blue's prompt after green's Migration into the Cove says
    "Ann (green)" where it named "green", and still speaks to blue as "you", in the subject's
    decision, what happened and the clash's facts."""
    Player.objects.create(email="player1@example.org", display_name="Ann")
    Player.objects.create(email="player2@example.org", display_name="Bob")
    game = game_from(CLASH, seed="names-in-prompts")
    green = game.seats.get(colour="green")
    assert green.email == "player1@example.org"
    state, seq = store.load(game)
    assert submit_command(game=game, seat=green, command=MIGRATE_TO_COVE, expected_seq=seq).accepted
    text = prompt_for(game, "blue").body
    assert "- Ann (green) played Migration" in text, text
    assert "(instigator: Ann (green))" in text, text
    assert "Bob" not in text, text  # blue reads "you", not its own name


def test_a_draft_card_you_hold_while_you_wait_is_in_your_hand_by_email_and_nobody_elses(db):
    """Step 6: each player "chooses one to hold" and "adds the one card he held to the three
    cards passed to him". Green keeps a card on the web, then its old prompt's reply comes too
    late: the answer shows green's hand with the card it holds in the draft, while it waits for
    the cards passed to it. The passer's email does not name that card."""
    game = game_from(ASSEMBLY, seed="held-by-email")
    old_prompt = prompt_for(game, "green")
    state, seq = store.load(game)
    green = game.seats.get(colour="green")
    command = rules.legal_commands(state, "green")[0]
    assert submit_command(game=game, seat=green, command=command, expected_seq=seq).accepted
    (held,) = command["keep"]
    line = card_line(held, "en")

    assert feed(mail_clients.gmail(old_prompt, "pass")).startswith("stale")

    answer = last_to("player1@example.org").body
    assert "You have nothing to decide now" in answer
    hand = answer[answer.index("Your hand:") : answer.index("The board:")]
    assert f"- Held in the draft: {line}" in hand, hand
    passer = next(s for s in state.seats if state.next_seat(s) == "green")
    assert line not in prompt_for(game, passer).body


def test_the_boards_player_lines_count_in_the_singular_and_the_plural():
    """One clan in reserve, one card of a type, two of another: each count agrees with its noun,
    in English and in French."""
    from django.utils import translation

    from tests.rules.positions import Table

    table = Table(
        """
        valley  0,0  green 11  blue 1
        cove    1,0  blue 1
        """,
        seats=("green", "blue"),
        capital="valley",
        brenn="green",
        turn="green",
        opened=True,
        hands={"green": ["ep_eriu", "ep_balors_eye", "adv_iron_mine", "adv_salt_mine"]},
    )
    with translation.override("en"):
        green = email_board.victory_lines(table.state, "blue")[0]
    assert green.endswith("; 1 clan in reserve; hand: 0 Actions, 2 Advantages, 2 Epic Tales.")
    with translation.override("fr"):
        green = email_board.victory_lines(table.state, "blue")[0]
    assert green.endswith(" ; 1 clan en réserve ; main : 0 Action, 2 Avantages, 2 Récits épiques.")


def test_the_first_of_a_month_is_1er_in_french_and_other_days_stay_numbers():
    """A French deadline on the first of December reads "lundi 1er décembre 2025" (the French
    ordinal), the second "mardi 2 décembre 2025"; in English, "Monday 1 December 2025"; the
    pages' `dated` filter says it alike."""
    from datetime import datetime

    from django.template import Context, Template
    from django.utils import translation

    first, second = datetime(2025, 12, 1, 18, 0, tzinfo=UTC), datetime(2025, 12, 2, 18, 0, tzinfo=UTC)
    page = Template('{% load game_words %}{{ when|dated:"j F, H:i" }}')
    with translation.override("fr"):
        assert outbox_deadline(first) == "lundi 1er décembre 2025, 18:00 (UTC)"
        assert outbox_deadline(second) == "mardi 2 décembre 2025, 18:00 (UTC)"
        assert page.render(Context({"when": first})) == "1er décembre, 18:00"
        assert page.render(Context({"when": second})) == "2 décembre, 18:00"
    with translation.override("en"):
        assert outbox_deadline(first) == "Monday 1 December 2025, 18:00 (UTC)"
        assert page.render(Context({"when": first})) == "1 December, 18:00"


def outbox_deadline(moment) -> str:
    from notifications.prompts import format_deadline

    return format_deadline(moment, "UTC")
