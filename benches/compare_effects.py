"""Time-stretch, pitch-shift and the phase vocoder through the package (`import sigkern`)
against librosa 0.11, on 10 s of audio at 16 kHz (librosa's defaults: n_fft 2048, hop 512).

Rows (section "effects"):
  time_stretch rate 1.25 f32/f64   sigkern.effects.time_stretch vs librosa.effects.time_stretch, 10x
  pitch_shift +3 / -3 st f32       sigkern.effects.pitch_shift  vs librosa.effects.pitch_shift
                                   (soxr_hq; sigkern "high"), 10x
  phase_vocoder rate 1.25 c128     sigkern.phase_vocoder        vs librosa.phase_vocoder, 10x
  griffinlim 32 it 1024/256 f32    sigkern.griffinlim           vs librosa.griffinlim, 8x (same
                                   random_state), and vs torch's stft/istft loop (informational)
"""

import numpy as np

SECTION = "effects"


def run(ctx):
    try:
        import librosa
    except ImportError:
        print("effects: librosa not installed, skipped")
        return
    import sigkern
    from sigkern.effects import pitch_shift, time_stretch

    rng = np.random.default_rng(0)
    sr = 16000
    t = np.arange(10 * sr) / sr
    x64 = 0.5 * np.sin(2 * np.pi * 440 * t) + 0.05 * rng.standard_normal(t.size)

    def pair(name, sk_fn, ref_fn, label, target):
        if ctx.selected(SECTION, name):
            ts, tr = ctx.best([sk_fn, ref_fn])
            ctx.row(SECTION, name, ts, tr, label, target)

    for dt in (np.float32, np.float64):
        x = x64.astype(dt)
        tag = "f32" if dt == np.float32 else "f64"
        pair(f"time_stretch rate 1.25 10 s {tag}", lambda x=x: time_stretch(x, rate=1.25),
             lambda x=x: librosa.effects.time_stretch(x, rate=1.25),
             "librosa.effects.time_stretch", 10.0)
    x = x64.astype(np.float32)
    for st in (3, -3):
        pair(f"pitch_shift {st:+d} st 10 s f32", lambda st=st: pitch_shift(x, sr=sr, n_steps=st),
             lambda st=st: librosa.effects.pitch_shift(x, sr=sr, n_steps=st),
             "librosa.effects.pitch_shift (soxr_hq)", 10.0)
    D = librosa.stft(x64)
    pair("phase_vocoder rate 1.25 10 s c128", lambda: sigkern.phase_vocoder(D, rate=1.25),
         lambda: librosa.phase_vocoder(D, rate=1.25), "librosa.phase_vocoder", 10.0)
    for dt in (np.float32, np.float64):
        tag = "f32" if dt == np.float32 else "f64"
        S = np.abs(librosa.stft(x64.astype(dt), n_fft=1024, hop_length=256))
        pair(f"griffinlim 32 it 1024/256 10 s {tag}",
             lambda S=S: sigkern.griffinlim(S, n_iter=32, hop_length=256, random_state=0),
             lambda S=S: librosa.griffinlim(S, n_iter=32, hop_length=256, random_state=0),
             "librosa.griffinlim", 8.0)
    try:
        import torch
    except ImportError:
        return
    S = np.abs(librosa.stft(x64.astype(np.float32), n_fft=1024, hop_length=256))
    St = torch.from_numpy(S)
    win = torch.hann_window(1024)

    def torch_gl():
        # torchaudio.functional.griffinlim's loop (torchaudio is not a dependency)
        angles = torch.polar(torch.ones_like(St), 2 * np.pi * torch.rand(St.shape))
        tprev = torch.zeros_like(angles)
        for _ in range(32):
            inv = torch.istft(St * angles, 1024, 256, window=win)
            rebuilt = torch.stft(inv, 1024, 256, window=win, return_complex=True, pad_mode="reflect")
            angles = rebuilt - (0.99 / 1.99) * tprev
            angles = angles / angles.abs().add(1e-16)
            tprev = rebuilt
        return torch.istft(St * angles, 1024, 256, window=win)

    for threads in sorted({1, torch.get_num_threads()}):
        old = torch.get_num_threads()
        torch.set_num_threads(threads)
        try:
            pair(f"griffinlim 32 it 1024/256 10 s f32 vs torch {threads} thread(s)",
                 lambda: sigkern.griffinlim(S, n_iter=32, hop_length=256, random_state=0),
                 torch_gl, f"torch stft/istft loop, {threads} thread(s)", 2.0)
        finally:
            torch.set_num_threads(old)
