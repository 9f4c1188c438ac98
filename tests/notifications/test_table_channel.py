"""A table channel (notifications.channels.table_news, set by the host: games.play.table): the
game's public news, as a spectator reads it, to the table's chat, against a local HTTP sink
standing for the chat service (apprise's `ntfy://` target): one message per news batch; a
refusal or a time-out is retried, then FAILED with the admin's resend; an address of another
service, or pointed at this site or a private network, is refused when set and again at each
post; two deals differing only in hidden cards give the same messages."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import rules, store
from games.models import TableChannel
from games.play import table
from games.services import submit_command
from notifications import outbox
from notifications.channels import table_news
from notifications.models import Outbox
from players.accounts import user_for_email
from players.models import Player
from tests.geis_window import game_at_geis_position, play_new_clans
from tests.notifications.test_chat import ChatSink


def news_rows(game) -> list[Outbox]:
    return list(Outbox.objects.filter(game=game, kind=Outbox.Kind.TABLE_NEWS).order_by("id"))


def play_one(game):
    """The first waiting seat plays its first legal command."""
    state, seq = store.load(game)
    colour = rules.pending(state)[0].seat
    command = rules.legal_commands(state, colour)[0]
    result = submit_command(game=game, seat=game.seats.get(colour=colour), command=command, expected_seq=seq)
    assert result.accepted, result.message
    return colour


def test_each_move_is_one_public_message_to_the_table(make_game, sink):
    game = make_game(n_players=3, seed="table-news")
    # Kept directly: the host's page refuses a loopback address, which this test's sink has.
    TableChannel.objects.create(game=game, url=sink.url)
    before = len(sink.healthy)
    mover = play_one(game)
    (row,) = news_rows(game)
    assert row.channel == Outbox.Channel.CHAT and row.seat_id is None and row.to_email == ""
    assert outbox.deliver(row.pk) is True
    (posted,) = sink.healthy[before:]
    assert posted["title"] == f"Inis {game.pk}: news"
    text = posted["message"]
    assert f"/games/{game.pk}/" in text and "Waiting for " in text
    # Nothing of a seat's own: no seat link, no address, no card of a hand.
    state, _seq = store.load(game)
    assert "@example.org" not in text and "/seat/" not in text
    for colour, hand in state.hands.items():
        assert not any(rules.card_name(card) in text for card in hand if colour != mover), colour


def test_without_a_channel_or_with_chat_off_nothing_is_written(make_game, sink, settings):
    game = make_game(n_players=3, seed="table-none")
    play_one(game)
    assert news_rows(game) == []
    TableChannel.objects.create(game=game, url=sink.url)
    settings.CHAT_TARGETS = False
    play_one(game)
    assert news_rows(game) == []


@pytest.mark.parametrize("failure", ["500", "time-out"])
def test_a_refusing_table_chat_is_retried_then_failed_then_sent_again(make_game, sink, failure):
    game = make_game(n_players=3, seed="table-retry")
    TableChannel.objects.create(game=game, url=sink.url)
    if failure == "500":
        sink.status = 500
    else:
        sink.delay = 3.5  # longer than CHAT_TIMEOUT
    play_one(game)
    (row,) = news_rows(game)
    with pytest.raises(table_news.TableNewsFailed, match="did not take"):
        outbox.deliver(row.pk)
    row.refresh_from_db()
    assert row.status == Outbox.Status.PENDING and row.attempts == 1 and row.retry_at
    with pytest.raises(table_news.TableNewsFailed, match="did not take"):
        outbox.deliver(row.pk, final_attempt=True)
    row.refresh_from_db()
    assert row.status == Outbox.Status.FAILED and row.attempts == 2
    sink.status, sink.delay = 200, 0.0
    with pytest.MonkeyPatch.context() as patch:  # the admin's resend, its task run at once
        patch.setattr("django.db.transaction.on_commit", lambda function, robust=False: function())
        assert outbox.send_again([row.pk]) == 1
    row.refresh_from_db()
    assert row.status == Outbox.Status.SENT and len(sink.healthy) == 1
    assert sink.healthy[0]["message"] == row.body_text


def test_a_channel_removed_before_the_delivery_gets_nothing(make_game, sink):
    game = make_game(n_players=3, seed="table-removed")
    TableChannel.objects.create(game=game, url=sink.url)
    play_one(game)
    table.table_channel_remove(game=game)
    (row,) = news_rows(game)
    assert outbox.deliver(row.pk) is True and sink.posts == []


def test_a_table_chat_redirecting_elsewhere_is_not_followed(make_game, sink):
    elsewhere = ChatSink()
    try:
        sink.status, sink.location = 307, f"http://127.0.0.1:{elsewhere.port}/inis-topic"
        game = make_game(n_players=3, seed="table-redirect")
        TableChannel.objects.create(game=game, url=sink.url)
        play_one(game)
        (row,) = news_rows(game)
        with pytest.raises(table_news.TableNewsFailed, match="did not take"):
            outbox.deliver(row.pk)
        assert len(sink.posts) == 1 and elsewhere.posts == []
    finally:
        elsewhere.server.shutdown()
        elsewhere.server.server_close()


# -- the host's control -------------------------------------------------------------------------


@pytest.fixture
def hosted(make_game):
    return make_game(n_players=3, seed="table-host", host=user_for_email("host@example.org"))


def test_the_host_sets_and_removes_the_table_channel_in_their_language(client, hosted, settings, dns):
    settings.CHAT_TARGETS = True
    dns["matrix.org"] = "104.20.20.44"
    url = reverse("lobby:host", args=[hosted.pk])
    client.force_login(hosted.host)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    for address in ("discord://webhook-id/webhook-token", "matrixs://user:token@matrix.org/!room"):
        # docs/notifications.md's examples
        page = client.post(url, {"action": "table_channel", "url": address}, follow=True)
        assert address in page.content.decode()
        channel = TableChannel.objects.get(game=hosted)
        assert channel.url == address and channel.language == "fr"
    client.post(url, {"action": "table_channel_remove"})
    assert not TableChannel.objects.filter(game=hosted).exists()


def test_every_player_reads_in_the_history_that_the_news_go_to_a_chat_never_its_address(
    client, hosted, settings, dns
):
    """A table channel sends the game's news outside the table: every player (and spectator)
    reads in the history that the host did so and on which service, and when it stopped; the
    address, which may hold the chat's secret, is on no page but the host's tools."""
    settings.CHAT_TARGETS = True
    client.force_login(hosted.host)
    address = "discord://webhook-id/webhook-token"
    client.post(reverse("lobby:host", args=[hosted.pk]), {"action": "table_channel", "url": address})
    client.post(reverse("lobby:host", args=[hosted.pk]), {"action": "table_channel_remove"})

    history = Client().get(reverse("games:history", args=[hosted.pk])).content.decode()

    assert "The host sends the game&#x27;s public news to a chat on Discord." in history
    assert "The host stopped sending the game&#x27;s news to a chat." in history
    assert "webhook-token" not in history and "webhook-id" not in history


@pytest.mark.parametrize(
    ("language", "hint", "refusal"),
    [
        (
            "en",
            "The history tells the players that the news go to a chat and on which service, never the address",
            "Give the address of a chat on ntfy, Telegram, Matrix or Discord",
        ),
        (
            "fr",
            "L'historique dit aux joueurs que les nouvelles vont à un salon de discussion et sur quel service, jamais l'adresse",
            "Donnez l'adresse d'une messagerie ntfy, Telegram, Matrix ou Discord",
        ),
    ],
)
def test_the_host_reads_what_the_history_tells_and_a_refused_address_comes_back_as_typed(
    client, hosted, settings, language, hint, refusal
):
    """The history tells every player of a table channel (above): the host's tools say so, and not
    that it is "not recorded in the history". An address of a service the site does not take is
    refused, the page saying why above the address as the host typed it, to correct."""
    settings.CHAT_TARGETS = True
    client.force_login(hosted.host)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    url = reverse("lobby:host", args=[hosted.pk])
    page = client.get(url).content.decode().replace("&#x27;", "'")
    assert hint in page and "Not recorded in the history" not in page

    typed = "slack://T1JJ3T3L2/A1BRTD4JD/TIiajkdnlazkcOXrIdevi7FQ"
    answer = client.post(url, {"action": "table_channel", "url": typed})

    assert answer.status_code == 400
    page = answer.content.decode().replace("&#x27;", "'")
    channel = page[page.index('id="table-channel"') :]
    assert refusal in page and f'value="{typed}"' in channel and "autofocus" in channel
    assert not TableChannel.objects.filter(game=hosted).exists()


def history_of(game) -> str:
    return Client().get(reverse("games:history", args=[game.pk])).content.decode().replace("&#x27;", "'")


def test_the_history_says_the_news_stopped_when_the_host_erases_their_account(client, hosted, settings):
    """docs/notifications.md, "Your table's chat": "The game's history tells every player that
    the news go to a chat [...] and when it stops"; "erasing their account removes it"."""
    from players.erasure import erase_account

    settings.CHAT_TARGETS = True
    client.force_login(hosted.host)
    client.post(
        reverse("lobby:host", args=[hosted.pk]),
        {"action": "table_channel", "url": "discord://webhook-id/webhook-token"},
    )

    erase_account(hosted.host.pk)

    history = history_of(hosted)
    assert not TableChannel.objects.filter(game=hosted).exists()
    assert "The host sends the game's public news to a chat on Discord." in history
    assert "The host left the site: the game's news no longer go to a chat." in history


