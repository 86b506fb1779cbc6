"""Issue-2 core kernels through CFFI vs numpy: copy, fill, elementwise ops, reductions, dot.

Targets (float32, n = 65536 and 16M): add, mul, scale, axpy, clip >= numpy (1.0x); dot >=
numpy's BLAS np.dot (1.0x); sum, peak, rms >= 1.5x numpy; copy >= 0.9x np.copyto and memmove.
Other ops and the float64 rows are informational.

Reference forms (the natural numpy spelling, with preallocated out= where numpy has it):
  add/sub/mul/div  np.<op>(a, b, out=y)          scale  np.multiply(x, a, out=y)
  axpy             the faster of `np.multiply(x, a, out=t); np.add(y, t, out=y)` and
                   `y += a * x` (both measured; the label says which one was used)
  clip             np.clip(x, lo, hi, out=y)     abs    np.abs(x, out=y)
  sum              the faster of x.sum() and np.add.reduce(x)
  mean/min/max     x.mean(), x.min(), x.max()
  peak             np.abs(x).max()               rms    np.sqrt(np.mean(x * x))
  dot              np.dot(a, b) (BLAS, default threads; also limited to 1 thread, no target)
  copy             np.copyto(y, x) and ctypes.memmove   fill   y.fill(v)
Each sigkern call is checked (status and result against numpy) before it is timed. Timings
are interleaved (sigkern, reference, sigkern, reference) and the best of each is kept.
"""

import ctypes

SIZES = (65536, 1 << 24)


def _label_n(n):
    return "16M" if n == 1 << 24 else str(n)


class _Bench:
    def __init__(self, ctx):
        self.ctx = ctx
        self.np = ctx.np

    def best(self, fns, rounds=3, min_time=0.2):
        """Interleaved timing: best per function over `rounds` rounds."""
        t = [float("inf")] * len(fns)
        for _ in range(rounds):
            for i, f in enumerate(fns):
                t[i] = min(t[i], self.ctx.timeit(f, min_time=min_time))
        return t

    def pair(self, section, name, sk_fn, ref_fn, ref_label, target):
        if not self.ctx.selected(section, name):
            return
        ts, tr = self.best([sk_fn, ref_fn])
        self.ctx.row(section, name, ts, tr, ref_label, target)

    def pick(self, section, name, sk_fn, refs, target):
        """Like pair, against the fastest of several reference spellings [(label, fn)]."""
        if not self.ctx.selected(section, name):
            return
        t = self.best([sk_fn] + [f for _, f in refs])
        k = min(range(len(refs)), key=lambda i: t[1 + i])
        self.ctx.row(section, name, t[0], t[1 + k], refs[k][0], target)


def _close(np, got, want, rtol, what):
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if not np.allclose(got, want, rtol=rtol, atol=0.0, equal_nan=True):
        err = np.max(np.abs(got - want) / np.maximum(np.abs(want), 1e-300))
        raise AssertionError(f"{what}: sigkern result differs from numpy (max rel err {err:.3g})")


