"""Many Python threads calling kernels concurrently on distinct buffers get correct results (CFFI
releases the GIL during each call; the kernels are stateless)."""

import threading

import numpy as np

from sk_util import (
    DTYPES, ELEMENTWISE, KERNELS, REDUCTIONS, bits_equal, call, elementwise_reference, reduction_check,
)

THREADS = 8
ROUNDS = 6


def test_concurrent_kernels_on_distinct_buffers(sk, ffi):
    barrier = threading.Barrier(THREADS)
    errors = []

    def worker(tid):
        rng = np.random.default_rng(1000 + tid)
        try:
            barrier.wait()
            for r in range(ROUNDS):
                for i, op in enumerate(list(ELEMENTWISE) + list(REDUCTIONS)):
                    dtype = DTYPES[(tid + r + i) % 2]
                    n = int(rng.integers(1, 60000))
                    arrays = {}
                    for name, role in KERNELS[op]:
                        if role in ("in", "inout"):
                            arrays[name] = (rng.standard_normal(n) * 10).astype(dtype)
                        elif role == "out":
                            arrays[name] = np.full(n, 3.0, dtype)
                    before = {k: v.copy() for k, v in arrays.items()}
                    status, value, _ = call(ffi, sk, op, dtype, arrays, n=n)
                    assert status == 0, (op, status)
                    if op in ELEMENTWISE:
                        want = elementwise_reference(op, dtype, before)
                        assert bits_equal(arrays["y"], want), f"thread {tid} {op}"
                    else:
                        reduction_check(op, value, before, f"thread {tid} {op}")
                    # the thread's own last-error state is independent of the others
                    if r == 0 and i == 0:
                        assert sk.sk_last_error_message(ffi.NULL, 0) == 0
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(f"thread {tid}: {e!r}")

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
