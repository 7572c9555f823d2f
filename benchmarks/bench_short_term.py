"""How much faster is ShortTermMemory.context() than the lesson's rule written out directly?

The direct version (`context_reference`) re-joins and re-measures the summary
once per dropped message, so one call is quadratic in the chat's length. The
package caches each message's summary piece and finds the cut by bisection
over running sums. Both withhold what the write policy refuses: the package
judges only the turns its summary shows, as they fold (in the cold call);
the reference is given the whole chat's judgement, made outside its timing,
so the ratio compares the folds alone. Both run here, in one process, on the same chats; the
figures are ratios, so they carry over between machines better than seconds.

Run: .venv/bin/python benchmarks/bench_short_term.py
"""

from __future__ import annotations

import time

from primer_memory import ShortTermMemory, context_reference
from primer_memory.lessons.examples import invoice_exchange
from primer_memory.short_term import withheld
from primer_memory.short_term.withheld import held_back
from timing import best_of

BUDGET, KEEP_LAST = 300, 6




def chat(messages: int) -> list[tuple[str, str]]:
    return [turn for i in range(1, messages // 2 + 1) for turn in invoice_exchange(i)]


def main() -> None:
    print(f"budget {BUDGET}, keep_last {KEEP_LAST}; seconds are best of several runs")
    print("cold: the first context() call, judging the turns its summary shows; folded: the same call once those")
    print("turns are judged (the judgement is cached by text), so it times the fold alone, as the reference does")
    print(f"{'messages':>9} {'reference':>11} {'cold call':>11} {'folded':>11} {'warm call':>11} "
          f"{'ratio cold':>11} {'ratio fold':>11} {'ratio warm':>11}")
    for n in (500, 1_000, 2_000):
        turns = chat(n)
        memory = ShortTermMemory(BUDGET, KEEP_LAST)
        memory.extend(turns)
        messages = memory.messages
        held = held_back(messages)  # the whole chat's judgement, made once, outside the reference's timing
        reference = best_of(3 if n < 2_000 else 1, lambda: context_reference(messages, BUDGET, KEEP_LAST, held=held))

        def first_call(clear: bool) -> float:
            """Seconds of the first context() call on a fresh memory (made outside the timing)."""
            if clear:  # the judgement is cached by text: a cold call starts with none
                withheld.refused.cache_clear()
                withheld._findings.cache_clear()
            fresh = ShortTermMemory(BUDGET, KEEP_LAST)
            fresh.extend(turns)
            start = time.perf_counter()
            fresh.context()
            return time.perf_counter() - start

        cold_time = min(first_call(True) for _ in range(5))
        fold_time = min(first_call(False) for _ in range(5))
        assert memory.context() == context_reference(messages, BUDGET, KEEP_LAST, held=held)
        warm = best_of(50, memory.context)
        print(f"{n:>9,} {reference:>10.4f}s {cold_time:>10.5f}s {fold_time:>10.5f}s {warm:>10.6f}s "
              f"{reference / cold_time:>10.0f}x {reference / fold_time:>10.0f}x {reference / warm:>10.0f}x")


if __name__ == "__main__":
    main()
