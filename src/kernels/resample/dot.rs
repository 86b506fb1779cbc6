//! The inner loop of the resampler: four independent dot products of coefficient windows with
//! input windows, all of the same length (a multiple of [`lanes`]: 16 for `float`, 8 for `double`).
//!
//! The lane body accumulates each product in `2·lanes` partial sums (two vectors per row, so
//! the additions of a row form two independent chains), element `j` into partial sum
//! `j mod 2·lanes`, and adds the partial sums in a fixed tree. At AVX2 and AVX-512 each
//! product is added with a fused multiply-add; the baseline (SSE2 / NEON) level multiplies and
//! adds. That order does not depend on the vector width, so AVX2 and AVX-512 give
//! bit-identical results, the baseline level agrees with them to rounding, and the scalar
//! reference sums in plain order.

// Lane loops index several fixed-size arrays by the same lane number.
#![allow(clippy::needless_range_loop)]

use super::design::TAP_BLOCK;
use crate::kernels::Float;
use crate::simd::Level;

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
fn tree<T: Float, const W: usize>(mut a: [T; W]) -> T {
    let mut w = W;
    while w > 1 {
        w /= 2;
        for l in 0..w {
            a[l] = a[l] + a[l + w];
        }
    }
    a[0]
}

/// Multiply-add of one lane: fused or not.
trait Madd {
    fn madd<T: Float>(a: T, b: T, c: T) -> T;
}
struct Plain;
struct Fused;
impl Madd for Plain {
    #[inline(always)]
    fn madd<T: Float>(a: T, b: T, c: T) -> T {
        c + a * b
    }
}
impl Madd for Fused {
    #[inline(always)]
    fn madd<T: Float>(a: T, b: T, c: T) -> T {
        a.mul_add(b, c)
    }
}

/// `V` lanes per vector, `W = 2·V` partial sums per row.
#[inline(always)]
fn dot4_block<T: Float, M: Madd, const V: usize, const W: usize>(
    c: [&[T]; 4],
    x: [&[T]; 4],
) -> [T; 4] {
    let k = c[0].len();
    let c = c.map(|s| &s[..k]);
    let x = x.map(|s| &s[..k]);
    let mut acc = [[T::ZERO; W]; 4];
    let mut j = 0;
    while j + W <= k {
        for r in 0..4 {
            let cc: &[T; W] = c[r][j..j + W].try_into().expect("block of W");
            let xx: &[T; W] = x[r][j..j + W].try_into().expect("block of W");
            for l in 0..W {
                acc[r][l] = M::madd(cc[l], xx[l], acc[r][l]);
            }
        }
        j += W;
    }
    if j + V <= k {
        for r in 0..4 {
            let cc: &[T; V] = c[r][j..j + V].try_into().expect("block of V");
            let xx: &[T; V] = x[r][j..j + V].try_into().expect("block of V");
            for l in 0..V {
                acc[r][l] = M::madd(cc[l], xx[l], acc[r][l]);
            }
        }
        j += V;
    }
    assert_eq!(j, k, "window length is not a multiple of the lane count");
    acc.map(tree::<T, W>)
}

#[inline(always)]
fn dot4_lanes<T: Float, M: Madd>(c: [&[T]; 4], x: [&[T]; 4]) -> [T; 4] {
    if std::mem::size_of::<T>() == 4 {
        dot4_block::<T, M, TAP_BLOCK, { 2 * TAP_BLOCK }>(c, x)
    } else {
        dot4_block::<T, M, 8, 16>(c, x)
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,bmi1,bmi2,popcnt")]
fn dot4_avx512<T: Float>(c: [&[T]; 4], x: [&[T]; 4]) -> [T; 4] {
    dot4_lanes::<T, Fused>(c, x)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,bmi1,bmi2,popcnt")]
fn dot4_avx2<T: Float>(c: [&[T]; 4], x: [&[T]; 4]) -> [T; 4] {
    dot4_lanes::<T, Fused>(c, x)
}

/// Four dot products `Σ_j c[r][j]·x[r][j]`, `r < 4`. Every slice has the length of `c[0]`, a
/// multiple of [`lanes`] (checked).
pub fn dot4_at<T: Float>(level: Level, c: [&[T]; 4], x: [&[T]; 4]) -> [T; 4] {
    match crate::simd::effective(level) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the level was clamped to the detected one, so the CPU has AVX-512.
        Level::Avx512 => unsafe { dot4_avx512(c, x) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the level was clamped to the detected one, so the CPU has AVX2 + FMA.
        Level::Avx2 => unsafe { dot4_avx2(c, x) },
        Level::Scalar => dot4_scalar(c, x),
        _ => dot4_lanes::<T, Plain>(c, x),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;
    use crate::simd::{available, Level};

    fn check<T: Float>(make: impl Fn(&mut Rng, usize) -> Vec<T>, tol: f64, lens: &[usize]) {
        let mut rng = Rng::new(7);
        for &k in lens {
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
            let fused = available()
                .into_iter()
                .find(|&l| l >= Level::Avx2)
                .map(|l| dot4_at(l, cs, xs));
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
                    // the fused levels agree bit for bit
                    if let (true, Some(f)) = (level >= Level::Avx2, fused) {
                        assert_eq!(got[r].to_f64().to_bits(), f[r].to_f64().to_bits());
                    }
                }
            }
        }
    }

    #[test]
    fn every_level_matches_the_reference() {
        check::<f32>(|r, n| r.vec_f32(n, 1.0), 1e-5, &[16, 32, 48, 224, 240, 1024]);
        check::<f64>(|r, n| r.vec_f64(n, 1.0), 1e-13, &[8, 16, 24, 40, 224, 1032]);
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
