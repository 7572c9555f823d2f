"""Notebook 2's real-data section: recall on real conversations (LoCoMo), read from the benchmark's results file,
beside the same modes on the series' own paraphrases.

The LoCoMo conversations are licensed for non-commercial research and are not in the project, so the notebook
cannot measure them itself: `benchmarks/bench_locomo.py FOLDER --write` measures them and keeps the numbers only
in `benchmarks/results/locomo.json`, which `locomo_table()` reads. The paraphrase table is computed here, now.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .tables import Table

__all__ = ["LOCOMO_RESULTS", "ResultsMissing", "locomo_results", "locomo_table", "paraphrase_table", "read_results"]

LOCOMO_RESULTS = Path(__file__).resolve().parents[3] / "benchmarks" / "results" / "locomo.json"
"""Where bench_locomo.py --write keeps its table (in the project's checkout, beside the notebooks)."""
CATEGORIES = ("single-hop", "multi-hop", "temporal", "open-domain")
MODES = ("hashing", "semantic", "BM25", "hybrid")


class ResultsMissing(FileNotFoundError):
    """The LoCoMo results file is not where it should be, or is not the benchmark's."""


def read_results(path: str | Path, benchmark: str, key: str) -> dict[str, Any]:
    """A results file a benchmark wrote with --write, checked to hold its `key` list; ResultsMissing otherwise."""
    path = Path(path)
    try:
        results = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ResultsMissing(f"cannot read the results at {path} ({type(error).__name__}); they come with the "
                             f"project's checkout, and `python benchmarks/{benchmark} --write` writes them "
                             "again") from None
    if not isinstance(results, dict) or not isinstance(results.get(key), list):
        raise ResultsMissing(f"{path} is not {benchmark}'s results file (it has no {key!r} list)")
    return results


def locomo_results(path: str | Path = LOCOMO_RESULTS) -> dict[str, Any]:
    """The table bench_locomo.py wrote: the data set's description, its size, and each mode's recall."""
    return read_results(path, "bench_locomo.py FOLDER", "modes")


def locomo_table(results: dict[str, Any]) -> Table:
    """Evidence recall@5 and @10 of every mode, and @10 by question category (no timings: they vary by machine)."""
    rows = []
    for mode in results["modes"]:
        by = mode["R@10 by category"]
        rows.append((mode["mode"], f"{mode['R@5']:.3f}", f"**{mode['R@10']:.3f}**",
                     *(f"{by[c]:.3f}" if c in by else "-" for c in CATEGORIES)))
    return Table(("mode", "R@5", "R@10", *(f"{c} R@10" for c in CATEGORIES)), tuple(rows))


def _hits(embedder: Any, questions: list[tuple[str, int]], memories: tuple[tuple[str, str], ...]
          ) -> dict[str, list[bool]]:
    """For each mode: whether the question's own memory comes first, over a fresh store of `memories`."""
    from ..long_term.records import KINDS
    from .paraphrases import labelled_store

    memory, scope, ids = labelled_store(embedder, memories)

    def by_words(question: str) -> str | None:
        found = memory.store.lexical_search(scope, question, 1, KINDS)
        return found[0][0].id if found else None

    firsts = {"vector": lambda q: memory.recall(scope, q, k=1)[0].id, "BM25": by_words,
              "hybrid": lambda q: memory.recall(scope, q, k=1, search="hybrid")[0].id}
    return {mode: [first(q) == ids[target] for q, target in questions] for mode, first in firsts.items()}


def paraphrase_table(semantic: Any, questions: list[tuple[str, int]], memories: tuple[tuple[str, str], ...]
                     ) -> Table:
    """Each paraphrase: the content words it shares with its memory, and which modes recall that memory
    first. Hashing and semantic are the two embedders; BM25 is the word index alone; hybrid fuses the hashing
    ranking with BM25's, as `search="hybrid"` does by default."""
    from ..long_term.embedding import HashingEmbedder, content_words

    hashing, meaning = _hits(HashingEmbedder(), questions, memories), _hits(semantic, questions, memories)
    columns = {"hashing": hashing["vector"], "semantic": meaning["vector"], "BM25": hashing["BM25"],
               "hybrid": hashing["hybrid"]}
    rows = []
    for i, (question, target) in enumerate(questions):
        shared = sorted(set(content_words(question)) & set(content_words(memories[target][1])))
        rows.append((question, ", ".join(shared) or "none", *("yes" if columns[m][i] else "-" for m in MODES)))
    sharing = sum(row[1] != "none" for row in rows)
    rows.append((f"**right, of {len(questions)}**", f"**{sharing} share a word**",
                 *(f"**{sum(columns[m])}**" for m in MODES)))
    return Table(("paraphrase", "words shared with its memory", *MODES), tuple(rows))
