"""Every SIMD level this CPU supports (SIGKERN_SIMD in a subprocess) gives the audio kernels'
results of the default level: bitwise for PCM, layout, ramps, mixes, strided elementwise ops,
per-row peak/normalisation and extremes; within stated tolerances for sums, rms and the
crossfade and amp_to_db (the scalar level evaluates cos/sin and log10 with libm, the others with
polynomials)."""

import os
import subprocess
import sys

import numpy as np
import pytest

from test_simd import HERE, pytestmark, supported_levels  # noqa: F401  (same platform gate)

TOL = {"f32": 4 * float(np.finfo(np.float32).eps), "f64": 64 * float(np.finfo(np.float64).eps)}
APPROX = ("xfade", "db", "ssum", "sdot", "srms", "rowssum", "rowsmean", "rowsrms")


def run(lib_path, tmp_path, simd):
    env = {k: v for k, v in os.environ.items() if k != "SIGKERN_SIMD"}
    if simd:
        env["SIGKERN_SIMD"] = simd
    out = tmp_path / f"audio_{simd or 'default'}.npz"
    p = subprocess.run([sys.executable, str(HERE / "audio_simd_worker.py"), str(lib_path), str(out)],
                       env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return dict(np.load(out))


@pytest.fixture(scope="module")
def default(lib_path, tmp_path_factory):
    return run(lib_path, tmp_path_factory.mktemp("audio_simd"), None)


@pytest.mark.parametrize("level", ["scalar", "sse2", "avx2", "avx512"])
def test_level_matches_default(level, lib_path, tmp_path, default):
    if level not in supported_levels():
        pytest.skip(f"CPU lacks {level}")
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
