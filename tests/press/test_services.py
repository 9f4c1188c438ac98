"""Table talk's services: sending, the hash chain, who may read what, and refused messages."""

from __future__ import annotations

import pytest
from django.db import connection

from games import store
from games.models import Game
from notifications.models import NewsItem, Outbox
from players.models import Player
from press import chain, selectors
from press.models import PressMessage
from press.reply import split_talk
from press.sealing import open_all
from press.services import MAX_CHARS, PressRefused, press_send


@pytest.fixture
def game(make_game):
    return make_game(4)


def seat(game, colour):
    return game.seats.get(colour=colour)


def test_a_message_is_appended_in_order_with_the_log_length_it_was_sent_at(game):
    first = press_send(game=game, seat=seat(game, "green"), to=None, text="Good luck, all.")
    second = press_send(game=game, seat=seat(game, "blue"), to="green", text="Thanks.")

    assert [m.number for m in PressMessage.objects.filter(game=game)] == [1, 2]
    assert first.at_seq == store.head(game)[0] and first.recipients is None
    assert second.sender == "blue" and second.recipients == ["green"]
    # The rules' log is untouched: talk never changes a replay.
    assert store.head(game)[0] == first.at_seq


def test_the_chain_starts_at_the_seed_commitment_and_reveals_an_edit(game):
    press_send(game=game, seat=seat(game, "green"), to=None, text="One.")
    press_send(game=game, seat=seat(game, "blue"), to="white", text="Two, in private.")
    press_send(game=game, seat=seat(game, "white"), to=None, text="Three.")
    messages = list(PressMessage.objects.filter(game=game).order_by("number"))

    assert messages[0].prev_hash == game.seed_commitment
    assert [m.prev_hash for m in messages[1:]] == [m.hash for m in messages[:-1]]
    assert chain.verify_chain(messages, seed=game.seed, seed_commitment=game.seed_commitment) == []

    # Sealed words are what the chain covers: another message's sealed words put in its place.
    messages[1].sealed = messages[0].sealed
    assert chain.verify_chain(messages, seed=game.seed, seed_commitment=game.seed_commitment) == [
        "message 2 was changed after it was written"
    ]


def test_a_private_message_hash_is_salted_with_a_secret_that_outlives_the_seed(game):
    """Its words cannot be found from its hash by guessing, neither while the seed is secret nor
    after it is revealed: the salt is random (version 2), not derived from the seed."""
    message = press_send(game=game, seat=seat(game, "blue"), to="white", text="yes")
    other = press_send(game=game, seat=seat(game, "blue"), to="white", text="yes")
    unsalted = chain.message_hash(
        message.prev_hash,
        number=1,
        at_seq=message.at_seq,
        sender="blue",
        recipients=["white"],
        text="yes",
        sent_at=message.sent_at,
    )
    assert message.hash != unsalted
    assert message.hash == chain.stored_hash(message, seed=game.seed)
    assert len(message.salt) == 64 and message.salt != other.salt
    assert message.salt != chain.press_salt(game.seed, 1, ["white"])
    assert message.hash == chain.hidden_message_hash(
        message.prev_hash,
        number=1,
        hidden_digest=chain.hidden_digest(
            message.salt,
            at_seq=message.at_seq,
            sender="blue",
            recipients=["white"],
            text=chain.hashed_words("", message.sealed, message.words_digest),
            sent_at=message.sent_at,
        ),
    )
    public = press_send(game=game, seat=seat(game, "blue"), to=None, text="yes")
    assert public.salt == "" and public.hash == chain.message_hash(
        public.prev_hash,
        number=3,
        at_seq=public.at_seq,
        sender="blue",
        recipients=None,
        text=chain.hashed_words("", public.sealed, public.words_digest),
        sent_at=public.sent_at,
    )


def test_a_private_message_is_read_by_its_sender_and_recipient_only(game):
    press_send(game=game, seat=seat(game, "green"), to=None, text="Public words.")
    press_send(game=game, seat=seat(game, "green"), to="blue", text="Secret plan.")

    def texts(colour):
        return [m.text for m in selectors.messages_for(game=game, colour=colour)]

    assert texts("green") == texts("blue") == ["Public words.", "Secret plan."]
    assert texts("orange") == texts("white") == texts(None) == ["Public words."]


@pytest.mark.parametrize(
    "public_after_end, seen", [(False, ["Public words."]), (True, ["Public words.", "Secret plan."])]
)
def test_private_messages_are_public_after_the_end_only_if_the_host_said_so(
    make_game, public_after_end, seen
):
    game = make_game(4, options={"press_public_after_end": public_after_end})
    press_send(game=game, seat=seat(game, "green"), to=None, text="Public words.")
    press_send(game=game, seat=seat(game, "green"), to="blue", text="Secret plan.")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.OVER)
    game.refresh_from_db()

    assert [m.text for m in selectors.messages_for(game=game, colour="orange")] == seen
    assert [m.text for m in selectors.messages_for(game=game, colour=None)] == seen


@pytest.mark.parametrize(
    "to, text, reason",
    [
        (None, "   \n  ", "It is empty."),
        (
            None,
            "x" * (MAX_CHARS + 1),
            f"It is {MAX_CHARS + 1:,} characters long, and the limit is {MAX_CHARS:,}",
        ),
        (
            "purple",
            "hello",
            "There is no “purple” at this table: you may write to blue, orange, white, or to everyone.",
        ),
        ("green", "hello", "That message was written to yourself"),
    ],
)
def test_bad_messages_are_refused_with_a_reason_and_nothing_is_stored(game, to, text, reason):
    with pytest.raises(PressRefused) as refused:
        press_send(game=game, seat=seat(game, "green"), to=to, text=text)
    assert str(refused.value).startswith(reason)
    assert not PressMessage.objects.exists() and not Outbox.objects.filter(kind=Outbox.Kind.PRESS).exists()


