"""sk_sliding_cmn_stream_* through the C ABI: a short output is refused before anything is
consumed, and a stream of one precision is refused by the other's calls."""

import numpy as np

import sigkern


def test_stream_c_refuses_a_short_output_and_consumes_nothing(ffi, sk):
    pp = ffi.new("SkSlidingCmnStream **")
    assert sk.sk_sliding_cmn_stream_f64_new(2, 4, 1, 0, 0, pp) == sk.SK_OK
    h = pp[0]
    x = np.arange(10.0).reshape(5, 2)
    y = np.full(10, np.nan)
    fr = ffi.new("size_t *")
    px, py = ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", y)
    assert sk.sk_sliding_cmn_stream_push_frames(h, fr, 5) == sk.SK_OK and fr[0] == 5
    assert sk.sk_sliding_cmn_stream_f64_push(h, px, 5, py, 9, fr) == sk.SK_ERR_BUFFER_TOO_SMALL
    assert np.isnan(y).all()
    assert sk.sk_sliding_cmn_stream_f64_push(h, px, 5, py, 10, fr) == sk.SK_OK and fr[0] == 5
    assert np.array_equal(y.reshape(5, 2), sigkern.feature.sliding_window_cmn(x, 4, 1))
    assert sk.sk_sliding_cmn_stream_f32_push(h, ffi.cast("float *", px), 1, ffi.cast("float *", py), 10, fr) \
        == sk.SK_ERR_INVALID_HANDLE
    assert sk.sk_sliding_cmn_stream_free(h) == sk.SK_OK
