"""European national identifiers that detectors/ids.py does not cover, each judged by python-stdnum.

python-stdnum judges every candidate (`checksums.valid`): its check (mod 11, mod 97, ISO 7064, Luhn,
mod 31) and the birth date it encodes; the Russian SNILS, which stdnum lacks, has an own check. A
format whose written shape is distinctive (Belgian YY.MM.DD-XXX.CC, Swedish YYMMDD-XXXX, Finnish
HETU, Swiss 756.XXXX.XXXX.XX) counts on its own; a bare run of digits with one
check digit passes by chance one time in ten or eleven, so it counts only next to its name.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..checksums import valid
from .id_scan import END, Names, first_valid
from ..scan import Span

_GROUPED = rb"(?! [0-9])"  # a number printed in groups may not run on into another group


def find_nl_bsn(text: str) -> Span | None:
    """Dutch BSN: 9 digits passing the eleven test (weights 9..2 and -1); named, as any 9 digits pass 1 in 11."""
    return first_valid(_BSN, text, _bsn_ok, _BSN_NAMES, (b" 000000000", b" 0000.00.000", b" 000 000 000"))


_BSN_NAMES = Names("bsn", "burgerservicenummer", "burgerservice nummer", "sofinummer", "sofi-nummer", "sofi nummer",
                   "citizen service number")
_BSN = re.compile(rb" ([0-9]{9}|[0-9]{4}\.[0-9]{2}\.[0-9]{3}|[0-9]{3} [0-9]{3} [0-9]{3}" + _GROUPED + b")" + END)


def _bsn_ok(value: str) -> bool:
    return valid("nl_bsn", value)


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
    """A national number, or a BIS number (month + 20 or + 40) for those not in the register."""
    return valid("be_nn", value) or valid("be_bis", value)


def find_de_steuer_id(text: str) -> Span | None:
    """German tax ID (Steuer-ID): 11 digits, ISO 7064 MOD 11,10 check; one of the first ten digits twice or thrice.

    Named (Steuer-ID, Identifikationsnummer, IdNr, tax id), not the Steuernummer, which is a different number.
    """
    return first_valid(_DE, text, _de_ok, _DE_NAMES, (b" 00000000000", b" 00 000 000 000"))


_DE_NAMES = Names("steuer-id", "steuerid", "steuer id", "identifikationsnummer", "idnr", "id-nr", "tax id",
                  "tax identification number", "tin")
_DE = re.compile(rb" ([1-9][0-9]{10}|[1-9][0-9] [0-9]{3} [0-9]{3} [0-9]{3}" + _GROUPED + b")" + END)


def _de_ok(value: str) -> bool:
    return valid("de_idnr", value)


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
    return valid("se_personnummer", value) or valid("se_coordination", value)


def find_no_fodselsnummer(text: str) -> Span | None:
    """Norwegian fødselsnummer or D-number: DDMMYY + 3 digits + two mod-11 check digits, the date real."""
    return first_valid(_NO, text, _no_ok, shapes=(b" 00000000000", b" 000000 00000"))


_NO = re.compile(rb" ([0-9]{11}|[0-9]{6} [0-9]{5}" + _GROUPED + b")" + END)


def _no_ok(value: str) -> bool:
    return valid("no_fodselsnummer", value)


def find_dk_cpr(text: str) -> Span | None:
    """Danish CPR number: DDMMYY-XXXX with a real date, named (CPR, personnummer), as the mod 11 check was dropped."""
    return first_valid(_DK, text, _dk_ok, _DK_NAMES, (b" 000000-0000", b" 0000000000"))


_DK = re.compile(rb" ([0-9]{6}-?[0-9]{4})" + END)
_DK_NAMES = Names("cpr", "personnummer", "personnr")


def _dk_ok(value: str) -> bool:
    return valid("dk_cpr", value)


def find_fi_hetu(text: str) -> Span | None:
    """Finnish HETU: DDMMYY, a century sign, 3 digits and the check character of the number mod 31."""
    return first_valid(_FI, text, _fi_ok, shapes=(b" 000000-000", b" 000000+000", b" 000000A000"))


_FI = re.compile(rb" ([0-9]{6}[-+A-FU-Y][0-9]{3}[0-9A-FHJ-NPR-Y])" + END)


def _fi_ok(value: str) -> bool:
    return valid("fi_hetu", value)


def find_pl_pesel(text: str) -> Span | None:
    """Polish PESEL: YYMMDD (century in the month) + 4 digits + a 1-3-7-9 weighted check digit, named PESEL.

    One check digit and a date pass for about one 11-digit run in fifty (phone numbers among them).
    """
    return first_valid(_PL, text, _pl_ok, _PL_NAMES, (b" 00000000000",))


_PL = re.compile(rb" ([0-9]{11})" + END)
_PL_NAMES = Names("pesel")


def _pl_ok(digits: str) -> bool:
    return valid("pl_pesel", digits)


def find_pt_nif(text: str) -> Span | None:
    """Portuguese NIF: 9 digits, mod 11 check digit (weights 9..2), named (NIF, contribuinte)."""
    return first_valid(_PT, text, _pt_ok, _PT_NAMES, (b" 000000000", b" 000 000 000"))


_PT = re.compile(rb" ([1-9][0-9]{8}|[1-9][0-9]{2} [0-9]{3} [0-9]{3}" + _GROUPED + b")" + END)
_PT_NAMES = Names("nif", "nipc", "contribuinte", "identificação fiscal", "identificacao fiscal")


def _pt_ok(value: str) -> bool:
    return valid("pt_nif", value)


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
    return valid("ch_ssn", value)


def find_ie_ppsn(text: str) -> Span | None:
    """Irish PPS number: 7 digits and a mod-23 check letter (a second letter A, B or H counted since 2013), named."""
    return first_valid(_IE, text, _ie_ok, _IE_NAMES, (b" 0000000A", b" 0000000a"))


_IE = re.compile(rb" ([0-9]{7}[A-Wa-w][ABHTWXabhtwx]?)" + END)
_IE_NAMES = Names("pps", "ppsn", "personal public service")


def _ie_ok(value: str) -> bool:
    return valid("ie_pps", value.upper())


def find_ro_cnp(text: str) -> Span | None:
    """Romanian CNP: sex/century digit, YYMMDD, county, serial and a check digit (weights 279146358279), named."""
    return first_valid(_RO, text, _ro_ok, _RO_NAMES, (b" " + b"0" * 13,))


_RO = re.compile(rb" ([1-8][0-9]{12})" + END)
_RO_NAMES = Names("cnp", "cod numeric personal")


def _ro_ok(digits: str) -> bool:
    return valid("ro_cnp", digits)


# Added in round 3, after the third corpus's tune half showed them: Greek AMKA, Russian SNILS and INN (all named).
def find_gr_amka(text: str) -> Span | None:
    """Greek social security number, AMKA: DDMMYY birth date, four digits, a Luhn check digit; named (ΑΜΚΑ)."""
    return first_valid(_AMKA, text, _amka_ok, _AMKA_NAMES, (b" 00000000000",))


_AMKA = re.compile(rb" ([0-9]{11})" + END)
_AMKA_NAMES = Names("αμκα", "amka", "α.μ.κ.α")


def _amka_ok(value: str) -> bool:
    return valid("gr_amka", value)


def find_ru_snils(text: str) -> Span | None:
    """Russian pension insurance number, SNILS: NNN-NNN-NNN CC, CC from the weights 9..1 mod 101; named (СНИЛС)."""
    return first_valid(_SNILS, text, _snils_ok, _SNILS_NAMES, (b" 000-000-000 00", b" 000-000-000-00", b" 00000000000"))


_SNILS = re.compile(rb" ([0-9]{3}-[0-9]{3}-[0-9]{3}[ -][0-9]{2}|[0-9]{11})" + END)
_SNILS_NAMES = Names("снилс", "snils", "страховой номер")


def _snils_ok(value: str) -> bool:
    return valid("ru_snils", value)


def find_ru_inn(text: str) -> Span | None:
    """Russian taxpayer number, INN: 10 digits (one check digit) or 12 (two), weights mod 11 mod 10; named (ИНН)."""
    return first_valid(_INN, text, _inn_ok, _INN_NAMES, (b" 0000000000",))


_INN = re.compile(rb" ([0-9]{12}|[0-9]{10})" + END)
_INN_NAMES = Names("инн", "inn")


def _inn_ok(value: str) -> bool:
    return valid("ru_inn", value)


def find_ua_rnokpp(text: str) -> Span | None:
    """Ukrainian taxpayer number, RNOKPP (formerly IPN): 10 digits, weights -1,5,7,9,4,6,10,5,7 mod 11 mod 10; named."""
    return first_valid(_RNOKPP, text, _rnokpp_ok, _RNOKPP_NAMES, (b" 0000000000",))


_RNOKPP = re.compile(rb" ([0-9]{10})" + END)
_RNOKPP_NAMES = Names("рнокпп", "іпн", "ідентифікаційний код", "ідентифікаційний номер", "rnokpp", "ipn")


def _rnokpp_ok(value: str) -> bool:
    return valid("ua_rntrc", value)


# Round 8, from the Czech and Slovak specification (the seventh corpus's tune half held one): YYMMDD/XXXX.
def find_cz_rodne_cislo(text: str) -> Span | None:
    """Czech or Slovak birth number, rodné číslo: YYMMDD (month + 50 for women, + 20 or + 70 from 2004), three or
    four digits, the ten-digit form divisible by 11; named, since a date and four digits also number invoices."""
    return first_valid(_CZ, text, _cz_ok, _CZ_NAMES, (b"000000/000", b" 0000000000"))


_CZ = re.compile(rb" ([0-9]{6}/?[0-9]{3,4})" + END)
_CZ_NAMES = Names("rodné číslo", "rodného čísla", "rodným číslem", "rodne cislo", "rodné č", "r.č", "rč",
                  "rodné čísla", "birth number")


def _cz_ok(value: str) -> bool:
    return valid("cz_rc", value)


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
