"""checksums: python-stdnum judges identifiers; the few own checks left are listed, each with its reason."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from primer_memory.policy import checksums
from primer_memory.policy.checksums import OWN_CHECKS, OWN_VALIDATORS, STDNUM, UnknownKindError, valid

POLICY = Path(checksums.__file__).parent
# The moduli check digits are computed with (Luhn and EAN 10, mod 11 and 11-2, DNI 23, codice fiscale 26, HETU 31,
# ISO 7064 37 and 97, SNILS 101): a function taking one of them is computing a check digit of its own.
CHECK_MODULI = {10, 11, 23, 26, 31, 36, 37, 89, 97, 101}


def _functions_computing_check_digits() -> set[str]:
    found = set()
    for path in sorted(POLICY.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                    isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Mod) and isinstance(sub.right, ast.Constant)
                    and sub.right.value in CHECK_MODULI for sub in ast.walk(node)):
                found.add(f"{path.stem}.{node.name}")
    return found


def test_the_only_hand_written_checks_are_the_documented_ones() -> None:
    """Each own check is for a format python-stdnum 2.2 lacks (or a vectorised path held equal to it), and says so."""
    assert _functions_computing_check_digits() == set(OWN_CHECKS)
    for name, reason in OWN_CHECKS.items():
        assert "stdnum" in reason and len(reason) > 40, name
    for kind in OWN_VALIDATORS:
        assert kind not in STDNUM, kind  # an own check never shadows a format stdnum judges
    documented = (checksums.__doc__ or "").replace("\n", " ")
    for words in ("Singapore NRIC", "Russian SNILS", "Hungarian TAJ", "Australian Medicare", "Mexican CLABE",
                  "ICAO 9303", "BitLocker", "Swedish coordination"):
        assert words in documented, words


@pytest.mark.parametrize("kind", sorted(STDNUM))
def test_every_kind_names_a_python_stdnum_module(kind: str) -> None:
    module = checksums._module(kind)
    assert module.__name__ == "stdnum." + STDNUM[kind][0] and callable(module.is_valid)


def test_published_examples() -> None:
    """Examples from each scheme's own documentation, and the finer rules stdnum knows."""
    assert valid("gb_nhs", "943 476 5919") and not valid("gb_nhs", "943 476 5918")
    assert valid("de_idnr", "36 574 261 809") and not valid("de_idnr", "36 574 261 890")
    assert not valid("ca_sin", "046 454 286")  # Luhn-valid, but SINs starting with 0 are never issued
    assert valid("us_ssn", "078-05-1120")  # published by stdnum's list, refused all the same (see PUBLISHED_SSNS)
    assert [valid("sg_nric", v) for v in ("S1234567D", "T1234567J", "F1234567N", "G1234567X", "S1234567E")] == [
        True, True, True, True, False]
    assert valid("iban", "GB82 WEST 1234 5698 7654 32") and not valid("iban", "GB83 WEST 1234 5698 7654 32")
    # The UK NINO has no check digit: its letter rules are the check (HMRC never issues these prefixes and letters).
    assert valid("gb_nino", "AB 12 34 56 C") and valid("gb_nino", "ab123456c")
    assert not any(valid("gb_nino", v) for v in ("GB123456A", "NK123456A", "DA123456A", "AO123456A", "AB123456E",
                                                 "AB12345C", "AB1234567C"))
    with pytest.raises(UnknownKindError, match="add it to STDNUM"):
        valid("xx_nothing", "123")


def test_a_birth_date_after_the_fixed_latest_day_is_refused() -> None:
    """stdnum reads some dates only against today; the policy's verdicts must not change from day to day."""
    assert checksums.LATEST_BIRTH_DATE.year == 2030
    pesel_2100s = "0041011234"  # month 41: born in the 2100s
    assert not any(valid("pl_pesel", pesel_2100s + d) for d in "0123456789")


def test_importing_the_package_and_reviewing_plain_text_leaves_stdnum_unimported() -> None:
    """Issue 25 wants `import primer_memory` fast: stdnum (about 80 ms) is imported on the first candidate only."""
    code = ("import sys, primer_memory\nfrom primer_memory.policy import review\n"
            "review('The invoice from Globex was paid on Friday.')\n"
            "assert not [m for m in sys.modules if m.split('.')[0] == 'stdnum'], 'imported too early'\n"
            "review('NHS number 943 476 5919')\nassert 'stdnum.gb.nhs' in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True)
