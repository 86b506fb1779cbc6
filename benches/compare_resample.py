"""Resampling vs python-soxr and scipy.signal.resample_poly.

Discovered by benches/compare.py (`python benches/compare.py --only resample`); `run(ctx)` adds
one row per case. sigkern runs the one-shot C function (delay removed, tail flushed, the same
output length as soxr; the filter is designed inside every call) on buffers prepared outside
the timed lambdas; the "(handle)" rows run the whole signal through a persistent handle
(process + flush; the filter designed once). soxr runs `soxr.resample` (one-shot, delay
removed). The streaming row pushes 512-frame stereo
blocks through one handle and compares with the whole-buffer one-shot call of sigkern itself.
Quality at each preset is measured in python_tests/cabi/test_resample_quality.py (HIGH rejects
aliases at least as well as soxr HQ; resample_poly's default filter only by 7-16 dB).
"""

N = 480_000  # 10 s at 48 kHz
HIGH, VERY_HIGH = 3, 4


def _oneshot(ctx, x, fin, fout, q, interleaved):
    ffi, lib, np = ctx.ffi, ctx.lib, ctx.np
    ct = "float" if x.dtype == np.float32 else "double"
    n_out = ffi.new("size_t *")
    n = x.shape[0] if interleaved else x.shape[-1]
    ctx.check(lib.sk_resample_size(fin, fout, n_out, n), "sk_resample_size")
    m = n_out[0]
    ch = x.shape[1] if interleaved else (1 if x.ndim == 1 else x.shape[0])
    y = np.empty((m, ch) if interleaved else ((ch, m) if x.ndim > 1 else (m,)), x.dtype)
    px, py = ffi.from_buffer(ct + "[]", x), ffi.from_buffer(ct + "[]", y)
    if interleaved:
        f = lib.sk_resample_f32_interleaved if ct == "float" else lib.sk_resample_f64_interleaved
        call = lambda: f(px, fin, fout, q, ch, py, n, m)  # noqa: E731
    else:
        f = lib.sk_resample_f32 if ct == "float" else lib.sk_resample_f64
        call = lambda: f(px, n, fin, fout, q, ch, py, m, n, m)  # noqa: E731
    ctx.check(call(), "sk_resample")
    return ctx.timeit(call)


def _stream_blocks(ctx, x, fin, fout, q, block):
    """Interleaved (n, ch) float32 through one handle in blocks; one full pass per call."""
    ffi, lib, np = ctx.ffi, ctx.lib, ctx.np
    n, ch = x.shape
    hp = ffi.new("SkResampler **")
    ctx.check(lib.sk_resampler_f32_new(fin, fout, ch, q, hp), "sk_resampler_f32_new")
    h = hp[0]
    cap = block * 2 + 64
    y = np.empty((cap, ch), np.float32)
    py = ffi.from_buffer("float[]", y)
    blocks = [ffi.from_buffer("float[]", x[i:i + block]) for i in range(0, n, block)]
    sizes = [min(block, n - i) for i in range(0, n, block)]
    used, made = ffi.new("size_t *"), ffi.new("size_t *")
    proc = lib.sk_resampler_f32_process_interleaved
    tail = np.empty((4096, ch), np.float32)
    pt = ffi.from_buffer("float[]", tail)
    flush = lib.sk_resampler_f32_flush_interleaved

    def run():
        for pb, sz in zip(blocks, sizes):
            proc(h, pb, py, used, made, sz, cap)
        flush(h, pt, made, 4096)

    run()
    t = ctx.timeit(run)
    lib.sk_resampler_free(h)
    return t


def _handle_whole(ctx, x, fin, fout, q):
    """The whole (n, ch) interleaved signal through a persistent handle: process + flush (the
    filter is designed once, outside the timing)."""
    ffi, lib, np = ctx.ffi, ctx.lib, ctx.np
    n, ch = x.shape
    ct = "float" if x.dtype == np.float32 else "double"
    sfx = "f32" if ct == "float" else "f64"
    hp = ffi.new("SkResampler **")
    ctx.check(getattr(lib, f"sk_resampler_{sfx}_new")(fin, fout, ch, q, hp), "new")
    h = hp[0]
    cap = int(n * fout / fin) + 4096
    y = np.empty((cap, ch), x.dtype)
    px, py = ffi.from_buffer(ct + "[]", x), ffi.from_buffer(ct + "[]", y)
    proc = getattr(lib, f"sk_resampler_{sfx}_process_interleaved")
    flush = getattr(lib, f"sk_resampler_{sfx}_flush_interleaved")
    used, made, tail = ffi.new("size_t *"), ffi.new("size_t *"), ffi.new("size_t *")

    def run():
        proc(h, px, py, used, made, n, cap)
        flush(h, ffi.from_buffer(ct + "[]", y[made[0]:]), tail, cap - made[0])

    run()
    t = ctx.timeit(run)
    lib.sk_resampler_free(h)
    return t


