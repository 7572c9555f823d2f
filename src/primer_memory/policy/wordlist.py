"""The series' one multilingual word list (`words.csv`: word, language, purpose), compiled for the checks.

The instruction check (instructions.py) and the redirect check (redirects.py) read it, and so do the detectors: each
row says what its word is for, and a label purpose (LABELS: a credential's names, reference words, possessives) is
read as written with `labels()`, as trigger words, by the detectors and by the registry's `{purpose}` keywords. Marker words (a standing order, a politeness word, the agent, a modal, "you", a chat role, a payee) are
found by their tokens, or as written in scripts that do not space their words. Verbs (an agent's actions, what
moves data or money, what changes a payee) are matched by Snowball stem in their language, so one row covers
every inflection; English orders take the bare form only.
"""

from __future__ import annotations

import csv
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.resources import files

__all__ = ["AS_WRITTEN", "BARE", "LABELS", "LABEL_LANGUAGES", "LANGUAGES", "MARKERS", "Mark", "PURPOSES",
           "SENTENCE", "TOKEN", "VERBS", "VERB_LAST", "Words", "WordsError", "holds_verb", "is_verb", "labels",
           "load_rows", "marks", "may_mark", "sentences", "verb_phrase", "words"]

LANGUAGES = {"en": "english", "de": "german", "fr": "french", "es": "spanish", "it": "italian", "pt": "portuguese",
             "nl": "dutch", "sv": "swedish", "da": "danish", "no": "norwegian", "fi": "finnish", "pl": "polish",
             "ru": "russian", "tr": "turkish", "id": "indonesian", "ar": "arabic", "hi": "hindi", "zh": None,
             "ja": None}
"""The languages of the word list, each with its Snowball stemmer (None: no stemmer, words matched as written)."""
VERBS = ("action", "move", "change")
"""Purposes whose words are verbs, matched by stem: an agent's actions; what moves data or money; what changes."""
MARKERS = ("standing", "politeness", "agent", "obligation", "you", "role", "payee")
LABELS = ("password", "passphrase", "pin_code", "verification_code", "key_name", "recovery_words", "secret_answer",
          "lock", "passport", "reference", "mine", "bare_code", "identity_document", "driving_licence", "member_id")
"""Purposes the detectors read (`labels`), never markers: a credential's names, the words that make a number a
reference rather than a secret, and the first-person possessives ('my password')."""
PURPOSES = VERBS + MARKERS + LABELS
LABEL_LANGUAGES = frozenset(LANGUAGES) | frozenset(
    "el he cs sk hu ro hr sl sr bg lt lv et ms vi th bn fa ko uk".split())
"""The languages a label may be written in: the word list's, and others a credential is often named in (a label
is matched as written, never stemmed, so it needs no stemmer)."""
AS_WRITTEN = frozenset({"zh", "ja", "ar", "hi"})
"""Scripts whose verbs are found anywhere in the sentence, as written (no spaces, or verbs in phrases)."""
VERB_LAST = frozenset({"tr", "hi", "ja"})
"""Languages whose imperative ends the sentence."""
BARE = frozenset({"en"})
"""Languages whose imperative is the verb's bare form, so an inflected form ("changes", "sharing") is a noun or a
gerund, not an order: only the listed forms count there (is_verb(..., bare=True))."""

_HEADER = ["word", "language", "purpose"]
_UNSPACED = frozenset({"zh", "ja", "hi"})
SENTENCE = re.compile(r"[^.!?。！？\n]+")
TOKEN = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")


class WordsError(ValueError):
    """The word list is malformed: a bad header, an unknown language or purpose, a word twice."""


@dataclass(frozen=True)
class VerbSet:
    """One verb purpose compiled: stems by language, the listed forms, long stems as prefixes, the rest as written."""

    stems: dict[str, frozenset[str]]
    forms: dict[str, frozenset[str]]
    prefixes: dict[str, tuple[str, ...]]
    written: re.Pattern[str]
    phrases: frozenset[tuple[str, ...]]


@dataclass(frozen=True)
class Words:
    """The word list compiled: marker words by their tokens, unspaced scripts' markers as patterns, verb sets."""

    spaced: dict[tuple[str, ...], tuple[tuple[str, frozenset[str]], ...]]  # tokens -> (purpose, languages)
    longest: int
    unspaced: dict[str, re.Pattern[str]]  # purpose -> pattern for Chinese, Japanese and Hindi markers
    unspaced_languages: dict[str, str]  # such a marker -> its language
    verbs: dict[str, VerbSet]
    heads: dict[str, tuple[str, ...]]  # purpose -> the first token of each of its markers (or the unspaced word)


