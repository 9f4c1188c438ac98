"""Taking back one's last move by email (docs/email-commands.md, "Taking back your last move"):
a reply "take back" (French "reprendre") to the seat's game email takes back the seat's last
move when the log allows it, judged on what that email showed the player; the answer is the
seat's prompt of the decision it makes again. Refused: the reason, nothing written.

The positions are those of tests/games/play/test_take_backs.py (New Clans, public, revealed
nothing) and tests/games/play/test_forced_moves.py (blue's forced pass)."""

from __future__ import annotations

import io

from django.core import mail
from django.core.management import call_command

from games import store
from games.models import Command, Event
from games.services import submit_command
from games.store.verification import verify_game
from notifications.models import InboundEmail, Outbox
from notifications.tokens import reply_address
from players.models import Player
from tests.conftest import drive
from tests.games.play import test_forced_moves, test_take_backs
from tests.notifications import mail_clients
from tests.notifications.email_positions import END, game_from
from tests.notifications.test_inbound import feed, last_to, prompt_for, send_all


def green_plays_new_clans(position, *, seed: str, reaction_mode: str, french: bool = False):
    """A 2-player email game from `position` in which green plays New Clans by email, answering
    its first prompt; returns (game, that prompt)."""
    if french:
        Player.objects.create(email="player1@example.org", language="fr")
    game = game_from(position, seed=seed, players=2, options={"reaction_mode": reaction_mode})
    prompt = prompt_for(game, "green")
    reply = mail_clients.gmail_french if french else mail_clients.gmail
    assert feed(reply(prompt, "new clans valley valley")).startswith("accepted")
    played = Command.objects.filter(game=game, seat__colour="green").latest("first_seq")
    assert played.body["type"] == "play" and str(played.command_id).startswith("email:")
    return game, prompt


def reply_at_once(raw: bytes, capture) -> tuple[str, list]:
    """Pipe `raw` to `manage.py receive_email`, its commit's callbacks run as in production (the
    prompt delivered at once, within the grace): its output line, and the emails it sent."""
    before, out = len(mail.outbox), io.StringIO()
    with capture(execute=True):
        call_command("receive_email", stdin=io.BytesIO(raw), stdout=out)
    return out.getvalue().strip(), mail.outbox[before:]


def snapshot(game) -> tuple:
    """What a refusal must leave as it was: the log and the mail written."""
    return (
        Event.objects.filter(game=game).count(),
        Command.objects.filter(game=game).count(),
        Outbox.objects.filter(game=game).exclude(kind=Outbox.Kind.ANSWER).count(),
    )


def test_take_back_by_email_is_accepted_and_answered_by_the_prompt_again(
    db, django_capture_on_commit_callbacks
):
    """Green answered its prompt with New Clans; blue has not acted yet. Green's reply "take back"
    to the same prompt (its token names the prompt's seq, behind the log's head now) takes the
    move back: the clans back in the reserve, the card in hand, green's turn again. The answer
    is green's prompt, opening with what was accepted; the same message delivered again writes
    nothing; the audit agrees."""
    game, prompt = green_plays_new_clans(test_take_backs.position(), seed="tb-email", reaction_mode="quick")
    head = store.head(game)[0]
    raw = mail_clients.gmail(prompt, "take back", message_id="<take-back-1@mail.example.org>")

    status, sent = reply_at_once(raw, django_capture_on_commit_callbacks)

    assert status == f"accepted (game {game.pk}, green)"
    state, seq = store.load(game)
    assert seq == head + 1
    assert state.territories["valley"]["clans"] == {"green": 3}
    assert sorted(state.hands["green"]) == ["act_new_clans", "act_sanctuary"]
    last = Command.objects.filter(game=game).latest("first_seq")
    assert last.body == {"type": "take_back"} and last.seat.colour == "green"
    assert last.command_id == "email:take-back-1@mail.example.org:0"
    (again,) = [m for m in sent if "player1@example.org" in m.to]  # one email: the prompt again
    assert again.subject.startswith("Accepted: Take back your last move — Your move: ")
    # Under the prompt's first line (the game, the colour, the move), the doc's words.
    assert again.body.split("\n\n")[1] == (
        "Accepted: I read your reply as: Take back your last move. Your move was taken back: decide again."
    )
    assert again.reply_to  # the prompt of the decision made again: its reply address is the valid one
    assert again.extra_headers["In-Reply-To"] == "<take-back-1@mail.example.org>"
    assert verify_game(game).ok, verify_game(game).lines()

    # The same message delivered again: played once, answered once.
    commands, mails = Command.objects.filter(game=game).count(), Outbox.objects.filter(game=game).count()
    assert feed(raw) == "duplicate: message already received (accepted)"
    assert Command.objects.filter(game=game).count() == commands
    assert Outbox.objects.filter(game=game).count() == mails
    assert store.head(game)[0] == seq
    # Green plays again from the restored state, by email.
    assert feed(mail_clients.gmail(again, "sanctuary valley")).startswith("accepted")
    assert verify_game(game).ok, verify_game(game).lines()


