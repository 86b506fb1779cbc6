"""Signal analysis with ``scipy.signal``'s names, signatures, defaults and errors (C:
``sk_spectral_est_*``, ``sk_hilbert_*``, the peak scans ``sk_local_maxima_f64``,
``sk_peak_distance_select``, ``sk_peak_prominences_f64``, ``sk_peak_widths_f64``,
``sk_relextrema_f64``, ``sk_medfilt_*``, ``sk_medfilt2d_*``, ``sk_correlate_ext_*``,
``sk_detrend_*``, and ``sk_freqz``, ``sk_freqz_sos``, ``sk_group_delay``): spectral estimation
(:func:`periodogram`, :func:`welch`, :func:`csd`, :func:`coherence`, :func:`spectrogram`), the
analytic signal (:func:`hilbert`, :func:`envelope`), peaks (:func:`find_peaks`, :func:`peak_prominences`,
:func:`peak_widths`, :func:`argrelmax`, :func:`argrelmin`, :func:`argrelextrema`), smoothing and detrending (:func:`medfilt`,
:func:`savgol_coeffs`, :func:`savgol_filter`, :func:`detrend`), frequency responses of
digital filters (:func:`freqz`, :func:`freqz_sos`, :func:`sosfreqz`, :func:`group_delay`).

``from sigkern import welch`` replaces ``from scipy.signal import welch``: the functions take
what scipy takes (array-likes, any axis) and return numpy arrays of scipy's shapes and dtypes.
The signal functions take real signals; complex input raises ``TypeError`` (``ValueError`` for
:func:`hilbert`, as scipy); the frequency responses take complex filter coefficients too. Thread safety: every function may run on many threads at once.
"""

from __future__ import annotations

# One module per concept of ``src/kernels/analysis/``; names re-exported here.
from ._freqz import freqz, freqz_sos, group_delay, sosfreqz
from ._hilbert import envelope, hilbert
from ._peaks import (
    PeakPropertyWarning,
    argrelextrema,
    argrelmax,
    argrelmin,
    find_peaks,
    peak_prominences,
    peak_widths,
)
from ._smooth import detrend, medfilt, savgol_coeffs, savgol_filter
from ._welch import coherence, csd, periodogram, spectrogram, welch

__all__ = [
    "periodogram",
    "welch",
    "csd",
    "coherence",
    "spectrogram",
    "hilbert",
    "envelope",
    "find_peaks",
    "peak_prominences",
    "peak_widths",
    "argrelmax",
    "argrelmin",
    "argrelextrema",
    "PeakPropertyWarning",
    "medfilt",
    "savgol_coeffs",
    "savgol_filter",
    "detrend",
    "freqz",
    "freqz_sos",
    "sosfreqz",
    "group_delay",
]
