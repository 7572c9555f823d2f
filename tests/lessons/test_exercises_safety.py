"""Notebook 3's exercises: each solution passes, each stub is "not attempted", garbage never raises."""

from __future__ import annotations

import pytest

from primer_memory.lessons.exercises import grade, exercise, exercises, hint, show_solution

IDS = ("3.1", "3.2", "3.3")


def stub_function(path):  # type: ignore[no-untyped-def]
    ...


def text(x):  # type: ignore[no-untyped-def]
    raise RuntimeError("a learner's bug")


def count(x):  # type: ignore[no-untyped-def]
    return 42


@pytest.mark.parametrize("exercise_id", IDS)
def test_solution_passes_and_stub_is_not_attempted(exercise_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert exercise_id in exercises()
    assert grade(exercise_id, exercise(exercise_id).solution) is True
    for stub in (None, ..., stub_function):
        assert grade(exercise_id, stub) is False
        out = capsys.readouterr().out
        assert "not attempted yet" in out and "Hint 1:" in out


@pytest.mark.parametrize("exercise_id", IDS)
@pytest.mark.parametrize("garbage", [None, "nope", 42, text, count, lambda *a: "nope", {}, {"x": "store"}, [], b"x"])
def test_garbage_never_raises_and_is_not_right(exercise_id: str, garbage: object,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert grade(exercise_id, garbage) is False
    assert capsys.readouterr().out.strip()


def test_wrong_answers_say_what_to_fix(capsys: pytest.CaptureFixture[str]) -> None:
    keyword_guesses = {s: ("refuse" if any(w in s.lower() for w in ("pin", "token", "from now on")) else "store")
                       for s in exercise("3.1").solution}
    assert grade("3.1", keyword_guesses) is False
    assert "wrong" in capsys.readouterr().out
    import posixpath

    assert grade("3.2", lambda p: posixpath.normpath(p).startswith("/memories")) is False
    assert "got through" in capsys.readouterr().out
    from primer_memory.policy.rules import redact

    assert grade("3.3", redact) is False  # masks the order instead of refusing it
    assert "refused whole" in capsys.readouterr().out


def test_hints_and_solution_print(capsys: pytest.CaptureFixture[str]) -> None:
    for exercise_id in IDS:
        hint(exercise_id, 2)
        show_solution(exercise_id)
    out = capsys.readouterr().out
    assert out.count("Hint 2:") == 3 and "def is_safe" in out and "def safe_to_store" in out


def returns_words(path):  # type: ignore[no-untyped-def]
    return "safe" if path.startswith("/memories/") and ".." not in path else "unsafe"


def returns_none_when_safe(path):  # type: ignore[no-untyped-def]
    if ".." in path or not path.startswith("/memories"):
        return False


def returns_a_match(path):  # type: ignore[no-untyped-def]
    import re

    return re.fullmatch(r"/memories/[\w/-]+\.\w+", path)


@pytest.mark.parametrize(("answer", "advice"), [
    (returns_words, "Do not wrap them in bool(...)"),
    (returns_none_when_safe, "End every branch with return True or return False"),
    (returns_a_match, "wrap the match in bool(...)"),
])
def test_a_guard_that_returns_no_bool_gets_advice_for_what_it_returns(answer: object, advice: str,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 49: 'wrap it in bool(...)' was said to every answer; for words it lets every escape through."""
    assert grade("3.2", answer) is False
    out = capsys.readouterr().out
    assert advice in out
    if answer is returns_words:
        assert "wrap it in bool" not in out


def test_mask_then_store_feedback_ends_each_line_with_what_is_wrong(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 49: the feedback ended in a dangling '; '."""
    assert grade("3.3", lambda text: text) is False
    lines = capsys.readouterr().out.splitlines()
    assert not any(line.rstrip().endswith(";") or ": ." in line for line in lines), lines
