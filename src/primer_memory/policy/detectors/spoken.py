"""Numbers spoken as words: what a voice assistant's transcript makes of a PIN.

"remember my debit card pin is one two seven one" holds no digit, so every detector of numbers
passes it. This finder reads the words after a credential word ("pin", "code", "combination",
"social", "password", "digicode"...) and counts the number words in a row: "one two seven one",
"eighteen nineteen eight", "neuf quatre un trois", "o z one two six two six two c". Three or more
number words in one run, starting within a few words of the credential word in the same sentence,
make a secret. Fillers a speaker uses between digits ("then", "and", "dash", "star", a spelled
letter) do not break the run. After the run the sentence must end or go on with a linking word
("and", "please", "before"): a counted noun makes the numbers a quantity, so "the PIN is four
digits" is a length and "the combination of one two three factors" is no combination.
"""

from __future__ import annotations

import re

from ..checksums import luhn_valid
from .card_windows import card_issued
from .id_scan import has_shape
from ..scan import Span, first_in_windows, lower_in_place, positions
from .values import NOT_SECRET_CODE

_DIGIT_WORDS = frozenset("""
zero oh o nought nil one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred double triple
zéro un une deux trois quatre cinq sept huit neuf dix onze douze treize quatorze quinze seize vingt trente quarante
cinquante soixante cent
null eins zwei zwo drei vier fünf fuenf sechs sieben acht neun zehn elf zwölf zwanzig dreißig
cero uno dos tres cuatro cinco seis siete ocho nueve diez doce veinte
um dois duas três quatro sete oito nove dez vinte
due tre quattro cinque sei sette otto dieci venti
nul een twee drie vijf zes zeven negen tien
sifuri moja mbili tatu nne tano sita saba nane tisa kumi
""".split())
# Words a speaker puts between digits, and spelled letters; they neither count nor end a run.
_FILLERS = frozenset("""then and dash hyphen star hash pound key the letter et puis tiret étoile dièse la lettre
und dann stern raute strich y luego guion asterisco e depois traço poi""".split())
# What may follow a code read out: the sentence goes on to something else, or the speaker signs off.
_AFTER_RUN = frozenset("""and but so or for on at in to please ok okay thanks thank got it remember don't dont do not
never is was will that which if when before after next followed plus et ensuite mais pour merci und danach aber
für bitte danke y después pero para gracias e mas obrigado por dopo favore grazie en daarna maar voor dank""".split())
_TRIGGERS = ("pin", "code", "passcode", "password", "combination", "combo", "social", "ssn", "security number",
             "insurance number", "account number", "card number", "cvv", "digicode", "mot de passe", "passwort",
             "geheimzahl", "contraseña", "clave", "senha", "codice", "código", "codigo", "wachtwoord", "pincode",
             "unlock", "puk", "numéro de sécurité sociale", "sozialversicherungsnummer",
             "ya siri", "la siri", "nenosiri", "pini")  # round 8: Swahili's "(number) of secret", password, PIN
_WORD = re.compile(r"[^\W\d_]+|\d+|[#*]")
_REACH = 8  # words between the credential word and the first number word
_RUN = 3  # number words in a row that make a secret
_STOP = re.compile(r"(?<!\.)\.(?!\.)|[!?;\n]")  # the sentence ends (an ellipsis is a pause: "my pin is... two")


_BEFORE = 24  # how far before the credential word "error", "zip" or "area" may stand


def _judge(window: str) -> Span | None:
    """The run of spoken digits after the credential word at window[_BEFORE:], or None."""
    if window[_BEFORE - 1].isalnum():
        return None  # inside a longer word: 'spin', 'barcode'
    low = lower_in_place(window)
    before = low[:_BEFORE]
    if NOT_SECRET_CODE.search(before[max(before.rfind("\n"), before.rfind(". ")) + 1:]):
        return None  # "error code four oh four", "zip code ..."
    end = _STOP.search(low, _BEFORE)
    sentence = low[:end.start()] if end else low
    words = list(_WORD.finditer(sentence, _BEFORE))
    if not words:
        return None
    first = words[0].group()
    if not any(first == t or (t.startswith(first) and " " in t) for t in _TRIGGERS):
        return None  # 'pins', 'coder': the trigger must be a whole word
    count = 0
    start = end_at = -1
    for index, word in enumerate(words[1:], 1):
        text = word.group()
        is_digit = text in _DIGIT_WORDS or (len(text) == 1 and text.isdigit())  # "one", or a numeral read singly
        if is_digit and not (text in ("o", "oh", "un", "une", "uno", "una", "um", "uma", "een", "ein")
                             and count == 0 and not _next_is_digit_word(words, index)):
            if count == 0:
                if index > _REACH + 1:
                    return None
                start = word.start()
            count += 1
            end_at = word.end()
        elif count and text not in _FILLERS and "," in sentence[end_at:word.start()]:
            break  # a comma closes the run: "two, nine, zero, zero, I think"
        elif count and (text in _FILLERS or len(text) == 1):
            continue
        elif count:
            if text not in _AFTER_RUN:
                return None  # a counted noun follows: "one two three factors", "four digits"
            break
    return (start, end_at) if count >= _RUN else None


