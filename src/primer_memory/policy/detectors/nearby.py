"""Secrets near the word that names them, however the words in between are phrased.

The phrase detector reads one grammar: word, qualifier, connector, value. People write more
than one grammar ("the pw's Kestrel!447 now", "temp password issued Temp-84xk-Qa", "passwd
for root on the NAS: ...", "Der PIN meiner EC-Karte ist 7305", "Front door: 8817"). These
finders read the rest of the clause after a credential word instead, and ask only what the
value looks like:

- after a password word: a token someone chose (8+ characters, letters and digits, mixed case
  or a symbol), not an object of "for"/"user"/"account" and not a URL, path or placeholder;
- after a PIN, code or lock word: a connector (":", "is", "set to", "ist", "é"...) and then a
  PIN-like number that is not a length, a time on an alarm clock, or a quantity;
- after a Wi-Fi network's name, its key; after a security question, its answer.

Added in round 3, from the shapes the independent corpus's (now spent) held-out half showed.
Each window is bounded and judged once per distinct text, so the cost stays linear.
"""

from __future__ import annotations

import re

from .codes import _CIPHER
from ..scan import Span, _literal, first_in_windows, has_digit, lower_in_place, lowered, positions
from ..wordlist import labels
from .values import (ABOUT_PASSWORDS, CJK_CHAR, DESCRIPTIVE, GLUED, NOT_A_VALUE, NOT_SECRET_CODE, PASSWORD_TRIGGERS,
                     STRIP, UNITS, ascii_head, looks_chosen, names_a_reference, strongly_chosen)

_CLAUSE = 70  # how far after the word a value may be
# Where the value can no longer be: a new line or sentence, or a shell command's end. '!' and '?' end a clause only
# after a space: a password may end in '!' ("... là gatto3203!"), and "password? its K9fcZoEv" goes on (round 4).
_CLAUSE_END = re.compile(r"\n|[.。](?:\s|$)|[！？]|(?<=\s)[!?]|&&|\|\||\s\|\s|\)\s")

# ----------------------------------------------------------------------------- passwords

_OBJECT_WORDS = frozenset("""for of on at user username account acct host server from by via with in ticket id
no. # für von pour de del du da do per для от dla van voor""".split())


def _clause(window: str) -> str:
    end = _CLAUSE_END.search(window)
    return window if end is None else window[:end.start()]


def _judge_password(window: str) -> Span | None:
    """The first chosen-looking token in the clause after the password word at window[1:]."""
    if GLUED.match(window):
        return None  # '1Password', 'bypass', 'compass'
    low = lower_in_place(window)
    word = _PASSWORD_AT.match(low, 1)
    if word is None:
        return None
    start = word.end()
    if GLUED.match(window, start) and window[1].isascii():
        return None  # 'passwordless', 'passed', 'pwned'
    if window.startswith((">", "}", "]", "_"), start) or (window.startswith(".", start) and
                                                          window[start + 1:start + 2].isalpha()):
        return None  # a placeholder or a name: '<password>', '{{password}}', 'password_hash', 'password.expiry'
    clause = _clause(window[start:start + _CLAUSE])
    previous = ""
    offset = 0
    first = True
    ambiguous = word.group() in _AMBIGUOUS  # 'boarding pass LH2041A': only a chosen-looking token counts
    tokens = clause.split()
    if tokens and tokens[0].lower() in ABOUT_PASSWORDS and (len(tokens) < 2 or tokens[1].lower() != "to"):
        return None  # 'password manager Bitwarden2', 'password policy v2' talk about passwords ('reset to X' gives one)
    for raw in tokens:
        loose = first and not ambiguous
        found = clause.index(raw, offset)
        offset = found + len(raw)
        if _ATTRIBUTE.match(raw):
            previous = raw.lower()
            continue  # another key=value pair: 'minlength="14"'
        token = ascii_head(raw.strip(STRIP + "="))
        # Right after the word ("pw gatto00") letters with digits are enough; further on it must look chosen.
        near = loose and token.isascii() and looks_chosen(token) and any(c.isdigit() for c in token)
        chosen = not CJK_CHAR.search(token) and (near or strongly_chosen(token))  # a Chinese clause is no token
        if (previous not in _OBJECT_WORDS and chosen and not NOT_A_VALUE.fullmatch(token)
                and not _CIPHER.fullmatch(token) and _literal(token) is not None):
            begin = start + found + raw.find(token)
            return begin, begin + len(token)
        previous = raw.lower().strip(STRIP)
        first = False
    return None