@pytest.mark.parametrize("how", ["delete page", "delete selected"])
def test_the_history_says_the_news_stopped_when_the_operator_removes_the_channel(
    admin_client, client, hosted, settings, how
):
    """docs/notifications.md, "Your table's chat": the operator "may remove it" in the admin,
    and "The game's history tells every player [...] when it stops"."""
    settings.CHAT_TARGETS = True
    client.force_login(hosted.host)
    client.post(
        reverse("lobby:host", args=[hosted.pk]),
        {"action": "table_channel", "url": "discord://webhook-id/webhook-token"},
    )
    channel = TableChannel.objects.get(game=hosted)

    if how == "delete page":
        answer = admin_client.post(
            reverse("admin:games_tablechannel_delete", args=[channel.pk]), {"post": "yes"}
        )
    else:
        answer = admin_client.post(
            reverse("admin:games_tablechannel_changelist"),
            {"action": "delete_selected", "_selected_action": [channel.pk], "post": "yes"},
        )

    assert answer.status_code == 302 and not TableChannel.objects.filter(game=hosted).exists()
    history = history_of(hosted)
    assert "The site's operator stopped sending the game's news to a chat." in history
    assert "The host stopped" not in history, "the host did not remove it"


@pytest.mark.parametrize(
    "address, says",
    [
        ("ntfy://inis.example.org/hook", "This address points at this site"),
        ("ntfy://inis.example.org./hook", "This address points at this site"),
        ("matrixs://user:token@2130706433/!room", "This address points at a private network"),
        ("json://127.0.0.1:9/hook", "Give the address of a chat on ntfy, Telegram, Matrix or Discord"),
    ],
)
def test_the_host_cannot_point_the_channel_at_the_site_or_a_private_network(
    client, hosted, settings, address, says
):
    settings.CHAT_TARGETS = True
    settings.SITE_URL, settings.ALLOWED_HOSTS = "https://inis.example.org", ["inis.example.org", "testserver"]
    client.force_login(hosted.host)
    page = client.post(
        reverse("lobby:host", args=[hosted.pk]), {"action": "table_channel", "url": address}, follow=True
    )
    assert says in page.content.decode().replace("&#x27;", "'")
    assert not TableChannel.objects.filter(game=hosted).exists()


