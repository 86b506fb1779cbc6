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
from ._errors import BufferTooSmallError, error
from ._handle import Handle, closed_error
from ._lib import cfunc, ffi

if TYPE_CHECKING:
    from ._typing import Array, ArrayLike, FloatArray

__all__ = ["spectrogram", "fbank", "mfcc", "OnlineFbank", "OnlineMfcc"]

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


_online_new = {F32: cfunc("sk_kaldi_online_f32_new"), F64: cfunc("sk_kaldi_online_f64_new")}
_online_accept = {F32: cfunc("sk_kaldi_online_f32_accept"),
                  F64: cfunc("sk_kaldi_online_f64_accept")}
_online_finish = {F32: cfunc("sk_kaldi_online_f32_finish"),
                  F64: cfunc("sk_kaldi_online_f64_finish")}
_online_accept_frames = cfunc("sk_kaldi_online_accept_frames")
_online_finish_frames = cfunc("sk_kaldi_online_finish_frames")
_online_reset = cfunc("sk_kaldi_online_reset")
_online_info = cfunc("sk_kaldi_online_info")
_TOO_SMALL = BufferTooSmallError.code


class _Online(Handle, free="sk_kaldi_online_free"):
    """The stream behind :class:`OnlineFbank` and :class:`OnlineMfcc`: frames are kept in
    ``_frames``, whose row 0 is frame ``_base``; frames ``_first`` … ``_count − 1`` are
    available."""

    __slots__ = ("_h", "_dt", "_ct", "_dim", "_rate", "_shift", "_hop", "_frames", "_yp",
                 "_base", "_count", "_first", "_finished", "_fr", "__weakref__")
    _KIND = _FBANK
    _NAME = "OnlineFbank"

    def _setup(self, opts: Any, dtype: Any) -> None:
        func = self._NAME
        self._h = ffi.NULL
        dt = A.float_dtype_arg(dtype, func)
        pp = ffi.new("SkKaldiOnline **")
        st = _online_new[dt](self._KIND, opts, pp)
        if st:
            raise error(st, f"sk_kaldi_online_{SFX[dt]}_new")
        self._h = pp[0]
        self._dt = dt
        self._ct = "float[]" if dt == F32 else "double[]"
        d = ffi.new("size_t *")
        st = _online_info(self._h, d, ffi.NULL, ffi.NULL, ffi.NULL)
        if st:
            raise error(st, "sk_kaldi_online_info")
        self._dim = int(d[0])
        self._rate = float(opts.sample_frequency)
        self._hop = int(opts.sample_frequency * opts.frame_shift / 1000.0)
        self._shift = self._hop / self._rate
        self._frames = np.empty((64, self._dim), dt)
        self._yp = ffi.from_buffer(self._ct, self._frames, require_writable=True)
        self._base = self._count = self._first = 0
        self._finished = False
        self._fr = ffi.new("size_t *")

    def _live(self, cname: str) -> None:
        if self._h == ffi.NULL:
            raise closed_error(-7, cname, f"this {self._NAME}")

    def _room(self, k: int) -> int:
        """The row of ``_frames`` where ``k`` new frames go (the available frames moved to the
        front of a larger buffer when they do not fit)."""
        keep = self._count - self._first
        start = self._first - self._base
        buf = self._frames
        if start + keep + k > buf.shape[0]:
            new = np.empty((max(64, 2 * (keep + k)), self._dim), self._dt)
            new[:keep] = buf[start:start + keep]
            self._frames = new
            self._yp = ffi.from_buffer(self._ct, new, require_writable=True)
            self._base = self._first
            start = 0
        return start + keep

    def _grow(self, k: int) -> Any:
        """The rows for ``k`` new frames (see :meth:`_room`)."""
        r = self._room(k)
        return self._frames[r:r + k]

    @property
    def dim(self) -> int:
        """Values a frame."""
        return self._dim

    @property
    def frame_shift_in_seconds(self) -> float:
        """The frame shift in seconds."""
        return self._shift

    @property
    def num_frames_ready(self) -> int:
        """Frames computed so far (popped frames included, as kaldi_native_fbank counts)."""
        return self._count

    def accept_waveform(self, sample_rate: float, samples: ArrayLike) -> None:
        """Appends samples; every frame whose samples are now all there is computed.

        Parameters
        ----------
        sample_rate : float
            Must equal the stream's ``sample_frequency``.
        samples : ndarray, Tensor or sequence of floats, shape (n,)
            Converted to the stream's dtype.

        Examples
        --------
        >>> f = sigkern.kaldi.OnlineFbank()
        >>> f.accept_waveform(16000, np.zeros(800, np.float32)); f.num_frames_ready
        3
        """
        if self._h == ffi.NULL:
            self._live(f"sk_kaldi_online_{SFX[self._dt]}_accept")
        if sample_rate != self._rate and float(sample_rate) != self._rate:
            raise ValueError(f"{self._NAME}.accept_waveform: sample_rate {sample_rate} differs "
                             f"from the stream's sample_frequency {self._rate}")
        x: Any = samples
        if not (type(x) is np.ndarray and x.dtype == self._dt and x.ndim == 1
                and x.flags.c_contiguous):
            x = np.ascontiguousarray(x.numpy() if A.is_tensor(x) else x, dtype=self._dt)
            if x.ndim != 1:
                raise ValueError(f"{self._NAME}.accept_waveform: samples must be "
                                 f"one-dimensional, got shape {x.shape}")
        n = x.size
        d = self._dim
        # room for the most frames n samples can complete (n // hop + 2), so that one call
        # usually does; a stream that needs more says so and consumes nothing
        k = n // self._hop + 2
        r = self._room(k)
        px = ffi.from_buffer(self._ct, x)
        st = _online_accept[self._dt](self._h, px, n, self._yp + r * d, k * d, self._fr)
        if st == _TOO_SMALL:
            st = _online_accept_frames(self._h, self._fr, n)
            if st:
                raise error(st, "sk_kaldi_online_accept_frames")
            k = int(self._fr[0])
            r = self._room(k)
            st = _online_accept[self._dt](self._h, px, n, self._yp + r * d, k * d, self._fr)
        if st:
            raise error(st, f"sk_kaldi_online_{SFX[self._dt]}_accept")
        self._count += self._fr[0]

    def input_finished(self) -> None:
        """Ends the input: computes the last frames (those that reflect at the end without
        ``snip_edges``). Later :meth:`accept_waveform` calls fail until :meth:`reset`.

        Examples
        --------
        >>> f = sigkern.kaldi.OnlineFbank(snip_edges=False)
        >>> f.accept_waveform(16000, np.zeros(800, np.float32)); f.input_finished()
        >>> f.num_frames_ready
        5
        """
        self._live(f"sk_kaldi_online_{SFX[self._dt]}_finish")
        st = _online_finish_frames(self._h, self._fr)
        if st:
            raise error(st, "sk_kaldi_online_finish_frames")
        y = self._grow(int(self._fr[0]))
        st = _online_finish[self._dt](self._h, ffi.from_buffer(self._ct, y, require_writable=True),
                                      y.size, self._fr)
        if st:
            raise error(st, f"sk_kaldi_online_{SFX[self._dt]}_finish")
        self._count += int(self._fr[0])
        self._finished = True

    def is_last_frame(self, frame: int) -> bool:
        """Whether ``frame`` is the last frame of the signal (known after
        :meth:`input_finished`).

        Parameters
        ----------
        frame : int
            A frame index from the stream's start.

        Returns
        -------
        bool

        Examples
        --------
        >>> f = sigkern.kaldi.OnlineFbank()
        >>> f.accept_waveform(16000, np.zeros(400, np.float32)); f.input_finished()
        >>> f.is_last_frame(0)
        True
        """
        return self._finished and frame == self._count - 1

    def get_frame(self, frame: int) -> FloatArray:
        """Frame ``frame`` (an index from the stream's start; not popped), a copy.

        Parameters
        ----------
        frame : int
            A frame index from the stream's start (``IndexError`` if popped or not ready).

        Returns
        -------
        ndarray, shape (dim,), the stream's dtype

        Examples
        --------
        >>> f = sigkern.kaldi.OnlineFbank(num_mel_bins=80)
        >>> f.accept_waveform(16000, np.zeros(400, np.float32)); f.get_frame(0).shape
        (80,)
        """
        i = A.index(frame, f"{self._NAME}.get_frame", "frame")
        if not self._first <= i < self._count:
            raise IndexError(f"{self._NAME}.get_frame: frame {frame} is not available (frames "
                             f"{self._first} to {self._count - 1} are)")
        return self._frames[i - self._base].copy()  # type: ignore[no-any-return]

    def get_frames(self) -> FloatArray:
        """Every available frame (computed and not popped) as one array (a copy).

        Returns
        -------
        ndarray, shape (frames, dim), the stream's dtype

        Examples
        --------
        >>> f = sigkern.kaldi.OnlineFbank()
        >>> f.accept_waveform(16000, np.zeros(16000, np.float32)); f.get_frames().shape
        (98, 23)
        """
        s = self._first - self._base
        return self._frames[s:s + self._count - self._first].copy()

    def pop(self, n: int) -> None:
        """Discards the ``n`` oldest available frames (their indices stay used).

        Parameters
        ----------
        n : int
            Frames to discard (at most the available ones are).

        Examples
        --------
        >>> f = sigkern.kaldi.OnlineFbank()
        >>> f.accept_waveform(16000, np.zeros(800, np.float32)); f.pop(2); f.get_frames().shape
        (1, 23)
        """
        n = A.index(n, f"{self._NAME}.pop", "n")
        self._first = min(self._first + n, self._count)

    def reset(self) -> None:
        """Forgets the signal and its frames: the stream starts anew.

        Examples
        --------
        >>> f = sigkern.kaldi.OnlineFbank()
        >>> f.accept_waveform(16000, np.zeros(800, np.float32)); f.reset(); f.num_frames_ready
        0
        """
        self._live("sk_kaldi_online_reset")
        st = _online_reset(self._h)
        if st:
            raise error(st, "sk_kaldi_online_reset")
        self._base = self._count = self._first = 0
        self._finished = False


