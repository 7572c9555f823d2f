"""Notebook 2's exercises: ask the right notebook (2.1), say it in other words (2.2), set a relevance floor (2.3)."""

from __future__ import annotations

import functools
from typing import Any

from ._core import Exercise, register

__all__ = ["LATE_QUESTION", "ON_TOPIC", "OFF_TOPIC", "HABIT"]

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
    solution=0.3,
    notes=("Any floor between the best off-topic cosine (0.14) and the weakest real match (0.53) works on these "
           "questions; a real application picks it on a labelled set and checks it on another.",),
))
