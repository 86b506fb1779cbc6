"""Level transforms with audiomentations' names and parameters: :class:`Gain`,
:class:`GainTransition`, :class:`PolarityInversion`, :class:`ClippingDistortion`,
:class:`BitCrush`, :class:`Normalize` (C: ``sk_augment_gain_*``, ``sk_augment_fade_*``,
``sk_augment_clip_*``, ``sk_augment_bitcrush_*``)."""

from __future__ import annotations

from typing import Any, Dict

import numpy as np

from . import _kernels as K
from ._base import AugmentArgumentError, BaseWaveformTransform, SeedLike, _randint, _require, _uniform

__all__ = ["Gain", "GainTransition", "PolarityInversion", "ClippingDistortion", "BitCrush",
           "Normalize"]


class Gain(BaseWaveformTransform):
    """audiomentations' ``Gain``: multiply each clip by ``10 ** (g / 20)``, ``g`` drawn uniformly
    in ``[min_gain_db, max_gain_db]`` (C: ``sk_augment_gain_*``).

    Parameters
    ----------
    min_gain_db, max_gain_db : float, default -12, 12
        Gain range in dB (``ValueError`` if min > max).
    p : float, default 0.5
        Probability of transforming a clip.
    seed : int, Generator or None, keyword-only
        Seed of the draws.

    Notes
    -----
    ``parameters["amplitude_ratio"]`` is the factor; results equal audiomentations' on the same
    factor bit for bit (the product rounded once in the array's dtype).

    Examples
    --------
    >>> t = sigkern.augment.Gain(min_gain_db=-6.0, max_gain_db=6.0, p=1.0, seed=0)
    >>> y = t(np.ones(4, np.float32), 16000)
    """

    def __init__(self, min_gain_db: float = -12.0, max_gain_db: float = 12.0, p: float = 0.5, *,
                 seed: SeedLike = None) -> None:
        super().__init__(p, seed=seed)
        if min_gain_db > max_gain_db:
            raise AugmentArgumentError("min_gain_db cannot be greater than max_gain_db")
        self.min_gain_db, self.max_gain_db = float(min_gain_db), float(max_gain_db)

    def _draw(self, x: np.ndarray, sample_rate: int, rows: int) -> Dict[str, Any]:
        db = _uniform(self.rng, self.min_gain_db, self.max_gain_db, rows)
        return {"amplitude_ratio": 10.0 ** (db / 20.0)}

    def _apply(self, x: np.ndarray, sample_rate: int, prm: Dict[str, np.ndarray]) -> np.ndarray:
        return K.gain(x, prm["amplitude_ratio"])


class PolarityInversion(BaseWaveformTransform):
    """audiomentations' ``PolarityInversion``: ``-samples`` (C: ``sk_augment_gain_*``).

    Parameters
    ----------
    p : float, default 0.5
        Probability of transforming a clip.
    seed : int, Generator or None, keyword-only
        Seed of the draws.

    Examples
    --------
    >>> sigkern.augment.PolarityInversion(p=1.0)(np.array([0.5, -1.0], np.float32), 16000)
    array([-0.5,  1. ], dtype=float32)
    """

    def __init__(self, p: float = 0.5, *, seed: SeedLike = None) -> None:
        super().__init__(p, seed=seed)

    def _apply(self, x: np.ndarray, sample_rate: int, prm: Dict[str, np.ndarray]) -> np.ndarray:
        return K.gain(x, -1.0)


_UNITS = ("fraction", "samples", "seconds")


