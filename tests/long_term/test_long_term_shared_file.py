"""Two LongTermMemory objects, or two processes, on one SQLite file: each sees the other's writes and erasures.

An independent hostile-input run found the second object's cached sequence numbers and search vectors went
stale: its next write hit a UNIQUE constraint, and a recall after the other object forgot a record raised
KeyError. Every read and write now checks SQLite's data_version and reloads what another connection changed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import accept_all
from primer_memory import LongTermMemory, Scope
from primer_memory.long_term.embedding import HashingEmbedder

ALICE = Scope("acme", "alice")
FACTS = ["Alice likes tea.", "Alice likes coffee.", "Alice's fiscal year starts in April.", "Alice reads novels.",
         "Alice's fiscal year starts in July.", "Alice prefers euros."]


def _open(path: Path) -> LongTermMemory:
    return LongTermMemory(HashingEmbedder(), path=str(path), policy=accept_all)


OPS = st.lists(st.tuples(st.integers(0, 1), st.sampled_from(["remember", "keyed", "forget", "erase", "recall"]),
                         st.integers(0, len(FACTS) - 1)), min_size=1, max_size=25)


@settings(max_examples=40, deadline=None)
@given(OPS)
def test_two_objects_on_one_file_interleave_without_raw_errors_or_lost_writes(tmp_path_factory, ops) -> None:
    path = tmp_path_factory.mktemp("shared") / "memory.db"
    memories = [_open(path), _open(path)]
    try:
        for who, op, n in ops:
            memory = memories[who]
            if op == "remember":
                memory.remember(ALICE, "semantic", FACTS[n])
            elif op == "keyed":
                memory.remember(ALICE, "semantic", FACTS[n], key="fy")
            elif op == "forget":
                hits = memory.recall(ALICE, FACTS[n], k=1)
                if hits:
                    memory.forget(ALICE, hits[0].id)
            elif op == "erase":
                memory.delete_user(ALICE)
            else:
                memory.recall(ALICE, FACTS[n], k=3)
        views = [m.store.records(ALICE) for m in memories] + [_open(path).store.records(ALICE)]
        assert views[0] == views[1] == views[2]
        records = views[0]
        assert len({r.id for r in records}) == len(records) and len({r.seq for r in records}) == len(records)
        assert sum(r.current and r.key == "fy" for r in records) <= 1  # one current value per key
        for memory in memories:  # and each object recalls only what the file holds now
            assert {r.id for r in memory.recall(ALICE, "Alice", k=10)} <= {r.id for r in records if r.current}
    finally:
        for memory in memories:
            memory.close()


WRITER = """
import sys
import time
from primer_memory import LongTermMemory, Scope
from primer_memory.long_term.embedding import HashingEmbedder
memory = LongTermMemory(HashingEmbedder(), path=sys.argv[1], policy=lambda text: __import__("primer_memory").review(text))
for i in range(int(sys.argv[2])):
    memory.remember(Scope("acme", "alice"), "episodic", f"{sys.argv[3]} note {i} about the Globex invoices.")
    time.sleep(0.02)  # so the two processes' writes interleave
memory.close()
"""


def test_two_processes_writing_one_file_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    _open(path).close()
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), "40", name]) for name in ("first", "second")]
    assert [w.wait(timeout=120) for w in writers] == [0, 0]
    records = _open(path).store.records(ALICE)
    assert len(records) == 80 and len({r.seq for r in records}) == 80 and len({r.id for r in records}) == 80
