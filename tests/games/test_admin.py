"""games.admin: the log is read-only in the admin; the seed stays hidden until the end."""

from __future__ import annotations

from django.contrib.admin.sites import site
from django.test import RequestFactory

from games.models import Command, Event


def test_events_and_commands_cannot_be_added_changed_or_deleted(admin_user, make_game):
    game = make_game()
    request = RequestFactory().get("/admin/")
    request.user = admin_user
    for model in (Event, Command):
        model_admin = site._registry[model]
        obj = model.objects.filter(game=game).first()
        assert not model_admin.has_add_permission(request)
        assert not model_admin.has_change_permission(request, obj)
        assert not model_admin.has_delete_permission(request, obj)


def test_the_game_admin_never_shows_the_seed_of_a_game_in_progress(admin_client, make_game):
    game = make_game(seed="admin-secret-seed")
    page = admin_client.get(f"/admin/games/game/{game.pk}/change/")
    assert page.status_code == 200
    assert "admin-secret-seed" not in page.content.decode()
    assert game.seed_commitment in page.content.decode()
    events = admin_client.get("/admin/games/event/")
    assert events.status_code == 200


def test_an_operator_sees_and_removes_a_table_channel(admin_client, make_game):
    """A host's table channel (the chat address getting the game's public news) is listed for
    the operator, who may remove it (a host who asks, an address that misbehaves)."""
    from games.models import TableChannel

    game = make_game()
    channel = TableChannel.objects.create(game=game, url="tgram://host-token/42")
    listed = admin_client.get("/admin/games/tablechannel/")
    assert listed.status_code == 200 and f"table channel of game {game.pk}" in listed.content.decode()
    shown = admin_client.get(f"/admin/games/tablechannel/{channel.pk}/change/")
    assert "tgram://host-token/42" in shown.content.decode()
    assert (
        admin_client.post(f"/admin/games/tablechannel/{channel.pk}/delete/", {"post": "yes"}).status_code
        == 302
    )
    assert not TableChannel.objects.exists()
