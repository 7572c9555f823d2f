"""Notebook 2's exercises: ask the right notebook (2.1), say it in other words (2.2), set a relevance floor (2.3),
fuse two rankings (2.4)."""

from __future__ import annotations

import functools
import re
from typing import Any

from ._core import Exercise, register

__all__ = ["FUSION_CASES", "FUSION_MISTAKES", "LATE_QUESTION", "ON_TOPIC", "OFF_TOPIC", "HABIT"]

LATE_QUESTION = "what should I do when a vendor sends invoices late?"
HABIT = "To reconcile invoices, match each vendor invoice to its payment, then list mismatches."
ON_TOPIC: tuple[tuple[str, int], ...] = (
    ("what happened with Globex?", 0),
    ("how do I reconcile invoices?", 2),
    ("when does Alice's fiscal year start?", 1),
    ("who approves travel?", 3),
    ("what did Alice approve for Initech?", 4),
    ("how do I book travel?", 5),
)
"""Questions about Alice's memories, each with the position of the memory it asks for."""
OFF_TOPIC: tuple[str, ...] = ("what is it?", "zzzqx", "what is the capital of Australia?",
                              "how tall is Mount Everest?", "tell me a joke about cats",
                              "what is a good recipe for pancakes?")
"""Questions none of Alice's memories answers."""


@functools.cache
def _stores() -> dict[str, Any]:
    """Alice's memories under each embedder (built once; the checkers only read them)."""
    from ..examples import alice_store
    from ...long_term.semantic import SemanticEmbedder

    return {"hashing": alice_store(), "semantic": alice_store(embedder=SemanticEmbedder())}


def _alice() -> Any:
    from ..examples import alice_scope

    return alice_scope()


# --------------------------------------------------------------------------- 2.1 ask the right notebook


def _check_choice(answer: object) -> bool:
    if not isinstance(answer, (tuple, list)) or len(answer) != 2:
        print("Not yet: give a pair (kinds, k), such as ((\"episodic\",), 2).")
        return False
    kinds, k = answer
    try:
        recalled = _stores()["hashing"].recall(_alice(), LATE_QUESTION, k=k, kinds=kinds)
    except Exception as error:  # a learner's choice may be invalid in any way: report it, don't raise
        print(f"Not yet: recall refused that choice -- {type(error).__name__}: {error}")
        return False
    print(f"recall(alice, {LATE_QUESTION!r}, k={k!r}, kinds={kinds!r}) returned {len(recalled)} memory(ies):")
    for record in recalled:
        print(f"  [{record.kind}] {record.content}")
    if not any(r.content == HABIT for r in recalled):
        print("Not yet: the reconcile habit is not among them. Which kind of memory holds a how-to?")
        return False
    if len(recalled) > 1:
        print("Close: the habit is there, but so is something else that would also go into the prompt. "
              "Can a smaller k, or fewer kinds, leave only the habit?")
        return False
    print("Right: only the habit. The question asks 'what should I do', so it wants a how-to (procedural); "
          "without the filter the diary entry about late invoices scores higher.")
    return True


register(Exercise(
    id="2.1",
    title="ask the right notebook",
    checker=_check_choice,
    hints=("Which kind of memory holds a how-to: episodic, semantic or procedural?",
           "kinds=(\"procedural\",) searches only the habits; k=1 keeps only the best of them."),
    solution=(("procedural",), 1),
    notes=("Searching every kind, the diary entry wins (it shares 'vendor', 'invoices' and 'late'); the kind "
           "filter is how the application says what sort of answer the question wants.",),
))


# --------------------------------------------------------------------------- 2.2 say it in other words


def _top(name: str, question: str) -> list[tuple[Any, float]]:
    return _stores()[name].recall_with_scores(_alice(), question, k=3)


def _check_paraphrase(answer: object) -> bool:
    from ...long_term.embedding import content_words

    if not isinstance(answer, str) or not answer.strip():
        print("Not yet: write your question as a non-empty string.")
        return False
    lowered = answer.casefold()
    if "reconcil" in lowered or "invoice" in lowered:
        print("Not yet: the challenge is to avoid 'reconcile' and 'invoice' -- paraphrase them.")
        return False
    squeezed = re.sub(r"[\W_]+", "", lowered)
    if "reconcil" in squeezed or "invoice" in squeezed:
        print("Not yet: a hyphen, a space or a dot inside a word still spells it ('re-concile' is 'reconcile', "
              "and the hashing embedder still sees most of its letter pieces). Say it in other words.")
        return False
    shared = sorted(set(content_words(answer)) & set(content_words(HABIT)))
    firsts = {}
    for name in ("hashing", "semantic"):
        print(f"{name} embedder:")
        ranked = _top(name, answer)
        for rank, (record, score) in enumerate(ranked, start=1):
            print(f"  {rank}. cosine {score:.2f}  [{record.kind}] {record.content}")
        firsts[name] = ranked[0][0].content == HABIT
    print(f"Words your question shares with the habit: {', '.join(shared) or 'none'}.")
    if not firsts["hashing"]:
        verdict = "found it" if firsts["semantic"] else "missed it too"
        print(f"Not yet: the hashing embedder did not put the habit first (the semantic one {verdict}). It matches "
              "spelling, not meaning: borrow more of the habit's own words.")
        return False
    print("Right: the hashing embedder found the habit, through the words (and word pieces) you borrowed from it. "
          "That is its whole trick; the semantic embedder also finds paraphrases that share no word.")
    return True


