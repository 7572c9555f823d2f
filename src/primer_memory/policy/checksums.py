"""Check digits from the formats' specifications: Luhn, mod 97, mod 11, Verhoeff, the codice fiscale's tables.

Shared by the id detectors and the tests' fake-value generators, so a value the
tests make valid is valid for the detector that checks it.
"""

from __future__ import annotations

import functools
import string

DIGITS = string.digits
UPPER = string.ascii_uppercase


def luhn_digit(body: str) -> str:
    """The Luhn check digit for `body` (cards, Canadian SIN)."""
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return str(-total % 10)


@functools.lru_cache(maxsize=1)
def _verhoeff_tables() -> tuple[list[list[int]], list[list[int]], list[int]]:
    """The dihedral-group tables of the Verhoeff scheme (Aadhaar's check digit)."""
    d = [[0] * 10 for _ in range(10)]
    for i in range(10):
        for j in range(10):
            if i < 5 and j < 5:
                d[i][j] = (i + j) % 5
            elif i < 5:
                d[i][j] = 5 + (i + j - 5) % 5
            elif j < 5:
                d[i][j] = 5 + (i - 5 - j) % 5
            else:
                d[i][j] = (i - j) % 5
    p = [list(range(10)), [1, 5, 7, 6, 2, 8, 3, 0, 9, 4]]
    for k in range(2, 8):
        p.append([p[1][p[k - 1][x]] for x in range(10)])
    inv = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]
    return d, p, inv


def verhoeff_digit(body: str) -> str:
    d, p, inv = _verhoeff_tables()
    c = 0
    for i, ch in enumerate(reversed(body)):
        c = d[c][p[(i + 1) % 8][int(ch)]]
    return str(inv[c])


def iban_complete(country: str, bban: str) -> str:
    number = int("".join(str(int(ch, 36)) for ch in bban + country + "00"))
    return f"{country}{98 - number % 97:02d}{bban}"


def cpf_complete(nine: str) -> str:
    """Brazilian CPF: two mod-11 check digits with weights 10..2 then 11..2."""
    digits = [int(c) for c in nine]
    for weight_top in (10, 11):
        total = sum(d * w for d, w in zip(digits, range(weight_top, 1, -1)))
        digits.append(0 if total % 11 < 2 else 11 - total % 11)
    return "".join(map(str, digits))


DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"

_CF_ODD = {**dict(zip(DIGITS, [1, 0, 5, 7, 9, 13, 15, 17, 19, 21])),
           **dict(zip(UPPER, [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10,
                              22, 25, 24, 23]))}
_CF_EVEN = {**{c: int(c) for c in DIGITS}, **{c: i for i, c in enumerate(UPPER)}}


def codice_fiscale_letter(first15: str) -> str:
    total = sum((_CF_ODD if i % 2 == 0 else _CF_EVEN)[c] for i, c in enumerate(first15))
    return UPPER[total % 26]
