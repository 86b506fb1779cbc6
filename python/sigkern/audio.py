"""Audio buffers: PCM conversion, float32 ↔ float64, channel layout, gain ramps, crossfades,
mixes and decibels (C: ``sk_pcm_*``, ``sk_convert_*``, ``sk_(de)interleave*``,
``sk_gain_ramp_*``, ``sk_crossfade_*``, ``sk_mix_*``, ``sk_amp_to_db_*``, ``sk_db_to_amp_*``).

Arrays are numpy arrays or CPU torch tensors; outputs have the input's kind and keep its shape
(the last axis is time, leading axes channels). One-dimensional strided views (``x[::2]``, a
column ``m[:, 0]`` of interleaved frames) go to the strided PCM and conversion kernels,
zero-copy.

PCM rules (the C library's): integer → float divides by ``2**(bits-1)`` (``-32768 → -1.0``
exactly; ``uint8`` is offset binary, code ``c`` means ``c - 128``); float → integer multiplies
by ``2**(bits-1)``, rounds half to even (``np.rint``) and saturates (``1.0`` gives the largest
code); NaN or ±inf raise :class:`NonFiniteError` with nothing written. 24-bit samples are packed
little-endian, three bytes a sample, as in WAV files.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _args as A
from . import _buffers as B
from . import core as _core
from ._args import CARRAY, F32, F64, I16, I32, SFX, U8, ndarray
from ._errors import OverlapError, error, status_name
from ._lib import cfunc, ffi

if TYPE_CHECKING:
    from ._typing import Array, ArrayLike, DTypeLike, FloatArray, IntArray, IntNDArray, PcmFormat

__all__ = [
    "pcm_to_float",
    "float_to_pcm",
    "convert",
    "interleave",
    "deinterleave",
    "gain_ramp",
    "crossfade",
    "mix",
    "amp_to_db",
    "db_to_amp",
    "Ditherer",
    "float_to_pcm_dither",
]

_fb = ffi.from_buffer

# ---------------------------------------------------------------------------------------------
# PCM
# ---------------------------------------------------------------------------------------------

#: format → (short C name, numpy dtype of the code array)
_FORMATS = {
    "int16": ("i16", I16),
    "int24": ("i24", U8),
    "int32": ("i32", I32),
    "uint8": ("u8", U8),
}
_ALIASES = {"i16": "int16", "i24": "int24", "i32": "int32", "u8": "uint8"}
_FORMAT_OF_DTYPE = {I16: "int16", I32: "int32", U8: "uint8"}


class _Pcm:
    """The four C functions of one format and float type (contiguous and strided, both ways)."""

    __slots__ = ("frm", "frm_s", "to", "to_s", "frm_name", "to_name")

    def __init__(self, short: str, sfx: str) -> None:
        self.frm_name = f"sk_pcm_from_{short}_{sfx}"
        self.to_name = f"sk_pcm_to_{short}_{sfx}"
        self.frm = cfunc(self.frm_name)
        self.frm_s = cfunc(f"sk_pcm_from_{short}_strided_{sfx}")
        self.to = cfunc(self.to_name)
        self.to_s = cfunc(f"sk_pcm_to_{short}_strided_{sfx}")


_PCM = {(fmt, dt): _Pcm(short, SFX[dt]) for fmt, (short, _) in _FORMATS.items() for dt in (F32, F64)}
#: fast path of pcm_to_float: (code dtype, float dtype) → (C function, code ctype, float ctype)
_FROM_FAST: Dict[Tuple[Any, Any], Any] = {
    (cdt, dt): (_PCM[(fmt, dt)].frm, CARRAY[cdt], CARRAY[dt], _PCM[(fmt, dt)].frm_name)
    for cdt, fmt in _FORMAT_OF_DTYPE.items()
    for dt in (F32, F64)
}


def _format(fmt: Any, func: str) -> str:
    f = _ALIASES.get(fmt, fmt) if isinstance(fmt, str) else None
    if f not in _FORMATS:
        raise ValueError(f"{func}: unknown format {fmt!r}; use 'int16', 'int24', 'int32' or 'uint8'")
    return f


def _bytes_to_codes(data: Any, fmt: str, channels: Optional[int], func: str) -> np.ndarray:
    """Raw bytes → a numpy code array (uint8 bytes for int24), (n,) or (frames, channels)."""
    if isinstance(data, memoryview) and not data.c_contiguous:
        raise ValueError(f"{func}: the memoryview is not contiguous; pass bytes(data)")
    size = 3 if fmt == "int24" else _FORMATS[fmt][1].itemsize
    raw = np.frombuffer(data, dtype=U8)
    per = size * (channels or 1)
    if raw.size % per:
        what = f"{channels}-channel {fmt} frames ({per} bytes each)" if channels else f"{fmt} samples ({size} bytes each)"
        raise ValueError(f"{func}: {raw.size} bytes are not a whole number of {what}")
    codes = raw if fmt == "int24" else raw.view(_FORMATS[fmt][1])
    if not codes.flags.aligned:  # a memoryview slice at an odd offset: realign (a copy)
        codes = codes.copy()
    return codes


def pcm_to_float(
    data: ArrayLike,
    dtype: DTypeLike = np.float32,
    *,
    format: Optional[PcmFormat] = None,  # noqa: A002 - the name users know (soundfile, wave)
    channels: Optional[int] = None,
    out: Optional[Array] = None,
) -> FloatArray:
    """Integer PCM → float samples: ``code / 2**(bits-1)`` (C: ``sk_pcm_from_<fmt>_f32/f64``,
    the ``_strided`` forms for 1-D views).

    Parameters
    ----------
    data : ndarray or Tensor of int16/int32/uint8, or bytes/bytearray/memoryview
        Integer codes of any shape (kept). ``uint8`` is offset binary unless ``format="int24"``:
        then the last axis holds packed little-endian 3-byte samples and has 3× the length of
        the output's. Raw bytes need ``format`` and give a 1-D array, or ``(frames, channels)``
        with ``channels`` (interleaved frames as in a WAV data chunk).
    dtype : np.float32 or np.float64, default np.float32
        Output dtype.
    format : {"int16", "int24", "int32", "uint8"}, optional
        Sample format ("i16", "i24", "i32", "u8" also accepted). Default: from the array's
        dtype (int16, int32, uint8); required for raw bytes.
    channels : int, optional
        Reshape 1-D data (or raw bytes) into ``(frames, channels)``.
    out : ndarray or Tensor, optional
        Float output of the result's shape and ``dtype`` (may be a 1-D strided view).

    Returns
    -------
    ndarray or Tensor
        Float samples in [-1, 1), shape ``data.shape`` (int24: last axis divided by 3); a
        tensor for tensor data, else a numpy array.

    Raises
    ------
    TypeError
        A float or other non-PCM dtype, a format that does not match the dtype.
    ValueError
        A byte count that is not a whole number of samples/frames, a wrong ``out`` shape,
        non-contiguous multi-dimensional data.

    Examples
    --------
    >>> sigkern.pcm_to_float(np.array([-32768, 0, 16384], np.int16))
    array([-1. ,  0. ,  0.5], dtype=float32)
    >>> stereo = sigkern.pcm_to_float(b"\\x00\\x80\\xff\\x7f", format="int16", channels=2)
    >>> stereo.shape
    (1, 2)
    """
    if type(data) is ndarray and format is None and channels is None and out is None:
        odt = F32 if dtype is np.float32 else (F64 if dtype is np.float64 else None)
        fast = _FROM_FAST.get((data.dtype, odt))
        if fast is not None:
            f, cti, cto, cname = fast
            y = np.empty(data.shape, odt)
            try:
                st = f(_fb(cti, data), _fb(cto, y), data.size)
            except ValueError:
                ret: FloatArray = _pcm_to_float_checked(data, dtype, format, channels, out)
                return ret
            if st:
                raise error(st, cname)
            return y
    ret = _pcm_to_float_checked(data, dtype, format, channels, out)
    return ret


def _pcm_to_float_checked(data: Any, dtype: Any, format: Optional[str], channels: Optional[int], out: Any) -> Any:
    func = "pcm_to_float"
    odt = A.float_dtype_arg(dtype, func)
    if channels is not None:
        channels = A.index(channels, func, "channels")
        if channels < 1:
            raise ValueError(f"{func}: channels must be at least 1, got {channels}")
    if isinstance(data, (bytes, bytearray, memoryview)):
        if format is None:
            raise ValueError(f"{func}: raw bytes need format='int16', 'int24', 'int32' or 'uint8'")
        fmt = _format(format, func)
        data = _bytes_to_codes(data, fmt, channels, func)
    else:
        cdt = A.dtype_of(data)
        if cdt not in _FORMAT_OF_DTYPE:
            raise TypeError(
                f"{func}: data must be int16, int32 or uint8 PCM codes (a numpy array, a tensor "
                f"or raw bytes with format=...), got {A.describe(data)}"
            )
        fmt = _FORMAT_OF_DTYPE[cdt] if format is None else _format(format, func)
        if _FORMATS[fmt][1] != cdt:
            raise TypeError(
                f"{func}: format {fmt!r} needs {_FORMATS[fmt][1]} codes, got {A.describe(data)}"
            )
    if channels is not None:
        if len(data.shape) != 1:
            raise ValueError(f"{func}: channels= reshapes 1-D data, got shape {tuple(data.shape)}")
        width = channels * (3 if fmt == "int24" else 1)
        if data.shape[0] % width:
            raise ValueError(f"{func}: {data.shape[0]} codes are not a whole number of {channels}-channel frames")
        data = data.reshape(-1, width)
    shape = tuple(data.shape)
    if fmt == "int24":
        if not shape or shape[-1] % 3:
            raise ValueError(
                f"{func}: int24 data holds 3 bytes a sample along the last axis, got shape {shape}"
            )
        shape = shape[:-1] + (shape[-1] // 3,)
    n = math.prod(shape)
    if out is None:
        out = B.new_like(data, shape, odt)
    else:
        A.check_out(out, shape, odt, func)
    k = _PCM[(fmt, odt)]
    x_str = fmt != "int24" and A.is_strided_1d(data)
    if x_str or A.is_strided_1d(out):
        px, sx = B.pointer(data, _FORMATS[fmt][1], k.frm_name, "x", strided=x_str)
        py, sy = B.pointer(out, odt, k.frm_name, "out", writable=True, strided=True)
        st = k.frm_s(px, sx, py, sy, n)
        cname = k.frm_name.replace(f"_{SFX[odt]}", f"_strided_{SFX[odt]}")
    else:
        px, _ = B.pointer(data, _FORMATS[fmt][1], k.frm_name, "x")
        py, _ = B.pointer(out, odt, k.frm_name, "out", writable=True)
        st = k.frm(px, py, n)
        cname = k.frm_name
    if st:
        raise error(st, cname)
    return out


def float_to_pcm(x: ArrayLike, format: PcmFormat = "int16", out: Optional[Array] = None) -> IntArray:  # noqa: A002
    """Float samples → integer PCM codes: ``x * 2**(bits-1)`` rounded half to even and
    saturated (C: ``sk_pcm_to_<fmt>_f32/f64``, the ``_strided`` forms for 1-D views).

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64, any shape
        Samples, nominally in [-1, 1]; must be finite.
    format : {"int16", "int24", "int32", "uint8"}, default "int16"
        Output format ("i16", "i24", "i32", "u8" also accepted). "uint8" is offset binary;
        "int24" gives packed little-endian bytes.
    out : ndarray or Tensor, optional
        Output of the result's shape and dtype (int16/int24 as uint8/int32/uint8).

    Returns
    -------
    ndarray or Tensor
        int16, int32 or uint8 codes of ``x.shape``; for "int24" uint8 bytes whose last axis
        is 3× as long (shape ``(3,)`` for a scalar).

    Raises
    ------
    NonFiniteError
        NaN or ±inf in ``x`` (nothing is written; the message gives the first index).
    TypeError, ValueError
        Wrong dtype, shape, a read-only or non-contiguous ``out``.

    Examples
    --------
    >>> sigkern.float_to_pcm(np.array([-1.0, 0.5, 1.0], np.float32))
    array([-32768,  16384,  32767], dtype=int16)
    >>> sigkern.float_to_pcm(np.zeros((480, 2)), "int24").shape
    (480, 6)
    """
    func = "float_to_pcm"
    fmt = _format(format, func)
    x = A.as_input(x, func, "x")
    dt = A.float_dtype(x, func, "x")
    cdt = _FORMATS[fmt][1]
    shape = tuple(x.shape)
    n = math.prod(shape)
    if fmt == "int24":
        oshape = shape[:-1] + (shape[-1] * 3,) if shape else (3,)
    else:
        oshape = shape
    k = _PCM[(fmt, dt)]
    if out is None:
        if type(x) is ndarray and x.flags.c_contiguous:  # the common case, straight to C
            out = np.empty(oshape, cdt)
            st = k.to(_fb(CARRAY[dt], x), _fb(CARRAY[cdt], out), n)
            if st:
                raise error(st, k.to_name)
            return out
        out = B.new_like(x, oshape, cdt)
    else:
        A.check_out(out, oshape, cdt, func)
    y_str = fmt != "int24" and A.is_strided_1d(out)
    if A.is_strided_1d(x) or y_str:
        px, sx = B.pointer(x, dt, k.to_name, "x", strided=True)
        py, sy = B.pointer(out, cdt, k.to_name, "out", writable=True, strided=y_str)
        st = k.to_s(px, sx, py, sy, n)
        cname = k.to_name.replace(f"_{SFX[dt]}", f"_strided_{SFX[dt]}")
    else:
        px, _ = B.pointer(x, dt, k.to_name, "x")
        py, _ = B.pointer(out, cdt, k.to_name, "out", writable=True)
        st = k.to(px, py, n)
        cname = k.to_name
    if st:
        raise error(st, cname)
    return out


# ---------------------------------------------------------------------------------------------
# float32 ↔ float64
# ---------------------------------------------------------------------------------------------

_CONVERT = {
    (F32, F64): (cfunc("sk_convert_f32_to_f64"), cfunc("sk_convert_strided_f32_to_f64"), "f32_to_f64"),
    (F64, F32): (cfunc("sk_convert_f64_to_f32"), cfunc("sk_convert_strided_f64_to_f32"), "f64_to_f32"),
}


def convert(x: ArrayLike, dtype: DTypeLike, out: Optional[Array] = None) -> FloatArray:
    """``x`` as float32 or float64 (C: ``sk_convert_f32_to_f64`` / ``sk_convert_f64_to_f32``,
    the strided forms for 1-D views): float32 → float64 is exact; float64 → float32 rounds to
    nearest even and overflows to ±inf, like ``x.astype(np.float32)``.

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64, any shape
    dtype : np.float32 or np.float64
        Target dtype; the same as ``x``'s gives a copy.
    out : ndarray or Tensor, optional
        Output of ``x``'s shape and ``dtype`` (may be a 1-D strided view).

    Returns
    -------
    ndarray or Tensor
        ``out``, or a new array/tensor like ``x``.

    Examples
    --------
    >>> sigkern.convert(np.array([0.1, 1e40]), np.float32)
    array([0.1, inf], dtype=float32)
    """
    func = "convert"
    odt = A.float_dtype_arg(dtype, func)
    if type(x) is ndarray and out is None:
        ent = _CONVERT.get((x.dtype, odt))
        if ent is not None and x.flags.c_contiguous:
            y = np.empty(x.shape, odt)
            st = ent[0](_fb(CARRAY[x.dtype], x), _fb(CARRAY[odt], y), x.size)
            if st:
                raise error(st, f"sk_convert_{ent[2]}")
            return y
    x = A.as_input(x, func, "x")
    dt = A.float_dtype(x, func, "x")
    if dt == odt:
        return _core.copy(x, out)
    shape = tuple(x.shape)
    if out is None:
        out = B.new_like(x, shape, odt)
    else:
        A.check_out(out, shape, odt, func)
    f, fs, name = _CONVERT[(dt, odt)]
    if A.is_strided_1d(x) or A.is_strided_1d(out):
        cname = f"sk_convert_strided_{name}"
        px, sx = B.pointer(x, dt, cname, "x", strided=True)
        py, sy = B.pointer(out, odt, cname, "out", writable=True, strided=True)
        st = fs(px, sx, py, sy, math.prod(shape))
    else:
        cname = f"sk_convert_{name}"
        px, _ = B.pointer(x, dt, cname, "x")
        py, _ = B.pointer(out, odt, cname, "out", writable=True)
        st = f(px, py, math.prod(shape))
    if st:
        raise error(st, cname)
    return out


# ---------------------------------------------------------------------------------------------
# Channel layout
# ---------------------------------------------------------------------------------------------

_IL = {dt: cfunc(f"sk_interleave_{SFX[dt]}") for dt in (F32, F64)}
_DIL = {dt: cfunc(f"sk_deinterleave_{SFX[dt]}") for dt in (F32, F64)}
_IL_BLOCK = {dt: cfunc(f"sk_interleave_block_{SFX[dt]}") for dt in (F32, F64)}
_DIL_BLOCK = {dt: cfunc(f"sk_deinterleave_block_{SFX[dt]}") for dt in (F32, F64)}
_PTRS = {F32: "float *[]", F64: "double *[]"}


def _rows_contiguous(a: Any) -> bool:
    """A 2-D view whose rows are each contiguous (but not the whole block)."""
    if isinstance(a, np.ndarray):
        return a.ndim == 2 and a.strides[1] == a.itemsize and not a.flags.c_contiguous
    if A.is_tensor(a):
        return a.dim() == 2 and a.stride(1) == 1 and not a.is_contiguous()
    return False


def _channel_ptrs(chans: Sequence[Any], dt: np.dtype[Any], cname: str, writable: bool) -> Tuple[Any, ...]:
    """(C pointer array, keep-alive list) over 1-D contiguous channels."""
    name = "channels" if not writable else "out"
    ps = [B.pointer(c, dt, cname, f"{name}[{i}]", writable=writable)[0] for i, c in enumerate(chans)]
    return ffi.new(_PTRS[dt], ps), ps


def interleave(planar: Union[ArrayLike, Sequence[ArrayLike]], out: Optional[Array] = None) -> FloatArray:
    """Planar channels → interleaved frames: ``out[f, c] = planar[c][f]``
    (C: ``sk_interleave_block_f32/f64`` for one block, ``sk_interleave_f32/f64`` for separate
    channel arrays; numpy: ``planar.T.copy()``).

    Parameters
    ----------
    planar : ndarray or Tensor of shape (channels, frames), or a list/tuple of 1-D channels
        float32 or float64; a 2-D block must be C-contiguous or have contiguous rows (then each
        row is passed as a channel pointer, zero-copy). Listed channels must be contiguous and
        of one length and dtype.
    out : ndarray or Tensor, optional
        ``(frames, channels)`` output, C-contiguous, of the input's dtype.

    Returns
    -------
    ndarray or Tensor
        ``out``, or a new ``(frames, channels)`` array/tensor (a tensor if the input or the
        first channel is one).

    Examples
    --------
    >>> sigkern.interleave(np.array([[1.0, 2.0], [10.0, 20.0]]))
    array([[ 1., 10.],
           [ 2., 20.]])
    >>> y = sigkern.interleave([np.zeros(480, np.float32), np.ones(480, np.float32)])
    """
    if type(planar) is ndarray and out is None and planar.ndim == 2 and planar.flags.c_contiguous:
        dt = planar.dtype
        if dt is F32 or dt is F64:  # the common case, straight to C
            nch, frames = planar.shape
            y = np.empty((frames, nch), dt)
            st = _IL_BLOCK[dt](_fb(CARRAY[dt], planar), nch, _fb(CARRAY[dt], y), frames)
            if st:
                raise error(st, f"sk_interleave_block_{SFX[dt]}")
            return y
    func = "interleave"
    if isinstance(planar, (list, tuple)):
        if not planar:
            raise ValueError(f"{func}: at least one channel is needed")
        chans = [A.as_input(c, func, f"planar[{i}]") for i, c in enumerate(planar)]
        dt = A.float_dtype(chans[0], func, "planar[0]")
        frames = None
        for i, c in enumerate(chans):
            if len(c.shape) != 1:
                raise ValueError(f"{func}: planar[{i}] must be 1-D, got shape {tuple(c.shape)}")
            if frames is None:
                frames = c.shape[0]
            elif c.shape[0] != frames:
                raise ValueError(f"{func}: planar[{i}] has {c.shape[0]} frames, planar[0] {frames}")
        ret: FloatArray = _interleave_list(chans, dt, frames, chans[0], out)
        return ret
    planar = A.as_input(planar, func, "planar")
    dt = A.float_dtype(planar, func, "planar")
    if len(planar.shape) != 2:
        raise ValueError(
            f"{func}: planar must be (channels, frames), got shape {tuple(planar.shape)} "
            "(one channel: planar.reshape(1, -1))"
        )
    nch, frames = planar.shape
    if _rows_contiguous(planar) and nch:
        ret = _interleave_list([planar[i] for i in range(nch)], dt, frames, planar, out)
        return ret
    cname = f"sk_interleave_block_{SFX[dt]}"
    if out is None:
        out = B.new_like(planar, (frames, nch), dt)
    else:
        A.check_out(out, (frames, nch), dt, func)
    pb, _ = B.pointer(planar, dt, cname, "planar")
    py, _ = B.pointer(out, dt, cname, "out", writable=True)
    st = _IL_BLOCK[dt](pb, nch, py, frames)
    if st:
        raise error(st, cname)
    return out


def _interleave_list(chans: List[Any], dt: np.dtype[Any], frames: int, like: Any, out: Any) -> Any:
    cname = f"sk_interleave_{SFX[dt]}"
    nch = len(chans)
    if out is None:
        out = B.new_like(like, (frames, nch), dt)
    else:
        A.check_out(out, (frames, nch), dt, "interleave")
    arr, keep = _channel_ptrs(chans, dt, cname, False)
    py, _ = B.pointer(out, dt, cname, "out", writable=True)
    st = _IL[dt](arr, nch, py, frames)
    del keep
    if st:
        raise error(st, cname)
    return out


def deinterleave(
    x: ArrayLike, out: Union[Array, Sequence[Array], None] = None
) -> Union[FloatArray, Sequence[Array]]:
    """Interleaved frames → planar channels: ``out[c][f] = x[f, c]``
    (C: ``sk_deinterleave_block_f32/f64`` into one block, ``sk_deinterleave_f32/f64`` into
    separate channel arrays; numpy: ``x.T.copy()``).

    Parameters
    ----------
    x : ndarray or Tensor, shape (frames, channels), float32 or float64, C-contiguous
    out : optional
        A ``(channels, frames)`` array/tensor (C-contiguous, or with contiguous rows: each row
        is written through its own pointer), or a list/tuple of ``channels`` writable 1-D
        contiguous arrays of ``frames`` samples (pairwise disjoint).

    Returns
    -------
    ndarray, Tensor or list
        ``out``, or a new ``(channels, frames)`` array/tensor like ``x``.

    Examples
    --------
    >>> sigkern.deinterleave(np.array([[1.0, 10.0], [2.0, 20.0]]))
    array([[ 1.,  2.],
           [10., 20.]])
    >>> left, right = np.empty(2), np.empty(2)
    >>> _ = sigkern.deinterleave(np.array([[1.0, 10.0], [2.0, 20.0]]), out=[left, right])
    """
    if type(x) is ndarray and out is None and x.ndim == 2 and x.flags.c_contiguous:
        dt = x.dtype
        if dt is F32 or dt is F64:  # the common case, straight to C
            frames, nch = x.shape
            y = np.empty((nch, frames), dt)
            st = _DIL_BLOCK[dt](_fb(CARRAY[dt], x), nch, _fb(CARRAY[dt], y), frames)
            if st:
                raise error(st, f"sk_deinterleave_block_{SFX[dt]}")
            return y
    func = "deinterleave"
    x = A.as_input(x, func, "x")
    dt = A.float_dtype(x, func, "x")
    if len(x.shape) != 2:
        raise ValueError(
            f"{func}: x must be (frames, channels), got shape {tuple(x.shape)} "
            "(flat interleaved data: x.reshape(-1, channels))"
        )
    frames, nch = x.shape
    if isinstance(out, (list, tuple)) or (out is not None and _rows_contiguous(out)):
        cname = f"sk_deinterleave_{SFX[dt]}"
        if isinstance(out, (list, tuple)):
            chans = list(out)
            if len(chans) != nch:
                raise ValueError(f"{func}: out has {len(chans)} channels, x {nch}")
            for i, c in enumerate(chans):
                if A.dtype_of(c) is None:
                    raise TypeError(f"{func}: out[{i}] must be a numpy array or a torch tensor, got {A.describe(c)}")
                if tuple(c.shape) != (frames,):
                    raise ValueError(f"{func}: out[{i}] must have shape ({frames},), got {tuple(c.shape)}")
        else:
            A.check_out(out, (nch, frames), dt, func)
            chans = [out[i] for i in range(nch)]
        px, _ = B.pointer(x, dt, cname, "x")
        arr, keep = _channel_ptrs(chans, dt, cname, True)
        st = _DIL[dt](px, nch, arr, frames)
        del keep
        if st:
            raise error(st, cname)
        return out
    cname = f"sk_deinterleave_block_{SFX[dt]}"
    if out is None:
        out = B.new_like(x, (nch, frames), dt)
    else:
        A.check_out(out, (nch, frames), dt, func)
    px, _ = B.pointer(x, dt, cname, "x")
    py, _ = B.pointer(out, dt, cname, "out", writable=True)
    st = _DIL_BLOCK[dt](px, nch, py, frames)
    if st:
        raise error(st, cname)
    return out


# ---------------------------------------------------------------------------------------------
# Gain, mix, dB
# ---------------------------------------------------------------------------------------------

_RAMP = _core.Kernel("gain_ramp")
_XFADE = _core.Kernel("crossfade")
_AMP_TO_DB = _core.Kernel("amp_to_db")
_DB_TO_AMP = _core.Kernel("db_to_amp")
_MIX = {F32: cfunc("sk_mix_f32"), F64: cfunc("sk_mix_f64")}


def _count(v: Any, func: str, name: str) -> int:
    i = A.index(v, func, name)
    if i < 0:
        raise ValueError(f"{func}: {name} must be >= 0, got {i}")
    return i


def _rows_ok(a: Any) -> bool:
    """Whether every row (last axis) of ``a`` is contiguous."""
    shape = tuple(a.shape)
    if not shape or shape[-1] <= 1:
        return True
    if isinstance(a, np.ndarray):
        return a.strides[-1] == a.itemsize
    ret: bool = a.stride(-1) == 1
    return ret


def _as_numpy(a: Any) -> np.ndarray:
    return a if isinstance(a, np.ndarray) else a.detach().numpy()


def _check_overlap(a: Any, out: Any, name: str, cname: str, func: str) -> None:
    """Row-by-row calls cannot see an output that overlaps an input across rows: refuse any
    overlap that is not exactly in place (same data, same layout), before the first call."""
    an, on = _as_numpy(a), _as_numpy(out)
    if np.may_share_memory(an, on) and not (
        an.__array_interface__["data"][0] == on.__array_interface__["data"][0] and an.strides == on.strides
    ):
        code = OverlapError.code
        raise OverlapError(code, status_name(code), f"{func} ({cname}): out partially overlaps {name}; pass "
                           f"out={name} (in place) or a separate array", cname)


def _rows_fast(k: Any, ins: Tuple[Any, ...], scalars: Tuple[Any, ...], out: Any) -> Any:
    """Per-row calls for C-contiguous numpy data (None: take the checked path)."""
    x = ins[0]
    dt = x.dtype
    if dt is F32:
        f = k.f32
    elif dt is F64:
        f = k.f64
    else:
        return None
    ct = CARRAY[dt]
    shape = x.shape
    for a in ins[1:]:
        if type(a) is not ndarray or a.dtype is not dt or a.shape != shape:
            return None
    if out is None:
        out = np.empty(shape, dt)
    elif type(out) is not ndarray or out.dtype is not dt or out.shape != shape:
        return None
    else:
        for a in ins:
            if a is not out and np.may_share_memory(a, out):
                return None
    try:
        ps = [_fb(ct, a) for a in ins]
        po = _fb(ct, out, True)
    except ValueError:
        return None
    n = shape[-1]
    rows = x.size // n if n else math.prod(shape[:-1])
    for r in range(rows):
        o = r * n
        st = f(*[p + o for p in ps], *scalars, po + o, n)
        if st:
            raise error(st, k.cname(dt))
    return out


def _per_row(k: Any, ins: Tuple[Any, ...], names: Tuple[Any, ...], scalars: Tuple[Any, ...], out: Any, func: str) -> Any:
    """Runs a 1-D time kernel over every row (last axis) of multi-channel data; rows must be
    contiguous, the block need not be (a time slice ``x[:, t0:t1]`` works zero-copy)."""
    arrs, dt, shape = _core._common(k, ins, names)
    if out is None:
        out = B.new_like(arrs[0], shape, dt)
    else:
        A.check_out(out, shape, dt, func)
    for a, nm in zip(arrs + (out,), names + ("out",)):
        A.cpu_tensor(a, func, nm)
        if not _rows_ok(a):
            raise ValueError(
                f"{func}: the rows (last axis) of {nm} are not contiguous (strides "
                f"{tuple(a.strides) if isinstance(a, np.ndarray) else tuple(a.stride())}); pass "
                f"np.ascontiguousarray({nm}) (a copy)"
            )
    A.writable_out(out, func)
    for a, nm in zip(arrs, names):
        _check_overlap(a, out, nm, k.cname(dt), func)
    for idx in np.ndindex(*shape[:-1]):
        _core._map(k, tuple(a[idx] for a in arrs), scalars, out[idx])
    return out


def gain_ramp(
    x: ArrayLike,
    g0: float,
    g1: float,
    offset: int = 0,
    total: Optional[int] = None,
    out: Optional[Array] = None,
) -> FloatArray:
    """Linear gain ramp ``out[..., i] = x[..., i] * (g0 + (offset + i) * (g1 - g0) / total)``
    (C: ``sk_gain_ramp_f32/f64``), chunkable.

    The ramp spans samples ``0 … total-1`` and this call processes ``offset … offset+n-1``;
    each gain depends only on its index, so consecutive calls with ``offset = 0, n, 2n, …``
    equal one call bit for bit. The ramp is half-open: ``g0`` at sample 0, and ``g1`` would be
    the gain of the first sample after it (continuing with a constant ``g1`` has no step).
    Gains are computed in float64 and each product rounded once.

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64, shape (n,) or (..., n)
        For multi-channel data (leading axes) every channel gets the same ramp along the last
        (time) axis: the gain depends on the frame, not the channel (one C call per channel).
        Rows must be contiguous; the block need not be (``x[:, t0:t1]`` works zero-copy).
    g0, g1 : float
        Start and end gains (finite).
    offset : int, default 0
        Index of ``x``'s first sample within the ramp.
    total : int, optional
        Ramp length; default ``offset + n`` (the ramp ends with this block).
        ``offset + n <= total`` is required.
    out : ndarray or Tensor, optional
        Same shape and dtype (numpy array or CPU tensor); may be ``x`` (in place).

    Returns
    -------
    ndarray or Tensor
        ``out``, or a new array/tensor like ``x``.

    Examples
    --------
    >>> sigkern.gain_ramp(np.ones(4), 0.0, 1.0)
    array([0.  , 0.25, 0.5 , 0.75])
    >>> fade_in = sigkern.gain_ramp(np.ones((2, 256), np.float32), 0.0, 1.0, offset=256, total=1024)
    """
    func = "gain_ramp"
    off = _count(offset, func, "offset")
    nd = x.ndim if hasattr(x, "ndim") else np.ndim(x)
    if nd == 0:
        raise ValueError(f"{func}: x must have a time axis, got a scalar")
    n = x.shape[-1] if hasattr(x, "shape") else np.shape(x)[-1]
    tot = off + n if total is None else _count(total, func, "total")
    scalars = (g0, g1, off, tot)
    if nd == 1:
        ret: FloatArray = _core._map(_RAMP, (x,), scalars, out)
        return ret
    if type(x) is ndarray:
        y: Optional[FloatArray] = _rows_fast(_RAMP, (x,), scalars, out)
        if y is not None:
            return y
    ret = _per_row(_RAMP, (x,), ("x",), scalars, out, func)
    return ret


def crossfade(
    a: ArrayLike,
    b: ArrayLike,
    offset: int = 0,
    total: Optional[int] = None,
    out: Optional[Array] = None,
) -> FloatArray:
    """Equal-power crossfade from ``a`` to ``b``: ``a·cos(πt/2) + b·sin(πt/2)`` with
    ``t = (offset + i) / total`` (C: ``sk_crossfade_f32/f64``), chunkable like
    :func:`gain_ramp`.

    Sample 0 is pure ``a``; ``t = 1`` (pure ``b``) is the sample right after the fade, so
    continuing with ``b`` joins smoothly. Gains are float64 (cos² + sin² = 1).

    Parameters
    ----------
    a, b : ndarray or Tensor, float32 or float64, one shape (n,) or (..., n)
        For multi-channel data every channel fades with the same curve along the last axis
        (one C call per channel); rows must be contiguous.
    offset : int, default 0
        Index of the first sample within the fade.
    total : int, optional
        Fade length; default ``offset + n``.
    out : ndarray or Tensor, optional
        Same shape and dtype (numpy array or CPU tensor); may be ``a`` or ``b`` (in place).

    Returns
    -------
    ndarray or Tensor
        ``out``, or a new array/tensor like ``a``.

    Examples
    --------
    >>> y = sigkern.crossfade(np.ones(4), np.zeros(4))
    >>> float(y[0])
    1.0
    """
    func = "crossfade"
    off = _count(offset, func, "offset")
    nd = a.ndim if hasattr(a, "ndim") else np.ndim(a)
    if nd == 0:
        raise ValueError(f"{func}: a must have a time axis, got a scalar")
    n = a.shape[-1] if hasattr(a, "shape") else np.shape(a)[-1]
    tot = off + n if total is None else _count(total, func, "total")
    if nd == 1:
        ret: FloatArray = _core._map(_XFADE, (a, b), (off, tot), out)
        return ret
    if type(a) is ndarray:
        y: Optional[FloatArray] = _rows_fast(_XFADE, (a, b), (off, tot), out)
        if y is not None:
            return y
    ret = _per_row(_XFADE, (a, b), ("a", "b"), (off, tot), out, func)
    return ret


def mix(a: ArrayLike, wa: float, b: ArrayLike, wb: float, out: Optional[Array] = None) -> FloatArray:
    """Weighted mix ``wa*a + wb*b`` elementwise (C: ``sk_mix_f32/f64``), bit-identical to
    numpy's ``wa*a + wb*b`` in the arrays' dtype (not fused).

    Parameters
    ----------
    a, b : ndarray or Tensor, float32 or float64, one shape and dtype (no broadcasting)
    wa, wb : float
        Weights (finite; rounded to float32 for float32 data).
    out : ndarray or Tensor, optional
        Same shape and dtype (numpy array or CPU tensor); may be ``a`` or ``b`` (in place).

    Returns
    -------
    ndarray or Tensor
        ``out``, or a new array/tensor like ``a``.

    Examples
    --------
    >>> sigkern.mix(np.ones(3), 0.5, np.full(3, 2.0), 0.25)
    array([1., 1., 1.])
    """
    if type(a) is ndarray and type(b) is ndarray:
        dt = a.dtype
        if (dt is F32 or dt is F64) and b.dtype is dt and b.shape == a.shape:
            ct = CARRAY[dt]
            try:
                if out is None:
                    out = np.empty(a.shape, dt)
                    po = _fb(ct, out)
                elif type(out) is ndarray and out.dtype is dt and out.shape == a.shape:
                    po = _fb(ct, out, True)
                else:
                    ret: FloatArray = _mix_checked(a, wa, b, wb, out)
                    return ret
                st = _MIX[dt](_fb(ct, a), wa, _fb(ct, b), wb, po, a.size)
            except ValueError:
                ret = _mix_checked(a, wa, b, wb, out)
                return ret
            if st:
                raise error(st, f"sk_mix_{SFX[dt]}")
            return out
    ret = _mix_checked(a, wa, b, wb, out)
    return ret


def _mix_checked(a: Any, wa: float, b: Any, wb: float, out: Any) -> Any:
    func = "mix"
    (a, b), dt, shape = _core._common(_MIX_K, (a, b), ("a", "b"))
    if out is None:
        out = B.new_like(a, shape, dt)
    else:
        A.check_out(out, shape, dt, func)
    cname = f"sk_mix_{SFX[dt]}"
    pa, _ = B.pointer(a, dt, cname, "a")
    pb, _ = B.pointer(b, dt, cname, "b")
    py, _ = B.pointer(out, dt, cname, "out", writable=True)
    st = _MIX[dt](pa, wa, pb, wb, py, math.prod(shape))
    if st:
        raise error(st, cname)
    return out


class _Named:
    """Just a name, for the shared input checks of :mod:`sigkern.core`."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


