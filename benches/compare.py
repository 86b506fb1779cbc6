#!/usr/bin/env python3
"""Side-by-side benchmarks of sigkern (through CFFI) against numpy / scipy / torch.

Usage:
    .venv/bin/python benches/compare.py [--only SUBSTR] [--quick] [--blas-threads N]

The library is loaded through CFFI with the cdef taken verbatim from include/sigkern_cdef.h,
from $SIGKERN_LIB or target/release/libsigkern.so (build it with `cargo build --release`).

Every module benches/compare_*.py is imported (sorted by file name) and its `run(ctx)` called.
The interface a module may rely on:

    ctx.ffi, ctx.lib        the CFFI FFI object and the loaded library
    ctx.np                  numpy
    ctx.timeit(fn, min_time=0.2) -> float
                            best seconds per call of `fn()`: the number of calls per repeat is
                            calibrated so that one repeat takes >= min_time / 5, and the best of
                            >= 5 repeats is returned (garbage collection off while timing).
                            Interleaving sigkern and reference timings is up to the caller.
    ctx.row(section, name, t_sigkern, t_reference, ref_label, target)
                            records and prints one table row; `target` is the minimum speed-up
                            t_reference / t_sigkern required, or None (informational row).

Extras (optional for modules): `ctx.quick` (bool), `ctx.selected(section, name=None)` (whether
`--only` lets such a row through: a module may skip the timing of rows nobody asked for),
`ctx.check(rc, what)` (raises if a sigkern status is not SK_OK, with the last-error message).

Python-call overhead is part of what a Python caller pays, so time it fairly: prepare
`ffi.from_buffer` pointers outside the timed lambda, and give numpy preallocated `out=` arrays
where it supports them.

`--only SUBSTR` keeps rows whose "section name" contains SUBSTR (case-insensitive); a module
whose file name contains SUBSTR runs in full. `--quick` divides every min_time by 4.

Benchmarks are not tests: the script exits 0 even when targets are missed (they are listed in
the summary), and 1 only if a module raised.

OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE, if set in the environment, make OpenBLAS choose slower
kernels; the script re-executes itself without them before numpy is imported and says so.
"""

import os
import sys

# --- must run before numpy (and with it OpenBLAS) is loaded ---------------------------------
_SLOW_BLAS_VARS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
_UNSET_NOTE_VAR = "_SIGKERN_BENCH_UNSET_BLAS_VARS"
if __name__ == "__main__" and any(v in os.environ for v in _SLOW_BLAS_VARS):
    _removed = [f"{v}={os.environ[v]}" for v in _SLOW_BLAS_VARS if v in os.environ]
    _env = {k: v for k, v in os.environ.items() if k not in _SLOW_BLAS_VARS}
    _env[_UNSET_NOTE_VAR] = " ".join(_removed)
    os.execve(sys.executable, [sys.executable, *sys.argv], _env)

import argparse  # noqa: E402
import gc  # noqa: E402
import importlib.util  # noqa: E402
import itertools  # noqa: E402
import pathlib  # noqa: E402
import platform  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402

import numpy as np  # noqa: E402
from cffi import FFI  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
BENCHES = ROOT / "benches"
QUICK_FACTOR = 0.25


def library_path() -> pathlib.Path:
    env = os.environ.get("SIGKERN_LIB")
    if env:
        return pathlib.Path(env)
    release = ROOT / "target" / "release"
    for name in ("libsigkern.so", "libsigkern.dylib", "sigkern.dll"):
        if (release / name).exists():
            return release / name
    sys.exit(f"libsigkern not built under {release}: run `cargo build --release`")


def fmt_time(t):
    if t is None:
        return "-"
    if t < 1e-6:
        return f"{t * 1e9:.0f} ns"
    if t < 1e-3:
        return f"{t * 1e6:.2f} µs"
    if t < 1.0:
        return f"{t * 1e3:.2f} ms"
    return f"{t:.3f} s"


def fmt_ratio(ratio, target=None):
    if ratio is None:
        return "-"
    # show a third decimal where two would hide on which side of the target the ratio lies
    if target is not None and abs(ratio - target) < 0.005:
        return f"{ratio:.3f}x"
    return f"{ratio:.2f}x"


NOISE_BAND = 0.03


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


