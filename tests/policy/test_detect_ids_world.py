"""The world national-id detectors: valid numbers are found in sentences, near misses are not.

Every valid number here is built by a generator in id_values.py and completed by python-stdnum itself
(the check character that makes it valid), so a wrong check digit or an impossible date is a real near miss.
Adversarial inputs check correctness only (None or a span inside the text); speed is measured by hand.
"""

from __future__ import annotations

import base64
import random
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stdnum import luhn
from stdnum.cn import ric
from stdnum.fi import hetu
from stdnum.pl import pesel

from id_values import (_HETU_CHECKS, DIGITS, UPPER, make_ar_cuit, make_au_bsb_account, make_au_medicare, make_au_tfn,
    make_be_national_number, make_ca_health_number, make_ch_ahv, make_cl_rut, make_cn_resident_id, make_de_steuer_id,
    make_dk_cpr, make_fi_hetu, make_gb_nhs_number, make_ie_ppsn, make_il_teudat_zehut, make_in_pan,
    make_jp_my_number, make_kr_rrn, make_mx_curp, make_nl_bsn, make_no_fodselsnummer, make_pl_pesel, make_pt_nif,
    make_ro_cnp, make_se_personnummer, make_sg_nric, make_tr_kimlik, make_uk_sort_code_account, make_za_id)
from primer_memory.policy.checksums import complete, valid
from primer_memory.policy.detectors.ids_world import WORLD_ID_DETECTORS
from primer_memory.policy.scan import Span

FINDERS = {name: find for name, _, find, _ in WORLD_ID_DETECTORS}


# --------------------------------------------------------------------------- the cases


@dataclass(frozen=True)
class Case:
    """One detector: its generator, the name written before the number, sentences, and what it needs."""

    maker: Callable[..., str]
    label: str  # how a person names it; "" when the maker's text carries its own name
    sentences: tuple[str, ...]
    named: bool = False  # the number alone (without `label`) must not be found
    dated: bool = True  # has a birth date, so an impossible date is a near miss
    checked: bool = True  # has a check digit or letter, so a wrong one is a near miss


