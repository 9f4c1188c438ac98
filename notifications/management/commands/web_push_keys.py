"""manage.py web_push_keys: a new VAPID key pair for web push, as the two lines of /etc/inis.env
(docs/operations.md, "Web push")."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Command(BaseCommand):
    help = "Print a new VAPID key pair for web push as WEB_PUSH_VAPID_PRIVATE_KEY and _PUBLIC_KEY lines."

    def handle(self, *args, **options) -> None:
        """Two lines: `WEB_PUSH_VAPID_PRIVATE_KEY=` the base64url of the P-256 private key's 32
        bytes, `WEB_PUSH_VAPID_PUBLIC_KEY=` the base64url of its public point (65 bytes,
        uncompressed: what browsers take as `applicationServerKey`)."""
        key = ec.generate_private_key(ec.SECP256R1())
        private = key.private_numbers().private_value.to_bytes(32, "big")
        public = key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.stdout.write(f"WEB_PUSH_VAPID_PRIVATE_KEY={_b64url(private)}")
        self.stdout.write(f"WEB_PUSH_VAPID_PUBLIC_KEY={_b64url(public)}")
