"""Speech front ends: Whisper-style log-mel through the package in one call against the same
recipe written in torch (float32, torch's default threads), the float32 dB tail, and the batch
rfft of STFT frames.

Rows (section "speech"):
  whisper 30 s, 80 / 128 mels      sigkern.log_mel_spectrogram(audio)  vs the torch recipe, 3x
  whisper batch 16 x 30 s, 80 mels sigkern.log_mel_spectrogram(batch)  vs the torch recipe, 5x
  power_to_db 240k f32             sigkern.power_to_db(S)              vs torch 10*log10(clamp)
                                   + max floor, 1.5x
  rfft (3001, 400) f32             sigkern.rfft(frames)                vs torch.fft.rfft, 1.2x
  stft f32/f64 10 s 16k            sigkern.stft (n_fft 1024, hop 256)  vs torch.stft at its best
                                   thread count (1 .. default), 2.5x
  stft f32/f64 vs rfft of frames   sigkern.stft                        vs sigkern.rfft of its
                                   windowed frames in one batch (ratio < 1: the STFT's own cost)
  log-mel f32/f64 10 s 16k         sigkern.melspectrogram + power_to_db vs librosa, 4x
  per-row rms (64, 48000) f32      sk_rows_rms_f32                     vs torch
                                   sqrt((t*t).mean(dim=1)) at its best thread count, 2x
"""

import numpy as np

SECTION = "speech"


