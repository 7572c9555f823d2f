"""Redirects as a class: a sentence that sends data or money somewhere, or changes where it goes.

Two forms, in every language of the word list (wordlist.py):

1. a verb that moves data or money (its purpose `move`: send, forward, pay, wire, überweisen, przelać, переслать,
   转发...), in any inflection ("are forwarded to", "wird überwiesen"), near a target it names: an e-mail address,
   a link, an IBAN that passes its check, or a bank account written another way (ACCOUNTS);
2. a change of payee: a `change` word (change, update, new, ändern, nowy...) near a `payee` word (payee, bank
   details, Bankverbindung, numer konta, 收款人...), not negated.

provenance.py holds a redirect from the user for `confirm` and refuses one from anywhere else. The check reads the
normalised view too (normalise.py), as the instruction check does.
"""

from __future__ import annotations

import functools
import re

from .detectors.numbers import iban_valid
from .scan import Span, lowered
from .wordlist import Words, holds_verb, marks, may_mark, sentences, words

__all__ = ["ACCOUNTS", "TARGET", "addresses", "find_redirect_class", "targets"]

TARGET = re.compile(
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
    r"|\b(?:https?|ftp)://\S+|\bwww\.[\w-]+\.\S+"
    r"|\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,4})?\b"
)
"""Where data or money could go: an e-mail address, a link, an IBAN (checked by its mod-97 in `targets`)."""
ACCOUNTS: tuple[re.Pattern[str], ...] = (
    re.compile(r"\b\d{2}[- ]\d{2}[- ]\d{2}\D{1,30}?\b\d{6,10}\b"),  # UK sort code, then an account number
    re.compile(r"\b\d{3}-\d{3}\D{1,30}?\b\d{6,10}\b"),  # Australian BSB, then an account number
    re.compile(r"\b\d{9}\D{1,30}?\b\d{6,17}\b"),  # a US routing number, then an account number
    re.compile(r"\b\d{5}[- ]\d{3}\D{1,30}?\b\d{7,12}\b"),  # a Canadian transit and institution, then an account
    re.compile(r"\b\d{8}\D{1,3}\d{10}\b"),  # a German BLZ and account; a Brazilian agência/conta reads alike
)
"""Bank accounts written without an IBAN: a branch code and an account number near each other, counted only after
a bank word (`payee` words of the list, or _ACCOUNT_WORDS). One place, which the identifier catalogue's account
finder (issue 48) replaces."""
_ACCOUNT_WORDS = re.compile(r"\b(?:bsb|aba|acct|a/c|transit|agência|agencia|conta|account|sort)\b", re.I)
_NEGATED = re.compile(r"\b(?:never|don't|do\s+not|not|nie|nicht|jamais|nunca|mai|niet|inte|ikke|не|nigdy)\b"
                      r"[^.\n]{0,20}$", re.I)


@functools.lru_cache(maxsize=4)
def addresses(text: str) -> tuple[tuple[int, int], ...]:
    """The spans of the e-mail addresses, links and valid IBANs in `text`. Cached, as scan.lowered() is: the phrase
    list (provenance.py) and the class (targets()) both read them for the same text."""
    found = []
    for match in TARGET.finditer(text):
        value = match.group()
        if value[:2].isalpha() and value[:2].isupper() and "@" not in value and not iban_valid(value):
            continue  # an IBAN-shaped code that fails its check is an order or tracking number
        found.append(match.span())
    return tuple(found)


def targets(text: str) -> list[tuple[int, int]]:
    """The spans of every place data or money could go: addresses, links, valid IBANs, accounts."""
    found = list(addresses(text))
    low, w = lowered(text), words()
    for pattern in ACCOUNTS:
        for match in pattern.finditer(text):
            before = low[max(0, match.start() - 40): match.end()]
            if _ACCOUNT_WORDS.search(before) or any(m.purpose == "payee" for m in marks(before, w)):
                found.append(match.span())
    return sorted(found)


def _payee_change(low: str, w: Words) -> Span | None:
    """A change word near a payee word in one sentence (each distinct sentence read once), not negated just
    before."""
    if not may_mark(low, "payee", w):
        return None  # no payee word anywhere: no sentence to read
    for start, end in sentences(low):
        found = _payee_in(low[start:end], w)
        if found is not None:
            return found[0] + start, found[1] + start
    return None


def _payee_in(low: str, w: Words) -> Span | None:
    for payee in (m for m in marks(low, w) if m.purpose == "payee"):
        changes = holds_verb(low[max(0, payee.start - 40): payee.end + 40], "change", w)
        if changes and not _NEGATED.search(low[max(0, payee.start - 40): payee.start]):
            return payee.start, payee.end
    return None


def find_redirect_class(text: str) -> Span | None:
    """The first target a move verb points at, or the first payee a sentence changes; None if neither."""
    w = words()
    low = lowered(text)
    for start, end in targets(text):
        if holds_verb(low[max(0, start - 80): end + 40], "move", w):
            return start, end
    return _payee_change(low, w)

