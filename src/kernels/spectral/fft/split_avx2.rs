//! The real-FFT split steps, forward ([`super::split_fwd_body`]) and inverse
//! ([`super::split_inv_body`]), with explicit AVX2, f32 and f64: a full vector of pairs per
//! iteration (4 pairs of floats, 2 of doubles), the fewer than a vector's worth of pairs left at
//! the end one at a time ([`super::split_fwd_pair`], [`super::split_inv_pair`]), as in
//! [`super::split_avx512`]. The partner block, which runs backwards, is reversed in registers
//! (one lane permute).
//!
//! Every vector computes exactly the operations of the scalar pair in the same order (no FMA;
//! `a − b` as `a + (−b)` and sums with their operands swapped, which IEEE arithmetic makes
//! bit-identical), so the results are bit-identical to the scalar body at every length. The
//! twiddles are read from their tables as they are and spread in registers:
//! `wr = (w.re, w.re)`, `wi = (w.im, w.im)` (with the sign of the real lane flipped in the forward
//! step), so `w·D = wr·D ± wi·swap(D)`.

use super::super::Complex;
use super::{split_fwd_ends, split_fwd_pair, split_inv_ends, split_inv_pair};
use std::arch::x86_64::*;

/// The forward split step of doubles, 2 pairs a vector.
///
/// # Safety
/// The CPU must support AVX2 (the caller checks the detected level).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn split_fwd_f64(y: &mut [Complex<f64>], v: &[Complex<f64>]) {
    let m = y.len() - 1;
    split_fwd_ends(y);
    let p = (m - 1) / 2;
    assert!(v.len() > p, "split twiddles too short");
    let half = _mm256_set1_pd(0.5);
    // sign bit in the imaginary lanes (1, 3): conjugation; in the real lanes: −v.im
    let conj = _mm256_castsi256_pd(_mm256_set_epi64x(i64::MIN, 0, i64::MIN, 0));
    let neg_re = _mm256_castsi256_pd(_mm256_set_epi64x(0, i64::MIN, 0, i64::MIN));
    let pairs = |a: __m256d, b: __m256d, w: __m256d| {
        let wr = _mm256_permute_pd::<0b0000>(w); // v.re, v.re
        let wi = _mm256_xor_pd(_mm256_permute_pd::<0b1111>(w), neg_re); // −v.im, v.im
        let bc = _mm256_xor_pd(b, conj);
        let s = _mm256_add_pd(a, bc); // (a.re + b.re, a.im − b.im)
        let d = _mm256_sub_pd(a, bc); // (a.re − b.re, a.im + b.im)
        let t1 = _mm256_mul_pd(wr, d); // (v.re·d.re, v.re·d.im)
        let t2 = _mm256_mul_pd(wi, _mm256_permute_pd::<0b0101>(d)); // (−v.im·d.im, v.im·d.re)
        let vd = _mm256_add_pd(t1, t2);
        let h = _mm256_mul_pd(s, half);
        (
            _mm256_add_pd(h, vd),
            _mm256_xor_pd(_mm256_sub_pd(h, vd), conj),
        )
    };
    // the two complex values of a vector in the other order
    let rev = |x: __m256d| _mm256_permute2f128_pd::<0x01>(x, x);
    let yp = y.as_mut_ptr() as *mut f64;
    let vp = v.as_ptr() as *const f64;
    let mut i = 0;
    while i + 2 <= p {
        // SAFETY: pairs i..i+2 with i + 2 ≤ p: the low block y[1+i..3+i] lies in y[1..=p], the
        // partner block y[m−2−i..m−i] in y[m−p..m], disjoint from it (m − p > p); v[1+i..3+i]
        // lies in v[..=p] (asserted). Unaligned loads/stores; no reference into `y` is live.
        unsafe {
            let pa = yp.add(2 * (1 + i));
            let pb = yp.add(2 * (m - 2 - i));
            let a = _mm256_loadu_pd(pa);
            let b = rev(_mm256_loadu_pd(pb));
            let (lo, hi) = pairs(a, b, _mm256_loadu_pd(vp.add(2 * (1 + i))));
            _mm256_storeu_pd(pa, lo);
            _mm256_storeu_pd(pb, rev(hi));
        }
        i += 2;
    }
    for k in i..p {
        let (lo, hi) = y.split_at_mut(m - 1 - k);
        split_fwd_pair(&mut lo[1 + k], &mut hi[0], v[1 + k]);
    }
}

