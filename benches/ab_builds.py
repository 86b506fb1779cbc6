"""Two builds of libsigkern side by side in one process: the same calls on the same buffers,
timed alternately (best of interleaved repeats), printed as ratios (time of A / time of B).

    .venv/bin/python benches/ab_builds.py A/libsigkern.so B/libsigkern.so [--rounds 7]

Use it to check that a change meant to leave speed alone (a smaller library, a refactoring)
does: ratios near 1.00 mean the same speed. Both libraries are loaded with the cdef of
include/sigkern_cdef.h; only the functions used below need to exist in both. The rows cover the
biquad cascade (every lane width and both layouts), the FIR, elementwise, reduction, strided,
PCM and FFT kernels. SIGKERN_SIMD and SIGKERN_THREADS apply to both libraries alike.

On a busy machine, `--cpu` times with the process's CPU time instead of the wall clock, which
other processes disturb less (use it with SIGKERN_THREADS=1, so no call waits for a thread).
"""

import argparse
import gc
import pathlib
import shutil
import tempfile
import time

import numpy as np
import scipy.signal as ss
from cffi import FFI

ROOT = pathlib.Path(__file__).resolve().parent.parent


def load(ffi, path, tmp, tag):
    # a copy under its own name, so the dynamic loader does not hand back the first library for
    # the second path (both carry the same SONAME)
    copy = pathlib.Path(tmp) / f"libsigkern-{tag}.so"
    shutil.copy(path, copy)
    return ffi.dlopen(str(copy))


def cases(ffi, lib):
    """(name, callable) pairs for one library; buffers are allocated per library."""
    rng = np.random.default_rng(0)
    n = 480_000
    out = []
    sos = np.ascontiguousarray(ss.butter(8, 0.1, output="sos"))
    for ch, dt, ct in ((1, np.float64, "double"), (1, np.float32, "float"), (4, np.float32, "float"),
                       (8, np.float64, "double"), (16, np.float32, "float"), (16, np.float64, "double")):
        x = rng.standard_normal((ch, n // max(1, ch // 4))).astype(dt)
        y = np.empty_like(x)
        h = ffi.new("SkBiquad **")
        new = lib.sk_biquad_f32_new if ct == "float" else lib.sk_biquad_f64_new
        assert new(ffi.from_buffer("double[]", sos), ch, h, len(sos)) == 0
        proc = lib.sk_biquad_f32_process if ct == "float" else lib.sk_biquad_f64_process
        px, py, m = ffi.from_buffer(ct + "[]", x), ffi.from_buffer(ct + "[]", y), x.shape[1]
        out.append((f"biquad order-8 planar ({ch}, {m}) {ct}",
                    lambda proc=proc, h=h[0], px=px, py=py, m=m: proc(h, px, m, py, m, m)))
        if ch in (4, 16):
            inter = lib.sk_biquad_f32_process_interleaved if ct == "float" else lib.sk_biquad_f64_process_interleaved
            out.append((f"biquad order-8 interleaved ({ch}, {m}) {ct}",
                        lambda inter=inter, h=h[0], px=px, py=py, m=m: inter(h, px, py, m)))
    taps = ss.firwin(63, 0.2).astype(np.float32)
    hf = ffi.new("SkFir **")
    assert lib.sk_fir_f32_new(ffi.from_buffer("float[]", taps), hf, len(taps)) == 0
    xf = rng.standard_normal(n).astype(np.float32)
    yf = np.empty_like(xf)
    pxf, pyf = ffi.from_buffer("float[]", xf), ffi.from_buffer("float[]", yf)
    out.append(("FIR 63 taps float", lambda: lib.sk_fir_f32_process(hf[0], pxf, pyf, n)))
    a = rng.standard_normal(1 << 20).astype(np.float32)
    b = np.empty_like(a)
    pa, pb = ffi.from_buffer("float[]", a), ffi.from_buffer("float[]", b)
    s = ffi.new("float *")
    out.append(("scale float 1M", lambda: lib.sk_scale_f32(pa, 0.5, pb, a.size)))
    out.append(("sum float 1M", lambda: lib.sk_sum_f32(pa, s, a.size)))
    out.append(("scale x[::2] float 512k", lambda: lib.sk_scale_strided_f32(pa, 2, 0.5, pb, 1, a.size // 2)))
    pcm = np.empty(a.size, np.int16)
    ppcm = ffi.from_buffer("int16_t[]", pcm)
    np.clip(a, -1, 1, out=a)
    out.append(("float32 -> int16 1M", lambda: lib.sk_pcm_to_i16_f32(pa, ppcm, a.size)))
    plan = ffi.new("SkFftPlan **")
    assert lib.sk_fft_plan_f64_new(0, 4096, plan) == 0
    xr = rng.standard_normal(4096)
    yr = np.empty(2 * 2049)
    pxr, pyr = ffi.from_buffer("double[]", xr), ffi.from_buffer("double[]", yr)
    out.append(("rfft double 4096", lambda: lib.sk_rfft_f64(plan[0], pxr, 0, pyr, 4096)))
    return out


CLOCK = time.perf_counter


def calibrate(fn, per_repeat=0.02):
    number = 1
    while True:
        t0 = CLOCK()
        for _ in range(number):
            fn()
        if CLOCK() - t0 >= per_repeat:
            return number
        number *= 2


def best_interleaved(fa, fb, rounds):
    fb()  # warm up B too (page faults on its buffers), as calibrate() does A
    number = calibrate(fa)
    best = [float("inf"), float("inf")]
    for r in range(rounds):
        # alternate which library runs first in a round
        for k, fn in ((0, fa), (1, fb)) if r % 2 == 0 else ((1, fb), (0, fa)):
            t0 = CLOCK()
            for _ in range(number):
                fn()
            best[k] = min(best[k], (CLOCK() - t0) / number)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", help="library A (e.g. the build before a change)")
    ap.add_argument("b", help="library B (e.g. the build after it)")
    ap.add_argument("--rounds", type=int, default=7, help="interleaved repeats per row (best of)")
    ap.add_argument("--cpu", action="store_true", help="time with process CPU time, not wall time")
    args = ap.parse_args()
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time
    ffi = FFI()
    ffi.cdef((ROOT / "include" / "sigkern_cdef.h").read_text())
    with tempfile.TemporaryDirectory() as tmp:
        la, lb = load(ffi, args.a, tmp, "a"), load(ffi, args.b, tmp, "b")
        print(f"A: {args.a} ({ffi.string(la.sk_simd_level()).decode()})")
        print(f"B: {args.b} ({ffi.string(lb.sk_simd_level()).decode()})")
        ca, cb = cases(ffi, la), cases(ffi, lb)
        print(f"{'row':44} {'A':>10} {'B':>10} {'A/B':>6}")
        gc.disable()
        for (name, fa), (_, fb) in zip(ca, cb):
            ta, tb = best_interleaved(fa, fb, args.rounds)
            print(f"{name:44} {ta * 1e6:8.1f}us {tb * 1e6:8.1f}us {ta / tb:6.2f}")


if __name__ == "__main__":
    main()
