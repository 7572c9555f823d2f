"""The recall panel and figure, driven in Python: set a control's value, check what the panel shows."""

from __future__ import annotations

import pytest

from primer_memory.lessons.examples import RECALL_QUESTIONS, alice_scope, alice_store
from primer_memory.lessons.figures import KIND_COLOURS, figure_png, recall_scores
from primer_memory.long_term.memory import KINDS, LongTermMemory, Scope
from primer_memory.lessons.widgets import RecallView, recall_panel, recall_view


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
    assert "every cosine is 0.000" in recall_view(memory, scope, "what is it?", KINDS).html()
    assert "Nothing is relevant enough" in recall_view(memory, scope, "what is it?", KINDS, min_score=0.05).html()
    assert "No memory of these kinds" in recall_view(memory, Scope("acme", "nobody"), "Globex", KINDS).html()


QUESTIONS = ["what happened with Globex?", "how do I reconcile invoices?", "what is it?", "zzzqx",
             "Alice invoices travel", "when does the budget year begin?"]
KIND_SETS = [KINDS, ("procedural",), ("episodic", "semantic")]
WEIGHTS = [0.0, 1.5, 3.0]
FLOORS = [0.0, 0.1, 0.25, 0.5]


@pytest.fixture(scope="module")
def both() -> dict[str, LongTermMemory]:
    from primer_memory import SemanticEmbedder

    return {"hashing": alice_store(), "semantic": alice_store(embedder=SemanticEmbedder())}


def test_every_message_is_true_over_the_whole_grid(both: dict[str, LongTermMemory]) -> None:
    """Each sentence the panel can print, checked against the numbers, for every input position."""
    scope = alice_scope()
    for name, memory in both.items():
        for question in QUESTIONS:
            for kinds in KIND_SETS:
                cosines = [s for _, s in memory.similarities(scope, question, kinds)]
                for w_rec in WEIGHTS:
                    for w_imp in WEIGHTS:
                        for floor in FLOORS:
                            view = recall_view(memory, scope, question, kinds, w_rec, w_imp, 3, floor, name)
                            page = view.html()
                            passing = [c for c in cosines if c >= floor or floor == 0]  # 0: no floor
                            if view.message.startswith("Nothing is relevant enough"):
                                assert floor > 0 and not passing and f"{max(cosines):.3f}" in view.message
                                continue
                            assert not view.message
                            assert len(view.rows) == min(3, len(passing))
                            assert all(r.cosine >= floor for r in view.rows) or floor == 0
                            assert [r.score for r in view.rows] == sorted((r.score for r in view.rows), reverse=True)
                            if w_rec == w_imp == 0:
                                assert "plain cosine ranking" in page
                                expected = memory.recall(scope, question, k=3, kinds=kinds, min_score=floor or None)
                                assert [r.record.id for r in view.rows] == [r.id for r in expected]
                            zero = [n for n in view.notes if "every cosine is 0.000" in n]
                            assert bool(zero) == (max(cosines) == 0)
                            if zero and w_rec == w_imp == 0:
                                assert [r.record.seq for r in view.rows] == sorted((r.record.seq for r in view.rows),
                                                                                   reverse=True)
                            scaled = [n for n in view.notes if "min-max" in n]
                            imps = [r.importance for r, s in memory.similarities(scope, question, kinds)
                                    if s >= floor or floor == 0]
                            ranged = bool(w_rec) or (bool(w_imp) and max(imps) > min(imps))  # ages always differ
                            assert bool(scaled) == (ranged and len(passing) > 1)
                            flat = [n for n in view.notes if "has no range to stretch" in n]
                            if len(passing) > 1:
                                assert bool([n for n in flat if "raw importance" in n]) == (max(imps) == min(imps))
                            else:
                                assert any("Only one memory is a candidate" in n for n in view.notes)
                            for note in scaled:
                                assert f"over the {len(passing)} candidates" in note
                                if w_imp and max(imps) > min(imps):
                                    assert f"importance from {min(imps):.3g} to {max(imps):.3g}" in note


def test_the_embedder_switch_changes_the_answer() -> None:
    panel = recall_panel(query="how do I check that every bill got paid?")
    assert list(panel.stores) == ["hashing", "semantic"]
    first = panel.text.value.split("</tr>")[1]
    assert "To book travel" in first  # spelling: "check" is shared with the travel habit
    panel.embedder.value = "semantic"
    assert "embedder: semantic" in panel.text.value
    assert "To reconcile invoices" in panel.text.value.split("</tr>")[1]  # meaning
    panel.sliders["min_score"].value = 0.5
    assert "Nothing is relevant enough" in panel.text.value


def test_panel_is_short_in_text_and_tagged_for_the_browser() -> None:
    panel = recall_panel()
    assert repr(panel) == "RecallPanel()"
    assert "pm-panel" in panel._dom_classes
    assert "pm-recall-query" in panel.query._dom_classes
    assert "pm-recall-text" in panel.text._dom_classes
    assert "pm-recall-recency" in panel.sliders["recency"]._dom_classes
    assert "pm-recall-importance" in panel.sliders["importance"]._dom_classes
    assert "pm-recall-min-score" in panel.sliders["min_score"]._dom_classes
    assert "pm-recall-embedder" in panel.embedder._dom_classes
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


def test_embedder_comparison_figure_counts_what_recall_returns() -> None:
    from primer_memory import HashingEmbedder, SemanticEmbedder
    from primer_memory.lessons.figures import embedder_comparison
    from primer_memory.lessons.paraphrases import MEMORIES, QUESTIONS, recall_at_1

    questions = [(q, t) for q, t in QUESTIONS if t < 6]
    rows = {"hashing": recall_at_1(HashingEmbedder(), questions, MEMORIES[:6]),
            "semantic": recall_at_1(SemanticEmbedder(), questions, MEMORIES[:6])}
    hits = {name: sum(target == recalled for _, target, recalled, _, _ in r) for name, r in rows.items()}
    assert hits == {"hashing": 5, "semantic": 9}  # the numbers notebook 2 quotes
    for name, r in rows.items():
        for _, target, recalled, target_cos, other in r:
            assert (recalled == target) <= (target_cos >= other)  # recalled first means no wrong memory scored higher
    fig = embedder_comparison(rows)
    legend = " ".join(t.get_text() for t in fig.legends[0].get_texts())
    assert "hashing: 5 of 12 recalled first" in legend and "semantic: 9 of 12 recalled first" in legend
    assert len(fig.axes[0].patches) == 24
    assert figure_png(fig)[:4] == b"\x89PNG"


def test_the_paraphrase_split_is_fixed_disjoint_and_complete() -> None:
    from primer_memory.lessons.paraphrases import MEMORIES, OFF_TOPIC, QUESTIONS, held_out, tune

    (tune_q, tune_off), (held_q, held_off) = tune(), held_out()
    assert len(tune_q) == len(held_q) == 24 and len(tune_off) == len(held_off) == 4
    assert sorted(tune_q + held_q) == sorted(QUESTIONS) and not set(tune_q) & set(held_q)
    assert sorted(tune_off + held_off) == sorted(OFF_TOPIC)
    assert {t for _, t in QUESTIONS} == set(range(len(MEMORIES)))  # every memory is asked for
