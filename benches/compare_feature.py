"""librosa's frame-wise features through the package (sigkern.feature) against librosa itself,
30 s of float32 audio at 22.05 kHz, librosa's defaults (n_fft 2048, hop 512, Hann, centred).

Rows (section "feature"):
  spectral_centroid / bandwidth / rolloff / flatness / contrast 30 s   from y, 10x each
  zero_crossing_rate 30 s, rms 30 s                                  from y, 10x each
  spectral_features 6 in one pass 30 s     sigkern.feature.spectral_features(y) vs librosa's
                                           centroid + bandwidth + rolloff + flatness + zcr + rms
                                           one by one, 20x
  spectral_centroid from S 30 s            a given magnitude spectrogram, informational
  onset_strength 30 s                      sigkern.onset.onset_strength(y=y) vs librosa, 8x
  yin 30 s                                 sigkern.yin(y, fmin=65, fmax=2093) vs librosa.yin, 10x
"""

import numpy as np

SECTION = "feature"


def run(ctx):
    try:
        import librosa
    except ImportError:
        print("feature rows need librosa")
        return
    import sigkern.feature as skf

    rng = np.random.default_rng(0)
    sr = 22050
    t = np.arange(30 * sr) / sr
    y = (0.3 * np.sin(2 * np.pi * 440 * t) + 0.05 * rng.standard_normal(t.size)).astype(np.float32)

    def pair(name, sk_fn, ref_fn, label, target):
        if ctx.selected(SECTION, name):
            ts, tr = ctx.best([sk_fn, ref_fn])
            ctx.row(SECTION, name, ts, tr, label, target)

    a = skf.spectral_centroid(y=y)
    b = librosa.feature.spectral_centroid(y=y)
    assert a.shape == b.shape and np.allclose(a, b, rtol=1e-3), "centroid disagrees with librosa"

    for nm in ("spectral_centroid", "spectral_bandwidth", "spectral_rolloff", "spectral_flatness",
               "spectral_contrast"):
        ours, theirs = getattr(skf, nm), getattr(librosa.feature, nm)
        pair(f"{nm} 30 s", lambda f=ours: f(y=y), lambda f=theirs: f(y=y),
             f"librosa.feature.{nm}", 10.0)
    pair("zero_crossing_rate 30 s", lambda: skf.zero_crossing_rate(y),
         lambda: librosa.feature.zero_crossing_rate(y), "librosa.feature.zero_crossing_rate", 10.0)
    pair("rms 30 s", lambda: skf.rms(y=y), lambda: librosa.feature.rms(y=y),
         "librosa.feature.rms", 10.0)

    def librosa_six():
        librosa.feature.spectral_centroid(y=y)
        librosa.feature.spectral_bandwidth(y=y)
        librosa.feature.spectral_rolloff(y=y)
        librosa.feature.spectral_flatness(y=y)
        librosa.feature.zero_crossing_rate(y)
        librosa.feature.rms(y=y)

    pair("spectral_features 6 in one pass 30 s", lambda: skf.spectral_features(y), librosa_six,
         "librosa, the six one by one", 20.0)
    S = np.abs(librosa.stft(y))
    pair("spectral_centroid from S 30 s", lambda: skf.spectral_centroid(S=S),
         lambda: librosa.feature.spectral_centroid(S=S), "librosa.feature.spectral_centroid(S=S)",
         None)
    import sigkern.onset as sko

    pair("onset_strength 30 s", lambda: sko.onset_strength(y=y, sr=sr),
         lambda: librosa.onset.onset_strength(y=y, sr=sr), "librosa.onset.onset_strength", 8.0)
    import sigkern

    pair("yin 30 s", lambda: sigkern.yin(y, fmin=65.0, fmax=2093.0, sr=sr),
         lambda: librosa.yin(y, fmin=65.0, fmax=2093.0, sr=sr), "librosa.yin", 10.0)
