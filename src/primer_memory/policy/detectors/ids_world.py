"""National identifiers and bank details of the rest of the world, each judged by python-stdnum.

As for the formats of national_ids.toml (Europe's, one table each): python-stdnum judges check digits and birth dates (`checksums.valid`; the Hungarian
TAJ and tax number, the Australian Medicare card and the Singapore NRIC, which it lacks, have own
checks), distinctive printed shapes count on their own, and a number too weak alone (no public check, or one check digit on a bare run of
digits) counts only next to its name. Bank details count as a pair: a UK sort code or an Australian
BSB with an account number beside it. `WORLD_ID_DETECTORS` lists the data's detectors and this module's.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .national import detectors as national_detectors
from ..checksums import valid
from .id_scan import END, Names, digits_of, first_valid, folded_view, has_digits, has_shape
from ..scan import Span

_GROUPED = rb"(?! [0-9])"  # a number printed in groups may not run on into another group


def find_cn_resident_id(text: str) -> Span | None:
    """Chinese resident identity number: province code, YYYYMMDD birth date, 3 digits, ISO 7064 MOD 11-2 check."""
    return first_valid(_CN, text, _cn_ok, shapes=(b" " + b"0" * 17,))


_CN = re.compile(rb" ([1-8][0-9]{16}[0-9Xx])" + END)


def _cn_ok(value: str) -> bool:
    return valid("cn_ric", value)


def find_in_pan(text: str) -> Span | None:
    """Indian PAN: 5 letters (the 4th a holder type: P person, C company...), 4 digits, a letter; named PAN.

    The check letter's algorithm is not public, and part numbers take this shape too, so the name is needed.
    """
    return first_valid(_PAN, text, lambda v: valid("in_pan", v), _PAN_NAMES, (b" AAAAA0000A",))


_PAN = re.compile(rb" ([A-Z]{3}[ABCFGHJLPT][A-Z][0-9]{4}[A-Z])" + END)
_PAN_NAMES = Names("pan", "permanent account number")


def find_kr_rrn(text: str) -> Span | None:
    """South Korean resident registration number: YYMMDD-SNNNNNC, a real date and a mod 11 check digit.

    Weights 2..9,2..5; the birthplace code (digits 8-9) is at most 96. The bare 13 digits count only next
    to a name. Numbers issued since October 2020 end in random digits, with no check digit: those are missed.
    """
    span = first_valid(_KR, text, _kr_ok, shapes=(b" 000000-0000000",))
    return span if span is not None else first_valid(_KR_BARE, text, _kr_ok, _KR_NAMES, (b" " + b"0" * 13,))


_KR = re.compile(rb" ([0-9]{6}-[1-8][0-9]{6})" + END)
_KR_BARE = re.compile(rb" ([0-9]{6}[1-8][0-9]{6})" + END)
_KR_NAMES = Names("주민등록번호", "주민번호", "resident registration number", "rrn")


def _kr_ok(value: str) -> bool:
    return valid("kr_rrn", value)


def find_jp_my_number(text: str) -> Span | None:
    """Japanese My Number: 12 digits, the last a mod 11 check digit (weights 6..2,7..2), named (My Number, 個人番号)."""
    return first_valid(_JP, text, _jp_ok, _JP_NAMES, (b" 000000000000", b" 0000 0000 0000", b" 0000-0000-0000"))


_JP = re.compile(rb" ([0-9]{12}|[0-9]{4}([ -])[0-9]{4}\2[0-9]{4}" + _GROUPED + b")" + END)
_JP_NAMES = Names("mynumber", "my number card", "マイナンバー", "個人番号", "individual number", cased=("My Number",))


def _jp_ok(value: str) -> bool:
    return valid("jp_in", value)


def find_mx_curp(text: str) -> Span | None:
    """Mexican CURP: 4 letters, YYMMDD, sex, state, 3 consonants, a century character and a check digit."""
    return first_valid(_CURP, text, _curp_ok, shapes=(b" AAAA000000AAAAAA",))


_CURP_STATES = "AS|BC|BS|CC|CL|CM|CS|CH|DF|DG|GT|GR|HG|JC|MC|MN|MS|NT|NL|OC|PL|QT|QR|SP|SL|SR|TC|TS|TL|VZ|YN|ZS|NE"
_CURP = re.compile(rb" ([A-Z][AEIOUX][A-Z]{2}[0-9]{6}[HMX](?:" + _CURP_STATES.encode()
                   + rb")[B-DF-HJ-NP-TV-Z]{3}[0-9A-Z][0-9])" + END)


def _curp_ok(value: str) -> bool:
    return valid("mx_curp", value)


def find_ar_cuit(text: str) -> Span | None:
    """Argentine CUIL/CUIT: XX-XXXXXXXX-X with a known type prefix and a mod 11 check (weights 5432765432).

    The dashed form counts on its own; the bare 11 digits next to the name (CUIL, CUIT, CDI).
    """
    span = first_valid(_AR, text, _ar_ok, shapes=(b" 00-00000000-0",))
    return span if span is not None else first_valid(_AR_BARE, text, _ar_ok, _AR_NAMES, (b" 00000000000",))


_AR = re.compile(rb" ((?:2[0347]|3[034])-[0-9]{8}-[0-9])" + END)
_AR_BARE = re.compile(rb" ((?:2[0347]|3[034])[0-9]{9})" + END)
_AR_NAMES = Names("cuil", "cuit", "cdi")


def _ar_ok(value: str) -> bool:
    return valid("ar_cuit", value)


def find_za_id(text: str) -> Span | None:
    """South African ID number: YYMMDD, 4 digits, citizenship 0-2, a digit and a Luhn check digit."""
    return first_valid(_ZA, text, _za_ok, shapes=(b" " + b"0" * 13, b" 000000 0000 000"))


_ZA = re.compile(rb" ([0-9]{13}|[0-9]{6} [0-9]{4} [0-9]{3}" + _GROUPED + b")" + END)


def _za_ok(value: str) -> bool:
    return valid("za_idnr", value)


def find_au_tfn(text: str) -> Span | None:
    """Australian tax file number: 9 (or older 8) digits with a weighted sum divisible by 11, named (TFN)."""
    return first_valid(_TFN, text, _tfn_ok, _TFN_NAMES, (b" 00000000", b" 000 000 00", b" 000-000-00"))


_TFN = re.compile(rb" ([0-9]{8,9}|[0-9]{3}([ -])[0-9]{3}\2[0-9]{2,3}" + _GROUPED + b")" + END)
_TFN_NAMES = Names("tfn", "tax file number", "tax file no")


def _tfn_ok(value: str) -> bool:
    return int(digits_of(value)) > 0 and valid("au_tfn", digits_of(value))


def find_au_medicare(text: str) -> Span | None:
    """Australian Medicare card number: first digit 2-6, check digit (weights 1,3,7,9) and issue number, named."""
    return first_valid(_MEDICARE, text, _medicare_ok, _MEDICARE_NAMES, (b" 0000000000", b" 0000 00000 0"))


_MEDICARE = re.compile(rb" ([2-6][0-9]{9,10}|[2-6][0-9]{3} [0-9]{5} [0-9](?:[ /-][1-9])?" + _GROUPED + b")" + END)
_MEDICARE_NAMES = Names("medicare")


def _medicare_ok(value: str) -> bool:
    return valid("au_medicare", value)


def find_tr_kimlik(text: str) -> Span | None:
    """Turkish T.C. Kimlik No: 11 digits, not starting 0, two check digits, named (kimlik, TCKN)."""
    return first_valid(_TR, text, _tr_ok, _TR_NAMES, (b" 00000000000",))


_TR = re.compile(rb" ([1-9][0-9]{10})" + END)
_TR_NAMES = Names("kimlik", "tckn", "t.c. no", "turkish id", "turkish identity")


def _tr_ok(digits: str) -> bool:
    return valid("tr_tckimlik", digits)


def find_il_teudat_zehut(text: str) -> Span | None:
    """Israeli Teudat Zehut: 9 digits with a Luhn check digit, named (teudat zehut, תעודת זהות, ת.ז)."""
    return first_valid(_IL, text, _il_ok, _IL_NAMES, (b" 000000000", b" 00000000-0"))


_IL = re.compile(rb" ([0-9]{9}|[0-9]{8}-[0-9])" + END)
_IL_NAMES = Names("teudat zehut", "zehut", "תעודת זהות", "ת.ז", 'ת"ז', "israeli id")


def _il_ok(value: str) -> bool:
    return int(digits_of(value)) > 0 and valid("il_idnr", value)


def find_cl_rut(text: str) -> Span | None:
    """Chilean RUT/RUN: XX.XXX.XXX-C with C from mod 11 (weights 2..7, 10 written K); bare next to its name."""
    span = first_valid(_CL, text, _cl_ok, shapes=(b".000.000-",))
    return span if span is not None else first_valid(_CL_BARE, text, _cl_ok, _CL_NAMES, (b" 0000000-", b" 00000000-"))


_CL = re.compile(rb" ([0-9]{1,2}\.[0-9]{3}\.[0-9]{3}-[0-9Kk])" + END)
_CL_BARE = re.compile(rb" ([0-9]{7,8}-[0-9Kk])" + END)
_CL_NAMES = Names("rut", "r.u.t", "rol único tributario", "rol unico tributario", "rol único nacional")


def _cl_ok(value: str) -> bool:
    return valid("cl_rut", value)


# Bank details: a sort code (or BSB) after its name, an account number within a clause before or after it.
_UK_CODE = rb"sort[ -]?codes?[^0-9]{0,25}+(?P<code>[0-9]{2}(?P<sep>[- ]?)[0-9]{2}(?P=sep)[0-9]{2})(?![0-9])"
_UK_ACCOUNT = rb"(?P<account>[0-9]{8}|[0-9]{4} [0-9]{4})(?![0-9])"
_AU_CODE = rb"bsb(?<![a-z]bsb)(?![a-z])[^0-9]{0,25}+(?P<code>[0-9]{3}[- ]?[0-9]{3})(?![0-9])"
_AU_ACCOUNT = rb"(?P<account>[0-9]{6,10}|[0-9]{4} [0-9]{4})(?![0-9])"


def _pair_finder(name: bytes, code: bytes, account: bytes, accounts: tuple[bytes, ...]) -> Callable[[str], Span | None]:
    """A finder of `code` (after its name) with `account` on either side, searched in the lower-case view.

    Between them 1-40 characters but no digit: two numbers side by side, not two somewhere in a list.
    """
    after = re.compile(code + rb"[^0-9]{1,40}+" + account)
    before = re.compile(b" " + account + rb"[^0-9]{1,40}?" + code)

    def find(text: str) -> Span | None:
        if not has_digits(text) or name not in folded_view(text) or not has_shape(text, *accounts):
            return None
        matches = [m for m in (after.search(folded_view(text)), before.search(folded_view(text))) if m is not None]
        spans = [(min(m.start("code"), m.start("account")) - 1, max(m.end("code"), m.end("account")) - 1)
                 for m in matches]
        return min(spans, default=None)

    return find


find_uk_sort_code_account = _pair_finder(b"sort", _UK_CODE, _UK_ACCOUNT, (b"00000000", b"0000 0000"))
find_uk_sort_code_account.__doc__ = "UK bank details: a sort code NN-NN-NN after 'sort code' with an 8-digit account."
find_au_bsb_account = _pair_finder(b"bsb", _AU_CODE, _AU_ACCOUNT, (b"000000", b"0000 0000"))
find_au_bsb_account.__doc__ = "Australian bank details: a BSB NNN-NNN after 'BSB' with a 6-10 digit account."

# Round 6 (from the ICP's published layout): 784, the birth year, seven digits and a Luhn check digit.
_AE_EMIRATES_ID = re.compile(r"(?<![\d-])784[- ]?(?:19|20)\d\d[- ]?\d{7}[- ]?\d(?![\d-])")


def find_ae_emirates_id(text: str) -> Span | None:
    """A UAE Emirates ID: 784-YYYY-NNNNNNN-C, the whole Luhn-valid."""
    if "784" not in text:
        return None
    for match in _AE_EMIRATES_ID.finditer(text):
        if valid("luhn", digits_of(match.group())):
            return match.span()
    return None


# Round 7, from the Thai and Hungarian specifications (the sixth corpus's tune half held one of each).
def find_th_national_id(text: str) -> Span | None:
    """Thai national ID: 13 digits, the last a weighted mod 11 check; printed 1-2345-67890-12-1 it counts alone."""
    return (first_valid(_TH_GROUPED, text, _th_ok, shapes=(b" 0-0000-00000-00-0",))
            or first_valid(_TH, text, _th_ok, _TH_NAMES, (b" 0000000000000",)))


_TH_GROUPED = re.compile(rb" ([1-8]-[0-9]{4}-[0-9]{5}-[0-9]{2}-[0-9])" + END)
_TH = re.compile(rb" ([1-8][0-9]{12})" + END)
_TH_NAMES = Names("บัตรประชาชน", "ประจำตัวประชาชน", "thai id", "citizen id")


def _th_ok(value: str) -> bool:
    return valid("th_pin", value)


def find_hu_ids(text: str) -> Span | None:
    """Hungarian TAJ (social insurance: 9 digits, 3-7 weighted mod 10) or tax id (8 and 9 digits, mod 11), named."""
    return (first_valid(_HU_TAJ, text, _taj_ok, _HU_TAJ_NAMES, (b" 000000000", b" 000 000 000", b" 000-000-000"))
            or first_valid(_HU_TAX, text, _hu_tax_ok, _HU_TAX_NAMES, (b" 0000000000",)))


_HU_TAJ = re.compile(rb" ([0-9]{3}[ -]?[0-9]{3}[ -]?[0-9]{3})" + _GROUPED + END)
_HU_TAJ_NAMES = Names("taj", "tajszám", "taj szám", "társadalombiztosítási", "tarsadalombiztositasi")
_HU_TAX = re.compile(rb" (8[0-9]{9})" + END)
_HU_TAX_NAMES = Names("adóazonosító", "adoazonosito", "adószám", "hungarian tax")


def _taj_ok(value: str) -> bool:
    return valid("hu_taj", value)


def _hu_tax_ok(value: str) -> bool:
    return valid("hu_tax", value)


# Round 8 (the seventh corpus's tune half held one).
def find_id_nik(text: str) -> Span | None:
    """Indonesian NIK (on the KTP): province, regency, district, DDMMYY birth date (day + 40 for women), a serial;
    no check digit, so it is named."""
    return first_valid(_NIK, text, _nik_ok, _NIK_NAMES, (b" 0000000000000000",))


_NIK = re.compile(rb" ([1-9][0-9]{15})" + END)
_NIK_NAMES = Names("nik", "ktp", "e-ktp", "nomor induk kependudukan", "nomor induk")


def _nik_ok(value: str) -> bool:
    return valid("id_nik", value)


# Issue 22: health numbers by name, and Singapore's NRIC, each judged by python-stdnum or (NRIC) an own check.
def find_gb_nhs_number(text: str) -> Span | None:
    """A UK NHS number (or Scotland's CHI, Northern Ireland's H&C number, which share its mod 11 check): 10 digits,
    printed 3-3-4 or bare, next to its name, as a phone number passes the check one time in eleven."""
    return first_valid(_NHS, text, lambda v: valid("gb_nhs", v), _NHS_NAMES,
                       (b" 0000000000", b" 000 000 0000", b" 000-000-0000"))


_NHS = re.compile(rb" ([0-9]{10}|[0-9]{3}([ -])[0-9]{3}\2[0-9]{4}" + _GROUPED + b")" + END)
_NHS_NAMES = Names("nhs", "chi number", "chi no", "community health index", "h&c number", "health and care number",
                   "health & care number", cased=("CHI",))


def find_ca_health_number(text: str) -> Span | None:
    """A Canadian health card number, named: British Columbia's PHN (9 then 9 digits, stdnum.ca.bc_phn's mod 11) or
    Ontario's OHIP number (10 digits, stdnum.luhn, perhaps a two-letter version code)."""
    return first_valid(_PHN, text, lambda v: valid("ca_bc_phn", v), _PHN_NAMES,
                       (b" 0000000000", b" 0000 000 000", b" 0000-000-000")) or first_valid(
        _OHIP, text, lambda v: valid("luhn", digits_of(v)[:10]), _OHIP_NAMES,
        (b" 0000000000", b" 0000 000 000", b" 0000-000-000"))


