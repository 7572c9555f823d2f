"""Identity documents and keys read off paper: machine-readable zones, document numbers, recovery keys.

A photo of a passport or ID card, run through OCR, gives its machine-readable zone (MRZ): lines of
capitals, digits and '<' whose fields carry ICAO 9303 check digits (weights 7, 3, 1). A line whose
document number, birth date and expiry all check out is a document, whatever words surround it.
The same check digit follows a document number printed on its own ("IDENTITY CARD M7MKM3N4Y3"),
so a number after a document word counts when its last character checks the rest. A BitLocker
recovery key has a check of its own: eight groups of six digits, each a multiple of 11 below 720,896.
"""

from __future__ import annotations

import re

from ..checksums import icao_digit, valid
from .id_scan import END, Names, first_valid
from ..scan import Span, first_in_windows, has_upper, positions
from ..wordlist import labels

def _checks(field: str, digit: str) -> bool:
    return digit.isdigit() and icao_digit(field) == digit


# TD3 (passport) second line, 44 characters: number, check, nationality, birth, check, sex, expiry, check, ...
_TD3 = re.compile(r"(?<![A-Z0-9<])(?P<number>[A-Z0-9<]{9})(?P<c1>\d)[A-Z<]{3}(?P<birth>\d{6})(?P<c2>\d)[MFX<]"
                  r"(?P<expiry>\d{6})(?P<c3>\d)[A-Z0-9<]{14}[0-9<]\d(?![A-Z0-9<])")
# TD1 (ID card) first line (type, state, number, check, optional) and second line (birth, check, sex, expiry, check).
_TD1_FIRST = re.compile(r"(?<![A-Z0-9<])[A-Z][A-Z<][A-Z<]{3}(?P<number>[A-Z0-9<]{9})(?P<c1>\d)[A-Z0-9<]{15}"
                        r"(?![A-Z0-9<])")
_TD_DATES = re.compile(r"(?<![A-Z0-9<])(?P<birth>\d{6})(?P<c2>\d)[MFX<](?P<expiry>\d{6})(?P<c3>\d)[A-Z<]{3}"
                       r"[A-Z0-9<]{11}\d(?![A-Z0-9<])")


def find_mrz(text: str) -> Span | None:
    """A machine-readable zone line whose check digits hold: a passport's or ID card's data, read by OCR."""
    if "<<" not in text:
        return None
    for match in _TD3.finditer(text):
        if (_checks(match["number"], match["c1"]) and _checks(match["birth"], match["c2"])
                and _checks(match["expiry"], match["c3"])):
            return match.span()
    for match in _TD1_FIRST.finditer(text):
        if _checks(match["number"], match["c1"]) and sum(c.isdigit() for c in match["number"]) >= 2:
            return match.span()
    for match in _TD_DATES.finditer(text):
        if _checks(match["birth"], match["c2"]) and _checks(match["expiry"], match["c3"]):
            return match.span()
    return None


# A document number with its check digit, after the document's name: 9 characters and the digit (German ID cards
# use letters C F G H J K L M N P R T V W X Y Z and digits; passports of many countries, any capitals).
_DOCUMENT_WORDS = labels("identity_document")  # an ID card's or a passport's name (words.csv)
_DOCUMENT_NUMBER = re.compile(r"(?<![A-Za-z0-9])(?P<value>(?=[A-Z0-9]{10}(?![A-Za-z0-9]))(?=[A-Z0-9]*\d[A-Z0-9]*\d)"
                              r"[A-Z0-9]{9}\d)")
_DOCUMENT_REACH = 60


def _judge_document(window: str) -> Span | None:
    for match in _DOCUMENT_NUMBER.finditer(window):
        value = match["value"]
        if _checks(value[:9], value[9]) and not value.isdigit():
            return match.span("value")
    return None


def find_document_number(text: str) -> Span | None:
    """A document number whose ICAO check digit holds, after the document's name: 'IDENTITY CARD M7MKM3N4Y3'."""
    if not has_upper(text):
        return None
    return first_in_windows(text, positions(text, _DOCUMENT_WORDS), 0, _DOCUMENT_REACH, _judge_document)


_BITLOCKER = re.compile(r"(?<![\d-])\d{6}(?:-\d{6}){7}(?![\d-])")


def find_bitlocker_key(text: str) -> Span | None:
    """A BitLocker recovery key by its own check, with or without its name: each group a multiple of 11."""
    if "-" not in text:
        return None
    for match in _BITLOCKER.finditer(text):
        groups = match.group().split("-")  # each below 720,896 too (a 128-bit key in eight 16-bit blocks, times 11)
        if valid("bitlocker_key", match.group()) and all(int(g) < 720_896 for g in groups) and len(set(groups)) > 2:
            return match.span()
    return None


# Round 8 (the seventh corpus's tune half held a Californian one).
def find_driving_licence(text: str) -> Span | None:
    """A driving licence number next to its name: 6-16 capitals and digits, five of them digits at least (US and
    Canadian states' forms, the UK's 16 characters, Germany's 11). Few have a public check, so the name is needed.

    Issue 22: a number printed in dashed groups counts whole when it starts with a letter, as the states that print
    one do (Florida S123-456-78-901-0, Illinois D123-4567-8901), and so does the UK's MORGA 657054 SM9IJ; all-digit
    groups could be a phone number or a date, so those stay unread."""
    return first_valid(_LICENCE_GROUPED, text, _grouped_licence_ok, _LICENCE_NAMES, _GROUP_SHAPES) or first_valid(
        _LICENCE, text, _licence_ok, _LICENCE_NAMES)


_LICENCE = re.compile(rb" ((?=[A-Z0-9]{6,16}(?![A-Z0-9]))(?:[A-Z]*[0-9]){5}[A-Z0-9]*)" + END)
# Dashed groups after a leading letter, or the UK's three spaced groups (surname, birth date, initials and checks).
_LICENCE_GROUPED = re.compile(rb" ([A-Z][A-Z0-9]{0,7}(?:-[A-Z0-9]{1,8}){1,4}|[A-Z9]{5} [0-9]{6} [A-Z0-9]{5})" + END)
_GROUP_SHAPES = (b"0-0", b"A-0", b"0-A", b" 000000 ")  # where groups of a licence meet
_LICENCE_NAMES = Names(*labels("driving_licence"))  # a driving licence's name in its languages (words.csv)


def _licence_ok(value: str) -> bool:
    digits = sum(c.isdigit() for c in value)
    return len(value) >= 6 and digits >= 5 and len(set(value)) > 2


def _grouped_licence_ok(value: str) -> bool:
    """Letter-led groups whose characters, joined, would make a licence number read bare."""
    joined = value.replace(" ", "").replace("-", "")
    return 7 <= len(joined) <= 18 and _licence_ok(joined) and sum(c.isalpha() for c in joined) <= 10


# ----------------------------------------------------------------------------- a passport number after its name

_PASSPORT_WORDS = labels("passport")  # a passport's name in its languages (words.csv)
_PASSPORT_VALUE = re.compile(r"(?<![A-Za-z0-9])[A-Z0-9]{6,9}(?![A-Za-z0-9])")


def find_passport(text: str) -> Span | None:
    """A passport number: 6-9 capitals and digits (at least two digits) right after the word passport."""
    for pos in positions(text, _PASSPORT_WORDS):
        for value in _PASSPORT_VALUE.finditer(text, pos + 5, min(len(text), pos + 45)):
            if sum(c.isdigit() for c in value.group()) >= 2:
                return value.span()
    return None
