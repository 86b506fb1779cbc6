"""Every SIMD level this CPU supports (SIGKERN_SIMD in a subprocess) gives the audio kernels'
results of the default level: bitwise for PCM, layout, ramps, mixes, strided elementwise ops,
per-row peak/normalisation and extremes; within stated tolerances for sums, rms and the
crossfade and amp_to_db (the scalar level evaluates cos/sin and log10 with libm, the others with
polynomials)."""

import numpy as np
import pytest

from audio_util import FLOATS, PCM, SFX, adversarial_floats, ptr, vptr
from simd_levels import ORDER, X86_64, require, run_body

pytestmark = pytest.mark.skipif(not X86_64, reason="level names below are x86-64's")

TOL = {"f32": 4 * float(np.finfo(np.float32).eps), "f64": 64 * float(np.finfo(np.float64).eps)}
APPROX = ("xfade", "db", "ssum", "sdot", "srms", "rowssum", "rowsmean", "rowsrms")
LENGTHS = (1, 3, 15, 16, 17, 63, 64, 65, 511, 513, 4097, 20_001)


def audio_results(ffi, lib):
    """The body run at each level: every audio kernel on fixed pseudo-random data (lengths
    around the lane blocks, strided views)."""
    res = {}
    for dtype in FLOATS:
        t = SFX[dtype]
        ct = "float" if t == "f32" else "double"
        for n in LENGTHS:
            rng = np.random.default_rng([n, dtype.itemsize])
            x = adversarial_floats(rng, n, dtype)
            key = f"{t}_{n}"
            for fmt, (cdt, _) in PCM.items():
                y = np.zeros(3 * n if fmt == "i24" else n, cdt)
                getattr(lib, f"sk_pcm_to_{fmt}_{t}")(ptr(ffi, x), ptr(ffi, y), n)
                res[f"to_{fmt}_{key}"] = y
                z = np.zeros(n, dtype)
                getattr(lib, f"sk_pcm_from_{fmt}_{t}")(ptr(ffi, y), ptr(ffi, z), n)
                res[f"from_{fmt}_{key}"] = z
            a = rng.standard_normal(n).astype(dtype)
            b = rng.standard_normal(n).astype(dtype)
            y = np.zeros(n, dtype)
            getattr(lib, f"sk_gain_ramp_{t}")(ptr(ffi, a), 0.5, -1.5, 3, n + 7, ptr(ffi, y), n)
            res[f"ramp_{key}"] = y.copy()
            getattr(lib, f"sk_crossfade_{t}")(ptr(ffi, a), ptr(ffi, b), 0, n, ptr(ffi, y), n)
            res[f"xfade_{key}"] = y.copy()
            getattr(lib, f"sk_mix_{t}")(ptr(ffi, a), 0.25, ptr(ffi, b), -0.75, ptr(ffi, y), n)
            res[f"mix_{key}"] = y.copy()
            getattr(lib, f"sk_amp_to_db_{t}")(ptr(ffi, a), -100.0, ptr(ffi, y), n)
            res[f"db_{key}"] = y.copy()
            getattr(lib, f"sk_db_to_amp_{t}")(ptr(ffi, a), ptr(ffi, y), n)
            res[f"amp_{key}"] = y.copy()
            # strided: x[::-3] scaled into y[::2], sums and extremes of b[::2]
            big = rng.standard_normal(3 * n).astype(dtype)
            v = big[::-3]
            pv, sv = vptr(ffi, v)
            yy = np.zeros(2 * n, dtype)
            getattr(lib, f"sk_scale_strided_{t}")(pv, sv, -0.5, ptr(ffi, yy), 2, n)
            res[f"sscale_{key}"] = yy
            getattr(lib, f"sk_add_strided_{t}")(pv, sv, ptr(ffi, a), 1, ptr(ffi, yy), 2, n)
            res[f"sadd_{key}"] = yy.copy()
            out = ffi.new(ct + " *")
            for op in ("sum", "min", "max", "peak", "rms"):
                getattr(lib, f"sk_{op}_strided_{t}")(pv, sv, out, n)
                res[f"s{op}_{key}"] = np.array(out[0])
            getattr(lib, f"sk_dot_strided_{t}")(pv, sv, ptr(ffi, a), 1, out, n)
            res[f"sdot_{key}"] = np.array(out[0])
            # layout
            for ch in (2, 3, 6, 8):
                xi = rng.standard_normal(ch * n).astype(dtype)
                blk = np.zeros(ch * n, dtype)
                getattr(lib, f"sk_deinterleave_block_{t}")(ptr(ffi, xi), ch, ptr(ffi, blk), n)
                res[f"deint{ch}_{key}"] = blk
                back = np.zeros(ch * n, dtype)
                getattr(lib, f"sk_interleave_block_{t}")(ptr(ffi, blk), ch, ptr(ffi, back), n)
                res[f"int{ch}_{key}"] = back
            # rows: (4, n) with padding
            m = rng.standard_normal((4, n + 3)).astype(dtype)
            for op in ("sum", "mean", "peak", "rms"):
                o = np.zeros(4, dtype)
                getattr(lib, f"sk_rows_{op}_{t}")(ptr(ffi, m), n + 3, ptr(ffi, o), 4, n)
                res[f"rows{op}_{key}"] = o
            getattr(lib, f"sk_rows_normalize_peak_{t}")(ptr(ffi, m), n + 3, 4, n)
            res[f"rowsnorm_{key}"] = m
    return res


def run(lib_path, tmp_path, simd):
    return run_body(audio_results, simd, lib_path, tmp_path)


@pytest.fixture(scope="module")
def default(lib_path, tmp_path_factory):
    return run(lib_path, tmp_path_factory.mktemp("audio_simd"), None)


@pytest.mark.parametrize("level", ORDER)
def test_level_matches_default(level, lib_path, tmp_path, default):
    require(level)
    got = run(lib_path, tmp_path, level)
    assert str(got["level"]) == level
    for key, want in default.items():
        if key == "level":
            continue
        g = got[key]
        if key.split("_")[0] in APPROX:
            tol = TOL[key.split("_")[1]]
            scale = np.maximum(np.abs(want).astype(np.float64), 1.0)
            assert np.all(np.abs(g.astype(np.float64) - want) <= tol * scale * 8), key
        else:
            assert np.array_equal(g, want, equal_nan=True), key