CASES: dict[str, Case] = {
    "nl_bsn": Case(make_nl_bsn, "BSN", (
        "Mijn BSN is {v}, dat heeft de gemeente nodig.",
        "For the Dutch payroll form: burgerservicenummer {v} (mine).",
        "Citizen service number: {v} - keep it for the tax return."), named=True, dated=False),
    "be_national_number": Case(make_be_national_number, "rijksregisternummer", (
        "Mon numéro national est {v}.",
        "Rijksregisternummer {v} staat op de achterkant van de kaart.",
        "Belgian ID card says {v} under the photo.")),
    "de_steuer_id": Case(make_de_steuer_id, "Steuer-ID", (
        "Meine Steuer-ID lautet {v}.",
        "Steueridentifikationsnummer: {v} (für die Lohnabrechnung).",
        "My German tax ID is {v}, the employer asked for it."), named=True, dated=False),
    "se_personnummer": Case(make_se_personnummer, "personnummer", (
        "Mitt personnummer är {v}.",
        "Swedish ID {v} for the bank application.",
        "Samordningsnummer eller personnummer: {v}")),
    "no_fodselsnummer": Case(make_no_fodselsnummer, "fødselsnummer", (
        "Fødselsnummeret mitt er {v}.",
        "Norwegian national ID {v}, needed for BankID.",
        "fnr: {v}")),
    "dk_cpr": Case(make_dk_cpr, "CPR", (
        "Mit CPR-nummer er {v}.",
        "CPR {v} - needed for the doctor in Aarhus.",
        "Personnummer: {v}"), named=True, checked=False),
    "fi_hetu": Case(make_fi_hetu, "henkilötunnus", (
        "Henkilötunnukseni on {v}.",
        "Finnish personal ID {v} for Kela.",
        "HETU {v}")),
    "pl_pesel": Case(make_pl_pesel, "PESEL", (
        "Mój numer PESEL to {v}.",
        "PESEL: {v}, please save it for the clinic form.",
        "Polish ID number (PESEL) {v}."), named=True),
    "pt_nif": Case(make_pt_nif, "NIF", (
        "O meu NIF é {v}.",
        "Número de contribuinte {v} para a fatura.",
        "Portuguese tax number (NIF): {v}"), named=True, dated=False),
    "ch_ahv": Case(make_ch_ahv, "AHV", (
        "Meine AHV-Nummer ist {v}.",
        "Numéro AVS {v} pour la caisse.",
        "Swiss social security {v} on the insurance card."), dated=False),
    "ie_ppsn": Case(make_ie_ppsn, "PPSN", (
        "My PPS number is {v}.",
        "PPSN {v} for Revenue.",
        "Personal Public Service number: {v}"), named=True, dated=False),
    "ro_cnp": Case(make_ro_cnp, "CNP", (
        "CNP-ul meu este {v}.",
        "Cod numeric personal {v}, pentru dosar.",
        "Romanian ID (CNP): {v}"), named=True),
    "cn_resident_id": Case(make_cn_resident_id, "身份证号", (
        "我的身份证号是{v}。",
        "Resident ID {v} for the train ticket.",
        "ID card number: {v}")),
    "in_pan": Case(make_in_pan, "PAN", (
        "My PAN is {v}, needed for the ITR.",
        "PAN card no. {v}",
        "Permanent Account Number: {v} (for the bank KYC)."), named=True, dated=False, checked=False),
    "kr_rrn": Case(make_kr_rrn, "주민등록번호", (
        "제 주민등록번호는 {v} 입니다.",
        "Korean resident registration number {v}.",
        "RRN: {v}")),
    "jp_my_number": Case(make_jp_my_number, "マイナンバー", (
        "私のマイナンバーは{v}です。",
        "My Number {v} for the employer.",
        "個人番号: {v}"), named=True, dated=False),
    "mx_curp": Case(make_mx_curp, "CURP", (
        "Mi CURP es {v}.",
        "CURP: {v} para el trámite.",
        "Mexican ID {v} on the form.")),
    "ar_cuit": Case(make_ar_cuit, "CUIT", (
        "Mi CUIT es {v}.",
        "CUIL {v} para el recibo de sueldo.",
        "Argentine tax ID {v}."), dated=False),
    "za_id": Case(make_za_id, "ID number", (
        "My SA ID number is {v}.",
        "ID no {v} for the FICA check.",
        "South African ID: {v}")),
    "au_tfn": Case(make_au_tfn, "TFN", (
        "My TFN is {v}.",
        "Tax file number {v} for the new job.",
        "TFN: {v} - put it on the super form."), named=True, dated=False),
    "au_medicare": Case(make_au_medicare, "Medicare", (
        "My Medicare number is {v}.",
        "Medicare card {v} for the GP.",
        "medicare no: {v}"), named=True, dated=False),
    "tr_kimlik": Case(make_tr_kimlik, "TC Kimlik No", (
        "TC Kimlik No: {v}",
        "Kimlik numaram {v}.",
        "Turkish ID (T.C. Kimlik) {v} for the hotel."), named=True, dated=False),
    "il_teudat_zehut": Case(make_il_teudat_zehut, "teudat zehut", (
        "My teudat zehut is {v}.",
        "מספר תעודת זהות: {v}",
        "ת.ז. {v}"), named=True, dated=False),
    "cl_rut": Case(make_cl_rut, "RUT", (
        "Mi RUT es {v}.",
        "RUT {v} para la boleta.",
        "Chilean tax ID {v}."), dated=False),
    "gb_nhs_number": Case(make_gb_nhs_number, "NHS number", (
        "My NHS number is {v}.",
        "NHS no: {v} (for the GP surgery).",
        "CHI number {v} for the clinic in Glasgow."), named=True, dated=False),
    "ca_health_number": Case(make_ca_health_number, "PHN", (
        "My PHN is {v}.",
        "BC Services Card personal health number: {v}",
        "Care card {v} for the walk-in clinic."), named=True, dated=False),
    "sg_nric": Case(make_sg_nric, "NRIC", (
        "My NRIC is {v}.",
        "FIN {v} for the work pass application.",
        "NRIC No.: {v}"), dated=False),
    "uk_sort_code_account": Case(make_uk_sort_code_account, "", (
        "Pay the deposit to {v}, name J Smith.",
        "My bank details: {v}.",
        "Halifax {v} (joint account)"), named=True, dated=False, checked=False),
    "au_bsb_account": Case(make_au_bsb_account, "", (
        "Pay rent to {v}.",
        "Bank: CBA, {v}",
        "Refund to {v} please."), named=True, dated=False, checked=False),
}


