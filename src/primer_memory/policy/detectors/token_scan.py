"""Shared by the token, hash and URL detectors: is a value machine-made, and which rule matches first.

Kept apart from detect_tokens so that detect_hashes and detect_urls can use them without importing
detect_tokens, whose registry imports them (a module cycle otherwise).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable

from ..scan import _entropy, _first_match_of, _has_letter_and_digit

_PLACEHOLDER_WORDS = re.compile(r"xxxx|example|placeholder|your|redacted|dummy|changeme|insert|replace")


def random_enough(value: str, mixed: bool = True) -> bool:
    """Machine-generated rather than typed: no placeholder word, no runs or sequences, enough entropy.

    'ghp_xxxx', 'abcdef123456' and '0123456789abcdef' fail; `mixed` also asks for letters and digits.
    """
    if len(value) < 8 or _PLACEHOLDER_WORDS.search(value.lower()):
        return False
    if _entropy(value) < min(3.0, math.log2(len(value)) - 0.75):
        return False
    steps = sum(1 for a, b in itertools.pairwise(value) if 0 <= ord(b) - ord(a) <= 1)
    return steps * 2 <= len(value) and (not mixed or _has_letter_and_digit(value))


def first_of(rules: Iterable[tuple[str, re.Pattern[str], bool]], low: str) -> re.Match[str] | None:
    """The earliest match of the rules whose fixed piece is in `low` and whose group 'secret' looks machine-made.

    Each rule's pattern has group 1 (the whole match) and 'secret'; findall collects them in C and each
    distinct match is judged once, so a repeated placeholder costs one judgement.
    """
    best: re.Match[str] | None = None
    for piece, pattern, mixed in rules:
        if piece not in low:
            continue
        for whole, secret in dict.fromkeys(pattern.findall(low)):
            if random_enough(secret.replace("%3d", "").rstrip("="), mixed):
                match = _first_match_of(pattern, low, whole)
                if best is None or match.start() < best.start():
                    best = match
                break
    return best
