# Two entry points for a newcomer: `make run` and `make test`.
# Both create .venv (if missing) and install the package into it.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench lint clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/tabletop-gui

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -p no:cacheprovider

bench: $(STAMP)
	$(BIN)/python -m tabletop_gui.bench --quick

lint: $(STAMP)
	$(BIN)/ruff check . && $(BIN)/lint-imports && $(BIN)/mypy tabletop_gui/geometry tabletop_gui/rules tabletop_gui/scenario tabletop_gui/importers \
		tabletop_gui/model/attack_view.py tabletop_gui/model/attack_controller.py \
		tabletop_gui/model/target_scanner.py tabletop_gui/model/target_scan.py \
		tabletop_gui/model/jobs.py tabletop_gui/model/notices.py

clean:
	rm -rf $(VENV)
