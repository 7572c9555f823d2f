"""Every notebook cell survives being run again (issue 49): after a full run, each code cell but the setup cell is
run once more, in order, in the same kernel, and must raise nothing and print what the stored notebook shows.

Class covered: all six notebooks, every code cell after the setup cell, re-run after the last cell (the clean-up)
has run; a learner who runs a cell twice, or the notebook again from its second cell, meets the same. A cell that
makes a file, a database, a thread or a schema takes a fresh one per run (`lessons.scratch.fresh_path`), so a
second run starts where the first did instead of finding its leftovers ("task already exists", outputs twice).
Compared: the text a person reads (stdout and each output's text/plain), sanitised as nbval is
(notebooks/sanitize.cfg). One class per notebook, so pytest-xdist's loadscope spreads them over the workers.
"""

from __future__ import annotations

import configparser
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = {p.stem[:2]: p for p in sorted((ROOT / "notebooks").glob("*.ipynb"))}


def _sanitisers() -> list[tuple[re.Pattern[str], str]]:
    config = configparser.ConfigParser(interpolation=None)
    config.read(ROOT / "notebooks" / "sanitize.cfg")
    return [(re.compile(config[s]["regex"]), config[s]["replace"]) for s in config.sections()]


SANITISERS = _sanitisers()


def shown(outputs: list) -> str:
    """What a person reads in a cell's outputs: streams, each result's plain text, and any error."""
    parts = []
    stream = None  # a kernel sends a stream in as many pieces as it likes; the stored notebook has them joined
    for output in outputs:
        if output.output_type == "stream":
            parts.append(output.text if output.name == stream else f"[{output.name}] {output.text}")
            stream = output.name
            continue
        stream = None
        if output.output_type in ("execute_result", "display_data"):
            parts.append(output.get("data", {}).get("text/plain", ""))
        elif output.output_type == "error":
            parts.append(f"[error] {output.ename}: {output.evalue}")
    text = "".join(parts)
    for pattern, replace in SANITISERS:
        text = pattern.sub(replace, text)
    return text


def rerun_differences(path: Path) -> list[str]:
    """Run the notebook, then each code cell after the setup cell once more: the cells whose second run shows other
    text than the stored notebook, with the first line that differs."""
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    stored = {cell.id: shown(cell.outputs) for cell in notebook.cells if cell.cell_type == "code"}
    client = NotebookClient(notebook, timeout=300, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(path.parent)}})
    code = [i for i, cell in enumerate(notebook.cells) if cell.cell_type == "code"]
    differences = []
    with client.setup_kernel():
        for i in code:
            client.execute_cell(notebook.cells[i], i)
        for i in code[1:]:
            cell = notebook.cells[i]
            cell.outputs = []
            client.execute_cell(cell, i)
            again, before = shown(cell.outputs), stored[cell.id]
            if again != before:
                line = next((f"{a!r} (stored: {b!r})" for a, b in zip(again.splitlines(), before.splitlines()) if a != b),
                            f"{again[-160:]!r} (stored: {before[-160:]!r})")
                differences.append(f"cell {cell.id} ({cell.source[:40]!r}...): {line}")
    return differences


def _check(number: str) -> None:
    differences = rerun_differences(NOTEBOOKS[number])
    assert differences == [], "\n".join(differences)


class TestNotebook1:
    def test_every_cell_runs_again(self) -> None:
        _check("01")


class TestNotebook2:
    def test_every_cell_runs_again(self) -> None:
        _check("02")


class TestNotebook3:
    def test_every_cell_runs_again(self) -> None:
        _check("03")


class TestNotebook4:
    def test_every_cell_runs_again(self) -> None:
        _check("04")


class TestNotebook5:
    def test_every_cell_runs_again(self) -> None:
        _check("05")


class TestNotebook6:
    def test_every_cell_runs_again(self) -> None:
        _check("06")


def test_a_cell_that_reuses_its_file_is_caught(tmp_path: Path) -> None:
    """The wrong answer the test exists for: a cell that makes a task in a fixed file raises when run again."""
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("from primer_memory import TaskStateStore\nfolder = __import__('pathlib').Path("
                                  f"{str(tmp_path)!r})"),
        nbformat.v4.new_code_cell("store = TaskStateStore(folder / 'tasks.db')\nstore.create_task('t', 'goal', "
                                  "['one'])\nprint(store.next_step('t'))"),
    ])
    for cell in notebook.cells:
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="one\n")] if "print" in cell.source else []
    path = tmp_path / "fixed.ipynb"
    nbformat.write(notebook, path)
    assert any("InvalidTask" in line for line in rerun_differences(path))