class Context:
    """What a compare_*.py module's run(ctx) gets (see the module docstring)."""

    COLS = (
        ("section", 10, "<"),
        ("name", 34, "<"),
        ("sigkern", 10, ">"),
        ("reference", 10, ">"),
        ("ref", 26, "<"),
        ("ratio", 7, ">"),
        ("target", 6, ">"),
        ("", 4, "<"),
    )

    def __init__(self, ffi, lib, only=None, quick=False):
        self.ffi = ffi
        self.lib = lib
        self.np = np
        self.quick = quick
        self.only = only.lower() if only else None
        self.module_selected = True  # set per module by the driver
        self.rows = []

    # -- timing -------------------------------------------------------------------------------
    @staticmethod
    def _run(fn, number):
        it = itertools.repeat(None, number)
        t0 = time.perf_counter()
        for _ in it:
            fn()
        return time.perf_counter() - t0

    def best(self, fns, rounds=3, min_time=0.2):
        """Best seconds per call of each of fns, timed in turn for `rounds` rounds (so a
        reference and sigkern see the same machine load)."""
        t = [float("inf")] * len(fns)
        for _ in range(rounds):
            for i, f in enumerate(fns):
                t[i] = min(t[i], self.timeit(f, min_time=min_time))
        return t

    def timeit(self, fn, min_time=0.2):
        """Best seconds per call of fn(): calls per repeat calibrated so that one repeat takes at
        least min_time / 5; best of at least 5 repeats."""
        if self.quick:
            min_time *= QUICK_FACTOR
        per_repeat = min_time / 5.0
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            fn()  # warm-up: page faults, caches, lazy initialisation
            number = 1
            while True:
                t = self._run(fn, number)
                if t >= per_repeat:
                    break
                # aim 20 % above the threshold, grow at least 2x, at most 100x per step
                grow = per_repeat / t * 1.2 if t > 0 else 100.0
                number = int(number * min(max(grow, 2.0), 100.0)) + 1
            best = t / number
            for _ in range(5):
                best = min(best, self._run(fn, number) / number)
            return best
        finally:
            if gc_was_enabled:
                gc.enable()

    # -- selection ----------------------------------------------------------------------------
    def selected(self, section, name=None):
        """Whether --only lets a row of this section (and name, if given) through."""
        if self.only is None or self.module_selected:
            return True
        hay = f"{section} {name}" if name is not None else str(section)
        # without a name, keep the section if the filter could match one of its rows
        return self.only in hay.lower() or (name is None)

    def _row_selected(self, section, name):
        if self.only is None or self.module_selected:
            return True
        return self.only in f"{section} {name}".lower()

    # -- results ------------------------------------------------------------------------------
    def check(self, rc, what=""):
        """Raises RuntimeError unless rc is SK_OK, with the library's last-error message."""
        if rc != 0:
            n = self.lib.sk_last_error_message(self.ffi.NULL, 0)
            buf = self.ffi.new("char[]", n + 1)
            self.lib.sk_last_error_message(buf, n + 1)
            status = self.ffi.string(self.lib.sk_status_name(rc)).decode()
            msg = self.ffi.string(buf).decode(errors="replace")
            raise RuntimeError(f"{what}: {status} ({rc}): {msg}")

    def header(self):
        line = ""
        for title, width, align in self.COLS:
            line += f"{title:{align}{width}} "
        print(line.rstrip())
        print("-" * len(line.rstrip()))

    def row(self, section, name, t_sigkern, t_reference, ref_label, target):
        """Records and prints one row; target = minimum t_reference / t_sigkern, or None."""
        if not self._row_selected(section, name):
            return
        ratio = None
        if t_sigkern and t_reference and t_sigkern > 0:
            ratio = t_reference / t_sigkern
        if target is None:
            status = ""
        elif ratio is None:
            status = "MISS"
        else:
            status = "PASS" if ratio >= target else "MISS"
        rec = dict(
            section=str(section),
            name=str(name),
            t_sigkern=t_sigkern,
            t_reference=t_reference,
            ref_label=str(ref_label),
            ratio=ratio,
            target=target,
            status=status,
        )
        self.rows.append(rec)
        cells = (
            rec["section"],
            rec["name"],
            fmt_time(t_sigkern),
            fmt_time(t_reference),
            rec["ref_label"],
            fmt_ratio(ratio, target),
            "-" if target is None else f"{target:.2f}",
            status,
        )
        line = ""
        for cell, (_, width, align) in zip(cells, self.COLS):
            line += f"{cell:{align}{width}} "
        if status == "MISS":
            line += " <<<"
        print(line.rstrip(), flush=True)

    def summary(self):
        targeted = [r for r in self.rows if r["target"] is not None]
        misses = [r for r in targeted if r["status"] == "MISS"]
        print()
        load = " ".join(f"{v:.2f}" for v in os.getloadavg())
        print(f"load avg at the end: {load} (other processes on the machine distort timings)")
        print(
            f"{len(self.rows)} rows, {len(targeted)} with a target: "
            f"{len(targeted) - len(misses)} PASS, {len(misses)} MISS"
        )
        if misses:
            print(
                f"MISSED targets ('~' = within {NOISE_BAND:.0%} of the target, the run-to-run "
                "noise of a shared machine: rerun before concluding):"
            )
            for r in misses:
                ratio = "n/a" if r["ratio"] is None else fmt_ratio(r["ratio"], r["target"])
                near = r["ratio"] is not None and r["ratio"] >= r["target"] * (1 - NOISE_BAND)
                print(
                    f"  {'~' if near else ' '} {r['section']} / {r['name']}: {ratio} vs "
                    f"{r['ref_label']} (target {r['target']:.2f}x; sigkern "
                    f"{fmt_time(r['t_sigkern'])}, reference {fmt_time(r['t_reference'])})"
                )
        return misses


