"""The set-up a newcomer relies on: one list of packages, fast imports, a working walkthrough."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from helpers import run_in_empty_tmp

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pip vendors the same parser
    from pip._vendor import tomli as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[1]


def _name_and_spec(requirement: str) -> tuple[str, str]:
    match = re.match(r"^\s*([A-Za-z0-9_.\-]+)\s*(.*)$", requirement)
    assert match, requirement
    return match.group(1).lower().replace("_", "-"), match.group(2).replace(" ", "")


def _pyproject_requirements() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        reqs += extra
    return dict(_name_and_spec(r) for r in reqs)


def _environment_requirements() -> dict[str, str]:
    found: dict[str, str] = {}
    for line in (ROOT / "environment.yml").read_text().splitlines():
        item = re.match(r"^\s*-\s+([^#:]+?)\s*$", line)
        if not item:
            continue
        text = item.group(1)
        if text.startswith("-") or text in {"pip", "conda-forge"}:  # pip options: -e ., -c requirements.lock
            continue
        name, spec = _name_and_spec(text)
        found[name] = spec
    return found


def test_environment_yml_lists_the_same_packages_as_pyproject() -> None:
    listed = _environment_requirements()
    listed.pop("python", None)
    assert listed == _pyproject_requirements()


def test_environment_yml_asks_for_the_python_pyproject_requires() -> None:
    """A conda user must not get a Python the package refuses to install on (pip would stop at requires-python)."""
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"].replace(" ", "")
    assert _environment_requirements().get("python") == requires


def test_package_imports_without_matplotlib_or_ipywidgets() -> None:
    code = (
        "import sys, primer_memory; "
        "heavy = [m for m in ('matplotlib', 'ipywidgets', 'matplotlib.pyplot') if m in sys.modules]; "
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_walkthrough_prints_the_worked_examples_and_leaves_nothing_behind() -> None:
    """All six parts, run with an empty system temporary directory that must be empty again afterwards (the
    embedded PostgreSQL of part 5 included)."""
    out, _ = run_in_empty_tmp([sys.executable, "-m", "primer_memory"])
    assert "summary (36 tokens)" in out
    assert "sent: 106 tokens" in out
    for part in ("1. Short-term", "2. Long-term", "3. The safety rules", "4. Task state", "5. Beyond one machine",
                 "6. Plug it in"):
        assert part in out  # every notebook has its section, as the README says
    assert "as the application role (RLS on): ['globex/carol']" in out
    assert "nodes run in all: ['fetch_invoices', 'match', 'match'] (fetch_invoices once)" in out
    assert "LangGraph store put 'vpn': PolicyRefused" in out and "-> PathRefused" in out


def test_walkthrough_takes_help_and_one_part_without_starting_postgres() -> None:
    code = ("import contextlib, io, sys; from primer_memory import postgres; from primer_memory.lessons.demo import main; "
            "out = io.StringIO()\n"
            "with contextlib.redirect_stdout(out): main(['--part', '1', '--part', '3'])\n"
            "print(postgres.server._dsn is None, '2. Long-term' in out.getvalue(), '3. The safety' in out.getvalue())")
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert ran.stdout.split() == ["True", "False", "True"]  # part 3 only besides 1, and no server started
    helped = subprocess.run([sys.executable, "-m", "primer_memory", "--help"], capture_output=True, text=True)
    assert helped.returncode == 0 and "--part N" in helped.stdout and "1. Short-term" not in helped.stdout
    wrong = subprocess.run([sys.executable, "-m", "primer_memory", "--part", "7"], capture_output=True, text=True)
    assert wrong.returncode == 2 and "invalid choice: 7" in wrong.stderr


def test_no_test_prints_past_pytest_capture() -> None:
    """Printing with capture disabled writes into pytest's progress line; figures belong in assertion messages."""
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("*.py")
                 if re.search(r"\bcap(?:sys|fd)\.disabled\(\)", p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_make_clean_removes_what_the_notebooks_leave() -> None:
    make = (ROOT / "Makefile").read_text()
    clean = make[make.index("\nclean:"):]
    assert "notebooks/.hypothesis" in clean.split("\n\n")[0]


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in readme and "make lab" in readme
    assert re.search(r"^make test$", ci, re.M)
