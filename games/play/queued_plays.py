"""The Season cards a standing order may queue, and how a queued play names each one's targets
(docs/standing-orders.md, `queue_play`; docs/email-commands.md, "Standing orders").

Both sides of an order read these tables: the order language of the channels
(`notifications.command_language.orders`, which reads a queued play's targets in this shape and
refuses the other cards) and `games.play.standing_orders` (which refuses a queued card the seat
does not hold, offering only the cards it could queue instead). They live apart from the
standing orders' models so that the order language, pure Python, can read them without Django.
"""

from __future__ import annotations

# How a queued Season card's targets are written, per card: the fields docs/commands.md gives them.
QUEUE_SHAPES = {
    "act_bard": (),
    "act_druid": (),
    "act_exploration": (),
    "act_citadel": ("territory",),
    "act_festival": ("territory",),
    "act_sanctuary": ("territory",),
    "act_warlord": ("territory",),
    "act_new_clans": ("territories",),
    "act_emissaries": ("from", "to"),
    "act_scouts_spies": ("opponent",),
}
# The Season cards that cannot be queued, by email or on the game page (whose orders panel takes
# the same words): their plays take more than the targets an order line names (clans from several
# places, cards to choose). Every Season Action card is in one of the two tables
# (tests/test_card_registry.py); no other card can be queued.
NOT_QUEUED = frozenset(
    {"act_conquest", "act_craftsmen_peasants", "act_master_craftsman", "act_migration", "act_new_alliance"}
)
