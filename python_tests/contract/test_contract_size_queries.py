"""Every size query of the C API (`sk_*_size`, `sk_*_len`, `sk_*_frames`) refuses a count that no
buffer could hold with SK_ERR_LENGTH and a message naming the count, instead of storing a
saturated SIZE_MAX: the count must fit in size_t and the smallest buffer it sizes (floats; frames
of `channels` elements; frames of n_freq complex floats or n_mels floats) must be at most
PTRDIFF_MAX bytes, the limit every buffer argument has. On an error `*n` is untouched. The
largest accepted count is checked too, so the rule is the boundary, not just "huge fails"."""

import pytest

from sk_header import SK_ERR_LENGTH, SK_OK
SIZE_MAX = 2**64 - 1
PTRDIFF_MAX = 2**63 - 1
CANARY = 0x5A5A_5A5A_5A5A_5A5A
MAX_FLOATS = PTRDIFF_MAX // 4  # the most floats a buffer can hold


@pytest.fixture
def out(ffi):
    p = ffi.new("size_t *")
    p[0] = CANARY
    return p


def refused(rc, p, msg, name, *words):
    assert rc == SK_ERR_LENGTH, (rc, msg)
    assert p[0] == CANARY, "the count was stored although the call failed"
    assert msg.startswith(name + ": ") and "more than the address space can hold" in msg, msg
    for w in words:
        assert w in msg, (w, msg)


