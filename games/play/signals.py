"""Signals of the play room, so that the rooms above react without the play room importing them.

Each is sent inside the transaction that made the change, before it commits: a receiver's writes
commit or roll back with it, and a receiver that raises rolls the whole change back.

events_recorded: sent by the command path (`games.play.commands`) after it appended events.
    Keyword arguments: game (Game; `game.seats.all()` costs no query: the append read the seats
    with its row lock), state (GameState after the new events; do not modify it),
    pending_before (list[rules.Decision] before them), first_seq, last_seq (int, the new events),
    events (list of (seq, rules.Event): the new events as stored, or None: read them if needed),
    seat (the Seat whose command made them, None for the set-up), command_id (that command's
    idempotency key, or None), prev_hash, last_hash (the hashes of events first_seq - 1
    and last_seq, or None). The seats' clocks listen (`games.play.clocks`).

decisions_changed: sent by the clocks (`games.play.clocks`) once they followed the new events,
    when the game has player seats: "the decisions of this game changed". The mail listens and
    writes its prompts, news and game-over emails. Keyword arguments: those of events_recorded
    but pending_before and seat, and: clocks (list of SeatClock, one per player seat with an
    address, in seating order, locked; each with `.seat`, `.player` (its `players.Player`),
    `.change` (one of `games.play.clocks.Change`), and the columns registered with
    `games.play.sql.register_clock_column`), updates (`games.play.clocks.ClockUpdate`: the
    clocks' update, which a receiver writing rows anyway may carry in its own statement),
    acting_seat_id (the acting seat's id, or None), now (the time the clocks used).

stand_in_started: sent when a seat's missed deadlines hand it to the stand-in bot
    (`games.play.standins`); the mail tells the player. Keyword arguments: game, clock (the
    seat's SeatClock, with `.seat`).

player_left: sent when the player of a seat in a game in progress erased their account and the
    stand-in bot plays the seat now (`games.play.table.seat_left`); the mail tells the host.
    Keyword arguments: game, seat (already "Player N (left)": no address, no account), by_host
    (True when the one who left is the game's host: nobody is told).

seat_handed_over: sent when the host gives a seat to another player or to the bot
    (`games.play.table.seat_replace`), in its transaction; what was kept for the person who held
    it and not yet sent (the mail's news lines) is not the newcomer's; the player who left it is
    ranked last by the ratings; the player whose seat the host gave away is told by email.
    Keyword arguments: game, seat (as it is now), previous_player (the account that held it, None
    for a bot), previous_email (their address, "" for a bot), stood_in (whether the stand-in
    played it for that player), left (whether they left the game: the host's own seat, or the
    player was absent, `games.play.table.absent`).
"""

from django.dispatch import Signal

events_recorded = Signal()
decisions_changed = Signal()
stand_in_started = Signal()
player_left = Signal()
seat_handed_over = Signal()
