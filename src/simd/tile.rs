//! Square tile transposes for kernels that keep one channel per SIMD lane.
//!
//! Moving channel-major (planar) data into lane-major order is a transpose of `L × L` tiles.
//! Written as element copies, LLVM compiles it to gather or scatter instructions or to one load
//! and store per element, whatever shuffles the source is rewritten into (it composes them back
//! into a single permutation). The transposes here use explicit shuffle sequences where the
//! level has them and plain loops elsewhere.
//!
//! A [`Transposer`] is a value saying which instructions may run: [`Portable`] everywhere, and on
//! x86-64 [`Avx512`] and [`Avx2`], tokens that exist only when the CPU has the instructions *and*
//! the caller's level allows them ([`Avx512::at`], [`Avx2::at`]). A kernel takes the transposer
//! as a generic argument and runs its body through [`Transposer::call`], a function of its own
//! compiled with the token's features. The shuffle functions are `#[inline(always)]` without a
//! `#[target_feature]` of their own (stable Rust does not allow both), so they inline into that
//! function (or into a kernel's own clone for the level), whose features let the intrinsics
//! inline in turn; at a lower level the token is never made, and that code never runs. Debug
//! builds do not force the inlining: there every call site would get its own unoptimised copy of
//! every shuffle sequence, and the kernel's stack frame grew past 1 MiB (a stack overflow in the
//! tests).

use super::Level;
use std::any::Any;

/// Transposes square tiles: `out[i][j] = a[j][i]`, and runs kernel bodies compiled for the
/// token's level.
pub trait Transposer: Copy {
    fn transpose<T: Copy + 'static, const L: usize>(self, a: &[[T; L]; L], out: &mut [[T; L]; L]);

    /// Runs `f` in a function of its own (never inlined into the caller) compiled with the
    /// instructions the token guarantees, so that `f`'s body, the shuffle functions and the
    /// intrinsics inline there. A kernel with many instances (an order, a lane count, a tile
    /// shape each) wraps each instance's body in one `call`: every instance is then optimised as
    /// a function of its own instead of all of them inlined into one clone per level, whose
    /// size made the optimiser's time grow much faster than the code. `f` should be marked
    /// `#[inline(always)]` (in optimised builds) and called nowhere else.
    fn call<R>(self, f: impl FnOnce() -> R) -> R;
}

/// Plain loops (any level, any element type and size).
#[derive(Clone, Copy, Debug, Default)]
pub struct Portable;

impl Transposer for Portable {
    #[inline(always)]
    fn transpose<T: Copy + 'static, const L: usize>(self, a: &[[T; L]; L], out: &mut [[T; L]; L]) {
        for i in 0..L {
            for j in 0..L {
                out[i][j] = a[j][i];
            }
        }
    }

    #[inline(always)]
    fn call<R>(self, f: impl FnOnce() -> R) -> R {
        call_baseline(f)
    }
}

/// [`Portable::call`]'s function: the baseline instruction set.
#[inline(never)]
fn call_baseline<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// The tail of a function that runs `$body` with `$tr` bound to the transposer level `$lv`
/// allows: [`Avx512`], else [`Avx2`], else [`Portable`] (three types, so `$body` is compiled
/// once per kind; the first two `return` from the enclosing function).
macro_rules! with_transposer {
    ($lv:expr, |$tr:ident| $body:expr) => {{
        #[cfg(target_arch = "x86_64")]
        {
            if let Some($tr) = $crate::simd::tile::Avx512::at($lv) {
                return $body;
            }
            if let Some($tr) = $crate::simd::tile::Avx2::at($lv) {
                return $body;
            }
        }
        let $tr = $crate::simd::tile::Portable;
        $body
    }};
}
pub(crate) use with_transposer;

/// AVX-512 shuffle sequences for `8 × 8` `f64` and `16 × 16` `f32` tiles, and an AVX one for
/// `8 × 8` `f32` tiles (other shapes fall back to [`Portable`]). Only [`Avx512::at`] makes one, and only when the CPU has AVX-512F.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct Avx512(());

#[cfg(target_arch = "x86_64")]
impl Avx512 {
    /// The token, if `level` (clamped to the detected level) is AVX-512.
    #[inline]
    pub fn at(level: Level) -> Option<Self> {
        (super::effective(level) >= Level::Avx512).then_some(Avx512(()))
    }
}

