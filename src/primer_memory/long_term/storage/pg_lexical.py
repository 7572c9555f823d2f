"""Lexical search on PostgreSQL: BM25 over the caller's partition, scored by the same function as in memory.

Each row keeps the words BM25 counts (`terms`, from `lexical.terms`, so one tokenizer everywhere) with a GIN
index to find the rows that share a word with the question. The statistics are read in the same transaction,
under the same row-level security, from the caller's current records only: how many there are and their total
length, and how many hold each of the question's words. The score is then `lexical.term_score`, summed in the
question's order as the in-memory index sums it, so every backend ranks alike. Rows written before the column
existed are filled on their scope's first lexical search.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..lexical import best, inverse_frequency, term_score, terms, with_context
from ..records import MemoryRecord, Scope
from .pg_search import COLUMNS, CURRENT, MINE

__all__ = ["LexicalMixin"]

_CURRENT_ROWS = f"FROM {{s}}.records WHERE {MINE} AND {CURRENT}"
SQL_UNFILLED = f"SELECT seq, content {_CURRENT_ROWS} AND terms IS NULL"
SQL_FILL = f"UPDATE {{s}}.records SET terms = %(terms)s WHERE {MINE} AND seq = %(seq)s AND terms IS NULL"
SQL_STATS = f"SELECT count(*), coalesce(sum(cardinality(terms)), 0) {_CURRENT_ROWS}"
SQL_DF = (f"SELECT w, count(*) FROM {{s}}.records, unnest(%(q)s::text[]) AS w WHERE {MINE} AND {CURRENT}"
          " AND terms @> ARRAY[w] GROUP BY w")
SQL_CANDIDATES = f"SELECT {COLUMNS}, terms {_CURRENT_ROWS} AND kind = ANY(%(kinds)s) AND terms && %(q)s::text[]"
SQL_NEIGHBOURS = (  # each listed episodic record's neighbours among the scope's current episodic records
    f"SELECT seq, before, after FROM (SELECT seq, lag(seq) OVER w AS before, lead(seq) OVER w AS after"
    f" {_CURRENT_ROWS} AND kind = 'episodic' WINDOW w AS (ORDER BY seq)) AS around WHERE seq = ANY(%(seqs)s)"
)
SQL_BY_SEQ = f"SELECT {COLUMNS} FROM {{s}}.records WHERE {MINE} AND seq = ANY(%(seqs)s)"


class LexicalMixin:
    """PostgresStore's `lexical_search`."""

    def q(self, template: str) -> Any: ...  # pragma: no cover - the store's
    def _unit(self, scope: Scope) -> Any: ...  # pragma: no cover - the store's
    def _record(self, scope: Scope, row: Sequence[Any]) -> MemoryRecord: ...  # pragma: no cover - the store's

    def lexical_search(self, scope: Scope, query: str, k: int, kinds: tuple[str, ...]
                       ) -> list[tuple[MemoryRecord, float]]:
        """The k current records of `kinds` best by BM25 with neighbour context (`lexical`), best first."""
        wanted = Counter(terms(query))
        if not wanted:
            return []
        mine = {"t": scope.tenant_id, "u": scope.user_id}
        words = list(wanted)
        with self._unit(scope) as conn:
            unfilled = conn.execute(self.q(SQL_UNFILLED), mine).fetchall()
            if unfilled:
                with conn.cursor() as cur:
                    cur.executemany(self.q(SQL_FILL), [{**mine, "seq": seq, "terms": terms(content)}
                                                       for seq, content in unfilled])
            n, total = conn.execute(self.q(SQL_STATS), mine).fetchone()
            held = dict(conn.execute(self.q(SQL_DF), {**mine, "q": words}).fetchall())
            rows = conn.execute(self.q(SQL_CANDIDATES), {**mine, "q": words, "kinds": list(kinds)}).fetchall()
            if not n or not rows:
                return []
            idf = {w: inverse_frequency(n, held[w]) for w in wanted if held.get(w)}
            records, scores = self._scored(scope, rows, wanted, idf, n, total)
            episodic = [seq for seq, r in records.items() if r.kind == "episodic"]
            if "episodic" in kinds and episodic:
                around = conn.execute(self.q(SQL_NEIGHBOURS), {**mine, "seqs": episodic}).fetchall()
                scores = with_context(scores, {seq: (before, after) for seq, before, after in around})
            top = best(scores, k)
            missing = [seq for seq, _ in top if seq not in records]  # reached through a neighbour only
            if missing:
                for row in conn.execute(self.q(SQL_BY_SEQ), {**mine, "seqs": missing}):
                    records[row[1]] = self._record(scope, row)
        return [(records[seq], score) for seq, score in top]

    def _scored(self, scope: Scope, rows: list[Any], wanted: Counter[str], idf: dict[str, float], n: int,
                total: int) -> tuple[dict[int, MemoryRecord], dict[int, float]]:
        """The candidates as records and their BM25 scores, each summed in the question's order."""
        average = total / n or 1.0
        records, scores = {}, {}
        for row in rows:
            record, counts = self._record(scope, row[:12]), Counter(row[12])
            score = 0.0
            for word, times in wanted.items():
                if counts.get(word):
                    score += term_score(times, idf[word], counts[word], len(row[12]), average)
            records[record.seq], scores[record.seq] = record, score
        return records, scores
