//! The inner loop of the resampler: four independent dot products of coefficient windows with
//! input windows, all of the same length (a multiple of [`lanes`]: 16 for `float`, 8 for `double`).
//!
//! The lane body accumulates each product in [`TAP_BLOCK`] (`float`) or 8 (`double`) partial
//! sums, element `j` into partial sum `j mod lanes`, and adds the partial sums in a fixed tree.
//! That order does not depend on the instruction set, and the products and sums are not fused,
//! so every SIMD level gives bit-identical results; the scalar reference sums in plain order
//! and agrees to rounding.

// Lane loops index several fixed-size arrays by the same lane number.
#![allow(clippy::needless_range_loop)]

use super::design::TAP_BLOCK;
use crate::kernels::Float;
use crate::simd::multiversion;

/// The block the window length of `T` must be a multiple of (16 `float`, 8 `double` lanes).
pub fn lanes<T>() -> usize {
    if std::mem::size_of::<T>() == 4 {
        TAP_BLOCK
    } else {
        8
    }
}

/// Plain-order reference.
fn dot4_scalar<T: Float>(c: [&[T]; 4], x: [&[T]; 4]) -> [T; 4] {
    let mut out = [T::ZERO; 4];
    for r in 0..4 {
        let mut acc = T::ZERO;
        for (a, b) in c[r].iter().zip(x[r]) {
            acc = acc + *a * *b;
        }
        out[r] = acc;
    }
    out
}

#[inline(always)]
fn tree<T: Float, const V: usize>(mut a: [T; V]) -> T {
    let mut w = V;
    while w > 1 {
        w /= 2;
        for l in 0..w {
            a[l] = a[l] + a[l + w];
        }
    }
    a[0]
}

#[inline(always)]
fn dot4_block<T: Float, const V: usize>(c: [&[T]; 4], x: [&[T]; 4]) -> [T; 4] {
    let k = c[0].len();
    let c = c.map(|s| &s[..k]);
    let x = x.map(|s| &s[..k]);
    let mut acc = [[T::ZERO; V]; 4];
    let mut j = 0;
    while j + V <= k {
        for r in 0..4 {
            let cc: &[T; V] = c[r][j..j + V].try_into().expect("block of V");
            let xx: &[T; V] = x[r][j..j + V].try_into().expect("block of V");
            for l in 0..V {
                acc[r][l] = acc[r][l] + cc[l] * xx[l];
            }
        }
        j += V;
    }
    assert_eq!(j, k, "window length is not a multiple of the lane count");
    acc.map(tree::<T, V>)
}

#[inline(always)]
fn dot4_lanes<T: Float>(c: [&[T]; 4], x: [&[T]; 4]) -> [T; 4] {
    if std::mem::size_of::<T>() == 4 {
        dot4_block::<T, TAP_BLOCK>(c, x)
    } else {
        dot4_block::<T, 8>(c, x)
    }
}

multiversion! {
    /// Four dot products `Σ_j c[r][j]·x[r][j]`, `r < 4`. Every slice has the length of
    /// `c[0]`, a multiple of [`lanes`] (checked).
    pub fn dot4_at<T: Float>(c: [&[T]; 4], x: [&[T]; 4]) -> [T; 4];
    scalar = dot4_scalar; simd = dot4_lanes;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;
    use crate::simd::{available, Level};

    fn check<T: Float>(make: impl Fn(&mut Rng, usize) -> Vec<T>, tol: f64) {
        let mut rng = Rng::new(7);
        for k in [16, 32, 48, 224, 240, 1024] {
            let c: Vec<Vec<T>> = (0..4).map(|_| make(&mut rng, k)).collect();
            let x: Vec<Vec<T>> = (0..4).map(|_| make(&mut rng, k + 3)).collect();
            let cs = [&c[0][..], &c[1][..], &c[2][..], &c[3][..]];
            let xs = [
                &x[0][..k],
                &x[1][1..k + 1],
                &x[2][2..k + 2],
                &x[3][3..k + 3],
            ];
            let exact: Vec<f64> = (0..4)
                .map(|r| (0..k).map(|j| cs[r][j].to_f64() * xs[r][j].to_f64()).sum())
                .collect();
            let first = dot4_at(Level::Baseline, cs, xs);
            for level in available() {
                let got = dot4_at(level, cs, xs);
                for r in 0..4 {
                    let bound: f64 = (0..k)
                        .map(|j| (cs[r][j].to_f64() * xs[r][j].to_f64()).abs())
                        .sum::<f64>()
                        * tol;
                    assert!(
                        (got[r].to_f64() - exact[r]).abs() <= bound,
                        "{level:?} k {k} r {r}"
                    );
                    if level != Level::Scalar {
                        assert_eq!(got[r].to_f64().to_bits(), first[r].to_f64().to_bits());
                    }
                }
            }
        }
    }

    #[test]
    fn every_level_matches_the_reference() {
        check::<f32>(|r, n| r.vec_f32(n, 1.0), 1e-5);
        check::<f64>(|r, n| r.vec_f64(n, 1.0), 1e-13);
    }

    #[test]
    fn nan_and_inf_propagate() {
        let c = vec![1.0f32; 16];
        let mut x = vec![0.0f32; 16];
        x[5] = f32::NAN;
        let mut y = vec![0.0f32; 16];
        y[15] = f32::INFINITY;
        for level in available() {
            let r = dot4_at(level, [&c, &c, &c, &c], [&x, &y, &c, &c]);
            assert!(r[0].is_nan() && r[1] == f32::INFINITY && r[2] == 16.0);
        }
    }
}
