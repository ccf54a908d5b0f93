# OfflineTodo — every target installs the Debian packages it needs when they are missing.
SHELL := /bin/bash
SWIFT ?= swift
PORT ?= 8080
ENSURE := scripts/ensure-packages.sh

.PHONY: run server build test soak crash-soak bench bench-bounded load docs docs-keys install uninstall deps-build deps-test deps-bench clean

## Starts (or reuses) the bundled server on embedded SQLite and opens the client against it.
## DEVICE=phone gives a second device with its own local store.
run: deps-build
	scripts/run.sh

## Only the server, on 127.0.0.1:$(PORT), with its SQLite file under $$XDG_DATA_HOME.
server: deps-build
	$(SWIFT) build --product todo-server
	@echo "Starting todo-server on 127.0.0.1:$(PORT) (Ctrl-C stops it)"
	$$($(SWIFT) build --show-bin-path)/todo-server --port $(PORT)

build: deps-build
	$(SWIFT) build

## What a developer runs before every commit, and CI: every unit, integration and end-to-end
## test against real parts (server processes, SQLite files, a throwaway PostgreSQL and standby,
## tmux, TLS, the real CalDAV clients), every kept fuzz input replayed (FuzzReplayTests) and the
## sync's laws at 1,000 cases each, most of them in the deterministic simulation. Ends with the
## slowest ten tests. At most 8 tests run at once: unbounded, hundreds of parameterised cases hit
## the servers together on 2 cores and loopback requests time out.
## Builds the test product and what it depends on (`--test-product`), not the dependencies'
## executables and plugin tools that a plain build adds (BENCHMARKS.md, "Test suite").
## TEST_BUILD_FLAGS: more flags for the build `swift test` makes (CI's are in .ci/run).
TEST_WIDTH ?= 8
TEST_LOG ?= .build/test.log
TEST_BUILD_FLAGS ?=
test: deps-test
	@mkdir -p .build
	set -o pipefail; scripts/with-postgres.sh $(SWIFT) test --test-product OfflineTodoPackageTests $(TEST_BUILD_FLAGS) --experimental-maximum-parallelization-width $(TEST_WIDTH) 2>&1 | tee $(TEST_LOG)
	@# ARCHITECTURE.md names only what exists, and holds no figures.
	python3 scripts/check-architecture.py
	@python3 scripts/slowest-tests.py $(TEST_LOG) 10

## An hour (MINUTES) of 100 live devices against two servers on PostgreSQL reading its standby:
## nothing lost, memory and latency steady; writes BENCHMARKS.md ("Soak") for runs of 10+ minutes.
MINUTES ?= 60
soak: deps-test
	MINUTES=$(MINUTES) TODO_TEST_STANDBY_DELAY=0 scripts/with-postgres.sh python3 scripts/soak.py

## The SDK crash test with 1,000 SIGKILL rounds instead of CI's 50.
crash-soak: deps-test
	SYNC_CRASH_ROUNDS=1000 $(SWIFT) test --test-product OfflineTodoPackageTests --filter CrashTests

## Benchmarks (release build, wrk on loopback); writes BENCHMARKS.md.
bench: deps-bench
	scripts/with-postgres.sh python3 scripts/bench.py

## Bounded work: the bounded-work issue's heavy requests against todo-server before its bounds
## (commit $(BOUNDED_BEFORE), built in a worktree) and now; writes BENCHMARKS.md's "Bounded work".
BOUNDED_BEFORE ?= 40a1eee
bench-bounded: deps-bench
	@[ -d .build-bench-before ] || git worktree add -f .build-bench-before $(BOUNDED_BEFORE)
	cd .build-bench-before && $(SWIFT) build -c release --product todo-server
	$(SWIFT) build -c release --product todo-server
	python3 scripts/bench_bounded.py --before .build-bench-before/.build/release/todo-server --after .build/release/todo-server

## 100 simulated devices for 20 s against two servers on one PostgreSQL, then one on SQLite;
## checks that no write is lost or duplicated (LOAD_DEVICES, LOAD_SECONDS change the size).
load: deps-test
	scripts/with-postgres.sh python3 scripts/load.py

## The OfflineSync documentation (DocC catalog in Sources/OfflineSync/OfflineSync.docc), as a static site in .build/docs.
docs: deps-build
	$(SWIFT) package --allow-writing-to-directory .build/docs generate-documentation --target OfflineSync \
		--output-path .build/docs --transform-for-static-hosting --hosting-base-path OfflineSync
	@echo "Documentation in .build/docs (open .build/docs/documentation/offlinesync/index.html through a web server)"

## README's key section from the key tables (a test fails when they drift).
docs-keys: deps-build
	$(SWIFT) build --product todo
	scripts/update-key-docs.py "$$($(SWIFT) build --show-bin-path)/todo"

## Release builds of todo and todo-server under $(PREFIX), with man pages and completions.
PREFIX ?= /usr/local
install: deps-build
	scripts/install.sh "$(PREFIX)"

uninstall:
	scripts/install.sh --uninstall "$(PREFIX)"

## The long run. Coverage-guided fuzzing of the parsers of outside bytes (Fuzz/, libFuzzer with
## ASan, a release build of its own): every target for FUZZ_SECONDS each, then executions,
## coverage and crashes per target; a crashing input is saved in Fuzz/Regressions/<target>/,
## which `make test` replays. Then the sync's laws at full count: PROPERTY_CASES random histories
## each (pure and simulated), PROPERTY_REAL_CASES for the real-process cross-checks.
.PHONY: fuzz fuzz-ci
FUZZ_SECONDS ?= 600
PROPERTY_CASES ?= 100000
PROPERTY_REAL_CASES ?= 200
fuzz: deps-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh
	PROPERTY_CASES=$(PROPERTY_CASES) PROPERTY_REAL_CASES=$(PROPERTY_REAL_CASES) $(SWIFT) test --test-product OfflineTodoPackageTests --filter LawTests

## A short fuzzing round (30 s a target) and the laws at CI's count: after touching a parser.
fuzz-ci: deps-build
	FUZZ_SECONDS=30 scripts/fuzz.sh
	$(SWIFT) test --test-product OfflineTodoPackageTests --filter LawTests

deps-build:
	@$(ENSURE) libsqlite3-dev libncurses-dev

deps-test:
	@$(ENSURE) libsqlite3-dev libncurses-dev sqlite3 postgresql python3 tmux openssl curl man-db
	@scripts/ensure-venv.sh

deps-bench:
	@$(ENSURE) libsqlite3-dev libncurses-dev sqlite3 postgresql python3 wrk taskwarrior taskd gnutls-bin
	@scripts/ensure-venv.sh bench

clean:
	rm -rf .build
