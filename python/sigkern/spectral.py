"""FFT, windows, STFT/ISTFT, spectra in dB, mel filterbanks and spectrograms, convolution
(C: ``sk_fft_plan_*``, ``sk_rfft_*``, ``sk_irfft_*``, ``sk_fft_*``, ``sk_ifft_*``,
``sk_window_*``, ``sk_stft_*``, ``sk_istft_*``, ``sk_stft_stream_*``, ``sk_spec_power_*``,
``sk_power_to_db_*``, ``sk_mel_*``, ``sk_melspec_*``, ``sk_logmel_*``, ``sk_convolve_*``,
``sk_correlate_*``).

The functions follow the signatures users already know: :func:`rfft`, :func:`irfft`,
:func:`fft`, :func:`ifft` are ``numpy.fft``'s (``n``, ``axis``, ``norm``), :func:`get_window`,
:func:`convolve` and :func:`correlate` are ``scipy.signal``'s, :func:`stft`/:func:`istft` are
``torch.stft``/``torch.istft``'s, and :func:`power_to_db`, :func:`mel_filters` and
:func:`melspectrogram` are librosa's. numpy arrays and CPU torch tensors go in, the same kind
comes out; float32 data runs the ``_f32`` kernels and gives complex64 spectra, float64 data the
``_f64`` kernels and complex128. Complex data must really be complex (numpy
complex64/complex128, torch complex64/complex128): a float array is never reinterpreted as
complex. Leading axes are batch/channels; the last axis is time (or frequency bins).

Thread safety: every function here may run on many threads at once (the C calls release the
GIL). FFT plans (:class:`FftPlan` and the cache behind :func:`rfft` & co.) and mel plans
(:class:`MelSpectrogram`) are immutable in C and may be shared by threads; an
:class:`StftStream` has state and must be used by one thread at a time.
"""

from __future__ import annotations

import math
import numbers
import operator
import threading
from typing import Any, Callable, Optional, Tuple, Union

import numpy as np

from . import _buffers as B
from ._buffers import C64, C128, F32, F64, ndarray
from ._errors import InvalidHandleError, error, status_name
from ._lib import cfunc, ffi
from ._handle import Handle

__all__ = [
    "rfft",
    "irfft",
    "fft",
    "ifft",
    "FftPlan",
    "get_window",
    "stft",
    "istft",
    "StftStream",
    "spec_power",
    "power_to_db",
    "log10_floor",
    "mel_filters",
    "melspectrogram",
    "MelSpectrogram",
    "log_mel_spectrogram",
    "convolve",
    "correlate",
]

_fb = ffi.from_buffer
_new = ffi.new
_NULL = ffi.NULL
_INF = math.inf

# ---------------------------------------------------------------------------------------------
# C functions (bound once) and constants
# ---------------------------------------------------------------------------------------------

_plan_new = {F32: cfunc("sk_fft_plan_f32_new"), F64: cfunc("sk_fft_plan_f64_new")}
_plan_free = cfunc("sk_fft_plan_free")
_plan_info = cfunc("sk_fft_plan_info")
_rfft1 = {F32: cfunc("sk_rfft_f32"), F64: cfunc("sk_rfft_f64")}
_irfft1 = {F32: cfunc("sk_irfft_f32"), F64: cfunc("sk_irfft_f64")}
_fft1 = {F32: cfunc("sk_fft_f32"), F64: cfunc("sk_fft_f64")}
_ifft1 = {F32: cfunc("sk_ifft_f32"), F64: cfunc("sk_ifft_f64")}
_rfft_b32 = cfunc("sk_rfft_batch_f32")
_rfft_b64 = cfunc("sk_rfft_batch_f64")
_rfftb = {F32: _rfft_b32, F64: _rfft_b64}
_irfftb = {F32: cfunc("sk_irfft_batch_f32"), F64: cfunc("sk_irfft_batch_f64")}
_fftb = {F32: cfunc("sk_fft_batch_f32"), F64: cfunc("sk_fft_batch_f64")}
_stft_frames = cfunc("sk_stft_frames")
_stft = {F32: cfunc("sk_stft_f32"), F64: cfunc("sk_stft_f64")}
_stft_batch = {F32: cfunc("sk_stft_batch_f32"), F64: cfunc("sk_stft_batch_f64")}
_istft_len = cfunc("sk_istft_len")
_istft = {F32: cfunc("sk_istft_f32"), F64: cfunc("sk_istft_f64")}
_stream_new = {F32: cfunc("sk_stft_stream_f32_new"), F64: cfunc("sk_stft_stream_f64_new")}
_stream_push = {F32: cfunc("sk_stft_stream_f32_push"), F64: cfunc("sk_stft_stream_f64_push")}
_stream_finish = {F32: cfunc("sk_stft_stream_f32_finish"), F64: cfunc("sk_stft_stream_f64_finish")}
_stream_push_frames = cfunc("sk_stft_stream_push_frames")
_stream_finish_frames = cfunc("sk_stft_stream_finish_frames")
_stream_reset = cfunc("sk_stft_stream_reset")
_spec_power = {F32: cfunc("sk_spec_power_f32"), F64: cfunc("sk_spec_power_f64")}
_power_to_db = {F32: cfunc("sk_power_to_db_f32"), F64: cfunc("sk_power_to_db_f64")}
_mel_fb = {F32: cfunc("sk_mel_filterbank_f32"), F64: cfunc("sk_mel_filterbank_f64")}
_mel_new = {F32: cfunc("sk_mel_plan_f32_new"), F64: cfunc("sk_mel_plan_f64_new")}
_mel_frames = cfunc("sk_mel_frames")
_melspec = {F32: cfunc("sk_melspec_f32"), F64: cfunc("sk_melspec_f64")}
_logmel = {F32: cfunc("sk_logmel_f32"), F64: cfunc("sk_logmel_f64")}
_melspec_b = {F32: cfunc("sk_melspec_batch_f32"), F64: cfunc("sk_melspec_batch_f64")}
_logmel_b = {F32: cfunc("sk_logmel_batch_f32"), F64: cfunc("sk_logmel_batch_f64")}
_log10mel_b = {F32: cfunc("sk_log10mel_batch_f32"), F64: cfunc("sk_log10mel_batch_f64")}
_log10_floor = {F32: cfunc("sk_log10_floor_f32"), F64: cfunc("sk_log10_floor_f64")}
_conv_len = cfunc("sk_convolve_len")
_conv = {F32: cfunc("sk_convolve_f32"), F64: cfunc("sk_convolve_f64")}
_corr = {F32: cfunc("sk_correlate_f32"), F64: cfunc("sk_correlate_f64")}

_SFX = {F32: "f32", F64: "f64"}
#: ctype objects for ffi.from_buffer (a ctype given as a string is parsed on every call)
_DA = ffi.typeof("double[]")
_FA = ffi.typeof("float[]")
_CT = {F32: _FA, F64: _DA}
_CP = {F32: ffi.typeof("float *"), F64: ffi.typeof("double *")}

SK_FFT_REAL, SK_FFT_COMPLEX = 0, 1
_NORM = {None: 0, "backward": 0, "ortho": 1, "forward": 2}


def _result(out: Any, shape: tuple, dt: np.dtype) -> Any:
    """The fast path's result array: a new one if ``out`` is None, ``out`` if it is a numpy
    array of exactly ``shape`` and ``dt`` (from_buffer then refuses it if it is not contiguous
    or read-only), else None (the checked path decides)."""
    if out is None:
        return np.empty(shape, dt)
    if type(out) is ndarray and out.dtype is dt and out.shape == shape:
        return out
    return None


_PAD = {"constant": 0, "reflect": 1}
_PAD_TORCH_ONLY = ("replicate", "circular")
_MODE = {"full": 0, "same": 1, "valid": 2}
_METHOD = {"auto": 0, "direct": 1, "fft": 2}

# scipy.signal.get_window's names (and aliases) of the windows the library computes:
# name -> (SK_WINDOW_* kind, parameter rule: False none, True required, float default)
_WIN_DATA = {
    ("boxcar", "box", "ones", "rect", "rectangular"): (0, False),
    ("hann", "han"): (1, False),
    ("hamming", "hamm", "ham"): (2, False),
    ("blackman", "black", "blk"): (3, False),
    ("blackmanharris", "blackharr", "bkh"): (4, False),
    ("flattop", "flat", "flt"): (5, False),
    ("kaiser", "ksr"): (6, True),
    ("tukey", "tuk"): (7, 0.5),
}
_WIN = {name: v for names, v in _WIN_DATA.items() for name in names}
_WIN_SUPPORTED = (
    '"hann", "hamming", "blackman", "blackmanharris", "flattop", "boxcar" (or "rect"), '
    '("kaiser", beta) (or a float beta), "tukey" / ("tukey", alpha)'
)


# Every window of scipy.signal.get_window (sk_window_params_*): name -> (SK_WINDOW_* kind,
# minimum and maximum number of parameters)
_WINP_DATA = {
    ("boxcar", "box", "ones", "rect", "rectangular"): (0, 0, 0),
    ("hann", "han"): (1, 0, 0),
    ("hamming", "hamm", "ham"): (2, 0, 0),
    ("blackman", "black", "blk"): (3, 0, 0),
    ("blackmanharris", "blackharr", "bkh"): (4, 0, 0),
    ("flattop", "flat", "flt"): (5, 0, 0),
    ("kaiser", "ksr"): (6, 1, 1),
    ("tukey", "tuk"): (7, 0, 1),
    ("barthann", "brthan", "bth"): (8, 0, 0),
    ("bartlett", "bart", "brt"): (9, 0, 0),
    ("bohman", "bman", "bmn"): (10, 0, 0),
    ("chebwin", "cheb"): (11, 1, 1),
    ("cosine", "halfcosine"): (12, 0, 0),
    ("dpss",): (13, 1, 1),
    ("exponential", "poisson"): (14, 0, 2),
    ("general cosine", "general_cosine"): (15, 1, 1),
    ("general hamming", "general_hamming"): (16, 1, 1),
    ("kaiser bessel derived", "kaiser_bessel_derived", "kbd"): (17, 1, 1),
    ("lanczos", "sinc"): (18, 0, 0),
    ("nuttall", "nutl", "nut"): (19, 0, 0),
    ("parzen", "parz", "par"): (20, 0, 0),
    ("taylor", "taylorwin"): (21, 0, 3),
    ("triangle", "triang", "tri"): (22, 0, 0),
    ("gaussian", "gauss", "gss"): (23, 1, 1),
    ("general gaussian", "general_gaussian", "general gauss", "general_gauss", "ggs"): (24, 2, 2),
}
_WINP = {name: v for names, v in _WINP_DATA.items() for name in names}
_window_params = {F32: cfunc("sk_window_params_f32"), F64: cfunc("sk_window_params_f64")}


def _window_params_spec(window: Any, func: str) -> Tuple[int, np.ndarray]:
    """scipy's window description -> (SK_WINDOW_* kind, float64 parameter array), for every
    window scipy.signal.get_window accepts."""
    if isinstance(window, numbers.Real) and not isinstance(window, bool):
        return 6, np.array([float(window)])  # scipy: a number is a Kaiser beta
    if not isinstance(window, (str, tuple)):
        raise ValueError(
            f"{func}: window must be a name, a (name, *parameters) tuple or a float (Kaiser "
            f"beta), got {B.describe(window)}"
        )
    if isinstance(window, tuple) and (not window or not isinstance(window[0], str)):
        raise ValueError(f"{func}: the first entry of the window tuple {window!r} must be a name")
    name = window if isinstance(window, str) else window[0]
    args = () if isinstance(window, str) else tuple(window[1:])
    if name.endswith("_periodic"):
        name = name[:-9]
    elif name.endswith("_symmetric"):
        name = name[:-10]
    entry = _WINP.get(name)
    if entry is None:
        raise ValueError(f"{func}: unknown window name {name!r} in {window!r}")
    kind, lo, hi = entry
    if not lo <= len(args) <= hi:
        want = f"{lo}" if lo == hi else f"{lo} to {hi}"
        raise ValueError(f"{func}: window {name!r} takes {want} parameter(s), got {window!r}")
    if kind == 15:  # general_cosine: the coefficient array is the parameter
        params = np.asarray(args[0], dtype=np.float64).ravel()
    elif kind == 14:  # exponential(center=None, tau=1.0): None -> NaN
        params = np.array([np.nan if v is None else float(v) for v in args], dtype=np.float64)
    else:
        try:
            params = np.array([float(v) for v in args], dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{func}: the window parameters in {window!r} must be numbers") from None
    return kind, np.ascontiguousarray(params)


# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------


def _index(v: Any, func: str, name: str) -> int:
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"{func}: {name} must be an integer, got {v!r}") from None


