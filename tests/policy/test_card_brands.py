"""Cards beyond the seven big networks, and cards written with dots or wrapped over two lines (issue 48, step 2).

Class covered: Luhn-valid numbers with each added network's prefixes (Mir, Maestro, RuPay, Elo), generated, in the
layouts people write them: grouped with spaces, with dots, compact, wrapped by a line break anywhere. Near misses:
the same with the Luhn digit wrong, decimals and version strings with dots, lists of years on separate lines.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from stdnum import luhn

from primer_memory.policy.rules import findings, review

PREFIXES = {"Mir": ["2200", "2204"], "Maestro": ["5018", "5020", "5038", "5893", "6304", "6759", "6763"],
            "RuPay": ["6072", "5081"], "Elo": ["5041", "5067", "5090", "6277", "6362"]}
ALL = [p for prefixes in PREFIXES.values() for p in prefixes]


def _card(prefix: str, body: str) -> str:
    head = (prefix + body)[:15]
    return head + luhn.calc_check_digit(head)


@settings(max_examples=80, deadline=None)
@given(prefix=st.sampled_from(ALL), body=st.text("0123456789", min_size=11, max_size=11),
       layout=st.sampled_from(["spaces", "dots", "compact", "wrapped", "wrapped groups"]), cut=st.integers(1, 15))
def test_a_card_of_an_added_network_in_any_layout_is_refused(prefix: str, body: str, layout: str, cut: int) -> None:
    number = _card(prefix, body)
    groups = [number[i:i + 4] for i in range(0, 16, 4)]
    shown = {"spaces": " ".join(groups), "dots": ".".join(groups), "compact": number,
             "wrapped": number[:cut] + "\n" + number[cut:], "wrapped groups": " ".join(groups[:3]) + "\n" + groups[3]}
    text = f"Pay with card {shown[layout]}, expiry 09/29."
    assert any(f.detector == "card_number" for f in findings(text)), text


@settings(max_examples=60, deadline=None)
@given(prefix=st.sampled_from(ALL), body=st.text("0123456789", min_size=11, max_size=11))
def test_the_same_numbers_with_a_wrong_check_digit_are_stored(prefix: str, body: str) -> None:
    number = _card(prefix, body)
    wrong = number[:-1] + str((int(number[-1]) + 1) % 10)
    for shown in (".".join(wrong[i:i + 4] for i in range(0, 16, 4)), wrong[:8] + "\n" + wrong[8:]):
        assert not any(f.detector == "card_number" for f in findings(f"Order {shown} shipped.")), shown


def test_dotted_decimals_versions_and_lists_of_years_are_stored() -> None:
    for text in ("Pi is 3.14159265358979 roughly.", "Upgrade to 10.4.2.1 then 2024.1.15.3 tonight.",
                 "Years:\n2019\n2020\n2021\n2022", "The total was 1.234.567.890,00 EUR."):
        assert review(text).verdict == "store", text



@settings(max_examples=60, deadline=None)
@given(body=st.text("0123456789", min_size=14, max_size=14), cut=st.integers(11, 28))
def test_card_valid_digits_inside_a_wrapped_iban_are_the_ibans(body: str, cut: int) -> None:
    """Class covered: a British Virgin Islands IBAN (four letters, then 16 digits) whose digits are a valid Visa
    number, grouped, with a line break cut anywhere after the bank code: the IBAN detector's, not a card."""
    from stdnum.iso7064 import mod_97_10

    check = luhn.calc_check_digit("4" + body)
    bban = f"VPVG4{body}{check}"
    iban = f"VG{98 - int(mod_97_10.checksum(bban + 'VG00')):02d}{bban}"
    written = " ".join(iban[i:i + 4] for i in range(0, len(iban), 4))
    cut = min(cut, len(written) - 2)
    text = f"IBAN: {written[:cut].rstrip()}\n{written[cut:].lstrip()}"  # the break replaces a space it falls on
    found = findings(text)
    assert any(f.detector == "iban" for f in found) and not any(f.detector == "card_number" for f in found), text
