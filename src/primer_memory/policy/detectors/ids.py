"""National identifiers beyond the US SSN, each checked the way its specification says.

Each candidate found by shape is judged by python-stdnum (`checksums.valid`): the Spanish DNI/NIE
letter, the codice fiscale's check letter and date, Aadhaar's Verhoeff digit, the CPF's two digits,
the SIN's Luhn digit and issued prefixes, the French NIR's key. Formats with no check (UK NI,
passports) or a weak one on a bare number (SIN, CPF, Aadhaar) also need their name nearby.
"""

from __future__ import annotations

import re

from ..checksums import valid
from .id_scan import has_shape
from ..scan import Span, first_accepted, positions
from ..wordlist import labels

# Each pattern checks what may not come before it right after its first character, `X(?<!N X)`: a
# lookbehind placed first would stop re skipping ahead to candidate characters, and one placed later
# would let every position of a long digit run get several characters in before failing.
_DNI = re.compile(r"[XYZ\d](?<![A-Za-z0-9].)\d{7}[ -]?[A-Z](?![A-Za-z0-9])")
_CF = re.compile(r"[A-Z](?<![A-Za-z0-9][A-Z])[A-Z]{5}\d{2}[ABCDEHLMPRST]\d{2}[A-Z]\d{3}[A-Z](?![A-Za-z0-9])")
# Grouped 4-4-4, and not three groups of a longer run: a 16-digit booking reference holds no Aadhaar.
_AADHAAR = re.compile(r"([2-9](?<![\d-][2-9])(?<!\d[ -][2-9])\d{3}([ -])\d{4}\2\d{4})(?![\d-])(?![ -]\d)")
_CPF = re.compile(r"\d(?<![\d.-]\d)\d\d\.\d{3}\.\d{3}-\d{2}(?!\d)")  # printed 000.000.000-00
# Bare numbers are read as whole digit runs (each run once, so a long run costs one pass), then measured.
_RUN = re.compile(r"\d{11,}")
_RUN_EDGE = re.compile(r"[\d.-]")


def _bare_runs(text: str, length: int) -> list[re.Match[str]]:
    """Runs of exactly `length` digits with no digit, dot or dash glued to either end."""
    return [m for m in _RUN.finditer(text) if len(m.group()) == length
            and not (m.start() > 0 and _RUN_EDGE.match(text, m.start() - 1))
            and not _RUN_EDGE.match(text, m.end())]
_SIN = re.compile(r"(\d(?<![\d-]\d)(?<!\d[ -]\d)\d\d([ -]?)\d{3}\2\d{3})(?![\d-])(?![ -]\d)")  # no more groups
_INSEE = re.compile(r"[12](?<![\dA-Za-z][12]) ?\d{2} ?(?:0[1-9]|1[0-2]|[2-9]\d) ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}"
                    r"(?!\d)")
_NINO = re.compile(r"[A-CEGHJ-PR-TW-Z](?<![A-Za-z0-9].)[A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![A-Za-z0-9])")
_NINO_BAD_PREFIX = frozenset({"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"})
_PASSPORT_WORDS = labels("passport")  # a passport's name in its languages (words.csv)
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
    """Spanish DNI (8 digits) or NIE (X/Y/Z + 7 digits) with its check letter (number mod 23), by stdnum."""
    match = first_accepted(_DNI, text, _dni_valid) if has_shape(text, *_DNI_SHAPES) else None
    return None if match is None else match.span()


def _dni_valid(candidate: str) -> bool:
    return valid("es_nie" if candidate[0] in "XYZ" else "es_dni", candidate)


def find_it_codice_fiscale(text: str) -> Span | None:
    """Italian codice fiscale: 16 characters whose last letter is the checksum of the first 15."""
    match = (first_accepted(_CF, text, lambda cf: valid("it_codice_fiscale", cf))
             if has_shape(text, b"AAAAAA00A00A000A") else None)
    return None if match is None else match.span()


def find_in_aadhaar(text: str) -> Span | None:
    """Aadhaar: 12 digits, not starting 0 or 1, Verhoeff-valid; grouped 4-4-4, or bare next to the word.

    Either way the 12 digits are the whole number: three groups of a longer run are not an Aadhaar."""
    match = (first_accepted(_AADHAAR, text, lambda g: valid("in_aadhaar", g))
             if has_shape(text, b"0000 0000 0000", b"0000-0000-0000") else None)
    if match is not None:
        return match.span()
    if not _named(text, "aadhaar"):  # the bare form counts only next to the word: look for it first
        return None
    bare = (m for m in _bare_runs(text, 12) if valid("in_aadhaar", m.group()))
    first = next(bare, None)
    return None if first is None else first.span()


def find_br_cpf(text: str) -> Span | None:
    """Brazilian CPF with both mod-11 check digits; the bare 11-digit form only next to the word CPF."""
    printed = has_shape(text, b"000.000.000-00")
    match = first_accepted(_CPF, text, _cpf_valid) if printed else None
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
    match = first_accepted(_SIN, text, lambda sin: valid("ca_sin", sin))
    return None if match is None else match.span()


def _cpf_valid(printed: str) -> bool:
    """A CPF python-stdnum takes, not one digit repeated (111.111.111-11 passes the check, but is a placeholder)."""
    return len(set(re.sub(r"\D", "", printed))) > 1 and valid("br_cpf", printed)


def find_fr_insee(text: str) -> Span | None:
    """French NIR (numéro de sécurité sociale): 13 characters and a key equal to 97 - (number mod 97), by stdnum."""
    match = first_accepted(_INSEE, text, _insee_valid)
    return None if match is None else match.span()


def _insee_valid(nir: str) -> bool:
    return valid("fr_nir", nir)


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
