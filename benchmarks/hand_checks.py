"""The hand-written check digits main used before python-stdnum (issue 22), kept only as the benchmark's baseline.

bench_policy.py times review() with these in place of stdnum for the same candidates, in the same process,
so the cost of asking stdnum shows as a ratio. Nothing in the package imports this file.
"""

from __future__ import annotations

from collections import Counter

_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"
_LUHN_DOUBLE = str.maketrans("0123456789", "0246813579")
_VERHOEFF_D = [[(i + j) % 5 if i < 5 and j < 5 else 5 + (i + j - 5) % 5 if i < 5 else 5 + (i - 5 - j) % 5 if j < 5
                else (i - j) % 5 for j in range(10)] for i in range(10)]
_VERHOEFF_P = [list(range(10)), [1, 5, 7, 6, 2, 8, 3, 0, 9, 4]]
for _k in range(2, 8):
    _VERHOEFF_P.append([_VERHOEFF_P[1][_VERHOEFF_P[_k - 1][x]] for x in range(10)])


def _digits(value: str) -> str:
    return "".join(c for c in value if c.isalnum()).upper()


def luhn(value: str) -> bool:
    d = _digits(value)
    return d.isdigit() and (sum(map(int, d[-1::-2])) + sum(map(int, d[-2::-2].translate(_LUHN_DOUBLE)))) % 10 == 0


def aadhaar(value: str) -> bool:
    d, c = _digits(value), 0
    if len(d) != 12 or d[0] in "01":
        return False
    for i, ch in enumerate(reversed(d)):
        c = _VERHOEFF_D[c][_VERHOEFF_P[i % 8][int(ch)]]
    return c == 0


def iban(value: str) -> bool:
    d = _digits(value)
    return int("".join(str(int(ch, 36)) for ch in d[4:] + d[:4])) % 97 == 1


def es_dni(value: str) -> bool:
    d = _digits(value)
    return d[:8].isdigit() and _DNI_LETTERS[int(d[:8]) % 23] == d[8]


def es_nie(value: str) -> bool:
    d = _digits(value)
    return _DNI_LETTERS[int(str("XYZ".index(d[0])) + d[1:8]) % 23] == d[8]


def br_cpf(value: str) -> bool:
    d = [int(c) for c in _digits(value)]
    for top in (10, 11):
        total = sum(x * w for x, w in zip(d, range(top, 1, -1)))
        if (0 if total % 11 < 2 else 11 - total % 11) != d[top - 1]:
            return False
    return True


def ca_sin(value: str) -> bool:
    d = _digits(value)
    return d[0] not in "08" and luhn(d)


def fr_nir(value: str) -> bool:
    d = _digits(value)
    body = d[:13].replace("2A", "19").replace("2B", "18")
    return body.isdigit() and 97 - int(body) % 97 == int(d[13:])


def nl_bsn(value: str) -> bool:
    d = _digits(value)
    return int(d) > 0 and sum(int(c) * w for c, w in zip(d, (9, 8, 7, 6, 5, 4, 3, 2, -1))) % 11 == 0


def gb_nhs(value: str) -> bool:
    d = _digits(value)
    return len(d) == 10 and sum(int(c) * w for c, w in zip(d, range(10, 0, -1))) % 11 == 0


def de_idnr(value: str) -> bool:
    d = _digits(value)
    repeated = [n for n in Counter(d[:10]).values() if n > 1]
    if len(repeated) != 1 or repeated[0] > 3:
        return False
    product = 10
    for ch in d[:10]:
        product = ((int(ch) + product) % 10 or 10) * 2 % 11
    return (11 - product) % 10 == int(d[10])


HAND_CHECKS = {"luhn": luhn, "in_aadhaar": aadhaar, "iban": iban, "es_dni": es_dni, "es_nie": es_nie,
               "br_cpf": br_cpf, "ca_sin": ca_sin, "fr_nir": fr_nir, "nl_bsn": nl_bsn, "gb_nhs": gb_nhs,
               "de_idnr": de_idnr}
