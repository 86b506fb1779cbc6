"""The phase vocoder (C: ``sk_phase_vocoder_*``; Rust: ``src/kernels/spectral/vocoder.rs``):
:func:`phase_vocoder` with ``librosa.phase_vocoder``'s signature."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import SFX
from .._lib import cfunc
from ._common import _complex_input, _new, _raise, _swap
from ._window import get_window

if TYPE_CHECKING:
    from .._typing import ArrayLike, ComplexArray

__all__ = ["phase_vocoder"]

_pv_frames = cfunc("sk_phase_vocoder_frames")
_pv = {A.F32: cfunc("sk_phase_vocoder_f32"), A.F64: cfunc("sk_phase_vocoder_f64")}


def _stretch_rate(rate: Any, func: str) -> float:
    if isinstance(rate, (str, bytes)):
        raise TypeError(f"{func}: rate must be a number, got {rate!r}")
    try:
        r = float(rate)
    except (TypeError, ValueError):
        raise TypeError(f"{func}: rate must be a number, got {rate!r}") from None
    if not (math.isfinite(r) and r > 0):
        raise ValueError(f"{func}: rate must be finite and positive, got {rate!r}")
    return r


def _window64(window: Any, wl: int, func: str) -> Any:
    if isinstance(window, (str, tuple)):
        return get_window(window, wl, True, np.float64)
    w = np.asarray(window.cpu().numpy() if A.is_tensor(window) else window)
    if w.dtype.kind not in "fiu" or w.shape != (wl,):
        raise ValueError(f"{func}: window must be a name or a real array of shape ({wl},), got "
                         f"{A.describe(window)} of shape {w.shape}")
    return np.ascontiguousarray(w, dtype=np.float64)


def phase_vocoder(D: ArrayLike, *, rate: float, hop_length: Optional[int] = None,
                  n_fft: Optional[int] = None) -> ComplexArray:
    """``librosa.phase_vocoder``: speed a spectrogram up by ``rate`` (``sk_phase_vocoder_*``).

    Output frame ``t`` reads input frames ``floor(t * rate)`` and the next (zeros past the
    end): the magnitude is interpolated linearly by ``t * rate mod 1``, the phase starts at
    frame 0's and advances by the two frames' phase difference. Also equal to
    ``torchaudio.functional.phase_vocoder(D, rate, phase_advance)`` for any ``phase_advance``
    (float64; the expected phase advance cancels out of the wrapped increment).

    Parameters
    ----------
    D : ndarray or Tensor, complex64 or complex128, shape (..., n_freq, frames)
        STFT matrix (librosa's or :func:`sigkern.stft`'s; the frame-major layout of
        :func:`sigkern.stft` is read zero-copy, other layouts are copied once). Leading axes
        are channels (one C call for all).
    rate : float
        Speed-up factor (> 1 shortens).
    hop_length, n_fft : int, optional
        librosa's; checked (``n_fft // 2 + 1 == n_freq``, ``hop_length >= 1``) but the result
        does not depend on them.

    Returns
    -------
    ndarray or Tensor, D's dtype, shape (..., n_freq, ceil(frames / rate))
        In :func:`sigkern.stft`'s frame-major layout (a transposed view of a C-contiguous
        ``(..., frames, n_freq)`` buffer). Computed in float64; complex64 results are the
        float64 ones rounded (librosa keeps its complex64 path's phase accumulator in float32,
        which drifts by up to ~1e-2 rad over long signals).

    Raises
    ------
    TypeError
        Real input.
    ValueError
        A rate that is not finite and positive, fewer than two dimensions, no frames, or an
        ``n_fft`` that does not match ``n_freq``.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(16000)
    >>> S = sigkern.stft(x, 512, window="hann")
    >>> sigkern.phase_vocoder(S, rate=2.0).shape
    (257, 63)
    """
    func = "phase_vocoder"
    D = _complex_input(D, func, "D")
    A.cpu_tensor(D, func, "D")
    r = _stretch_rate(rate, func)
    if D.ndim < 2:
        raise ValueError(f"{func}: D must have shape (..., n_freq, frames), got {tuple(D.shape)}")
    n_freq, frames = int(D.shape[-2]), int(D.shape[-1])
    if n_fft is not None:
        nf = A.index(n_fft, func, "n_fft")
        if nf < 1 or nf // 2 + 1 != n_freq:
            raise ValueError(f"{func}: n_fft = {nf} does not match D's {n_freq} frequency bins")
    if hop_length is not None and A.index(hop_length, func, "hop_length") < 1:
        raise ValueError(f"{func}: hop_length must be at least 1, got {hop_length}")
    if frames < 1 or n_freq < 1:
        raise ValueError(f"{func}: D has no frames or no bins (shape {tuple(D.shape)})")
    cdt = A.dtype_of(D)
    dt = A.REAL_OF[cdt]
    fr = _new("size_t *")
    st = _pv_frames(frames, r, fr)
    if st:
        _raise(st, "sk_phase_vocoder_frames")
    out_frames = int(fr[0])
    lead = tuple(D.shape[:-2])
    Dt = A.contig(_swap(D))
    buf = B.new_like(D, lead + (out_frames, n_freq), cdt)
    rows = math.prod(lead)
    if rows:
        pd, _ = B.pointer(Dt, cdt, func, "D")
        py, _ = B.pointer(buf, cdt, func, "out", writable=True)
        st = _pv[dt](pd, n_freq, frames, rows, r, py, rows * out_frames * n_freq)
        if st:
            _raise(st, f"sk_phase_vocoder_{SFX[dt]}")
    res: ComplexArray = _swap(buf)
    return res
