"""What the web pages of a game show, to whom: the game page, the island at a past event, the
history. Reads only (writes go through `games.services` and `games.play.table`).

Hidden information reaches a page only through the rules' doors, for the viewer's colour:
`rules.view_for(state, colour)` (the island, public facts, the viewer's own hand and draft),
`rules.redact(event, colour)` (history lines, through `games.store.selectors.history_entry`), and the
viewer's own `legal_commands`. A spectator is colour None. Once the game is over everything is
public: each seat's hand is read through that seat's own `view_for`, events are not redacted,
and the seed is shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime

from django.conf import settings
from django.utils.translation import get_language, gettext_noop, ngettext
from django.utils.translation import gettext as _

from community.profiles import hidden_among
from games import rules, store
from games.models import Command, Event, Game, Seat, SeatClock, TableEvent
from games.play import answer_times, take_backs
from games.play.clocks import is_proxy
from games.record.options import deadline_hours, is_paused
from games.rules import (
    TERRITORY_INFO,
    condition_values,
    conditions_completed,
    conditions_met,
    current_clash,
    exposed,
    own_prompt,
    territory_name,
    territory_phrase,
    usual_moves,
    victory_check,
)
from games.store.selectors import game_list, history_entry
from games.story.descriptions import card_ref
from games.story.event_text import TOLD_WHOLE, describe_event, is_bookkeeping
from games.story.names import joined, player_name
from games.story.others_decisions import others_decision
from games.story.second_person import second_person
from games.story.table_events import describe_table_event
from players.display_names import seat_names, seat_names_by_game, seat_names_in
from web import live
from web.board_svg import island_of
from web.decision_forms import Group, decision_groups

# Events shown under "Recently" on the game page.
RECENT_EVENTS = 12
# Events per page of the history (a 2,000-event game is 4 pages).
HISTORY_PAGE_SIZE = 500


def card_refs(cards) -> list[dict]:
    """`card_reference` of each card id (name, type, timing, text), in order, in the active
    language (`descriptions.card_ref`)."""
    return [card_ref(card) for card in cards]


@dataclass
class SeatFacts:
    """The public facts of one seat, plus its hand when the viewer may see it (`hand` is None
    otherwise). hand_summary: {"size", "action", "advantage", "epic"}."""

    colour: str
    is_bot: bool
    is_viewer: bool
    hand_summary: dict
    advantage_cards: list
    reserve: int
    deeds: int
    pretender: bool
    brenn: bool
    hand: list | None = None
    name: str = ""
    answers: str = ""  # the player's median answer time, in words (`games.play.answer_times`)
    profile_id: int | None = None  # the player's account, for the link to their profile


@dataclass
class TableSeat:
    """One seat on the turn-order strip: its colour, the player's name at the table (their
    chosen display name, "bot", or "" for none), the Brenn, whether a decision of theirs is
    awaited now (as the viewer may know it: never who a Triskel window asked) and whether they
    play the next Season turn. profile_id: the player's account when the name links to their
    profile (`profile_links`), else None."""

    colour: str
    name: str
    brenn: bool
    now: bool
    next: bool
    profile_id: int | None = None


@dataclass
class TurnOrder:
    """The table in turn order from the Brenn, in the Flock of Crows direction ("clockwise" or
    "counter-clockwise"; rulebook, Season: "in the direction indicated by the Flock of Crows")."""

    seats: list
    flock: str


@dataclass
class LastMove:
    """The last command's visible lines (in order) and the territories they name (ids), to
    mark on the island. Read from the same redacted lines as the page's "Recently"."""

    lines: list
    territories: list

    @property
    def move(self):
        """The line of what the player (or bot) did: the command's first line."""
        return self.lines[0]

    @property
    def caused(self) -> list:
        """The lines of what the move caused, in order, told beneath it."""
        return self.lines[1:]

    @property
    def names(self) -> str:
        return ", ".join(territory_name(t) for t in self.territories)


@dataclass
class HistoryLine:
    """One line of a history: a rules event (kind "event") or a table event (kind "table").

    For an event: seq, hash, text (plain language, as the viewer may see it), redacted (the
    viewer sees less than the whole), private (an event for the viewer's seat, not for the others),
    bookkeeping (an engine step). For a table event: seq is its table seq and at_seq the rules
    seq it follows."""

    kind: str
    seq: int
    text: str
    recorded_at: datetime
    hash: str = ""
    redacted: bool = False
    private: bool = False
    bookkeeping: bool = False
    at_seq: int = 0
    actor: str = ""
    territories: list = field(default_factory=list)
    type: str = ""  # the event's type (an event's line)


# The three victory conditions as a page names them (rulebook, Victory Conditions), in the order
# of the track's columns; keys of `victory.condition_values`.
CONDITION_WORDS = {
    "territories": gettext_noop("present in {n} territories"),
    "opposing_clans": gettext_noop("chieftain over {n} opposing clans"),
    "sanctuaries": gettext_noop("present where there are {n} Sanctuaries"),
}


@dataclass
class TrackRow:
    """One player on the victory track: the three counts of `victory.condition_values`, Deeds,
    the Pretender token, and the conditions met now with Deeds spent (`victory.conditions_met`;
    they count only for a Pretender, at the Assembly)."""

    colour: str
    territories: int
    opposing_clans: int
    sanctuaries: int
    deeds: int
    pretender: bool
    conditions: int


@dataclass
class Victory:
    """How the game was won: the High King, the conditions they met (words), whether the Brenn's
    tie-break decided it, and each Pretender's count of conditions."""

    winner: str
    conditions: list
    by_brenn_tie: bool
    scores: dict


@dataclass
class ClashSeat:
    colour: str
    exposed: int
    sheltered: int


@dataclass
class ClashPanel:
    """The clash in progress (all of it public): the territory, the instigator, each seat's
    exposed and sheltered clans in turn order from the instigator, the step ("citadels" or
    "maneuvers"), whose turn it is in that step, an attack being answered, a peace proposal."""

    territory: str
    territory_name: str
    instigator: str
    seats: list
    step: str
    current: str | None
    attack: dict | None = None
    peace: dict | None = None
    free_citadels: int = 0

    @property
    def the_territory(self) -> str:
        """The territory with its article, in the active language ("the Valley", "la Vallée")."""
        return territory_phrase(self.territory)


