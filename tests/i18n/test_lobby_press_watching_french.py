"""The lobby, table talk and the spectators' pages in French (docs/translation.md).

A visitor whose browser asks for French, and a signed-in player who chose French (whatever their
browser asks), read these pages in French: the welcome and sign-in pages, "My games", a new game,
a game being gathered, the host's tools, the table-talk panel and its refusals, "Games to watch"
and the unsubscribe page; the seat colours in words ("vert"), never as data. English is unchanged.
A new player starts with the language their browser asked for, and the language switch of every
page keeps a signed-in player's choice.
"""

from __future__ import annotations

import html
import re
from datetime import UTC

import pytest
from django.urls import reverse
from django.utils import translation

from games.record.options import table_options
from lobby import mail, services
from notifications.models import NewsItem
from players.accounts import user_for_email
from players.models import Player
from press import waiting_talk
from press.services import MAX_CHARS, PressRefused, press_send
from tests.i18n.leftover_english import leftovers
from watching.links import unsubscribe_token

pytestmark = pytest.mark.django_db

FR = {"HTTP_ACCEPT_LANGUAGE": "fr"}
# Words these pages write alike in both languages, besides tests/i18n/leftover_english.SHARED_WORDS:
# the game's name, a bot, a pause, public, the UTC clock, the strict reaction mode, a few common
# words ("site", "moment", "places", "types"), and the French elisions n' and s' (English has them
# as "don't" and "'s"), the pronoun "me" ("Me prévenir quand c'est mon tour"), and "English", the
# footer's switch to English named in its own language (a word of the catalogues since "a README
# in English and French").
PAGE_WORDS = frozenset(
    {
        "inis",
        "bot",
        "bots",
        "pause",
        "public",
        "normal",
        "strict",
        "utc",
        "site",
        "moment",
        "places",
        "types",
        "n",
        "s",
        "me",
        "english",
    }
)


