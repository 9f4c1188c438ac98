"""The maneuver Withdraw is "Quitter le territoire" in French, as the French rulebook names it
(docs/translation.md): in a standing order, its error, the email help and the history. The word
players type for it, "quitter", is read in a move and in an order; "retraite" is read still."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.models import StandingOrder
from games.play import standing_orders
from games.story import event_text
from notifications.command_language.help import describe_syntax
from notifications.command_language.orders import read_order_line


def test_a_withdraw_order_and_its_error_say_quitter_le_territoire():
    order = StandingOrder(kind="withdraw", body={"to": ["cove", "moor"]})
    with translation.override("fr"):
        assert (
            standing_orders.describe(order)
            == "Dans un conflit, quitter le territoire vers le premier possible parmi : Anse, Lande."
        )
        with pytest.raises(standing_orders.OrderError) as refused:
            standing_orders.clean({"kind": "withdraw", "to": []})
    assert (
        str(refused.value)
        == "Nommez les territoires vers lesquels quitter le territoire, le premier choix d'abord."
    )
    with translation.override("en"):
        assert standing_orders.describe(order) == "In a clash, withdraw to the first I can of: Cove, Moor."


def test_the_email_help_shows_quitter_and_orders_read_it():
    help_text = describe_syntax("maneuver", "fr")
    assert "« quitter 2 vers plaine » ou « quitter 1 vers plaine, 1 vers anse »" in help_text
    assert "retraite" not in help_text
    assert 'withdraw 2 to plains" or "withdraw 1 to plains, 1 to cove"' in describe_syntax("maneuver", "en")
    for words in (
        "ordre : quitter anse, vallée",
        "ordre : retraite anse, vallée",
        "ordre : repli anse, vallée",
    ):
        assert read_order_line(words, "fr") == [
            {"type": "standing_order", "order": {"kind": "withdraw", "to": ["cove", "valley"]}}
        ], words


def test_the_history_names_the_maneuver_as_the_rulebook_does():
    payload = {"seat": "green", "maneuver": "withdraw", "territory": "moor"}
    with translation.override("fr"):
        line = event_text.describe_event("ManeuverPerformed", payload, viewer="blue")
    assert line == "Vert a effectué une manœuvre (Quitter le territoire) dans la Lande."
    with translation.override("en"):
        assert "(withdraw)" in event_text.describe_event("ManeuverPerformed", payload, viewer="blue")
