"""The story: a game told in words for its readers, in the active language. Read by both channels
(the web pages and the emails) and by the play room's answers ("Accepted: ..."), so it sits
below them, beside the store; it reads the rules' public API and the record, never the database.

- `games.story.descriptions`: a command, a card or its play in a few words;
- `games.story.event_text`: a line of history for an event, as a seat may read it;
- `games.story.table_events`: a host's act at the table (the table log) in one line;
- `games.story.second_person`: a line told to the seat reading it ("You attacked blue");
- `games.story.names`: a player named with their colour as a sentence says it ("Player 2 (left,
  blue)", not "Player 2 (left) (blue)").
"""
