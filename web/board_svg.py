"""The island as an SVG picture, drawn on the server from `rules.view_for` (never from the state).

`island_svg(view)` takes the JSON view a seat (or a spectator) may see and returns one `<svg>`
element: a pointy-top hexagon per territory at its axial cell `[q, r]` (neighbours differ by
(1,0), (1,-1), (0,-1), (-1,0), (-1,1), (0,1)), with its name, the clans of each colour (the colour's
letter and the count, "G3", in French "V3": `rules.language.clan_letter`), Sanctuaries, Citadels,
the Capital, the Festival marker and the chieftain's mark; and
under the island a band with each seat's Deeds, Pretender token, the Brenn and the Flock of
Crows direction. Everything drawn is public in the view it is given, so the picture can hide
nothing and leak nothing. Units are SVG user units (the picture scales to its box).

`island_of(state, ...)` draws it from the spectator's view (`rules.view_for(state, None)`):
nothing on the island is hidden, so every viewer's island is that one, and it is drawn once per
state in a process (ISLANDS_KEPT states, most recent first) and shared by every page of that
state, rather than once per reader. With the speed layers off (settings.SPEED_LAYERS) it is
drawn each time.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from html import escape

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.rules import (
    TERRITORY_INFO,
    clan_letter,
    colour_clans,
    colour_name,
    territory_name,
    territory_text,
    view_for,
)
from games.story.descriptions import card_ref

# Hex radius (centre to corner) in user units; everything else is laid out from it.
R = 64
SQRT3 = math.sqrt(3)

COLOURS = {
    "green": ("#2f8a4c", "#ffffff"),  # (fill, text on it)
    "blue": ("#2d62b3", "#ffffff"),
    "orange": ("#e07b1a", "#1d1d1d"),
    "white": ("#f7f7f2", "#1d1d1d"),
}
OUTLINE = "#3b3326"
LAND = "#e8dcb8"
CAPITAL_EDGE = "#b8860b"
CLASH_EDGE = "#c0392b"

# Reusable glyphs, each about 14 units tall, centred on (0, 0).
DEFS_TEMPLATE = """<defs>
<g id="i-sanctuary"><title>{sanctuary}</title><path d="M-7 7 L-4 -7 L-1 7 Z M1 7 L4 -5 L7 7 Z" fill="#6c7a6a" stroke="#2e352d" stroke-width="1"/></g>
<g id="i-citadel"><title>{citadel}</title><path d="M-7 7 V-3 H-5 V-7 H-2 V-3 H2 V-7 H5 V-3 H7 V7 Z" fill="#8a6d4b" stroke="#3b2a18" stroke-width="1"/></g>
<g id="i-capital"><title>{capital}</title><path d="M0 -8 L2.4 -2.5 L8 -2.5 L3.5 1.2 L5.2 7.5 L0 3.8 L-5.2 7.5 L-3.5 1.2 L-8 -2.5 L-2.4 -2.5 Z" fill="#f2c230" stroke="#7a5a00" stroke-width="1"/></g>
<g id="i-festival"><title>{festival}</title><path d="M-5 8 V-8 M-5 -8 L7 -4 L-5 0" fill="#d9475b" stroke="#5a1020" stroke-width="1.5"/></g>
<g id="i-crown"><title>{chieftain}</title><path d="M-7 5 L-7 -4 L-3.5 0 L0 -6 L3.5 0 L7 -4 L7 5 Z" stroke="#1d1d1d" stroke-width="1"/></g>
<g id="i-deed"><title>{deed}</title><rect x="-6" y="-7" width="12" height="14" rx="2" fill="#fbf3d5" stroke="#6b5a2e"/><path d="M-3 -3 H3 M-3 0 H3 M-3 3 H1" stroke="#6b5a2e"/></g>
<g id="i-pretender"><title>{pretender}</title><path d="M-7 -7 H7 V1 C7 5 3 7 0 8 C-3 7 -7 5 -7 1 Z" fill="#7b3fa0" stroke="#2f1240"/></g>
<g id="i-brenn"><title>{brenn}</title><circle r="8" fill="#1f1f1f"/><text y="4" text-anchor="middle" font-size="10" font-weight="700" fill="#f2c230">B</text></g>
</defs>"""


def _defs() -> str:
    """The island's symbols, their names (tooltips) in the active language."""
    return DEFS_TEMPLATE.format(
        sanctuary=escape(_("Sanctuary")),
        citadel=escape(_("Citadel")),
        capital=escape(_("Capital")),
        festival=escape(_("Festival")),
        chieftain=escape(_("Chieftain")),
        deed=escape(_("Deed")),
        pretender=escape(_("Pretender token")),
        brenn=escape(_("The Brenn")),
    )


