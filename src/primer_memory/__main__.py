"""`python -m primer_memory`: the lesson's worked examples, printed in the terminal (no Jupyter needed)."""

from __future__ import annotations

import sys
from collections.abc import Callable

from .examples import invoice_chat
from .short_term import ShortTermMemory, estimate_tokens


def _heading(title: str) -> None:
    print(f"\n{title}\n{'=' * len(title)}")


def part1() -> None:
    """Short-term memory: six exchanges under a budget of 110 with keep_last 4."""
    _heading("1. Short-term memory under a token budget")
    memory = ShortTermMemory(budget_tokens=110, keep_last=4)
    memory.extend(invoice_chat(6))
    window = memory.window()
    print(f"six exchanges cost {memory.history_tokens()} tokens; the budget is {memory.budget_tokens}")
    print(f"summary ({estimate_tokens(window.summary)} tokens): {window.summary}")
    for m in window.messages:
        print(f"  {m['role']:>9} ({estimate_tokens(m['content'])}): {m['content']}")
    print(f"sent: {window.tokens} tokens; messages dropped entirely: {window.dropped} (exchanges 1 and 2)")


PARTS: list[Callable[[], None]] = [part1]


def main(argv: list[str] | None = None) -> int:
    """Print every part's worked example, in order."""
    for part in PARTS:
        part()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
