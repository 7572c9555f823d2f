"""Notebook 5's exercises: every solution passes, every stub is 'not attempted', garbage never raises."""

from __future__ import annotations

import pytest

from primer_memory.lessons.exercises import grade
from primer_memory.lessons.exercises._core import exercise, exercises

IDS = ["5.1", "5.2", "5.3", "5.4"]


def test_the_notebook_5_exercises_are_registered() -> None:
    assert [i for i in exercises() if i.startswith("5.")] == IDS


@pytest.mark.parametrize("exercise_id", IDS)
def test_every_solution_passes_its_checker(exercise_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert grade(exercise_id, exercise(exercise_id).solution) is True
    assert "Right" in capsys.readouterr().out


@pytest.mark.parametrize("exercise_id", IDS)
def test_a_stub_is_not_attempted_yet(exercise_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    def stub(row_tenant, row_user, settings, verify):  # type: ignore[no-untyped-def]
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
    """Each wrong answer is told the mistake it makes, not only that it is wrong."""
    from test_exercise_wrong_answers import (open_when_unset, prefix_policy, returns_a_number, swallows_a_forgery,
                                             trusts_the_plain_setting)

    for answer, says in ((prefix_policy, "both parts must match exactly"), (open_when_unset, "no scope set"),
                         (trusts_the_plain_setting, "plain settings"), (swallows_a_forgery, "let it propagate"),
                         (returns_a_number, "True or False")):
        assert grade("5.1", answer) is False
        assert says in capsys.readouterr().out, answer.__name__
    for letter, says in (("a", "whole session"), ("b", "for the session"), ("c", "replay"), ("e", "plain setting")):
        assert grade("5.2", letter) is False
        assert says in capsys.readouterr().out, letter
    assert grade("5.3", {"the write-ahead log"}) is False
    assert "base backups" in capsys.readouterr().out


def test_a_rule_that_accepts_an_unset_scope_is_rejected(capsys: pytest.CaptureFixture[str]) -> None:
    """Plain equality lets an unset scope see a row whose tenant and user are '' (a row written with no scope)."""
    def plain_equality(rt, ru, settings, verify):  # type: ignore[no-untyped-def]
        token = settings.get("app.scope")
        st, su = verify(token) if token else ("", "")
        return rt == st and ru == su

    assert grade("5.1", plain_equality) is False
    out = capsys.readouterr().out
    assert "no scope set" in out and "Not yet" in out


@pytest.mark.parametrize(("name", "message"), [
    ("recall_by_k", "you divided by k"), ("precision_not_recall", "that is precision"),
    ("recall_in_order", "compare sets"), ("recall_past_k", "rows past the first k")])
def test_5_4_each_recall_mistake_is_named(name: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Class covered: the usual wrong formulas for recall@k; each is rejected and told the mistake it makes."""
    import test_exercise_wrong_answers as wrong

    from primer_memory.lessons.exercises import grade

    assert grade("5.4", getattr(wrong, name)) is False
    assert message in capsys.readouterr().out


def test_5_4_the_solution_agrees_with_the_notebooks_own_recall() -> None:
    """The figure section 5 prints is hits over true neighbours (lessons.vector_search): the solution is the same."""
    from primer_memory.lessons.exercises.beyond import RECALL_CASES, recall_at_k

    for _, exact, found, k in RECALL_CASES:
        truth = exact[:k]
        if truth:
            assert recall_at_k(exact, found, k) == len(set(found[:k]) & set(truth)) / len(truth)


def test_5_1_the_row_written_with_no_scope_is_named_as_such(capsys: pytest.CaptureFixture[str]) -> None:
    """Plain equality against the settings shows the empty row to a caller with no scope; the feedback said
    'row / with no scope set'. It names the row now."""
    def unset_equals_empty(row_tenant, row_user, settings, verify):  # type: ignore[no-untyped-def]
        token = settings.get("app.scope")
        scope = verify(token) if token else ("", "")  # no scope read as the empty scope: plain equality
        return (row_tenant, row_user) == scope

    assert grade("5.1", unset_equals_empty) is False
    out = capsys.readouterr().out
    assert "the row written with no scope (tenant '' and user '')" in out and "row / " not in out
