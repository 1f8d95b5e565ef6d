# Two entry points: `make run` builds and diagnoses this machine, `make test` builds with
# sanitizers and runs every test. Both install the Debian packages they need when run as root.
BUILD      ?= build
TESTBUILD  ?= $(BUILD)/test
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
ARGS       ?=
PREFIX     ?= /usr/local
DESTDIR    ?=

.PHONY: all build run test deps-run deps-test bench windows format lint clean install deb

all: build

build: deps-run
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target cudx

# cudx exits 1 when it found problems: that is a diagnosis, not a failed run.
run: build
	@./$(BUILD)/cudx $(ARGS); rc=$$?; [ $$rc -le 1 ]

test: deps-test build
	@CC=clang cmake -S . -B $(TESTBUILD) -DCMAKE_BUILD_TYPE=Debug -DCUDX_SANITIZE=ON \
		-DCUDX_TESTS=ON -DCUDX_FUZZ=ON >/dev/null
	@cmake --build $(TESTBUILD) -j $(JOBS)
	@tests/fixtures/check-disk-space.sh $(BUILD)
	@tests/fixtures/fetch-nvidia-debs.sh
	@tests/fixtures/fetch-fleet-debs.sh
	@cd $(TESTBUILD) && ctest --output-on-failure -j $(JOBS)

# The binary, the audit library, the man page and the completions (packaging/install.cmake).
install: build
	@DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

# A Debian package built with dpkg-buildpackage (debian/), into $(BUILD)/deb.
deb:
	@packaging/build-deb.sh $(BUILD)/deb

bench: build
	@scripts/deps.sh bench
	@bench/run.sh

deps-run:
	@scripts/deps.sh run
deps-test:
	@scripts/deps.sh test

format:
	@clang-format -i $$(git ls-files 'src/*.c' 'src/*.h' 'tests/*.c' 'tools/*.c')

# `make lint`: cppcheck and clang-tidy (.clang-tidy) over src/, then clang-format (.clang-format)
# in check mode. FORMAT_CHECK says which files the format check covers: `listed` (the files named
# in .clang-format-files, which are formatted already), `all` (every C file of src/ tests/ tools/,
# once `make format` has been run over the tree) or `none`. clang-tidy skips the directories in
# TIDY_SKIP: src/win/ is only compiled by the mingw-w64 build (clang-tidy needs the compile
# commands).
FORMAT_CHECK ?= listed
TIDY_SKIP    ?= src/win/
FORMAT_ALL    = $(shell git ls-files 'src/*.c' 'src/*.h' 'tests/*.c' 'tools/*.c')
FORMAT_FILES  = $(if $(filter all,$(FORMAT_CHECK)),$(FORMAT_ALL),$(if $(filter listed,$(FORMAT_CHECK)),$(shell grep -v '^\#' .clang-format-files)))

lint: build
	@scripts/deps.sh lint
	@cppcheck --quiet --error-exitcode=1 --enable=warning,portability,performance --inline-suppr \
		--library=.cppcheck/jansson.cfg --suppressions-list=.cppcheck/suppressions.txt \
		-I src $$(git ls-files 'src/*.c')
	@git ls-files 'src/*.c' | grep -v -e '^$$' $(foreach d,$(TIDY_SKIP),-e '^$(d)') | \
		xargs -P $(JOBS) -n 8 clang-tidy -p $(BUILD) --quiet 2>$(BUILD)/clang-tidy.log || \
		{ grep -v 'warnings generated' $(BUILD)/clang-tidy.log >&2; exit 1; }
	@$(if $(FORMAT_FILES),clang-format --dry-run --Werror $(FORMAT_FILES))
	@echo "lint: cppcheck, clang-tidy and clang-format ($(FORMAT_CHECK)) passed"

clean:
	rm -rf $(BUILD)
