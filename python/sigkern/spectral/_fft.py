"""FFTs (C: ``sk_fft_plan_*``, ``sk_rfft_*``, ``sk_irfft_*``, ``sk_fft_*``, ``sk_ifft_*``; Rust:
``src/kernels/spectral/fft.rs``): :func:`rfft`, :func:`irfft`, :func:`fft`, :func:`ifft` with
``numpy.fft``'s signatures over a process-wide plan cache, and :class:`FftPlan` for explicit
plans."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable, Dict, Literal, Optional, Tuple

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import C128, C64, CARRAY, CPTR, F32, F64, ndarray, SFX
from .._handle import Handle
from .._lib import cfunc, ffi
from ._common import _complex_input, _fb, _new, _NULL, _raise, _real_input, _zeros

if TYPE_CHECKING:
    from typing import Protocol

    from .._typing import Array, ArrayLike, ComplexArray, DTypeLike, FloatArray, Norm

    class _ToComplex(Protocol):
        """rfft, fft, ifft: numpy.fft's signature, a complex result."""

        def __call__(self, x: ArrayLike, n: Optional[int] = None, axis: int = -1, norm: Norm = None,
                     out: Optional[Array] = None) -> ComplexArray: ...

    class _ToReal(Protocol):
        """irfft: numpy.fft's signature, a real result."""

        def __call__(self, x: ArrayLike, n: Optional[int] = None, axis: int = -1, norm: Norm = None,
                     out: Optional[Array] = None) -> FloatArray: ...

__all__ = ["rfft", "irfft", "fft", "ifft", "FftPlan"]

_plan_new = {F32: cfunc("sk_fft_plan_f32_new"), F64: cfunc("sk_fft_plan_f64_new")}
_plan_free = cfunc("sk_fft_plan_free")
_plan_info = cfunc("sk_fft_plan_info")
_rfft1 = {F32: cfunc("sk_rfft_f32"), F64: cfunc("sk_rfft_f64")}
_irfft1 = {F32: cfunc("sk_irfft_f32"), F64: cfunc("sk_irfft_f64")}
_fft1 = {F32: cfunc("sk_fft_f32"), F64: cfunc("sk_fft_f64")}
_ifft1 = {F32: cfunc("sk_ifft_f32"), F64: cfunc("sk_ifft_f64")}
_rfftb = {F32: cfunc("sk_rfft_batch_f32"), F64: cfunc("sk_rfft_batch_f64")}
_irfftb = {F32: cfunc("sk_irfft_batch_f32"), F64: cfunc("sk_irfft_batch_f64")}
_fftb = {F32: cfunc("sk_fft_batch_f32"), F64: cfunc("sk_fft_batch_f64")}
SK_FFT_REAL, SK_FFT_COMPLEX = 0, 1
_NORM = {None: 0, "backward": 0, "ortho": 1, "forward": 2}


def _result(out: Any, shape: Tuple[Any, ...], dt: np.dtype[Any]) -> Any:
    """The fast path's result array: a new one if ``out`` is None, ``out`` if it is a numpy
    array of exactly ``shape`` and ``dt`` (from_buffer then refuses it if it is not contiguous
    or read-only), else None (the checked path decides)."""
    if out is None:
        return np.empty(shape, dt)
    if type(out) is ndarray and out.dtype is dt and out.shape == shape:
        return out
    return None


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


#: (kind, n, is_double) -> plan handle (freed when dropped from the cache and unused)
_PLANS: Dict[Tuple[int, int, bool], Any] = {}
_PLAN_CACHE_MAX = 64


def _new_plan(kind: int, n: int, dt: np.dtype[Any]) -> Any:
    pp = _new("SkFftPlan **")
    st = _plan_new[dt](kind, n, pp)
    if st:
        _raise(st, f"sk_fft_plan_{SFX[dt]}_new")
    return pp[0]


def _plan(kind: int, n: int, dt: np.dtype[Any]) -> Any:
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