@dataclass
class Board:
    """The island and the table at some seq, as one viewer may see them."""

    seq: int
    round: int
    phase: str
    svg: str
    seats: list[SeatFacts]
    advantage_display: list
    epic_discard: list
    counts: dict
    waiting_for: list  # [(colour, prompt)]
    winner: str | None
    clash: str | None
    clash_panel: ClashPanel | None = None
    track: list = field(default_factory=list)
    victory: Victory | None = None
    turn_order: TurnOrder | None = None
    names: dict = field(default_factory=dict)  # {colour: the player's name} (`seat_names`)

    @property
    def phase_name(self) -> str:
        """The phase in words, in the active language ("Season"; "Saison")."""
        return rules.phase_name(self.phase)


@dataclass(frozen=True)
class ListedGame:
    """A game of the "All games" list: `seats` [(colour, its player as a sentence names them)],
    `winner` the winner so named ("" while nobody has won)."""

    game: Game
    seats: list
    winner: str


def listed_games() -> list[ListedGame]:
    """All games, newest first (`game_list`), their players named as the game pages name them
    (docs/web.md, "Players by name"): "Gil (green)", a bot by its level "Hard bot (blue)", a
    player with no chosen name by the colour alone ("green"), never a word of an address; in the
    active language. Three queries whatever the number of games: the games, their seats, the
    chosen names."""
    games = list(game_list())
    names = seat_names_by_game([seat for game in games for seat in game.seats.all()])
    listed = []
    for game in games:
        with rules.players_named(names.get(game.pk, {})):
            listed.append(
                ListedGame(
                    game=game,
                    seats=[(seat.colour, player_name(seat.colour)) for seat in game.seats.all()],
                    winner=player_name(game.winner) if game.winner else "",
                )
            )
    return listed


@dataclass
class DraftPanel:
    """The draft as the viewer holds it (rulebook, Assembly step 6): `kept` (card refs, they join
    the hand when the draft ends), `pack` (card refs of the cards in front of them to choose from;
    None while they wait for a pack), `held` (card refs of the cards they held from their last
    pick while they wait: the cards passed to them join these; empty while they pick), `steps` (the draft's steps in words, in order), `current`
    (the index in `steps` of the step now; -1 when the viewer's draft is done), `waiting` (cards
    passed to them, face down, not picked up yet), `passer` (the colour passing to them)."""

    kept: list
    pack: list | None
    held: list
    steps: list
    current: int
    waiting: int
    passer: str


def draft_panel(draft: dict) -> DraftPanel:
    """The `DraftPanel` of `rules.view_for(state, seat)["draft"]`; its steps name the players
    by `rules.player_name` (under `rules.players_named`, as `game_page` builds it)."""
    keeps, hand, blocks = draft["keeps"], draft["hand"], draft["blocks"]
    # The players as every sentence of the page names them ("Bob (blue)", "Random bot (white)":
    # `game_page` writes it under `rules.players_named`), in the reader's language.
    to, passer = player_name(draft["to"]), player_name(draft["from"])
    per_block = []
    for i, keep in enumerate(keeps):
        passed = hand - keep
        line = ngettext(
            "keep {keep} of the {hand} cards in front of you and pass the other {passed} face down to {player}",
            "keep {keep} of the {hand} cards in front of you and pass the other {passed} face down to {player}",
            passed,
        ).format(keep=keep, hand=hand, passed=passed, player=to)
        if i == 0:
            per_block.append(_("You are dealt {hand} Action cards: {then}.").format(hand=hand, then=line))
        else:
            per_block.append(
                _("Pick up the cards {player} passed you, then {then}.").format(player=passer, then=line)
            )
    last = hand - keeps[-1]
    per_block.append(
        ngettext(
            "Pick up the last card {player} passed you: with the {kept} you kept, {hand} cards for your hand.",
            "Pick up the last {count} cards {player} passed you: with the {kept} you kept, {hand} cards for your hand.",
            last,
        ).format(count=last, player=passer, kept=keeps[-1], hand=hand)
    )
    steps = []
    for block in range(blocks):
        prefix = [_("First draft: "), _("Second draft: ")][block] if blocks == 2 else ""
        steps.extend(prefix + line for line in per_block)
    width = len(keeps) + 1
    block, step = divmod(draft["stage"], len(keeps))
    if draft["choices"] is None and step == 0 and draft["stage"] > 0:
        current = (block - 1) * width + len(keeps)  # waiting for the last cards of the block
    elif block >= blocks:
        current = -1
    else:
        current = block * width + step
    return DraftPanel(
        kept=card_refs(draft["kept"]),
        pack=card_refs(draft["choices"]) if draft["choices"] is not None else None,
        held=card_refs(draft["held"]),
        steps=steps,
        current=current,
        waiting=draft["waiting"],
        passer=draft["from"],
    )


@dataclass
class GamePage:
    """The game page. seat: the viewer's seat (None for a spectator); my_seats: all the viewer's
    seats here (a player may hold two); hand: the viewer's own cards (card refs); draft: their
    `DraftPanel` during the draft;
    decisions: the viewer's pending `rules.Decision`s (prompts as the viewer reads them:
    `usual_moves.own_prompt`); barred: why a usual move is not offered; groups: their forms;
    notes: why cards of the viewer's hand cannot be played now (`rules.why_not_playable`), its
    own cards only."""

    game: Game
    seat: Seat | None
    my_seats: list
    board: Board
    hand: list = field(default_factory=list)
    draft: DraftPanel | None = None
    decisions: list = field(default_factory=list)
    barred: list = field(default_factory=list)  # why usual moves are not offered, in words
    groups: list[Group] = field(default_factory=list)
    notes: list = field(default_factory=list)
    recent: list[HistoryLine] = field(default_factory=list)  # the latest lines not in `since`
    policy: str = "ask"
    paused: bool = False
    deadline_hours: int = 0
    deadline: datetime | None = None  # when the viewer's decision defaults (None: no deadline)
    table_seq: int = 0
    head_hash: str = ""  # the hash of the log's last event: a fingerprint players can keep
    last_move: LastMove | None = None
    since: list = field(default_factory=list)  # the lines since the viewer's last move, in order
    since_cut: bool = False  # earlier lines since that move are left to the history
    can_take_back: bool = False  # the viewer's seat made the log's last move and may take it back

    @property
    def live_version(self) -> str:
        """The version the page was read at (web.live: its script asks whether it changed)."""
        return live.game_version(self.board.seq, self.table_seq)


