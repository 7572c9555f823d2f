"""A lexical index beside the vectors: BM25 over one scope's current records, and the fusion of two rankings.

On real conversations (LoCoMo, benchmarks/bench_locomo.py) the words a question shares with a memory find its
evidence better than either embedder does, and fused with the vector ranking they lift it well above the vectors
alone (though, with the hashing embedder, not above BM25 alone: see the README's table). So each partition keeps
a BM25 index of its current records next to its vector index, updated by the same writes, supersessions and
erasures. Its term statistics (document frequencies, average length) come from that partition only: a shared
index's statistics would let another tenant's text move this tenant's ranking.

BM25 as Lucene scores it: idf = ln(1 + (N - df + 0.5) / (df + 0.5)), term weight tf * (k1 + 1) /
(tf + k1 * (1 - b + b * length / average length)), k1 = 1.5, b = 0.75. Terms are lower-cased words
(`\\w+`) without English stop words (`stopwords_en.txt`), stemmed (Snowball English, snowballstemmer). `fuse`
is reciprocal-rank fusion (Cormack et al., 2009): each record scores the sum of 1 / (60 + rank) over the rankings
it appears in; it needs no tuning and no common scale between a cosine and a BM25 score.
"""

from __future__ import annotations

import bisect
import functools
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from importlib.resources import files
from typing import Any

import numpy as np

from .records import KINDS

__all__ = ["CONTEXT", "K1", "B", "RRF_K", "LexicalIndex", "STOP_WORDS", "best", "fuse", "inverse_frequency",
           "term_score", "terms", "with_context"]

