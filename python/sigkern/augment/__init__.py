"""Data augmentation with audiomentations' class names, parameters and call convention
(``t = AddGaussianSNR(min_snr_db=10, max_snr_db=30, p=0.5); y = t(samples, sample_rate)``),
applied to a batch ``(..., n)`` in one call, each clip with its own draws from the transform's
seeded generator; and torchaudio's functional ``add_noise``, ``fade`` and SpecAugment masks
(C: ``sk_augment_*`` for the numerical work, and sigkern's convolution, filters, STFT and
resampler).

The randomness is drawn in Python from ``numpy.random.default_rng(seed)``; the C kernels get
the drawn parameters and are deterministic. See ``docs/augment.md``.
"""

from __future__ import annotations

from ._base import AugmentArgumentError, BaseWaveformTransform
from ._compose import Compose
from ._filters import (BandPassFilter, BandStopFilter, HighPassFilter, LowPassFilter,
                       SevenBandParametricEQ, eq_section)
from ._functional import add_noise, fade, mask_along_axis, mask_along_axis_iid
from ._level import BitCrush, ClippingDistortion, Gain, GainTransition, Normalize, PolarityInversion
from ._noise import (AddBackgroundNoise, AddColorNoise, AddGaussianNoise, AddGaussianSNR,
                     colored_noise)
from ._room import ApplyImpulseResponse
from ._speed import SpeedPerturbation, speed
from ._time import PitchShift, Shift, TimeStretch

__all__ = [
    "AugmentArgumentError", "BaseWaveformTransform", "Compose",
    "AddGaussianNoise", "AddGaussianSNR", "AddColorNoise", "AddBackgroundNoise",
    "ApplyImpulseResponse", "Gain", "GainTransition", "PolarityInversion", "ClippingDistortion",
    "BitCrush", "Normalize", "LowPassFilter", "HighPassFilter", "BandPassFilter",
    "BandStopFilter", "SevenBandParametricEQ", "TimeStretch", "PitchShift", "Shift",
    "add_noise", "fade", "mask_along_axis", "mask_along_axis_iid", "colored_noise", "eq_section",
    "speed", "SpeedPerturbation",
]
