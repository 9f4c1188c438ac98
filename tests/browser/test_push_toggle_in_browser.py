"""In Chromium, the button that turns push on and off in this browser (static/push.js): it says
push is on only when the browser's subscription is one of the signed-in player's devices. A
sign-out removes the device turned on in that browser but the browser keeps its subscription:
the next person signed in there is offered "Turn on", not told push is on for them
(docs/notifications.md, "Signing out")."""

from __future__ import annotations

import pytest

from bench.push_service import vapid_pair
from tests.browser.test_table_in_browser import signed_in

pytestmark = pytest.mark.django_db(transaction=True)

ENDPOINT = "https://push.example.net/send/this-browser"
# The browser's push service is out of reach of the tests: the subscription it holds is stood
# for (its endpoint is all the page's script reads before a press).
HOLDS_A_SUBSCRIPTION = (
    "PushManager.prototype.getSubscription = function () {"
    f"  return Promise.resolve({{endpoint: {ENDPOINT!r}, unsubscribe: function () {{ return Promise.resolve(true); }}}});"
    "};"
)


@pytest.mark.parametrize("a_device_of_the_player, says", [(True, "Turn off"), (False, "Turn on")])
def test_the_button_says_on_only_for_a_subscription_the_player_has_as_a_device(
    site, new_context, settings, a_device_of_the_player, says
):
    from players import preferences
    from players.accounts import user_for_email
    from players.models import PushSubscription

    settings.WEB_PUSH = True
    settings.WEB_PUSH_VAPID_PRIVATE_KEY, settings.WEB_PUSH_VAPID_PUBLIC_KEY = vapid_pair()
    user = user_for_email("green@example.org")
    if a_device_of_the_player:
        PushSubscription.objects.create(
            player=preferences.player_for(user.email), endpoint=ENDPOINT, p256dh="k", auth="a", device="test"
        )
    context = new_context()
    context.add_init_script(HOLDS_A_SUBSCRIPTION)

    page = signed_in(site, context, user, "/preferences/")

    # aria-pressed is set once the script has decided (the button may show before it does).
    button = page.locator("[data-push] button[aria-pressed]")
    button.wait_for()
    assert button.inner_text().startswith(says)
