"""sigkern.feature.sliding_window_cmn against torchaudio.functional.sliding_window_cmn
(transcribed below from torchaudio 2.x, run on torch: torchaudio does not import beside this
torch) within 1e-10 in float64 for every option, float32 within 1e-5; sigkern.feature.cmvn
against a numpy transcription of Kaldi's apply-cmvn."""

import numpy as np
import pytest

import sigkern

torch = pytest.importorskip("torch")


def _torchaudio_sliding_window_cmn(specgram, cmn_window=600, min_cmn_window=100, center=False,
                                   norm_vars=False):
    """torchaudio.functional.sliding_window_cmn, verbatim but for the function name."""
    input_shape = specgram.shape
    num_frames, num_feats = input_shape[-2:]
    specgram = specgram.view(-1, num_frames, num_feats)
    num_channels = specgram.shape[0]
    dtype = specgram.dtype
    device = specgram.device
    last_window_start = last_window_end = -1
    cur_sum = torch.zeros(num_channels, num_feats, dtype=dtype, device=device)
    cur_sumsq = torch.zeros(num_channels, num_feats, dtype=dtype, device=device)
    cmn_specgram = torch.zeros(num_channels, num_frames, num_feats, dtype=dtype, device=device)
    for t in range(num_frames):
        window_start = 0
        window_end = 0
        if center:
            window_start = t - cmn_window // 2
            window_end = window_start + cmn_window
        else:
            window_start = t - cmn_window
            window_end = t + 1
        if window_start < 0:
            window_end -= window_start
            window_start = 0
        if not center:
            if window_end > t:
                window_end = max(t + 1, min_cmn_window)
        if window_end > num_frames:
            window_start -= window_end - num_frames
            window_end = num_frames
            if window_start < 0:
                window_start = 0
        if last_window_start == -1:
            input_part = specgram[:, window_start: window_end - window_start, :]
            cur_sum += torch.sum(input_part, 1)
            if norm_vars:
                cur_sumsq += torch.cumsum(input_part**2, 1)[:, -1, :]
        else:
            if window_start > last_window_start:
                frame_to_remove = specgram[:, last_window_start, :]
                cur_sum -= frame_to_remove
                if norm_vars:
                    cur_sumsq -= frame_to_remove**2
            if window_end > last_window_end:
                frame_to_add = specgram[:, last_window_end, :]
                cur_sum += frame_to_add
                if norm_vars:
                    cur_sumsq += frame_to_add**2
        window_frames = window_end - window_start
        last_window_start = window_start
        last_window_end = window_end
        cmn_specgram[:, t, :] = specgram[:, t, :] - cur_sum / window_frames
        if norm_vars:
            if window_frames == 1:
                cmn_specgram[:, t, :] = torch.zeros(num_channels, num_feats, dtype=dtype, device=device)
            else:
                variance = cur_sumsq
                variance = variance / window_frames
                variance -= (cur_sum**2) / (window_frames**2)
                variance = torch.pow(variance, -0.5)
                cmn_specgram[:, t, :] *= variance
    cmn_specgram = cmn_specgram.view(input_shape[:-2] + (num_frames, num_feats))
    if len(input_shape) == 2:
        cmn_specgram = cmn_specgram.squeeze(0)
    return cmn_specgram


@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize("norm_vars", [False, True])
def test_sliding_window_cmn(center, norm_vars):
    rng = np.random.default_rng(int(center) + 2 * norm_vars)
    x = rng.standard_normal((2, 157, 13)) * 3 + 10
    for cw, mw in ((600, 100), (50, 10), (20, 30), (7, 1), (1, 1), (157, 157), (300, 0)):
        want = _torchaudio_sliding_window_cmn(torch.from_numpy(x), cw, mw, center, norm_vars).numpy()
        got = sigkern.feature.sliding_window_cmn(x, cw, mw, center, norm_vars)
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10, err_msg=f"{cw} {mw}")
    got2 = sigkern.feature.sliding_window_cmn(x[0], 50, 10, center, norm_vars)
    np.testing.assert_allclose(got2, sigkern.feature.sliding_window_cmn(x, 50, 10, center, norm_vars)[0],
                               rtol=0, atol=0)
    x32 = x.astype(np.float32)
    t = torch.from_numpy(x32)
    want = _torchaudio_sliding_window_cmn(t, 50, 10, center, norm_vars).numpy()
    got = sigkern.feature.sliding_window_cmn(t, 50, 10, center, norm_vars)
    assert isinstance(got, torch.Tensor) and got.dtype == torch.float32
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-4)