def test_a_channel_that_leads_to_a_private_address_at_the_post_gets_nothing(make_game, sink, settings):
    """Checked again at each post: a channel kept while its address was taken (here: a
    loopback one, with the tests' setting on) gets nothing once it is refused."""
    game = make_game(n_players=3, seed="table-rebound")
    TableChannel.objects.create(game=game, url=sink.url)
    play_one(game)
    (row,) = news_rows(game)
    settings.LOOPBACK_TARGETS_FOR_TESTS = False
    with pytest.raises(Exception, match="table channel's address is refused now"):
        outbox.deliver(row.pk)
    assert sink.posts == []


def test_only_the_host_sets_the_table_channel(client, hosted, settings):
    settings.CHAT_TARGETS = True
    client.force_login(hosted.seats.get(colour="green").user)
    response = client.post(
        reverse("lobby:host", args=[hosted.pk]), {"action": "table_channel", "url": "discord://1/a"}
    )
    assert response.status_code == 403 and not TableChannel.objects.exists()


def test_with_chat_off_the_host_has_no_table_channel(client, hosted, settings):
    settings.CHAT_TARGETS = False
    client.force_login(hosted.host)
    page = client.get(reverse("lobby:host", args=[hosted.pk])).content.decode()
    assert 'id="table-channel"' not in page
    with pytest.raises(table.TableError, match="not turned on"):
        table.table_channel_set(game=hosted, url="discord://1/a")


