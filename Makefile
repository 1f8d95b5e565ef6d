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

lint:
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@clang-tidy -p $(BUILD) --quiet $$(git ls-files 'src/*.c') 2>/dev/null
	@cppcheck --quiet --error-exitcode=1 --enable=warning,portability -I src $$(git ls-files 'src/*.c')

clean:
	rm -rf $(BUILD)
