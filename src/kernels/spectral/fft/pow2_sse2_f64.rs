//! SSE2 double-precision complex FFT for power-of-two lengths 64 … 2048: the transforms double
//! real plans of 128 … 4096 points run at their half length at the baseline SIMD level (x86-64
//! CPUs without AVX2, or the library's level set to `sse2`). The passes are the shared
//! two-complex-per-vector ones of [`super::pow2_pair`] on a pair of xmm registers (one complex
//! double each), without FMA.
//!
//! # Vector arithmetic
//!
//! * The `∓j` rotations are swap + xor; a complex multiply is `z·wr + swap(z)·wi'` (two
//!   multiplies and an add per register) with `wi'` the imaginary part with the real lane's
//!   sign flipped, from pre-signed table rows (first stage: per `r` and pair of `p`; fused
//!   stage: per `r` and `p`); the constant twiddles of the radix-8/16 DFTs the same with
//!   in-register constants.
//! * The first stage's 2×2 transposes of complex elements only exchange registers.
//!
//! # Pass plans
//!
//! F = first stage (radix), L = last stage (unit twiddles), FL16+R = fused radix-16 +
//! radix-R last stage: the AVX2 double passes' plans, faster than rustfft's SSE double transform
//! (`FftPlannerSse`) at every length offered (docs/spectral.md).
//!
//! The plans per length are in [`super::pow2_pair::double_plans`].
//!
//! # Safety
//!
//! The [`Xmm2`] methods use SSE2 intrinsics, part of x86-64, so every CPU this code is compiled
//! for runs them; they are `#[inline(always)]` into the stage kernels, reachable only through a
//! plan.

use super::pow2_pair::{double_plans, stage_fns, Kind, Pair, Pow2Pair, StageFn};
use core::arch::x86_64::*;

/// The SSE2 double plans.
pub(super) type Pow2Sse2F64 = Pow2Pair<Xmm2>;

/// Two complex doubles, one per xmm (the first in `.0`).
#[derive(Clone, Copy)]
pub(super) struct Xmm2(__m128d, __m128d);

/// A table row: one vector's worth of f64, 16-byte aligned for aligned loads.
#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
pub(super) struct Row([f64; 4]);

stage_fns!(Xmm2, f64);

/// `(re, im) → (im, re)`.
///
/// # Safety
/// Register-only shuffle (only called from the kernels).
#[inline(always)]
unsafe fn swap_ri(z: __m128d) -> __m128d {
    // SAFETY: register-only shuffle.
    unsafe { _mm_shuffle_pd::<0b01>(z, z) }
}

/// `z·wr + swap(z)·wis`: `z · w` for `wr = (w.re, w.re)`, `wis = (−w.im, w.im)`.
///
/// # Safety
/// Register-only arithmetic (only called from the kernels).
#[inline(always)]
unsafe fn cmul(z: __m128d, wr: __m128d, wis: __m128d) -> __m128d {
    // SAFETY: register-only arithmetic.
    unsafe { _mm_add_pd(_mm_mul_pd(z, wr), _mm_mul_pd(swap_ri(z), wis)) }
}

impl Xmm2 {
    /// `f` on both registers.
    ///
    /// # Safety
    /// As `f` (register-only SSE2 arithmetic; only called from the kernels).
    #[inline(always)]
    unsafe fn each(self, f: impl Fn(__m128d) -> __m128d) -> Self {
        Xmm2(f(self.0), f(self.1))
    }

    /// `f` on both registers of `a` and `b`, lane by lane.
    ///
    /// # Safety
    /// As `f` (register-only SSE2 arithmetic; only called from the kernels).
    #[inline(always)]
    unsafe fn zip(a: Self, b: Self, f: impl Fn(__m128d, __m128d) -> __m128d) -> Self {
        Xmm2(f(a.0, b.0), f(a.1, b.1))
    }
}

impl Pair for Xmm2 {
    type E = f64;
    type Row = Row;
    double_plans!();

    fn has_cpu() -> bool {
        // SSE2 is part of x86-64
        true
    }