def _located(text: str, value: str) -> Span:
    start = text.index(value)
    return start, start + len(value)


def _break_check(name: str, value: str) -> str:
    """The value with its check digit or letter changed (one character, same shape where it can be)."""
    if name == "au_medicare":  # the check digit is the 9th digit: "2123 4567C 1"
        i = 9
    elif name == "be_national_number":  # two check digits; avoid landing on the other century's valid pair
        return next(value[:-2] + f"{c:02d}" for c in range(1, 98) if not valid("be_nn", value[:-2] + f"{c:02d}"))
    else:
        i = len(value) - 1
    ch = value[i]
    alphabet = DIGITS if ch.isdigit() else "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return value[:i] + alphabet[(alphabet.index(ch.upper()) + 1) % len(alphabet)] + value[i + 1:]


def _texts(case: Case, value: str) -> list[str]:
    return [sentence.format(v=value) for sentence in case.sentences]


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("seed", range(4))
def test_valid_numbers_are_found_in_sentences(name: str, seed: int) -> None:
    case = CASES[name]
    value = case.maker(random.Random(seed))
    for text in _texts(case, value):
        span = FINDERS[name](text)
        assert span is not None, text
        if case.label:  # an identifier: exactly the number; a bank pair: both numbers and what is between
            assert span == _located(text, value), text
        else:
            assert value.endswith(text[span[0]:span[1]]), text


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c.checked])
@pytest.mark.parametrize("seed", range(4))
def test_a_wrong_check_is_not_found(name: str, seed: int) -> None:
    case = CASES[name]
    value = _break_check(name, case.maker(random.Random(seed)))
    for text in _texts(case, value):
        assert FINDERS[name](text) is None, text


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c.dated])
@pytest.mark.parametrize("seed", range(4))
def test_an_impossible_date_is_not_found(name: str, seed: int) -> None:
    case = CASES[name]
    value = case.maker(random.Random(seed), "date")  # check digits computed over the impossible date
    for text in _texts(case, value):
        assert FINDERS[name](text) is None, text


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c.named and c.label])
@pytest.mark.parametrize("seed", range(4))
def test_a_number_that_needs_its_name_is_not_found_without_it(name: str, seed: int) -> None:
    value = CASES[name].maker(random.Random(seed))
    for text in (f"Reference {value} was noted.", f"{value}", f"Use {value} for the order, thanks",
                 f"The BSN form and the TFN letter came; my number there is unrelated: x {value}"):
        if name in ("nl_bsn", "au_tfn") and "BSN" in text:
            continue  # that sentence names them
        assert FINDERS[name](text) is None, text


def test_a_name_too_far_away_does_not_count() -> None:
    value = make_nl_bsn(random.Random(1))
    assert FINDERS["nl_bsn"](f"BSN {'and then some unrelated words ' * 3}{value}") is None
    assert FINDERS["nl_bsn"](f"{value} (BSN)") is not None  # a name just after counts too