_MIX_K = _Named("mix")


def amp_to_db(x: ArrayLike, floor_db: float = -math.inf, out: Optional[Array] = None) -> FloatArray:
    """Amplitude → decibels: ``max(20*log10(abs(x)), floor_db)`` elementwise
    (C: ``sk_amp_to_db_f32/f64``).

    Zeros (and anything below the floor) give ``floor_db``; NaN stays NaN; ±inf give +inf.
    Computed in float64 and rounded once (a polynomial logarithm within a few ulp of numpy's
    ``log10`` at the SIMD levels).

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64, any shape, contiguous
    floor_db : float, default -inf
        Lower bound of the result; ``-inf`` (no floor) gives ``-inf`` for zeros like numpy.
        NaN or +inf raise :class:`BadArgumentError`.
    out : ndarray or Tensor, optional
        Same shape and dtype (numpy array or CPU tensor); may be ``x`` (in place).

    Returns
    -------
    ndarray or Tensor
        ``out``, or a new array/tensor like ``x``.

    Examples
    --------
    >>> sigkern.amp_to_db(np.array([1.0, 0.1, 0.0]), floor_db=-120.0)
    array([   0.,  -20., -120.])
    """
    ret: FloatArray = _core._map(_AMP_TO_DB, (x,), (floor_db,), out)
    return ret


