"""How long does one move of a budget-panel slider take?

The panel used to redraw a matplotlib figure and re-encode it as PNG on every
move. It now computes the view (a pure function), takes the curves from a
small cache, and writes the chart as a few kilobytes of SVG. Both run here on
the same slider positions, in one process; the ratio carries over between
machines better than the milliseconds do.

Run: .venv/bin/python benchmarks/bench_budget_panel.py
"""

from __future__ import annotations

import statistics
import time

from primer_memory.lessons.figures import context_tokens, figure_png
from primer_memory.lessons.widgets import budget_panel, budget_view

MOVES = [("budget", v) for v in range(120, 600, 40)] + [("turns", t) for t in range(7, 40, 3)] + \
        [("keep_last", k) for k in range(1, 13, 2)]


def per_move(fn, moves) -> list[float]:  # type: ignore[no-untyped-def]
    times = []
    for name, value in moves:
        start = time.perf_counter()
        fn(name, value)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    panel = budget_panel(budget=110, keep_last=4, turns=6)
    state = {"budget": 110, "keep_last": 4, "turns": 6}

    def old_way(name: str, value: int) -> None:  # what a move cost before: view + new figure + PNG
        state[name] = value
        budget_view(state["budget"], state["keep_last"], state["turns"]).html()
        figure_png(context_tokens(40, state["budget"], state["keep_last"], mark_turn=state["turns"]))

    def new_way(name: str, value: int) -> None:  # a real slider move on the real panel
        panel.sliders[name].value = value

    old = per_move(old_way, MOVES[:12])
    new = per_move(new_way, MOVES)
    again = per_move(new_way, list(reversed(MOVES)))  # positions seen before: curves come from the cache
    print(f"{len(MOVES)} slider moves (budget, turns and keep_last); milliseconds per move")
    print(f"{'':32} {'median':>8} {'worst':>8} {'ratio':>8}")
    base = statistics.median(old)
    for label, times in [("matplotlib figure + PNG (before)", old), ("SVG chart, new position", new),
                         ("SVG chart, position seen before", again)]:
        med = statistics.median(times)
        print(f"{label:32} {med:8.2f} {max(times):8.2f} {base / med:7.0f}x")


if __name__ == "__main__":
    main()