def test_take_back_by_email_in_french(db, django_capture_on_commit_callbacks):
    """A French player writes "reprendre" and reads the answer in French."""
    game, prompt = green_plays_new_clans(
        test_take_backs.position(), seed="tb-email-fr", reaction_mode="quick", french=True
    )

    raw = mail_clients.gmail_french(prompt, "Reprendre mon coup")
    status, sent = reply_at_once(raw, django_capture_on_commit_callbacks)

    assert status.startswith("accepted")
    assert Command.objects.filter(game=game).latest("first_seq").body == {"type": "take_back"}
    (answer,) = [m for m in sent if "player1@example.org" in m.to]
    assert answer.subject.startswith("Accepté : Reprendre votre dernier coup — Votre coup : ")
    assert "Votre coup a été repris : décidez à nouveau." in answer.body
    assert "taken back" not in answer.body
    assert verify_game(game).ok, verify_game(game).lines()


def test_take_back_by_email_passes_over_another_seats_policy(db, django_capture_on_commit_callbacks):
    """docs/email-commands.md, "Taking back your last move": a standing Triskel policy is no
    move. After green's New Clans, blue sets "never ask" for Geis (private to blue); green's
    "take back" to the same prompt is accepted as it would be without blue's policy, and blue's
    policy stands."""
    game, prompt = green_plays_new_clans(
        test_take_backs.position(), seed="tb-email-policy", reaction_mode="quick"
    )
    blue = game.seats.get(colour="blue")
    never = {"type": "set_policy", "card": "act_geis", "policy": "never"}
    assert submit_command(game=game, seat=blue, expected_seq=store.head(game)[0], command=never).accepted

    status, sent = reply_at_once(mail_clients.gmail(prompt, "take back"), django_capture_on_commit_callbacks)

    assert status == f"accepted (game {game.pk}, green)"
    state, _seq = store.load(game)
    assert state.territories["valley"]["clans"] == {"green": 3}
    assert state.policies["blue"]["act_geis"] == "never"
    (again,) = [m for m in sent if "player1@example.org" in m.to]
    assert "Your move was taken back: decide again." in again.body
    assert verify_game(game).ok, verify_game(game).lines()


def test_take_back_by_email_is_refused_after_another_seat_acted(db):
    """Blue played after green's move: green's "undo" is refused with the reason, and what is
    allowed; nothing is written."""
    game, prompt = green_plays_new_clans(
        test_take_backs.position(), seed="tb-email-late", reaction_mode="quick"
    )
    blue = game.seats.get(colour="blue")
    assert submit_command(
        game=game, seat=blue, expected_seq=store.head(game)[0], command={"type": "pass"}
    ).accepted
    send_all()  # green's prompt of its next turn
    before = snapshot(game)

    assert feed(mail_clients.gmail(prompt, "undo")) == f"rejected (game {game.pk}, green)"

    assert snapshot(game) == before
    answer = last_to("player1@example.org")
    assert answer.subject.startswith("Rejected: “Take back your last move”")
    assert (
        "It was not taken back: You can take back only your own last move: another player has acted since."
        in (" ".join(answer.body.split()))
    )
    assert "only by the player who made it" in " ".join(answer.body.split())
    assert InboundEmail.objects.get(status=InboundEmail.Status.REJECTED).seat.colour == "green"
    assert verify_game(game).ok, verify_game(game).lines()


def test_take_back_by_email_of_a_move_made_for_the_seat_is_refused(db):
    """Blue holds no card: its pass after green's New Clans was played for it (a forced move,
    docs/rulings.md). Blue's "take back", to a reply address of the log's head (what blue saw),
    is refused: a move made for the seat stands. Green cannot take back either: blue acted since.
    In French for blue, in English for green; nothing is written."""
    Player.objects.create(email="player2@example.org", language="fr")
    game, prompt = green_plays_new_clans(
        test_forced_moves.position(blue_hand=[]), seed="tb-email-forced", reaction_mode="holders"
    )
    blue = game.seats.get(colour="blue")
    forced = Command.objects.filter(game=game).latest("first_seq")
    assert forced.seat == blue and forced.command_id.startswith("forced:")
    before = snapshot(game)
    head = store.head(game)[0]
    to = reply_address(game_id=game.pk, seat_id=blue.pk, seq=head, seat_secret=blue.token)
    raw = mail_clients.plain(
        sender="player2@example.org", to=to, subject=f"Re: Inis {game.pk}", words="annuler"
    )

    assert feed(raw) == f"rejected (game {game.pk}, blue)"

    answer = " ".join(last_to("player2@example.org").body.split())
    assert "Il n'a pas été repris : votre dernier coup a été joué pour vous" in answer
    assert feed(mail_clients.gmail(prompt, "take back")) == f"rejected (game {game.pk}, green)"
    assert "another player has acted since" in " ".join(last_to("player1@example.org").body.split())
    assert snapshot(game) == before
    assert verify_game(game).ok, verify_game(game).lines()


