"""The notebooks follow the series' conventions, and each one converts to classroom slides."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def test_there_are_six_notebooks() -> None:
    assert [p.name[:3] for p in NOTEBOOKS] == ["01_", "02_", "03_", "04_", "05_", "06_"]


@pytest.fixture(params=NOTEBOOKS, ids=lambda p: p.stem)
def notebook(request: pytest.FixtureRequest) -> nbformat.NotebookNode:
    return nbformat.read(request.param, as_version=4)


def test_opens_with_title_what_you_learn_and_time(notebook: nbformat.NotebookNode) -> None:
    first = notebook.cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# ")
    assert "You will learn" in first.source and re.search(r"Time: about \d+ minutes", first.source)


def test_setup_cell_imports_from_the_package(notebook: nbformat.NotebookNode) -> None:
    setup = next(c for c in notebook.cells if c.cell_type == "code")
    assert "from primer_memory" in setup.source


def test_ends_with_a_self_test_question(notebook: nbformat.NotebookNode) -> None:
    text = "\n".join(c.source for c in notebook.cells[-3:] if c.cell_type == "markdown")
    assert "Self-test" in text and "<details>" in text


def test_outputs_are_committed_clean_and_portable(notebook: nbformat.NotebookNode) -> None:
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert all(c.execution_count is not None for c in code), "run `make notebooks` to store outputs"
    for cell in code:
        for output in cell.outputs:
            assert output.output_type != "error", cell.source[:80]
            assert not (output.output_type == "stream" and output.name == "stderr"), cell.source[:80]
            text = str(output.get("text", "")) + str(output.get("data", {}).get("text/plain", ""))
            assert not re.search(r"/tmp/|/work/|/home/|pid \d+", text), f"machine-specific text in {cell.source[:60]!r}"


def test_has_slide_metadata_and_converts_to_slides(notebook: nbformat.NotebookNode) -> None:
    from nbconvert import SlidesExporter

    slides = [c for c in notebook.cells if c.metadata.get("slideshow", {}).get("slide_type") == "slide"]
    assert len(slides) >= 5
    body, _ = SlidesExporter().from_notebook_node(notebook)
    assert body.count("<section") >= len(slides)


@pytest.mark.parametrize(("number", "name", "call"), [
    ("01", "budget_view", "budget_view(40, 4, 40).gone_text()"),
    ("02", "recall_view", "recall_view"),
])
def test_a_function_the_prose_invites_you_to_call_is_imported_where_it_says_so(number: str, name: str,
                                                                                call: str) -> None:
    """The panels' prose suggests calling their view functions yourself; the setup cell does not import them, so
    the same cell names the import, and the suggestion runs as written after it (it raised NameError)."""
    path = next(p for p in NOTEBOOKS if p.name.startswith(number))
    said = [c.source for c in nbformat.read(path, as_version=4).cells
            if c.cell_type == "markdown" and f"`{call}" in c.source.replace("\n", "")]
    assert said and all(f"from primer_memory.lessons.widgets import {name}" in s for s in said)
    namespace: dict = {}
    exec(f"from primer_memory.lessons.widgets import {name}\nresult = {call}", namespace)  # noqa: S102
    assert namespace["result"] is not None


def test_no_cell_rebinds_a_name_the_setup_or_hypothesis_imported() -> None:
    """Notebook 1 named a loop variable `settings`, rebinding hypothesis's `settings`: a later settings(...) failed."""
    import ast

    for path in NOTEBOOKS:
        cells = [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
        imported: set[str] = set()
        for source in cells:
            tree = ast.parse(source)
            for node in ast.walk(tree):
                if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
                    assert node.target.id not in imported, f"{path.name}: a loop rebinds {node.target.id}"
            imported |= {(a.asname or a.name).split(".")[0] for n in ast.walk(tree)
                         if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
