"""audiomentations' ``ApplyImpulseResponse`` with the impulse responses given as arrays
(C: ``sk_rfft_batch_*``/``sk_irfft_batch_*``; short responses ``sk_convolve_*``)."""

from __future__ import annotations

from typing import Any, Dict

import numpy as np

from ..spectral import convolve as _convolve
from ..spectral import irfft as _irfft
from ..spectral import rfft as _rfft
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
        scale = np.empty(rows, dtype=x.dtype)
        for i in np.unique(idx):
            sel = np.flatnonzero(idx == i)
            ir = self.irs[int(i)].astype(x.dtype)
            full_len = n + ir.shape[0] - 1
            if ir.shape[0] <= 64 or full_len < 4096:
                for r in sel:
                    full = _convolve(x[r], ir, mode="full")
                    peak[r] = max(float(full.max()), -float(full.min()))
                    wet[r] = full[:width]
                _peak_scale(peak[sel], scale, sel)
                wet[sel] *= scale[sel, None]
                continue
            # one FFT length for the group: the rows' spectra in one C call, the IR's once;
            # one buffer holds the zero-padded rows and then, in place, the convolutions
            nfft = _fast_len(full_len)
            buf = np.empty((sel.size, nfft), dtype=x.dtype)
            buf[:, :n] = x if sel.size == rows else x[sel]
            buf[:, n:] = 0
            spec = _rfft(buf, axis=-1)
            spec *= _rfft(ir, n=nfft)
            _irfft(spec, n=nfft, axis=-1, out=buf)
            full2 = buf[:, :full_len]
            peak[sel] = np.maximum(full2.max(axis=-1), -full2.min(axis=-1))
            _peak_scale(peak[sel], scale, sel)
            # the normalisation: each product rounded once in the dtype (as sk_augment_gain_*)
            if sel.size == rows:
                np.multiply(buf[:, :width], scale[:, None], out=wet)
            else:
                wet[sel] = buf[:, :width] * scale[sel, None]
        return wet


def _peak_scale(peak: np.ndarray, scale: np.ndarray, sel: np.ndarray) -> None:
    """``scale[sel] = 0.5 / peak`` (1 where the peak is 0), rounded to ``scale``'s dtype."""
    scale[sel] = np.where(peak > 0, 0.5 / np.where(peak > 0, peak, 1.0), 1.0)


def _fast_len(n: int) -> int:
    """The smallest ``2^a·m >= n`` with ``m`` in {1, 3, 5, 7, 9, 15, 21, 25, 27}: a fast FFT
    length (mostly radix-4 passes)."""
    best = 1 << max(0, (n - 1).bit_length())
    for m in (3, 5, 7, 9, 15, 21, 25, 27):
        k = max(0, -(-n // m) - 1).bit_length()  # the smallest 2^k >= ceil(n / m)
        best = min(best, m << k)
    return best
