"""librosa's ``onset`` module: the spectral-flux onset envelope and onset picking (C:
``sk_onset_strength_*``, ``sk_peak_pick_*``).

:func:`onset_strength`, :func:`onset_strength_multi` and :func:`onset_detect` have librosa's
names, parameters and defaults; :func:`peak_pick` is ``librosa.util.peak_pick``. Batches
``(..., n)`` run in one C call.
"""

from __future__ import annotations

from ._onset import onset_detect, onset_strength, onset_strength_multi, peak_pick
from ._onset import __all__ as _onset_all

__all__ = list(_onset_all)
