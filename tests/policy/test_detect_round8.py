"""Round-8 detectors: Czech birth numbers, Indonesian NIKs, driving licences, base64-encoded passwords, digits
dictated one at a time, seed phrases named in other languages, IBANs wrapped over a line, and the loose finder's
new words.

Every text here was written for the test from the published formats (the Czech mod-11 rule, the NIK's layout,
the Luhn and mod-97 checks) or from the shape of a phrasing, not copied from a corpus; each positive has near
misses.
"""

from __future__ import annotations

import base64
import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory.policy.detectors.card_windows import luhn_valid
from stdnum import iban as stdnum_iban

from primer_memory.policy.checksums import complete, valid
from primer_memory.policy.rules import DETECTORS, findings, review

BY_NAME = {d.name: d for d in DETECTORS}


def _rodne_cislo(yymmdd: str, serial: str) -> str:
    """A ten-digit birth number stdnum.cz.rc takes: the digit that completes the first nine."""
    number = complete("cz_rc", yymmdd + serial)
    assert number is not None, yymmdd + serial
    return f"{yymmdd}/{number[6:]}"


def iban_complete(country: str, bban: str) -> str:
    """An IBAN whose check digits stdnum.iban computes."""
    return country + stdnum_iban.calc_check_digits(country + "00" + bban) + bban


def _luhn_complete(body: str) -> str:
    return next(body + d for d in string.digits if luhn_valid(body + d))


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


FIRES = {
    "cz_rodne_cislo": [f"rodné číslo {_rodne_cislo('855412', '123')}", f"RČ: {_rodne_cislo('040315', '456')}",
                       f"birth number {_rodne_cislo('911130', '007').replace('/', '')}"],
    "id_nik": ["NIK 3174054506900002", "e-KTP atas nama Sari, nomor induk kependudukan 3273012101880005"],
    "driving_licence": ["CA driver license V4788754", "Führerschein Nr. B072RRE2I55", "driving licence MORGA753116SM9IJ"],
    "encoded_password": [f"password_b64: {_b64('Sommer2026!')}", f'"db_pass_base64": "{_b64("kX9#mm2q")}"',
                         f"SECRET_B64={_b64('correct horse')}"],
    "dictated_digits": ["card: 4 . 1 . 1 . 1 . 1 . 1 . 1 . 1 . 1 . 1 . 1 . 1 . 1 . 1 . 1 . 1",
                        "the locker code 3 • 1 • 4 • 1 • 5", "safe: 7-2-9-0-4-4", "kod 1 / 9 / 7 / 3"],
    "spoken_digits": ["card number is 5 5 5 5 4 4 4 4 3 3 3 3 1 1 1 1, expiry next year",
                      "namba yangu ya siri ni moja tatu nane tisa"],
    "recovery_secret": ["Frase semilla: " + " ".join(["lemon", "orbit", "harbor", "velvet", "saddle", "napkin",
                                                     "jungle", "kettle", "marble", "pepper", "ribbon", "walnut"]),
                        "cüzdan kurtarma kelimeleri: " + " ".join(["acoustic", "bamboo", "canvas", "desert", "elbow",
                                                                  "filter", "garlic", "harbor", "idle", "jungle",
                                                                  "kettle", "lemon"])],
    "iban": [f"IBAN:\n{iban_complete('DE', '370400440532013000')[:10]}\n{iban_complete('DE', '370400440532013000')[10:]}"],
    "loose_credential": ["koden till källaren är 5521", "הקוד לשער 4412#", "stream key live-8f3k-29dm-q7pz",
                         "アプリ用パスワード abcd-wxyz-mnop-qrst"],
}

HARMLESS = [
    # identifiers with no name, or a wrong check
    "faktura 855412/1233 splatná do pátku", f"rodné číslo {_rodne_cislo('855412', '123')[:-1]}9"
    if not _rodne_cislo('855412', '123').endswith("9") else "rodné číslo 855412/1238",
    "rodné číslo vyplní úřad", "nomor pesanan 3174054506900002", "NIK belum diisi di formulir",
    "driver license renewal is due in 2027", "DL 1234 to Atlanta boards at gate 7", "license plate 7ABC123",
    # encoded values that are no password
    "password_b64: <base64 here>", "password_b64 is the name of the field", "token_b64: ${TOKEN_B64}",
    # digits with separators that open nothing
    "step 1 . 2 . 3 done", "the match ended 3 - 1 - 2 - 0", "version 2 . 4 . 1 . 7 ships today",
    "card: 4 . 1 . 1 . 1 . 1 . 1 . 1 . 1 . 1 . 1 . 1 . 1 . 1 . 1 . 1 . 2",
    # words with no value
    "stream key: regenerate it in the dashboard", "koden till porten står på lappen", "הקוד נשלח אליך במייל",
    "アプリ用パスワードは設定画面で作成できます", "Frase semilla: guárdala en papel, nunca en la nube.",
    "see RFC 7617 for how the password is encoded in Basic auth", "namba ya siri ina tarakimu nne",
]


def _base58(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz") for _ in range(n))


@pytest.mark.parametrize(("name", "text"), [(n, t) for n, ts in FIRES.items() for t in ts])
def test_round_8_detector_finds_its_shape(name: str, text: str) -> None:
    assert BY_NAME[name].find(text) is not None, text
    assert review(text).verdict == "refuse"


@pytest.mark.parametrize("text", HARMLESS)
def test_round_8_near_misses_are_stored(text: str) -> None:
    decision = review(text)
    assert decision.verdict != "refuse", (text, decision.detector)


def test_a_public_ledger_transaction_id_is_no_token_but_the_same_shape_unlabelled_is() -> None:
    value = _base58(random.Random(8), 88)
    assert review(f"tx signature {value} confirmed").verdict != "refuse"
    assert review(f"transaction hash: {value}").verdict != "refuse"
    assert review(f"wallet key {value}").verdict == "refuse"


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.integers(54, 99), st.integers(0, 20)), st.integers(1, 12), st.integers(1, 28), st.booleans(),
       st.integers(0, 999), st.integers(1, 9))
