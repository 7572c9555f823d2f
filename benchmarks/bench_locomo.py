"""Recall on real conversations: LoCoMo (Maharana et al., ACL 2024), evidence recall@5 and @10 for every mode.

Each conversation's turns are stored as an agent stores them when they happen: one episodic memory per turn,
"Speaker: text", every turn kept, in the order spoken, with the memory's clock at that session's date (through
`LongTermMemory.remember`, so the write policy judges each one). Each question of categories 1-4 (5 is
adversarial, with no answer in the conversation) then recalls k turns; evidence recall@k is the share of the
question's evidence turns among them, averaged over questions. Modes: the hashing embedder (the default), the
semantic one, the series' BM25 alone (`LongTermMemory.store.lexical_search`), hybrid (each embedder's ranking
and BM25's fused by rank, `search="hybrid"`), and plain BM25 from `bm25s` (whole turns, English stop words) as
the baseline, in the same run. p50 is the median time of one recall. It also counts the questions that share a
word with one of their evidence turns: the evidence a lexical index can use at all.

The data set is licensed for non-commercial research (CC BY-NC 4.0): it is read from a folder and never kept in
the project. Give the folder as the first argument or in PRIMER_LOCOMO (default: ../shared/locomo beside the
project); without it the benchmark says how to get it and stops.

With `--write`, the table is also written, numbers only, to benchmarks/results/locomo.json, where notebook 2
reads it (the notebook runs without the data set; re-run this with --write to refresh it).

Run: .venv/bin/python benchmarks/bench_locomo.py [FOLDER] [--write]
"""

from __future__ import annotations

import datetime
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from timing import ROOT, size  # benchmarks/ is on the path

DEFAULT = ROOT.parent / "shared" / "locomo"
RESULTS = ROOT / "benchmarks" / "results" / "locomo.json"
K = (5, 10)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
LIMIT = size(None, 40)  # questions per conversation (all of them in a real run)


def folder() -> Path | None:
    given = next((a for a in sys.argv[1:] if not a.startswith("--")), os.environ.get("PRIMER_LOCOMO", str(DEFAULT)))
    path = Path(given)
    return path if path.is_dir() and any(path.glob("*.json")) else None


def hours(stamp: str) -> float:
    """'1:56 pm on 8 May, 2023' as hours since 1970 (the memory's clock counts hours)."""
    when = datetime.datetime.strptime(stamp.strip(), "%I:%M %p on %d %B, %Y")
    return when.replace(tzinfo=datetime.timezone.utc).timestamp() / 3600


def turns(conversation: dict[str, Any]) -> list[tuple[str, str, float]]:
    """(dia_id, "Speaker: text", session hours) of every turn, in the order spoken."""
    out = []
    n = 1
    while f"session_{n}" in conversation:
        clock = hours(conversation[f"session_{n}_date_time"])
        out += [(t["dia_id"], f"{t['speaker']}: {t['text']}", clock) for t in conversation[f"session_{n}"]]
        n += 1
    return out


def evidence(question: dict[str, Any]) -> set[str]:
    """The question's evidence turn ids (a few entries hold two, separated by ';')."""
    return {part.strip() for item in question.get("evidence", []) for part in str(item).split(";") if part.strip()}


class Conversation:
    """One conversation stored in one memory per embedder, plus a bm25s index of the same turns."""

    def __init__(self, data: dict[str, Any]):
        import bm25s

        from primer_memory import HashingEmbedder, LongTermMemory, Scope, SemanticEmbedder

        self.scope = Scope("locomo", "reader")
        self.turns = turns(data)
        self.questions = [q for q in data["qa"] if q.get("category") in CATEGORIES and evidence(q)][:LIMIT]
        now = [0.0]
        self.memories = {"hashing": LongTermMemory(HashingEmbedder(), clock=lambda: now[0]),
                         "semantic": LongTermMemory(SemanticEmbedder(), clock=lambda: now[0])}
        self.turn_of: dict[str, dict[str, list[str]]] = {name: {} for name in self.memories}
        self.refused = 0
        for dia_id, text, clock in self.turns:
            now[0] = clock
            for name, memory in self.memories.items():
                result = memory.remember(self.scope, "episodic", text)
                if result.record is None:
                    self.refused += name == "hashing"
                else:
                    self.turn_of[name].setdefault(result.record.id, []).append(dia_id)
        self.shared = self.word_overlap()
        self.bm25 = bm25s.BM25()
        self.bm25.index(bm25s.tokenize([t for _, t, _ in self.turns], stopwords="en", show_progress=False),
                        show_progress=False)

    def word_overlap(self) -> tuple[int, int]:
        """How many questions share a word (a BM25 term: stemmed, stop words aside) with one of their evidence
        turns: (any word, a word besides the speakers' names, which every turn of theirs holds)."""
        from primer_memory.long_term.lexical import terms

        text = {dia_id: set(terms(said)) for dia_id, said, _ in self.turns}
        speakers = {term for _, said, _ in self.turns for term in terms(said.split(":", 1)[0])}
        shared = [set(terms(q["question"])) & set().union(*(text.get(e, set()) for e in evidence(q)))
                  for q in self.questions]
        return sum(bool(s) for s in shared), sum(bool(s - speakers) for s in shared)

    def modes(self) -> dict[str, Callable[[str, int], list[str]]]:
        """Each mode as question, k -> the dia_ids of the turns it recalls, best first."""
        import bm25s

        hashing, semantic = self.memories["hashing"], self.memories["semantic"]

        def ids(name: str, records: list[Any]) -> list[str]:
            return [d for r in records for d in self.turn_of[name].get(r.id, [])]

        def plain_bm25(question: str, k: int) -> list[str]:
            tokens = bm25s.tokenize([question], stopwords="en", show_progress=False)
            if not tokens.vocab:
                return []
            docs, _ = self.bm25.retrieve(tokens, k=min(k, len(self.turns)), show_progress=False)
            return [self.turns[int(i)][0] for i in docs[0]]

        return {
            "hashing (default)": lambda q, k: ids("hashing", hashing.recall(self.scope, q, k)),
            "semantic": lambda q, k: ids("semantic", semantic.recall(self.scope, q, k)),
            "BM25 (the series')": lambda q, k: ids("hashing", [r for r, _ in hashing.store.lexical_search(
                self.scope, q, k, ("episodic",))]),
            "hybrid (hashing + BM25)": lambda q, k: ids("hashing", hashing.recall(self.scope, q, k, search="hybrid")),
            "hybrid (semantic + BM25)": lambda q, k: ids("semantic", semantic.recall(self.scope, q, k,
                                                                                     search="hybrid")),
            "bm25s (baseline)": plain_bm25,
        }