def _board(
    game: Game,
    state,
    colour: str | None,
    *,
    settled: bool = True,
    reads: PageReads | None = None,
    revealed: bool | None = None,
) -> Board:
    """`state` may be modified (a fresh load only). Unsettled (between two events of one
    command): the rules' procedures are half-way through a step, where `pending` has no meaning
    and may fail, so the view is taken with no procedure in progress (no decisions shown).
    reads: the seats' names and answer times read already (`page_reads`), else read here.
    revealed: every hand is shown (the game is over, even if `state` is an earlier point of it);
    None: whether `state` is over."""
    # The clash is read before an unsettled state's procedures are put aside: a replay between
    # two events of one move still shows its outline and sheltered clans (all public).
    panel = clash_panel(state)
    if not settled:
        state.stack = []
    view = rules.view_for(state, colour)
    over = rules.is_over(state)
    every_hand = over if revealed is None else revealed
    pending = view["pending"] if settled else []
    # The outline stays while a Triskel window opens inside the clash (the clash is still on).
    clash = panel.territory if panel is not None and panel.territory in view["territories"] else None
    seats_by_colour = {s.colour: s for s in game.seats.all()}
    if reads is None:
        names = seat_names(seats_by_colour.values())
        medians = answer_times.medians_by_seat([s.pk for s in seats_by_colour.values() if not s.is_bot])
        profiles = seat_profiles(seats_by_colour.values())
    else:
        names, medians, profiles = reads.names, reads.medians, reads.profiles
    links = profile_links(profiles, viewer_seated=colour is not None)
    facts = []
    for colour_ in view["seats"]:
        summary = view["hands"][colour_]
        if every_hand and colour_ != colour:
            hand = card_refs(rules.view_for(state, colour_)["hand"])  # over: every hand is public
        else:
            hand = card_refs(view["hand"]) if colour_ == colour else None
        facts.append(
            SeatFacts(
                colour=colour_,
                is_bot=seats_by_colour[colour_].is_bot if colour_ in seats_by_colour else False,
                is_viewer=colour_ == colour,
                hand_summary={k: summary[k] for k in ("size", "action", "advantage", "epic")},
                advantage_cards=card_refs(summary["advantage_cards"]),
                reserve=view["reserve"].get(colour_, 0),
                deeds=view["deeds"].get(colour_, 0),
                pretender=colour_ in view["pretenders"],
                brenn=view["brenn"] == colour_,
                hand=hand,
                name=names.get(colour_, ""),
                profile_id=links.get(colour_),
                answers=answer_times.in_words(
                    medians.get(seats_by_colour[colour_].pk) if colour_ in seats_by_colour else None
                ),
            )
        )
    waiting = {seat for seat, _prompt in ([(d["seat"], d["prompt"]) for d in pending])}
    return Board(
        seq=view["seq"],
        round=view["round"],
        phase=view["phase"],
        svg=island_of(
            state,
            game_key=(game.pk, game.seed_commitment, settled),
            clash=clash,
            label=_("The island after event {seq}").format(seq=view["seq"]),
            sheltered=(
                {clash: {s.colour: s.sheltered for s in panel.seats if s.sheltered}}
                if clash and panel is not None
                else None
            ),
        ),
        seats=facts,
        advantage_display=card_refs(view["advantage_display"]),
        epic_discard=card_refs(view["epic_discard"]),
        counts=view["counts"],
        # Another seat's decision in words for the reader: its prompt speaks to that seat.
        waiting_for=[
            (d["seat"], joined(d["prompt"]) if d["seat"] in (None, colour) else others_decision(d))
            for d in pending
        ],
        winner=view["winner"] if over else None,
        clash=clash,
        clash_panel=panel,
        track=victory_track(state),
        victory=victory_of(state) if over else None,
        turn_order=turn_order(state, names, waiting, links) if view["seats"] else None,
        names=names,
    )


def seat_profiles(seats) -> dict:
    """{colour: (account id, whether its profile is hidden from strangers)} for the seats given
    that a person plays (bots have no profile). One query for the seats given."""
    people = {s.colour: s.user_id for s in seats if not s.is_bot and s.user_id is not None}
    hidden = hidden_among(people.values()) if people else set()
    return {colour: (user_id, user_id in hidden) for colour, user_id in people.items()}


def profile_links(profiles: dict, *, viewer_seated: bool) -> dict:
    """{colour: account id} of the names that link to a profile (`seat_profiles` gives
    `profiles`): every player's for a viewer who plays at the table (they sat with each of them:
    no profile is hidden from them); for anybody else, only the profiles not hidden from
    strangers. A page's link names the account: it is the same for every viewer of one kind."""
    return {c: uid for c, (uid, hidden) in profiles.items() if viewer_seated or not hidden}


def season_turn(state) -> str | None:
    """Whose Season turn it is (the innermost Season procedure's turn), or None out of the Season."""
    for frame in reversed(state.stack):
        if frame.get("kind") == "season":
            return frame.get("turn")
    return None


def turn_order(state, names: dict, waiting: set, links: dict | None = None) -> TurnOrder:
    """The turn-order strip: seats from the Brenn in the Flock of Crows direction; `waiting`:
    the seats whose decision the viewer may know is awaited (`view_for`'s pending); the next
    Season turn is the seat after the one playing now (public: turns go round the table);
    `links`: {colour: account id} of the names that link to a profile (`profile_links`)."""
    start = state.brenn if state.brenn in state.seats else state.seats[0]
    now_turn = season_turn(state)
    following = state.next_seat(now_turn) if now_turn in state.seats and state.phase == "season" else None
    return TurnOrder(
        seats=[
            TableSeat(
                colour=c,
                name=names.get(c, ""),
                brenn=c == state.brenn,
                now=c in waiting,
                next=c == following and c not in waiting,
                profile_id=(links or {}).get(c),
            )
            for c in state.turn_order_from(start)
        ],
        flock="clockwise" if state.flock == "clockwise" else "counter-clockwise",
    )


