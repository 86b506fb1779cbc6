"""The lifetime of a C handle, shared by every class that owns one.

A subclass names its C free function once (``class Biquad(Handle, free="sk_biquad_free")``)
and keeps the handle in ``self._h``; :class:`Handle` gives it ``closed``, an idempotent
``close()``, the context-manager protocol and a ``__del__`` that frees a handle still open.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ._errors import InvalidHandleError, error, status_name
from ._lib import cfunc, ffi

__all__ = ["Handle", "closed_error"]

_T = TypeVar("_T", bound="Handle")


def closed_error(code: int, cname: str, what: str) -> InvalidHandleError:
    """The error of a call on a closed handle (``what``: "this Biquad", ...)."""
    return InvalidHandleError(
        code, status_name(code), f"{what} is closed (close() was called); create a new one", cname
    )


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
        closed: bool = self._h == ffi.NULL
        return closed

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