register(Exercise(
    id="2.2",
    title="say it in other words",
    checker=_check_paraphrase,
    hints=("The default embedder compares words and word pieces: which other words does the habit use?",
           "The habit says 'match each vendor invoice to its payment, then list mismatches': try 'match', "
           "'payment', 'mismatches'."),
    solution="how do I match each payment and list mismatches?",
))


# --------------------------------------------------------------------------- 2.3 a relevance floor


def _floor_report(name: str, floor: float) -> tuple[int, int]:
    memory, scope = _stores()[name], _alice()
    ids = [row["id"] for row in memory.export(scope)]
    kept = 0
    for question, target in ON_TOPIC:
        got = memory.recall(scope, question, k=1, min_score=floor)
        ok = bool(got) and got[0].id == ids[target]
        kept += ok
        print(f"  {'right' if ok else 'wrong'}  {question!r}: {got[0].content if got else 'nothing'}")
    quiet = 0
    for question in OFF_TOPIC:
        got = memory.recall_with_scores(scope, question, k=1, min_score=floor)
        quiet += not got
        print(f"  {'right' if not got else 'wrong'}  {question!r}: "
              f"{'nothing' if not got else f'{got[0][0].content} (cosine {got[0][1]:.2f})'}")
    return kept, quiet


EVEREST = "how tall is Mount Everest?"
GLOBEX = "what happened with Globex?"


def _everest_note() -> str:
    """Why no floor works for the hashing embedder, computed: what Everest really shares with its best match."""
    memory, scope = _stores()["hashing"], _alice()
    (record, score), = memory.recall_with_scores(scope, EVEREST, k=1)
    (_, globex), = memory.recall_with_scores(scope, GLOBEX, k=1)
    embedder = memory.embedder
    shared = sorted(set(embedder.features(EVEREST)) & set(embedder.features(record.content)))
    mine, theirs = embedder.slots(EVEREST), embedder.slots(record.content)
    collisions = sum(len(mine[s]) * len(theirs[s]) for s in mine.keys() & theirs.keys())
    what = (f"shares the pieces {', '.join(shared)} with it" if shared
            else "shares no word and no word piece with it")
    beats = "outscores" if score > globex else "comes close to"
    return (f"Notice the hashing embedder at the same floor: {EVEREST!r} {what}, yet scores {score:.3f} against "
            f"{record.content!r}: {collisions} of their features land in the same hash slots. It {beats} the "
            f"Globex question ({globex:.3f}), so no floor separates them with that embedder.")


def _paraphrase_note(floor: float) -> str:
    """What the floor does to the paraphrases of the same memories, which share few of their words."""
    from ..paraphrases import QUESTIONS

    memory, scope = _stores()["semantic"], _alice()
    ids = [row["id"] for row in memory.export(scope)]
    best = {q: memory.recall_with_scores(scope, q, k=1)[0] for q, target in QUESTIONS if target < len(ids)}
    firsts = [(q, best[q]) for q, target in QUESTIONS if q in best and best[q][0].id == ids[target]]
    kept = [q for q, (_, score) in firsts if score >= floor]
    lowest = min(score for _, (_, score) in firsts)
    asked = sum(target < len(ids) for _, target in QUESTIONS)
    head = (f"Now the paraphrases: these six questions reuse each memory's own words (Globex, fiscal year, "
            f"reconcile invoices...), which is why the gap looks wide. Of the {asked} paraphrases of the same "
            f"memories (the table above), the semantic embedder puts the right memory first for {len(firsts)}; ")
    if len(kept) == len(firsts):
        return head + (f"at min_score={floor:g} all {len(firsts)} still come back (their cosines go down to "
                       f"{lowest:.2f}). Your floor sits in the narrow gap that keeps them too.")
    return head + (f"at min_score={floor:g} only {len(kept)} of them still come back (their cosines go down to "
                   f"{lowest:.2f}). A floor chosen on questions that share the memory's words is too high for "
                   "questions that do not: choose it on questions like the ones your users ask.")