/// The forward split step of floats, 4 pairs a vector.
///
/// # Safety
/// The CPU must support AVX2 (the caller checks the detected level).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn split_fwd_f32(y: &mut [Complex<f32>], v: &[Complex<f32>]) {
    let m = y.len() - 1;
    split_fwd_ends(y);
    let p = (m - 1) / 2;
    assert!(v.len() > p, "split twiddles too short");
    let half = _mm256_set1_ps(0.5);
    let (mn, z) = (i32::MIN, 0);
    // sign bit in the imaginary (odd) lanes: conjugation; in the real (even) lanes: −v.im
    let conj = _mm256_castsi256_ps(_mm256_set_epi32(mn, z, mn, z, mn, z, mn, z));
    let neg_re = _mm256_castsi256_ps(_mm256_set_epi32(z, mn, z, mn, z, mn, z, mn));
    let pairs = |a: __m256, b: __m256, w: __m256| {
        let wr = _mm256_moveldup_ps(w); // v.re, v.re
        let wi = _mm256_xor_ps(_mm256_movehdup_ps(w), neg_re); // −v.im, v.im
        let bc = _mm256_xor_ps(b, conj);
        let s = _mm256_add_ps(a, bc); // (a.re + b.re, a.im − b.im)
        let d = _mm256_sub_ps(a, bc); // (a.re − b.re, a.im + b.im)
        let t1 = _mm256_mul_ps(wr, d); // (v.re·d.re, v.re·d.im)
        let t2 = _mm256_mul_ps(wi, _mm256_permute_ps::<0xB1>(d)); // (−v.im·d.im, v.im·d.re)
        let vd = _mm256_add_ps(t1, t2);
        let h = _mm256_mul_ps(s, half);
        (
            _mm256_add_ps(h, vd),
            _mm256_xor_ps(_mm256_sub_ps(h, vd), conj),
        )
    };
    // the four complex values (64-bit elements) of a vector in reverse order
    let rev = |x: __m256| _mm256_castpd_ps(_mm256_permute4x64_pd::<0x1B>(_mm256_castps_pd(x)));
    let yp = y.as_mut_ptr() as *mut f32;
    let vp = v.as_ptr() as *const f32;
    let mut i = 0;
    while i + 4 <= p {
        // SAFETY: pairs i..i+4 with i + 4 ≤ p: the low block y[1+i..5+i] lies in y[1..=p], the
        // partner block y[m−4−i..m−i] in y[m−p..m], disjoint from it (m − p > p); v[1+i..5+i]
        // lies in v[..=p] (asserted). Unaligned loads/stores; no reference into `y` is live.
        unsafe {
            let pa = yp.add(2 * (1 + i));
            let pb = yp.add(2 * (m - 4 - i));
            let a = _mm256_loadu_ps(pa);
            let b = rev(_mm256_loadu_ps(pb));
            let (lo, hi) = pairs(a, b, _mm256_loadu_ps(vp.add(2 * (1 + i))));
            _mm256_storeu_ps(pa, lo);
            _mm256_storeu_ps(pb, rev(hi));
        }
        i += 4;
    }
    for k in i..p {
        let (lo, hi) = y.split_at_mut(m - 1 - k);
        split_fwd_pair(&mut lo[1 + k], &mut hi[0], v[1 + k]);
    }
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
    let m = z.len();
    let p = (m - 1) / 2;
    assert!(
        x.len() > m && tw.len() > p,
        "split input or twiddles too short"
    );
    split_inv_ends(x, z);
    // sign bit in the imaginary lanes (1, 3): conjugation; in the real lanes: −c.im
    let conj = _mm256_castsi256_pd(_mm256_set_epi64x(i64::MIN, 0, i64::MIN, 0));
    let neg_re = _mm256_castsi256_pd(_mm256_set_epi64x(0, i64::MIN, 0, i64::MIN));
    let pairs = |xa: __m256d, xb: __m256d, w: __m256d| {
        let bc = _mm256_xor_pd(xb, conj);
        let f = _mm256_add_pd(xa, bc); // (xa.re + xb.re, xa.im − xb.im)
        let g = _mm256_sub_pd(xa, bc); // (xa.re − xb.re, xa.im + xb.im)
        let wr = _mm256_permute_pd::<0b0000>(w); // w.re, w.re
        let wi = _mm256_permute_pd::<0b1111>(w); // w.im, w.im
        let p1 = _mm256_mul_pd(wr, g); // (w.re·g.re, w.re·g.im)
        let p2 = _mm256_mul_pd(wi, _mm256_permute_pd::<0b0101>(g)); // (w.im·g.im, w.im·g.re)
        let c = _mm256_add_pd(p1, _mm256_xor_pd(p2, conj)); // c = conj(w)·G
        let t = _mm256_xor_pd(_mm256_permute_pd::<0b0101>(c), neg_re); // (−c.im, c.re)
        (
            _mm256_add_pd(f, t), // (f.re + t.re, f.im + t.im)
            // (f.re − t.re, (−f.im) − (−t.im) = t.im − f.im)
            _mm256_sub_pd(_mm256_xor_pd(f, conj), _mm256_xor_pd(t, conj)),
        )
    };
    let rev = |x: __m256d| _mm256_permute2f128_pd::<0x01>(x, x);
    let xp = x.as_ptr() as *const f64;
    let zp = z.as_mut_ptr() as *mut f64;
    let wp = tw.as_ptr() as *const f64;
    let mut i = 0;
    while i + 2 <= p {
        // SAFETY: pairs i..i+2 with i + 2 ≤ p: x[1+i..3+i] and x[m−2−i..m−i] lie in x[..m]
        // (x has more than m values, asserted), tw[1+i..3+i] in tw[..=p] (asserted); the low
        // output block z[1+i..3+i] lies in z[1..=p], the partner block z[m−2−i..m−i] in
        // z[m−p..m], disjoint from it (m − p > p). `x` and `z` are distinct borrows.
        // Unaligned loads/stores; no reference into `z` is live.
        unsafe {
            let xa = _mm256_loadu_pd(xp.add(2 * (1 + i)));
            let xb = rev(_mm256_loadu_pd(xp.add(2 * (m - 2 - i))));
            let (za, zb) = pairs(xa, xb, _mm256_loadu_pd(wp.add(2 * (1 + i))));
            _mm256_storeu_pd(zp.add(2 * (1 + i)), za);
            _mm256_storeu_pd(zp.add(2 * (m - 2 - i)), rev(zb));
        }
        i += 2;
    }
    for k in i..p {
        (z[1 + k], z[m - 1 - k]) = split_inv_pair(x[1 + k], x[m - 1 - k], tw[1 + k]);
    }
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
    let m = z.len();
    let p = (m - 1) / 2;
    assert!(
        x.len() > m && tw.len() > p,
        "split input or twiddles too short"
    );
    split_inv_ends(x, z);
    let (mn, zr) = (i32::MIN, 0);
    // sign bit in the imaginary (odd) lanes: conjugation; in the real (even) lanes: −c.im
    let conj = _mm256_castsi256_ps(_mm256_set_epi32(mn, zr, mn, zr, mn, zr, mn, zr));
    let neg_re = _mm256_castsi256_ps(_mm256_set_epi32(zr, mn, zr, mn, zr, mn, zr, mn));
    let pairs = |xa: __m256, xb: __m256, w: __m256| {
        let bc = _mm256_xor_ps(xb, conj);
        let f = _mm256_add_ps(xa, bc); // (xa.re + xb.re, xa.im − xb.im)
        let g = _mm256_sub_ps(xa, bc); // (xa.re − xb.re, xa.im + xb.im)
        let wr = _mm256_moveldup_ps(w); // w.re, w.re
        let wi = _mm256_movehdup_ps(w); // w.im, w.im
        let p1 = _mm256_mul_ps(wr, g); // (w.re·g.re, w.re·g.im)
        let p2 = _mm256_mul_ps(wi, _mm256_permute_ps::<0xB1>(g)); // (w.im·g.im, w.im·g.re)
        let c = _mm256_add_ps(p1, _mm256_xor_ps(p2, conj)); // c = conj(w)·G
        let t = _mm256_xor_ps(_mm256_permute_ps::<0xB1>(c), neg_re); // (−c.im, c.re)
        (
            _mm256_add_ps(f, t), // (f.re + t.re, f.im + t.im)
            // (f.re − t.re, (−f.im) − (−t.im) = t.im − f.im)
            _mm256_sub_ps(_mm256_xor_ps(f, conj), _mm256_xor_ps(t, conj)),
        )
    };
    let rev = |x: __m256| _mm256_castpd_ps(_mm256_permute4x64_pd::<0x1B>(_mm256_castps_pd(x)));
    let xp = x.as_ptr() as *const f32;
    let zp = z.as_mut_ptr() as *mut f32;
    let wp = tw.as_ptr() as *const f32;
    let mut i = 0;
    while i + 4 <= p {
        // SAFETY: pairs i..i+4 with i + 4 ≤ p: x[1+i..5+i] and x[m−4−i..m−i] lie in x[..m]
        // (x has more than m values, asserted), tw[1+i..5+i] in tw[..=p] (asserted); the low
        // output block z[1+i..5+i] lies in z[1..=p], the partner block z[m−4−i..m−i] in
        // z[m−p..m], disjoint from it (m − p > p). `x` and `z` are distinct borrows.
        // Unaligned loads/stores; no reference into `z` is live.
        unsafe {
            let xa = _mm256_loadu_ps(xp.add(2 * (1 + i)));
            let xb = rev(_mm256_loadu_ps(xp.add(2 * (m - 4 - i))));
            let (za, zb) = pairs(xa, xb, _mm256_loadu_ps(wp.add(2 * (1 + i))));
            _mm256_storeu_ps(zp.add(2 * (1 + i)), za);
            _mm256_storeu_ps(zp.add(2 * (m - 4 - i)), rev(zb));
        }
        i += 4;
    }
    for k in i..p {
        (z[1 + k], z[m - 1 - k]) = split_inv_pair(x[1 + k], x[m - 1 - k], tw[1 + k]);
    }
}
