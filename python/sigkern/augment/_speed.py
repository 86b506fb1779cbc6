"""Speed perturbation as torchaudio's ``functional.speed`` and ``transforms.SpeedPerturbation``
(Kaldi's resample-based speed change; C: the resampler ``sk_resample_*``)."""

from __future__ import annotations

import math
from typing import Any, Optional, Sequence, Tuple, cast

import numpy as np

from ..resample import resample as _resample
from ._base import AugmentArgumentError, SeedLike

__all__ = ["speed", "SpeedPerturbation"]


def _rates(orig_freq: Any, factor: Any, func: str) -> Tuple[int, int]:
    """torchaudio's ``(int(factor * orig_freq), int(orig_freq))`` divided by their gcd."""
    if isinstance(orig_freq, bool) or not isinstance(orig_freq, (int, np.integer)) \
            or orig_freq <= 0:
        raise AugmentArgumentError(f"{func}: orig_freq must be a positive int, got {orig_freq!r}")
    f = float(factor)
    if not (math.isfinite(f) and f > 0):
        raise AugmentArgumentError(f"{func}: factor must be finite and positive, got {factor!r}")
    src, dst = int(f * int(orig_freq)), int(orig_freq)
    if src <= 0:
        raise AugmentArgumentError(
            f"{func}: factor {f} times orig_freq {orig_freq} is below 1 Hz")
    g = math.gcd(src, dst)
    return src // g, dst // g


def speed(waveform: np.ndarray, orig_freq: int, factor: float,
          lengths: Optional[Any] = None, *, quality: str = "high"
          ) -> Tuple[np.ndarray, Optional[np.ndarray]]:
    """``torchaudio.functional.speed``: change the speed (and pitch) by ``factor`` by resampling
    from ``int(factor * orig_freq)`` to ``orig_freq`` Hz (both divided by their gcd), with
    :func:`sigkern.resample` (C: ``sk_resample_*``).

    Parameters
    ----------
    waveform : ndarray or Tensor, float32 or float64, shape (..., time)
        Leading axes are channels.
    orig_freq : int
        Sample rate of ``waveform`` (> 0).
    factor : float
        > 1 shortens (faster, higher), < 1 lengthens.
    lengths : array_like of int, shape (...), optional
        Valid lengths of the signals; returned as ``ceil(lengths * target / source)``.
    quality : str, default "high"
        The resampler's preset (torchaudio uses a windowed-sinc kernel of its own, so the
        samples differ from torchaudio's by the two kernels' difference; lengths are equal).

    Returns
    -------
    (ndarray or Tensor, ndarray or None)
        The resampled signals, shape ``(..., ceil(time * target / source))``, and the new
        lengths (int64) or None.

    Raises
    ------
    AugmentArgumentError
        A non-positive ``orig_freq`` or ``factor``, or a ratio outside [1/256, 256].

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(16000)
    >>> y, _ = sigkern.augment.speed(x, 16000, 1.1)
    >>> y.shape
    (14546,)
    """
    func = "speed"
    src, dst = _rates(orig_freq, factor, func)
    out_lengths = None
    if lengths is not None:
        ln = np.asarray(lengths)
        out_lengths = np.ceil(ln * dst / src).astype(ln.dtype if ln.dtype.kind in "iu"
                                                      else np.int64)
    if src == dst:
        return waveform, out_lengths
    y: Any = _resample(waveform, src, dst, cast(Any, quality))
    return y, out_lengths


class SpeedPerturbation:
    """``torchaudio.transforms.SpeedPerturbation``: each call applies :func:`speed` with a factor
    drawn uniformly from ``factors`` (factor 1 returns the input itself).

    Parameters
    ----------
    orig_freq : int
        Sample rate of the signals.
    factors : sequence of float
        The factors to choose from, e.g. ``[0.9, 1.0, 1.1]``.
    quality : str, default "high"
        The resampler's preset.
    seed : int, Generator or None, keyword-only
        Seeds ``numpy.random.default_rng`` for the draws (torchaudio draws with ``torch.randint``).

    Examples
    --------
    >>> t = sigkern.augment.SpeedPerturbation(16000, [0.9, 1.1], seed=0)
    >>> y, lengths = t(np.zeros(16000))
    """

    def __init__(self, orig_freq: int, factors: Sequence[float], *, quality: str = "high",
                 seed: SeedLike = None) -> None:
        fs = [float(f) for f in factors]
        if not fs:
            raise AugmentArgumentError("SpeedPerturbation: factors must not be empty")
        for f in fs:
            _rates(orig_freq, f, "SpeedPerturbation")
        self.orig_freq = int(orig_freq)
        self.factors = fs
        self.quality = quality
        self.rng = np.random.default_rng(seed)
        #: the factor of the last call
        self.factor: Optional[float] = None

    def __call__(self, waveform: np.ndarray, lengths: Optional[Any] = None
                 ) -> Tuple[np.ndarray, Optional[np.ndarray]]:
        """Speed-perturbs ``waveform`` (shape ``(..., time)``) by one drawn factor.

        Parameters
        ----------
        waveform : ndarray or Tensor, float32 or float64, shape (..., time)
        lengths : array_like of int, shape (...), optional

        Returns
        -------
        (ndarray or Tensor, ndarray or None)
            As :func:`speed`.
        """
        f = self.factors[int(self.rng.integers(len(self.factors)))]
        self.factor = f
        if f == 1.0:
            return waveform, None if lengths is None else np.asarray(lengths)
        return speed(waveform, self.orig_freq, f, lengths, quality=self.quality)
