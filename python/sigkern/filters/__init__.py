"""Filters: second-order sections (biquad cascades), transfer-function IIR filters, zero-phase
filtering, streaming FIR, filter design (C: ``sk_sosfilt_*``, ``sk_biquad_*``, ``sk_lfilter_*``,
``sk_filtfilt_*``, ``sk_sosfiltfilt_*``, ``sk_fir_*``, ``sk_iir_zpk``, ``sk_iir_sos``,
``sk_iirfilter_zpk``, ``sk_iirfilter_sos``, ``sk_zpk2sos``, ``sk_firwin_bands``,
``sk_rbj_biquad``).

Names and defaults follow scipy.signal: :func:`sosfilt`, :func:`lfilter`, :func:`filtfilt`,
:func:`sosfiltfilt`, :func:`lfilter_zi`, :func:`sosfilt_zi`, :func:`butter`, :func:`cheby1`,
:func:`cheby2`, :func:`ellip`, :func:`bessel`, :func:`iirfilter`, :func:`iirnotch`, :func:`iirpeak`,
:func:`iircomb`, :func:`zpk2sos` and the conversions :func:`zpk2tf`, :func:`tf2zpk`,
:func:`tf2sos`, :func:`sos2tf`, :func:`sos2zpk`, :func:`bilinear`, :func:`bilinear_zpk`, the
order selection :func:`buttord`, :func:`cheb1ord`, :func:`cheb2ord`, :func:`ellipord`, and
:func:`firwin`.
Stateful filters are objects over a C handle: :class:`Biquad` (alias :class:`SosFilter`) for
multi-channel SOS cascades, :class:`Fir` for one FIR stream. Signals are float32 or float64
numpy arrays or CPU torch tensors; the last axis is time, leading axes are channels. Filter
coefficients are always handled in float64 (float32 filters round them once, after
normalisation). Each section of an SOS array is ``b0 b1 b2 a0 a1 a2`` (scipy's layout); it is
divided by its ``a0``, and sections with a pole outside the unit circle (poles on it are
accepted, as in scipy), NaN/inf
coefficients or ``a0 == 0`` are refused (:class:`BadArgumentError`).

The filters run in transposed direct form II, like ``scipy.signal.sosfilt``; processing a
signal in chunks of any sizes gives exactly the output of one call.
"""

from __future__ import annotations

# One module per family of the C library (``src/kernels/filter/``): the names start with an
# underscore, as in scipy.signal, because a module ``lfilter`` or ``firwin`` would be shadowed
# by the function of that name; every public name is re-exported here.
from ._convert import BadCoefficients, bilinear, bilinear_zpk, sos2tf, sos2zpk, tf2sos, tf2zpk, zpk2tf
from ._design import bessel, butter, cheby1, cheby2, ellip, iirfilter, rbj_biquad, zpk2sos
from ._filtfilt import filtfilt, sosfiltfilt
from ._fir import Fir
from ._firwin import firwin
from ._iirord import buttord, cheb1ord, cheb2ord, ellipord
from ._notch import iircomb, iirnotch, iirpeak
from ._lfilter import Lfilter, lfilter, lfilter_zi
from ._sos import Biquad, SosFilter, sosfilt, sosfilt_zi

__all__ = [
    "sosfilt",
    "lfilter",
    "lfilter_zi",
    "sosfilt_zi",
    "filtfilt",
    "sosfiltfilt",
    "Lfilter",
    "butter",
    "cheby1",
    "cheby2",
    "ellip",
    "bessel",
    "iirfilter",
    "zpk2sos",
    "zpk2tf",
    "tf2zpk",
    "tf2sos",
    "sos2tf",
    "sos2zpk",
    "bilinear",
    "bilinear_zpk",
    "BadCoefficients",
    "iirnotch",
    "iirpeak",
    "iircomb",
    "buttord",
    "cheb1ord",
    "cheb2ord",
    "ellipord",
    "firwin",
    "rbj_biquad",
    "Biquad",
    "SosFilter",
    "Fir",
]