K1, B = 1.5, 0.75
RRF_K = 60
CONTEXT = 0.5
"""An episodic record also scores this share of the BM25 of each neighbour (the scope's current episodic record
just before it and just after it): a turn of a conversation is often understood through the one around it."""
_WORD = re.compile(r"\w+")
STOP_WORDS = frozenset(line.strip() for line in files(__package__).joinpath("stopwords_en.txt")
                       .read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#"))
"""English stop words (the common list search engines drop), one per line in `stopwords_en.txt`."""


@functools.lru_cache(maxsize=1)
def _stemmer() -> Any:
    import snowballstemmer

    return snowballstemmer.stemmer("english")


def terms(text: str) -> list[str]:
    """The words BM25 counts in `text`: lower-cased `\\w+` runs, stop words left out, each reduced to its Snowball
    English stem ("approves", "approved" and "approving" all count as "approv").

    Every backend counts with this one function; PostgreSQL stores its result per row, so changing it needs a
    migration that clears `records.terms` (rows are filled again on their scope's next lexical search)."""
    return _stemmer().stemWords([w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS])


_KIND_CODE = {kind: i for i, kind in enumerate(KINDS)}  # as the vector index codes them (storage/partition.py)


class LexicalIndex:
    """BM25 postings of one partition's current records, keyed by seq (the vector index's row key).

    Postings are dicts, cheap to change one record at a time; each term's posting is also kept as arrays (seq,
    count, record length, kind), built when first searched after a change, so a query sums every matching record
    in numpy, not one Python step a record. The sums run in the query's order, as `term_score` summed one by one
    would, and `with_context` is applied in the same order, so the scores are the same floats as elsewhere."""

    __slots__ = ("postings", "lengths", "kinds", "total", "episodic", "_arrays", "_turns")

    def __init__(self) -> None:
        self.postings: dict[str, dict[int, int]] = {}  # term -> {seq: count in that record}
        self.lengths: dict[int, int] = {}  # seq -> terms in the record
        self.kinds: dict[int, str] = {}
        self.total = 0  # sum of lengths
        self.episodic: list[int] = []  # the current episodic records' seqs, in order: whose neighbour is whose
        self._arrays: dict[str, tuple[np.ndarray, ...]] = {}  # term -> (seqs, counts, lengths, kinds), while valid
        self._turns: np.ndarray | None = None  # `episodic` as an array, while valid

    def add(self, seq: int, kind: str, text: str) -> None:
        counts = Counter(terms(text))
        for term, count in counts.items():
            self.postings.setdefault(term, {})[seq] = count
            self._arrays.pop(term, None)
        length = sum(counts.values())
        self.lengths[seq] = length
        self.kinds[seq] = kind
        self.total += length
        if kind == "episodic":
            bisect.insort(self.episodic, seq)
            self._turns = None

    def remove(self, seq: int, text: str) -> None:
        """Drop the record `seq`, whose text was `text` (if it is here); a term no record holds any more goes."""
        if seq not in self.lengths:
            return
        for term in set(terms(text)):
            self._arrays.pop(term, None)
            posting = self.postings.get(term)
            if posting is not None:
                posting.pop(seq, None)
                if not posting:
                    del self.postings[term]
        self.total -= self.lengths.pop(seq)
        if self.kinds.pop(seq) == "episodic":
            del self.episodic[bisect.bisect_left(self.episodic, seq)]
            self._turns = None

    def update(self, removed: Iterable[Any], added: Iterable[Any]) -> LexicalIndex:
        """Take out the records `removed` and put in the records `added` (anything with seq, kind and content)."""
        for record in removed:
            self.remove(record.seq, record.content)
        for record in added:
            self.add(record.seq, record.kind, record.content)
        return self

    def _posting(self, term: str) -> tuple[np.ndarray, ...]:
        found = self._arrays.get(term)
        if found is None:
            posting = self.postings[term]
            seqs = np.fromiter(posting, dtype=np.int64, count=len(posting))
            found = (seqs, np.fromiter(posting.values(), dtype=np.float64, count=len(posting)),
                     np.array([self.lengths[s] for s in posting], dtype=np.float64),
                     np.array([_KIND_CODE[self.kinds[s]] for s in posting], dtype=np.int8))
            self._arrays[term] = found
        return found

    def search(self, query: str, k: int, kinds: Sequence[str]) -> list[tuple[int, float]]:
        """(seq, score) of the k best records of `kinds` by BM25 with context (`with_context`), best first, ties
        to the newer record; a record that shares no term with `query`, nor has a neighbour that does, is not
        returned."""
        n = len(self.lengths)
        if not n:
            return []
        average = self.total / n or 1.0
        codes = np.array(sorted(_KIND_CODE[kind] for kind in set(kinds)), dtype=np.int8)
        seqs, parts = [], []
        for term, times in Counter(terms(query)).items():  # per record, terms are added in the query's order
            if term not in self.postings:
                continue
            at, tf, length, kind = self._posting(term)
            keep = np.isin(kind, codes)
            idf = inverse_frequency(n, len(at))
            seqs.append(at[keep])
            parts.append(term_score(times, idf, tf[keep], length[keep], average))  # one expression, on arrays
        if not seqs:
            return []
        scored, inverse = np.unique(np.concatenate(seqs), return_inverse=True)
        raw = np.bincount(inverse, weights=np.concatenate(parts))
        if _KIND_CODE["episodic"] in codes and self.episodic:
            scored, raw = self._with_context(scored, raw)
        order = np.lexsort((-scored, -raw))[:k]  # best first; ties to the newer (higher seq)
        return list(zip(scored[order].tolist(), raw[order].tolist()))

    def _with_context(self, scored: np.ndarray, raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`with_context` on arrays: each episodic record's CONTEXT share goes to the record after it, then to the
        one before it, so each record gets its own score, then its previous neighbour's, then its next's."""
        if self._turns is None:
            self._turns = np.array(self.episodic, dtype=np.int64)
        turns = self._turns
        at = np.searchsorted(turns, scored)
        episodic = (at < len(turns)) & (turns[np.minimum(at, len(turns) - 1)] == scored)
        source, place = raw[episodic], at[episodic]
        has_after, has_before = place + 1 < len(turns), place > 0
        targets = np.concatenate([scored, turns[place[has_after] + 1], turns[place[has_before] - 1]])
        shares = np.concatenate([raw, CONTEXT * source[has_after], CONTEXT * source[has_before]])
        every, inverse = np.unique(targets, return_inverse=True)
        return every, np.bincount(inverse, weights=shares)


def inverse_frequency(n: int, df: int) -> float:
    """BM25's idf of a term held by `df` of `n` records (Lucene's form: never negative)."""
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def term_score(times: int, idf: float, tf: Any, length: Any, average: float) -> Any:
    """One query term's part of a record's score: the one expression every backend sums, in the query's order
    (`tf` and `length` numbers, or numpy arrays of them: the same operations, element by element)."""
    return times * idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / average))


def with_context(scores: dict[int, float], neighbours: dict[int, tuple[int | None, int | None]]
                 ) -> dict[int, float]:
    """`scores` with each episodic record's CONTEXT share of its score added to its neighbours' (`neighbours`:
    seq -> (the record before, the record after)). Added in seq order, so every record gets its own score, then
    its previous neighbour's share, then its next's: the same floats on every backend."""
    out = dict(scores)
    for seq in sorted(neighbours):
        for other in neighbours[seq]:
            if other is not None:
                out[other] = out.get(other, 0.0) + CONTEXT * scores[seq]
    return out


def best(scores: dict[int, float], k: int) -> list[tuple[int, float]]:
    """The k best (seq, score), ties to the newer record (the higher seq)."""
    return sorted(scores.items(), key=lambda item: (-item[1], -item[0]))[:k]


def fuse(rankings: Iterable[Sequence[int]], k: int) -> list[tuple[int, float]]:
    """Reciprocal-rank fusion of rankings of seqs (best first): the k best (seq, fused score), ties to the newer."""
    fused: dict[int, float] = {}
    for ranking in rankings:
        for rank, seq in enumerate(ranking, start=1):
            fused[seq] = fused.get(seq, 0.0) + 1.0 / (RRF_K + rank)
    return best(fused, k)