def test_a_colour_not_at_a_two_player_table_is_refused(make_game):
    game = make_game(2)
    with pytest.raises(PressRefused, match="There is no “orange” at this table: you may write to blue"):
        press_send(game=game, seat=seat(game, "green"), to="orange", text="hello")


def test_a_seat_of_another_game_or_a_bot_cannot_talk(make_game):
    game, other = make_game(2), make_game(2, bots=1)
    with pytest.raises(PressRefused, match="You do not have a seat at this table"):
        press_send(game=game, seat=seat(other, "green"), to=None, text="Hello from elsewhere.")
    with pytest.raises(PressRefused, match="You do not have a seat at this table"):
        press_send(game=other, seat=other.seats.get(is_bot=True), to=None, text="Beep.")
    assert not PressMessage.objects.exists()


def test_talk_posted_as_the_account_is_erased_is_refused_whole(game):
    """docs/privacy.md: an erasure and a post "happen one after the other": a post holding the
    seat as it was read before the erasure committed finds the seat left, and nothing is
    stored (a bot's seat writes no talk, docs/press.md; no key is made for the erased account)."""
    from players.erasure import erase_account
    from press.models import TalkKey

    green = seat(game, "green")
    read_before = seat(game, "green")
    erase_account(green.user_id)
    keys = TalkKey.objects.count()
    with pytest.raises(PressRefused, match="You do not have a seat at this table"):
        press_send(game=game, seat=read_before, to=None, text="Posted as the account went.")
    assert not PressMessage.objects.exists() and TalkKey.objects.count() == keys


def test_a_seat_is_rate_limited_per_hour(game, settings):
    settings.PRESS_MESSAGES_PER_HOUR = 3
    for n in range(3):
        press_send(game=game, seat=seat(game, "green"), to=None, text=f"Message {n}.")
    with pytest.raises(PressRefused, match="You have sent 3 messages this hour"):
        press_send(game=game, seat=seat(game, "green"), to=None, text="One too many.")
    # Another seat has its own count.
    press_send(game=game, seat=seat(game, "blue"), to=None, text="My first.")
    assert PressMessage.objects.count() == 4


def test_no_talk_once_the_game_is_over(game):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.OVER)
    game.refresh_from_db()
    with pytest.raises(PressRefused, match="This game is over: table talk is closed."):
        press_send(game=game, seat=seat(game, "green"), to=None, text="gg")


def test_html_is_stored_as_written_and_control_characters_dropped(game):
    message = press_send(
        game=game, seat=seat(game, "green"), to=None, text="<script>alert(1)</script>\x00 <b>bold</b>\r\nnext"
    )
    assert message.text == "<script>alert(1)</script> <b>bold</b>\nnext"


def test_relay_respects_each_players_preferences(game):
    """Email at once by default; a digest line for a digest player; nothing mailed to one who
    turned news off; nothing to the sender."""
    Player.objects.filter(email="player3@example.org").update(delivery=Player.Delivery.DIGEST)
    Player.objects.filter(email="player4@example.org").update(news=False)
    press_send(game=game, seat=seat(game, "green"), to=None, text="Hear me.")

    press = Outbox.objects.filter(kind=Outbox.Kind.PRESS)
    assert [row.seat.colour for row in press] == ["blue"]
    assert press.get().subject == f"Table talk from green — Inis {game.pk}"
    assert list(NewsItem.objects.values_list("seat__colour", "text")) == [
        ("orange", "green to everyone: “Hear me.”")
    ]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_postgresql_refuses_to_update_or_delete_a_message(make_game):
    from django.db import DatabaseError, transaction

    game = make_game(2)
    press_send(game=game, seat=seat(game, "green"), to=None, text="Carved in stone.")
    with pytest.raises(DatabaseError), transaction.atomic():
        PressMessage.objects.filter(game=game).update(sealed="Rewritten.")
    with pytest.raises(DatabaseError), transaction.atomic():
        PressMessage.objects.filter(game=game).delete()
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("TRUNCATE press_pressmessage CASCADE")
    assert open_all([PressMessage.objects.get(game=game)])[0].text == "Carved in stone."


# -- the reply form -------------------------------------------------------------------------


def test_a_reply_is_cut_into_messages_and_commands():
    talk = split_talk(
        "pretender\nsay: Good luck\nto all of you.\n\ntell Bleu: the Cove is yours\n"
        "dire à tous : bonne chance\n\nThanks,\nAlice"
    )
    assert [(t.to, t.text) for t in talk.talk] == [
        (None, "Good luck\nto all of you."),
        ("Bleu", "the Cove is yours"),
        ("tous", "bonne chance"),
    ]
    assert [line for line in talk.commands.split("\n") if line] == ["pretender", "Thanks,", "Alice"]


def test_french_forms_and_nothing_but_talk():
    talk = split_talk("dire : Je passe.\ndire à blanc: pas toi")
    assert [(t.to, t.text) for t in talk.talk] == [(None, "Je passe."), ("blanc", "pas toi")]
    assert talk.commands is None


def test_a_reply_without_talk_is_left_as_it_is():
    text = "play migration from valley: 2 to cove\n\nOn Mon, Alice wrote:\n> say: quoted, not said"
    assert split_talk(text).talk == () and split_talk(text).commands == text


def test_quoted_lines_and_signatures_are_not_talk():
    talk = split_talk("say: mine\n> say: quoted\n\n-- \nsay: in a signature")
    assert [t.text for t in talk.talk] == ["mine"]
