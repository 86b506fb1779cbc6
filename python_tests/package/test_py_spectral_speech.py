"""Speech front ends through the package: Whisper-style log-mel in one call
(log_mel_spectrogram, MelSpectrogram.log10_mel, log10_floor), batched mel/log-mel/STFT entry
points (sk_melspec_batch_*, sk_logmel_batch_*, sk_log10mel_batch_*, sk_stft_batch_*), and the
float32 dB tail, each against a plain numpy/torch/librosa reference written from the recipe."""

import math

import librosa
import numpy as np
import pytest

import sigkern

torch = pytest.importorskip("torch")

SR = 16000


def whisper_reference(audio: np.ndarray, n_mels: int) -> np.ndarray:
    """OpenAI Whisper's log_mel_spectrogram, written out in torch (float64) from its recipe:
    centred reflect-padded STFT (n_fft 400, hop 160, periodic Hann), last frame dropped, power,
    Slaney mel filters, log10 clamped at 1e-10, floored at max - 8, then (x + 4) / 4."""
    x = torch.from_numpy(np.asarray(audio, np.float64))
    window = torch.hann_window(400, dtype=torch.float64)
    stft = torch.stft(x, 400, 160, window=window, return_complex=True)
    magnitudes = stft[..., :-1].abs() ** 2
    filters = torch.from_numpy(librosa.filters.mel(sr=SR, n_fft=400, n_mels=n_mels, dtype=np.float64))
    mel_spec = filters @ magnitudes
    log_spec = torch.clamp(mel_spec, min=1e-10).log10()
    log_spec = torch.maximum(log_spec, log_spec.max() - 8.0)
    return ((log_spec + 4.0) / 4.0).numpy()


def speechlike(seconds: float, seed: int, loud_end: bool = False) -> np.ndarray:
    rng = np.random.default_rng(seed)
    t = np.arange(int(seconds * SR)) / SR
    x = 0.1 * rng.standard_normal(t.size) * (1 + np.sin(2 * np.pi * 3 * t))
    x += 0.2 * np.sin(2 * np.pi * 220 * t) * (t % 1.0 < 0.6)
    if loud_end:  # the dropped last frame must not set the floor
        x[-120:] = 30.0 * np.sin(2 * np.pi * 3000 * t[-120:])
    return x