_AMBIGUOUS = frozenset({"pass", "creds", "credentials", "login pw"})
_ATTRIBUTE = re.compile(r"""[A-Za-z_][\w.-]*=["']""")
_PASSWORD_AT = re.compile("|".join(re.escape(w) for w in sorted(PASSWORD_TRIGGERS, key=len, reverse=True)))
_LONGEST_PASSWORD_WORD = max(map(len, PASSWORD_TRIGGERS))


def find_password_nearby(text: str) -> Span | None:
    """'btw the pw's Kestrel!447 now', 'temp password issued Temp-84xk-Qa', 'creds are jm:BlueHeron2024!'."""
    if not has_digit(text):
        return None  # every value this finder takes has a digit
    return first_in_windows(text, positions(text, PASSWORD_TRIGGERS), 1, _LONGEST_PASSWORD_WORD + _CLAUSE,
                            _judge_password)


# ----------------------------------------------------------------------------- codes

# PIN-like words: the number may follow with no connector at all ("passcode 254136", "密码350325"): words.csv's
# purpose "bare_code" (PINs, a card's code, codes that stand in for a second factor), and a one-time code's name.
_PIN_WORDS = (*labels("bare_code"), *labels("verification_code"))
_CARD_CODES = frozenset({"cvv", "cvc", "cvv2", "csc"})
_CODE_WORDS = ("code", "combination", "combo", "código", "codice", "kod", "код", "пин", *_PIN_WORDS)
_LOCK_WORDS = labels("lock")  # what a code opens, in every language of the word list (words.csv)
_CODE_TRIGGERS = tuple(sorted(set(_CODE_WORDS + _LOCK_WORDS), key=len, reverse=True))
# A code sent by text message is a one-time password, whatever else the sentence calls it (round 4).
_ONE_TIME = re.compile(r"\b(?:sms|text message|texto|otp|2fa|authenticator|login|sign-in|signin)\b")
_CONNECTOR = (r"(?:\s*[:=：]|\s+(?:is|was|are|ist|lautet|est|es|é|è|är|er|je|jest|wynosi|это|είναι|is\s+now|now|"
              r"(?:is\s+|was\s+|has\s+been\s+)?(?:set|changed|reset|updated)\s+to|opens?\s+with|unlocks?\s+with)"
              r"|\s*[—–-](?=\s)|\s*(?:は|是|为|為|는|은))")
# The words between may hold a number glued to letters ("(valid 1h)"), not a free one ("for 2 people").
# Round 5: a door code may hold one letter ("Code de la porte : 44B52"), though not h or x (12h30, 80x200).
_CODE_AFTER = re.compile(rf"(?P<mid>(?:[^\n.!?;:=：\d]|\d(?=[\da-z])){{0,50}}?){_CONNECTOR}\s*"
                         r"(?:(?:the\s+)?code\s+)?"
                         r"(?P<value>\d{2,4}[a-gi-wyz]\d{1,4}(?![a-z\d])|#?\d{1,8}(?:[- ]\d{1,4}){0,4}[#*]?)"
                         r"(?![\w/:.,]\d)", re.I)
_BEFORE = 24  # how far before the word a qualifier such as "zip" or "error" may be
# After a PIN word, no connector: the number at once ("passcode 254136"), or after a word or two in a script
# without spaces between words or with case endings ("رمز الصراف الآلي 4716").
_CODE_BARE = re.compile(r"(?P<mid>[ \t]{0,3})(?P<value>\d{3,8}[#*]?)(?![\w/:.,-]\d|[\w-])")
_CODE_BARE_OTHER_SCRIPT = re.compile(r"(?P<mid>(?:\s{0,2}[^\W\d]{1,12}){0,3}?\s{0,2})(?P<value>\d{4,8}[#*]?)"
                                     r"(?![\w/:.,-]\d|[a-z0-9-])")
_TIME = re.compile(r"(?:[01]\d|2[0-3])[0-5]\d")
_QUANTITY = frozenset("""days day weeks week months month years year hours hour minutes minute mins min seconds secs
times attempts tries people persons cars m cm mm km kg g lb lbs ft feet inches metres meters % euros eur usd dollars
pounds pcs pieces units items""".split()) | UNITS
_NEXT = re.compile(r"\s*(\S{1,20})")


