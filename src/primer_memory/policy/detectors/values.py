"""What a credential's value looks like, and the words around it: what the password and code judges share.

The judges (phrases, nearby, context, loose, words, lines, codes, spoken) each read one grammar, but they ask the
same questions of the token after a credential word: does it look chosen (`looks_chosen`, or `strongly_chosen`
where the place alone is weak), is it no value at all (`NOT_A_VALUE`: a URL, an address, a path, a version, a
variable), and do the words before it make the number a reference (`names_a_reference`, `NOT_SECRET_CODE`) or the
sentence talk about passwords rather than give one (`ABOUT_PASSWORDS`, `DESCRIPTIVE`, `UNITS`). A credential's
names come from the word list (words.csv) and are split here as the judges read them.
"""

from __future__ import annotations

import re

from ..scan import _literal
from ..wordlist import labels

# A character of a script written without spaces between words (CJK ideographs, kana, hangul, full-width forms).
CJK_CHAR = re.compile(r"[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]")
GLUED = re.compile(r"[^\W\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]")  # a letter or digit right before/after
# What is trimmed from a token before it is judged: quotes, brackets and punctuation.
STRIP = "\"'`“”‘’«»()[]{}<>,;.:"
# Tokens that look chosen but are not values: addresses, paths, versions, references to variables.
NOT_A_VALUE = re.compile(r"""(?:[a-z][a-z0-9+.-]*://|www\.)\S*     # a URL
                             |[\w.+-]+@[\w-]+(?:\.[\w-]+)+          # an e-mail address
                             |\S*/\S*/\S*|\S*\\\S*                  # a path
                             |v?\d+(?:\.\d+)+\w*                    # a version
                             |\S*(?:\$\{|\$\(|\{\{|%[A-Z_]+%)\S*    # a reference to a variable
                             |@\S*|1password\S*                    # a host after '@', the password manager
                             """, re.I | re.X)


def ascii_head(value: str) -> str:
    """'M3!r3&UHです' -> 'M3!r3&UH': a value written straight into Japanese, Chinese or Korean ends at the script
    change ('Smørrebrød#5' stays whole: Latin letters with accents are part of a value)."""
    if value and value[0].isascii():
        cut = CJK_CHAR.search(value)
        if cut is not None:
            return value[:cut.start()]
    return value


# The symbols that make a value look chosen; the two tests differ by '_' and '=', each as its judges were built.
_CHOSEN_SYMBOLS = frozenset("!#$%&*+?@^~_")


def looks_chosen(value: str) -> bool:
    """A value someone picked as a secret: 6+ characters mixing letters with digits or symbols."""
    if len(value) < 6 or any(c.isspace() for c in value):
        return False
    letters = any(c.isalpha() for c in value)
    digits = any(c.isdigit() for c in value)
    symbols = any(c in _CHOSEN_SYMBOLS for c in value)
    return (letters and digits) or ((letters or digits) and symbols)


_STRONG_SYMBOLS = frozenset("!#$%&*+?@^~=")


def strongly_chosen(token: str) -> bool:
    """A password someone picked: 8-64 characters with letters and digits, and mixed case or a symbol."""
    if not 8 <= len(token) <= 64:
        return False
    letters = [c for c in token if c.isalpha()]
    if not letters or not any(c.isdigit() for c in token):
        return False
    mixed = any(c.isupper() for c in letters) and any(c.islower() for c in letters)
    return mixed or any(c in _STRONG_SYMBOLS for c in token)


# A password's and a passphrase's names in every language come from the series' word list (words.csv, purposes
# "password" and "passphrase"): English apart (after its strong "is" any word that is not a description is a
# value), then the others, then those in scripts written without spaces (matched with no word boundary).
_NAMES = labels("password") + labels("passphrase")
PASSWORD_WORDS_EN = labels("password", "en") + labels("passphrase", "en")
PASSWORD_WORDS_OTHER = tuple(w for w in _NAMES if w not in PASSWORD_WORDS_EN and not CJK_CHAR.search(w))
NUMERIC_WORDS = labels("pin_code")  # a PIN's or a door code's name (words.csv): its value is digits only
CJK_WORDS = tuple(w for w in _NAMES if CJK_CHAR.search(w))
# What password_nearby and password_followup start from: the names, and the usual abbreviations and misspellings.
_ABBREVIATIONS = ("pw", "pword", "p/w", "pswd", "psw", "passw", "pass", "creds", "credentials", "login pw",
                  "mdp", "kennwort", "pwd",
                  # and the usual misspellings
                  "pasword", "paswd", "passwrd", "paswrd", "psswd", "pssword", "passowrd", "pasword")
