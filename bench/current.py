"""The Current figures of bench/RESULTS.md: the latest row of each figure, and bench/results.json.

A figure is keyed by its section and its name (`Figure.key`). `python -m bench --write` merges a
run's rows into the table at the top of RESULTS.md (`merge`: a row of the run replaces the row of
the same key, every other row stays), writes the run's full record to
`history/<date>-<commit>.md` beside RESULTS.md, and the same current rows, as strings exactly as
the table shows them, to `results.json` beside it (`write`). `migrate_log` read the old
RESULTS.md, a log of runs, once; `python -m bench.current --migrate` does it again.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from bench.table import Row, cells

HEADING = "## Current figures"
COLUMNS = (
    "section",
    "figure",
    "value",
    "baseline",
    "ratio",
    "goal",
    "verdict",
    "note",
    "date",
    "commit",
    "load",
)
INTRO = """\
Written by `python -m bench --write`: the latest row of each figure (section and figure), with
the date, commit and load average of the run that measured it. Each ratio is value / baseline,
both measured in that run: the machines are shared and noisy, so only ratios mean anything. What
each row measures, and why each missed goal is missed: bench/README.md. Each run's full record
(machine, command, every row, the notes): bench/history/. The same rows for scripts:
bench/results.json."""


@dataclass(frozen=True)
class Figure:
    """One row of Current figures: every field is the text of its cell ("" when empty)."""

    section: str
    figure: str
    value: str
    baseline: str = ""
    ratio: str = ""
    goal: str = ""
    verdict: str = ""
    note: str = ""
    date: str = ""
    commit: str = ""
    load: str = ""

    @property
    def key(self) -> tuple[str, str]:
        return (self.section, self.figure)

    @classmethod
    def of(cls, row: Row, *, date: str, commit: str, load: str) -> Figure:
        """The Current figures row of a bench `Row` measured in the run of `date` (`YYYY-MM-DD HH:MM
        UTC`), at `commit` (short hash), under `load` (the load average at the run's end)."""
        return cls(**cells(row), date=date, commit=commit, load=load)


# Figures no longer measured under these names, each with the figure that measures it now: a
# row under one of these keys is dropped from the table at the next write (`merge`); every run
# that measured it stays in bench/history/.
RETIRED: dict[tuple[str, str], str] = {
    ("rules", "rules.fold of recorded 4-player games (142,403 events)"): (
        "rules.fold of recorded 4-player games, read back from JSON as a load reads them"
    ),
    ("rules", "rules.fold of recorded 4-player games (142,648 events)"): (
        "rules.fold of recorded 4-player games, read back from JSON as a load reads them"
    ),
    ("rules", "rules.fold of recorded games, read back as a load reads them, vs the trivial fold"): (
        "rules.fold of recorded 4-player games, read back from JSON as a load reads them"
    ),
    ("rules", "the same, of the objects decide made (no goal)"): (
        "rules.fold of the same events as decide made them (scattered over the play)"
    ),
    ("store", "commands/s on one connection vs commit 7222d2d"): (
        "commands/s, 1 client, one connection, this tree"
    ),
    (
        "store",
        "queries per accepted command (median)",
    ): "queries per accepted command (median) vs the issue's budget",
    ("store", "1 submitter, one game vs eventsourcing"): "1 submitter, one game vs (c) eventsourcing",
    # Issue 30 replaced its goal (two cores cannot give 3x) by the CPU per accepted command.
    ("store", "4 submitters on 4 games vs 1 submitter"): "4 submitters on 4 games vs 1 submitter on 1 game",
    ("store", "cores kept busy: 1 submitter / 4 submitters (of 2)"): (
        "4 submitters on 4 games vs 1 submitter on 1 game"
    ),
    ("store", "the most 2 cores allow 4 submitters (2 / the cores one keeps busy)"): (
        "4 submitters on 4 games vs 1 submitter on 1 game"
    ),
    ("store", "write-ahead log per command vs commit 7222d2d"): (
        "write-ahead log per accepted command (PostgreSQL, mean)"
    ),
    ("store", "CPU time a command: 1 submitter (of its wall time) / 4 submitters"): (
        "CPU per accepted command (submitter + its PostgreSQL backend), this tree"
    ),
    ("store", "store.chain_rows, chain version 2 (76,390 events, 17,451 private)"): (
        "store.chain_rows, chain version 2"
    ),
    ("growth", "rebuild without snapshots (50,000 events)"): "rebuild without snapshots (~50,000 events)",
    ("growth", "rebuild without snapshots (50,001 events)"): "rebuild without snapshots (~50,000 events)",
    ("growth", "rebuild without snapshots (50,010 events)"): "rebuild without snapshots (~50,000 events)",
    (
        "growth",
        "rebuild of 50,001 events vs a bare read and decode",
    ): "rebuild without snapshots (~50,000 events)",
    ("growth", "one command at seq ~50,000 vs ~50"): "one command at seq ~50,000 (snapshots)",
    ("web", "game page p95 / history page p95 vs the minimal view"): "game page, p95",
    ("email", "prompt delivery vs a no-op Celery task"): (
        "prompt emails written and delivered by the Celery worker to anymail's test backend"
    ),
    (
        "pacing",
        "decline-only prompts per seat and round (holders) / emails per seat and round vs real decisions + 1",
    ): ("holders: decline-only prompts per seat and round"),
}


def merge(current: list[Figure], run: list[Figure]) -> list[Figure]:
    """`current` with each figure of `run` in place of the row of its key; a figure new to the
    table goes after the last row of its section (at the end when its section is new); the rows
    of `RETIRED` figures are left out."""
    merged = [figure for figure in current if figure.key not in RETIRED]
    for figure in run:
        at = next((i for i, old in enumerate(merged) if old.key == figure.key), None)
        if at is not None:
            merged[at] = figure
            continue
        same = [i for i, old in enumerate(merged) if old.section == figure.section]
        merged.insert(same[-1] + 1 if same else len(merged), figure)
    return merged


def table(figures: list[Figure]) -> str:
    """The figures as the Markdown table of Current figures (a `|` in a cell is escaped)."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|---|---|---:|---|---:|---|---|---|---|---|---|"]
    for figure in figures:
        texts = [getattr(figure, name).replace("|", "\\|") for name in COLUMNS]
        lines.append("| " + " | ".join(texts) + " |")
    return "\n".join(lines)


def split_cells(line: str) -> list[str]:
    """The cells of one Markdown table line, stripped and unescaped."""
    text = line.strip().removeprefix("|")
    if text.endswith("|") and not text.endswith("\\|"):
        text = text[:-1]
    return [part.strip().replace("\\|", "|") for part in re.split(r"(?<!\\)\|", text)]


def read(results_md: str) -> list[Figure]:
    """The rows of the Current figures table of a RESULTS.md text; [] when it has none.
    Raises ValueError when the table's header is not `COLUMNS`."""
    lines = results_md.splitlines()
    if HEADING not in lines:
        return []
    start = next(i for i in range(lines.index(HEADING), len(lines)) if lines[i].startswith("|"))
    if tuple(split_cells(lines[start])) != COLUMNS:
        raise ValueError(f"the Current figures table must have the columns {', '.join(COLUMNS)}")
    figures = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        figures.append(Figure(*split_cells(line)))
    return figures


def document(figures: list[Figure]) -> str:
    """The whole text of RESULTS.md for these current figures."""
    return f"# Benchmark results\n\n{HEADING}\n\n{INTRO}\n\n{table(figures)}\n"


def write(results: Path, run: list[Figure], record: str, *, date: str, commit: str) -> Path:
    """Merge `run` into the Current figures of `results` (RESULTS.md; created when missing), write
    `results.json` beside it and `record` (the run's full Markdown record) to
    `history/<YYYY-MM-DD>-<commit>.md` beside it (a second run of the same day and commit adds
    `-2`, `-3`...). Returns the record's path."""
    old = read(results.read_text()) if results.exists() else []
    figures = merge(old, run)
    results.write_text(document(figures))
    write_json(results.with_name("results.json"), figures)
    history = results.parent / "history"
    history.mkdir(exist_ok=True)
    stem = f"{date[:10]}-{commit}"
    path, n = history / f"{stem}.md", 1
    while path.exists():
        n += 1
        path = history / f"{stem}-{n}.md"
    path.write_text(record)
    return path


def write_json(path: Path, figures: list[Figure]) -> None:
    """results.json: a list of objects with the fields of `COLUMNS`, in the table's order."""
    path.write_text(json.dumps([asdict(f) for f in figures], ensure_ascii=False, indent=1) + "\n")


# The migration of the old log: its sections ("## ", "### ") each say when they ran.
DATE = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2})(?:-(\d{2}:\d{2}))?)?")
AT_COMMIT = re.compile(r"\bat commit ([0-9a-f]{7,40})\b")
COMMIT = re.compile(r"\bcommits? ([0-9a-f]{7,40})\b")
BARE_HASH = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")
LOAD = re.compile(
    r"load(?: average)?(?: at the end| during [^0-9]*| about| up to)? ([0-9](?:[0-9., -]*[0-9])?)"
)