/// The body of a token's `transpose`: the first shuffle function whose tile type is the one of
/// `a` and `out` (a type test on `'static` types, resolved at compile time), else the portable
/// loops. Every function listed must need only instructions the token guarantees.
#[cfg(target_arch = "x86_64")]
macro_rules! by_shape {
    ($a:expr, $out:expr, $($ty:ty => $f:path),+ $(,)?) => {{
        $(
            let (aa, oo): (&dyn Any, &mut dyn Any) = ($a, $out);
            if let (Some(a), Some(o)) = (aa.downcast_ref::<$ty>(), oo.downcast_mut::<$ty>()) {
                // SAFETY: the token exists only if the CPU has what `$f` needs (see `by_shape`).
                unsafe { $f(a, o) };
                return;
            }
        )+
        Portable.transpose($a, $out)
    }};
}

#[cfg(target_arch = "x86_64")]
impl Transposer for Avx512 {
    #[inline(always)]
    fn transpose<T: Copy + 'static, const L: usize>(self, a: &[[T; L]; L], out: &mut [[T; L]; L]) {
        // AVX-512F (and AVX, which it implies)
        by_shape!(a, out,
            [[f64; 8]; 8] => x86::t8x8_f64,
            [[f32; 16]; 16] => x86::t16x16_f32,
            [[f32; 8]; 8] => x86::t8x8_f32,
        )
    }

    #[inline(always)]
    fn call<R>(self, f: impl FnOnce() -> R) -> R {
        // SAFETY: only `Avx512::at` makes the token, when the CPU has AVX-512 (F, BW, DQ, VL),
        // AVX2 and FMA: the features of the AVX-512 level.
        unsafe { x86::call_avx512(f) }
    }
}

