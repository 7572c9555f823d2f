"""How long each notebook takes a newcomer, measured the same way for every notebook.

Usage: python scripts/notebook_times.py            prints the table
       python scripts/notebook_times.py --write    writes each time into its notebook's first cell and the README

The method (the README states it too): prose read at 150 words a minute, a minute and a half for each other
code cell (read it, run it, read what it prints), five minutes for each interactive panel, eight minutes for
each exercise; the sum rounded to the nearest five minutes. Words are counted in markdown cells outside code
fences (a diagram's source is not prose). The rates were chosen against two fresh reviews that worked through
all six notebooks as newcomers (85, 90, 115, 80-100, 90-110 and 55-70 minutes): with them every computed time
is within 20% of its estimate (the first rates, one minute a code cell, put notebooks 5 and 6 a third short).
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORDS_PER_MINUTE = 150
MINUTES_PER_CODE_CELL = 1.5
MINUTES_PER_PANEL = 5
MINUTES_PER_EXERCISE = 8
ROUND_TO = 5

_FENCE = re.compile(r"^```.*?^```", re.M | re.S)
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
_EXERCISE = re.compile(r"""\bcheck\(\s*["'](\d+\.\d+)["']""")
_PANEL = re.compile(r"\b\w+_panel\(")
TIME_SENTENCE = re.compile(r"\*Time: about \d+ minutes[^*]*\*")


@dataclass(frozen=True)
class NotebookTime:
    """The parts of one notebook's time and their sum, in minutes."""

    name: str
    prose_words: int
    code_cells: int
    panels: int
    exercises: int

    @property
    def exact(self) -> float:
        return (self.prose_words / WORDS_PER_MINUTE + self.code_cells * MINUTES_PER_CODE_CELL
                + self.panels * MINUTES_PER_PANEL + self.exercises * MINUTES_PER_EXERCISE)

    @property
    def minutes(self) -> int:
        return int(ROUND_TO * round(self.exact / ROUND_TO))

    def sentence(self) -> str:
        """The first cell's time line."""
        return (f"*Time: about {self.minutes} minutes, exercises included (measured the same way for every "
                "notebook: see the README).*")


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def measure(path: Path) -> NotebookTime:
    """Count a notebook's prose words, code cells, panels and exercises."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    words = code = panels = exercises = 0
    for cell in cells:
        text = _source(cell)
        if cell["cell_type"] == "markdown":
            words += len(_WORD.findall(_FENCE.sub(" ", text)))
        elif cell["cell_type"] == "code" and text.strip():
            found = len(set(_EXERCISE.findall(text)))
            shown = len(_PANEL.findall(text))
            exercises += found
            panels += shown
            code += not (found or shown)
    return NotebookTime(path.name, words, code, panels, exercises)


def notebooks() -> list[Path]:
    return sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def readme_row_time(readme: str, name: str) -> int | None:
    """The time the README's map states for one notebook (its row links to the file)."""
    for line in readme.splitlines():
        if f"(notebooks/{name})" in line:
            found = re.search(r"\|\s*(\d+) min\s*\|\s*$", line)
            return int(found.group(1)) if found else None
    return None


def write() -> None:
    """Put each measured time into its notebook's first cell and the README's map."""
    import nbformat

    readme_path = ROOT / "README.md"
    readme = readme_path.read_text(encoding="utf-8")
    for path in notebooks():
        time = measure(path)
        nb = nbformat.read(path, as_version=4)
        first = nb.cells[0]
        if TIME_SENTENCE.search(first.source):
            first.source = TIME_SENTENCE.sub(time.sentence(), first.source)
        else:
            first.source = first.source.rstrip() + "\n\n" + time.sentence()
        text = nbformat.writes(nb)
        path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
        readme = "\n".join(re.sub(r"\|\s*\d+ min\s*\|\s*$", f"| {time.minutes} min |", line)
                           if f"(notebooks/{path.name})" in line else line for line in readme.split("\n"))
    readme_path.write_text(readme, encoding="utf-8")


def main(argv: list[str]) -> int:
    if argv[1:] == ["--write"]:
        write()
    print(f"{'notebook':<34} {'words':>5} {'cells':>5} {'panels':>6} {'exercises':>9} {'minutes':>7}")
    for path in notebooks():
        t = measure(path)
        print(f"{t.name:<34} {t.prose_words:>5} {t.code_cells:>5} {t.panels:>6} {t.exercises:>9} "
              f"{t.exact:>6.1f} -> {t.minutes}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
