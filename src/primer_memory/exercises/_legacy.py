"""Checkers for the notebooks' exercises: they print feedback and never raise.

A learner's attempt may be wrong in any way (it may even crash), so each
checker catches everything and says what it saw, in words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


__all__ = ["check_policy_guesses", "check_path_guard"]

# --------------------------------------------------------------------------- notebook 3


def check_policy_guesses(guesses: dict[str, str]) -> None:
    """Compare a learner's store/skip/refuse guesses with what the write policy decides, and say why."""
    from ..policy import review

    if not isinstance(guesses, dict) or not guesses:
        print("Not yet: give a dict that maps each sentence to 'store', 'skip' or 'refuse'.")
        return
    right = 0
    for sentence, guess in guesses.items():
        try:
            decision = review(sentence)
        except Exception as error:  # a learner may pass anything as a key
            print(f"  ? {sentence!r}: the policy could not read it ({error})")
            continue
        if str(guess).strip().lower() == decision.verdict:
            right += 1
            print(f"  right  {decision.verdict:<6} {sentence!r}")
        else:
            print(f"  wrong  {sentence!r}\n         you said {guess!r}; the policy says {decision.reason}")
    print(f"{right} of {len(guesses)} right.")


PATH_ATTACKS: tuple[str, ...] = (
    "/memories/../secrets.txt", "/memories/notes/../../etc/passwd", "../memories/x", "/memories/..",
    "/memories/%2e%2e/secrets", "/memories/%252e%252e/secrets", "/memories/..%2fsecrets", "/memories\\..\\secrets",
    "/etc/passwd", "/memories_backup/x.md", "/memoriesx", "/memories/x\x00.md", "memories/../../x",
    "/memories/./../x", "/memories/\uff0e\uff0e/x", "//memories/../x", "/memories/notes/..\\..\\x",
)
PATH_LEGIT: tuple[str, ...] = (
    "/memories", "/memories/progress.md", "/memories/projects/invoices.md", "/memories/a..b.md",
    "/memories/notes/2026-09.md", "/memories/.hidden_ok.md",
)


def check_path_guard(is_safe: Callable[[str], bool]) -> None:
    """Run a learner's `is_safe(path)` on known escapes and on ordinary paths; report what slipped through."""
    escaped, blocked = [], []
    for path in PATH_ATTACKS:
        try:
            if is_safe(path):
                escaped.append(path)
        except Exception as error:  # raising on an attack is a refusal, which is fine
            _ = error
    for path in PATH_LEGIT:
        try:
            if not is_safe(path):
                blocked.append(path)
        except Exception as error:
            blocked.append(f"{path} (raised {error!r})")
    print(f"Escapes refused: {len(PATH_ATTACKS) - len(escaped)} of {len(PATH_ATTACKS)}; "
          f"ordinary paths allowed: {len(PATH_LEGIT) - len(blocked)} of {len(PATH_LEGIT)}.")
    for path in escaped:
        print(f"  got through: {path!r}")
    for path in blocked:
        print(f"  wrongly refused: {path!r}")
    if not escaped and not blocked:
        print("All right. MemoryNotes goes further still: it resolves symlinks and checks the real path too.")


