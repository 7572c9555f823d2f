"""Notebook 6's exercise: the solution passes, a stub is 'not attempted', the usual mistakes are named."""

from __future__ import annotations

from typing import Any

import pytest

from primer_memory.lessons.exercises import grade
from primer_memory.lessons.exercises._core import exercise, exercises


def test_the_notebook_6_exercise_is_registered() -> None:
    assert [i for i in exercises() if i.startswith("6.")] == ["6.1"]


def test_the_solution_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert grade("6.1", exercise("6.1").solution) is True
    assert "Right" in capsys.readouterr().out


def test_a_stub_is_not_attempted_yet(capsys: pytest.CaptureFixture[str]) -> None:
    def namespace_for(identity, config):  # type: ignore[no-untyped-def]
        ...

    for answer in (None, ..., namespace_for):
        assert grade("6.1", answer) is False
        assert "not attempted yet" in capsys.readouterr().out


def from_config(identity: dict[str, str], config: dict[str, Any]) -> tuple[str, ...]:
    conf = config.get("configurable", {})
    return (conf.get("tenant_id", identity["tenant"]), conf.get("user_id", identity["user"]), "memories")


def user_from_config(identity: dict[str, str], config: dict[str, Any]) -> tuple[str, ...]:
    return (identity["tenant"], config["configurable"]["user_id"], "memories")


def lower_cased(identity: dict[str, str], config: dict[str, Any]) -> tuple[str, ...]:
    return (identity["tenant"].lower(), identity["user"].lower(), "memories")


def no_collection(identity: dict[str, str], config: dict[str, Any]) -> tuple[str, ...]:
    return (identity["tenant"], identity["user"])


def as_list(identity: dict[str, str], config: dict[str, Any]) -> list[str]:
    return [identity["tenant"], identity["user"], "memories"]


@pytest.mark.parametrize("wrong", [from_config, user_from_config, lower_cased, no_collection, as_list])
def test_every_usual_mistake_is_refused_with_feedback(wrong: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert grade("6.1", wrong) is False
    assert "Not yet" in capsys.readouterr().out


def test_taking_the_scope_from_the_config_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    grade("6.1", from_config)
    assert "taken from the request's config" in capsys.readouterr().out


@pytest.mark.parametrize(("wrong", "message", "not_said"), [
    (no_collection, "after them comes the collection, 'memories'", "taken from the request's config"),
    (as_list, "a namespace is a tuple", "taken from the request's config"),
    (user_from_config, "taken from the request's config", "The tenant and user are right"),
    (lower_cased, "expected ('ACME', 'Alice', 'memories')", "taken from the request's config"),
])
def test_each_mistake_is_told_what_it_is(wrong: Any, message: str, not_said: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 49: the verified identity without 'memories' was told it came 'from the request's config'."""
    assert grade("6.1", wrong) is False
    out = capsys.readouterr().out
    assert message in out and not_said not in out
