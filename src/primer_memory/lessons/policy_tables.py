"""Notebook 3's two tables: the write policy taught by its detector families, and its figures with their sources.

Both are built from the code, not typed into the notebook: the family table from the detector registry, the
figures from the labelled corpora scored now, beside the few figures that were recorded once (when a corpus
arrived) and cannot be recomputed, each row saying which kind it is.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .tables import Table

__all__ = ["INSTRUCTION_RESULTS", "ON_ARRIVAL", "READING_EXAMPLES", "Table", "detection_table", "family_table",
           "policy_figures", "reading_table"]

SOURCES = ("ours", "independent", "third", "fourth", "fifth", "sixth", "seventh")
NEWEST = SOURCES[3:]
ON_ARRIVAL: dict[str, tuple[int, int]] = {"fourth": (89, 102), "fifth": (74, 97), "sixth": (84, 107),
                                          "seventh": (92, 110)}
"""Held-out secrets refused when each corpus arrived, before any tuning on it (benchmarks/bench_policy.py)."""
SEVENTH_TUNE_ON_ARRIVAL = (91, 106)
AIM_REFUSED, AIM_FALSE_ALARMS = 0.95, 0.03


def family_table() -> Table:
    """The policy by family: what each family looks for, how it decides, how many detectors, two of their names."""
    from ..policy.detectors.families import FAMILIES
    from ..policy.rules import DETECTORS

    order = [d.name for d in DETECTORS]
    rows = []
    for family in FAMILIES:
        names = sorted(family.detectors, key=order.index)
        examples = ", ".join(f"`{n}`" for n in names[:2]) + (", ..." if len(names) > 2 else "")
        rows.append((family.name, family.looks_for, family.decides_by, str(len(names)), examples))
    rows.append(("**all**", "", "", f"**{len(order)}**", ""))
    return Table(("family", "looks for", "decides by", "detectors", "for example"), tuple(rows))


READING_EXAMPLES = (
    "Lunch with Alice on Friday at noon.",
    "Mi CBU es 2850590940090418135201 para la transferencia.",
    "The account number 123456789 is on the invoice.",
    "Meine Krankenversichertennummer ist A123456780.",
    "Send the refund to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq please.",
    "AKIAIOSFODNN7EXAMPLE is the key id in AWS's docs.",
    "AKIAUITM3KJG7ONJ6NBE is the key id in the runbook.",
)
"""Sentences that show the three pieces of data at work (every identifier in them is a fake or a published example)."""


def reading_table(sentences: tuple[str, ...] = READING_EXAMPLES) -> Table:
    """How the policy reads each sentence: how many detectors the registry runs, which public values it hides from
    them, and the verdict with the detector that decided it."""
    from ..policy.public import public_spans
    from ..policy.rules import DETECTORS, review, selected_detectors

    rows = []
    for text in sentences:
        run = selected_detectors(text)
        hidden = ", ".join(sorted({kind for _, _, kind in public_spans(text)})) or "none"
        decision = review(text)
        verdict = decision.verdict + (f" (`{decision.detector}`)" if decision.detector else "")
        rows.append((text, f"{len(run)} of {len(DETECTORS)}", hidden, verdict))
    return Table(("text", "detectors run", "public values hidden", "verdict"), tuple(rows))


def _pct(refused: int, total: int) -> str:
    return f"{refused}/{total} ({refused / total:.1%})"


def policy_figures(refuses: Callable[[str], bool]) -> Table:
    """Every figure the section quotes, each with where it comes from: scored now, or recorded on arrival."""
    from ..policy.corpora.loader import score

    held = {s: score(refuses, "heldout", source=s) for s in NEWEST}
    tune = {s: score(refuses, "tune", source=s) for s in SOURCES}
    poison = score(refuses, "heldout", "poison", source="ours")
    met_refused = sum(h.recall >= AIM_REFUSED for h in held.values())
    met_alarms = sum(h.false_alarm_rate <= AIM_FALSE_ALARMS for h in held.values())
    now = "scored now (the cell above)"
    rows = (
        ("secrets refused, held-out halves of the four newest corpora",
         ", ".join(f"{s} {_pct(h.refused_secrets, h.secrets)}" for s, h in held.items()),
         f"{now}; counted only, but each rose while the detectors learned from its sibling tune half"),
        ("harmless texts refused, the same halves",
         ", ".join(f"{s} {h.refused_harmless}/{h.harmless}" for s, h in held.items()), now),
        ("secrets refused on arrival, before any tuning on that corpus",
         ", ".join(f"{s} {_pct(*ON_ARRIVAL[s])}" for s in NEWEST),
         "recorded when each corpus arrived (benchmarks/bench_policy.py); the detectors have changed since, so "
         "it cannot be recomputed. The plainest figure for text nobody here had read"),
        ("the seventh corpus, tuned on its tune half",
         f"tune half {SEVENTH_TUNE_ON_ARRIVAL[0]}/{SEVENTH_TUNE_ON_ARRIVAL[1]} -> "
         f"{tune['seventh'].refused_secrets}/{tune['seventh'].secrets}; held-out {ON_ARRIVAL['seventh'][0]} -> "
         f"{held['seventh'].refused_secrets} of {held['seventh'].secrets}",
         "on arrival: recorded; now: scored"),
        ("secrets refused, tune halves of all seven corpora",
         f"{min(t.recall for t in tune.values()):.1%} to {max(t.recall for t in tune.values()):.1%}",
         f"{now}; says little: these halves shaped the detectors"),
        ("the aims", f"at least {AIM_REFUSED:.0%} of secrets refused, at most {AIM_FALSE_ALARMS:.0%} of harmless "
         f"texts; on held-out text, refusals meet it on {met_refused} of 4 corpora, false alarms on {met_alarms}",
         "the project's own targets, checked against the first two rows"),
        ("poisoning sentences refused, held-out",
         f"{poison.refused_secrets}/{poison.secrets} (harmless refused: {poison.refused_harmless}/{poison.harmless})",
         "ours only: sentences written by the project alongside the detectors, the kind of test this section "
         "warns about. No later corpus has poisoning sentences yet"),
    )
    return Table(("figure", "value", "comes from"), rows)


INSTRUCTION_RESULTS = Path(__file__).resolve().parents[3] / "benchmarks" / "results" / "instructions.json"
"""Where bench_instructions.py --write keeps its counts (in the project's checkout)."""


def detection_table(path: str | Path = INSTRUCTION_RESULTS) -> Table:
    """The instruction and redirect classes measured: caught of written on the tune half and on the held-out half,
    and the false alarms on harmless text (read from bench_instructions.py's results file: 25,000 writes take
    about half a minute, too long for a notebook cell)."""
    from .real_data import read_results

    rows = []
    for r in read_results(path, "bench_instructions.py", "rows")["rows"]:
        if r["check"] == "false alarms":
            caught = f"orders {r['orders']}, redirects {r['redirects']} of {r['of']:,}"
        else:
            caught = f"{r['caught']:,} of {r['of']:,} ({r['caught'] / r['of']:.0%})"
        rows.append((r["check"], r["half"], r["what"], caught))
    return Table(("check", "half", "texts", "caught"), tuple(rows))
