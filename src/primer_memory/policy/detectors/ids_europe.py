"""European national identifiers that detect_ids does not cover, each checked the way its specification says.

Every format's check is verified (mod 11, mod 97, ISO 7064, Luhn, mod 31) together with the birth
date it encodes. A format whose written shape is distinctive (Belgian YY.MM.DD-XXX.CC, Swedish
YYMMDD-XXXX, Finnish HETU, Swiss 756.XXXX.XXXX.XX) counts on its own; a bare run of digits with one
check digit passes by chance one time in ten or eleven, so it counts only next to its name.
"""

from __future__ import annotations

import operator
import re
from collections import Counter
from collections.abc import Callable

from .id_scan import (
    END,
    LATEST_BIRTH_DATE,
    Names,
    date_ok,
    digits_of,
    first_valid,
    luhn_ok,
    weighted,
    yymmdd_ok,
)
from ..scan import Span

_GROUPED = rb"(?! [0-9])"  # a number printed in groups may not run on into another group


def find_nl_bsn(text: str) -> Span | None:
    """Dutch BSN: 9 digits passing the eleven test (weights 9..2 and -1); named, as any 9 digits pass 1 in 11."""
    return first_valid(_BSN, text, _bsn_ok, _BSN_NAMES, (b" 000000000", b" 0000.00.000", b" 000 000 000"))


_BSN_NAMES = Names("bsn", "burgerservicenummer", "burgerservice nummer", "sofinummer", "sofi-nummer", "sofi nummer",
                   "citizen service number")
_BSN = re.compile(rb" ([0-9]{9}|[0-9]{4}\.[0-9]{2}\.[0-9]{3}|[0-9]{3} [0-9]{3} [0-9]{3}" + _GROUPED + b")" + END)


def _bsn_ok(value: str) -> bool:
    digits = digits_of(value)
    return int(digits) > 0 and weighted(digits, (9, 8, 7, 6, 5, 4, 3, 2, -1)) % 11 == 0


def find_be_national_number(text: str) -> Span | None:
    """Belgian national register number: YY.MM.DD-XXX.CC, CC = 97 - (number mod 97), '2' put first after 2000.

    The printed form counts on its own; the bare 11 digits only next to a name (rijksregisternummer...).
    """
    span = first_valid(_BE_PRINTED, text, _be_ok, shapes=(b" 00.00.00-000.00",))
    return span if span is not None else first_valid(_BE_BARE, text, _be_ok, _BE_NAMES, (b" 00000000000",))


_BE_PRINTED = re.compile(rb" ([0-9]{2}\.[0-9]{2}\.[0-9]{2}-[0-9]{3}\.[0-9]{2})" + END)
_BE_BARE = re.compile(rb" ([0-9]{11})" + END)
_BE_NAMES = Names("rijksregisternummer", "rijksregister", "registre national", "numéro national", "numero national",
                  "national number", "national register", "nationalregisternummer", "insz", "niss")


def _be_ok(value: str) -> bool:
    digits = digits_of(value)
    if not 1 <= int(digits[6:9]) <= 998:
        return False
    year, month, day = int(digits[:2]), int(digits[2:4]), int(digits[4:6])
    month -= 40 if month >= 40 else 20 if month >= 20 else 0  # BIS numbers add 20 or 40 to the month
    if month > 12 or day > 31 or not (month == 0 or day == 0 or yymmdd_ok(year, month, day)):
        return False
    check, year_2000 = int(digits[9:]), LATEST_BIRTH_DATE.year - 2000
    return 97 - int(digits[:9]) % 97 == check or (year <= year_2000 and 97 - int("2" + digits[:9]) % 97 == check)


def find_de_steuer_id(text: str) -> Span | None:
    """German tax ID (Steuer-ID): 11 digits, ISO 7064 MOD 11,10 check; one of the first ten digits twice or thrice.

    Named (Steuer-ID, Identifikationsnummer, IdNr, tax id), not the Steuernummer, which is a different number.
    """
    return first_valid(_DE, text, _de_ok, _DE_NAMES, (b" 00000000000", b" 00 000 000 000"))


_DE_NAMES = Names("steuer-id", "steuerid", "steuer id", "identifikationsnummer", "idnr", "id-nr", "tax id",
                  "tax identification number", "tin")
