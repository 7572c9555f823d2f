"""Small helpers shared by tests in several folders (not a test module: pytest does not collect it)."""

from __future__ import annotations

from pathlib import Path

from primer_memory import PolicyDecision


def accept_all(content: str) -> PolicyDecision:
    """A policy that stores everything, for tests about the store rather than the detectors."""
    return PolicyDecision("store", "stored: test")


def disk_bytes(path: Path) -> bytes:
    """Every byte SQLite keeps for the database at `path`: the file, its WAL and its shared memory."""
    parts = [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]
    return b"".join(p.read_bytes() for p in parts if p.exists())


def assert_accepted_by_a_chat_api(sent: list[dict], start_on: str | None) -> None:
    """Tool results follow their call, every call has all its results, no leading tool message."""
    assert not sent or sent[0]["role"] != "tool"
    if start_on == "user":
        assert not sent or sent[0]["role"] == "user"
    waiting: list[str] = []
    for m in sent:
        if m["role"] == "tool":
            assert m["tool_call_id"] in waiting, "a tool result without its call"
            waiting.remove(m["tool_call_id"])
        else:
            assert not waiting, "a tool call without all its results"
            waiting = [c["id"] for c in m.get("tool_calls", ())]
    assert not waiting, "the window ends in a tool call without all its results"
