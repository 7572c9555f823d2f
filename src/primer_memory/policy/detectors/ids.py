"""National identifiers beyond the US SSN, each checked the way its specification says.

Where a format has a check character it is verified (Spanish DNI/NIE mod 23, Italian codice
fiscale's odd/even tables, Aadhaar's Verhoeff digit, Brazilian CPF's two mod-11 digits, the
Canadian SIN's Luhn digit, the French NIR's key 97 - n mod 97). Formats with no check (UK NI,
passports) or a weak one on a bare number (SIN, CPF, Aadhaar) also need their name nearby.
"""

from __future__ import annotations

import re

from ..checksums import DNI_LETTERS, codice_fiscale_letter, cpf_complete, luhn_digit, verhoeff_digit
from .id_scan import has_shape
from ..scan import Span, first_accepted, positions

# Each pattern checks what may not come before it right after its first character, `X(?<!N X)`: a
# lookbehind placed first would stop re skipping ahead to candidate characters, and one placed later
# would let every position of a long digit run get several characters in before failing.
_DNI = re.compile(r"[XYZ\d](?<![A-Za-z0-9].)\d{7}[ -]?[A-Z](?![A-Za-z0-9])")
_CF = re.compile(r"[A-Z](?<![A-Za-z0-9][A-Z])[A-Z]{5}\d{2}[ABCDEHLMPRST]\d{2}[A-Z]\d{3}[A-Z](?![A-Za-z0-9])")
_AADHAAR = re.compile(r"([2-9](?<![\d-][2-9])\d{3}([ -])\d{4}\2\d{4})(?![\d-])")  # grouped 4-4-4
_CPF = re.compile(r"\d(?<![\d.-]\d)\d\d\.\d{3}\.\d{3}-\d{2}(?!\d)")  # printed 000.000.000-00
# Bare numbers are read as whole digit runs (each run once, so a long run costs one pass), then measured.
_RUN = re.compile(r"\d{11,}")
_RUN_EDGE = re.compile(r"[\d.-]")


def _bare_runs(text: str, length: int) -> list[re.Match[str]]:
    """Runs of exactly `length` digits with no digit, dot or dash glued to either end."""
    return [m for m in _RUN.finditer(text) if len(m.group()) == length
            and not (m.start() > 0 and _RUN_EDGE.match(text, m.start() - 1))
            and not _RUN_EDGE.match(text, m.end())]
_SIN = re.compile(r"(\d(?<![\d-]\d)\d\d([ -]?)\d{3}\2\d{3})(?![\d-])")
_INSEE = re.compile(r"[12](?<![\dA-Za-z][12]) ?\d{2} ?(?:0[1-9]|1[0-2]|[2-9]\d) ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}"
                    r"(?!\d)")
_NINO = re.compile(r"[A-CEGHJ-PR-TW-Z](?<![A-Za-z0-9].)[A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![A-Za-z0-9])")
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


def _named(text: str, kind: str) -> bool:
    """Whether the identifier's name appears as a word of its own ('SIN' yes, 'using' no)."""
    for pos in positions(text, _NAMES[kind]):
        word = next(w for w in _NAMES[kind] if text[pos:pos + len(w)].lower() == w)
        end = pos + len(word)
        if not (pos > 0 and _LETTER.match(text, pos - 1)) and not (end < len(text) and _LETTER.match(text, end)):
            return True
    return False


# Shape gates (id_scan.shape: digits as 0, capitals as A): one substring search in C each, before any regex.
# (a spaced or dashed check letter must end its token: 'BSN 111222333 BSN' is not a DNI)
_DNI_SHAPES = (b"0000000A", *(b"0000000" + sep + b"A" + end for sep in (b" ", b"-") for end in (b" ", b".", b",", b"/")))
_NINO_SHAPES = (b"000000", b"00 00 00", b"00 0000", b"0000 00")  # its six digits, however spaced


def find_es_dni(text: str) -> Span | None:
    """Spanish DNI (8 digits) or NIE (X/Y/Z + 7 digits) with the letter DNI_LETTERS[number mod 23]."""
    match = first_accepted(_DNI, text, _dni_valid) if has_shape(text, *_DNI_SHAPES) else None
    return None if match is None else match.span()