def print_environment(ffi, lib, lib_path, blas_threads):
    print("sigkern compare: sigkern via CFFI vs numpy / scipy / torch")
    print(f"  library      {lib_path}")
    print(f"  sigkern      {ffi.string(lib.sk_version()).decode()}, "
          f"SIMD level {ffi.string(lib.sk_simd_level()).decode()}"
          f"{' (SIGKERN_SIMD=' + os.environ['SIGKERN_SIMD'] + ')' if 'SIGKERN_SIMD' in os.environ else ''}")
    print(f"  CPU          {cpu_model()} ({os.cpu_count()} logical CPUs), "
          f"load avg {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(f"  python       {platform.python_version()}, cffi {__import__('cffi').__version__}")
    feats = ""
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as cf

        best = [f for f in ("AVX512_SPR", "AVX512_ICL", "AVX512_SKX", "AVX2", "SSE42") if cf.get(f)]
        feats = f", numpy SIMD up to {best[0]}" if best else ""
    except Exception:  # noqa: BLE001 - informational only
        pass
    print(f"  numpy        {np.__version__}{feats}")
    try:
        import scipy

        print(f"  scipy        {scipy.__version__}")
    except ImportError:
        print("  scipy        not installed")
    try:
        import torch

        print(f"  torch        {torch.__version__}, {torch.get_num_threads()} threads, "
              f"CPU capability {torch.backends.cpu.get_cpu_capability()}")
    except ImportError:
        print("  torch        not installed")
    unset = os.environ.get(_UNSET_NOTE_VAR)
    if unset:
        print(f"  environment  removed before loading numpy (they slow OpenBLAS): {unset}")
    else:
        print("  environment  OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE not set")
    try:
        from threadpoolctl import threadpool_info, threadpool_limits

        if blas_threads is not None:
            # keep the limiter alive for the whole run
            print_environment.limiter = threadpool_limits(limits=blas_threads, user_api="blas")
        blas = [i for i in threadpool_info() if i.get("user_api") == "blas"]
        if not blas:
            print("  numpy BLAS   none reported by threadpoolctl")
        for i in blas:
            print(f"  numpy BLAS   {i.get('internal_api')} {i.get('version')}, "
                  f"kernel/core type {i.get('architecture')}, {i.get('num_threads')} threads "
                  f"({pathlib.Path(i.get('filepath', '?')).name})")
    except ImportError:
        print("  numpy BLAS   threadpoolctl not installed")
    print()


def load_module(path):
    spec = importlib.util.spec_from_file_location(f"sigkern_bench_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", metavar="SUBSTR", help="keep rows whose section/name contain SUBSTR")
    ap.add_argument("--quick", action="store_true", help=f"min_time x {QUICK_FACTOR}")
    ap.add_argument("--blas-threads", type=int, metavar="N",
                    help="limit numpy's BLAS to N threads (default: its own setting)")
    args = ap.parse_args(argv)

    lib_path = library_path()
    ffi = FFI()
    ffi.cdef((ROOT / "include" / "sigkern_cdef.h").read_text())
    lib = ffi.dlopen(str(lib_path))

    print_environment(ffi, lib, lib_path, args.blas_threads)
    ctx = Context(ffi, lib, only=args.only, quick=args.quick)

    modules = sorted(BENCHES.glob("compare_*.py"))
    if not modules:
        print("no benches/compare_*.py modules found")
    ctx.header()
    failed = []
    for path in modules:
        ctx.module_selected = ctx.only is not None and ctx.only in path.stem.lower()
        try:
            mod = load_module(path)
            if not hasattr(mod, "run"):
                raise AttributeError(f"{path.name} has no run(ctx)")
            mod.run(ctx)
        except Exception:  # noqa: BLE001 - report and go on with the other modules
            failed.append(path.name)
            print(f"!!! {path.name} raised:", flush=True)
            traceback.print_exc(file=sys.stdout)
    ctx.summary()
    if failed:
        print(f"modules that raised: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