def _next_is_digit_word(words: list[re.Match[str]], index: int) -> bool:
    """'un', 'one', 'o' start a run only before another number word ('un ami' is a friend, not a digit)."""
    return index + 1 < len(words) and words[index + 1].group() in _DIGIT_WORDS


def find_spoken_digits(text: str) -> Span | None:
    """A PIN, code or number read out in words: 'my debit card pin is one two seven one'."""
    return first_in_windows(text, positions(text, _TRIGGERS), _BEFORE, 200, _judge)


# Round 8: digits dictated one at a time, the same separator between each ("2 . 2 . 2 . 1", "0 • 6 • 4 • 7").
# The pattern starts with a bare digit (so re skips ahead to digits) and a run starts only where no digit and
# separator come before it, so each run is read once, from its head; separators are compared afterwards.
_SEP_CHARS = ".•·*|/_-"  # what a dictated digit is followed by, besides a space ('-' last, for the classes below)
_SEP = f"[{_SEP_CHARS}]"
_GAP = f"[ {_SEP_CHARS}]{{1,3}}"  # a separator with the spaces around it
_DICTATED = re.compile(rf"\d(?<![\w{_SEP_CHARS}]\d)(?<!\d \d)(?<!\d{_SEP}\d)(?<!\d {_SEP}\d)(?<!\d{_SEP} \d)"
                       rf"(?<!\d {_SEP} \d)(?:{_GAP}\d)++(?![\w•·])")
_ONE_SEP = re.compile(rf" ?{_SEP} ?| ")
_NOT_DIGITS = str.maketrans("", "", " " + _SEP_CHARS)
_FOUR_DICTATED = re.compile(rf"\d{_GAP}\d{_GAP}\d{_GAP}\d")
# Four digits one at a time in the id scanners' shape (digits as 0; a bullet, star or bar as a space).
_DICTATED_SHAPES = tuple(b"0" + (sep + b"0") * 3 for sep in (b" ", b"  ", b"   ", b".", b"-", b"/", b"_", b". ", b" .",
                                                             b" . ", b"- ", b" -", b" - ", b"/ ", b" /", b" / ",
                                                             b"_ ", b" _", b" _ "))


def _one_separator(run: str) -> bool:
    """The same separator, of one of the allowed forms, between every two digits."""
    separators = set(re.split(r"\d", run)[1:-1])
    return len(separators) == 1 and _ONE_SEP.fullmatch(separators.pop()) is not None


_CODE_WORD = re.compile(r"\b(?:code|pin|locker|lock|safe|combination|combo|password|passcode|kod|código|codice|koden)"
                        r"\b|קוד|الرمز|暗証番号|密码|비밀번호")


def find_dictated_digits(text: str) -> Span | None:
    """Digits spelled out one by one with a separator: a card (13-19, Luhn-valid and issued) anywhere, a code of
    4-12 after what it opens ('locker: 0 • 6 • 4 • 7 • 9 • 1')."""
    if not (_FOUR_DICTATED.search(text) if len(text) < 4096 else has_shape(text, *_DICTATED_SHAPES)):
        return None  # no four digits dictated anywhere: one quick scan of a short text, substring searches in the
        # shared shape of a long one (a regex scan of a megabyte of digit groups would cost tens of milliseconds)
    for match in _DICTATED.finditer(text):
        run = match.group()
        if len(run) > 19 * 4 or not _one_separator(run):
            continue  # longer than any card, or digits with different separators between them: a list, a date
        digits = run.translate(_NOT_DIGITS)
        if 13 <= len(digits) <= 19 and luhn_valid(digits) and card_issued(digits):
            return match.span()
        if 4 <= len(digits) <= 12:
            before = text[max(0, match.start() - 40):match.start()].lower()
            if _CODE_WORD.search(before) and not NOT_SECRET_CODE.search(before):
                return match.span()
    return None
