//! How the recursive filters evaluate `a·b + c`: the element types ([`SosElem`]) and the two
//! arithmetics ([`Plain`], [`Fused`]) shared by the biquad cascade ([`super::sos`]), the
//! transfer-function filter ([`super::lfilter`], [`super::mono`]) and their lane driver
//! ([`super::lanes`]). At the AVX2 and AVX-512 levels the filters use one fused multiply-add
//! ([`uses_fma`]); at the scalar and SSE2/NEON levels a multiply then an add.

use crate::kernels::Float;
use crate::simd::Level;

/// Element types of the cascade: [`Float`] with a fused multiply-add.
pub trait SosElem: Float {
    /// `a·b + c` with one rounding.
    fn fused(a: Self, b: Self, c: Self) -> Self;
    /// The lanes of a block unchanged, hidden from the optimiser
    /// ([`crate::simd::opaque_f32`]) when they fill at most one SSE register (one lane, or four
    /// `f32` lanes); wider blocks are left alone. The recursive kernels pass their states
    /// through it once per sample.
    fn opaque_lanes<const L: usize>(z: &mut [Self; L]);
}
impl SosElem for f32 {
    #[inline(always)]
    fn fused(a: Self, b: Self, c: Self) -> Self {
        a.mul_add(b, c)
    }
    #[inline(always)]
    fn opaque_lanes<const L: usize>(z: &mut [Self; L]) {
        if L == 1 {
            z[0] = crate::simd::opaque_f32(z[0]);
        } else if L == 4 {
            let v = crate::simd::opaque_f32x4([z[0], z[1], z[2], z[3]]);
            z[..4].copy_from_slice(&v);
        }
    }
}
impl SosElem for f64 {
    #[inline(always)]
    fn fused(a: Self, b: Self, c: Self) -> Self {
        a.mul_add(b, c)
    }
    #[inline(always)]
    fn opaque_lanes<const L: usize>(z: &mut [Self; L]) {
        if L == 1 {
            z[0] = crate::simd::opaque_f64(z[0]);
        }
    }
}

/// How the kernel evaluates `a·b + c`.
pub trait Arith: Copy + Send + Sync + 'static {
    /// Whether `madd` is one fused operation ([`Fused`]).
    const FUSED: bool;
    fn madd<T: SosElem>(a: T, b: T, c: T) -> T;
}
/// A multiply, then an add (two roundings).
#[derive(Clone, Copy, Debug)]
pub struct Plain;
/// One fused multiply-add (one rounding); used where the CPU has FMA (AVX2, AVX-512).
#[derive(Clone, Copy, Debug)]
pub struct Fused;
impl Arith for Plain {
    const FUSED: bool = false;
    #[inline(always)]
    fn madd<T: SosElem>(a: T, b: T, c: T) -> T {
        a * b + c
    }
}
impl Arith for Fused {
    const FUSED: bool = true;
    #[inline(always)]
    fn madd<T: SosElem>(a: T, b: T, c: T) -> T {
        T::fused(a, b, c)
    }
}

/// Whether `level` runs the cascade with fused multiply-adds.
pub fn uses_fma(level: Level) -> bool {
    crate::simd::effective(level) >= Level::Avx2
}