/// AVX (256-bit) shuffle sequences for `8 × 8` `f64`, `8 × 8` `f32` and `16 × 16` `f32` tiles
/// (other shapes fall back to [`Portable`]), for CPUs without AVX-512. Only [`Avx2::at`] makes
/// one, and only when the CPU has AVX2 (which implies AVX).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct Avx2(());

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// The token, if `level` (clamped to the detected level) is AVX2 or higher.
    #[inline]
    pub fn at(level: Level) -> Option<Self> {
        (super::effective(level) >= Level::Avx2).then_some(Avx2(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Transposer for Avx2 {
    #[inline(always)]
    fn transpose<T: Copy + 'static, const L: usize>(self, a: &[[T; L]; L], out: &mut [[T; L]; L]) {
        // AVX (implied by AVX2)
        by_shape!(a, out,
            [[f64; 8]; 8] => x86::t8x8_f64_avx,
            [[f32; 16]; 16] => x86::t16x16_f32_avx,
            [[f32; 8]; 8] => x86::t8x8_f32,
        )
    }

    #[inline(always)]
    fn call<R>(self, f: impl FnOnce() -> R) -> R {
        // SAFETY: only `Avx2::at` makes the token, when the CPU has AVX2 and FMA: the features
        // of the AVX2 level.
        unsafe { x86::call_avx2(f) }
    }
}

#[cfg(target_arch = "x86_64")]
// Register arrays are filled by plain loops, not `array::from_fn`: an intrinsic inside a closure
// is compiled without the caller's target features and stays an out-of-line call.
#[allow(clippy::needless_range_loop)]
mod x86 {
    use std::arch::x86_64::*;

    /// [`super::Avx512::call`]'s function: the features of `multiversion!`'s AVX-512 level.
    ///
    /// # Safety
    /// The CPU must have them.
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,bmi1,bmi2,popcnt")]
    #[inline(never)]
    pub(super) unsafe fn call_avx512<R>(f: impl FnOnce() -> R) -> R {
        f()
    }

    /// [`super::Avx2::call`]'s function: the features of `multiversion!`'s AVX2 level.
    ///
    /// # Safety
    /// The CPU must have them.
    #[target_feature(enable = "avx2,fma,bmi1,bmi2,popcnt")]
    #[inline(never)]
    pub(super) unsafe fn call_avx2<R>(f: impl FnOnce() -> R) -> R {
        f()
    }

    /// 8 × 8 `f64`: unpack pairs of rows, then 256-bit and 128-bit lane exchanges (24 shuffles).
    ///
    /// # Safety
    /// The CPU must have AVX-512F.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(super) unsafe fn t8x8_f64(a: &[[f64; 8]; 8], out: &mut [[f64; 8]; 8]) {
        // SAFETY: (whole body) every pointer comes from a reference to an 8-element row, so each
        // unaligned 64-byte load or store stays inside it; AVX-512F is the caller's promise.
        unsafe {
            let mut r = [_mm512_setzero_pd(); 8];
            for i in 0..8 {
                r[i] = _mm512_loadu_pd(a[i].as_ptr());
            }
            // t[2k] = rows 2k, 2k+1 at even columns; t[2k+1] at odd columns (pairs per 128 bits)
            let mut t = [_mm512_setzero_pd(); 8];
            for k in 0..4 {
                t[2 * k] = _mm512_unpacklo_pd(r[2 * k], r[2 * k + 1]);
                t[2 * k + 1] = _mm512_unpackhi_pd(r[2 * k], r[2 * k + 1]);
            }
            // u: rows 4g..4g+3 of columns {c, c + 4} for c = 0, 2 (from even t) and 1, 3 (odd)
            let lo = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
            let hi = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
            let mut u = [_mm512_setzero_pd(); 8];
            for g in 0..2 {
                let b = 4 * g;
                u[b] = _mm512_permutex2var_pd(t[b], lo, t[b + 2]); // col 0 | col 4
                u[b + 1] = _mm512_permutex2var_pd(t[b], hi, t[b + 2]); // col 2 | col 6
                u[b + 2] = _mm512_permutex2var_pd(t[b + 1], lo, t[b + 3]); // col 1 | col 5
                u[b + 3] = _mm512_permutex2var_pd(t[b + 1], hi, t[b + 3]); // col 3 | col 7
            }
            // column c: rows 0–3 from u[j], rows 4–7 from u[4 + j]
            for (j, (c_lo, c_hi)) in [(0, 4), (2, 6), (1, 5), (3, 7)].into_iter().enumerate() {
                let l = _mm512_shuffle_f64x2::<0b01_00_01_00>(u[j], u[4 + j]);
                let h = _mm512_shuffle_f64x2::<0b11_10_11_10>(u[j], u[4 + j]);
                _mm512_storeu_pd(out[c_lo].as_mut_ptr(), l);
                _mm512_storeu_pd(out[c_hi].as_mut_ptr(), h);
            }
        }
    }

    /// 16 × 16 `f32`: unpack pairs of rows as `f32` then as `f64`, then two rounds of 128-bit
    /// lane exchanges (64 shuffles).
    ///
    /// # Safety
    /// The CPU must have AVX-512F.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(super) unsafe fn t16x16_f32(a: &[[f32; 16]; 16], out: &mut [[f32; 16]; 16]) {
        // SAFETY: (whole body) as in `t8x8_f64`, with 16-element rows.
        unsafe {
            let mut r = [_mm512_setzero_ps(); 16];
            for i in 0..16 {
                r[i] = _mm512_loadu_ps(a[i].as_ptr());
            }
            let mut t = [_mm512_setzero_ps(); 16];
            for k in 0..8 {
                t[2 * k] = _mm512_unpacklo_ps(r[2 * k], r[2 * k + 1]);
                t[2 * k + 1] = _mm512_unpackhi_ps(r[2 * k], r[2 * k + 1]);
            }
            // u[4g + j], 128-bit lane l: rows 4g..4g+3 of column 4l + j
            let mut u = [_mm512_setzero_ps(); 16];
            for g in 0..4 {
                let b = 4 * g;
                let (t0, t1) = (_mm512_castps_pd(t[b]), _mm512_castps_pd(t[b + 1]));
                let (t2, t3) = (_mm512_castps_pd(t[b + 2]), _mm512_castps_pd(t[b + 3]));
                u[b] = _mm512_castpd_ps(_mm512_unpacklo_pd(t0, t2));
                u[b + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(t0, t2));
                u[b + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(t1, t3));
                u[b + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(t1, t3));
            }
            for j in 0..4 {
                // v: lanes {0, 2} of u[j], u[4+j]; w: lanes {1, 3}; likewise for rows 8–15
                let v = _mm512_shuffle_f32x4::<0b10_00_10_00>(u[j], u[4 + j]);
                let w = _mm512_shuffle_f32x4::<0b11_01_11_01>(u[j], u[4 + j]);
                let v2 = _mm512_shuffle_f32x4::<0b10_00_10_00>(u[8 + j], u[12 + j]);
                let w2 = _mm512_shuffle_f32x4::<0b11_01_11_01>(u[8 + j], u[12 + j]);
                let c0 = _mm512_shuffle_f32x4::<0b10_00_10_00>(v, v2);
                let c2 = _mm512_shuffle_f32x4::<0b11_01_11_01>(v, v2);
                let c1 = _mm512_shuffle_f32x4::<0b10_00_10_00>(w, w2);
                let c3 = _mm512_shuffle_f32x4::<0b11_01_11_01>(w, w2);
                _mm512_storeu_ps(out[j].as_mut_ptr(), c0);
                _mm512_storeu_ps(out[4 + j].as_mut_ptr(), c1);
                _mm512_storeu_ps(out[8 + j].as_mut_ptr(), c2);
                _mm512_storeu_ps(out[12 + j].as_mut_ptr(), c3);
            }
        }
    }

    /// 8 × 8 `f32` in 256-bit registers: unpack as `f32`, then as `f64`, then exchange 128-bit
    /// halves (24 shuffles).
    ///
    /// # Safety
    /// The CPU must have AVX.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(super) unsafe fn t8x8_f32(a: &[[f32; 8]; 8], out: &mut [[f32; 8]; 8]) {
        // SAFETY: rows of 8 floats, 8 apart: the block is the whole of `a` and of `out`.
        unsafe { t8x8_f32_at(a.as_ptr().cast(), 8, out.as_mut_ptr().cast(), 8) }
    }

    /// 8 × 8 `f32` block at `a` (rows `sa` floats apart) transposed into the block at `out`
    /// (rows `so` apart), as [`t8x8_f32`].
    ///
    /// # Safety
    /// The CPU must have AVX; `a + r·sa .. + 8` readable and `out + r·so .. + 8` writable for
    /// `r < 8`, the two blocks not overlapping.
    #[cfg_attr(not(debug_assertions), inline(always))]
    unsafe fn t8x8_f32_at(a: *const f32, sa: usize, out: *mut f32, so: usize) {
        // SAFETY: (whole body) each load/store is one 8-float row of a block, in bounds by the
        // caller's promise; AVX is the caller's promise.
        unsafe {
            let mut r = [_mm256_setzero_ps(); 8];
            for i in 0..8 {
                r[i] = _mm256_loadu_ps(a.add(i * sa));
            }
            let mut t = [_mm256_setzero_ps(); 8];
            for k in 0..4 {
                t[2 * k] = _mm256_unpacklo_ps(r[2 * k], r[2 * k + 1]);
                t[2 * k + 1] = _mm256_unpackhi_ps(r[2 * k], r[2 * k + 1]);
            }
            // u[4g + j], 128-bit half h: rows 4g..4g+3 of column 4h + j
            let mut u = [_mm256_setzero_ps(); 8];
            for g in 0..2 {
                let b = 4 * g;
                let (t0, t1) = (_mm256_castps_pd(t[b]), _mm256_castps_pd(t[b + 1]));
                let (t2, t3) = (_mm256_castps_pd(t[b + 2]), _mm256_castps_pd(t[b + 3]));
                u[b] = _mm256_castpd_ps(_mm256_unpacklo_pd(t0, t2));
                u[b + 1] = _mm256_castpd_ps(_mm256_unpackhi_pd(t0, t2));
                u[b + 2] = _mm256_castpd_ps(_mm256_unpacklo_pd(t1, t3));
                u[b + 3] = _mm256_castpd_ps(_mm256_unpackhi_pd(t1, t3));
            }
            for j in 0..4 {
                let c_lo = _mm256_permute2f128_ps::<0x20>(u[j], u[4 + j]);
                let c_hi = _mm256_permute2f128_ps::<0x31>(u[j], u[4 + j]);
                _mm256_storeu_ps(out.add(j * so), c_lo);
                _mm256_storeu_ps(out.add((4 + j) * so), c_hi);
            }
        }
    }

    /// 16 × 16 `f32` as four 8 × 8 blocks in 256-bit registers (96 shuffles).
    ///
    /// # Safety
    /// The CPU must have AVX.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(super) unsafe fn t16x16_f32_avx(a: &[[f32; 16]; 16], out: &mut [[f32; 16]; 16]) {
        let (a, o) = (a.as_ptr().cast::<f32>(), out.as_mut_ptr().cast::<f32>());
        for bi in 0..2 {
            for bj in 0..2 {
                // SAFETY: block (bj, bi) of `a` (rows 8·bj.., columns 8·bi..) into block
                // (bi, bj) of `out`: 8 rows of 8 floats inside the 16 × 16 arrays; AVX is the
                // caller's promise.
                unsafe {
                    t8x8_f32_at(
                        a.add(8 * bj * 16 + 8 * bi),
                        16,
                        o.add(8 * bi * 16 + 8 * bj),
                        16,
                    )
                };
            }
        }
    }

    /// 8 × 8 `f64` as four 4 × 4 blocks in 256-bit registers: unpack pairs of rows, then
    /// exchange 128-bit halves (32 shuffles).
    ///
    /// # Safety
    /// The CPU must have AVX.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(super) unsafe fn t8x8_f64_avx(a: &[[f64; 8]; 8], out: &mut [[f64; 8]; 8]) {
        for bi in 0..2 {
            for bj in 0..2 {
                // SAFETY: (block) rows 4·bj.. of `a`, columns 4·bi..; rows 4·bi.. of `out`,
                // columns 4·bj..: each unaligned 32-byte access is 4 doubles inside one 8-double
                // row; AVX is the caller's promise.
                unsafe {
                    let mut r = [_mm256_setzero_pd(); 4];
                    for k in 0..4 {
                        r[k] = _mm256_loadu_pd(a[4 * bj + k].as_ptr().add(4 * bi));
                    }
                    let t0 = _mm256_unpacklo_pd(r[0], r[1]); // (r0c0, r1c0, r0c2, r1c2)
                    let t1 = _mm256_unpackhi_pd(r[0], r[1]); // (r0c1, r1c1, r0c3, r1c3)
                    let t2 = _mm256_unpacklo_pd(r[2], r[3]);
                    let t3 = _mm256_unpackhi_pd(r[2], r[3]);
                    let c = [
                        _mm256_permute2f128_pd::<0x20>(t0, t2),
                        _mm256_permute2f128_pd::<0x20>(t1, t3),
                        _mm256_permute2f128_pd::<0x31>(t0, t2),
                        _mm256_permute2f128_pd::<0x31>(t1, t3),
                    ];
                    for (k, v) in c.into_iter().enumerate() {
                        _mm256_storeu_pd(out[4 * bi + k].as_mut_ptr().add(4 * bj), v);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<X: Transposer, T: Copy + 'static + PartialEq + std::fmt::Debug, const L: usize>(
        x: X,
        make: impl Fn(usize) -> T,
    ) {
        let a: [[T; L]; L] = std::array::from_fn(|i| std::array::from_fn(|j| make(i * L + j)));
        let mut out = [[make(usize::MAX); L]; L];
        x.transpose(&a, &mut out);
        for i in 0..L {
            for j in 0..L {
                assert_eq!(out[i][j], a[j][i], "L = {L}, ({i}, {j})");
            }
        }
    }

    fn all<X: Transposer>(x: X) {
        // distinct values (and one NaN payload, compared through its bits) in every position
        check::<X, u64, 8>(x, |k| k as u64);
        check::<X, f64, 8>(x, |k| k as f64 + 0.5);
        check::<X, f32, 16>(x, |k| k as f32 - 100.25);
        check::<X, f32, 4>(x, |k| k as f32);
        check::<X, f32, 8>(x, |k| k as f32 * 3.0 + 0.125);
        check::<X, f64, 4>(x, |k| -(k as f64));
        check::<X, f64, 1>(x, |k| k as f64);
        let bits = |k: usize| f64::from_bits(0x7ff8_0000_0000_0000 | k as u64).to_bits();
        check::<X, u64, 8>(x, bits);
    }

    #[test]
    fn portable_transposes() {
        all(Portable);
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx2_transposes_match_portable() {
        assert!(Avx2::at(Level::Baseline).is_none());
        match Avx2::at(Level::Avx2) {
            Some(x) => all(x),
            None => assert!(super::super::detected() < Level::Avx2),
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx512_transposes_match_portable() {
        assert!(Avx512::at(Level::Avx2).is_none());
        match Avx512::at(Level::Avx512) {
            Some(x) => {
                all(x);
                // the shuffle paths themselves, on values whose bits must survive exactly
                let a: [[f64; 8]; 8] = std::array::from_fn(|i| {
                    std::array::from_fn(|j| {
                        f64::from_bits(0x7ff0_0000_0000_0001 + (i * 8 + j) as u64)
                    })
                });
                let mut o = [[0.0; 8]; 8];
                x.transpose(&a, &mut o);
                for i in 0..8 {
                    for j in 0..8 {
                        assert_eq!(o[i][j].to_bits(), a[j][i].to_bits());
                    }
                }
            }
            None => assert!(super::super::detected() < Level::Avx512),
        }
    }
}
