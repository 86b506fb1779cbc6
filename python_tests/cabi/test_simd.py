"""SIMD levels: for every level this CPU supports, a subprocess with SIGKERN_SIMD=<level>
reports that level from sk_simd_level() and computes, for every kernel on fixed pseudo-random
inputs (random, adversarial, finite extremes), results equal to the default level's:
elementwise bitwise, min/max/peak exactly, sum/mean/dot/rms within the reference tolerances;
every level's reductions are also checked against the independent references of sk_util.
Unknown values are ignored."""

import math
import os
import pathlib
import platform
import subprocess
import sys

import numpy as np
import pytest

import simd_worker
from sk_util import EPS, F32, F64, ELEMENTWISE, reduction_check, sum_bound

HERE = pathlib.Path(__file__).resolve().parent
ORDER = ["scalar", "sse2", "avx2", "avx512"]

pytestmark = pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"),
                                reason="level names below are x86-64's")


def cpu_flags() -> set:
    try:
        text = pathlib.Path("/proc/cpuinfo").read_text()
    except OSError:
        pytest.skip("no /proc/cpuinfo to check the CPU's features independently")
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def supported_levels() -> list:
    f = cpu_flags()
    levels = ["scalar", "sse2"]
    if {"avx2", "fma"} <= f:
        levels.append("avx2")
        if {"avx512f", "avx512bw", "avx512dq", "avx512vl"} <= f:
            levels.append("avx512")
    return levels


def run_worker(lib_path, tmp_path, simd):
    env = {k: v for k, v in os.environ.items() if k != "SIGKERN_SIMD"}
    if simd is not None:
        env["SIGKERN_SIMD"] = simd
    out = tmp_path / f"res_{simd or 'default'}_{abs(hash(simd))}.npz"
    proc = subprocess.run([sys.executable, str(HERE / "simd_worker.py"), str(lib_path), str(out)],
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return dict(np.load(out))


@pytest.fixture(scope="module")
def default_results(lib_path, tmp_path_factory):
    return run_worker(lib_path, tmp_path_factory.mktemp("simd"), None)


def test_default_level_is_the_best_supported(default_results):
    assert str(default_results["level"]) == supported_levels()[-1]


@pytest.mark.parametrize("level", ORDER)
def test_level_matches_default(level, lib_path, tmp_path, default_results):
    if level not in supported_levels():
        pytest.skip(f"this CPU does not support {level}")
    got = run_worker(lib_path, tmp_path, level)
    assert str(got["level"]) == level
    assert set(got) == set(default_results)
    for key, ref in default_results.items():
        if key == "level":
            continue
        val = got[key]
        if key.endswith("_status"):
            assert int(val) == int(ref) == 0, key
            continue
        op, suffix, n, kind = key.split("_")
        dtype = F32 if suffix == "f32" else F64
        if op in ELEMENTWISE:
            u = np.uint32 if dtype == F32 else np.uint64
            same = (val.view(u) == ref.view(u)) | (np.isnan(val) & np.isnan(ref))
            assert same.all(), f"{key}: {level} differs from default bitwise"
            continue
        a, b = float(val), float(ref)
        # every level is right on its own (independent reference), ...
        reduction_check(op, a, simd_worker.inputs(op, dtype, int(n), kind), f"{key} at {level}")
        if kind == "extreme":
            continue  # (the tolerance below assumes |x| ≲ 50)
        # ... and close to the default level
        if op in ("min", "max", "peak"):
            assert a == b or (math.isnan(a) and math.isnan(b)), f"{key}: {a!r} vs {b!r}"
        elif not (math.isfinite(a) and math.isfinite(b)):
            # adversarial inputs hold NaN and ±inf: the same non-finite class at every level
            assert (math.isnan(a) and math.isnan(b)) or a == b, f"{key}: {a!r} vs {b!r}"
        else:
            assert abs(a - b) <= tolerance(op, dtype, int(n), b), f"{key}: {level} {a!r} vs default {b!r}"


def tolerance(op, dtype, n, ref):
    """Two results each within the reference bound of the exact value are within twice it.
    The inputs are |x| ≲ 50 (random_data): Σ|x| ≤ 50·n, Σ|ab| ≤ 2500·n."""
    if op in ("sum", "mean"):
        b = 2 * sum_bound(dtype, n, 50.0 * n)
        return b / n if op == "mean" else b
    if op == "dot":
        return 2 * sum_bound(dtype, n, 2500.0 * n)
    return 2 * (4 * EPS[dtype] if dtype == F32 else 32 * EPS[F64]) * abs(ref)  # rms


@pytest.mark.parametrize("value", ["mmx", "", "avx1024", "  "])
def test_unknown_value_is_ignored(value, lib_path, tmp_path, default_results):
    got = run_worker(lib_path, tmp_path, value)
    assert str(got["level"]) == str(default_results["level"])


def test_level_names_are_case_insensitive(lib_path, tmp_path):
    got = run_worker(lib_path, tmp_path, " SCALAR ")
    assert str(got["level"]) == "scalar"
