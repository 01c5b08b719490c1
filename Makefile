# lakestruct — see README.md. `make run` and `make test` are the two commands a newcomer needs.
SHELL      := /bin/bash
PYTHON     ?= python3
VENV       ?= .venv
PY         := $(VENV)/bin/python
STAMP      := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
BROWSER    := $(VENV)/.browser
KSY        := $(sort $(wildcard formats/*/*.ksy))
GEN        := generated
KSC        := node tools/ksc.mjs -t python --python-package . $(addprefix -I ,$(sort $(dir $(KSY))))
GEN_HDR    := '"""Python parsers generated from formats/*/*.ksy by `make gen` (tools/ksc.mjs). Do not edit."""'
SHARED     ?= ../shared
PYTEST_N   ?= 2
# Python caches compiled modules (__pycache__) as it does on a user's machine, even where the environment turns that
# off (PYTHONDONTWRITEBYTECODE=1 here): without the cache every process (each CLI call of the tests, each Spark
# Python worker) recompiles lakestruct's sources, ~0.5 s of CPU a process.
export PYTHONDONTWRITEBYTECODE :=

.PHONY: install lock gen check-gen lint typecheck test bench run clean

install: $(STAMP) $(NODE_STAMP)

# The explain --html test drives a real headless Chromium. As root with apt-get (CI, a fresh Debian machine) it is
# installed here; otherwise the test skips and says why. A failed install never fails `make test`.
$(BROWSER): | $(STAMP)
	@if command -v chromium >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing Debian's chromium for the browser test (apt-get)"; \
	  (apt-get install -y -qq chromium >/dev/null 2>&1 || (apt-get update -qq >/dev/null 2>&1 && \
	   DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1)) || \
	  echo "chromium could not be installed: the browser test will skip"; \
	else echo "no chromium (and no root apt-get): the browser test will skip"; fi
	@touch $@

# constraints-dev.txt pins every package of the dev environment: pip's resolver alone ran over 4 minutes of a cold
# CI run without it (backtracking through botocore releases for s3fs and moto).
$(STAMP): pyproject.toml setup.py constraints-dev.txt $(wildcard src/lakestruct/*/*.pyx)
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -c constraints-dev.txt -e '.[dev]'
	@touch $@

# Re-pins constraints-dev.txt to what .venv holds (after changing pyproject.toml's dependencies and installing them).
lock: $(STAMP)
	@{ sed -n '/^#/p' constraints-dev.txt; $(PY) -m pip freeze --exclude-editable | grep -v '^lakestruct'; } > constraints-dev.txt.tmp
	@mv constraints-dev.txt.tmp constraints-dev.txt && echo "constraints-dev.txt: $$(grep -vc '^#' constraints-dev.txt) pins"

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# formats/*/*.ksy -> generated/*.py (+ generated/_rules.py, the validation rules of every spec)
gen: $(NODE_STAMP)
	@rm -rf $(GEN).tmp
	$(KSC) --rules $(GEN).tmp/_rules.py -d $(GEN).tmp $(KSY)
	@echo $(GEN_HDR) > $(GEN).tmp/__init__.py
	$(KSC) --debug -d $(GEN).tmp/debug $(KSY)
	@echo '"""The parsers in debug mode (field positions, no read on construction), for lakestruct explain. Do not edit."""' > $(GEN).tmp/debug/__init__.py
	@rm -rf $(GEN) && mv $(GEN).tmp $(GEN)
	@echo "generated $(words $(KSY)) spec(s) into $(GEN)/"

# Fails with a diff when generated/ is stale, hand-edited, or holds files of deleted specs.
check-gen: $(NODE_STAMP)
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(KSC) --rules "$$tmp/_rules.py" -d "$$tmp" $(KSY) && echo $(GEN_HDR) > "$$tmp/__init__.py" && \
	$(KSC) --debug -d "$$tmp/debug" $(KSY) && echo '"""The parsers in debug mode (field positions, no read on construction), for lakestruct explain. Do not edit."""' > "$$tmp/debug/__init__.py" && \
	diff -ru --exclude=__pycache__ "$$tmp" $(GEN) && echo "$(GEN)/ is up to date"

lint: $(STAMP)
	$(PY) -m ruff check src tests bench tools
	$(PY) -m compileall -q $(GEN)

typecheck: $(STAMP)
	$(PY) -m mypy

# The oracles' cached environments (Iceberg Java, pypaimon, the base-install venvs) are built in the background while
# check-gen, ruff and mypy run (tests/prepare_oracles.py; its log: .venv/oracles.log); a test needing one waits for it.
test: install $(BROWSER)
	@LAKESTRUCT_SHARED=$(abspath $(SHARED)) $(PY) -m tests.prepare_oracles > $(VENV)/oracles.log 2>&1 &
	@$(MAKE) --no-print-directory check-gen lint typecheck
	LAKESTRUCT_SHARED=$(abspath $(SHARED)) $(PY) -m pytest -q -n $(PYTEST_N) --dist loadgroup --no-loadscope-reorder -p no:cacheprovider

bench: install
	LAKESTRUCT_SHARED=$(abspath $(SHARED)) $(PY) bench/run.py

# The main job on embedded defaults: build a demo lake with real writers (pyarrow Parquet files, lakestruct's
# Puffin/DV/Theta writers, a few broken files) and run the lake inventory on it on local Spark (Java 17+).
run: install
	@mkdir -p out
	$(VENV)/bin/lakestruct demo-lake out/lake
	$(VENV)/bin/lakestruct inventory out/lake --out out/inventory --overwrite
	$(VENV)/bin/lakestruct puffin inspect out/lake/warehouse/db/orders/data/00000-1-deletes.puffin

clean:
	rm -rf out build dist .mypy_cache .ruff_cache .pytest_cache src/*.egg-info
