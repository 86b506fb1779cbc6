"""scipy.signal's analysis functions through the package (`import sigkern`) against scipy.

Rows (section "analysis"), float64, targets from the library's speed goals:
  welch (16, 480000) nperseg 1024          sigkern.welch(x, nperseg=1024)     vs scipy, 5x
  spectrogram (16, 480000) nperseg 1024    sigkern.spectrogram(x, nperseg=1024) vs scipy, 4x
  hilbert 480000                           sigkern.hilbert(x)                 vs scipy, 3x
  find_peaks 1e6 prominence + width        sigkern.find_peaks(x, prominence=1, width=1) vs scipy, 3x
  medfilt k=5 1e6                          sigkern.medfilt(x, 5)              vs scipy, 5x
  savgol_filter w31 o3 1e6                 sigkern.savgol_filter(x, 31, 3)    vs scipy, 3x
  sosfreqz order 8 at 8192 points          sigkern.sosfreqz(sos, 8192)        vs scipy, 2x
"""

import numpy as np

SECTION = "analysis"


def run(ctx):
    import scipy.signal as ss

    import sigkern

    rng = np.random.default_rng(0)

    def pair(name, sk_fn, ref_fn, label, target):
        if ctx.selected(SECTION, name):
            ts, tr = ctx.best([sk_fn, ref_fn], rounds=2)
            ctx.row(SECTION, name, ts, tr, label, target)

    big = rng.standard_normal((16, 480000))
    pair("welch (16, 480000) f64 nperseg 1024", lambda: sigkern.welch(big, nperseg=1024),
         lambda: ss.welch(big, nperseg=1024), "scipy.signal.welch", 5.0)
    pair("spectrogram (16, 480000) f64 nperseg 1024", lambda: sigkern.spectrogram(big, nperseg=1024),
         lambda: ss.spectrogram(big, nperseg=1024), "scipy.signal.spectrogram", 4.0)
    del big
    h = rng.standard_normal(480000)
    pair("hilbert 480000 f64", lambda: sigkern.hilbert(h), lambda: ss.hilbert(h),
         "scipy.signal.hilbert", 3.0)
    m = rng.standard_normal(1_000_000)
    pair("find_peaks 1e6 prominence+width", lambda: sigkern.find_peaks(m, prominence=1, width=1),
         lambda: ss.find_peaks(m, prominence=1, width=1), "scipy.signal.find_peaks", 3.0)
    pair("medfilt k=5 1e6 f64", lambda: sigkern.medfilt(m, 5), lambda: ss.medfilt(m, 5),
         "scipy.signal.medfilt", 5.0)
    pair("savgol_filter w31 o3 1e6 f64", lambda: sigkern.savgol_filter(m, 31, 3),
         lambda: ss.savgol_filter(m, 31, 3), "scipy.signal.savgol_filter", 3.0)
    sos = ss.butter(8, 0.2, output="sos")
    pair("sosfreqz order-8 low-pass 8192 points", lambda: sigkern.sosfreqz(sos, worN=8192),
         lambda: ss.sosfreqz(sos, worN=8192), "scipy.signal.sosfreqz", 2.0)
