"""Training-time augmentation through the package (`sigkern.augment`) against audiomentations
0.43 on a batch of 32 clips of 10 s at 16 kHz, float32.

Rows (section "augment"):
  chain snr+ir+eq+gain 32x10 s f32   Compose([AddGaussianSNR, ApplyImpulseResponse (0.5 s IR),
                                     SevenBandParametricEQ, Gain], all p=1) on the (32, n) batch
                                     in one call vs audiomentations' Compose called clip by clip
                                     (its interface is one clip per call), 10x
  AddGaussianSNR 32x10 s f32         the noise transform alone (informational)
"""

import pathlib
import tempfile

import numpy as np

SECTION = "augment"


def run(ctx):
    try:
        import audiomentations as am
        import soundfile
    except ImportError:
        print("augment: audiomentations or soundfile not installed, skipped")
        return
    from sigkern import augment as sa

    sr, n, rows = 16000, 160000, 32
    rng = np.random.default_rng(0)
    t = np.arange(n) / sr
    batch = (0.3 * np.sin(2 * np.pi * 220 * t) + 0.05 * rng.standard_normal((rows, n))).astype(np.float32)
    ir = (rng.standard_normal(sr // 2) * np.exp(-np.arange(sr // 2) / 1500.0)).astype(np.float32)
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "ir.wav"
        soundfile.write(path, ir, sr, subtype="FLOAT")
        ref = am.Compose([am.AddGaussianSNR(p=1.0), am.ApplyImpulseResponse(str(path), p=1.0),
                          am.SevenBandParametricEQ(p=1.0), am.Gain(p=1.0)])
        sk = sa.Compose([sa.AddGaussianSNR(p=1.0), sa.ApplyImpulseResponse(ir, p=1.0),
                         sa.SevenBandParametricEQ(p=1.0), sa.Gain(p=1.0)], seed=0)

        def ref_chain():
            return [ref(c, sr) for c in batch]

        name = "chain snr+ir+eq+gain 32x10 s f32"
        if ctx.selected(SECTION, name):
            ts, tr = ctx.best([lambda: sk(batch, sr), ref_chain], rounds=2, min_time=1.0)
            ctx.row(SECTION, name, ts, tr, "audiomentations.Compose", 10.0)
    name = "AddGaussianSNR 32x10 s f32"
    if ctx.selected(SECTION, name):
        a, b = sa.AddGaussianSNR(p=1.0, seed=0), am.AddGaussianSNR(p=1.0)
        ts, tr = ctx.best([lambda: a(batch, sr), lambda: [b(c, sr) for c in batch]], rounds=2)
        ctx.row(SECTION, name, ts, tr, "audiomentations.AddGaussianSNR", None)
