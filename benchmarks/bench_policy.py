"""How much does the write policy cost per write, next to the single keyword regex it replaces?

review() runs 19 detectors on every candidate memory; the baseline runs one
precompiled keyword regex. Both run here, in one process, on the same inputs:
short facts (the usual memory), facts with a credential, and 4 KB notes. The
figures are ratios, so they carry over between machines better than seconds.

Run: .venv/bin/python benchmarks/bench_policy.py
"""

from __future__ import annotations

import random
import re

from primer_memory.policy import DETECTORS, review
from timing import best_of

KEYWORD = re.compile(r"\b(?:password|passcode|pin|token|secret|api[ _-]?key|private key|ssn|iban)\b", re.I)
WORDS = ("Alice Bob Carol Globex Initech invoice payment vendor approves travel team fiscal year starts April "
         "July euros amount due date matched reconcile budget token secret santa PIN printer wiki password "
         "policy rotated vault meeting Friday 2026-09-18 300 12 characters key account manager the a of to "
         "for in on is was with and").split()
SECRETS = ("my VPN password is hunter2", "card 4111 1111 1111 1111", "AKIAIOSFODNN7EXAMPLE",
           "IBAN GB82 WEST 1234 5698 7654 32", "postgres://app:s3cr3t@db:5432/x", "PIN: 4821")




def facts(rng: random.Random, n: int, words: tuple[int, int]) -> list[str]:
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(*words))) + "." for _ in range(n)]


def main() -> None:
    rng = random.Random(20260918)
    inputs = {
        "short facts (8-20 words)": facts(rng, 2_000, (8, 20)),
        "facts with a secret": [f"{f} {rng.choice(SECRETS)}" for f in facts(rng, 2_000, (4, 12))],
        "4 KB notes": [" ".join(facts(rng, 40, (12, 20)))[:4096] for _ in range(100)],
        "100 KB adversarial runs": ["4" * 100_000, "1-" * 50_000, "a" * 100_000, "password is " * 8_000,
                                    "GB82 " * 20_000, "eyJ" + "A" * 100_000, "sk-" + "-" * 100_000],
    }
    print(f"{len(DETECTORS)} detectors; seconds per call are best of 5 runs")
    print(f"{'input':<26} {'keyword regex':>14} {'review()':>12} {'ratio':>8} {'refused':>8}")
    for name, texts in inputs.items():
        keyword = best_of(5, lambda: [KEYWORD.search(t) for t in texts]) / len(texts)
        policy = best_of(5, lambda: [review(t) for t in texts]) / len(texts)
        refused = sum(review(t).verdict == "refuse" for t in texts) / len(texts)
        print(f"{name:<26} {keyword * 1e6:>12.2f}us {policy * 1e6:>10.1f}us {policy / keyword:>7.0f}x "
              f"{refused:>7.0%}")


if __name__ == "__main__":
    main()