def visible(response) -> str:
    """The text a reader sees in the page's main part (tags, scripts and styles dropped)."""
    body = response.content.decode()
    main = body[body.index("<main>") : body.index("</main>")] if "<main>" in body else body
    main = re.sub(r"<(script|style)\b.*?</\1>", " ", main, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", main)).split())


def english_left(response, *allowed: str) -> list[str]:
    """English words left in the French page's main part (email addresses and `allowed` put aside)."""
    text = re.sub(r"\S+@\S+", " ", visible(response))
    for words in allowed:
        text = text.replace(words, " ")
    return [w for w in leftovers(text) if w not in PAGE_WORDS]


def french_player(email: str):
    user = user_for_email(email)
    Player.objects.update_or_create(email=user.email, defaults={"language": "fr"})
    return user


@pytest.fixture
def host():
    return user_for_email("host@example.org")


@pytest.fixture
def game(make_game, host):
    return make_game(4, seed="french-lobby", host=host, options={**table_options(), "public": True})


# -- a visitor, by the browser's Accept-Language ------------------------------------------------


def test_a_visitor_whose_browser_asks_for_french_reads_the_welcome_page_in_french(client):
    page = client.get(reverse("lobby:home"), **FR)
    text = visible(page)
    assert '<html lang="fr">' in page.content.decode()
    assert "Pas de mot de passe : nous vous envoyons un lien par email." in text
    assert "M'envoyer un lien" in text and "Regarder les parties en cours" in text
    assert "Se connecter" in page.content.decode() and "Parties à regarder" in page.content.decode()
    assert english_left(page, "Inis by email") == []


def test_english_stays_as_it_was(client):
    page = client.get(reverse("lobby:home"))
    text = visible(page)
    assert '<html lang="en">' in page.content.decode()
    assert "No password: we email you a link." in text and "Email me a link" in text
    assert "Watch the games in progress" in text
    sent = visible(client.post(reverse("lobby:sign_in"), {"email": "someone@example.org"}))
    assert "A sign-in link is on its way to someone@example.org. Open it on this device or any other." in sent


def test_the_sign_in_pages_in_french(client):
    assert "Pas de mot de passe : nous vous envoyons par email un lien qui vous connecte." in visible(
        client.get(reverse("lobby:sign_in"), **FR)
    )
    sent = client.post(reverse("lobby:sign_in"), {"email": "quelqu.un@example.org"}, **FR)
    assert "Un lien de connexion est en route vers quelqu.un@example.org." in visible(sent)
    refused = client.post(reverse("lobby:sign_in"), {"email": "pas une adresse"}, **FR)
    assert "Saisissez une adresse de courriel valide." in visible(refused)  # Django's own French


def test_too_many_sign_in_links_are_refused_in_french(client, settings):
    settings.SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR = 1
    client.post(reverse("lobby:sign_in"), {"email": "vite@example.org"}, **FR)
    page = client.post(reverse("lobby:sign_in"), {"email": "vite@example.org"}, **FR)
    assert page.status_code == 429
    assert "Trop de liens de connexion demandés" in visible(page)
    assert english_left(page, "Inis by email") == []


# -- a new player's language ----------------------------------------------------------------------


def test_a_new_player_starts_with_the_language_their_browser_asked_for(client):
    client.post(reverse("lobby:sign_in"), {"email": "Nouvelle@Example.org"}, **FR)
    client.post(
        reverse("lobby:sign_in"), {"email": "newcomer@example.org"}, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9"
    )
    assert Player.objects.get(email="nouvelle@example.org").language == "fr"
    assert Player.objects.get(email="newcomer@example.org").language == "en"


def test_a_player_who_exists_keeps_their_language(client):
    Player.objects.create(email="fidele@example.org", language="en")
    client.post(reverse("lobby:sign_in"), {"email": "fidele@example.org"}, **FR)
    assert Player.objects.get(email="fidele@example.org").language == "en"


def test_the_lobbys_emails_are_written_in_their_recipients_language(client, host, monkeypatch):
    """The sign-in link to a new player from a French browser is rendered in French; an invitation
    to an address that has no player yet, in English (templates/emails hold the words)."""
    rendered = []
    render = mail.render_email
    monkeypatch.setattr(
        mail,
        "render_email",
        lambda name, context, headers: (
            rendered.append((name, translation.get_language())) or render(name, context, headers=headers)
        ),
    )
    client.post(reverse("lobby:sign_in"), {"email": "courrier@example.org"}, **FR)
    Player.objects.create(email=host.email, language="fr")
    services.proposal_create(
        host=host,
        places=[
            services.PlaceSpec(email="inconnu@example.org"),
            services.PlaceSpec(email="courrier@example.org"),
        ],
        host_plays=True,
        setup="random",
        deadlines={"default": 24},
        reaction_mode="holders",
    )
    assert rendered == [("sign_in", "fr"), ("invitation", "en"), ("invitation", "fr")]
    assert mail.recipient_language("Courrier@Example.org ") == "fr"


# -- the language switch --------------------------------------------------------------------------


def test_the_language_switch_of_a_visitor_sets_the_language_cookie(client):
    response = client.post(reverse("lobby:language"), {"language": "fr", "next": reverse("watching:list")})
    assert response.status_code == 302 and response.url == reverse("watching:list")
    assert "Parties à regarder" in visible(client.get(response.url))
    assert "English" in client.get(response.url).content.decode()  # the way back, named in English


def test_the_language_switch_of_a_player_saves_their_choice(client):
    user = user_for_email("choix@example.org")
    client.force_login(user)
    assert "My games" in visible(client.get(reverse("lobby:home")))
    client.post(reverse("lobby:language"), {"language": "fr", "next": "/"})
    assert Player.objects.get(email="choix@example.org").language == "fr"
    # Every page of the session, and the player's emails from now on, follow it.
    assert "Mes parties" in visible(client.get(reverse("lobby:home"), HTTP_ACCEPT_LANGUAGE="en"))
    client.post(reverse("lobby:language"), {"language": "en", "next": "/"})
    assert Player.objects.get(email="choix@example.org").language == "en"
    assert "My games" in visible(client.get(reverse("lobby:home"), **FR))


# -- a signed-in player who chose French ----------------------------------------------------------


def test_my_games_in_french_names_the_colours_in_french(client, game):
    green = game.seats.get(colour="green").user
    Player.objects.update_or_create(email=green.email, defaults={"language": "fr"})
    client.force_login(green)
    page = client.get(reverse("lobby:home"))  # no Accept-Language: the player's choice decides
    text = visible(page)
    assert "Mes parties" in text and "Vous jouez" in text and "Lancer une nouvelle partie" in text
    row = text[text.index(f"Partie {game.pk}") :]
    assert "vert" in row.split("Lancer")[0] and " green " not in f" {row} "
    assert english_left(page, "Inis by email") == []


def test_a_new_game_in_french_with_its_refusals(client):
    client.force_login(french_player("hote@example.org"))
    page = client.get(reverse("lobby:new"))
    text = visible(page)
    for words in (
        "Une nouvelle partie",
        "Je joue aussi (première place)",
        "Île aléatoire",
        "Réactions Triskel",
        "Seulement qui peut répondre",
        "Discussion privée à la table",
        "Envoyer les invitations",
    ):
        assert words in text
    assert english_left(page, "Inis by email") == []
    refused = client.post(
        reverse("lobby:new"),
        {
            "host_plays": "on",
            "bots": "0",
            "setup": "random",
            "deadlines": "normal",
            "reaction_mode": "holders",
        },
    )
    assert refused.status_code == 400 and "Inis se joue de 2 à 4 joueurs, pas à 1." in visible(refused)


def test_a_game_being_gathered_in_french(client, host):
    Player.objects.create(email=host.email, language="fr")
    proposal = services.proposal_create(
        host=host,
        places=[services.PlaceSpec(email="ami@example.org")],
        host_plays=True,
        setup="discovery",
        deadlines={"default": 24},
        reaction_mode="holders",
    )
    client.force_login(host)
    page = client.get(reverse("lobby:proposal", args=[proposal.pk]))
    text = visible(page)
    assert "Une partie d'Inis dont vous êtes l'hôte" in text  # the host reads their own table so
    assert (
        "En attente de joueurs. 2 places, mise en place découverte, 24 heures par décision, "
        "réactions Triskel : seuls les joueurs qui peuvent répondre sont consultés."
    ) in text
    assert "en attente d'une réponse" in text and "Annuler cette partie" in text
    # "host": the host's name at the table (the part of their address before "@": no name set).
    assert english_left(page, "Inis by email", " host ") == []
    done = client.post(reverse("lobby:proposal", args=[proposal.pk]), {"action": "cancel"}, follow=True)
    assert "La partie est annulée." in visible(done)


def test_the_proposal_page_in_english_is_unchanged(client, host):
    proposal = services.proposal_create(
        host=host,
        places=[services.PlaceSpec(email="friend@example.org")],
        host_plays=True,
        setup="discovery",
        deadlines={"default": 24},
        reaction_mode="holders",
    )
    client.force_login(host)
    text = visible(client.get(reverse("lobby:proposal", args=[proposal.pk])))
    assert (
        "Waiting for players. 2 seats, discovery set-up, 24 hours per decision, "
        "Triskel reactions: only the players who can answer are asked."
    ) in text


def test_the_host_tools_in_french(client, game, host):
    Player.objects.create(email=host.email, language="fr")
    client.force_login(host)
    page = client.get(reverse("lobby:host", args=[game.pk]))
    text = visible(page)
    assert f"Partie {game.pk} : outils de l'hôte" in text and "Prolonger un délai" in text
    assert '<option value="" selected>toutes les places</option>' in page.content.decode()
    assert '<option value="green">vert</option>' in page.content.decode()
    assert english_left(page, "Inis by email") == []
    done = client.post(
        reverse("lobby:host", args=[game.pk]), {"action": "replace", "seat": "blue", "email": ""}, follow=True
    )
    assert "bleu est désormais joué par le bot." in visible(done)


# -- table talk -----------------------------------------------------------------------------------


def test_every_refusal_of_a_message_has_its_reason_in_french(game, settings):
    green = game.seats.get(colour="green")
    with translation.override("fr"):
        reasons = []
        for to, text in (
            (None, "   "),
            (None, "x" * (MAX_CHARS + 1)),
            ("violet", "Salut"),
            ("vert", "Moi"),
        ):
            with pytest.raises(PressRefused) as refused:
                press_send(game=game, seat=green, to=to, text=text)
            reasons.append(str(refused.value))
        settings.PRESS_MESSAGES_PER_HOUR = 1
        press_send(game=game, seat=green, to=None, text="Bonjour.")
        with pytest.raises(PressRefused) as limited:
            press_send(game=game, seat=green, to=None, text="Encore.")
    assert reasons == [
        "Il est vide.",
        "Il fait 2\xa0001 caractères, et la limite est de 2\xa0000 : raccourcissez-le, ou envoyez-le en "
        "plusieurs parties.",
        "Il n'y a pas de « violet » à cette table : vous pouvez écrire à bleu, orange, blanc, ou à tous.",
        "Ce message vous était adressé à vous-même : écrivez à une autre couleur, ou à tous.",
    ]
    assert str(limited.value) == (
        "Vous avez envoyé 1 message cette heure-ci, le maximum pour un joueur : réessayez l'heure prochaine."
    )
    for reason in reasons + [str(limited.value)]:
        assert [w for w in leftovers(reason) if w not in PAGE_WORDS] == []


def test_the_same_refusals_in_english_are_unchanged(game):
    green = game.seats.get(colour="green")
    with pytest.raises(
        PressRefused,
        match="^There is no “violet” at this table: you may write to blue, orange, white, or to everyone.$",
    ):
        press_send(game=game, seat=green, to="violet", text="Hi")
    with pytest.raises(PressRefused, match="^It is 2,001 characters long, and the limit is 2,000: "):
        press_send(game=game, seat=green, to=None, text="x" * (MAX_CHARS + 1))


def test_the_table_talk_form_refuses_in_french(client, game):
    client.force_login(french_player(game.seats.get(colour="green").email))
    page = client.post(reverse("press:send", args=[game.pk]), {"seat": "green", "to": "all", "text": " "})
    text = visible(page)
    assert page.status_code == 400
    assert f"Partie {game.pk} : votre message n'a pas été envoyé" in text
    assert "Votre message n'a pas été envoyé. Il est vide." in text
    assert "toute la table" in text and "bleu seulement" in text and "Retour à la partie" in text
    assert english_left(page, "Inis by email") == []


def test_the_table_talk_panel_in_french(client, game):
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    client.force_login(french_player(green.email))
    sent = client.post(
        reverse("press:send", args=[game.pk]),
        {"seat": "green", "to": "all", "text": "Bonne chance."},
        follow=True,
    )
    press_send(game=game, seat=blue, to="green", text="Alliance ?")
    assert "Votre message à toute la table a été envoyé." in visible(sent)
    page = visible(client.get(reverse("games:detail", args=[game.pk])))
    panel = page[page.index("Discussion à la table") :]
    assert "Vous à tous" in panel and "bleu à vous seulement" in panel
    assert "Alliance ?" in panel and "Bonne chance." in panel


def test_table_talk_relayed_to_a_french_player_in_a_digest_line(game):
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    Player.objects.update_or_create(
        email=blue.email, defaults={"language": "fr", "delivery": Player.Delivery.DIGEST}
    )
    press_send(game=game, seat=green, to="blue", text="Je garde la Vallée.")
    press_send(game=game, seat=green, to=None, text="Bonjour à tous.")
    lines = list(NewsItem.objects.filter(seat=blue).order_by("id").values_list("text", flat=True))
    assert lines == ["vert à vous : « Je garde la Vallée. »", "vert à tous : « Bonjour à tous. »"]
    # The prompt that goes before the digest finds them again (written in the same language).
    assert waiting_talk.waiting_lines(blue, Player.objects.get(email=blue.email)) == lines


def test_table_talk_relayed_by_email_is_written_in_each_readers_language(game, monkeypatch):
    from notifications import prompts

    green = game.seats.get(colour="green")
    Player.objects.update_or_create(email=game.seats.get(colour="blue").email, defaults={"language": "fr"})
    rendered = []
    render = prompts.render_email
    monkeypatch.setattr(
        prompts,
        "render_email",
        lambda name, context, headers: (
            rendered.append((context["colour"], translation.get_language()))
            or render(name, context, headers=headers)
        ),
    )
    press_send(game=game, seat=green, to=None, text="Bonjour, hello.")
    assert sorted(rendered) == [("blue", "fr"), ("orange", "en"), ("white", "en")]


def test_a_table_talk_line_in_english_is_unchanged(game):
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    Player.objects.update_or_create(email=blue.email, defaults={"delivery": Player.Delivery.DIGEST})
    press_send(game=game, seat=green, to="blue", text="Deal?")
    assert NewsItem.objects.get(seat=blue).text == "green to you: “Deal?”"


# -- spectators -----------------------------------------------------------------------------------


def test_games_to_watch_in_french(client, game):
    page = client.get(reverse("watching:list"), **FR)
    text = visible(page)
    assert "Parties à regarder" in text and "En cours" in text and "Terminées récemment" in text
    assert f"Partie {game.pk}" in text and "vert, bleu, orange, blanc" in text
    assert (
        "Se connecter pour suivre" in text and "Aucune partie publique ne s'est terminée récemment." in text
    )
    assert english_left(page, "Inis by email") == []


def test_following_in_french(client, game):
    user = french_player("spectatrice@example.org")
    client.force_login(user)
    page = client.post(reverse("watching:follow", args=[game.pk]), follow=True)
    assert (
        f"Vous suivez la partie {game.pk} : ses nouvelles arrivent une fois par jour par email, "
        "à spectatrice@example.org."
    ) in visible(page)
    assert "Ne plus suivre" in visible(page)
    page = client.post(reverse("watching:unfollow", args=[game.pk]), follow=True)
    assert f"Vous ne suivez plus la partie {game.pk}." in visible(page)


def test_the_unsubscribe_page_in_french(client, game):
    user = user_for_email("lecteur@example.org")
    token = unsubscribe_token(user_id=user.pk, game_id=game.pk)
    page = client.get(reverse("watching:unsubscribe", args=[token]), **FR)
    assert f"Plus de nouvelles de la partie {game.pk} par email." in visible(page)
    done = client.post(reverse("watching:unsubscribe", args=[token]), **FR)
    assert f"C'est fait : vous ne suivez plus la partie {game.pk}" in visible(done)
    assert english_left(done, "Inis by email") == []


def test_a_french_followers_digest_tells_the_table_talk_in_french(game):
    """The follower digest is written in the follower's language when they also play; the talk to
    the whole table is told in it ("Vert, à toute la table : « … »"), a private message never."""
    from datetime import datetime

    from notifications.models import Outbox
    from watching import digest
    from watching.services import follow

    fan = french_player("fan@example.org")
    follow(user=fan, game=game)
    green = game.seats.get(colour="green")
    press_send(game=game, seat=green, to=None, text="La paix dans la Lande ?")
    press_send(game=game, seat=green, to="blue", text="Un secret")
    assert digest.send_follower_digest(fan.pk, now=datetime(2031, 5, 6, 8, 0, tzinfo=UTC)) > 0
    row = Outbox.objects.get(kind=Outbox.Kind.FOLLOWER_DIGEST)
    assert "Vert, à toute la table : « La paix dans la Lande ? »" in row.body_text
    assert "Un secret" not in row.body_text + row.body_html


def test_an_english_followers_digest_is_unchanged(game):
    from datetime import datetime

    from notifications.models import Outbox
    from watching import digest
    from watching.services import follow

    fan = user_for_email("fan@example.org")
    follow(user=fan, game=game)
    press_send(game=game, seat=game.seats.get(colour="green"), to=None, text="Peace?")
    assert digest.send_follower_digest(fan.pk, now=datetime(2031, 5, 6, 8, 0, tzinfo=UTC)) > 0
    assert (
        "Green, to the whole table: “Peace?”"
        in Outbox.objects.get(kind=Outbox.Kind.FOLLOWER_DIGEST).body_text
    )
