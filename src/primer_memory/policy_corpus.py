"""A labelled corpus for the write policy, in two parts, each split in two before any tuning.

Each case is a sentence, its label ("secret", "harmless" or "poison"), a family (the template
or hand-written phrasing it came from) and its source:

- "ours": written alongside the detectors (`corpus_phrasings`, values from `corpus_values`);
- "independent": written afterwards by someone who never saw the detectors (`corpus_fresh`),
  every sentence its own family;
- "third": written later still, by two more authors who never saw the detectors or the other
  corpora (`corpus_third_a`: people's chat, notes and mail in many languages; `corpus_third_b`:
  developers' shells, configs, logs and tokens), every text its own family;
- "fourth": written last, by one more author who saw none of the detectors or the other corpora
  (`corpus_fourth`: the workplace, mixed: tickets, chat exports, mail, forms, OCR, configs);
- "fifth", "sixth" and "seventh": three more authors, each written after the round before it and
  blind to everything else (`corpus_fifth`: a personal assistant's register, home, family, travel,
  health; `corpus_sixth`: small organisations and public services, their staff and customers;
  `corpus_seventh`: what an agent reads and acts on: mail, OCR, call transcripts, tool results).

The split is by family, fixed by a hash (`split_of`), so a phrasing seen while tuning never
reappears, with other values, in a held-out half. Round 1 tuned on ours/tune and reported
ours/heldout (94.6%). Round 2 tuned on everything except independent/heldout. Round 3 tuned on
everything except third/heldout (then 164/187). Round 4 tuned on that half too, and the fourth
corpus, written after it and tuned on in neither half, is the honest figure now; the halves tuned
on, or printed by the benchmark, are no longer held out.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from . import corpus_values as v
from .corpus_fresh import FRESH_HARMLESS, FRESH_SECRETS
from .corpus_third_a import THIRD_A_HARMLESS, THIRD_A_SECRETS
from .corpus_fifth import FIFTH_HARMLESS, FIFTH_SECRETS
from .corpus_fourth import FOURTH_HARMLESS, FOURTH_SECRETS
from .corpus_seventh import SEVENTH_HARMLESS, SEVENTH_SECRETS
from .corpus_sixth import SIXTH_HARMLESS, SIXTH_SECRETS
from .corpus_third_b import THIRD_B_HARMLESS, THIRD_B_SECRETS
from .corpus_phrasings import HARMLESS, POISON, POISON_LOOKALIKES, SECRET_TEMPLATES

__all__ = ["Case", "CORPUS", "COUNTED_ONLY", "SEED", "Score", "Source", "cases", "score", "split_of"]

Label = Literal["secret", "harmless", "poison"]
Half = Literal["tune", "heldout"]
Source = Literal["ours", "independent", "third", "fourth", "fifth", "sixth", "seventh"]
SEED = 20260918
# The corpora written after round 4: their held-out halves are only ever counted, never printed or read.
COUNTED_ONLY: tuple[Source, ...] = ("fourth", "fifth", "sixth", "seventh")
PER_TEMPLATE = 2


@dataclass(frozen=True)
class Case:
    """One labelled sentence; `family` is what the split hashes, `category` groups it in reports."""

    text: str
    label: Label
    category: str
    family: str
    source: Source = "ours"

    @property
    def half(self) -> Half:
        return split_of(self.family)


def split_of(family: str) -> Half:
    """The fixed rule: the first byte of sha256(family), even -> tune, odd -> heldout."""
    return "tune" if hashlib.sha256(family.encode()).digest()[0] % 2 == 0 else "heldout"


def _value_makers(rng: random.Random) -> dict[str, Callable[[], str]]:
    """What each {slot} in a template is filled with."""
    makers: dict[str, Callable[[], str]] = {
        "password": lambda: v.fake_password(rng), "pin": lambda: v.fake_pin(rng),
        "pin8": lambda: v.fake_pin(rng, 8), "combo": lambda: v.fake_combination(rng),
        "card": lambda: v.fake_card(rng), "iban": lambda: v.fake_iban(rng), "ssn": lambda: v.fake_ssn(rng),
        "dni": lambda: v.fake_dni(rng), "cf": lambda: v.fake_codice_fiscale(rng),
        "aadhaar": lambda: v.fake_aadhaar(rng), "cpf": lambda: v.fake_cpf(rng), "sin": lambda: v.fake_sin(rng),
        "insee": lambda: v.fake_insee(rng), "ukni": lambda: v.fake_uk_ni(rng),
        "passport": lambda: v.fake_passport(rng), "pem": lambda: v.fake_pem(rng, rng.choice(["RSA", "EC", "PKCS8",
                                                                                             "OPENSSH"])),
        "putty": lambda: v.fake_putty(rng), "gcp": lambda: v.fake_gcp_json(rng),
        "user": lambda: rng.choice(["alice", "bob", "svc_ledger", "admin", "root", "carol.m"]),
        "host": lambda: rng.choice(["db.internal", "10.0.0.5", "cache-01", "mq.acme.lan", "files.example.org"]),
    }
    for kind in ("aws", "github", "gitlab", "slack", "stripe", "google", "openai", "azure_key", "azure_sas",
                 "twilio", "discord", "discord_webhook", "telegram", "digitalocean", "mailgun", "databricks",
                 "age", "sendgrid", "huggingface", "npm", "jwt"):
        makers[kind] = (lambda k: lambda: v.fake_vendor(rng, k))(kind)
    return makers


def _fill(template: str, makers: dict[str, Callable[[], str]]) -> str:
    out, rest = [], template
    while "{" in rest:
        before, _, after = rest.partition("{")
        slot, _, rest = after.partition("}")
        out.append(before)
        out.append(makers[slot]())
    out.append(rest)
    return "".join(out)


def _build() -> tuple[Case, ...]:
    rng = random.Random(SEED)
    makers = _value_makers(rng)
    built: list[Case] = []
    for category, templates in SECRET_TEMPLATES.items():
        for template in templates:
            texts = {_fill(template, makers) for _ in range(PER_TEMPLATE)} if "{" in template else {template}
            built += [Case(t, "secret", category, template) for t in sorted(texts)]
    for category, sentences in HARMLESS.items():
        built += [Case(s, "harmless", category, s) for s in sentences]
    built += [Case(s, "poison", "poisoning", s) for s in POISON]
    built += [Case(s, "harmless", "poisoning look-alike", s) for s in POISON_LOOKALIKES]
    for label, groups in (("secret", FRESH_SECRETS), ("harmless", FRESH_HARMLESS)):
        built += [Case(t, label, category, f"independent: {t}", "independent")
                  for category, texts in groups.items() for t in texts]
    for label, groups in (("secret", THIRD_A_SECRETS), ("harmless", THIRD_A_HARMLESS),
                          ("secret", THIRD_B_SECRETS), ("harmless", THIRD_B_HARMLESS)):
        built += [Case(t, label, category, f"third: {t}", "third")
                  for category, texts in groups.items() for t in texts]
    for label, groups in (("secret", FOURTH_SECRETS), ("harmless", FOURTH_HARMLESS)):
        built += [Case(t, label, category, f"fourth: {t}", "fourth")
                  for category, texts in groups.items() for t in texts]
    for label, groups in (("secret", FIFTH_SECRETS), ("harmless", FIFTH_HARMLESS)):
        built += [Case(t, label, category, f"fifth: {t}", "fifth")
                  for category, texts in groups.items() for t in texts]
    for label, groups in (("secret", SIXTH_SECRETS), ("harmless", SIXTH_HARMLESS)):
        built += [Case(t, label, category, f"sixth: {t}", "sixth")
                  for category, texts in groups.items() for t in texts]
    for label, groups in (("secret", SEVENTH_SECRETS), ("harmless", SEVENTH_HARMLESS)):
        built += [Case(t, label, category, f"seventh: {t}", "seventh")
                  for category, texts in groups.items() for t in texts]
    seen: set[str] = set()
    unique = []
    for case in built:
        if case.text not in seen:
            seen.add(case.text)
            unique.append(case)
    return tuple(unique)


CORPUS: tuple[Case, ...] = _build()


def cases(half: Half | None = None, labels: Iterable[str] = ("secret", "harmless", "poison"),
          source: Source | None = None) -> list[Case]:
    """The corpus cases of one half (or both) and one source (or both) with the given labels."""
    wanted = set(labels)
    return [c for c in CORPUS if c.label in wanted and (half is None or c.half == half)
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
