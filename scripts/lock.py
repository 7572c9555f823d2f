"""Write requirements.lock: every package a fresh install of the project resolves, pinned to one version.

`make lock` runs this inside a throwaway virtual environment where the project and all its extras (and the
model's wheel) were just installed without the lock, so the file records today's newest versions that satisfy
pyproject.toml. `make` then installs with `pip install -c requirements.lock`, so a release upstream cannot
change what a fresh clone gets until someone refreshes the lock, runs `make test`, and commits both.

Usage: python scripts/lock.py OUTPUT    (run with the throwaway environment's Python)
"""

from __future__ import annotations

import platform
import re
import subprocess
import sys
from pathlib import Path

PROJECT = "primer-memory"
NOT_PINNED = {"setuptools", "wheel"}  # build tools: pip builds the package in an isolated environment of its own
HEADER = """\
# requirements.lock: the exact versions `make` installs (pip install -c requirements.lock ...).
# Written by `make lock` from a fresh resolution of pyproject.toml with every extra and the model's wheel,
# on {system} {machine}, Python {python}. Do not edit by hand: change pyproject.toml, run `make lock`, then
# `make test`, and commit the three together. tests/test_lock.py keeps this file in step with pyproject.toml
# and environment.yml.
"""


def normalise(name: str) -> str:
    """A distribution name as PEP 503 compares it."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(freeze_output: str) -> list[str]:
    """`name==version` lines from `pip freeze`, sorted, without the project itself or the build tools."""
    found: dict[str, str] = {}
    for line in freeze_output.splitlines():
        direct = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)\s*@\s", line.strip())  # installed from a path or URL
        if direct and normalise(direct.group(1)) == PROJECT:
            continue
        match = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)$", line.strip())
        if not match:
            if line.strip() and not line.startswith("-e "):
                raise SystemExit(f"lock.py: cannot pin this line of pip freeze (not name==version): {line!r}")
            continue
        name = normalise(match.group(1))
        if name != PROJECT and name not in NOT_PINNED:
            found[name] = match.group(2)
    return [f"{name}=={version}" for name, version in sorted(found.items())]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        raise SystemExit(__doc__.rsplit("Usage: ", 1)[1])
    frozen = subprocess.run([sys.executable, "-m", "pip", "freeze", "--all", "--exclude-editable"],
                            check=True, capture_output=True, text=True).stdout
    header = HEADER.format(system=platform.system(), machine=platform.machine(), python=platform.python_version())
    Path(argv[0]).write_text(header + "\n".join(pins(frozen)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
