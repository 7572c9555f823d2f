"""Notebook 5's RLS panel: over every caller, attack and WHERE toggle, RLS holds and every message is true."""

from __future__ import annotations

import html
import itertools
import uuid
from collections.abc import Iterator

import pytest

from primer_memory.lessons.rls_demo import ATTACKS, CALLERS, RlsWorld, attack_sql, rls_world
from primer_memory.long_term.storage.postgres import drop_schema
from primer_memory.lessons.widgets.rls import rls_panel, rls_view

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def world(pg_dsn: str) -> Iterator[RlsWorld]:
    schema = "panel_" + uuid.uuid4().hex[:10]
    made = rls_world(pg_dsn, schema=schema)
    yield made
    made.close()
    drop_schema(pg_dsn, schema)


def test_rls_holds_and_every_message_is_true_over_the_whole_grid(world: RlsWorld) -> None:
    leaked_somewhere = set()
    for caller, attack, forgot in itertools.product(CALLERS, ATTACKS, (False, True)):
        view = rls_view(world, caller, attack, forgot)
        scope = str(CALLERS[caller])
        assert view.caller == scope
        assert all(owner == scope for owner, _ in view.with_rls), (caller, attack, forgot)
        assert view.leaks == []
        if "LIMIT" not in view.sql:  # the lock only ever removes rows (a top-3 search fills up from the rest)
            assert set(view.with_rls) <= set(view.without_rls)
        locked, unlocked = view.verdicts()
        assert locked == f"RLS held: the application received {len(view.with_rls)} row(s), none of another user's."
        others = [c for owner, c in view.without_rls if owner != scope]
        if others:
            assert unlocked == f"Without the lock this SQL returns {len(others)} row(s) of other users."
            leaked_somewhere.add(attack)
        else:
            assert unlocked == "Without the lock this SQL returns no other user's rows for this caller."
        page = view.html()
        assert html.escape(locked) in page and html.escape(unlocked) in page
        if forgot and "LIMIT" not in view.sql:  # no WHERE at all: without the lock, everyone's rows come back
            assert others, (caller, attack)
    assert leaked_somewhere == set(ATTACKS)  # every preset really is a bug that RLS catches


def test_dropping_the_where_clause_is_what_the_toggle_does(world: RlsWorld) -> None:
    for attack in ATTACKS:
        _, with_where = attack_sql(world.schema, attack, forgot_where=False)
        _, without = attack_sql(world.schema, attack, forgot_where=True)
        assert "<caller's tenant>" in with_where and "<caller's tenant>" not in without


def test_unknown_names_are_refused_with_the_choices(world: RlsWorld) -> None:
    with pytest.raises(KeyError, match="choose one of"):
        rls_view(world, "nobody", next(iter(ATTACKS)), False)
    with pytest.raises(KeyError, match="choose one of"):
        rls_view(world, next(iter(CALLERS)), "DROP TABLE", False)


def test_the_panel_shows_the_view_and_follows_its_controls(world: RlsWorld) -> None:
    panel = rls_panel(world)
    assert repr(panel) == "RlsPanel()"
    assert panel.text.value == rls_view(world, "carol (globex)", next(iter(ATTACKS)), False).html()
    panel.controls["forgot"].value = True
    panel.controls["caller"].value = "alice (acme)"
    assert panel.text.value == rls_view(world, "alice (acme)", next(iter(ATTACKS)), True).html()