def run_f32(b, n):
    ctx, np, ffi, lib = b.ctx, b.np, b.ctx.ffi, b.ctx.lib
    sec = f"f32 n={_label_n(n)}"
    rng = np.random.default_rng(2)
    x = rng.standard_normal(n).astype(np.float32)
    z = rng.standard_normal(n).astype(np.float32) + np.float32(3.0)  # no zeros for div
    y = np.zeros(n, np.float32)
    t = np.empty(n, np.float32)
    px, pz, py = (ffi.from_buffer("float[]", v) for v in (x, z, y))
    out = ffi.new("float *")
    nb = x.nbytes
    ax, ay = x.ctypes.data, y.ctypes.data
    memmove = ctypes.memmove

    # --- memory ---
    ctx.check(lib.sk_copy_f32(px, py, n), "sk_copy_f32")
    assert np.array_equal(y, x), "sk_copy_f32 result"
    b.pair(sec, "copy", lambda: lib.sk_copy_f32(px, py, n),
           lambda: np.copyto(y, x), "np.copyto(y, x)", 0.9)
    b.pair(sec, "copy vs memcpy", lambda: lib.sk_copy_f32(px, py, n),
           lambda: memmove(ay, ax, nb), "ctypes.memmove", 0.9)
    ctx.check(lib.sk_fill_f32(0.25, py, n), "sk_fill_f32")
    assert np.all(y == np.float32(0.25)), "sk_fill_f32 result"
    b.pair(sec, "fill", lambda: lib.sk_fill_f32(0.25, py, n),
           lambda: y.fill(0.25), "y.fill(v)", None)

    # --- binary elementwise ---
    for op, ufunc, target in (
        ("add", np.add, 1.0),
        ("sub", np.subtract, None),
        ("mul", np.multiply, 1.0),
        ("div", np.divide, None),
    ):
        f = getattr(lib, f"sk_{op}_f32")
        ctx.check(f(px, pz, py, n), f"sk_{op}_f32")
        assert np.array_equal(y, ufunc(x, z)), f"sk_{op}_f32 result"
        b.pair(sec, op, lambda f=f: f(px, pz, py, n),
               lambda u=ufunc: u(x, z, out=y), f"np.{ufunc.__name__}(out=)", target)

    a = np.float32(0.75)
    ctx.check(lib.sk_scale_f32(px, a, py, n), "sk_scale_f32")
    assert np.array_equal(y, a * x), "sk_scale_f32 result"
    b.pair(sec, "scale", lambda: lib.sk_scale_f32(px, a, py, n),
           lambda: np.multiply(x, a, out=y), "np.multiply(x, a, out=)", 1.0)

    # axpy accumulates into y across calls; a small a keeps values tame
    a = np.float32(1e-3)
    y[:] = z
    ctx.check(lib.sk_axpy_f32(px, a, py, n), "sk_axpy_f32")
    assert np.array_equal(y, z + a * x), "sk_axpy_f32 result"

    def axpy_two_ufuncs():
        np.multiply(x, a, out=t)
        np.add(y, t, out=y)

    def axpy_natural():
        nonlocal y
        y += a * x

    b.pick(sec, "axpy", lambda: lib.sk_axpy_f32(px, a, py, n),
           [("np.multiply+np.add(out=)", axpy_two_ufuncs), ("y += a*x", axpy_natural)], 1.0)

    lo, hi = np.float32(-1.0), np.float32(1.5)
    ctx.check(lib.sk_clip_f32(px, lo, hi, py, n), "sk_clip_f32")
    assert np.array_equal(y, np.clip(x, lo, hi)), "sk_clip_f32 result"
    b.pair(sec, "clip", lambda: lib.sk_clip_f32(px, lo, hi, py, n),
           lambda: np.clip(x, lo, hi, out=y), "np.clip(x, lo, hi, out=)", 1.0)

    ctx.check(lib.sk_abs_f32(px, py, n), "sk_abs_f32")
    assert np.array_equal(y, np.abs(x)), "sk_abs_f32 result"
    b.pair(sec, "abs", lambda: lib.sk_abs_f32(px, py, n),
           lambda: np.abs(x, out=y), "np.abs(x, out=)", None)

    # --- reductions ---
    x64 = x.astype(np.float64)
    checks = {
        "sum": (x64.sum(), 1e-5),
        "mean": (x64.mean(), 1e-5),
        "min": (x.min(), 0.0),
        "max": (x.max(), 0.0),
        "peak": (np.abs(x).max(), 0.0),
        "rms": (np.sqrt(np.mean(x64 * x64)), 1e-6),
    }
    for op, (want, rtol) in checks.items():
        ctx.check(getattr(lib, f"sk_{op}_f32")(px, out, n), f"sk_{op}_f32")
        _close(np, out[0], want, rtol, f"sk_{op}_f32")

    f = lib.sk_sum_f32
    b.pick(sec, "sum", lambda: f(px, out, n),
           [("x.sum()", lambda: x.sum()), ("np.add.reduce(x)", lambda: np.add.reduce(x))], 1.5)
    b.pair(sec, "mean", lambda: lib.sk_mean_f32(px, out, n), lambda: x.mean(), "x.mean()", None)
    b.pair(sec, "min", lambda: lib.sk_min_f32(px, out, n), lambda: x.min(), "x.min()", None)
    b.pair(sec, "max", lambda: lib.sk_max_f32(px, out, n), lambda: x.max(), "x.max()", None)
    b.pair(sec, "peak", lambda: lib.sk_peak_f32(px, out, n),
           lambda: np.abs(x).max(), "np.abs(x).max()", 1.5)
    b.pair(sec, "rms", lambda: lib.sk_rms_f32(px, out, n),
           lambda: np.sqrt(np.mean(x * x)), "np.sqrt(np.mean(x*x))", 1.5)

    ctx.check(lib.sk_dot_f32(px, pz, out, n), "sk_dot_f32")
    _close(np, out[0], np.dot(x64, z.astype(np.float64)), 1e-4, "sk_dot_f32")
    b.pair(sec, "dot", lambda: lib.sk_dot_f32(px, pz, out, n),
           lambda: np.dot(x, z), "np.dot (BLAS, default threads)", 1.0)
    _dot_one_thread(b, sec, lambda: lib.sk_dot_f32(px, pz, out, n), lambda: np.dot(x, z))


