"""The play room: everything that changes a game, above the event store.

- `games.play.commands`: create a game, submit a seat's command (`games.services` names them);
- `games.play.forced_moves`: a decision with one legal answer, played for the seat;
- `games.play.bot_seats`: the bot seats, playing through the commands;
- `games.play.clocks`, `schedule`, `deadlines`, `standins`: each seat's clock, its deadline and
  reminder, the deadline default and the stand-in bot (`SeatClock`: `games.play.models`);
- `games.play.table`: the host's tools (deadline extensions, pauses, seats given away);
- `games.play.tasks`: the Celery tasks that play (bot moves, deadline defaults, stand-ins);
- `games.play.signals`: what the rooms above listen to (events recorded, decisions changed).

It imports the store, the story, the record, players and the rules' public API; the channels
above it listen to its signals and never the reverse.
"""