def test_take_back_by_email_to_an_older_email_is_refused(db):
    """Green's move, taken back, then made again in reply to the prompt that followed: a
    "take back" answering the first prompt names a log green saw before its last move
    (the prompt answered by it is the second): refused, as the web refuses an older page."""
    game, first = green_plays_new_clans(
        test_take_backs.position(), seed="tb-email-old", reaction_mode="quick"
    )
    assert feed(mail_clients.gmail(first, "take back")).startswith("accepted")
    second = last_to("player1@example.org")
    assert feed(mail_clients.gmail(second, "new clans valley valley")).startswith("accepted")
    before = snapshot(game)

    assert feed(mail_clients.gmail(first, "take back")) == f"rejected (game {game.pk}, green)"

    assert "answered an earlier email" in " ".join(last_to("player1@example.org").body.split())
    assert snapshot(game) == before
    # The same words answering the second prompt take the move back.
    assert feed(mail_clients.gmail(second, "take back")).startswith("accepted")
    assert verify_game(game).ok, verify_game(game).lines()


def test_a_take_back_within_the_grace_says_only_the_take_back(db, django_capture_on_commit_callbacks):
    """docs/email-commands.md, "Taking back your last move": the answer is the prompt again,
    subject "Accepted: Take back your last move — Your move: …", opening "Accepted: I read your
    reply as: Take back your last move. Your move was taken back: decide again.". Green's move
    and its take-back both come within ACCEPTANCE_GRACE (the commit's callbacks run as in
    production): the move's acceptance, still held, is not said: it was taken back."""
    game = game_from(
        test_take_backs.position(), seed="tb-grace", players=2, options={"reaction_mode": "quick"}
    )
    prompt = prompt_for(game, "green")
    status, sent = reply_at_once(
        mail_clients.gmail(prompt, "new clans valley valley"), django_capture_on_commit_callbacks
    )
    assert status.startswith("accepted") and not [m for m in sent if "player1@example.org" in m.to]

    status, sent = reply_at_once(mail_clients.gmail(prompt, "take back"), django_capture_on_commit_callbacks)

    assert status == f"accepted (game {game.pk}, green)"
    (again,) = [m for m in sent if "player1@example.org" in m.to]
    assert again.subject.startswith("Accepted: Take back your last move — Your move: ")
    accepted = again.body.split("\n\n")[1]
    assert accepted == (
        "Accepted: I read your reply as: Take back your last move. Your move was taken back: decide again."
    )
    assert "New Clans" not in again.subject and "New Clans" not in accepted


def test_a_take_back_comes_first_beside_a_policy_still_held(db, django_capture_on_commit_callbacks):
    """A policy set within the grace stays set, and accepted; the take-back is said first, in
    the subject and in the list, and the move it took back is not said."""
    game = game_from(
        test_take_backs.position(), seed="tb-grace-policy", players=2, options={"reaction_mode": "quick"}
    )
    prompt = prompt_for(game, "green")
    for words in ("never ask geis", "new clans valley valley"):
        status, _sent = reply_at_once(mail_clients.gmail(prompt, words), django_capture_on_commit_callbacks)
        assert status.startswith("accepted")

    status, sent = reply_at_once(mail_clients.gmail(prompt, "take back"), django_capture_on_commit_callbacks)

    assert status == f"accepted (game {game.pk}, green)"
    (again,) = [m for m in sent if "player1@example.org" in m.to]
    assert again.subject.startswith("Accepted: Take back your last move; standing policy: ")
    assert again.body.split("\n\n")[1] == (
        "Accepted:\n"
        "- I read your reply as: Take back your last move. Your move was taken back: decide again.\n"
        "- I read your reply as: standing policy: never ask me about Geis."
    )
    assert store.load(game)[0].policies["green"]["act_geis"] == "never"


def test_a_take_back_after_the_end_to_an_older_prompt_gets_the_take_back_refusal(db):
    """docs/email-commands.md, "Taking back your last move": once the game is over, "take back"
    is refused as a take-back (`The game is over: no move can be taken back.`), whichever email
    it answers; any other reply to an ended game is answered "This game is over; nothing more
    can be played." (the rematch section). Nothing is written."""
    game = game_from(END, seed="tb-over")
    prompt = prompt_for(game, "green")
    assert feed(mail_clients.gmail(prompt, "pretender")).startswith("accepted")
    drive(game, 60)
    send_all()
    game.refresh_from_db()
    assert game.is_over
    over = last_to("player1@example.org")
    assert over.subject.startswith("Game over: ")
    before = snapshot(game)

    for answered in (prompt, over):
        assert feed(mail_clients.gmail(answered, "take back")) == f"rejected (game {game.pk}, green)"
        answer = last_to("player1@example.org")
        assert answer.subject == f"Rejected: “Take back your last move” — Inis {game.pk}"
        assert "It was not taken back: The game is over: no move can be taken back." in " ".join(
            answer.body.split()
        )
    assert feed(mail_clients.gmail(prompt, "pass")) == f"stale (game {game.pk}, green)"
    assert "This game is over; nothing more can be played." in last_to("player1@example.org").body
    assert snapshot(game) == before
