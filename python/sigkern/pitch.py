"""Fundamental-frequency estimation with librosa's names (C: ``sk_yin_*``; Rust:
``src/kernels/pitch/mod.rs``): :func:`yin`."""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING, Any, Optional

from . import _args as A
from . import _buffers as B
from ._args import F32, F64, SFX
from ._errors import error
from ._lib import cfunc

if TYPE_CHECKING:
    from ._typing import ArrayLike, FloatArray

__all__ = ["yin"]

_yin = {F32: cfunc("sk_yin_f32"), F64: cfunc("sk_yin_f64")}
_PAD = {"constant": 0, "reflect": 1}


def yin(y: ArrayLike, *, fmin: float, fmax: float, sr: float = 22050, frame_length: int = 2048,
        win_length: Any = None, hop_length: Optional[int] = None, trough_threshold: float = 0.1,
        center: bool = True, pad_mode: str = "constant") -> FloatArray:
    """``librosa.yin``: the fundamental frequency of each frame by the YIN algorithm
    (``sk_yin_*``), in Hz.

    Parameters
    ----------
    y : ndarray or Tensor, float32 or float64, shape (..., n)
        Finite audio; leading axes are a batch, one C call.
    fmin, fmax : float
        Frequency range, ``0 < fmin < fmax <= sr / 2``.
    sr : float, default 22050
    frame_length : int, default 2048
    win_length : ignored
        Deprecated in librosa 0.11 (no effect); passing it warns, as librosa.
    hop_length : int, default frame_length // 4
    trough_threshold : float, default 0.1
    center : bool, default True
    pad_mode : "constant" or "reflect", default "constant"

    Returns
    -------
    ndarray or Tensor, shape (..., frames), y's dtype

    Examples
    --------
    >>> y = np.sin(2 * np.pi * 220 * np.arange(22050) / 22050)
    >>> round(float(np.median(sigkern.yin(y, fmin=80, fmax=800))), 1)
    220.0
    """
    func = "yin"
    if win_length is not None:
        warnings.warn("The win_length parameter has been deprecated in version 0.11.0 and has no effect.",
                      FutureWarning, stacklevel=2)
    dt0 = A.dtype_of(y)
    if dt0 is not None and dt0.kind == "c":
        raise TypeError(f"{func}: y must be real audio, got {A.describe(y)}")
    ya = A.as_input(y, func, "y")
    A.cpu_tensor(ya, func, "y")
    dt = A.float_dtype(ya, func, "y")
    if ya.ndim == 0:
        raise ValueError(f"{func}: y is zero-dimensional; pass audio of shape (..., n)")
    ya = A.contig(ya)
    fl = A.index(frame_length, func, "frame_length")
    hop = fl // 4 if hop_length is None else A.index(hop_length, func, "hop_length")
    if fl < 1 or hop < 1:
        raise ValueError(f"{func}: frame_length and hop_length must be positive, got {fl}, {hop}")
    pc = _PAD.get(pad_mode) if isinstance(pad_mode, str) else None
    if pc is None:
        raise ValueError(f'{func}: pad_mode must be "constant" or "reflect", got {pad_mode!r}')
    lead = tuple(ya.shape[:-1])
    n = int(ya.shape[-1])
    rows = math.prod(lead)
    pad = fl // 2 if center else 0
    if n + 2 * pad < fl:
        raise ValueError(f"{func}: signal of {n} samples (padded to {n + 2 * pad}) is shorter than "
                         f"frame_length = {fl}")
    frames = 1 + (n + 2 * pad - fl) // hop
    out = B.new_like(ya, lead + (frames,), dt)
    st = _yin[dt](B.pointer(ya, dt, func, "y")[0], rows, n, A.rate(sr, func, "sr"), float(fmin),
                  float(fmax), fl, hop, float(trough_threshold), 1 if center else 0, pc,
                  B.pointer(out, dt, func, "out", writable=True)[0], rows * frames)
    if st:
        raise error(st, f"sk_yin_{SFX[dt]}")
    res: FloatArray = out
    return res
