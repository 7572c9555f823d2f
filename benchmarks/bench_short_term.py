"""How much faster is ShortTermMemory.context() than the lesson's rule written out directly?

The direct version (`context_reference`) re-joins and re-measures the summary
once per dropped message, so one call is quadratic in the chat's length. The
package caches each message's summary piece and finds the cut by bisection
over running sums. Both run here, in one process, on the same chats; the
figures are ratios, so they carry over between machines better than seconds.

Run: .venv/bin/python benchmarks/bench_short_term.py
"""

from __future__ import annotations

from primer_memory import ShortTermMemory, context_reference
from primer_memory.lessons.examples import invoice_exchange
from timing import best_of

BUDGET, KEEP_LAST = 300, 6




def chat(messages: int) -> list[tuple[str, str]]:
    return [turn for i in range(1, messages // 2 + 1) for turn in invoice_exchange(i)]


def main() -> None:
    print(f"budget {BUDGET}, keep_last {KEEP_LAST}; seconds are best of several runs")
    print(f"{'messages':>9} {'reference':>11} {'cold call':>11} {'warm call':>11} {'ratio cold':>11} {'ratio warm':>11}")
    for n in (500, 1_000, 2_000):
        turns = chat(n)
        memory = ShortTermMemory(BUDGET, KEEP_LAST)
        memory.extend(turns)
        messages = memory.messages
        reference = best_of(3 if n < 2_000 else 1, lambda: context_reference(messages, BUDGET, KEEP_LAST))

        def cold() -> None:
            fresh = ShortTermMemory(BUDGET, KEEP_LAST)
            fresh.extend(turns)
            fresh.context()

        def add_only() -> None:
            ShortTermMemory(BUDGET, KEEP_LAST).extend(turns)

        cold_time = max(best_of(5, cold) - best_of(5, add_only), 1e-9)  # the first context() call alone
        assert memory.context() == context_reference(messages, BUDGET, KEEP_LAST)
        warm = best_of(50, memory.context)
        print(f"{n:>9,} {reference:>10.4f}s {cold_time:>10.5f}s {warm:>10.6f}s "
              f"{reference / cold_time:>10.0f}x {reference / warm:>10.0f}x")


if __name__ == "__main__":
    main()
