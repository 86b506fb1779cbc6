//! AVX2 + FMA double-precision complex FFT for power-of-two lengths 64 … 2048: the transforms
//! double real plans of 128 … 4096 points run at their half length on CPUs with AVX2 but
//! without AVX-512 (or with the library's SIMD level set to AVX2). The passes are the shared
//! two-complex-per-vector ones of [`super::pow2_pair`] on a ymm of 2 complex doubles.
//!
//! # Vector arithmetic
//!
//! * The `∓j` rotations are swap + xor; the constant twiddles mul + fma with a pre-signed sine
//!   vector; a complex multiply is `fmaddsub(z, wr, swap(z)·wi)` with `swap = vpermilpd 0b0101`.
//! * First-stage twiddles: per `r` and pair of `p`, a row of the two roots' duplicated real
//!   parts and one of their duplicated imaginary parts. Fused-stage twiddles: one 32-double
//!   group per `p` (cosine and sine of each `r`), broadcast (`vbroadcastsd`).
//! * The first stage's 2×2 transposes of complex elements are `permute2f128`.
//!
//! # Pass plans
//!
//! F = first stage (radix), L = last stage (unit twiddles), FL16+R = fused radix-16 +
//! radix-R last stage. Each the fastest of the plans tried against rustfft's AVX double
//! transform; from 4096 points none beat it, so those lengths keep rustfft (docs/spectral.md).
//!
//! The plans per length are in [`super::pow2_pair::double_plans`].
//!
//! # Safety
//!
//! The [`Ymm`] methods use AVX/AVX2/FMA intrinsics; they are `#[inline(always)]` into the
//! stage kernels, which carry `#[target_feature(enable = "avx2,fma")]` and are reachable only
//! through a plan, made only when the CPU has AVX2 and FMA ([`Pair::has_cpu`]).

use super::pow2_pair::{double_plans, stage_fns, Kind, Pair, Pow2Pair, StageFn};
use core::arch::x86_64::*;

/// The AVX2 double plans.
pub(super) type Pow2Avx2F64 = Pow2Pair<Ymm>;

/// Two complex doubles in a ymm.
#[derive(Clone, Copy)]
pub(super) struct Ymm(__m256d);

/// A table row: one vector's worth of f64, 32-byte aligned for aligned loads.
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
pub(super) struct Row([f64; 4]);

stage_fns!(Ymm, f64, "avx2,fma");

/// `(re, im) → (im, re)` in every complex element.
///
/// # Safety
/// Register-only shuffle; AVX required (only called from the kernels).
#[inline(always)]
unsafe fn swap_ri(z: __m256d) -> __m256d {
    // SAFETY: register-only shuffle.
    unsafe { _mm256_permute_pd::<0b0101>(z) }
}

/// `z · w` with `w` given as duplicated real and imaginary parts.
///
/// # Safety
/// Register-only arithmetic; AVX + FMA required (only called from the kernels).
#[inline(always)]
unsafe fn cmul(z: __m256d, wr: __m256d, wi: __m256d) -> __m256d {
    // SAFETY: register-only arithmetic.
    unsafe { _mm256_fmaddsub_pd(z, wr, _mm256_mul_pd(swap_ri(z), wi)) }
}

impl Pair for Ymm {
    type E = f64;
    type Row = Row;
    double_plans!();
    const FUSED_ROWS: usize = 8;

    fn has_cpu() -> bool {
        is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")
    }

    fn row(v: [f64; 4]) -> Row {
        Row(v)
    }

    /// Not pre-signed: `cmul` is an `fmaddsub`, which takes the plain imaginary parts.
    fn twiddle_rows(w: [(f64, f64); 2]) -> [Row; 2] {
        let [(c0, s0), (c1, s1)] = w;
        [Row([c0, c0, c1, c1]), Row([s0, s0, s1, s1])]
    }

