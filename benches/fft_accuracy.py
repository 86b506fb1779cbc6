"""FFT accuracy sweep: sigkern's float64 rfft/irfft against numpy's pocketfft on the same data.

For every length in the sweep (default 1..5000 plus large primes and composites) and a few
random draws per length, measures the relative L2 error of

* the forward transform ``rfft(r)`` of standard-normal reals,
* the inverse transform ``irfft(X, n)`` of standard-normal complex bins,
* the round trip ``rfft(irfft(X, n), n)`` against ``X``,
* the complex transform ``fft(z)`` (reported, not a target),

each against a long-double reference (numpy's pocketfft in extended precision), for sigkern and
numpy. The per-length figure is the RMS over the draws; the ratio sigkern/numpy is reported
with both errors floored at eps/8 (at the smallest lengths both are exact or a few ulp, where a
ratio says nothing). Prints the worst ratios and the lengths where they occur.

    PYTHONPATH=python python benches/fft_accuracy.py [--max N] [--draws K] [--extra n,n,...]
"""

import argparse
import sys
import time

import numpy as np

import sigkern

EPS = np.finfo(np.float64).eps
FLOOR = EPS / 8
EXTRA = [8191, 10007, 65537, 65536 + 3, 99991, 131071, 131072, 196608, 200000, 262139,
         524287, 1_000_003, 1 << 20, 3 * 5 * 7 * 11 * 13 * 17]


def rel(a, b):
    """Per-row relative L2 error of ``a`` against the reference ``b``."""
    a = np.asarray(a, np.clongdouble if np.iscomplexobj(a) else np.longdouble)
    return (np.linalg.norm(a - b, axis=-1) / np.linalg.norm(b, axis=-1)).astype(np.float64)


def errors(n, draws, rng, cplx=True):
    """RMS relative errors (sigkern, numpy) for forward, inverse, round trip and complex."""
    h = n // 2 + 1
    r = rng.standard_normal((draws, n))
    x = rng.standard_normal((draws, h)) + 1j * rng.standard_normal((draws, h))
    x[:, 0] = x[:, 0].real
    if n % 2 == 0:
        x[:, -1] = x[:, -1].real
    ref_f = np.fft.rfft(r.astype(np.longdouble))
    ref_i = np.fft.irfft(x.astype(np.clongdouble), n)
    xl = x.astype(np.clongdouble)
    out = {
        "fwd": (rel(sigkern.rfft(r), ref_f), rel(np.fft.rfft(r), ref_f)),
        "inv": (rel(sigkern.irfft(x, n), ref_i), rel(np.fft.irfft(x, n), ref_i)),
        "rt": (rel(sigkern.rfft(sigkern.irfft(x, n), n), xl),
               rel(np.fft.rfft(np.fft.irfft(x, n), n), xl)),
    }
    if cplx:
        z = rng.standard_normal((draws, n)) + 1j * rng.standard_normal((draws, n))
        ref_c = np.fft.fft(z.astype(np.clongdouble))
        out["cfft"] = (rel(sigkern.fft(z), ref_c), rel(np.fft.fft(z), ref_c))
    return {k: (float(np.sqrt(np.mean(a * a))), float(np.sqrt(np.mean(b * b))))
            for k, (a, b) in out.items()}


def ratio(e):
    return (e[0] + FLOOR) / (e[1] + FLOOR)


def sweep(lengths, draws, seed=0, cplx=True, progress=False):
    """{n: {kind: (err_sigkern, err_numpy, ratio)}} over ``lengths``."""
    rng = np.random.default_rng(seed)
    res = {}
    for i, n in enumerate(lengths):
        e = errors(n, draws, rng, cplx)
        res[n] = {k: (a, b, ratio((a, b))) for k, (a, b) in e.items()}
        if progress and i % 500 == 499:
            print(f"  ... n = {n}", file=sys.stderr, flush=True)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max", type=int, default=5000, help="sweep 1..MAX (default 5000)")
    ap.add_argument("--draws", type=int, default=4, help="random draws per length (default 4)")
    ap.add_argument("--extra", type=str, default=None,
                    help="comma-separated extra lengths (default: large primes/composites)")
    ap.add_argument("--no-complex", action="store_true", help="skip the complex fft column")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    extra = EXTRA if a.extra is None else [int(v) for v in a.extra.split(",") if v]
    lengths = list(range(1, a.max + 1)) + extra
    t0 = time.perf_counter()
    res = sweep(lengths, a.draws, a.seed, not a.no_complex, progress=True)
    kinds = list(next(iter(res.values())).keys())
    targets = {"fwd": 1.0, "inv": 1.0, "rt": 1.5, "cfft": None}
    print(f"FFT accuracy, float64, lengths 1..{a.max} + {len(extra)} large, {a.draws} draws each "
          f"({time.perf_counter() - t0:.0f} s); ratio = sigkern err / numpy err (RMS rel. L2, "
          f"floor eps/8)")
    print(f"{'kind':6} {'worst':>7} {'at n':>8} {'median':>7} {'p99':>7} {'#>tgt':>6} {'target':>7}"
          "  five worst")
    for k in kinds:
        rs = np.array([res[n][k][2] for n in lengths])
        order = np.argsort(rs)[::-1]
        tgt = targets.get(k)
        over = "-" if tgt is None else str(int((rs > tgt).sum()))
        worst5 = ", ".join(f"{lengths[i]}:{rs[i]:.2f}" for i in order[:5])
        print(f"{k:6} {rs[order[0]]:7.3f} {lengths[order[0]]:8d} {np.median(rs):7.3f} "
              f"{np.percentile(rs, 99):7.3f} {over:>6} {tgt if tgt else '-':>7}  {worst5}")


if __name__ == "__main__":
    main()
