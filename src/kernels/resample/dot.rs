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

/// The fused lane order written with 256-bit FMA intrinsics for `f32` and `f64` (LLVM
/// vectorises [`dotn_block`]'s four rows across the rows, with transposes): per row, lane `l` of
/// the accumulators takes element `j ≡ l (mod 8)` with one fused multiply-add, then the same
/// reduction tree, so the same bits as `LaneDot<Fused>`. The same code at AVX2 and AVX-512.
/// Private to this module and used only by [`job_avx512`] / [`job_avx2`], whose callers checked
/// that the CPU has AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
struct SimdDot;

#[cfg(target_arch = "x86_64")]
impl SimdDot {
    /// Checks what the intrinsics rely on: every window at least as long as `c[0]`, a multiple of
    /// the lane block (as [`dotn_block`] asserts).
    #[inline(always)]
    fn check<T, const R: usize>(c: &[&[T]; R], x: &[&[T]; R]) -> usize {
        let k = c[0].len();
        assert!(
            k.is_multiple_of(TAP_BLOCK)
                && c.iter().all(|s| s.len() >= k)
                && x.iter().all(|s| s.len() >= k),
            "window length is not a multiple of the lane count"
        );
        k
    }
}

#[cfg(target_arch = "x86_64")]
impl Dot for SimdDot {
    #[inline(always)]
    fn dot<T: Float, const R: usize>(c: [&[T]; R], x: [&[T]; R]) -> [T; R] {
        let k = Self::check(&c, &x);
        if T::f64s(c[0]).is_some() {
            let cf = c.map(|s| T::f64s(s).expect("f64"));
            let xf = x.map(|s| T::f64s(s).expect("f64"));
            // SAFETY: AVX2 + FMA (see `SimdDot`); every slice holds k elements (checked)
            let r = unsafe { x86::dot_f64::<R>(cf, xf, k) };
            return r.map(T::from_f64);
        }
        if T::f32s(c[0]).is_some() {
            let cf = c.map(|s| T::f32s(s).expect("f32"));
            let xf = x.map(|s| T::f32s(s).expect("f32"));
            // SAFETY: as above
            let r = unsafe { x86::dot_f32::<R>(cf, xf, k) };
            return r.map(|v| T::from_f64(v as f64));
        }
        dotn_block::<T, Fused, TAP_BLOCK, R>(c, x)
    }
    #[inline(always)]
    fn dotc<T: Float, const G: usize>(c: &[T], x: [&[T]; G]) -> [T; G] {
        // the shared window is reloaded per row (from L1): the same bits as `dot`
        Self::dot::<T, G>([c; G], x)
    }
}

#[cfg(target_arch = "x86_64")]
// Register arrays are indexed by row in plain loops (fixed sizes, unrolled).
#[allow(clippy::needless_range_loop)]
mod x86 {
    use std::arch::x86_64::*;

    /// `R` rows of `k` (a multiple of 8) `f64` products: two 4-lane accumulators per row
    /// (lanes 0–3, 4–7), then `(l, l+4)`, `(l, l+2)`, `(0, 1)` as `tree`.
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA; every slice must hold at least `k` elements.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(super) unsafe fn dot_f64<const R: usize>(
        c: [&[f64]; R],
        x: [&[f64]; R],
        k: usize,
    ) -> [f64; R] {
        let mut out = [0.0f64; R];
        // SAFETY: (whole body) loads at j..j+8 with j + 8 <= k stay inside every slice (caller);
        // AVX2/FMA is the caller's promise.
        unsafe {
            let mut lo = [_mm256_setzero_pd(); R];
            let mut hi = [_mm256_setzero_pd(); R];
            let mut j = 0;
            while j + 8 <= k {
                for r in 0..R {
                    let cp = c[r].as_ptr().add(j);
                    let xp = x[r].as_ptr().add(j);
                    lo[r] = _mm256_fmadd_pd(_mm256_loadu_pd(cp), _mm256_loadu_pd(xp), lo[r]);
                    hi[r] = _mm256_fmadd_pd(
                        _mm256_loadu_pd(cp.add(4)),
                        _mm256_loadu_pd(xp.add(4)),
                        hi[r],
                    );
                }
                j += 8;
            }
            for r in 0..R {
                let s = _mm256_add_pd(lo[r], hi[r]);
                let s = _mm_add_pd(_mm256_castpd256_pd128(s), _mm256_extractf128_pd::<1>(s));
                out[r] = _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)));
            }
        }
        out
    }

    /// As [`dot_f64`] for `f32`: one 8-lane accumulator per row.
    ///
    /// # Safety
    /// As [`dot_f64`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(super) unsafe fn dot_f32<const R: usize>(
        c: [&[f32]; R],
        x: [&[f32]; R],
        k: usize,
    ) -> [f32; R] {
        let mut out = [0.0f32; R];
        // SAFETY: (whole body) as in `dot_f64`
        unsafe {
            let mut acc = [_mm256_setzero_ps(); R];
            let mut j = 0;
            while j + 8 <= k {
                for r in 0..R {
                    let cp = c[r].as_ptr().add(j);
                    let xp = x[r].as_ptr().add(j);
                    acc[r] = _mm256_fmadd_ps(_mm256_loadu_ps(cp), _mm256_loadu_ps(xp), acc[r]);
                }
                j += 8;
            }
            for r in 0..R {
                let s = _mm_add_ps(
                    _mm256_castps256_ps128(acc[r]),
                    _mm256_extractf128_ps::<1>(acc[r]),
                );
                let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
                out[r] = _mm_cvtss_f32(_mm_add_ss(s, _mm_shuffle_ps::<1>(s, s)));
            }
        }
        out
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,bmi1,bmi2,popcnt")]
fn job_avx512<J: Job>(j: &mut J) {
    j.run::<SimdDot>()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,bmi1,bmi2,popcnt")]
fn job_avx2<J: Job>(j: &mut J) {
    j.run::<SimdDot>()
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
                    // the fused levels agree bit for bit, with each other and with the
                    // portable lane order (its multiply-adds are libm's `fma` here)
                    if let (true, Some(f)) = (level >= Level::Avx2, fused) {
                        assert_eq!(got[r].to_f64().to_bits(), f[r].to_f64().to_bits());
                        let lane = dotn_block::<T, Fused, TAP_BLOCK, 4>(cs, xs);
                        assert_eq!(got[r].to_f64().to_bits(), lane[r].to_f64().to_bits());
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