# --------------------------------------------------------------------------- other printed forms


def _printed_forms() -> list[tuple[str, str, bool]]:
    """(detector, text, found?) for the forms the sentences above do not use, each built from the spec."""
    rng = random.Random(7)
    bsn = make_nl_bsn(rng)
    be = make_be_national_number(rng).replace(".", "").replace("-", "")
    se = make_se_personnummer(rng)
    while se[7:9] < "24":  # a tail that cannot read as HH:MM
        se = make_se_personnummer(rng)
    stamp = "20240115-123" + luhn.calc_check_digit("240115123")  # Luhn-valid, but YYYYMMDD-HHMM
    co_body = "810278123"  # samordningsnummer: 18 February 1981, the day written 18 + 60
    no = make_no_fodselsnummer(rng)
    d_number = make_no_fodselsnummer(rng, "d-number")
    fi_core, fi_ind = "150605", "123"  # 15 June 2005: century sign A
    fi = complete("fi_hetu", f"{fi_core}A{fi_ind}", _HETU_CHECKS)
    ahv = make_ch_ahv(rng).replace(".", "")
    pps_body = "7654321"
    pps = next(pps_body + c + "A" for c in UPPER if valid("ie_pps", pps_body + c + "A"))
    cn = make_cn_resident_id(rng)
    while not cn.endswith("X"):
        cn = make_cn_resident_id(rng)
    kr = make_kr_rrn(rng).replace("-", "")
    jp = make_jp_my_number(rng).replace(" ", "")
    ar = make_ar_cuit(rng).replace("-", "")
    za = make_za_id(rng)
    tfn8_body = "1234567"
    tfn8 = complete("au_tfn", tfn8_body)  # stdnum.au.tfn's weights over the older eight digits
    tfn = make_au_tfn(rng).replace(" ", "")
    medicare_card = make_au_medicare(rng)
    medicare = medicare_card.replace(" ", "")
    rut = make_cl_rut(rng).replace(".", "")
    rut_k = make_cl_rut(rng)
    while not rut_k.endswith("K"):
        rut_k = make_cl_rut(rng)
    zehut = make_il_teudat_zehut(rng)
    cn_future = "11010120900101123"  # born 1 January 2090: not yet
    cn_future += ric.calc_check_digit(cn_future + "?")
    pesel_future = "50410112345"[:10]  # month 41: born in the 2100s
    pesel_future += pesel.calc_check_digit(pesel_future)
    return [
        ("nl_bsn", f"BSN {bsn[:4]}.{bsn[4:6]}.{bsn[6:]}", True),
        ("nl_bsn", f"bsn: {bsn[:3]} {bsn[3:6]} {bsn[6:]}", True),
        ("nl_bsn", f"BSN {bsn[:3]} {bsn[3:6]} {bsn[6:]} 12", False),  # groups running on: not one number
        ("be_national_number", f"Rijksregisternummer: {be}", True),
        ("be_national_number", f"Customer {be}", False),
        ("se_personnummer", f"Född 19{se}", True),
        ("se_personnummer", f"personnummer {se.replace('-', '')}", True),
        ("se_personnummer", f"Ticket {se.replace('-', '')}", False),
        ("se_personnummer", f"Build {stamp} passed", False),
        ("se_personnummer", f"personnummer {stamp}", True),
        ("se_personnummer", f"samordningsnummer {co_body[:6]}-{co_body[6:]}{luhn.calc_check_digit(co_body)}", True),
        ("no_fodselsnummer", f"fnr {no[:6]} {no[6:]}", True),
        ("no_fodselsnummer", f"D-nummer {d_number}", True),
        ("fi_hetu", f"HETU {fi}", True),
        ("fi_hetu", f"HETU {fi_core}A001" + hetu._calc_checksum(fi_core + "001"), False),
        ("ch_ahv", f"AHV-Nr. {ahv}", True),
        ("ch_ahv", f"EAN {ahv}", False),  # a Swiss barcode without the name
        ("ie_ppsn", f"PPSN {pps}", True),
        ("cn_resident_id", f"身份证 {cn}", True),
        ("cn_resident_id", f"身份证 {cn[:-1]}x", True),
        ("cn_resident_id", f"身份证 {cn_future}", False),
        ("pl_pesel", f"PESEL {pesel_future}", False),
        ("kr_rrn", f"주민등록번호 {kr}", True),
        ("kr_rrn", f"Barcode {kr}", False),
        ("jp_my_number", f"マイナンバー：{jp}", True),
        ("jp_my_number", f"個人番号 {jp[:4]}-{jp[4:8]}-{jp[8:]}", True),
        ("ar_cuit", f"CUIT {ar}", True),
        ("ar_cuit", f"Pedido {ar}", False),
        ("za_id", f"ID {za[:6]} {za[6:10]} {za[10:]}", True),
        ("au_tfn", f"old TFN {tfn8}", True),
        ("au_tfn", f"TFN {tfn[:3]}-{tfn[3:6]}-{tfn[6:]}", True),
        ("au_medicare", f"Medicare {medicare}", True),
        ("au_medicare", f"Medicare {medicare}3", True),  # with the IRN, the 11th digit
        ("au_medicare", f"Medicare {medicare_card}/3", True),
        ("au_medicare", f"Medicare {medicare[:-1]}", False),  # without the issue number
        ("cl_rut", f"RUT {rut}", True),
        ("cl_rut", f"Pedido {rut}", False),
        ("cl_rut", f"RUT {rut_k}", True),
        ("il_teudat_zehut", f"ת.ז {zehut[:8]}-{zehut[8]}", True),
        ("uk_sort_code_account", "account 12345678, sort code 12-34-56", True),
        ("uk_sort_code_account", "acc no 1234 5678 / sort code 12 34 56", True),
        ("uk_sort_code_account", "the sort code is 12-34-56", False),
        ("uk_sort_code_account", "sort code 12-34-56, account 1234567", False),
        ("uk_sort_code_account", "account 12345678 and card 4111111111111111", False),
        ("au_bsb_account", "acct 123456789 BSB 062 000", True),
        ("au_bsb_account", "the BSB is 062-000", False),
        ("au_bsb_account", "BSB 062-000, account 12345", False),
    ]