def _check_floor(answer: object) -> bool:
    if isinstance(answer, bool) or not isinstance(answer, (int, float)) or not 0 < answer < 1:
        print(f"Not yet: min_score is a cosine between 0 and 1 (such as 0.3), got {answer!r}.")
        return False
    floor = float(answer)
    results = {}
    for name in ("semantic", "hashing"):
        print(f"{name} embedder, min_score={floor:g}:")
        results[name] = _floor_report(name, floor)
    kept, quiet = results["semantic"]
    print(f"Semantic: {kept} of {len(ON_TOPIC)} questions recall their memory; {quiet} of {len(OFF_TOPIC)} "
          "off-topic questions recall nothing.")
    if kept == len(ON_TOPIC) and quiet == len(OFF_TOPIC):
        print("Right. " + _everest_note())
        print(_paraphrase_note(floor))
        return True
    print("Not yet: " + ("lower the floor, a real question lost its memory." if kept < len(ON_TOPIC)
                         else "raise the floor, an off-topic question still recalls something."))
    return False


register(Exercise(
    id="2.3",
    title="set a relevance floor",
    checker=_check_floor,
    hints=("Run recall_with_scores for a few of the questions: where do the real matches sit, and the noise?",
           "With the semantic embedder, real matches score above 0.5 here and off-topic ones below 0.15."),
    solution=0.2,
    notes=("Any floor between the best off-topic cosine (0.14) and the weakest of the six questions (0.53) passes "
           "the checker, but those questions reuse their memory's words. Only a floor up to 0.21 also keeps the "
           "nine paraphrases the semantic embedder recalls first, so 0.2 it is. A real application picks its "
           "floor on a labelled set of real questions and checks it on another.",),
))


# --------------------------------------------------------------------------- 2.4 fuse two rankings

Ranking = list[tuple[str, float]]

FUSION_CASES: tuple[tuple[Ranking, Ranking], ...] = (
    ([("e", 0.75), ("f", 0.53), ("c", 0.37)], [("a", 5.8), ("e", 2.6), ("b", 1.6), ("c", 1.3)]),
    ([("A", 0.9), *((f"v{i}", round(0.9 - i * 0.01, 2)) for i in range(2, 60)), ("B", 0.3),
      *((f"v{i}", round(0.29 - (i - 60) * 0.01, 2)) for i in range(61, 71))],
     [(mid, round(8 - rank * 0.1, 2)) for rank, mid in enumerate([f"v{i}" for i in (*range(2, 60), *range(61, 65))]
                                                                 + ["B"])]),
)
"""(by_vector, by_words) pairs of (memory id, score), best first, that 2.4's checker fuses. The first is small and
tells every mistake below apart; the second is as deep as hybrid reads (70 and 63 long), where counting ranks from
0 instead of 1 changes which of A and B comes first. Each has one right order (no two fused scores are equal)."""


def _fused(by_vector: Ranking, by_words: Ranking, *, rank_from: int = 1, k: int | None = None,
           combine: str = "sum") -> dict[str, float]:
    from ...long_term.lexical import RRF_K

    constant = RRF_K if k is None else k
    fused: dict[str, float] = {}
    for ranking in (by_vector, by_words):
        for rank, (mid, _) in enumerate(ranking, start=rank_from):
            part = 1.0 / (constant + rank)
            fused[mid] = max(fused.get(mid, 0.0), part) if combine == "max" else fused.get(mid, 0.0) + part
    return fused


def _raw_sum(by_vector: Ranking, by_words: Ranking) -> dict[str, float]:
    added: dict[str, float] = {}
    for mid, score in (*by_vector, *by_words):
        added[mid] = added.get(mid, 0.0) + score
    return added


def _appended(by_vector: Ranking, by_words: Ranking) -> dict[str, float]:
    order = list(dict.fromkeys(mid for mid, _ in (*by_vector, *by_words)))
    return {mid: -i for i, mid in enumerate(order)}


def _both(by_vector: Ranking, by_words: Ranking) -> dict[str, float]:
    both = {m for m, _ in by_vector} & {m for m, _ in by_words}
    return {m: s for m, s in _fused(by_vector, by_words).items() if m in both}