# -- hidden information: two deals differing only in hidden cards --------------------------------


@pytest.mark.django_db
def test_two_deals_differing_only_in_hidden_cards_give_the_table_the_same_messages(sink):
    """Green plays New Clans; only `holder` holds Geis, hidden in their hand (reaction mode
    "holders": only the holder is asked). The table reads the same news in both games."""
    messages = {}
    for holder in ("blue", "orange"):
        game = game_at_geis_position(
            holder,
            seed="table-geis",
            email="{colour}@example.org",
            fillers=["act_bard", "act_druid", "act_warlord"],
        )
        TableChannel.objects.create(game=game, url=sink.url)
        play_new_clans(game)
        (row,) = news_rows(game)
        assert outbox.deliver(row.pk) is True
        row.refresh_from_db()
        messages[holder] = row.body_text.replace(f"/games/{game.pk}/", "/games/N/")
    assert messages["blue"] == messages["orange"]
    assert "Waiting for possible Triskel reactions." in messages["blue"]
    assert len(sink.healthy) == 2  # what the table's chat got: the rows' words, once each


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_triskel_policy_set_by_a_player_posts_nothing_to_the_table(make_game, sink, language):
    """A standing Triskel policy is private to its player and no move (docs/rulings.md: what
    the others are told never depends on whether a player set one): set while another player
    must decide, it must not post "Waiting for orange." again to the whole table, telling
    everybody that somebody did something in private."""
    from tests.conftest import drive

    game = make_game(n_players=3, seed="table-policy")
    drive(game, 30)
    TableChannel.objects.create(game=game, url=sink.url, language=language)
    state, seq = store.load(game)
    deciding = {decision.seat for decision in rules.pending(state)}
    quiet = next(seat for seat in game.seats.all() if seat.colour not in deciding)
    never = {"type": "set_policy", "card": "all", "policy": "never"}
    assert submit_command(game=game, seat=quiet, command=never, expected_seq=seq).accepted
    for row in news_rows(game):
        assert outbox.deliver(row.pk) is True
    assert sink.posts == []
    # The next move is told as usual.
    play_one(game)
    last = news_rows(game)[-1]
    assert outbox.deliver(last.pk) is True
    assert len(sink.healthy) == 1


def test_a_draft_pick_that_leaves_the_same_players_choosing_posts_nothing(make_game, sink):
    """A card kept in the draft is hidden, and who still chooses is all the table sees of it:
    a pick after which the same players are still choosing (the picker has the next pack
    already) tells the table nothing, and posts nothing; one that changes who chooses does."""
    from tests.conftest import drive

    game = make_game(n_players=4, seed="table-draft")
    TableChannel.objects.create(game=game, url=sink.url)
    quiet, told = [], []
    for step in range(400):
        if quiet and told:
            break
        state, _seq = store.load(game)
        before = {decision.seat for decision in rules.pending(state)}
        drafting = rules.pending(state)[0].kind == "draft"
        drive(game, 1, seed=f"pick-{step}")  # whichever seat, at random
        if drafting:
            state, _seq = store.load(game)
            after = {decision.seat for decision in rules.pending(state)}
            (quiet if after == before else told).append(news_rows(game)[-1])
    assert quiet and told
    for row in quiet:
        assert outbox.deliver(row.pk) is True
    assert sink.posts == []
    assert outbox.deliver(told[0].pk) is True
    (posted,) = sink.healthy
    assert posted["message"].startswith("Waiting for ")


