"""Rules revisions: which fixes of the rules a game plays with.

A fix that changes what the rules decide (an event added, a command refused or allowed, a
Triskel window asking other seats) would make the audit of a game begun before it report events
the rules no longer give: `verify_game` and `python -m games.verify` deal the game again and
decide every recorded command again. So such a fix applies from a revision on, and a game keeps
the revision it began with, read from its `GameStarted` event:

- 1: the games created before 2026-11-30. Their options carry `"rules_revision": 1` (a
  migration of `games` gave it to every game then stored), which `start_game` reads and never
  records, as their `GameStarted` never had it.
- 2: Gates of Tír na nÓg and Stone Circle drawn among the starting tiles enter play with their
  Sanctuary (docs/rulings.md, "Starting tiles with a Sanctuary"); a clan that Diarmuid and
  Gráinne places elsewhere counts as removed for Bard (ruling "Removed by a maneuver"); Warlord's
  Triskel half needs exposed clans in the clash, not clans in a Citadel there (ruling "Involved
  in a clash"); a card cancelled by Geis or The Dagda opens the "after you play a Season card"
  window (Cove, Lost Vale, Salt Mine, Valley), and the Forest answers every Epic Tale you play,
  cancelled ones and The Dagda and Dagda's Cauldron included (ruling "A cancelled card was
  played"); New Alliance with the reserve empty may still return an opponent's clan (ruling
  "New Alliance with the reserve empty"); the card named as Master Craftsman's discard (the
  Moor, The Dagda, the Forest, the Meadows) cannot be played before Master Craftsman resolves
  (ruling "Master Craftsman (Season half)"); a player whose Triskel card was played in a window
  is asked again in it while it holds another card answering the same trigger (ruling "Several
  Triskel cards for one trigger").
- 3: Battle Frenzy played at the end of the Citadels step makes the answers given ahead for the
  start of the Resolution step lapse: their players are asked then, knowing who is exposed
  (ruling "One Triskel question per clash step": the Highlands' instigator).
- 4: Warlord's Triskel half is offered with the reserve empty, for its second part alone: its
  player chooses who performs the next maneuver, placing no clan (ruling "Warlord with the
  reserve empty").

`start_game` records the revision in `GameStarted` (its option `rules_revision`, default
`CURRENT`) from 2 on. A fix that changes no decision (a wording, a refusal's message) needs no
revision; nor does one that only accepts a command the rules used to refuse, leaving the events
of every accepted command as they were (a peace proposal while a Triskel window is open, ruling
"Peace while a Triskel window is open"): no recorded game holds that command.
"""

from __future__ import annotations

from .state import GameState

CURRENT = 4
REVISIONS = (1, 2, 3, 4)


def revision(state: GameState) -> int:
    """The rules revision `state`'s game plays with: its `GameStarted` options' `rules_revision`,
    1 when they have none (a game begun before revisions were recorded)."""
    return int(state.options.get("rules_revision", 1))
