"""Erasure as a property: whatever was written, delete_user leaves none of that user's text in the files."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import accept_all, disk_bytes
from primer_memory import KINDS, LongTermMemory, Scope

SCOPES = [Scope("acme", "alice"), Scope("acme", "al"), Scope("acme-corp", "alice"), Scope("globex", "carol")]


marker = st.text(alphabet="bcdfghjklmnpqrstvwxz", min_size=12, max_size=12)
writes = st.lists(
    st.tuples(st.integers(0, len(SCOPES) - 1), st.sampled_from(KINDS), marker, st.booleans()),
    min_size=1,
    max_size=12,
)


@settings(max_examples=25, deadline=None)
@given(writes=writes, victim=st.integers(0, len(SCOPES) - 1), forget_first=st.booleans())
def test_delete_user_leaves_none_of_its_text_on_disk(
    writes: list[tuple[int, str, str, bool]], victim: int, forget_first: bool
) -> None:
    with tempfile.TemporaryDirectory() as folder_name:
        path = Path(folder_name) / "memory.sqlite"
        memory = LongTermMemory(path=path, policy=accept_all)
        written: dict[Scope, list[str]] = {scope: [] for scope in SCOPES}
        for index, kind, word, keyed in writes:
            scope = SCOPES[index]
            text = f"note {word} for the record"
            result = memory.remember(scope, kind, text, key="same-key" if keyed else None)
            if result.stored:
                written[scope].append(word)
        target = SCOPES[victim]
        if forget_first and memory.export(target):
            memory.forget(target, memory.export(target)[0]["id"])
        memory.delete_user(target)
        for state in ("open", "closed"):
            found = disk_bytes(path)
            for word in written[target]:
                survivors = [s for s in SCOPES if s != target and word in written[s]]
                if not survivors:  # the same random word written by someone else legitimately remains
                    assert word.encode() not in found, f"{word!r} of {target} still on disk ({state})"
            if state == "open":
                for scope in SCOPES:
                    if scope != target:
                        assert sorted(r["content"].split()[1] for r in memory.export(scope)) == sorted(written[scope])
                memory.close()
        with LongTermMemory(path=path) as reopened:
            assert reopened.export(target) == []
