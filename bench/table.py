"""The benchmark table: one `Row` per figure, each with its same-run baseline and its goal.

A row's `ratio` is value / baseline (both in the same unit, "higher is better" unless the goal
says "at most"). `goal` is the target for that ratio: `(">=", 0.25)` means the figure must
be at least a quarter of the baseline, `("<=", 1.5)` at most 1.5 times it; None when there is
none. A goal set on the figure itself (at most 2 s, at most 1 email), not on its ratio, is
marked `goal_on="value"`: the baseline is then shown beside it for comparison. `note` says what
was measured when the row name cannot.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    """One figure. value, baseline: floats in `unit` (events/s, ms, ...); baseline_name: what the
    baseline is; goal: (op, ratio) with op ">=" or "<=", or None; note: free text."""

    section: str
    figure: str
    value: float | None
    unit: str
    baseline_name: str = ""
    baseline: float | None = None
    goal: tuple[str, float] | None = None
    note: str = ""
    goal_on: str = "ratio"

    @property
    def ratio(self) -> float | None:
        if self.value is None or not self.baseline:
            return None
        return self.value / self.baseline

    @property
    def verdict(self) -> str:
        """ "met", "MISSED", "" (no goal) or "n/a" (not measured)."""
        if self.goal is None:
            return ""
        measured = self.value if self.goal_on == "value" else self.ratio
        if measured is None:
            return "n/a"
        op, target = self.goal
        ok = measured >= target if op == ">=" else measured <= target
        return "met" if ok else "MISSED"


def number(value: float | None) -> str:
    """A figure with 3 significant digits at most, thousands separated; '—' for None."""
    if value is None:
        return "—"
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"


def goal_text(goal: tuple[str, float] | None, *, unit: str = "", on: str = "ratio") -> str:
    """The goal's cell: "ratio ≤ 1.05", or for a goal on the figure itself "≤ 2 s"."""
    if goal is None:
        return ""
    op, target = goal
    sign = "≥" if op == ">=" else "≤"
    if on == "value":
        return f"{sign} {target:g} {unit}".rstrip()
    return f"ratio {sign} {target:g}"


def cells(row: Row) -> dict[str, str]:
    """The texts of a row's cells, by column: section, figure, value, baseline, ratio, goal,
    verdict, note (what `markdown` prints and bench/results.json carries)."""
    baseline = f"{row.baseline_name}: {number(row.baseline)} {row.unit}" if row.baseline_name else ""
    return {
        "section": row.section,
        "figure": row.figure,
        "value": f"{number(row.value)} {row.unit}" if row.value is not None else "—",
        "baseline": baseline,
        "ratio": "" if row.ratio is None else f"{row.ratio:.3g}",
        "goal": goal_text(row.goal, unit=row.unit, on=row.goal_on),
        "verdict": row.verdict,
        "note": row.note,
    }


def markdown(rows: list[Row]) -> str:
    """The rows as a Markdown table (also what the command prints)."""
    lines = [
        "| section | figure | value | baseline (same run) | ratio | goal | verdict | note |",
        "|---|---|---:|---|---:|---|---|---|",
    ]
    for row in rows:
        lines.append("| " + " | ".join(cells(row).values()) + " |")
    return "\n".join(lines)
