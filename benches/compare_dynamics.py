"""Dynamics vs pedalboard (JUCE): Compressor on 10 s of stereo and 16-channel 48 kHz float32,
Limiter on stereo (pedalboard's Limiter is a different algorithm: two compressors and a clip;
ours is a lookahead true-peak limiter with 4x oversampled detection).

Discovered by benches/compare.py; `run(ctx)` adds one row per case.
"""

RATE = 48000
SECS = 10


def _material(np, channels):
    rng = np.random.default_rng(0)
    n = RATE * SECS
    x = rng.standard_normal((channels, n)) * 0.2
    seg = RATE // 4
    return (x * np.repeat(10 ** (rng.uniform(-30, 6, n // seg + 1) / 20), seg)[:n]).astype(np.float32)


def run(ctx):
    if not ctx.selected("dynamics"):
        return
    run_dither(ctx)
    try:
        import pedalboard
    except ImportError:
        print("compare_dynamics: pedalboard not installed; skipped")
        return
    ffi, lib, np = ctx.ffi, ctx.lib, ctx.np
    for ch, target in ((2, 2.0), (16, 6.0)):
        x = _material(np, ch)
        n = x.shape[1]
        y = np.empty_like(x)
        px, py = ffi.from_buffer("float[]", x), ffi.from_buffer("float[]", y)
        h = ffi.new("SkDynamics **")
        ctx.check(lib.sk_compressor_new(RATE, -20.0, 4.0, 0.0, 1.0, 100.0, 0.0, 0, 0, h, ch), "sk_compressor_new")
        pb = pedalboard.Compressor(threshold_db=-20, ratio=4, attack_ms=1, release_ms=100)
        t_ref = ctx.timeit(lambda: pb(x, RATE))
        t_sk = ctx.timeit(lambda: lib.sk_dynamics_process_f32(h[0], px, n, ffi.NULL, 0, py, n, n))
        ctx.row("dynamics", f"compressor, 10 s {ch} ch 48k float", t_sk, t_ref, "pedalboard Compressor", target)
        lib.sk_dynamics_free(h[0])
    x = _material(np, 2)
    n = x.shape[1]
    y = np.empty_like(x)
    px, py = ffi.from_buffer("float[]", x), ffi.from_buffer("float[]", y)
    h = ffi.new("SkDynamics **")
    ctx.check(lib.sk_limiter_new(RATE, -1.0, 5.0, 100.0, h, 2), "sk_limiter_new")
    pb = pedalboard.Limiter(threshold_db=-1.0, release_ms=100)
    t_ref = ctx.timeit(lambda: pb(x, RATE))
    t_sk = ctx.timeit(lambda: lib.sk_dynamics_process_f32(h[0], px, n, ffi.NULL, 0, py, n, n))
    ctx.row("dynamics", "limiter (true peak, 5 ms lookahead), 10 s stereo", t_sk, t_ref, "pedalboard Limiter", 2.0)
    lib.sk_dynamics_free(h[0])


def run_dither(ctx):
    """Dithered int16 (TPDF) vs the undithered conversion, 10 s stereo float32."""
    ffi, lib, np = ctx.ffi, ctx.lib, ctx.np
    x = _material(np, 2).T.copy()
    n = x.size
    y = np.empty(n, np.int16)
    px, py = ffi.from_buffer("float[]", x), ffi.from_buffer("int16_t[]", y)
    st = ffi.new("SkDither *")
    ctx.check(lib.sk_dither_init(st, 1, 2, 0), "sk_dither_init")
    t_plain = ctx.timeit(lambda: lib.sk_pcm_to_i16_f32(px, py, n))
    t_dith = ctx.timeit(lambda: lib.sk_pcm_to_i16_dither_f32(px, py, n, st))
    # target: within 1.5x of the undithered conversion (ratio reference/sigkern >= 1/1.5)
    ctx.row("dynamics", "int16 TPDF dither vs undithered, 10 s stereo", t_dith, t_plain,
            "sk_pcm_to_i16_f32 (no dither)", 1 / 1.5)
    ctx.check(lib.sk_dither_init(st, 1, 2, 1), "sk_dither_init")
    t_shape = ctx.timeit(lambda: lib.sk_pcm_to_i16_dither_f32(px, py, n, st))
    ctx.row("dynamics", "int16 dither + noise shaping vs undithered", t_shape, t_plain,
            "sk_pcm_to_i16_f32 (no dither)", None)