def test_a_birth_number_is_found_only_while_its_check_holds(yy: int, month: int, day: int, woman: bool,
                                                            serial: int, shift: int) -> None:
    """Ten-digit birth numbers (issued from 1954; yy 00-20 read as 2000-2020), completed by stdnum.cz.rc."""
    number = _rodne_cislo(f"{yy:02d}{month + 50 * woman:02d}{day:02d}", f"{serial:03d}")
    assert BY_NAME["cz_rodne_cislo"].find(f"rodné číslo {number}") is not None
    wrong = number[:-1] + str((int(number[-1]) + shift) % 10)
    if not valid("cz_rc", wrong):
        assert BY_NAME["cz_rodne_cislo"].find(f"rodné číslo {wrong}") is None
    assert BY_NAME["cz_rodne_cislo"].find(f"faktura {number}") is None  # named, or nothing


# The provinces stdnum.id.nik's table lists (a NIK has no check digit: its place and birth date are what is judged).
_NIK_PROVINCES = [11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 31, 32, 33, 34, 35, 36, 51, 52, 53, 61, 62, 63, 64, 71, 72,
                  73, 74, 75, 76, 81, 82, 91, 94]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(_NIK_PROVINCES), st.integers(1, 99), st.integers(1, 28), st.integers(1, 12), st.integers(0, 99),
       st.booleans(), st.integers(1, 9999))
def test_a_nik_is_found_when_named_and_its_birth_date_is_real(region: int, district: int, day: int, month: int,
                                                             yy: int, woman: bool, serial: int) -> None:
    nik = f"{region:02d}{district:02d}{district:02d}{day + 40 * woman:02d}{month:02d}{yy:02d}{serial:04d}"
    assert BY_NAME["id_nik"].find(f"NIK {nik}") is not None
    assert BY_NAME["id_nik"].find(f"pesanan {nik}") is None
    bad_month = nik[:8] + "13" + nik[10:]
    assert BY_NAME["id_nik"].find(f"NIK {bad_month}") is None


@settings(max_examples=200, deadline=None)
@given(st.integers(10**13, 10**14 - 1), st.sampled_from([" ", " . ", "-", " • ", ".", " / "]), st.integers(1, 9))
def test_a_dictated_card_is_found_only_while_luhn_holds(body: int, sep: str, shift: int) -> None:
    number = _luhn_complete("4" + str(body))
    assert BY_NAME["dictated_digits"].find("card " + sep.join(number)) is not None
    wrong = number[:-1] + str((int(number[-1]) + shift) % 10)
    assert BY_NAME["dictated_digits"].find("ref " + sep.join(wrong)) is None


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=string.ascii_letters, min_size=3, max_size=20), st.integers(0, 9999),
       st.text(alphabet="!#%&*+-.?@^_~", max_size=3),
       st.sampled_from(["password_b64", "DB_PASSWORD_BASE64", "secret.b64", "token-base64"]))
def test_any_base64_encoded_password_is_found_and_its_span_decodes_back(letters: str, number: int, symbols: str,
                                                                       key: str) -> None:
    password = f"{letters}{number}{symbols}"  # a chosen password: letters and digits, maybe symbols
    text = f"{key}: {_b64(password)}"
    span = BY_NAME["encoded_password"].find(text)
    assert span is not None and base64.b64decode(text[span[0]:span[1]]).decode() == password


@settings(max_examples=200, deadline=None)
@given(st.integers(10**17, 10**18 - 1), st.integers(5, 21), st.integers(1, 96))
def test_an_iban_wrapped_anywhere_is_found_only_while_mod_97_holds(account: int, cut: int, other: int) -> None:
    iban = iban_complete("DE", str(account))
    assert BY_NAME["iban"].find(f"{iban[:cut]}\n{iban[cut:]}") is not None
    wrong = iban[:2] + f"{(int(iban[2:4]) + other) % 97 + 2:02d}"[-2:] + iban[4:]
    if wrong[2:4] != iban[2:4]:
        assert BY_NAME["iban"].find(f"{wrong[:cut]}\n{wrong[cut:]}") is None


def test_a_dictated_run_is_read_from_its_head_once() -> None:
    """A megabyte of one digit and one separator is one run, far too long for a card or code: nothing found."""
    for sep in (" ", " . ", "-", " • "):
        assert BY_NAME["dictated_digits"].find(("4" + sep) * 200_000) is None


def test_findings_name_one_detector_per_round_8_value() -> None:
    assert [f.detector for f in findings("rodné číslo " + _rodne_cislo("855412", "123"))] == ["cz_rodne_cislo"]
    assert [f.detector for f in findings("password_b64: " + _b64("hunter22"))] == ["encoded_password"]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=string.printable + "čřžйךקוד•·", max_size=400))
def test_round_8_finders_return_a_span_inside_the_text(text: str) -> None:
    for name in ("cz_rodne_cislo", "id_nik", "driving_licence", "encoded_password", "dictated_digits",
                 "loose_credential", "iban"):
        span = BY_NAME[name].find(text)
        assert span is None or 0 <= span[0] < span[1] <= len(text)