def _territories_in(value, found: list) -> list:
    """Every territory id in a (redacted) event payload, keys and values, in order, once."""
    stack = [value]
    while stack:
        item = stack.pop(0)
        if isinstance(item, dict):
            stack[:0] = [*item.keys(), *item.values()]
        elif isinstance(item, list):
            stack[:0] = item
        elif isinstance(item, str) and item in TERRITORY_INFO and item not in found:
            found.append(item)
    return found


def victory_track(state) -> list[TrackRow]:
    """Each seat's progress towards the victory conditions now (public: the island, Deeds and
    Pretender tokens are on the table), counted by the rules' own `victory` module."""
    rows = []
    for colour in state.seats:
        values = condition_values(state, colour)
        rows.append(
            TrackRow(
                colour=colour,
                territories=values["territories"],
                opposing_clans=values["opposing_clans"],
                sanctuaries=values["sanctuaries"],
                deeds=state.deeds.get(colour, 0),
                pretender=colour in state.pretenders,
                conditions=conditions_met(state, colour),
            )
        )
    return rows


def victory_of(state) -> Victory | None:
    """How the finished game was won (None before the end, or with no winner): the conditions
    the High King met at the Assembly that elected them, with Deeds spent
    (`victory.conditions_completed`), and whether the Brenn won a tie (rulebook, End of the
    Game: "In case of tie for meeting the most victory conditions: if the Brenn is among the
    tied players, he wins the game")."""
    if not state.winner:
        return None
    values = condition_values(state, state.winner)
    words = [
        _(CONDITION_WORDS[name]).format(n=values[name]) for name in conditions_completed(state, state.winner)
    ]
    _winner, scores = victory_check(state)
    best = scores.get(state.winner, 0)
    return Victory(
        winner=state.winner,
        conditions=words,
        scores=scores,
        by_brenn_tie=sum(1 for v in scores.values() if v == best) > 1,
    )


def clash_panel(state) -> ClashPanel | None:
    """The innermost clash in progress (`rules.current_clash`), or None. Everything in it
    is public: the rules ask every seat in turn order, openly; nothing here names who a
    Triskel window asked (that window is another procedure, above the clash)."""
    frame = current_clash(state)
    if frame is None or frame["territory"] not in state.territories:
        return None
    tid = frame["territory"]
    order = state.turn_order_from(frame["instigator"])
    seats = [
        ClashSeat(colour=s, exposed=exposed(state, frame, s), sheltered=frame["sheltered"].get(s, 0))
        for s in order
        if state.clans(tid, s) > 0
    ]
    attack = frame.get("attack")
    peace = frame.get("peace")
    step, current = next_in_clash(state, frame)
    return ClashPanel(
        territory=tid,
        territory_name=territory_name(tid),
        instigator=frame["instigator"],
        seats=seats,
        step=step,
        current=current,
        attack={"attacker": attack["attacker"], "target": attack["target"]} if attack else None,
        peace={"proposer": peace["proposer"], "agreed": [s for s, yes in peace["votes"].items() if yes]}
        if peace
        else None,
        free_citadels=state.citadel_slots(tid) - sum(frame["sheltered"].values()),
    )


def next_in_clash(state, frame) -> tuple[str, str | None]:
    """(step, seat): the clash step the rules will ask in next ("citadels" or "maneuvers") and
    the seat they will ask, or None when the clash is ending. The frame's `current` is only where
    the rules resume: while a Triskel window waits above the clash it may name a seat with no
    exposed clan there, which the rules skip (rulebook, Clash: "in turn order, starting with the
    instigator"; the Citadels step asks only players with exposed clans, once each)."""
    if frame.get("end_reason"):
        return "maneuvers", None
    instigator = frame["instigator"]
    if frame["step"] in ("start", "citadels"):
        seat = _next_citadel_seat(state, frame, frame.get("current") or state.next_seat(instigator))
        if seat is not None:
            return "citadels", seat
        resume = instigator
    elif frame.get("finishing"):
        resume = state.next_seat(frame["finishing"]["seat"])
    elif frame["step"] == "resolution_start":
        resume = instigator
    else:
        resume = frame.get("current") or instigator
    order = state.turn_order_from(resume)
    return "maneuvers", next((s for s in order if exposed(state, frame, s) > 0), None)


def _next_citadel_seat(state, frame, start: str) -> str | None:
    """The seat the Citadels step asks next from `start`, as the rules' clash does: none when no
    Citadel is free or one player is alone there; else the next player after the instigator with
    exposed clans who has not chosen yet."""
    tid = frame["territory"]
    if state.citadel_slots(tid) - sum(frame["sheltered"].values()) <= 0:
        return None
    if sum(1 for n in state.territories[tid]["clans"].values() if n) < 2:
        return None
    return next(
        (
            s
            for s in state.turn_order_from(start)
            if s != frame["instigator"] and s not in frame["declined"] and exposed(state, frame, s) > 0
        ),
        None,
    )


def _line(row: Event, colour: str | None, complete: bool, *, viewer: str | None = None) -> HistoryLine:
    entry = history_entry(row, colour=colour, complete=complete)
    return HistoryLine(
        kind="event",
        seq=entry.seq,
        text=describe_event(entry.type, entry.payload, viewer=viewer),
        recorded_at=entry.recorded_at,
        hash=entry.hash,
        redacted=entry.redacted and entry.type not in TOLD_WHOLE,
        # Shown whole to its reader alone (after the end everyone reads it whole: still private
        # only to the seats it was for).
        private=colour is not None and colour in (entry.visibility or ()) and not entry.redacted,
        bookkeeping=is_bookkeeping(entry.type, entry.payload),
        territories=_territories_in(entry.payload, []),
        type=entry.type,
    )


# A public event every seat sees whole, but for this one: its receiver sees the passed cards only
# when it picks the pack up (`rules.redact`), so its line is worded per viewer.
_WORDED_PER_VIEWER = frozenset({"DraftCardsPassed"})


