"""The record room: what a game's record is, in pure Python (no Django), so that anybody can check
an export with Python and `games.rules` alone (`python -m games.verify`).

- `games.record.hashchain`: the canonical JSON of events and commands, and their hash chain;
- `games.record.options`: a game's options (rules options, deadlines, pauses, extensions);
- `games.record.seeds`: whether a chosen seed may be committed to in public;
- `games.record.verify`: the offline check of an export.
"""