FUSION_MISTAKES: tuple[tuple[str, Any], ...] = (
    ("you added the raw scores. A BM25 score (here up to 8) and a cosine (at most 1) are on different scales, so "
     "the words decide alone; fusion by rank uses only each memory's position in each list.", _raw_sum),
    ("you kept only the memories both rankings found. A memory only the words find (a rare name, a "
     "number) is exactly what hybrid is for: every memory in either list belongs in the answer.", _both),
    ("your list is worst first: sort by the fused score, highest first.",
     lambda v, w: {m: -s for m, s in _fused(v, w).items()}),
    ("you left out the 60: with 1/rank, first place in one list (1/1) outweighs second place in one and third "
     "in the other (1/2 + 1/3). The constant flattens the top so that agreement between the rankings counts.",
     lambda v, w: _fused(v, w, k=0)),
    ("you counted ranks from 0. Reciprocal rank fusion counts the best as rank 1, so it scores 1/61: enumerate("
     "ranking, start=1). In a deep list that shift changes which memory wins.", lambda v, w: _fused(v, w, rank_from=0)),
    ("you kept each memory's best rank instead of adding its two scores: a memory both rankings put high "
     "should beat one that only a single ranking likes.", lambda v, w: _fused(v, w, combine="max")),
    ("you put one ranking after the other: the order of the first list decides, and the second only adds what "
     "the first lacked. Add each memory's 1/(60 + rank) over both lists, then sort.", _appended),
)
"""Each mistake a learner's fuse is likely to make: what to say, and the scores it ranks by."""


def _follows(order: list[str], scores: dict[str, float]) -> bool:
    """True when `order` holds exactly the scored ids, each once, in an order these scores allow (ties either way)."""
    return (len(order) == len(scores) and set(order) == set(scores)
            and all(scores[a] >= scores[b] for a, b in zip(order, order[1:])))


def _check_fusion(fuse: object) -> bool:
    if not callable(fuse):
        print(f"Not yet: pass your function itself (no parentheses), not a {type(fuse).__name__}.")
        return False
    orders = []
    for by_vector, by_words in FUSION_CASES:
        try:
            got = fuse([tuple(p) for p in by_vector], [tuple(p) for p in by_words])
        except NotImplementedError:
            raise  # a stub: check() says "not attempted yet"
        except Exception as error:  # the learner's function broke: say on what
            print(f"Not yet: on by_vector={by_vector[:3]}..., by_words={by_words[:3]}... your function raised "
                  f"{type(error).__name__}: {error}")
            return False
        if isinstance(got, (str, bytes)) or not isinstance(got, (list, tuple)):
            print(f"Not yet: return a list of memory ids, best first; yours returned {got!r:.60}.")
            return False
        got = list(got)
        if any(isinstance(x, (tuple, list)) for x in got):
            print(f"Not yet: return the ids only, best first (such as ['c', 'e', ...]), not pairs: yours began "
                  f"{got[:2]!r:.80}.")
            return False
        if len(set(map(repr, got))) < len(got):
            print("Not yet: an id appears twice in your list. A memory found by both rankings is one memory: "
                  "add its two parts into one score.")
            return False
        orders.append(got)
    for order, case in zip(orders, FUSION_CASES):
        if not _follows(order, _fused(*case)):
            break
    else:
        print(f"Right: {orders[0]} on the small case, and B before A on the deep one (B is 60th and 63rd, A first "
              "in one list only: 1/120 + 1/123 > 1/61). That is lexical.fuse, which search='hybrid' runs on the "
              "two rankings of the caller's memories, 100 deep.")
        return True
    for message, scores in FUSION_MISTAKES:
        if all(_follows(order, scores(*case)) for order, case in zip(orders, FUSION_CASES)):
            print(f"Not yet: {message}")
            return False
    small = FUSION_CASES[0]
    want = sorted(_fused(*small).items(), key=lambda kv: -kv[1])
    print(f"Not yet: on by_vector={small[0]}, by_words={small[1]} yours gave {orders[0]!r:.120}; the fused scores "
          f"are {', '.join(f'{m}: {s:.5f}' for m, s in want)}.")
    return False


def fuse(by_vector, by_words):  # type: ignore[no-untyped-def]
    """Reciprocal rank fusion of two rankings of (memory id, score), best first: the ids, best fused first."""
    fused = {}
    for ranking in (by_vector, by_words):
        for rank, (memory_id, _score) in enumerate(ranking, start=1):
            fused[memory_id] = fused.get(memory_id, 0.0) + 1 / (60 + rank)
    return sorted(fused, key=fused.get, reverse=True)


def _stub_fuse(by_vector, by_words):  # type: ignore[no-untyped-def]
    """Reciprocal rank fusion of two rankings of (memory id, score), best first: the ids, best fused first."""
    ...


register(Exercise(
    id="2.4",
    title="fuse two rankings",
    checker=_check_fusion,
    hints=("Give every memory in either list 1/(60 + rank) for each list it is in, ranks counted from 1; the "
           "scores themselves are never used. Then sort the memories by that sum, highest first.",
           "A dict from id to fused score: for rank, (memory_id, _) in enumerate(ranking, start=1), add "
           "1 / (60 + rank). Then sorted(fused, key=fused.get, reverse=True)."),
    solution=fuse,
    stub=_stub_fuse,
    notes=("The scores are thrown away on purpose: a cosine and a BM25 score cannot be added, and ranks need no "
           "calibration. The price is that a ranking's confidence is lost too: a memory far ahead in one list "
           "counts only as first.",),
))
