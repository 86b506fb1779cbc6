"""The Python package as users call it (`import sigkern`), against numpy / scipy / torch, with
the raw-CFFI figure of the same kernel beside it (pointers made once: the kernel's cost plus the
bare call).

Rows (section "package"):
  scale n=16 float32, out=y          sigkern.scale(x, 0.5, out=y)  vs np.multiply(x, 0.5, out=y)
                                     target 0.42x: 1.2 µs per call where numpy takes 0.5 µs
  scale n=16 float32, allocating     sigkern.scale(x, 0.5)         vs np.multiply(x, 0.5)
  scale n=16 torch, out=u            sigkern.scale(t, 0.5, out=u)  vs torch.mul(t, 0.5, out=u), 1.0x
  peak / rms / sum n=1024…65536      sigkern.peak(x) etc.          vs np.abs(x).max(),
                                     np.sqrt(np.mean(x*x)), x.sum(); target 1.0x
  Biquad order 8, (2, 256) float32   Biquad(sos, 2).process(block) vs sosfilt(sos, block, zi=zi), 5x
  stream (2, 256) f32 <object>       Compressor/Lfilter/Meter/Resampler on one block per call vs the
                                     same C function through raw CFFI (the package's per-call cost)
  rfft (64, 1024) float64            sigkern.rfft(x)               vs np.fft.rfft(x, axis=-1), 1.5x
  rfft / irfft (64, 1000) float64    sigkern.rfft(x), irfft(X, n)  vs np.fft.rfft / irfft (the
                                     same bits; informational)
  lfilter order 8 (16, 480000) f64   sigkern.lfilter(b, a, x)      vs scipy.signal.lfilter, 8x
  sosfiltfilt order 8 (16, 480000)   sigkern.sosfiltfilt(sos, x)   vs scipy.signal.sosfiltfilt, 8x
  filtfilt order 4 1 x 480000 f64    sigkern.filtfilt(b, a, x)     vs scipy.signal.filtfilt, 3x
                                     each also with out= (no allocation of the result); and the
                                     ceiling of any function that returns a new (16, 480000)
                                     array: x.copy() (allocate, read, write) against the same
                                     scipy call
The "raw" rows time the same C function through the CFFI ffi.dlopen handle with pointers made
outside the timed call (informational).
"""

import numpy as np

SECTION = "package"


