"""The dynamics C API through CFFI: every entry point, status codes, aliasing, nothing written
on error."""

import numpy as np


def new_comp(ffi, sk, channels=2, link=0):
    h = ffi.new("SkDynamics **")
    assert sk.sk_compressor_new(48000.0, -20.0, 4.0, 3.0, 1.0, 50.0, 2.0, 1, link, h, channels) == 0
    return h[0]


def fp(ffi, a, ct="float"):
    return ffi.from_buffer(f"{ct}[]", a) if a is not None else ffi.NULL


def test_planar_interleaved_in_place_and_f64(ffi, sk):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 1000)).astype(np.float32)
    ref = np.empty_like(x)
    h = new_comp(ffi, sk)
    assert sk.sk_dynamics_process_f32(h, fp(ffi, x), 1000, ffi.NULL, 0, fp(ffi, ref), 1000, 1000) == 0
    h2 = new_comp(ffi, sk)
    il = np.ascontiguousarray(x.T)
    out = np.empty_like(il)
    assert sk.sk_dynamics_process_interleaved_f32(h2, fp(ffi, il), ffi.NULL, fp(ffi, out), 1000) == 0
    np.testing.assert_array_equal(out.T, ref)
    h3 = new_comp(ffi, sk)
    y = x.copy()
    assert sk.sk_dynamics_process_f32(h3, fp(ffi, y), 1000, ffi.NULL, 0, fp(ffi, y), 1000, 1000) == 0
    np.testing.assert_array_equal(y, ref)
    h4 = new_comp(ffi, sk)
    x64 = x.astype(np.float64)
    y64 = np.empty_like(x64)
    assert sk.sk_dynamics_process_f64(h4, fp(ffi, x64, "double"), 1000, ffi.NULL, 0,
                                      fp(ffi, y64, "double"), 1000, 1000) == 0
    np.testing.assert_array_equal(y64.astype(np.float32), ref)
    lat = ffi.new("size_t *")
    ch = ffi.new("size_t *")
    assert sk.sk_dynamics_latency(h, lat) == 0 and lat[0] == 0
    assert sk.sk_dynamics_channels(h, ch) == 0 and ch[0] == 2
    for hh in (h, h2, h3, h4):
        assert sk.sk_dynamics_free(hh) == 0


def test_errors_write_nothing(ffi, sk, last_error):
    h = new_comp(ffi, sk)
    x = np.ones((2, 100), np.float32)
    x[1, 7] = np.inf
    y = np.full((2, 100), 7.0, np.float32)
    assert sk.sk_dynamics_process_f32(h, fp(ffi, x), 100, ffi.NULL, 0, fp(ffi, y), 100, 100) == sk.SK_ERR_NON_FINITE
    assert "channel 1, frame 7" in last_error()
    assert (y == 7.0).all()
    x[1, 7] = 1.0
    # sidechain overlapping the output
    assert sk.sk_dynamics_process_f32(h, fp(ffi, x), 100, fp(ffi, y), 100, fp(ffi, y), 100, 100) == sk.SK_ERR_OVERLAP
    # partial overlap of x and y
    assert sk.sk_dynamics_process_f32(h, fp(ffi, x), 100, ffi.NULL, 0, fp(ffi, x) + 1, 100, 99) == sk.SK_ERR_OVERLAP
    assert sk.sk_dynamics_process_f32(h, fp(ffi, x), 50, ffi.NULL, 0, fp(ffi, y), 100, 100) == sk.SK_ERR_BAD_ARGUMENT
    assert (y == 7.0).all()
    out = ffi.new("SkDynamics **")
    assert sk.sk_limiter_new(float("nan"), -1.0, 5.0, 100.0, out, 2) == sk.SK_ERR_BAD_ARGUMENT
    assert sk.sk_limiter_new(1e6, -1.0, 5.0, 100.0, out, 2) == sk.SK_ERR_BAD_ARGUMENT
    assert sk.sk_gate_new(48000.0, -40.0, 2.0, 1.0, 10.0, 0.0, 2, out, 1) == sk.SK_ERR_BAD_ARGUMENT
    assert sk.sk_envelope_new(48000.0, 1.0, 10.0, 0, 0, out, 0) == sk.SK_ERR_LENGTH
    assert out[0] == ffi.NULL
    assert sk.sk_dynamics_free(h) == 0
    assert sk.sk_dynamics_free(h) == sk.SK_ERR_INVALID_HANDLE
    assert sk.sk_dynamics_reset(h) == sk.SK_ERR_INVALID_HANDLE
    assert sk.sk_dynamics_process_f32(h, fp(ffi, x), 100, ffi.NULL, 0, fp(ffi, y), 100, 100) == sk.SK_ERR_INVALID_HANDLE
    m = ffi.new("SkMeter **")
    assert sk.sk_meter_new(ffi.NULL, 48000.0, 1, m, 1) == 0
    assert sk.sk_dynamics_reset(ffi.cast("SkDynamics *", m[0])) == sk.SK_ERR_INVALID_HANDLE
    assert sk.sk_meter_free(m[0]) == 0
