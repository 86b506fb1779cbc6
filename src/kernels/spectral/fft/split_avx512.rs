//! The forward real-FFT split step ([`super::split_fwd_body`]) with explicit AVX-512, f32 and
//! f64: a full vector of pairs per iteration (8 pairs of floats, 4 of doubles), the fewer than
//! a vector's worth of pairs left at the end one at a time ([`super::split_fwd_pair`]). (One
//! masked vector for that tail measured 5–15 ns slower than the scalar pairs at 64–136
//! points, and no faster above.)
//!
//! Every vector computes exactly the operations of [`super::split_fwd_pair`] in the same order
//! (no FMA), so the results are bit-identical to the scalar body at every length. The twiddles
//! are read from `v` as they are (a pre-duplicated table was twice the memory traffic, which is
//! what this pass is bound by at large n) and spread in registers: `wr = (v.re, v.re)`,
//! `wi = (−v.im, v.im)`, so `v·D = wr·D + wi·swap(D)` (negation and the products' signs are
//! exact, so this equals `v.re·d.re − v.im·d.im`, `v.re·d.im + v.im·d.re` bit for bit).

use super::super::Complex;
use super::{split_fwd_ends, split_fwd_pair};
use std::arch::x86_64::*;

/// The forward split step of doubles, 4 pairs a vector.
///
/// # Safety
/// The CPU must support AVX-512 F and DQ (the caller checks the detected level).
#[target_feature(enable = "avx512f,avx512dq")]
pub(super) unsafe fn split_fwd_f64(y: &mut [Complex<f64>], v: &[Complex<f64>]) {
    let m = y.len() - 1;
    split_fwd_ends(y);
    let p = (m - 1) / 2;
    assert!(v.len() > p, "split twiddles too short");
    if p == 0 {
        return;
    }
    let half = _mm512_set1_pd(0.5);
    // sign bit in the imaginary lanes (1, 3, 5, 7): conjugation; in the real lanes: −v.im
    let sign = |odd: bool| {
        let (e, o) = if odd { (0, i64::MIN) } else { (i64::MIN, 0) };
        _mm512_castsi512_pd(_mm512_set_epi64(o, e, o, e, o, e, o, e))
    };
    let (conj, neg_re) = (sign(true), sign(false));
    // reverses the order of the four complex values of a vector
    let full = _mm512_set_epi64(1, 0, 3, 2, 5, 4, 7, 6);
    let pairs = |a: __m512d, b: __m512d, w: __m512d| {
        let wr = _mm512_permute_pd::<0x00>(w); // v.re, v.re
        let wi = _mm512_xor_pd(_mm512_permute_pd::<0xFF>(w), neg_re); // −v.im, v.im
        let bc = _mm512_xor_pd(b, conj);
        let s = _mm512_add_pd(a, bc); // (a.re + b.re, a.im − b.im)
        let d = _mm512_sub_pd(a, bc); // (a.re − b.re, a.im + b.im)
        let t1 = _mm512_mul_pd(wr, d); // (v.re·d.re, v.re·d.im)
        let t2 = _mm512_mul_pd(wi, _mm512_permute_pd::<0x55>(d)); // (−v.im·d.im, v.im·d.re)
        let vd = _mm512_add_pd(t1, t2);
        let h = _mm512_mul_pd(s, half);
        (
            _mm512_add_pd(h, vd),
            _mm512_xor_pd(_mm512_sub_pd(h, vd), conj),
        )
    };
    let yp = y.as_mut_ptr() as *mut f64;
    let vp = v.as_ptr() as *const f64;
    let mut i = 0;
    while i + 4 <= p {
        // SAFETY: pairs i..i+4 with i + 4 ≤ p: the low block y[1+i..5+i] lies in y[1..=p], the
        // partner block y[m−4−i..m−i] in y[m−p..m], disjoint from it (m − p > p); v[1+i..5+i]
        // lies in v[..=p] (asserted). Unaligned loads/stores; no reference into `y` is live.
        unsafe {
            let pa = yp.add(2 * (1 + i));
            let pb = yp.add(2 * (m - 4 - i));
            let a = _mm512_loadu_pd(pa);
            let b = _mm512_permutexvar_pd(full, _mm512_loadu_pd(pb));
            let (lo, hi) = pairs(a, b, _mm512_loadu_pd(vp.add(2 * (1 + i))));
            _mm512_storeu_pd(pa, lo);
            _mm512_storeu_pd(pb, _mm512_permutexvar_pd(full, hi));
        }
        i += 4;
    }
    for k in i..p {
        let (lo, hi) = y.split_at_mut(m - 1 - k);
        split_fwd_pair(&mut lo[1 + k], &mut hi[0], v[1 + k]);
    }
}

