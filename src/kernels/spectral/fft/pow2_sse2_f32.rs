//! SSE2 single-precision complex FFT for power-of-two lengths 64 … 4096: the transforms float
//! real plans of 128 … 8192 points run at their half length at the baseline SIMD level (x86-64
//! CPUs without AVX2, or the library's level set to `sse2`). The passes are the shared
//! two-complex-per-vector ones of [`super::pow2_pair`] on an xmm of 2 complex floats, without
//! FMA.
//!
//! # Vector arithmetic
//!
//! * The `∓j` rotations are swap + xor; a complex multiply is `z·wr + swap(z)·wi'` (two
//!   multiplies and an add) with `wi'` the imaginary part with the real lanes' sign flipped,
//!   from pre-signed table rows (first stage: per `r` and pair of `p`; fused stage: per `r`
//!   and `p`); the constant twiddles of the radix-8/16 DFTs the same with in-register
//!   constants.
//! * The first stage's 2×2 transposes of complex elements are `movlhps` / `movhlps`.
//!
//! # Pass plans
//!
//! F = first stage (radix), L = last stage (unit twiddles), FL16+R = fused radix-16 +
//! radix-R last stage. Each the fastest of the plans tried against rustfft's SSE float
//! transform (`FftPlannerSse`; docs/spectral.md).
//!
//! |    n | plan        | stages `(s, m/16)`             |
//! |-----:|-------------|--------------------------------|
//! |   64 | F8 L8       | F8 (1, 8), L8 (8, 1)           |
//! |  128 | F16 L8      | F16 (1, 8), L8 (16, 1)         |
//! |  256 | F16 L16     | F16 (1, 16), L16 (16, 1)       |
//! |  512 | F8 FL16+4   | F8 (1, 64), FL16+4 (8, 4)      |
//! | 1024 | F16 FL16+4  | F16 (1, 64), FL16+4 (16, 4)    |
//! | 2048 | F16 FL16+8  | F16 (1, 128), FL16+8 (16, 8)   |
//! | 4096 | F16 FL16+16 | F16 (1, 256), FL16+16 (16, 16) |
//!
//! # Safety
//!
//! The [`Xmm`] methods use SSE2 intrinsics, part of x86-64, so every CPU this code is compiled
//! for runs them; they are `#[inline(always)]` into the stage kernels, reachable only through a
//! plan.

use super::pow2_pair::{stage_fns, Kind, Pair, Pow2Pair, StageFn};
use core::arch::x86_64::*;

/// The SSE2 float plans.
pub(super) type Pow2Sse2F32 = Pow2Pair<Xmm>;

/// Two complex floats in an xmm.
#[derive(Clone, Copy)]
pub(super) struct Xmm(__m128);

/// A table row: one vector's worth of f32, 16-byte aligned for aligned loads.
#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
pub(super) struct Row([f32; 4]);

stage_fns!(Xmm, f32);

/// `(re, im) → (im, re)` in every complex element.
///
/// # Safety
/// Register-only shuffle (only called from the kernels).
#[inline(always)]
unsafe fn swap_ri(z: __m128) -> __m128 {
    // SAFETY: register-only shuffle.
    unsafe { _mm_shuffle_ps::<0xB1>(z, z) }
}

/// `z·wr + swap(z)·wis`: `z · w` for `wr = (w.re, w.re)`, `wis = (−w.im, w.im)` per complex.
///
/// # Safety
/// Register-only arithmetic (only called from the kernels).
#[inline(always)]
unsafe fn cmul(z: __m128, wr: __m128, wis: __m128) -> __m128 {
    // SAFETY: register-only arithmetic.
    unsafe { _mm_add_ps(_mm_mul_ps(z, wr), _mm_mul_ps(swap_ri(z), wis)) }
}

