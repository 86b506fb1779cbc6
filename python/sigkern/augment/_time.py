"""audiomentations' ``TimeStretch`` and ``PitchShift`` with its ``"librosa_phase_vocoder"``
method (C: ``sk_time_stretch_*``, the resampler for the pitch shift), and ``Shift``."""

from __future__ import annotations

from typing import Any, Dict

import numpy as np

from ..effects import pitch_shift as _pitch_shift
from ..effects import time_stretch as _time_stretch
from ._base import AugmentArgumentError, BaseWaveformTransform, SeedLike, _uniform

__all__ = ["TimeStretch", "PitchShift", "Shift"]

_METHODS = ("librosa_phase_vocoder",)


def _method(method: str) -> str:
    if method not in _METHODS:
        raise AugmentArgumentError(
            f'method must be "librosa_phase_vocoder" (sigkern has no "signalsmith_stretch"), '
            f"got {method!r}")
    return method


class TimeStretch(BaseWaveformTransform):
    """audiomentations' ``TimeStretch`` (method ``"librosa_phase_vocoder"``): change the speed
    by a rate drawn uniformly, keeping the pitch (:func:`sigkern.effects.time_stretch`,
    C: ``sk_time_stretch_*``).

    Parameters
    ----------
    min_rate, max_rate : float, default 0.8, 1.25
        0.1 <= min <= max <= 10; > 1 speeds up.
    leave_length_unchanged : bool, default True
        Zero-pad or cut to the input length. With False the output has ``round(n / rate)``
        samples, so a batch must then be transformed whole with one rate (``p=1`` and frozen
        parameters, or a 1-D clip).
    method : {"librosa_phase_vocoder"}
        audiomentations' default, ``"signalsmith_stretch"``, is not available.
    p : float, default 0.5
    seed : int, Generator or None, keyword-only

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(16000)
    >>> sigkern.augment.TimeStretch(p=1.0, seed=0)(x, 16000).shape
    (16000,)
    """

    def __init__(self, min_rate: float = 0.8, max_rate: float = 1.25,
                 leave_length_unchanged: bool = True, method: str = "librosa_phase_vocoder",
                 p: float = 0.5, *, seed: SeedLike = None) -> None:
        super().__init__(p, seed=seed)
        if min_rate < 0.1:
            raise AugmentArgumentError("min_rate must be >= 0.1")
        if max_rate > 10:
            raise AugmentArgumentError("max_rate must be <= 10")
        if min_rate > max_rate:
            raise AugmentArgumentError("min_rate must not be greater than max_rate")
        self.min_rate, self.max_rate = float(min_rate), float(max_rate)
        self.leave_length_unchanged = bool(leave_length_unchanged)
        self.method = _method(method)

    def _draw(self, x: np.ndarray, sample_rate: int, rows: int) -> Dict[str, Any]:
        return {"rate": _uniform(self.rng, self.min_rate, self.max_rate, rows)}

    def _apply(self, x: np.ndarray, sample_rate: int, prm: Dict[str, np.ndarray]) -> np.ndarray:
        rows, n = x.shape
        rates = prm["rate"]
        if not self.leave_length_unchanged:
            if np.unique(rates).size > 1:
                raise ValueError("TimeStretch: with leave_length_unchanged=False the clips of a "
                                 "batch need one rate (freeze the parameters)")
            y: Any = _time_stretch(x, rate=float(rates[0]))
            return np.asarray(y)
        out = np.zeros_like(x)
        for r in range(rows):
            s = _time_stretch(x[r], rate=float(rates[r]))[:n]
            out[r, :s.shape[-1]] = s
        return out


class PitchShift(BaseWaveformTransform):
    """audiomentations' ``PitchShift`` (method ``"librosa_phase_vocoder"``): shift by a number of
    semitones drawn uniformly, keeping the length (:func:`sigkern.effects.pitch_shift` with
    ``res_type="soxr_hq"``, C: ``sk_time_stretch_*`` and the resampler).

    Parameters
    ----------
    min_semitones, max_semitones : float, default -4, 4
        -24 <= min <= max <= 24.
    method : {"librosa_phase_vocoder"}
        audiomentations' default, ``"signalsmith_stretch"``, is not available.
    p : float, default 0.5
    seed : int, Generator or None, keyword-only

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(16000)
    >>> sigkern.augment.PitchShift(p=1.0, seed=0)(x, 16000).shape
    (16000,)
    """

    def __init__(self, min_semitones: float = -4.0, max_semitones: float = 4.0,
                 method: str = "librosa_phase_vocoder", p: float = 0.5, *,
                 seed: SeedLike = None) -> None:
        super().__init__(p, seed=seed)
        if min_semitones < -24:
            raise AugmentArgumentError("min_semitones must be >= -24")
        if max_semitones > 24:
            raise AugmentArgumentError("max_semitones must be <= 24")
        if min_semitones > max_semitones:
            raise AugmentArgumentError("min_semitones must not be greater than max_semitones")
        self.min_semitones, self.max_semitones = float(min_semitones), float(max_semitones)
        self.method = _method(method)

    def _draw(self, x: np.ndarray, sample_rate: int, rows: int) -> Dict[str, Any]:
        return {"num_semitones": _uniform(self.rng, self.min_semitones, self.max_semitones, rows)}

    def _apply(self, x: np.ndarray, sample_rate: int, prm: Dict[str, np.ndarray]) -> np.ndarray:
        out = np.empty_like(x)
        for r in range(x.shape[0]):
            out[r] = _pitch_shift(x[r], sr=sample_rate, n_steps=float(prm["num_semitones"][r]),
                                  res_type="soxr_hq")
        return out


