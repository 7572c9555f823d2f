"""Passwords, PINs and codes stated in words, in about thirty languages.

A credential word ("password", "mot de passe", "hasło", "密码", "door code"...), an optional
qualifier ("for the NAS", "du wifi", "от почты"), a connector ("is", ":", "lautet", "は", or
nothing) and a value. Whether the value is a secret depends on how sure the sentence is:
after an English "is" or ":" any word that is not a description counts ("is swordfish" yes,
"is on the wiki" no); after a weaker connector, in another language, or with no connector
at all, only a value that looks chosen (letters with digits or symbols) counts. Codes, PINs
and combinations must be digits. Plain-word passwords in other languages are the known gap.
"""

from __future__ import annotations

import re

from ..scan import _QUOTED, _TRAILING, Span, _is_variable, _literal, check_places, next_word, positions
from .values import (CJK_WORDS, DESCRIPTIVE, NOT_A_VALUE, NUMERIC_WORDS, PASSWORD_WORDS_EN, PASSWORD_WORDS_OTHER, UNITS,
                     ascii_head, looks_chosen, names_a_reference)

# The credential words this finder reads come from values.py (the word list's password, passphrase and PIN names);
# a Japanese PIN's name is read as numeric too, though the word list files it under "password".
_CJK_NUMERIC = frozenset({"暗証番号"})

_ALL_LATIN = sorted(PASSWORD_WORDS_EN + PASSWORD_WORDS_OTHER + NUMERIC_WORDS, key=len, reverse=True)
_WORD_RE = ("(?:" + "|".join(re.escape(w) for w in _ALL_LATIN) + r")(?![\w])|(?:"
            + "|".join(re.escape(w) for w in CJK_WORDS) + ")")
_QUALIFIER = (r"(?:(?P<qual>\s+(?:for|of|on|at|to|für|zum|zur|vom|von|de|du|des|del|della|dello|do|da|dos|das|van|"
              r"voor|от|для|"
              r"dla|di|till|til|k|του|της|για|pour|para|per|pro|na|för|på|in|im|nel|nella|en|w|в|em|no)\s+[^\n:=,]{1,40}?"
              r"|\s+(?:i|we|you|she|he|they)\s+[\w ]{1,25}?"
              r"|\s+(?-i:[A-Z])[\w-]{1,20}(?=\s+(?:est|ist|es|é|è|är|er|je)\s)"  # a name: "mot de passe Gmail est"
              r"|\s+(?:שלי|الخاصة\s+بي)))?")
_STRONG = (r"\s*(?::|=|：|->|=>)|\s+(?:(?:is|was|has\s+been|will\s+be)\s+(?:now\s+)?(?:changed|set|reset|updated)\s+to"
           r"|is\s+now|will\s+be|becomes|is|was)(?=\s)|'s(?=\s)|’s(?=\s)")
_OTHER = (r"\s+(?:est|ist|lautet|es|é|è|je|jest|wynosi|это|to|—|–|-|c'est|c’est|är|er|on|είναι|هي|היא)(?=\s)"
          r"|\s*[—–](?=\s)|\s*,(?=\s)|\s*(?:は|是|为|為|는|은)")
_VALUE = r"""(?P<value>"[^"\n]{1,128}"|'[^'\n]{1,128}'|`[^`\n]{1,128}`|“[^”\n]{1,128}”|[^\s"'`“”]{1,128})"""
_PHRASE = re.compile(
    rf"(?P<word>{_WORD_RE}){_QUALIFIER}(?:(?P<strong>{_STRONG})|(?P<other>{_OTHER})|(?(qual)(?!)|(?=\s)))\s*{_VALUE}"
    r"(?:[ \t]+(?P<next>[^\s]{1,64}))?",
    re.I,
)
# No connector after a qualifier ("пароль от wifi Up6dELT7"): a short qualifier, and a value with a digit or symbol.
_PHRASE_LOOSE = re.compile(
    rf"(?P<word>{_WORD_RE})\s+(?:for|of|on|at|für|de|du|del|do|da|van|от|для|dla|di)\s+"
    r"(?!(?:is|est|ist|es|é|è|to|это)\s)\S{1,40}(?:\s+(?!(?:is|est|ist|es|é|è|to|это)\s)\S{1,40}){0,2}"
    r"\s+(?P<value>[^\s\"'`“”]{0,64}[\d!#$%&*+?@^~][^\s\"'`“”]{0,64})",
    re.I,
)
_NOT_AFTER = re.compile(r"[^\W\u3000-\u9fff\uff00-\uffef]")  # a Latin or Cyrillic word char: '1Password', 'bypass'
_NUMERIC_VALUE = re.compile(r"(?:(?:left|right|links|rechts)\s+|[lr]\s*)?\d{1,12}"
                            r"(?:[\s,/-]{1,3}(?:(?:left|right)\s+|[lr]\s*)?\d{1,12}){0,5}[#*]?",
                            re.I)
