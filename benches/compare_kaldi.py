"""Kaldi front ends through the package (sigkern.kaldi) against torchaudio.compliance.kaldi
(the installed torchaudio, else its module vendored in python_tests/support/, run on the
installed torch) and kaldi_native_fbank's Python API (if installed), float32, dither 0.

Rows (section "kaldi"):
  fbank 80 bins 30 s 16k           sigkern.kaldi.fbank(x)                 vs torchaudio, 10x
  fbank 80 bins 30 s 16k knf       sigkern.kaldi.fbank(x)                 vs knf.OnlineFbank
                                   (accept the whole signal, read every frame into an array), 5x
  fbank batch 16 x 30 s 80 bins    sigkern.kaldi.fbank(batch, channel=None) vs torchaudio per
                                   clip, 15x
  mfcc 30 s 16k                    sigkern.kaldi.mfcc(x)                  vs torchaudio, 10x
  online fbank 10 ms chunks 30 s   sigkern.kaldi.OnlineFbank, 160-sample accept_waveform calls,
                                   frames read as they come vs knf.OnlineFbank the same way, 3x
  librosa mfcc 30 s 22.05k         sigkern.feature.mfcc(y=y, sr=22050)    vs librosa.feature.mfcc
                                   (defaults), 10x
  librosa delta (20, 2584)         sigkern.feature.delta(m)               vs librosa.feature.delta
"""

import pathlib
import sys

import numpy as np

SECTION = "kaldi"


def _reference():
    try:
        import torchaudio.compliance.kaldi as ref
    except Exception:  # absent, or built for another torch
        sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python_tests" / "support"))
        import torchaudio_kaldi as ref
    return ref


def run(ctx):
    try:
        import torch
    except ImportError:
        print("kaldi rows need torch")
        return
    import sigkern.kaldi as sk

    ref = _reference()
    rng = np.random.default_rng(0)

    def pair(name, sk_fn, ref_fn, label, target):
        if ctx.selected(SECTION, name):
            ts, tr = ctx.best([sk_fn, ref_fn])
            ctx.row(SECTION, name, ts, tr, label, target)

    x = (0.1 * rng.standard_normal(480000)).astype(np.float32)
    tx = torch.from_numpy(x).unsqueeze(0)
    out = np.empty((2998, 80), np.float32)
    assert np.abs(sk.fbank(x, num_mel_bins=80) - ref.fbank(tx, num_mel_bins=80).numpy()).max() < 1e-3
    pair("fbank 80 bins 30 s 16k", lambda: sk.fbank(x, num_mel_bins=80, out=out),
         lambda: ref.fbank(tx, num_mel_bins=80), "torchaudio.compliance.kaldi.fbank", 10.0)
    try:
        import kaldi_native_fbank as knf
    except ImportError:
        knf = None
        print("kaldi_native_fbank is not installed: its rows are skipped")
    if knf is not None:
        opts = knf.FbankOptions()
        opts.frame_opts.dither = 0.0
        opts.mel_opts.num_bins = 80

        def knf_fbank():
            f = knf.OnlineFbank(opts)
            f.accept_waveform(16000, x.tolist())
            f.input_finished()
            return np.array([f.get_frame(i) for i in range(f.num_frames_ready)])

        assert np.abs(knf_fbank() - sk.fbank(x, num_mel_bins=80)).max() < 1e-3
        pair("fbank 80 bins 30 s 16k knf", lambda: sk.fbank(x, num_mel_bins=80, out=out),
             knf_fbank, "kaldi_native_fbank.OnlineFbank", 5.0)
        chunks = [x[i:i + 160] for i in range(0, x.size, 160)]
        lists = [c.tolist() for c in chunks]

        def knf_online():
            f = knf.OnlineFbank(opts)
            frames, done = [], 0
            for c in lists:
                f.accept_waveform(16000, c)
                while done < f.num_frames_ready:
                    frames.append(f.get_frame(done))
                    done += 1
            f.input_finished()
            return frames

        def sk_online():
            f = sk.OnlineFbank(num_mel_bins=80)
            parts = []
            for c in chunks:
                f.accept_waveform(16000, c)
                got = f.get_frames()
                if len(got):
                    parts.append(got)
                    f.pop(len(got))
            f.input_finished()
            return parts

        assert np.abs(np.concatenate(sk_online()) - np.array(knf_online())).max() < 1e-3
        pair("online fbank 10 ms chunks 30 s", sk_online, knf_online,
             "kaldi_native_fbank.OnlineFbank", 3.0)
    batch = (0.1 * rng.standard_normal((16, 480000))).astype(np.float32)
    tb = torch.from_numpy(batch)
    bout = np.empty((16, 2998, 80), np.float32)
    if ctx.selected(SECTION, "fbank batch 16 x 30 s 80 bins"):
        pair("fbank batch 16 x 30 s 80 bins",
             lambda: sk.fbank(batch, num_mel_bins=80, channel=None, out=bout),
             lambda: [ref.fbank(tb[i:i + 1], num_mel_bins=80) for i in range(16)],
             "torchaudio per clip", 15.0)
    mout = np.empty((2998, 13), np.float32)
    pair("mfcc 30 s 16k", lambda: sk.mfcc(x, out=mout), lambda: ref.mfcc(tx),
         "torchaudio.compliance.kaldi.mfcc", 10.0)
    try:
        import librosa
    except ImportError:
        print("librosa is not installed: its rows are skipped")
        return
    import sigkern.feature as feature

    y = (0.1 * rng.standard_normal(22050 * 30)).astype(np.float32)
    np.testing.assert_allclose(feature.mfcc(y=y, sr=22050), librosa.feature.mfcc(y=y, sr=22050),
                               rtol=0, atol=1e-3 * 600)
    pair("librosa mfcc 30 s 22.05k", lambda: feature.mfcc(y=y, sr=22050),
         lambda: librosa.feature.mfcc(y=y, sr=22050), "librosa.feature.mfcc", 10.0)
    m = rng.standard_normal((20, 2584))
    np.testing.assert_allclose(feature.delta(m), librosa.feature.delta(m), rtol=0, atol=1e-9)
    pair("librosa delta (20, 2584)", lambda: feature.delta(m), lambda: librosa.feature.delta(m),
         "librosa.feature.delta", None)