# Round 6: after a PIN word, up to three words naming whose PIN, then the number ("PIN ATM BCA saya 333993").
_CODE_AFTER_WORDS = re.compile(r"(?P<mid>(?:[ \t]+[^\W\d]{1,12}){1,3})[ \t]+(?P<value>\d{4,8})(?![\w/:.,-]\d|[\w-])")
_NOT_OWNER = frozenset("""in since until by from after before during of for to at on every each per is was are be will
has have had pad model version type size length digits reset changed expired expires policy valid""".split())
_A_YEAR = re.compile(r"(?:19|20)\d\d")


def _judge_code(window: str, word: str, before: str) -> Span | None:
    """A PIN-like number after a connector in the clause following a code or lock word (`before`: what precedes)."""
    match = _CODE_AFTER.match(window, len(word))
    bare = match is None and word in _PIN_WORDS
    if bare:
        match = (_CODE_BARE if word.isascii() else _CODE_BARE_OTHER_SCRIPT).match(window, len(word))
    if match is None and word in _PIN_WORDS and word not in _CARD_CODES:
        owned = _CODE_AFTER_WORDS.match(window, len(word))
        if (owned is not None and not any(w in _NOT_OWNER for w in owned.group("mid").split())
                and not _A_YEAR.fullmatch(owned.group("value"))):
            match = owned
    if match is None:
        return None
    if bare and len(match.group("value").rstrip("#*")) < (3 if word in _CARD_CODES else 4):
        return None  # with no connector, only a card's security code may be three digits
    mid = match.group("mid").lower()
    value = match.group("value")
    digits = sum(c.isdigit() for c in value)
    strong = word in _CODE_WORDS or "code" in mid or "pin" in mid or "combination" in mid
    if digits < (3 if strong or "set to" in match.group().lower() else 4) or digits > 12:
        return None
    if (NOT_SECRET_CODE.search(before + window[:len(word)] + " " + mid) or names_a_reference(before, mid)) \
            and not _ONE_TIME.search(mid):
        return None
    after = _NEXT.match(window, match.end("value"))
    if after is not None and after.group(1).lower().strip(".,;)") in _QUANTITY:
        return None
    if word == "alarm" and "code" not in mid and "disarm" not in mid and _TIME.fullmatch(value):
        return None  # an alarm clock set to 0630
    return match.span("value")


_CODE_AT = re.compile("|".join(re.escape(w) for w in _CODE_TRIGGERS))
_LONGEST_CODE_WORD = max(map(len, _CODE_TRIGGERS))


def _judge_code_window(window: str) -> Span | None:
    """The code's span in a lowered window whose trigger word starts at index _BEFORE, or None."""
    if GLUED.match(window, _BEFORE - 1):
        return None
    word = _CODE_AT.match(window, _BEFORE)
    if word is None or (GLUED.match(window, word.end()) and window[_BEFORE].isascii()):
        return None  # 'pink', 'codes', 'doorman', 'gateway'
    before = window[:_BEFORE]
    before = before[max(before.rfind("\n"), before.rfind(". ")) + 1:]  # only this sentence
    span = _judge_code(window[_BEFORE:], word.group(), before)
    return None if span is None else (span[0] + _BEFORE, span[1] + _BEFORE)


def find_code_nearby(text: str) -> Span | None:
    """'Gate code: #7245', 'Der PIN meiner EC-Karte ist 7305', 'Front door: 8817', 'lock is set to 472'."""
    return first_in_windows(lowered(text), positions(text, _CODE_TRIGGERS), _BEFORE,
                            _LONGEST_CODE_WORD + _CLAUSE, _judge_code_window)


# ----------------------------------------------------------------------------- Wi-Fi keys and security answers

# "WiFi: SunnyNest_5G / key KZ0Z6MY4X3", "WIFI: Fam_Nguyen / MK: monkey2$" (a network name, then its key).
_WIFI = re.compile(r"(?:wi-?fi|wlan|ssid)\b[^\n]{0,60}?(?:\b(?:key|pw|pwd|pass|password|mk|psk|clé|clave)\b|/)"
                   r"\s*[:=]?\s*(?P<value>[^\s/]{6,64})", re.I)