def _numpy_promotion(x: Any, op: str) -> Any:
    """numpy.fft's input promotion: integer, bool, float16 and extended-precision input is
    read as float64 (complex128 for the complex transforms); a float32/float64 signal given to
    ``fft``/``ifft``/``irfft`` is real data of a complex transform (complex64/complex128).
    Complex input to ``rfft`` stays refused (``TypeError``), as numpy refuses it."""
    dt = A.dtype_of(x)
    if A.is_tensor(x):
        if dt is None:
            return x
        if op != "rfft" and dt.kind == "f":
            return x.to(A.torch_dtype(A.COMPLEX_OF[dt]))
        return x
    if dt is None:
        if isinstance(x, (str, bytes)) or x is None:
            return x
        try:
            x = np.asarray(x)
        except (TypeError, ValueError):
            return x
        dt = x.dtype
    k = dt.kind
    if k in "biu" or (k == "f" and dt not in (F32, F64)):
        x = x.astype(F64)
        dt = F64
    elif k == "c" and dt not in (C64, C128):
        return x.astype(C128)
    if op != "rfft" and dt in (F32, F64):
        return x.astype(A.COMPLEX_OF[dt])
    return x


def _fft_checked(op: str, x: Any, n: Any, axis: Any, norm: Any, out: Any, plan: Any = None) -> Any:
    """Every case of rfft/irfft/fft/ifft: any axis, padding/truncation, torch, out=.

    With ``plan`` (an :class:`FftPlan`), ``n`` is the plan's length, the last axis is
    transformed and must have exactly the plan's input length."""
    func = f"FftPlan.{op}" if plan is not None else op
    kinds, pkind, cfs, stem = _OPS[op]
    if plan is None:  # (an FftPlan takes exactly its dtype)
        x = _numpy_promotion(x, op)
    if op == "rfft":
        x = _real_input(x, func, "x")
    else:
        x = _complex_input(x, func, "x")
    A.cpu_tensor(x, func, "x")
    nc = _norm_code(norm, func)
    xdt = A.dtype_of(x)
    rdt = A.REAL_OF.get(xdt, xdt)
    ax = A.axis(axis, x.ndim, func)
    xm = A.movelast(x, ax)
    m = xm.shape[-1]
    if plan is not None:
        if rdt != plan._dtype:
            raise TypeError(
                f"{func}: x is {A.describe(x)} but the plan is for {plan._dtype} "
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
        n = A.index(n, func, "n")
    if n < 1:
        raise ValueError(f"{func}: Invalid number of FFT data points ({n}) specified; n must be at least 1")
    in_len = n // 2 + 1 if op == "irfft" else n
    out_len = n // 2 + 1 if op == "rfft" else n
    if m > in_len:
        xm = xm[..., :in_len]
    elif m < in_len:
        z = _zeros(xm, tuple(xm.shape[:-1]) + (in_len,), xdt)
        z[..., :m] = xm
        xm = z
    if not A.is_contig(xm):
        xm = A.contig(xm)
    odt = A.COMPLEX_OF[rdt] if op == "rfft" else (rdt if op == "irfft" else xdt)
    lead = tuple(xm.shape[:-1])
    moved_shape = lead + (out_len,)
    if out is not None:
        if A.dtype_of(out) is None:  # (numpy's words)
            raise TypeError(f"{func}: out must be of ArrayType (a numpy array or a torch tensor), "
                            f"got {A.describe(out)}")
        final = list(moved_shape)
        final.insert(ax, final.pop())
        A.check_out(out, tuple(final), odt, func)
        A.writable_out(out, func)
        ov = A.movelast(out, ax)
        target = ov if A.is_contig(ov) else B.new_like(out, moved_shape, odt)
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
            _raise(st, f"sk_{stem}_{SFX[rdt]}")
    if out is not None:
        if target is not ov:
            A.copy_into(ov, target)
        return out
    return A.moveback(target, ax)


#: torch dtype -> numpy dtype of the FFT kinds (filled once torch is imported)
_TORCH_NP: Dict[Any, np.dtype[Any]] = {}
_NP_TORCH: Dict[np.dtype[Any], Any] = {}


def _torch_tables() -> None:
    t = A._torch()
    for td, nd in ((t.float32, F32), (t.float64, F64), (t.complex64, C64), (t.complex128, C128)):
        _TORCH_NP[td] = nd
        _NP_TORCH[nd] = td


def _fast_entry(op: str, rdt: np.dtype[Any]) -> Tuple[Any, ...]:
    """What the fast path needs of one op and precision, worked out once: (plan kind, batch C
    function, real dtype, output dtype, inverse flag or None, CFFI array type, the plan
    cache's is-double flag, whether ``n`` counts the output samples of bins (irfft), whether
    the output is bins (rfft), the C name)."""
    cdt = A.COMPLEX_OF[rdt]
    if op == "rfft":
        return (SK_FFT_REAL, _rfftb[rdt], rdt, cdt, None, CARRAY[rdt], rdt is F64, False, True,
                f"sk_rfft_batch_{SFX[rdt]}")
    if op == "irfft":
        return (SK_FFT_REAL, _irfftb[rdt], rdt, rdt, None, CARRAY[rdt], rdt is F64, True, False,
                f"sk_irfft_batch_{SFX[rdt]}")
    return (SK_FFT_COMPLEX, _fftb[rdt], rdt, cdt, 1 if op == "ifft" else 0, CARRAY[rdt],
            rdt is F64, False, False, f"sk_fft_batch_{SFX[rdt]}")


def _fast_table(op: str) -> Tuple[Any, ...]:
    """(input dtype, its entry, the other input dtype, its entry, op) of one op: the fast
    path compares dtypes by identity, which costs less than hashing one."""
    e32, e64 = _fast_entry(op, F32), _fast_entry(op, F64)
    if op == "rfft":
        return (F64, e64, F32, e32, op)
    return (C128, e64, C64, e32, op)


def _fft_function(op: str, doc: str) -> Callable[..., Any]:
    """Makes rfft/irfft/fft/ifft: one body for the four, whose fast path (the last axis of a
    contiguous numpy array, with or without a contiguous ``out`` of the result's dtype and
    shape, no padding, one C call) is the function itself, so the common call pays for no
    second Python call. CPU tensors go to :func:`_fft_tensor`, everything else to
    :func:`_fft_checked`, which says what is wrong."""
    fast = _fast_table(op)
    dt_a, e_a, dt_b, e_b, _ = fast

    def transform(x: ArrayLike, n: Optional[int] = None, axis: int = -1, norm: Norm = None,
                  out: Optional[Array] = None) -> Any:
        if type(x) is ndarray and axis == -1:
            dt = x.dtype
            if dt is dt_a:
                kind, f, rdt, odt, inv, ct, dbl, irf, rf, cname = e_a
            elif dt is dt_b:
                kind, f, rdt, odt, inv, ct, dbl, irf, rf, cname = e_b
            else:
                return _fft_checked(op, x, n, axis, norm, out)
            shape = x.shape
            if shape:
                m = shape[-1]
                if n is None:
                    nn = 2 * (m - 1) if irf else m
                elif type(n) is int and (n // 2 + 1 if irf else n) == m:
                    nn = n
                else:
                    nn = 0
                nc = 0 if norm is None else (_NORM.get(norm) if type(norm) is str else None)
                if nn >= 1 and nc is not None:  # (then m >= 1)
                    out_len = nn // 2 + 1 if rf else nn
                    if out is None:
                        y = np.empty(shape[:-1] + (out_len,), odt)
                    elif type(out) is ndarray and out.dtype is odt and out.shape == shape[:-1] + (out_len,):
                        y = out
                    else:
                        return _fft_checked(op, x, n, axis, norm, out)
                    try:
                        px = _fb(ct, x)
                        py = _fb(ct, y, True)
                    except ValueError:  # not contiguous or read-only: the checked path says
                        return _fft_checked(op, x, n, axis, norm, out)
                    rows = x.size // m
                    if rows:
                        h = _PLANS.get((kind, nn, dbl)) or _plan(kind, nn, rdt)
                        if inv is None:
                            st = f(h, px, m, nc, py, out_len, rows, nn)
                        else:
                            st = f(h, px, m, inv, nc, py, out_len, rows, nn)
                        if st:
                            _raise(st, cname)
                    return y
            return _fft_checked(op, x, n, axis, norm, out)
        ti = A.TORCH or A.torch_info()
        if ti is not None and type(x) is ti[0] and axis == -1:
            return _fft_tensor(fast, x, n, norm, out, ti)
        return _fft_checked(op, x, n, axis, norm, out)

    transform.__name__ = transform.__qualname__ = op
    transform.__doc__ = doc
    return transform


def _fft_tensor(fast: Tuple[Any, ...], x: Any, n: Any, norm: Any, out: Any, ti: Tuple[Any, ...]) -> Any:
    """:func:`_fft`'s fast path for a contiguous CPU tensor (last axis, no ``out``)."""
    if not _TORCH_NP:
        _torch_tables()
    dt = _TORCH_NP.get(x.dtype)
    e = fast[1] if dt is fast[0] else (fast[3] if dt is fast[2] else None)
    shape = tuple(x.shape)
    if e is not None and shape and out is None and not x.is_conj() and not x.is_neg():
        kind, f, rdt, odt, inv, ct, dbl, irf, rf, cname = e
        m = shape[-1]
        if n is None:
            nn = 2 * (m - 1) if irf else m
        elif type(n) is int and (n // 2 + 1 if irf else n) == m:
            nn = n
        else:
            nn = 0
        nc = 0 if norm is None else (_NORM.get(norm) if type(norm) is str else None)
        if nn >= 1 and nc is not None:
            out_len = nn // 2 + 1 if rf else nn
            cp = CPTR[rdt]
            px = B.tensor_ptr(x, ti, cp)
            if px is not None:
                y = A._torch().empty(shape[:-1] + (out_len,), dtype=_NP_TORCH[odt])
                rows = math.prod(shape[:-1])
                if rows:
                    h = _PLANS.get((kind, nn, dbl)) or _plan(kind, nn, rdt)
                    py = ffi.cast(cp, y.data_ptr())
                    if inv is None:
                        st = f(h, px, m, nc, py, out_len, rows, nn)
                    else:
                        st = f(h, px, m, inv, nc, py, out_len, rows, nn)
                    if st:
                        _raise(st, cname)
                return y
    return _fft_checked(fast[4], x, n, -1, norm, out)


rfft: _ToComplex = _fft_function(
    "rfft",
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
    """,
)

irfft: _ToReal = _fft_function(
    "irfft",
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
    """,
)

fft: _ToComplex = _fft_function(
    "fft",
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
    """,
)

ifft: _ToComplex = _fft_function(
    "ifft",
    """``numpy.fft.ifft`` of complex data (``sk_fft_batch_*`` with ``inverse = 1``).

    Parameters
    ----------
    x : ndarray or Tensor, complex64 or complex128, shape (..., m)
        As :func:`fft`.
    n : int, optional
        Truncate or zero-pad to ``n`` along ``axis`` (default ``m``).
    axis : int, default -1
    norm : {None, "backward", "ortho", "forward"}
        With None ("backward") the inverse is scaled by 1/n.
    out : ndarray or Tensor, optional
        Same dtype as ``x``, the result's shape; may be ``x`` itself (in place).

    Returns
    -------
    ndarray or Tensor, ``x``'s dtype, shape (..., n)

    Examples
    --------
    >>> z = np.arange(4) + 0j
    >>> np.allclose(sigkern.ifft(sigkern.fft(z)), z)
    True
    """,
)


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

    def __init__(self, n: int, kind: Literal["real", "complex"] = "real", dtype: DTypeLike = np.float32) -> None:
        n = A.index(n, "FftPlan", "n")
        if kind not in ("real", "complex"):
            raise ValueError(f'FftPlan: kind must be "real" or "complex", got {kind!r}')
        dt = A.float_dtype_arg(dtype, "FftPlan", complex_ok=True)
        if n < 1:
            raise ValueError(f"FftPlan: n must be at least 1, got {n}")
        self._h = _NULL
        self._h = _new_plan(SK_FFT_REAL if kind == "real" else SK_FFT_COMPLEX, n, dt)
        k, nn, dbl = _new("int32_t *"), _new("size_t *"), _new("int32_t *")
        st = _plan_info(self._h, k, nn, dbl)
        if st:
            _raise(st, "sk_fft_plan_info")
        self._n: int = nn[0]
        self._kind = "real" if k[0] == SK_FFT_REAL else "complex"
        self._dtype = F64 if dbl[0] else F32
        self._bins = self._n // 2 + 1 if self._kind == "real" else self._n
        self._cdt = A.COMPLEX_OF[self._dtype]

    @property
    def n(self) -> int:
        """Transform length."""
        return self._n

    @property
    def kind(self) -> str:
        """``"real"`` or ``"complex"``."""
        return self._kind

    @property
    def dtype(self) -> np.dtype[Any]:
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

    def _run(self, op: str, x: Any, norm: Any, out: Any, in_dt: np.dtype[Any], in_len: int,
             out_dt: np.dtype[Any], out_len: int, f1: Any, fb: Any, inverse: Optional[int]) -> Any:
        """Fast path for a contiguous numpy array of the plan's dtype (with or without a
        contiguous ``out`` of the result's dtype and shape); else the checked path."""
        if type(x) is ndarray and x.dtype is in_dt:
            shape = x.shape
            nc = 0 if norm is None else (_NORM.get(norm) if type(norm) is str else None)
            if shape and shape[-1] == in_len and nc is not None:
                ct = CARRAY[self._dtype]
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
                    sfx = SFX[self._dtype]
                    _raise(st, f"sk_{op}_{sfx}" if len(shape) == 1 else
                           f"sk_{'fft' if inverse is not None else op}_batch_{sfx}")
                return y
        return _fft_checked(op, x, None, -1, norm, out, self)

    def rfft(self, x: ArrayLike, norm: Norm = None, out: Optional[Array] = None) -> ComplexArray:
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
        ret: ComplexArray = self._run("rfft", x, norm, out, self._dtype, self._n, self._cdt,
                                      self._bins, _rfft1[self._dtype], _rfftb[self._dtype], None)
        return ret

    def irfft(self, x: ArrayLike, norm: Norm = None, out: Optional[Array] = None) -> FloatArray:
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
        ret: FloatArray = self._run("irfft", x, norm, out, self._cdt, self._bins, self._dtype,
                                    self._n, _irfft1[self._dtype], _irfftb[self._dtype], None)
        return ret

    def fft(self, x: ArrayLike, norm: Norm = None, out: Optional[Array] = None) -> ComplexArray:
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
        ret: ComplexArray = self._run("fft", x, norm, out, self._cdt, self._n, self._cdt, self._n,
                                      _fft1[self._dtype], _fftb[self._dtype], 0)
        return ret

    def ifft(self, x: ArrayLike, norm: Norm = None, out: Optional[Array] = None) -> ComplexArray:
        """Inverse complex FFT of the last axis (``sk_ifft_*``, ``sk_fft_batch_*``).

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
        >>> plan.ifft(np.array([4, 0, 0, 0], np.complex128))
        array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j])
        """
        if self._kind != "complex":
            self._need("complex", "ifft")
        ret: ComplexArray = self._run("ifft", x, norm, out, self._cdt, self._n, self._cdt, self._n,
                                      _ifft1[self._dtype], _fftb[self._dtype], 1)
        return ret