def db_to_amp(x: ArrayLike, out: Optional[Array] = None) -> FloatArray:
    """Decibels → amplitude: ``10**(x/20)`` elementwise (C: ``sk_db_to_amp_f32/f64``),
    computed in float64 and rounded once; ``-inf`` gives 0, NaN stays NaN.

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64, any shape, contiguous
    out : ndarray or Tensor, optional
        Same shape and dtype (numpy array or CPU tensor); may be ``x`` (in place).

    Returns
    -------
    ndarray or Tensor
        ``out``, or a new array/tensor like ``x``.

    Examples
    --------
    >>> sigkern.db_to_amp(np.array([0.0, -20.0, -np.inf]))
    array([1. , 0.1, 0. ])
    """
    ret: FloatArray = _core._map(_DB_TO_AMP, (x,), (), out)
    return ret


_DITHER = {(fmt, dt): cfunc(f"sk_pcm_to_{short}_dither_{SFX[dt]}")
           for fmt, short in (("int16", "i16"), ("int24", "i24"), ("uint8", "u8")) for dt in (F32, F64)}
_dither_init = cfunc("sk_dither_init")
_DITHER_OUT = {"int16": (np.int16, "int16_t[]", 1), "int24": (np.uint8, "uint8_t[]", 3),
               "uint8": (np.uint8, "uint8_t[]", 1)}


