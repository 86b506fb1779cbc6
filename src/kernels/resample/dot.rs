//! The inner loop of the resampler: four independent dot products of coefficient windows with
//! input windows, all of the same length (a multiple of [`lanes`], 8).
//!
//! The lane body accumulates each product in `lanes` partial sums per row, element `j` into
//! partial sum `j mod lanes`, and adds the partial sums in a fixed tree. At AVX2 and AVX-512 each
//! product is added with a fused multiply-add; the baseline (SSE2 / NEON) level multiplies and
//! adds. That order does not depend on the vector width, so AVX2 and AVX-512 give
//! bit-identical results, the baseline level agrees with them to rounding, and the scalar
//! reference sums in plain order.

// Lane loops index several fixed-size arrays by the same lane number.
#![allow(clippy::needless_range_loop)]

use super::design::TAP_BLOCK;
use crate::kernels::Float;
use crate::simd::Level;

/// The block the window length must be a multiple of: 8 partial sums for `float` and
/// `double` (the resampler's polyphase kernels are a few dozen taps long, so wider blocks
/// would mostly multiply zeros).
pub fn lanes<T>() -> usize {
    TAP_BLOCK
}

/// Plain-order reference.
fn dotn_scalar<T: Float, const R: usize>(c: [&[T]; R], x: [&[T]; R]) -> [T; R] {
    let mut out = [T::ZERO; R];
    for r in 0..R {
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

/// Multiply-add of one lane: fused or not.
pub(crate) trait Madd {
    fn madd<T: Float>(a: T, b: T, c: T) -> T;
}
pub(crate) struct Plain;
pub(crate) struct Fused;
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

/// `V` lanes (partial sums) per row, `R` rows.
#[inline(always)]
fn dotn_block<T: Float, M: Madd, const V: usize, const R: usize>(
    c: [&[T]; R],
    x: [&[T]; R],
) -> [T; R] {
    let k = c[0].len();
    let c = c.map(|s| &s[..k]);
    let x = x.map(|s| &s[..k]);
    let mut acc = [[T::ZERO; V]; R];
    let mut j = 0;
    while j + V <= k {
        for r in 0..R {
            let cc: &[T; V] = c[r][j..j + V].try_into().expect("block of V");
            let xx: &[T; V] = x[r][j..j + V].try_into().expect("block of V");
            for l in 0..V {
                acc[r][l] = M::madd(cc[l], xx[l], acc[r][l]);
            }
        }
        j += V;
    }
    assert_eq!(j, k, "window length is not a multiple of the lane count");
    acc.map(tree::<T, V>)
}

/// Four dot products `Σ_j c[r][j]·x[r][j]`, `r < 4`. Every slice has the length of `c[0]`, a
/// multiple of [`lanes`] (checked).
pub fn dot4_at<T: Float>(level: Level, c: [&[T]; 4], x: [&[T]; 4]) -> [T; 4] {
    struct Four<'a, T> {
        c: [&'a [T]; 4],
        x: [&'a [T]; 4],
        out: [T; 4],
    }
    impl<T: Float> Job for Four<'_, T> {
        #[inline(always)]
        fn run<D: Dot>(&mut self) {
            self.out = D::dot::<T, 4>(self.c, self.x);
        }
    }
    let mut j = Four {
        c,
        x,
        out: [T::ZERO; 4],
    };
    run_at(level, &mut j);
    j.out
}

/// `G` dot products of one coefficient window with `G` input windows (`G` channels at the same
/// output instant): each coefficient block is loaded once for all of them. Every row is
/// computed exactly as [`dot4_at`] computes it.
#[inline(always)]
fn dotc_block<T: Float, M: Madd, const V: usize, const G: usize>(c: &[T], x: [&[T]; G]) -> [T; G] {
    let k = c.len();
    let x = x.map(|s| &s[..k]);
    let mut acc = [[T::ZERO; V]; G];
    let mut j = 0;
    while j + V <= k {
        let cc: &[T; V] = c[j..j + V].try_into().expect("block of V");
        for r in 0..G {
            let xx: &[T; V] = x[r][j..j + V].try_into().expect("block of V");
            for l in 0..V {
                acc[r][l] = M::madd(cc[l], xx[l], acc[r][l]);
            }
        }
        j += V;
    }
    assert_eq!(j, k, "window length is not a multiple of the lane count");
    acc.map(tree::<T, V>)
}

fn dotc_scalar<T: Float, const G: usize>(c: &[T], x: [&[T]; G]) -> [T; G] {
    x.map(|x| {
        let mut acc = T::ZERO;
        for (a, b) in c.iter().zip(x) {
            acc = acc + *a * *b;
        }
        acc
    })
}

/// `Σ_j c[j]·x[r][j]` for `r < G`; every window has the length of `c`, a multiple of
/// [`lanes`] (checked). Bit-identical to [`dot4_at`] on the same rows.
pub fn dotc_at<T: Float, const G: usize>(level: Level, c: &[T], x: [&[T]; G]) -> [T; G] {
    struct Shared<'a, T, const G: usize> {
        c: &'a [T],
        x: [&'a [T]; G],
        out: [T; G],
    }
    impl<T: Float, const G: usize> Job for Shared<'_, T, G> {
        #[inline(always)]
        fn run<D: Dot>(&mut self) {
            self.out = D::dotc::<T, G>(self.c, self.x);
        }
    }
    let mut j = Shared {
        c,
        x,
        out: [T::ZERO; G],
    };
    run_at(level, &mut j);
    j.out
}

/// A dot-product strategy: the lane order (with or without fused multiply-adds) or the
/// plain-order scalar reference. [`Job`]s are written once over it and compiled per level by
/// [`run_at`], with the dot products inlined into their loops.
pub(crate) trait Dot {
    /// `R` dot products `Σ_j c[r][j]·x[r][j]`, exactly as [`dot4_at`] computes each row.
    fn dot<T: Float, const R: usize>(c: [&[T]; R], x: [&[T]; R]) -> [T; R];
    /// `G` dot products of `c` with `G` windows, exactly as [`dotc_at`] computes them.
    fn dotc<T: Float, const G: usize>(c: &[T], x: [&[T]; G]) -> [T; G];
}

/// The lane order; `M` fused or not.
pub(crate) struct LaneDot<M>(std::marker::PhantomData<M>);
/// The plain-order reference.
pub(crate) struct PlainDot;

impl<M: Madd> Dot for LaneDot<M> {
    #[inline(always)]
    fn dot<T: Float, const R: usize>(c: [&[T]; R], x: [&[T]; R]) -> [T; R] {
        dotn_block::<T, M, TAP_BLOCK, R>(c, x)
    }
    #[inline(always)]
    fn dotc<T: Float, const G: usize>(c: &[T], x: [&[T]; G]) -> [T; G] {
        dotc_block::<T, M, TAP_BLOCK, G>(c, x)
    }
}

impl Dot for PlainDot {
    fn dot<T: Float, const R: usize>(c: [&[T]; R], x: [&[T]; R]) -> [T; R] {
        dotn_scalar(c, x)
    }
    fn dotc<T: Float, const G: usize>(c: &[T], x: [&[T]; G]) -> [T; G] {
        dotc_scalar(c, x)
    }
}

/// A loop of dot products, written once over the strategy `D`.
pub(crate) trait Job {
    fn run<D: Dot>(&mut self);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,bmi1,bmi2,popcnt")]
fn job_avx512<J: Job>(j: &mut J) {
    j.run::<LaneDot<Fused>>()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,bmi1,bmi2,popcnt")]
fn job_avx2<J: Job>(j: &mut J) {
    j.run::<LaneDot<Fused>>()
}

/// Runs `j` at `level`: its dot products give the same bits as [`dot4_at`] / [`dotc_at`] at
/// that level.
pub(crate) fn run_at<J: Job>(level: Level, j: &mut J) {
    match crate::simd::effective(level) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the level was clamped to the detected one, so the CPU has AVX-512.
        Level::Avx512 => unsafe { job_avx512(j) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the level was clamped to the detected one, so the CPU has AVX2 + FMA.
        Level::Avx2 => unsafe { job_avx2(j) },
        Level::Scalar => j.run::<PlainDot>(),
        _ => j.run::<LaneDot<Plain>>(),
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
        check::<f32>(
            |r, n| r.vec_f32(n, 1.0),
            1e-5,
            &[16, 32, 48, 224, 240, 1024],
        );
        check::<f64>(|r, n| r.vec_f64(n, 1.0), 1e-13, &[8, 16, 24, 40, 224, 1032]);
    }

    #[test]
    fn shared_coefficients_match_dot4_bit_for_bit() {
        let mut rng = Rng::new(11);
        for k in [16, 48, 224, 1024] {
            let c = rng.vec_f32(k, 1.0);
            let x: Vec<Vec<f32>> = (0..4).map(|_| rng.vec_f32(k, 1.0)).collect();
            let xs = [&x[0][..], &x[1][..], &x[2][..], &x[3][..]];
            for level in available() {
                let want = dot4_at(level, [&c[..]; 4], xs);
                assert_eq!(dotc_at(level, &c, xs), want, "{level:?}");
                assert_eq!(dotc_at(level, &c, [xs[0], xs[1]]), [want[0], want[1]]);
            }
            let cd: Vec<f64> = c.iter().map(|&v| v as f64).collect();
            let xd: Vec<Vec<f64>> = x
                .iter()
                .map(|r| r.iter().map(|&v| v as f64).collect())
                .collect();
            let xs = [&xd[0][..], &xd[1][..], &xd[2][..], &xd[3][..]];
            for level in available() {
                assert_eq!(dotc_at(level, &cd, xs), dot4_at(level, [&cd[..]; 4], xs));
            }
        }
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
