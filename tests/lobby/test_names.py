"""Names, not addresses: a new player is asked for their name at the table at first sign-in
("My games"); the lobby and the invitation email name the host by it, never by their address;
the reaction mode is said in words, not as "holders"."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils.html import strip_tags

from lobby import services
from players.accounts import user_for_email
from players.models import Player

pytestmark = pytest.mark.django_db(transaction=True)


def title(page: str) -> str:
    """The page's heading as it reads, without its tags (the host's name may be a link)."""
    found = re.search(r"<h1>(.*?)</h1>", page, re.S)
    assert found is not None, "the page has no heading"
    return strip_tags(found.group(1)).strip()


def propose(host, *emails):
    places = [services.PlaceSpec(email=e) for e in emails]
    return services.proposal_create(
        host=host,
        places=places,
        host_plays=True,
        setup="discovery",
        deadlines={"default": 24, "reaction": 6},
        reaction_mode="holders",
    )


def test_a_new_player_is_asked_for_a_name_then_not_again(client):
    user = user_for_email("ann@example.org")
    client.force_login(user)
    home = client.get(reverse("lobby:home")).content.decode()
    assert 'id="your-name"' in home

    refused = client.post(reverse("lobby:name"), {"display_name": "ann@example.org"})
    assert refused.status_code == 400 and "not an email address" in refused.content.decode()

    saved = client.post(reverse("lobby:name"), {"display_name": "  Ann  of the Isles "}, follow=True)
    assert "Other players now see you as Ann of the Isles." in saved.content.decode()
    assert Player.objects.get(email="ann@example.org").display_name == "Ann of the Isles"
    assert 'id="your-name"' not in client.get(reverse("lobby:home")).content.decode()


def test_the_lobby_and_the_invitation_name_the_host_never_by_address(client):
    host = user_for_email("ann@example.org")
    Player.objects.update_or_create(email="ann@example.org", defaults={"display_name": "Ann"})
    proposal = propose(host, "bob@example.org")
    bob = user_for_email("bob@example.org")
    client.force_login(bob)

    home = client.get(reverse("lobby:home")).content.decode()
    page = client.get(reverse("lobby:proposal", args=[proposal.pk])).content.decode()

    assert "Ann invites you to a game" in home and "ann@example.org" not in home
    assert title(page) == "A game of Inis by Ann" and "ann@example.org" not in page
    assert "only the players who can answer are asked" in page and "holders" not in page
    invitation = next(m for m in mail.outbox if m.to == ["bob@example.org"])
    assert "Ann invites you" in invitation.body and "ann@example.org" not in invitation.body


def test_a_host_without_a_name_is_named_by_the_start_of_the_address(client):
    host = user_for_email("carol@example.org")
    proposal = propose(host, "dan@example.org")
    client.force_login(user_for_email("dan@example.org"))

    page = client.get(reverse("lobby:proposal", args=[proposal.pk])).content.decode()

    assert title(page) == "A game of Inis by carol" and "carol@example.org" not in page


def test_the_hosts_name_in_the_title_links_to_their_profile_unless_they_hide_it(client):
    host = user_for_email("erin@example.org")
    Player.objects.update_or_create(email="erin@example.org", defaults={"display_name": "Erin"})
    proposal = propose(host, "finn@example.org")
    client.force_login(user_for_email("finn@example.org"))
    address = reverse("lobby:proposal", args=[proposal.pk])
    profile = reverse("community:profile", args=[host.pk])

    page = client.get(address).content.decode()
    assert f'A game of Inis by <a href="{profile}">Erin</a></h1>' in page

    owner = Client()
    owner.force_login(host)
    owner.post(reverse("community:profile_visibility"), {"hidden": "1"})
    page = client.get(address).content.decode()
    assert title(page) == "A game of Inis by Erin" and f'href="{profile}"' not in page


@pytest.mark.parametrize(
    "taken, chosen",
    [
        ("Brigid", "brigid"),  # case
        ("Brigid", "ＢＲＩＧＩＤ"),  # full-width letters (NFKC)
        ("Brigid", "Вrigid"),  # a Cyrillic В
        ("Brigid", "Br1gid"),  # 1 for i
        ("Brigid", "Brígid"),  # an accent
        ("Orla", "0rla"),  # 0 for O
        ("Cam", "Carn"),  # rn for m
        ("Aoife", "Αoife"),  # a Greek Alpha
        ("Clara", "CIara"),  # a capital I for l
        ("Dara", "CIara"),  # ... and "cl" for d
    ],
)
def test_a_name_that_passes_for_another_players_is_refused_at_sign_up(client, taken, chosen):
    Player.objects.create(email="first@example.org", display_name=taken)
    client.force_login(user_for_email("second@example.org"))
    refused = client.post(reverse("lobby:name"), {"display_name": chosen})
    assert refused.status_code == 400
    assert "Another player already has that name, or one that looks just like it" in refused.content.decode()
    assert not Player.objects.filter(email="second@example.org").exclude(display_name="").exists()


@pytest.mark.parametrize("taken, chosen", [("Ciara", "Dara"), ("Dara", "Ciara"), ("Ciara", "Clara")])
def test_two_names_a_reader_tells_apart_are_both_free(client, taken, chosen):
    """A small i has its dot: "Ciara" passes neither for "Clara" nor, through "cl" for d, for
    "Dara" (found on the demo: Dara was refused at a table where Ciara sat)."""
    Player.objects.create(email="first@example.org", display_name=taken)
    client.force_login(user_for_email("second@example.org"))
    assert client.post(reverse("lobby:name"), {"display_name": chosen}).status_code == 302
    assert Player.objects.get(email="second@example.org").display_name == chosen


@pytest.mark.parametrize("chosen", ["Hard bot", "the stand-in", "Remplaçant", "ROBOT", "easy"])
def test_the_names_of_bots_and_of_the_stand_in_are_reserved(client, chosen):
    client.force_login(user_for_email("second@example.org"))
    refused = client.post(reverse("lobby:name"), {"display_name": chosen})
    assert refused.status_code == 400
    assert "That name is the site&#x27;s own (for a bot or the stand-in)" in refused.content.decode()


@pytest.mark.parametrize(
    "chosen",
    [
        "Player 2 (left)",
        "player 12 (LEFT)",
        "Joueur 3 (parti)",
        "a player with no name yet",
        "A player who left",
        "un joueur parti",
        "Strong bot",
        "Robot difficile",
    ],
)
def test_the_words_the_site_gives_a_seat_are_reserved_in_both_languages(client, chosen):
    """docs/profiles.md, "Names": a name "may not pass for … a name the site gives". A player
    named "Player 2 (left)" would read, beside the seat of a player who erased their account,
    as that seat; "a player with no name yet" as somebody else."""
    client.force_login(user_for_email("second@example.org"))
    refused = client.post(reverse("lobby:name"), {"display_name": chosen})
    assert refused.status_code == 400
    assert "That name is the site&#x27;s own" in refused.content.decode()
    assert not Player.objects.filter(email="second@example.org").exclude(display_name="").exists()


@pytest.mark.parametrize("chosen", ["Player Two", "Joueur", "Leftie"])
def test_a_name_near_the_sites_words_is_free(client, chosen):
    client.force_login(user_for_email("second@example.org"))
    assert client.post(reverse("lobby:name"), {"display_name": chosen}).status_code == 302


def test_a_player_keeps_their_own_name_and_a_different_one_is_free(client):
    from players.forms import PreferencesForm

    Player.objects.create(email="first@example.org", display_name="Brigid")
    data = {"display_name": "BRIGID", "delivery": "prompt", "time_zone": "UTC", "language": "en"}
    assert PreferencesForm(data, signed_in=True, email="first@example.org").is_valid()
    refused = PreferencesForm(data, signed_in=True, email="second@example.org")
    assert not refused.is_valid() and "looks just like it" in str(refused.errors["display_name"])
    client.force_login(user_for_email("second@example.org"))
    saved = client.post(reverse("lobby:name"), {"display_name": "Brigit"}, follow=True)
    assert "Other players now see you as Brigit." in saved.content.decode()


@pytest.mark.parametrize(
    "chosen",
    [
        "A\u2060nn",  # a word joiner, drawn as nothing
        "An\u200bn",  # a zero-width space
        "A\u00adnn",  # a soft hyphen, shown only at the end of a line
        "\u202ennA",  # a right-to-left override: "nnA" is drawn "Ann"
        "\u2067Ann\u2069",  # a right-to-left isolate
        "Ann\ufeff",  # a byte order mark
        "A\u034fnn",  # the combining grapheme joiner
        "Ann\u3164",  # a Hangul filler, a blank letter
        "Ann\ufe0f",  # a variation selector
        "Inis\u2060",  # the site's own name
        "Ann\x9b",  # a C1 control character
    ],
)
def test_a_name_with_characters_that_do_not_show_is_refused(client, chosen):
    """docs/profiles.md, "Names": a name may not pass for another player's. "A<word joiner>nn"
    is drawn "Ann" on every page and in every email, but no look-alike letter is in it: the
    invisible and direction-changing characters are refused, in English and in French, and
    nothing is saved."""
    Player.objects.create(email="first@example.org", display_name="Ann")
    client.force_login(user_for_email("second@example.org"))
    refused = client.post(reverse("lobby:name"), {"display_name": chosen})
    assert refused.status_code == 400
    assert "Only characters that show: no invisible ones, nor ones that turn the text around." in (
        refused.content.decode().replace("&#x27;", "'")
    )
    refused = client.post(reverse("lobby:name"), {"display_name": chosen}, HTTP_ACCEPT_LANGUAGE="fr")
    assert "Seulement des caractères visibles" in refused.content.decode()
    assert not Player.objects.filter(email="second@example.org").exclude(display_name="").exists()


def test_a_name_chosen_with_a_hidden_character_before_the_rule_still_passes_for_its_name(client):
    """A name saved before the rule ("A<word joiner>nn") keeps its place, and the real "Ann"
    reads the same: the second to choose it is refused as a look-alike."""
    Player.objects.create(email="first@example.org", display_name="A\u2060nn")
    client.force_login(user_for_email("second@example.org"))
    refused = client.post(reverse("lobby:name"), {"display_name": "Ann"})
    assert refused.status_code == 400
    assert "looks just like it" in refused.content.decode()


def test_a_name_with_accents_piled_on_one_letter_is_refused_and_vietnamese_is_free(client):
    client.force_login(user_for_email("second@example.org"))
    refused = client.post(reverse("lobby:name"), {"display_name": "Z" + "\u0301" * 12 + "oe"})
    assert refused.status_code == 400 and "Too many accents on one letter." in refused.content.decode()
    assert client.post(reverse("lobby:name"), {"display_name": "Nguyễn Thị Ệ"}).status_code == 302
    assert Player.objects.get(email="second@example.org").display_name == "Nguyễn Thị Ệ"


@pytest.mark.parametrize(
    "chosen", ["Blue", "BLEU", "Verts", "0range", "wh1te", "Ann (green)", "Bob [bleu]", "Cy (left, white)"]
)
def test_a_name_that_is_a_colour_or_holds_one_in_brackets_is_refused(client, chosen):
    """docs/profiles.md, "Names": the pages name a seat whose player chose no name by its
    colour, and every player by their name and colour, "Ann (green)". The orange player named
    "Blue" wrote "Blue (orange) to everyone" beside the real blue's "blue to everyone"; one named
    "Ann (green)" read as Ann's seat. Refused in English and French, nothing saved."""
    client.force_login(user_for_email("second@example.org"))
    refused = client.post(reverse("lobby:name"), {"display_name": chosen})
    assert refused.status_code == 400
    assert "A colour names a seat at the table" in refused.content.decode()
    french = client.post(reverse("lobby:name"), {"display_name": chosen}, HTTP_ACCEPT_LANGUAGE="fr")
    assert "Une couleur désigne une place à la table" in french.content.decode()
    assert not Player.objects.filter(email="second@example.org").exclude(display_name="").exists()


@pytest.mark.parametrize("chosen", ["Greenwood", "Ann (the bold)", "Blanche", "Orla of the Blue Hills"])
def test_a_name_near_a_colour_is_free(client, chosen):
    client.force_login(user_for_email("second@example.org"))
    assert client.post(reverse("lobby:name"), {"display_name": chosen}).status_code == 302