def test_the_table_reads_its_news_in_the_channels_language(make_game, sink):
    game = make_game(n_players=3, seed="table-fr")
    TableChannel.objects.create(game=game, url=sink.url, language="fr")
    play_one(game)
    (row,) = news_rows(game)
    assert outbox.deliver(row.pk) is True
    (posted,) = sink.healthy
    assert posted["title"] == f"Inis {game.pk} : nouvelles"
    assert "On attend " in posted["message"] and "Waiting" not in posted["message"]


def test_the_french_table_names_who_it_waits_for_as_french_reads(make_game, sink):
    """French elides "de" before a vowel: "En attente de Ann (vert)." or "de Émile" is wrong;
    the table reads "On attend Émile (bleu).", as the "My games" page says "on attend"."""
    for number, name in enumerate(("Ann", "Émile", "Inès"), start=1):
        Player.objects.create(email=f"player{number}@example.org", display_name=name)
    game = make_game(n_players=3, seed="table-fr-names")
    TableChannel.objects.create(game=game, url=sink.url, language="fr")
    play_one(game)
    (row,) = news_rows(game)
    assert outbox.deliver(row.pk) is True
    (posted,) = sink.healthy
    state, _seq = store.load(game)
    (waiting,) = {decision.seat for decision in rules.pending(state)}
    with translation.override("fr"):
        colour = rules.colour_name(waiting)
    name = {"green": "Ann", "blue": "Émile", "orange": "Inès"}[waiting]
    assert f"\nOn attend {name} ({colour}).\n" in posted["message"]
    assert "En attente de" not in posted["message"]


def test_the_table_is_told_the_result(db, sink):
    """email_positions.END: the last Season of a game (round 3), played on until green is
    elected at the Assembly; the table's last message says the game is over, and who won."""
    from tests.conftest import drive
    from tests.notifications.email_positions import END, game_from

    game = game_from(END, seed="table-result")
    TableChannel.objects.create(game=game, url=sink.url)
    drive(game, 60, until=rules.is_over)
    assert rules.is_over(store.load(game)[0])
    last = news_rows(game)[-1]
    assert outbox.deliver(last.pk) is True
    (posted,) = sink.healthy
    assert posted["title"] == f"Inis {game.pk}: the game is over"
    assert "Green is elected High King." in posted["message"]
    assert "Waiting for" not in posted["message"] and "Deadline" not in posted["message"]


# -- a game over: the address is the host's to remove, and the site forgets it ------------------


@pytest.fixture
def over(db, settings):
    """A game played to its end (email_positions.END: green is elected High King) whose host
    set a table channel while it was in progress (its address holding a Telegram bot's token)."""
    from tests.conftest import drive
    from tests.notifications.email_positions import END, game_from

    settings.CHAT_TARGETS = True
    game = game_from(END, seed="table-over", host=user_for_email("host@example.org"))
    TableChannel.objects.create(game=game, url="tgram://123456:host-bot-secret/777")
    drive(game, 60, until=rules.is_over)
    game.refresh_from_db()
    assert game.is_over
    return game


def test_the_host_removes_the_table_channel_of_a_game_over(client, over):
    """docs/notifications.md, "Your table's chat": once the game is over, the host tools still
    show the address to the host, with **Remove the table channel**; nothing is recorded in the
    history, which ended with the game."""
    client.force_login(over.host)
    url = reverse("lobby:host", args=[over.pk])
    page = client.get(url).content.decode()
    assert 'id="table-channel"' in page and "tgram://123456:host-bot-secret/777" in page
    assert 'value="table_channel_remove"' in page and 'value="table_channel"' not in page
    recorded = over.table_events.count()

    page = client.post(url, {"action": "table_channel_remove"}, follow=True).content.decode()

    assert "The table channel is removed." in page and "host-bot-secret" not in page
    assert not TableChannel.objects.filter(game=over).exists()
    assert over.table_events.count() == recorded and "stopped sending" not in history_of(over)


