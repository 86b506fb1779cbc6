//! The element types of the plans ([`FftFloat`]: f32 and f64, each with its per-thread workspace
//! and its split steps; the two impls are in [`super::float_impls`]) and the views of real slices
//! as complex pairs and back.

use super::workspace::Workspace;
use super::Complex;
use crate::kernels::Float;
use rustfft::FftNum;

/// The element types the FFT plans support, with their per-thread workspace.
pub trait FftFloat: Float + FftNum {
    /// Runs `f` with this thread's workspace (or a fresh one when it is already in use).
    fn with_workspace<R>(f: impl FnOnce(&mut Workspace<Self>) -> R) -> R;
    /// The forward real-FFT split step at `level` (see [`super::split::split_fwd_body`]).
    fn split_fwd_at(level: crate::simd::Level, y: &mut [Complex<Self>], v: &[Complex<Self>]);
    /// The inverse real-FFT split step at `level` (see [`super::split::split_inv_body`]).
    fn split_inv_at(
        level: crate::simd::Level,
        x: &[Complex<Self>],
        z: &mut [Complex<Self>],
        tw: &[Complex<Self>],
    );
    /// Whether lengths that are not powers of two run on [`super::mixed::MixedFft`] (see [`super::plan::use_crate`]).
    const ACCURATE_MIXED: bool;
    /// The slice itself for f64, `None` for f32: lets the generic [`super::mixed::MixedFft`] reach its
    /// f64-only SIMD passes without a cast.
    fn as_f64(x: &[Complex<Self>]) -> Option<&[Complex<f64>]>;
    /// Mutable counterpart of [`FftFloat::as_f64`].
    fn as_f64_mut(x: &mut [Complex<Self>]) -> Option<&mut [Complex<f64>]>;
    /// The slice itself for f32, `None` for f64 (the float own transforms).
    fn as_f32(x: &[Complex<Self>]) -> Option<&[Complex<f32>]>;
    /// Mutable counterpart of [`FftFloat::as_f32`].
    fn as_f32_mut(x: &mut [Complex<Self>]) -> Option<&mut [Complex<f32>]>;
}

/// Views `2m` reals as `m` complex values (`re, im` pairs).
pub(super) fn as_complex<T: Float>(x: &[T]) -> &[Complex<T>] {
    assert!(x.len().is_multiple_of(2), "odd length viewed as complex");
    // SAFETY: Complex<T> is #[repr(C)] { re: T, im: T }: size 2·size_of::<T>(), alignment of T,
    // so len/2 complex values cover exactly the same bytes; the lifetime is the input's.
    unsafe { std::slice::from_raw_parts(x.as_ptr() as *const Complex<T>, x.len() / 2) }
}

/// Views `m` complex values as `2m` reals (`re, im` pairs).
pub(crate) fn as_real<T: Float>(x: &[Complex<T>]) -> &[T] {
    // SAFETY: Complex<T> is #[repr(C)] { re: T, im: T } without padding, so m complex values
    // are exactly 2m values of T with T's alignment; the lifetime is the input's.
    unsafe { std::slice::from_raw_parts(x.as_ptr() as *const T, 2 * x.len()) }
}

/// Mutable counterpart of [`as_real`].
pub(super) fn as_real_mut<T: Float>(x: &mut [Complex<T>]) -> &mut [T] {
    // SAFETY: Complex<T> is #[repr(C)] { re: T, im: T } without padding, so m complex values
    // are exactly 2m values of T with T's alignment; the exclusive borrow is moved into the
    // result.
    unsafe { std::slice::from_raw_parts_mut(x.as_mut_ptr() as *mut T, 2 * x.len()) }
}

/// Mutable counterpart of [`as_complex`].
pub(super) fn as_complex_mut<T: Float>(x: &mut [T]) -> &mut [Complex<T>] {
    assert!(x.len().is_multiple_of(2), "odd length viewed as complex");
    // SAFETY: as in as_complex; the exclusive borrow of `x` is moved into the result.
    unsafe { std::slice::from_raw_parts_mut(x.as_mut_ptr() as *mut Complex<T>, x.len() / 2) }
}
