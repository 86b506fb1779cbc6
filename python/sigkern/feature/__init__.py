"""Feature extraction as ``librosa.feature`` names it (``librosa.feature.X`` becomes
``sigkern.feature.X``): :func:`mfcc`, :func:`delta`, and torchaudio's :func:`compute_deltas`."""

from __future__ import annotations

from ._delta import compute_deltas, delta
from ._mfcc import mfcc

__all__ = ["mfcc", "delta", "compute_deltas"]
