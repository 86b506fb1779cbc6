"""Filters vs scipy.signal: biquad cascades (sosfilt), FIR (lfilter, oaconvolve).

Discovered by benches/compare.py; `run(ctx)` adds one row per case. Handles, buffers and CFFI
pointers are prepared outside the timed lambdas; each timed sigkern call processes the whole
signal through a persistent handle (the state carries over between repetitions, which does not
change the work done).
"""

import scipy.signal as ss

N = 480_000


def _biquad(ctx, sos, x, ct):
    ffi, lib = ctx.ffi, ctx.lib
    np = ctx.np
    channels = x.shape[0]
    out = ffi.new("SkBiquad **")
    new = lib.sk_biquad_f32_new if ct == "float" else lib.sk_biquad_f64_new
    assert new(ffi.from_buffer("double[]", np.ascontiguousarray(sos)), channels, out, len(sos)) == 0
    y = np.empty_like(x)
    px, py = ffi.from_buffer(ct + "[]", x), ffi.from_buffer(ct + "[]", y)
    proc = lib.sk_biquad_f32_process if ct == "float" else lib.sk_biquad_f64_process
    h = out[0]
    n = x.shape[1]
    t = ctx.timeit(lambda: proc(h, px, n, py, n, n))
    lib.sk_biquad_free(h)
    return t


def _fir(ctx, taps, x, ct):
    ffi, lib = ctx.ffi, ctx.lib
    out = ffi.new("SkFir **")
    new = lib.sk_fir_f32_new if ct == "float" else lib.sk_fir_f64_new
    assert new(ffi.from_buffer(ct + "[]", taps), out, len(taps)) == 0
    y = ctx.np.empty_like(x)
    px, py = ffi.from_buffer(ct + "[]", x), ffi.from_buffer(ct + "[]", y)
    proc = lib.sk_fir_f32_process if ct == "float" else lib.sk_fir_f64_process
    h = out[0]
    t = ctx.timeit(lambda: proc(h, px, py, len(x)))
    lib.sk_fir_free(h)
    return t


def run(ctx):
    np = ctx.np
    rng = np.random.default_rng(0)
    sos = ss.butter(8, 0.1, output="sos")  # order 8: 4 sections
    for dtype, ct in ((np.float64, "double"), (np.float32, "float")):
        x = rng.standard_normal((1, N)).astype(dtype)
        t_sk = _biquad(ctx, sos, x, ct)
        x1 = x[0]
        t_ref = ctx.timeit(lambda: ss.sosfilt(sos, x1))
        ctx.row("filter", f"biquad order-8, 1 ch x {N} {ct}", t_sk, t_ref, "scipy.signal.sosfilt", 1.5)
    for dtype, ct in ((np.float64, "double"), (np.float32, "float")):
        x = rng.standard_normal((16, N)).astype(dtype)
        t_sk = _biquad(ctx, sos, x, ct)
        t_ref = ctx.timeit(lambda: ss.sosfilt(sos, x, axis=-1))
        ctx.row("filter", f"biquad order-8, (16, {N}) {ct}", t_sk, t_ref, "sosfilt(axis=-1)", 8.0)
    for dtype, ct in ((np.float64, "double"), (np.float32, "float")):
        x = rng.standard_normal(N).astype(dtype)
        h63 = ss.firwin(63, 0.2).astype(dtype)
        t_sk = _fir(ctx, h63, x, ct)
        t_ref = ctx.timeit(lambda: ss.lfilter(h63, 1.0, x))
        ctx.row("filter", f"FIR 63 taps x {N} {ct}", t_sk, t_ref, "scipy.signal.lfilter", 2.0)
        h1023 = ss.firwin(1023, 0.2).astype(dtype)
        t_sk = _fir(ctx, h1023, x, ct)
        t_ref = ctx.timeit(lambda: ss.oaconvolve(x, h1023))
        ctx.row("filter", f"FIR 1023 taps x {N} {ct}", t_sk, t_ref, "scipy.signal.oaconvolve", 1.0)
    # general IIR (b, a) and zero-phase filtering (issue targets: lfilter and sosfiltfilt order 8
    # on (16, N) at least 8x scipy, filtfilt order 4 on 1 x N at least 3x)
    b8, a8 = ss.butter(8, 0.1)
    b4, a4 = ss.butter(4, 0.1)
    B8, A8 = ctx.ffi.from_buffer("double[]", b8), ctx.ffi.from_buffer("double[]", a8)
    B4, A4 = ctx.ffi.from_buffer("double[]", b4), ctx.ffi.from_buffer("double[]", a4)
    S8 = ctx.ffi.from_buffer("double[]", np.ascontiguousarray(sos))
    nul = ctx.ffi.NULL
    lib, ffi = ctx.lib, ctx.ffi
    x = rng.standard_normal((16, N))
    y = np.empty_like(x)
    px, py = ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", y)
    t_sk = ctx.timeit(lambda: lib.sk_lfilter_f64(B8, A8, px, N, nul, 16, py, N, nul, 9, 9, N))
    t_ref = ctx.timeit(lambda: ss.lfilter(b8, a8, x, axis=-1))
    ctx.row("filter", f"lfilter order-8 (b, a), (16, {N}) double", t_sk, t_ref, "scipy.signal.lfilter", 8.0)
    t_sk = ctx.timeit(lambda: lib.sk_sosfiltfilt_f64(S8, px, N, 0, -1, 16, py, N, len(sos), N))
    t_ref = ctx.timeit(lambda: ss.sosfiltfilt(sos, x, axis=-1))
    ctx.row("filter", f"sosfiltfilt order-8, (16, {N}) double", t_sk, t_ref, "scipy.signal.sosfiltfilt", 8.0)
    x1 = np.ascontiguousarray(x[:1])
    y1 = np.empty_like(x1)
    p1, q1 = ffi.from_buffer("double[]", x1), ffi.from_buffer("double[]", y1)
    t_sk = ctx.timeit(lambda: lib.sk_filtfilt_f64(B4, A4, p1, N, 0, -1, 1, q1, N, 5, 5, N))
    t_ref = ctx.timeit(lambda: ss.filtfilt(b4, a4, x1[0]))
    ctx.row("filter", f"filtfilt order-4 (b, a), 1 x {N} double", t_sk, t_ref, "scipy.signal.filtfilt", 3.0)
