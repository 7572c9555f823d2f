"""The last resort: any value-like token soon after a password, PIN or code word.

Every other finder reads one grammar (a connector, a table, a question and its answer). On text
from each new author about one secret in five still slipped through, each in a phrasing of its
own. This finder asks less of the phrasing and more of the value: after a credential word, in the
same sentence (or on the next line when the word ends its line, as in a form or a question), the
first token that looks like a value (four or more digits that are no year, date, time or amount;
letters mixed with digits; six characters or more) is taken for the secret, unless a word before
it says what else it is ("order", "room", "ticket", "version", "zip code"...), or the sentence is
about passwords rather than giving one ("password policy", "PIN reset").
"""

from __future__ import annotations

import re

from .id_scan import has_shape
from ..scan import Span, _literal, first_in_windows, has_digit, lower_in_place, positions
from ..wordlist import labels
from .values import (CJK_WORDS, NOT_A_VALUE, NOT_SECRET_CODE, NUMERIC_WORDS, PASSWORD_WORDS_EN, PASSWORD_WORDS_OTHER,
                     names_a_reference)

_TRIGGERS = tuple(sorted({w.lower() for w in PASSWORD_WORDS_EN + PASSWORD_WORDS_OTHER + NUMERIC_WORDS}
                         | set(CJK_WORDS) | {"code", "passcode", "otp", "login", "credentials", "creds", "pin"}
                         # The word "code" in the languages the corpora are written in, and what locks a box:
                         | {"código", "codigo", "codice", "kod", "kód", "mã", "รหัส", "combinación", "combinazione",
                            "combinaison", "kombination", "abholcode", "zahlenschloss", "lockbox", "nenosiri",
                            # round 8: the code in Swedish and Hebrew, a locker, Swahili's "secret number",
                            # and the key a streaming site gives to broadcast as the channel
                            "koden", "קוד", "הקוד", "locker", "namba ya siri", "stream key", "streamkey"},
                         key=len, reverse=True))
_TRIGGER_AT = re.compile("|".join(re.escape(w) for w in _TRIGGERS))
# The word before the credential word that makes it another kind of code ("budget code", "course code").
_PUBLIC_CODE = frozenset("""budget cost project course class product promo coupon voucher discount tracking order
postal zip area country error status exit http booking reference ticket invoice colour color source
corso curso cours kurs μαθήματος asignatura materia""".split()) | {
    w for w in labels("reference") if " " not in w}  # and the word list's references in its languages (words.csv)
# The word before a value that says what else the value is.
_PUBLIC = frozenset("""order ticket invoice tracking ref reference booking case version model room flight seat gate
line page step chapter postcode zip ext extension tel phone fax build commit job run issue pr po sku item product
promo coupon voucher error status exit http area country postal course class project budget cost account user
username id no no. nr nr. number # bus train platform terminal floor unit suite apt apartment lot batch serial
part size level year years since until from to by in at on for as of rfc iso section""".split())
# Words right after the credential word that make the sentence about passwords, not one.
_ABOUT = frozenset("""policy policies reset resets manager managers requirement requirements rule rules length expiry
expires expired expiring change changes changed rotation rotated field fields hint strength must should required
optional prompt screen page form box generator complexity history audit leak leaks breach hash hashes hashing
protected protection sent postal postale pays país paese""".split())
_UNITS = frozenset("""bytes byte chars characters digits digit letters % percent days hours minutes weeks months
years times people mb kb gb ms s sec pcs pieces units items""".split())
_DATE_TIME_AMOUNT = re.compile(r"(?:19|20)\d\d|\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}|\d{1,2}[:h]\d\d(?::\d\d)?|"
                               r"[$€£¥]?\d{1,3}(?:[,.]\d{3})+(?:[,.]\d\d)?|\d+[.,]\d{1,2}[$€£¥]?|\+?\d[\d ()-]{9,}")