@pytest.mark.parametrize(("name", "text", "found"), _printed_forms())
def test_printed_forms(name: str, text: str, found: bool) -> None:
    assert (FINDERS[name](text) is not None) == found, text


# --------------------------------------------------------------------------- harmless text


HARMLESS = [
    "Call me on +31 6 1234 5678 or 020-555-0123 tomorrow.",
    "My mobile is 0612345678 and the office is 030 123 4567.",
    "my number is 0612 3456 7890, text me",
    "Order #112233445 shipped; tracking 1Z999AA10123456784.",
    "Invoice 2024-000123 for EUR 1.234.567,89 is paid.",
    "The meeting is on 2024-03-15 at 14:30, or 15.03.2024, or 03/15/2024.",
    "ISBN 978-3-16-148410-0 and ISBN 9780306406157 are on the shelf.",
    "Build 20240315-1432 passed; log at 2024-03-15T14:32:00Z, epoch 1710513120, ms 1710513120000.",
    "Price: $1,234,567.00, or 1 234 567 kr, or 12.345.678,00 ARS.",
    "Pi starts 3.14159265358979323846264338327950288.",
    "Room 101, floor 3, postcode 1012 AB Amsterdam.",
    "The part number ABCPE1234F is in stock, and so is SKU GOMC800101HDFRRR0.",
    "Chinese phone 13812345678, IMEI 490154203237518.",
    "Version 11.2.3-1, coordinates 52.3676, 4.9041.",
    "Ticket 123456-1234 was closed.",
    "The Steuer-ID letter arrived on 15.03.2024, Steuernummer pending.",
    "My BSN letter came; call 0201234567 about it.",
    "TFN declaration due 30/06/2024; the medicare levy is 2% of 85000.",
    "Ask the bank for the sort code tomorrow; the BSB changed in 2023.",
    "x" + "1234567890" * 5,
    "A pan of 12 eggs costs 4.99; my PAN card is at home.",
    "The CPR course is on 12/04, room 2.",
    "PESEL and NIF forms are in the drawer, 3 copies each.",
]


