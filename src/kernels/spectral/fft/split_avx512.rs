//! The forward real-FFT split step ([`super::split_fwd_body`]) with explicit AVX-512, f32 and
//! f64: a full vector of pairs per iteration (8 pairs of floats, 4 of doubles), the fewer than
//! a vector's worth of pairs left at the end one at a time ([`super::split_fwd_pair`]). (One
//! masked vector for that tail measured 5–15 ns slower than the scalar pairs at 64–136
//! points, and no faster above.) Where the half length is a multiple of two vectors (every
//! power of two from 16 complex values for floats, 8 for doubles), the pairs are taken on the
//! transform's own vector boundaries instead ([`split_fwd_f64_aligned`]), so that every load
//! matches one store of the transform's last pass; the fused real codelets of
//! [`super::pow2_avx512`] and [`super::pow2_avx512_f32`] run that form right after their stores.
//! The inverse split step has the same form ([`split_inv_f64_aligned`]) for the fused inverse
//! codelets, whose transform then loads exactly the vectors it stored.
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

/// The twiddles `w` = `v[k..k+4]` of four pairs spread for [`fwd_pairs_f64`]:
/// `(wr, wi)` with `wr = (v.re, v.re)` and `wi = (−v.im, v.im)` per pair. Register-only;
/// the spread twiddle table ([`spread_split_row`]) holds the same values.
#[inline(always)]
unsafe fn spread_f64(w: __m512d) -> (__m512d, __m512d) {
    // SAFETY: register-only arithmetic; callers run with AVX-512 F and DQ enabled.
    unsafe {
        // sign bit in the real lanes (0, 2, 4, 6)
        let m = i64::MIN;
        let neg_re = _mm512_castsi512_pd(_mm512_set_epi64(0, m, 0, m, 0, m, 0, m));
        (
            _mm512_permute_pd::<0x00>(w),                        // v.re, v.re
            _mm512_xor_pd(_mm512_permute_pd::<0xFF>(w), neg_re), // −v.im, v.im
        )
    }
}

/// The spread twiddle rows of one block of four pairs of the aligned forward split step of
/// doubles (`w` = `v[4r..4r+4]`): `(v.re, v.re)` and `(−v.im, v.im)` per pair, the values
/// [`spread_f64`] makes in registers (copies and a negation, so bit for bit the same).
/// A table of these rows, two per block, is what [`split_fwd_f64_aligned`] reads with
/// `SPREAD`.
pub(super) fn spread_split_row(w: &[Complex<f64>; 4]) -> ([f64; 8], [f64; 8]) {
    let (mut wr, mut wi) = ([0.0; 8], [0.0; 8]);
    for (j, v) in w.iter().enumerate() {
        wr[2 * j] = v.re;
        wr[2 * j + 1] = v.re;
        wi[2 * j] = -v.im;
        wi[2 * j + 1] = v.im;
    }
    (wr, wi)
}

/// Four pairs of the forward split step of doubles ([`split_fwd_pair`]'s operations in its
/// order, no FMA): `a` holds `Z[k..k+4]`, `b` the partners `Z[m−k−j]` (j = 0..4) in that order,
/// `(wr, wi)` the twiddles `v[k..k+4]` spread ([`spread_f64`]); returns `(X[k..k+4], X[m−k−j]
/// for j = 0..4)`. Register-only; inlined into the AVX-512 F/DQ split steps below only.
#[inline(always)]
unsafe fn fwd_pairs_f64(a: __m512d, b: __m512d, wr: __m512d, wi: __m512d) -> (__m512d, __m512d) {
    // SAFETY: register-only arithmetic; callers run with AVX-512 F and DQ enabled.
    unsafe {
        let half = _mm512_set1_pd(0.5);
        // sign bit in the imaginary lanes (1, 3, 5, 7): conjugation
        let m = i64::MIN;
        let conj = _mm512_castsi512_pd(_mm512_set_epi64(m, 0, m, 0, m, 0, m, 0));
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
    }
}