@pytest.mark.parametrize("n_mels", [80, 128])
@pytest.mark.parametrize("loud_end", [False, True])
def test_whisper_features_equal_the_recipe(n_mels, loud_end):
    audio = speechlike(3.3, 1, loud_end)
    want = whisper_reference(audio, n_mels)
    got64 = sigkern.log_mel_spectrogram(audio, n_mels=n_mels)
    assert got64.shape == want.shape == (n_mels, audio.size // 160)
    assert np.max(np.abs(got64 - want)) <= 1e-9
    got32 = sigkern.log_mel_spectrogram(audio.astype(np.float32), n_mels=n_mels)
    assert got32.dtype == np.float32
    # float32 data: STFT and filterbank rounding (about 1e-6 relative on the power) plus the
    # float32 log (2 ulp); in log10 units / 4 that stays far below 1e-4
    assert np.max(np.abs(got32 - want)) <= 1e-4


def test_whisper_thirty_second_padding_and_tensor():
    audio = speechlike(2.0, 2).astype(np.float32)
    padded = np.zeros(480000, np.float32)
    padded[: audio.size] = audio
    want = whisper_reference(padded, 80)
    got = sigkern.log_mel_spectrogram(audio, length=480000)
    assert got.shape == (80, 3000) and np.max(np.abs(got - want)) <= 1e-4
    t = torch.from_numpy(audio)
    gt = sigkern.log_mel_spectrogram(t, length=480000)
    assert isinstance(gt, torch.Tensor) and np.array_equal(gt.numpy(), got)
    # trimming
    long = speechlike(3.0, 3)
    assert np.max(np.abs(sigkern.log_mel_spectrogram(long, length=16000) - whisper_reference(long[:16000], 80))) <= 1e-9


def test_batch_floor_per_clip_or_over_the_batch():
    clips = np.stack([speechlike(1.5, s) * g for s, g in ((4, 1.0), (5, 1e-3), (6, 10.0))])
    per_clip = sigkern.log_mel_spectrogram(clips)
    assert per_clip.shape == (3, 80, 150)
    for i in range(3):
        assert np.max(np.abs(per_clip[i] - whisper_reference(clips[i], 80))) <= 1e-9
    over_batch = sigkern.log_mel_spectrogram(clips, per_row=False)
    # reference: the floor relative to the maximum of all clips
    raw = [sigkern.log_mel_spectrogram(c, top=None) for c in clips]
    allmax = max(float(r.max()) for r in raw)
    want = np.maximum(np.stack(raw), allmax - 0.25 * 8.0)
    assert np.max(np.abs(over_batch - want)) <= 1e-12
    out = np.empty_like(per_clip)
    assert sigkern.log_mel_spectrogram(clips, out=out) is out and np.array_equal(out, per_clip)


def test_mel_frames_option_and_batched_log_mel():
    y = np.random.default_rng(7).standard_normal((2, 3, 8000))
    mel = sigkern.MelSpectrogram(sr=SR, n_fft=512, hop_length=128, n_mels=40, dtype=np.float64)
    full = mel(y)
    assert full.shape == (2, 3, 40, mel.frames(8000))
    cut = mel(y, n_frames=10)
    assert np.array_equal(cut, full[..., :10])
    ref = librosa.feature.melspectrogram(y=y, sr=SR, n_fft=512, hop_length=128, n_mels=40, dtype=np.float64)
    np.testing.assert_allclose(full, ref, rtol=1e-9, atol=1e-12 * ref.max())
    # dB per row vs librosa row by row; over all rows vs librosa on the whole array
    per_row = mel.log_mel(y, per_row=True)
    for idx in np.ndindex(2, 3):
        np.testing.assert_allclose(per_row[idx], librosa.power_to_db(ref[idx]), atol=1e-9)
    np.testing.assert_allclose(mel.log_mel(y), librosa.power_to_db(ref), atol=1e-9)
    np.testing.assert_allclose(mel.log_mel(y, n_frames=5), librosa.power_to_db(ref[..., :5]), atol=1e-9)
    with pytest.raises(ValueError, match="n_frames = 999"):
        mel(y, n_frames=999)
    mel.close()


def test_stft_batch_equals_rows_and_torch():
    x = np.random.default_rng(8).standard_normal((4, 5000))
    w = sigkern.get_window("hann", 512)
    got = sigkern.stft(x, 512, 128, window=w)
    assert got.shape == (4, 257, 5000 // 128 + 1)
    for r in range(4):
        assert np.array_equal(got[r], sigkern.stft(x[r], 512, 128, window=w))
    want = torch.stft(torch.from_numpy(x), 512, 128, window=torch.from_numpy(w), return_complex=True).numpy()
    np.testing.assert_allclose(got, want, atol=1e-9 * np.abs(want).max())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_log10_floor(dtype):
    rng = np.random.default_rng(9)
    x = (10.0 ** rng.uniform(-14, 6, 10007)).astype(dtype)
    x[::101] = 0.0
    l = np.log10(np.maximum(x.astype(np.float64), 1e-10))
    want = 0.25 * np.maximum(l, l.max() - 8.0) + 1.0
    got = sigkern.log10_floor(x)
    tol = 1e-14 if dtype == np.float64 else 1e-6
    assert got.dtype == dtype and np.max(np.abs(got - want)) <= tol
    assert sigkern.log10_floor(x, out=x) is x and np.max(np.abs(x - want)) <= tol  # in place
    assert np.array_equal(sigkern.log10_floor(np.array([1.0, np.inf]), top=None), [1.0, np.inf])
    assert np.all(np.isnan(sigkern.log10_floor(np.array([1.0, np.nan, 3.0]))))
    y = np.full(3, 7.0)
    for kw, msg in (({"amin": 0.0}, "amin = 0"), ({"scale": -1.0}, "scale = -1"),
                    ({"top": -2.0}, "top = -2"), ({"offset": math.inf}, "offset = inf")):
        with pytest.raises(sigkern.BadArgumentError, match=msg):
            sigkern.log10_floor(np.ones(3), out=y, **kw)
        assert np.all(y == 7.0)


def test_float32_power_to_db_tail_accuracy():
    """The float32 dB tail runs in float32: within 4e-7 relative + 1e-5 dB of float64."""
    rng = np.random.default_rng(10)
    S = (10.0 ** rng.uniform(-12, 4, 240000)).astype(np.float32)
    want = librosa.power_to_db(S.astype(np.float64), ref=1.0, amin=1e-10, top_db=80.0)
    got = sigkern.power_to_db(S, ref=1.0, amin=1e-10, top_db=80.0)
    assert got.dtype == np.float32
    assert np.max(np.abs(got - want) - 4e-7 * np.abs(want)) <= 1e-5


THREADS_WORKER = r"""
import sys
import numpy as np
import sigkern
rng = np.random.default_rng(3)
frames = rng.standard_normal((3001, 400)).astype(np.float32)
batch = (0.1 * rng.standard_normal((3, 64000))).astype(np.float32)
rows = rng.standard_normal((64, 48000)).astype(np.float32)
np.savez(sys.argv[1],
         rfft=sigkern.rfft(frames),
         irfft=sigkern.irfft(sigkern.rfft(frames.astype(np.float64)), n=400),
         one=sigkern.log_mel_spectrogram(batch[0], n_mels=128),
         batch=sigkern.log_mel_spectrogram(batch, n_mels=80),
         batch_floor=sigkern.log_mel_spectrogram(batch, n_mels=80, per_row=False),
         stft=sigkern.stft(batch[1], 1024, 256, window=np.hanning(1025)[:-1].astype(np.float32)),
         rms=sigkern.rms(rows, axis=1))
"""


def test_results_do_not_depend_on_the_thread_count(tmp_path):
    """Batched FFT rows, log-mel of one signal (frames split) and of a batch (signals split),
    the STFT and per-row rms: the same bits with SIGKERN_THREADS = 1, 2 and 3 (the persistent
    workers, and the calling thread taking parts when they are busy), and correct values."""
    import os
    import subprocess
    import sys

    got = {}
    for threads in (1, 2, 3):
        out = tmp_path / f"t{threads}.npz"
        env = dict(os.environ, SIGKERN_THREADS=str(threads))
        proc = subprocess.run([sys.executable, "-c", THREADS_WORKER, str(out)], env=env,
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr
        got[threads] = dict(np.load(out))
    for key in got[1]:
        for threads in (2, 3):
            assert np.array_equal(got[1][key], got[threads][key], equal_nan=True), (key, threads)
    rng = np.random.default_rng(3)
    frames = rng.standard_normal((3001, 400)).astype(np.float32)
    batch = (0.1 * rng.standard_normal((3, 64000))).astype(np.float32)
    rows = rng.standard_normal((64, 48000)).astype(np.float32)
    want = np.fft.rfft(frames.astype(np.float64))
    assert np.max(np.abs(got[1]["rfft"] - want)) < 1e-4 * np.max(np.abs(want))
    assert np.max(np.abs(got[1]["irfft"] - frames)) < 1e-12
    assert np.max(np.abs(got[1]["one"] - whisper_reference(batch[0], 128))) < 2e-4
    for r in range(3):
        assert np.max(np.abs(got[1]["batch"][r] - whisper_reference(batch[r], 80))) < 2e-4
    ref_rms = np.sqrt(np.mean(rows.astype(np.float64) ** 2, axis=1))
    np.testing.assert_allclose(got[1]["rms"], ref_rms, rtol=4 * np.finfo(np.float32).eps)
