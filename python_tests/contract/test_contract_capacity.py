"""One rule for every capacity argument (how many elements the caller says an output holds, of
which the call may write fewer): the described buffer must be one that can exist, at most
PTRDIFF_MAX bytes and not past the end of the address space, exactly as for a length argument.
A capacity beyond that (2^62 floats, SIZE_MAX, one element past PTRDIFF_MAX bytes) is
SK_ERR_LENGTH with the buffer rule's message and nothing written, for the batched mel functions
as for `sk_melspec_f32`; capacities that fit but exceed what is needed keep working. (The misuse
matrix applies the same rule to every capacity argument of the API.)"""

import numpy as np
import pytest

from sk_header import SK_ERR_LENGTH, SK_OK
SIZE_MAX = 2**64 - 1
PTRDIFF_MAX = 2**63 - 1

N_FFT, HOP, N_MELS, N = 64, 16, 8, 400


@pytest.fixture(params=["f32", "f64"])
def plan(request, sk, ffi):
    sfx = request.param
    p = ffi.new("SkMelPlan **")
    assert getattr(sk, f"sk_mel_plan_{sfx}_new")(16000.0, N_FFT, HOP, N_FFT, 1, 0.0, 1, 0, 2.0,
                                                 N_MELS, 0.0, 0.0, 0, 1, p) == SK_OK
    yield sfx, p[0]
    assert sk.sk_mel_plan_free(p[0]) == SK_OK


def calls(sk, sfx, plan, x, rows, y):
    """(name, call(y_len)) for every mel function that takes a capacity."""
    t = "float" if sfx == "f32" else "double"
    return [
        (f"sk_melspec_{sfx}", lambda cap: getattr(sk, f"sk_melspec_{sfx}")(plan, x, y, cap, N)),
        (f"sk_logmel_{sfx}", lambda cap: getattr(sk, f"sk_logmel_{sfx}")(
            plan, x, 1.0, 1e-10, 80.0, y, cap, N)),
        (f"sk_melspec_batch_{sfx}", lambda cap: getattr(sk, f"sk_melspec_batch_{sfx}")(
            plan, x, N, rows, 0, y, cap, N)),
        (f"sk_logmel_batch_{sfx}", lambda cap: getattr(sk, f"sk_logmel_batch_{sfx}")(
            plan, x, N, rows, 0, 1.0, 1e-10, 80.0, 1, y, cap, N)),
        (f"sk_log10mel_batch_{sfx}", lambda cap: getattr(sk, f"sk_log10mel_batch_{sfx}")(
            plan, x, N, rows, 0, 1e-10, 0.25, 1.0, 8.0, 0, y, cap, N)),
    ], t


def test_capacity_beyond_the_address_space_is_refused(sk, ffi, plan, last_error):
    sfx, h = plan
    dtype = np.float32 if sfx == "f32" else np.float64
    size = np.dtype(dtype).itemsize
    frames = ffi.new("size_t *")
    assert sk.sk_mel_frames(h, frames, N) == SK_OK
    rows = 2
    need = rows * N_MELS * frames[0]
    x = np.random.default_rng(1).standard_normal(rows * N).astype(dtype)
    y = np.full(need + 8, 7.0, dtype)
    t = "float" if sfx == "f32" else "double"
    px, py = ffi.from_buffer(f"{t}[]", x), ffi.from_buffer(f"{t}[]", y)
    cases, t = calls(sk, sfx, h, px, rows, py)
    for name, call in cases:
        y[:] = 7.0
        for cap in (2**62, SIZE_MAX, PTRDIFF_MAX // size + 1):
            rc = call(cap)
            msg = last_error()
            assert rc == SK_ERR_LENGTH, (name, cap, rc, msg)
            assert msg == (f"{name}: argument y: n = {cap} elements of {t} is more than the "
                           "address space can hold"), msg
            assert np.all(y == 7.0), (name, cap, "written on error")
        # a capacity larger than needed (the whole buffer) and the exact one both work
        for cap in (y.size, need if "batch" in name else N_MELS * frames[0]):
            y[:] = 7.0
            assert call(cap) == SK_OK, (name, cap, last_error())
            assert np.all(np.isfinite(y[:N_MELS * frames[0]]))


def test_capacity_that_runs_past_the_end_of_memory(sk, ffi, last_error):
    """A capacity within PTRDIFF_MAX bytes that would still wrap the address space from the
    pointer given: refused by the same rule (nothing is dereferenced)."""
    p = ffi.new("SkMelPlan **")
    assert sk.sk_mel_plan_f32_new(16000.0, N_FFT, HOP, N_FFT, 1, 0.0, 1, 0, 2.0, N_MELS, 0.0,
                                  0.0, 0, 1, p) == SK_OK
    try:
        x = np.zeros(N, np.float32)
        px = ffi.from_buffer("float[]", x)
        high = ffi.cast("float *", 2**64 - 4096)
        cap = 2**61 - 1
        rc = sk.sk_melspec_batch_f32(p[0], px, N, 1, 0, high, cap, N)
        assert rc == SK_ERR_LENGTH and "run past the end of the address space" in last_error()
    finally:
        sk.sk_mel_plan_free(p[0])
