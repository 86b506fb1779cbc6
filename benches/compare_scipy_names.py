"""The scipy-named functions on the paths scipy's signatures open (default IIR decimate,
complex signals, padded and windowed resample_poly, upfirdn extension modes), against the same
scipy.signal call; results are checked against scipy before timing.

Rows (section "scipy-names"), target 2x each:
  decimate q=4 (default IIR) (8, 480000) f64 / f32   vs scipy.signal.decimate(x, 4)
  decimate q=3 zero_phase=False (8, 480000) f64      vs the same scipy call
  lfilter order 8 complex128 (4, 480000)             vs scipy.signal.lfilter
  sosfiltfilt order 8 complex128 (4, 480000)         vs scipy.signal.sosfiltfilt
  resample_poly 147/160 padtype mean / line 480000   vs scipy.signal.resample_poly
  resample_poly 147/160 complex128 480000            vs scipy.signal.resample_poly
  upfirdn 63 taps 3/2 mode reflect 480000 f64        vs scipy.signal.upfirdn
"""

import numpy as np

SECTION = "scipy-names"


def run(ctx):
    if not ctx.selected(SECTION):
        return
    try:
        from scipy import signal
    except ImportError:
        return
    import sigkern

    rng = np.random.default_rng(47)
    n = 480_000
    x8 = rng.standard_normal((8, n))
    x8f = x8.astype(np.float32)
    x1 = np.ascontiguousarray(x8[0])
    xc = rng.standard_normal((4, n)) + 1j * rng.standard_normal((4, n))
    xc1 = np.ascontiguousarray(xc[0])
    b8, a8 = signal.butter(8, 0.2)
    sos8 = signal.butter(8, 0.2, output="sos")
    h63 = signal.firwin(63, 0.3)
    rows = (
        ("decimate q=4 (default IIR) (8, 480000) f64", lambda: sigkern.decimate(x8, 4),
         lambda: signal.decimate(x8, 4), 1e-10),
        ("decimate q=4 (default IIR) (8, 480000) f32", lambda: sigkern.decimate(x8f, 4),
         lambda: signal.decimate(x8f, 4), 1e-4),
        ("decimate q=3 zero_phase=False (8, 480000) f64",
         lambda: sigkern.decimate(x8, 3, zero_phase=False),
         lambda: signal.decimate(x8, 3, zero_phase=False), 1e-10),
        ("lfilter order 8 complex128 (4, 480000)", lambda: sigkern.lfilter(b8, a8, xc),
         lambda: signal.lfilter(b8, a8, xc), 1e-9),
        ("sosfiltfilt order 8 complex128 (4, 480000)", lambda: sigkern.sosfiltfilt(sos8, xc),
         lambda: signal.sosfiltfilt(sos8, xc), 1e-10),
        ("resample_poly 147/160 padtype='mean' 480000 f64",
         lambda: sigkern.resample_poly(x1, 147, 160, padtype="mean"),
         lambda: signal.resample_poly(x1, 147, 160, padtype="mean"), 1e-10),
        ("resample_poly 147/160 padtype='line' 480000 f64",
         lambda: sigkern.resample_poly(x1, 147, 160, padtype="line"),
         lambda: signal.resample_poly(x1, 147, 160, padtype="line"), 1e-10),
        ("resample_poly 147/160 complex128 480000", lambda: sigkern.resample_poly(xc1, 147, 160),
         lambda: signal.resample_poly(xc1, 147, 160), 1e-10),
        ("upfirdn 63 taps 3/2 mode='reflect' 480000 f64",
         lambda: sigkern.upfirdn(h63, x1, 3, 2, mode="reflect"),
         lambda: signal.upfirdn(h63, x1, 3, 2, mode="reflect"), 1e-12),
    )
    for name, sk, ref, tol in rows:
        if not ctx.selected(SECTION, name):
            continue
        r = ref()
        got = sk()
        assert got.shape == r.shape and np.max(np.abs(got - r)) <= tol * np.max(np.abs(r)), name
        ts = tr = float("inf")
        for _ in range(3):  # interleaved: the machine's load hits both alike
            ts = min(ts, ctx.timeit(sk, min_time=0.3))
            tr = min(tr, ctx.timeit(ref, min_time=0.3))
        ctx.row(SECTION, name, ts, tr, "scipy.signal", 2.0)