def migrate_log(log: str) -> list[Figure]:
    """Every figure of the old RESULTS.md log, keeping of each the row of the newest run: newest
    by its section's date line (the end of a range of times; a later row of the same time wins).
    Tables whose first columns are section and figure hold figures, a value per run when they
    have `run 1 | run 2` columns; the command path's tables of runs (`run | CPU per command...`)
    give its two figures; the other tables (the pacing's per mode, commits compared) stay in the
    log alone."""
    newest: dict[tuple[str, str], tuple[tuple[str, int], Figure]] = {}
    for table_at, header, rows, run in tables_of(log):
        if header[:2] == ["section", "figure"]:
            figures = [logged_figure(dict(zip(header, row)), run) for row in rows]
        elif header[0] == "run":
            figures = command_path_figures(header, rows, run)
        else:
            continue
        stamp = (run.when, table_at)
        for figure in figures:
            if figure.key not in newest or newest[figure.key][0] <= stamp:
                newest[figure.key] = (stamp, figure)
    return [figure for _stamp, figure in newest.values()]


@dataclass(frozen=True)
class LoggedRun:
    """What the old log says of the run a table belongs to: when ("YYYY-MM-DD HH:MM UTC" or a
    day), its commit and its load, from the paragraph just above the table (a run's own line,
    such as "Run B (f3c1fc8; load 4.2):"), else from the whole section ("## ")."""

    when: str
    commit: str
    load: str


