"""Noise transforms with audiomentations' names and parameters: :class:`AddGaussianNoise`,
:class:`AddGaussianSNR`, :class:`AddColorNoise`, :class:`AddBackgroundNoise` (given noise
arrays instead of files) (C: ``sk_augment_add_normal_*``, ``sk_augment_mix_*``; colouring:
``sk_convolve_*``)."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Union

import numpy as np

from .. import core as _core
from ..spectral import convolve as _convolve
from . import _kernels as K
from ._base import AugmentArgumentError, BaseWaveformTransform, SeedLike, _require, _uniform

__all__ = ["AddGaussianNoise", "AddGaussianSNR", "AddColorNoise", "AddBackgroundNoise",
           "colored_noise"]


def _rows_rms(x: np.ndarray) -> np.ndarray:
    return np.asarray(_core.rms(x, axis=-1), dtype=np.float64).reshape(x.shape[0])


def _add_std_noise(x: np.ndarray, noise: Union[int, np.ndarray], std: np.ndarray) -> np.ndarray:
    """``x + z * std`` per row, ``z`` the array ``noise`` or, given a seed, the standard normal
    draws of that seed (:func:`K.normal`, generated and added in one pass); rows with
    ``std == 0`` unchanged."""
    on = std > 0
    db = 20.0 * np.log10(np.where(on, std, 1.0))
    if isinstance(noise, int):
        y = K.add_normal(x, db, noise)
    else:
        y = K.mix(x, noise, db, K.ABSOLUTE, False)
    if not on.all():
        y[~on] = x[~on]
    return y


class AddGaussianNoise(BaseWaveformTransform):
    """audiomentations' ``AddGaussianNoise``: add normal noise of a standard deviation
    ``amplitude`` drawn uniformly in ``[min_amplitude, max_amplitude]``
    (C: ``sk_augment_add_normal_*``).

    Parameters
    ----------
    min_amplitude, max_amplitude : float, default 0.001, 0.015
        Both > 0, min <= max.
    p : float, default 0.5
    seed : int, Generator or None, keyword-only
        Seeds the parameters and the noise.

    Examples
    --------
    >>> y = sigkern.augment.AddGaussianNoise(p=1.0, seed=0)(np.zeros(16000, np.float32), 16000)
    """

    def __init__(self, min_amplitude: float = 0.001, max_amplitude: float = 0.015,
                 p: float = 0.5, *, seed: SeedLike = None) -> None:
        super().__init__(p, seed=seed)
        _require(min_amplitude > 0.0 and max_amplitude > 0.0 and max_amplitude >= min_amplitude,
                 "need 0 < min_amplitude <= max_amplitude")
        self.min_amplitude, self.max_amplitude = float(min_amplitude), float(max_amplitude)

    def _draw(self, x: np.ndarray, sample_rate: int, rows: int) -> Dict[str, Any]:
        return {"amplitude": _uniform(self.rng, self.min_amplitude, self.max_amplitude, rows)}

    def _apply(self, x: np.ndarray, sample_rate: int, prm: Dict[str, np.ndarray]) -> np.ndarray:
        return _add_std_noise(x, int(self.rng.integers(0, 2**63)), prm["amplitude"])


class AddGaussianSNR(BaseWaveformTransform):
    """audiomentations' ``AddGaussianSNR``: add normal noise whose standard deviation is the
    clip's RMS over ``10 ** (snr / 20)``, ``snr`` drawn uniformly in dB
    (C: ``sk_augment_add_normal_*``, noise drawn and added in one call for the batch).

    Parameters
    ----------
    min_snr_db, max_snr_db : float, default 5, 40
        SNR range in dB (``ValueError`` if min > max).
    p : float, default 0.5
    seed : int, Generator or None, keyword-only
        Seeds the parameters and the noise.

    Notes
    -----
    ``parameters``: ``snr_db`` and audiomentations' ``noise_std`` (computed from the clip's RMS
    when drawn; a frozen ``noise_std`` is reused as is, as in audiomentations). As there, the
    noise's own RMS only approximates ``noise_std`` (a random draw); the noise itself comes from
    ``sk_augment_normal_*``, seeded by the transform's generator, so it differs from
    audiomentations' ``np.random.normal``: equality holds given the same noise.

    Examples
    --------
    >>> x = np.sin(np.arange(16000) * 0.05).astype(np.float32)
    >>> y = sigkern.augment.AddGaussianSNR(20.0, 20.0, p=1.0, seed=0)(x, 16000)
    """

    def __init__(self, min_snr_db: float = 5.0, max_snr_db: float = 40.0, p: float = 0.5, *,
                 seed: SeedLike = None) -> None:
        super().__init__(p, seed=seed)
        if min_snr_db > max_snr_db:
            raise AugmentArgumentError("min_snr_db must not be greater than max_snr_db")
        self.min_snr_db, self.max_snr_db = float(min_snr_db), float(max_snr_db)

    def _draw(self, x: np.ndarray, sample_rate: int, rows: int) -> Dict[str, Any]:
        snr = _uniform(self.rng, self.min_snr_db, self.max_snr_db, rows)
        return {"snr_db": snr, "noise_std": _rows_rms(x) / 10.0 ** (snr / 20.0)}

    def _apply(self, x: np.ndarray, sample_rate: int, prm: Dict[str, np.ndarray]) -> np.ndarray:
        return _add_std_noise(x, int(self.rng.integers(0, 2**63)), prm["noise_std"])


def _decay_ir(beta_db: float, sample_rate: int, n_fft: int, a_weighting: bool,
              phases: np.ndarray) -> np.ndarray:
    """audiomentations' colouring filter: ``irfft(sqrt(1 / f**beta) * exp(1j * phases))``."""
    f = np.fft.rfftfreq(n_fft, 1.0 / sample_rate)
    f[0] = 1
    beta = beta_db / (-10.0) / np.log10(2.0)
    decay = np.sqrt(1 / f ** beta) * np.exp(1j * phases)
    if a_weighting:
        fr = np.fft.rfftfreq(n_fft, 1 / sample_rate)
        decay = decay * (((12194 ** 2 * fr ** 4)
                          / ((fr ** 2 + 20.6 ** 2)
                             * np.sqrt((fr ** 2 + 107.7 ** 2) * (fr ** 2 + 737.9 ** 2))
                             * (fr ** 2 + 12194 ** 2))) + 2.00)
    return np.fft.irfft(decay)


