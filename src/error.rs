//! Status codes and the one error type of the crate.
//!
//! Every error the library can report is a variant of [`SkError`]; each variant maps to exactly
//! one status code below, and the codes are stable forever: a code is never renumbered and never
//! reused for another meaning. New failure kinds get new, more negative numbers.

use thiserror::Error;

/// Success.
pub const SK_OK: i32 = 0;
/// A pointer argument was NULL while its length was non-zero.
pub const SK_ERR_NULL_POINTER: i32 = -1;
/// A length was negative, zero where at least one element is needed, or so large that its byte
/// size (or strided extent) overflows `isize`.
pub const SK_ERR_LENGTH: i32 = -2;
/// A pointer was not aligned for its element type (e.g. a `float *` not on a 4-byte boundary).
pub const SK_ERR_MISALIGNED: i32 = -3;
/// An output partially overlaps an input (exact aliasing is allowed only where documented).
pub const SK_ERR_OVERLAP: i32 = -4;
/// A scalar parameter is out of its documented range (e.g. `lo > hi`, a NaN bound).
pub const SK_ERR_BAD_ARGUMENT: i32 = -5;
/// The input holds NaN or infinity where the function needs finite values.
pub const SK_ERR_NON_FINITE: i32 = -6;
/// A handle is NULL, already freed, or of the wrong kind for the call.
pub const SK_ERR_INVALID_HANDLE: i32 = -7;
/// Memory could not be allocated.
pub const SK_ERR_ALLOCATION: i32 = -8;
/// A bug inside the library (a caught panic); the message says where.
pub const SK_ERR_INTERNAL: i32 = -9;
/// An output buffer is smaller than the call needs; the message states the size needed.
pub const SK_ERR_BUFFER_TOO_SMALL: i32 = -10;

/// Every failure of the library. Each variant carries the human-readable detail that ends up in
/// the calling thread's last-error message, prefixed by the name of the exported function.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SkError {
    #[error("{0}")]
    NullPointer(String),
    #[error("{0}")]
    Length(String),
    #[error("{0}")]
    Misaligned(String),
    #[error("{0}")]
    Overlap(String),
    #[error("{0}")]
    BadArgument(String),
    #[error("{0}")]
    NonFinite(String),
    #[error("{0}")]
    InvalidHandle(String),
    #[error("{0}")]
    Allocation(String),
    #[error("{0}")]
    Internal(String),
    #[error("{0}")]
    BufferTooSmall(String),
}

/// All status codes with their names, in code order. `sk_status_name` and the tests use it.
pub const STATUS_NAMES: [(i32, &str); 11] = [
    (SK_OK, "SK_OK"),
    (SK_ERR_NULL_POINTER, "SK_ERR_NULL_POINTER"),
    (SK_ERR_LENGTH, "SK_ERR_LENGTH"),
    (SK_ERR_MISALIGNED, "SK_ERR_MISALIGNED"),
    (SK_ERR_OVERLAP, "SK_ERR_OVERLAP"),
    (SK_ERR_BAD_ARGUMENT, "SK_ERR_BAD_ARGUMENT"),
    (SK_ERR_NON_FINITE, "SK_ERR_NON_FINITE"),
    (SK_ERR_INVALID_HANDLE, "SK_ERR_INVALID_HANDLE"),
    (SK_ERR_ALLOCATION, "SK_ERR_ALLOCATION"),
    (SK_ERR_INTERNAL, "SK_ERR_INTERNAL"),
    (SK_ERR_BUFFER_TOO_SMALL, "SK_ERR_BUFFER_TOO_SMALL"),
];

impl SkError {
    /// The stable status code of this error.
    pub fn code(&self) -> i32 {
        match self {
            SkError::NullPointer(_) => SK_ERR_NULL_POINTER,
            SkError::Length(_) => SK_ERR_LENGTH,
            SkError::Misaligned(_) => SK_ERR_MISALIGNED,
            SkError::Overlap(_) => SK_ERR_OVERLAP,
            SkError::BadArgument(_) => SK_ERR_BAD_ARGUMENT,
            SkError::NonFinite(_) => SK_ERR_NON_FINITE,
            SkError::InvalidHandle(_) => SK_ERR_INVALID_HANDLE,
            SkError::Allocation(_) => SK_ERR_ALLOCATION,
            SkError::Internal(_) => SK_ERR_INTERNAL,
            SkError::BufferTooSmall(_) => SK_ERR_BUFFER_TOO_SMALL,
        }
    }
}

/// The static name of a status code, or `None` for a code the library never returns.
pub fn status_name(code: i32) -> Option<&'static str> {
    STATUS_NAMES
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, name)| *name)
}

/// Result type of the safe core.
pub type SkResult<T> = Result<T, SkError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_zero_or_negative_and_named() {
        let mut seen = std::collections::HashSet::new();
        for (code, name) in STATUS_NAMES {
            assert!(code <= 0, "{name}");
            assert!(seen.insert(code), "duplicate code {code}");
            assert_eq!(status_name(code), Some(name));
        }
        assert_eq!(status_name(1), None);
        assert_eq!(status_name(-1000), None);
    }

    #[test]
    fn every_variant_maps_to_its_code() {
        let s = String::from("m");
        let all = [
            (SkError::NullPointer(s.clone()), SK_ERR_NULL_POINTER),
            (SkError::Length(s.clone()), SK_ERR_LENGTH),
            (SkError::Misaligned(s.clone()), SK_ERR_MISALIGNED),
            (SkError::Overlap(s.clone()), SK_ERR_OVERLAP),
            (SkError::BadArgument(s.clone()), SK_ERR_BAD_ARGUMENT),
            (SkError::NonFinite(s.clone()), SK_ERR_NON_FINITE),
            (SkError::InvalidHandle(s.clone()), SK_ERR_INVALID_HANDLE),
            (SkError::Allocation(s.clone()), SK_ERR_ALLOCATION),
            (SkError::Internal(s.clone()), SK_ERR_INTERNAL),
            (SkError::BufferTooSmall(s.clone()), SK_ERR_BUFFER_TOO_SMALL),
        ];
        for (e, code) in all {
            assert_eq!(e.code(), code);
            assert_eq!(e.to_string(), "m");
        }
    }
}
