"""The budget panel's chart, drawn as a small inline SVG: tokens sent per turn, whole history vs managed.

Rendering a matplotlib figure to PNG costs 100-250 ms per slider move on a
busy machine; writing a few hundred characters of SVG costs well under one.
The notebook's static figure (`figures.context_tokens`) shows the same curves.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._common import shown

__all__ = ["budget_chart_svg", "nice_step"]

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 30, 42
WHOLE_COLOUR, MANAGED_COLOUR, BUDGET_COLOUR = "#c0392b", "#2471a3", "#555555"


def nice_step(span: float, ticks: int = 5) -> int:
    """A round tick step (1, 2 or 5 times a power of ten) giving about `ticks` ticks over `span`."""
    raw = max(span / ticks, 1.0)
    power = 1
    while power * 10 <= raw:
        power *= 10
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return factor * power
    return 10 * power  # pragma: no cover  (the loop always returns)


def budget_chart_svg(whole: Sequence[int], managed: Sequence[int], budget: int, *, mark_turn: int | None = None,
                     keep_last: int | None = None, x_label: str = "turn (one question and one answer)") -> str:
    """An SVG line chart of tokens sent per turn; the circle marks `mark_turn` (1-based)."""
    turns = len(whole)
    top = max([*whole, budget, 1]) * 1.08
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(turn: float) -> float:
        return LEFT + (turn - 1) / max(turns - 1, 1) * plot_w

    def y(tokens: float) -> float:
        return TOP + plot_h - tokens / top * plot_h

    def line(values: Sequence[int], colour: str) -> str:
        points = " ".join(f"{x(t):.1f},{y(v):.1f}" for t, v in enumerate(values, 1))
        return f"<polyline points='{points}' fill='none' stroke='{colour}' stroke-width='1.8'/>"

    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{HEIGHT}' "
             f"viewBox='0 0 {WIDTH} {HEIGHT}' font-family='sans-serif' font-size='11' class='pm-budget-chart'>",
             f"<rect x='{LEFT}' y='{TOP}' width='{plot_w}' height='{plot_h}' fill='white' stroke='#bbbbbb'/>"]
    step = nice_step(top)
    for tick in range(0, int(top) + 1, step):
        parts.append(f"<line x1='{LEFT - 4}' x2='{LEFT}' y1='{y(tick):.1f}' y2='{y(tick):.1f}' stroke='#888888'/>"
                     f"<text x='{LEFT - 6}' y='{y(tick) + 4:.1f}' text-anchor='end'>{tick:,}</text>")
    xstep = nice_step(turns, 8)
    for tick in [1, *range(xstep, turns + 1, xstep)]:
        parts.append(f"<line x1='{x(tick):.1f}' x2='{x(tick):.1f}' y1='{TOP + plot_h}' y2='{TOP + plot_h + 4}' "
                     f"stroke='#888888'/><text x='{x(tick):.1f}' y='{TOP + plot_h + 16}' "
                     f"text-anchor='middle'>{tick}</text>")
    over = next((t for t, w in enumerate(whole, 1) if w > budget), None)
    if over is not None:
        parts.append(f"<line x1='{x(over):.1f}' x2='{x(over):.1f}' y1='{TOP}' y2='{TOP + plot_h}' "
                     f"stroke='#999999' stroke-dasharray='2,3'/>")
    parts.append(f"<line x1='{LEFT}' x2='{LEFT + plot_w}' y1='{y(budget):.1f}' y2='{y(budget):.1f}' "
                 f"stroke='{BUDGET_COLOUR}' stroke-dasharray='6,4'/>")
    parts.append(line(whole, WHOLE_COLOUR))
    parts.append(line(managed, MANAGED_COLOUR))
    if mark_turn is not None and 1 <= mark_turn <= turns:
        parts.append(f"<circle cx='{x(mark_turn):.1f}' cy='{y(managed[mark_turn - 1]):.1f}' r='6' fill='none' "
                     f"stroke='{MANAGED_COLOUR}' stroke-width='2'/>")
    passed = f"first passed at turn {over}" if over is not None else "never passed"
    managed_label = f"managed (keep_last={keep_last})" if keep_last is not None else "managed"
    legend = [(WHOLE_COLOUR, "send the whole history", ""), (MANAGED_COLOUR, managed_label, ""),
              (BUDGET_COLOUR, f"budget = {budget} tokens ({passed})", "6,4")]
    for row, (colour, label, dash) in enumerate(legend):
        ly = TOP + 14 + 15 * row
        parts.append(f"<line x1='{LEFT + 8}' x2='{LEFT + 30}' y1='{ly - 4}' y2='{ly - 4}' stroke='{colour}' "
                     f"stroke-width='1.8' stroke-dasharray='{dash or 'none'}'/>"
                     f"<text x='{LEFT + 36}' y='{ly}'>{shown(label)}</text>")
    parts.append(f"<text x='{WIDTH / 2:.0f}' y='18' text-anchor='middle' font-size='12'>"
                 "The whole history grows every turn; a budget keeps each call flat</text>")
    parts.append(f"<text x='{LEFT + plot_w / 2:.0f}' y='{HEIGHT - 8}' text-anchor='middle'>"
                 f"{shown(x_label)}</text>")
    parts.append(f"<text x='14' y='{TOP + plot_h / 2:.0f}' text-anchor='middle' "
                 f"transform='rotate(-90 14 {TOP + plot_h / 2:.0f})'>tokens sent on this call</text>")
    parts.append("</svg>")
    return "".join(parts)