def colored_noise(white: np.ndarray, f_decay: float, sample_rate: int, n_fft: int = 128,
                  apply_a_weighting: bool = False,
                  phases: Optional[np.ndarray] = None) -> np.ndarray:
    """audiomentations' ``generate_decaying_white_noise`` on given white noise: each row of
    ``white`` convolved (``"same"``, FFT: ``sk_convolve_*``) with the colouring filter of a
    ``f_decay`` dB/octave slope, then scaled to unit RMS (over the whole array, as there).

    Parameters
    ----------
    white : ndarray, float64, shape (..., n)
        Standard normal noise.
    f_decay : float
        Slope of the power spectral density in dB/octave (-3.01 pink, -6.02 brown, 3.01 blue,
        6.02 violet, 0 white).
    sample_rate : int
    n_fft : int, default 128
        Length of the colouring filter's frequency grid.
    apply_a_weighting : bool, default False
        Multiply the filter's response by audiomentations' A-weighting envelope ("grey").
    phases : ndarray, shape (n_fft // 2 + 1,), optional
        Random phases of the filter (uniform in ``[0, 2π)``; audiomentations draws them with
        ``np.random.uniform``); required unless ``f_decay == 0`` and no A-weighting.

    Returns
    -------
    ndarray, float64, white's shape
        Unit-RMS coloured noise (``white`` itself, unscaled, when ``f_decay == 0`` without
        A-weighting, as audiomentations).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> z = sigkern.augment.colored_noise(rng.standard_normal(1000), -3.01, 16000, phases=rng.uniform(0, 2 * np.pi, 65))
    """
    if f_decay == 0.0 and not apply_a_weighting:
        return white
    if phases is None:
        raise ValueError("colored_noise: phases are required for a coloured spectrum")
    ir = _decay_ir(f_decay, sample_rate, n_fft, apply_a_weighting, np.asarray(phases))
    w2 = np.ascontiguousarray(white, dtype=np.float64).reshape(-1, white.shape[-1])
    out = np.empty_like(w2)
    n, m = w2.shape[-1], ir.shape[0]
    start = (m - 1) // 2
    for r in range(w2.shape[0]):
        full = _convolve(w2[r], ir, mode="full", method="fft")
        out[r] = full[start:start + n]
    out /= np.sqrt(np.mean(out ** 2))
    return out.reshape(white.shape)


