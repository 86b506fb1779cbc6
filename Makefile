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
# The Python package (python/sigkern), installed into the venv as users install it.
PKG_STAMP  := $(VENV)/.sigkern-installed
PKG_INPUTS := pyproject.toml setup.py $(wildcard python/sigkern/*.py python/sigkern/*.pyi python/sigkern/*/*.py) \
              python/sigkern/py.typed include/sigkern.h include/sigkern_cdef.h
PIP_PKG    := $(PYTHON) -m pip --disable-pip-version-check

# build.rs rewrites include/*.h on every build unless SIGKERN_HEADER_CHECK is set. Every cargo
# run below sets it, so all targets share one build configuration (cargo never rebuilds back and
# forth between them) and `make test` checks the committed headers instead of refreshing them.
# After changing the C API run `make headers` and commit include/.
CARGO := SIGKERN_HEADER_CHECK=1 cargo

LIB_DIR := target/release
LIB_SO  := $(LIB_DIR)/libsigkern.so
LIB_A   := $(LIB_DIR)/libsigkern.a
RUST_INPUTS := $(shell find src -name '*.rs') build.rs cbindgen.toml Cargo.toml Cargo.lock

# Version and library names. While the version is 0.x the SONAME carries the minor version
# (libsigkern.so.0.1), from 1.0 on the major one (libsigkern.so.1): cargo-c's convention, set by
# build.rs. Cargo writes target/release/libsigkern.so; the build makes the SONAME a symlink to it
# so programs linked in the tree find it through their rpath.
VERSION := $(shell sed -n 's/^version = "\(.*\)"$$/\1/p' Cargo.toml | head -n 1)
VERSION_MAJOR := $(word 1,$(subst ., ,$(VERSION)))
VERSION_MINOR := $(word 2,$(subst ., ,$(VERSION)))
SONAME   := $(if $(filter 0,$(VERSION_MAJOR)),libsigkern.so.0.$(VERSION_MINOR),libsigkern.so.$(VERSION_MAJOR))
REALNAME := libsigkern.so.$(VERSION)
LIB_SONAME_LINK := $(LIB_DIR)/$(SONAME)

