//! The real-FFT split steps, forward ([`super::split::split_fwd_body`]) and inverse
//! ([`super::split::split_inv_body`]), with explicit AVX2, f32 and f64: a full vector of pairs per
//! iteration (4 pairs of floats, 2 of doubles), the fewer than a vector's worth of pairs left at
//! the end one at a time ([`super::split_pair::split_fwd_pair`], [`super::split_pair::split_inv_pair`]), as in
//! [`super::split_avx512`]. The partner block, which runs backwards, is reversed in registers
//! (one lane permute). Both element types run the same two loops ([`fwd`], [`inv`]) over their
//! vector type ([`Lanes`]).
//!
//! Every vector computes exactly the operations of the scalar pair in the same order (no FMA;
//! `a − b` as `a + (−b)` and sums with their operands swapped, which IEEE arithmetic makes
//! bit-identical), so the results are bit-identical to the scalar body at every length. The
//! twiddles are read from their tables as they are and spread in registers:
//! `wr = (w.re, w.re)`, `wi = (w.im, w.im)` (with the sign of the real lane flipped in the forward
//! step), so `w·D = wr·D ± wi·swap(D)`.

use super::super::Complex;
use super::split_pair::{split_fwd_ends, split_fwd_pair, split_inv_ends, split_inv_pair};
use super::FftFloat;
use std::arch::x86_64::*;

/// A ymm of complex values of one element type and the operations the split steps use.
///
/// # Safety (of the methods)
/// AVX2 intrinsics: only called, inlined, from the `#[target_feature(enable = "avx2")]` entry
/// points below. Register-only except `load` / `store`, which read / write one vector's worth
/// of elements (`2·PAIRS`) at the pointer, any alignment of the element type.
trait Lanes: Copy {
    type E: FftFloat;
    /// Complex values (so pairs of the split step) per vector.
    const PAIRS: usize;
    unsafe fn load(p: *const Self::E) -> Self;
    unsafe fn store(p: *mut Self::E, v: Self);
    /// The complex values in reverse order.
    unsafe fn rev(v: Self) -> Self;
    /// `(re, im) → (im, re)` in every complex value.
    unsafe fn swap(v: Self) -> Self;
    /// `(re, im) → (re, re)` in every complex value.
    unsafe fn dup_re(v: Self) -> Self;
    /// `(re, im) → (im, im)` in every complex value.
    unsafe fn dup_im(v: Self) -> Self;
    unsafe fn add(a: Self, b: Self) -> Self;
    unsafe fn sub(a: Self, b: Self) -> Self;
    unsafe fn mul(a: Self, b: Self) -> Self;
    unsafe fn xor(a: Self, b: Self) -> Self;
    /// `x` in every lane.
    unsafe fn splat(x: f64) -> Self;
    /// The sign bit in the imaginary lanes (`im`) or in the real lanes (`!im`).
    unsafe fn sign(im: bool) -> Self;
}

#[derive(Clone, Copy)]
struct F64x4(__m256d);