/// The forward split step of floats, 8 pairs a vector.
///
/// # Safety
/// The CPU must support AVX-512 F and DQ (the caller checks the detected level).
#[target_feature(enable = "avx512f,avx512dq")]
pub(super) unsafe fn split_fwd_f32(y: &mut [Complex<f32>], v: &[Complex<f32>]) {
    let m = y.len() - 1;
    split_fwd_ends(y);
    let p = (m - 1) / 2;
    assert!(v.len() > p, "split twiddles too short");
    if p == 0 {
        return;
    }
    let half = _mm512_set1_ps(0.5);
    let (mn, z) = (i32::MIN, 0);
    // sign bit in the imaginary (odd) lanes: conjugation; in the real (even) lanes: −v.im
    let conj = _mm512_castsi512_ps(_mm512_set_epi32(
        mn, z, mn, z, mn, z, mn, z, mn, z, mn, z, mn, z, mn, z,
    ));
    let neg_re = _mm512_castsi512_ps(_mm512_set_epi32(
        z, mn, z, mn, z, mn, z, mn, z, mn, z, mn, z, mn, z, mn,
    ));
    // reverses the order of the eight complex values of a vector
    let full = _mm512_set_epi32(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
    let pairs = |a: __m512, b: __m512, w: __m512| {
        let wr = _mm512_moveldup_ps(w); // v.re, v.re
        let wi = _mm512_xor_ps(_mm512_movehdup_ps(w), neg_re); // −v.im, v.im
        let bc = _mm512_xor_ps(b, conj);
        let s = _mm512_add_ps(a, bc); // (a.re + b.re, a.im − b.im)
        let d = _mm512_sub_ps(a, bc); // (a.re − b.re, a.im + b.im)
        let t1 = _mm512_mul_ps(wr, d); // (v.re·d.re, v.re·d.im)
        let t2 = _mm512_mul_ps(wi, _mm512_permute_ps::<0xB1>(d)); // (−v.im·d.im, v.im·d.re)
        let vd = _mm512_add_ps(t1, t2);
        let h = _mm512_mul_ps(s, half);
        (
            _mm512_add_ps(h, vd),
            _mm512_xor_ps(_mm512_sub_ps(h, vd), conj),
        )
    };
    let yp = y.as_mut_ptr() as *mut f32;
    let vp = v.as_ptr() as *const f32;
    let mut i = 0;
    while i + 8 <= p {
        // SAFETY: pairs i..i+8 with i + 8 ≤ p: the low block y[1+i..9+i] lies in y[1..=p], the
        // partner block y[m−8−i..m−i] in y[m−p..m], disjoint from it (m − p > p); v[1+i..9+i]
        // lies in v[..=p] (asserted). Unaligned loads/stores; no reference into `y` is live.
        unsafe {
            let pa = yp.add(2 * (1 + i));
            let pb = yp.add(2 * (m - 8 - i));
            let a = _mm512_loadu_ps(pa);
            let b = _mm512_permutexvar_ps(full, _mm512_loadu_ps(pb));
            let (lo, hi) = pairs(a, b, _mm512_loadu_ps(vp.add(2 * (1 + i))));
            _mm512_storeu_ps(pa, lo);
            _mm512_storeu_ps(pb, _mm512_permutexvar_ps(full, hi));
        }
        i += 8;
    }
    for k in i..p {
        let (lo, hi) = y.split_at_mut(m - 1 - k);
        split_fwd_pair(&mut lo[1 + k], &mut hi[0], v[1 + k]);
    }
}