def test_resample_size_refuses_counts_beyond_the_address_space(sk, out, last_error):
    # the case: 1 -> 256 of SIZE_MAX/2 frames saturated to SIZE_MAX
    rc = sk.sk_resample_size(1.0, 256.0, out, SIZE_MAX // 2)
    refused(rc, out, last_error(), "sk_resample_size", f"n_in = {SIZE_MAX // 2} frames",
            "at least")
    rc = sk.sk_resample_size(48000.0, 44100.0, out, SIZE_MAX)
    refused(rc, out, last_error(), "sk_resample_size")
    # the boundary: ceil(n·2) floats for 1 -> 2
    assert sk.sk_resample_size(1.0, 2.0, out, MAX_FLOATS // 2) == SK_OK
    assert out[0] == MAX_FLOATS // 2 * 2
    out[0] = CANARY
    rc = sk.sk_resample_size(1.0, 2.0, out, MAX_FLOATS // 2 + 1)
    refused(rc, out, last_error(), "sk_resample_size", f"is {(MAX_FLOATS // 2 + 1) * 2} frames")


@pytest.mark.parametrize("sfx,elem", [("f32", 4), ("f64", 8)])
@pytest.mark.parametrize("channels", [1, 2])
def test_resampler_output_size_counts_frames_of_the_stream(sk, ffi, out, last_error, sfx, elem,
                                                          channels):
    h = ffi.new("SkResampler **")
    assert getattr(sk, f"sk_resampler_{sfx}_new")(1.0, 256.0, channels, 0, h) == SK_OK
    try:
        rc = sk.sk_resampler_output_size(h[0], out, SIZE_MAX)
        refused(rc, out, last_error(), "sk_resampler_output_size", "at least",
                f"frames of {channels} {'float' if elem == 4 else 'double'}")
        # well inside and twice beyond the largest count whose frames fit
        top = PTRDIFF_MAX // (channels * elem)
        out[0] = CANARY
        assert sk.sk_resampler_output_size(h[0], out, top // 256 - 2) == SK_OK
        assert 0 < out[0] <= top
        out[0] = CANARY
        refused(sk.sk_resampler_output_size(h[0], out, top // 128), out, last_error(),
                "sk_resampler_output_size", f"n_in = {top // 128} frames")
        # ordinary sizes are unchanged; the flush size of a fresh stream is 0
        assert sk.sk_resampler_output_size(h[0], out, 0) == SK_OK
        assert sk.sk_resampler_flush_size(h[0], out) == SK_OK and out[0] == 0
    finally:
        assert sk.sk_resampler_free(h[0]) == SK_OK


def test_polyphase_sizes(sk, out, last_error):
    # resample_poly: n_x·up/down; up = down = 1 stores n_x itself
    assert sk.sk_resample_poly_size(1, 1, out, MAX_FLOATS) == SK_OK and out[0] == MAX_FLOATS
    out[0] = CANARY
    refused(sk.sk_resample_poly_size(1, 1, out, MAX_FLOATS + 1), out, last_error(),
            "sk_resample_poly_size", f"n_x = {MAX_FLOATS + 1}")
    refused(sk.sk_resample_poly_size(3, 2, out, MAX_FLOATS), out, last_error(),
            "sk_resample_poly_size")
    out[0] = CANARY
    # overflow of size_t itself: still SK_ERR_LENGTH, "does not fit"
    assert sk.sk_resample_poly_size(4, 1, out, SIZE_MAX // 2) == SK_ERR_LENGTH
    assert out[0] == CANARY and "does not fit in size_t" in last_error()
    # upfirdn: ceil(((n_x − 1)·up + n_h) / down)
    assert sk.sk_upfirdn_size(1, 1, out, 1, MAX_FLOATS) == SK_OK and out[0] == MAX_FLOATS
    out[0] = CANARY
    refused(sk.sk_upfirdn_size(1, 1, out, 2, MAX_FLOATS), out, last_error(), "sk_upfirdn_size")
    assert sk.sk_upfirdn_size(2, 1, out, 3, SIZE_MAX) == SK_ERR_LENGTH and out[0] == CANARY


def test_convolve_len(sk, out, last_error):
    full = 0
    assert sk.sk_convolve_len(full, out, MAX_FLOATS, 1) == SK_OK and out[0] == MAX_FLOATS
    out[0] = CANARY
    refused(sk.sk_convolve_len(full, out, MAX_FLOATS, 2), out, last_error(), "sk_convolve_len",
            f"na = {MAX_FLOATS}, nb = 2")


def test_stft_frame_counts(sk, ffi, out, last_error):
    # n_fft 16 (9 one-sided bins: 72 bytes a frame), hop 1, no centring: frames = n − 15
    top = PTRDIFF_MAX // 72
    assert sk.sk_stft_frames(16, 1, 16, 0, 0, out, top + 15) == SK_OK and out[0] == top
    out[0] = CANARY
    refused(sk.sk_stft_frames(16, 1, 16, 0, 0, out, top + 16), out, last_error(),
            "sk_stft_frames", "frames of 9 complex floats")
    # istft: n_fft + hop·(frames − 1) floats
    assert sk.sk_istft_len(16, 1, 16, 0, MAX_FLOATS - 15, out) == SK_OK and out[0] == MAX_FLOATS
    out[0] = CANARY
    refused(sk.sk_istft_len(16, 1, 16, 0, MAX_FLOATS - 14, out), out, last_error(),
            "sk_istft_len")
    # the stream's push count, two-sided (16 bins: 128 bytes a frame)
    win = ffi.new("float[]", [1.0] * 16)
    s = ffi.new("SkStftStream **")
    assert sk.sk_stft_stream_f32_new(win, 16, 1, 16, 0, 0, 0, 0, s) == SK_OK
    try:
        top = PTRDIFF_MAX // 128
        assert sk.sk_stft_stream_push_frames(s[0], out, top + 15) == SK_OK and out[0] == top
        out[0] = CANARY
        refused(sk.sk_stft_stream_push_frames(s[0], out, top + 16), out, last_error(),
                "sk_stft_stream_push_frames", "frames of 16 complex floats")
        assert sk.sk_stft_stream_finish_frames(s[0], out) != SK_OK or out[0] == 0
    finally:
        assert sk.sk_stft_stream_free(s[0]) == SK_OK


def test_mel_frames(sk, ffi, out, last_error):
    plan = ffi.new("SkMelPlan **")
    # sr, n_fft 16, hop 4, win 16, hann, -, center 0, pad 0, power 2, 4 mels, fmin, fmax, htk, norm
    assert sk.sk_mel_plan_f32_new(16000.0, 16, 4, 16, 1, 0.0, 0, 0, 2.0, 4, 0.0, 0.0, 0, 1,
                                  plan) == SK_OK
    try:
        top = PTRDIFF_MAX // 16  # frames of 4 floats
        n_ok = (top - 1) * 4 + 16  # frames = 1 + (n − 16) / 4 = top
        assert sk.sk_mel_frames(plan[0], out, n_ok) == SK_OK and out[0] == top
        out[0] = CANARY
        refused(sk.sk_mel_frames(plan[0], out, n_ok + 4), out, last_error(), "sk_mel_frames",
                "frames of 4 floats")
    finally:
        assert sk.sk_mel_plan_free(plan[0]) == SK_OK
