"""Re-execute notebooks in place and store their outputs, so nbval has something to compare against.

Usage: python scripts/refresh_notebooks.py notebooks/*.ipynb

Runs each notebook top to bottom in its own folder with this environment's
kernel, drops what varies from run to run (timings, widget state), and writes
it back. Commit the result.
"""

from __future__ import annotations

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
        store_widget_state=False,
    )
    client.execute()
    nb.metadata.pop("widgets", None)
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    nbformat.validate(nb)
    nbformat.write(nb, path)


def main(paths: list[str]) -> int:
    for name in paths:
        start = time.perf_counter()
        refresh(Path(name))
        print(f"refreshed {name} in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