class OnlineFbank(_Online):
    """Streaming Kaldi filterbank features, modelled on ``kaldi_native_fbank.OnlineFbank``
    (``sk_kaldi_online_*``): :meth:`accept_waveform` chunks of any size, each frame is computed
    as soon as its samples are there, :meth:`input_finished` computes the last ones; the frames
    equal :func:`fbank` on the whole signal bit for bit, whatever the chunking.

    Parameters
    ----------
    blackman_coeff, dither, energy_floor, frame_length, frame_shift, high_freq, htk_compat,
    low_freq, num_mel_bins, preemphasis_coefficient, raw_energy, remove_dc_offset,
    round_to_power_of_two, sample_frequency, snip_edges, use_energy, use_log_fbank,
    use_power, vtln_high, vtln_low, vtln_warp, window_type
        As :func:`fbank` (torchaudio's names and defaults; ``subtract_mean`` and
        ``min_duration`` need the whole signal and are not offered).
    seed : int, optional
        Seed of the dither noise, as :func:`fbank`.
    dtype : np.float32 (default) or np.float64
        The sample and feature type.

    Notes
    -----
    One thread at a time per stream (a concurrent call raises :class:`InvalidHandleError`).
    Frames are kept until :meth:`pop`; ``close()`` frees the C stream.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(16000).astype(np.float32)
    >>> f = sigkern.kaldi.OnlineFbank(num_mel_bins=80)
    >>> for chunk in np.split(x, 10):
    ...     f.accept_waveform(16000, chunk)
    >>> f.input_finished()
    >>> np.array_equal(f.get_frames(), sigkern.kaldi.fbank(x, num_mel_bins=80))
    True
    """

    __slots__ = ()

    def __init__(self, blackman_coeff: float = 0.42, dither: float = 0.0,
                 energy_floor: float = 1.0, frame_length: float = 25.0,
                 frame_shift: float = 10.0, high_freq: float = 0.0, htk_compat: bool = False,
                 low_freq: float = 20.0, num_mel_bins: int = 23,
                 preemphasis_coefficient: float = 0.97, raw_energy: bool = True,
                 remove_dc_offset: bool = True, round_to_power_of_two: bool = True,
                 sample_frequency: float = 16000.0, snip_edges: bool = True,
                 use_energy: bool = False, use_log_fbank: bool = True, use_power: bool = True,
                 vtln_high: float = -500.0, vtln_low: float = 100.0, vtln_warp: float = 1.0,
                 window_type: str = "povey", *, seed: Optional[int] = None,
                 dtype: Any = np.float32) -> None:
        o = _options("OnlineFbank", sample_frequency, window_type, seed, dither,
                     blackman_coeff=blackman_coeff, energy_floor=energy_floor,
                     frame_length=frame_length, frame_shift=frame_shift, high_freq=high_freq,
                     htk_compat=htk_compat, low_freq=low_freq, num_mel_bins=num_mel_bins,
                     preemphasis_coefficient=preemphasis_coefficient, raw_energy=raw_energy,
                     remove_dc_offset=remove_dc_offset,
                     round_to_power_of_two=round_to_power_of_two, snip_edges=snip_edges,
                     use_energy=use_energy, use_log_fbank=use_log_fbank, use_power=use_power,
                     vtln_high=vtln_high, vtln_low=vtln_low, vtln_warp=vtln_warp)
        self._setup(o, dtype)


