"""Which detectors a text needs: each detector's cheap necessary condition, as data, and one pass that selects.

`detectors/registry.csv` has one row per detector of `rules.DETECTORS`: its name, the keywords one of which every
text it fires on contains (lower case, looked for in the text lower-cased; `{purpose}` stands for every word of a
label purpose of the series' word list, words.csv, which the detector reads too), the character classes it needs
(NEEDS: a digit, a long token, a character outside ASCII), and a note saying what they are or, for a detector with
neither, why it always runs. Secret scanners with a hundred rules work this way (gitleaks, trufflehog and trivy
each give a rule its keywords): one Aho-Corasick pass over the text (pyahocorasick, every occurrence, overlapping
ones too; the same pass `scan.positions()` reads triggers from) finds every keyword, so every detector that could
fire; the others cannot, and are not called. A text without a class skips every detector that needs it, tested
once with the very check (`scan.has_digit`, ...) those detectors begin with. A condition is a *necessary* one,
never a sufficient one: a selected detector still does all of its own checks. tests/policy/test_registry.py holds
the findings with the pass equal to those without it.

Texts longer than GATE_LIMIT characters are read by every detector: the pass pays on short facts, and on a
megabyte of one keyword repeated it would cost a Python step per occurrence.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib.resources import files

from .scan import Detector, has_digit, has_long_token, vocabulary, words_in
from .wordlist import LABELS, labels

__all__ = ["Condition", "GATE_LIMIT", "NEEDS", "RegistryError", "Selector", "load_conditions"]

GATE_LIMIT = 4096
"""Characters up to which a text is read only by the detectors its keywords select."""

def _non_ascii(text: str) -> bool:
    return not text.isascii()


NEEDS = {"digit": has_digit, "long_token": has_long_token, "non_ascii": _non_ascii}
"""The character classes a detector may need, each a cheap check of the whole text (the one its finder starts with):
a digit; 16 characters in a row with no space, quote, comma or semicolon (a key's length); a character outside
ASCII (hidden and bidi-override characters are)."""

_HEADER = ["detector", "keywords", "needs", "note"]


class RegistryError(ValueError):
    """The registry's data and the detectors disagree: a detector without a row, a row without a detector, a bad
    keyword. Raised at import, so a policy never runs with a detector silently left out."""


@dataclass(frozen=True)
class Condition:
    """What a detector needs before it can fire: one of `keywords` in the lower-cased text (none: no keyword needed)
    and every character class of `needs`. A detector with neither always runs."""

    detector: str
    keywords: tuple[str, ...]
    note: str
    needs: tuple[str, ...] = ()

    @property
    def always(self) -> bool:
        return not self.keywords and not self.needs


def _braced(word: str) -> bool:
    return len(word) > 2 and word[0] == "{" and word[-1] == "}"


def load_conditions(text: str | None = None) -> dict[str, Condition]:
    """The rows of `detectors/registry.csv` (or of `text`, for tests) by detector name, each checked."""
    if text is None:
        text = files(__package__).joinpath("detectors", "registry.csv").read_text(encoding="utf-8")
    rows = list(csv.reader(text.splitlines()))
    if not rows or rows[0] != _HEADER:
        raise RegistryError(f"the registry must start with the header {','.join(_HEADER)}")
    conditions: dict[str, Condition] = {}
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(_HEADER):
            raise RegistryError(f"line {number} of the registry has {len(row)} fields, not {len(_HEADER)}")
        name, keywords, needs, note = row
        words = tuple(keywords.split("|")) if keywords else ()
        for word in (w for w in words if _braced(w)):
            if word[1:-1] not in LABELS:
                raise RegistryError(f"line {number} of the registry ({name}) names {word!r}; a word list purpose "
                                    f"in braces is one of {', '.join(LABELS)}")
        words = tuple(dict.fromkeys(x for w in words for x in (labels(w[1:-1]) if _braced(w) else (w,))))
        for word in words:
            if not word or word != word.lower() or word.strip() != word:
                raise RegistryError(f"line {number} of the registry ({name}) has the keyword {word!r}; keywords are "
                                    "lower case, without surrounding spaces, and never empty")
        wanted = tuple(needs.split("|")) if needs else ()
        unknown = [n for n in wanted if n not in NEEDS]
        if unknown:
            raise RegistryError(f"line {number} of the registry ({name}) needs {unknown[0]!r}; the character classes "
                                f"are {', '.join(NEEDS)}")
        if name in conditions:
            raise RegistryError(f"the registry names {name} twice (lines {number} and before)")
        if not note.strip():
            raise RegistryError(f"line {number} of the registry ({name}) has no note saying what its keywords are")
        conditions[name] = Condition(name, words, note, wanted)
    return conditions


class Selector:
    """The detectors a text needs, in registry order: every always-run one, and each whose keyword occurs (if it
    declares keywords) in a text holding every character class it needs."""

    def __init__(self, detectors: Sequence[Detector], conditions: Mapping[str, Condition]):
        names = [d.name for d in detectors]
        missing = [n for n in names if n not in conditions]
        extra = sorted(set(conditions) - set(names))
        if missing or extra:
            raise RegistryError(f"the registry and the detectors disagree: no row for {missing or 'none'}; rows for "
                                f"no detector: {extra or 'none'}. Add or remove the rows in detectors/registry.csv")
        self.detectors = tuple(detectors)
        self.always = tuple(d.name for d in detectors if conditions[d.name].always)
        # Detectors as bits of one int (bit i: detector i), so a selection is an OR per keyword found, then an AND
        # with each character class's detectors if the text lacks it, and the tuple for each selection is built
        # once (a text with no keyword, the usual case, gets the same few).
        self._always = sum(1 << i for i, d in enumerate(detectors) if not conditions[d.name].keywords)
        lacking = {need: sum(1 << i for i, d in enumerate(detectors) if need in conditions[d.name].needs)
                   for need in NEEDS}
        self._lacking = tuple((NEEDS[need], bits) for need, bits in lacking.items() if bits)
        self._chosen: dict[int, tuple[Detector, ...]] = {}
        self._by_word: dict[str, int] = {}
        for i, d in enumerate(detectors):
            for word in conditions[d.name].keywords:
                self._by_word[word] = self._by_word.get(word, 0) | 1 << i
        # the keywords join the one Aho-Corasick pass scan.positions() reads short texts with, so selecting and the
        # selected detectors' own trigger words cost one pass over the text, not two
        self._keywords = vocabulary(tuple(self._by_word))

    def select(self, view: str) -> tuple[Detector, ...]:
        """The detectors that could fire on `view`; all of them when it is longer than GATE_LIMIT."""
        if len(view) > GATE_LIMIT:
            return self.detectors
        chosen = self._always
        for word in words_in(view, self._keywords):  # in the lower case every detector reads
            chosen |= self._by_word[word]
        for has, bits in self._lacking:
            if not has(view):
                chosen &= ~bits
        found = self._chosen.get(chosen)
        if found is None:
            found = tuple(d for i, d in enumerate(self.detectors) if chosen >> i & 1)
            if len(self._chosen) < 4096:  # at most one tuple per combination of keyword detectors seen
                self._chosen[chosen] = found
        return found