def test_only_the_host_removes_the_table_channel_of_a_game_over(client, over):
    """The trust rule: a player of the game (here green, who won) forging the host's POST is
    refused with a sentence, the address stays and is not shown to them."""
    client.force_login(over.seats.get(colour="green").user)
    answer = client.post(reverse("lobby:host", args=[over.pk]), {"action": "table_channel_remove"})
    text = answer.content.decode()
    assert answer.status_code == 403 and "Only the host of this game has these tools." in text
    assert "host-bot-secret" not in text
    assert TableChannel.objects.filter(game=over).exists()


def test_no_player_or_spectator_page_of_a_game_over_shows_the_address(client, over):
    """The address may hold the chat service's secret: the game's page and history, for its
    players and for anybody, never show any part of it."""
    pages = [reverse("games:detail", args=[over.pk]), reverse("games:history", args=[over.pk])]
    readers = [Client(), client]
    client.force_login(over.seats.get(colour="blue").user)
    for reader in readers:
        for page in pages:
            text = reader.get(page).content.decode()
            assert "host-bot-secret" not in text and "123456" not in text, page


def test_the_sweep_forgets_the_table_channel_some_days_after_the_game_ended(over, settings):
    """docs/privacy.md: a table channel's address is deleted TABLE_CHANNEL_KEEP_DAYS after its
    game ended (its result had time to be retried and sent again), not before; a game in
    progress keeps its own."""
    from datetime import timedelta

    from games.models import Event
    from inis_pbem.tasks import sweep
    from tests.notifications.email_positions import END, game_from

    in_progress = game_from(END, seed="table-in-progress", host=over.host)
    TableChannel.objects.create(game=in_progress, url="tgram://654321:other-secret/888")
    ended_at = Event.objects.filter(game=over).order_by("-seq").values_list("recorded_at", flat=True)[0]

    assert table.forget_ended_table_channels(keep_days=7, now=ended_at + timedelta(days=6, hours=23)) == 0
    assert TableChannel.objects.filter(game=over).exists()
    assert table.forget_ended_table_channels(keep_days=7, now=ended_at + timedelta(days=7, minutes=1)) == 1
    assert not TableChannel.objects.filter(game=over).exists()
    assert TableChannel.objects.filter(game=in_progress).exists()

    # The sweep does it with the setting (0: at the first sweep after the end).
    TableChannel.objects.create(game=over, url="tgram://123456:host-bot-secret/777")
    settings.TABLE_CHANNEL_KEEP_DAYS = 0
    assert sweep.apply().result["table_channels_forgotten"] == 1
    assert not TableChannel.objects.filter(game=over).exists()
    assert TableChannel.objects.filter(game=in_progress).exists()


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "Green took back their last move."), ("fr", "Vert a repris son dernier coup.")],
)
def test_a_take_back_is_told_to_the_table_in_words_without_event_numbers(make_game, sink, language, said):
    """A group chat shows no event numbers: "took back their last move (events 173–174)" means
    nothing there. The table reads who took back their move, in words; the history page, which
    numbers its events, keeps the numbers."""
    from games.services import take_back
    from tests.games.play.test_take_backs import NEW_CLANS, green_plays

    game, green, _blue, _before = green_plays(make_game, NEW_CLANS)
    TableChannel.objects.create(game=game, url=sink.url, language=language)
    result = take_back(game=game, seat=green, expected_seq=store.head(game)[0], command_id="web:tb-table")
    assert result.accepted, result.message
    row = news_rows(game)[-1]
    assert outbox.deliver(row.pk) is True
    (posted,) = sink.healthy
    assert posted["message"].startswith(said + "\n"), posted["message"]
    assert "–" not in posted["message"] and "events" not in posted["message"]
    assert "événements" not in posted["message"]