impl Pair for Xmm {
    type E = f32;
    type Row = Row;
    const MIN_LEN: usize = 64;
    const PLANS: &'static [&'static [Kind]] = {
        use Kind::*;
        &[
            &[First8, Last8],    // 64
            &[First16, Last8],   // 128
            &[First16, Last16],  // 256
            &[First8, Fused4],   // 512
            &[First16, Fused4],  // 1024
            &[First16, Fused8],  // 2048
            &[First16, Fused16], // 4096
        ]
    };

    fn has_cpu() -> bool {
        // SSE2 is part of x86-64
        true
    }

    fn kernel<const INV: bool>(kind: Kind, n: usize, s: usize, m16: usize) -> Option<StageFn<f32>> {
        use Kind::*;
        let f: StageFn<f32> = match (kind, n, s, m16) {
            // 64: F8 L8
            (First8, 64, 1, 8) => first_stage::<INV, 8, 64>,
            (Last8, 64, 8, 1) => last_stage::<INV, 8, 8>,
            // 128: F16 L8
            (First16, 128, 1, 8) => first_stage::<INV, 16, 128>,
            (Last8, 128, 16, 1) => last_stage::<INV, 8, 16>,
            // 256: F16 L16
            (First16, 256, 1, 16) => first_stage::<INV, 16, 256>,
            (Last16, 256, 16, 1) => last_stage::<INV, 16, 16>,
            // 512: F8 FL16+4
            (First8, 512, 1, 64) => first_stage::<INV, 8, 512>,
            (Fused4, 512, 8, 4) => fused_last::<INV, 4, 8>,
            // 1024: F16 FL16+4
            (First16, 1024, 1, 64) => first_stage::<INV, 16, 1024>,
            (Fused4, 1024, 16, 4) => fused_last::<INV, 4, 16>,
            // 2048: F16 FL16+8
            (First16, 2048, 1, 128) => first_stage::<INV, 16, 2048>,
            (Fused8, 2048, 16, 8) => fused_last::<INV, 8, 16>,
            // 4096: F16 FL16+16
            (First16, 4096, 1, 256) => first_stage::<INV, 16, 4096>,
            (Fused16, 4096, 16, 16) => fused_last::<INV, 16, 16>,
            _ => return None,
        };
        Some(f)
    }

    fn row(v: [f64; 4]) -> Row {
        Row(v.map(|x| x as f32))
    }

    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: register-only.
        Xmm(unsafe { _mm_setzero_ps() })
    }

    #[inline(always)]
    unsafe fn add(a: Self, b: Self) -> Self {
        // SAFETY: register-only arithmetic.
        Xmm(unsafe { _mm_add_ps(a.0, b.0) })
    }

    #[inline(always)]
    unsafe fn sub(a: Self, b: Self) -> Self {
        // SAFETY: register-only arithmetic.
        Xmm(unsafe { _mm_sub_ps(a.0, b.0) })
    }

    #[inline(always)]
    unsafe fn mul_mj<const INV: bool>(z: Self) -> Self {
        // SAFETY: register-only shuffle and xor.
        unsafe {
            // forward: (im, −re), inverse: (−im, re); `_mm_set_ps` lists lanes high to low
            let mask = if INV {
                _mm_set_ps(0.0, -0.0, 0.0, -0.0)
            } else {
                _mm_set_ps(-0.0, 0.0, -0.0, 0.0)
            };
            Xmm(_mm_xor_ps(swap_ri(z.0), mask))
        }
    }

    /// `swap(z)·(−s', s') + z·c` with `s'` the signed sine.
    #[inline(always)]
    unsafe fn cmul_const<const INV: bool>(z: Self, c: f64, s: f64) -> Self {
        let s = if INV { s } else { -s };
        let (c, s) = (c as f32, s as f32);
        // SAFETY: register-only arithmetic.
        unsafe {
            let wis = _mm_set_ps(s, -s, s, -s);
            Xmm(_mm_add_ps(
                _mm_mul_ps(swap_ri(z.0), wis),
                _mm_mul_ps(z.0, _mm_set1_ps(c)),
            ))
        }
    }

    #[inline(always)]
    unsafe fn cmul_rows(z: Self, w: *const f32) -> Self {
        // SAFETY: the caller passes two 16-byte aligned table rows at `w`.
        unsafe { Xmm(cmul(z.0, _mm_load_ps(w), _mm_load_ps(w.add(4)))) }
    }

    #[inline(always)]
    unsafe fn loadu(p: *const f32) -> Self {
        // SAFETY: the caller passes 4 readable floats.
        Xmm(unsafe { _mm_loadu_ps(p) })
    }

    #[inline(always)]
    unsafe fn storeu(p: *mut f32, v: Self) {
        // SAFETY: the caller passes 4 writable floats.
        unsafe { _mm_storeu_ps(p, v.0) }
    }

    #[inline(always)]
    unsafe fn transpose(a: Self, b: Self) -> (Self, Self) {
        // SAFETY: register-only shuffles.
        unsafe { (Xmm(_mm_movelh_ps(a.0, b.0)), Xmm(_mm_movehl_ps(b.0, a.0))) }
    }
}

#[cfg(test)]
mod tests {
    use super::super::pow2_check::matches_rustfft_at_every_length;
    use super::super::pow2_pair::tests::plans_are;
    use super::*;

    /// The pass plans are those of the module doc's table, in both directions; other lengths
    /// have no plan.
    #[test]
    fn pass_plans_are_the_documented_ones() {
        plans_are::<Xmm>(&[
            (64, "F8 L8"),
            (128, "F16 L8"),
            (256, "F16 L16"),
            (512, "F8 FL16+4"),
            (1024, "F16 FL16+4"),
            (2048, "F16 FL16+8"),
            (4096, "F16 FL16+16"),
        ]);
    }

    /// Every offered length, both directions, through the shared checks of
    /// [`matches_rustfft_at_every_length`] (double reference, RMS error against rustfft's
    /// float transform, round trip, in place = out of place at odd offsets, impulses, NaN).
    #[test]
    fn matches_rustfft_in_and_out_of_place_at_every_length() {
        let lgs = Xmm::MIN_LEN.trailing_zeros()..=Pow2Sse2F32::MAX_LEN.trailing_zeros();
        matches_rustfft_at_every_length(47, lgs, Xmm::has_cpu(), Pow2Sse2F32::new);
    }
}