# C and C++ examples: every examples/c/*.c and examples/cpp/*.cpp, linked against the shared and
# against the static library.
CC      := gcc
CXX     := g++
CFLAGS  := -std=c11 -O2 -Wall -Wextra -pedantic -Werror -Iinclude
CXXFLAGS := -std=c++17 -O2 -Wall -Wextra -pedantic -Werror -Iinclude
C_OUT   := build/c
C_SRCS  := $(wildcard examples/c/*.c)
CXX_SRCS := $(wildcard examples/cpp/*.cpp)
C_SHARED := $(patsubst examples/c/%.c,$(C_OUT)/%-shared,$(C_SRCS)) \
            $(patsubst examples/cpp/%.cpp,$(C_OUT)/%-shared,$(CXX_SRCS))
C_STATIC := $(patsubst examples/c/%.c,$(C_OUT)/%-static,$(C_SRCS)) \
            $(patsubst examples/cpp/%.cpp,$(C_OUT)/%-static,$(CXX_SRCS))
SHARED_LDLIBS := -L$(LIB_DIR) -lsigkern -Wl,-rpath,$(abspath $(LIB_DIR)) -lpthread -lm
# Besides libsigkern.a, a static link needs only libm from gcc or clang on glibc 2.34 and later
# (the compiler driver adds libc and libgcc_s, which has the unwinder). LIBS_PRIVATE is the full
# list rustc reports for the target,
#   cargo rustc --release --lib --crate-type staticlib -- --print native-static-libs
# which older glibc versions need; sigkern.pc gives it as Libs.private.
# --gc-sections drops the library code a program does not call (a static program shrinks from
# about 9 MB of code to what it uses).
STATIC_LDLIBS := $(LIB_A) -lpthread -lm -Wl,--gc-sections
LIBS_PRIVATE  := -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc

# ------------------------------------------------------------------ install
# make install PREFIX=/usr/local DESTDIR=   (and make uninstall with the same variables)
PREFIX       ?= /usr/local
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
CMAKEDIR     ?= $(LIBDIR)/cmake/sigkern
# the static library is installed without the debug information of the Rust standard library
STRIP        ?= strip
SIZEOF_VOID_P := $(shell echo | $(CC) -dM -E - 2>/dev/null | sed -n 's/^\#define __SIZEOF_POINTER__ //p')
VALGRIND := valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite

.PHONY: help compare-fftw compare-handles venv py-install wheel build headers lint rust-test header-check c-examples c-test \
        python-test test demo bench compare clean distclean install uninstall c-install-test abi \
        abi-check tools-check typecheck

help:
	@echo "make demo          build, then run examples/demo.py (C, ctypes+PyTorch, CFFI+numpy)"
	@echo "make test          lint, Rust tests, header/ABI checks, C/C++ examples (+valgrind),"
	@echo "                   install proof (pkg-config, CMake), Python tests"
	@echo "make build         cargo build --release (headers checked, not rewritten)"
	@echo "make headers       regenerate include/sigkern.h and include/sigkern_cdef.h"
	@echo "make abi           regenerate abi/sigkern.abi after changing the C API (then commit it)"
	@echo "make install       install library, header, sigkern.pc, CMake package (PREFIX=/usr/local DESTDIR=)"
	@echo "make uninstall     remove what make install put in place (same PREFIX/DESTDIR)"
	@echo "make venv          create $(VENV) from requirements.txt (once per change)"
	@echo "make py-install    build and pip-install the Python package into $(VENV)"
	@echo "make wheel         the manylinux2014 abi3 wheel of the Python package, in build/wheel/"
	@echo "make lint | typecheck | rust-test | header-check | abi-check | c-test | rt-test | rtsan-test"
	@echo "  | c-install-test | python-test   one part of 'test' (typecheck: mypy on python/sigkern)"
	@echo "make test-misuse-all   the misuse matrix at every SIMD level (make test: default level)"
	@echo "make test-debug-lib    misuse, memory-limit and reliability tests on the debug build"
	@echo "make fuzz          property tests with many cases (PROPTEST_CASES, default 5000)"
	@echo "make bench         criterion benchmarks (BENCH_ARGS=...)"
	@echo "make compare       sigkern vs numpy/scipy side by side (COMPARE_ARGS=\"--quick\")"
	@echo "make compare-fftw  rfft/irfft against FFTW from C (FFTW_SIZES=\"256 1024\"; installs libfftw3-dev)"
	@echo "make compare-handles  handle-call cost and 2-thread scaling from C (HANDLES_BEFORE=<lib dir>)"
	@echo "make clean         remove build outputs;  make distclean   also the venv"

# ------------------------------------------------------------------ python
venv: $(VENV_STAMP)

$(VENV_STAMP): requirements.txt
	test -x $(PYTHON) || $(PYTHON3) -m venv $(VENV)
	$(PYTHON) -m pip install --quiet -r requirements.txt
	sed -n 's/^# no-deps: //p' requirements.txt | xargs -r $(PYTHON) -m pip install --quiet --no-deps
	touch $@

# `pip install .` into the venv (no build isolation: setuptools and cffi are pinned in
# requirements.txt). setup.py runs the same cargo build as `make build`.
py-install: $(PKG_STAMP)

$(PKG_STAMP): $(VENV_STAMP) $(LIB_SO) $(PKG_INPUTS)
	$(PIP_PKG) install --quiet --no-build-isolation --no-deps --force-reinstall .
	touch $@

# The release wheel in build/wheel/, sigkern-V-cp39-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl:
# one wheel for every CPython >= 3.9 on glibc >= 2.17, needing neither Rust nor a C compiler.
# tools/build_wheel.py relinks the release build's code for glibc 2.17 with zig (no second Rust
# build), compiles the CFFI module against the limited API, and auditwheel checks and tags it.
wheel: $(VENV_STAMP) $(LIB_SO) $(LIB_A)
	rm -rf build/wheel
	$(PYTHON) tools/build_wheel.py build/wheel
	$(PYTHON) -m auditwheel show build/wheel/*.whl

# -------------------------------------------------------------------- rust
build:
	$(CARGO) build --release
	ln -sfn libsigkern.so $(LIB_SONAME_LINK)

$(LIB_SO) $(LIB_A) &: $(RUST_INPUTS)
	$(CARGO) build --release

$(LIB_SONAME_LINK): $(LIB_SO)
	ln -sfn libsigkern.so $@

headers:
	env -u SIGKERN_HEADER_CHECK cargo build --release
	git status --short -- include/
	@echo "If the C API changed, run 'make abi' too and commit include/ and abi/ together."

# mypy --strict on the Python package (settings in pyproject.toml [tool.mypy]: strict = true,
# nothing relaxed), pinned in requirements.txt with the stubs it needs. Checks the source tree,
# so no build is needed.
typecheck: $(VENV_STAMP)
	$(PYTHON) -m mypy

lint:
	cargo fmt --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(PYTHON3) tools/import_graph.py --check

rust-test:
	$(CARGO) test

header-check:
	$(CARGO) test --test header
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
	  git diff --exit-code -- include/; \
	  test -z "$$(git status --porcelain -- include/)" || \
	    { git status --short -- include/; echo "include/ has uncommitted files"; exit 1; }; \
	fi

# abi/sigkern.abi lists every exported function with its prototype and every constant and type of
# the header; abi-check compares it with `nm -D` of the library and with include/sigkern.h.
abi: $(LIB_SO)
	$(PYTHON3) abi/abi.py update

abi-check: $(LIB_SO)
	$(call need_tools,nm)
	$(PYTHON3) abi/abi.py check

# ---------------------------------------------------------------------- C
c-examples: $(C_SHARED) $(C_STATIC)

$(C_OUT)/%-shared: examples/c/%.c include/sigkern.h $(LIB_SO) $(LIB_SONAME_LINK)
	@mkdir -p $(C_OUT)
	$(CC) $(CFLAGS) $< -o $@ $(SHARED_LDLIBS)

$(C_OUT)/%-static: examples/c/%.c include/sigkern.h $(LIB_A)
	@mkdir -p $(C_OUT)
	$(CC) $(CFLAGS) $< -o $@ $(STATIC_LDLIBS)

$(C_OUT)/%-shared: examples/cpp/%.cpp include/sigkern.h $(LIB_SO) $(LIB_SONAME_LINK)
	$(call need_tools,$(CXX))
	@mkdir -p $(C_OUT)
	$(CXX) $(CXXFLAGS) $< -o $@ $(SHARED_LDLIBS)

$(C_OUT)/%-static: examples/cpp/%.cpp include/sigkern.h $(LIB_A)
	$(call need_tools,$(CXX))
	@mkdir -p $(C_OUT)
	$(CXX) $(CXXFLAGS) $< -o $@ $(STATIC_LDLIBS)

# Shared builds print their full output. Static builds run once per SIMD level (SIGKERN_SIMD
# forces a lower one; a level above the CPU's is clamped) and, like the valgrind runs, print
# their last line, or everything if they fail.
SIMD_LEVELS := avx512 avx2 sse2 scalar
c-test: c-examples
	$(call need_tools,valgrind)
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

# ---------------------------------------------------------------- real-time
# tests/realtime/rt_alloc.c: every streaming handle kind, reserved with its sk_*_reserve call,
# runs thousands of steady-state calls under an allocation counter (tests/realtime/alloc_count.c,
# linked into the program so that it stands in for the C library's malloc family) and a seccomp
# filter that stops the child at its first system call; any allocation or system call fails.
# Built against the shared and the static library.
RT_OUT  := build/rt
RT_SRCS := tests/realtime/rt_alloc.c tests/realtime/alloc_count.c tests/realtime/alloc_count.h
RT_BINS := $(RT_OUT)/rt_alloc-shared $(RT_OUT)/rt_alloc-static

$(RT_OUT)/rt_alloc-shared: $(RT_SRCS) include/sigkern.h $(LIB_SO) $(LIB_SONAME_LINK)
	@mkdir -p $(RT_OUT)
	$(CC) $(CFLAGS) -fno-builtin tests/realtime/rt_alloc.c tests/realtime/alloc_count.c -o $@ \
	  $(SHARED_LDLIBS)

$(RT_OUT)/rt_alloc-static: $(RT_SRCS) include/sigkern.h $(LIB_A)
	@mkdir -p $(RT_OUT)
	$(CC) $(CFLAGS) -fno-builtin tests/realtime/rt_alloc.c tests/realtime/alloc_count.c -o $@ \
	  $(STATIC_LDLIBS)

# examples/c/realtime.c under RealtimeSanitizer (clang >= 20, -fsanitize=realtime): its audio
# callback is marked [[clang::nonblocking]], so any allocation, lock or blocking system call
# inside it, in the example or in the library, aborts the run. The --probe run allocates in the
# callback on purpose and must be stopped, which shows the sanitizer is active. Skipped, with a
# note, where no clang >= 20 is installed (.ci/run installs clang-22 where apt offers it).
RTSAN_CC ?= $(firstword $(foreach v,25 24 23 22 21 20,$(shell command -v clang-$(v) 2>/dev/null)))
RTSAN_OUT := build/rtsan

.PHONY: rt-test rtsan-test
rt-test: $(RT_BINS) rtsan-test
	@for bin in $(RT_BINS); do printf '=== %-28s ' $$bin; $$bin; done

rtsan-test: examples/c/realtime.c include/sigkern.h $(LIB_SO) $(LIB_SONAME_LINK)
	@if [ -z "$(RTSAN_CC)" ]; then \
	  echo "rtsan-test: skipped, no clang >= 20 (apt-get install clang-22 libclang-rt-22-dev)"; \
	  exit 0; fi; \
	mkdir -p $(RTSAN_OUT) && \
	$(RTSAN_CC) -std=c23 -O1 -g -Wall -Wextra -pedantic -Werror -Iinclude -fsanitize=realtime \
	  examples/c/realtime.c -o $(RTSAN_OUT)/realtime $(SHARED_LDLIBS) && \
	printf '=== %-28s ' "$(RTSAN_OUT)/realtime" && $(RTSAN_OUT)/realtime && \
	if $(RTSAN_OUT)/realtime --probe > $(RTSAN_OUT)/probe.log 2>&1; then \
	  echo "rtsan-test: the probe's allocation in the callback went unnoticed"; exit 1; fi; \
	grep -q "RealtimeSanitizer: unsafe-library-call" $(RTSAN_OUT)/probe.log || \
	  { echo "rtsan-test: the probe failed for another reason:"; cat $(RTSAN_OUT)/probe.log; exit 1; }; \
	echo "=== rtsan probe: the sanitizer stopped the deliberate malloc in the callback (ok)"

# ------------------------------------------------------------------ install
install: $(LIB_SO) $(LIB_A)
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR) \
	  $(DESTDIR)$(CMAKEDIR)
	install -m 755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/$(REALNAME)
	ln -sfn $(REALNAME) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sfn $(SONAME) $(DESTDIR)$(LIBDIR)/libsigkern.so
	$(STRIP) --strip-debug -o $(DESTDIR)$(LIBDIR)/libsigkern.a $(LIB_A)
	chmod 644 $(DESTDIR)$(LIBDIR)/libsigkern.a
	install -m 644 include/sigkern.h $(DESTDIR)$(INCLUDEDIR)/sigkern.h
	for f in sigkern.pc:$(PKGCONFIGDIR) sigkern-config.cmake:$(CMAKEDIR) \
	         sigkern-config-version.cmake:$(CMAKEDIR); do \
	  sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	      -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	      -e 's|@VERSION_MAJOR@|$(VERSION_MAJOR)|g' -e 's|@VERSION_MINOR@|$(VERSION_MINOR)|g' \
	      -e 's|@SONAME@|$(SONAME)|g' -e 's|@REALNAME@|$(REALNAME)|g' \
	      -e 's|@SIZEOF_VOID_P@|$(SIZEOF_VOID_P)|g' \
	      -e 's|@LIBS_PRIVATE@|$(LIBS_PRIVATE)|g' \
	      -e 's|@CMAKE_LIBS_PRIVATE@|$(subst $(subst ,, ),;,$(patsubst -l%,%,$(LIBS_PRIVATE)))|g' \
	      dist/$${f%%:*}.in > $(DESTDIR)$${f#*:}/$${f%%:*}; \
	  chmod 644 $(DESTDIR)$${f#*:}/$${f%%:*}; \
	done
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" -eq 0 ] && command -v ldconfig >/dev/null; then \
	  ldconfig 2>/dev/null || true; fi

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/$(REALNAME) $(DESTDIR)$(LIBDIR)/$(SONAME) \
	  $(DESTDIR)$(LIBDIR)/libsigkern.so $(DESTDIR)$(LIBDIR)/libsigkern.a \
	  $(DESTDIR)$(INCLUDEDIR)/sigkern.h $(DESTDIR)$(PKGCONFIGDIR)/sigkern.pc \
	  $(DESTDIR)$(CMAKEDIR)/sigkern-config.cmake $(DESTDIR)$(CMAKEDIR)/sigkern-config-version.cmake
	rmdir $(DESTDIR)$(CMAKEDIR) 2>/dev/null || true
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" -eq 0 ] && command -v ldconfig >/dev/null; then \
	  ldconfig 2>/dev/null || true; fi

# Installs into a temporary prefix and builds examples out of tree with pkg-config (shared and
# --static) and with CMake, each run from another directory; also DESTDIR staging and uninstall.
c-install-test: $(LIB_SO) $(LIB_A)
	$(call need_tools,$(CXX) pkg-config cmake readelf strip)
	bash tests/install/run.sh

# ------------------------------------------------------------------ python
# The Python suites run on up to 4 worker processes (pytest-xdist), one per core:
# PYTEST_WORKERS=0 runs them in this process, one test after another. The whole suite hands out
# whole test files (module fixtures such as the wheel build must run once); the debug-library
# suites, single tests.
PYTEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); if [ "$$n" -gt 4 ]; then n=4; fi; \
	if [ "$$n" -le 1 ]; then n=0; fi; echo $$n)
PYTEST_ARGS := -q -n $(PYTEST_WORKERS)

python-test: py-install
	$(PYTHON) -m pytest python_tests $(PYTEST_ARGS) --dist loadfile

# The misuse matrix (python_tests/cabi/test_misuse_matrix.py, generated from the header) runs in
# python-test at the default SIMD level; this target runs it at every level.
.PHONY: test-misuse-all
test-misuse-all: venv $(LIB_SO)
	@for level in $(SIMD_LEVELS); do echo "=== SIGKERN_SIMD=$$level"; \
	  SIGKERN_SIMD=$$level $(PYTHON) -m pytest python_tests/cabi/test_misuse_matrix.py -q || exit 1; \
	done

# The misuse matrix, the memory-limit and the reliability tests against the debug library,
# whose arithmetic panics on overflow (the boundary turns the panic into SK_ERR_INTERNAL, which
# the tests refuse) and whose stack frames are larger: an overflow that the release build would
# wrap silently, or a stack that is only just big enough, fails here.
DEBUG_LIB_TESTS := python_tests/cabi/test_misuse_matrix.py python_tests/cabi/test_memory_limits.py \
	python_tests/cabi/test_reliability.py
.PHONY: test-debug-lib
test-debug-lib: venv
	$(CARGO) build
	SIGKERN_LIB=$(CURDIR)/target/debug/libsigkern.so $(PYTHON) -m pytest $(DEBUG_LIB_TESTS) $(PYTEST_ARGS)

# Property tests (tests/properties.rs, proptest) run in rust-test with 48 cases per property;
# this runs them with many more (PROPTEST_CASES=N to choose).
.PHONY: fuzz
fuzz:
	PROPTEST_CASES=$${PROPTEST_CASES:-5000} $(CARGO) test --test properties

# -------------------------------------------------------------- together
# System tools `make test` needs beyond Rust, gcc and python3. .ci/run installs them with apt-get;
# here a missing one stops the run at once, before the long build.
TEST_TOOLS := g++ valgrind pkg-config cmake nm readelf strip
define need_tools
@missing=""; for t in $(1); do command -v $$t >/dev/null || missing="$$missing $$t"; done; \
if [ -n "$$missing" ]; then \
  echo "make $@ needs:$$missing (not found)."; \
  echo "Install them, e.g. on Debian/Ubuntu: sudo apt-get install g++ valgrind pkg-config cmake binutils"; \
  echo "or run 'bash .ci/run', which installs what is missing and then runs make test."; \
  exit 1; \
fi
endef

tools-check:
	$(call need_tools,$(TEST_TOOLS))

test: tools-check venv build lint typecheck rust-test test-debug-lib header-check abi-check c-test \
      rt-test c-install-test python-test

demo: py-install c-examples
	$(PYTHON) examples/demo.py $(DEMO_ARGS)

# e.g. make bench BENCH_ARGS="-- sum"   make compare COMPARE_ARGS="--quick --only dot"
bench:
	$(CARGO) bench $(BENCH_ARGS)

compare: py-install compare-fftw
	$(PYTHON) benches/compare.py $(COMPARE_ARGS)

clean:
	cargo clean
	rm -rf build python/sigkern.egg-info

distclean: clean
	rm -rf $(VENV)

# sigkern's rfft and irfft against FFTW (FFTW_MEASURE r2c, c2r) from C. A benchmark only:
# installs Debian's libfftw3-dev with apt-get when its header is missing; the library itself
# never links FFTW.
# e.g. make compare-fftw FFTW_SIZES="256 1024 4096"
FFTW_BENCH := $(C_OUT)/fft_fftw
$(FFTW_BENCH): benches/c/fft_fftw.c include/sigkern.h $(LIB_SO) $(LIB_SONAME_LINK)
	@test -f /usr/include/fftw3.h || { command -v apt-get >/dev/null && \
	  { apt-get update -qq && apt-get install -y -qq libfftw3-dev; } || \
	  { echo "libfftw3-dev is needed (apt-get install libfftw3-dev)"; exit 1; }; }
	@mkdir -p $(C_OUT)
	$(CC) $(CFLAGS) $< -o $@ $(SHARED_LDLIBS) -lfftw3 -lfftw3f

compare-fftw: $(FFTW_BENCH)
	$(FFTW_BENCH) $(FFTW_SIZES)

# The cost of a handle call at 1 frame and the scaling of two threads each calling its own four
# biquad handles in turn, next to a plain C loop as the ceiling. A benchmark only. With
# HANDLES_BEFORE=<directory holding another build's libsigkern.so.0.1> the same program runs
# against that build first (LD_LIBRARY_PATH overrides the RUNPATH), for a before/after table.
# e.g. make compare-handles HANDLES_BEFORE=/path/to/other/target/release HANDLES_ROUNDS=9
HANDLES_BENCH := $(C_OUT)/handles
$(HANDLES_BENCH): benches/c/handles.c include/sigkern.h $(LIB_SO) $(LIB_SONAME_LINK)
	@mkdir -p $(C_OUT)
	$(CC) $(CFLAGS) $< -o $@ $(SHARED_LDLIBS) -ldl

# Then the same call against its kernel called directly from Rust (benches/handle_overhead.rs):
# what a handle call adds at 1 frame.
compare-handles: $(HANDLES_BENCH)
	$(if $(HANDLES_BEFORE),LD_LIBRARY_PATH=$(HANDLES_BEFORE) $(HANDLES_BENCH) $(HANDLES_ROUNDS) && echo)
	$(HANDLES_BENCH) $(HANDLES_ROUNDS)
	$(CARGO) bench --bench handle_overhead
