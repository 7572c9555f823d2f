"""Health insurance identifiers: the numbers on an insurance card that let someone bill or claim as you.

- A Medicare Beneficiary Identifier (MBI), by the layout CMS publishes: 11 characters where each
  position is a digit, a letter or either, the letters excluding S, L, O, I, B and Z; printed in
  groups 4-3-4 ("1EG4-TE5-MK73"). Dashed, the layout alone is enough; undashed, "Medicare" or "MBI"
  must be near.
- A member or subscriber ID after its label, with an insurer or health-plan word near it
  ("Insurance card - Member ID: WRH447136217 Group: 067708"): a gym's member number is not one.
"""

from __future__ import annotations

import re

from ..scan import Span, first_in_windows, has_upper, lowered, positions
from ..wordlist import labels

_L = "[AC-HJKMNP-RT-Y]"  # the letters an MBI may use
_AN = "[AC-HJKMNP-RT-Y0-9]"
_MBI_DASHED = re.compile(rf"(?<![A-Za-z0-9-])[1-9]{_L}{_AN}\d-{_L}{_AN}\d-{_L}{{2}}\d\d(?![A-Za-z0-9-])")
_MBI_PLAIN = re.compile(rf"(?<![A-Za-z0-9-])[1-9]{_L}{_AN}\d{_L}{_AN}\d{_L}{{2}}\d\d(?![A-Za-z0-9-])")
_MBI_WORDS = ("medicare", "mbi")


def find_medicare_mbi(text: str) -> Span | None:
    """A Medicare Beneficiary Identifier: '1EG4-TE5-MK73', or 1EG4TE5MK73 with 'Medicare' or 'MBI' near it."""
    if not has_upper(text):
        return None
    match = _MBI_DASHED.search(text) if "-" in text else None
    if match is not None:
        return match.span()
    if not any(word in lowered(text) for word in _MBI_WORDS):
        return None
    return first_in_windows(text, positions(text, _MBI_WORDS), 0, 60,
                            lambda window: (m.span() if (m := _MBI_PLAIN.search(window)) else None))


# The word before a member number (words.csv, purpose "member_id"), then what names the number.
_MEMBER_WORDS = labels("member_id")
_MEMBER_LABEL = re.compile("(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s*") for w in _MEMBER_WORDS) + ")"
                           r"[ \t-]*(?:id|number|no\.?|nr\.?|#|nummer|numéro|número)[ \t]*[:#]?[ \t]*"
                           r"(?P<value>[A-Za-z0-9][A-Za-z0-9-]{5,19})(?![A-Za-z0-9-])", re.I)
_HEALTH = re.compile(r"insurance|insurer|health|medical|dental|vision|medicare|medicaid|bcbs|blue\s+cross|"
                     r"blue\s+shield|aetna|cigna|humana|united\s*health|kaiser|anthem|krankenkasse|krankenversicher|"
                     r"versicherung|mutuelle|assurance\s+maladie|seguro|salud|saúde|\bplan\b|\bgroup\b|\brx\b|"
                     r"payer|copay|\bhmo\b|\bppo\b|\baok\b|\btk\b|\bnhs\b", re.I)
_REACH = 80


def _judge_member(window: str) -> Span | None:
    match = _MEMBER_LABEL.match(window, _REACH)
    if match is None:
        return None
    value = match.group("value")
    if sum(c.isdigit() for c in value) < 5 or not _HEALTH.search(window):
        return None
    return match.span("value")


def find_insurance_member_id(text: str) -> Span | None:
    """A health plan's member or subscriber ID after its label, an insurer named near it."""
    return first_in_windows(text, positions(text, _MEMBER_WORDS), _REACH, 160, _judge_member)