_SENTENCE_END = re.compile(r"[.!?。！？](?:\s|$)|;")
_STRIP = "\"'`“”‘’«»()[]{}<>,;:.!?"
_WORDS = re.compile(r"[^\W\d_]+")
_MASK = re.compile(r"[*•●x]{3,}|\.\.\.", re.I)
_REACH = 90
_BEFORE = 24


def _value_like(token: str) -> bool:
    """Four or more digits that are no year, date, time or amount; or letters and digits mixed, six or more."""
    if len(token) < 4 or len(token) > 64 or "=" in token or _MASK.search(token) or NOT_A_VALUE.fullmatch(token):
        return False
    if _literal(token) is None or "(" in token or any("\u2e80" <= c <= "\ufaff" for c in token):
        return False  # a run of CJK text with a digit in it is a sentence, not a value
    digits = sum(c.isdigit() for c in token)
    letters = sum(c.isalpha() for c in token)
    if digits >= 4 and letters == 0:
        return not _DATE_TIME_AMOUNT.fullmatch(token) and digits <= 12
    return digits > 0 and letters > 0 and len(token) >= 6


def _judge(window: str) -> Span | None:
    if window[_BEFORE - 1].isalnum() and window[_BEFORE - 1] not in "وبل":
        return None  # inside a longer word; Arabic writes "and", "with" and "for" joined to the next word
    low = lower_in_place(window)
    word = _TRIGGER_AT.match(low, _BEFORE)
    if word is None or (word.end() < len(low) and low[word.end()].isalnum() and word.group().isascii()):
        return None
    before = low[:_BEFORE]
    if _WORDS.findall(before)[-1:] and _WORDS.findall(before)[-1] in _PUBLIC_CODE:
        return None
    sentence = before[max(before.rfind("\n"), before.rfind(". ")) + 1:]
    if NOT_SECRET_CODE.search(sentence + " " + word.group()) or names_a_reference(sentence, ""):
        return None  # "zip code", "error code", "promo code", "track-and-trace code"
    rest = window[word.end():]
    line, _, below = rest.partition("\n")
    clause = line if line.strip() and not line.rstrip().endswith((":", "?")) else line + "\n" + below
    end = _SENTENCE_END.search(clause)
    clause = clause[:end.start()] if end else clause
    tokens = clause.split()
    if tokens and tokens[0].lower().strip(_STRIP) in _ABOUT:
        return None
    previous = ""
    offset = 0
    for index, raw in enumerate(tokens[:10]):
        found = clause.index(raw, offset)
        offset = found + len(raw)
        token = raw.strip(_STRIP)
        following = tokens[index + 1].lower().strip(_STRIP) if index + 1 < len(tokens) else ""
        if previous in _PUBLIC_CODE or raw.startswith(("<", "{", "${", "%(")):
            return None  # "the code of the course is ...", "password: <base64 here>" (a placeholder)
        if _value_like(token) and previous not in _PUBLIC and following not in _UNITS:
            start = word.end() + found + raw.find(token)
            return start, start + len(token)
        previous = raw.lower().strip(_STRIP)
    return None


# An app-specific password as Apple prints it, four groups of four lowercase letters: no digit, so named (round 8).
_APP_PASSWORD = re.compile(r"(?<![\w-])[a-z]{4}-[a-z]{4}-[a-z]{4}-[a-z]{4}(?![\w-])")


def _judge_app_password(window: str) -> Span | None:
    found = _APP_PASSWORD.search(window, _BEFORE)
    return None if found is None or found.start() - _BEFORE > 40 else found.span()


def find_loose_credential(text: str) -> Span | None:
    """A value-like token soon after a credential word, in whatever phrasing: 'PIN: the usual, 4471'."""
    if not has_digit(text):  # every value this finder takes has a digit, but for an app password's letter groups
        if "-" not in text or not has_shape(text, b"aaaa-aaaa-aaaa-aaaa"):
            return None  # a substring search in the id scanners' shared shape (letters as a), no regex scan
        return first_in_windows(text, positions(text, _TRIGGERS), _BEFORE, 120, _judge_app_password)
    return first_in_windows(text, positions(text, _TRIGGERS), _BEFORE, 120, _judge)
