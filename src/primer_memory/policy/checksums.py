"""Whether an identifier is valid: a thin layer over python-stdnum, imported on first validation.

Detectors find candidates by shape and context; `valid(kind, value)` asks python-stdnum's module for
that kind (its check digits and its finer rules: a Steuer-ID's repeated digit, SINs never issued with
0). Importing stdnum costs about 80 ms, so nothing here imports it until a candidate needs judging.
A birth date after LATEST_BIRTH_DATE is refused on top, so a verdict never changes from day to day.
Three kinds skip a registry table stdnum consults (_LOOSER: an IBAN's national BBAN check, a Chinese
county, an Indonesian regency): tables lag, and a leak costs a write policy more than a refusal.

Own checks remain only for formats python-stdnum 2.2 lacks (OWN_CHECKS says why for each): the
Singapore NRIC/FIN letter, the Russian SNILS, the Hungarian TAJ and tax number, the Australian
Medicare card, the Mexican CLABE, the ICAO 9303 check digit of passports' machine-readable zones,
BitLocker recovery keys, Swedish coordination numbers (stdnum reads the day + 60 as no date), and the UK National
Insurance number's prefix rules (it has no check digit).
Wallet private keys (WIF, xprv, nsec) keep their base58check and bech32 checksums in detectors/hashes.py:
stdnum.bitcoin reads addresses, not keys.
"""

from __future__ import annotations

import datetime
import functools
import importlib
import itertools
import re
from collections.abc import Callable
from types import ModuleType

# Birth dates after this are refused. A fixed day rather than today, so a verdict never changes from one day to
# the next (the notebooks' outputs must be the same on every run); move it forward when it comes near.
LATEST_BIRTH_DATE = datetime.date(2030, 12, 31)


class UnknownKindError(KeyError):
    """A kind of identifier that neither python-stdnum's table here nor an own check knows."""


# kind -> python-stdnum module (under `stdnum.`) and the keyword arguments its is_valid takes.
STDNUM: dict[str, tuple[str, dict[str, bool]]] = {
    "luhn": ("luhn", {}),
    "verhoeff": ("verhoeff", {}),
    "iban": ("iban", {}),
    "us_ssn": ("us.ssn", {}),
    "us_rtn": ("us.rtn", {}),
    "es_dni": ("es.dni", {}),
    "es_nie": ("es.nie", {}),
    "it_codice_fiscale": ("it.codicefiscale", {}),
    "in_aadhaar": ("in_.aadhaar", {}),
    "in_pan": ("in_.pan", {}),
    "br_cpf": ("br.cpf", {}),
    "ca_sin": ("ca.sin", {}),
    "fr_nir": ("fr.nir", {}),
    "gb_nhs": ("gb.nhs", {}),
    "nl_bsn": ("nl.bsn", {}),
    "be_nn": ("be.nn", {}),
    "be_bis": ("be.bis", {}),
    "de_idnr": ("de.idnr", {}),
    "se_personnummer": ("se.personnummer", {}),
    "no_fodselsnummer": ("no.fodselsnummer", {}),
    "dk_cpr": ("dk.cpr", {}),
    "fi_hetu": ("fi.hetu", {"allow_temporary": True}),
    "pl_pesel": ("pl.pesel", {}),
    "pt_nif": ("pt.nif", {}),
    "ch_ssn": ("ch.ssn", {}),
    "ie_pps": ("ie.pps", {}),
    "ro_cnp": ("ro.cnp", {}),
    "gr_amka": ("gr.amka", {}),
    "ru_inn": ("ru.inn", {}),
    "ua_rntrc": ("ua.rntrc", {}),
    "cz_rc": ("cz.rc", {}),
    "cn_ric": ("cn.ric", {}),
    "kr_rrn": ("kr.rrn", {}),
    "jp_in": ("jp.in_", {}),
    "mx_curp": ("mx.curp", {}),
    "ar_cuit": ("ar.cuit", {}),
    "za_idnr": ("za.idnr", {}),
    "au_tfn": ("au.tfn", {}),
    "tr_tckimlik": ("tr.tckimlik", {}),
    "il_idnr": ("il.idnr", {}),
    "cl_rut": ("cl.rut", {}),
    "th_pin": ("th.pin", {}),
    "id_nik": ("id.nik", {}),
    "ca_bc_phn": ("ca.bc_phn", {}),
}


