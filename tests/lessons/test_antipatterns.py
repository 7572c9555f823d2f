"""The teaching contrast in notebook 3 must stay true: the naive global index leaks, the partitioned store does not."""

from __future__ import annotations

import primer_memory
from primer_memory.lessons.examples import ADVERSARIAL_QUERIES, SAFETY_MEMORIES, safety_world
from primer_memory.lessons.figures import isolation_scores
from primer_memory.long_term.memory import Scope
from primer_memory.lessons.widgets import attack_panel, attack_view

CAROL = Scope("globex", "carol")
ATTACK = "Acme plans to acquire Initech in Q4. tenant_id=acme OR 1=1"


def test_the_wrong_design_is_not_exported() -> None:
    assert not hasattr(primer_memory, "GlobalIndexStore")


def test_naive_store_leaks_acmes_secret_to_carol_partitioned_does_not() -> None:
    partitioned, naive = safety_world()
    view = attack_view(partitioned, naive, CAROL, ATTACK)
    assert "Acme plans to acquire Initech in Q4." in view.naive_leaks
    assert view.partitioned == [("globex/carol", "Globex prefers invoices in euros.")]
    assert view.partitioned_leaks == []


def test_prefix_bug_lets_acme_see_acme_corp() -> None:
    partitioned, naive = safety_world()
    view = attack_view(partitioned, naive, Scope("acme", "alice"), "when are invoices paid?")
    assert view.naive_leaks == ["Acme-Corp pays its invoices on the 25th."]
    assert view.partitioned_leaks == []


def test_every_preset_leaks_nothing_from_the_partitioned_store() -> None:
    partitioned, naive = safety_world()
    for (tenant, user), query in ADVERSARIAL_QUERIES.values():
        assert attack_view(partitioned, naive, Scope(tenant, user), query).partitioned_leaks == []


def test_panel_follows_presets_and_typed_queries() -> None:
    panel = attack_panel()
    assert repr(panel) == "AttackPanel()"
    assert "LEAK from acme/alice: Acme plans to acquire Initech in Q4." in panel.text.value
    panel.controls["preset"].value = "an honest question"
    assert "leaked nothing this time" in panel.text.value
    panel.controls["query"].value = "tenant_id=acme fiscal year"
    assert "LEAK from acme/alice: Alice&#x27;s fiscal year starts in" in panel.text.value
    assert "only the caller's own records" in panel.text.value
    assert "pm-attack-query" in panel.controls["query"]._dom_classes


def test_isolation_figure_scores_every_memory_and_acme_is_highest() -> None:
    partitioned, _ = safety_world()
    scopes = sorted({Scope(t, u) for (t, u), _ in SAFETY_MEMORIES}, key=str)
    fig = isolation_scores(partitioned, CAROL, ATTACK, scopes)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert len(labels) == len(SAFETY_MEMORIES)
    assert labels[0] == "acme/alice: Acme plans to acquire Initech in Q4."
    widths = [bar.get_width() for bar in ax.patches[: len(labels)]]
    assert widths[0] == max(widths)


def test_empty_query_is_reported_not_raised_and_replaces_the_old_result() -> None:
    panel = attack_panel()
    assert "LEAK from acme/alice" in panel.text.value
    for blank in ("", "   "):
        panel.controls["query"].value = blank
        page = panel.text.value
        assert "LongTermMemory refused the query and searched nothing" in page and "question is empty" in page
        assert "LEAK from acme/alice: Acme plans" not in page  # the previous result is gone


def test_every_attack_message_is_true_over_a_grid_of_callers_and_queries() -> None:
    partitioned, naive = safety_world()
    callers = sorted({Scope(t, u) for (t, u), _ in SAFETY_MEMORIES}, key=str)
    queries = [q for _, q in ADVERSARIAL_QUERIES.values()] + [
        "", " ", "tenant_id=acme", "tenant_id=acme-corp OR 1=1", "zzz qqq", "' OR 1=1 --", "x" * 5000,
        "Globex prefers invoices in euros.", "tenant_id=globex euros"]
    for caller in callers:
        for query in queries:
            view = attack_view(partitioned, naive, caller, query)
            first, second = view.messages()
            leaks = len(view.naive_leaks)
            if leaks:
                assert f"leaked {leaks} record" in first
            else:
                assert "leaked nothing" in first
                assert ("returned nothing" in first) == (not view.naive)
            if view.refused:
                assert query.strip() == "" and "searched nothing" in second and view.partitioned == []
            elif not view.partitioned:
                assert second == "The partitioned store returned no records."
            else:
                assert view.partitioned_leaks == []
                assert second.endswith(f"{len(view.partitioned)} of them.")
            view.html()  # renders for every input
