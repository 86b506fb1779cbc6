//! The complex helpers of the scalar passes of [`super`] (also the one-value instance of the SIMD
//! passes in [`super::simd`]).

use crate::kernels::spectral::Complex;
use crate::kernels::Float;

/// Multiplies by `s·i`, `s = −1` forward and `+1` inverse.
#[inline(always)]
pub(super) fn rot<T: Float, const FWD: bool>(z: Complex<T>) -> Complex<T> {
    if FWD {
        Complex::new(z.im, -z.re)
    } else {
        Complex::new(-z.im, z.re)
    }
}

#[inline(always)]
pub(super) fn add<T: Float>(a: Complex<T>, b: Complex<T>) -> Complex<T> {
    Complex::new(a.re + b.re, a.im + b.im)
}

#[inline(always)]
pub(super) fn sub<T: Float>(a: Complex<T>, b: Complex<T>) -> Complex<T> {
    Complex::new(a.re - b.re, a.im - b.im)
}

#[inline(always)]
pub(super) fn scl<T: Float>(a: Complex<T>, s: T) -> Complex<T> {
    Complex::new(a.re * s, a.im * s)
}

#[inline(always)]
pub(super) fn mul<T: Float>(a: Complex<T>, b: Complex<T>) -> Complex<T> {
    Complex::new(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
}

/// `a·conj(b)`.
#[inline(always)]
pub(super) fn mulc<T: Float>(a: Complex<T>, b: Complex<T>) -> Complex<T> {
    Complex::new(a.re * b.re + a.im * b.im, a.im * b.re - a.re * b.im)
}

/// The stored twiddles are `e^{+2πi…}`; forward transforms use their conjugates.
#[inline(always)]
pub(super) fn tw<T: Float, const FWD: bool>(a: Complex<T>, w: Complex<T>) -> Complex<T> {
    if FWD {
        mulc(a, w)
    } else {
        mul(a, w)
    }
}