class OnlineMfcc(_Online):
    """Streaming Kaldi MFCC, modelled on ``kaldi_native_fbank.OnlineMfcc``
    (``sk_kaldi_online_*``); the frames equal :func:`mfcc` on the whole signal bit for bit.

    Parameters
    ----------
    blackman_coeff, cepstral_lifter, dither, energy_floor, frame_length, frame_shift,
    high_freq, htk_compat, low_freq, num_ceps, num_mel_bins, preemphasis_coefficient,
    raw_energy, remove_dc_offset, round_to_power_of_two, sample_frequency, snip_edges,
    use_energy, vtln_high, vtln_low, vtln_warp, window_type
        As :func:`mfcc` (torchaudio's names and defaults).
    seed : int, optional
        Seed of the dither noise.
    dtype : np.float32 (default) or np.float64

    Notes
    -----
    As :class:`OnlineFbank`.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(16000).astype(np.float32)
    >>> f = sigkern.kaldi.OnlineMfcc()
    >>> f.accept_waveform(16000, x); f.input_finished(); f.get_frames().shape
    (98, 13)
    """

    __slots__ = ()
    _KIND = _MFCC
    _NAME = "OnlineMfcc"

    def __init__(self, blackman_coeff: float = 0.42, cepstral_lifter: float = 22.0,
                 dither: float = 0.0, energy_floor: float = 1.0, frame_length: float = 25.0,
                 frame_shift: float = 10.0, high_freq: float = 0.0, htk_compat: bool = False,
                 low_freq: float = 20.0, num_ceps: int = 13, num_mel_bins: int = 23,
                 preemphasis_coefficient: float = 0.97, raw_energy: bool = True,
                 remove_dc_offset: bool = True, round_to_power_of_two: bool = True,
                 sample_frequency: float = 16000.0, snip_edges: bool = True,
                 use_energy: bool = False, vtln_high: float = -500.0, vtln_low: float = 100.0,
                 vtln_warp: float = 1.0, window_type: str = "povey", *,
                 seed: Optional[int] = None, dtype: Any = np.float32) -> None:
        o = _options("OnlineMfcc", sample_frequency, window_type, seed, dither,
                     blackman_coeff=blackman_coeff, cepstral_lifter=cepstral_lifter,
                     energy_floor=energy_floor, frame_length=frame_length,
                     frame_shift=frame_shift, high_freq=high_freq, htk_compat=htk_compat,
                     low_freq=low_freq, num_ceps=num_ceps, num_mel_bins=num_mel_bins,
                     preemphasis_coefficient=preemphasis_coefficient, raw_energy=raw_energy,
                     remove_dc_offset=remove_dc_offset,
                     round_to_power_of_two=round_to_power_of_two, snip_edges=snip_edges,
                     use_energy=use_energy, vtln_high=vtln_high, vtln_low=vtln_low,
                     vtln_warp=vtln_warp)
        self._setup(o, dtype)