def hex_centre(q: int, r: int) -> tuple[float, float]:
    """Centre of axial cell (q, r) for a pointy-top hex of radius R."""
    return R * SQRT3 * (q + r / 2), R * 1.5 * r


def hex_points(cx: float, cy: float, radius: float) -> str:
    """The six corners of a pointy-top hexagon, as an SVG `points` attribute."""
    corners = []
    for k in range(6):
        angle = math.radians(60 * k - 30)
        corners.append(f"{cx + radius * math.cos(angle):.1f},{cy + radius * math.sin(angle):.1f}")
    return " ".join(corners)


def _name_lines(name: str) -> list[str]:
    """A territory's name on one line, or two when it is long ("Gates of / Tír na nÓg")."""
    if len(name) <= 13 or " " not in name:
        return [name]
    words = name.split()
    best = min(range(1, len(words)), key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))))
    return [" ".join(words[:best]), " ".join(words[best:])]


def territory_summary(tid: str, data: dict, view: dict) -> str:
    """The territory in one line of words (the hexagon's tooltip and accessible name)."""
    clans = ", ".join(f"{colour_name(seat)} {n}" for seat, n in data["clans"].items() if n) or _("no clans")
    marks = []
    if view.get("capital") == tid:
        marks.append(_("the Capital"))
    if data["citadels"]:
        n = data["citadels"]
        marks.append(ngettext("{count} Citadel", "{count} Citadels", n).format(count=n))
    if data["sanctuaries"]:
        n = data["sanctuaries"]
        marks.append(ngettext("{count} Sanctuary", "{count} Sanctuaries", n).format(count=n))
    if view.get("festival") == tid:
        marks.append(_("the Festival"))
    if data.get("chieftain"):
        marks.append(_("chieftain {colour}").format(colour=colour_name(data["chieftain"])))
    # Whole sentences, so French can space its ":" and ";" ("Lande : orange 7 ; chef : orange").
    if not marks:
        return _("{territory}: {clans}").format(territory=territory_name(tid), clans=clans)
    return _("{territory}: {clans}; {marks}").format(
        territory=territory_name(tid), clans=clans, marks=", ".join(marks)
    )


def territory_effect(tid: str) -> str:
    """What the territory does, in words, in the active language: its tile's printed effect
    when it has one (`rules.territory_text`), then its Advantage card's (the territory's
    Advantage card, "Territories", as on the cards shown elsewhere). For the hexagon's
    tooltip."""
    info = TERRITORY_INFO[tid]
    card = card_ref(info.advantage)
    advantage = _("Advantage card {card}: {text}").format(card=card["name"], text=card["text"])
    tile = territory_text(tid)
    return f"{tile} {advantage}" if tile else advantage


def _overlay(tid: str, data: dict, view: dict, clash: str | None) -> str:
    """The Capital's gold rim and the clash outline, drawn over every hexagon (a neighbour drawn
    later would otherwise cover half of the rim)."""
    cx, cy = hex_centre(*data["cell"])
    out = ""
    if view.get("capital") == tid:
        out += (
            f'<polygon class="capital-rim" points="{hex_points(cx, cy, R - 2)}" fill="none" '
            f'stroke="{CAPITAL_EDGE}" stroke-width="4"/>'
        )
    if clash == tid:
        title = escape(_("Clash in {territory}").format(territory=territory_name(tid)))
        out += (
            f'<polygon class="clash" points="{hex_points(cx, cy, R - 2)}" fill="none" '
            f'stroke="{CLASH_EDGE}" stroke-width="4" stroke-dasharray="8 5"><title>'
            f"{title}</title></polygon>"
        )
    return out


