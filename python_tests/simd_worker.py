"""Run by test_simd.py in a subprocess (SIGKERN_SIMD is read once per process):
    python simd_worker.py LIB OUT.npz
loads the library through the cdef header, runs every kernel of sk_util.KERNELS on fixed
pseudo-random inputs and saves the level name and every result to OUT.npz."""

import pathlib
import sys

import numpy as np
from cffi import FFI

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from sk_util import DTYPES, ELEMENTWISE, KERNELS, REDUCTIONS, SUFFIX, call, random_data, specials  # noqa: E402

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


def main(lib_path, out_path):
    root = pathlib.Path(__file__).resolve().parent.parent
    ffi = FFI()
    ffi.cdef((root / "include" / "sigkern_cdef.h").read_text())
    lib = ffi.dlopen(lib_path)
    results = {"level": np.array(ffi.string(lib.sk_simd_level()).decode())}
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
    np.savez(out_path, **results)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