def _public_line(reads: PageReads, row: Event, colour: str | None, complete: bool) -> HistoryLine:
    """`_line(row, colour, complete)`, worded once per language for every page built from
    `reads` when `row` is public (every viewer reads the same line); a private row is worded for
    each viewer, and so is, in French, a public row that names the viewer's seat (French lines
    speak to their reader from their author: "Vous avez joué Migration", `describe_event`'s
    `viewer`; English ones are told to "you" afterwards, `_told_to`). The line is shared:
    nobody changes it once made."""
    if row.visibility is not None or row.type in _WORDED_PER_VIEWER:
        return _line(row, colour, complete, viewer=colour)
    language = get_language() or "en"
    if colour is not None and language.startswith("fr") and colour in row.payload.values():
        return _line(row, colour, complete, viewer=colour)
    key = (row.seq, language, complete)
    found = reads.lines.get(key)
    if found is None:
        found = reads.lines[key] = _line(row, colour, complete)
    return found


def _table_line(row: TableEvent, colour: str | None) -> HistoryLine:
    """The host's act `row` as the seat `colour` (None: a spectator) reads it."""
    return HistoryLine(
        kind="table",
        seq=row.seq,
        text=describe_table_event(row.type, row.payload, reader=colour),
        recorded_at=row.recorded_at,
        at_seq=row.at_seq,
        actor=row.actor,
    )


@dataclass(frozen=True)
class RecentCommand:
    """An accepted command whose events end among the page's recent events: its seat's id, the
    seqs of its first and last events, whether it took a move back (`rules.TAKE_BACK`), whether
    it was made for the seat (forced, a standing order, a deadline: `is_proxy`), and whether it
    is no move, a standing Triskel policy (`rules.NO_MOVE_COMMANDS`), which a take-back passes
    over."""

    seat_id: int
    first_seq: int
    last_seq: int
    take_back: bool
    proxy: bool
    no_move: bool


@dataclass(frozen=True)
class PageReads:
    """What the game page reads alike whoever views it, at one version of the game: the table
    log's length (`table_seq`), the state and its `seq`, the recent event rows, the seats'
    names in each language of the site (`names_in`: {language code: `seat_names`}; `names`:
    those of the active language), answer times ({seat id: median seconds}), profiles
    (`seat_profiles`), and the commands whose last event is among the recent rows
    (`RecentCommand`, newest first).
    Read once by
    `page_reads` when the pages of several viewers are built together (`web.prerender`): each
    page still takes from it only what its viewer may see (the rows' lines redacted for them,
    their hand through `rules.view_for`). It holds the whole state, hands and all: it is never
    rendered, kept or sent as it is."""

    table_seq: int
    state: object
    seq: int
    rows: list
    names_in: dict
    medians: dict
    profiles: dict
    commands: list[RecentCommand]
    # The lines of the public rows, worded once for every page built from these reads
    # (`_public_line`): {(seq, language, complete): HistoryLine}.
    lines: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def names(self) -> dict:
        """{colour: name} in the active language: a bot's seat and a departed player's are
        worded in each reader's own ("Robot fort"), though readers of every language share
        these reads (`web.public_part`)."""
        return self.names_in[rules.current_language()]


def page_reads(game: Game) -> PageReads:
    """The `PageReads` of `game` now: one query of the table log, the state's load, one query
    of the recent events, one of the names, one of the answer times, one of the hidden profiles,
    one of the recent commands."""
    # Read before the log: should a host act in between, the page looks older than it is and
    # its script fetches it once more, rather than missing the change.
    table_seq = (
        TableEvent.objects.filter(game=game).order_by("-seq").values_list("seq", flat=True).first() or 0
    )
    state, seq = store.load(game)
    rows = list(Event.objects.filter(game=game, seq__gt=max(0, seq - 4 * RECENT_EVENTS)).order_by("seq"))
    seats = list(game.seats.all())
    return PageReads(
        table_seq=table_seq,
        state=state,
        seq=seq,
        rows=rows,
        names_in=seat_names_in(seats, [code for code, _name in settings.LANGUAGES]),
        medians=answer_times.medians_by_seat([s.pk for s in seats if not s.is_bot]),
        profiles=seat_profiles(seats),
        commands=_recent_commands(game, rows[0].seq, seq) if rows else [],
    )


def _recent_commands(game: Game, first_seq: int, seq: int) -> list[RecentCommand]:
    """The commands of `game` whose last event is between `first_seq` and `seq`, newest first."""
    found = (
        Command.objects.filter(game=game, last_seq__gte=first_seq, last_seq__lte=seq)
        .order_by("-first_seq")
        .values_list("seat_id", "first_seq", "last_seq", "body", "command_id")
    )
    return [
        RecentCommand(
            seat_id,
            first,
            last,
            body.get("type") == rules.TAKE_BACK,
            is_proxy(command_id),
            body.get("type") in rules.NO_MOVE_COMMANDS,
        )
        for seat_id, first, last, body, command_id in found
    ]


def game_page(*, game: Game, seat: Seat | None, my_seats: list, reads: PageReads | None = None) -> GamePage:
    """The game page now, for `seat`'s player (None: a spectator); `reads`: what it reads alike
    for every viewer, read already for the game's current version (`page_reads`), else read
    here."""
    reads = reads if reads is not None else page_reads(game)
    # Every sentence of the page names the players ("Ann (blue)"), public at the table.
    with rules.players_named(reads.names):
        return _game_page(game, seat, my_seats, reads)


