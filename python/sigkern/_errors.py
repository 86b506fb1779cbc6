"""Status codes → exceptions.

Every failing C call raises a subclass of :class:`SigkernError` carrying the status ``code``,
its ``name`` and the library's thread-local ``message`` (which names the C function and the
argument at fault). Subclasses also derive from the matching built-in exception, so
``except ValueError`` catches a bad length or argument and ``except MemoryError`` an allocation
failure.
"""

from __future__ import annotations

from ._lib import cfunc, ffi

__all__ = [
    "SigkernError",
    "NullPointerError",
    "LengthError",
    "MisalignedError",
    "OverlapError",
    "BadArgumentError",
    "NonFiniteError",
    "InvalidHandleError",
    "AllocationError",
    "InternalError",
    "BufferTooSmallError",
    "status_name",
    "last_error_message",
]

_status_name = cfunc("sk_status_name")
_last_error_message = cfunc("sk_last_error_message")


class SigkernError(Exception):
    """A sigkern C function returned an error status.

    Attributes
    ----------
    code : int
        The negative ``SK_ERR_*`` status.
    name : str
        Its name, e.g. ``"SK_ERR_OVERLAP"``.
    message : str
        The library's message, starting with the C function's name.
    function : str
        The C function that failed.
    """

    code = 0

    def __init__(self, code: int, name: str, message: str, function: str = "") -> None:
        self.code = code
        self.name = name
        self.message = message
        self.function = function
        super().__init__(f"{name} ({code}): {message}")


class NullPointerError(SigkernError, ValueError):
    """``SK_ERR_NULL_POINTER``: a NULL pointer with a non-zero length."""

    code = -1


class LengthError(SigkernError, ValueError):
    """``SK_ERR_LENGTH``: a length that is empty where data is needed, or too large."""

    code = -2


class MisalignedError(SigkernError, ValueError):
    """``SK_ERR_MISALIGNED``: a buffer not aligned for its element type."""

    code = -3


class OverlapError(SigkernError, ValueError):
    """``SK_ERR_OVERLAP``: an output partially overlaps an input."""

    code = -4


class BadArgumentError(SigkernError, ValueError):
    """``SK_ERR_BAD_ARGUMENT``: a parameter out of its documented range."""

    code = -5


class NonFiniteError(SigkernError, ValueError):
    """``SK_ERR_NON_FINITE``: NaN or inf where finite data is required."""

    code = -6


class InvalidHandleError(SigkernError, ValueError):
    """``SK_ERR_INVALID_HANDLE``: a closed handle, or one in use by another thread."""

    code = -7


class AllocationError(SigkernError, MemoryError):
    """``SK_ERR_ALLOCATION``: the library could not allocate memory."""

    code = -8


class InternalError(SigkernError, RuntimeError):
    """``SK_ERR_INTERNAL``: a bug in sigkern (please report it with the message)."""

    code = -9


class BufferTooSmallError(SigkernError, ValueError):
    """``SK_ERR_BUFFER_TOO_SMALL``: an output smaller than the result."""

    code = -10


_BY_CODE = {
    cls.code: cls
    for cls in (
        NullPointerError,
        LengthError,
        MisalignedError,
        OverlapError,
        BadArgumentError,
        NonFiniteError,
        InvalidHandleError,
        AllocationError,
        InternalError,
        BufferTooSmallError,
    )
}


def status_name(code: int) -> str:
    """The name of a status code.

    Parameters
    ----------
    code : int
        A status code (``SK_OK``, ``SK_ERR_*``).

    Returns
    -------
    str
        ``"SK_UNKNOWN_STATUS"`` for a code the library never returns.

    Examples
    --------
    >>> sigkern.status_name(-4)
    'SK_ERR_OVERLAP'
    """
    ret: str = ffi.string(_status_name(code)).decode()
    return ret


def last_error_message() -> str:
    """The calling thread's message for its last failed sigkern call.

    Returns
    -------
    str
        ``""`` if none.
    """
    n = _last_error_message(ffi.NULL, 0)
    buf = ffi.new("char[]", n + 1)
    _last_error_message(buf, n + 1)
    ret: str = ffi.string(buf).decode("utf-8", "replace")
    return ret


def error(code: int, function: str = "") -> SigkernError:
    """The exception for a failed call's status (read right after the call, same thread)."""
    cls = _BY_CODE.get(code, SigkernError)
    return cls(code, status_name(code), last_error_message(), function)
