"""Notebook 5's exercises: every solution passes, every stub is 'not attempted', garbage never raises."""

from __future__ import annotations

import pytest

from primer_memory.lessons.exercises import grade
from primer_memory.lessons.exercises._core import exercise, exercises

IDS = ["5.1", "5.2", "5.3"]


def test_the_notebook_5_exercises_are_registered() -> None:
    assert [i for i in exercises() if i.startswith("5.")] == IDS


@pytest.mark.parametrize("exercise_id", IDS)
def test_every_solution_passes_its_checker(exercise_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert grade(exercise_id, exercise(exercise_id).solution) is True
    assert "Right" in capsys.readouterr().out


@pytest.mark.parametrize("exercise_id", IDS)
def test_a_stub_is_not_attempted_yet(exercise_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    def stub(row_tenant, row_user, setting_tenant, setting_user):  # type: ignore[no-untyped-def]
        ...

    for answer in (None, ..., stub):
        assert grade(exercise_id, answer) is False
        assert "not attempted yet" in capsys.readouterr().out


def _raises(*args: object) -> bool:
    raise RuntimeError("boom")


def _junk(*args: object) -> str:
    return "junk"


def text(*args: object) -> object:
    return None


@pytest.mark.parametrize("exercise_id", IDS)
@pytest.mark.parametrize("garbage", ["nope", 42, [1, 2], {"x"}, _raises, _junk, text, object()])
def test_garbage_gets_feedback_and_never_raises(exercise_id: str, garbage: object,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert grade(exercise_id, garbage) is False
    assert capsys.readouterr().out.strip()


def test_wrong_answers_say_what_is_wrong(capsys: pytest.CaptureFixture[str]) -> None:
    def prefix_policy(rt: str, ru: str, st: str | None, su: str | None) -> bool:
        return bool(st) and rt.startswith(st or "") and ru == su

    def open_when_unset(rt: str, ru: str, st: str | None, su: str | None) -> bool:
        return not st or (rt == st and ru == su)

    assert grade("5.1", prefix_policy) is False
    assert "leaks" in capsys.readouterr().out
    assert grade("5.1", open_when_unset) is False
    assert "no scope set" in capsys.readouterr().out
    assert grade("5.2", "b") is False
    assert "session" in capsys.readouterr().out
    assert grade("5.3", {"the write-ahead log"}) is False
    assert "base backups" in capsys.readouterr().out


def test_a_rule_that_accepts_an_unset_scope_is_rejected(capsys: pytest.CaptureFixture[str]) -> None:
    """Plain equality lets '' see a row whose tenant and user are '': after a transaction the setting reads ''."""
    def plain_equality(rt: str, ru: str, st: str | None, su: str | None) -> bool:
        return rt == st and ru == su

    def none_only(rt: str, ru: str, st: str | None, su: str | None) -> bool:
        return st is not None and su is not None and rt == st and ru == su

    for wrong in (plain_equality, none_only):
        assert grade("5.1", wrong) is False
        out = capsys.readouterr().out
        assert "no scope set" in out and "Not yet" in out
