# sigkern: build, test, demo and benchmarks (GNU make).
#
#   make demo     build the library and the C examples, then run examples/demo.py
#   make test     everything CI runs; sets up the Python venv on a fresh machine too
#   make help     list the targets

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

# ---------------------------------------------------------------- settings
VENV    ?= .venv
PYTHON3 ?= python3
PYTHON  := $(VENV)/bin/python
VENV_STAMP := $(VENV)/.requirements-installed

# build.rs rewrites include/*.h on every build unless SIGKERN_HEADER_CHECK is set. Every cargo
# run below sets it, so all targets share one build configuration (cargo never rebuilds back and
# forth between them) and `make test` checks the committed headers instead of refreshing them.
# After changing the C API run `make headers` and commit include/.
CARGO := SIGKERN_HEADER_CHECK=1 cargo

LIB_DIR := target/release
LIB_SO  := $(LIB_DIR)/libsigkern.so
LIB_A   := $(LIB_DIR)/libsigkern.a
RUST_INPUTS := $(shell find src -name '*.rs') build.rs cbindgen.toml Cargo.toml Cargo.lock

# C examples: every examples/c/*.c, linked against the shared and against the static library.
CC      := gcc
CFLAGS  := -std=c11 -O2 -Wall -Wextra -Werror -Iinclude
C_OUT   := build/c
C_SRCS  := $(wildcard examples/c/*.c)
C_SHARED := $(patsubst examples/c/%.c,$(C_OUT)/%-shared,$(C_SRCS))
C_STATIC := $(patsubst examples/c/%.c,$(C_OUT)/%-static,$(C_SRCS))
SHARED_LDLIBS := -L$(LIB_DIR) -lsigkern -Wl,-rpath,$(abspath $(LIB_DIR)) -lpthread -lm
# What the Rust staticlib needs, from
#   cargo rustc --release --lib --crate-type staticlib -- --print native-static-libs
STATIC_LDLIBS := $(LIB_A) -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
VALGRIND := valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite

.PHONY: help venv build headers lint rust-test header-check c-examples c-test python-test \
        test demo bench compare clean distclean

help:
	@echo "make demo          build, then run examples/demo.py (C, ctypes+PyTorch, CFFI+numpy)"
	@echo "make test          lint, Rust tests, header check, C examples (+valgrind), Python tests"
	@echo "make build         cargo build --release (headers checked, not rewritten)"
	@echo "make headers       regenerate include/sigkern.h and include/sigkern_cdef.h"
	@echo "make venv          create $(VENV) from requirements.txt (once per change)"
	@echo "make lint | rust-test | header-check | c-test | python-test   one part of 'test'"
	@echo "make test-misuse-all   the misuse matrix at every SIMD level (make test: default level)"
	@echo "make fuzz          property tests with many cases (PROPTEST_CASES, default 5000)"
	@echo "make bench         criterion benchmarks (BENCH_ARGS=...)"
	@echo "make compare       sigkern vs numpy/scipy side by side (COMPARE_ARGS=\"--quick\")"
	@echo "make clean         remove build outputs;  make distclean   also the venv"

# ------------------------------------------------------------------ python
venv: $(VENV_STAMP)

$(VENV_STAMP): requirements.txt
	test -x $(PYTHON) || $(PYTHON3) -m venv $(VENV)
	$(PYTHON) -m pip install --quiet -r requirements.txt
	touch $@

# -------------------------------------------------------------------- rust
build:
	$(CARGO) build --release

$(LIB_SO) $(LIB_A) &: $(RUST_INPUTS)
	$(CARGO) build --release

headers:
	env -u SIGKERN_HEADER_CHECK cargo build --release
	git status --short -- include/

lint:
	cargo fmt --check
	$(CARGO) clippy --all-targets -- -D warnings

rust-test:
	$(CARGO) test

header-check:
	$(CARGO) test --test header
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
	  git diff --exit-code -- include/; \
	  test -z "$$(git status --porcelain -- include/)" || \
	    { git status --short -- include/; echo "include/ has uncommitted files"; exit 1; }; \
	fi

# ---------------------------------------------------------------------- C
c-examples: $(C_SHARED) $(C_STATIC)

$(C_OUT)/%-shared: examples/c/%.c include/sigkern.h $(LIB_SO)
	@mkdir -p $(C_OUT)
	$(CC) $(CFLAGS) $< -o $@ $(SHARED_LDLIBS)

$(C_OUT)/%-static: examples/c/%.c include/sigkern.h $(LIB_A)
	@mkdir -p $(C_OUT)
	$(CC) $(CFLAGS) $< -o $@ $(STATIC_LDLIBS)

# Shared builds print their full output. Static builds run once per SIMD level (SIGKERN_SIMD
# forces a lower one; a level above the CPU's is clamped) and, like the valgrind runs, print
# their last line, or everything if they fail.
SIMD_LEVELS := avx512 avx2 sse2 scalar
c-test: c-examples
	@for bin in $(C_SHARED); do echo "=== $$bin"; $$bin; echo; done
	@for bin in $(C_STATIC); do for level in $(SIMD_LEVELS); do \
	  printf '=== %-44s ' "SIGKERN_SIMD=$$level $$bin"; \
	  SIGKERN_SIMD=$$level $$bin > $$bin.log 2>&1 || { echo FAILED; cat $$bin.log; exit 1; }; \
	  tail -n 1 $$bin.log; \
	done; done
	@for bin in $(C_SHARED); do \
	  printf '=== %-44s ' "valgrind $$bin"; \
	  $(VALGRIND) $$bin > $$bin.valgrind.log 2>&1 || \
	    { echo "FAILED (exit $$?)"; cat $$bin.valgrind.log; exit 1; }; \
	  tail -n 1 $$bin.valgrind.log; \
	done

# ------------------------------------------------------------------ python
python-test: venv $(LIB_SO)
	$(PYTHON) -m pytest python_tests -q

# The misuse matrix (python_tests/test_misuse_matrix.py, generated from the header) runs in
# python-test at the default SIMD level; this target runs it at every level.
.PHONY: test-misuse-all
test-misuse-all: venv $(LIB_SO)
	@for level in $(SIMD_LEVELS); do echo "=== SIGKERN_SIMD=$$level"; \
	  SIGKERN_SIMD=$$level $(PYTHON) -m pytest python_tests/test_misuse_matrix.py -q || exit 1; \
	done

# Property tests (tests/properties.rs, proptest) run in rust-test with 48 cases per property;
# this runs them with many more (PROPTEST_CASES=N to choose).
.PHONY: fuzz
fuzz:
	PROPTEST_CASES=$${PROPTEST_CASES:-5000} $(CARGO) test --test properties

# -------------------------------------------------------------- together
test: venv build lint rust-test header-check c-test python-test

demo: venv c-examples
	$(PYTHON) examples/demo.py $(DEMO_ARGS)

# e.g. make bench BENCH_ARGS="-- sum"   make compare COMPARE_ARGS="--quick --only dot"
bench:
	$(CARGO) bench $(BENCH_ARGS)

compare: venv $(LIB_SO)
	$(PYTHON) benches/compare.py $(COMPARE_ARGS)

clean:
	cargo clean
	rm -rf build

distclean: clean
	rm -rf $(VENV)
