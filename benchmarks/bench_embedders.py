"""The two embedders side by side: cost per text, and recall@1 on a labelled paraphrase set (tune and held-out).

The set (`primer_memory.lessons.paraphrases`: 24 memories, 48 paraphrased questions, 8
off-topic questions) was split into halves by position before anything was
measured. Two settings are chosen on the tuning half only:
  - the semantic embedder's dimension (64, 128 or 256; ties go to the larger),
  - a relevance floor (min_score) per embedder, maximising right answers kept plus off-topic questions refused.
The held-out half then reports how those choices generalise. Cost is the mean
over many texts in one process, hashing and semantic interleaved.

Usage: python benchmarks/bench_embedders.py
"""

from __future__ import annotations

import sys

import numpy as np

from primer_memory import HashingEmbedder, SemanticEmbedder
from primer_memory.long_term.memory import LongTermMemory, Scope
from primer_memory.lessons.paraphrases import MEMORIES, QUESTIONS, held_out, recall_at_1, tune
from primer_memory.policy.rules import PolicyDecision
from timing import best_of


def cost(embedder: object, texts: list[str]) -> tuple[float, float]:
    """(seconds per text embedded in one batch, seconds per single `encode` call)."""
    batch = best_of(5, lambda: embedder.embed(texts)) / len(texts)  # type: ignore[attr-defined]
    single = best_of(5, lambda: [embedder.encode(t) for t in texts[:200]]) / 200  # type: ignore[attr-defined]
    return batch, single


def top1(embedder: object, questions: list[str]) -> list[tuple[int, float]]:
    """(position of the recalled memory, its cosine) for each question, on the whole memory bank."""
    memory = LongTermMemory(embedder=embedder, policy=lambda _: PolicyDecision("store", "stored"))  # type: ignore[arg-type]
    scope = Scope("bench", "embedders")
    ids = [r.record.id for r in memory.remember_many(scope, [{"kind": k, "content": c} for k, c in MEMORIES])]  # type: ignore[union-attr]
    out = []
    for question in questions:
        record, score = memory.recall_with_scores(scope, question, k=1)[0]
        out.append((ids.index(record.id), score))
    return out


def floor_quality(embedder: object, half: tuple[list[tuple[str, int]], list[str]], floor: float) -> tuple[int, int]:
    """(questions whose right memory is recalled and passes the floor, off-topic questions the floor refuses)."""
    questions, off = half
    kept = sum(pos == target and score >= floor
               for (pos, score), (_, target) in zip(top1(embedder, [q for q, _ in questions]), questions))
    refused = sum(score < floor for _, score in top1(embedder, off))
    return kept, refused


def choose_floor(embedder: object) -> float:
    """The floor that does best on the tuning half (midpoints between observed top-1 cosines)."""
    questions, off = tune()
    scores = sorted({round(s, 4) for _, s in top1(embedder, [q for q, _ in questions] + off)})
    candidates = [(a + b) / 2 for a, b in zip(scores, scores[1:])] or [0.0]
    return max(candidates, key=lambda f: (sum(floor_quality(embedder, tune(), f)), -f))


def main() -> int:
    texts = [q for q, _ in QUESTIONS] * 10 + [c for _, c in MEMORIES] * 10
    embedders = {"hashing": HashingEmbedder(), **{f"semantic-{d}": SemanticEmbedder(d) for d in (64, 128, 256)}}
    for embedder in embedders.values():
        embedder.embed(texts[:50])  # warm caches and the model
    print(f"{len(MEMORIES)} memories; {len(QUESTIONS)} paraphrased questions, {len(tune()[0])} tune / "
          f"{len(held_out()[0])} held-out; {len(tune()[1])} + {len(held_out()[1])} off-topic\n")
    print(f"{'embedder':<14} {'dim':>4} {'batch/text':>11} {'encode':>9} {'recall@1 tune':>14} {'held-out':>9}")
    hits: dict[str, tuple[int, int]] = {}
    for name, embedder in embedders.items():
        batch, single = cost(embedder, texts)
        tune_hits = sum(r[1] == r[2] for r in recall_at_1(embedder, tune()[0]))
        held_hits = sum(r[1] == r[2] for r in recall_at_1(embedder, held_out()[0]))
        hits[name] = (tune_hits, held_hits)
        print(f"{name:<14} {embedder.dim:>4} {batch * 1e6:>9.1f}us {single * 1e6:>7.1f}us "
              f"{tune_hits:>6}/{len(tune()[0])} ({tune_hits / len(tune()[0]):.0%}) "
              f"{held_hits:>3}/{len(held_out()[0])} ({held_hits / len(held_out()[0]):.0%})")
    semantic = [n for n in embedders if n.startswith("semantic")]
    chosen = max(semantic, key=lambda n: (hits[n][0], embedders[n].dim))
    print(f"\nchosen on the tuning half: {chosen} (recall@1 {hits[chosen][0]}/{len(tune()[0])}); "
          f"held-out {hits[chosen][1]}/{len(held_out()[0])}; the default SemanticEmbedder() is semantic-256 "
          f"(held-out {hits['semantic-256'][1]}/{len(held_out()[0])})")
    print("\nrelevance floor chosen on the tuning half: right answers kept / off-topic refused")
    for name in ("hashing", "semantic-256"):
        embedder = embedders[name]
        floor = choose_floor(embedder)
        t_kept, t_refused = floor_quality(embedder, tune(), floor)
        h_kept, h_refused = floor_quality(embedder, held_out(), floor)
        print(f"  {name:<13} min_score={floor:.3f}   tune {t_kept}/{len(tune()[0])} kept, "
              f"{t_refused}/{len(tune()[1])} refused   held-out {h_kept}/{len(held_out()[0])} kept, "
              f"{h_refused}/{len(held_out()[1])} refused")
    hashing, semantic256 = embedders["hashing"], embedders["semantic-256"]
    ratio = cost(semantic256, texts)[1] / cost(hashing, texts)[1]
    print(f"\nsemantic-256 / hashing, encode time per text: {ratio:.1f}x (measured again, interleaved)")
    return 0


if __name__ == "__main__":
    np.seterr(all="ignore")
    sys.exit(main())
