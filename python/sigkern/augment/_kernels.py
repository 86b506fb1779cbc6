"""The C kernels of the augmentations (C: ``sk_augment_*``; Rust: ``src/kernels/augment/``,
``src/ffi/augment.rs``) on C-contiguous ``(rows, n)`` numpy arrays, with one parameter per row.
The transforms draw the parameters; these only run the deterministic numerical work."""

from __future__ import annotations

from typing import Any, Dict

import numpy as np

from .._args import F32, F64, SFX
from .._lib import cfunc, ffi
from ..spectral._common import _raise

__all__: list[str] = []

_fb = ffi.from_buffer
_CT = {F32: "float[]", F64: "double[]"}


def _fns(name: str) -> Dict[Any, Any]:
    return {F32: cfunc(f"sk_augment_{name}_f32"), F64: cfunc(f"sk_augment_{name}_f64")}


_GAIN, _CLIP, _CRUSH, _FADE, _MIX = (_fns(k) for k in ("gain", "clip", "bitcrush", "fade", "mix"))
SNR, ABSOLUTE = 0, 1


def _ptr(a: np.ndarray, dt: Any, writable: bool = False) -> Any:
    return _fb(_CT[dt], a, writable) if a.size else ffi.NULL


def _row_params(v: Any, rows: int, dt: Any) -> np.ndarray:
    return np.ascontiguousarray(np.broadcast_to(np.asarray(v, dtype=dt), (rows,)))


def _check(st: int, name: str, dt: Any) -> None:
    if st:
        _raise(st, f"sk_augment_{name}_{SFX[dt]}")


def gain(x: np.ndarray, gains: Any) -> np.ndarray:
    """``x[r] * gains[r]`` (``sk_augment_gain_*``)."""
    dt = x.dtype
    rows, n = x.shape
    y = np.empty_like(x)
    g = _row_params(gains, rows, dt)
    _check(_GAIN[dt](_ptr(x, dt), _ptr(g, dt), _ptr(y, dt, True), rows, n), "gain", dt)
    return y


def clip(x: np.ndarray, lo: Any, hi: Any) -> np.ndarray:
    """``np.clip(x[r], lo[r], hi[r])`` (``sk_augment_clip_*``)."""
    dt = x.dtype
    rows, n = x.shape
    y = np.empty_like(x)
    a, b = _row_params(lo, rows, dt), _row_params(hi, rows, dt)
    _check(_CLIP[dt](_ptr(x, dt), _ptr(a, dt), _ptr(b, dt), _ptr(y, dt, True), rows, n), "clip", dt)
    return y


def bitcrush(x: np.ndarray, q: Any) -> np.ndarray:
    """``np.round(x[r] * q[r]) / q[r]`` (``sk_augment_bitcrush_*``)."""
    dt = x.dtype
    rows, n = x.shape
    y = np.empty_like(x)
    qq = _row_params(q, rows, dt)
    _check(_CRUSH[dt](_ptr(x, dt), _ptr(qq, dt), _ptr(y, dt, True), rows, n), "bitcrush", dt)
    return y


def fade(x: np.ndarray, t0: Any, length: Any, db0: Any, db1: Any) -> np.ndarray:
    """audiomentations' ``GainTransition`` per row (``sk_augment_fade_*``)."""
    dt = x.dtype
    rows, n = x.shape
    y = np.empty_like(x)
    t = np.ascontiguousarray(np.broadcast_to(np.asarray(t0, dtype=np.intp), (rows,)))
    ln = np.ascontiguousarray(np.broadcast_to(np.asarray(length, dtype=np.uintp), (rows,)))
    a, b = _row_params(db0, rows, F64), _row_params(db1, rows, F64)
    st = _FADE[dt](_ptr(x, dt), _fb("ptrdiff_t[]", t) if rows else ffi.NULL,
                   _fb("size_t[]", ln) if rows else ffi.NULL, _ptr(a, F64), _ptr(b, F64),
                   _ptr(y, dt, True), rows, n)
    _check(st, "fade", dt)
    return y


def mix(x: np.ndarray, noise: np.ndarray, level_db: Any, mode: int, measure: bool) -> np.ndarray:
    """``x[r] + noise[r or 0] * s[r]`` at an SNR or absolute level (``sk_augment_mix_*``)."""
    dt = x.dtype
    rows, n = x.shape
    y = np.empty_like(x)
    nz = np.ascontiguousarray(noise, dtype=dt)
    lv = _row_params(level_db, rows, F64)
    st = _MIX[dt](_ptr(x, dt), _ptr(nz, dt), nz.shape[0], _ptr(lv, F64), mode, int(measure),
                  _ptr(y, dt, True), rows, n)
    _check(st, "mix", dt)
    return y


_ADD_NORMAL = _fns("add_normal")


def add_normal(x: np.ndarray, level_db: Any, seed: int) -> np.ndarray:
    """``x[r] + normal(...)[r] * 10 ** (level_db[r] / 20)`` in one pass, the noise the values of
    :func:`normal` with ``seed`` (``sk_augment_add_normal_*``)."""
    dt = x.dtype
    rows, n = x.shape
    y = np.empty_like(x)
    lv = _row_params(level_db, rows, F64)
    st = _ADD_NORMAL[dt](_ptr(x, dt), int(seed), _ptr(lv, F64), _ptr(y, dt, True), rows, n)
    _check(st, "add_normal", dt)
    return y


_SOSFILT = _fns("sosfilt")


def sosfilt_rows(x: np.ndarray, sos: np.ndarray) -> np.ndarray:
    """Row ``r`` through its own cascade ``sos[r]`` (``(rows, n_sections, 6)``) in float64 from
    the steady state ``sosfilt_zi(sos[r]) * x[r, 0]``, rounded to ``x``'s dtype
    (``sk_augment_sosfilt_*``)."""
    dt = x.dtype
    rows, n = x.shape
    y = np.empty_like(x)
    ss = np.ascontiguousarray(sos, dtype=F64)
    ns = ss.shape[1] if ss.ndim == 3 else 0
    st = _SOSFILT[dt](_ptr(x, dt), _ptr(ss, F64), ns, _ptr(y, dt, True), rows, n)
    _check(st, "sosfilt", dt)
    return y


_NORMAL = _fns("normal")


def normal(shape: Any, dtype: Any, seed: int) -> np.ndarray:
    """Standard normal draws of shape ``(..., n)``, each row (leading index, C order) from its
    own stream of ``seed`` (``sk_augment_normal_*``: xoshiro256++ and a ziggurat; see
    ``docs/augment.md``)."""
    dt = np.dtype(dtype)
    y = np.empty(tuple(shape), dt)
    n = y.shape[-1] if y.ndim else 1
    rows = y.size // n if n else 0
    _check(_NORMAL[dt](int(seed), _ptr(y, dt, True), rows, n), "normal", dt)
    return y