def main() -> None:
    where = folder()
    if where is None:
        print("LoCoMo is not here. Get data/locomo10.zip from github.com/snap-research/locomo (CC BY-NC 4.0), put "
              "the conversations' JSON files in a folder outside the project, and give it as the first argument or "
              f"in PRIMER_LOCOMO (default {DEFAULT}).")
        return
    files = sorted(where.glob("*.json"))[: size(None, 1)]
    rows: dict[str, dict[int, list[list[float]]]] = {}
    times: dict[str, list[float]] = {}
    stored = refused = questions = shared = besides_names = 0
    for path in files:
        conversation = Conversation(json.loads(path.read_text(encoding="utf-8")))
        stored += len(conversation.turns)
        refused += conversation.refused
        questions += len(conversation.questions)
        shared += conversation.shared[0]
        besides_names += conversation.shared[1]
        for name, recall in conversation.modes().items():
            for q in conversation.questions:
                start = time.perf_counter()
                got = recall(q["question"], max(K))
                times.setdefault(name, []).append(time.perf_counter() - start)
                wanted = evidence(q)
                hits = [len(wanted & set(got[:k])) / len(wanted) for k in K]
                rows.setdefault(name, {}).setdefault(q["category"], []).append(hits)
    print(f"LoCoMo, {len(files)} conversations ({', '.join(p.stem for p in files)}): {stored} turns stored one "
          f"record each ({refused} refused by the write policy), {questions} questions of categories 1-4")
    print(f"questions sharing a word with one of their evidence turns: {shared / questions:.3f}; a word besides "
          f"the speakers' names: {besides_names / questions:.3f}")
    head = "".join(f"{CATEGORIES[c] + ' R@10':>18}" for c in CATEGORIES)
    print(f"\n{'mode':<26}{'R@5':>7}{'R@10':>7}{head}{'p50 recall':>13}")
    base = None
    table = []
    for name, by_category in rows.items():
        every = [h for hits in by_category.values() for h in hits]
        at = [statistics.fmean(h[i] for h in every) for i in range(len(K))]
        per = {CATEGORIES[c]: round(statistics.fmean(h[1] for h in by_category[c]), 3) for c in CATEGORIES
               if c in by_category}
        cells = "".join(f"{per[CATEGORIES[c]]:>18.3f}" if CATEGORIES[c] in per else f"{'-':>18}" for c in CATEGORIES)
        p50 = statistics.median(times[name]) * 1e3
        print(f"{name:<26}{at[0]:>7.3f}{at[1]:>7.3f}{cells}{p50:>10.2f} ms")
        table.append({"mode": name, "R@5": round(at[0], 3), "R@10": round(at[1], 3), "R@10 by category": per,
                      "p50 ms": round(p50, 2)})
        if name.startswith("bm25s"):
            base = at[1]
    if "--write" in sys.argv[1:]:
        RESULTS.parent.mkdir(exist_ok=True)
        RESULTS.write_text(json.dumps({
            "data": "LoCoMo (Maharana et al., ACL 2024), CC BY-NC 4.0; numbers only, the data set is not here",
            "conversations": [p.stem for p in files], "turns": stored, "refused": refused, "questions": questions,
            "sharing a word with their evidence": {"any word": round(shared / questions, 3),
                                                   "besides speaker names": round(besides_names / questions, 3)},
            "measure": "evidence recall@k: the share of a question's evidence turns among the k recalled",
            "refresh": "python benchmarks/bench_locomo.py FOLDER --write", "modes": table}, indent=1) + "\n",
            encoding="utf-8")
        print(f"wrote {RESULTS.relative_to(ROOT)}")
    if base:
        hybrid = statistics.fmean(h[1] for hits in rows["hybrid (hashing + BM25)"].values() for h in hits)
        print(f"\nhybrid / plain BM25 at R@10: {hybrid / base:.2f}x (aim: 1.3x)")
    print("Evidence recall@k: the share of a question's evidence turns among the k recalled, averaged over "
          "questions. Data: LoCoMo (Maharana et al., ACL 2024), CC BY-NC 4.0, read from outside the project.")


if __name__ == "__main__":
    main()
