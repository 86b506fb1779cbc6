"""DCT through the package (sigkern.dct) against scipy.fft.dct (its default: one worker).

Rows (section "dct"):
  dct-II (64, 1024) f64        sigkern.dct(x)                    vs scipy.fft.dct(x), 1.5x
  dct-II (64, 1024) f64 ortho  sigkern.dct(x, norm="ortho")      vs scipy, informational
  dct-IV (64, 1000) f64        sigkern.dct(x, type=4)            vs scipy, informational
  idct-II (64, 1024) f32       sigkern.idct(x)                   vs scipy, informational
"""

import numpy as np

SECTION = "dct"


def run(ctx):
    import scipy.fft as sf

    import sigkern

    rng = np.random.default_rng(0)

    def pair(name, sk_fn, ref_fn, target):
        np.testing.assert_allclose(sk_fn(), ref_fn(), rtol=0, atol=1e-4 * np.abs(ref_fn()).max())
        if ctx.selected(SECTION, name):
            ts, tr = ctx.best([sk_fn, ref_fn])
            ctx.row(SECTION, name, ts, tr, "scipy.fft.dct", target)

    x = rng.standard_normal((64, 1024))
    pair("dct-II (64, 1024) f64", lambda: sigkern.dct(x), lambda: sf.dct(x), 1.5)
    pair("dct-II (64, 1024) f64 ortho", lambda: sigkern.dct(x, norm="ortho"),
         lambda: sf.dct(x, norm="ortho"), None)
    x4 = rng.standard_normal((64, 1000))
    pair("dct-IV (64, 1000) f64", lambda: sigkern.dct(x4, type=4), lambda: sf.dct(x4, type=4), None)
    x32 = x.astype(np.float32)
    pair("idct-II (64, 1024) f32", lambda: sigkern.idct(x32), lambda: sf.idct(x32), None)