class Ditherer:
    """A dithered float → int16 / int24 / uint8 conversion stream (C: ``sk_dither_init``,
    ``sk_pcm_to_<fmt>_dither_f32/f64``).

    TPDF dither (±1 LSB, triangular), a pure function of ``seed`` and the sample's position in
    the stream, so converting a stream block by block gives exactly the output of one call;
    ``shaping=True`` adds first-order noise shaping (noise transfer ``1 − z⁻¹``: less noise at
    low frequencies, more near Nyquist).

    Parameters
    ----------
    channels : int, default 1
        Interleaved channels (1 to 64); blocks have shape ``(frames, channels)`` or ``(n,)``
        for one channel.
    seed : int, default 0
    shaping : bool, default False
    format : {"int16", "int24", "uint8"}, default "int16"

    Examples
    --------
    >>> d = sigkern.Ditherer(channels=2, seed=1)
    >>> d.convert(np.zeros((480, 2), np.float32)).dtype
    dtype('int16')
    """

    __slots__ = ("_state", "_fmt", "_channels")

    def __init__(self, channels: int = 1, seed: int = 0, shaping: bool = False, format: PcmFormat = "int16") -> None:  # noqa: A002
        func = "Ditherer"
        fmt = _format(format, func)
        if fmt not in _DITHER_OUT:
            raise ValueError(f"{func}: dithered formats are 'int16', 'int24' and 'uint8', got {format!r}")
        self._state = ffi.new("SkDither *")
        st = _dither_init(self._state, int(seed) & (2**64 - 1), int(channels), 1 if shaping else 0)
        if st:
            raise error(st, "sk_dither_init")
        self._fmt = fmt
        self._channels = int(channels)

    @property
    def position(self) -> int:
        """Samples converted so far."""
        return int(self._state.position)

    def convert(self, x: ArrayLike) -> IntNDArray:
        """Converts a block of interleaved samples, advancing the stream.

        Parameters
        ----------
        x : ndarray or Tensor, float32 or float64
            Shape ``(frames, channels)`` or ``(n,)``, C-contiguous.

        Returns
        -------
        ndarray
            int16 / uint8 codes of ``x.shape`` (int24: uint8 bytes, last axis 3× as long).
        """
        func = "Ditherer.convert"
        x = A.as_input(x, func, "x")
        dt = A.float_dtype(x, func, "x")
        x = np.ascontiguousarray(x)
        odt, ct, k = _DITHER_OUT[self._fmt]
        shape = x.shape[:-1] + (x.shape[-1] * k,) if x.ndim else (k,)
        y = np.empty(shape, odt)
        n = x.size
        st = _DITHER[(self._fmt, dt)](ffi.from_buffer(CARRAY[dt], x), ffi.from_buffer(ct, y, True), n, self._state)
        if st:
            raise error(st, f"sk_pcm_to_{_FORMATS[self._fmt][0]}_dither_{SFX[dt]}")
        return y


def float_to_pcm_dither(x: ArrayLike, format: PcmFormat = "int16", seed: int = 0, shaping: bool = False,  # noqa: A002
                        channels: int = 1) -> IntNDArray:
    """One-shot dithered conversion (a fresh :class:`Ditherer`): ``x`` interleaved with
    ``channels`` channels (the shaping error is tracked per channel).

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64
        Shape ``(frames, channels)`` or ``(n,)``, C-contiguous.
    format : {"int16", "int24", "uint8"}, default "int16"
    seed : int, default 0
    shaping : bool, default False
        First-order noise shaping, as :class:`Ditherer`.
    channels : int, default 1
        Interleaved channels.

    Returns
    -------
    ndarray
        int16 / uint8 codes of ``x.shape`` (int24: uint8 bytes, last axis 3× as long).

    Examples
    --------
    >>> sigkern.float_to_pcm_dither(np.full(4, 0.5, np.float32), seed=3).dtype
    dtype('int16')
    """
    return Ditherer(channels, seed, shaping, format).convert(x)
