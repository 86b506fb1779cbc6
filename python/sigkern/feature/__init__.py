"""Feature extraction as ``librosa.feature`` names it (``librosa.feature.X`` becomes
``sigkern.feature.X``): :func:`mfcc`, :func:`delta`; torchaudio's :func:`compute_deltas` and
:func:`sliding_window_cmn`; per-utterance :func:`cmvn`."""

from __future__ import annotations

from ._cmvn import cmvn, sliding_window_cmn
from ._delta import compute_deltas, delta
from ._mfcc import mfcc

__all__ = ["mfcc", "delta", "compute_deltas", "cmvn", "sliding_window_cmn"]