def _dni_valid(candidate: str) -> bool:
    num, letter = candidate[:8], candidate[-1]
    value = int(str("XYZ".index(num[0])) + num[1:]) if num[0] in "XYZ" else int(num)
    return DNI_LETTERS[value % 23] == letter


def find_it_codice_fiscale(text: str) -> Span | None:
    """Italian codice fiscale: 16 characters whose last letter is the checksum of the first 15."""
    match = (first_accepted(_CF, text, lambda cf: codice_fiscale_letter(cf[:15]) == cf[15])
             if has_shape(text, b"AAAAAA00A00A000A") else None)
    return None if match is None else match.span()


def find_in_aadhaar(text: str) -> Span | None:
    """Aadhaar: 12 digits, not starting 0 or 1, Verhoeff-valid; grouped 4-4-4, or bare next to the word."""
    match = (first_accepted(_AADHAAR, text, lambda g: verhoeff_digit(g[:4] + g[5:9] + g[10:13]) == g[13])
             if has_shape(text, b"0000 0000 0000", b"0000-0000-0000") else None)
    if match is not None:
        return match.span()
    if not _named(text, "aadhaar"):  # the bare form counts only next to the word: look for it first
        return None
    bare = (m for m in _bare_runs(text, 12) if m.group()[0] in "23456789"
            and verhoeff_digit(m.group()[:11]) == m.group()[11])
    first = next(bare, None)
    return None if first is None else first.span()


def find_br_cpf(text: str) -> Span | None:
    """Brazilian CPF with both mod-11 check digits; the bare 11-digit form only next to the word CPF."""
    printed = has_shape(text, b"000.000.000-00")
    match = first_accepted(_CPF, text, lambda p: _cpf_valid(re.sub(r"\D", "", p))) if printed else None
    if match is not None:
        return match.span()
    if not _named(text, "cpf"):  # the bare form counts only next to the word: look for it first
        return None
    bare = (m for m in _bare_runs(text, 11) if _cpf_valid(m.group()))
    first = next(bare, None)
    return None if first is None else first.span()


def find_ca_sin(text: str) -> Span | None:
    """Canadian SIN: 9 digits, Luhn-valid, not starting 0 or 8, named (SIN, social insurance) in the text."""
    if not has_shape(text, b"000000000", b"000 000 000", b"000-000-000") or not _named(text, "sin"):
        return None
    match = first_accepted(_SIN, text, lambda sin: _sin_valid(re.sub(r"\D", "", sin)))
    return None if match is None else match.span()


def _sin_valid(digits: str) -> bool:
    return digits[0] not in "08" and luhn_digit(digits[:8]) == digits[8]


def _cpf_valid(digits: str) -> bool:
    return len(set(digits)) > 1 and cpf_complete(digits[:9]) == digits


def find_fr_insee(text: str) -> Span | None:
    """French NIR (numéro de sécurité sociale): 13 characters and a key equal to 97 - (number mod 97)."""
    match = first_accepted(_INSEE, text, _insee_valid)
    return None if match is None else match.span()


def _insee_valid(nir: str) -> bool:
    compact = nir.replace(" ", "")
    body = compact[:13].replace("2A", "19").replace("2B", "18")
    return body.isdigit() and 97 - int(body) % 97 == int(compact[13:])


def find_uk_nino(text: str) -> Span | None:
    """UK National Insurance number: two allowed letters, six digits, A-D (no checksum in the format)."""
    match = (first_accepted(_NINO, text, lambda nino: nino[:2] not in _NINO_BAD_PREFIX)
             if has_shape(text, *_NINO_SHAPES) else None)
    return None if match is None else match.span()


def find_passport(text: str) -> Span | None:
    """A passport number: 6-9 capitals and digits (at least two digits) right after the word passport."""
    for pos in positions(text, _PASSPORT_WORDS):
        for value in _PASSPORT_VALUE.finditer(text, pos + 5, min(len(text), pos + 45)):
            if sum(c.isdigit() for c in value.group()) >= 2:
                return value.span()
    return None
