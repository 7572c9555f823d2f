"""Notebook 1's property cell: where its few seconds go, hypothesis generating chats or the memory checking them.

Runs the notebook's property (300 derandomized chats of random Unicode text, budgets and keep_last values) twice in
one process: once as written, once with the same inputs generated but not given to ShortTermMemory. The ratio is
the memory's share of the cell; the rest is hypothesis inventing the inputs.

Run: PYTHONPATH=src .venv/bin/python benchmarks/bench_property_cell.py
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from primer_memory import ShortTermMemory
from timing import best_of

CHATS = st.lists(st.tuples(st.sampled_from(["user", "assistant"]), st.text(max_size=300)), max_size=30)
CASES = st.tuples(CHATS, st.integers(1, 400), st.integers(1, 10))  # (chat, budget, keep_last): as in the notebook
REPEATABLE = settings(max_examples=300, derandomize=True, database=None, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow])


@REPEATABLE
@given(CASES)
def with_memory(case: tuple[list[tuple[str, str]], int, int]) -> None:
    chat, budget, keep_last = case
    memory = ShortTermMemory(budget, keep_last=keep_last)
    memory.extend(chat)
    assert memory.sent_tokens() <= budget


@REPEATABLE
@given(CASES)
def generation_only(case: tuple[list[tuple[str, str]], int, int]) -> None:
    assert case is not None


def main() -> None:
    whole = best_of(3, with_memory)
    generating = best_of(3, generation_only)
    share = max(whole - generating, 0.0) / whole
    print(f"the property as in notebook 1: {whole:.2f} s; generating the same inputs alone: {generating:.2f} s")
    print(f"ShortTermMemory's share of the cell: {share:.0%} (the rest is hypothesis inventing 300 chats)")


if __name__ == "__main__":
    main()