/// The forward split step of doubles, 4 pairs a vector.
///
/// # Safety
/// The CPU must support AVX-512 F and DQ (the caller checks the detected level).
#[target_feature(enable = "avx512f,avx512dq")]
pub(super) unsafe fn split_fwd_f64(y: &mut [Complex<f64>], v: &[Complex<f64>]) {
    let m = y.len() - 1;
    if m >= 8 && m.is_multiple_of(8) {
        assert!(v.len() >= m / 2, "split twiddles too short");
        let yp = y.as_mut_ptr() as *mut f64;
        // SAFETY: y holds m + 1 complex values (in place: z = y) and v at least m/2 (asserted);
        // AVX-512 F/DQ is this function's own contract.
        unsafe { split_fwd_f64_aligned::<false>(yp, yp, m, v.as_ptr() as *const f64) };
        return;
    }
    split_fwd_ends(y);
    let p = (m - 1) / 2;
    assert!(v.len() > p, "split twiddles too short");
    if p == 0 {
        return;
    }
    // reverses the order of the four complex values of a vector
    let full = _mm512_set_epi64(1, 0, 3, 2, 5, 4, 7, 6);
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
            let (wr, wi) = spread_f64(_mm512_loadu_pd(vp.add(2 * (1 + i))));
            let (lo, hi) = fwd_pairs_f64(a, b, wr, wi);
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

/// The forward split step of doubles for `m` a multiple of 8, on the transform's own vectors:
/// vector `r` holds `Z[4r..4r+4]`, and its partners `Z[m−4r−j]` (j = 0..4) come from vectors
/// `R−1−r` and `(R−r) mod R` (`R = m/4`) through one two-source permute. Every load then reads
/// exactly what one 4-value store of the transform's last pass wrote, which the processor
/// forwards from its store buffer; the blocks `Z[1+i..5+i]` of the general loop straddle two
/// such stores and wait for them to reach the cache (at 64 points that made the split take as
/// long as the transform). Pairs `4r..4r+4`, r < R/2, give the bins `4r..4r+4` and their
/// partner bins, which are stored once the next pair block completes their vector. Bins 0, m/2
/// and m take the end formulas of [`split_fwd_ends`]; every bin equals the general loop's bit for
/// bit (the same operations per pair). The transform's values are read from `z` and the bins
/// written to `y`: in place with `z = y`, or from an aligned scratch into a caller's output.
///
/// The twiddles `v` are the split step's `v[k]` (`SPREAD` false; spread in registers) or, with
/// `SPREAD`, a table of their spread rows ([`spread_split_row`], rows `2r` and `2r + 1` for
/// block r), which saves three of the ~17 vector operations of a block at the cost of twice the
/// table's bytes (the forward plans of [`super::pow2_avx512`] hold such a table).
///
/// # Safety
/// AVX-512 F/DQ; `z` readable for `m` complex values, `y` writable for `m + 1`, either the same
/// pointer as `z` or disjoint from it; `v` readable for `m/2` complex values (for `2m` doubles
/// with `SPREAD`); `m ≥ 8` a multiple of 8.
#[inline(always)]
pub(super) unsafe fn split_fwd_f64_aligned<const SPREAD: bool>(
    z: *const f64,
    y: *mut f64,
    m: usize,
    v: *const f64,
) {
    let r_all = m / 4;
    // SAFETY: vectors 0..R (complex 4r..4r+4 < m) are read from z and written to y; in place
    // (z = y) each is loaded before it is stored: pair block r reads vectors r, R−1−r and R−r
    // (r ≥ 1) or 0, and stores vector r and (r ≥ 1) vector R−r; later blocks r' > r read
    // vectors r' < R/2 ≤ R−r' < R−r. Vector R−r of block r ≥ 1 is block r−1's vector
    // R−1−(r−1), kept in a register from that block (read before anything stored it). Vector
    // R/2 (bin m/2) is read first and stored last; bin m (complex m of y) is stored at the end.
    // v[4r..4r+4] with 4r + 4 ≤ m/2, or with SPREAD doubles 16r..16r+16 ≤ 2m.
    unsafe {
        let neg = i64::MIN;
        let conj = _mm512_castsi512_pd(_mm512_set_epi64(neg, 0, neg, 0, neg, 0, neg, 0));
        // (lane 0 of `b`, lanes 3, 2, 1 of `a`): the partners of a block from vectors a = R−1−r
        // and b = R−r; the same pattern puts partner bins back in order
        let rev = _mm512_set_epi64(3, 2, 5, 4, 7, 6, 9, 8);
        let v0 = _mm512_loadu_pd(z);
        let mid = _mm512_loadu_pd(z.add(2 * (m / 2)));
        let z0 = _mm512_castpd512_pd128(v0);
        let (re, im) = (_mm_cvtsd_f64(z0), _mm_cvtsd_f64(_mm_unpackhi_pd(z0, z0)));
        let mut prev = _mm512_setzero_pd();
        // vector R−r of the next block: this block's R−1−r
        let mut next_b = v0;
        for r in 0..r_all / 2 {
            let a = if r == 0 {
                v0
            } else {
                _mm512_loadu_pd(z.add(8 * r))
            };
            let pa = _mm512_loadu_pd(z.add(8 * (r_all - 1 - r)));
            let b = _mm512_permutex2var_pd(pa, rev, next_b);
            next_b = pa;
            let (wr, wi) = if SPREAD {
                (
                    _mm512_loadu_pd(v.add(16 * r)),
                    _mm512_loadu_pd(v.add(16 * r + 8)),
                )
            } else {
                spread_f64(_mm512_loadu_pd(v.add(8 * r)))
            };
            let (mut lo, hi) = fwd_pairs_f64(a, b, wr, wi);
            if r == 0 {
                // bin 0: (Z₀.re + Z₀.im, 0)
                let e = _mm512_castpd128_pd512(_mm_set_pd(0.0, re + im));
                lo = _mm512_mask_blend_pd(0b11, lo, e);
            } else {
                // bins 4(R−r) + j: lane 0 from pair 4r, lanes 1..4 from pairs 4(r−1) + 3, 2, 1
                _mm512_storeu_pd(
                    y.add(8 * (r_all - r)),
                    _mm512_permutex2var_pd(prev, rev, hi),
                );
            }
            _mm512_storeu_pd(y.add(8 * r), lo);
            prev = hi;
        }
        // bins m/2 + j: lanes 1..4 from pairs m/2 − 1, −2, −3; lane 0 is conj(Z[m/2])
        let out = _mm512_permutex2var_pd(prev, rev, prev);
        let out = _mm512_mask_blend_pd(0b11, out, _mm512_xor_pd(mid, conj));
        _mm512_storeu_pd(y.add(2 * (m / 2)), out);
        // bin m: (Z₀.re − Z₀.im, 0)
        *y.add(2 * m) = re - im;
        *y.add(2 * m + 1) = 0.0;
    }
}

/// Four pairs of the inverse split step of doubles ([`super::split_inv_pair`]'s operations in
/// its order, no FMA; `x − y` computed as `x + (−y)`, which IEEE arithmetic defines to be the
/// same): `xa` holds `X[k..k+4]`, `xb` the partners `X[m−k−j]` (j = 0..4), `w` the twiddles
/// `w^k..w^{k+4}`; returns `(Z'[k..k+4], Z'[m−k−j] for j = 0..4)`. Register-only.
#[inline(always)]
unsafe fn inv_pairs_f64(xa: __m512d, xb: __m512d, w: __m512d) -> (__m512d, __m512d) {
    // SAFETY: register-only arithmetic; callers run with AVX-512 F and DQ enabled.
    unsafe {
        let m = i64::MIN;
        // sign bits in the imaginary lanes (conjugation) and in the real lanes
        let conj = _mm512_castsi512_pd(_mm512_set_epi64(m, 0, m, 0, m, 0, m, 0));
        let neg_re = _mm512_castsi512_pd(_mm512_set_epi64(0, m, 0, m, 0, m, 0, m));
        let xbc = _mm512_xor_pd(xb, conj);
        let f = _mm512_add_pd(xa, xbc); // (xa.re + xb.re, xa.im − xb.im)
        let g = _mm512_sub_pd(xa, xbc); // (xa.re − xb.re, xa.im + xb.im)
        let wr = _mm512_permute_pd::<0x00>(w);
        let wi = _mm512_permute_pd::<0xFF>(w);
        let t1 = _mm512_mul_pd(wr, g); // (w.re·g.re, w.re·g.im)
        let t2 = _mm512_mul_pd(wi, _mm512_permute_pd::<0x55>(g)); // (w.im·g.im, w.im·g.re)
        let c = _mm512_add_pd(t1, _mm512_xor_pd(t2, conj)); // conj(w)·G
        let sc = _mm512_permute_pd::<0x55>(c); // (c.im, c.re)
        let t = _mm512_xor_pd(sc, neg_re); // i·c = (−c.im, c.re)
        (
            _mm512_add_pd(f, t),                       // (f.re + t.re, f.im + t.im)
            _mm512_add_pd(_mm512_xor_pd(f, conj), sc), // (f.re − t.re, t.im − f.im)
        )
    }
}

/// The inverse split step of doubles for `m` a multiple of 8, writing `Z'` in the vectors the
/// transform that follows reads: pair block `r < R/2` (`R = m/4`) reads `X[4r..4r+4]` and the
/// partners `X[m−4r−j]`, stores `Z'[4r..4r+4]`, and completes vector `R−r` of the partner half
/// with the previous block, as [`split_fwd_f64_aligned`]; `Z'[0]` and `Z'[m/2]` take the end
/// formulas of [`super::split_inv_ends`]. Bit for bit the scalar step.
///
/// # Safety
/// AVX-512 F/DQ; `x` readable for `m + 1` complex values, `z` writable for `m`, disjoint from
/// `x`; `tw` readable for `m/2`; `m ≥ 8` a multiple of 8.
#[inline(always)]
pub(super) unsafe fn split_inv_f64_aligned(x: *const f64, z: *mut f64, m: usize, tw: *const f64) {
    let r_all = m / 4;
    // SAFETY: block r reads x complex 4r..4r+4 and m−4r−3..m−4r+1 (≤ m), tw 4r..4r+4 < m/2, and
    // writes z vectors r and R−r (< R, complex < m); the last store writes vector R/2.
    unsafe {
        // reverses the order of the four complex values of a vector
        let full = _mm512_set_epi64(1, 0, 3, 2, 5, 4, 7, 6);
        let rev = _mm512_set_epi64(3, 2, 5, 4, 7, 6, 9, 8);
        let mut prev = _mm512_setzero_pd();
        for r in 0..r_all / 2 {
            let xa = _mm512_loadu_pd(x.add(8 * r));
            let xb = _mm512_permutexvar_pd(full, _mm512_loadu_pd(x.add(2 * (m - 4 * r - 3))));
            let (mut za, zb) = inv_pairs_f64(xa, xb, _mm512_loadu_pd(tw.add(8 * r)));
            if r == 0 {
                // Z'[0] = (X₀.re + X_m.re, X₀.re − X_m.re)
                let (x0, xm) = (*x, *x.add(2 * m));
                let e = _mm512_castpd128_pd512(_mm_set_pd(x0 - xm, x0 + xm));
                za = _mm512_mask_blend_pd(0b11, za, e);
            } else {
                _mm512_storeu_pd(
                    z.add(8 * (r_all - r)),
                    _mm512_permutex2var_pd(prev, rev, zb),
                );
            }
            _mm512_storeu_pd(z.add(8 * r), za);
            prev = zb;
        }
        // Z'[m/2] = (2·c.re, −(2·c.im)), c = X[m/2]
        let (cr, ci) = (*x.add(m), *x.add(m + 1));
        let e = _mm512_castpd128_pd512(_mm_set_pd(-(2.0 * ci), 2.0 * cr));
        let out = _mm512_permutex2var_pd(prev, rev, prev);
        _mm512_storeu_pd(z.add(2 * (m / 2)), _mm512_mask_blend_pd(0b11, out, e));
    }
}

/// Eight pairs of the inverse split step of floats, as [`inv_pairs_f64`].
#[inline(always)]
unsafe fn inv_pairs_f32(xa: __m512, xb: __m512, w: __m512) -> (__m512, __m512) {
    // SAFETY: register-only arithmetic; callers run with AVX-512 F and DQ enabled.
    unsafe {
        let (mn, z) = (i32::MIN, 0);
        let conj = _mm512_castsi512_ps(_mm512_set_epi32(
            mn, z, mn, z, mn, z, mn, z, mn, z, mn, z, mn, z, mn, z,
        ));
        let neg_re = _mm512_castsi512_ps(_mm512_set_epi32(
            z, mn, z, mn, z, mn, z, mn, z, mn, z, mn, z, mn, z, mn,
        ));
        let xbc = _mm512_xor_ps(xb, conj);
        let f = _mm512_add_ps(xa, xbc);
        let g = _mm512_sub_ps(xa, xbc);
        let wr = _mm512_moveldup_ps(w);
        let wi = _mm512_movehdup_ps(w);
        let t1 = _mm512_mul_ps(wr, g);
        let t2 = _mm512_mul_ps(wi, _mm512_permute_ps::<0xB1>(g));
        let c = _mm512_add_ps(t1, _mm512_xor_ps(t2, conj));
        let sc = _mm512_permute_ps::<0xB1>(c);
        let t = _mm512_xor_ps(sc, neg_re);
        (
            _mm512_add_ps(f, t),
            _mm512_add_ps(_mm512_xor_ps(f, conj), sc),
        )
    }
}

/// The inverse split step of floats for `m` a multiple of 16, as [`split_inv_f64_aligned`] with
/// vectors of 8 complex values.
///
/// # Safety
/// AVX-512 F/DQ; `x` readable for `m + 1` complex values, `z` writable for `m`, disjoint from
/// `x`; `tw` readable for `m/2`; `m ≥ 16` a multiple of 16.
#[inline(always)]
pub(super) unsafe fn split_inv_f32_aligned(x: *const f32, z: *mut f32, m: usize, tw: *const f32) {
    let r_all = m / 8;
    // SAFETY: as in `split_inv_f64_aligned`, 8 complex values (16 floats) a vector.
    unsafe {
        let full = _mm512_set_epi32(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
        let rev = _mm512_set_epi32(3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 17, 16);
        let mut prev = _mm512_setzero_ps();
        for r in 0..r_all / 2 {
            let xa = _mm512_loadu_ps(x.add(16 * r));
            let xb = _mm512_permutexvar_ps(full, _mm512_loadu_ps(x.add(2 * (m - 8 * r - 7))));
            let (mut za, zb) = inv_pairs_f32(xa, xb, _mm512_loadu_ps(tw.add(16 * r)));
            if r == 0 {
                let (x0, xm) = (*x, *x.add(2 * m));
                let e = _mm512_castps128_ps512(_mm_set_ps(0.0, 0.0, x0 - xm, x0 + xm));
                za = _mm512_mask_blend_ps(0b11, za, e);
            } else {
                _mm512_storeu_ps(
                    z.add(16 * (r_all - r)),
                    _mm512_permutex2var_ps(prev, rev, zb),
                );
            }
            _mm512_storeu_ps(z.add(16 * r), za);
            prev = zb;
        }
        let (cr, ci) = (*x.add(m), *x.add(m + 1));
        let e = _mm512_castps128_ps512(_mm_set_ps(0.0, 0.0, -(2.0 * ci), 2.0 * cr));
        let out = _mm512_permutex2var_ps(prev, rev, prev);
        _mm512_storeu_ps(z.add(2 * (m / 2)), _mm512_mask_blend_ps(0b11, out, e));
    }
}

/// Eight pairs of the forward split step of floats, as [`fwd_pairs_f64`]: `a` holds
/// `Z[k..k+8]`, `b` the partners `Z[m−k−j]` (j = 0..8), `w` the twiddles `v[k..k+8]`; returns
/// `(X[k..k+8], X[m−k−j] for j = 0..8)`.
#[inline(always)]
unsafe fn fwd_pairs_f32(a: __m512, b: __m512, w: __m512) -> (__m512, __m512) {
    // SAFETY: register-only arithmetic; callers run with AVX-512 F and DQ enabled.
    unsafe {
        let half = _mm512_set1_ps(0.5);
        let (mn, z) = (i32::MIN, 0);
        // sign bit in the imaginary (odd) lanes: conjugation; in the real (even) lanes: −v.im
        let conj = _mm512_castsi512_ps(_mm512_set_epi32(
            mn, z, mn, z, mn, z, mn, z, mn, z, mn, z, mn, z, mn, z,
        ));
        let neg_re = _mm512_castsi512_ps(_mm512_set_epi32(
            z, mn, z, mn, z, mn, z, mn, z, mn, z, mn, z, mn, z, mn,
        ));
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
    }
}

/// The forward split step of floats for `m` a multiple of 16 on the transform's own vectors
/// of 8 complex values, as [`split_fwd_f64_aligned`] (`R = m/8`; bit for bit the general
/// loop's bins).
///
/// # Safety
/// AVX-512 F/DQ; `z` readable for `m` complex values, `y` writable for `m + 1`, either the same
/// pointer as `z` or disjoint from it; `v` readable for `m/2`; `m ≥ 16` a multiple of 16.
#[inline(always)]
pub(super) unsafe fn split_fwd_f32_aligned(z: *const f32, y: *mut f32, m: usize, v: *const f32) {
    let r_all = m / 8;
    // SAFETY: as in `split_fwd_f64_aligned`, with vectors of 8 complex values (16 floats):
    // block r reads vectors r, R−1−r and R−r (or 0) before storing vector r and (r ≥ 1) R−r;
    // vector R/2 is read first and stored last; v[8r..8r+8] with 8r + 8 ≤ m/2.
    unsafe {
        let neg = i32::MIN;
        let conj = _mm512_castsi512_ps(_mm512_set_epi32(
            neg, 0, neg, 0, neg, 0, neg, 0, neg, 0, neg, 0, neg, 0, neg, 0,
        ));
        // (lane 0 of `b`, lanes 7 … 1 of `a`)
        let rev = _mm512_set_epi32(3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 17, 16);
        let v0 = _mm512_loadu_ps(z);
        let mid = _mm512_loadu_ps(z.add(2 * (m / 2)));
        let z0 = _mm512_castps512_ps128(v0);
        let (re, im) = (_mm_cvtss_f32(z0), _mm_cvtss_f32(_mm_movehdup_ps(z0)));
        let mut prev = _mm512_setzero_ps();
        for r in 0..r_all / 2 {
            let (a, pb) = if r == 0 {
                (v0, v0)
            } else {
                (
                    _mm512_loadu_ps(z.add(16 * r)),
                    _mm512_loadu_ps(z.add(16 * (r_all - r))),
                )
            };
            let pa = _mm512_loadu_ps(z.add(16 * (r_all - 1 - r)));
            let b = _mm512_permutex2var_ps(pa, rev, pb);
            let (mut lo, hi) = fwd_pairs_f32(a, b, _mm512_loadu_ps(v.add(16 * r)));
            if r == 0 {
                // bin 0: (Z₀.re + Z₀.im, 0)
                let e = _mm512_castps128_ps512(_mm_set_ps(0.0, 0.0, 0.0, re + im));
                lo = _mm512_mask_blend_ps(0b11, lo, e);
            } else {
                _mm512_storeu_ps(
                    y.add(16 * (r_all - r)),
                    _mm512_permutex2var_ps(prev, rev, hi),
                );
            }
            _mm512_storeu_ps(y.add(16 * r), lo);
            prev = hi;
        }
        let out = _mm512_permutex2var_ps(prev, rev, prev);
        let out = _mm512_mask_blend_ps(0b11, out, _mm512_xor_ps(mid, conj));
        _mm512_storeu_ps(y.add(2 * (m / 2)), out);
        // bin m: (Z₀.re − Z₀.im, 0)
        *y.add(2 * m) = re - im;
        *y.add(2 * m + 1) = 0.0;
    }
}

/// The largest half length `m` whose double split step reads its twiddles spread (see
/// [`split_fwd_f64_aligned`]): side by side against reading `v` as it is, the spread table
/// measured 4–5 % faster for whole real transforms of 256 and 1024 points and neutral at 8192
/// to 32768, but 3–8 % slower at 65536, where table (512 KiB) and data no longer fit the L2
/// cache together.
pub(super) const SPREAD_MAX: usize = 8192;

/// [`split_fwd_f64_aligned`] compiled for AVX-512 F/DQ (the double plans' `split_forward`),
/// reading `v` spread for `m ≤` [`SPREAD_MAX`] and as it is above.
///
/// # Safety
/// That of [`split_fwd_f64_aligned`], with `v` in the layout this `m` takes; the CPU must
/// support AVX-512 F and DQ.
#[target_feature(enable = "avx512f,avx512dq")]
pub(super) unsafe fn split_fwd_f64_entry(z: *const f64, y: *mut f64, m: usize, v: *const f64) {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        if m <= SPREAD_MAX {
            split_fwd_f64_aligned::<true>(z, y, m, v)
        } else {
            split_fwd_f64_aligned::<false>(z, y, m, v)
        }
    }
}

/// [`split_fwd_f32_aligned`] compiled for AVX-512 F/DQ (the float plans' `split_forward`).
///
/// # Safety
/// That of [`split_fwd_f32_aligned`]; the CPU must support AVX-512 F and DQ.
#[target_feature(enable = "avx512f,avx512dq")]
pub(super) unsafe fn split_fwd_f32_entry(z: *const f32, y: *mut f32, m: usize, v: *const f32) {
    // SAFETY: the caller's contract, passed on.
    unsafe { split_fwd_f32_aligned(z, y, m, v) }
}

/// The forward split step of floats, 8 pairs a vector.
///
/// # Safety
/// The CPU must support AVX-512 F and DQ (the caller checks the detected level).
#[target_feature(enable = "avx512f,avx512dq")]
pub(super) unsafe fn split_fwd_f32(y: &mut [Complex<f32>], v: &[Complex<f32>]) {
    let m = y.len() - 1;
    if m >= 16 && m.is_multiple_of(16) {
        assert!(v.len() >= m / 2, "split twiddles too short");
        let yp = y.as_mut_ptr() as *mut f32;
        // SAFETY: y holds m + 1 complex values (in place: z = y) and v at least m/2 (asserted);
        // AVX-512 F/DQ is this function's own contract.
        unsafe { split_fwd_f32_aligned(yp, yp, m, v.as_ptr() as *const f32) };
        return;
    }
    split_fwd_ends(y);
    let p = (m - 1) / 2;
    assert!(v.len() > p, "split twiddles too short");
    if p == 0 {
        return;
    }
    // reverses the order of the eight complex values of a vector
    let full = _mm512_set_epi32(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
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
            let (lo, hi) = fwd_pairs_f32(a, b, _mm512_loadu_ps(vp.add(2 * (1 + i))));
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
