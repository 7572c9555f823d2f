"""Figures draw the lesson's numbers (checked on the data behind them) and render to PNG."""

from __future__ import annotations

from primer_memory.lessons.figures import context_tokens, figure_png


def test_context_tokens_draws_both_curves_and_the_budget() -> None:
    fig = context_tokens(turns=40, budget=300, keep_last=6)
    ax = fig.axes[0]
    whole, managed = (line.get_ydata() for line in ax.lines[:2])
    assert whole[-1] == 1431 and managed[-1] == 295
    assert list(whole[:8]) == list(managed[:8])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "send the whole history", "managed (keep_last=6)", "budget = 300 tokens (first passed at turn 9)"]


def test_figures_render_to_png_in_notebooks() -> None:
    fig = context_tokens(turns=5, budget=100, keep_last=2)
    png = fig._repr_png_()
    assert png.startswith(b"\x89PNG") and png == figure_png(fig)