    /// One group of 32 doubles: `cos, sin` of root `r` at `2r − 2`, `2r − 1`.
    fn fused_rows(w: &[(f64, f64); 15], out: &mut Vec<Row>) {
        let mut rows = [Row::default(); 8];
        for (i, &(c, si)) in w.iter().enumerate() {
            rows[(2 * i) / 4].0[(2 * i) % 4] = c;
            rows[(2 * i + 1) / 4].0[(2 * i + 1) % 4] = si;
        }
        out.extend_from_slice(&rows);
    }

    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: register-only.
        Ymm(unsafe { _mm256_setzero_pd() })
    }

    #[inline(always)]
    unsafe fn add(a: Self, b: Self) -> Self {
        // SAFETY: register-only arithmetic.
        Ymm(unsafe { _mm256_add_pd(a.0, b.0) })
    }

    #[inline(always)]
    unsafe fn sub(a: Self, b: Self) -> Self {
        // SAFETY: register-only arithmetic.
        Ymm(unsafe { _mm256_sub_pd(a.0, b.0) })
    }

    #[inline(always)]
    unsafe fn mul_mj<const INV: bool>(z: Self) -> Self {
        // SAFETY: register-only shuffle and xor.
        unsafe {
            let sw = swap_ri(z.0);
            // forward: (im, −re), inverse: (−im, re); `_mm256_set_pd` lists lanes high to low
            let mask = if INV {
                _mm256_set_pd(0.0, -0.0, 0.0, -0.0)
            } else {
                _mm256_set_pd(-0.0, 0.0, -0.0, 0.0)
            };
            Ymm(_mm256_xor_pd(sw, mask))
        }
    }

    /// `z·c + swap(z)·(−s', s')` with `s'` the signed sine, as mul + fma.
    #[inline(always)]
    unsafe fn cmul_const<const INV: bool>(z: Self, c: f64, s: f64) -> Self {
        let s = if INV { s } else { -s };
        // SAFETY: register-only arithmetic.
        unsafe {
            let wis = _mm256_set_pd(s, -s, s, -s);
            Ymm(_mm256_fmadd_pd(
                swap_ri(z.0),
                wis,
                _mm256_mul_pd(z.0, _mm256_set1_pd(c)),
            ))
        }
    }

    #[inline(always)]
    unsafe fn cmul_rows(z: Self, w: *const f64) -> Self {
        // SAFETY: the caller passes two 32-byte aligned table rows at `w`.
        unsafe { Ymm(cmul(z.0, _mm256_load_pd(w), _mm256_load_pd(w.add(4)))) }
    }

    #[inline(always)]
    unsafe fn cmul_fused(z: Self, t: *const f64, r: usize) -> Self {
        // SAFETY: the caller passes a fused group of 32 doubles at `t` and 1 ≤ r < 16.
        unsafe {
            let wr = _mm256_set1_pd(*t.add(2 * r - 2));
            let wi = _mm256_set1_pd(*t.add(2 * r - 1));
            Ymm(cmul(z.0, wr, wi))
        }
    }

    #[inline(always)]
    unsafe fn loadu(p: *const f64) -> Self {
        // SAFETY: the caller passes 4 readable doubles.
        Ymm(unsafe { _mm256_loadu_pd(p) })
    }

    #[inline(always)]
    unsafe fn storeu(p: *mut f64, v: Self) {
        // SAFETY: the caller passes 4 writable doubles.
        unsafe { _mm256_storeu_pd(p, v.0) }
    }

    #[inline(always)]
    unsafe fn transpose(a: Self, b: Self) -> (Self, Self) {
        // SAFETY: register-only shuffles.
        unsafe {
            (
                Ymm(_mm256_permute2f128_pd::<0x20>(a.0, b.0)),
                Ymm(_mm256_permute2f128_pd::<0x31>(a.0, b.0)),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::pow2_check::matches_rustfft_at_every_length;
    use super::super::pow2_pair::tests::{plans_are, DOUBLE_PLAN_NAMES};
    use super::*;

    /// The pass plans are those of the module doc's table, in both directions (where this CPU
    /// has AVX2 and FMA); other lengths have no plan.
    #[test]
    fn pass_plans_are_the_documented_ones() {
        plans_are::<Ymm>(&DOUBLE_PLAN_NAMES);
    }

    /// Every offered length, both directions (where this CPU has AVX2 and FMA), through the
    /// shared checks of [`matches_rustfft_at_every_length`] (rustfft within
    /// 1e-15·log2(n)·max|X|, round trip, in place = out of place at odd offsets, impulses,
    /// NaN).
    #[test]
    fn matches_rustfft_in_and_out_of_place_at_every_length() {
        let lgs = Ymm::MIN_LEN.trailing_zeros()..=Pow2Avx2F64::MAX_LEN.trailing_zeros();
        matches_rustfft_at_every_length(43, lgs, Ymm::has_cpu(), Pow2Avx2F64::new);
    }
}
