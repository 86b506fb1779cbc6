"""Griffin-Lim phase reconstruction (C: ``sk_griffinlim_*``; Rust:
``src/kernels/spectral/griffinlim.rs``): :func:`griffinlim` with ``librosa.griffinlim``'s
signature."""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import SFX
from .._lib import cfunc
from ._common import _NULL, _new, _raise, _swap
from ._vocoder import _window64

if TYPE_CHECKING:
    from .._typing import ArrayLike, DTypeLike, FloatArray, WindowLike

__all__ = ["griffinlim"]

_gl_len = cfunc("sk_griffinlim_len")
_gl = {A.F32: cfunc("sk_griffinlim_f32"), A.F64: cfunc("sk_griffinlim_f64")}
_PAD = {"constant": 0, "reflect": 1}


def _rng(random_state: Any, func: str) -> Any:
    """librosa's choice of generator."""
    if random_state is None:
        return np.random.default_rng()
    if isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool):
        return np.random.RandomState(seed=int(random_state))
    if isinstance(random_state, (np.random.RandomState, np.random.Generator)):
        return random_state
    raise ValueError(f"{func}: unsupported random_state={random_state!r}")


def griffinlim(S: ArrayLike, *, n_iter: int = 32, hop_length: Optional[int] = None,
               win_length: Optional[int] = None, n_fft: Optional[int] = None,
               window: WindowLike = "hann", center: bool = True, dtype: Optional[DTypeLike] = None,
               length: Optional[int] = None, pad_mode: str = "constant",
               momentum: float = 0.99, init: Optional[str] = "random",
               random_state: Any = None) -> FloatArray:
    """``librosa.griffinlim``: a signal whose STFT magnitude approximates ``S``
    (``sk_griffinlim_*``, one C call for all channels and iterations).

    The fast Griffin-Lim with momentum, librosa's algorithm step for step: the initial phases
    are drawn in Python exactly as librosa draws them (so a given ``random_state`` gives
    librosa's result), the iterations run in C in S's precision.

    Parameters
    ----------
    S : ndarray or Tensor, float32 or float64, shape (..., n_freq, frames)
        Magnitudes (non-negative). Leading axes are channels.
    n_iter : int, default 32
    hop_length, win_length, n_fft, window, center, pad_mode
        librosa's STFT keywords: ``n_fft`` defaults to ``2 * (n_freq - 1)``, ``win_length``
        to ``n_fft``, ``hop_length`` to ``win_length // 4``; ``pad_mode`` "constant" or
        "reflect".
    dtype : float dtype, optional
        Output dtype (default: S's); the computation runs in S's precision.
    length : int, optional
        Output length (default: the full inverse length; 0 means the default, as librosa).
    momentum : float, default 0.99
        ``>= 0`` (above 1 warns, as librosa).
    init : {"random", None}
        Random initial phases, or phase 0.
    random_state : None, int, np.random.RandomState or np.random.Generator
        As librosa: an int seeds ``np.random.RandomState``, None uses fresh entropy.

    Returns
    -------
    ndarray or Tensor, shape (..., length)

    Raises
    ------
    ValueError
        Bad parameters, ``init`` other than "random"/None, negative momentum, an unsupported
        ``random_state``; :class:`BadArgumentError` from the library when the output length
        has a different frame count than ``S``.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(8000)
    >>> S = np.abs(sigkern.stft(x, 512, window="hann", pad_mode="constant"))
    >>> sigkern.griffinlim(S, n_iter=8, random_state=0).shape
    (7936,)
    """
    func = "griffinlim"
    S = A.as_input(S, func, "S")
    A.cpu_tensor(S, func, "S")
    dt = A.float_dtype(S, func, "S")
    odt = None if dtype is None else A.float_dtype_arg(dtype, func)
    if S.ndim < 2:
        raise ValueError(f"{func}: S must have shape (..., n_freq, frames), got {tuple(S.shape)}")
    n_freq, frames = int(S.shape[-2]), int(S.shape[-1])
    n_fft = 2 * (n_freq - 1) if n_fft is None else A.index(n_fft, func, "n_fft")
    wl = n_fft if win_length is None else A.index(win_length, func, "win_length")
    hop = wl // 4 if hop_length is None else A.index(hop_length, func, "hop_length")
    if n_fft < 1 or not 1 <= wl <= n_fft or hop < 1:
        raise ValueError(f"{func}: need n_fft >= 1, 1 <= win_length <= n_fft, hop_length >= 1; "
                         f"got {n_fft}, {wl}, {hop}")
    n_iter = A.index(n_iter, func, "n_iter")
    if n_iter < 0:
        raise ValueError(f"{func}: n_iter must be >= 0, got {n_iter}")
    m = float(momentum)
    if m > 1:
        warnings.warn(f"Griffin-Lim with momentum={momentum} > 1 can be unstable. "
                      "Proceed with caution!", stacklevel=2)
    elif not m >= 0:
        raise ValueError(f"{func}: momentum={momentum} < 0")
    if pad_mode not in _PAD:
        raise ValueError(f'{func}: pad_mode must be "constant" or "reflect", got {pad_mode!r}')
    ln_arg = 0 if length is None else A.index(length, func, "length")
    if ln_arg < 0:
        raise ValueError(f"{func}: length must be >= 0, got {ln_arg}")
    rng = _rng(random_state, func)
    w = _window64(window, wl, func)
    c = 1 if center else 0
    ln = _new("size_t *")
    st = _gl_len(frames, n_fft, hop, wl, c, _PAD[pad_mode], ln_arg, ln)
    if st:
        _raise(st, "sk_griffinlim_len")
    out_len = int(ln[0])
    lead = tuple(S.shape[:-2])
    cdt = A.COMPLEX_OF[dt]
    if init == "random":
        # cos + i·sin of the drawn angles written straight into the frame-major layout
        th = (2 * np.pi * rng.random(size=tuple(S.shape))).swapaxes(-1, -2)
        pinit: Any = np.empty(th.shape, cdt)
        np.cos(th, out=pinit.real, casting="same_kind")
        np.sin(th, out=pinit.imag, casting="same_kind")
    elif init is None:
        pinit = None
    else:
        raise ValueError(f"{func}: init={init!r} must be either None or 'random'")
    St = A.contig(_swap(S))
    y: FloatArray = B.new_like(S, lead + (out_len,), dt)
    rows = math.prod(lead)
    if rows:
        ps, _ = B.pointer(St, dt, func, "S")
        pi = _NULL if pinit is None else B.pointer(pinit.view(dt), dt, func, "init")[0]
        pw, _ = B.pointer(w, A.F64, func, "window")
        py, _ = B.pointer(y, dt, func, "out", writable=True)
        st = _gl[dt](ps, n_freq, frames, rows, pi, pw, n_fft, hop, wl, c, _PAD[pad_mode], n_iter,
                     m, ln_arg, py, rows * out_len)
        if st:
            _raise(st, f"sk_griffinlim_{SFX[dt]}")
    if odt is not None and odt != dt:
        y = y.astype(odt) if isinstance(y, np.ndarray) else y.to(A.torch_dtype(odt))
    return y