def tables_of(log: str) -> list[tuple[int, list[str], list[list[str]], LoggedRun]]:
    """The tables of the log: (line number, header cells, rows of cells, its run)."""
    lines = log.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith(("## ", "### "))] + [len(lines)]
    found = []
    parent_when, parent_text = "", ""
    for begin, end in zip([0, *starts], starts):
        section = lines[begin:end]
        text = "\n".join(line for line in section if not line.startswith("|"))
        if section[0].startswith("### "):
            # A part of a section: its own date and commit first, then its section's.
            when, text = parent_when, f"{text}\n{parent_text}"
        else:
            when, parent_text = "", text
        paragraph, fresh = "", True
        for i, line in enumerate(section):
            date = DATE.search(line)
            if date and (line.startswith("#") or line.startswith("- date:")):
                when = " ".join(filter(None, [date.group(1), date.group(3) or date.group(2)]))
                when += " UTC" if len(when) > 10 else ""
            if not line.startswith("|"):
                # The paragraph above a table: the last block of lines before it.
                if line.strip():
                    paragraph, fresh = (line if fresh else f"{paragraph}\n{line}"), False
                else:
                    fresh = True
                continue
            fresh = True
            if i and section[i - 1].startswith("|"):
                continue
            rows = []
            for row in section[i + 2 :]:
                if not row.startswith("|"):
                    break
                rows.append(split_cells(row))
            found.append((begin + i, split_cells(line), rows, logged_run(when, paragraph, text)))
        if not section[0].startswith("### "):
            parent_when = when
    return found


