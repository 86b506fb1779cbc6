"""audiomentations' ``ApplyImpulseResponse`` with the impulse responses given as arrays
(C: ``sk_convolve_*``, FFT overlap-save; ``sk_augment_gain_*`` for the normalisation)."""

from __future__ import annotations

from typing import Any, Dict

import numpy as np

from ..spectral import convolve as _convolve
from ..spectral import irfft as _irfft
from ..spectral import rfft as _rfft
from . import _kernels as K
from ._base import BaseWaveformTransform, SeedLike, _require

__all__ = ["ApplyImpulseResponse"]


class ApplyImpulseResponse(BaseWaveformTransform):
    """audiomentations' ``ApplyImpulseResponse``: convolve each clip with a random impulse
    response, scale the result to a peak of 0.5, and (by default) cut the tail so that the
    length is unchanged (C: the clips sharing a response are transformed with one batched real
    FFT, ``sk_rfft``/``sk_irfft``, the response's spectrum computed once; short ones with
    ``sk_convolve_*``; then ``sk_augment_gain_*``).

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
        width = n if self.leave_length_unchanged else n + max(lengths) - 1
        wet = np.empty((rows, width), dtype=x.dtype)
        peak = np.empty(rows)
        for i in np.unique(idx):
            sel = np.flatnonzero(idx == i)
            ir = self.irs[int(i)].astype(x.dtype)
            full_len = n + ir.shape[0] - 1
            if ir.shape[0] <= 64 or full_len < 4096:
                for r in sel:
                    full = _convolve(x[r], ir, mode="full")
                    peak[r] = max(float(full.max()), -float(full.min()))
                    wet[r] = full[:width]
                continue
            # one FFT length for the group: the rows' spectra in one C call, the IR's once
            nfft = _fast_len(full_len)
            spec = _rfft(np.ascontiguousarray(x[sel]), n=nfft, axis=-1)
            spec *= _rfft(ir, n=nfft)
            full2 = np.asarray(_irfft(spec, n=nfft, axis=-1))[:, :full_len]
            peak[sel] = np.maximum(full2.max(axis=-1), -full2.min(axis=-1))
            wet[sel] = full2[:, :width]
        scale = np.where(peak > 0, 0.5 / np.where(peak > 0, peak, 1.0), 1.0)
        return K.gain(wet, scale)


def _fast_len(n: int) -> int:
    """The smallest 2^a·3^b·5^c >= n (a fast FFT length)."""
    best = 1 << max(0, (n - 1).bit_length())
    p5 = 1
    while p5 < best:
        p35 = p5
        while p35 < best:
            m = p35
            while m < n:
                m *= 2
            best = min(best, m)
            p35 *= 3
        p5 *= 5
    return best
