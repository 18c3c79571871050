# The project's commands. README names the two a fresh machine needs: `make site`, `make test`.
SHELL := /bin/bash
PY := .venv/bin/python
VENV := .venv/.installed
PYC := .venv/.compiled
NODE := node_modules/.package-lock.json
VENDOR := overrides/assets/vendor/.copied
VEGA_BUNDLE := overrides/assets/vendor/vega/vega-course.min.js
export NO_MKDOCS_2_WARNING := 1
export PYTHONDONTWRITEBYTECODE := 1
# the PDFs' cover date: the day this `make` started (tools/pdf.py build_date), for its whole run
ifndef SOURCE_DATE_EPOCH
export SOURCE_DATE_EPOCH := $(shell date +%s)
endif
# steps that do not need each other run side by side: the venv while npm installs, Debian's browser meanwhile
MAKEFLAGS += --jobs=2
# test workers: two per core. A browser test waits on its page about half of its time; with one worker per core
# the cores idled (pytest 14 min 49 s on 2 cores), with two they stay busy (12 min 43 s)
WORKERS := $(shell echo $$(( $$(nproc) * 2 )))

.PHONY: site test check data check-data reproduce lock timings serve live bench assets browser build offline pdf clean

## site: everything a reader gets — data, offline copy, PDFs, then site/ linking to them
site: data offline pdf
	REQUIRE_DOWNLOADS=1 $(PY) -m mkdocs build --strict --quiet
	@echo "site: site/ (offline archive and PDFs in site/downloads/)"

## test: the whole suite (builds what it needs, installs Debian's chromium when missing), two workers per core
test: site browser $(PYC)
	$(PY) -m pytest -q -n $(WORKERS) --dist loadfile --no-loadscope-reorder tests

## check: the everyday tier, no browser, no built site, no subprocess build (tests/conftest.py: tiers)
check: $(PYC) $(VENDOR)
	$(PY) -m pytest -q -n 2 -m "not browser and not site and not slow" tests

$(VENV): requirements.txt requirements.lock pyproject.toml
	python3 -m venv .venv
	# one pip unpacks on one core, and torch brings 3 GB of wheels: the lock's odd and even lines (heaviest first)
	# install side by side (56 → 35 s on 2 cores); a half that fails only costs time, as requirements.txt itself
	# installs next whatever is missing (tools/lock_requirements.py). The bytecode: the step below
	for half in 1 2; do .venv/bin/pip install -q --disable-pip-version-check --no-compile --no-deps \
	  -r <(grep -v '^#' requirements.lock | sed -n "$$half~2p") || echo "requirements.lock: half $$half failed" & \
	  done; wait
	.venv/bin/pip install -q --disable-pip-version-check --no-compile -r requirements.txt
	# the repository itself, editable: MkDocs finds the course plugin by its entry point (pyproject.toml)
	.venv/bin/pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $@

# pip writes the packages' bytecode one file at a time (torch's thousands: 123 s → 83 s of set-up without it);
# compileall writes the same files on every core, beside the first site steps (which import no torch and
# compile what they import as they go): the tests and the PDFs wait for it. Its errors are ignored, as pip
# ignores them (torch ships a test file in Python 3.12 syntax)
$(PYC): $(VENV)
	$(PY) -m compileall -qq -j 0 .venv/lib || true
	touch $@

$(NODE): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(VENDOR): $(NODE) $(VENV) tools/vendor_assets.py $(wildcard tools/vega/*.js)
	$(PY) -m tools.vendor_assets
	touch $@

# the same script builds the Vega bundle (tools/vega/): a deleted bundle is built again, only if still missing
# (with --jobs make may look for the bundle before the vendor step has made it)
$(VEGA_BUNDLE): | $(VENDOR)
	@test -f $@ || $(PY) -m tools.vendor_assets

assets: $(VENDOR) $(VEGA_BUNDLE)

## data: recompute what changed in generated/ (FORCE=1 recomputes everything)
data: $(VENV) $(VENDOR) $(VEGA_BUNDLE)
	$(PY) -m scripts.run $(if $(FORCE),--force)

## lock: pin every distribution requirements.txt installs (requirements.lock, heaviest first); after changing it
lock: $(VENV)
	$(PY) -m tools.lock_requirements

## timings: re-measure generated/timings/ (machine-dependent; `make data` never does)
timings: $(VENV) $(VENDOR)
	$(PY) -m scripts.run --timings

check-data: $(VENV) $(VENDOR)
	$(PY) -m scripts.run --check

## reproduce: recompute generated/ from scratch under two other CPU kernel paths; the committed bytes or a failure
reproduce: $(VENV) $(VENDOR)
	$(PY) -m tools.reproduce

## build: site/ alone (quick preview; downloads linked only if made before)
build: data
	$(PY) -m mkdocs build --strict --quiet

## offline, pdf: skipped when their inputs' content hash is unchanged (tools/step_cache.py); FORCE=1 rebuilds
offline: data
	$(PY) -m tools.offline_copy $(if $(FORCE),--force)

pdf: offline browser $(PYC)
	$(PY) -m tools.pdf $(if $(FORCE),--force)

## serve: preview on 127.0.0.1 under site_url's path, as GitHub Pages serves it
serve: build
	$(PY) -m tools.serve

## live: live preview while editing: a page, a string file, an experiment or a chart builder (mkdocs serve)
live: data
	$(PY) -m mkdocs serve

## browser: Debian's chromium and its headless shell (never a downloaded browser), fonts, poppler and Java (HTML checker) for the tests
browser:
	@command -v chromium >/dev/null && command -v pdftotext >/dev/null && command -v java >/dev/null \
	  && fc-list | grep -qi dejavu || { \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    chromium fonts-dejavu-core fonts-noto-core poppler-utils default-jre-headless >/dev/null; }
	@# the tests' faster browser; without it they open pages in the full chromium (tests/conftest.py says which)
	@command -v chromium-headless-shell >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y -qq --no-install-recommends chromium-headless-shell >/dev/null; } \
	  || echo "chromium-headless-shell could not be installed: browser tests use the full chromium (slower)"

## bench: speed and size against the budgets (prints a table, writes bench/bench.json)
bench: site browser
	$(PY) -m tools.bench

clean:
	rm -rf site build .cache
