"""The game page's small web push control (`{% push_control %}`): for the seat's own player,
signed in, with web push on, the button that turns push on or off on this device (static/push.js);
nothing for anybody else (a device gets the player's decisions in every game:
`players.push_devices`)."""

from __future__ import annotations

from django import template
from django.conf import settings

from notifications.push_views import push_enabled

register = template.Library()


@register.inclusion_tag("notifications/_push_control.html", takes_context=True)
def push_control(context) -> dict:
    """{"show", "key", "csrf_token"}: shown to the signed-in player of the page's `seat`."""
    request = context.get("request")
    user = getattr(request, "user", None)
    seat = context.get("seat")
    show = bool(
        push_enabled()
        and seat is not None
        and user is not None
        and user.is_authenticated
        and seat.user_id == user.pk
        and not getattr(context.get("game"), "is_over", False)
    )
    return {"show": show, "key": settings.WEB_PUSH_VAPID_PUBLIC_KEY, "csrf_token": context.get("csrf_token")}
