"""Detectors for numbers with a structure: payment cards (Luhn), IBANs (mod-97), US SSNs; stdnum judges each."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .id_scan import has_shape
from ..checksums import valid
from .card_windows import card_windows
from ..scan import _AFTER_NUMBER, _AFTER_UNICODE_WORD, Span, _matches_folded, first_accepted


def iban_valid(iban: str) -> bool:
    """ISO 13616: the country's length (below), then stdnum's mod 97-10 and its registry's country."""
    compact = iban.replace(" ", "").replace("\n", "")
    return _IBAN_LENGTHS.get(compact[:2].upper()) == len(compact) and valid("iban", compact)


# Lengths from the SWIFT IBAN registry: where a candidate is cut before stdnum.iban judges it.
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

# Maximal runs of 13+ digits, single spaces or dashes between them; possessive, so a run is read once.
# It starts with a bare \d so that re skips ahead to digits instead of trying the group at every position.
# A run starts only where no digit (or digit and separator) comes before: a match could only ever start
# there, and trying every digit of a short group first made 1 MB of 'BSN 111222333 ' cost 127 ms.
# Digit groups a card may be written in: spaces, dashes, dots ("4111.1111.1111.1111") or a line break where a
# narrow column wrapped it (issue 48); each becomes a space in _joined, so offsets match the text.
_CARD_RUN = re.compile(r"\d(?<!\d\d)(?<!\d[ .\n-]\d)[ .\n-]?(?:\d[ .\n-]?){12,}+")
_WORD_CHAR = re.compile(r"\w")
_SSN = re.compile(r"\d(?<![\d-]\d)\d\d-\d\d-\d{4}(?![\d-])")  # no digit or dash right before
_SSN_TRIGGER = ("ssn", "social security")
# Between the label and the number: punctuation, or a short connector ("SSN: ", "social security number is ").
_SSN_NAMED = re.compile(r"(?:ssn|social security (?:number|no\.?|#))(?:\W{0,5}|\W{1,3}(?:is|was|es|est|ist)\W{1,3})"
                        r"(\d{3})[ -]?(\d{2})[ -]?(\d{4})\b", re.I)
# Chunks are possessive: a long run of letters and digits is cut one way only, not in every way (that was
# exponential backtracking on random base64). Real IBANs have 11+ characters after the check digits. A line break
# may stand where a space would: a PDF or a narrow column wraps the number (round 8).
_IBAN = re.compile(r"[A-Za-z](?<![A-Za-z0-9][A-Za-z])[A-Za-z]\d{2}(?:[ \n]?[A-Za-z0-9]{1,4}+){3,8}(?![A-Za-z0-9])")

def _find_card(text: str) -> Span | None:
    """A number in a card layout with an issuer prefix and a valid Luhn sum, not glued to a word or decimal.

    Within a run of digit groups every window in a printed layout is a candidate, so a neighbouring number
    ("... 1111 2026") cannot hide a card. Distinct runs are first judged once each as if nothing were
    glued to them (most text stops there); digits inside a valid IBAN are left to the IBAN detector.
    """
    runs = dict.fromkeys(_CARD_RUN.findall(text))
    if not any(card_windows(_joined(run)) or _wrapped_card(run) for run in runs):
        return None
    ibans: list[Span] | None = None
    for run in _CARD_RUN.finditer(text):
        joined = _joined(run.group())
        start, end = run.start(), run.start() + len(joined)
        glued_start = start > 0 and _AFTER_NUMBER.match(text, start - 1) is not None
        glued_end = end < len(text) and _WORD_CHAR.match(text, end) is not None
        wrapped = [(0, len(joined))] if _wrapped_card(run.group()) and not glued_start and not glued_end else []
        for s, e in [*card_windows(joined, glued_start, glued_end), *wrapped]:
            if ibans is None:
                ibans = list(_iban_spans(text))  # read once, and only once a card-valid window turns up
            if not any(i < start + e and start + s < j for i, j in ibans):
                return start + s, start + e
    return None


def _wrapped_card(run: str) -> bool:
    """A card number a line break cut anywhere ("411111111111\n1111"): read whole, without the break."""
    if "\n" not in run:
        return False
    digits = run.rstrip(" .\n-").replace("\n", "")
    return digits.isdigit() and 13 <= len(digits) <= 19 and card_windows(digits) != []


_SEPARATOR = re.compile(r"[.\n-]")


def _joined(run: str) -> str:
    """A run's digit groups with single spaces between (dashes, dots and line breaks become spaces: offsets match
    the text; a sentence's closing dot is not part of the run)."""
    return _SEPARATOR.sub(" ", run.rstrip(" .\n-"))


def _ssn_issued(area: str, group: str, serial: str) -> bool:
    """What stdnum.us.ssn says of area-group-serial (never-issued areas, groups and serials; published numbers stay)."""
    return valid("us_ssn", f"{area}-{group}-{serial}")


def _find_ssn(text: str) -> Span | None:
    """A dashed SSN (078-05-1120), or nine digits right after the words SSN / social security number."""
    dashed = (first_accepted(_SSN, text, lambda ssn: _ssn_issued(ssn[:3], ssn[4:6], ssn[7:]))
              if has_shape(text, b"000-00-0000") else None)
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
        if ch not in " \n":
            compact_len += 1
        if compact_len == length:
            return k + 1 if iban_valid(raw[:k + 1]) else None
    return None


