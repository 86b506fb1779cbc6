"""audiomentations' ``ApplyImpulseResponse`` with the impulse responses given as arrays
(C: ``sk_convolve_*``, FFT overlap-save; ``sk_augment_gain_*`` for the normalisation)."""

from __future__ import annotations

from typing import Any, Dict

import numpy as np

from ..spectral import convolve as _convolve
from . import _kernels as K
from ._base import BaseWaveformTransform, SeedLike, _require

__all__ = ["ApplyImpulseResponse"]


class ApplyImpulseResponse(BaseWaveformTransform):
    """audiomentations' ``ApplyImpulseResponse``: convolve each clip with a random impulse
    response, scale the result to a peak of 0.5, and (by default) cut the tail so that the
    length is unchanged (C: ``sk_convolve_*`` by FFT, one call per clip, then
    ``sk_augment_gain_*``).

    Parameters
    ----------
    irs : ndarray, shape (m,) or (k, m), or a sequence of 1-D arrays
        The impulse responses at the clips' sample rate (audiomentations takes ``ir_path`` and
        loads files; here nothing is loaded or resampled). Converted to the clips' dtype.
    p : float, default 0.5
    leave_length_unchanged : bool, default True
        Cut the reverberation tail (output length ``n``); else the output has the full
        convolution's length ``n + m - 1`` (then every clip of a batch must be transformed,
        ``p=1``, and share one IR length).
    seed : int, Generator or None, keyword-only

    Notes
    -----
    ``parameters["ir_index"]`` is the drawn response. The convolution equals
    ``scipy.signal.fftconvolve`` within about 1e-12 relative in float64 (float32: 1e-6);
    the peak normalisation is per clip (audiomentations' over all channels of its clip).

    Examples
    --------
    >>> ir = np.exp(-np.arange(800) / 100.0)
    >>> y = sigkern.augment.ApplyImpulseResponse(ir, p=1.0)(np.random.default_rng(0).standard_normal(16000), 16000)
    >>> y.shape
    (16000,)
    """

    def __init__(self, irs: Any, p: float = 0.5, leave_length_unchanged: bool = True, *,
                 seed: SeedLike = None) -> None:
        super().__init__(p, seed=seed)
        if isinstance(irs, np.ndarray) and irs.ndim in (1, 2):
            items = [irs] if irs.ndim == 1 else list(irs)
        else:
            items = list(irs)
        _require(len(items) > 0, "No impulse responses given")
        self.irs = [np.asarray(a, dtype=np.float64) for a in items]
        for a in self.irs:
            _require(a.ndim == 1 and a.size > 0, "each impulse response must be a non-empty 1-D array")
        self.leave_length_unchanged = bool(leave_length_unchanged)

    def _draw(self, x: np.ndarray, sample_rate: int, rows: int) -> Dict[str, Any]:
        return {"ir_index": self.rng.integers(0, len(self.irs), size=rows)}

    def _apply(self, x: np.ndarray, sample_rate: int, prm: Dict[str, np.ndarray]) -> np.ndarray:
        rows, n = x.shape
        idx = prm["ir_index"].astype(np.int64)
        lengths = {self.irs[i].shape[0] for i in idx}
        if not self.leave_length_unchanged and len(lengths) > 1:
            raise ValueError("ApplyImpulseResponse: with leave_length_unchanged=False every clip "
                             "of a batch needs an impulse response of the same length")
        m = max(lengths)
        width = n if self.leave_length_unchanged else n + m - 1
        wet = np.zeros((rows, width), dtype=x.dtype)
        peak = np.empty(rows)
        cache: Dict[int, np.ndarray] = {}
        for r in range(rows):
            i = int(idx[r])
            ir = cache.setdefault(i, np.ascontiguousarray(self.irs[i], dtype=x.dtype))
            full = _convolve(x[r], ir, mode="full", method="fft")
            peak[r] = max(float(full.max()), -float(full.min()))
            wet[r] = full[:width]
        scale = np.where(peak > 0, 0.5 / np.where(peak > 0, peak, 1.0), 1.0)
        return K.gain(wet, scale)