def logged_run(when: str, paragraph: str, section: str) -> LoggedRun:
    # A run's own line ("Run B (f3c1fc8; load 4.2):") names its commit and load; else the section.
    own = paragraph if paragraph.startswith("Run ") else ""
    # A commit named as the baseline ("baseline: commit X", "vs commit X") is not the run's.
    named = (
        m for m in COMMIT.finditer(section) if not re.search(r"baseline|vs $", section[: m.start()][-40:])
    )
    commit = BARE_HASH.search(own) or AT_COMMIT.search(section) or next(named, None)
    load = LOAD.search(own) or LOAD.search(section)
    return LoggedRun(
        when=when,
        commit=(commit.group(0) if commit.re is BARE_HASH else commit.group(1)) if commit else "",
        load=load.group(1).strip(" ,-") if load else "",
    )


def logged_figure(cell: dict[str, str], run: LoggedRun) -> Figure:
    """One row of a section-and-figure table of the old log as a Figure."""
    runs = [name for name in cell if name.startswith("run ")]
    if runs:
        value = "; ".join(f"{name}: {cell[name]}" for name in runs if cell[name] not in ("", "–"))
    else:
        value = cell.get("value", "")
    return Figure(
        section=cell["section"],
        figure=cell["figure"],
        value=value,
        baseline=cell.get("baseline (same run)", cell.get("baseline", "")),
        ratio=cell.get("ratio", ""),
        goal=cell.get("goal", ""),
        verdict=cell.get("verdict", ""),
        note=cell.get("note", ""),
        date=run.when,
        commit=run.commit,
        load=run.load,
    )


# The command path's tables of runs: a value column, its baseline's, then (maybe) the ratio's.
COMMAND_PATH = {
    "CPU per command, this tree": "CPU per accepted command (submitter + its PostgreSQL backend), this tree",
    "commands/s, this tree": "commands/s, 1 client, one connection, this tree",
}


def command_path_figures(header: list[str], rows: list[list[str]], run: LoggedRun) -> list[Figure]:
    """The figures of a table of the command path's runs (`run | CPU per command, this tree |
    a467144 | ratio (goal ≤ 0.2) | ...`): each run's value, baseline and ratio, the goal's verdict
    met only when every run met it. [] for a table of another shape."""
    figures = []
    for at, name in enumerate(header):
        figure = next((f for prefix, f in COMMAND_PATH.items() if name.startswith(prefix)), None)
        if figure is None:
            continue
        goal = re.search(r"goal ([≤≥]) ([0-9.]+)", header[at + 2]) if at + 2 < len(header) else None
        ratios = [row[at + 2].split(",")[0] for row in rows] if goal else []
        if goal:
            target = float(goal.group(2))
            met = all((float(r) <= target) == (goal.group(1) == "≤") for r in ratios)
        figures.append(
            Figure(
                section="store",
                figure=figure,
                value="; ".join(f"run {row[0]}: {row[at]}" for row in rows),
                baseline=f"{header[at + 1]}: " + "; ".join(row[at + 1] for row in rows),
                ratio="; ".join(ratios),
                goal=f"ratio {goal.group(1)} {goal.group(2)}" if goal else "",
                verdict=("met" if met else "MISSED") if goal else "",
                date=run.when,
                commit=run.commit,
                load=run.load,
            )
        )
    return figures


def main(argv: list[str]) -> int:
    """`python -m bench.current --migrate`: turn bench/RESULTS.md, a log of runs, into Current
    figures, the log moved to bench/history/log-until-<date>.md."""
    if argv != ["--migrate"]:
        print("usage: python -m bench.current --migrate", file=sys.stderr)
        return 2
    results = Path(__file__).with_name("RESULTS.md")
    log = results.read_text()
    if HEADING in log.splitlines():
        print(f"{results} already opens with {HEADING}: nothing to migrate", file=sys.stderr)
        return 1
    figures = migrate_log(log)
    figures.sort(key=lambda f: SECTION_ORDER.get(f.section, len(SECTION_ORDER)))
    last = max(f.date[:10] for f in figures)
    (results.parent / "history").mkdir(exist_ok=True)
    (results.parent / "history" / f"log-until-{last}.md").write_text(log)
    results.write_text(document(figures))
    write_json(results.with_name("results.json"), figures)
    return 0


SECTION_ORDER = {
    name: i
    for i, name in enumerate(("rules", "store", "growth", "email", "pace", "web", "live", "pacing", "bots"))
}

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
