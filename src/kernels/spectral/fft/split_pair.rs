//! The scalar reference of the real transforms' split step ([`super::split`]): its ends and one
//! pair of bins, forward and inverse, which the explicit SIMD steps reuse for their tails.

use super::{Complex, FftFloat};
use crate::kernels::Float;

/// The ends of the forward split step: bins 0 and m from `Z[0]`, and bin m/2 (even m) =
/// `conj Z[m/2]`. `y` holds m+1 values.
#[inline(always)]
pub(super) fn split_fwd_ends<T: FftFloat>(y: &mut [Complex<T>]) {
    let m = y.len() - 1;
    let z0 = y[0];
    y[0] = Complex::new(z0.re + z0.im, T::ZERO);
    y[m] = Complex::new(z0.re - z0.im, T::ZERO);
    if m >= 2 && m.is_multiple_of(2) {
        y[m / 2] = y[m / 2].conj();
    }
}

/// One pair of the forward split step: `a = Z[k]`, `b = Z[m−k]`, `v = v_k = −i·w^k/2`. With
/// `S = A + conj B`, `D = A − conj B`, `H = S/2`: `X[k] = H + v·D`, `X[m−k] = conj(H − v·D)`
/// (`E = S/2`, `w^k·O = w^k·D/2i = v·D`). Every SIMD path computes exactly these operations in
/// this order (no FMA), so all levels give bit-identical results.
#[inline(always)]
pub(super) fn split_fwd_pair<T: FftFloat>(a: &mut Complex<T>, b: &mut Complex<T>, v: Complex<T>) {
    let half = <T as Float>::from_f64(0.5);
    let (za, zb) = (*a, *b);
    let s = Complex::new(za.re + zb.re, za.im - zb.im);
    let d = Complex::new(za.re - zb.re, za.im + zb.im);
    let vd = Complex::new(v.re * d.re - v.im * d.im, v.re * d.im + v.im * d.re);
    let h = Complex::new(s.re * half, s.im * half);
    *a = Complex::new(h.re + vd.re, h.im + vd.im);
    *b = Complex::new(h.re - vd.re, -(h.im - vd.im));
}

/// The ends of the inverse split step: `Z'[0]` from bins 0 and m, and `Z'[m/2]` (even m) from
/// bin m/2.
#[inline(always)]
pub(super) fn split_inv_ends<T: FftFloat>(x: &[Complex<T>], z: &mut [Complex<T>]) {
    let m = z.len();
    let two = <T as Float>::from_f64(2.0);
    z[0] = Complex::new(x[0].re + x[m].re, x[0].re - x[m].re);
    if m >= 2 && m.is_multiple_of(2) {
        let c = x[m / 2];
        z[m / 2] = Complex::new(two * c.re, -(two * c.im));
    }
}

/// One pair of the inverse split step: `xa = X[k]`, `xb = X[m−k]`, `w = w^k`; returns
/// `(Z'[k], Z'[m−k])` (see [`super::split::split_inv_body`]). Every SIMD path computes exactly
/// these operations in this order (no FMA), so all levels give bit-identical results.
#[inline(always)]
pub(super) fn split_inv_pair<T: FftFloat>(
    xa: Complex<T>,
    xb: Complex<T>,
    w: Complex<T>,
) -> (Complex<T>, Complex<T>) {
    let f = Complex::new(xa.re + xb.re, xa.im - xb.im);
    let g = Complex::new(xa.re - xb.re, xa.im + xb.im);
    // i·conj(w)·G: conj(w) = (w.re, −w.im); i·(c) = (−c.im, c.re)
    let c = Complex::new(w.re * g.re + w.im * g.im, w.re * g.im - w.im * g.re);
    let t = Complex::new(-c.im, c.re);
    (
        Complex::new(f.re + t.re, f.im + t.im),
        Complex::new(f.re - t.re, t.im - f.im),
    )
}
