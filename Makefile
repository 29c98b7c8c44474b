# The two commands a reader needs are `make book` and `make test`; both set up .venv first.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
HTML   := _build/html
PDF    := _build/latex/nbcourse.pdf
STUDENT := _build/student
SLIDES := _build/slides
STUDENT_BRANCH ?= student
REMOTE ?= origin
AXE    := tests/node_modules/axe-core/axe.min.js
TEMML  := nbcourse_book/node_modules/temml/dist/temml.cjs

.PHONY: help book pdf slides check test test-notebooks test-grader test-book test-cpus refresh bench \
	lint clean student student-branch push-student test-jupyterlab

help:
	@echo "make book     build the HTML book into $(HTML) (warnings are errors); BRANCH=student"
	@echo "              makes every launch link open that branch (default: _config.yml's)"
	@echo "make pdf      build the print edition $(PDF) with xelatex (TeX packages: README)"
	@echo "make slides   a reveal.js deck per meeting of instructor/lecture_outlines.md into $(SLIDES)"
	@echo "make test     every test below in one run, as CI does, with the 25 slowest listed"
	@echo "make check    library, doctests and grading logic: what needs only Python (under a minute)"
	@echo "make test-notebooks  nbval over every chapter, then with other processors emulated"
	@echo "make test-grader  the grader in its bubblewrap sandboxes, hostile submissions, shards"
	@echo "make test-book    the built book in Chromium, accessibility, PDF, student tree"
	@echo "make test-cpus  nbval over the book with other processors emulated (part of make test)"
	@echo "make refresh  re-execute every book notebook in place, deterministically"
	@echo "make bench    run the benchmark scripts in benchmarks/"
	@echo "make student  write what students open (chapters, student notebooks) into $(STUDENT)"
	@echo "make student-branch  commit $(STUDENT) as branch $(STUDENT_BRANCH), leaving the checkout alone"
	@echo "make push-student  commit $(STUDENT) as branch $(STUDENT_BRANCH) and push it to $(REMOTE)"
	@echo "make test-jupyterlab  the chapters and assignments in JupyterLab, driven by Chromium"
	@echo "make lint     ruff over the library, the build package, tests and benchmarks"
	@echo "make clean    remove $(VENV) and _build"
	@echo "make help     this list"

$(STAMP): requirements.txt requirements-dev.txt requirements-nodeps.txt pyproject.toml \
		nbcourse_book/pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	$(PY) -m pip install --quiet --no-deps -r requirements-nodeps.txt
	touch $(STAMP)

book: $(STAMP) $(TEMML)
	$(PY) -m nbcourse_book.build html $(if $(BRANCH),--branch $(BRANCH))
	@if [ -f $(PDF) ]; then cp $(PDF) $(HTML)/ && echo "book: $(PDF) copied into $(HTML)"; fi

# Temml typesets the book's mathematics at build time and PurgeCSS trims its stylesheet,
# pinned by nbcourse_book/package-lock.json.
$(TEMML): nbcourse_book/package.json nbcourse_book/package-lock.json
	cd nbcourse_book && npm ci --no-audit --no-fund
	touch $(TEMML)

# The print edition: Jupyter Book's LaTeX route, xelatex through latexmk, warnings are errors.
pdf: $(STAMP)
	$(PY) -m nbcourse_book.build pdf $(if $(BRANCH),--branch $(BRANCH))
	@test -s $(PDF) && echo "pdf: $(PDF)"
	@if [ -d $(HTML) ]; then cp $(PDF) $(HTML)/ && echo "pdf: copied into $(HTML)"; fi

# Lecture slides: sphinx-revealjs serves its own reveal.js; Temml typesets the mathematics
# at build time, as in the book.  Published beside the book as slides/ (.github/workflows).
slides: $(STAMP) $(TEMML)
	$(PY) -m nbcourse_book.slides --out $(SLIDES)
	@echo "slides: $(SLIDES)/index.html"

# The tiers: each test needs Python and what its markers name (pyproject.toml).  `make test`
# runs them all in one pytest run, the notebooks' nbval included, then the emulated processors.
PYTEST := $(PY) -m pytest -n auto --dist loadfile
NBVAL := --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg
BEYOND_PYTHON := sandbox or notebooks or browser or book or tex or network or cluster or slow

test: book slides $(AXE)
	$(PYTEST) --durations=25 $(NBVAL) nbcourse nbcourse_book/src tests book
	$(MAKE) --no-print-directory test-cpus