class AddColorNoise(BaseWaveformTransform):
    """audiomentations' ``AddColorNoise``: noise with a power spectral density slope of
    ``f_decay`` dB/octave (drawn uniformly) added at an SNR drawn uniformly in dB
    (C: ``sk_convolve_*`` to colour, ``sk_augment_mix_*`` to add).

    Parameters
    ----------
    min_snr_db, max_snr_db : float, default 5, 40
    min_f_decay, max_f_decay : float, default -6, 6
        Slope range in dB/octave (-3.01 pink, -6.02 brown, 3.01 blue, 6.02 violet).
    p_apply_a_weighting : float, default 0
        Probability of A-weighting the noise ("grey" noise).
    p : float, default 0.5
    n_fft : int, default 128
        Frequency grid of the colouring filter.
    seed : int, Generator or None, keyword-only
        Seeds the parameters, the white noise and the filter's phases.

    Notes
    -----
    The noise is made as audiomentations does (:func:`colored_noise`: white noise convolved
    with the colouring filter, unit RMS) from the transform's generator; given the same white
    noise and phases the result equals audiomentations'. The RMS normalisation is per clip
    (audiomentations normalises over all channels of its one clip).

    Examples
    --------
    >>> y = sigkern.augment.AddColorNoise(p=1.0, seed=0)(np.ones(4000, np.float32), 16000)
    """

    def __init__(self, min_snr_db: float = 5.0, max_snr_db: float = 40.0,
                 min_f_decay: float = -6.0, max_f_decay: float = 6.0,
                 p_apply_a_weighting: float = 0.0, p: float = 0.5, n_fft: int = 128, *,
                 seed: SeedLike = None) -> None:
        super().__init__(p, seed=seed)
        _require(min_snr_db <= max_snr_db, "min_snr_db must not be greater than max_snr_db")
        _require(min_f_decay <= max_f_decay, "min_f_decay must not be greater than max_f_decay")
        _require(0 <= p_apply_a_weighting <= 1, "p_apply_a_weighting must be in [0, 1]")
        _require(int(n_fft) >= 2, "n_fft must be >= 2")
        self.min_snr_db, self.max_snr_db = float(min_snr_db), float(max_snr_db)
        self.min_f_decay, self.max_f_decay = float(min_f_decay), float(max_f_decay)
        self.p_apply_a_weighting = float(p_apply_a_weighting)
        self.n_fft = int(n_fft)

    def _draw(self, x: np.ndarray, sample_rate: int, rows: int) -> Dict[str, Any]:
        snr = _uniform(self.rng, self.min_snr_db, self.max_snr_db, rows)
        return {"snr_db": snr,
                "desired_noise_rms": _rows_rms(x) / 10.0 ** (snr / 20.0),
                "f_decay": _uniform(self.rng, self.min_f_decay, self.max_f_decay, rows),
                "apply_a_weighting": self.rng.random(rows) < self.p_apply_a_weighting}

    def _apply(self, x: np.ndarray, sample_rate: int, prm: Dict[str, np.ndarray]) -> np.ndarray:
        rows, n = x.shape
        noise = np.empty(x.shape, dtype=x.dtype)
        for r in range(rows):
            white = self.rng.standard_normal((n,))
            phases = self.rng.uniform(0, 2 * np.pi, self.n_fft // 2 + 1)
            noise[r] = colored_noise(white, float(prm["f_decay"][r]), sample_rate, self.n_fft,
                                     bool(prm["apply_a_weighting"][r]), phases)
        return _add_std_noise(x, noise, prm["desired_noise_rms"])


class AddBackgroundNoise(BaseWaveformTransform):
    """audiomentations' ``AddBackgroundNoise`` with the noises given as arrays: a random noise,
    from a random offset (repeated when shorter than the clip), mixed at an SNR drawn uniformly
    in dB or at an absolute RMS level (C: ``sk_augment_mix_*``).

    Parameters
    ----------
    noises : ndarray, shape (m,) or (k, m), or a sequence of 1-D arrays
        The noise recordings at the clips' sample rate (audiomentations takes ``sounds_path``
        and loads files; here nothing is loaded or resampled).
    min_snr_db, max_snr_db : float, default 3, 30
        Used when ``noise_rms="relative"``.
    noise_rms : {"relative", "absolute"}, default "relative"
    min_absolute_rms_db, max_absolute_rms_db : float, default -45, -15
        Used when ``noise_rms="absolute"`` (max <= 0).
    noise_transform : callable, optional
        Applied to the noise segment ``(samples, sample_rate)`` before mixing.
    p : float, default 0.5
    seed : int, Generator or None, keyword-only

    Notes
    -----
    Parameters: ``noise_index``, ``offset`` (in samples, uniform in ``[0, max(0, m - n)]``),
    ``snr_db``, ``rms_db``. The mixed noise has exactly the wanted RMS (measured on the
    segment, in double); a segment with an RMS below 1e-9 leaves the clip unchanged.

    Examples
    --------
    >>> noise = np.random.default_rng(1).standard_normal(32000).astype(np.float32)
    >>> t = sigkern.augment.AddBackgroundNoise(noise, p=1.0, seed=0)
    >>> y = t(np.ones(16000, np.float32), 16000)
    """

    def __init__(self, noises: Any, min_snr_db: float = 3.0, max_snr_db: float = 30.0,
                 noise_rms: str = "relative", min_absolute_rms_db: float = -45.0,
                 max_absolute_rms_db: float = -15.0,
                 noise_transform: Optional[Callable[[np.ndarray, int], np.ndarray]] = None,
                 p: float = 0.5, *, seed: SeedLike = None) -> None:
        super().__init__(p, seed=seed)
        if isinstance(noises, np.ndarray) and noises.ndim in (1, 2):
            items = [noises] if noises.ndim == 1 else list(noises)
        else:
            items = list(noises)
        _require(len(items) > 0, "noises must hold at least one noise")
        self.noises = [np.asarray(a) for a in items]
        for a in self.noises:
            _require(a.ndim == 1 and a.size > 0, "each noise must be a non-empty 1-D array")
        if min_snr_db > max_snr_db:
            raise AugmentArgumentError("min_snr_db must not be greater than max_snr_db")
        if min_absolute_rms_db > max_absolute_rms_db:
            raise AugmentArgumentError(
                "min_absolute_rms_db must not be greater than max_absolute_rms_db")
        if max_absolute_rms_db > 0:
            raise AugmentArgumentError("max_absolute_rms_db must not be greater than 0")
        _require(noise_rms in ("relative", "absolute"), 'noise_rms must be "relative" or "absolute"')
        self.min_snr_db, self.max_snr_db = float(min_snr_db), float(max_snr_db)
        self.noise_rms = noise_rms
        self.min_absolute_rms_db = float(min_absolute_rms_db)
        self.max_absolute_rms_db = float(max_absolute_rms_db)
        self.noise_transform = noise_transform

    def _draw(self, x: np.ndarray, sample_rate: int, rows: int) -> Dict[str, Any]:
        n = x.shape[-1]
        idx = self.rng.integers(0, len(self.noises), size=rows)
        span = np.array([max(0, self.noises[i].shape[0] - n) for i in idx], dtype=np.int64)
        return {"snr_db": _uniform(self.rng, self.min_snr_db, self.max_snr_db, rows),
                "rms_db": _uniform(self.rng, self.min_absolute_rms_db,
                                   self.max_absolute_rms_db, rows),
                "noise_index": idx,
                "offset": self.rng.integers(0, span, endpoint=True)}

    def _segment(self, i: int, offset: int, n: int, dtype: Any) -> np.ndarray:
        a = self.noises[i].astype(dtype, copy=False)[offset:offset + n]
        while a.shape[0] < n:
            a = np.concatenate((a, a))
        return a[:n]

    def _apply(self, x: np.ndarray, sample_rate: int, prm: Dict[str, np.ndarray]) -> np.ndarray:
        rows, n = x.shape
        noise = np.empty_like(x)
        for r in range(rows):
            seg = self._segment(int(prm["noise_index"][r]), int(prm["offset"][r]), n, x.dtype)
            if self.noise_transform is not None:
                seg = np.asarray(self.noise_transform(seg, sample_rate), dtype=x.dtype)
            noise[r] = seg
        if self.noise_rms == "relative":
            return K.mix(x, noise, prm["snr_db"], K.SNR, True)
        return K.mix(x, noise, prm["rms_db"], K.ABSOLUTE, True)
