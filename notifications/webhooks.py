"""The inbound webhooks of the providers we document (Postmark, Mailgun): anymail's own views,
which authenticate the post and hand each message to `notifications.inbound` through anymail's
inbound signal, with one difference: a message whose addresses no mailbox can have (anymail
raises AnymailInvalidAddress while normalising it, e.g. a forged `.@a.example`), or a header
Python's mail parser cannot read (`Message-ID: <>`, `bob@[10.0.0.1`: `notifications.mail_headers`),
is dropped with a 200 and a log line. Anymail would answer 500, and the provider would post it
again for days, holding up nothing but itself; nobody can be answered at such an address, and a
message anybody can send must not jam the webhook.
"""

from __future__ import annotations

import logging

from anymail.exceptions import AnymailInvalidAddress
from anymail.webhooks.mailgun import MailgunInboundWebhookView
from anymail.webhooks.postmark import PostmarkInboundWebhookView

from notifications.mail_headers import UNREADABLE

logger = logging.getLogger(__name__)


class DropsImpossibleAddresses:
    """Mixin for an anymail inbound webhook view: `parse_events` gives no event (so the view
    answers 200 and nothing is stored) when the message holds an address that is no address, or
    a header that cannot be parsed."""

    def parse_events(self, request):
        try:
            return super().parse_events(request)
        except AnymailInvalidAddress as error:
            logger.warning("Inbound %s message dropped: %s", self.esp_name, error)
            return []
        except UNREADABLE as error:  # raised by Python's header parser inside anymail's
            logger.warning("Inbound %s message dropped: a header cannot be read (%r)", self.esp_name, error)
            return []


class PostmarkInbound(DropsImpossibleAddresses, PostmarkInboundWebhookView):
    """Postmark's inbound webhook (docs/email-commands.md, "Setting up inbound mail")."""


class MailgunInbound(DropsImpossibleAddresses, MailgunInboundWebhookView):
    """Mailgun's inbound webhook, raw MIME or parsed fields."""
