"""The recall panel and figure, driven in Python: set a control's value, check what the panel shows."""

from __future__ import annotations

import pytest

from primer_memory.examples import RECALL_QUESTIONS, alice_scope, alice_store
from primer_memory.figures import KIND_COLOURS, figure_png, recall_scores
from primer_memory.long_term import KINDS, LongTermMemory, Scope
from primer_memory.widgets import RecallView, recall_panel, recall_view


@pytest.fixture
def memory() -> LongTermMemory:
    return alice_store()


def test_view_ranks_like_recall_when_weights_are_zero(memory: LongTermMemory) -> None:
    for question, kinds in RECALL_QUESTIONS:
        view = recall_view(memory, alice_scope(), question, kinds, 0, 0, k=2)
        assert isinstance(view, RecallView) and not view.message
        assert [r.record for r in view.rows] == memory.recall(alice_scope(), question, k=2, kinds=kinds)
        assert "plain cosine ranking" in view.html()


def test_view_html_shows_score_parts_and_escapes_text(memory: LongTermMemory) -> None:
    memory.remember(alice_scope(), "semantic", "Alice's <b>bold</b> vendor is Globex & Co.")
    page = recall_view(memory, alice_scope(), "Globex <script>", KINDS, 1.0, 0.5).html()
    assert "&lt;b&gt;bold&lt;/b&gt;" in page and "<script>" not in page
    for column in ("cosine", "relevance", "recency", "importance", "score"):
        assert f"<th>{column}</th>" in page
    assert "1 &times; recency + 0.5 &times; importance" in page


def test_view_explains_empty_results(memory: LongTermMemory) -> None:
    scope = alice_scope()
    assert "Type a question" in recall_view(memory, scope, "   ", KINDS).html()
    assert "Tick at least one kind" in recall_view(memory, scope, "Globex", ()).html()
    assert "No memory shares a word" in recall_view(memory, scope, "what is it?", KINDS).html()
    assert "No memory of these kinds" in recall_view(memory, Scope("acme", "nobody"), "Globex", KINDS).html()


def test_panel_is_short_in_text_and_tagged_for_the_browser() -> None:
    panel = recall_panel()
    assert repr(panel) == "RecallPanel()"
    assert "pm-panel" in panel._dom_classes
    assert "pm-recall-query" in panel.query._dom_classes
    assert "pm-recall-text" in panel.text._dom_classes
    assert "pm-recall-recency" in panel.sliders["recency"]._dom_classes
    assert "pm-recall-importance" in panel.sliders["importance"]._dom_classes
    assert all(f"pm-recall-kind-{k}" in c._dom_classes for k, c in panel.kinds.items())
    assert "rejected the vendor Globex" in panel.text.value.split("</tr>")[1]  # first row after the header


def test_typing_a_question_and_ticking_kinds_changes_the_table() -> None:
    panel = recall_panel()
    panel.query.value = "how do I reconcile invoices?"
    first_row = panel.text.value.split("</tr>")[1]
    assert "To reconcile invoices" in first_row
    for kind in ("episodic", "semantic"):
        panel.kinds[kind].value = False
    assert "kinds: procedural" in panel.text.value
    assert "episodic</b>" not in panel.text.value and "semantic</b>" not in panel.text.value
    panel.kinds["procedural"].value = False
    assert "Tick at least one kind" in panel.text.value


def test_weights_move_the_ranking() -> None:
    panel = recall_panel(query="Alice invoices travel")
    before = panel.text.value
    panel.sliders["recency"].value = 3.0
    after_recency = panel.text.value
    assert after_recency != before and "3 &times; recency" in after_recency
    # With recency weighted heavily, the newest memory (the travel habit, written last) comes first.
    assert "To book travel" in after_recency.split("</tr>")[1]
    panel.sliders["recency"].value = 0.0
    panel.sliders["importance"].value = 3.0
    assert "fiscal year starts in April" in panel.text.value.split("</tr>")[1]  # importance 8, the highest


def test_panel_on_a_given_store_and_scope() -> None:
    memory = LongTermMemory()
    carol = Scope("globex", "carol")
    memory.remember(carol, "semantic", "Globex prefers invoices in euros.")
    panel = recall_panel(memory, carol, query="invoices")
    assert "euros" in panel.text.value
    with pytest.raises(ValueError, match="scope"):
        recall_panel(memory)


def test_recall_figure_has_one_panel_per_question_and_one_bar_per_memory(memory: LongTermMemory) -> None:
    fig = recall_scores(memory, alice_scope())
    axes = fig.axes
    assert len(axes) == len(RECALL_QUESTIONS)
    for ax, (question, kinds) in zip(axes, RECALL_QUESTIONS):
        bars = ax.patches
        assert len(bars) == 6
        tallest = max(bars, key=lambda b: b.get_width() if b.get_alpha() in (None, 1.0) else -1)
        assert tallest.get_linewidth() == 2  # the recalled one is outlined
        assert question in ax.get_title()
    colours = {tuple(round(c, 3) for c in b.get_facecolor()[:3]) for b in axes[0].patches}
    assert len(colours) == len(KIND_COLOURS)
    assert figure_png(fig)[:8] == b"\x89PNG\r\n\x1a\n"


def test_recall_figure_defaults_to_alice() -> None:
    assert len(recall_scores().axes) == 2
    with pytest.raises(ValueError, match="scope"):
        recall_scores(LongTermMemory())