def run(ctx):
    np = ctx.np
    try:
        import soxr
    except ImportError:
        soxr = None
    import scipy.signal as ss

    rng = np.random.default_rng(0)
    x = rng.standard_normal(N).astype(np.float32)
    for fin, fout in ((48000, 44100), (44100, 48000)):
        xi = x[: N if fin == 48000 else 441_000]
        for q, name, target in ((HIGH, "HQ", 1.2), (VERY_HIGH, "VHQ", 1.0)):
            label = f"{fin // 1000}k->{fout / 1000:g}k mono f32 {'HIGH' if q == HIGH else 'VERY_HIGH'}"
            if not ctx.selected("resample", label):
                continue
            t_sk = _oneshot(ctx, xi, fin, fout, q, False)
            t_ref = ctx.timeit(lambda: soxr.resample(xi, fin, fout, quality=name)) if soxr else None
            ctx.row("resample", label, t_sk, t_ref, f"soxr.resample {name}", target)
            t_h = _handle_whole(ctx, xi.reshape(-1, 1), fin, fout, q)
            ctx.row("resample", label + " (handle)", t_h, t_ref, f"soxr.resample {name}", None)

    x16 = rng.standard_normal((N, 16)).astype(np.float32)
    label = f"48k->44.1k ({N}, 16) f32 HIGH"
    if ctx.selected("resample", label):
        t_sk = _oneshot(ctx, x16, 48000, 44100, HIGH, True)
        t_ref = ctx.timeit(lambda: soxr.resample(x16, 48000, 44100, quality="HQ")) if soxr else None
        ctx.row("resample", label, t_sk, t_ref, "soxr.resample HQ", 6.0)
        t_h = _handle_whole(ctx, x16, 48000, 44100, HIGH)
        ctx.row("resample", label + " (handle)", t_h, t_ref, "soxr.resample HQ", None)

    st = np.ascontiguousarray(rng.standard_normal((N, 2)).astype(np.float32))
    label = "48k->44.1k stereo, 512-frame blocks"
    if ctx.selected("resample", label):
        t_stream = _stream_blocks(ctx, st, 48000, 44100, HIGH, 512)
        t_whole = _oneshot(ctx, st, 48000, 44100, HIGH, True)
        ctx.row("resample", label, t_stream, t_whole, "sigkern whole buffer", 0.8)

    for dt, ct in ((np.float64, "double"), (np.float32, "float")):
        label = f"resample_poly 147/160 mono {'f64' if ct == 'double' else 'f32'}"
        if not ctx.selected("resample", label):
            continue
        xp = x.astype(dt)
        n_out = ctx.ffi.new("size_t *")
        ctx.check(ctx.lib.sk_resample_poly_size(147, 160, n_out, N), "sk_resample_poly_size")
        yp = np.empty(n_out[0], dt)
        px, py = ctx.ffi.from_buffer(ct + "[]", xp), ctx.ffi.from_buffer(ct + "[]", yp)
        f = ctx.lib.sk_resample_poly_f64 if ct == "double" else ctx.lib.sk_resample_poly_f32
        call = lambda: f(px, 147, 160, py, N, n_out[0])  # noqa: E731
        ctx.check(call(), "sk_resample_poly")
        t_sk = ctx.timeit(call)
        t_ref = ctx.timeit(lambda: ss.resample_poly(xp, 147, 160))
        ctx.row("resample", label, t_sk, t_ref, "scipy resample_poly", 3.0)

    label = "48k->44.1k mono f64 HIGH vs resample_poly"
    if ctx.selected("resample", label):
        xd = x.astype(np.float64)
        t_sk = _oneshot(ctx, xd, 48000, 44100, HIGH, False)
        t_ref = ctx.timeit(lambda: ss.resample_poly(xd, 147, 160))
        ctx.row("resample", label, t_sk, t_ref, "resample_poly (-7..-16 dB)", None)