def _game_page(game: Game, seat: Seat | None, my_seats: list, reads: PageReads) -> GamePage:
    state, table_seq, rows = reads.state, reads.table_seq, reads.rows
    colour = seat.colour if seat is not None else None
    page = GamePage(
        game=game,
        seat=seat,
        my_seats=my_seats,
        board=_board(game, state, colour, reads=reads),
        paused=is_paused(game.options),
        table_seq=table_seq,
    )
    complete = game.is_over
    lines = [
        _told_to(line, colour)
        for line in (_public_line(reads, row, colour, complete) for row in rows)
        if not line.bookkeeping
    ]
    page.recent = lines[-RECENT_EVENTS:]
    page.last_move = last_move(lines, reads.commands)
    page.head_hash = rows[-1].hash if rows else game.seed_commitment
    if seat is None:
        return page
    page.since, page.since_cut = since_last_move(game, seat, reads, lines, complete)
    # Each line once: "Recently" leaves out what "Since your last move" tells already.
    told = {line.seq for line in page.since}
    page.recent = [line for line in page.recent if line.seq not in told]
    page.can_take_back = offers_take_back(game, state, seat, reads)
    view_hand = rules.view_for(state, colour)
    page.hand = card_refs(view_hand.get("hand", []))
    if view_hand.get("draft"):
        page.draft = draft_panel(view_hand["draft"])
    # Each prompt names only the usual moves the viewer may make now, and why not the others.
    page.decisions = [
        replace(d, prompt=joined(own_prompt(state, colour, d)))
        for d in rules.pending(state)
        if d.seat == colour
    ]
    page.barred = [
        reason for d in page.decisions for _key, reason in usual_moves(state, colour, d.kind).barred
    ]
    if page.decisions:
        page.groups = decision_groups(state, rules.legal_commands(state, colour), colour)
        page.notes = rules.why_not_playable(state, colour)
        page.deadline_hours = deadline_hours(game.options, page.decisions[0].kind)
        if page.deadline_hours and not page.paused:
            page.deadline = SeatClock.objects.filter(seat=seat).values_list("deadline", flat=True).first()
    else:  # what the seat may do without a decision of its own (a peace proposal, The Moor)
        page.groups = decision_groups(state, rules.anytime_commands(state, colour), colour)
    policies = state.policies.get(colour, {})  # the viewer's own standing policy
    page.policy = policies.get("all", "ask")
    return page


def _line_told(row: Event, colour: str | None, complete: bool) -> HistoryLine:
    """`row`'s line worded for the seat `colour` and told to it ("You played Druid.", "Vous avez
    joué Druide"): the lines of the history, of the island at an event, and of "Since your last
    move" read beyond the page's recent events, as the page's own are (`_public_line`,
    `_told_to`)."""
    return _told_to(_line(row, colour, complete, viewer=colour), colour)


def _told_to(line: HistoryLine, colour: str | None) -> HistoryLine:
    """`line` as the seat `colour` reads it: "You played Druid.", not "green played Druid."
    (`games.story.second_person`; a spectator, `colour` None, reads it as it is). A copy: the
    line itself may be shared by every reader's page (`_public_line`)."""
    text = second_person(line.text, colour)
    return line if text == line.text else replace(line, text=text)


def offers_take_back(game: Game, state, seat: Seat, reads: PageReads) -> bool:
    """Whether the page offers `seat` to take back its last move (docs/rulings.md, "Taking back a
    move"): the game goes on, the log's last command but for standing Triskel policies (which
    are no move, the seat's or another's: passed over, so that another seat's never changes the
    page; the last command ends at `reads.seq`, and one that ended before the recent rows cannot
    be) is the seat's own, chosen (not a move made for it, nor a take-back), its events (among
    `reads.rows`, the page's recent events) are all public, and the rules allow it
    (`take_backs.rules_judgement`: no random draw, no Triskel card that could answer it). That
    last judgement reads the log up to the move, so it is made only for the mover's own page
    when everything else allows the take-back, as the command itself would judge it."""
    if rules.is_over(state) or not reads.commands or reads.commands[0].last_seq != reads.seq:
        return False
    last = next((c for c in reads.commands if not c.no_move), None)
    if last is None or last.seat_id != seat.pk or last.take_back:
        return False
    if last.proxy:  # made for the seat (forced, a standing order, a deadline): it stands
        return False
    made = [row for row in reads.rows if last.first_seq <= row.seq <= last.last_seq]
    if len(made) != last.last_seq - last.first_seq + 1 or any(row.visibility is not None for row in made):
        return False
    move = Command.objects.filter(game=game, first_seq=last.first_seq).select_related("seat").first()
    return move is not None and take_backs.rules_judgement(game, seat, move)[1] is None


# The most lines "Since your last move" shows (the latest ones), and the most events it reads.
SINCE_LINES = 60
SINCE_EVENTS = 400


def since_last_move(game: Game, seat: Seat, reads: PageReads, lines: list, complete: bool) -> tuple:
    """`(lines, cut)`: every line the seat may read of the events after its own last move (its
    last command; from the start when it made none), in order, engine steps left out: at most the
    last SINCE_LINES, of at most SINCE_EVENTS events (`cut`: earlier ones are in the history).
    `reads.rows` / `lines`: the page's recent events and their lines, reused when they reach
    back far enough; its last command is read from `reads.commands` when it is among them. ([],
    False) when the seat made the last move."""
    seq, rows = reads.seq, reads.rows
    recent = next((c.last_seq for c in reads.commands if c.seat_id == seat.pk), None)
    after = (
        recent
        if recent is not None
        else Command.objects.filter(game=game, seat=seat, last_seq__lte=seq)
        .order_by("-first_seq")
        .values_list("last_seq", flat=True)
        .first()
        or 0
    )
    if after >= seq:
        return [], False
    start = max(after, seq - SINCE_EVENTS)
    if rows and rows[0].seq <= start + 1:
        found = [line for line in lines if line.seq > start]
    else:
        colour = seat.colour
        found = [
            line
            for line in (
                _line_told(row, colour, complete)
                for row in Event.objects.filter(game=game, seq__gt=start).order_by("seq")
            )
            if not line.bookkeeping
        ]
    # Cards passed in the draft that the viewer has not seen (a pack not yet picked up, or passed
    # between others) are no news of theirs: the draft's progress is told by the cards kept.
    found = [line for line in found if not (line.type == "DraftCardsPassed" and line.redacted)]
    return found[-SINCE_LINES:], start > after or len(found) > SINCE_LINES


# The answers to a Triskel window: the move they close is the card play that opened the window.
_WINDOW_ANSWERS = frozenset({"ReactionAnswered", "ReactionAnsweredPrivately"})
# The most answers `last_move` tells under the play that opened their windows.
_ANSWERS_UNDER_A_PLAY = 8


