"""librosa's ``feature`` module: frame-wise features of audio and spectrograms (C:
``sk_spectral_features_*``, ``sk_spectral_descriptors_*``, ``sk_spectral_contrast_*``,
``sk_poly_features_*``, ``sk_zero_crossing_rate_*``, ``sk_rms_frames_*``, ``sk_rms_spec_*``).

The names, parameters and defaults are librosa's (``sigkern.feature.spectral_centroid`` for
``librosa.feature.spectral_centroid``); audio ``y`` of shape ``(..., n)`` or a spectrogram
``S`` of shape ``(..., n_freq, frames)`` go in, and a whole batch runs in one C call.
:func:`spectral_features` computes several descriptors in one pass over one STFT.
"""

from __future__ import annotations

from ._spectral import (
    poly_features,
    rms,
    spectral_bandwidth,
    spectral_centroid,
    spectral_contrast,
    spectral_features,
    spectral_flatness,
    spectral_rolloff,
    zero_crossing_rate,
)
from ._spectral import __all__ as _spectral_all

__all__ = list(_spectral_all)