class GainTransition(BaseWaveformTransform):
    """audiomentations' ``GainTransition``: a fade in dB between two random gains over a random
    span that may start before and end after the clip (C: ``sk_augment_fade_*``).

    Parameters
    ----------
    min_gain_db, max_gain_db : float, default -24, 6
        Range of the start and the end gain.
    min_duration, max_duration : float or int, default 0.2, 6.0
        Range of the fade's length, in ``duration_unit``.
    duration_unit : {"fraction", "samples", "seconds"}, default "seconds"
    p : float, default 0.5
    seed : int, Generator or None, keyword-only

    Notes
    -----
    Parameters (audiomentations' names): ``fade_time_samples`` (at least 3), ``t0`` (start, in
    ``[-fade_time_samples + 2, n - 2]``), ``start_gain_db``, ``end_gain_db``. The fade gains
    are computed as numpy does on float32 arrays, so float32 results equal audiomentations'.

    Examples
    --------
    >>> t = sigkern.augment.GainTransition(min_duration=0.01, max_duration=0.05, p=1.0, seed=1)
    >>> y = t(np.ones(1600, np.float32), 16000)
    """

    def __init__(self, min_gain_db: float = -24.0, max_gain_db: float = 6.0,
                 min_duration: float = 0.2, max_duration: float = 6.0,
                 duration_unit: str = "seconds", p: float = 0.5, *,
                 seed: SeedLike = None) -> None:
        super().__init__(p, seed=seed)
        _require(min_gain_db <= max_gain_db, "min_gain_db must not be greater than max_gain_db")
        _require(min_duration > 0 and min_duration <= max_duration,
                 "need 0 < min_duration <= max_duration")
        if duration_unit not in _UNITS:
            raise AugmentArgumentError("Invalid duration_unit")
        self.min_gain_db, self.max_gain_db = float(min_gain_db), float(max_gain_db)
        self.min_duration, self.max_duration = min_duration, max_duration
        self.duration_unit = duration_unit

    def _draw(self, x: np.ndarray, sample_rate: int, rows: int) -> Dict[str, Any]:
        n = x.shape[-1]
        if self.duration_unit == "samples":
            lo, hi = int(self.min_duration), int(self.max_duration)
        elif self.duration_unit == "fraction":
            lo, hi = int(round(self.min_duration * n)), int(round(self.max_duration * n))
        else:
            lo = int(round(self.min_duration * sample_rate))
            hi = int(round(self.max_duration * sample_rate))
        fade = np.maximum(3, _randint(self.rng, lo, hi, rows))
        t0 = self.rng.integers(-fade + 2, n - 2, endpoint=True)  # random.randint per row
        return {"fade_time_samples": fade, "t0": t0,
                "start_gain_db": _uniform(self.rng, self.min_gain_db, self.max_gain_db, rows),
                "end_gain_db": _uniform(self.rng, self.min_gain_db, self.max_gain_db, rows)}

    def _apply(self, x: np.ndarray, sample_rate: int, prm: Dict[str, np.ndarray]) -> np.ndarray:
        return K.fade(x, prm["t0"], prm["fade_time_samples"], prm["start_gain_db"],
                      prm["end_gain_db"])


class ClippingDistortion(BaseWaveformTransform):
    """audiomentations' ``ClippingDistortion``: clip each clip between its
    ``percentile_threshold / 2`` and ``100 - percentile_threshold / 2`` percentiles
    (``np.percentile``; C: ``sk_augment_clip_*``).

    Parameters
    ----------
    min_percentile_threshold, max_percentile_threshold : int, default 0, 40
        Range (0 to 100) of the integer ``percentile_threshold``.
    p : float, default 0.5
    seed : int, Generator or None, keyword-only

    Examples
    --------
    >>> t = sigkern.augment.ClippingDistortion(20, 20, p=1.0)
    >>> float(t(np.linspace(-1, 1, 101), 16000).max())
    0.8
    """

    def __init__(self, min_percentile_threshold: int = 0, max_percentile_threshold: int = 40,
                 p: float = 0.5, *, seed: SeedLike = None) -> None:
        super().__init__(p, seed=seed)
        _require(min_percentile_threshold <= max_percentile_threshold,
                 "min_percentile_threshold must not be greater than max_percentile_threshold")
        _require(0 <= min_percentile_threshold <= 100 and 0 <= max_percentile_threshold <= 100,
                 "percentile thresholds must be in [0, 100]")
        self.min_percentile_threshold = int(min_percentile_threshold)
        self.max_percentile_threshold = int(max_percentile_threshold)

    def _draw(self, x: np.ndarray, sample_rate: int, rows: int) -> Dict[str, Any]:
        return {"percentile_threshold": _randint(self.rng, self.min_percentile_threshold,
                                                 self.max_percentile_threshold, rows)}

    def _apply(self, x: np.ndarray, sample_rate: int, prm: Dict[str, np.ndarray]) -> np.ndarray:
        thr = prm["percentile_threshold"].astype(np.int64)
        lo = np.empty(x.shape[0])
        hi = np.empty(x.shape[0])
        for t in np.unique(thr):
            rows = thr == t
            low = int(t / 2)
            q = np.percentile(x[rows], [low, 100 - low], axis=-1)
            # rounded to the samples' dtype (audiomentations: np.float32(threshold))
            lo[rows], hi[rows] = q[0].astype(x.dtype), q[1].astype(x.dtype)
        return K.clip(x, lo, hi)


