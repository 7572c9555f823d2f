"""Notebook 2's exercises: solutions pass, stubs say "not attempted yet", wrong answers get feedback that names
their mistake, garbage never raises."""

from __future__ import annotations

import pytest

from primer_memory.lessons.exercises import grade, exercise, hint, show_solution
from primer_memory.lessons.exercises.long_term import FUSION_CASES, FUSION_MISTAKES, LATE_QUESTION, _fused

IDS = ["2.1", "2.2", "2.3", "2.4"]


def explode(*_args: object) -> object:
    raise RuntimeError("a learner's bug")


def text(*_args: object) -> str:
    return "junk"


@pytest.mark.parametrize("exercise_id", IDS)
def test_the_solution_passes_its_checker(exercise_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert grade(exercise_id, exercise(exercise_id).solution) is True
    assert "Right" in capsys.readouterr().out


@pytest.mark.parametrize("exercise_id", IDS)
@pytest.mark.parametrize("stub", [None, ...])
def test_a_stub_is_not_attempted_yet(exercise_id: str, stub: object, capsys: pytest.CaptureFixture[str]) -> None:
    assert grade(exercise_id, stub) is False
    out = capsys.readouterr().out
    assert "not attempted yet" in out and "Hint 1:" in out


@pytest.mark.parametrize("exercise_id", IDS)
@pytest.mark.parametrize("garbage", ["nope", 42, True, explode, text, [], ("a", "b", "c"), {"k": 1}, float("nan"),
                                     "   ", -0.5, 1.5])
def test_garbage_never_raises_and_always_says_something(exercise_id: str, garbage: object,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert grade(exercise_id, garbage) is False
    assert capsys.readouterr().out.strip()


@pytest.mark.parametrize(
    ("exercise_id", "answer", "feedback"),
    [
        ("2.1", (("episodic", "semantic", "procedural"), 3), "Can a smaller k, or fewer kinds"),
        ("2.1", (("semantic",), 3), "the reconcile habit is not among them"),
        ("2.1", ("procedural", 1), "recall refused"),
        ("2.1", (("procedural",), 0), "recall refused"),
        ("2.2", "how do I reconcile?", "avoid 'reconcile' and 'invoice'"),
        ("2.2", "how do I re-concile the in-voices?", "'re-concile' is 'reconcile'"),
        ("2.2", "how do I check that every bill got paid?", "the semantic one found it"),
        ("2.2", "?!", "did not put the habit first"),
        ("2.3", 0.05, "raise the floor"),
        ("2.3", 0.9, "lower the floor"),
    ],
)
def test_wrong_answers_get_feedback(exercise_id: str, answer: object, feedback: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert grade(exercise_id, answer) is False
    assert feedback in capsys.readouterr().out


def test_every_floor_between_noise_and_signal_is_right(capsys: pytest.CaptureFixture[str]) -> None:
    for floor in (0.15, 0.3, 0.5):
        assert grade("2.3", floor) is True
    assert "Mount Everest" in capsys.readouterr().out


def test_hints_and_solutions_are_there_on_request(capsys: pytest.CaptureFixture[str]) -> None:
    for exercise_id in IDS:
        hint(exercise_id, 2)
        show_solution(exercise_id)
    out = capsys.readouterr().out
    assert out.count("Hint 2:") == len(IDS) and out.count("One solution to exercise 2.") == len(IDS)
    assert LATE_QUESTION.startswith("what should I do")


def test_a_floor_that_loses_paraphrases_is_told_so(capsys: pytest.CaptureFixture[str]) -> None:
    """2.3's six questions reuse their memory's words; the feedback shows what the floor does to paraphrases."""
    assert grade("2.3", 0.3) is True
    out = capsys.readouterr().out
    assert "at min_score=0.3 only 3 of them still come back" in out and "first for 9" in out
    assert grade("2.3", exercise("2.3").solution) is True
    assert "all 9 still come back" in capsys.readouterr().out


# --------------------------------------------------------------------------- 2.4: fusion's wrong answers


def _sorted(scores: dict[str, float], reverse: bool = True) -> list[str]:
    return sorted(scores, key=scores.get, reverse=reverse)  # type: ignore[arg-type]


def _rrf(v, w, start=1, k=60):  # type: ignore[no-untyped-def]
    fused: dict[str, float] = {}
    for ranking in (v, w):
        for rank, (mid, _) in enumerate(ranking, start=start):
            fused[mid] = fused.get(mid, 0.0) + 1 / (k + rank)
    return fused


def adds_raw_scores(v, w):  # type: ignore[no-untyped-def]
    added: dict[str, float] = {}
    for mid, score in v + w:
        added[mid] = added.get(mid, 0.0) + score
    return _sorted(added)


def keeps_only_both(v, w):  # type: ignore[no-untyped-def]
    both = {m for m, _ in v} & {m for m, _ in w}
    return [m for m in _sorted(_rrf(v, w)) if m in both]


def worst_first(v, w):  # type: ignore[no-untyped-def]
    return _sorted(_rrf(v, w), reverse=False)


def without_the_60(v, w):  # type: ignore[no-untyped-def]
    return _sorted(_rrf(v, w, k=0))


def ranks_from_zero(v, w):  # type: ignore[no-untyped-def]
    return _sorted(_rrf(v, w, start=0))


def best_rank_only(v, w):  # type: ignore[no-untyped-def]
    best: dict[str, float] = {}
    for ranking in (v, w):
        for rank, (mid, _) in enumerate(ranking, start=1):
            best[mid] = max(best.get(mid, 0.0), 1 / (60 + rank))
    return _sorted(best)


def one_after_the_other(v, w):  # type: ignore[no-untyped-def]
    return list(dict.fromkeys(m for m, _ in v + w))


def with_scores(v, w):  # type: ignore[no-untyped-def]
    fused = _rrf(v, w)
    return [(m, fused[m]) for m in _sorted(fused)]


def twice(v, w):  # type: ignore[no-untyped-def]
    return [m for m, _ in v] + [m for m, _ in w]


def interleaved(v, w):  # type: ignore[no-untyped-def]
    return list(dict.fromkeys(m for pair in zip(v, w) for m, _ in pair))


FUSION_WRONG = [
    (adds_raw_scores, "you added the raw scores"),
    (keeps_only_both, "you kept only the memories both rankings found"),
    (worst_first, "worst first"),
    (without_the_60, "you left out the 60"),
    (ranks_from_zero, "you counted ranks from 0"),
    (best_rank_only, "you kept each memory's best rank"),
    (one_after_the_other, "you put one ranking after the other"),
    (with_scores, "return the ids only"),
    (twice, "an id appears twice"),
    (interleaved, "the fused scores are e: 0.03252"),  # a mistake not in the list gets the numbers
    ("fuse", "pass your function itself"),
]


@pytest.mark.parametrize(("answer", "message"), FUSION_WRONG,
                         ids=[getattr(a, "__name__", repr(a)) for a, _ in FUSION_WRONG])
def test_each_fusion_mistake_is_named(answer: object, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert grade("2.4", answer) is False
    out = capsys.readouterr().out
    assert message in out, out


def test_the_fusion_cases_have_one_right_order_and_tell_every_mistake_apart() -> None:
    """The checker names a mistake by the order it produces, so each case must have exactly one right order, and
    for every two ways of scoring (right and each mistake) some case must rank two memories oppositely."""
    for case in FUSION_CASES:
        scores = sorted(_fused(*case).values())
        assert all(b > a for a, b in zip(scores, scores[1:])), "two memories tie in a fusion case"
    ways = [("right", _fused), *((m[:30], f) for m, f in FUSION_MISTAKES)]

    def opposed(a: dict[str, float], b: dict[str, float]) -> bool:
        return set(a) != set(b) or any(a[x] > a[y] and b[y] > b[x] for x in a for y in a)

    for i, (name, way) in enumerate(ways):
        for other, other_way in ways[i + 1:]:
            assert any(opposed(way(*c), other_way(*c)) for c in FUSION_CASES), (name, other)