@dataclass(frozen=True)
class Mark:
    """A marker word found in a text: where, for what, in which languages."""

    start: int
    end: int
    purpose: str
    languages: frozenset[str]


@functools.cache
def _stemmer(language: str):  # type: ignore[no-untyped-def]
    import snowballstemmer

    return snowballstemmer.stemmer(language)


@functools.lru_cache(maxsize=1 << 15)
def stem(word: str, language: str) -> str:
    """`word`'s Snowball stem in `language` (the word itself where Snowball lacks the language)."""
    name = LANGUAGES[language]
    return _stemmer(name).stemWord(word) if name else word


def load_rows(text: str | None = None) -> list[tuple[str, str, str]]:
    """The rows of `words.csv` (or `text`), checked: (word, language, purpose)."""
    if text is None:
        return list(_file_rows())
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    rows = list(csv.reader(lines))
    if not rows or rows[0] != _HEADER:
        raise WordsError(f"the word list must start with the header {','.join(_HEADER)}")
    seen: set[tuple[str, str, str]] = set()
    for number, row in enumerate(rows[1:], start=2):
        languages = LABEL_LANGUAGES if len(row) == 3 and row[2] in LABELS else LANGUAGES
        if len(row) != 3 or row[1] not in languages or row[2] not in PURPOSES or row[0] != row[0].strip().lower() \
                or not row[0]:
            raise WordsError(f"row {number} of the word list ({row!r}) needs a lower-case word, one of the languages "
                             f"{', '.join(sorted(languages))} and one of the purposes {', '.join(PURPOSES)}")
        if tuple(row) in seen:
            raise WordsError(f"row {number} of the word list repeats {row!r}")
        seen.add(tuple(row))  # type: ignore[arg-type]
    return [tuple(row) for row in rows[1:]]  # type: ignore[misc]


@functools.cache
def _file_rows() -> tuple[tuple[str, str, str], ...]:
    """words.csv's rows, read and checked once: words() and every labels() purpose read them at import."""
    return tuple(load_rows(files(__package__).joinpath("words.csv").read_text(encoding="utf-8")))


def _verb_set(rows: list[tuple[str, str]]) -> VerbSet:
    stems: dict[str, set[str]] = {}
    forms: dict[str, set[str]] = {}
    written: list[str] = []
    phrases: set[tuple[str, ...]] = set()
    for word, language in rows:
        if language in AS_WRITTEN:
            written.append(word)
        elif " " in word:
            phrases.add(tuple(word.split()))
        else:
            stems.setdefault(language, set()).add(stem(word, language))
            forms.setdefault(language, set()).add(word)
    return VerbSet({k: frozenset(v) for k, v in stems.items()}, {k: frozenset(v) for k, v in forms.items()},
                   {k: tuple(s for s in v if len(s) >= 5) for k, v in stems.items()},
                   re.compile("|".join(map(re.escape, sorted(written, key=len, reverse=True))) or "(?!)"),
                   frozenset(phrases))


@functools.cache
def words() -> Words:
    """The word list, compiled once on the first check that needs it."""
    spaced: dict[tuple[str, ...], dict[str, set[str]]] = {}
    unspaced: dict[str, list[str]] = {}
    unspaced_languages: dict[str, str] = {}
    verbs: dict[str, list[tuple[str, str]]] = {p: [] for p in VERBS}
    heads: dict[str, set[str]] = {}
    for word, language, purpose in _file_rows():
        if purpose in LABELS:
            continue
        if purpose in verbs:
            verbs[purpose].append((word, language))
        elif language in _UNSPACED:
            unspaced.setdefault(purpose, []).append(word)
            unspaced_languages[word] = language
            heads.setdefault(purpose, set()).add(word)
        else:
            tokens = tuple(TOKEN.findall(word))
            spaced.setdefault(tokens, {}).setdefault(purpose, set()).add(language)
            heads.setdefault(purpose, set()).add(tokens[0])
    return Words(
        {k: tuple((p, frozenset(v)) for p, v in by.items()) for k, by in spaced.items()}, max(map(len, spaced)),
        {p: re.compile("|".join(map(re.escape, sorted(ws, key=len, reverse=True)))) for p, ws in unspaced.items()},
        unspaced_languages, {p: _verb_set(rows) for p, rows in verbs.items()},
        {p: tuple(sorted(ws)) for p, ws in heads.items()})