def test_cmvn_is_kaldis_apply_cmvn():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((3, 80, 23)) * rng.uniform(0.1, 5, 23) + rng.uniform(-5, 5, 23)
    mean = x.mean(axis=-2, keepdims=True)
    np.testing.assert_allclose(sigkern.feature.cmvn(x), x - mean, rtol=0, atol=1e-12)
    var = np.maximum((x * x).mean(axis=-2, keepdims=True) - mean**2, 1e-20)
    want = (x - mean) / np.sqrt(var)
    np.testing.assert_allclose(sigkern.feature.cmvn(x, norm_vars=True), want, rtol=0, atol=1e-10)
    const = np.ones((10, 4))  # zero variance: floored, finite
    assert np.isfinite(sigkern.feature.cmvn(const, norm_vars=True)).all()
    assert sigkern.feature.cmvn(x.astype(np.float32)).dtype == np.float32
    with pytest.raises(ValueError):
        sigkern.feature.cmvn(np.ones(5))


def _stream_all(s, x, rng):
    """Pushes x in random blocks (0 to 40 frames) and finishes; returns the frames out."""
    parts, at = [], 0
    while at < len(x):
        k = int(rng.integers(0, 41))
        parts.append(s.push(x[at:at + k]))
        at += k
    parts.append(s.finish())
    return np.concatenate(parts)


@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize("norm_vars", [False, True])
def test_stream_equals_offline_and_torchaudio(center, norm_vars):
    """Random blockings: bit for bit the offline call; float64 within 1e-10 of torchaudio."""
    rng = np.random.default_rng(10 + int(center) + 2 * norm_vars)
    x = rng.standard_normal((157, 13)) * 3 + 10
    for cw, mw in ((600, 100), (50, 10), (20, 30), (7, 1), (1, 1), (300, 0)):
        s = sigkern.feature.SlidingWindowCmnStream(13, cw, mw, center, norm_vars)
        for _ in range(2):  # a reset stream starts anew
            got = _stream_all(s, x, rng)
            assert np.array_equal(got, sigkern.feature.sliding_window_cmn(x, cw, mw, center, norm_vars))
            want = _torchaudio_sliding_window_cmn(torch.from_numpy(x), cw, mw, center, norm_vars).numpy()
            np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10, err_msg=f"{cw} {mw}")
            s.reset()
    x32 = x.astype(np.float32)
    s = sigkern.feature.SlidingWindowCmnStream(13, 50, 10, center, norm_vars, dtype=np.float32)
    got = _stream_all(s, x32, rng)
    assert got.dtype == np.float32
    assert np.array_equal(got, sigkern.feature.sliding_window_cmn(x32, 50, 10, center, norm_vars))


@pytest.mark.parametrize("center", [False, True])
def test_stream_emits_each_frame_as_soon_as_its_window_is_complete(center):
    """Frame by frame: after n frames in, exactly the frames t with
    n >= max(t + 1, min_cmn_window) (causal) or n >= max(t + cmn_window - cmn_window // 2,
    cmn_window) (centred) are out; the rest come with the finish."""
    cw, mw, n = 9, 4, 30
    x = np.random.default_rng(3).standard_normal((n, 2))
    s = sigkern.feature.SlidingWindowCmnStream(2, cw, mw, center)
    assert s.latency == (cw - cw // 2 - 1 if center else 0)
    out = 0
    for i in range(n):
        out += len(s.push(x[i:i + 1]))
        have = i + 1
        if center:
            want = sum(1 for t in range(have) if have >= max(t + cw - cw // 2, cw))
        else:
            want = sum(1 for t in range(have) if have >= max(t + 1, mw))
        assert out == want, (i, out, want)
        if have >= (cw if center else mw):  # then the lag is the stated latency
            assert out == have - s.latency
    tail = s.finish()
    assert out + len(tail) == n
    assert len(tail) == s.latency


def test_stream_misuse():
    s = sigkern.feature.SlidingWindowCmnStream(3, 10, 2)
    with pytest.raises(ValueError):
        s.push(np.ones((4, 2)))
    with pytest.raises(TypeError):
        s.push(np.ones((4, 3), np.float32))
    with pytest.raises(ValueError):
        sigkern.feature.SlidingWindowCmnStream(3, -1)
    with pytest.raises(sigkern.BadArgumentError):
        sigkern.feature.SlidingWindowCmnStream(0)
    assert s.push(np.ones((0, 3))).shape == (0, 3)
    s.finish()
    with pytest.raises(sigkern.BadArgumentError):
        s.push(np.ones((1, 3)))
    assert s.finish().shape == (0, 3)
    s.close()
    with pytest.raises(sigkern.InvalidHandleError):
        s.reset()