class BitCrush(BaseWaveformTransform):
    """audiomentations' ``BitCrush``: ``np.round(x * q) / q`` with ``q = 2**bit_depth / 2 + 1``
    and an integer ``bit_depth`` drawn in ``[min_bit_depth, max_bit_depth]``
    (C: ``sk_augment_bitcrush_*``).

    Parameters
    ----------
    min_bit_depth, max_bit_depth : int, default 5, 10
        1 <= min <= max <= 32.
    p : float, default 0.5
    seed : int, Generator or None, keyword-only

    Examples
    --------
    >>> sigkern.augment.BitCrush(1, 1, p=1.0)(np.array([0.2, 0.4], np.float32), 16000)
    array([0. , 0.5], dtype=float32)
    """

    def __init__(self, min_bit_depth: int = 5, max_bit_depth: int = 10, p: float = 0.5, *,
                 seed: SeedLike = None) -> None:
        super().__init__(p, seed=seed)
        if min_bit_depth < 1:
            raise AugmentArgumentError("min_bit_depth must be at least 1")
        if max_bit_depth > 32:
            raise AugmentArgumentError("max_bit_depth must not be greater than 32")
        if min_bit_depth > max_bit_depth:
            raise AugmentArgumentError("min_bit_depth must not be larger than max_bit_depth")
        self.min_bit_depth, self.max_bit_depth = int(min_bit_depth), int(max_bit_depth)

    def _draw(self, x: np.ndarray, sample_rate: int, rows: int) -> Dict[str, Any]:
        return {"bit_depth": _randint(self.rng, self.min_bit_depth, self.max_bit_depth, rows)}

    def _apply(self, x: np.ndarray, sample_rate: int, prm: Dict[str, np.ndarray]) -> np.ndarray:
        q = 2.0 ** prm["bit_depth"].astype(np.float64) / 2 + 1
        return K.bitcrush(x, q)


class Normalize(BaseWaveformTransform):
    """audiomentations' ``Normalize``: divide each clip by its peak ``max |x|``
    (C: ``sk_augment_gain_*``).

    Parameters
    ----------
    apply_to : {"all", "only_too_loud_sounds"}, default "all"
        "only_too_loud_sounds" leaves clips whose peak is below 1 unchanged.
    p : float, default 0.5
    seed : int, Generator or None, keyword-only

    Notes
    -----
    audiomentations divides (``x / peak``); this multiplies by ``1 / peak`` rounded to the
    dtype, which can differ from the quotient in the last bit (within 1 ulp).

    Examples
    --------
    >>> sigkern.augment.Normalize(p=1.0)(np.array([0.25, -0.5]), 16000)
    array([ 0.5, -1. ])
    """

    def __init__(self, apply_to: str = "all", p: float = 0.5, *, seed: SeedLike = None) -> None:
        super().__init__(p, seed=seed)
        _require(apply_to in ("all", "only_too_loud_sounds"),
                 'apply_to must be "all" or "only_too_loud_sounds"')
        self.apply_to = apply_to

    def _draw(self, x: np.ndarray, sample_rate: int, rows: int) -> Dict[str, Any]:
        peak = np.abs(x).max(axis=-1) if x.shape[-1] else np.zeros(rows)
        return {"max_amplitude": peak.astype(np.float64)}

    def _apply(self, x: np.ndarray, sample_rate: int, prm: Dict[str, np.ndarray]) -> np.ndarray:
        peak = prm["max_amplitude"]
        keep = peak <= 0
        if self.apply_to == "only_too_loud_sounds":
            keep |= peak < 1.0
        g = np.where(keep, 1.0, 1.0 / np.where(keep, 1.0, peak))
        return K.gain(x, g)