def _dot_one_thread(b, sec, sk_fn, ref_fn):
    """np.dot with BLAS limited to one thread: sigkern is single-threaded, and on a loaded
    machine a multi-threaded BLAS call can stall for milliseconds waiting for its helper."""
    if not b.ctx.selected(sec, "dot (BLAS 1 thread)"):
        return
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return
    with threadpool_limits(limits=1, user_api="blas"):
        b.pair(sec, "dot (BLAS 1 thread)", sk_fn, ref_fn, "np.dot (BLAS, 1 thread)", None)


def run_f64(b, n):
    ctx, np, ffi, lib = b.ctx, b.np, b.ctx.ffi, b.ctx.lib
    sec = f"f64 n={_label_n(n)}"
    rng = np.random.default_rng(3)
    x = rng.standard_normal(n)
    z = rng.standard_normal(n)
    y = np.zeros(n)
    px, pz, py = (ffi.from_buffer("double[]", v) for v in (x, z, y))
    out = ffi.new("double *")

    ctx.check(lib.sk_add_f64(px, pz, py, n), "sk_add_f64")
    assert np.array_equal(y, x + z), "sk_add_f64 result"
    b.pair(sec, "add", lambda: lib.sk_add_f64(px, pz, py, n),
           lambda: np.add(x, z, out=y), "np.add(out=)", None)

    ctx.check(lib.sk_sum_f64(px, out, n), "sk_sum_f64")
    _close(np, out[0], np.sum(x), 1e-9, "sk_sum_f64")
    b.pick(sec, "sum", lambda: lib.sk_sum_f64(px, out, n),
           [("x.sum()", lambda: x.sum()), ("np.add.reduce(x)", lambda: np.add.reduce(x))], None)

    ctx.check(lib.sk_dot_f64(px, pz, out, n), "sk_dot_f64")
    _close(np, out[0], np.dot(x, z), 1e-9, "sk_dot_f64")
    b.pair(sec, "dot", lambda: lib.sk_dot_f64(px, pz, out, n),
           lambda: np.dot(x, z), "np.dot (BLAS, default threads)", None)
    _dot_one_thread(b, sec, lambda: lib.sk_dot_f64(px, pz, out, n), lambda: np.dot(x, z))

    ctx.check(lib.sk_rms_f64(px, out, n), "sk_rms_f64")
    _close(np, out[0], np.sqrt(np.mean(x * x)), 1e-12, "sk_rms_f64")
    b.pair(sec, "rms", lambda: lib.sk_rms_f64(px, out, n),
           lambda: np.sqrt(np.mean(x * x)), "np.sqrt(np.mean(x*x))", None)


def run_overhead(b):
    """Per-call cost with n = 0: what a Python caller pays before any element is touched."""
    ctx, np, ffi, lib = b.ctx, b.np, b.ctx.ffi, b.ctx.lib
    sec = "overhead"
    e = np.zeros(0, np.float32)
    ye = np.zeros(0, np.float32)
    pe, pye = ffi.from_buffer("float[]", e), ffi.from_buffer("float[]", ye)
    ctx.check(lib.sk_add_f32(pe, pe, pye, 0), "sk_add_f32 n=0")
    b.pair(sec, "call, n=0: add", lambda: lib.sk_add_f32(pe, pe, pye, 0),
           lambda: np.add(e, e, out=ye), "np.add(out=) on empty", None)
    out = ffi.new("float *")
    ctx.check(lib.sk_sum_f32(pe, out, 0), "sk_sum_f32 n=0")
    b.pair(sec, "call, n=0: sum", lambda: lib.sk_sum_f32(pe, out, 0),
           lambda: e.sum(), "e.sum() on empty", None)


def run(ctx):
    b = _Bench(ctx)
    run_overhead(b)
    for n in SIZES:
        run_f32(b, n)
    for n in SIZES:
        run_f64(b, n)