def _flag(v: Any) -> int:
    return 1 if v else 0


def _norm_code(norm: Any, func: str) -> int:
    try:
        c = _NORM.get(norm)
    except TypeError:
        c = None
    if c is None:
        raise ValueError(
            f'{func}: norm must be None, "backward", "ortho" or "forward", got {norm!r}'
        )
    return c


def _axis(axis: Any, nd: int, func: str) -> int:
    a = _index(axis, func, "axis")
    if not -nd <= a < nd:
        raise ValueError(f"{func}: axis {a} is out of bounds for an array of dimension {nd}")
    return a % nd


def _movelast(a: Any, ax: int) -> Any:
    if ax == a.ndim - 1:
        return a
    return np.moveaxis(a, ax, -1) if isinstance(a, np.ndarray) else a.movedim(ax, -1)


def _moveback(a: Any, ax: int) -> Any:
    if ax == a.ndim - 1:
        return a
    return np.moveaxis(a, -1, ax) if isinstance(a, np.ndarray) else a.movedim(-1, ax)


def _swap(a: Any) -> Any:
    """The last two axes exchanged (a view)."""
    return a.swapaxes(-1, -2) if isinstance(a, np.ndarray) else a.transpose(-1, -2)


def _is_contig(a: Any) -> bool:
    return a.flags.c_contiguous if isinstance(a, np.ndarray) else a.is_contiguous()


def _contig(a: Any) -> Any:
    return np.ascontiguousarray(a) if isinstance(a, np.ndarray) else a.contiguous()


def _cpu_tensor(x: Any, func: str, name: str) -> None:
    """Refuses a non-CPU or sparse tensor before anything copies it."""
    if B.is_tensor(x) and (x.device.type != "cpu" or x.layout != B._torch().strided):
        B.pointer(x, B.dtype_of(x), func, name)  # raises the device/layout error


def _check_writable(out: Any, func: str, name: str = "out") -> None:
    """An output must be writeable (numpy) / CPU, dense and not requiring grad (torch)."""
    if isinstance(out, np.ndarray):
        if not out.flags.writeable:
            raise ValueError(f"{func}: {name} is an output but the array is read-only (not writeable)")
    elif B.is_tensor(out):
        _cpu_tensor(out, func, name)
        if out.requires_grad:
            raise ValueError(
                f"{func}: {name} is an output but requires grad: sigkern's C code is invisible to "
                f"autograd; pass a tensor made under torch.no_grad() or {name}.detach()"
            )


def _zeros(like: Any, shape: Tuple[int, ...], dt: np.dtype) -> Any:
    z = B.new_like(like, shape, dt)
    z[...] = 0
    return z


def _assign(dst: Any, src: Any) -> None:
    if isinstance(dst, np.ndarray):
        dst[...] = src
    else:
        dst.copy_(src)


def _real_input(x: Any, func: str, name: str) -> Any:
    """A float32/float64 array or tensor (lists converted); complex data is a TypeError."""
    dt = B.dtype_of(x)
    if dt is not None and dt.kind == "c":
        raise TypeError(
            f"{func}: {name} must be real (float32 or float64), got {B.describe(x)}; "
            f"sigkern's {func} takes real signals only"
        )
    return B.as_input(x, func, name)


def _complex_input(x: Any, func: str, name: str) -> Any:
    """A complex64/complex128 array or tensor (lists converted); float data is a TypeError:
    it is never reinterpreted as interleaved re/im."""
    dt = B.dtype_of(x)
    if dt is not None and dt.kind == "f":
        view = "np.complex64" if dt == F32 else "np.complex128"
        raise TypeError(
            f"{func}: {name} must be complex64 or complex128, got {B.describe(x)}. A float array "
            f"is not reinterpreted as complex: if it holds interleaved re/im pairs, pass "
            f"{name}.view({view}) (torch: torch.view_as_complex); to convert real values, pass "
            f"{name}.astype({view})"
        )
    return B.as_input(x, func, name, (C64, C128))


def _raise(st: int, cname: str) -> None:
    raise error(st, cname)


# ---------------------------------------------------------------------------------------------
# FFT plans: a process-wide cache for the functions, FftPlan for explicit use
# ---------------------------------------------------------------------------------------------

#: (kind, n, is_double) -> plan handle (freed when dropped from the cache and unused)
_PLANS: dict = {}
_PLAN_CACHE_MAX = 64


def _new_plan(kind: int, n: int, dt: np.dtype) -> Any:
    pp = _new("SkFftPlan **")
    st = _plan_new[dt](kind, n, pp)
    if st:
        _raise(st, f"sk_fft_plan_{_SFX[dt]}_new")
    return pp[0]


def _plan(kind: int, n: int, dt: np.dtype) -> Any:
    key = (kind, n, dt is F64)
    p = _PLANS.get(key)
    if p is None:
        p = ffi.gc(_new_plan(kind, n, dt), _plan_free)
        if len(_PLANS) >= _PLAN_CACHE_MAX:
            try:
                _PLANS.pop(next(iter(_PLANS)), None)
            except (StopIteration, RuntimeError):
                pass
        p = _PLANS.setdefault(key, p)
    return p


# op -> (input kinds, plan kind, C functions by real dtype, C name stem)
_OPS = {
    "rfft": ((F32, F64), SK_FFT_REAL, _rfftb, "rfft_batch"),
    "irfft": ((C64, C128), SK_FFT_REAL, _irfftb, "irfft_batch"),
    "fft": ((C64, C128), SK_FFT_COMPLEX, _fftb, "fft_batch"),
    "ifft": ((C64, C128), SK_FFT_COMPLEX, _fftb, "fft_batch"),
}


def _fft_checked(op: str, x: Any, n: Any, axis: Any, norm: Any, out: Any, plan: Any = None) -> Any:
    """Every case of rfft/irfft/fft/ifft: any axis, padding/truncation, torch, out=.

    With ``plan`` (an :class:`FftPlan`), ``n`` is the plan's length, the last axis is
    transformed and must have exactly the plan's input length."""
    func = f"FftPlan.{op}" if plan is not None else op
    kinds, pkind, cfs, stem = _OPS[op]
    if op == "rfft":
        x = _real_input(x, func, "x")
    else:
        x = _complex_input(x, func, "x")
    _cpu_tensor(x, func, "x")
    nc = _norm_code(norm, func)
    xdt = B.dtype_of(x)
    rdt = B.REAL_OF.get(xdt, xdt)
    nd = x.ndim
    if nd == 0:
        raise ValueError(f"{func}: x is zero-dimensional; pass an array with at least one axis")
    ax = _axis(axis, nd, func)
    xm = _movelast(x, ax)
    m = xm.shape[-1]
    if plan is not None:
        if rdt != plan._dtype:
            raise TypeError(
                f"{func}: x is {B.describe(x)} but the plan is for {plan._dtype} "
                f"({'complex' if op != 'rfft' else 'real'} data of that precision); make a plan "
                f"with dtype=np.{rdt} or convert x"
            )
        n = plan._n
        want = n // 2 + 1 if op == "irfft" else n
        if m != want:
            raise ValueError(
                f"{func}: the last axis of x has {m} values but this plan of n = {n} needs {want}"
            )
    elif n is None:
        n = 2 * (m - 1) if op == "irfft" else m
    else:
        n = _index(n, func, "n")
    if n < 1:
        raise ValueError(f"{func}: invalid number of data points ({n}); n must be at least 1")
    in_len = n // 2 + 1 if op == "irfft" else n
    out_len = n // 2 + 1 if op == "rfft" else n
    if m > in_len:
        xm = xm[..., :in_len]
    elif m < in_len:
        z = _zeros(xm, tuple(xm.shape[:-1]) + (in_len,), xdt)
        z[..., :m] = xm
        xm = z
    if not _is_contig(xm):
        xm = _contig(xm)
    odt = B.COMPLEX_OF[rdt] if op == "rfft" else (rdt if op == "irfft" else xdt)
    lead = tuple(xm.shape[:-1])
    moved_shape = lead + (out_len,)
    if out is not None:
        final = list(moved_shape)
        final.insert(ax, final.pop())
        B.check_out(out, tuple(final), odt, func)
        _check_writable(out, func)
        ov = _movelast(out, ax)
        target = ov if _is_contig(ov) else B.new_like(out, moved_shape, odt)
    else:
        target = B.new_like(x, moved_shape, odt)
    rows = math.prod(lead)
    if rows:
        px, _ = B.pointer(xm, xdt, func, "x")
        py, _ = B.pointer(target, odt, func, "out", writable=True)
        h = plan._h if plan is not None else _plan(pkind, n, rdt)
        if op == "fft" or op == "ifft":
            st = cfs[rdt](h, px, in_len, 1 if op == "ifft" else 0, nc, py, out_len, rows, n)
        else:
            st = cfs[rdt](h, px, in_len, nc, py, out_len, rows, n)
        if st:
            _raise(st, f"sk_{stem}_{_SFX[rdt]}")
    if out is not None:
        if target is not ov:
            _assign(ov, target)
        return out
    return _moveback(target, ax)


#: (op, input dtype) -> (plan kind, batch C function, real dtype, output dtype, inverse flag)
_FAST: dict = {}
for _dt in (F32, F64):
    _cd = B.COMPLEX_OF[_dt]
    _FAST[("rfft", _dt)] = (SK_FFT_REAL, _rfftb[_dt], _dt, _cd, None)
    _FAST[("irfft", _cd)] = (SK_FFT_REAL, _irfftb[_dt], _dt, _dt, None)
    _FAST[("fft", _cd)] = (SK_FFT_COMPLEX, _fftb[_dt], _dt, _cd, 0)
    _FAST[("ifft", _cd)] = (SK_FFT_COMPLEX, _fftb[_dt], _dt, _cd, 1)
#: torch dtype -> numpy dtype of the FFT kinds (filled once torch is imported)
_TORCH_NP: dict = {}
_NP_TORCH: dict = {}


def _torch_tables() -> None:
    t = B._torch()
    for td, nd in ((t.float32, F32), (t.float64, F64), (t.complex64, C64), (t.complex128, C128)):
        _TORCH_NP[td] = nd
        _NP_TORCH[nd] = td


def _fft(op: str, x: Any, n: Any, axis: Any, norm: Any, out: Any) -> Any:
    """The last axis of a contiguous numpy array (with or without a contiguous ``out``) or CPU
    tensor, no padding, in one C call; everything else goes to :func:`_fft_checked`."""
    if axis == -1:
        tx = type(x)
        if tx is ndarray:
            e = _FAST.get((op, x.dtype))
            tensor = False
        else:
            ti = B.TORCH or B.torch_info()
            if ti is None or tx is not ti[0]:
                return _fft_checked(op, x, n, axis, norm, out)
            if not _TORCH_NP:
                _torch_tables()
            e = _FAST.get((op, _TORCH_NP.get(x.dtype)))
            tensor = True
        shape = tuple(x.shape)
        if e is not None and shape:
            m = shape[-1]
            if op == "irfft":
                nn = 2 * (m - 1) if n is None else n
                in_len = nn // 2 + 1
            else:
                nn = m if n is None else n
                in_len = nn
            nc = 0 if norm is None else (_NORM.get(norm) if type(norm) is str else None)
            if type(nn) is int and nn >= 1 and in_len == m and nc is not None:
                kind, f, rdt, odt, inv = e
                out_len = nn // 2 + 1 if op == "rfft" else nn
                oshape = shape[:-1] + (out_len,)
                if tensor:
                    if out is not None or x.is_conj() or x.is_neg():
                        return _fft_checked(op, x, n, axis, norm, out)
                    px = B.tensor_ptr(x, ti, _CP[rdt])
                    if px is None:
                        return _fft_checked(op, x, n, axis, norm, out)
                    y = B._torch().empty(oshape, dtype=_NP_TORCH[odt])
                    py = ffi.cast(_CP[rdt], y.data_ptr())
                else:
                    y = _result(out, oshape, odt)
                    if y is None:
                        return _fft_checked(op, x, n, axis, norm, out)
                    try:
                        px = _fb(_CT[rdt], x)
                        py = _fb(_CT[rdt], y, True)
                    except ValueError:  # not contiguous or read-only: the checked path says
                        return _fft_checked(op, x, n, axis, norm, out)
                rows = math.prod(shape[:-1])
                if rows:
                    h = _PLANS.get((kind, nn, rdt is F64)) or _plan(kind, nn, rdt)
                    if inv is None:
                        st = f(h, px, m, nc, py, out_len, rows, nn)
                    else:
                        st = f(h, px, m, inv, nc, py, out_len, rows, nn)
                    if st:
                        _raise(st, f"sk_{'fft' if inv is not None else op}_batch_{_SFX[rdt]}")
                return y
    return _fft_checked(op, x, n, axis, norm, out)


