"""Detectors for numbers with a structure: payment cards (Luhn), IBANs (mod-97), US SSNs."""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterator

from .policy_scan import _AFTER_NUMBER, _AFTER_UNICODE_WORD, Span, _matches_folded, first_accepted


_LUHN_DOUBLE = str.maketrans("0123456789", "0246813579")  # each digit doubled, minus 9 when over 9


def luhn_valid(digits: str) -> bool:
    """The Luhn checksum every payment card number carries (one typo in ten slips through)."""
    if not digits.isdigit() or not digits.isascii():
        return False
    kept = digits[-1::-2]
    doubled = digits[-2::-2].translate(_LUHN_DOUBLE)
    return (sum(map(int, kept)) + sum(map(int, doubled))) % 10 == 0


def iban_valid(iban: str) -> bool:
    """ISO 13616: a known country, that country's length, and the mod-97 check equal to 1."""
    compact = iban.replace(" ", "").upper()
    country = compact[:2]
    if _IBAN_LENGTHS.get(country) != len(compact) or not compact[2:4].isdigit() or not compact.isalnum():
        return False
    rearranged = compact[4:] + compact[:4]
    number = "".join(str(int(ch, 36)) for ch in rearranged)
    return int(number) % 97 == 1


# Lengths from the SWIFT IBAN registry; an unknown country or a wrong length is not an IBAN.
_IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BI": 27, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27,
    "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27,
    "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22,
    "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32,
    "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19,
    "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23, "PK": 24,
    "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24, "SC": 31,
    "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25, "SV": 28, "TL": 23,
    "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}

# Issuer prefixes and lengths of the big card networks: a Luhn-valid number must also look issued.
_CARD_NETWORKS: tuple[tuple[re.Pattern[str], frozenset[int]], ...] = tuple(
    (re.compile(prefix), frozenset(lengths))
    for prefix, lengths in (
        (r"4", (13, 16, 19)),                                       # Visa
        (r"5[1-5]|2(?:2[2-9][1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720)", (16,)),  # Mastercard
        (r"3[47]", (15,)),                                          # American Express
        (r"6011|64[4-9]|65", (16, 17, 18, 19)),                     # Discover
        (r"35(?:2[89]|[3-8]\d)", (16, 17, 18, 19)),                 # JCB
        (r"3(?:0[0-5]|[689])", (14, 15, 16, 17, 18, 19)),           # Diners Club
        (r"62", (16, 17, 18, 19)),                                  # UnionPay
    )
)


def _card_issued(digits: str) -> bool:
    return any(p.match(digits) and len(digits) in lengths for p, lengths in _CARD_NETWORKS)



# Maximal runs of 13+ digits, single spaces or dashes between them; possessive, so a run is read once.
_CARD_RUN = re.compile(r"(?:\d[ -]?){13,}+")
_WORD_CHAR = re.compile(r"\w")
_SSN = re.compile(r"\d(?<![\d-]\d)\d\d-\d\d-\d{4}(?![\d-])")  # no digit or dash right before
_SSN_TRIGGER = re.compile(r"ssn|social security")
_SSN_NAMED = re.compile(r"(?:ssn|social security (?:number|no\.?|#))\W{0,5}(\d{3})[ -]?(\d{2})[ -]?(\d{4})\b", re.I)
_IBAN = re.compile(r"[A-Za-z](?<![A-Za-z0-9][A-Za-z])[A-Za-z]\d{2}(?: ?[A-Za-z0-9]{1,4}){3,8}(?![A-Za-z0-9])")

def _find_card(text: str) -> Span | None:
    """A number in a card layout with an issuer prefix and a valid Luhn sum, not glued to a word or decimal.

    Within a run of digit groups every window in a printed layout is a candidate, so a neighbouring number
    ("... 1111 2026") cannot hide a card; distinct windows are collected with set() first, so a long run of
    repeats costs one check. Digits inside a valid IBAN are left to the IBAN detector.
    """
    ibans: list[Span] | None = None
    for run in _CARD_RUN.finditer(text):
        raw = run.group().rstrip(" -")
        start = run.start()
        groups = raw.replace("-", " ").split(" ")  # dashes become spaces: offsets stay the same
        glued_start = start > 0 and _AFTER_NUMBER.match(text, start - 1) is not None
        glued_end = start + len(raw) < len(text) and _WORD_CHAR.match(text, start + len(raw)) is not None
        for span in _card_windows(groups, start, glued_start, glued_end):
            if ibans is None:
                ibans = list(_iban_spans(text))  # read once, and only once a card-valid window turns up
            if not any(s < span[1] and span[0] < e for s, e in ibans):
                return span
    return None