def _crossfade_pair(length: int) -> tuple[np.ndarray, np.ndarray]:
    """audiomentations' ``get_crossfade_mask_pair(length)`` (equal energy), float32."""
    x = np.linspace(0, 1, length, dtype=np.float32)
    x2 = 1 - x
    a = x * x2
    b = a * (1 + np.float32(1.4186) * a)
    c, d = b + x, b + x2
    return c * c, d * d


class Shift(BaseWaveformTransform):
    """audiomentations' ``Shift``: roll each clip by a random amount (with ``rollover``) or shift
    it in zeros, with short equal-energy fades at the seams (numpy; no numerical kernel).

    Parameters
    ----------
    min_shift, max_shift : float or int, default -0.5, 0.5
        Shift range in ``shift_unit`` (fractions within [-1, 1]).
    shift_unit : {"fraction", "samples", "seconds"}, default "fraction"
    rollover : bool, default True
        Samples pushed past one end come back at the other; else zeros come in.
    fade_duration : float, default 0.005
        Seconds of fade at the seams; 0 disables (else >= 0.00025).
    p : float, default 0.5
    seed : int, Generator or None, keyword-only

    Examples
    --------
    >>> sigkern.augment.Shift(2, 2, shift_unit="samples", fade_duration=0.0, p=1.0)(np.arange(5.0), 16000)
    array([3., 4., 0., 1., 2.])
    """

    def __init__(self, min_shift: float = -0.5, max_shift: float = 0.5,
                 shift_unit: str = "fraction", rollover: bool = True,
                 fade_duration: float = 0.005, p: float = 0.5, *, seed: SeedLike = None) -> None:
        super().__init__(p, seed=seed)
        if min_shift > max_shift:
            raise AugmentArgumentError("min_shift must not be greater than max_shift")
        if shift_unit not in ("fraction", "samples", "seconds"):
            raise AugmentArgumentError('shift_unit must be "fraction", "samples" or "seconds"')
        if shift_unit == "fraction" and (min_shift < -1 or max_shift > 1):
            raise AugmentArgumentError('shifts must be within [-1, 1] when shift_unit is "fraction"')
        if fade_duration < 0.0:
            raise AugmentArgumentError("fade_duration must not be negative")
        if 0.0 < fade_duration < 0.00025:
            raise AugmentArgumentError(
                "When fade_duration is set to a positive number, it must be >= 0.00025")
        self.min_shift, self.max_shift = min_shift, max_shift
        self.shift_unit = shift_unit
        self.rollover = bool(rollover)
        self.fade_duration = float(fade_duration)

    def _draw(self, x: np.ndarray, sample_rate: int, rows: int) -> Dict[str, Any]:
        if self.shift_unit == "samples":
            amount = self.rng.integers(int(self.min_shift), int(self.max_shift), size=rows,
                                       endpoint=True)
        else:
            amount = _uniform(self.rng, float(self.min_shift), float(self.max_shift), rows)
        return {"shift_amount": amount}

    def _apply(self, x: np.ndarray, sample_rate: int, prm: Dict[str, np.ndarray]) -> np.ndarray:
        rows, n = x.shape
        out = np.empty_like(x)
        fl = int(sample_rate * self.fade_duration)
        fin, fout = _crossfade_pair(fl)
        for r in range(rows):
            a = prm["shift_amount"][r]
            if self.shift_unit == "samples":
                k = int(a)
            elif self.shift_unit == "fraction":
                k = int(round(float(a) * n))
            else:
                k = int(round(float(a) * sample_rate))
            y = np.roll(x[r], k)
            if not self.rollover:
                if k > 0:
                    y[:k] = 0.0
                elif k < 0:
                    y[k:] = 0.0
            if fl > 0 and k != 0:
                pos = k if k > 0 else n + k
                e = min(pos + fl, n)
                if k > 0 or self.rollover:
                    y[pos:e] *= fin[:e - pos]
                if k < 0 or self.rollover:
                    s = max(pos - fl, 0)
                    if pos - s:
                        y[s:pos] *= fout[-(pos - s):]
            out[r] = y
        return out