def last_move(lines: list, commands: list[RecentCommand]) -> LastMove | None:
    """The last command with a line among `lines` (the viewer's recent lines, oldest first, as
    "Recently" shows them) and the territories those lines name; None when there is none.
    `commands`: those whose last event is among the page's recent events, newest first
    (`PageReads.commands`). A command of which the viewer sees nothing (a Triskel window
    declined) is passed over, so the panel says no more than "Recently" does; so are a standing
    Triskel policy (no move, docs/web.md), a take-back and the move it took back (the island is
    as before that move). A command that answers a
    Triskel window is told under the play that opened it ("Ann played Migration", then "A
    Triskel window was answered." and the clans moved), up to `_ANSWERS_UNDER_A_PLAY` answers:
    the card's effect waits for the window (rulebook, Triskel), and the answer alone says
    nothing of the move."""
    shown = lines  # a redacted line says what the viewer may know of it ("Bob kept 2 cards")
    if not shown:
        return None
    told: list = []
    answers = 0
    taken_back = 0  # take-backs met, each undoing the move just before it (docs/rulings.md)
    for command in (c for c in commands if c.last_seq >= shown[0].seq):
        if command.take_back:
            if told:
                break
            taken_back += 1
            continue
        if command.no_move:
            # A standing Triskel policy, the viewer's or another's, is no move (docs/web.md):
            # the panel goes on showing the move before it, as a take-back passes over it.
            continue
        if taken_back:
            taken_back -= 1
            continue
        first, last = command.first_seq, command.last_seq
        mine = [line for line in shown if first <= line.seq <= last]
        if not mine:
            continue
        told = mine + told
        if told[0].type not in _WINDOW_ANSWERS or answers == _ANSWERS_UNDER_A_PLAY:
            break
        answers += 1
    if not told:
        return None
    territories: list = []
    for line in told:
        territories.extend(t for t in line.territories if t not in territories)
    return LastMove(lines=told, territories=territories)


@dataclass
class IslandAt:
    """The island right after event `seq`: the event itself, and where to step next."""

    game: Game
    seat: Seat | None
    board: Board
    seq: int
    last_seq: int
    line: HistoryLine | None
    settled: bool
    table: list = field(default_factory=list)
    move: list = field(default_factory=list)  # the lines of the move this event ends or is part of
    previous_move: int | None = None  # the seq after the move before this one (None: none)
    next_move: int | None = None  # the seq after the next move (None: none)


def island_at(*, game: Game, seat: Seat | None, seq: int) -> IslandAt:
    """The island after the first `seq` events (0 ≤ seq ≤ the log's length; raises ValueError
    otherwise), folded from the log (from the latest snapshot at or before `seq`)."""
    last = store.head(game)[0]
    if not 0 <= seq <= last:
        raise ValueError(_("This game has events 0 to {last}.").format(last=last))
    with rules.players_named(seat_names(game.seats.all())):
        return _island_at(game, seat, seq, last)


def _island_at(game: Game, seat: Seat | None, seq: int, last: int) -> IslandAt:
    colour = seat.colour if seat is not None else None
    state, _seq = store.load(game, until=seq)
    settled = store.is_settled(game, seq)
    row = Event.objects.filter(game=game, seq=seq).first()
    line = _line_told(row, colour, game.is_over) if row else None
    return IslandAt(
        game=game,
        seat=seat,
        # After the end every hand is shown, at every earlier point too.
        board=_board(game, state, colour, settled=settled, revealed=game.is_over),
        seq=seq,
        last_seq=last,
        line=line,
        move=move_lines(game, seq, colour) if line is not None else [],
        settled=settled,
        table=[
            _table_line(t, colour) for t in TableEvent.objects.filter(game=game, at_seq=seq).order_by("seq")
        ],
        **move_steps(game, seq, last),
    )


def move_lines(game: Game, seq: int, colour: str | None) -> list:
    """The lines a player reads of the move event `seq` belongs to (one command's events, up to
    `seq`), engine steps left out: what a step by move shows, rather than its last event, which
    is often an engine step ("Step advanced."). [] for the events of no command (the set-up)."""
    span = (
        Command.objects.filter(game=game, first_seq__lte=seq, last_seq__gte=seq)
        .values_list("first_seq", flat=True)
        .first()
    )
    if span is None:
        return []
    rows = Event.objects.filter(game=game, seq__gte=span, seq__lte=seq).order_by("seq")
    return [line for line in (_line_told(row, colour, game.is_over) for row in rows) if not line.bookkeeping]


def move_steps(game: Game, seq: int, last: int) -> dict:
    """{"previous_move", "next_move"}: where a step by move goes from the island after event
    `seq`: the end of the latest move that ends before `seq` (0: the start), and the end of the
    first move that ends after it (a move: one command's events, or the events before the first
    command). None when there is no such step."""
    ends = Command.objects.filter(game=game)
    before = ends.filter(last_seq__lt=seq).order_by("-last_seq").values_list("last_seq", flat=True).first()
    after = ends.filter(last_seq__gt=seq).order_by("last_seq").values_list("last_seq", flat=True).first()
    first_command = ends.order_by("first_seq").values_list("first_seq", flat=True).first()
    set_up = first_command - 1 if first_command else last  # the set-up's events, before any command
    if before is None:
        before = set_up if 0 < set_up < seq else (0 if seq > 0 else None)
    if (after is None and seq < set_up) or (after is not None and seq < set_up < after):
        after = set_up
    return {"previous_move": before, "next_move": after}


@dataclass
class Move:
    """One move of the history: a player's decision and its consequences (the events of one
    command, `first_seq`..`last_seq`), or the events no command made (the set-up, a deadline's
    stand-in), or a host's table event. `lines` as the viewer may see them, in order; the
    headline is the first line that is not an engine step."""

    first_seq: int
    last_seq: int
    lines: list
    kind: str = "move"  # "move", or "table" for a host's table event

    @property
    def headline(self) -> HistoryLine | None:
        return next(
            (line for line in self.lines if not line.bookkeeping), self.lines[0] if self.lines else None
        )

    @property
    def rest(self) -> list:
        head = self.headline
        return [line for line in self.lines if line is not head]