# Printed layouts: groups of four with a short last group (13-19 digits), Amex/Diners 4-6-5 and 4-6-4.
_LAYOUT_AT = (re.compile(r"\d{4}[ -]\d{4}[ -]\d{4}[ -]\d{4}[ -]\d{1,3}(?!\d)"),
              re.compile(r"\d{4}[ -]\d{4}[ -]\d{4}[ -]\d{1,4}(?!\d)"),
              re.compile(r"\d{4}[ -]\d{6}[ -]\d{4,5}(?!\d)"))
_WINDOW_GROUPS = 5  # the longest layout spans five groups


def _card_windows(groups: list[str], at: int, glued_start: bool, glued_end: bool) -> Iterator[Span]:
    """Spans of the valid card numbers among the layout windows of one run of digit groups, in order.

    A window starts at a group of four digits and spans at most five groups. The five-group tuples
    are made and deduplicated in C (zip, dict.fromkeys), so a run of 200,000 repeated groups costs
    one Luhn check; only a valid window is then looked up in the run.
    """
    raw = " ".join(groups)
    if len(groups) == 1:
        if 13 <= len(raw) <= 19 and not glued_start and not glued_end and _card_issued(raw) and luhn_valid(raw):
            yield at, at + len(raw)
        return
    padded = groups + [""] * (_WINDOW_GROUPS - 1)  # "" marks the end of the run
    valid: list[tuple[str, bool, int]] = []  # (window text, ends the run, card length) of each card window
    for parts in dict.fromkeys(zip(*(padded[k:] for k in range(_WINDOW_GROUPS)))):
        if len(parts[0]) != 4:
            continue
        key = " ".join(p for p in parts if p)
        for layout in _LAYOUT_AT:
            window = layout.match(key)
            if window is not None and _card_issued(digits := window.group().replace(" ", "")) and luhn_valid(digits):
                valid.append((key, parts[-1] == "", window.end()))
    for p, end in heapq.merge(*(_window_spans(raw, key, at_end, length) for key, at_end, length in valid)):
        if not (p == 0 and glued_start) and not (end == len(raw) and glued_end):
            yield at + p, at + end


def _window_spans(raw: str, key: str, at_end: bool, length: int) -> Iterator[Span]:
    """Where the groups `key` occur in the run (whole groups; at its end if `at_end`): (start, start + length)."""
    p = raw.find(key)
    while p != -1:
        end = p + len(key)
        if (p == 0 or raw[p - 1] == " ") and (end == len(raw) or (not at_end and raw[end] == " ")):
            yield p, p + length
        p = raw.find(key, p + 1)


def _ssn_issued(area: str, group: str, serial: str) -> bool:
    """Area 000, 666 and 900-999, group 00 and serial 0000 are never issued."""
    return area not in ("000", "666") and not area.startswith("9") and group != "00" and serial != "0000"


def _find_ssn(text: str) -> Span | None:
    """A dashed SSN (078-05-1120), or nine digits right after the words SSN / social security number."""
    dashed = first_accepted(_SSN, text, lambda ssn: _ssn_issued(ssn[:3], ssn[4:6], ssn[7:]))
    if dashed is not None:
        return dashed.span()
    for match in _matches_folded(_SSN_TRIGGER, _SSN_NAMED, text, _AFTER_UNICODE_WORD):
        if _ssn_issued(*match.groups()):
            return match.span()
    return None


def _find_iban(text: str) -> Span | None:
    """A country code, two check digits and the account part, valid under mod-97 at the country's length."""
    match = first_accepted(_IBAN, text, lambda raw: _iban_length_in(raw) is not None)
    return None if match is None else (match.start(), match.start() + (_iban_length_in(match.group()) or 0))


def _iban_spans(text: str) -> Iterator[Span]:
    """Every valid IBAN, in order; a repeated candidate is checked once (its length within the match is cached)."""
    judged: dict[str, int | None] = {}
    for match in _IBAN.finditer(text):
        raw = match.group()
        if raw not in judged:
            judged[raw] = _iban_length_in(raw)
        cut = judged[raw]
        if cut is not None:
            yield match.start(), match.start() + cut


def _iban_length_in(raw: str) -> int | None:
    """How many characters of `raw` make a valid IBAN (cut where the country's length is reached), or None."""
    length = _IBAN_LENGTHS.get(raw[:2].upper())
    if length is None:
        return None
    compact_len = 0
    for k, ch in enumerate(raw):
        if ch != " ":
            compact_len += 1
        if compact_len == length:
            return k + 1 if iban_valid(raw[:k + 1]) else None
    return None


