"""Kaldi-compatible speech features (C: ``sk_kaldi_*``; Rust: ``src/kernels/speech/kaldi.rs``):
:func:`spectrogram`, :func:`fbank` and :func:`mfcc` with the signatures, options and defaults of
``torchaudio.compliance.kaldi``, so that ::

    import torchaudio.compliance.kaldi as kaldi

becomes ``import sigkern.kaldi as kaldi`` and nothing else changes. Each call runs the whole
recipe in one C call; a batch of equal-length signals (``channel=None``) runs in one call too,
its frames split over the library's threads.

Differences from torchaudio, all additions: numpy arrays as well as tensors (the result is of
the input's kind and dtype), ``channel=None`` for a batch, ``seed=`` for reproducible dither,
``out=``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Optional, Tuple

import numpy as np

from . import _args as A
from . import _buffers as B
from ._args import F32, F64, SFX
from ._errors import error
from ._lib import cfunc, ffi

if TYPE_CHECKING:
    from ._typing import Array, ArrayLike, FloatArray

__all__ = ["spectrogram", "fbank", "mfcc"]

_kaldi = {F32: cfunc("sk_kaldi_f32"), F64: cfunc("sk_kaldi_f64")}
_shape = cfunc("sk_kaldi_shape")
_init = cfunc("sk_kaldi_options_init")

_SPECTROGRAM, _FBANK, _MFCC = 0, 1, 2
_WINDOWS = {"hamming": 0, "hanning": 1, "povey": 2, "rectangular": 3, "blackman": 4}
_NAMES = {_SPECTROGRAM: "spectrogram", _FBANK: "fbank", _MFCC: "mfcc"}


def _options(func: str, sample_frequency: float, window_type: str, seed: Optional[int],
             dither: float, **kw: Any) -> Any:
    """A filled ``SkKaldiOptions`` (torchaudio's defaults for whatever ``kw`` leaves out)."""
    o = ffi.new("SkKaldiOptions *")
    _init(o)
    o.sample_frequency = A.rate(sample_frequency, func, "sample_frequency")
    if window_type not in _WINDOWS:
        raise ValueError(f"{func}: window_type must be one of {', '.join(_WINDOWS)}; got "
                         f"{window_type!r}")
    o.window_type = _WINDOWS[window_type]
    o.dither = float(dither)
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little") if dither != 0.0 else 0
    else:
        seed = A.index(seed, func, "seed")
    o.seed = seed % (1 << 64)
    for name, v in kw.items():
        if name in ("num_mel_bins", "num_ceps"):
            setattr(o, name, A.index(v, func, name))
        elif isinstance(v, bool) or name in (
                "remove_dc_offset", "round_to_power_of_two", "snip_edges", "raw_energy",
                "use_energy", "use_log_fbank", "use_power", "htk_compat", "subtract_mean"):
            setattr(o, name, 1 if v else 0)
        else:
            setattr(o, name, float(v))
    return o


def _run(kind: int, waveform: ArrayLike, channel: Optional[int], opts: Any,
         out: Optional[Array]) -> FloatArray:
    """Selects the channel or batch, sizes and fills the output."""
    func = _NAMES[kind]
    x: Any = waveform
    if not (isinstance(x, np.ndarray) or A.is_tensor(x)):
        x = A.as_input(x, func, "waveform")
    dt = A.float_dtype(x, func, "waveform")
    if x.ndim == 0:
        raise ValueError(f"{func}: waveform must have at least one dimension (time), got a scalar")
    single = x.ndim == 1
    if channel is not None and not single:
        ch = max(A.index(channel, func, "channel") if channel >= 0 else 0, 0)
        if ch >= x.shape[-2]:
            raise ValueError(f"{func}: channel {channel} is out of range for a waveform with "
                             f"{x.shape[-2]} channel(s)")
        x = x[..., ch, :]
        single = x.ndim == 1
    lead: Tuple[int, ...] = tuple(x.shape[:-1])
    n = int(x.shape[-1])
    rows = int(np.prod(lead)) if lead else 1
    frames, dim = ffi.new("size_t *"), ffi.new("size_t *")
    st = _shape(kind, opts, frames, dim, n)
    if st:
        raise error(st, "sk_kaldi_shape")
    fr, d = int(frames[0]), int(dim[0])
    if fr == 0 and single:
        shape: Tuple[int, ...] = (0,)  # torchaudio's result for a signal under min_duration
    else:
        shape = lead + (fr, d)
    if out is None:
        y = B.new_like(x, shape, dt)
    else:
        A.check_out(out, shape, dt, func)
        A.writable_out(out, func)
        y = out
    if rows == 0 or fr == 0:
        return y  # type: ignore[no-any-return]
    x2 = x.reshape(rows, n) if not single else x
    if not A.is_contig(x2) and not (x2.ndim == 2 and A.is_strided_1d(x2[0])):
        x2 = A.contig(x2)
    px, stride = B.planar(x2, dt, func, "waveform")
    py, _ = B.pointer(y, dt, func, "out", writable=True)
    st = _kaldi[dt](kind, opts, px, stride, rows, py, rows * fr * d, n)
    if st:
        raise error(st, f"sk_kaldi_{SFX[dt]}")
    return y  # type: ignore[no-any-return]


def spectrogram(waveform: ArrayLike, blackman_coeff: float = 0.42, channel: Optional[int] = -1,
                dither: float = 0.0, energy_floor: float = 1.0, frame_length: float = 25.0,
                frame_shift: float = 10.0, min_duration: float = 0.0,
                preemphasis_coefficient: float = 0.97, raw_energy: bool = True,
                remove_dc_offset: bool = True, round_to_power_of_two: bool = True,
                sample_frequency: float = 16000.0, snip_edges: bool = True,
                subtract_mean: bool = False, window_type: str = "povey", *,
                seed: Optional[int] = None, out: Optional[Array] = None) -> FloatArray:
    """Kaldi's log power spectrogram, ``torchaudio.compliance.kaldi.spectrogram``
    (``sk_kaldi_*`` with ``SK_KALDI_SPECTROGRAM``).

    Each frame: dither, DC removal, log energy (raw or after the window), pre-emphasis, window,
    zero padding to the FFT length, ``log(max(|X|², ε))`` with the log energy in column 0.

    Parameters
    ----------
    waveform : ndarray or Tensor, float32 or float64, shape (c, n), (n,) or (..., n)
        The signal(s); other array-likes become float64.
    blackman_coeff, dither, energy_floor, frame_length, frame_shift, min_duration,
    preemphasis_coefficient, raw_energy, remove_dc_offset, round_to_power_of_two,
    sample_frequency, snip_edges, subtract_mean, window_type
        As torchaudio (lengths in milliseconds; ``window_type`` one of "hamming", "hanning",
        "povey", "rectangular", "blackman").
    channel : int or None, default -1
        The channel (row of axis -2) to use, -1 meaning 0, as torchaudio; ``None``: every
        leading index is a signal of a batch, the result gets the leading axes.
    seed : int, optional
        Seed of the dither noise (only used when ``dither`` ≠ 0): the same seed gives the same
        result. None: a fresh seed each call, as torchaudio draws fresh noise.
    out : ndarray or Tensor, optional
        Where to write the result (its shape and dtype).

    Returns
    -------
    ndarray or Tensor (waveform's kind and dtype), shape (frames, padded // 2 + 1)
        With ``channel=None``: (..., frames, padded // 2 + 1). A signal shorter than
        ``min_duration`` gives shape (0,) as in torchaudio.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(16000)
    >>> sigkern.kaldi.spectrogram(x).shape
    (98, 257)
    """
    o = _options("spectrogram", sample_frequency, window_type, seed, dither,
                 blackman_coeff=blackman_coeff, energy_floor=energy_floor,
                 frame_length=frame_length, frame_shift=frame_shift, min_duration=min_duration,
                 preemphasis_coefficient=preemphasis_coefficient, raw_energy=raw_energy,
                 remove_dc_offset=remove_dc_offset, round_to_power_of_two=round_to_power_of_two,
                 snip_edges=snip_edges, subtract_mean=subtract_mean)
    return _run(_SPECTROGRAM, waveform, channel, o, out)


def fbank(waveform: ArrayLike, blackman_coeff: float = 0.42, channel: Optional[int] = -1,
          dither: float = 0.0, energy_floor: float = 1.0, frame_length: float = 25.0,
          frame_shift: float = 10.0, high_freq: float = 0.0, htk_compat: bool = False,
          low_freq: float = 20.0, min_duration: float = 0.0, num_mel_bins: int = 23,
          preemphasis_coefficient: float = 0.97, raw_energy: bool = True,
          remove_dc_offset: bool = True, round_to_power_of_two: bool = True,
          sample_frequency: float = 16000.0, snip_edges: bool = True,
          subtract_mean: bool = False, use_energy: bool = False, use_log_fbank: bool = True,
          use_power: bool = True, vtln_high: float = -500.0, vtln_low: float = 100.0,
          vtln_warp: float = 1.0, window_type: str = "povey", *, seed: Optional[int] = None,
          out: Optional[Array] = None) -> FloatArray:
    """Kaldi's mel filterbank features, ``torchaudio.compliance.kaldi.fbank``
    (``sk_kaldi_*`` with ``SK_KALDI_FBANK``): what k2/icefall, sherpa, WeNet, ESPnet and the
    speaker-verification models feed on.

    Each frame as :func:`spectrogram`, then power (or magnitude) through Kaldi's triangular mel
    bands (VTLN-warped when ``vtln_warp`` ≠ 1), ``log(max(e, ε))``, the log energy first (last
    with ``htk_compat``) when ``use_energy``.

    Parameters
    ----------
    waveform : ndarray or Tensor, float32 or float64, shape (c, n), (n,) or (..., n)
        The signal(s); other array-likes become float64.
    blackman_coeff, dither, energy_floor, frame_length, frame_shift, high_freq, htk_compat,
    low_freq, min_duration, num_mel_bins, preemphasis_coefficient, raw_energy,
    remove_dc_offset, round_to_power_of_two, sample_frequency, snip_edges, subtract_mean,
    use_energy, use_log_fbank, use_power, vtln_high, vtln_low, vtln_warp, window_type
        As torchaudio (``high_freq`` ≤ 0 and negative ``vtln_high`` are offsets from Nyquist).
    channel : int or None, default -1
        As :func:`spectrogram`.
    seed : int, optional
        Seed of the dither noise, as :func:`spectrogram`.
    out : ndarray or Tensor, optional
        Where to write the result.

    Returns
    -------
    ndarray or Tensor (waveform's kind and dtype), shape (frames, num_mel_bins + use_energy)
        With ``channel=None``: (..., frames, num_mel_bins + use_energy).

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(16000).astype(np.float32)
    >>> sigkern.kaldi.fbank(x, num_mel_bins=80).shape
    (98, 80)
    """
    o = _options("fbank", sample_frequency, window_type, seed, dither,
                 blackman_coeff=blackman_coeff, energy_floor=energy_floor,
                 frame_length=frame_length, frame_shift=frame_shift, high_freq=high_freq,
                 htk_compat=htk_compat, low_freq=low_freq, min_duration=min_duration,
                 num_mel_bins=num_mel_bins, preemphasis_coefficient=preemphasis_coefficient,
                 raw_energy=raw_energy, remove_dc_offset=remove_dc_offset,
                 round_to_power_of_two=round_to_power_of_two, snip_edges=snip_edges,
                 subtract_mean=subtract_mean, use_energy=use_energy,
                 use_log_fbank=use_log_fbank, use_power=use_power, vtln_high=vtln_high,
                 vtln_low=vtln_low, vtln_warp=vtln_warp)
    return _run(_FBANK, waveform, channel, o, out)


def mfcc(waveform: ArrayLike, blackman_coeff: float = 0.42, cepstral_lifter: float = 22.0,
         channel: Optional[int] = -1, dither: float = 0.0, energy_floor: float = 1.0,
         frame_length: float = 25.0, frame_shift: float = 10.0, high_freq: float = 0.0,
         htk_compat: bool = False, low_freq: float = 20.0, num_ceps: int = 13,
         min_duration: float = 0.0, num_mel_bins: int = 23,
         preemphasis_coefficient: float = 0.97, raw_energy: bool = True,
         remove_dc_offset: bool = True, round_to_power_of_two: bool = True,
         sample_frequency: float = 16000.0, snip_edges: bool = True,
         subtract_mean: bool = False, use_energy: bool = False, vtln_high: float = -500.0,
         vtln_low: float = 100.0, vtln_warp: float = 1.0, window_type: str = "povey", *,
         seed: Optional[int] = None, out: Optional[Array] = None) -> FloatArray:
    """Kaldi's MFCC, ``torchaudio.compliance.kaldi.mfcc`` (``sk_kaldi_*`` with
    ``SK_KALDI_MFCC``).

    The log mel energies of :func:`fbank` (power, log), Kaldi's DCT (orthonormal, C0 scaled by
    ``sqrt(1/num_mel_bins)``), the lifter ``1 + L/2·sin(πi/L)``; the log energy replaces C0 with
    ``use_energy``; ``htk_compat`` moves C0 last (times √2 without ``use_energy``).

    Parameters
    ----------
    waveform : ndarray or Tensor, float32 or float64, shape (c, n), (n,) or (..., n)
        The signal(s); other array-likes become float64.
    blackman_coeff, cepstral_lifter, dither, energy_floor, frame_length, frame_shift,
    high_freq, htk_compat, low_freq, num_ceps, min_duration, num_mel_bins,
    preemphasis_coefficient, raw_energy, remove_dc_offset, round_to_power_of_two,
    sample_frequency, snip_edges, subtract_mean, use_energy, vtln_high, vtln_low, vtln_warp,
    window_type
        As torchaudio.
    channel : int or None, default -1
        As :func:`spectrogram`.
    seed : int, optional
        Seed of the dither noise, as :func:`spectrogram`.
    out : ndarray or Tensor, optional
        Where to write the result.

    Returns
    -------
    ndarray or Tensor (waveform's kind and dtype), shape (frames, num_ceps)
        With ``channel=None``: (..., frames, num_ceps).

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(16000)
    >>> sigkern.kaldi.mfcc(x).shape
    (98, 13)
    """
    o = _options("mfcc", sample_frequency, window_type, seed, dither,
                 blackman_coeff=blackman_coeff, cepstral_lifter=cepstral_lifter,
                 energy_floor=energy_floor, frame_length=frame_length, frame_shift=frame_shift,
                 high_freq=high_freq, htk_compat=htk_compat, low_freq=low_freq,
                 num_ceps=num_ceps, min_duration=min_duration, num_mel_bins=num_mel_bins,
                 preemphasis_coefficient=preemphasis_coefficient, raw_energy=raw_energy,
                 remove_dc_offset=remove_dc_offset, round_to_power_of_two=round_to_power_of_two,
                 snip_edges=snip_edges, subtract_mean=subtract_mean, use_energy=use_energy,
                 vtln_high=vtln_high, vtln_low=vtln_low, vtln_warp=vtln_warp)
    return _run(_MFCC, waveform, channel, o, out)
