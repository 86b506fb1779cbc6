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
  rfft (64, 1024) float64            sigkern.rfft(x)               vs np.fft.rfft(x, axis=-1), 1.5x
The "raw" rows time the same C function through the CFFI ffi.dlopen handle with pointers made
outside the timed call (informational).
"""

import numpy as np

SECTION = "package"


def _best(ctx, fns, rounds=3, min_time=0.2):
    t = [float("inf")] * len(fns)
    for _ in range(rounds):
        for i, f in enumerate(fns):
            t[i] = min(t[i], ctx.timeit(f, min_time=min_time))
    return t


def run(ctx):
    import sigkern

    ffi, lib = ctx.ffi, ctx.lib
    rng = np.random.default_rng(0)

    def pair(name, sk_fn, ref_fn, label, target):
        if ctx.selected(SECTION, name):
            ts, tr = _best(ctx, [sk_fn, ref_fn])
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

    if ctx.selected(SECTION, "rfft (64, 1024) f64"):
        xb = rng.standard_normal((64, 1024))
        assert np.allclose(sigkern.rfft(xb), np.fft.rfft(xb, axis=-1), atol=1e-9)
        yb = np.empty((64, 513), np.complex128)
        pair("rfft (64, 1024) f64", lambda: sigkern.rfft(xb), lambda: np.fft.rfft(xb, axis=-1),
             "np.fft.rfft(x, axis=-1)", 1.5)
        pair("rfft (64, 1024) f64 out=", lambda: sigkern.rfft(xb, out=yb),
             lambda: np.fft.rfft(xb, axis=-1), "np.fft.rfft(x, axis=-1)", None)
