"""MFCC as librosa computes it (C: ``sk_melspec_*``, ``sk_power_to_db_*``, ``sk_dct_*``; Rust:
``src/kernels/spectral/mel.rs``, ``src/kernels/spectral/dct.rs``): :func:`mfcc` with
``librosa.feature.mfcc``'s signature."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

import numpy as np

from .. import _args as A
from ..spectral._dct import dct
from ..spectral._mel import melspectrogram
from ..spectral._power import power_to_db

if TYPE_CHECKING:
    from .._typing import ArrayLike, FloatArray, MelNorm

__all__ = ["mfcc"]


def mfcc(*, y: Optional[ArrayLike] = None, sr: float = 22050, S: Optional[ArrayLike] = None,
         n_mfcc: int = 20, dct_type: int = 2, norm: Optional[str] = "ortho", lifter: float = 0,
         mel_norm: Union[MelNorm, float] = "slaney", **kwargs: Any) -> FloatArray:
    """``librosa.feature.mfcc``: mel-frequency cepstral coefficients of a signal or of a log-mel
    spectrogram.

    With ``y``: ``S = power_to_db(melspectrogram(y=y, sr=sr, norm=mel_norm, **kwargs))``
    (:func:`sigkern.melspectrogram`, :func:`sigkern.power_to_db`); then the DCT of ``S`` along
    the mel axis (:func:`sigkern.dct`, ``type=dct_type``, ``norm``), its first ``n_mfcc``
    rows, and with ``lifter > 0`` librosa's lifter ``1 + (lifter/2)·sin(π(i+1)/lifter)``.

    Parameters
    ----------
    y : ndarray or Tensor, float32 or float64, shape (..., n), optional
        Audio (leading axes are channels).
    sr : float, default 22050
        Sample rate of ``y``.
    S : ndarray or Tensor, shape (..., n_mels, frames), optional
        A log-power mel spectrogram, used instead of ``y``.
    n_mfcc : int, default 20
        Coefficients kept.
    dct_type : {1, 2, 3}, default 2
        The DCT type (as scipy).
    norm : {None, "ortho"}, default "ortho"
        The DCT's normalisation (``"backward"``/``"forward"`` as :func:`sigkern.dct`).
    lifter : float, default 0
        Cepstral liftering (0: none; must be ≥ 0).
    mel_norm : {"slaney", None} or float, default "slaney"
        The filterbank normalisation (``norm=`` of :func:`sigkern.melspectrogram`).
    **kwargs
        The other arguments of :func:`sigkern.melspectrogram` (``n_fft``, ``hop_length``,
        ``win_length``, ``window``, ``center``, ``pad_mode``, ``power``, ``n_mels``, ``fmin``,
        ``fmax``, ``htk``).

    Returns
    -------
    ndarray or Tensor, shape (..., n_mfcc, frames), the input's dtype

    Raises
    ------
    ValueError
        Neither ``y`` nor ``S``, a negative ``lifter``, a bad ``dct_type`` or ``norm``.

    Examples
    --------
    >>> y = np.random.default_rng(0).standard_normal(22050)
    >>> sigkern.feature.mfcc(y=y, sr=22050).shape
    (20, 44)
    """
    func = "feature.mfcc"
    if dct_type not in (1, 2, 3) or isinstance(dct_type, bool):
        raise ValueError(f"{func}: dct_type must be 1, 2 or 3, got {dct_type!r}")
    n_mfcc = A.index(n_mfcc, func, "n_mfcc")
    if not lifter >= 0:
        raise ValueError(f"{func}: lifter = {lifter} must be a non-negative number")
    if S is None:
        if y is None:
            raise ValueError(f"{func}: pass the audio y= or a log-mel spectrogram S=")
        S = power_to_db(melspectrogram(y, sr=sr, norm=mel_norm, **kwargs))  # type: ignore[arg-type]
    else:
        S = A.promote(S, func, "S", complex_ok=False)
        if S.ndim < 2:  # type: ignore[union-attr]
            raise ValueError(f"{func}: S must have shape (..., n_mels, frames), got "
                             f"{A.describe(S)}")
    M: Any = dct(S, axis=-2, type=dct_type, norm=norm)[..., :n_mfcc, :]  # type: ignore[arg-type]
    if lifter > 0:
        k = M.shape[-2]
        li = 1 + (lifter / 2) * np.sin(np.pi * np.arange(1, 1 + k, dtype=np.float64) / lifter)
        dt = A.dtype_of(M)
        li = li.astype(dt)[:, None]
        if A.is_tensor(M):
            li = A._torch().from_numpy(li)
        M = M * li
    return M  # type: ignore[no-any-return]
