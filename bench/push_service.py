"""A push service of one's own (RFC 8030), on 127.0.0.1, for the tests (tests/notifications,
tests/browser) and the bench's reach rows (`bench.reach`): it records each push posted to it
with the time it came, answers with the status the caller sets for an endpoint (201 by
default), and, holding the device's private keys, decrypts the payload (RFC 8291, aes128gcm)
and checks the VAPID signature (RFC 8292) as a real push service and browser would."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_point(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


def vapid_pair() -> tuple[str, str]:
    """(private key as PEM, public key as base64url of its point): WEB_PUSH_VAPID_* values."""
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    return pem, b64url(public_point(key))


@dataclass
class Device:
    """A browser's subscription: its endpoint and the keys only it holds."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def keys(self) -> dict:
        return {"p256dh": b64url(public_point(self.key)), "auth": b64url(self.auth)}

    def decrypt(self, body: bytes) -> dict:
        return json.loads(
            http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        )


@dataclass
class Push:
    """One push received: the endpoint's path, the request's headers, the encrypted body, and
    `at`, when it came (`time.time()`, seconds)."""

    path: str
    headers: dict
    body: bytes
    at: float = 0.0


class PushService:
    """Run with `start()`; `devices` made with `device()`; `pushes` received; `status[path]`."""

    def __init__(self):
        self.pushes: list[Push] = []
        self.status: dict[str, int] = {}
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                service.pushes.append(Push(self.path, dict(self.headers.items()), body, time.time()))
                self.send_response(service.status.get(self.path, 201))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._count = 0

    def start(self) -> PushService:
        # stop()'s shutdown() waits for the loop's next look at its flag: every 0.05 s, not 0.5 s.
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def device(self) -> Device:
        self._count += 1
        return Device(f"{self.base}/push/{self._count}")

    def to(self, device: Device) -> list[Push]:
        return [push for push in self.pushes if self.base + push.path == device.endpoint]


def check_vapid(push: Push, public_key: str, audience: str) -> dict:
    """The claims of the push's VAPID JWT, after checking it is signed (ES256) by `public_key`
    for `audience`; raises AssertionError or cryptography's InvalidSignature."""
    headers = {name.lower(): value for name, value in push.headers.items()}
    assert "authorization" in headers, sorted(headers)
    scheme, _space, params = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == public_key
    header, claims, signature = fields["t"].split(".")
    raw = unb64url(signature)
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    key.verify(
        encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
        f"{header}.{claims}".encode(),
        ec.ECDSA(hashes.SHA256()),
    )
    decoded = json.loads(unb64url(claims))
    assert decoded["aud"] == audience
    return decoded