def _territory(tid: str, data: dict, view: dict, sheltered: dict | None = None) -> str:
    """One territory's group; `sheltered`: {seat: clans sheltered in a Citadel here} during a
    clash in it (public: the clash panel shows them), drawn apart from the exposed clans."""
    cx, cy = hex_centre(*data["cell"])
    out = [
        f'<g class="territory" data-territory="{tid}" role="img" '
        f'aria-label="{escape(territory_summary(tid, data, view))}">',
        # The tooltip (no script needed): the summary, then what the territory does.
        f"<title>{escape(territory_summary(tid, data, view))}.\n{escape(territory_effect(tid))}</title>",
        f'<polygon points="{hex_points(cx, cy, R - 1)}" fill="{LAND}" stroke="{OUTLINE}" '
        f'stroke-width="1.5"/>',
    ]
    chief = data.get("chieftain")
    if chief:
        # The chieftain's mark: an inner rim in their colour (with a dark edge, for white).
        out.append(
            f'<polygon class="chieftain" points="{hex_points(cx, cy, R - 7)}" fill="none" '
            f'stroke="{OUTLINE}" stroke-width="6"/>'
        )
        out.append(
            f'<polygon points="{hex_points(cx, cy, R - 7)}" fill="none" '
            f'stroke="{COLOURS.get(chief, ("#999",))[0]}" stroke-width="4"/>'
        )
    lines = _name_lines(territory_name(tid))
    # Baselines low enough that the text clears the hexagon's slanted top edges.
    top = cy - 20 if len(lines) == 1 else cy - 27
    for i, line in enumerate(lines):
        out.append(
            f'<text class="name" x="{cx:.1f}" y="{top + 12 * i:.1f}" text-anchor="middle" '
            f'font-size="12" font-weight="600" fill="#2a2418">{escape(line)}</text>'
        )
    # The colour's letter before the count ("G3"; in French "V3", "Bl3"): clans told apart
    # without seeing colour. A pill is as wide as its label.
    # In a clash, the clans sheltered in a Citadel apart from the exposed ones: a pale pill with a
    # dashed rim in the colour, after the colour's exposed clans (rulebook, Clashes: sheltered
    # clans take no part in the clash).
    in_shelter = sheltered or {}
    pills = []
    for seat, n in data["clans"].items():
        kept = min(n, in_shelter.get(seat, 0))
        if n - kept:
            title = colour_clans(n - kept, seat)
            if kept:
                title = ngettext("{clans} exposed", "{clans} exposed", n - kept).format(clans=title)
            pills.append((seat, n - kept, f"{clan_letter(seat)}{n - kept}", False, title))
        if kept:
            title = ngettext("{clans} sheltered in a Citadel", "{clans} sheltered in a Citadel", kept).format(
                clans=colour_clans(kept, seat)
            )
            pills.append((seat, kept, f"{clan_letter(seat)}{kept}", True, title))
    widths = [max(22.0, 6.5 * len(label) + 4) for _seat, _n, label, _s, _t in pills]
    y = cy + 6
    x = cx - (sum(widths) + 2 * max(0, len(pills) - 1)) / 2
    for (seat, n, label, is_sheltered, title), width in zip(pills, widths):
        fill, ink = COLOURS.get(seat, ("#999", "#000"))
        if is_sheltered:
            rim = 'stroke-width="2" stroke-dasharray="3 2"'
            out.append(
                f'<g class="clans sheltered" data-seat="{seat}" data-count="{n}"><title>{escape(title)}'
                f'</title><rect x="{x:.1f}" y="{y - 10.5:.1f}" width="{width:.0f}" height="21" rx="4" '
                f'fill="{LAND}" stroke="{fill if seat != "white" else OUTLINE}" {rim}/>'
                f'<text x="{x + width / 2:.1f}" y="{y + 4:.1f}" text-anchor="middle" font-size="11.5" '
                f'font-weight="700" fill="#2a2418">{escape(label)}</text></g>'
            )
        else:
            out.append(
                f'<g class="clans" data-seat="{seat}" data-count="{n}"><title>'
                f"{escape(title)}"
                f'</title><rect x="{x:.1f}" y="{y - 10.5:.1f}" '
                f'width="{width:.0f}" height="21" rx="10.5" fill="{fill}" stroke="{OUTLINE}" '
                f'stroke-width="1.2"/><text x="{x + width / 2:.1f}" y="{y + 4:.1f}" text-anchor="middle" '
                f'font-size="11.5" font-weight="700" fill="{ink}">{escape(label)}</text></g>'
            )
        x += width + 2
    if chief:
        out.append(
            f'<use href="#i-crown" x="{cx:.1f}" y="{cy - (44 if len(lines) == 1 else 48):.1f}" '
            f'fill="{COLOURS.get(chief, ("#999",))[0]}"/>'
        )
    out.append(_building_row(tid, data, view, cx, cy + 31))
    out.append("</g>")
    return "".join(out)