impl Lanes for F64x4 {
    type E = f64;
    const PAIRS: usize = 2;
    #[inline(always)]
    unsafe fn load(p: *const f64) -> Self {
        // SAFETY: 4 readable doubles at `p` (the caller's contract).
        F64x4(unsafe { _mm256_loadu_pd(p) })
    }
    #[inline(always)]
    unsafe fn store(p: *mut f64, v: Self) {
        // SAFETY: 4 writable doubles at `p` (the caller's contract).
        unsafe { _mm256_storeu_pd(p, v.0) }
    }
    #[inline(always)]
    unsafe fn rev(v: Self) -> Self {
        // SAFETY: register-only.
        F64x4(unsafe { _mm256_permute2f128_pd::<0x01>(v.0, v.0) })
    }
    #[inline(always)]
    unsafe fn swap(v: Self) -> Self {
        // SAFETY: register-only.
        F64x4(unsafe { _mm256_permute_pd::<0b0101>(v.0) })
    }
    #[inline(always)]
    unsafe fn dup_re(v: Self) -> Self {
        // SAFETY: register-only.
        F64x4(unsafe { _mm256_permute_pd::<0b0000>(v.0) })
    }
    #[inline(always)]
    unsafe fn dup_im(v: Self) -> Self {
        // SAFETY: register-only.
        F64x4(unsafe { _mm256_permute_pd::<0b1111>(v.0) })
    }
    #[inline(always)]
    unsafe fn add(a: Self, b: Self) -> Self {
        // SAFETY: register-only.
        F64x4(unsafe { _mm256_add_pd(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn sub(a: Self, b: Self) -> Self {
        // SAFETY: register-only.
        F64x4(unsafe { _mm256_sub_pd(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn mul(a: Self, b: Self) -> Self {
        // SAFETY: register-only.
        F64x4(unsafe { _mm256_mul_pd(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: register-only.
        F64x4(unsafe { _mm256_xor_pd(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn splat(x: f64) -> Self {
        // SAFETY: register-only.
        F64x4(unsafe { _mm256_set1_pd(x) })
    }
    #[inline(always)]
    unsafe fn sign(im: bool) -> Self {
        let (o, e) = if im { (i64::MIN, 0) } else { (0, i64::MIN) };
        // SAFETY: register-only.
        F64x4(unsafe { _mm256_castsi256_pd(_mm256_set_epi64x(o, e, o, e)) })
    }
}

#[derive(Clone, Copy)]
struct F32x8(__m256);

impl Lanes for F32x8 {
    type E = f32;
    const PAIRS: usize = 4;
    #[inline(always)]
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: 8 readable floats at `p` (the caller's contract).
        F32x8(unsafe { _mm256_loadu_ps(p) })
    }
    #[inline(always)]
    unsafe fn store(p: *mut f32, v: Self) {
        // SAFETY: 8 writable floats at `p` (the caller's contract).
        unsafe { _mm256_storeu_ps(p, v.0) }
    }
    #[inline(always)]
    unsafe fn rev(v: Self) -> Self {
        // SAFETY: register-only: the four 64-bit complex values reversed.
        F32x8(unsafe { _mm256_castpd_ps(_mm256_permute4x64_pd::<0x1B>(_mm256_castps_pd(v.0))) })
    }
    #[inline(always)]
    unsafe fn swap(v: Self) -> Self {
        // SAFETY: register-only.
        F32x8(unsafe { _mm256_permute_ps::<0xB1>(v.0) })
    }
    #[inline(always)]
    unsafe fn dup_re(v: Self) -> Self {
        // SAFETY: register-only.
        F32x8(unsafe { _mm256_moveldup_ps(v.0) })
    }
    #[inline(always)]
    unsafe fn dup_im(v: Self) -> Self {
        // SAFETY: register-only.
        F32x8(unsafe { _mm256_movehdup_ps(v.0) })
    }
    #[inline(always)]
    unsafe fn add(a: Self, b: Self) -> Self {
        // SAFETY: register-only.
        F32x8(unsafe { _mm256_add_ps(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn sub(a: Self, b: Self) -> Self {
        // SAFETY: register-only.
        F32x8(unsafe { _mm256_sub_ps(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn mul(a: Self, b: Self) -> Self {
        // SAFETY: register-only.
        F32x8(unsafe { _mm256_mul_ps(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: register-only.
        F32x8(unsafe { _mm256_xor_ps(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn splat(x: f64) -> Self {
        // SAFETY: register-only.
        F32x8(unsafe { _mm256_set1_ps(x as f32) })
    }
    #[inline(always)]
    unsafe fn sign(im: bool) -> Self {
        let (o, e) = if im { (i32::MIN, 0) } else { (0, i32::MIN) };
        // SAFETY: register-only.
        F32x8(unsafe { _mm256_castsi256_ps(_mm256_set_epi32(o, e, o, e, o, e, o, e)) })
    }
}

/// The forward split step on vectors `L` (see the module doc).
///
/// # Safety
/// The CPU supports AVX2, and the caller is compiled with it (the entry points below).
#[inline(always)]
unsafe fn fwd<L: Lanes>(y: &mut [Complex<L::E>], v: &[Complex<L::E>]) {
    let m = y.len() - 1;
    split_fwd_ends(y);
    let p = (m - 1) / 2;
    assert!(v.len() > p, "split twiddles too short");
    let w = L::PAIRS;
    // SAFETY: register-only arithmetic (AVX2 present: the function's contract); the loads and
    // stores are justified at the loop.
    unsafe {
        let half = L::splat(0.5);
        // sign bit in the imaginary lanes: conjugation; in the real lanes: −v.im
        let (conj, neg_re) = (L::sign(true), L::sign(false));
        let pairs = |a: L, b: L, wv: L| {
            let wr = L::dup_re(wv); // v.re, v.re
            let wi = L::xor(L::dup_im(wv), neg_re); // −v.im, v.im
            let bc = L::xor(b, conj);
            let s = L::add(a, bc); // (a.re + b.re, a.im − b.im)
            let d = L::sub(a, bc); // (a.re − b.re, a.im + b.im)
            let t1 = L::mul(wr, d); // (v.re·d.re, v.re·d.im)
            let t2 = L::mul(wi, L::swap(d)); // (−v.im·d.im, v.im·d.re)
            let vd = L::add(t1, t2);
            let h = L::mul(s, half);
            (L::add(h, vd), L::xor(L::sub(h, vd), conj))
        };
        let yp = y.as_mut_ptr() as *mut L::E;
        let vp = v.as_ptr() as *const L::E;
        let mut i = 0;
        while i + w <= p {
            // Pairs i..i+w with i + w ≤ p: the low block y[1+i..1+i+w] lies in y[1..=p], the
            // partner block y[m−w−i..m−i] in y[m−p..m], disjoint from it (m − p > p);
            // v[1+i..1+i+w] lies in v[..=p] (asserted). No reference into `y` is live.
            let pa = yp.add(2 * (1 + i));
            let pb = yp.add(2 * (m - w - i));
            let a = L::load(pa);
            let b = L::rev(L::load(pb));
            let (lo, hi) = pairs(a, b, L::load(vp.add(2 * (1 + i))));
            L::store(pa, lo);
            L::store(pb, L::rev(hi));
            i += w;
        }
        for k in i..p {
            let (lo, hi) = y.split_at_mut(m - 1 - k);
            split_fwd_pair(&mut lo[1 + k], &mut hi[0], v[1 + k]);
        }
    }
}

/// The inverse split step on vectors `L` (see the module doc).
///
/// # Safety
/// The CPU supports AVX2, and the caller is compiled with it (the entry points below).
#[inline(always)]
unsafe fn inv<L: Lanes>(x: &[Complex<L::E>], z: &mut [Complex<L::E>], tw: &[Complex<L::E>]) {
    let m = z.len();
    let p = (m - 1) / 2;
    assert!(
        x.len() > m && tw.len() > p,
        "split input or twiddles too short"
    );
    split_inv_ends(x, z);
    let w = L::PAIRS;
    // SAFETY: register-only arithmetic (AVX2 present: the function's contract); the loads and
    // stores are justified at the loop.
    unsafe {
        // sign bit in the imaginary lanes: conjugation; in the real lanes: −c.im
        let (conj, neg_re) = (L::sign(true), L::sign(false));
        let pairs = |xa: L, xb: L, wv: L| {
            let bc = L::xor(xb, conj);
            let f = L::add(xa, bc); // (xa.re + xb.re, xa.im − xb.im)
            let g = L::sub(xa, bc); // (xa.re − xb.re, xa.im + xb.im)
            let p1 = L::mul(L::dup_re(wv), g); // (w.re·g.re, w.re·g.im)
            let p2 = L::mul(L::dup_im(wv), L::swap(g)); // (w.im·g.im, w.im·g.re)
            let c = L::add(p1, L::xor(p2, conj)); // c = conj(w)·G
            let t = L::xor(L::swap(c), neg_re); // (−c.im, c.re)
            (
                L::add(f, t), // (f.re + t.re, f.im + t.im)
                // (f.re − t.re, (−f.im) − (−t.im) = t.im − f.im)
                L::sub(L::xor(f, conj), L::xor(t, conj)),
            )
        };
        let xp = x.as_ptr() as *const L::E;
        let zp = z.as_mut_ptr() as *mut L::E;
        let wp = tw.as_ptr() as *const L::E;
        let mut i = 0;
        while i + w <= p {
            // Pairs i..i+w with i + w ≤ p: x[1+i..1+i+w] and x[m−w−i..m−i] lie in x[..m] (x has
            // more than m values, asserted), tw[1+i..1+i+w] in tw[..=p] (asserted); the low
            // output block z[1+i..1+i+w] lies in z[1..=p], the partner block z[m−w−i..m−i] in
            // z[m−p..m], disjoint from it (m − p > p). `x` and `z` are distinct borrows; no
            // reference into `z` is live.
            let xa = L::load(xp.add(2 * (1 + i)));
            let xb = L::rev(L::load(xp.add(2 * (m - w - i))));
            let (za, zb) = pairs(xa, xb, L::load(wp.add(2 * (1 + i))));
            L::store(zp.add(2 * (1 + i)), za);
            L::store(zp.add(2 * (m - w - i)), L::rev(zb));
            i += w;
        }
        for k in i..p {
            (z[1 + k], z[m - 1 - k]) = split_inv_pair(x[1 + k], x[m - 1 - k], tw[1 + k]);
        }
    }
}

/// The forward split step of doubles, 2 pairs a vector.
///
/// # Safety
/// The CPU must support AVX2 (the caller checks the detected level).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn split_fwd_f64(y: &mut [Complex<f64>], v: &[Complex<f64>]) {
    // SAFETY: AVX2 present (this function's contract).
    unsafe { fwd::<F64x4>(y, v) }
}

/// The forward split step of floats, 4 pairs a vector.
///
/// # Safety
/// The CPU must support AVX2 (the caller checks the detected level).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn split_fwd_f32(y: &mut [Complex<f32>], v: &[Complex<f32>]) {
    // SAFETY: AVX2 present (this function's contract).
    unsafe { fwd::<F32x8>(y, v) }
}

/// The inverse split step of doubles, 2 pairs a vector.
///
/// # Safety
/// The CPU must support AVX2 (the caller checks the detected level).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn split_inv_f64(
    x: &[Complex<f64>],
    z: &mut [Complex<f64>],
    tw: &[Complex<f64>],
) {
    // SAFETY: AVX2 present (this function's contract).
    unsafe { inv::<F64x4>(x, z, tw) }
}

/// The inverse split step of floats, 4 pairs a vector.
///
/// # Safety
/// The CPU must support AVX2 (the caller checks the detected level).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn split_inv_f32(
    x: &[Complex<f32>],
    z: &mut [Complex<f32>],
    tw: &[Complex<f32>],
) {
    // SAFETY: AVX2 present (this function's contract).
    unsafe { inv::<F32x8>(x, z, tw) }
}