def _cn_ric(module: ModuleType, value: str) -> bool:
    """stdnum.cn.ric's check digit, date and province, without its county-by-year table (see _LOOSER)."""
    from stdnum import numdb

    number = module.compact(value)
    if len(number) != 18 or not number[:-1].isdigit() or module.calc_check_digit(number) != number[-1]:
        return False
    try:
        module.get_birth_date(number)
    except ValueError:  # stdnum's InvalidComponent is a ValueError
        return False
    return bool(numdb.get("cn/loc").info(number[:6])[0][1])


def _iban(module: ModuleType, value: str) -> bool:
    """stdnum.iban's ISO 7064 mod 97-10 and its registry's country, without the BBAN's layout or national check."""
    from stdnum import numdb
    from stdnum.iso7064 import mod_97_10

    number = module.compact(value)
    return (len(number) > 4 and number.isalnum() and number.isascii() and number[2:4].isdigit()
            and bool(numdb.get("iban").info(number)[0][1]) and mod_97_10.is_valid(number[4:] + number[:4]))


def _nik(module: ModuleType, value: str) -> bool:
    """stdnum.id.nik's birth date and province, without its regency table (see _LOOSER)."""
    from stdnum import numdb

    number = module.compact(value)
    if len(number) != 16 or not number.isdigit():
        return False
    try:
        module.get_birth_date(number)
    except ValueError:
        return False
    return bool(numdb.get("id/loc").info(number[:4])[0][1])


# What a write policy does not ask: a number whose check digit, date and country hold is refused even when a
# finer table does not list it (tables lag, people mistype a letter, and a leak costs more than a refusal).
# An IBAN is judged without its BBAN layout and national check (an Italian CIN written as a digit, a Spanish
# account's own check), a Chinese id without the county-by-year table, an Indonesian NIK without the regency.
_LOOSER: dict[str, Callable[[ModuleType, str], bool]] = {"cn_ric": _cn_ric, "iban": _iban, "id_nik": _nik}

# SSNs stdnum refuses only because they were published (the Woolworth wallet card and two advertisements);
# thousands used them as their own, so a memory holding one is refused all the same.
PUBLISHED_SSNS = frozenset({"078051120", "457555462", "219099999"})


@functools.cache
def _module(kind: str) -> ModuleType:
    """The python-stdnum module judging `kind`, imported the first time a candidate of that kind turns up."""
    try:
        name = STDNUM[kind][0]
    except KeyError:
        raise UnknownKindError(f"no python-stdnum module is listed for {kind!r}; add it to STDNUM") from None
    return importlib.import_module("stdnum." + name)


@functools.lru_cache(maxsize=4096)
def valid(kind: str, value: str) -> bool:
    """Whether python-stdnum takes `value` (separators allowed) as a valid `kind`, born by LATEST_BIRTH_DATE.

    Remembered for the last 4096 candidates: review(), findings() and redact() on one text judge the same ones.
    """
    if kind in OWN_VALIDATORS:
        return OWN_VALIDATORS[kind](value)
    module = _module(kind)
    judge = _LOOSER.get(kind)
    if not (judge(module, value) if judge else module.is_valid(value, **STDNUM[kind][1])):
        return kind == "us_ssn" and compact(kind, value) in PUBLISHED_SSNS
    born = getattr(module, "get_birth_date", None)
    if born is None:
        return True
    try:
        date = born(value)
    except ValueError:  # stdnum's errors are ValueErrors: a part it leaves unknown (a Belgian month 00)
        return True
    return date is None or date <= LATEST_BIRTH_DATE


def compact(kind: str, value: str) -> str:
    """The identifier as python-stdnum's compact() sees it (separators dropped); own kinds keep letters and digits."""
    if kind in OWN_VALIDATORS:
        return "".join(c for c in value if c.isalnum()).upper()
    return str(_module(kind).compact(value))


def luhn_valid(digits: str) -> bool:
    """The Luhn check (ISO/IEC 7812) every payment card carries, judged by stdnum.luhn; digits only."""
    return digits.isascii() and digits.isdigit() and valid("luhn", digits)