def run(ctx):
    try:
        import librosa
        import torch
    except ImportError:
        print("speech rows need torch and librosa")
        return
    import sigkern

    rng = np.random.default_rng(0)

    def pair(name, sk_fn, ref_fn, label, target):
        if ctx.selected(SECTION, name):
            ts, tr = ctx.best([sk_fn, ref_fn])
            ctx.row(SECTION, name, ts, tr, label, target)

    window = torch.hann_window(400)
    filters = {m: torch.from_numpy(librosa.filters.mel(sr=16000, n_fft=400, n_mels=m)) for m in (80, 128)}

    def torch_whisper(audio, n_mels):
        stft = torch.stft(audio, 400, 160, window=window, return_complex=True)
        magnitudes = stft[..., :-1].abs() ** 2
        mel_spec = filters[n_mels] @ magnitudes
        log_spec = torch.clamp(mel_spec, min=1e-10).log10()
        log_spec = torch.maximum(log_spec, log_spec.max() - 8.0)
        return (log_spec + 4.0) / 4.0

    audio = (0.1 * rng.standard_normal(480000)).astype(np.float32)
    taudio = torch.from_numpy(audio)
    for m in (80, 128):
        got = sigkern.log_mel_spectrogram(audio, n_mels=m)
        assert np.max(np.abs(got - torch_whisper(taudio, m).numpy())) < 1e-3
        pair(f"whisper log-mel 30 s {m} mels", lambda m=m: sigkern.log_mel_spectrogram(audio, n_mels=m),
             lambda m=m: torch_whisper(taudio, m), "torch recipe (stft, mel, log10)", 3.0)
    batch = (0.1 * rng.standard_normal((16, 480000))).astype(np.float32)
    tbatch = torch.from_numpy(batch)
    out = np.empty((16, 80, 3000), np.float32)

    def torch_batch():
        # Whisper floors each clip at its own maximum
        return torch.stack([torch_whisper(tbatch[i], 80) for i in range(16)])

    if ctx.selected(SECTION, "whisper log-mel batch 16 x 30 s 80 mels"):
        assert np.max(np.abs(sigkern.log_mel_spectrogram(batch, out=out) - torch_batch().numpy())) < 1e-3
        pair("whisper log-mel batch 16 x 30 s 80 mels", lambda: sigkern.log_mel_spectrogram(batch, out=out),
             torch_batch, "torch recipe per clip", 5.0)

    S = (10.0 ** rng.uniform(-12, 4, 240000)).astype(np.float32)
    tS = torch.from_numpy(S)
    y = np.empty_like(S)

    def torch_db():
        d = 10.0 * torch.log10(torch.clamp(tS, min=1e-10))
        return torch.maximum(d, d.max() - 80.0)

    pair("power_to_db 240k f32", lambda: sigkern.power_to_db(S, top_db=80.0, out=y), torch_db,
         "torch 10*log10(clamp) + max floor", 1.5)
    pair("power_to_db 240k f32 vs librosa", lambda: sigkern.power_to_db(S, top_db=80.0, out=y),
         lambda: librosa.power_to_db(S, top_db=80.0), "librosa.power_to_db", None)

    frames = rng.standard_normal((3001, 400)).astype(np.float32)
    tframes = torch.from_numpy(frames)
    yf = np.empty((3001, 201), np.complex64)
    assert np.allclose(sigkern.rfft(frames, out=yf), torch.fft.rfft(tframes).numpy(), atol=1e-3)
    pair("rfft (3001, 400) f32", lambda: sigkern.rfft(frames, out=yf), lambda: torch.fft.rfft(tframes),
         "torch.fft.rfft(x)", 1.2)

    def torch_best(fn):
        """Seconds per call of fn at torch's best thread count (1 .. its default), interleaved."""
        default = torch.get_num_threads()
        best = float("inf")
        try:
            for _ in range(3):
                for k in range(1, default + 1):
                    torch.set_num_threads(k)
                    best = min(best, ctx.timeit(fn, min_time=0.2))
        finally:
            torch.set_num_threads(default)
        return best

    def pair_best(name, sk_fn, ref_fn, label, target):
        if ctx.selected(SECTION, name):
            ts = min(ctx.timeit(sk_fn, min_time=0.2) for _ in range(3))
            tr = torch_best(ref_fn)
            ts = min(ts, ctx.timeit(sk_fn, min_time=0.2))
            ctx.row(SECTION, name, ts, tr, label, target)

    sr, n_fft, hop = 16000, 1024, 256
    clip = rng.standard_normal(10 * sr)
    for dt in (np.float32, np.float64):
        tag = np.dtype(dt).name.replace("float", "f")
        x = clip.astype(dt)
        xt, wt = torch.from_numpy(x), torch.hann_window(n_fft, dtype=torch.float32 if dt == np.float32
                                                        else torch.float64)
        want = torch.stft(xt, n_fft, hop, window=wt, center=True, pad_mode="reflect", return_complex=True)
        wn = wt.numpy()
        yst = np.empty(want.shape[::-1], want.numpy().dtype).T
        got = sigkern.stft(x, n_fft, hop, window=wn, out=yst)
        assert np.allclose(np.asarray(got), want.numpy(), atol=1e-3 if dt == np.float32 else 1e-9)
        pair_best(f"stft {tag} 10 s 16k nfft1024 hop256",
                  lambda x=x, wn=wn, yst=yst: sigkern.stft(x, n_fft, hop, window=wn, out=yst),
                  lambda: torch.stft(xt, n_fft, hop, window=wt, center=True, pad_mode="reflect",
                                     return_complex=True), "torch.stft (best threads)", 2.5)
        # the same STFT against one batched rfft of its windowed frames (made beforehand): how
        # much the framing, windowing and output cost over the transforms themselves
        name = f"stft {tag} 10 s 16k vs rfft of its frames"
        if ctx.selected(SECTION, name):
            padded = np.pad(x, n_fft // 2, mode="reflect")
            frames = np.lib.stride_tricks.sliding_window_view(padded, n_fft)[::hop] * wn
            frames = np.ascontiguousarray(frames[: yst.shape[1]])  # yst is (freq, frames)
            yf = np.empty((frames.shape[0], n_fft // 2 + 1), yst.dtype)
            sigkern.rfft(frames, out=yf)
            assert np.allclose(yf, yst.T, atol=1e-3 if dt == np.float32 else 1e-9)
            ts, tr = ctx.best([lambda x=x, wn=wn, yst=yst: sigkern.stft(x, n_fft, hop, window=wn, out=yst),
                                 lambda frames=frames, yf=yf: sigkern.rfft(frames, out=yf)])
            ctx.row(SECTION, name, ts, tr, "sigkern.rfft(frames, out=) batch", None)
        mel = sigkern.MelSpectrogram(sr=sr, n_fft=n_fft, hop_length=hop, n_mels=128, dtype=dt)
        y_mel = mel.log_mel(x)

        def ref(x=x):
            return librosa.power_to_db(librosa.feature.melspectrogram(y=x, sr=sr, n_fft=n_fft, hop_length=hop,
                                                                      n_mels=128))

        assert np.max(np.abs(y_mel - ref())) < 1e-2
        pair(f"log-mel {tag} 128 mels 10 s 16k", lambda x=x, mel=mel, y_mel=y_mel: mel.log_mel(x, out=y_mel),
             ref, "librosa melspectrogram + power_to_db", 4.0)

    m = rng.standard_normal((64, 48000)).astype(np.float32)
    tm = torch.from_numpy(m)
    assert np.allclose(sigkern.rms(m, axis=1), torch.sqrt((tm * tm).mean(dim=1)).numpy(), rtol=1e-5)
    pair_best("per-row rms (64, 48000) f32", lambda: sigkern.rms(m, axis=1),
              lambda: torch.sqrt((tm * tm).mean(dim=1)), "torch sqrt((t*t).mean(dim=1)) (best threads)", 2.0)
