"""Two builds of libsigkern side by side in one process: the same calls on the same buffers,
timed alternately (best of interleaved repeats), printed as ratios (time of A / time of B).

    .venv/bin/python benches/ab_builds.py A/libsigkern.so B/libsigkern.so [--rounds 7] [--only TEXT]

Use it to check that a change meant to leave speed alone (a smaller library, a refactoring)
does: ratios near 1.00 mean the same speed. Both libraries are loaded with the cdef of
include/sigkern_cdef.h; only the functions used below need to exist in both. The rows cover the
biquad cascade (every lane width and both layouts), one-channel filtfilt, the FIR, elementwise,
reduction, strided, PCM and FFT kernels, strided and per-row reductions, STFT/ISTFT, mel,
convolution, the FIR's FFT form, the dynamics processors at every channel-group width and
batched real FFTs; --only keeps the rows whose name contains its text.
SIGKERN_SIMD and SIGKERN_THREADS apply to both libraries alike.

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
    # zero-phase filtering of one channel (transfer-function form, order 4 and 8)
    for order in (4, 8):
        b, a = (np.ascontiguousarray(v) for v in ss.butter(order, 0.1))
        pb_, pa_ = ffi.from_buffer("double[]", b), ffi.from_buffer("double[]", a)
        for dt, ct in ((np.float64, "double"), (np.float32, "float")):
            x = rng.standard_normal(n).astype(dt)
            y = np.empty_like(x)
            fn = lib.sk_filtfilt_f32 if ct == "float" else lib.sk_filtfilt_f64
            px, py = ffi.from_buffer(ct + "[]", x), ffi.from_buffer(ct + "[]", y)
            out.append((f"filtfilt order {order} (1, {n}) {ct}",
                        lambda fn=fn, pb_=pb_, pa_=pa_, px=px, py=py, k=order + 1:
                        fn(pb_, pa_, px, n, 0, -1, 1, py, n, k, k, n)))
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
    # strided reductions: the fixed-stride kernels (±2…±4) and the gathered rest
    for st in (2, 3, 4, -1, -2, -3, -4, 5):
        m = a.size // abs(st)
        first = 0 if st > 0 else (m - 1) * -st
        pfirst = pa + first
        out.append((f"sum x[::{st}] float {m // 1024}k",
                    lambda pfirst=pfirst, st=st, m=m: lib.sk_sum_strided_f32(pfirst, st, s, m)))
    d = rng.standard_normal(1 << 19)
    pd, sd = ffi.from_buffer("double[]", d), ffi.new("double *")
    for st in (2, 3, -1, -2):
        m = d.size // abs(st)
        first = 0 if st > 0 else (m - 1) * -st
        out.append((f"sum x[::{st}] double {m // 1024}k",
                    lambda pf=pd + first, st=st, m=m: lib.sk_sum_strided_f64(pf, st, sd, m)))
    # per-row reductions (threaded)
    rows = rng.standard_normal((64, 48_000)).astype(np.float32)
    prow, rout = ffi.from_buffer("float[]", rows), ffi.new("float[64]")
    out.append(("rows rms (64, 48000) float", lambda: lib.sk_rows_rms_f32(prow, 48_000, rout, 64, 48_000)))
    # STFT / ISTFT (10 s at 16 kHz, n_fft 1024, hop 256, centered, reflect) and mel
    sig = rng.standard_normal(160_000)
    win = np.hanning(1025)[:-1]
    frames = 1 + sig.size // 256
    for ct, dt in (("float", np.float32), ("double", np.float64)):
        xs, ws = sig.astype(dt), win.astype(dt)
        ys = np.empty(2 * 513 * frames, dt)
        pxs, pws, pys = (ffi.from_buffer(ct + "[]", v) for v in (xs, ws, ys))
        stft = lib.sk_stft_f32 if ct == "float" else lib.sk_stft_f64
        out.append((f"stft 10 s 16 kHz n_fft 1024 {ct}",
                    lambda stft=stft, pxs=pxs, pws=pws, pys=pys, ys=ys, xs=xs:
                    stft(pxs, pws, 1024, 256, 1024, 1, 1, 1, 0, pys, ys.size // 2, xs.size)))
        if ct == "float":
            assert stft(pxs, pws, 1024, 256, 1024, 1, 1, 1, 0, pys, ys.size // 2, xs.size) == 0
            yi = np.empty(256 * (frames - 1), dt)
            pyi = ffi.from_buffer(ct + "[]", yi)
            out.append((f"istft 10 s 16 kHz n_fft 1024 {ct}",
                        lambda pys=pys, pws=pws, pyi=pyi, yi=yi:
                        lib.sk_istft_f32(pys, pws, frames, 1024, 256, 1024, 1, 1, 0, pyi, yi.size)))
    mel = ffi.new("SkMelPlan **")
    assert lib.sk_mel_plan_f32_new(16000.0, 1024, 256, 1024, 1, 0.0, 1, 1, 2.0, 80, 0.0, 8000.0,
                                   0, 1, mel) == 0
    xs = sig.astype(np.float32)
    ym = np.empty(80 * frames, np.float32)
    pxm, pym = ffi.from_buffer("float[]", xs), ffi.from_buffer("float[]", ym)
    out.append(("melspec 10 s 16 kHz 80 mels float",
                lambda: lib.sk_melspec_f32(mel[0], pxm, pym, ym.size, xs.size)))
    # convolution: direct and FFT; the FIR above 160 taps (FFT overlap-save)
    ca = rng.standard_normal(65_536).astype(np.float32)
    cb = rng.standard_normal(4096).astype(np.float32)
    cy = np.empty(65_536, np.float32)
    pca, pcb, pcy = (ffi.from_buffer("float[]", v) for v in (ca, cb, cy))
    out.append(("convolve same 64k * 4k float FFT",
                lambda: lib.sk_convolve_f32(pca, pcb, 1, 2, pcy, 65_536, 4096, 65_536)))
    cb2 = cb[:64].copy()
    pcb2 = ffi.from_buffer("float[]", cb2)
    out.append(("convolve same 64k * 64 float direct",
                lambda: lib.sk_convolve_f32(pca, pcb2, 1, 1, pcy, 65_536, 64, 65_536)))
    taps2 = ss.firwin(1023, 0.2).astype(np.float32)
    hf2 = ffi.new("SkFir **")
    assert lib.sk_fir_f32_new(ffi.from_buffer("float[]", taps2), hf2, len(taps2)) == 0
    out.append(("FIR 1023 taps float (FFT form)", lambda: lib.sk_fir_f32_process(hf2[0], pxf, pyf, n)))
    # dynamics: every channel-group width (1, 2, 4, 8, 16 lanes), compressor, gate, envelope
    dyn_keep = []
    for kind, ch, ct in (("compressor", 1, "float"), ("compressor", 2, "float"),
                         ("compressor", 4, "double"), ("compressor", 8, "float"),
                         ("compressor", 16, "float"), ("compressor", 16, "double"),
                         ("gate", 8, "double"), ("envelope", 16, "float")):
        dt = np.float32 if ct == "float" else np.float64
        m = 96_000 if ch <= 2 else 24_000
        xd = rng.standard_normal((ch, m)).astype(dt)
        yd = np.empty_like(xd)
        hd = ffi.new("SkDynamics **")
        if kind == "compressor":
            assert lib.sk_compressor_new(48000.0, -20.0, 4.0, 6.0, 5.0, 50.0, 0.0, 0, 0, hd, ch) == 0
        elif kind == "gate":
            assert lib.sk_gate_new(48000.0, -30.0, 10.0, 1.0, 50.0, 5.0, 0, hd, ch) == 0
        else:
            assert lib.sk_envelope_new(48000.0, 5.0, 50.0, 1, 0, hd, ch) == 0
        proc = lib.sk_dynamics_process_f32 if ct == "float" else lib.sk_dynamics_process_f64
        pxd, pyd = ffi.from_buffer(ct + "[]", xd), ffi.from_buffer(ct + "[]", yd)
        out.append((f"{kind} planar ({ch}, {m}) {ct}",
                    lambda proc=proc, h=hd[0], px=pxd, py=pyd, m=m: proc(h, px, m, ffi.NULL, 0, py, m, m)))
        dyn_keep.append((xd, yd, hd))
    # batched real FFTs (the rows in SIMD lanes)
    for ct, new in (("float", lib.sk_fft_plan_f32_new), ("double", lib.sk_fft_plan_f64_new)):
        dt = np.float32 if ct == "float" else np.float64
        bplan = ffi.new("SkFftPlan **")
        assert new(0, 1024, bplan) == 0
        xb = rng.standard_normal((64, 1024)).astype(dt)
        yb = np.empty((64, 2 * 513), dt)
        batch = lib.sk_rfft_batch_f32 if ct == "float" else lib.sk_rfft_batch_f64
        pxb, pyb = ffi.from_buffer(ct + "[]", xb), ffi.from_buffer(ct + "[]", yb)
        out.append((f"rfft batch (64, 1024) {ct}",
                    lambda batch=batch, p=bplan[0], px=pxb, py=pyb: batch(p, px, 1024, 0, py, 513, 64, 1024)))
        dyn_keep.append((bplan, xb, yb))
    # keep the buffers alive as long as the lambdas
    out.append((None, (d, rows, sig, xs, ym, ca, cb, cy, cb2, taps2, hf2, mel, dyn_keep)))
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
    ap.add_argument("--only", default="", help="run only the rows whose name contains this text")
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
            if name is None or args.only not in name:
                continue
            ta, tb = best_interleaved(fa, fb, args.rounds)
            print(f"{name:44} {ta * 1e6:8.1f}us {tb * 1e6:8.1f}us {ta / tb:6.2f}")


if __name__ == "__main__":
    main()