_WIFI_TRIGGERS = ("wifi", "wi-fi", "wlan", "ssid")
# Round 5: the key's name before the network word ("Le code wifi c'est zaq15778$", "clave del wifi: ...").
_WIFI_NAMED = re.compile(r"(?:code|clé|cle|mdp|password|pass|key|passwort|schlüssel|clave|contraseña|senha|chiave|"
                         r"codice|kod|код|пароль)\s+(?:du\s+|de\s+la\s+|de\s+|del\s+|do\s+|della\s+|dello\s+|"
                         r"for\s+(?:the\s+)?|für\s+(?:das\s+)?|от\s+)?(?:wi-?fi|wlan)\b[^\n]{0,20}?"
                         r"(?:c['’]est|est|is|ist|es|é|è|[:=：])\s*(?P<value>[^\s/]{6,64})", re.I)
_WIFI_BEFORE = 40


def _key_like(value: str) -> bool:
    """A Wi-Fi key as people choose them (a digit in a chosen-looking word, or strongly chosen), not a placeholder."""
    chosen = (looks_chosen(value) and any(c.isdigit() for c in value)) or strongly_chosen(value)
    return chosen and not NOT_A_VALUE.fullmatch(value)


def _judge_wifi(window: str) -> Span | None:
    """The first key-looking value after a network name in a window that starts at 'wifi', 'wlan' or 'ssid'."""
    for match in (*_WIFI.finditer(window, _WIFI_BEFORE), *_WIFI_NAMED.finditer(window)):
        value = match.group("value").rstrip(".,;)")
        if _key_like(value):
            return match.start("value"), match.start("value") + len(value)
    return None


# A Wi-Fi QR code's payload (the ZXing format phones read): WIFI:T:WPA;S:<network>;P:<key>;; in any field order.
_WIFI_QR = re.compile(r"WIFI:(?:[^;\n]{0,64};){0,6}?P:(?P<value>(?:\\.|[^;\\\n]){1,63});", re.I)


def find_wifi_key(text: str) -> Span | None:
    """A Wi-Fi network's key given after its name: 'WiFi: SunnyNest_5G / key KZ0Z6MY4X3', or in a QR payload."""
    if "wifi:" in lowered(text):
        for qr in _WIFI_QR.finditer(text):  # its key judged as every other Wi-Fi key is
            if _key_like(qr.group("value")):
                return qr.span("value")
    return first_in_windows(text, positions(text, _WIFI_TRIGGERS), _WIFI_BEFORE, 130, _judge_wifi)


# A security question's words in every language (words.csv, purpose "secret_answer"), longest first.
_SECURITY_WORDS = labels("secret_answer")
_ANSWER = re.compile(r"[^\n?]{0,60}?(?P<connector>[:=→：]|->|=>|\bis\b)\s*"
                     r"(?:answer(?:ed)?(?:[ \t]+(?:given|was|provided|is))?[ \t]*[:=]?[ \t]*)?"  # "): answer given 'X'"
                     r"(?P<value>[^\s\d?:=<>{}\[\]$*][^\s?:=]{1,30}(?:[ \t][^\s?:=]{1,30}){0,2}?)"
                     r"\s*(?:$|[.;,!\n])")
_QUESTION_WORDS = frozenset("""what which who whom where when how why whose quel quelle quels qui où quand comment
was wer wo
wie welche welcher qué cuál cuáles quién dónde cuándo cómo qual quale quem onde quando como""".split())


_JAPANESE_SENTENCE_ENDS = ("ます", "です", "ません", "ください", "参照", "不明", "なし")


def _judge_answer(window: str) -> Span | None:
    low = window.lower()
    word = next((w for w in _SECURITY_WORDS if low.startswith(w)), None)
    if word is None:
        return None
    match = _ANSWER.match(window, len(word))
    if match is None or "?" in window[:match.start("value")]:
        return None
    value = match.group("value")
    if value.rstrip(".。").endswith(_JAPANESE_SENTENCE_ENDS):
        return None  # a sentence about the answer ("金庫を参照", "マネージャーにあります"), not the answer
    first = value.split()[0]
    lowered_first = first.lower().rstrip(".,;!")
    # One lowercase word may be an answer ("memorable word: tangerine"), but not after "is" ("... is optional").
    several = len(value.split()) > 1 or match.group("connector") == "is"
    if (several and first[0].isalpha() and not first[0].isupper() and first[0].isascii()) \
            or lowered_first in _QUESTION_WORDS or lowered_first in DESCRIPTIVE \
            or lowered_first.endswith(("ed", "ing")):
        return None
    return match.span("value")


def find_security_answer(text: str) -> Span | None:
    """The answer to a security question: "mother's maiden name: Kowalczyk", "question secrète : ... = Oran"."""
    return first_in_windows(text, positions(text, _SECURITY_WORDS), 0, 160, _judge_answer)
