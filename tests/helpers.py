"""Small helpers shared by the long-term memory tests (not a test module: pytest does not collect it)."""

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
