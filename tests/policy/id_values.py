"""Valid national, tax and health numbers for the id detectors' tests, each completed by python-stdnum.

A generator builds a body (a real birth date where the format has one) and `checksums.complete` appends
the check character stdnum takes, so a valid value here is valid for the detector that asks stdnum. With
`bad="date"` the date is impossible and the check digits come from stdnum's calc functions, which compute
them without judging the date: a real near miss.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from stdnum import luhn
from stdnum.be import nn as be_nn
from stdnum.cn import ric
from stdnum.exceptions import InvalidChecksum, ValidationError
from stdnum.fi import hetu
from stdnum.kr import rrn
from stdnum.mx import curp
from stdnum.no import fodselsnummer
from stdnum.pl import pesel
from stdnum.ro import cnp

from primer_memory.policy.checksums import complete, valid

DIGITS = "0123456789"


def _digits(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(DIGITS) for _ in range(n))


def _date(rng: random.Random, lo: int = 1940, hi: int = 1999) -> tuple[int, int, int]:
    return rng.randint(lo, hi), rng.randint(1, 12), rng.randint(1, 28)


UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _valid(kind: str, body: Callable[[], str], alphabet: str = DIGITS, width: int = 1) -> str:
    """A body completed by python-stdnum to a valid `kind`; a body no ending makes valid is drawn again."""
    while (value := complete(kind, body(), alphabet, width)) is None:
        pass
    return value


# --------------------------------------------------------------------------- generators, one per format
# Each takes an rng and `bad`: "" for a valid number, "date" for an impossible date with a correct check.


def make_nl_bsn(rng: random.Random, bad: str = "") -> str:
    return _valid("nl_bsn", lambda: rng.choice("123456789") + _digits(rng, 7))


def make_be_national_number(rng: random.Random, bad: str = "") -> str:
    year, month, day = _date(rng, 1940, 2015)
    month = 13 if bad == "date" else month
    body = f"{year % 100:02d}{month:02d}{day:02d}{rng.randint(1, 997):03d}"
    if bad:  # stdnum.be.nn judges the check before the date: the pair it does not call a checksum error
        n = next(body + f"{c:02d}" for c in range(100) if _fails_only_past_the_check(be_nn, body + f"{c:02d}"))
    else:
        n = _valid("be_nn", lambda: body, width=2)
    return f"{n[:2]}.{n[2:4]}.{n[4:6]}-{n[6:9]}.{n[9:]}"


def _fails_only_past_the_check(module: object, number: str) -> bool:
    try:
        module.validate(number)  # type: ignore[attr-defined]
    except InvalidChecksum:
        return False
    except ValidationError:
        return True
    return False


def make_de_steuer_id(rng: random.Random, bad: str = "") -> str:
    def body() -> str:  # ten digits, first not 0, exactly one digit twice
        while True:
            chosen = rng.sample(DIGITS, 9)
            digits = "".join(rng.sample(chosen + [chosen[0]], 10))
            if digits[0] != "0":
                return digits
    return _valid("de_idnr", body)


def make_se_personnummer(rng: random.Random, bad: str = "") -> str:
    year, month, day = _date(rng)
    day = 32 if bad == "date" else day
    body = f"{year % 100:02d}{month:02d}{day:02d}{_digits(rng, 3)}"
    n = body + luhn.calc_check_digit(body) if bad else _valid("se_personnummer", lambda: f"{body[:6]}-{body[6:]}")
    return f"{n[:6]}-{n[-4:]}"


def make_no_fodselsnummer(rng: random.Random, bad: str = "") -> str:
    while True:
        year, month, day = _date(rng)
        month = 13 if bad == "date" else month
        day += 40 if bad == "d-number" else 0  # a D-number adds 40 to the day
        body = f"{day:02d}{month:02d}{year % 100:02d}{rng.randint(0, 499):03d}"  # 000-499: 1900s
        if bad == "date":
            k1 = fodselsnummer.calc_check_digit1(body)
            k2 = fodselsnummer.calc_check_digit2(body + k1)
            if len(k1 + k2) == 2:
                return body + k1 + k2
            continue
        number = complete("no_fodselsnummer", body, width=2)
        if number is not None:
            return number


def make_dk_cpr(rng: random.Random, bad: str = "") -> str:
    year, month, day = _date(rng)
    month = 13 if bad == "date" else month
    return f"{day:02d}{month:02d}{year % 100:02d}-{rng.choice('0123')}{_digits(rng, 3)}"  # 0-3: born 1900s


_HETU_CHECKS = "0123456789ABCDEFHJKLMNPRSTUVWXY"


def make_fi_hetu(rng: random.Random, bad: str = "") -> str:
    year, month, day = _date(rng)
    day = 30 if bad == "date" else day
    month = 2 if bad == "date" else month
    individual = f"{rng.randint(2, 899):03d}"
    core = f"{day:02d}{month:02d}{year % 100:02d}"
    if bad:  # stdnum.fi.hetu's own check character, computed without judging the date
        return f"{core}-{individual}" + hetu._calc_checksum(core + individual)
    return _valid("fi_hetu", lambda: f"{core}-{individual}", _HETU_CHECKS)


def make_pl_pesel(rng: random.Random, bad: str = "") -> str:
    year, month, day = _date(rng, 1940, 2015)
    month += 20 if year >= 2000 else 0  # the century is in the month
    month = 13 if bad == "date" else month
    body = f"{year % 100:02d}{month:02d}{day:02d}{_digits(rng, 4)}"
    return body + pesel.calc_check_digit(body) if bad else _valid("pl_pesel", lambda: body)


def make_pt_nif(rng: random.Random, bad: str = "") -> str:
    return _valid("pt_nif", lambda: rng.choice("123") + _digits(rng, 7))


def make_ch_ahv(rng: random.Random, bad: str = "") -> str:
    n = _valid("ch_ssn", lambda: "756" + _digits(rng, 9))  # EAN-13
    return f"{n[:3]}.{n[3:7]}.{n[7:11]}.{n[11:]}"


def make_ie_ppsn(rng: random.Random, bad: str = "") -> str:
    return _valid("ie_pps", lambda: _digits(rng, 7), UPPER)


def make_ro_cnp(rng: random.Random, bad: str = "") -> str:
    year, month, day = _date(rng)
    month = 13 if bad == "date" else month
    body = f"{rng.choice('12')}{year % 100:02d}{month:02d}{day:02d}{rng.randint(1, 40):02d}{_digits(rng, 3)}"
    return body + cnp.calc_check_digit(body) if bad else _valid("ro_cnp", lambda: body)


def make_cn_resident_id(rng: random.Random, bad: str = "") -> str:
    year, month, day = _date(rng)
    month = 13 if bad == "date" else month
    body = f"{rng.choice(['11', '31', '44', '51'])}{_digits(rng, 4)}{year}{month:02d}{day:02d}{_digits(rng, 3)}"
    return body + ric.calc_check_digit(body + "?") if bad else _valid("cn_ric", lambda: body, DIGITS + "X")


def make_in_pan(rng: random.Random, bad: str = "") -> str:
    letters = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(5))  # the 4th a holder type:
    return f"{letters[:3]}{rng.choice('PCHF')}{letters[3]}{rng.randint(1, 9999):04d}{letters[4]}"  # person, company...


def make_kr_rrn(rng: random.Random, bad: str = "") -> str:
    year, month, day = _date(rng)
    month = 13 if bad == "date" else month
    body = f"{year % 100:02d}{month:02d}{day:02d}{rng.choice('12')}{rng.randint(0, 96):02d}{_digits(rng, 3)}"
    n = body + rrn.calc_check_digit(body) if bad else _valid("kr_rrn", lambda: body)
    return f"{n[:6]}-{n[6:]}"


def make_jp_my_number(rng: random.Random, bad: str = "") -> str:
    n = _valid("jp_in", lambda: _digits(rng, 11))
    return f"{n[:4]} {n[4:8]} {n[8:]}"


def make_mx_curp(rng: random.Random, bad: str = "") -> str:
    year, month, day = _date(rng)
    month = 13 if bad == "date" else month
    body = (rng.choice("BGHMPR") + rng.choice("AEIOU") + rng.choice("RS") + rng.choice("AEIO")
            + f"{year % 100:02d}{month:02d}{day:02d}" + rng.choice("HM") + rng.choice(["DF", "JC", "NL", "VZ"])
            + "".join(rng.choice("BCDFGLMNRST") for _ in range(3)) + rng.choice(DIGITS))
    return body + curp.calc_check_digit(body) if bad else _valid("mx_curp", lambda: body)


def make_ar_cuit(rng: random.Random, bad: str = "") -> str:
    n = _valid("ar_cuit", lambda: rng.choice(["20", "23", "27", "30"]) + _digits(rng, 8))
    return f"{n[:2]}-{n[2:10]}-{n[10]}"


def make_za_id(rng: random.Random, bad: str = "") -> str:
    year, month, day = _date(rng)
    month = 13 if bad == "date" else month
    body = f"{year % 100:02d}{month:02d}{day:02d}{_digits(rng, 4)}{rng.choice('01')}8"
    return body + luhn.calc_check_digit(body) if bad else _valid("za_idnr", lambda: body)


def make_au_tfn(rng: random.Random, bad: str = "") -> str:
    n = _valid("au_tfn", lambda: rng.choice("123456789") + _digits(rng, 7))
    return f"{n[:3]} {n[3:6]} {n[6:]}"


def make_au_medicare(rng: random.Random, bad: str = "") -> str:
    body, issue = rng.choice("23456") + _digits(rng, 7), str(rng.randint(1, 9))
    check = next(c for c in DIGITS if valid("au_medicare", body + c + issue))  # the own check (stdnum has none)
    return f"{body[:4]} {body[4:]}{check} {issue}"


def make_tr_kimlik(rng: random.Random, bad: str = "") -> str:
    return _valid("tr_tckimlik", lambda: rng.choice("123456789") + _digits(rng, 8), width=2)


def make_il_teudat_zehut(rng: random.Random, bad: str = "") -> str:
    return _valid("il_idnr", lambda: rng.choice("0123") + rng.choice("123456789") + _digits(rng, 6))


def make_cl_rut(rng: random.Random, bad: str = "") -> str:
    body = str(rng.randint(5_000_000, 25_999_999))
    return _valid("cl_rut", lambda: f"{body[:-6]}.{body[-6:-3]}.{body[-3:]}-", DIGITS + "K")


def make_gb_nhs_number(rng: random.Random, bad: str = "") -> str:
    n = _valid("gb_nhs", lambda: rng.choice("456789") + _digits(rng, 8))
    return f"{n[:3]} {n[3:6]} {n[6:]}"


def make_ca_health_number(rng: random.Random, bad: str = "") -> str:
    n = _valid("ca_bc_phn", lambda: "9" + _digits(rng, 8))
    return f"{n[:4]} {n[4:7]} {n[7:]}"


def make_sg_nric(rng: random.Random, bad: str = "") -> str:
    return _valid("sg_nric", lambda: rng.choice("STFGM") + _digits(rng, 7), UPPER)  # the own check (stdnum has none)


def make_uk_sort_code_account(rng: random.Random, bad: str = "") -> str:
    return f"sort code {_digits(rng, 2)}-{_digits(rng, 2)}-{_digits(rng, 2)}, account {_digits(rng, 8)}"


def make_au_bsb_account(rng: random.Random, bad: str = "") -> str:
    return f"BSB {_digits(rng, 3)}-{_digits(rng, 3)}, account number {_digits(rng, 9)}"
