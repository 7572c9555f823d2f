"""Payment card numbers inside a run of digit groups: every printed layout window, Luhn-checked by stdnum.

A run like "4111 1111 1111 1111 2026" holds several windows a card could be printed in, so a
neighbouring number cannot hide a card. A short run (the everyday case) is read window by window in
Python; a long one, which only pasted tables or hostile input produce, is checked all at once with
numpy (imported only then), so a megabyte of digit groups costs milliseconds instead of seconds. That
numpy Luhn is the one check here not python-stdnum's (checksums.OWN_CHECKS); a property test holds it
equal to the window-by-window path, which asks stdnum.luhn.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from ..checksums import luhn_valid

Span = tuple[int, int]

# Issuer prefixes and lengths of the big card networks: a Luhn-valid number must also look issued.
# Every prefix is at most four digits long, so a window's first group of four decides its network.
CARD_NETWORKS: tuple[tuple[re.Pattern[str], frozenset[int]], ...] = tuple(
    (re.compile(prefix), frozenset(lengths))
    for prefix, lengths in (
        (r"4", (13, 16, 19)),                                       # Visa
        (r"5[1-5]|2(?:2[2-9][1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720)", (16,)),  # Mastercard
        (r"3[47]", (15,)),                                          # American Express
        (r"6011|64[4-9]|65", (16, 17, 18, 19)),                     # Discover
        (r"35(?:2[89]|[3-8]\d)", (16, 17, 18, 19)),                 # JCB
        (r"3(?:0[0-5]|[689])", (14, 15, 16, 17, 18, 19)),           # Diners Club
        (r"62", (16, 17, 18, 19)),                                  # UnionPay
        # Issue 48: the national and debit networks people also carry (their first four digits)
        (r"220[0-4]", (16, 17, 18, 19)),                            # Mir
        (r"50(?:18|20|38)|5893|6304|67(?:59|6[1-3])", (13, 14, 15, 16, 17, 18, 19)),  # Maestro (13-19 digits)
        (r"60|508", (16,)),  # RuPay (its newer 81-82 range left out: 16 digits starting 8 are often references)
        (r"50(?:4[1-5]|6[6-7]|9\d)|6277|636[23]", (16,)),            # Elo
    )
)


def card_issued(digits: str) -> bool:
    """Whether a network issues numbers with this prefix and this length."""
    return any(p.match(digits) and len(digits) in lengths for p, lengths in CARD_NETWORKS)


# Printed layouts, as (min, max) lengths of the groups after a first group of four:
# 4-4-4-4-(1..3), 4-4-4-(1..4), 4-6-(4..5). Both paths read this one table.
_LAYOUTS = (((4, 4), (4, 4), (4, 4), (1, 3)), ((4, 4), (4, 4), (1, 4)), ((6, 6), (4, 5)))
_LAYOUT_AT = tuple(re.compile(r"\d{4}" + "".join(f" \\d{{{low},{high}}}" for low, high in layout) + r"(?!\d)")
                   for layout in _LAYOUTS)
_LONG_RUN = 64  # groups; a run longer than this is checked with numpy


def card_windows(run: str, glued_start: bool = False, glued_end: bool = False) -> list[Span]:
    """Spans in `run` (digit groups, single spaces between) of every issued, Luhn-valid card window.

    Sorted by start, then end. A window glued to a word or a decimal at either end of the run does
    not count (`glued_start`, `glued_end`): "v4111111111111111" is an identifier, not a card.
    """
    if " " not in run:
        ok = 13 <= len(run) <= 19 and not glued_start and not glued_end and card_issued(run) and luhn_valid(run)
        return [(0, len(run))] if ok else []
    spans = _windows_numpy(run) if run.count(" ") >= _LONG_RUN else list(_windows_python(run))
    return [(s, e) for s, e in spans if not (s == 0 and glued_start) and not (e == len(run) and glued_end)]


def _windows_python(run: str) -> Iterator[Span]:
    """Window by window: at each group of four, every layout that fits, checked for issuer and Luhn."""
    for group in re.finditer(r"(?<!\d)\d{4}(?!\d)", run):
        found = []
        for layout in _LAYOUT_AT:
            window = layout.match(run, group.start())
            if window is not None and card_issued(digits := window.group().replace(" ", "")) and luhn_valid(digits):
                found.append(window.span())
        yield from sorted(found)


@functools.cache
def _issued_table() -> object:
    """issued[first four digits, length]: whether any network issues that prefix at that length."""
    import numpy as np

    table = np.zeros((10_000, 20), dtype=bool)
    for n in range(10_000):
        prefix = f"{n:04d}"
        for pattern, lengths in CARD_NETWORKS:
            if pattern.match(prefix):
                table[n, sorted(lengths)] = True
    return table


def _windows_numpy(run: str) -> list[Span]:
    """Every layout at every group at once: group lengths decide the layouts, prefix sums give each Luhn sum."""
    import numpy as np

    buf = np.frombuffer(run.encode("ascii"), dtype=np.uint8)
    space = np.flatnonzero(buf == 32)
    raw_start = np.concatenate([[0], space + 1])                  # where each group starts in the run
    lens = np.concatenate([space, [len(buf)]]) - raw_start
    digit_start = raw_start - np.arange(len(raw_start))           # ... and among the digits alone
    starts = np.flatnonzero(lens == 4)
    if len(starts) == 0:
        return []
    digits = (buf[buf != 32] - 48).astype(np.int32)
    doubled = np.array([0, 2, 4, 6, 8, 1, 3, 5, 7, 9], dtype=np.int32)[digits]
    even = np.arange(len(digits)) % 2 == 0
    # Luhn keeps the rightmost digit and doubles every second one leftwards. For a window ending on an
    # even position the even digits are kept (weights[0]); ending on an odd one, the odd digits.
    weights = [np.concatenate([[0], np.cumsum(np.where(even == keep_even, digits, doubled))])
               for keep_even in (True, False)]
    padded = np.concatenate([lens, np.zeros(4, dtype=lens.dtype)])
    issued = _issued_table()

    at = digit_start[starts]
    first4 = digits[at] * 1000 + digits[at + 1] * 100 + digits[at + 2] * 10 + digits[at + 3]
    can_start = issued[first4].any(axis=1)
    found_start, found_end = [], []
    for layout in _LAYOUTS:
        fits = can_start.copy()
        n = np.full(len(starts), 4)
        for k, (low, high) in enumerate(layout, start=1):
            following = padded[starts + k]
            fits &= (following >= low) & (following <= high)
            n = n + following
        g, n, prefix = starts[fits], n[fits], first4[fits]
        a = digit_start[g]
        b = a + n
        total = np.where((b - 1) % 2 == 0, weights[0][b] - weights[0][a], weights[1][b] - weights[1][a])
        ok = (total % 10 == 0) & issued[prefix, n]
        found_start.append(raw_start[g[ok]])
        found_end.append(raw_start[g[ok]] + n[ok] + len(layout))
    start, end = np.concatenate(found_start), np.concatenate(found_end)
    order = np.lexsort((end, start))
    return list(zip(start[order].tolist(), end[order].tolist()))
