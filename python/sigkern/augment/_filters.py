"""Filter transforms with audiomentations' names and parameters: :class:`LowPassFilter`,
:class:`HighPassFilter`, :class:`BandPassFilter`, :class:`BandStopFilter` (Butterworth,
``sigkern.butter``), :class:`SevenBandParametricEQ` (Audio EQ Cookbook shelves and peaks)
(C: ``sk_iir_sos``, ``sk_augment_sosfilt_*``, ``sk_sosfiltfilt_*``)."""

from __future__ import annotations

import math
from typing import Any, Dict

import numpy as np

from ..filters import butter, sosfiltfilt
from . import _kernels as K
from ._base import AugmentArgumentError, BaseWaveformTransform, SeedLike, _randint, _require, _uniform

__all__ = ["LowPassFilter", "HighPassFilter", "BandPassFilter", "BandStopFilter",
           "SevenBandParametricEQ"]


def _hz_to_mel(f: float) -> float:
    return 2595.0 * math.log10(1.0 + f / 700.0)


def _mel_to_hz(m: Any) -> Any:
    return 700.0 * (10 ** (m / 2595.0) - 1.0)


def _mel_uniform(rng: np.random.Generator, lo: float, hi: float, rows: int) -> np.ndarray:
    return np.asarray(_mel_to_hz(rng.uniform(_hz_to_mel(lo), _hz_to_mel(hi), rows)))


def _filter_rows(x: np.ndarray, soses: list[np.ndarray], zero_phase: bool) -> np.ndarray:
    """Each row through its own cascade, in float64 as scipy does for float32 data with float64
    sections (steady-state start ``sosfilt_zi(sos) * x[0]``, all rows in one C call; or
    ``sosfiltfilt`` row by row), then rounded to the input's dtype."""
    if not zero_phase:
        # cascades of fewer sections are completed with identity sections (exact: unit gain,
        # zero state)
        ns = max(s.shape[0] for s in soses)
        sos = np.tile(np.array([1.0, 0.0, 0.0, 1.0, 0.0, 0.0]), (len(soses), ns, 1))
        for r, s in enumerate(soses):
            sos[r, :s.shape[0]] = s
        return K.sosfilt_rows(x, sos)
    y = np.empty_like(x)
    for r, sos1 in enumerate(soses):
        y[r] = sosfiltfilt(sos1, x[r].astype(np.float64))
    return y


