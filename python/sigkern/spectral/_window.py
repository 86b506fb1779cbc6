"""Windows (C: ``sk_window_params_*``; Rust: ``src/kernels/spectral/window.rs``):
:func:`get_window` with every window, name, alias and parameter of ``scipy.signal.get_window``,
and the window descriptions the STFT, mel and FIR design functions accept."""

from __future__ import annotations

import numbers
from typing import Optional, TYPE_CHECKING, Any, Tuple, Union

import numpy as np

from .. import _args as A
from .._args import CARRAY, F32, F64, SFX
from .._lib import cfunc, ffi
from ._common import _fb, _raise

if TYPE_CHECKING:
    from .._typing import ArrayLike, DTypeLike, FloatArray, WindowSpec

__all__ = ["get_window"]

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
            f"beta), got {A.describe(window)}"
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
        f"got {A.describe(window)}; sigkern supports {_WIN_SUPPORTED}"
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


def _namespace(xp: Any, device: Any, func: str) -> Optional[Any]:
    """scipy's ``xp``/``device`` keywords: None or a numpy namespace (numpy itself or an
    array-API wrapper of it, e.g. ``array_api_compat.numpy``) give numpy arrays, torch gives a
    CPU tensor; ``device`` must be None or the CPU. Returns the torch module or None."""
    if device is not None and str(getattr(device, "type", device)) != "cpu":
        raise ValueError(f"{func}: device must be None or 'cpu' (sigkern computes on the CPU), got {device!r}")
    if xp is None:
        return None
    name = getattr(xp, "__name__", "")
    if name == "numpy" or name.endswith(".numpy"):
        return None
    if name == "torch" or name.endswith(".torch"):
        return A._torch() or xp
    raise TypeError(f"{func}: xp must be None, a numpy namespace or torch, got {xp!r}")


def get_window(window: WindowSpec, Nx: int, fftbins: bool = True,
               dtype: DTypeLike = np.float64, *, xp: Any = None, device: Any = None) -> FloatArray:
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
    xp : module, optional
        scipy's array namespace: None or numpy (any numpy namespace) for a numpy array,
        ``torch`` for a CPU tensor.
    device : optional
        None or ``"cpu"``.

    Returns
    -------
    ndarray (or Tensor for ``xp=torch``) of shape (Nx,) and ``dtype``

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
    torch = _namespace(xp, device, func)
    if not (isinstance(Nx, numbers.Integral) and Nx > 0):  # (scipy's words)
        raise ValueError(f"Parameter Nx={Nx!r} is not a positive integer ({func})")
    if not isinstance(fftbins, (bool, np.bool_)):
        raise ValueError(f"Parameter fftbins={fftbins!r} is not a bool ({func})")
    dt = A.float_dtype_arg(dtype, func)
    kind, params = _window_params_spec(window, func)
    periodic = _suffix_periodic(window, fftbins)
    w = np.empty(int(Nx), dt)
    pp = _fb(CARRAY[F64], params) if params.size else ffi.NULL
    st = _window_params[dt](kind, pp, 1 if periodic else 0, _fb(CARRAY[dt], w, True), params.size, int(Nx))
    if st:
        _raise(st, f"sk_window_params_{SFX[dt]}")
    if torch is not None:
        return torch.from_numpy(w)
    return w
