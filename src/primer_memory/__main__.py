"""`python -m primer_memory`: the lesson's worked examples, printed in the terminal (no Jupyter needed)."""

from __future__ import annotations

import sys

from .lessons.demo import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
