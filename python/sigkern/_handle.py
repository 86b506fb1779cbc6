"""The lifetime of a C handle, shared by every class that owns one.

A subclass names its C free function once (``class Biquad(Handle, free="sk_biquad_free")``)
and keeps the handle in ``self._h``; :class:`Handle` gives it ``closed``, an idempotent
``close()``, the context-manager protocol and a ``__del__`` that frees a handle still open.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ._errors import error
from ._lib import cfunc, ffi

__all__ = ["Handle"]

_T = TypeVar("_T", bound="Handle")


class Handle:
    """Owns one C handle, freed by ``close()``, ``with`` or garbage collection."""

    # Subclasses declare their own slots (``_h`` and ``__weakref__`` among them).
    __slots__ = ()
    _h: Any = ffi.NULL
    _free_name: str = ""
    _free_fn: Any = None

    def __init_subclass__(cls, free: str | None = None, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if free is not None:
            cls._free_name = free
            cls._free_fn = cfunc(free)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has been called."""
        return self._h == ffi.NULL

    def close(self) -> None:
        """Frees the C handle (idempotent). Any later call raises :class:`InvalidHandleError`.

        Examples
        --------
        >>> p = sigkern.FftPlan(8); p.close(); p.close(); p.closed
        True
        """
        h = self._h
        if h != ffi.NULL:
            st = type(self)._free_fn(h)
            if st:
                raise error(st, self._free_name)
            self._h = ffi.NULL

    def __enter__(self: _T) -> _T:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            h = self._h
            if h != ffi.NULL:
                self._h = ffi.NULL
                type(self)._free_fn(h)
        except Exception:  # interpreter shutdown: the module globals may be gone
            pass