_DE = re.compile(rb" ([1-9][0-9]{10}|[1-9][0-9] [0-9]{3} [0-9]{3} [0-9]{3}" + _GROUPED + b")" + END)


def _de_ok(value: str) -> bool:
    digits = digits_of(value)
    repeated = [n for n in Counter(digits[:10]).values() if n > 1]
    if len(repeated) != 1 or repeated[0] > 3:
        return False
    product = 10
    for ch in digits[:10]:
        total = (int(ch) + product) % 10 or 10
        product = total * 2 % 11
    return (11 - product) % 10 == int(digits[10])


def find_se_personnummer(text: str) -> Span | None:
    """Swedish personnummer or samordningsnummer (day + 60): a real date and a Luhn-valid last digit.

    Every form needs a name within reach (personnummer, personnr, född, ID...): a date, a dash and four
    digits is also how invoices and orders are numbered, and one in ten passes Luhn by chance ("Invoice
    881231-1234" was refused in round 3 testing).
    """
    return first_valid(_SE_ANY, text, _se_ok, _SE_NAMES, _SE_SHAPES)


_SE_ANY = re.compile(rb" ((?:1[89]|20)?[0-9]{6}[-+]?[0-9]{4})" + END)
_SE_SHAPES = (b" 0000000000", b"000000-0000", b"000000+0000")
_SE_NAMES = Names("personnummer", "personnumret", "personnr", "person-nr", "pnr", "samordningsnummer",
                  "personal identity number", "personal number", "född", "id", "id-nummer", "identitetsnummer")


def _se_ok(value: str) -> bool:
    digits = digits_of(value)
    tail = digits[-10:]
    year, month, day = int(tail[:2]), int(tail[2:4]), int(tail[4:6])
    day -= 60 if day > 60 else 0  # samordningsnummer: the day plus 60
    real = date_ok(int(digits[:2]) * 100 + year, month, day) if len(digits) == 12 else yymmdd_ok(year, month, day)
    return real and luhn_ok(tail)


def find_no_fodselsnummer(text: str) -> Span | None:
    """Norwegian fødselsnummer or D-number: DDMMYY + 3 digits + two mod-11 check digits, the date real."""
    return first_valid(_NO, text, _no_ok, shapes=(b" 00000000000", b" 000000 00000"))


_NO = re.compile(rb" ([0-9]{11}|[0-9]{6} [0-9]{5}" + _GROUPED + b")" + END)


def _no_ok(value: str) -> bool:
    digits = digits_of(value)
    day, month, year, person = int(digits[:2]), int(digits[2:4]), int(digits[4:6]), int(digits[6:9])
    day -= 40 if day > 40 else 0  # D-number
    month -= 40 if month > 40 else 0  # H-number
    if person < 500 or (person >= 900 and year >= 40):
        century = 1900
    elif year < 40:
        century = 2000
    elif person < 750 and year >= 54:
        century = 1800
    else:
        return False
    if not date_ok(century + year, month, day):
        return False
    for length, weights in ((9, (3, 7, 6, 1, 8, 9, 4, 5, 2)), (10, (5, 4, 3, 2, 7, 6, 5, 4, 3, 2))):
        if (11 - weighted(digits[:length], weights) % 11) % 11 != int(digits[length]):
            return False
    return True


def find_dk_cpr(text: str) -> Span | None:
    """Danish CPR number: DDMMYY-XXXX with a real date, named (CPR, personnummer), as the mod 11 check was dropped."""
    return first_valid(_DK, text, _dk_ok, _DK_NAMES, (b" 000000-0000", b" 0000000000"))


_DK = re.compile(rb" ([0-9]{6}-?[0-9]{4})" + END)
_DK_NAMES = Names("cpr", "personnummer", "personnr")


def _dk_ok(value: str) -> bool:
    digits = digits_of(value)
    day, month, year, seventh = int(digits[:2]), int(digits[2:4]), int(digits[4:6]), int(digits[6])
    if seventh <= 3:
        century = 1900
    elif seventh in (4, 9):
        century = 2000 if year <= 36 else 1900
    else:
        century = 2000 if year <= 57 else 1800
    return date_ok(century + year, month, day)


def find_fi_hetu(text: str) -> Span | None:
    """Finnish HETU: DDMMYY, a century sign, 3 digits and the check character of the number mod 31."""
    return first_valid(_FI, text, _fi_ok, shapes=(b" 000000-000", b" 000000+000", b" 000000A000"))