def complete(kind: str, body: str, alphabet: str = "0123456789", width: int = 1) -> str | None:
    """`body` and the first `width` characters that make it a valid `kind`, or None: how tests make valid values.

    Valid by construction through the judge itself, so a made value is valid for every detector that asks it.
    """
    return next((body + "".join(t) for t in itertools.product(alphabet, repeat=width)
                 if valid(kind, body + "".join(t))), None)


# --------------------------------------------------------------------------- own checks: formats stdnum lacks


def _weighted(digits: str, weights: tuple[int, ...]) -> int:
    return sum(int(d) * w for d, w in zip(digits, weights))


_NRIC_LETTERS = {"S": "JZIHGFEDCBA", "T": "JZIHGFEDCBA", "F": "XWUTRQPNMLK", "G": "XWUTRQPNMLK",
                 "M": "XWUTRQPNJLK"}
_NRIC_OFFSET = {"S": 0, "T": 4, "F": 0, "G": 4, "M": 3}


def sg_nric_valid(value: str) -> bool:
    """Singapore NRIC/FIN: S, T, F, G or M, seven digits, and the check letter of weights 2,7,6,5,4,3,2 mod 11."""
    v = value.upper()
    if len(v) != 9 or v[0] not in _NRIC_LETTERS or not v[1:8].isdigit():
        return False
    total = _weighted(v[1:8], (2, 7, 6, 5, 4, 3, 2)) + _NRIC_OFFSET[v[0]]
    return _NRIC_LETTERS[v[0]][total % 11] == v[8]


def ru_snils_valid(value: str) -> bool:
    """Russian SNILS: nine digits and two check digits, the weights 9..1 summed mod 101 (numbers above 001-001-998)."""
    digits = "".join(c for c in value if c.isdigit())
    if len(digits) != 11:
        return False
    total = _weighted(digits, (9, 8, 7, 6, 5, 4, 3, 2, 1))
    check = total if total < 100 else 0 if total in (100, 101) else total % 101 % 100
    return int(digits[:9]) > 1001998 and check == int(digits[9:])


def hu_taj_valid(value: str) -> bool:
    """Hungarian TAJ (social insurance): nine digits, the last the sum of weights 3,7 alternating mod 10."""
    digits = "".join(c for c in value if c.isdigit())
    return len(digits) == 9 and _weighted(digits, (3, 7) * 4) % 10 == int(digits[8])


def hu_tax_valid(value: str) -> bool:
    """Hungarian tax identification number (adóazonosító jel): 8, nine digits, the last (i+1)-weighted mod 11."""
    return (len(value) == 10 and value.isdigit() and value[0] == "8"
            and _weighted(value, tuple(range(1, 10))) % 11 == int(value[9]))


def au_medicare_valid(value: str) -> bool:
    """Australian Medicare card: first digit 2-6, the ninth the 1,3,7,9-weighted sum of the first eight mod 10."""
    digits = "".join(c for c in value if c.isdigit())
    return (10 <= len(digits) <= 11 and digits[0] in "23456"
            and _weighted(digits, (1, 3, 7, 9) * 2) % 10 == int(digits[8]))


def mx_clabe_valid(value: str) -> bool:
    """Banxico's CLABE: 18 digits, products of weights 3,7,1 mod 10 summed, and 10 minus that mod 10 last."""
    digits = [int(c) for c in value if c.isdigit()]
    if len(digits) != 18:
        return False
    return (10 - sum(d * w % 10 for d, w in zip(digits[:17], (3, 7, 1) * 6)) % 10) % 10 == digits[17]


_ICAO = {**{str(d): d for d in range(10)}, **{chr(ord("A") + i): 10 + i for i in range(26)}, "<": 0}


def icao_digit(field: str) -> str:
    """The ICAO 9303 check digit of `field` (digits, capitals and '<'), weights 7, 3, 1 repeating."""
    return str(sum(_ICAO[c] * (7, 3, 1)[i % 3] for i, c in enumerate(field)) % 10)


def bitlocker_key_valid(value: str) -> bool:
    """A BitLocker recovery key: eight groups of six digits, each a multiple of 11 (Microsoft's rule)."""
    groups = value.split("-")
    return len(groups) == 8 and all(len(g) == 6 and g.isdigit() and int(g) % 11 == 0 for g in groups)