@pytest.mark.parametrize("text", HARMLESS)
def test_harmless_text_is_not_flagged(text: str) -> None:
    fired = [name for name, find in FINDERS.items() if find(text) is not None]
    assert fired == [], text


# --------------------------------------------------------------------------- properties


def _inside(span: Span | None, text: str) -> bool:
    return span is None or (isinstance(span, tuple) and 0 <= span[0] < span[1] <= len(text))


NUMBERY = st.text(alphabet="0123456789 -.+/:XKAPZ\nBSN TFN PESEL sort code bsb マイナンバー ת.ז", max_size=300)


@settings(max_examples=150)
@given(st.one_of(st.text(max_size=300), NUMBERY))
def test_any_text_gives_none_or_a_span_inside_it(text: str) -> None:
    for name, find in FINDERS.items():
        assert _inside(find(text), text), name


WORDS = ["the", "form", "asks", "for", "please", "note", "thanks", "ok", "tomorrow", "copy", "on", "file", "is", "-",
         "(new)", "and", "mine", "here"]


@settings(max_examples=40)
@given(name=st.sampled_from(sorted(CASES)), rng=st.randoms(use_true_random=False),
       before=st.lists(st.sampled_from(WORDS), max_size=6), after=st.lists(st.sampled_from(WORDS), max_size=6))
def test_generated_numbers_with_their_name_are_found(name: str, rng: random.Random, before: list[str],
                                                     after: list[str]) -> None:
    case = CASES[name]
    value = case.maker(rng)
    text = " ".join([*before, case.label, value, *after]) if case.label else " ".join([*before, value, *after])
    span = FINDERS[name](text)
    assert span is not None, text
    assert _inside(span, text)
    if case.label:
        assert span == _located(text, value), text


# --------------------------------------------------------------------------- adversarial inputs


@pytest.fixture(scope="module")
def adversarial() -> dict[str, str]:
    """About 1 MB each: long digit runs, repeated near-shapes, random noise, a name with no number and the reverse."""
    rng = random.Random(0)
    bsn = make_nl_bsn(rng)
    return {
        "ones": "1" * 1_000_000,
        "twelve": "12 " * 333_333,
        "dashed": "123456-1234 " * 83_333,
        "digits": "".join(rng.choice(DIGITS) for _ in range(1_000_000)),
        "digits_spaced": "".join(rng.choice(DIGITS + " ") for _ in range(1_000_000)),
        "base64": base64.b64encode(rng.randbytes(750_000)).decode(),
        "bsn_words": "BSN " * 250_000,
        "bsn_numbers": "BSN 123456789 " * 71_428,
        "valid_far_from_name": "BSN " + ("filler " * 10 + bsn + " ") * 12_000,
        "sort_codes": "sort code 12-34-56 " * 52_000,
        "dotted": "12.345.678-9 85.07.30-033.61 756.1234.5678.9 " * 22_000,
        "letters_digits": "ABCPE1234F GOMC800101HDFRRR0 " * 34_000,
    }


@pytest.mark.parametrize("name", sorted(FINDERS))
def test_adversarial_inputs_give_none_or_a_span(name: str, adversarial: dict[str, str]) -> None:
    for label, text in adversarial.items():
        assert _inside(FINDERS[name](text), text), label


def test_a_valid_number_far_from_its_only_name_is_not_found(adversarial: dict[str, str]) -> None:
    assert FINDERS["nl_bsn"](adversarial["valid_far_from_name"]) is None


