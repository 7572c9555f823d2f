"""National identifiers beyond the US SSN, each checked the way its specification says.

Where a format has a check character it is verified (Spanish DNI/NIE mod 23, Italian codice
fiscale's odd/even tables, Aadhaar's Verhoeff digit, Brazilian CPF's two mod-11 digits, the
Canadian SIN's Luhn digit, the French NIR's key 97 - n mod 97). Formats with no check (UK NI,
passports) or a weak one on a bare number (SIN, CPF, Aadhaar) also need their name nearby.
"""

from __future__ import annotations

import re

from .corpus_values import DNI_LETTERS, codice_fiscale_letter, cpf_complete, luhn_digit, verhoeff_digit
from .policy_scan import Span, _matches, positions

_DNI = re.compile(r"(?P<num>[XYZ]\d{7}|\d{8})[ -]?(?P<letter>[A-Z])(?![A-Za-z0-9])")
_CF = re.compile(r"[A-Z]{6}\d{2}[ABCDEHLMPRST]\d{2}[A-Z]\d{3}[A-Z](?![A-Za-z0-9])")
_AADHAAR = re.compile(r"[2-9]\d{3}(?P<sep>[ -])\d{4}(?P=sep)\d{4}(?![\d-])")  # grouped 4-4-4
_CPF = re.compile(r"\d{3}\.\d{3}\.\d{3}-\d{2}(?!\d)")  # printed 000.000.000-00
# Bare numbers are read as whole digit runs (each run once, so a long run costs one pass), then measured.
_RUN = re.compile(r"\d{11,}")
_RUN_EDGE = re.compile(r"[\d.-]")


def _bare_runs(text: str, length: int) -> list[re.Match[str]]:
    """Runs of exactly `length` digits with no digit, dot or dash glued to either end."""
    return [m for m in _RUN.finditer(text) if len(m.group()) == length
            and not (m.start() > 0 and _RUN_EDGE.match(text, m.start() - 1))
            and not _RUN_EDGE.match(text, m.end())]
_SIN = re.compile(r"\d{3}(?P<sep>[ -]?)\d{3}(?P=sep)\d{3}(?![\d-])")
_INSEE = re.compile(r"[12] ?\d{2} ?(?:0[1-9]|1[0-2]|[2-9]\d) ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}(?![\d])")
_NINO = re.compile(r"(?P<prefix>[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]) ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![A-Za-z0-9])")
_NINO_BAD_PREFIX = frozenset({"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"})
_PASSPORT_WORDS = ("passport", "passeport", "pasaporte", "passaporto", "passaporte", "reisepass", "paszport",
                   "паспорт", "パスポート", "护照")
_PASSPORT_VALUE = re.compile(r"(?<![A-Za-z0-9])[A-Z0-9]{6,9}(?![A-Za-z0-9])")
_NAMES = {
    "aadhaar": ("aadhaar", "aadhar", "uidai", "आधार"),
    "cpf": ("cpf",),
    "sin": ("sin", "social insurance", "assurance sociale", "nas"),
}
_LETTER = re.compile(r"[^\W\d_]")
_ALNUM = re.compile(r"[A-Za-z0-9]")


def _named(text: str, kind: str) -> bool:
    """Whether the identifier's name appears as a word of its own ('SIN' yes, 'using' no)."""
    for pos in positions(text, _NAMES[kind]):
        word = next(w for w in _NAMES[kind] if text[pos:pos + len(w)].lower() == w)
        end = pos + len(word)
        if not (pos > 0 and _LETTER.match(text, pos - 1)) and not (end < len(text) and _LETTER.match(text, end)):
            return True
    return False


def find_es_dni(text: str) -> Span | None:
    """Spanish DNI (8 digits) or NIE (X/Y/Z + 7 digits) with the letter DNI_LETTERS[number mod 23]."""
    for match in _matches(_DNI, text, _ALNUM):
        num = match.group("num")
        value = int(str("XYZ".index(num[0])) + num[1:]) if num[0] in "XYZ" else int(num)
        if DNI_LETTERS[value % 23] == match.group("letter"):
            return match.span()
    return None


def find_it_codice_fiscale(text: str) -> Span | None:
    """Italian codice fiscale: 16 characters whose last letter is the checksum of the first 15."""
    for match in _matches(_CF, text, _ALNUM):
        if codice_fiscale_letter(match.group()[:15]) == match.group()[15]:
            return match.span()
    return None


def find_in_aadhaar(text: str) -> Span | None:
    """Aadhaar: 12 digits, not starting 0 or 1, Verhoeff-valid; grouped 4-4-4, or bare next to the word."""
    tried: set[str] = set()
    for match in _matches(_AADHAAR, text, re.compile(r"[\d-]")):
        grouped = match.group()
        if grouped in tried:
            continue  # a repeat: judged already
        tried.add(grouped)
        digits = grouped[:4] + grouped[5:9] + grouped[10:]
        if verhoeff_digit(digits[:11]) == digits[11]:
            return match.span()
    if not _named(text, "aadhaar"):  # the bare form counts only next to the word: look for it first
        return None
    bare = (m for m in _bare_runs(text, 12) if m.group()[0] in "23456789"
            and verhoeff_digit(m.group()[:11]) == m.group()[11])
    first = next(bare, None)
    return None if first is None else first.span()


def find_br_cpf(text: str) -> Span | None:
    """Brazilian CPF with both mod-11 check digits; the bare 11-digit form only next to the word CPF."""
    for match in _matches(_CPF, text, re.compile(r"[\d.-]")):
        digits = re.sub(r"\D", "", match.group())
        if len(set(digits)) > 1 and cpf_complete(digits[:9]) == digits:
            return match.span()
    if not _named(text, "cpf"):  # the bare form counts only next to the word: look for it first
        return None
    bare = (m for m in _bare_runs(text, 11) if len(set(m.group())) > 1 and cpf_complete(m.group()[:9]) == m.group())
    first = next(bare, None)
    return None if first is None else first.span()


def find_ca_sin(text: str) -> Span | None:
    """Canadian SIN: 9 digits, Luhn-valid, not starting 0 or 8, named (SIN, social insurance) in the text."""
    if not _named(text, "sin"):
        return None
    for match in _matches(_SIN, text, re.compile(r"[\d-]")):
        digits = re.sub(r"\D", "", match.group())
        if digits[0] not in "08" and luhn_digit(digits[:8]) == digits[8]:
            return match.span()
    return None


def find_fr_insee(text: str) -> Span | None:
    """French NIR (numéro de sécurité sociale): 13 characters and a key equal to 97 - (number mod 97)."""
    for match in _matches(_INSEE, text, re.compile(r"[\dA-Za-z]")):
        compact = match.group().replace(" ", "")
        body = compact[:13].replace("2A", "19").replace("2B", "18")
        if body.isdigit() and 97 - int(body) % 97 == int(compact[13:]):
            return match.span()
    return None


def find_uk_nino(text: str) -> Span | None:
    """UK National Insurance number: two allowed letters, six digits, A-D (no checksum in the format)."""
    for match in _matches(_NINO, text, _ALNUM):
        if match.group("prefix") not in _NINO_BAD_PREFIX:
            return match.span()
    return None


def find_passport(text: str) -> Span | None:
    """A passport number: 6-9 capitals and digits (at least two digits) right after the word passport."""
    for pos in positions(text, _PASSPORT_WORDS):
        for value in _PASSPORT_VALUE.finditer(text, pos + 5, min(len(text), pos + 45)):
            if sum(c.isdigit() for c in value.group()) >= 2:
                return value.span()
    return None
