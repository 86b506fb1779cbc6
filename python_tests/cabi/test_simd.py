"""SIMD levels: for every level this CPU supports, a subprocess with SIGKERN_SIMD=<level>
reports that level from sk_simd_level() and computes, for every kernel on fixed pseudo-random
inputs (random, adversarial, finite extremes), results equal to the default level's:
elementwise bitwise, min/max/peak exactly, sum/mean/dot/rms within the reference tolerances;
every level's reductions are also checked against the independent references of sk_util.
Unknown values are ignored."""

import math

import numpy as np
import pytest

from simd_levels import ORDER, X86_64, require, run_body, supported_levels
from sk_util import (
    DTYPES, ELEMENTWISE, EPS, F32, F64, KERNELS, REDUCTIONS, SUFFIX, call, random_data,
    reduction_check, specials, sum_bound,
)

pytestmark = pytest.mark.skipif(not X86_64, reason="level names below are x86-64's")

LENGTHS = (0, 1, 3, 15, 16, 17, 63, 64, 65, 511, 513, 1000, 4097, 70001)
KINDS = ("random", "adversarial", "extreme")


def inputs(op, dtype, n, kind):
    """Deterministic inputs for one case (the same in every process)."""
    rng = np.random.default_rng([n, len(op), sum(map(ord, op)), dtype.itemsize, len(kind)])
    ins = {}
    for name, role in KERNELS[op]:
        if role in ("in", "inout"):
            ins[name] = random_data(rng, n, dtype, adversarial=kind == "adversarial")
            if kind == "extreme" and n:
                # finite extremes: ±max (partial sums overflow), denormals, signed zeros
                sp = specials(dtype)
                sp = sp[np.isfinite(sp)]
                ins[name][::2] = sp[rng.integers(0, sp.size, size=ins[name][::2].size)]
        elif role == "out":
            ins[name] = np.full(n, 7.0, dtype)
    return ins


def kernel_results(ffi, lib):
    """The body run at each level: every kernel of sk_util.KERNELS on every case of `inputs`."""
    results = {}
    for op in KERNELS:
        for dtype in DTYPES:
            for n in LENGTHS:
                for kind in KINDS:
                    if op in REDUCTIONS and n == 0:
                        continue
                    ins = inputs(op, dtype, n, kind)
                    status, value, _ = call(ffi, lib, op, dtype, ins, n=n)
                    key = f"{op}_{SUFFIX[dtype]}_{n}_{kind}"
                    results[key + "_status"] = np.array(status)
                    if op in ELEMENTWISE:
                        results[key] = ins["y"]
                    else:
                        results[key] = np.array(value)
    return results


def run_worker(lib_path, tmp_path, simd):
    return run_body(kernel_results, simd, lib_path, tmp_path, timeout=120)


@pytest.fixture(scope="module")
def default_results(lib_path, tmp_path_factory):
    return run_worker(lib_path, tmp_path_factory.mktemp("simd"), None)


def test_default_level_is_the_best_supported(default_results):
    assert str(default_results["level"]) == supported_levels()[-1]


@pytest.mark.parametrize("level", ORDER)
def test_level_matches_default(level, lib_path, tmp_path, default_results):
    require(level)
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
        reduction_check(op, a, inputs(op, dtype, int(n), kind), f"{key} at {level}")
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