def run(ctx):
    import sigkern

    ffi, lib = ctx.ffi, ctx.lib
    rng = np.random.default_rng(0)

    def pair(name, sk_fn, ref_fn, label, target):
        if ctx.selected(SECTION, name):
            ts, tr = ctx.best([sk_fn, ref_fn])
            ctx.row(SECTION, name, ts, tr, label, target)

    x16 = rng.standard_normal(16).astype(np.float32)
    y16 = np.empty_like(x16)
    assert np.array_equal(sigkern.scale(x16, 0.5, out=y16), x16 * np.float32(0.5))
    pair("scale n=16 f32 out=y", lambda: sigkern.scale(x16, 0.5, out=y16),
         lambda: np.multiply(x16, 0.5, out=y16), "np.multiply(x, 0.5, out=y)", 0.42)
    pair("scale n=16 f32 allocating", lambda: sigkern.scale(x16, 0.5),
         lambda: np.multiply(x16, 0.5), "np.multiply(x, 0.5)", None)
    px, py = ffi.from_buffer("float[]", x16), ffi.from_buffer("float[]", y16)
    pair("scale n=16 f32 raw CFFI (pointers made once)", lambda: lib.sk_scale_f32(px, 0.5, py, 16),
         lambda: np.multiply(x16, 0.5, out=y16), "np.multiply(x, 0.5, out=y)", None)
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None:
        t16 = torch.from_numpy(x16.copy())
        u16 = torch.empty_like(t16)
        assert torch.equal(sigkern.scale(t16, 0.5, out=u16), t16 * 0.5)
        pair("scale n=16 torch out=u", lambda: sigkern.scale(t16, 0.5, out=u16),
             lambda: torch.mul(t16, 0.5, out=u16), "torch.mul(t, 0.5, out=u)", 1.0)

    for n in (1024, 4096, 65536):
        x = rng.standard_normal(n).astype(np.float32)
        px = ffi.from_buffer("float[]", x)
        out = ffi.new("float *")
        for op, ref, label in (
            ("peak", lambda x=x: np.abs(x).max(), "np.abs(x).max()"),
            ("rms", lambda x=x: np.sqrt(np.mean(x * x)), "np.sqrt(np.mean(x * x))"),
            ("sum", lambda x=x: x.sum(), "x.sum()"),
        ):
            fn = getattr(sigkern, op)
            assert abs(fn(x) - float(ref())) <= 1e-4 * max(1.0, abs(float(ref()))), op
            pair(f"{op} n={n} f32", lambda fn=fn, x=x: fn(x), ref, label, 1.0)
            c = getattr(lib, f"sk_{op}_f32")
            pair(f"{op} n={n} f32 raw CFFI", lambda c=c, px=px, n=n: c(px, out, n), ref, label, None)

    if ctx.selected(SECTION, "Biquad order 8 (2, 256) f32"):
        from scipy import signal

        sos = signal.butter(8, 0.1, output="sos")
        block = rng.standard_normal((2, 256)).astype(np.float32)
        zi = np.zeros((sos.shape[0], 2, 2))
        bq = sigkern.Biquad(sos, channels=2, dtype=np.float32)
        yb = np.empty_like(block)
        ref_y, _ = signal.sosfilt(sos, block.astype(np.float64), zi=zi)
        bq.reset()
        assert np.allclose(bq.process(block, out=yb), ref_y, atol=1e-4)
        pair("Biquad order 8 (2, 256) f32", lambda: bq.process(block, out=yb),
             lambda: signal.sosfilt(sos, block, zi=zi), "sosfilt(sos, x, zi=zi)", 5.0)
        bq.close()

    # Streaming objects on one (2, 256) float block per call: the package call (numpy block
    # in, a new output block out) next to the same C function with pointers made once.
    if ctx.selected(SECTION, "stream (2, 256) f32"):
        from scipy import signal

        # the raw calls go through the package's own compiled module (sigkern.ffi/lib), whose
        # handle types the objects' handles are
        sffi, slib = sigkern.ffi, sigkern.lib
        block = rng.standard_normal((2, 256)).astype(np.float32) * np.float32(0.1)
        yb = np.empty((2, 256), np.float32)
        pb, pyb = sffi.from_buffer("float[]", block), sffi.from_buffer("float[]", yb)
        comp = sigkern.Compressor(48000, -20, 4, channels=2)
        pair("stream (2, 256) f32 Compressor.process", lambda: comp.process(block),
             lambda: slib.sk_dynamics_process_f32(comp._h, pb, 256, sffi.NULL, 0, pyb, 256, 256),
             "raw sk_dynamics_process_f32", None)
        b, a = signal.butter(4, 0.1)
        lf = sigkern.Lfilter(b, a, channels=2, dtype=np.float32)
        pair("stream (2, 256) f32 Lfilter.process", lambda: lf.process(block),
             lambda: slib.sk_lfilter_f32_process(lf._h, pb, 256, pyb, 256, 256),
             "raw sk_lfilter_f32_process", None)
        meter = sigkern.Meter(48000, channels=2)
        pair("stream (2, 256) f32 Meter.add", lambda: meter.add(block),
             lambda: slib.sk_meter_add_f32(meter._h, pb, 256, 256),
             "raw sk_meter_add_f32", None)
        rs = sigkern.Resampler(48000, 44100, channels=2, dtype=np.float32)
        used, made = sffi.new("size_t *"), sffi.new("size_t *")
        pair("stream (2, 256) f32 Resampler.process 48k->44.1k", lambda: rs.process(block),
             lambda: slib.sk_resampler_f32_process(rs._h, pb, 256, pyb, 256, used, made, 256, 256),
             "raw sk_resampler_f32_process", None)
        for o in (comp, lf, meter, rs):
            o.close()

    if ctx.selected(SECTION, "rfft (64, 1024) f64"):
        xb = rng.standard_normal((64, 1024))
        assert np.allclose(sigkern.rfft(xb), np.fft.rfft(xb, axis=-1), atol=1e-9)
        yb = np.empty((64, 513), np.complex128)
        pair("rfft (64, 1024) f64", lambda: sigkern.rfft(xb), lambda: np.fft.rfft(xb, axis=-1),
             "np.fft.rfft(x, axis=-1)", 1.5)
        pair("rfft (64, 1024) f64 out=", lambda: sigkern.rfft(xb, out=yb),
             lambda: np.fft.rfft(xb, axis=-1), "np.fft.rfft(x, axis=-1)", None)

    if ctx.selected(SECTION, "rfft/irfft (64, 1000) f64"):
        # a length numpy's real algorithm runs in radix 4, 2 and 5 passes: sigkern gives numpy's
        # bits, batched rows on SIMD lanes
        xb = rng.standard_normal((64, 1000))
        xf = np.fft.rfft(xb, axis=-1)
        assert np.array_equal(sigkern.rfft(xb), xf)
        assert np.array_equal(sigkern.irfft(xf, 1000), np.fft.irfft(xf, 1000, axis=-1))
        pair("rfft (64, 1000) f64", lambda: sigkern.rfft(xb), lambda: np.fft.rfft(xb, axis=-1),
             "np.fft.rfft(x, axis=-1)", None)
        pair("irfft (64, 1000) f64", lambda: sigkern.irfft(xf, 1000),
             lambda: np.fft.irfft(xf, 1000, axis=-1), "np.fft.irfft(X, n, axis=-1)", None)

    if ctx.selected(SECTION, "zero-phase and lfilter (16, 480000) f64"):
        from scipy import signal

        n = 480_000
        x = rng.standard_normal((16, n))
        y = np.empty_like(x)
        b8, a8 = signal.butter(8, 0.1)
        sos = signal.butter(8, 0.1, output="sos")
        b4, a4 = signal.butter(4, 0.1)
        x1 = np.ascontiguousarray(x[0])
        y1 = np.empty_like(x1)
        cases = (
            ("lfilter order 8 (b, a), (16, 480000) f64", lambda **k: sigkern.lfilter(b8, a8, x, **k),
             lambda: signal.lfilter(b8, a8, x, axis=-1), "scipy.signal.lfilter", 8.0, y),
            ("sosfiltfilt order 8, (16, 480000) f64", lambda **k: sigkern.sosfiltfilt(sos, x, **k),
             lambda: signal.sosfiltfilt(sos, x, axis=-1), "scipy.signal.sosfiltfilt", 8.0, y),
            ("filtfilt order 4 (b, a), 1 x 480000 f64", lambda **k: sigkern.filtfilt(b4, a4, x1, **k),
             lambda: signal.filtfilt(b4, a4, x1), "scipy.signal.filtfilt", 3.0, y1),
        )
        for name, sk, ref, label, target, out in cases:
            r = ref()
            assert np.max(np.abs(sk() - r)) <= 1e-9 * np.max(np.abs(r)), name
            ts, ts_out, tr = ctx.best([sk, lambda sk=sk, out=out: sk(out=out), ref], rounds=3,
                                   min_time=0.3)
            ctx.row(SECTION, name, ts, tr, label, target)
            ctx.row(SECTION, name + " out=", ts_out, tr, label, None)
            if out is y:
                tc, tr2 = ctx.best([lambda: x.copy(), ref], rounds=3, min_time=0.3)
                ctx.row(SECTION, f"  ceiling for {name.split(' ')[0]}: x.copy()", tc, tr2, label, None)
