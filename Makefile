# The two commands a reader needs are `make book` and `make test`; both set up .venv first.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
HTML   := _build/html
PDF    := _build/latex/nbcourse.pdf
STUDENT := _build/student
STUDENT_BRANCH ?= student
REMOTE ?= origin
AXE    := tests/node_modules/axe-core/axe.min.js
KATEX  := tools/node_modules/katex/dist/katex.min.js

.PHONY: help book pdf test test-fast refresh bench lint clean pins student student-branch push-student test-jupyterlab

help:
	@echo "make book     build the HTML book into $(HTML) (warnings are errors)"
	@echo "make pdf      build the print edition $(PDF) with xelatex (TeX packages: README)"
	@echo "make test     library, notebook (nbval), exercise, book and browser tests"
	@echo "make refresh  re-execute every book notebook in place, deterministically"
	@echo "make bench    run the benchmark scripts in benchmarks/"
	@echo "make student  write what students open (chapters, student notebooks) into $(STUDENT)"
	@echo "make push-student  commit $(STUDENT) as branch $(STUDENT_BRANCH) and push it to $(REMOTE)"
	@echo "make clean    remove $(VENV) and _build"

$(STAMP): requirements.txt requirements-dev.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

book: $(STAMP) $(KATEX)
	$(PY) tools/build_book.py

# KaTeX typesets the book's mathematics at build time, pinned by tools/package-lock.json.
$(KATEX): tools/package.json tools/package-lock.json
	cd tools && npm ci --no-audit --no-fund
	touch $(KATEX)

# The print edition: Jupyter Book's LaTeX route, xelatex through latexmk, warnings are errors.
pdf: $(STAMP)
	$(VENV)/bin/jupyter-book build . --builder pdflatex -W -n --keep-going
	@test -s $(PDF) && echo "pdf: $(PDF)"
	@if [ -d $(HTML) ]; then cp $(PDF) $(HTML)/ && echo "pdf: copied into $(HTML)"; fi

test: book $(AXE)
	$(PY) -m pytest -n auto --dist loadfile

test-fast: $(STAMP)
	$(PY) -m pytest -m "not slow and not browser"

refresh: $(STAMP)
	$(PY) tools/run_notebooks.py --inplace book

student: $(STAMP)
	$(PY) tools/build_student_tree.py --out $(STUDENT)

student-branch: $(STAMP)
	$(PY) tools/build_student_tree.py --out $(STUDENT) --commit-branch $(STUDENT_BRANCH)

push-student: student-branch
	git push $(REMOTE) $(STUDENT_BRANCH)

test-jupyterlab: $(STAMP)
	$(PY) -m pytest -p no:xdist -o addopts="" tests/test_jupyterlab.py

bench: $(STAMP)
	@for f in benchmarks/bench_*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

lint: $(STAMP)
	$(PY) -m ruff check nbcourse tests tools benchmarks

# axe-core for the accessibility test, pinned by tests/package-lock.json (npm registry).
$(AXE): tests/package.json tests/package-lock.json
	cd tests && npm ci --no-audit --no-fund
	touch $(AXE)

clean:
	rm -rf $(VENV) _build tests/node_modules tools/node_modules
