"""What importing the package costs, as ratios against importing numpy, each in a fresh interpreter.

Every row runs in its own `python -c` (a fresh process, so nothing is cached in memory between rows;
the operating system's file cache is warm after the first round). Rows:

- `import numpy`: the baseline; the package needs numpy for long-term memory anyway.
- `import primer_memory`: the package's face, which imports each part on first use.
- `from primer_memory import ShortTermMemory`: notebook 1's part only.
- `from primer_memory import LongTermMemory`: notebook 2's part (numpy included).
- `... + review("hello")`: the write policy's first call, which builds its detectors.

Aim (issue 25): `import primer_memory` no more than numpy's own import; detectors built on first use.

Run: PYTHONPATH=src .venv/bin/python benchmarks/bench_import.py
"""

from __future__ import annotations

import subprocess
import sys

ROWS = {
    "import numpy": "import numpy",
    "import primer_memory": "import primer_memory",
    "from primer_memory import ShortTermMemory": "from primer_memory import ShortTermMemory",
    "from primer_memory import LongTermMemory": "from primer_memory import LongTermMemory",
    "... and the policy's first review()": "from primer_memory import LongTermMemory, review; review('hello')",
}
ROUNDS = 7


def cost(statement: str) -> float:
    """Seconds to run `statement` in a fresh interpreter, minus an empty interpreter's start-up, best of ROUNDS."""
    code = ("import time; t = time.perf_counter(); " + statement +
            "; print(time.perf_counter() - t)")
    best = float("inf")
    for _ in range(ROUNDS):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        best = min(best, float(out.strip().splitlines()[-1]))
    return best


def main() -> int:
    base = cost(ROWS["import numpy"])
    print(f"{'what':<45} {'ms':>8} {'/ numpy':>8}")
    for label, statement in ROWS.items():
        seconds = base if label == "import numpy" else cost(statement)
        print(f"{label:<45} {seconds * 1e3:>8.1f} {seconds / base:>7.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