_FI = re.compile(rb" ([0-9]{6}[-+A-FU-Y][0-9]{3}[0-9A-FHJ-NPR-Y])" + END)
_FI_CENTURY = {"+": 1800, **dict.fromkeys("-UVWXY", 1900), **dict.fromkeys("ABCDEF", 2000)}
_FI_CHECK = "0123456789ABCDEFHJKLMNPRSTUVWXY"


def _fi_ok(value: str) -> bool:
    day, month, year = int(value[:2]), int(value[2:4]), int(value[4:6])
    return (int(value[7:10]) >= 2 and date_ok(_FI_CENTURY[value[6]] + year, month, day)
            and _FI_CHECK[int(value[:6] + value[7:10]) % 31] == value[10])


def find_pl_pesel(text: str) -> Span | None:
    """Polish PESEL: YYMMDD (century in the month) + 4 digits + a 1-3-7-9 weighted check digit, named PESEL.

    One check digit and a date pass for about one 11-digit run in fifty (phone numbers among them).
    """
    return first_valid(_PL, text, _pl_ok, _PL_NAMES, (b" 00000000000",))


_PL = re.compile(rb" ([0-9]{11})" + END)
_PL_NAMES = Names("pesel")


def _pl_ok(digits: str) -> bool:
    if (10 - weighted(digits, (1, 3, 7, 9, 1, 3, 7, 9, 1, 3)) % 10) % 10 != int(digits[10]):
        return False
    month = int(digits[2:4])
    century = (1900, 2000, 2100, 2200, 1800)[month // 20]
    return date_ok(century + int(digits[:2]), month % 20, int(digits[4:6]))


def find_pt_nif(text: str) -> Span | None:
    """Portuguese NIF: 9 digits, mod 11 check digit (weights 9..2), named (NIF, contribuinte)."""
    return first_valid(_PT, text, _pt_ok, _PT_NAMES, (b" 000000000", b" 000 000 000"))


_PT = re.compile(rb" ([1-9][0-9]{8}|[1-9][0-9]{2} [0-9]{3} [0-9]{3}" + _GROUPED + b")" + END)
_PT_NAMES = Names("nif", "nipc", "contribuinte", "identificação fiscal", "identificacao fiscal")


def _pt_ok(value: str) -> bool:
    digits = digits_of(value)
    return (11 - weighted(digits, (9, 8, 7, 6, 5, 4, 3, 2)) % 11) % 11 % 10 == int(digits[8])


def find_ch_ahv(text: str) -> Span | None:
    """Swiss AHV/AVS number: 756 + 10 digits, EAN-13 check; printed 756.XXXX.XXXX.XX, or bare next to its name."""
    if "756" not in text:
        return None
    span = first_valid(_CH_PRINTED, text, _ch_ok, shapes=(b" 000.0000.0000.00",))
    return span if span is not None else first_valid(_CH_BARE, text, _ch_ok, _CH_NAMES, (b" " + b"0" * 13,))


_CH_PRINTED = re.compile(rb" (756\.[0-9]{4}\.[0-9]{4}\.[0-9]{2})" + END)
_CH_BARE = re.compile(rb" (756[0-9]{10})" + END)  # EAN-13 barcodes of Swiss goods start 756 too
_CH_NAMES = Names("ahv", "avs", "oasi", "sozialversicherungsnummer", "versichertennummer", "social security")


def _ch_ok(value: str) -> bool:
    digits = digits_of(value)
    return (10 - weighted(digits, (1, 3) * 6) % 10) % 10 == int(digits[12])


def find_ie_ppsn(text: str) -> Span | None:
    """Irish PPS number: 7 digits and a mod-23 check letter (a second letter A, B or H counted since 2013), named."""
    return first_valid(_IE, text, _ie_ok, _IE_NAMES, (b" 0000000A", b" 0000000a"))


_IE = re.compile(rb" ([0-9]{7}[A-Wa-w][ABHTWXabhtwx]?)" + END)
_IE_NAMES = Names("pps", "ppsn", "personal public service")


def _ie_ok(value: str) -> bool:
    value = value.upper()
    total = weighted(value[:7], (8, 7, 6, 5, 4, 3, 2))
    if len(value) == 9 and value[8] in "ABH":
        total += 9 * (ord(value[8]) - ord("A") + 1)
    return "WABCDEFGHIJKLMNOPQRSTUV"[total % 23] == value[7]


def find_ro_cnp(text: str) -> Span | None:
    """Romanian CNP: sex/century digit, YYMMDD, county, serial and a check digit (weights 279146358279), named."""
    return first_valid(_RO, text, _ro_ok, _RO_NAMES, (b" " + b"0" * 13,))


_RO = re.compile(rb" ([1-8][0-9]{12})" + END)
_RO_NAMES = Names("cnp", "cod numeric personal")
_RO_COUNTIES = frozenset(range(1, 49)) | {51, 52, 70, 80, 81, 82, 83}


def _ro_ok(digits: str) -> bool:
    century = {"1": 1900, "2": 1900, "3": 1800, "4": 1800, "5": 2000, "6": 2000}.get(digits[0])
    year, month, day = int(digits[1:3]), int(digits[3:5]), int(digits[5:7])
    real = date_ok(century + year, month, day) if century else yymmdd_ok(year, month, day)
    check = weighted(digits, (2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9)) % 11
    return real and int(digits[7:9]) in _RO_COUNTIES and (1 if check == 10 else check) == int(digits[12])


# Added in round 3, after the third corpus's tune half showed them: Greek AMKA, Russian SNILS and INN (all named).
def find_gr_amka(text: str) -> Span | None:
    """Greek social security number, AMKA: DDMMYY birth date, four digits, a Luhn check digit; named (ΑΜΚΑ)."""
    return first_valid(_AMKA, text, _amka_ok, _AMKA_NAMES, (b" 00000000000",))


_AMKA = re.compile(rb" ([0-9]{11})" + END)
_AMKA_NAMES = Names("αμκα", "amka", "α.μ.κ.α")


def _amka_ok(value: str) -> bool:
    return yymmdd_ok(int(value[4:6]), int(value[2:4]), int(value[:2])) and luhn_ok(value)


def find_ru_snils(text: str) -> Span | None:
    """Russian pension insurance number, SNILS: NNN-NNN-NNN CC, CC from the weights 9..1 mod 101; named (СНИЛС)."""
    return first_valid(_SNILS, text, _snils_ok, _SNILS_NAMES, (b" 000-000-000 00", b" 000-000-000-00", b" 00000000000"))


_SNILS = re.compile(rb" ([0-9]{3}-[0-9]{3}-[0-9]{3}[ -][0-9]{2}|[0-9]{11})" + END)
_SNILS_NAMES = Names("снилс", "snils", "страховой номер")


def _snils_ok(value: str) -> bool:
    digits = digits_of(value).replace(" ", "")
    total = weighted(digits[:9], (9, 8, 7, 6, 5, 4, 3, 2, 1))
    check = total if total < 100 else 0 if total in (100, 101) else total % 101 % 100
    return int(digits[:9]) > 1001998 and check == int(digits[9:])


def find_ru_inn(text: str) -> Span | None:
    """Russian taxpayer number, INN: 10 digits (one check digit) or 12 (two), weights mod 11 mod 10; named (ИНН)."""
    return first_valid(_INN, text, _inn_ok, _INN_NAMES, (b" 0000000000",))


_INN = re.compile(rb" ([0-9]{12}|[0-9]{10})" + END)
_INN_NAMES = Names("инн", "inn")
_INN_10 = (2, 4, 10, 3, 5, 9, 4, 6, 8)
_INN_11 = (7, 2, 4, 10, 3, 5, 9, 4, 6, 8)
_INN_12 = (3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8)


def _inn_ok(value: str) -> bool:
    d = [int(c) for c in value]
    if len(d) == 10:
        return sum(map(operator.mul, d, _INN_10)) % 11 % 10 == d[9]
    return (sum(map(operator.mul, d, _INN_11)) % 11 % 10 == d[10]
            and sum(map(operator.mul, d, _INN_12)) % 11 % 10 == d[11])


def find_ua_rnokpp(text: str) -> Span | None:
    """Ukrainian taxpayer number, RNOKPP (formerly IPN): 10 digits, weights -1,5,7,9,4,6,10,5,7 mod 11 mod 10; named."""
    return first_valid(_RNOKPP, text, _rnokpp_ok, _RNOKPP_NAMES, (b" 0000000000",))


_RNOKPP = re.compile(rb" ([0-9]{10})" + END)
_RNOKPP_NAMES = Names("рнокпп", "іпн", "ідентифікаційний код", "ідентифікаційний номер", "rnokpp", "ipn")


def _rnokpp_ok(value: str) -> bool:
    return weighted(value[:9], (-1, 5, 7, 9, 4, 6, 10, 5, 7)) % 11 % 10 == int(value[9])


# Round 8, from the Czech and Slovak specification (the seventh corpus's tune half held one): YYMMDD/XXXX.
def find_cz_rodne_cislo(text: str) -> Span | None:
    """Czech or Slovak birth number, rodné číslo: YYMMDD (month + 50 for women, + 20 or + 70 from 2004), three or
    four digits, the ten-digit form divisible by 11; named, since a date and four digits also number invoices."""
    return first_valid(_CZ, text, _cz_ok, _CZ_NAMES, (b"000000/000", b" 0000000000"))


_CZ = re.compile(rb" ([0-9]{6}/?[0-9]{3,4})" + END)
_CZ_NAMES = Names("rodné číslo", "rodného čísla", "rodným číslem", "rodne cislo", "rodné č", "r.č", "rč",
                  "rodné čísla", "birth number")


def _cz_ok(value: str) -> bool:
    digits = value.replace("/", "")
    month, day, yy = int(digits[2:4]) % 50, int(digits[4:6]), int(digits[:2])
    month = month - 20 if month > 20 else month
    if not yymmdd_ok(yy, month, day):
        return False
    if len(digits) == 9:  # before 1954: three digits and no check
        return yy < 54
    return int(digits) % 11 == 0 or (int(digits[:9]) % 11 == 10 and digits[9] == "0")


EUROPE_ID_DETECTORS: tuple[tuple[str, str, Callable[[str], Span | None], str], ...] = (
    ("nl_bsn", "a Dutch BSN (eleven test valid)", find_nl_bsn, "BSN 111222333"),
    ("be_national_number", "a Belgian national register number (mod 97 valid)", find_be_national_number,
     "90.01.01-123.95"),
    ("de_steuer_id", "a German tax ID, Steuer-ID (ISO 7064 check valid)", find_de_steuer_id,
     "Steuer-ID 24680135776"),
    ("se_personnummer", "a Swedish personnummer (Luhn valid)", find_se_personnummer,
     "personnummer 900101-1239"),
    ("no_fodselsnummer", "a Norwegian fødselsnummer (both check digits valid)", find_no_fodselsnummer,
     "01019012480"),
    ("dk_cpr", "a Danish CPR number", find_dk_cpr, "CPR 010190-1234"),
    ("fi_hetu", "a Finnish personal identity code, HETU (check character valid)", find_fi_hetu, "010190-123M"),
    ("pl_pesel", "a Polish PESEL (check digit valid)", find_pl_pesel, "PESEL 90010112349"),
    ("pt_nif", "a Portuguese tax number, NIF (check digit valid)", find_pt_nif, "NIF 123456789"),
    ("ch_ahv", "a Swiss AHV/AVS social security number (EAN-13 valid)", find_ch_ahv, "756.1234.5678.97"),
    ("ie_ppsn", "an Irish PPS number (check letter valid)", find_ie_ppsn, "PPSN 1234567T"),
    ("ro_cnp", "a Romanian personal numeric code, CNP (check digit valid)", find_ro_cnp, "CNP 1800101221144"),
    ("gr_amka", "a Greek social security number, AMKA (Luhn valid)", find_gr_amka, "ΑΜΚΑ 01019012341"),
    ("ru_snils", "a Russian pension insurance number, SNILS (check valid)", find_ru_snils, "СНИЛС 112-233-445 95"),
    ("ru_inn", "a Russian taxpayer number, INN (check digits valid)", find_ru_inn, "ИНН 7707083893"),
    ("ua_rnokpp", "a Ukrainian taxpayer number, RNOKPP (check digit valid)", find_ua_rnokpp, "РНОКПП 1234567899"),
    ("cz_rodne_cislo", "a Czech or Slovak birth number, rodné číslo (mod 11 valid)", find_cz_rodne_cislo,
     "rodné číslo 750702/7099"),
)
