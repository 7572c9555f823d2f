"""The labelled corpora the write policy is measured on, read from the JSON Lines files beside this module.

Each case is a text, its label ("secret", "harmless" or "poison"), a category, a family (what
the split hashes) and its source, one file a source:

- `ours.jsonl`: written alongside the detectors, from templates whose slots were filled with
  seeded fake values (the filled values are kept as `slots`);
- every secret carries `values`, the exact secret substrings (what redact() must mask entirely),
  marked mechanically from the generators that made them (see `scripts/mark_corpus_values.py`);
- `independent.jsonl`: written afterwards by someone who never saw the detectors;
- `third.jsonl`: two more authors who never saw the detectors or the other corpora (people's
  chat, notes and mail in many languages; developers' shells, configs, logs and tokens);
- `fourth.jsonl` to `seventh.jsonl`: one author each, each written after the tuning round before
  it and blind to everything else (the workplace; a personal assistant's register; small
  organisations and public services; what an agent reads and acts on).

The split is by family, fixed by a hash (`split_of`), so a phrasing seen while tuning never
reappears, with other values, in a held-out half. Every round so far tuned on some halves and
reported others; the held-out halves of the corpora in `COUNTED_ONLY` are only ever counted, never printed,
except three misses of the fourth's, which notebook 3 prints on purpose to show what a miss looks like (it says
that reading them spends that half; the fifth's to seventh's stay unread).
No detector imports this module: the corpora measure the policy, they are not part of it.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Literal

__all__ = ["Case", "CORPUS", "COUNTED_ONLY", "SOURCES", "Score", "Source", "cases", "load", "score", "split_of"]

Label = Literal["secret", "harmless", "poison"]
Half = Literal["tune", "heldout"]
Source = Literal["ours", "independent", "third", "fourth", "fifth", "sixth", "seventh"]
SOURCES: tuple[Source, ...] = ("ours", "independent", "third", "fourth", "fifth", "sixth", "seventh")
# The corpora written after round 4: their held-out halves are only ever counted, never printed or read (but for
# the fourth's three misses notebook 3 shows, spent on purpose).
COUNTED_ONLY: tuple[Source, ...] = ("fourth", "fifth", "sixth", "seventh")


class CorpusFileError(ValueError):
    """A corpus file is missing a field or holds a label the loader does not know."""


@dataclass(frozen=True)
class Case:
    """One labelled text; `family` is what the split hashes, `category` groups it in reports."""

    text: str
    label: Label
    category: str
    family: str
    source: Source = "ours"
    slots: tuple[tuple[str, str], ...] = ()  # for "ours" secrets: (slot, value) of each filled-in fake value
    # For secrets: the exact secret substrings a reader would mask, marked from the fake-value generators' outputs
    # (template slots for "ours"); empty where the secret was typed by hand and is not marked yet.
    values: tuple[str, ...] = ()

    @property
    def half(self) -> Half:
        return split_of(self.family)


def split_of(family: str) -> Half:
    """The fixed rule: the first byte of sha256(family), even -> tune, odd -> heldout."""
    return "tune" if hashlib.sha256(family.encode()).digest()[0] % 2 == 0 else "heldout"


def _case(row: dict[str, object], source: Source, line: int) -> Case:
    try:
        text, label, category, family = (str(row[k]) for k in ("text", "label", "category", "family"))
    except KeyError as missing:
        raise CorpusFileError(f"{source}.jsonl line {line}: no field {missing}") from None
    if label not in ("secret", "harmless", "poison"):
        raise CorpusFileError(f"{source}.jsonl line {line}: label {label!r} is not secret, harmless or poison")
    slots = tuple((str(s["slot"]), str(s["value"])) for s in row.get("slots", ()))  # type: ignore[union-attr]
    values = tuple(str(v) for v in row.get("values", ()))  # type: ignore[union-attr]
    if any(v not in text for v in values):
        raise CorpusFileError(f"{source}.jsonl line {line}: a marked value is not in the text")
    return Case(text, label, category, family, source, slots, values)  # type: ignore[arg-type]


def load(source: Source) -> tuple[Case, ...]:
    """Every case of one source, in file order."""
    text = resources.files(__package__).joinpath(f"{source}.jsonl").read_text(encoding="utf-8")
    return tuple(_case(json.loads(line), source, n) for n, line in enumerate(text.splitlines(), 1) if line.strip())


@functools.cache
def _corpus() -> tuple[Case, ...]:
    return tuple(case for source in SOURCES for case in load(source))


def __getattr__(name: str) -> object:
    if name == "CORPUS":  # read on first use, so importing the loader reads no file
        return _corpus()
    raise AttributeError(name)


def cases(half: Half | None = None, labels: Iterable[str] = ("secret", "harmless", "poison"),
          source: Source | None = None) -> list[Case]:
    """The corpus cases of one half (or both) and one source (or both) with the given labels."""
    wanted = set(labels)
    return [c for c in _corpus() if c.label in wanted and (half is None or c.half == half)
            and (source is None or c.source == source)]


@dataclass(frozen=True)
class Score:
    """How a refusal rule did on one half: secrets refused and harmless sentences refused."""

    half: str
    refused_secrets: int
    secrets: int
    refused_harmless: int
    harmless: int
    misses: tuple[Case, ...]
    false_alarms: tuple[Case, ...]

    @property
    def recall(self) -> float:
        return self.refused_secrets / self.secrets if self.secrets else 1.0

    @property
    def false_alarm_rate(self) -> float:
        return self.refused_harmless / self.harmless if self.harmless else 0.0


def score(refuses: Callable[[str], bool], half: Half | None, positive: str = "secret",
          source: Source | None = None) -> Score:
    """Run `refuses(text)` over one half (of one source): `positive` cases should be refused, harmless ones not."""
    pos = cases(half, (positive,), source)
    neg = cases(half, ("harmless",), source)
    misses = tuple(c for c in pos if not refuses(c.text))
    alarms = tuple(c for c in neg if refuses(c.text))
    return Score(half or "both", len(pos) - len(misses), len(pos), len(alarms), len(neg), misses, alarms)
