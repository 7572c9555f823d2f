"""Re-execute notebooks in place and store their outputs, so nbval has something to compare against.

Usage: python scripts/refresh_notebooks.py notebooks/*.ipynb

Runs each notebook top to bottom in its own folder with this environment's
kernel, drops what varies from run to run (timings), stores the widgets' state
so a static viewer (GitHub, nbviewer) shows the panels, renumbers the widget
model ids in order of appearance so a re-run writes the same bytes, and writes
it back. Commit the result.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient


def refresh(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        record_timing=False,
        store_widget_state=True,
    )
    client.execute()
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs = _coalesce_streams(cell.outputs)
    nbformat.validate(nb)
    state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    text = _renumber_model_ids(nbformat.writes(nb), list(state))
    text = nbformat.writes(nbformat.reads(text, as_version=4))  # re-sorted by the stable ids
    path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")


def _coalesce_streams(outputs: list) -> list:
    """Join consecutive stdout (or stderr) chunks: how the kernel splits a print is timing, not content."""
    merged: list = []
    for out in outputs:
        prev = merged[-1] if merged else None
        if (out.get("output_type") == "stream" and prev is not None and prev.get("output_type") == "stream"
                and prev.get("name") == out.get("name")):
            prev["text"] = prev["text"] + out["text"]
        else:
            merged.append(out)
    return merged


_MODEL_ID = re.compile(r"(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])")


def _renumber_model_ids(text: str, created: list[str]) -> str:
    """Replace each random 32-hex widget model id by a stable one, numbered in the order the widgets were made."""
    ids: dict[str, str] = {}
    for model_id in created:  # the kernel's creation order: the same on every run
        ids.setdefault(model_id, f"{len(ids) + 1:032x}")

    def stable(match: re.Match[str]) -> str:
        return ids.setdefault(match.group(0), f"{len(ids) + 1:032x}")

    out = _MODEL_ID.sub(stable, text)
    json.loads(out)  # still valid JSON
    return out


def main(paths: list[str]) -> int:
    for name in paths:
        start = time.perf_counter()
        refresh(Path(name))
        print(f"refreshed {name} in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
