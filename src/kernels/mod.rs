//! The safe core: kernels on slices. Nothing here sees a raw pointer from a caller; the FFI
//! layer validates pointers and lengths, builds slices and calls these functions.

use std::fmt::Debug;
use std::ops::{Add, Div, Mul, Neg, Sub};

pub mod alloc;
pub mod analysis;
pub mod augment;
pub(crate) mod cache;
pub mod dynamics;
pub mod elementwise;
pub mod fastmath;
pub mod feature;
pub mod filter;
pub mod gain;
pub mod layout;
pub mod loudness;
pub mod onset;
pub mod par;
pub mod pcm;
pub mod pcm_dither;
pub mod pitch;
pub mod reduce;
pub mod resample;
pub mod rows;
pub mod spectral;
pub mod speech;
pub mod strided;

/// The element types the kernels are generic over (`f32`, `f64`).
pub trait Float:
    Copy
    + Default
    + PartialOrd
    + Debug
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    const NAN: Self;
    /// Rust name, used in messages (`f32`).
    const NAME: &'static str;
    /// C name, used in messages (`float`).
    const C_NAME: &'static str;
    fn to_f64(self) -> f64;
    /// Rounds to nearest (for `f32`).
    fn from_f64(v: f64) -> Self;
    fn abs(self) -> Self;
    fn is_nan(self) -> bool;
    fn is_finite(self) -> bool;
    /// `self·b + c` with one rounding (a fused multiply-add instruction inside a function
    /// compiled with FMA; a slow library call elsewhere).
    fn mul_add(self, b: Self, c: Self) -> Self;
    /// The slice as `&[f64]` when `Self` is `f64` (for kernels with per-type SIMD code).
    fn f64s(s: &[Self]) -> Option<&[f64]>;
    /// The slice as `&[f32]` when `Self` is `f32`.
    fn f32s(s: &[Self]) -> Option<&[f32]>;
}

fn some_slice<X>(s: &[X]) -> Option<&[X]> {
    Some(s)
}

fn no_slice<X, Y>(_: &[X]) -> Option<&[Y]> {
    None
}

macro_rules! impl_float {
    ($t:ty, $c:literal, $f64s:ident, $f32s:ident) => {
        impl Float for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const NAN: Self = <$t>::NAN;
            const NAME: &'static str = stringify!($t);
            const C_NAME: &'static str = $c;
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            #[inline(always)]
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            #[inline(always)]
            fn is_finite(self) -> bool {
                <$t>::is_finite(self)
            }
            #[inline(always)]
            fn mul_add(self, b: Self, c: Self) -> Self {
                <$t>::mul_add(self, b, c)
            }
            #[inline(always)]
            fn f64s(s: &[Self]) -> Option<&[f64]> {
                $f64s(s)
            }
            #[inline(always)]
            fn f32s(s: &[Self]) -> Option<&[f32]> {
                $f32s(s)
            }
        }
    };
}
impl_float!(f32, "float", no_slice, some_slice);
impl_float!(f64, "double", some_slice, no_slice);

/// An input operand of an elementwise kernel: either its own slice, or the output buffer itself
/// (the caller passed the same pointer for this input and the output, i.e. in place).
#[derive(Clone, Copy, Debug)]
pub enum Src<'a, T> {
    Slice(&'a [T]),
    Dst,
}

impl<T> Src<'_, T> {
    /// Panics unless a separate slice has exactly `n` elements (an internal invariant the FFI
    /// layer guarantees; a violation becomes `SK_ERR_INTERNAL` at the boundary).
    pub(crate) fn check_len(&self, n: usize) {
        if let Src::Slice(s) = self {
            assert_eq!(s.len(), n, "operand length differs from output length");
        }
    }
}

#[cfg(test)]
pub(crate) mod testutil {
    /// Small deterministic generator (xorshift64*), so tests need no extra crate.
    pub struct Rng(u64);
    impl Rng {
        pub fn new(seed: u64) -> Self {
            Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
        }
        pub fn next_u64(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        /// Uniform in [-1, 1).
        pub fn uniform(&mut self) -> f64 {
            (self.next_u64() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        }
        pub fn vec_f64(&mut self, n: usize, scale: f64) -> Vec<f64> {
            (0..n).map(|_| self.uniform() * scale).collect()
        }
        pub fn vec_f32(&mut self, n: usize, scale: f64) -> Vec<f32> {
            (0..n).map(|_| (self.uniform() * scale) as f32).collect()
        }
    }

    /// Lengths that exercise empty input, length 1, every tail below a lane block and a few
    /// multi-block sizes.
    pub fn lengths() -> Vec<usize> {
        let mut v: Vec<usize> = (0..=70).collect();
        v.extend([
            127, 128, 129, 255, 256, 257, 511, 512, 513, 1023, 1024, 1025, 4097, 10_000, 65_537,
        ]);
        v
    }

    /// Bitwise equality that also treats any two NaNs as equal.
    pub fn same<T: super::Float>(a: &[T], b: &[T]) -> bool {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| {
                (x.is_nan() && y.is_nan()) || x.to_f64().to_bits() == y.to_f64().to_bits()
            })
    }
}
