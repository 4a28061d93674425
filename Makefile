# Midway Online. `make serve` and `make test` set everything up on a fresh machine.
# The first of python3.11, python3.12, python3.13, python3 that is Python 3.11 or later
# (`make PYTHON=python3.13` chooses one; `VENV=.venv313` keeps its environment apart).
PYTHON ?= $(firstword $(foreach p,python3.11 python3.12 python3.13 python3,\
  $(if $(shell $(p) -c 'import sys; print(sys.version_info >= (3, 11))' 2>/dev/null \
  | grep -x True),$(p))))
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: serve test bench fuzz lint typecheck clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11)' >/dev/null 2>&1 || { \
	  echo "Python 3.11 or later is needed: '$(PYTHON)' is not (none of python3.11, python3.12, python3.13, python3 was found)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

serve: $(STAMP)
	$(BIN)/midway serve

lint: $(STAMP)
	$(BIN)/ruff check app tests tools
	$(BIN)/ruff format --check app tests tools

typecheck: $(STAMP)
	$(BIN)/mypy

test: $(STAMP) lint typecheck
	bash tools/test-setup.sh
	# Python keeps the bytecode of app/, tests/ and tools/ (__pycache__/, ignored by git) even
	# where the environment says not to: each live server's start and each worker's collection
	# would compile them again. The slow tests go first (tests/conftest.py), and a worker
	# with nothing left takes tests from the other's queue.
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -q -n 2 --dist worksteal -p no:cacheprovider --ignore=tests/browser
	# Playwright's sync API keeps an event loop running in its process: the browser tests
	# run in processes of their own, so that no asyncio test shares one. Two workers, each
	# with its own server and Chromium; a file's tests on one worker (the page checks share
	# their pages, the replay tests their game).
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -q -n 2 --dist loadfile -p no:cacheprovider tests/browser

bench: $(STAMP)
	$(BIN)/python -m tools.bench

fuzz: $(STAMP)
	$(BIN)/python -m tools.fuzz --scenario one --games $${GAMES:-5000}
	$(BIN)/python -m tools.fuzz --scenario four --games $${GAMES:-1000}
	$(BIN)/python -m tools.fuzz --scenario one --games $${GAMES_LONG:-300} --options random
	for s in two three; do for o in all random; do \
	  $(BIN)/python -m tools.fuzz --scenario $$s --games $${GAMES_LONG:-300} --options $$o || exit 1; done; done
	# Pacific Theatre Via Midway: each scenario to the end, without options and with random ones
	for s in coral-sea eastern-solomons santa-cruz; do for o in none random; do \
	  $(BIN)/python -m tools.fuzz --scenario $$s --games $${GAMES_THEATRE:-300} --options $$o || exit 1; done; done
	# 17a: teams of two a side, non-interference checked for every seat (>= 1,000 states each)
	for s in two three; do \
	  $(BIN)/python -m tools.fuzz --scenario $$s --teams --games $${GAMES_TEAMS:-40} --options random || exit 1; done
	# 18: both umpired modes in every scenario, with teams where offered, every seat checked
	# (the umpire's and each team player's against his teammate's command, 18a); 30 games
	# of Scenario One and 10 team games of Scenario Three check >= 1,000 states per seat
	for m in umpired double-blind; do for s in one two three four coral-sea; do \
	  $(BIN)/python -m tools.fuzz --scenario $$s --mode $$m --games $${GAMES_UMPIRED:-30} --options random || exit 1; done; \
	  for s in two three; do \
	  $(BIN)/python -m tools.fuzz --scenario $$s --mode $$m --teams --games $${GAMES_UMPIRED_TEAMS:-10} --options random || exit 1; done; done

clean:
	rm -rf $(VENV) data .pytest_cache .mypy_cache .ruff_cache
