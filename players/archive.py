"""A person's data in one archive (GDPR articles 15 and 20; docs/privacy.md): a zip of JSON
files, one per kind of data, and a README (English and French) saying what each holds.

Each room that keeps something about a person gives its files through its personal data holder
(`players.personal_data`, `collect`); this module adds the account and preferences and writes
the zip. Only the person's own data, and what their seats were allowed to read: the table talk
they sent and received, the game exports of their finished games as their seat sees them.
"""

from __future__ import annotations

import io
import json
import zipfile

from django.contrib.auth import get_user_model

from players.models import Player
from players.personal_data import Person, holders

README = """Your data from Inis by email / Vos données d'Inis by email
==========================================================

English
-------
Each file is JSON (UTF-8). Times are ISO 8601, UTC.

- account.json: your account (address, when it was made, last sign-in).
- preferences.json: your email preferences (delivery, language, time zone, vacation, name, and
  email_after_push: how many seconds a decision's email waits after its push, null: never).
- profile.json: what you chose about your profile page ("hidden": true when strangers, who
  never sat at a game with you, are not shown it).
- seats.json: every seat you played: game, colour, the game's status, when you handed it over
  (null while it is yours), and your moves there (each command as recorded, with the length of
  the game's log it was made against).
- standing_orders.json: the standing orders you left in games in progress.
- table_channels.json: the table channel of each game you host (the chat address you set for
  its public news, its language, when you set it).
- tables.json: the tables you proposed: their number, when, the set-up and options you chose,
  open to anyone or by invitation, language, rated or not, the game a rematch asks again, where
  each stands ("open", "started" with its game's number, "cancelled", "closed"); never whom you
  asked.
- invitations.json: your places at tables: the table's and game's numbers, whether it is your
  own table, your place's number, how you came ("asked", "joined" an open table, "rematch"),
  your answer ("pending", "accepted", "declined") and when.
- talk.json: the table talk you sent and received, per game, as your seat may read it (at a seat
  that changed hands, only what you wrote and the talk of your own time at it).
- emails_to_you.json: the emails the site sent you, as stored (emails older than the site's
  retention period were deleted or emptied).
- your_replies.json: the emails you sent to the site, as stored (same retention).
- push_devices.json: the devices that get your pushes (their name, the push service's address).
- chat_target.json: the chat address you set for your decisions (null: none).
- blocks.json: the players you blocked (the address of their profile page), since when.
- follows.json: the public games you follow (their number), since when.
- reports.json: the reports you sent to the operator: when, about which message (game and
  message numbers) or player (their profile page), your reason, and where it stands ("new",
  "seen", "acted").
- games/<number>.json: the export of each finished game you played, as your seat sees it (as a
  spectator sees it, for a seat you handed over); check it offline with
  "python -m games.verify games/<number>.json".

Français
--------
Chaque fichier est en JSON (UTF-8). Les heures sont en ISO 8601, UTC.

- account.json : votre compte (adresse, date de création, dernière connexion).
- preferences.json : vos préférences d'email (envoi, langue, fuseau horaire, vacances, nom, et
  email_after_push : combien de secondes l'email d'une décision attend après sa notification,
  null : jamais).
- profile.json : ce que vous avez choisi pour votre page de profil (« hidden » : true quand les
  inconnus, qui n'ont jamais joué une partie avec vous, ne la voient pas).
- seats.json : chaque place que vous avez jouée : partie, couleur, état de la partie, quand vous
  l'avez cédée (null tant qu'elle est la vôtre), et vos coups à cette place (chaque commande telle
  qu'enregistrée, avec la longueur du journal de la partie).
- standing_orders.json : les ordres permanents laissés dans les parties en cours.
- table_channels.json : le canal de table de chaque partie que vous organisez (l'adresse de
  discussion choisie pour ses nouvelles publiques, sa langue, quand vous l'avez choisie).
- tables.json : les tables que vous avez proposées : leur numéro, quand, la mise en place et les
  options choisies, ouverte à tous ou sur invitation, la langue, classée ou non, la partie
  qu'une revanche rejoue, où chacune en est (« open » : ouverte, « started » : commencée, avec
  le numéro de sa partie, « cancelled » : annulée, « closed » : fermée) ; jamais qui vous avez
  invité.
- invitations.json : vos places aux tables : les numéros de la table et de la partie, si c'est
  votre propre table, le numéro de votre place, comment vous êtes venu (« asked » : invité,
  « joined » : à une table ouverte, « rematch » : revanche), votre réponse (« pending » : en
  attente, « accepted » : acceptée, « declined » : refusée) et quand.
- talk.json : les messages de table envoyés et reçus, par partie, tels que votre place peut les lire
  (à une place qui a changé de mains, seulement ce que vous avez écrit et les messages de votre
  temps à cette place).
- emails_to_you.json : les emails que le site vous a envoyés, tels que conservés (ceux plus
  anciens que la durée de conservation du site ont été supprimés ou vidés).
- your_replies.json : les emails que vous avez envoyés au site, tels que conservés (même durée).
- push_devices.json : les appareils qui reçoivent vos notifications (leur nom, l'adresse du
  service de notification).
- chat_target.json : l'adresse de discussion choisie pour vos décisions (null : aucune).
- blocks.json : les joueurs que vous avez bloqués (l'adresse de leur profil), depuis quand.
- follows.json : les parties publiques que vous suivez (leur numéro), depuis quand.
- reports.json : vos signalements à l'opérateur : quand, sur quel message (numéros de la partie
  et du message) ou quel joueur (son profil), votre raison, et où il en est (« new » : nouveau,
  « seen » : vu, « acted » : traité).
- games/<numéro>.json : l'export de chaque partie terminée que vous avez jouée, vu de votre
  place (vu d'un spectateur, pour une place que vous avez cédée) ; vérifiez-le hors ligne avec « python -m games.verify games/<numéro>.json ».
"""


def _account(user) -> dict:
    return {
        "email": user.email,
        "date_joined": user.date_joined.isoformat(),
        "last_login": user.last_login.isoformat() if user.last_login else None,
    }


def _preferences(email: str) -> dict:
    player = Player.objects.filter(email=email).first()
    if player is None:
        return {}
    fields = ("delivery", "news", "time_zone", "language", "display_name", "acceptances", "email_after_push")
    found: dict[str, object] = {name: getattr(player, name) for name in fields}
    found.update(
        confirm_moves=player.confirm_moves,
        forced_moves_at_once=player.forced_moves_at_once,
        away_from=player.away_from.isoformat() if player.away_from else None,
        away_until=player.away_until.isoformat() if player.away_until else None,
    )
    return found


def build_archive(user_id: int) -> bytes:
    """The zip of the account `user_id`'s data (see the module docstring), as bytes. Raises
    LookupError for an account that does not exist."""
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        raise LookupError(f"no account {user_id}")
    player = Player.objects.filter(email=user.email).first()
    person = Person(user_id=user_id, email=user.email, name=player.display_name if player else "")
    files: dict[str, object] = {"account.json": _account(user), "preferences.json": _preferences(user.email)}
    for holder in holders():
        if holder.collect is not None:
            files.update(holder.collect(person))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("README.txt", README)
        for name, value in sorted(files.items()):
            archive.writestr(name, json.dumps(value, ensure_ascii=False, indent=2, default=str))
    return buffer.getvalue()
