"""Every figure says in words what it shows (issue 50): alt text on slides, plain text for screen readers.

Class covered: every figure the notebooks draw (all four figure functions, at the notebooks' arguments and at
others), every image output committed in a notebook, and the slides `make slides` builds from them.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from primer_memory.lessons.examples import invoice_exchange
from primer_memory.lessons.figures import context_tokens, embedder_comparison, recall_scores
from primer_memory.short_term.memory import token_curve

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
TEMPLATE = ROOT / "notebooks" / "slides" / "alt_text.html.j2"


@pytest.mark.parametrize("turns, budget, keep_last", [(40, 300, 6), (5, 100, 2), (12, 2000, 4)])
def test_the_token_figure_says_its_numbers(turns: int, budget: int, keep_last: int) -> None:
    whole, managed = token_curve((invoice_exchange(i) for i in range(1, turns + 1)), budget, keep_last)
    alt = context_tokens(turns, budget, keep_last).alt
    assert f"to {whole[-1]:,} tokens at turn {turns}" in alt and f"{managed[-1]:,} at turn {turns}" in alt
    assert ("never above the budget" in alt) == (max(whole) <= budget)


def test_the_recall_figure_names_what_recall_returns_for_each_question() -> None:
    alt = recall_scores().alt
    assert alt.count("recall returns") == 2 and "'how do I reconcile invoices?' (kinds procedural)" in alt


def test_the_embedder_figure_counts_each_embedders_hits() -> None:
    rows = {"a": [("q1", 0, 0, 0.9, 0.1), ("q2", 1, 0, 0.2, 0.4)], "b": [("q1", 0, 1, 0.1, 0.3), ("q2", 1, 1, 0.8, 0.2)]}
    assert embedder_comparison(rows).alt.endswith("a recalls 1 of 2 first, b recalls 1 of 2 first.")


def test_the_alt_text_is_the_plain_text_output_and_the_pngs_metadata() -> None:
    fig = context_tokens(turns=5, budget=100, keep_last=2)
    data, metadata = fig._repr_mimebundle_()
    assert data["text/plain"] == fig.alt == metadata["image/png"]["alt"]
    assert data["image/png"].startswith("iVBOR")  # base64 of a PNG's signature


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_committed_image_carries_alt_text(path: Path) -> None:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    images = [(c["id"], o) for c in cells for o in c.get("outputs", []) if "image/png" in o.get("data", {})]
    missing = [cell for cell, o in images if len(o.get("metadata", {}).get("image/png", {}).get("alt", "")) < 40]
    assert missing == [], f"{path.name}: figures without alt text in cells {missing}"


def test_the_slides_keep_every_figures_alt_text(tmp_path: Path) -> None:
    """`make slides`' command on the notebooks that hold figures: no image falls back to nbconvert's placeholder."""
    with_images = [p for p in NOTEBOOKS if '"image/png"' in p.read_text(encoding="utf-8")]
    assert len(with_images) >= 3
    run = subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "slides", "--template-file",
                          str(TEMPLATE), "--output-dir", str(tmp_path), *map(str, with_images)],
                         capture_output=True, text=True, check=True)
    assert "Alternative text is missing" not in run.stderr
    for path in with_images:
        html = (tmp_path / f"{path.stem}.slides.html").read_text(encoding="utf-8")
        alts = re.findall(r'<img alt="([^"]*)"', html)
        assert alts and all(len(a) >= 40 and "No description" not in a for a in alts), path.name
