"""Reading every finding of a text in time linear in the findings, and writing the masked text in one pass.

A detector reports the first place it fires. To find them all, redact() masks each one found with '*' (offsets
stay) and asks again; over a whole text that is one scan per finding, so 5,000 findings cost 5,000 scans of the
whole text (19-28 s). Here a long text is read in windows of about `CHUNK` characters, each with `MARGIN` of
context either side (longer than any detector's reach), so each scan reads one window; then the whole text,
with everything found masked, is read once more for what needs more context than a window.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .scan import Detector
from .spans import Found, merge

__all__ = ["CHUNK", "MARGIN", "masked", "read_all", "render"]

CHUNK = 2048  # the text is read in windows of about this many characters ...
MARGIN = 512  # ... each with this much context either side (every detector's window reaches less far)


def read_all(text: str, detectors: Sequence[Detector]) -> list[Found]:
    """(start, end, detector) of every finding in `text`: window by window, then the rest over the whole text.

    Raises scan.TooDense, as review() does, when a text has more places to judge than the policy reads.
    """
    n = len(text)
    if n <= CHUNK:
        return _read(text, detectors)
    found: list[Found] = []
    for core_start, core_end in _cores(text):
        lo, hi = max(0, core_start - MARGIN), min(n, core_end + MARGIN)
        found += [(lo + s, lo + e, name) for s, e, name in _read(text[lo:hi], detectors)
                  if lo + s < core_end and lo + e > core_start]
    return found + _read(masked(text, found), detectors)


def _cores(text: str) -> list[tuple[int, int]]:
    """Consecutive pieces of about CHUNK characters, cut after a line break (or a space) where there is one."""
    cores, pos, n = [], 0, len(text)
    while pos < n:
        cut = n if pos + CHUNK >= n else text.rfind("\n", pos + CHUNK // 2, pos + CHUNK)
        if cut == -1:
            cut = text.rfind(" ", pos + CHUNK // 2, pos + CHUNK)
        cut = pos + CHUNK if cut == -1 else min(n, cut + 1)
        cores.append((pos, cut))
        pos = cut
    return cores


def _read(text: str, detectors: Sequence[Detector]) -> list[Found]:
    """Every finding in a short text, each masked with '*' in a working copy before looking again."""
    view = text
    found: list[Found] = []
    for _ in range(len(detectors)):  # until a whole pass finds nothing: masking one finding can expose another
        grew = False
        for detector in detectors:
            for _ in range(len(text) + 1):  # a bound as a safety net
                span = detector.find(view)
                if span is None or span[1] <= span[0] or view[span[0]:span[1]].strip("*") == "":
                    break
                found.append((span[0], span[1], detector.name))
                view = view[:span[0]] + "*" * (span[1] - span[0]) + view[span[1]:]
                grew = True
        if not grew:
            break
    return found


def masked(text: str, found: Iterable[Found]) -> str:
    """`text` with every found span as '*' (offsets kept), built in one pass over the merged spans."""
    out, pos = [], 0
    for start, end, _ in merge((s, e, 0, name) for s, e, name in found):
        out += [text[pos:start], "*" * (end - start)]
        pos = end
    out.append(text[pos:])
    return "".join(out)


def render(text: str, spans: Iterable[Found]) -> str:
    """`text` with each merged, sorted span replaced by [REDACTED:<name>], built in one pass."""
    out, pos = [], 0
    for start, end, name in spans:
        out += [text[pos:start], f"[REDACTED:{name}]"]
        pos = end
    out.append(text[pos:])
    return "".join(out)
