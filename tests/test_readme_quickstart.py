"""The README's quickstart runs as pasted: every line an engineer copies works, and says what the README says.

Class of input: the README's one quickstart block, run in an empty folder.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_quickstart_runs_as_pasted_and_prints_what_the_readme_says(tmp_path: Path) -> None:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Quickstart"):]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None, "the quickstart has a python block"
    assert len(code.group(1).splitlines()) <= 16, "a quickstart an engineer pastes stays short"
    printed = io.StringIO()
    before = Path.cwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(printed):
            exec(compile(code.group(1), "README quickstart", "exec"), {})  # noqa: S102 - the README's own code
    finally:
        os.chdir(before)
    out = printed.getvalue()
    assert "detector: password_phrase" in out and "detector: instruction" in out
    assert "Alice's fiscal year starts in April." in out and out.rstrip().endswith("fetch")
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(("-wal", "-shm"))) == ["memory.db",
                                                                                                  "tasks.db"]
