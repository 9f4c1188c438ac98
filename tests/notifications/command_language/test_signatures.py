"""Signatures under a command: mobile mail apps' lines and a name with a phone number.

docs/email-commands.md, "Several commands in one reply": "Ignored: ... everything from a
signature separator (`-- `), a `Sent from my phone` line (`Envoyé de mon iPhone`, `Get Outlook
for iOS`, `Obtenir Outlook pour Android`, `Envoyé à partir de Courrier pour Windows`, `Sent with
Proton Mail`...) or a line that is only a phone number (`06 12 34 56 78`, `+33 6 12 34 56 78`,
`Tél. : +1 (555) 123-4567`: eight digits or more); ... and any line in which nothing at all is
recognised (a name under the reply), as long as another line holds a command. Alone, such a line
is answered as not understood".

The parser tests' Season turn (no database), then end to end through `manage.py receive_email`
with a French Gmail reply.
"""

from __future__ import annotations

import pytest

from games.rules import InvalidCommand
from notifications.command_language import found_no_command
from players.models import Player
from tests.notifications import mail_clients
from tests.notifications.command_language.test_parser import command, refusal, reply, season_table
from tests.notifications.email_positions import END, game_from
from tests.notifications.test_inbound import feed, last_to, prompt_for, send_all

MOVES = [("en", "pass"), ("fr", "passer")]

# As the apps write them in a plain-text part: the link in angle brackets right after a word.
MOBILE_SIGNATURES = [
    "Obtenir Outlook pour iOS<https://aka.ms/o0ukef>",
    "Obtenir Outlook pour Android<https://aka.ms/AAb9ysg>",
    "Get Outlook for iOS<https://aka.ms/o0ukef>",
    "Télécharger Outlook pour Android<https://aka.ms/ghei36>",
    "Envoyé à partir de Outlook pour Android<https://aka.ms/AAb9ysg>",
    "Envoyé à partir de Courrier<https://go.microsoft.com/fwlink/?LinkId=550986> pour Windows",
    "Sent from Mail<https://go.microsoft.com/fwlink/?LinkId=550986> for Windows",
    "Sent with Proton Mail<https://proton.me/mail/home> secure email.",
    "Envoyé avec la messagerie sécurisée Proton Mail<https://proton.me/mail/home>.",
    "Sent via the Samsung Galaxy S21 5G, an AT&T 5G smartphone",
    "Envoyé depuis mon mobile",
    "Envoyé de mon appareil Galaxy",
    "Sent from Yahoo Mail on Android<https://go.onelink.me/107872968?pid=InProduct>",
    "Envoyé de Yahoo Mail pour Android<https://go.onelink.me/107872968?pid=InProduct>",
    "Sent from my Galaxy",
]

PHONES = [
    "06 12 34 56 78",
    "06.12.34.56.78",
    "06-12-34-56-78",
    "0612345678",
    "+33 6 12 34 56 78",
    "+33 (0)6 12 34 56 78",
    "+1 (555) 123-4567",
    "Tél. : 06 12 34 56 78",
    "Tél. : +1 (555) 123-4567",
    "Mobile: +33 6 12 34 56 78",
    "Portable : 06 12 34 56 78",
]


@pytest.mark.parametrize("signature", MOBILE_SIGNATURES)
@pytest.mark.parametrize("language, move", MOVES)
def test_a_mobile_signature_under_a_command_is_ignored(signature, language, move):
    text = f"{move}\n\n{signature}\n"
    assert reply(season_table(), "green", text, language=language) == [{"type": "pass"}]


@pytest.mark.parametrize("phone", PHONES)
@pytest.mark.parametrize("name", ["Alice Martin", "Alice", "Alice Martin,"])
@pytest.mark.parametrize("language, move", MOVES)
def test_a_name_and_a_phone_number_under_a_command_are_ignored(phone, name, language, move):
    # "Alice Martin," ends with a comma (a wrapped line) and "+33..." opens with a plus (a
    # continued one): the phone number is joined to neither.
    text = f"{move}\n\n{name}\n{phone}\n"
    assert reply(season_table(), "green", text, language=language) == [{"type": "pass"}]


def test_an_option_number_above_a_phone_number_is_read_alone():
    table = season_table()
    assert reply(table, "green", "3\n\nAlice Martin\n06 12 34 56 78") == [table.legal("green")[2]]


def test_what_follows_a_phone_number_is_signature_too():
    text = "pass\n\nAlice Martin\n+33 6 12 34 56 78\nalice@example.org\n12 rue de la Vallée\n75002 Paris\n"
    assert reply(season_table(), "green", text) == [{"type": "pass"}]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_phone_number_alone_is_no_command_and_its_digits_are_not_shown_as_one(language):
    message = refusal(InvalidCommand, season_table(), "green", "06 12 34 56 78", language=language)
    assert "6,12" not in message
    assert message.startswith(
        "I found no command in your reply." if language == "en" else "Je n'ai trouvé aucune commande"
    )
    with pytest.raises(InvalidCommand) as error:
        reply(season_table(), "green", "+33 6 12 34 56 78", language=language)
    assert found_no_command(error.value)


def test_numbers_that_are_commands_are_still_read():
    """An option number ("3", "#3") and a line continued with "+" stay commands: the phone
    number has eight digits or more, and no command line is digits only but those."""
    table = season_table()
    legal = table.legal("green")
    assert reply(table, "green", "3") == [legal[2]]
    assert reply(table, "green", "#3") == [legal[2]]
    migration = {"type": "play", "card": "act_migration", "from": "valley", "moves": {"cove": 2, "plains": 1}}
    assert command(table, "green", "play migration from valley: 2 to cove\n+ 1 to plains") == migration
    assert command(table, "green", "play migration from valley: 2 to cove,\n1 to plains") == migration


# -- end to end ----------------------------------------------------------------------------------

PLAYER = "player1@example.org"  # green in END: its Season turn, "pass" or "pretender"


@pytest.mark.parametrize(
    "words",
    [
        "passer\n\nAlice Martin\n06 12 34 56 78",
        "passer\n\nAlice\n+33 6 12 34 56 78",
        "passer\n\nObtenir Outlook pour iOS<https://aka.ms/o0ukef>",
        "passer\n\nObtenir Outlook pour Android<https://aka.ms/AAb9ysg>",
    ],
)
def test_a_french_reply_with_a_signature_is_accepted(db, words):
    game = game_from(END, seed="signatures")
    send_all()
    Player.objects.update_or_create(email=PLAYER, defaults={"language": "fr"})

    status = feed(mail_clients.gmail_french(prompt_for(game, "green"), words))

    assert status.startswith("accepted"), status
    assert "J'ai lu votre réponse ainsi : Passer." in last_to(PLAYER).body
