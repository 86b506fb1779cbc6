//! Fallible allocation. Every buffer whose size a caller chooses (a length, an FFT size, a
//! number of taps or channels) is allocated through these helpers, so running out of memory is
//! `SK_ERR_ALLOCATION` with a message, never an abort of the host process.
//!
//! Code that allocates inside a dependency (the FFT planners of `rustfft`/`realfft`) cannot be
//! made fallible from outside; [`headroom`] first asks the allocator for a generous estimate of
//! what that code needs and releases it again, so a request the process cannot afford is refused
//! before the dependency is entered.

use crate::error::{SkError, SkResult};
use std::mem::size_of;

fn fail<T>(n: usize, what: &str) -> SkError {
    match n.checked_mul(size_of::<T>()) {
        Some(bytes) if bytes <= isize::MAX as usize => SkError::Allocation(format!(
            "out of memory: cannot allocate {bytes} bytes ({n} elements) for {what}"
        )),
        _ => SkError::Allocation(format!(
            "out of memory: {n} elements of {} bytes for {what} exceed the address space",
            size_of::<T>()
        )),
    }
}

/// An empty vector with room for exactly `n` elements.
pub fn try_with_capacity<T>(n: usize, what: &str) -> SkResult<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| fail::<T>(n, what))?;
    Ok(v)
}

/// `vec![value; n]`, or `SK_ERR_ALLOCATION`.
pub fn try_vec<T: Clone>(n: usize, value: T, what: &str) -> SkResult<Vec<T>> {
    let mut v = try_with_capacity(n, what)?;
    v.resize(n, value);
    Ok(v)
}

/// `s.to_vec()`, or `SK_ERR_ALLOCATION`.
pub fn try_copy<T: Clone>(s: &[T], what: &str) -> SkResult<Vec<T>> {
    let mut v = try_with_capacity(s.len(), what)?;
    v.extend_from_slice(s);
    Ok(v)
}

/// Collects an exact-size iterator, or `SK_ERR_ALLOCATION` (no growth after the reservation).
pub fn try_collect<T>(it: impl ExactSizeIterator<Item = T>, what: &str) -> SkResult<Vec<T>> {
    let mut v = try_with_capacity(it.len(), what)?;
    v.extend(it);
    Ok(v)
}

/// Grows `v` to at least `n` elements (new ones `T::default()`), or `SK_ERR_ALLOCATION` with `v`
/// unchanged.
pub fn try_grow<T: Clone + Default>(v: &mut Vec<T>, n: usize, what: &str) -> SkResult<()> {
    if v.len() < n {
        v.try_reserve_exact(n - v.len())
            .map_err(|_| fail::<T>(n, what))?;
        v.resize(n, T::default());
    }
    Ok(())
}

/// Checks that `n` elements of `T` could be allocated right now, and releases them again: for
/// code that allocates about that much through a path that cannot report failure.
pub fn headroom<T>(n: usize, what: &str) -> SkResult<()> {
    try_with_capacity::<T>(n, what).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::SK_ERR_ALLOCATION;

    #[test]
    fn helpers_build_what_they_say() {
        assert_eq!(try_vec(3, 1.5f32, "x").unwrap(), vec![1.5f32; 3]);
        assert_eq!(try_copy(&[1, 2, 3], "x").unwrap(), vec![1, 2, 3]);
        assert_eq!(
            try_collect((0..4).map(|i| i * 2), "x").unwrap(),
            [0, 2, 4, 6]
        );
        let mut v = vec![7u8];
        try_grow(&mut v, 3, "x").unwrap();
        assert_eq!(v, [7, 0, 0]);
        try_grow(&mut v, 2, "x").unwrap();
        assert_eq!(v.len(), 3);
        assert!(headroom::<f64>(1000, "x").is_ok());
    }

    #[test]
    fn impossible_sizes_are_allocation_errors_not_panics() {
        for n in [usize::MAX, usize::MAX / 8 + 1, (1usize << 60) + 1] {
            let e = try_vec(n, 0.0f64, "the test buffer").unwrap_err();
            assert_eq!(e.code(), SK_ERR_ALLOCATION);
            assert!(e.to_string().contains("the test buffer"), "{e}");
            assert_eq!(
                headroom::<f64>(n, "t").unwrap_err().code(),
                SK_ERR_ALLOCATION
            );
        }
        let mut v = vec![1u32; 2];
        assert!(try_grow(&mut v, usize::MAX, "g").is_err());
        assert_eq!(v, [1, 1]);
    }
}