def _building_row(tid: str, data: dict, view: dict, cx: float, y: float) -> str:
    items = []
    if view.get("capital") == tid:
        items.append(("capital", 1))
    if data["citadels"]:
        items.append(("citadel", data["citadels"]))
    if data["sanctuaries"]:
        items.append(("sanctuary", data["sanctuaries"]))
    if view.get("festival") == tid:
        items.append(("festival", 1))
    widths = [16 + (12 if n > 1 else 0) for _, n in items]
    x = cx - (sum(widths) + 4 * max(0, len(items) - 1)) / 2
    out = []
    for (kind, n), width in zip(items, widths):
        out.append(f'<use class="{kind}" data-count="{n}" href="#i-{kind}" x="{x + 8:.1f}" y="{y:.1f}"/>')
        if n > 1:
            out.append(
                f'<text x="{x + 17:.1f}" y="{y + 5:.1f}" font-size="11" font-weight="700" '
                f'fill="#2a2418">×{n}</text>'
            )
        x += width + 4
    return "".join(out)


def _table_band(view: dict, x0: float, y0: float, width: float) -> tuple[str, float]:
    """Each seat's Deeds, Pretender token and the Brenn, and the Flock of Crows: (svg, height)."""
    seats = view["seats"]
    columns = 2
    cell_w, cell_h = width / columns, 30
    rows = math.ceil(len(seats) / columns)
    out = [
        f'<g class="table-band"><rect x="{x0:.1f}" y="{y0:.1f}" width="{width:.1f}" '
        f'height="{rows * cell_h + 34:.1f}" rx="8" fill="#f6f1e3" stroke="#c9bb94"/>'
    ]
    for i, seat in enumerate(seats):
        x = x0 + 10 + (i % columns) * cell_w
        y = y0 + 20 + (i // columns) * cell_h
        fill, _ink = COLOURS.get(seat, ("#999", "#000"))
        deeds = view["deeds"].get(seat, 0)
        deeds_title = escape(ngettext("{count} Deed", "{count} Deeds", deeds).format(count=deeds))
        parts = [
            f'<g class="seat" data-seat="{seat}"><circle cx="{x + 8:.1f}" cy="{y:.1f}" r="8" '
            f'fill="{fill}" stroke="{OUTLINE}"/><text x="{x + 21:.1f}" y="{y + 4:.1f}" '
            f'font-size="13" fill="#2a2418">{escape(colour_name(seat))}</text>'
        ]
        cx = x + 78
        if view.get("brenn") == seat:
            parts.append(f'<use class="brenn" href="#i-brenn" x="{cx:.1f}" y="{y:.1f}"/>')
        cx += 22
        parts.append(
            f'<g class="deeds" data-count="{deeds}"><title>'
            f'{deeds_title}</title><use href="#i-deed" x="{cx:.1f}" y="{y:.1f}"/><text x="{cx + 10:.1f}" '
            f'y="{y + 4:.1f}" font-size="12" fill="#2a2418">{deeds}</text></g>'
        )
        cx += 30
        if seat in view.get("pretenders", []):
            parts.append(f'<use class="pretender" href="#i-pretender" x="{cx:.1f}" y="{y:.1f}"/>')
        parts.append("</g>")
        out.append("".join(parts))
    clockwise = view.get("flock") == "clockwise"
    fy = y0 + rows * cell_h + 18
    arrow = "↻" if clockwise else "↺"
    flock = _("Flock of Crows")
    turning = _("clockwise") if clockwise else _("counter-clockwise")
    direction = {"clockwise": _("clockwise"), "counterclockwise": _("counterclockwise")}.get(
        view.get("flock"), str(view.get("flock"))
    )
    out.append(
        f'<g class="flock" data-direction="{view.get("flock")}"><title>{escape(flock)}: '
        f'{escape(direction)}</title><text x="{x0 + 10:.1f}" y="{fy + 4:.1f}" font-size="13" '
        f'fill="#2a2418">{escape(flock)} <tspan font-size="17" font-weight="700">{arrow}</tspan> '
        f"{escape(turning)}</text></g>"
    )
    out.append("</g>")
    return "".join(out), rows * cell_h + 34


def island_svg(
    view: dict, *, clash: str | None = None, label: str = "The island", sheltered: dict | None = None
) -> str:
    """The island and the table band as one `<svg>` element (a string of markup).

    view: `rules.view_for(state, seat)` (keys used: territories, capital, festival, seats, deeds,
    pretenders, brenn, flock). clash: a territory to outline as the clash in progress.
    sheltered: {territory: {seat: clans sheltered in a Citadel}} of the clash in progress, drawn
    apart from the exposed clans there (kept while a Triskel window is open inside the clash).
    """
    territories = view["territories"]
    centres = [hex_centre(*d["cell"]) for d in territories.values()] or [(0.0, 0.0)]
    half_w = R * SQRT3 / 2
    min_x = min(x for x, _ in centres) - half_w - 8
    max_x = max(x for x, _ in centres) + half_w + 8
    min_y = min(y for _, y in centres) - R - 8
    max_y = max(y for _, y in centres) + R + 8
    width = max(max_x - min_x, 300.0)
    if width > max_x - min_x:  # centre a narrow island over the band
        pad = (width - (max_x - min_x)) / 2
        min_x -= pad
    band, band_h = _table_band(view, min_x, max_y + 4, width)
    height = max_y - min_y + band_h + 12
    shelters = sheltered or {}
    body = "".join(_territory(tid, d, view, shelters.get(tid)) for tid, d in territories.items())
    body += "".join(_overlay(tid, d, view, clash) for tid, d in territories.items())
    return (
        f'<svg class="island" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{escape(label)}" '
        f'viewBox="{min_x:.1f} {min_y:.1f} {width:.1f} {height:.1f}" '
        f'font-family="system-ui, sans-serif">{_defs()}{body}{band}</svg>'
    )


# Islands drawn lately, per process: {(game key, seq, language, label, clash, sheltered): svg}.
# Some 40 KB each: a worker rendering the pages of a move ahead, or a web process serving them,
# draws each state once.
ISLANDS_KEPT = 64
_islands: OrderedDict[tuple, str] = OrderedDict()


def island_of(
    state,
    *,
    game_key: tuple,
    clash: str | None = None,
    label: str = "The island",
    sheltered: dict | None = None,
) -> str:
    """`island_svg` of `state` as a spectator sees it (`rules.view_for(state, None)`): the same
    picture for every viewer, since everything on the island is public (a player's view adds
    only their hand, which the island does not show), and so nothing hidden can be in it.

    game_key: what names the game and how `state` was taken, e.g. (id, seed commitment,
    settled): with the state's seq, the language and the arguments, the key under which the
    picture is kept in this process (the log is append-only: one seq of one game is one state).
    """
    key = (game_key, state.seq, translation.get_language(), label, clash, repr(sheltered))
    if settings.SPEED_LAYERS and key in _islands:
        _islands.move_to_end(key)
        return _islands[key]
    svg = island_svg(view_for(state, None), clash=clash, label=label, sheltered=sheltered)
    if settings.SPEED_LAYERS:
        _islands[key] = svg
        while len(_islands) > ISLANDS_KEPT:
            _islands.popitem(last=False)
    return svg
