"""Notebook 2's real-data section: the LoCoMo table read from the benchmark's results file, and the same modes on
the series' paraphrases. Class of input: the committed results file, a missing or foreign file, and the labelled
paraphrase set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from primer_memory import SemanticEmbedder
from primer_memory.lessons.paraphrases import MEMORIES, QUESTIONS
from primer_memory.lessons.real_data import (LOCOMO_RESULTS, ResultsMissing, locomo_results, locomo_table,
                                             paraphrase_table)


def test_the_committed_results_file_is_the_benchmarks_and_holds_numbers_only() -> None:
    results = locomo_results()
    assert LOCOMO_RESULTS.relative_to(Path(__file__).resolve().parents[2]) == Path("benchmarks/results/locomo.json")
    assert results["conversations"] and results["questions"] > 0 and "--write" in results["refresh"]
    assert {"hashing (default)", "semantic", "BM25 (the series')", "hybrid (hashing + BM25)",
            "bm25s (baseline)"} <= {m["mode"] for m in results["modes"]}
    # numbers only: no question, answer or turn of the licensed data set is kept in the project
    assert len(json.dumps(results)) < 3000


def test_the_table_has_one_row_per_mode_with_its_recall() -> None:
    results = locomo_results()
    table = locomo_table(results)
    assert [row[0] for row in table.rows] == [m["mode"] for m in results["modes"]]
    for row, mode in zip(table.rows, results["modes"]):
        assert row[2] == f"**{mode['R@10']:.3f}**"
    assert table._repr_markdown_().count("\n") == len(results["modes"]) + 1


@pytest.mark.parametrize("content", [None, "not json", '{"modes": 3}', "[]"])
def test_a_missing_or_foreign_file_is_named(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "locomo.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(ResultsMissing, match="bench_locomo.py"):
        locomo_results(path)
    assert issubclass(ResultsMissing, FileNotFoundError)


def test_the_paraphrase_table_counts_what_each_mode_recalls_first() -> None:
    questions = [(q, t) for q, t in QUESTIONS if t < 6]
    table = paraphrase_table(SemanticEmbedder(), questions, MEMORIES[:6])
    *rows, total = table.rows
    assert len(rows) == 12
    assert total[1] == "**5 share a word**"
    counts = [int(cell.strip("*")) for cell in total[2:]]
    assert counts == [sum(row[i] == "yes" for row in rows) for i in range(2, 6)]
    # BM25 alone can only find a memory through a shared word
    assert all(row[1] != "none" for row in rows if row[4] == "yes")


def test_the_detection_table_reads_the_instruction_benchmarks_counts(tmp_path: Path) -> None:
    """Notebook 3's table: every row of bench_instructions.py's file, the held-out halves among them."""
    from primer_memory.lessons.policy_tables import INSTRUCTION_RESULTS, detection_table

    rows = json.loads(INSTRUCTION_RESULTS.read_text(encoding="utf-8"))["rows"]
    table = detection_table()
    assert len(table.rows) == len(rows)
    assert {"tune", "held out", "harmless"} == {row[1] for row in table.rows}
    with pytest.raises(ResultsMissing, match="bench_instructions.py"):
        detection_table(tmp_path / "missing.json")