_TIME_WORDS = frozenset("in since until by from after before during of".split())


def _value_is_secret(raw: str, next_word: str) -> bool:
    """After an English 'is' or ':': a value (hunter2) or a description (on the wiki, required, 12 chars)."""
    value = _literal(raw)
    if value is None:
        return False
    if _QUOTED.match(raw):
        return True
    if next_word.lower().strip(".,;") in UNITS:
        return False
    lowered = value.lower()
    if lowered in DESCRIPTIVE:
        return False
    if value.isalpha() and value.islower() and lowered.endswith(("ed", "ing", "ly")):
        return False  # participles and adverbs: "stored", "expiring", "randomly generated"
    return True


def _numeric_span(text: str, start: int, strong: bool) -> Span | None:
    """A PIN, code or combination right at `start`: digits, maybe grouped, maybe ending in # or *."""
    match = _NUMERIC_VALUE.match(text, start)
    if match is None:
        return None
    digits = sum(c.isdigit() for c in match.group())
    if not (3 if strong else 4) <= digits <= 16:
        return None
    if next_word(text, match.end()).lower().strip(".,;") in UNITS:
        return None
    return match.span()


_TRIGGERS = tuple(sorted({w.lower() for w in _ALL_LATIN} | set(CJK_WORDS)))
_WORD_AT = re.compile(_WORD_RE, re.I)
_WINDOW = 400  # a match never reaches further than this from its credential word (every part is bounded)


def find_password_phrase(text: str) -> Span | None:
    """'my VPN password is hunter2', 'mot de passe : ...', 'パスワードは...です', 'door code 4711#'.

    Candidates are where a credential word occurs (str.find); each is judged once per distinct window
    of text, so long runs of the same words cost one judgement, not one per repeat.
    """
    judged: dict[tuple[bool, str, str], Span | None] = {}
    for pos in positions(text, _TRIGGERS):
        glued = pos > 0 and _NOT_AFTER.match(text, pos - 1) is not None
        window = text[pos:pos + _WINDOW]
        before = text[max(0, pos - _REFERENCE_BEFORE):pos]
        before = before[max(before.rfind("\n"), before.rfind(". ")) + 1:].lower()  # this sentence only
        key = (glued, window, before)
        if key not in judged:
            check_places(len(judged) + 1)
            judged[key] = _judge(window, glued, before)
        span = judged[key]
        if span is not None:
            return pos + span[0], pos + span[1]
    return None


# Words that mean "code" as much as "password" ("κωδικός", "clave"), and what, named right after them, makes them
# a public code: "ο κωδικός του μαθήματος" is a course code (round 7, from the sixth corpus's tune half).
_CODE_OR_PASSWORD = frozenset({"κωδικός", "clave", "kod", "kód", "код"})
_PUBLIC_THING = re.compile(r"\s+(?:\w+\s+){0,2}?(?:μαθήματος|μαθήματα|προϊόντος|παραγγελίας|curso|asignatura|"
                           r"producto|pedido|materia|przedmiotu|kursu|produktu|курса|товара|заказа)\b", re.I)


