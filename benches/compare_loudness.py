"""Loudness vs pyloudnorm: integrated loudness of 10 s of stereo 48 kHz music-like material.

Discovered by benches/compare.py; `run(ctx)` adds one row per case. The `ebur128` crate is
compared in `cargo bench --bench loudness` (benches/loudness.rs), pedalboard has no meter.
"""

RATE = 48000
SECS = 10


def _material(np):
    rng = np.random.default_rng(0)
    n = RATE * SECS
    t = np.arange(n) / RATE
    x = rng.standard_normal((2, n)) * 0.1 + 0.2 * np.sin(2 * np.pi * 220 * t)
    seg = int(1.7 * RATE)
    return x * np.repeat(10 ** (rng.uniform(-20, 0, n // seg + 1) / 20), seg)[:n]


def run(ctx):
    if not ctx.selected("loudness"):
        return
    try:
        import pyloudnorm
    except ImportError:
        print("compare_loudness: pyloudnorm not installed; skipped")
        return
    ffi, lib, np = ctx.ffi, ctx.lib, ctx.np
    x64 = _material(np)
    meter = pyloudnorm.Meter(RATE)
    for ct, x in (("float", x64.astype(np.float32)), ("double", x64)):
        xt = np.ascontiguousarray(x.T)  # pyloudnorm takes (samples, channels)
        il = np.ascontiguousarray(x.T)
        px = ffi.from_buffer(ct + "[]", il)
        out = ffi.new("SkLoudnessStats *")
        fn = lib.sk_loudness_interleaved_f32 if ct == "float" else lib.sk_loudness_interleaved_f64
        ctx.check(fn(px, ffi.NULL, RATE, 0, out, 2, x.shape[1]), "sk_loudness_interleaved")
        t_ref = ctx.timeit(lambda: meter.integrated_loudness(xt))
        t_sk = ctx.timeit(lambda: fn(px, ffi.NULL, RATE, 0, out, 2, x.shape[1]))
        ctx.row("loudness", f"integrated, 10 s stereo 48k {ct}", t_sk, t_ref,
                "pyloudnorm integrated", 10.0)
        t_all = ctx.timeit(lambda: fn(px, ffi.NULL, RATE, 1, out, 2, x.shape[1]))
        ctx.row("loudness", f"I+LRA+M/S max+true peak {ct}", t_all, t_ref,
                "pyloudnorm integrated only", None)