check: $(STAMP)
	$(PY) -m pytest -n 2 -q -m "not ($(BEYOND_PYTHON))"

test-notebooks: $(STAMP)
	$(PYTEST) -m notebooks
	$(PYTEST) -p no:cacheprovider -o addopts="-ra" $(NBVAL) book
	$(MAKE) --no-print-directory test-cpus

test-grader: $(STAMP)
	$(PYTEST) -m "sandbox or cluster"

test-book: book slides $(AXE)
	$(PYTEST) -m "(browser or book or tex or network) and not (sandbox or cluster or notebooks)"

# nbval over the whole book with other processors emulated (README: numbers in stored
# outputs), after the main run's nbval with this processor's own kernels: numpy without its
# AVX-512 kernels (on a processor that has them; elsewhere that is the main run), then numpy
# and OpenBLAS restricted to SSE4 (Nehalem kernels).  An emulation needs the features it keeps.
NBVAL_BOOK := -m pytest -n auto --dist loadfile -p no:cacheprovider -o addopts="-ra" \
	--nbval --nbval-sanitize-with tests/nbval_sanitize.cfg book
CPU_FLAGS = $(shell grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)
# Prints what the emulation leaves on: numpy's dispatch levels and OpenBLAS's kernels.
KERNELS := -c 'from numpy._core._multiarray_umath import __cpu_features__ as f; \
	from threadpoolctl import threadpool_info as t; \
	print("numpy:", *[k for k in ("X86_V4", "X86_V3", "X86_V2") if f.get(k)], \
	      "| OpenBLAS:", *[i.get("architecture") for i in t() if i["internal_api"] == "openblas"])'
NO_AVX512 := NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL AVX512_SPR"
SSE4_ONLY := NPY_DISABLE_CPU_FEATURES="X86_V3 X86_V4 AVX512_ICL AVX512_SPR" OPENBLAS_CORETYPE=Nehalem
test-cpus: $(STAMP)
ifneq ($(filter avx512f,$(CPU_FLAGS)),)
	@echo "== nbval, numpy without AVX-512"
	$(NO_AVX512) $(PY) $(KERNELS)
	$(NO_AVX512) $(PY) $(NBVAL_BOOK)
else
	@echo "test-cpus: no AVX-512 here, so the main run was the run without it"
endif
ifneq ($(filter sse4_2,$(CPU_FLAGS)),)
	@echo "== nbval, numpy and OpenBLAS restricted to SSE4 (Nehalem kernels)"
	$(SSE4_ONLY) $(PY) $(KERNELS)
	$(SSE4_ONLY) $(PY) $(NBVAL_BOOK)
else
	@echo "test-cpus: the SSE4 emulation needs an x86-64 processor with SSE4.2: skipped"
endif

# Re-execution: nbconvert runs each notebook top to bottom in a fresh kernel whose working
# folder is the notebook's, hash-seeded, with interactive figures in the form the book stores;
# it records no timing and no widget state, so a second run changes no byte.  A failing cell
# stops it with the notebook's name and the cell's source and error.
NOTEBOOKS ?= $(sort $(wildcard book/*.ipynb book/*/*.ipynb))
EXECUTE = PYTHONHASHSEED=0 NBCOURSE_FIGURES=static $(VENV)/bin/jupyter nbconvert --to notebook \
	--execute --ExecutePreprocessor.timeout=120 --ExecutePreprocessor.record_timing=False \
	--ExecutePreprocessor.store_widget_state=False
refresh: $(STAMP)
	$(EXECUTE) --inplace $(NOTEBOOKS)

student: $(STAMP)
	$(PY) -m nbcourse_book.build student --out $(STUDENT)

student-branch: $(STAMP)
	$(PY) -m nbcourse_book.build student --out $(STUDENT) --commit-branch $(STUDENT_BRANCH)

push-student: student-branch
	git push $(REMOTE) $(STUDENT_BRANCH)

test-jupyterlab: $(STAMP)
	$(PY) -m pytest -p no:xdist -o addopts="" tests/test_jupyterlab.py

bench: $(STAMP)
	@for f in benchmarks/bench_*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

lint: $(STAMP)
	$(PY) -m ruff check nbcourse nbcourse_book tests benchmarks

# axe-core for the accessibility test, pinned by tests/package-lock.json (npm registry).
$(AXE): tests/package.json tests/package-lock.json
	cd tests && npm ci --no-audit --no-fund
	touch $(AXE)

clean:
	rm -rf $(VENV) _build tests/node_modules nbcourse_book/node_modules
