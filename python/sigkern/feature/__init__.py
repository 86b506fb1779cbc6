"""librosa's ``feature`` module (``librosa.feature.X`` becomes ``sigkern.feature.X``): frame-wise
features of audio and spectrograms (C: ``sk_spectral_features_*``, ``sk_spectral_descriptors_*``,
``sk_spectral_contrast_*``, ``sk_poly_features_*``, ``sk_zero_crossing_rate_*``,
``sk_rms_frames_*``, ``sk_rms_spec_*``), :func:`mfcc` and :func:`delta`; torchaudio's
:func:`compute_deltas` and :func:`sliding_window_cmn` (streamed by
:class:`SlidingWindowCmnStream`); per-utterance :func:`cmvn`.

The names, parameters and defaults are librosa's (``sigkern.feature.spectral_centroid`` for
``librosa.feature.spectral_centroid``); audio ``y`` of shape ``(..., n)`` or a spectrogram
``S`` of shape ``(..., n_freq, frames)`` go in, and a whole batch runs in one C call.
:func:`spectral_features` computes several descriptors in one pass over one STFT.
"""

from __future__ import annotations

from ._chroma import chroma_stft
from ._cmvn import SlidingWindowCmnStream, cmvn, sliding_window_cmn
from ._delta import compute_deltas, delta
from ._mfcc import mfcc
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

__all__ = list(_spectral_all) + ["chroma_stft", "mfcc", "delta", "compute_deltas", "cmvn", "sliding_window_cmn",
                                      "SlidingWindowCmnStream"]
