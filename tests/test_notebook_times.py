"""The times the README and each notebook state are the ones measured, the same way for every notebook."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("notebook_times", ROOT / "scripts" / "notebook_times.py")
assert _spec and _spec.loader
times = importlib.util.module_from_spec(_spec)
sys.modules["notebook_times"] = times  # dataclasses look their module up there
_spec.loader.exec_module(times)

NOTEBOOKS = times.notebooks()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_first_cell_states_the_measured_time(path: Path) -> None:
    first = json.loads(path.read_text(encoding="utf-8"))["cells"][0]
    source = "".join(first["source"]) if isinstance(first["source"], list) else first["source"]
    assert times.measure(path).sentence() in source, "run: python scripts/notebook_times.py --write"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_readme_map_states_the_measured_time(path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert times.readme_row_time(readme, path.name) == times.measure(path).minutes


def test_the_method_is_the_one_the_readme_describes() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"prose read at {times.WORDS_PER_MINUTE} words a minute" in readme
    assert "a minute and a half for each other code cell" in readme
    assert "five minutes for each interactive panel and eight for each exercise" in " ".join(readme.split())
    assert (times.MINUTES_PER_CODE_CELL, times.MINUTES_PER_PANEL, times.MINUTES_PER_EXERCISE) == (1.5, 5, 8)


REVIEWED = {"01": (85, 85), "02": (90, 90), "03": (115, 115), "04": (80, 100), "05": (90, 110), "06": (55, 70)}
"""What two fresh reviews measured, as newcomers, for each notebook (minutes; a range where they gave one)."""


def test_every_computed_time_is_within_a_fifth_of_what_newcomers_took() -> None:
    """Issue 50: the rates are chosen so a class can plan by the stated time."""
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        low, high = REVIEWED[path.name[:2]]
        minutes = times.measure(path).exact
        assert 0.8 * low <= minutes <= 1.2 * high, (path.name, round(minutes), (low, high))


def test_counting_is_by_cell_kind(tmp_path: Path) -> None:
    nb = {"cells": [
        {"cell_type": "markdown", "source": "Two words.\n```mermaid\nflowchart LR\n A --> B\n```"},
        {"cell_type": "code", "source": "print(1)"},
        {"cell_type": "code", "source": "budget_panel()"},
        {"cell_type": "code", "source": 'def f():\n    ...\n\n\ncheck("1.1", f)'},
        {"cell_type": "code", "source": ""},
    ]}
    path = tmp_path / "probe.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    t = times.measure(path)
    assert (t.prose_words, t.code_cells, t.panels, t.exercises) == (2, 1, 1, 1)