_PHN = re.compile(rb" (9[0-9]{9}|9[0-9]{3}([ -])[0-9]{3}\2[0-9]{3}" + _GROUPED + b")" + END)
_PHN_NAMES = Names("phn", "personal health number", "carecard", "care card", "health card", "services card",
                   "msp number")
_OHIP = re.compile(rb" ([0-9]{10}(?:[ -]?[A-Z]{2})?|[0-9]{4}([ -])[0-9]{3}\2[0-9]{3}(?:\2[A-Z]{2})?" + _GROUPED + b")"
                   + END)
_OHIP_NAMES = Names("ohip", "ontario health", "health card", "health number")


def find_sg_nric(text: str) -> Span | None:
    """A Singapore NRIC or FIN: S, T, F, G or M, seven digits and the check letter (an own check: stdnum has none).

    The shape and its check letter count on their own, as a Spanish DNI's do."""
    return first_valid(_NRIC, text, lambda v: valid("sg_nric", v), shapes=(b" A0000000A",))


_NRIC = re.compile(rb" ([STFGM][0-9]{7}[A-Z])" + END)


WORLD_ID_DETECTORS: tuple[tuple[str, str, Callable[[str], Span | None], str], ...] = national_detectors() + (
    ("cn_resident_id", "a Chinese resident identity number (MOD 11-2 valid)", find_cn_resident_id,
     "110101199001011237"),
    ("in_pan", "an Indian PAN (permanent account number)", find_in_pan, "PAN ABCPE1234F"),
    ("kr_rrn", "a South Korean resident registration number (check digit valid)", find_kr_rrn, "800101-1234560"),
    ("jp_my_number", "a Japanese My Number (check digit valid)", find_jp_my_number, "My Number 1234 5678 9018"),
    ("mx_curp", "a Mexican CURP (check digit valid)", find_mx_curp, "GOMC800101HDFRRR00"),
    ("ar_cuit", "an Argentine CUIL/CUIT (mod 11 valid)", find_ar_cuit, "20-12345678-6"),
    ("za_id", "a South African ID number (Luhn valid)", find_za_id, "9001015123085"),
    ("au_tfn", "an Australian tax file number (weighted mod 11 valid)", find_au_tfn, "TFN 123 456 782"),
    ("au_medicare", "an Australian Medicare card number (check digit valid)", find_au_medicare,
     "Medicare 2123 45670 1"),
    ("tr_kimlik", "a Turkish T.C. Kimlik number (both check digits valid)", find_tr_kimlik,
     "TC Kimlik No 12345678950"),
    ("il_teudat_zehut", "an Israeli Teudat Zehut number (check digit valid)", find_il_teudat_zehut,
     "teudat zehut 123456782"),
    ("cl_rut", "a Chilean RUT (check character valid)", find_cl_rut, "12.345.678-5"),
    ("uk_sort_code_account", "UK bank details (a sort code with its account number)", find_uk_sort_code_account,
     "sort code 12-34-56, account 12345678"),
    ("au_bsb_account", "Australian bank details (a BSB with its account number)", find_au_bsb_account,
     "BSB 062-000 account 12345678"),
    ("ae_emirates_id", "a UAE Emirates ID (Luhn valid)", find_ae_emirates_id, "784-1990-1234567-6"),
    ("id_nik", "an Indonesian NIK (national id on the KTP)", find_id_nik, "NIK 3174054506900002"),
    ("th_national_id", "a Thai national ID number (mod 11 check valid)", find_th_national_id, "1-1017-00230-70-8"),
    ("hu_taj_or_tax_id", "a Hungarian TAJ or tax identification number (check digit valid)", find_hu_ids,
     "TAJ 158 338 455; adóazonosító jel 8353813831"),
    ("gb_nhs_number", "a UK NHS, CHI or H&C health number (mod 11 valid)", find_gb_nhs_number,
     "NHS number 943 476 5919"),
    ("ca_health_number", "a Canadian health card number, BC PHN or OHIP (check valid)", find_ca_health_number,
     "PHN 9123 456 780"),
    ("sg_nric", "a Singapore NRIC or FIN (check letter valid)", find_sg_nric, "NRIC S1234567D"),
)