def rfft(x: Any, n: Optional[int] = None, axis: int = -1, norm: Optional[str] = None,
         out: Optional[Any] = None) -> Any:
    """``numpy.fft.rfft``: the FFT of real data, bins 0..n/2 (``sk_rfft_batch_*``).

    All leading axes are transformed in one C call; plans are cached per (length, dtype).

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64, shape (..., m)
        Real input; complex input is a ``TypeError``. Lists are converted to float64.
    n : int, optional
        Transform length: the input is truncated or zero-padded to ``n`` along ``axis``
        (default ``m``).
    axis : int, default -1
        The axis to transform (another axis is moved last, copied, and moved back).
    norm : {None, "backward", "ortho", "forward"}
        numpy's normalisation (None = "backward": forward unscaled).
    out : ndarray or Tensor, optional
        complex64 (float32 input) or complex128 (float64 input) of the result's shape.

    Returns
    -------
    ndarray or Tensor, complex64/complex128, shape (..., n // 2 + 1) (``axis`` replaced)
        ``out`` if given.

    Raises
    ------
    TypeError
        Complex or integer arrays (convert with ``.astype``).
    ValueError
        ``n < 1`` (or an empty axis), a bad ``norm`` or ``axis``, a wrong ``out``.

    Examples
    --------
    >>> X = sigkern.rfft(np.random.default_rng(0).standard_normal((64, 1024)))
    >>> X.shape, X.dtype
    ((64, 513), dtype('complex128'))
    """
    if type(x) is ndarray and n is None and axis == -1:
        dt = x.dtype
        shape = x.shape
        if (dt is F64 or dt is F32) and shape and shape[-1]:
            m = shape[-1]
            nc = 0 if norm is None else (_NORM.get(norm) if type(norm) is str else None)
            p = _PLANS.get((0, m, dt is F64))
            if p is not None and nc is not None:
                h = m // 2 + 1
                cdt, ct, f = (C128, _DA, _rfft_b64) if dt is F64 else (C64, _FA, _rfft_b32)
                y = _result(out, shape[:-1] + (h,), cdt)
                if y is None:
                    return _fft("rfft", x, n, axis, norm, out)
                try:
                    st = f(p, _fb(ct, x), m, nc, _fb(ct, y, True), h, x.size // m, m)
                except ValueError:  # not contiguous or read-only: the checked path says
                    return _fft_checked("rfft", x, n, axis, norm, out)
                if st:
                    _raise(st, f"sk_rfft_batch_{_SFX[dt]}")
                return y
    return _fft("rfft", x, n, axis, norm, out)


def irfft(x: Any, n: Optional[int] = None, axis: int = -1, norm: Optional[str] = None,
          out: Optional[Any] = None) -> Any:
    """``numpy.fft.irfft``: the inverse of :func:`rfft` (``sk_irfft_batch_*``).

    Parameters
    ----------
    x : ndarray or Tensor, complex64 or complex128, shape (..., m)
        Bins 0..n/2; the imaginary parts of bin 0 and (even n) bin n/2 are ignored, as numpy.
        A float array is a ``TypeError`` (it is never reinterpreted as complex).
    n : int, optional
        Output length (default ``2 * (m - 1)``); the input is truncated or zero-padded to
        ``n // 2 + 1`` bins.
    axis : int, default -1
    norm : {None, "backward", "ortho", "forward"}
        None = "backward": the inverse is scaled by 1/n.
    out : ndarray or Tensor, optional
        float32 (complex64 input) or float64 (complex128 input) of the result's shape.

    Returns
    -------
    ndarray or Tensor, float32/float64, shape (..., n) (``axis`` replaced)

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(1000)
    >>> np.allclose(sigkern.irfft(sigkern.rfft(x), n=1000), x)
    True
    """
    return _fft("irfft", x, n, axis, norm, out)


def fft(x: Any, n: Optional[int] = None, axis: int = -1, norm: Optional[str] = None,
        out: Optional[Any] = None) -> Any:
    """``numpy.fft.fft`` of complex data (``sk_fft_batch_*``).

    Parameters
    ----------
    x : ndarray or Tensor, complex64 or complex128, shape (..., m)
        Real arrays are a ``TypeError``: use :func:`rfft`, or convert with
        ``x.astype(np.complex128)``. Lists are converted to complex128.
    n : int, optional
        Truncate or zero-pad to ``n`` along ``axis`` (default ``m``).
    axis : int, default -1
    norm : {None, "backward", "ortho", "forward"}
    out : ndarray or Tensor, optional
        Same dtype as ``x``, the result's shape; may be ``x`` itself (in place).

    Returns
    -------
    ndarray or Tensor, ``x``'s dtype, shape (..., n)

    Examples
    --------
    >>> z = np.exp(2j * np.pi * np.arange(8) / 8)
    >>> np.round(abs(sigkern.fft(z)), 6)
    array([0., 8., 0., 0., 0., 0., 0., 0.])
    """
    return _fft("fft", x, n, axis, norm, out)


def ifft(x: Any, n: Optional[int] = None, axis: int = -1, norm: Optional[str] = None,
         out: Optional[Any] = None) -> Any:
    """``numpy.fft.ifft`` of complex data (``sk_fft_batch_*`` with ``inverse = 1``).

    Parameters as :func:`fft`; with norm None ("backward") the inverse is scaled by 1/n.

    Returns
    -------
    ndarray or Tensor, ``x``'s dtype, shape (..., n)

    Examples
    --------
    >>> z = np.arange(4) + 0j
    >>> np.allclose(sigkern.ifft(sigkern.fft(z)), z)
    True
    """
    return _fft("ifft", x, n, axis, norm, out)


class FftPlan(Handle, free="sk_fft_plan_free"):
    """An FFT plan of one length and precision (``sk_fft_plan_*``), for repeated transforms.

    Parameters
    ----------
    n : int
        Transform length (any n >= 1).
    kind : {"real", "complex"}
        "real": :meth:`rfft` (n reals -> n/2+1 bins) and :meth:`irfft`; "complex": :meth:`fft`
        and :meth:`ifft` (n complex values).
    dtype : np.float32 or np.float64
        Precision (complex64/complex128 name the same precisions).

    Notes
    -----
    The methods transform the last axis of ``(..., n)`` data (``(..., n//2+1)`` bins for
    :meth:`irfft`), all leading axes in one C call; there is no padding (use :func:`rfft` & co.
    for ``n=``/``axis=``). Thread safety: the plan is immutable in C, so one plan may run on any
    number of threads at once. ``close()`` frees it (also on ``with`` exit and garbage
    collection); a closed plan raises :class:`InvalidHandleError`.

    Examples
    --------
    >>> with sigkern.FftPlan(1024, "real", np.float64) as plan:
    ...     X = plan.rfft(np.ones((2, 1024)))
    ...     x = plan.irfft(X)
    >>> X.shape, x.shape
    ((2, 513), (2, 1024))
    """

    __slots__ = ("_h", "_n", "_kind", "_dtype", "_bins", "_cdt", "__weakref__")

    def __init__(self, n: int, kind: str = "real", dtype: Any = np.float32):
        n = _index(n, "FftPlan", "n")
        if kind not in ("real", "complex"):
            raise ValueError(f'FftPlan: kind must be "real" or "complex", got {kind!r}')
        try:
            dt = np.dtype(dtype)
        except TypeError:
            raise TypeError(f"FftPlan: dtype must be np.float32 or np.float64, got {dtype!r}") from None
        dt = B.REAL_OF.get(dt, dt)
        if dt != F32 and dt != F64:
            raise TypeError(f"FftPlan: dtype must be np.float32 or np.float64, got {dtype!r}")
        dt = F32 if dt == F32 else F64
        if n < 1:
            raise ValueError(f"FftPlan: n must be at least 1, got {n}")
        self._h = _NULL
        self._h = _new_plan(SK_FFT_REAL if kind == "real" else SK_FFT_COMPLEX, n, dt)
        k, nn, dbl = _new("int32_t *"), _new("size_t *"), _new("int32_t *")
        st = _plan_info(self._h, k, nn, dbl)
        if st:
            _raise(st, "sk_fft_plan_info")
        self._n = nn[0]
        self._kind = "real" if k[0] == SK_FFT_REAL else "complex"
        self._dtype = F64 if dbl[0] else F32
        self._bins = self._n // 2 + 1 if self._kind == "real" else self._n
        self._cdt = B.COMPLEX_OF[self._dtype]

    @property
    def n(self) -> int:
        """Transform length."""
        return self._n

    @property
    def kind(self) -> str:
        """``"real"`` or ``"complex"``."""
        return self._kind

    @property
    def dtype(self) -> np.dtype:
        """Real element type, ``float32`` or ``float64`` (spectra are the matching complex)."""
        return self._dtype

    def __repr__(self) -> str:
        state = ", closed" if self.closed else ""
        return f"FftPlan(n={self._n}, kind={self._kind!r}, dtype=np.{self._dtype}{state})"

    def _need(self, kind: str, op: str) -> None:
        if self._kind != kind:
            raise ValueError(
                f"FftPlan.{op}: this is a {self._kind} plan; {op} needs FftPlan(n, kind={kind!r})"
            )

    def _run(self, op: str, x: Any, norm: Any, out: Any, in_dt: np.dtype, in_len: int,
             out_dt: np.dtype, out_len: int, f1: Any, fb: Any, inverse: Optional[int]) -> Any:
        """Fast path for a contiguous numpy array of the plan's dtype (with or without a
        contiguous ``out`` of the result's dtype and shape); else the checked path."""
        if type(x) is ndarray and x.dtype is in_dt:
            shape = x.shape
            nc = 0 if norm is None else (_NORM.get(norm) if type(norm) is str else None)
            if shape and shape[-1] == in_len and nc is not None:
                ct = _CT[self._dtype]
                y = _result(out, shape[:-1] + (out_len,), out_dt)
                if y is None:
                    return _fft_checked(op, x, None, -1, norm, out, self)
                try:
                    if len(shape) == 1:
                        st = f1(self._h, _fb(ct, x), nc, _fb(ct, y, True), self._n)
                    elif inverse is None:
                        st = fb(self._h, _fb(ct, x), in_len, nc, _fb(ct, y, True), out_len,
                                x.size // in_len, self._n)
                    else:
                        st = fb(self._h, _fb(ct, x), in_len, inverse, nc, _fb(ct, y, True),
                                out_len, x.size // in_len, self._n)
                except ValueError:  # not contiguous or read-only: the checked path says
                    return _fft_checked(op, x, None, -1, norm, out, self)
                if st:
                    sfx = _SFX[self._dtype]
                    _raise(st, f"sk_{op}_{sfx}" if len(shape) == 1 else
                           f"sk_{'fft' if inverse is not None else op}_batch_{sfx}")
                return y
        return _fft_checked(op, x, None, -1, norm, out, self)

    def rfft(self, x: Any, norm: Optional[str] = None, out: Optional[Any] = None) -> Any:
        """Real FFT of the last axis (``sk_rfft_*``, ``sk_rfft_batch_*``).

        Parameters
        ----------
        x : ndarray or Tensor of the plan's dtype, shape (..., n)
        norm : {None, "backward", "ortho", "forward"}
        out : complex ndarray or Tensor of shape (..., n // 2 + 1), optional

        Returns
        -------
        complex64/complex128, shape (..., n // 2 + 1)

        Examples
        --------
        >>> plan = sigkern.FftPlan(8, "real", np.float64)
        >>> abs(plan.rfft(np.ones(8)))
        array([8., 0., 0., 0., 0.])
        """
        if self._kind != "real":
            self._need("real", "rfft")
        return self._run("rfft", x, norm, out, self._dtype, self._n, self._cdt, self._bins,
                         _rfft1[self._dtype], _rfftb[self._dtype], None)

    def irfft(self, x: Any, norm: Optional[str] = None, out: Optional[Any] = None) -> Any:
        """Inverse real FFT of the last axis (``sk_irfft_*``, ``sk_irfft_batch_*``).

        Parameters
        ----------
        x : complex ndarray or Tensor (complex64 for a float32 plan), shape (..., n // 2 + 1)
        norm : {None, "backward", "ortho", "forward"}
        out : ndarray or Tensor of the plan's dtype, shape (..., n), optional

        Returns
        -------
        float32/float64, shape (..., n)

        Examples
        --------
        >>> plan = sigkern.FftPlan(8, "real", np.float64)
        >>> plan.irfft(plan.rfft(np.arange(8.0))).round(12)
        array([0., 1., 2., 3., 4., 5., 6., 7.])
        """
        if self._kind != "real":
            self._need("real", "irfft")
        return self._run("irfft", x, norm, out, self._cdt, self._bins, self._dtype, self._n,
                         _irfft1[self._dtype], _irfftb[self._dtype], None)

    def fft(self, x: Any, norm: Optional[str] = None, out: Optional[Any] = None) -> Any:
        """Complex FFT of the last axis (``sk_fft_*``, ``sk_fft_batch_*``).

        Parameters
        ----------
        x : complex ndarray or Tensor (complex64 for a float32 plan), shape (..., n)
        norm : {None, "backward", "ortho", "forward"}
        out : same dtype and shape, optional; may be ``x`` (in place)

        Returns
        -------
        ``x``'s dtype, shape (..., n)

        Examples
        --------
        >>> plan = sigkern.FftPlan(4, "complex", np.float64)
        >>> plan.fft(np.ones(4, np.complex128))
        array([4.+0.j, 0.+0.j, 0.+0.j, 0.+0.j])
        """
        if self._kind != "complex":
            self._need("complex", "fft")
        return self._run("fft", x, norm, out, self._cdt, self._n, self._cdt, self._n,
                         _fft1[self._dtype], _fftb[self._dtype], 0)

    def ifft(self, x: Any, norm: Optional[str] = None, out: Optional[Any] = None) -> Any:
        """Inverse complex FFT of the last axis (``sk_ifft_*``, ``sk_fft_batch_*``); arguments
        as :meth:`fft`.

        Examples
        --------
        >>> plan = sigkern.FftPlan(4, "complex", np.float64)
        >>> plan.ifft(np.array([4, 0, 0, 0], np.complex128))
        array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j])
        """
        if self._kind != "complex":
            self._need("complex", "ifft")
        return self._run("ifft", x, norm, out, self._cdt, self._n, self._cdt, self._n,
                         _ifft1[self._dtype], _fftb[self._dtype], 1)


# ---------------------------------------------------------------------------------------------
# Windows
# ---------------------------------------------------------------------------------------------


def _window_spec(window: Any, func: str) -> Tuple[int, float]:
    """scipy's window description -> (SK_WINDOW_* kind, parameter)."""
    if isinstance(window, (str, tuple)):
        if isinstance(window, tuple) and (not window or not isinstance(window[0], str)):
            raise ValueError(f"{func}: the first entry of the window tuple {window!r} must be a name")
        name = window if isinstance(window, str) else window[0]
        args = () if isinstance(window, str) else window[1:]
        if name.endswith("_periodic"):  # scipy's suffixes (see _suffix_periodic)
            name = name[:-9]
        elif name.endswith("_symmetric"):
            name = name[:-10]
        entry = _WIN.get(name)
        if entry is None:
            raise ValueError(
                f"{func}: unknown or unsupported window {window!r}; sigkern supports {_WIN_SUPPORTED}"
            )
        kind, rule = entry
        if rule is False:
            if args:
                raise ValueError(f"{func}: window {name!r} takes no parameters, got {window!r}")
            return kind, 0.0
        if len(args) > 1:
            raise ValueError(f"{func}: window {name!r} takes one parameter, got {window!r}")
        if not args:
            if rule is True:
                raise ValueError(
                    f"{func}: window {name!r} needs its parameter: pass ({name!r}, beta), e.g. "
                    f"({name!r}, 8.6)"
                )
            return kind, float(rule)
        try:
            return kind, float(args[0])
        except (TypeError, ValueError):
            raise TypeError(f"{func}: the window parameter in {window!r} must be a number") from None
    if isinstance(window, numbers.Real) and not isinstance(window, bool):
        return 6, float(window)  # scipy: a number is a Kaiser beta
    raise ValueError(
        f"{func}: window must be a name, a (name, parameter) tuple or a float (Kaiser beta), "
        f"got {B.describe(window)}; sigkern supports {_WIN_SUPPORTED}"
    )


def _suffix_periodic(window: Any, fftbins: bool) -> bool:
    """scipy: a ``_periodic``/``_symmetric`` suffix of the name overrides ``fftbins``."""
    name = window if isinstance(window, str) else (window[0] if isinstance(window, tuple) and
                                                    window and isinstance(window[0], str) else "")
    if name.endswith("_periodic"):
        return True
    if name.endswith("_symmetric"):
        return False
    return bool(fftbins)


def get_window(window: Union[str, Tuple[str, float], float], Nx: int, fftbins: bool = True,
               dtype: Any = np.float64) -> np.ndarray:
    """``scipy.signal.get_window``: every window scipy accepts, with its names, aliases,
    parameters and defaults (``sk_window_params_*``).

    Parameters
    ----------
    window : str, tuple or float
        A name (``"hann"``, ``"hamming"``, ``"blackman"``, ``"blackmanharris"``, ``"flattop"``,
        ``"boxcar"``, ``"barthann"``, ``"bartlett"``, ``"bohman"``, ``"cosine"``, ``"lanczos"``
        / ``"sinc"``, ``"nuttall"``, ``"parzen"``, ``"triang"``, ``"tukey"``, ``"exponential"``
        / ``"poisson"``, ``"taylor"`` and scipy's aliases), a tuple with parameters
        (``("kaiser", beta)``, ``("tukey", alpha)``, ``("chebwin", at)``, ``("dpss", NW)``,
        ``("exponential", center, tau)``, ``("general_cosine", a)``,
        ``("general_hamming", alpha)``, ``("kaiser_bessel_derived", beta)`` (symmetric only),
        ``("taylor", nbar, sll, norm)``, ``("gaussian", std)``,
        ``("general_gaussian", p, sig)``), or a float (a Kaiser beta); scipy's
        ``_periodic``/``_symmetric`` suffixes are honoured.
    Nx : int
        Window length (> 0).
    fftbins : bool, default True
        True: periodic (for spectral analysis, as scipy); False: symmetric.
    dtype : np.float32 or np.float64

    Returns
    -------
    ndarray of shape (Nx,) and ``dtype``

    Raises
    ------
    ValueError
        An unknown window (the message lists the supported ones), a missing Kaiser beta,
        ``Nx <= 0``.

    Examples
    --------
    >>> sigkern.get_window("hann", 4)
    array([0. , 0.5, 1. , 0.5])
    """
    func = "get_window"
    if not (isinstance(Nx, numbers.Integral) and Nx > 0):
        raise ValueError(f"{func}: Nx must be a positive integer, got {Nx!r}")
    if not isinstance(fftbins, (bool, np.bool_)):
        raise ValueError(f"{func}: fftbins must be a bool, got {fftbins!r}")
    dt = np.dtype(dtype)
    if dt != F32 and dt != F64:
        raise TypeError(f"{func}: dtype must be np.float32 or np.float64, got {dtype!r}")
    dt = F32 if dt == F32 else F64
    kind, params = _window_params_spec(window, func)
    periodic = _suffix_periodic(window, fftbins)
    w = np.empty(int(Nx), dt)
    pp = _fb(_DA, params) if params.size else ffi.NULL
    st = _window_params[dt](kind, pp, 1 if periodic else 0, _fb(_CT[dt], w, True), params.size, int(Nx))
    if st:
        _raise(st, f"sk_window_params_{_SFX[dt]}")
    return w


# ---------------------------------------------------------------------------------------------
# STFT / ISTFT
# ---------------------------------------------------------------------------------------------

_ONES: dict = {}


def _stft_params(func: str, n_fft: Any, hop_length: Any, win_length: Any) -> Tuple[int, int, int]:
    n_fft = _index(n_fft, func, "n_fft")
    if n_fft < 1:
        raise ValueError(f"{func}: n_fft must be at least 1, got {n_fft}")
    hop = n_fft // 4 if hop_length is None else _index(hop_length, func, "hop_length")
    wl = n_fft if win_length is None else _index(win_length, func, "win_length")
    if hop < 1:
        raise ValueError(f"{func}: hop_length must be at least 1, got {hop} (default n_fft // 4)")
    if not 1 <= wl <= n_fft:
        raise ValueError(f"{func}: win_length must be in 1..n_fft = {n_fft}, got {wl}")
    return n_fft, hop, wl


def _pad_code(pad_mode: Any, func: str) -> int:
    c = _PAD.get(pad_mode) if isinstance(pad_mode, str) else None
    if c is None:
        if pad_mode in _PAD_TORCH_ONLY:
            raise NotImplementedError(
                f'{func}: pad_mode {pad_mode!r} is not supported; sigkern pads with "reflect" or '
                f'"constant" (zeros)'
            )
        raise ValueError(f'{func}: pad_mode must be "reflect" or "constant", got {pad_mode!r}')
    return c


def _stft_window(window: Any, wl: int, dt: np.dtype, func: str) -> Any:
    """The window as a contiguous array/tensor of ``wl`` values of ``dt`` (None -> ones)."""
    if window is None:
        w = _ONES.get((wl, dt))
        if w is None:
            w = np.ones(wl, dt)
            w.flags.writeable = False
            _ONES[(wl, dt)] = w
        return w
    if isinstance(window, (str, tuple)):
        return get_window(window, wl, True, dt)
    w = B.as_input(window, func, "window")
    wdt = B.dtype_of(w)
    if wdt != dt:
        raise TypeError(
            f"{func}: window has dtype {wdt} but the signal has {dt}; pass a window of the "
            f"signal's dtype (window.astype(np.{dt}) / window.to(torch.{dt}))"
        )
    if tuple(w.shape) != (wl,):
        raise ValueError(
            f"{func}: window must have shape ({wl},) (win_length), got {tuple(w.shape)}"
        )
    return w


def _frames(n_fft: int, hop: int, wl: int, center: int, pad: int, n: int) -> int:
    fr = _new("size_t *")
    st = _stft_frames(n_fft, hop, wl, center, pad, fr, n)
    if st:
        _raise(st, "sk_stft_frames")
    return fr[0]


def _spec_out(out: Any, shape: Tuple[int, ...], cdt: np.dtype, func: str) -> Any:
    """``out`` of shape (..., n_freq, frames) whose swapped view (..., frames, n_freq) is
    C-contiguous: that view (the C layout)."""
    B.check_out(out, shape, cdt, func)
    _check_writable(out, func)
    buf = _swap(out)
    if not _is_contig(buf):
        raise ValueError(
            f"{func}: out must have the library's frame-major layout: out.swapaxes(-1, -2) "
            f"C-contiguous (e.g. np.empty((..., frames, n_freq), dtype).swapaxes(-1, -2), or "
            f"an earlier result of {func}); got strides {_strides(out)}"
        )
    return buf


def _strides(a: Any) -> tuple:
    return tuple(a.strides) if isinstance(a, np.ndarray) else tuple(a.stride())


def _real_view(z: Any, buf: Any) -> Any:
    """return_complex=False: (..., n_freq, frames, 2) real view of a result."""
    if isinstance(z, np.ndarray):
        r = buf.view(B.REAL_OF[buf.dtype]).reshape(tuple(buf.shape) + (2,))
        return r.swapaxes(-2, -3)
    return B._torch().view_as_real(z)


def stft(x: Any, n_fft: int, hop_length: Optional[int] = None, win_length: Optional[int] = None,
         window: Any = None, center: bool = True, pad_mode: str = "reflect",
         normalized: bool = False, onesided: Optional[bool] = None, return_complex: bool = True,
         out: Optional[Any] = None) -> Any:
    """``torch.stft``: short-time Fourier transform with torch's parameters and defaults
    (``sk_stft_*``).

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64, shape (..., n), C-contiguous
        Real signal(s); leading axes are batch/channels (one C call per row).
    n_fft : int
    hop_length : int, default ``n_fft // 4``
        At most ``win_length`` (the library refuses larger hops, which skip samples; torch
        allows them).
    win_length : int, default ``n_fft``
    window : ndarray or Tensor of shape (win_length,) and x's dtype, or a window name, optional
        None means ones (as torch). A name or tuple is made with :func:`get_window`
        (periodic). A window shorter than n_fft is centred, as torch.
    center : bool, default True
        Pad ``n_fft // 2`` samples on both sides.
    pad_mode : {"reflect", "constant"}
        torch's "replicate" and "circular" raise ``NotImplementedError``.
    normalized : bool
        Multiply by ``n_fft ** -0.5``.
    onesided : bool, default True
        ``n_fft // 2 + 1`` bins; False gives all ``n_fft``.
    return_complex : bool, default True
        False returns a real view of shape (..., n_freq, frames, 2).
    out : complex ndarray or Tensor, shape (..., n_freq, frames), optional
        Must have the frame-major layout: ``out.swapaxes(-1, -2)`` C-contiguous (an earlier
        result, or ``np.empty((..., frames, n_freq), dtype).swapaxes(-1, -2)``).

    Returns
    -------
    ndarray or Tensor, complex64/complex128, shape (..., n_freq, frames)
        A transposed view of a C-contiguous ``(..., frames, n_freq)`` buffer, exactly
        ``torch.stft(..., return_complex=True)``'s memory layout (strides ``(1, n_freq)``).
        ``np.ascontiguousarray(S)`` gives a row-major copy if needed.

    Raises
    ------
    TypeError
        Complex or integer input; a window of another dtype.
    ValueError
        Non-contiguous input, a bad window shape or parameters; :class:`BadArgumentError`
        from the library for a signal too short for one frame (e.g. reflect padding with
        ``n <= n_fft // 2``) or ``hop_length > win_length``.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(16000)
    >>> S = sigkern.stft(x, 512, window=sigkern.get_window("hann", 512))
    >>> S.shape, S.dtype
    ((257, 126), dtype('complex128'))
    """
    func = "stft"
    x = _real_input(x, func, "x")
    dt = B.float_dtype(x, func, "x")
    n_fft, hop, wl = _stft_params(func, n_fft, hop_length, win_length)
    pad = _pad_code(pad_mode, func)
    ones = 1 if onesided is None or onesided else 0
    w = _stft_window(window, wl, dt, func)
    if x.ndim == 0:
        raise ValueError(f"{func}: x is zero-dimensional; pass a signal of shape (..., n)")
    px, _ = B.pointer(x, dt, func, "x")
    pw, _ = B.pointer(w, dt, func, "window")
    n = x.shape[-1]
    lead = tuple(x.shape[:-1])
    c = _flag(center)
    frames = _frames(n_fft, hop, wl, c, pad, n)
    n_freq = n_fft // 2 + 1 if ones else n_fft
    cdt = B.COMPLEX_OF[dt]
    if out is not None:
        if not return_complex:
            raise ValueError(f"{func}: out= needs return_complex=True (a complex array)")
        buf = _spec_out(out, lead + (n_freq, frames), cdt, func)
        res = out
    else:
        buf = B.new_like(x, lead + (frames, n_freq), cdt)
        res = _swap(buf)
    rows = math.prod(lead)
    if rows:
        pb, _ = B.pointer(buf, cdt, func, "out", writable=True)
        ylen = frames * n_freq
        nrm = _flag(normalized)
        if rows == 1:
            st = _stft[dt](px, pw, n_fft, hop, wl, c, pad, ones, nrm, pb, ylen, n)
            if st:
                _raise(st, f"sk_stft_{_SFX[dt]}")
        else:  # one call for the batch
            st = _stft_batch[dt](px, n, rows, pw, n_fft, hop, wl, c, pad, ones, nrm, pb,
                                 rows * ylen, n)
            if st:
                _raise(st, f"sk_stft_batch_{_SFX[dt]}")
    return res if return_complex else _real_view(res, buf)


def istft(X: Any, n_fft: int, hop_length: Optional[int] = None, win_length: Optional[int] = None,
          window: Any = None, center: bool = True, normalized: bool = False,
          onesided: Optional[bool] = None, length: Optional[int] = None,
          out: Optional[Any] = None) -> Any:
    """``torch.istft``: inverse STFT by windowed overlap-add (``sk_istft_*``).

    Parameters
    ----------
    X : ndarray or Tensor, complex64 or complex128, shape (..., n_freq, frames)
        A spectrogram in :func:`stft`'s layout (frame-major memory; other layouts are copied
        once). Leading axes are batch/channels.
    n_fft, hop_length, win_length, window, center, normalized
        As given to :func:`stft` (window None = ones; its dtype is X's real dtype).
    onesided : bool, optional
        Default: ``n_freq != n_fft`` (torch's rule). n_freq must be ``n_fft // 2 + 1``
        (onesided) or ``n_fft``.
    length : int, optional
        Output length (default: torch's, ``n_fft + hop * (frames - 1)`` minus the centre
        padding); a longer one is padded with zeros.
    out : ndarray or Tensor, float32/float64, shape (..., length), optional

    Returns
    -------
    ndarray or Tensor, float32 (complex64 input) or float64, shape (..., length)

    Raises
    ------
    BadArgumentError
        The window fails the NOLA condition (its overlap-added square vanishes somewhere).

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(16000)
    >>> w = sigkern.get_window("hann", 512)
    >>> y = sigkern.istft(sigkern.stft(x, 512, window=w), 512, window=w, length=16000)
    >>> np.allclose(x, y)
    True
    """
    func = "istft"
    X = _complex_input(X, func, "X")
    _cpu_tensor(X, func, "X")
    cdt = B.dtype_of(X)
    dt = B.REAL_OF[cdt]
    n_fft, hop, wl = _stft_params(func, n_fft, hop_length, win_length)
    if X.ndim < 2:
        raise ValueError(f"{func}: X must have shape (..., n_freq, frames), got {tuple(X.shape)}")
    n_freq, frames = X.shape[-2], X.shape[-1]
    ones = (n_freq != n_fft) if onesided is None else bool(onesided)
    want = n_fft // 2 + 1 if ones else n_fft
    if n_freq != want:
        raise ValueError(
            f"{func}: X has {n_freq} frequency bins but n_fft = {n_fft} with onesided={ones} "
            f"needs {want}"
        )
    w = _stft_window(window, wl, dt, func)
    c = _flag(center)
    if length is None:
        ln = _new("size_t *")
        st = _istft_len(n_fft, hop, wl, c, frames, ln)
        if st:
            _raise(st, "sk_istft_len")
        length = ln[0]
    else:
        length = _index(length, func, "length")
        if length < 0:
            raise ValueError(f"{func}: length must be >= 0, got {length}")
    lead = tuple(X.shape[:-2])
    if out is not None:
        B.check_out(out, lead + (length,), dt, func)
        _check_writable(out, func)
        y = out
    else:
        y = B.new_like(X, lead + (length,), dt)
    Xt = _swap(X)
    if not _is_contig(Xt):
        Xt = _contig(Xt)
    rows = math.prod(lead)
    if rows:
        px, _ = B.pointer(Xt, cdt, func, "X")
        pw, _ = B.pointer(w, dt, func, "window")
        py, _ = B.pointer(y, dt, func, "out", writable=True)
        f = _istft[dt]
        step = 2 * frames * n_freq
        nrm = _flag(normalized)
        for r in range(rows):
            st = f(px + r * step, pw, frames, n_fft, hop, wl, c, _flag(ones), nrm,
                   py + r * length, length)
            if st:
                _raise(st, f"sk_istft_{_SFX[dt]}")
    return y


class StftStream(Handle, free="sk_stft_stream_free"):
    """Streaming STFT (``sk_stft_stream_*``): push blocks of one signal, get its frames as they
    complete; concatenated, they equal one :func:`stft` call on the whole signal (bit for bit).

    Parameters
    ----------
    n_fft, hop_length, win_length, window, center, pad_mode, normalized, onesided
        As :func:`stft` (window None = ones; a name is made with :func:`get_window`).
    dtype : np.float32 or np.float64
        Sample type of the blocks; frames are complex64/complex128.

    Notes
    -----
    Thread safety: a stream holds the state of one signal. Use it from one thread at a time:
    a call made while another thread is inside push/finish/reset of the same stream raises
    :class:`InvalidHandleError` ("in use") without touching the stream. Different streams
    run in parallel. ``close()`` frees the C stream (also on ``with`` exit and garbage
    collection); a closed stream raises :class:`InvalidHandleError`.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(8000).astype(np.float32)
    >>> with sigkern.StftStream(512, 128, dtype=np.float32) as s:
    ...     parts = [s.push(b) for b in np.split(x, 4)] + [s.finish()]
    >>> S = np.concatenate(parts, axis=-1)
    >>> np.array_equal(S, sigkern.stft(x, 512, 128))
    True
    """

    __slots__ = ("_h", "_dtype", "_cdt", "_n_fft", "_hop", "_wl", "_n_freq", "_center",
                 "_pad_mode", "_onesided", "_normalized", "_lock", "_tensor", "_fr",
                 "__weakref__")

    def __init__(self, n_fft: int, hop_length: Optional[int] = None,
                 win_length: Optional[int] = None, window: Any = None, center: bool = True,
                 pad_mode: str = "reflect", normalized: bool = False, onesided: bool = True,
                 dtype: Any = np.float32):
        func = "StftStream"
        self._h = _NULL
        dt = np.dtype(dtype)
        if dt != F32 and dt != F64:
            raise TypeError(f"{func}: dtype must be np.float32 or np.float64, got {dtype!r}")
        dt = F32 if dt == F32 else F64
        n_fft, hop, wl = _stft_params(func, n_fft, hop_length, win_length)
        pad = _pad_code(pad_mode, func)
        ones = 1 if onesided is None or onesided else 0
        w = _stft_window(window, wl, dt, func)
        pw, _ = B.pointer(w, dt, func, "window")
        pp = _new("SkStftStream **")
        st = _stream_new[dt](pw, n_fft, hop, wl, _flag(center), pad, ones, _flag(normalized), pp)
        if st:
            _raise(st, f"sk_stft_stream_{_SFX[dt]}_new")
        self._h = pp[0]
        self._dtype, self._cdt = dt, B.COMPLEX_OF[dt]
        self._n_fft, self._hop, self._wl = n_fft, hop, wl
        self._n_freq = n_fft // 2 + 1 if ones else n_fft
        self._center, self._pad_mode = bool(center), pad_mode
        self._onesided, self._normalized = bool(ones), bool(normalized)
        self._lock = threading.Lock()
        self._tensor = False
        # the frame-count out-parameter, made once: push/finish use it under self._lock
        self._fr = _new("size_t *")

    n_fft = property(lambda self: self._n_fft, doc="FFT length.")
    hop_length = property(lambda self: self._hop, doc="Hop between frames, in samples.")
    win_length = property(lambda self: self._wl, doc="Window length.")
    n_freq = property(lambda self: self._n_freq, doc="Frequency bins per frame.")
    dtype = property(lambda self: self._dtype, doc="Sample dtype (float32 or float64).")
    center = property(lambda self: self._center, doc="Whether the signal is centre-padded.")
    pad_mode = property(lambda self: self._pad_mode, doc='"reflect" or "constant".')
    onesided = property(lambda self: self._onesided, doc="Whether frames hold n_fft//2+1 bins.")
    normalized = property(lambda self: self._normalized, doc="Whether frames are scaled by n_fft**-0.5.")

    def _busy(self, meth: str) -> InvalidHandleError:
        return InvalidHandleError(
            -7, status_name(-7),
            f"StftStream.{meth}: the stream is in use by another thread (one stream per thread)",
            f"StftStream.{meth}",
        )

    def push(self, x: Any) -> Any:
        """Appends samples and returns the frames they complete (``sk_stft_stream_*_push``).

        Parameters
        ----------
        x : ndarray or Tensor of the stream's dtype, shape (n,), C-contiguous

        Returns
        -------
        ndarray or Tensor (x's kind), complex64/complex128, shape (n_freq, k)
            k >= 0 frames, in :func:`stft`'s layout (a transposed frame-major buffer).

        Examples
        --------
        >>> s = sigkern.StftStream(256, 64, dtype=np.float64)
        >>> s.push(np.zeros(1000)).shape
        (129, 14)
        """
        func = "StftStream.push"
        if type(x) is ndarray and x.dtype is self._dtype and x.ndim == 1 and x.flags.c_contiguous:
            px = _fb(_CT[self._dtype], x)
            self._tensor = False
        else:
            x = B.as_input(x, func, "x", (self._dtype,))
            if x.ndim != 1:
                raise ValueError(
                    f"{func}: x must be one-dimensional (one signal), got shape {tuple(x.shape)}"
                )
            px, _ = B.pointer(x, self._dtype, func, "x")
            self._tensor = B.is_tensor(x)
        if not self._lock.acquire(False):
            raise self._busy("push")
        try:
            n = x.shape[0]
            fr = self._fr
            st = _stream_push_frames(self._h, fr, n)
            if st:
                _raise(st, "sk_stft_stream_push_frames")
            k = fr[0]
            if self._tensor:
                y = B.new_like(x, (k, self._n_freq), self._cdt)
                py, _ = B.pointer(y, self._cdt, func, "out", writable=True)
            else:
                y = np.empty((k, self._n_freq), self._cdt)
                py = _fb(_CT[self._dtype], y, True)
            st = _stream_push[self._dtype](self._h, px, py, k * self._n_freq, fr, n)
            if st:
                _raise(st, f"sk_stft_stream_{_SFX[self._dtype]}_push")
            got = fr[0]
        finally:
            self._lock.release()
        return _swap(y[:got])

    def finish(self) -> Any:
        """Ends the signal: pads its end as ``center``/``pad_mode`` say and returns the last
        frames (``sk_stft_stream_*_finish``), shape (n_freq, k), of the kind of the last push.
        Pushing again needs :meth:`reset`.

        Raises
        ------
        BadArgumentError
            The whole signal is too short for one frame (the stream is unchanged).

        Examples
        --------
        >>> s = sigkern.StftStream(256, 64, dtype=np.float64)
        >>> _ = s.push(np.zeros(1000)); s.finish().shape
        (129, 2)
        """
        if not self._lock.acquire(False):
            raise self._busy("finish")
        try:
            fr = self._fr
            st = _stream_finish_frames(self._h, fr)
            if st:
                _raise(st, "sk_stft_stream_finish_frames")
            k = fr[0]
            y = np.empty((k, self._n_freq), self._cdt)
            st = _stream_finish[self._dtype](self._h, _fb(_CT[self._dtype], y, True),
                                              k * self._n_freq, fr)
            if st:
                _raise(st, f"sk_stft_stream_{_SFX[self._dtype]}_finish")
            got = fr[0]
        finally:
            self._lock.release()
        y = y[:got]
        if self._tensor:
            y = B._torch().from_numpy(y)
        return _swap(y)

    def reset(self) -> None:
        """Forgets all input (and a finish): the stream starts a new signal
        (``sk_stft_stream_reset``).

        Examples
        --------
        >>> s = sigkern.StftStream(256, 64); s.reset()
        """
        if not self._lock.acquire(False):
            raise self._busy("reset")
        try:
            st = _stream_reset(self._h)
        finally:
            self._lock.release()
        if st:
            _raise(st, "sk_stft_stream_reset")

    def __repr__(self) -> str:
        return (f"StftStream(n_fft={self._n_fft}, hop_length={self._hop}, win_length={self._wl}, "
                f"dtype=np.{self._dtype}{', closed' if self.closed else ''})")


# ---------------------------------------------------------------------------------------------
# Spectra and dB
# ---------------------------------------------------------------------------------------------


def spec_power(X: Any, power: float = 2.0, out: Optional[Any] = None) -> Any:
    """``np.abs(X) ** power`` of a complex spectrum (``sk_spec_power_*``): power 2 is
    re² + im² (no square root), power 1 the magnitude.

    Parameters
    ----------
    X : ndarray or Tensor, complex64 or complex128, any shape
        C-contiguous, or one dense block in another axis order (such as an :func:`stft`
        result); the result has X's memory layout.
        A float array is a ``TypeError``: complex data viewed as float is not accepted (pass
        ``X.view(np.complex64)``).
    power : float > 0, default 2.0
    out : ndarray or Tensor, float32 (complex64 input) / float64, X's shape, optional

    Returns
    -------
    ndarray or Tensor, X's shape, the real dtype of X's precision

    Examples
    --------
    >>> sigkern.spec_power(np.array([3 + 4j, 1j]))
    array([25.,  1.])
    """
    if type(X) is ndarray and out is None:
        dt = X.dtype
        if dt is C128:
            y = np.empty(X.shape, F64)
            try:
                st = _spec_power[F64](_fb(_DA, X), power, _fb(_DA, y, True), X.size)
            except (ValueError, TypeError):
                return _spec_power_checked(X, power, out)
            if st:
                _raise(st, "sk_spec_power_f64")
            return y
        if dt is C64:
            y = np.empty(X.shape, F32)
            try:
                st = _spec_power[F32](_fb(_FA, X), power, _fb(_FA, y, True), X.size)
            except (ValueError, TypeError):
                return _spec_power_checked(X, power, out)
            if st:
                _raise(st, "sk_spec_power_f32")
            return y
    return _spec_power_checked(X, power, out)


def _dense(a: Any) -> Optional[tuple]:
    """The axis order in which ``a`` is C-contiguous (its memory one dense block, e.g. an
    :func:`stft` result or an elementwise function of one), or None."""
    if _is_contig(a):
        return None
    st = _strides(a)
    perm = tuple(sorted(range(len(st)), key=lambda i: -st[i]))
    v = a.transpose(perm) if isinstance(a, np.ndarray) else a.permute(perm)
    if not _is_contig(v):
        raise ValueError(
            f"{B.describe(a)} is not one dense block of memory (strides {st}); pass a "
            f"contiguous copy (np.ascontiguousarray / .contiguous())"
        )
    return perm


def _elementwise(func: str, x: Any, name: str, xdt: np.dtype, out: Any, odt: np.dtype) -> tuple:
    """Pointers of an elementwise input and its output of ``x``'s shape and memory layout:
    C-contiguous data, or any dense block (as an stft result, whose last two axes are
    transposed); the output is allocated, or checked, with the same layout."""
    shape = tuple(x.shape)
    try:
        perm = _dense(x)
    except ValueError as e:
        raise ValueError(f"{func}: {name} is {e}") from None
    if out is None:
        if perm is None:
            out = B.new_like(x, shape, odt)
        elif isinstance(x, np.ndarray):
            out = np.empty_like(x, dtype=odt)
        else:
            out = B._torch().empty_like(x, dtype=B._torch_dtype(odt))
    else:
        B.check_out(out, shape, odt, func)
        _check_writable(out, func)
    xv, ov = x, out
    if perm is not None:
        xv = x.transpose(perm) if isinstance(x, np.ndarray) else x.permute(perm)
        ov = out.transpose(perm) if isinstance(out, np.ndarray) else out.permute(perm)
    if perm is not None and not _is_contig(ov):
        raise ValueError(
            f"{func}: out must have the memory layout of {name} (strides {_strides(x)} in "
            f"elements of {name}), got strides {_strides(out)}"
        )
    px, _ = B.pointer(xv, xdt, func, name)
    py, _ = B.pointer(ov, odt, func, "out", writable=True)
    return px, py, out, math.prod(shape)


def _spec_power_checked(X: Any, power: Any, out: Any) -> Any:
    func = "spec_power"
    X = _complex_input(X, func, "X")
    _cpu_tensor(X, func, "X")
    cdt = B.dtype_of(X)
    dt = B.REAL_OF[cdt]
    power = float(power)
    px, py, out, n = _elementwise(func, X, "X", cdt, out, dt)
    st = _spec_power[dt](px, power, py, n)
    if st:
        _raise(st, f"sk_spec_power_{_SFX[dt]}")
    return out


def power_to_db(S: Any, ref: Union[float, Callable[[Any], Any]] = 1.0, amin: float = 1e-10,
                top_db: Optional[float] = 80.0, out: Optional[Any] = None) -> Any:
    """``librosa.power_to_db``: ``10·log10(max(amin, S)) − 10·log10(max(amin, |ref|))``,
    floored at its maximum − ``top_db`` (``sk_power_to_db_*``).

    Parameters
    ----------
    S : ndarray or Tensor, float32 or float64, any shape
        C-contiguous, or one dense block in another axis order (such as
        ``spec_power(stft(x))``); the result has S's memory layout.
        A power spectrogram (complex input is a ``TypeError``: apply :func:`spec_power` first).
    ref : float or callable, default 1.0
        The reference power, or a function of S giving it, e.g. ``np.max`` (librosa's
        ``ref=np.max``).
    amin : float > 0, default 1e-10
    top_db : float >= 0 or None, default 80.0
        The floor is taken below the maximum of the whole array (as librosa); None: no floor.
    out : ndarray or Tensor of S's shape and dtype, optional; may be ``S`` (in place)

    Returns
    -------
    ndarray or Tensor of S's shape and dtype (float32 stays float32)

    Raises
    ------
    BadArgumentError
        ``amin <= 0``, ``top_db < 0``, a non-finite reference.

    Examples
    --------
    >>> sigkern.power_to_db(np.array([1.0, 10.0, 100.0]), ref=np.max)
    array([-20., -10.,   0.])
    """
    if type(S) is ndarray and out is None and type(ref) is float and type(top_db) is float:
        dt = S.dtype
        if dt is F32 or dt is F64:
            y = np.empty(S.shape, dt)
            ct = _CT[dt]
            try:
                st = _power_to_db[dt](_fb(ct, S), ref, amin, top_db, _fb(ct, y, True), S.size)
            except ValueError:
                return _power_to_db_checked(S, ref, amin, top_db, out)
            if st:
                _raise(st, f"sk_power_to_db_{_SFX[dt]}")
            return y
    return _power_to_db_checked(S, ref, amin, top_db, out)


def _ref_value(ref: Callable[[Any], Any], S: Any) -> float:
    """``ref(S)`` as a float; numpy reductions such as ``np.max`` get a tensor's numpy view."""
    if B.is_tensor(S):
        try:
            return float(ref(S))
        except TypeError:
            return float(ref(S.detach().numpy()))
    return float(ref(S))


def _power_to_db_checked(S: Any, ref: Any, amin: Any, top_db: Any, out: Any) -> Any:
    func = "power_to_db"
    dt0 = B.dtype_of(S)
    if dt0 is not None and dt0.kind == "c":
        raise TypeError(
            f"{func}: S must be a real power spectrogram (float32 or float64), got "
            f"{B.describe(S)}; compute sigkern.spec_power(S) first"
        )
    S = B.as_input(S, func, "S")
    _cpu_tensor(S, func, "S")
    dt = B.float_dtype(S, func, "S")
    r = _ref_value(ref, S) if callable(ref) else float(ref)
    td = _INF if top_db is None else float(top_db)
    px, py, out, n = _elementwise(func, S, "S", dt, out, dt)
    st = _power_to_db[dt](px, r, float(amin), td, py, n)
    if st:
        _raise(st, f"sk_power_to_db_{_SFX[dt]}")
    return out


# ---------------------------------------------------------------------------------------------
# Mel
# ---------------------------------------------------------------------------------------------


def _mel_norm(norm: Any, func: str) -> int:
    if norm is None:
        return 0
    if norm == "slaney":
        return 1
    if isinstance(norm, numbers.Number):
        raise NotImplementedError(
            f'{func}: norm={norm!r} (a p-norm) is not supported; sigkern supports "slaney" and None'
        )
    raise ValueError(f'{func}: norm must be "slaney" or None, got {norm!r}')


def _fmax(fmax: Any, func: str) -> float:
    if fmax is None:
        return 0.0  # the library's "sr / 2"
    f = float(fmax)
    if not f > 0:
        raise ValueError(f"{func}: fmax must be > 0 (or None for sr / 2), got {fmax!r}")
    return f


def _real_dtype(dtype: Any, func: str) -> np.dtype:
    try:
        dt = np.dtype(dtype)
    except TypeError:
        dt = None
    if dt != F32 and dt != F64:
        raise TypeError(f"{func}: dtype must be np.float32 or np.float64, got {dtype!r}")
    return F32 if dt == F32 else F64


def mel_filters(sr: float, n_fft: int, n_mels: int = 128, fmin: float = 0.0,
                fmax: Optional[float] = None, htk: bool = False,
                norm: Optional[str] = "slaney", dtype: Any = np.float32) -> np.ndarray:
    """``librosa.filters.mel``: the mel filterbank (``sk_mel_filterbank_*``).

    Parameters
    ----------
    sr : float
        Sample rate (> 0).
    n_fft : int
    n_mels : int, default 128
    fmin, fmax : float
        Band edges in Hz (fmax None: sr / 2).
    htk : bool
        HTK mel scale instead of Slaney's.
    norm : {"slaney", None}
        Slaney (constant energy) or no normalisation (peaks of 1); a numeric p-norm raises
        ``NotImplementedError``.
    dtype : np.float32 (librosa's default) or np.float64

    Returns
    -------
    ndarray, shape (n_mels, n_fft // 2 + 1)

    Examples
    --------
    >>> sigkern.mel_filters(22050, 2048).shape
    (128, 1025)
    """
    func = "mel_filters"
    dt = _real_dtype(dtype, func)
    n_fft = _index(n_fft, func, "n_fft")
    n_mels = _index(n_mels, func, "n_mels")
    if n_fft < 1 or n_mels < 1:
        raise ValueError(f"{func}: n_fft and n_mels must be at least 1, got {n_fft}, {n_mels}")
    nb = _mel_norm(norm, func)
    w = np.empty((n_mels, n_fft // 2 + 1), dt)
    st = _mel_fb[dt](float(sr), n_fft, n_mels, float(fmin), _fmax(fmax, func), _flag(htk), nb,
                     _fb(_CT[dt], w, True), w.size)
    if st:
        _raise(st, f"sk_mel_filterbank_{_SFX[dt]}")
    return w


class MelSpectrogram(Handle, free="sk_mel_plan_free"):
    """A mel-spectrogram plan (``sk_mel_plan_*``): ``librosa.feature.melspectrogram`` and its
    log (``power_to_db``) with fixed parameters, for repeated calls.

    Parameters
    ----------
    sr, n_fft, hop_length, win_length, window, center, pad_mode, power, n_mels, fmin, fmax,
    htk, norm
        librosa's, with its defaults. ``window`` is a :func:`get_window` name/tuple/float
        (periodic; arrays are not supported); ``pad_mode`` "constant" or "reflect".
    dtype : np.float32 or np.float64
        Sample type of the signals (and of the result).

    Notes
    -----
    Thread safety: the plan is immutable in C; one object may be called from any number of
    threads at once. ``close()`` frees it (also on ``with`` exit and garbage collection); a
    closed plan raises :class:`InvalidHandleError`.

    Examples
    --------
    >>> y = np.random.default_rng(0).standard_normal(22050).astype(np.float32)
    >>> with sigkern.MelSpectrogram(sr=22050, n_mels=64) as mel:
    ...     M = mel(y)
    ...     L = mel.log_mel(y, ref=np.max)
    >>> M.shape, L.shape
    ((64, 44), (64, 44))
    """

    __slots__ = ("_h", "_dtype", "_params", "__weakref__")

    def __init__(self, sr: float = 22050, n_fft: int = 2048, hop_length: int = 512,
                 win_length: Optional[int] = None, window: Any = "hann", center: bool = True,
                 pad_mode: str = "constant", power: float = 2.0, n_mels: int = 128,
                 fmin: float = 0.0, fmax: Optional[float] = None, htk: bool = False,
                 norm: Optional[str] = "slaney", dtype: Any = np.float32):
        func = "MelSpectrogram"
        self._h = _NULL
        dt = _real_dtype(dtype, func)
        n_fft = _index(n_fft, func, "n_fft")
        hop = _index(hop_length, func, "hop_length")
        wl = n_fft if win_length is None else _index(win_length, func, "win_length")
        n_mels = _index(n_mels, func, "n_mels")
        if n_fft < 1 or hop < 1 or wl < 1 or n_mels < 1:
            raise ValueError(
                f"{func}: n_fft, hop_length, win_length and n_mels must be at least 1, got "
                f"{n_fft}, {hop}, {wl}, {n_mels}"
            )
        if B.dtype_of(window) is not None or isinstance(window, (list, np.ndarray)):
            raise NotImplementedError(
                f"{func}: window arrays are not supported; pass a window name, tuple or Kaiser "
                f"beta ({_WIN_SUPPORTED})"
            )
        kind, param = _window_spec(window, func)
        pad = _pad_code(pad_mode, func)
        nb = _mel_norm(norm, func)
        pp = _new("SkMelPlan **")
        st = _mel_new[dt](float(sr), n_fft, hop, wl, kind, param, _flag(center), pad, float(power),
                          n_mels, float(fmin), _fmax(fmax, func), _flag(htk), nb, pp)
        if st:
            _raise(st, f"sk_mel_plan_{_SFX[dt]}_new")
        self._h = pp[0]
        self._dtype = dt
        self._params = dict(sr=sr, n_fft=n_fft, hop_length=hop, win_length=wl, window=window,
                            center=bool(center), pad_mode=pad_mode, power=float(power),
                            n_mels=n_mels, fmin=float(fmin), fmax=fmax, htk=bool(htk), norm=norm)

    sr = property(lambda self: self._params["sr"], doc="Sample rate.")
    n_fft = property(lambda self: self._params["n_fft"], doc="FFT length.")
    hop_length = property(lambda self: self._params["hop_length"], doc="Hop in samples.")
    win_length = property(lambda self: self._params["win_length"], doc="Window length.")
    n_mels = property(lambda self: self._params["n_mels"], doc="Mel bands.")
    power = property(lambda self: self._params["power"], doc="Exponent of the magnitude.")
    dtype = property(lambda self: self._dtype, doc="Sample and result dtype.")

    @property
    def params(self) -> dict:
        """All parameters, as given to the constructor (a copy)."""
        return dict(self._params)

    def frames(self, n: int) -> int:
        """Frames of an ``n``-sample signal (``sk_mel_frames``).

        Examples
        --------
        >>> sigkern.MelSpectrogram().frames(22050)
        44
        """
        fr = _new("size_t *")
        st = _mel_frames(self._h, fr, _index(n, "MelSpectrogram.frames", "n"))
        if st:
            _raise(st, "sk_mel_frames")
        return fr[0]

    def _prepare(self, y: Any, out: Any, func: str,
                 n_frames: Optional[int]) -> Tuple[Any, Any, Any, int, int, int, int]:
        if type(y) is not ndarray or y.dtype is not self._dtype:
            y = B.as_input(y, func, "y", (self._dtype,))
        if y.ndim == 0:
            raise ValueError(f"{func}: y is zero-dimensional; pass a signal of shape (..., n)")
        py, _ = B.pointer(y, self._dtype, func, "y")
        n = y.shape[-1]
        fr = self.frames(n)
        if n_frames is not None:
            k = _index(n_frames, func, "n_frames")
            if not 1 <= k <= fr:
                raise ValueError(f"{func}: n_frames = {k} must be between 1 and the {fr} frames "
                                 f"of an {n}-sample signal")
            fr = k
        nm = self._params["n_mels"]
        shape = tuple(y.shape[:-1]) + (nm, fr)
        if out is None:
            out = B.new_like(y, shape, self._dtype)
        else:
            B.check_out(out, shape, self._dtype, func)
        po, _ = B.pointer(out, self._dtype, func, "out", writable=True)
        return y, out, (py, po), n, fr, nm * fr, math.prod(shape[:-2])

    def __call__(self, y: Any, out: Optional[Any] = None, n_frames: Optional[int] = None) -> Any:
        """The mel spectrogram (``sk_melspec_batch_*``: one call for all rows), equal to
        ``librosa.feature.melspectrogram``.

        Parameters
        ----------
        y : ndarray or Tensor of the plan's dtype, shape (..., n), C-contiguous
        out : ndarray or Tensor, shape (..., n_mels, frames), optional
        n_frames : int, optional
            Keep only the first ``n_frames`` frames (at most :meth:`frames` of n), e.g. one less
            to drop the last centred frame as Whisper-style recipes do.

        Returns
        -------
        ndarray or Tensor (y's kind), shape (..., n_mels, frames), the plan's dtype

        Examples
        --------
        >>> mel = sigkern.MelSpectrogram(n_mels=40, dtype=np.float64)
        >>> mel(np.zeros((2, 22050))).shape
        (2, 40, 44)
        >>> mel(np.zeros(22050), n_frames=43).shape
        (40, 43)
        """
        func = "MelSpectrogram"
        y, out, (py, po), n, fr, size, rows = self._prepare(y, out, func, n_frames)
        if rows:
            st = _melspec_b[self._dtype](self._h, py, n, rows, fr, po, rows * size, n)
            if st:
                _raise(st, f"sk_melspec_batch_{_SFX[self._dtype]}")
        return out

    melspectrogram = __call__

    def log_mel(self, y: Any, ref: Union[float, Callable[[Any], Any]] = 1.0, amin: float = 1e-10,
                top_db: Optional[float] = 80.0, out: Optional[Any] = None,
                n_frames: Optional[int] = None, per_row: bool = False) -> Any:
        """``power_to_db(melspectrogram(y), ref, amin, top_db)`` (``sk_logmel_*``).

        Parameters
        ----------
        y : ndarray or Tensor of the plan's dtype, shape (..., n)
        ref : float or callable (e.g. ``np.max``), default 1.0
        amin : float > 0, default 1e-10
        top_db : float >= 0 or None, default 80.0
        out : ndarray or Tensor, shape (..., n_mels, frames), optional
        n_frames : int, optional
            As in :meth:`__call__`; dropped frames never count toward the floor.
        per_row : bool, default False
            False (librosa): the ``top_db`` floor is relative to the maximum of the whole
            result (all rows); True: to each signal's own maximum.

        Returns
        -------
        ndarray or Tensor, shape (..., n_mels, frames), in dB

        Examples
        --------
        >>> mel = sigkern.MelSpectrogram(n_mels=40)
        >>> L = mel.log_mel(np.ones(22050, np.float32), ref=np.max)
        >>> float(L.max())
        0.0
        """
        func = "MelSpectrogram.log_mel"
        y, out, (py, po), n, fr, size, rows = self._prepare(y, out, func, n_frames)
        if not rows:
            return out
        if callable(ref):
            # the reference depends on the result: mel, then dB (per row or over all)
            self(y, out=out, n_frames=n_frames)
            if per_row and rows > 1:
                flat = out.reshape((rows,) + tuple(out.shape[-2:]))
                for r in range(rows):
                    power_to_db(flat[r], ref=ref, amin=amin, top_db=top_db, out=flat[r])
                return out
            return power_to_db(out, ref=ref, amin=amin, top_db=top_db, out=out)
        td = _INF if top_db is None else float(top_db)
        if rows == 1 and n_frames is None:
            st = _logmel[self._dtype](self._h, py, float(ref), float(amin), td, po, size, n)
            if st:
                _raise(st, f"sk_logmel_{_SFX[self._dtype]}")
            return out
        st = _logmel_b[self._dtype](self._h, py, n, rows, fr, float(ref), float(amin), td,
                                    _flag(per_row), po, rows * size, n)
        if st:
            _raise(st, f"sk_logmel_batch_{_SFX[self._dtype]}")
        return out

    def log10_mel(self, y: Any, amin: float = 1e-10, top: Optional[float] = 8.0,
                  scale: float = 0.25, offset: float = 1.0, per_row: bool = True,
                  n_frames: Optional[int] = None, out: Optional[Any] = None) -> Any:
        """The log10 form speech models use, in one call (``sk_log10mel_batch_*``):
        ``l = log10(max(S, amin))``, floored at ``max(l) − top``, then ``scale·l + offset``.

        The defaults are OpenAI Whisper's (``(max(l, l.max() − 8) + 4) / 4``); pass
        ``n_frames=self.frames(n) - 1`` to drop the last frame as Whisper does (see
        :func:`log_mel_spectrogram`, which does all of it).

        Parameters
        ----------
        y : ndarray or Tensor of the plan's dtype, shape (..., n)
        amin : float > 0, default 1e-10
        top : float >= 0 or None (no floor), default 8.0
        scale : float > 0, default 0.25
        offset : float, default 1.0
        per_row : bool, default True
            The floor relative to each signal's maximum (True) or the whole batch's (False).
        n_frames : int, optional
            As in :meth:`__call__`; dropped frames never count toward the floor.
        out : ndarray or Tensor, shape (..., n_mels, frames), optional

        Returns
        -------
        ndarray or Tensor, shape (..., n_mels, frames)

        Examples
        --------
        >>> mel = sigkern.MelSpectrogram(sr=16000, n_fft=400, hop_length=160, n_mels=80)
        >>> mel.log10_mel(np.zeros(16000, np.float32)).max()
        np.float32(-1.5)
        """
        func = "MelSpectrogram.log10_mel"
        y, out, (py, po), n, fr, size, rows = self._prepare(y, out, func, n_frames)
        if rows:
            tp = _INF if top is None else float(top)
            st = _log10mel_b[self._dtype](self._h, py, n, rows, fr, float(amin), float(scale),
                                          float(offset), tp, _flag(per_row), po, rows * size, n)
            if st:
                _raise(st, f"sk_log10mel_batch_{_SFX[self._dtype]}")
        return out

    def __repr__(self) -> str:
        p = ", ".join(f"{k}={v!r}" for k, v in self._params.items())
        return f"MelSpectrogram({p}, dtype=np.{self._dtype}{', closed' if self.closed else ''})"


#: recently used plans of melspectrogram(): key -> MelSpectrogram
_MEL_PLANS: dict = {}
_MEL_CACHE_MAX = 8


def melspectrogram(y: Any, sr: float = 22050, n_fft: int = 2048, hop_length: int = 512,
                   win_length: Optional[int] = None, window: Any = "hann", center: bool = True,
                   pad_mode: str = "constant", power: float = 2.0, n_mels: int = 128,
                   fmin: float = 0.0, fmax: Optional[float] = None, htk: bool = False,
                   norm: Optional[str] = "slaney", out: Optional[Any] = None) -> Any:
    """``librosa.feature.melspectrogram(y=y, ...)`` with librosa's parameters and defaults
    (``sk_melspec_*`` through a :class:`MelSpectrogram` plan, cached for repeated calls).

    Parameters
    ----------
    y : ndarray or Tensor, float32 or float64, shape (..., n), C-contiguous
        Leading axes are channels/batch.
    sr, n_fft, hop_length, win_length, window, center, pad_mode, power
        As librosa (``window``: a :func:`get_window` name/tuple/float; ``pad_mode``
        "constant" or "reflect").
    n_mels, fmin, fmax, htk, norm
        The filterbank, as :func:`mel_filters`.
    out : ndarray or Tensor, shape (..., n_mels, frames), y's dtype, optional

    Returns
    -------
    ndarray or Tensor, shape (..., n_mels, frames), y's dtype

    Examples
    --------
    >>> y = np.random.default_rng(0).standard_normal(22050)
    >>> sigkern.melspectrogram(y, sr=22050).shape
    (128, 44)
    """
    func = "melspectrogram"
    if type(y) is not ndarray:
        y = _real_input(y, func, "y")
    dt = B.float_dtype(y, func, "y")
    try:
        key = (dt, sr, n_fft, hop_length, win_length, window, center, pad_mode, power, n_mels,
               fmin, fmax, htk, norm)
        plan = _MEL_PLANS.get(key)
    except TypeError:  # unhashable arguments: the constructor explains
        key, plan = None, None
    if plan is None:
        plan = MelSpectrogram(sr, n_fft, hop_length, win_length, window, center, pad_mode, power,
                              n_mels, fmin, fmax, htk, norm, dtype=dt)
        if key is not None:
            if len(_MEL_PLANS) >= _MEL_CACHE_MAX:
                try:
                    _MEL_PLANS.pop(next(iter(_MEL_PLANS)), None)
                except (StopIteration, RuntimeError):
                    pass
            _MEL_PLANS[key] = plan
    return plan(y, out=out)


def _cached_plan(dt: np.dtype, *args: Any) -> "MelSpectrogram":
    """A :class:`MelSpectrogram` of these parameters from the cache of recent plans."""
    key = (dt,) + args
    plan = _MEL_PLANS.get(key)
    if plan is None:
        plan = MelSpectrogram(*args, dtype=dt)
        if len(_MEL_PLANS) >= _MEL_CACHE_MAX:
            try:
                _MEL_PLANS.pop(next(iter(_MEL_PLANS)), None)
            except (StopIteration, RuntimeError):
                pass
        _MEL_PLANS[key] = plan
    return plan


def log_mel_spectrogram(audio: Any, sr: float = 16000, n_fft: int = 400, hop_length: int = 160,
                        n_mels: int = 80, *, length: Optional[int] = None,
                        drop_last: bool = True, amin: float = 1e-10,
                        top: Optional[float] = 8.0, scale: float = 0.25, offset: float = 1.0,
                        per_row: bool = True, out: Optional[Any] = None) -> Any:
    """Speech-model log-mel features in one C call, OpenAI Whisper's recipe by default.

    The recipe: a centred, reflect-padded STFT with a periodic Hann window of ``n_fft``
    (``torch.stft(..., center=True)``), power spectrum, Slaney mel filters
    (``librosa.filters.mel(sr=sr, n_fft=n_fft, n_mels=n_mels)``), the last frame dropped, then
    ``l = log10(max(S, amin))``, floored at ``max(l) − top``, and ``scale·l + offset``
    (Whisper: ``(max(l, l.max() − 8) + 4) / 4``). Batches run in one call
    (``sk_log10mel_batch_*``), with the floor per signal (``per_row=True``, as Whisper computes
    each clip) or over the whole batch.

    Parameters
    ----------
    audio : ndarray or Tensor, float32 or float64, shape (..., n), C-contiguous
    sr, n_fft, hop_length, n_mels : the STFT and filterbank (Whisper: 16000, 400, 160, 80 or 128)
    length : int, optional
        Zero-pad or trim the last axis to this many samples first (Whisper: 480000 = 30 s).
    drop_last : bool, default True
        Drop the last STFT frame (Whisper's ``stft[..., :-1]``).
    amin, top, scale, offset, per_row
        The log tail, as :meth:`MelSpectrogram.log10_mel` (``top=None``: no floor).
    out : ndarray or Tensor, shape (..., n_mels, frames), optional

    Returns
    -------
    ndarray or Tensor (audio's kind and dtype), shape (..., n_mels, frames)

    Examples
    --------
    >>> audio = np.random.default_rng(0).standard_normal(16000).astype(np.float32) * 0.1
    >>> sigkern.log_mel_spectrogram(audio, length=480000).shape
    (80, 3000)
    """
    func = "log_mel_spectrogram"
    if type(audio) is not ndarray:
        audio = _real_input(audio, func, "audio")
    dt = B.float_dtype(audio, func, "audio")
    if length is not None:
        length = _index(length, func, "length")
        n = audio.shape[-1]
        if length != n:
            if B.is_tensor(audio):
                import torch

                fixed = torch.zeros(tuple(audio.shape[:-1]) + (length,), dtype=audio.dtype)
            else:
                fixed = np.zeros(tuple(audio.shape[:-1]) + (length,), dt)
            k = min(length, n)
            fixed[..., :k] = audio[..., :k]
            audio = fixed
    plan = _cached_plan(dt, sr, n_fft, hop_length, None, "hann", True, "reflect", 2.0, n_mels,
                        0.0, None, False, "slaney")
    n_frames = None
    if drop_last:
        fr = plan.frames(audio.shape[-1])
        if fr < 2:
            raise ValueError(f"{func}: a signal of {audio.shape[-1]} samples has {fr} frame(s); "
                             "drop_last=True needs at least 2")
        n_frames = fr - 1
    return plan.log10_mel(audio, amin=amin, top=top, scale=scale, offset=offset,
                          per_row=per_row, n_frames=n_frames, out=out)


def log10_floor(x: Any, amin: float = 1e-10, top: Optional[float] = 8.0, scale: float = 0.25,
                offset: float = 1.0, out: Optional[Any] = None) -> Any:
    """``scale·max(l, l.max() − top) + offset`` with ``l = log10(max(x, amin))``, in one pass
    and a clamp (``sk_log10_floor_*``): the log tail of Whisper-style features (the defaults)
    on a spectrogram you computed yourself.

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64, any shape, C-contiguous
    amin : float > 0, default 1e-10
    top : float >= 0 or None (no floor), default 8.0
    scale : float > 0, default 0.25
    offset : float, default 1.0
    out : same shape and dtype, optional; may be ``x`` (in place)

    Returns
    -------
    ndarray or Tensor like ``x``

    Notes
    -----
    float32 data is computed in float32 (``log10`` within about 2 ulp). NaN anywhere makes the
    result all NaN when ``top`` is finite, as ``np.maximum`` does.

    Examples
    --------
    >>> y = sigkern.log10_floor(np.array([1e-12, 1.0, 1e4]))   # l = [-10, 0, 4] → [-4, 0, 4]
    >>> np.allclose(y, [0.0, 1.0, 2.0], rtol=0, atol=1e-15)
    True
    """
    func = "log10_floor"
    x = _real_input(x, func, "x") if type(x) is not ndarray else x
    dt = B.float_dtype(x, func, "x")
    px, _ = B.pointer(x, dt, func, "x")
    if out is None:
        out = B.new_like(x, tuple(x.shape), dt)
    else:
        B.check_out(out, tuple(x.shape), dt, func)
    po, _ = B.pointer(out, dt, func, "out", writable=True)
    tp = _INF if top is None else float(top)
    st = _log10_floor[dt](px, float(amin), float(scale), float(offset), tp, po, math.prod(x.shape))
    if st:
        _raise(st, f"sk_log10_floor_{_SFX[dt]}")
    return out


# ---------------------------------------------------------------------------------------------
# Convolution
# ---------------------------------------------------------------------------------------------


def _conv_length(mc: int, na: int, nb: int) -> int:
    """The output length of a mode (as ``sk_convolve_len``), for checking ``out`` before C."""
    return na + nb - 1 if mc == 0 else (na if mc == 1 else abs(na - nb) + 1)


def _conv_checked(kind: str, in1: Any, in2: Any, mode: Any, method: Any, out: Any) -> Any:
    func = kind
    mc = _MODE.get(mode) if isinstance(mode, str) else None
    if mc is None:
        raise ValueError(f'{func}: mode must be "full", "same" or "valid", got {mode!r}')
    me = _METHOD.get(method) if isinstance(method, str) else None
    if me is None:
        raise ValueError(f'{func}: method must be "auto", "direct" or "fft", got {method!r}')
    a = _real_input(in1, func, "in1")
    b = _real_input(in2, func, "in2")
    dt = B.float_dtype(a, func, "in1")
    if B.dtype_of(b) != dt:
        raise TypeError(
            f"{func}: in2 has dtype {B.dtype_of(b)} but in1 has {dt}: pass arrays of one dtype "
            f"(convert with .astype)"
        )
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(
            f"{func}: sigkern convolves 1-D signals only; got shapes {tuple(a.shape)} and "
            f"{tuple(b.shape)} (loop over rows, or use scipy.signal for n-D)"
        )
    na, nb = a.shape[0], b.shape[0]
    if na == 0 or nb == 0:
        raise ValueError(f"{func}: in1 and in2 must not be empty (got lengths {na} and {nb})")
    pa, _ = B.pointer(a, dt, func, "in1")
    pb, _ = B.pointer(b, dt, func, "in2")
    if out is not None:
        B.check_out(out, (_conv_length(mc, na, nb),), dt, func)
        _check_writable(out, func)
    ln = _new("size_t *")
    st = _conv_len(mc, ln, na, nb)
    if st:
        _raise(st, "sk_convolve_len")
    length = ln[0]
    if out is None:
        out = B.new_like(a, (length,), dt)
    po, _ = B.pointer(out, dt, func, "out", writable=True)
    if length:
        st = (_conv if kind == "convolve" else _corr)[dt](pa, pb, mc, me, po, na, nb, length)
        if st:
            _raise(st, f"sk_{kind}_{_SFX[dt]}")
    return out


def _conv_fast(kind: str, fs: dict, in1: Any, in2: Any, mode: Any, method: Any, out: Any) -> Any:
    if (type(in1) is ndarray and type(in2) is ndarray and out is None and in1.ndim == 1
            and in2.ndim == 1 and type(mode) is str and type(method) is str):
        dt = in1.dtype
        na, nb = in1.shape[0], in2.shape[0]
        mc, me = _MODE.get(mode), _METHOD.get(method)
        if ((dt is F32 or dt is F64) and in2.dtype is dt and na and nb and mc is not None
                and me is not None):
            ct = _CT[dt]
            try:
                pa, pb = _fb(ct, in1), _fb(ct, in2)
            except ValueError:  # not contiguous: the checked path says so
                return _conv_checked(kind, in1, in2, mode, method, out)
            ln = _new("size_t *")
            st = _conv_len(mc, ln, na, nb)
            if st:
                _raise(st, "sk_convolve_len")
            y = np.empty(ln[0], dt)
            st = fs[dt](pa, pb, mc, me, _fb(ct, y, True), na, nb, ln[0])
            if st:
                _raise(st, f"sk_{kind}_{_SFX[dt]}")
            return y
    return _conv_checked(kind, in1, in2, mode, method, out)


def convolve(in1: Any, in2: Any, mode: str = "full", method: str = "auto",
             out: Optional[Any] = None) -> Any:
    """``scipy.signal.convolve`` of two 1-D signals (``sk_convolve_*``).

    Parameters
    ----------
    in1, in2 : ndarray or Tensor, 1-D, float32 or float64 (one dtype), C-contiguous
        n-D input raises ``ValueError`` (1-D only).
    mode : {"full", "same", "valid"}
        full: ``len(in1) + len(in2) - 1`` samples; same: ``len(in1)``, centred as scipy;
        valid: ``|len(in1) - len(in2)| + 1``.
    method : {"auto", "direct", "fft"}
        auto picks the direct sum for short kernels and FFT overlap-save otherwise.
    out : ndarray or Tensor of the result's length and dtype, optional

    Returns
    -------
    ndarray or Tensor, 1-D, in1's dtype

    Raises
    ------
    ValueError
        n-D or empty input (as scipy), a bad mode or method, non-contiguous data.
    TypeError
        Complex input, or inputs of two dtypes.

    Examples
    --------
    >>> sigkern.convolve(np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5]))
    array([0. , 1. , 2.5, 4. , 1.5])
    """
    return _conv_fast("convolve", _conv, in1, in2, mode, method, out)


def correlate(in1: Any, in2: Any, mode: str = "full", method: str = "auto",
              out: Optional[Any] = None) -> Any:
    """``scipy.signal.correlate`` of two real 1-D signals (``sk_correlate_*``): the
    convolution of ``in1`` with ``in2`` reversed. Arguments and result as :func:`convolve`.

    Examples
    --------
    >>> sigkern.correlate(np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5]))
    array([0.5, 2. , 3.5, 3. , 0. ])
    """
    return _conv_fast("correlate", _corr, in1, in2, mode, method, out)
