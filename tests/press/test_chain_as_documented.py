"""The table talk's chain checked from the docs' words alone (docs/press.md, "The log of what was
said"; docs/privacy.md, "The words digest"), with nothing of the service but its export: what a
player writing their own verifier would do. Only Python's hashlib, hmac and json."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path

import pytest
from django.conf import settings

from games.store.exports import export_game
from press.services import press_send


def canonical_json(value) -> str:
    """docs/press.md: JSON with sorted keys, no spaces, non-ASCII characters as themselves."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def hmac_hex(key: str, text: str) -> str:
    """docs/press.md: the key is the salt's hex digits as text, not the bytes they spell."""
    return hmac.new(key.encode("ascii"), text.encode("utf-8"), hashlib.sha256).hexdigest()


@pytest.fixture
def game(make_game):
    game = make_game(3, seed="chain-as-documented")
    green, blue, orange = (game.seats.get(colour=c) for c in ("green", "blue", "orange"))
    press_send(game=game, seat=green, to=None, text="Bonne chance à tous.")
    press_send(game=game, seat=green, to="blue", text="Le Val est à toi, l'Île à moi.")
    press_send(game=game, seat=orange, to=None, text="We shall see.")
    press_send(game=game, seat=blue, to="green", text="Marché conclu.")
    return game


@pytest.mark.parametrize("viewer", ["blue", "orange", None])
def test_every_link_and_words_digest_follows_the_documented_formulas(game, viewer):
    export = json.loads(json.dumps(export_game(game=game, colour=viewer)))
    assert export["game"]["chain_version"] == 2
    shown = {entry["number"]: entry for entry in export["press"]}
    proofs = {proof["number"]: proof for proof in export["proofs"]["press"]}
    hidden = {link["number"]: link for link in export["proofs"].get("press_hidden", [])}
    assert sorted([*shown, *hidden]) == [1, 2, 3, 4], "every link is in the export"

    prev_hash = export["game"]["seed_commitment"]
    for number in (1, 2, 3, 4):
        if number in hidden:  # a message this reader may not read: its link only
            link = hidden[number]
            assert link["prev_hash"] == prev_hash
            assert (
                sha256_hex(prev_hash + canonical_json(["press", number, link["hidden_digest"]]))
                == link["hash"]
            )
            prev_hash = link["hash"]
            continue
        entry = shown[number]
        assert entry["prev_hash"] == prev_hash
        # docs/privacy.md: words_digest = HMAC-SHA256(the words salt's hex digits, the words).
        assert hmac_hex(entry["words_salt"], entry["text"]) == entry["words_digest"]
        text = {"sealed": entry["sealed"], "words": entry["words_digest"]}
        if entry["recipients"] is None:
            body = ["press", number, entry["at_seq"], entry["sender"], None, text, entry["sent_at"]]
        else:
            salt = proofs[number]["salt"]
            assert len(salt) == 64
            fields = [entry["at_seq"], entry["sender"], entry["recipients"], text, entry["sent_at"]]
            digest = hmac_hex(salt, canonical_json(fields))
            assert digest == proofs[number]["hidden_digest"]
            # Read as the 32 bytes the digits spell, the key gives another digest: the docs say which.
            spelled = hmac.new(bytes.fromhex(salt), canonical_json(fields).encode(), hashlib.sha256)
            assert spelled.hexdigest() != digest
            body = ["press", number, digest]
        assert sha256_hex(prev_hash + canonical_json(body)) == entry["hash"]
        prev_hash = entry["hash"]


def test_the_docs_name_the_keys_this_test_uses():
    """The formulas above are the docs' own: the HMAC keys are the salts' hex digits as text."""
    docs = Path(settings.BASE_DIR) / "docs"
    press = " ".join((docs / "press.md").read_text().split())
    privacy = " ".join((docs / "privacy.md").read_text().split())
    assert "the key of a hidden digest is the salt's 64 hex digits as text (64 ASCII bytes)" in press
    assert "key = the words salt's 32 hex digits as ASCII bytes, not the 16 bytes they spell" in privacy
