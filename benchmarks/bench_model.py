"""The real small model against the stand-in: tokens per second, memory, and how much slower a real call is.

Both answer the same three questions with the same recalled memories, in one
process. The real model is SmolLM2-135M-Instruct (GGUF) through xllamacpp,
greedy, on `--threads` threads (default 1); its speeds are llama.cpp's own
timings. The ratio is real seconds over stand-in seconds (prompt built by the
same renderer in both), so it carries over between machines better than seconds.

Needs `make model`; without it this prints how to install it and exits cleanly.
Run: .venv/bin/python benchmarks/bench_model.py [--threads 1] [--max-tokens 48]
"""

from __future__ import annotations

import argparse
import resource
import time

from primer_memory.integrations.model import StandInModel, answer_prompt
from primer_memory.lessons.examples import alice_scope, alice_store
from timing import best_of

QUESTIONS = ("When does Alice's fiscal year start?", "What happened with Globex?", "How do I reconcile invoices?")


def rss_mb() -> float:
    """Resident memory of this process now, in MB (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024
    except (OSError, StopIteration):
        return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--max-tokens", type=int, default=48)
    args = parser.parse_args()
    try:
        from primer_memory.integrations.llama import LlamaModel, ModelNotInstalled
    except ImportError as error:  # pragma: no cover - the module itself imports nothing optional
        raise SystemExit(str(error)) from None

    memory, scope = alice_store(), alice_scope()
    recalled = {q: memory.recall(scope, q, k=1) for q in QUESTIONS}
    stand_in = StandInModel()

    def stand_in_round() -> None:
        for q in QUESTIONS:
            answer_prompt(q, recalled=recalled[q])
            stand_in.answer(q, recalled=recalled[q])

    before = rss_mb()
    start = time.perf_counter()
    try:
        real = LlamaModel(threads=args.threads, max_tokens=args.max_tokens)
    except ModelNotInstalled as missing:
        print(f"skipped: {missing}")
        return
    load = time.perf_counter() - start
    loaded = rss_mb()
    with real:
        print(f"model {real.name} ({real.path.stat().st_size / 1e6:.0f} MB file), {args.threads} thread(s), greedy, "
              f"max {args.max_tokens} tokens a reply")
        print(f"load {load:.2f} s; resident memory +{loaded - before:.0f} MB for the model "
              f"({loaded:.0f} MB in all)")
        generated = predicted_ms = read = prompt_ms = 0.0
        real_seconds = 0.0
        print(f"{'question':40} {'prompt tok':>10} {'read tok/s':>10} {'reply tok':>9} {'gen tok/s':>9} {'seconds':>8}")
        for q in QUESTIONS:
            real.answer(q, recalled=recalled[q])
            c = real.last
            assert c is not None
            generated += c.completion_tokens
            predicted_ms += c.predicted_ms
            read += c.prompt_tokens
            prompt_ms += c.prompt_ms
            real_seconds += c.seconds
            print(f"{q:40} {c.prompt_tokens:>10} {1000 * c.prompt_tokens / c.prompt_ms:>10.0f} "
                  f"{c.completion_tokens:>9} {c.tokens_per_second:>9.0f} {c.seconds:>8.2f}")
        stand_in_seconds = best_of(20, stand_in_round)
        print(f"generation {1000 * generated / predicted_ms:.0f} tokens/s, prompt reading "
              f"{1000 * read / prompt_ms:.0f} tokens/s; peak resident memory "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
        print(f"three answers: real model {real_seconds:.2f} s, stand-in {stand_in_seconds * 1e3:.3f} ms "
              f"(prompt built too): the real model is {real_seconds / stand_in_seconds:,.0f}x slower")


if __name__ == "__main__":
    main()
