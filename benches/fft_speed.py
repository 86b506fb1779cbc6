"""Float64 FFT speed: sigkern's plans against numpy.fft, side by side in one process.

sigkern runs through raw CFFI calls on a reused plan (``sk_fft_f64`` / ``sk_rfft_f64`` per
transform, and ``sk_*_batch_f64`` over a block of rows on one thread); numpy.fft runs on the
same data (one call per transform, and one call on the block). The block mode amortises the
Python call overhead of both (about 0.1 µs for a CFFI call, a few µs for numpy), so it compares
the transforms themselves. Times are the best of several repeats, µs per transform.

    SIGKERN_THREADS=1 PYTHONPATH=python python benches/fft_speed.py [n ...]
"""

import os
import sys
import time

os.environ.setdefault("SIGKERN_THREADS", "1")  # batches on one thread, as numpy

import numpy as np  # noqa: E402

from sigkern._lib import ffi, lib  # noqa: E402

SIZES = [400, 480, 960, 1000, 1920, 3072, 5120, 6000, 44100, 4099]
REAL, COMPLEX = 0, 1


def best(f, reps=7, target=0.03):
    f()
    t = time.perf_counter()
    k = 0
    while time.perf_counter() - t < 2e-3:
        f()
        k += 1
    batch = max(1, int(target / ((time.perf_counter() - t) / k)))
    b = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(batch):
            f()
        b = min(b, (time.perf_counter() - t) / batch)
    return b


def plan(kind, n):
    p = ffi.new("struct SkFftPlan **")
    st = lib.sk_fft_plan_f64_new(kind, n, p)
    assert st == 0, st
    return ffi.gc(p[0], lib.sk_fft_plan_free)


def main():
    sizes = [int(a) for a in sys.argv[1:]] or SIZES
    rng = np.random.default_rng(0)
    print(f"float64, µs per transform (best of 7); SIMD {ffi.string(lib.sk_simd_level()).decode()}")
    print(f"{'n':>7} | {'fft sk':>8} {'numpy':>8} {'ratio':>6} {'blk sk':>8} {'numpy':>8} {'ratio':>6}"
          f" | {'rfft sk':>8} {'numpy':>8} {'ratio':>6} {'blk sk':>8} {'numpy':>8} {'ratio':>6}")
    for n in sizes:
        rows = max(4, (1 << 16) // n)
        z = rng.standard_normal((rows, n)) + 1j * rng.standard_normal((rows, n))
        x = rng.standard_normal((rows, n))
        h = n // 2 + 1
        pc, pr = plan(COMPLEX, n), plan(REAL, n)
        yc = np.empty((rows, n), np.complex128)
        yr = np.empty((rows, h), np.complex128)
        cz, cyc = ffi.from_buffer("double[]", z), ffi.from_buffer("double[]", yc, True)
        cx, cyr = ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", yr, True)
        z0, x0 = z[0], x[0]
        cz0, cyc0 = ffi.from_buffer("double[]", z0), ffi.from_buffer("double[]", yc[0], True)
        cx0, cyr0 = ffi.from_buffer("double[]", x0), ffi.from_buffer("double[]", yr[0], True)
        fft1, rfft1 = lib.sk_fft_f64, lib.sk_rfft_f64
        fftb, rfftb = lib.sk_fft_batch_f64, lib.sk_rfft_batch_f64
        res = [
            best(lambda: fft1(pc, cz0, 0, cyc0, n)),
            best(lambda: np.fft.fft(z0)),
            best(lambda: fftb(pc, cz, n, 0, 0, cyc, n, rows, n)) / rows,
            best(lambda: np.fft.fft(z, axis=-1)) / rows,
            best(lambda: rfft1(pr, cx0, 0, cyr0, n)),
            best(lambda: np.fft.rfft(x0)),
            best(lambda: rfftb(pr, cx, n, 0, cyr, h, rows, n)) / rows,
            best(lambda: np.fft.rfft(x, axis=-1)) / rows,
        ]
        assert np.allclose(yc, np.fft.fft(z)) and np.allclose(yr, np.fft.rfft(x))
        us = [v * 1e6 for v in res]
        cols = []
        for i in range(0, 8, 2):
            cols.append(f"{us[i]:8.2f} {us[i + 1]:8.2f} {us[i] / us[i + 1]:6.2f}")
        print(f"{n:7d} | {cols[0]} {cols[1]} | {cols[2]} {cols[3]}", flush=True)


if __name__ == "__main__":
    main()
