"""Cepstral mean and variance normalisation (C: ``sk_cmvn_*``, ``sk_sliding_cmn_*``; Rust:
``src/kernels/speech/cmvn.rs``): :func:`cmvn` per utterance as Kaldi's ``apply-cmvn``, and
:func:`sliding_window_cmn` with ``torchaudio.functional.sliding_window_cmn``'s signature."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from .. import _args as A
from .. import _buffers as B
from .._args import SFX, F32, F64
from .._errors import error
from .._lib import cfunc

if TYPE_CHECKING:
    from .._typing import ArrayLike, FloatArray

__all__ = ["cmvn", "sliding_window_cmn"]

_CMVN = {F32: cfunc("sk_cmvn_f32"), F64: cfunc("sk_cmvn_f64")}
_SLIDING = {F32: cfunc("sk_sliding_cmn_f32"), F64: cfunc("sk_sliding_cmn_f64")}


def _prepare(func: str, x: Any) -> Any:
    """(contiguous input, output, channels, frames, feats, dtype) of a (..., frames, feats)
    array or tensor."""
    x = A.promote(x, func, "specgram", complex_ok=False)
    A.cpu_tensor(x, func, "specgram")
    dt = A.float_dtype(x, func, "specgram")
    if x.ndim < 2:
        raise ValueError(f"{func}: specgram must have shape (..., frames, feats), got "
                         f"{A.describe(x)}")
    x = A.contig(x)
    frames, feats = int(x.shape[-2]), int(x.shape[-1])
    channels = math.prod(x.shape[:-2])
    y = B.new_like(x, tuple(x.shape), dt)
    return x, y, channels, frames, feats, dt


def cmvn(specgram: ArrayLike, norm_vars: bool = False) -> FloatArray:
    """Per-utterance cepstral mean (and variance) normalisation, as Kaldi's ``apply-cmvn`` with
    per-utterance statistics (``sk_cmvn_*``): each feature minus its mean over the frames; with
    ``norm_vars`` divided by its standard deviation (variance floored at 1e-20).

    Parameters
    ----------
    specgram : ndarray or Tensor, float32 or float64, shape (..., frames, feats)
        Leading axes are utterances, each normalised on its own.
    norm_vars : bool, default False
        Normalise the variance too.

    Returns
    -------
    ndarray or Tensor, specgram's shape and dtype

    Examples
    --------
    >>> f = np.random.default_rng(0).standard_normal((100, 13)) + 5
    >>> np.abs(sigkern.feature.cmvn(f).mean(axis=0)).max() < 1e-12
    True
    """
    func = "feature.cmvn"
    x, y, ch, fr, fe, dt = _prepare(func, specgram)
    if ch and fr and fe:
        px, _ = B.pointer(x, dt, func, "specgram")
        py, _ = B.pointer(y, dt, func, "out", writable=True)
        st = _CMVN[dt](px, py, ch, fr, fe, 1 if norm_vars else 0)
        if st:
            raise error(st, f"sk_cmvn_{SFX[dt]}")
    return y  # type: ignore[no-any-return]


def sliding_window_cmn(specgram: ArrayLike, cmn_window: int = 600, min_cmn_window: int = 100,
                       center: bool = False, norm_vars: bool = False) -> FloatArray:
    """``torchaudio.functional.sliding_window_cmn``: cepstral mean (and variance)
    normalisation over a sliding window of frames (``sk_sliding_cmn_*``).

    Parameters
    ----------
    specgram : ndarray or Tensor, float32 or float64, shape (..., frames, feats)
    cmn_window : int, default 600
        Window length in frames.
    min_cmn_window : int, default 100
        Smallest window at the start (ignored with ``center``).
    center : bool, default False
        Centre the window on the frame (else it ends at the frame).
    norm_vars : bool, default False
        Normalise the variance too.

    Returns
    -------
    ndarray or Tensor, specgram's shape and dtype

    Examples
    --------
    >>> f = np.random.default_rng(0).standard_normal((300, 13))
    >>> sigkern.feature.sliding_window_cmn(f, cmn_window=50).shape
    (300, 13)
    """
    func = "feature.sliding_window_cmn"
    cw = A.index(cmn_window, func, "cmn_window")
    mw = A.index(min_cmn_window, func, "min_cmn_window")
    x, y, ch, fr, fe, dt = _prepare(func, specgram)
    if ch and fr and fe:
        px, _ = B.pointer(x, dt, func, "specgram")
        py, _ = B.pointer(y, dt, func, "out", writable=True)
        st = _SLIDING[dt](px, py, ch, fr, fe, cw, mw, 1 if center else 0, 1 if norm_vars else 0)
        if st:
            raise error(st, f"sk_sliding_cmn_{SFX[dt]}")
    return y  # type: ignore[no-any-return]