PASSWORD_TRIGGERS = tuple(sorted({w.lower() for w in PASSWORD_WORDS_EN + PASSWORD_WORDS_OTHER + _ABBREVIATIONS}
                                 | set(CJK_WORDS)))

# Words that describe a password rather than being one: "the password is on the wiki", "... is required".
DESCRIPTIVE = frozenset("""
a an the on in at by of for to from with without under inside behind into onto via per
not no never always still now also only just too very so quite really already usually
this that it its these those whatever what which who where when how why same different
new old strong weak long short secure insecure complex simple hard easy valid invalid
correct incorrect wrong right blank empty missing optional mandatory unknown known
case case-sensitive sensitive insensitive due available unavailable there here somewhere
personal shared unique temporary permanent automatic manual mine yours theirs ours his hers
being been be one your my our their his her see ask check call contact use found
bad good fine ok okay required needed expired changed set reset
kept stored saved hashed salted encrypted sent shown hidden masked managed rotated synced written typed entered
""".split())
# A number or word followed by one of these describes a length: "the PIN is 4 digits", "... is four characters long".
UNITS = frozenset("""characters character chars char digits digit letters letter symbols words long minimum min max
maximum zeichen stellen ziffern caractères caracteres chiffres dígitos caratteri cifre tekens cijfers znaków cyfr
символов цифр 文字 桁 位""".split())
# The word after a password word that makes the sentence talk about passwords: "password manager", "... policy".
ABOUT_PASSWORDS = frozenset("""manager managers policy policies reset resets rotation field fields hint hints strength
length requirement requirements rule rules expiry expiration change changes vault hash hashes hashing protected
protection prompt dialog form screen page box input generator complexity history age spray spraying leak leaks breach
breaches audit""".split())
# Words before the number that make it something other than a secret: "zip code: 10115", "area code 212".
NOT_SECRET_CODE = re.compile(r"\b(?:zip|postal|post|postcode|area|country|dialling|dialing|sort|swift|bic|iata|"
                             r"promo|promotion|discount|coupon|voucher|gift|product|item|sku|tracking|booking|"
                             r"confirmation|reference|order|invoice|error|status|exit|return|http|source|dress|"
                             r"qr|bar|color|colour|hex|country|language|tax|tariff|hs|airport|flight|seat|"
                             r"room number|floor number|platform|terminal|postleitzahl|código postal|codice postale|"
                             r"cap|kod pocztowy|индекс|boarding|departure|arrival|number of|since|until)\b")


# Words that make the number after a code word a reference (words.csv, purpose "reference"), when they qualify the
# code word itself: right before it ("Delivery pincode 560034", "booking code") or between it and the number
# ("codice della prenotazione è 4821", "código de seguimiento"). Earlier in the sentence they name another number
# ("reservation 3363706014, PIN 1346": the PIN is the booking's secret).
_REFERENCE = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in labels("reference") if not CJK_CHAR.search(w))
                        + r")\b|" + "|".join(re.escape(w) for w in labels("reference") if CJK_CHAR.search(w)))
_REFERENCE_LAST = re.compile(r"(?:" + _REFERENCE.pattern + r")[\s:#-]*$")


def names_a_reference(before: str, between: str) -> bool:
    """Whether a reference word (lower case) ends `before` (the sentence up to the code word) or stands in
    `between` (from the code word to its number) with no number of its own after it ("the PIN for reservation
    3363706014 is 1346": that reference has its number, and the PIN is still the secret)."""
    if _REFERENCE_LAST.search(before) is not None:
        return True
    found = _REFERENCE.search(between)
    return found is not None and not any(c.isdigit() for c in between[found.end():])


def chosen_value(token: str) -> bool:
    """A strongly chosen token that is a literal value (no placeholder, URL, path or variable)."""
    return strongly_chosen(token) and not NOT_A_VALUE.fullmatch(token) and _literal(token) is not None