def _judge(window: str, glued: bool, before: str = "") -> Span | None:
    """The secret's span in `window`, which starts with a credential word (`before`: its sentence up to the word),
    or None."""
    word = _WORD_AT.match(window)
    if word is not None and word.group().lower() in _CODE_OR_PASSWORD and _PUBLIC_THING.match(window, word.end()):
        return None
    match = _PHRASE.match(window)
    if match is not None and not (glued and match.group("word")[0].isascii()):
        span = _judge_phrase(match, before)
        if span is not None:
            return span
    loose = _PHRASE_LOOSE.match(window)
    if loose is None or (glued and loose.group("word")[0].isascii()):
        return None
    if loose.group("word").lower() in NUMERIC_WORDS:  # "keypad code for the storeroom 282980": digits only
        if names_a_reference(before, window[loose.end("word"):loose.start("value")].lower()):
            return None  # "pin code for delivery 560034": a reference
        if window[:loose.start("value")].split()[-1].lower() in _TIME_WORDS:
            return None  # "the combination of factors in 2024"
        if window[:loose.start("value")].split()[-1].lower().strip("#.:") in _PLACES:
            return None  # "access code for room 2114 is on the board": the number names the room (round 7)
        return _numeric_span(window, loose.start("value"), False)
    value = ascii_head(loose.group("value").rstrip(_TRAILING))
    literal = _literal(value)
    if literal is not None and looks_chosen(literal) and not NOT_A_VALUE.fullmatch(literal):
        return loose.start("value"), loose.start("value") + len(value)
    # Round 6: a numeric password after a short qualifier ("senha do app do banco 727914"), unless the qualifier
    # names whose number it is ("password for user 100234" gives a user id).
    between = window[loose.end("word"):loose.start("value")].lower().split()
    if (literal is not None and literal.isdigit() and 6 <= len(literal) <= 12
            and not any(w.strip(".:#") in _NUMBERED for w in between)):
        return loose.start("value"), loose.start("value") + len(value)
    return None


_PLACES = frozenset("room floor apartment apt suite flat building office platform ticket order case invoice user account"
                    .split())
# Words after which a number identifies something rather than opening it.
_NUMBERED = frozenset("""user usuario usuário utilisateur benutzer account konto compte cuenta conta id ticket order
client cliente customer kunde number nummer numéro número no nr case invoice member""".split())


_REFERENCE_BEFORE = 24


def _judge_phrase(match: re.Match[str], before: str = "") -> Span | None:
    text = match.string
    word = match.group("word").lower()
    strong = match.group("strong") is not None
    if word in NUMERIC_WORDS or word in _CJK_NUMERIC:
        if names_a_reference(before, text[match.end("word"):match.start("value")].lower()):
            return None  # "Delivery pincode 560034", "codice della prenotazione 4821": a reference
        return _numeric_span(text, match.start("value"), strong)
    raw = match.group("value")
    if (match.group("strong") or "").strip() in (":", "=") and _is_variable(raw.rstrip(_TRAILING),
                                                                             word.replace(" ", "_")):
        return None  # "password = password" in code passes a variable
    quoted = _QUOTED.match(raw) is not None
    if not quoted and not strong and match.group("other") is None and any(c in raw for c in ",;|"):
        return None  # no connector, and cells: a table's header word above a row ("password\nbank,ana,****")
    value = raw if quoted else ascii_head(raw.rstrip(_TRAILING))
    literal = _literal(value)
    if literal is None or literal.startswith("//"):
        return None  # a placeholder, or the rest of a URL ("password at https://...")
    if quoted:
        secret = True
    elif word in PASSWORD_WORDS_EN and strong:
        secret = _value_is_secret(value, match.group("next") or "")
    else:
        secret = looks_chosen(literal) or (word in CJK_WORDS and literal.isdigit() and len(literal) >= 4) or (
            # digits only, in any language: 4+ after ':' or '=', 6+ after a word ('mot de passe est 482913')
            literal.isdigit() and len(literal) <= 12 and len(literal) >= (4 if strong else 6)
            and (match.group("next") or "").lower().strip(".,;") not in UNITS)
    return (match.start("value"), match.start("value") + len(value)) if secret else None