@dataclass
class HistoryPage:
    """One page of the history: `lines` in order, table events after the event they follow;
    `moves`: the same lines grouped by command (`Move`); `head_hash`: the game's fingerprint (the
    hash of the log's last event, "" for an empty log), shown once at the top."""

    game: Game
    seat: Seat | None
    lines: list[HistoryLine]
    page: int
    pages: int
    total: int
    steps: bool
    moves: list = field(default_factory=list)
    head_hash: str = ""  # the hash of the log's last event: the game's fingerprint so far

    @property
    def numbers(self) -> range:
        return range(1, self.pages + 1)


def command_spans(game: Game, first: int, last: int) -> list[tuple[int, int]]:
    """[(first_seq, last_seq)] of the commands whose events fall in first..last, in order."""
    return list(
        Command.objects.filter(game=game, last_seq__gte=first, first_seq__lte=last)
        .order_by("first_seq")
        .values_list("first_seq", "last_seq")
    )


def group_moves(lines: list, spans: list[tuple[int, int]], last_seq: int, first_seq: int = 1) -> list[Move]:
    """`lines` (events and table events, in order) grouped into moves: the events of one
    command together; consecutive events of no command together; each table event alone. A
    move's first_seq..last_seq is its whole span (engine steps included, shown or not);
    `first_seq`..`last_seq`: the events `lines` are taken from, which start and end on whole
    moves (`history_bounds`): where events before the first of `spans` start, and those after
    the last end."""
    from bisect import bisect_right

    starts = [a for a, _b in spans]
    moves: list[Move] = []
    current: Move | None = None
    current_key = None
    for line in lines:
        if line.kind == "table":
            moves.append(Move(first_seq=line.at_seq, last_seq=line.at_seq, lines=[line], kind="table"))
            current = None
            continue
        # The command whose span holds this event, or the gap after command i (before the first: -1).
        i = bisect_right(starts, line.seq) - 1
        key = ("command", i) if i >= 0 and line.seq <= spans[i][1] else ("between", i)
        if current is not None and key == current_key:
            current.lines.append(line)
        else:
            if key[0] == "command":
                first, last = spans[i]
            else:
                first = spans[i][1] + 1 if i >= 0 else first_seq
                last = spans[i + 1][0] - 1 if i + 1 < len(spans) else last_seq
            current = Move(first_seq=first, last_seq=last, lines=[line])
            current_key = key
            moves.append(current)
    return moves


def history_page(*, game: Game, seat: Seat | None, page: int | None, steps: bool) -> HistoryPage:
    """About `HISTORY_PAGE_SIZE` events a page, each page ending on a whole move (page 1 first;
    None: the last page), with the table events among them; engine steps (bookkeeping) only when
    `steps`. Each line is told to `seat`'s player ("You played Druid."); a spectator (`seat`
    None) reads them as they are."""
    total, head_hash = store.head(game)
    spans = command_spans(game, 1, total)
    ends = page_ends(spans, total)
    page = len(ends) if page is None else min(max(1, page), len(ends))
    with rules.players_named(seat_names(game.seats.all())):
        return _history_page(game, seat, page, ends, spans, total, head_hash, steps)


def page_ends(spans: list[tuple[int, int]], total: int) -> list[int]:
    """The last event of each history page of a log of `total` events whose commands' events are
    `spans` (in order): page N ends with the move that holds its event N × HISTORY_PAGE_SIZE (or
    the event after the page before, when a long move reached beyond that): the command's last
    event; for events of no command, the event before the next command, or the log's end. Each
    end is fixed once its move is written, so a link to a page shows the same moves as the game
    goes on. [total] (one page) for a log shorter than a page; [0] for an empty log."""
    from bisect import bisect_right

    starts = [a for a, _b in spans]
    ends: list[int] = []
    end = 0
    while end < total or not ends:
        seq = min(max((len(ends) + 1) * HISTORY_PAGE_SIZE, end + 1), total)
        i = bisect_right(starts, seq) - 1
        if i >= 0 and seq <= spans[i][1]:
            end = spans[i][1]
        else:
            end = spans[i + 1][0] - 1 if i + 1 < len(spans) else total
        ends.append(end)
    return ends


def _history_page(
    game,
    seat,
    page: int,
    ends: list[int],
    spans: list[tuple[int, int]],
    total: int,
    head_hash: str,
    steps: bool,
) -> HistoryPage:
    """Page `page` of the history whose pages end at `ends` (`page_ends` of the commands'
    `spans`, every command of the log)."""
    first, last = (ends[page - 2] + 1 if page > 1 else 1, ends[page - 1])
    # The page's commands, from those read for the pages' ends (a page holds whole moves).
    spans = [span for span in spans if first <= span[0] and span[1] <= last]
    colour = seat.colour if seat is not None else None
    rows = Event.objects.filter(game=game, seq__gte=first, seq__lte=last).order_by("seq")
    table: dict[int, list] = {}
    # A table event follows the rules event at_seq; those at 0 came before any (first page).
    for t in TableEvent.objects.filter(game=game, at_seq__gte=0 if first == 1 else first, at_seq__lte=last):
        table.setdefault(t.at_seq, []).append(_table_line(t, colour))
    lines = list(table.get(0, [])) if first == 1 else []
    for row in rows.iterator(chunk_size=500):
        line = _line_told(row, colour, game.is_over)
        if steps or not line.bookkeeping:
            lines.append(line)
        lines.extend(table.get(row.seq, []))
    return HistoryPage(
        game=game,
        seat=seat,
        lines=lines,
        page=page,
        pages=len(ends),
        total=total,
        steps=steps,
        moves=group_moves(lines, spans, last, first),
        head_hash=head_hash if total else "",
    )


def time_left(deadline: datetime, now: datetime) -> str:
    """The time from `now` to `deadline` in words, as a countdown beside the deadline: "2 days
    3 h left", "2 h 14 min left", "14 min left", or "the time is up" (the default applies at the
    next sweep). Whole minutes, rounded down. static/live.js counts down with the same words
    (the page's data-left-* attributes)."""
    minutes = int((deadline - now).total_seconds() // 60)
    if minutes < 1:
        return _("the time is up")
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return _("{days} d {hours} h left").format(days=days, hours=hours)
    if hours:
        return _("{hours} h {minutes} min left").format(hours=hours, minutes=minutes)
    return _("{minutes} min left").format(minutes=minutes)
