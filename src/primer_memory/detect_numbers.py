"""Detectors for numbers with a structure: payment cards (Luhn), IBANs (mod-97), US SSNs."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .policy_scan import _AFTER_ALNUM, _AFTER_NUMBER, _AFTER_SSN, _AFTER_UNICODE_WORD, Span, _matches, _matches_folded


def luhn_valid(digits: str) -> bool:
    """The Luhn checksum every payment card number carries (one typo in ten slips through)."""
    if not digits.isdigit():
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


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



_CARD = re.compile(r"\d(?:[ -]?\d){11,22}(?!\w)")
_SSN = re.compile(r"(\d{3})-(\d{2})-(\d{4})(?![\d-])")
_SSN_TRIGGER = re.compile(r"ssn|social security")
_SSN_NAMED = re.compile(r"(?:ssn|social security (?:number|no\.?|#))\W{0,5}(\d{3})[ -]?(\d{2})[ -]?(\d{4})\b", re.I)
_IBAN = re.compile(r"[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]{1,4}){3,8}(?![A-Za-z0-9])")

def _find_card(text: str) -> Span | None:
    """Runs of 13-19 digits (grouped by spaces or dashes or not) with an issuer prefix and a valid Luhn sum.

    Digits inside a valid IBAN are the account number, not a card, so those runs are left to the IBAN detector.
    """
    ibans: list[Span] | None = None
    for match in _matches(_CARD, text, _AFTER_NUMBER):
        if ibans is None:
            ibans = list(_iban_spans(text))
        if any(s < match.end() and match.start() < e for s, e in ibans):
            continue
        raw = match.group()
        groups = re.split(r"[ -]", raw)
        # A run may swallow a neighbouring number ("... 1111 2026"), so try every window of whole groups.
        offsets, pos = [], match.start()
        for g in groups:
            offsets.append(pos)
            pos += len(g) + 1
        for i in range(len(groups)):
            for j in range(len(groups), i, -1):
                digits = "".join(groups[i:j])
                if 13 <= len(digits) <= 19 and _card_issued(digits) and luhn_valid(digits):
                    return offsets[i], offsets[j - 1] + len(groups[j - 1])
    return None


def _ssn_issued(match: re.Match[str]) -> bool:
    """Area 000, 666 and 900-999, group 00 and serial 0000 are never issued."""
    area, group, serial = match.groups()
    return area not in ("000", "666") and not area.startswith("9") and group != "00" and serial != "0000"


def _find_ssn(text: str) -> Span | None:
    """A dashed SSN (078-05-1120), or nine digits right after the words SSN / social security number."""
    for match in _matches(_SSN, text, _AFTER_SSN):
        if _ssn_issued(match):
            return match.span()
    for match in _matches_folded(_SSN_TRIGGER, _SSN_NAMED, text, _AFTER_UNICODE_WORD):
        if _ssn_issued(match):
            return match.span()
    return None


def _find_iban(text: str) -> Span | None:
    """A country code, two check digits and the account part, valid under mod-97 at the country's length."""
    return next(_iban_spans(text), None)


def _iban_spans(text: str) -> Iterator[Span]:
    for match in _matches(_IBAN, text, _AFTER_ALNUM):
        raw = match.group()
        country = raw[:2].upper()
        length = _IBAN_LENGTHS.get(country)
        if length is None:
            continue
        compact_len, end = 0, match.start()
        for k, ch in enumerate(raw):  # cut the match where it reaches the country's length
            if ch != " ":
                compact_len += 1
            if compact_len == length:
                end = match.start() + k + 1
                break
        else:
            continue
        if iban_valid(text[match.start():end]):
            yield match.start(), end