def test_a_number_among_thousands_of_copies_of_another_is_still_found() -> None:
    """Repeated numbers are judged once and then skipped; that must not hide a different number."""
    rng = random.Random(3)
    bsn, se = make_nl_bsn(rng), make_se_personnummer(rng)
    cases = [
        ("nl_bsn", "BSN 123456789 " * 5000 + f"BSN {bsn}.", bsn),
        ("nl_bsn", "123456789 " * 5000 + f"BSN {bsn}", bsn),  # copies sharing their spaces
        ("nl_bsn", "BSN 123456789, " * 5000 + f"BSN {bsn}", bsn),
        ("au_tfn", "TFN 12345678 " * 300 + "TFN 123456782", "123456782"),  # a copy is a prefix of the valid one
        ("se_personnummer", "personnummer 123456-1234 " * 5000 + f"personnummer {se}", se),
    ]
    for name, text, value in cases:
        assert FINDERS[name](text) == (text.rindex(value), text.rindex(value) + len(value)), name


# --------------------------------------------------------------------------- the registry


def test_registry_names_descriptions_and_examples() -> None:
    from primer_memory.policy.rules import DETECTORS

    names = [name for name, _, _, _ in WORLD_ID_DETECTORS]
    assert len(set(names)) == len(names)
    own_tests = {"gr_amka", "ru_snils", "ru_inn", "ua_rnokpp"}  # the test below
    own_tests |= {"ae_emirates_id"}  # round 6, tested in test_detect_voice_and_documents.py
    own_tests |= {"th_national_id", "hu_taj_or_tax_id"}  # round 7, tested in test_detect_round7.py
    own_tests |= {"cz_rodne_cislo", "id_nik"}  # round 8, tested in test_detect_round8.py
    own_tests |= {"es_dni", "it_codice_fiscale", "in_aadhaar", "br_cpf", "ca_sin", "fr_insee", "uk_nino"}  # the
    # first identifiers, tested with fake_values' generators in test_policy.py and test_identifier_properties.py
    assert set(names) == set(CASES) | own_tests
    assert set(names) <= {d.name for d in DETECTORS}  # every one is in the policy's registry
    for name, description, find, example in WORLD_ID_DETECTORS:
        assert re.fullmatch(r"[a-z]{2}_[a-z_]+", name), name
        assert find(example) is not None, name
        pieces = re.findall(r"[0-9A-Z]*[0-9]{3}[0-9A-Z]*", example)  # the value's groups of three digits or more
        assert pieces and not any(piece in description for piece in pieces), name
        assert find.__doc__, name


def test_greek_and_russian_numbers_need_their_check_and_their_name() -> None:
    """Round 3 additions: AMKA (Luhn), SNILS (weights 9..1 mod 101), INN (weights mod 11 mod 10)."""
    found = {"gr_amka": ["ΑΜΚΑ: 01019012341", "my AMKA is 01019012341."],
             "ru_snils": ["СНИЛС 112-233-445 95", "SNILS 11223344595"],
             "ru_inn": ["ИНН 7707083893", "INN 500100732259"], "ua_rnokpp": ["РНОКПП: 1234567899"]}
    missed = {"gr_amka": ["ΑΜΚΑ: 01019012342", "order 01019012341", "ΑΜΚΑ: 32139012341"],
              "ru_snils": ["СНИЛС 112-233-445 96", "ticket 112-233-445 95"],
              "ru_inn": ["ИНН 7707083894", "INN 500100732258", "invoice 7707083893"],
              "ua_rnokpp": ["РНОКПП: 1234567898", "order 1234567899"]}
    for name, texts in found.items():
        assert all(FINDERS[name](t) is not None for t in texts), name
    for name, texts in missed.items():
        assert [t for t in texts if FINDERS[name](t) is not None] == [], name
