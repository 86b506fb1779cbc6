#!/usr/bin/env python3
"""Log-mel spectrogram of a synthetic clip with sigkern (CFFI + numpy), saved as a PNG.

The clip (3 s at 22.05 kHz): a rising chirp 200 Hz → 6 kHz, a 440 Hz tone switching on at 1 s,
a short noise burst at 2 s and a decaying 1 kHz ping at 2.5 s. The spectrogram is
librosa.feature.melspectrogram(sr=22050, n_fft=2048, hop_length=512, n_mels=128) followed by
power_to_db(ref=max, top_db=80), computed by one sk_logmel_f64 call with an SkMelPlan.

Usage (from the repository root, after `cargo build --release`):
    .venv/bin/python examples/python/logmel_png.py [out.png]
"""

import pathlib
import sys

import numpy as np
from cffi import FFI

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def load():
    ffi = FFI()
    ffi.cdef((ROOT / "include" / "sigkern_cdef.h").read_text())
    return ffi, ffi.dlopen(str(ROOT / "target" / "release" / "libsigkern.so"))


def check(ffi, lib, rc, what):
    if rc != lib.SK_OK:
        n = lib.sk_last_error_message(ffi.NULL, 0)
        buf = ffi.new("char[]", n + 1)
        lib.sk_last_error_message(buf, n + 1)
        raise RuntimeError(f"{what}: {ffi.string(lib.sk_status_name(rc)).decode()}: {ffi.string(buf).decode()}")


def clip(sr=22050, seconds=3.0):
    t = np.arange(int(sr * seconds)) / sr
    f0, f1 = 200.0, 6000.0
    chirp = 0.5 * np.sin(2 * np.pi * f0 * seconds / np.log(f1 / f0) * ((f1 / f0) ** (t / seconds) - 1))
    tone = 0.3 * np.sin(2 * np.pi * 440 * t) * (t >= 1.0)
    rng = np.random.default_rng(0)
    burst = 0.3 * rng.standard_normal(t.size) * ((t >= 2.0) & (t < 2.2))
    ping = 0.6 * np.sin(2 * np.pi * 1000 * t) * np.exp(-8 * (t - 2.5)) * (t >= 2.5)
    return (chirp + tone + burst + ping).astype(np.float64)


def logmel(ffi, lib, x, sr, n_fft=2048, hop=512, n_mels=128):
    pp = ffi.new("SkMelPlan **")
    check(ffi, lib, lib.sk_mel_plan_f64_new(sr, n_fft, hop, n_fft, lib.SK_WINDOW_HANN, 0.0, 1,
                                            lib.SK_PAD_CONSTANT, 2.0, n_mels, 0.0, 0.0, 0,
                                            lib.SK_MEL_NORM_SLANEY, pp), "sk_mel_plan_f64_new")
    plan = ffi.gc(pp[0], lib.sk_mel_plan_free)
    frames = ffi.new("size_t *")
    check(ffi, lib, lib.sk_mel_frames(plan, frames, x.size), "sk_mel_frames")
    mel = np.empty((n_mels, frames[0]))
    # ref = max of the mel spectrogram (librosa's ref=np.max): one linear pass first
    check(ffi, lib, lib.sk_melspec_f64(plan, ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", mel),
                                       mel.size, x.size), "sk_melspec_f64")
    check(ffi, lib, lib.sk_power_to_db_f64(ffi.from_buffer("double[]", mel), float(mel.max()), 1e-10, 80.0,
                                           ffi.from_buffer("double[]", mel), mel.size), "sk_power_to_db_f64")
    return mel


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "logmel.png")
    ffi, lib = load()
    sr = 22050
    x = clip(sr)
    db = logmel(ffi, lib, x, sr)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4), dpi=100)
    hop = 512
    im = ax.imshow(db, origin="lower", aspect="auto", cmap="magma",
                   extent=(0, db.shape[1] * hop / sr, 0, db.shape[0]))
    ax.set_xlabel("time (s)")
    ax.set_ylabel("mel band")
    ax.set_title("log-mel spectrogram (sigkern sk_melspec_f64 + sk_power_to_db_f64)")
    fig.colorbar(im, ax=ax, label="dB re max")
    fig.tight_layout()
    fig.savefig(out)
    print(f"wrote {out} ({db.shape[0]} mels x {db.shape[1]} frames, {db.min():.1f} .. {db.max():.1f} dB)")


if __name__ == "__main__":
    main()