def se_coordination_valid(value: str) -> bool:
    """A Swedish samordningsnummer (day + 60): stdnum.se.personnummer reads no date there, so its birth date is read
    with the day moved back, and stdnum.luhn judges the digits as written."""
    digits = "".join(c for c in value if c.isdigit())
    if len(digits) not in (10, 12) or not 61 <= int(digits[-6:-4]) <= 91:
        return False
    moved = digits[:-6] + f"{int(digits[-6:-4]) - 60:02d}" + digits[-4:]
    try:
        born = _module("se_personnummer").get_birth_date(moved[:-4] + "-" + moved[-4:])
    except ValueError:  # stdnum's InvalidComponent: no such date
        return False
    return born <= LATEST_BIRTH_DATE and valid("luhn", digits[-10:])


def de_kvnr_valid(value: str) -> bool:
    """A German Krankenversichertennummer: a letter, eight digits and a check digit. The letter becomes its place in
    the alphabet (two digits), then the ten digits weigh 1, 2 alternately, each product's digit sum is added, mod 10."""
    v = "".join(c for c in value if c.isalnum()).upper()
    if len(v) != 10 or not ("A" <= v[0] <= "Z") or not v[1:].isdigit():
        return False
    digits = f"{ord(v[0]) - ord('A') + 1:02d}" + v[1:9]
    total = sum(sum(divmod(int(d) * w, 10)) for d, w in zip(digits, (1, 2) * 5))
    return total % 10 == int(v[9])


_NINO = re.compile(r"[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]")
_NINO_NEVER_ISSUED = frozenset({"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"})


def gb_nino_valid(value: str) -> bool:
    """A UK National Insurance number: two letters HMRC issues, six digits and A-D. The format has no check digit
    (python-stdnum 2.2 has no NINO), so its letter rules are all there is to check."""
    v = "".join(value.split()).upper()
    return _NINO.fullmatch(v) is not None and v[:2] not in _NINO_NEVER_ISSUED


OWN_VALIDATORS: dict[str, Callable[[str], bool]] = {
    "sg_nric": sg_nric_valid, "ru_snils": ru_snils_valid, "hu_taj": hu_taj_valid, "hu_tax": hu_tax_valid,
    "au_medicare": au_medicare_valid, "mx_clabe": mx_clabe_valid, "bitlocker_key": bitlocker_key_valid,
    "se_coordination": se_coordination_valid, "de_kvnr": de_kvnr_valid, "gb_nino": gb_nino_valid,
}

# Every function in the policy that computes a check digit itself, and why python-stdnum does not do it.
# tests/policy/test_checksums.py finds such functions by reading the source and compares the set with this one.
OWN_CHECKS: dict[str, str] = {
    "checksums.sg_nric_valid": "python-stdnum 2.2 has no Singapore NRIC/FIN (stdnum.sg holds only the UEN)",
    "checksums.ru_snils_valid": "python-stdnum 2.2 has no Russian SNILS (stdnum.ru holds INN and OGRN)",
    "checksums.hu_taj_valid": "python-stdnum 2.2 has no Hungarian TAJ (stdnum.hu holds only the ANUM VAT number)",
    "checksums.hu_tax_valid": "python-stdnum 2.2 has no Hungarian personal tax number",
    "checksums.au_medicare_valid": "python-stdnum 2.2 has no Australian Medicare card number",
    "checksums.mx_clabe_valid": "python-stdnum 2.2 has no Mexican CLABE (stdnum.mx holds CURP and RFC)",
    "checksums.de_kvnr_valid": "python-stdnum 2.2 has no German health insurance number (stdnum.de holds IdNr and "
                                "StNr)",
    "checksums.icao_digit": "python-stdnum 2.2 has no ICAO 9303 machine-readable zone",
    "checksums.bitlocker_key_valid": "BitLocker recovery keys are no identifier python-stdnum knows",
    "card_windows._windows_numpy": "a numpy Luhn over megabyte-long digit runs; a property test holds it equal "
                                   "to stdnum.luhn window by window (stdnum per window would take seconds)",
}