@functools.cache
def labels(purpose: str, language: str | None = None) -> tuple[str, ...]:
    """The words of a label purpose, in one language or every one, longest first (a detector's trigger words)."""
    if purpose not in LABELS:
        raise WordsError(f"{purpose!r} is not a label purpose; the label purposes are {', '.join(LABELS)}")
    found = {word for word, lang, p in _file_rows() if p == purpose and language in (None, lang)}
    return tuple(sorted(found, key=lambda w: (-len(w), w)))


def may_mark(low: str, purpose: str, w: Words) -> bool:
    """Whether the lower-cased `low` could hold a marker of `purpose`: every marker marks() finds starts with one
    of its heads (a token, or an unspaced word) written in the text, so without one there is none. Substring
    searches in C, before marks() tokenises every sentence."""
    return any(head in low for head in w.heads.get(purpose, ()))


def marks(sentence: str, w: Words) -> list[Mark]:
    """Every marker word in a lower-cased sentence, longest first at each token, in order."""
    found: list[Mark] = []
    tokens = list(TOKEN.finditer(sentence))
    said = [t.group() for t in tokens]
    for i in range(len(tokens)):
        for n in range(min(w.longest, len(tokens) - i), 0, -1):
            hit = w.spaced.get(tuple(said[i:i + n]))
            if hit is not None:
                found += [Mark(tokens[i].start(), tokens[i + n - 1].end(), p, ls) for p, ls in hit]
                break
    if not sentence.isascii():
        for purpose, pattern in w.unspaced.items():
            found += [Mark(m.start(), m.end(), purpose, frozenset({w.unspaced_languages[m.group()]}))
                      for m in pattern.finditer(sentence)]
    return sorted(found, key=lambda m: m.start)


def is_verb(token: str, purpose: str, w: Words, languages: frozenset[str] | None = None, *,
            bare: bool = False) -> bool:
    """Whether `token` is a verb of `purpose` in one of `languages` (all by default): a listed form, the same
    Snowball stem (of four letters or more) as a listed verb, or a stem that begins with a listed stem of five.
    With `bare`, a language in BARE takes only its listed forms (an English order's verb is bare: "approve",
    never "approves")."""
    verbs = w.verbs[purpose]
    for language, stems in verbs.stems.items():
        if languages is None or language in languages:
            if token in verbs.forms[language]:
                return True
            if bare and language in BARE:
                continue
            found = stem(token, language)
            # a stem of three letters or fewer is too common across languages (German "ändern" stems to "and",
            # Spanish "pagar" to "pag", as English "page" does): only its listed forms count
            if len(found) >= 4 and (found in stems or found.startswith(verbs.prefixes[language])):
                return True
    return False


def verb_phrase(tokens: list[str], purpose: str, w: Words) -> bool:
    """Whether `tokens` open or close with a listed verb of several words ("ta bort", "devre dışı bırak")."""
    phrases = w.verbs[purpose].phrases
    return any(tuple(tokens[:n]) in phrases or tuple(tokens[-n:]) in phrases for n in (2, 3, 4))


def holds_verb(window: str, purpose: str, w: Words) -> bool:
    """Whether a lower-cased window holds a verb of `purpose` anywhere, in any inflection: as written (scripts
    matched as written), by stem, or as a listed phrase of several words."""
    if not window.isascii() and w.verbs[purpose].written.search(window):
        return True
    tokens = TOKEN.findall(window)
    phrases = w.verbs[purpose].phrases
    return any(is_verb(t, purpose, w) for t in tokens) or any(
        tuple(tokens[i:i + n]) in phrases for i in range(len(tokens)) for n in (2, 3, 4))


def sentences(low: str) -> Iterator[tuple[int, int]]:
    """The spans of the distinct sentences of a lower-cased text: a sentence repeated is judged once, so a megabyte
    of one sentence costs one judgement."""
    seen: set[str] = set()
    for match in SENTENCE.finditer(low):
        text = match.group()
        if text.strip() and text not in seen:
            seen.add(text)
            yield match.span()