class _Butterworth(BaseWaveformTransform):
    _btype = ""
    _two_sided = False

    def _init_rolloff(self, min_rolloff: int, max_rolloff: int, zero_phase: bool) -> None:
        step = 12 if zero_phase else 6
        for v in (min_rolloff, max_rolloff):
            if v < 6 or v % step != 0:
                raise AugmentArgumentError(
                    f"rolloff must be 6 or greater, as well as a multiple of {step}"
                    + (" (zero_phase)" if zero_phase else ""))
        if min_rolloff > max_rolloff:
            raise AugmentArgumentError("min_rolloff must not be greater than max_rolloff")
        self.min_rolloff, self.max_rolloff = int(min_rolloff), int(max_rolloff)
        self.zero_phase = bool(zero_phase)

    def _draw_rolloff(self, rows: int) -> np.ndarray:
        step = 12 if self.zero_phase else 6
        return _randint(self.rng, self.min_rolloff // step, self.max_rolloff // step, rows) * step

    def _sos(self, prm: Dict[str, np.ndarray], r: int, sample_rate: int) -> np.ndarray:
        order = int(prm["rolloff"][r]) // (12 if self.zero_phase else 6)
        nyq = sample_rate // 2
        btype: Any = self._btype
        if self._two_sided:
            c, bw = float(prm["center_freq"][r]), float(prm["bandwidth"][r])
            lo, hi = c - bw / 2, c + bw / 2
            if hi > nyq:
                hi = nyq * 0.9999
            return np.asarray(butter(order, [lo, hi], btype=btype, fs=sample_rate,
                                     output="sos"))
        fc = float(prm["cutoff_freq"][r])
        if fc > nyq:
            fc = nyq * 0.9999
        return np.asarray(butter(order, fc, btype=btype, fs=sample_rate, output="sos"))

    def _apply(self, x: np.ndarray, sample_rate: int, prm: Dict[str, np.ndarray]) -> np.ndarray:
        soses = [self._sos(prm, r, sample_rate) for r in range(x.shape[0])]
        return _filter_rows(x, soses, self.zero_phase)


class _OneSided(_Butterworth):
    def __init__(self, min_cutoff_freq: float, max_cutoff_freq: float, min_rolloff: int,
                 max_rolloff: int, zero_phase: bool, p: float, seed: SeedLike) -> None:
        super().__init__(p, seed=seed)
        self._init_rolloff(min_rolloff, max_rolloff, zero_phase)
        if min_cutoff_freq > max_cutoff_freq:
            raise AugmentArgumentError("min_cutoff_freq must not be greater than max_cutoff_freq")
        self.min_cutoff_freq, self.max_cutoff_freq = float(min_cutoff_freq), float(max_cutoff_freq)

    def _draw(self, x: np.ndarray, sample_rate: int, rows: int) -> Dict[str, Any]:
        return {"rolloff": self._draw_rolloff(rows),
                "cutoff_freq": _mel_uniform(self.rng, self.min_cutoff_freq,
                                            self.max_cutoff_freq, rows)}


class _TwoSided(_Butterworth):
    _two_sided = True

    def __init__(self, min_center_freq: float, max_center_freq: float,
                 min_bandwidth_fraction: float, max_bandwidth_fraction: float, min_rolloff: int,
                 max_rolloff: int, zero_phase: bool, p: float, seed: SeedLike) -> None:
        super().__init__(p, seed=seed)
        self._init_rolloff(min_rolloff, max_rolloff, zero_phase)
        if min_center_freq > max_center_freq:
            raise AugmentArgumentError("min_center_freq must not be greater than max_center_freq")
        if min_bandwidth_fraction <= 0.0:
            raise AugmentArgumentError("min_bandwidth_fraction must be a positive number")
        if max_bandwidth_fraction >= 2.0:
            raise AugmentArgumentError("max_bandwidth_fraction should be smaller than 2.0")
        if min_bandwidth_fraction > max_bandwidth_fraction:
            raise AugmentArgumentError(
                "min_bandwidth_fraction must not be greater than max_bandwidth_fraction")
        self.min_center_freq, self.max_center_freq = float(min_center_freq), float(max_center_freq)
        self.min_bandwidth_fraction = float(min_bandwidth_fraction)
        self.max_bandwidth_fraction = float(max_bandwidth_fraction)

    def _draw(self, x: np.ndarray, sample_rate: int, rows: int) -> Dict[str, Any]:
        c = _mel_uniform(self.rng, self.min_center_freq, self.max_center_freq, rows)
        frac = self.rng.uniform(self.min_bandwidth_fraction, self.max_bandwidth_fraction, rows)
        return {"rolloff": self._draw_rolloff(rows), "center_freq": c, "bandwidth": c * frac}


_FILTER_DOC = """audiomentations' ``{name}``: a Butterworth {kind} filter of a random {what} (drawn
    uniformly on the mel scale) and roll-off (a multiple of 6 dB/octave, or of 12 with
    ``zero_phase``), started in steady state on the first sample as audiomentations does
    (C: ``sk_iir_sos``, ``sk_augment_sosfilt_*`` or ``sk_sosfiltfilt_*``; float64 inside).

    Parameters
    ----------
{params}
    min_rolloff, max_rolloff : int, default 12, 24
        dB/octave.
    zero_phase : bool, default False
        Filter forward and backward (``sosfiltfilt``; twice the roll-off per pass's order).
    p : float, default 0.5
    seed : int, Generator or None, keyword-only

    Examples
    --------
    >>> y = sigkern.augment.{name}(p=1.0, seed=0)(np.random.default_rng(0).standard_normal(1600), 16000)
    """

_ONE = """    min_cutoff_freq, max_cutoff_freq : float, default {lo}, {hi}
        Cut-off range in Hz (clamped below the Nyquist frequency)."""
_TWO = """    min_center_freq, max_center_freq : float, default 200, 4000
        Centre range in Hz.
    min_bandwidth_fraction, max_bandwidth_fraction : float, default 0.5, 1.99
        Bandwidth as a fraction of the centre frequency (0 < min <= max < 2)."""


class LowPassFilter(_OneSided):
    __doc__ = _FILTER_DOC.format(name="LowPassFilter", kind="low-pass", what="cut-off",
                                 params=_ONE.format(lo=150, hi=7500))
    _btype = "lowpass"

    def __init__(self, min_cutoff_freq: float = 150.0, max_cutoff_freq: float = 7500.0,
                 min_rolloff: int = 12, max_rolloff: int = 24, zero_phase: bool = False,
                 p: float = 0.5, *, seed: SeedLike = None) -> None:
        super().__init__(min_cutoff_freq, max_cutoff_freq, min_rolloff, max_rolloff, zero_phase,
                         p, seed)


class HighPassFilter(_OneSided):
    __doc__ = _FILTER_DOC.format(name="HighPassFilter", kind="high-pass", what="cut-off",
                                 params=_ONE.format(lo=20, hi=2400))
    _btype = "highpass"

    def __init__(self, min_cutoff_freq: float = 20.0, max_cutoff_freq: float = 2400.0,
                 min_rolloff: int = 12, max_rolloff: int = 24, zero_phase: bool = False,
                 p: float = 0.5, *, seed: SeedLike = None) -> None:
        super().__init__(min_cutoff_freq, max_cutoff_freq, min_rolloff, max_rolloff, zero_phase,
                         p, seed)


class BandPassFilter(_TwoSided):
    __doc__ = _FILTER_DOC.format(name="BandPassFilter", kind="band-pass",
                                 what="centre, bandwidth", params=_TWO)
    _btype = "bandpass"

    def __init__(self, min_center_freq: float = 200.0, max_center_freq: float = 4000.0,
                 min_bandwidth_fraction: float = 0.5, max_bandwidth_fraction: float = 1.99,
                 min_rolloff: int = 12, max_rolloff: int = 24, zero_phase: bool = False,
                 p: float = 0.5, *, seed: SeedLike = None) -> None:
        super().__init__(min_center_freq, max_center_freq, min_bandwidth_fraction,
                         max_bandwidth_fraction, min_rolloff, max_rolloff, zero_phase, p, seed)


class BandStopFilter(_TwoSided):
    __doc__ = _FILTER_DOC.format(name="BandStopFilter", kind="band-stop",
                                 what="centre, bandwidth", params=_TWO)
    _btype = "bandstop"

    def __init__(self, min_center_freq: float = 200.0, max_center_freq: float = 4000.0,
                 min_bandwidth_fraction: float = 0.5, max_bandwidth_fraction: float = 1.99,
                 min_rolloff: int = 12, max_rolloff: int = 24, zero_phase: bool = False,
                 p: float = 0.5, *, seed: SeedLike = None) -> None:
        super().__init__(min_center_freq, max_center_freq, min_bandwidth_fraction,
                         max_bandwidth_fraction, min_rolloff, max_rolloff, zero_phase, p, seed)


# audiomentations' SevenBandParametricEQ: (kind, min_freq, max_freq, min_q, max_q)
_BANDS = (("low_shelf", 42.0, 95.0, 0.1, 0.999),
          ("peaking", 91.0, 204.0, 0.5, 5.0),
          ("peaking", 196.0, 441.0, 0.5, 5.0),
          ("peaking", 421.0, 948.0, 0.5, 5.0),
          ("peaking", 909.0, 2045.0, 0.5, 5.0),
          ("peaking", 1957.0, 4404.0, 0.5, 5.0),
          ("high_shelf", 4216.0, 9486.0, 0.1, 0.999))


def eq_section(kind: str, center_freq: float, gain_db: float, q_factor: float,
               sample_rate: int) -> np.ndarray:
    """One Audio EQ Cookbook biquad as audiomentations computes it (``PeakingFilter``,
    ``LowShelfFilter``, ``HighShelfFilter``), shape (1, 6).

    Parameters
    ----------
    kind : {"peaking", "low_shelf", "high_shelf"}
    center_freq, gain_db, q_factor : float
        Shelves clamp the frequency to ``0.9999 * (sample_rate // 2)`` as audiomentations does.
    sample_rate : int

    Returns
    -------
    ndarray, float64, shape (1, 6)

    Examples
    --------
    >>> sigkern.augment.eq_section("peaking", 1000.0, 6.0, 1.0, 16000).shape
    (1, 6)
    """
    if kind != "peaking" and center_freq > sample_rate // 2:
        center_freq = (sample_rate // 2) * 0.9999
    w = 2 * np.pi * center_freq / sample_rate
    g = 10 ** (gain_db / 40)
    alpha = np.sin(w) / 2 / q_factor
    cw = np.cos(w)
    if kind == "peaking":
        b0, b1, b2 = 1 + alpha * g, -2 * cw, 1 - alpha * g
        a0, a1, a2 = 1 + alpha / g, -2 * cw, 1 - alpha / g
    elif kind == "low_shelf":
        sa = 2 * np.sqrt(g) * alpha
        b0 = g * ((g + 1) - (g - 1) * cw + sa)
        b1 = 2 * g * ((g - 1) - (g + 1) * cw)
        b2 = g * ((g + 1) - (g - 1) * cw - sa)
        a0 = (g + 1) + (g - 1) * cw + sa
        a1 = -2 * ((g - 1) + (g + 1) * cw)
        a2 = (g + 1) + (g - 1) * cw - sa
    elif kind == "high_shelf":
        sa = 2 * np.sqrt(g) * alpha
        b0 = g * ((g + 1) + (g - 1) * cw + sa)
        b1 = -2 * g * ((g - 1) + (g + 1) * cw)
        b2 = g * ((g + 1) + (g - 1) * cw - sa)
        a0 = (g + 1) - (g - 1) * cw + sa
        a1 = 2 * ((g - 1) - (g + 1) * cw)
        a2 = (g + 1) - (g - 1) * cw - sa
    else:
        raise ValueError(f"eq_section: unknown kind {kind!r}")
    return np.array([[b0 / a0, b1 / a0, b2 / a0, 1, a1 / a0, a2 / a0]])


class SevenBandParametricEQ(BaseWaveformTransform):
    """audiomentations' ``SevenBandParametricEQ``: a low shelf, five peaking filters and a high
    shelf with random gains, Q values and centre frequencies (drawn on the mel scale in
    audiomentations' seven ranges from 42 Hz to 9486 Hz) (C: ``sk_augment_sosfilt_*``, the
    seven sections in one cascade per clip, every clip in one call).

    Parameters
    ----------
    min_gain_db, max_gain_db : float, default -12, 12
        Gain range of every band.
    p : float, default 0.5
    seed : int, Generator or None, keyword-only

    Notes
    -----
    ``parameters``: ``center_freq``, ``gain_db``, ``q_factor``, each with a trailing axis of 7
    (low shelf, five peaks, high shelf). audiomentations filters band by band, rounding to
    float32 in between; here the seven sections run as one float64 cascade from the same
    steady state, so float32 results agree within a few float32 ulps of the signal's scale.

    Examples
    --------
    >>> y = sigkern.augment.SevenBandParametricEQ(p=1.0, seed=0)(np.ones(1600, np.float32), 16000)
    """

    def __init__(self, min_gain_db: float = -12.0, max_gain_db: float = 12.0, p: float = 0.5, *,
                 seed: SeedLike = None) -> None:
        super().__init__(p, seed=seed)
        _require(min_gain_db <= max_gain_db, "min_gain_db must not be greater than max_gain_db")
        self.min_gain_db, self.max_gain_db = float(min_gain_db), float(max_gain_db)

    _extra = {"center_freq": (7,), "gain_db": (7,), "q_factor": (7,)}

    def _draw(self, x: np.ndarray, sample_rate: int, rows: int) -> Dict[str, Any]:
        fc = np.empty((rows, 7))
        gain = np.empty((rows, 7))
        q = np.empty((rows, 7))
        for b, (_, lo, hi, qlo, qhi) in enumerate(_BANDS):
            fc[:, b] = _mel_uniform(self.rng, lo, hi, rows)
            gain[:, b] = _uniform(self.rng, self.min_gain_db, self.max_gain_db, rows)
            q[:, b] = _uniform(self.rng, qlo, qhi, rows)
        return {"center_freq": fc, "gain_db": gain, "q_factor": q}

    def _apply(self, x: np.ndarray, sample_rate: int, prm: Dict[str, np.ndarray]) -> np.ndarray:
        fc, g, q = (prm[k] for k in ("center_freq", "gain_db", "q_factor"))
        soses = [np.concatenate([eq_section(_BANDS[b][0], float(fc[r, b]), float(g[r, b]),
                                            float(q[r, b]), sample_rate) for b in range(7)])
                 for r in range(x.shape[0])]
        return _filter_rows(x, soses, False)
