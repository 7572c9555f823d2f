"""The panels at their edges: bad settings are refused by name, counts read right in the singular, nothing is
clamped without a word, and every panel shows invisible characters as escapes through one helper."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from primer_memory import LongTermMemory, Scope
from primer_memory.lessons.examples import alice_scope, alice_store, safety_world
from primer_memory.lessons.widgets import (attack_view, budget_panel, budget_view, notes_path_view, policy_view,
                                           recall_view)
from primer_memory.lessons.widgets._common import shown, visible
from primer_memory.lessons.widgets.budget import BudgetViewError

KINDS = ("episodic", "semantic", "procedural")
WRONG_PLURAL = re.compile(r"(?<![\d.,])1 (?:tokens|messages|older messages|results)\b|\ball 1 |\b1 [a-z ]+ are gone")


# --------------------------------------------------------------------------- the budget panel


@pytest.mark.parametrize(("args", "named"), [
    ((110, 4, -1), "turns"), ((110, 4, 0), "turns"), ((0, 4, 6), "budget"), ((110, 0, 6), "keep_last"),
    ((True, 4, 6), "budget"), ((110.5, 4, 6), "budget"), ((110, 4, "6"), "turns"),
])
def test_bad_settings_are_refused_by_name(args: tuple[object, ...], named: str) -> None:
    with pytest.raises(BudgetViewError, match=rf"^{named} must be a whole number of at least 1, got"):
        budget_view(*args)  # type: ignore[arg-type]


def test_an_unknown_conversation_is_refused_with_the_choices() -> None:
    with pytest.raises(BudgetViewError, match="conversation must be one of 'invoices', 'tools'"):
        budget_view(110, 4, 6, "emails")


def test_one_of_a_kind_reads_in_the_singular() -> None:
    page = budget_view(1, 1, 1).html()
    assert "<b>1</b> token sent of a budget of 1" in page
    assert "so the 1 older message is gone" in page
    assert not WRONG_PLURAL.search(re.sub(r"<[^>]+>", "", page)), page


@settings(max_examples=150, deadline=None)
@given(budget=st.integers(1, 400), keep=st.integers(1, 12), turns=st.integers(1, 8),
       conversation=st.sampled_from(["invoices", "tools"]))
def test_no_setting_prints_a_wrong_plural(budget: int, keep: int, turns: int, conversation: str) -> None:
    """Class of input: every setting of the three sliders, including budgets below the slider's 40, which is
    where counts of 1 (one token, one older message, one result) happen."""
    text = re.sub(r"<[^>]+>", "", budget_view(budget, keep, turns, conversation).html())
    assert not WRONG_PLURAL.search(text), text


def test_the_panel_shows_what_was_asked_for_without_clamping() -> None:
    panel = budget_panel(budget=5, keep_last=20, turns=50)
    assert {name: s.value for name, s in panel.sliders.items()} == {"budget": 5, "keep_last": 20, "turns": 50}
    assert "of a budget of 5 " in panel.text.value


def test_the_panel_refuses_what_the_view_refuses() -> None:
    with pytest.raises(BudgetViewError, match="turns must be"):
        budget_panel(turns=0)


# --------------------------------------------------------------------------- the recall panel


@pytest.fixture(scope="module")
def alice() -> LongTermMemory:
    return alice_store()


def test_k_zero_says_it_asks_for_nothing(alice: LongTermMemory) -> None:
    view = recall_view(alice, alice_scope(), "what happened with Globex?", KINDS, k=0)
    assert view.rows == () and "k=0 asks for no memories" in view.message
    assert "k=0 asks for no memories" in view.html()


@pytest.mark.parametrize("k", [-1, 2.5, True, "3"])
def test_a_k_that_is_not_a_count_is_refused(alice: LongTermMemory, k: object) -> None:
    view = recall_view(alice, alice_scope(), "what happened with Globex?", KINDS, k=k)  # type: ignore[arg-type]
    assert view.rows == () and view.message.startswith("Refused:") and "at least 1" in view.message


def test_equal_importances_are_explained_not_called_0_and_1() -> None:
    memory, scope = LongTermMemory(), Scope("acme", "alice")
    for text in ("Alice approves travel for her team.", "Alice's fiscal year starts in April."):
        memory.remember(scope, "semantic", text, importance=5)
    view = recall_view(memory, scope, "Alice", ("semantic",), w_importance=1.0)
    assert [round(r.importance, 2) for r in view.rows] == [1.0, 1.0]
    notes = " ".join(view.notes)
    assert "All 2 candidates have the same raw importance (5)" in notes and "each shows 1.00" in notes
    assert "importance from" not in notes  # the lowest does not become 0 when there is no range


def test_a_lone_candidate_says_why_it_shows_1(alice: LongTermMemory) -> None:
    view = recall_view(alice, alice_scope(), "what happened with Globex?", ("episodic",), min_score=0.2)
    assert len(view.rows) == 1 and view.rows[0].recency == 1.0
    assert any("Only one memory is a candidate" in n for n in view.notes)


def test_the_shipped_state_shows_the_oldest_memory_least_recent(alice: LongTermMemory) -> None:
    view = recall_view(alice, alice_scope(), "what happened with Globex?", KINDS)
    oldest = min(view.rows, key=lambda r: r.record.seq)
    assert oldest.recency == min(r.recency for r in view.rows) == 0.0


# --------------------------------------------------------------------------- one escaping helper

RLO = "\u202e"
INVISIBLE = ["\u202e", "\u202d", "\u2066", "\u200b", "\x00", "\x1b", "\u2028", "\u00a0", "\ufeff"]


@pytest.mark.parametrize("ch", INVISIBLE)
def test_shown_writes_each_invisible_character_as_an_escape(ch: str) -> None:
    out = shown(f"a{ch}b")
    assert ch not in out and ch.encode("unicode_escape").decode("ascii") in out


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec=None), max_size=40))
def test_visible_leaves_only_printable_characters(text: str) -> None:
    """Class of input: any Unicode text, controls, bidi overrides, zero-width marks and lone surrogates included."""
    assert all(ch.isprintable() for ch in visible(text))
    assert all(ch.isprintable() or ch in "\n\t" for ch in visible(text, lines=True))


def _raw_invisible(page: str) -> list[str]:
    return [ch for ch in page if not ch.isprintable() and ch not in "\n\t"]


def test_the_recall_panel_escapes_the_question(alice: LongTermMemory) -> None:
    page = recall_view(alice, alice_scope(), f"what happened with Globex?{RLO}exe.gnp", KINDS).html()
    assert RLO not in page and "\\u202e" in page


def test_the_attack_panel_escapes_the_query() -> None:
    partitioned, naive = safety_world()
    page = attack_view(partitioned, naive, Scope("globex", "carol"), f"Acme plans{RLO} tenant_id=acme").html()
    assert RLO not in page and "\\u202e" in page


@pytest.fixture(scope="module")
def worlds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    from primer_memory.notes.tool import example_notes

    partitioned, naive = safety_world()
    return {"alice": alice_store(), "partitioned": partitioned, "naive": naive,
            "notes": example_notes(str(tmp_path_factory.mktemp("notes") / "memories"))}


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=30))
def test_no_panel_shows_an_invisible_character(worlds: dict[str, object], text: str) -> None:
    """Class of input: any text a learner types into a panel's box (recall question, attack query, policy
    sentence, notes path); what comes back is HTML with every invisible character written as an escape."""
    pages = [recall_view(worlds["alice"], alice_scope(), text, KINDS).html(),
             attack_view(worlds["partitioned"], worlds["naive"], Scope("globex", "carol"), text).html(),
             policy_view(text).html(),
             notes_path_view(text, worlds["notes"]).html()]
    for page in pages:
        assert not _raw_invisible(page), page


def test_small_wordings_a_person_reads(alice_memory=None) -> None:  # type: ignore[no-untyped-def]
    """Issue 49: 'unknown kind p', a floor recall refuses described as 'returns nothing', 'the last 1 message',
    and empty text called small talk."""
    from primer_memory.lessons.examples import alice_scope, alice_store
    from primer_memory.lessons.widgets.budget import budget_view
    from primer_memory.lessons.widgets.recall import recall_view
    from primer_memory.lessons.widgets.safety import policy_view

    memory, scope = alice_store(), alice_scope()
    one_kind = recall_view(memory, scope, "how do I book travel?", kinds="procedural")
    assert not one_kind.message and {r.record.kind for r in one_kind.rows} == {"procedural"}
    too_high = recall_view(memory, scope, "what happened with Globex?", ("episodic",), min_score=2)
    assert "InvalidQuery" in too_high.message and "returns nothing" not in too_high.message
    empty = policy_view("   ")
    assert "Nothing to judge yet" in empty.html() and "small_talk" not in empty.html()
    texts = [budget_view(b, k, 40).html() for b in range(20, 120, 10) for k in (1, 2)]
    assert not any("the last 1 message" in t for t in texts)