    fn row(v: [f64; 4]) -> Row {
        Row(v)
    }

    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: register-only.
        unsafe { Xmm2(_mm_setzero_pd(), _mm_setzero_pd()) }
    }

    #[inline(always)]
    unsafe fn add(a: Self, b: Self) -> Self {
        // SAFETY: register-only arithmetic.
        unsafe { Self::zip(a, b, |x, y| _mm_add_pd(x, y)) }
    }

    #[inline(always)]
    unsafe fn sub(a: Self, b: Self) -> Self {
        // SAFETY: register-only arithmetic.
        unsafe { Self::zip(a, b, |x, y| _mm_sub_pd(x, y)) }
    }

    #[inline(always)]
    unsafe fn mul_mj<const INV: bool>(z: Self) -> Self {
        // SAFETY: register-only shuffle and xor.
        unsafe {
            // forward: (im, −re), inverse: (−im, re); `_mm_set_pd` lists lanes high to low
            let mask = if INV {
                _mm_set_pd(0.0, -0.0)
            } else {
                _mm_set_pd(-0.0, 0.0)
            };
            z.each(|v| _mm_xor_pd(swap_ri(v), mask))
        }
    }

    /// `swap(z)·(−s', s') + z·c` with `s'` the signed sine.
    #[inline(always)]
    unsafe fn cmul_const<const INV: bool>(z: Self, c: f64, s: f64) -> Self {
        let s = if INV { s } else { -s };
        // SAFETY: register-only arithmetic.
        unsafe {
            let wis = _mm_set_pd(s, -s);
            let wc = _mm_set1_pd(c);
            z.each(|v| _mm_add_pd(_mm_mul_pd(swap_ri(v), wis), _mm_mul_pd(v, wc)))
        }
    }

    #[inline(always)]
    unsafe fn cmul_rows(z: Self, w: *const f64) -> Self {
        // SAFETY: the caller passes two 16-byte aligned table rows at `w`: doubles 0..4 the
        // real parts, 4..8 the pre-signed imaginary parts, two per complex value.
        unsafe {
            Xmm2(
                cmul(z.0, _mm_load_pd(w), _mm_load_pd(w.add(4))),
                cmul(z.1, _mm_load_pd(w.add(2)), _mm_load_pd(w.add(6))),
            )
        }
    }

    #[inline(always)]
    unsafe fn loadu(p: *const f64) -> Self {
        // SAFETY: the caller passes 4 readable doubles.
        unsafe { Xmm2(_mm_loadu_pd(p), _mm_loadu_pd(p.add(2))) }
    }

    #[inline(always)]
    unsafe fn storeu(p: *mut f64, v: Self) {
        // SAFETY: the caller passes 4 writable doubles.
        unsafe {
            _mm_storeu_pd(p, v.0);
            _mm_storeu_pd(p.add(2), v.1);
        }
    }

    #[inline(always)]
    unsafe fn transpose(a: Self, b: Self) -> (Self, Self) {
        (Xmm2(a.0, b.0), Xmm2(a.1, b.1))
    }
}

#[cfg(test)]
mod tests {
    use super::super::pow2_check::matches_rustfft_at_every_length;
    use super::super::pow2_pair::tests::{plans_are, DOUBLE_PLAN_NAMES};
    use super::*;

    /// The pass plans are those of the module doc's table, in both directions; other lengths
    /// have no plan.
    #[test]
    fn pass_plans_are_the_documented_ones() {
        plans_are::<Xmm2>(&DOUBLE_PLAN_NAMES);
    }

    /// Every offered length, both directions, through the shared checks of
    /// [`matches_rustfft_at_every_length`] (rustfft within 1e-15·log2(n)·max|X|, round trip,
    /// in place = out of place at odd offsets, impulses, NaN).
    #[test]
    fn matches_rustfft_in_and_out_of_place_at_every_length() {
        let lgs = Xmm2::MIN_LEN.trailing_zeros()..=Pow2Sse2F64::MAX_LEN.trailing_zeros();
        matches_rustfft_at_every_length(53, lgs, Xmm2::has_cpu(), Pow2Sse2F64::new);
    }
}
