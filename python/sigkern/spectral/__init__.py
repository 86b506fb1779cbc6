"""FFT, windows, STFT/ISTFT, spectra in dB, mel filterbanks and spectrograms, convolution
(C: ``sk_fft_plan_*``, ``sk_rfft_*``, ``sk_irfft_*``, ``sk_fft_*``, ``sk_ifft_*``,
``sk_window_*``, ``sk_stft_*``, ``sk_istft_*``, ``sk_stft_stream_*``, ``sk_phase_vocoder_*``,
``sk_griffinlim_*``, ``sk_spec_power_*``,
``sk_power_to_db_*``, ``sk_mel_*``, ``sk_melspec_*``, ``sk_logmel_*``, ``sk_convolve_*``,
``sk_correlate_*``, ``sk_dct_*``, ``sk_idct_*``).

The functions follow the signatures users already know: :func:`rfft`, :func:`irfft`,
:func:`fft`, :func:`ifft` are ``numpy.fft``'s (``n``, ``axis``, ``norm``), :func:`dct` and
:func:`idct` ``scipy.fft``'s, :func:`get_window`,
:func:`convolve` and :func:`correlate` are ``scipy.signal``'s, :func:`stft`/:func:`istft` are
``torch.stft``/``torch.istft``'s, and :func:`power_to_db`, :func:`mel_filters` and
:func:`melspectrogram` are librosa's. numpy arrays and CPU torch tensors go in, the same kind
comes out; float32 data runs the ``_f32`` kernels and gives complex64 spectra, float64 data the
``_f64`` kernels and complex128. Complex data must really be complex (numpy
complex64/complex128, torch complex64/complex128): a float array is never reinterpreted as
complex. Leading axes are batch/channels; the last axis is time (or frequency bins).

Thread safety: every function here may run on many threads at once (the C calls release the
GIL). FFT plans (:class:`FftPlan` and the cache behind :func:`rfft` & co.) and mel plans
(:class:`MelSpectrogram`) are immutable in C and may be shared by threads; an
:class:`StftStream` has state and must be used by one thread at a time.
"""

from __future__ import annotations

# One module per family of the C library (``src/kernels/spectral/``): the names start with an
# underscore, as in scipy.signal, because a module ``fft`` or ``stft`` would be shadowed by the
# function of that name; every public name is re-exported here.
from ._conv import convolve, correlate, correlation_lags, fftconvolve, oaconvolve
from ._dct import dct, idct
from ._fft import FftPlan, fft, ifft, irfft, rfft
from ._mel import MelSpectrogram, log_mel_spectrogram, mel_filters, melspectrogram
from ._power import log10_floor, power_to_db, spec_power
from ._stft import StftStream, istft, stft
from ._griffinlim import griffinlim
from ._vocoder import phase_vocoder
from ._window import get_window

__all__ = [
    "rfft",
    "irfft",
    "fft",
    "ifft",
    "FftPlan",
    "dct",
    "idct",
    "get_window",
    "stft",
    "istft",
    "StftStream",
    "phase_vocoder",
    "griffinlim",
    "spec_power",
    "power_to_db",
    "log10_floor",
    "mel_filters",
    "melspectrogram",
    "MelSpectrogram",
    "log_mel_spectrogram",
    "convolve",
    "correlation_lags",
    "correlate",
    "fftconvolve",
    "oaconvolve",
]
