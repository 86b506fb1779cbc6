//! The real-FFT split steps with explicit AVX-512, f32 and f64, written once over the vector
//! type ([`Lanes`]: [`F64x8`], four complex doubles, and [`F32x16`], eight complex floats).
//!
//! - The forward step in place ([`split_fwd_general`], the AVX-512 level's `split_fwd` for every
//!   length): a full vector of pairs per iteration, the fewer than a vector's worth of pairs
//!   left at the end one at a time ([`super::split_pair::split_fwd_pair`]; a masked vector was
//!   slower).
//! - Where the half length is a multiple of two vectors (every power of two from 16 complex
//!   values for floats, 8 for doubles), the pairs are taken on the transform's own vector
//!   boundaries instead ([`split_fwd_aligned`]), so that every load matches one store of the
//!   transform's last pass; the fused real codelets of [`super::pow2_avx512`] and
//!   [`super::pow2_avx512_f32`] run that form right after their stores, and their forward plans
//!   run it after the passes ([`split_fwd_f64_entry`], [`split_fwd_f32_entry`]).
//! - The inverse step has the same form ([`split_inv_aligned`]) for the fused inverse codelets,
//!   whose transform then loads exactly the vectors it stored.
//!
//! Every vector computes exactly the operations of [`super::split_pair::split_fwd_pair`] (or
//! [`super::split_pair::split_inv_pair`]) in the same order (no FMA), so the results are bit-identical to
//! the scalar body at every length. The forward twiddles `v[k]` enter as `wr = (v.re, v.re)`,
//! `wi = (−v.im, v.im)`, so `v·D = wr·D + wi·swap(D)` (negation and the products' signs are
//! exact, so this equals `v.re·d.re − v.im·d.im`, `v.re·d.im + v.im·d.re` bit for bit). They are
//! spread in registers from `v` as it is, or read from a table of the spread rows
//! ([`split_table_rows`]) that the plans keep up to [`SPREAD_MAX`] points: that saves three of
//! the ~17 vector operations of a block, but doubles the table's bytes, which is what this pass
//! is bound by at large n.

use super::super::Complex;
use super::split_pair::{split_fwd_ends, split_fwd_pair};
use super::FftFloat;
use crate::kernels::Float;
use std::arch::x86_64::*;

/// A zmm of complex values of one element type and the operations the split steps use.
///
/// # Safety (of the methods)
/// AVX-512 F/DQ intrinsics: only called, inlined, from the `#[target_feature(enable =
/// "avx512f,avx512dq")]` entry points below or from the codelets of the AVX-512 plans.
/// Register-only except `load` / `store`, which read / write one vector's worth of elements
/// (`2·PAIRS`) at the pointer, any alignment of the element type.
pub(super) trait Lanes: Copy {
    type E: FftFloat;
    /// Complex values (so pairs of the split step) per vector.
    const PAIRS: usize;
    unsafe fn load(p: *const Self::E) -> Self;
    unsafe fn store(p: *mut Self::E, v: Self);
    unsafe fn zero() -> Self;
    /// `(re, im)` in complex 0, zeros elsewhere.
    unsafe fn low(re: Self::E, im: Self::E) -> Self;
    /// Complex 0 from `a`, the others from `b`.
    unsafe fn blend_low(b: Self, a: Self) -> Self;
    /// The complex values in reverse order.
    unsafe fn rev(v: Self) -> Self;
    /// (complex 0 of `b`, complexes `PAIRS−1 … 1` of `a`): the partners of a block from the
    /// vectors `a` = R−1−r and `b` = R−r; the same pattern puts partner bins back in order.
    unsafe fn partners(a: Self, b: Self) -> Self;
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

/// Four complex doubles.
#[derive(Clone, Copy)]
pub(super) struct F64x8(pub(super) __m512d);

impl Lanes for F64x8 {
    type E = f64;
    const PAIRS: usize = 4;
    #[inline(always)]
    unsafe fn load(p: *const f64) -> Self {
        // SAFETY: 8 readable doubles at `p` (the caller's contract).
        F64x8(unsafe { _mm512_loadu_pd(p) })
    }
    #[inline(always)]
    unsafe fn store(p: *mut f64, v: Self) {
        // SAFETY: 8 writable doubles at `p` (the caller's contract).
        unsafe { _mm512_storeu_pd(p, v.0) }
    }
    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: register-only.
        F64x8(unsafe { _mm512_setzero_pd() })
    }
    #[inline(always)]
    unsafe fn low(re: f64, im: f64) -> Self {
        // SAFETY: register-only.
        F64x8(unsafe { _mm512_castpd128_pd512(_mm_set_pd(im, re)) })
    }
    #[inline(always)]
    unsafe fn blend_low(b: Self, a: Self) -> Self {
        // SAFETY: register-only.
        F64x8(unsafe { _mm512_mask_blend_pd(0b11, b.0, a.0) })
    }
    #[inline(always)]
    unsafe fn rev(v: Self) -> Self {
        // SAFETY: register-only; AVX-512F is enabled for this function's callers.
        F64x8(unsafe { _mm512_permutexvar_pd(_mm512_set_epi64(1, 0, 3, 2, 5, 4, 7, 6), v.0) })
    }
    #[inline(always)]
    unsafe fn partners(a: Self, b: Self) -> Self {
        // SAFETY: register-only; AVX-512F is enabled for this function's callers.
        let idx = unsafe { _mm512_set_epi64(3, 2, 5, 4, 7, 6, 9, 8) };
        // SAFETY: register-only.
        F64x8(unsafe { _mm512_permutex2var_pd(a.0, idx, b.0) })
    }
    #[inline(always)]
    unsafe fn swap(v: Self) -> Self {
        // SAFETY: register-only.
        F64x8(unsafe { _mm512_permute_pd::<0x55>(v.0) })
    }
    #[inline(always)]
    unsafe fn dup_re(v: Self) -> Self {
        // SAFETY: register-only.
        F64x8(unsafe { _mm512_permute_pd::<0x00>(v.0) })
    }
    #[inline(always)]
    unsafe fn dup_im(v: Self) -> Self {
        // SAFETY: register-only.
        F64x8(unsafe { _mm512_permute_pd::<0xFF>(v.0) })
    }
    #[inline(always)]
    unsafe fn add(a: Self, b: Self) -> Self {
        // SAFETY: register-only.
        F64x8(unsafe { _mm512_add_pd(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn sub(a: Self, b: Self) -> Self {
        // SAFETY: register-only.
        F64x8(unsafe { _mm512_sub_pd(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn mul(a: Self, b: Self) -> Self {
        // SAFETY: register-only.
        F64x8(unsafe { _mm512_mul_pd(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: register-only.
        F64x8(unsafe { _mm512_xor_pd(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn splat(x: f64) -> Self {
        // SAFETY: register-only.
        F64x8(unsafe { _mm512_set1_pd(x) })
    }
    #[inline(always)]
    unsafe fn sign(im: bool) -> Self {
        let (o, e) = if im { (i64::MIN, 0) } else { (0, i64::MIN) };
        // SAFETY: register-only.
        F64x8(unsafe { _mm512_castsi512_pd(_mm512_set_epi64(o, e, o, e, o, e, o, e)) })
    }
}

/// Eight complex floats.
#[derive(Clone, Copy)]
pub(super) struct F32x16(pub(super) __m512);

impl Lanes for F32x16 {
    type E = f32;
    const PAIRS: usize = 8;
    #[inline(always)]
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: 16 readable floats at `p` (the caller's contract).
        F32x16(unsafe { _mm512_loadu_ps(p) })
    }
    #[inline(always)]
    unsafe fn store(p: *mut f32, v: Self) {
        // SAFETY: 16 writable floats at `p` (the caller's contract).
        unsafe { _mm512_storeu_ps(p, v.0) }
    }
    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: register-only.
        F32x16(unsafe { _mm512_setzero_ps() })
    }
    #[inline(always)]
    unsafe fn low(re: f32, im: f32) -> Self {
        // SAFETY: register-only.
        F32x16(unsafe { _mm512_castps128_ps512(_mm_set_ps(0.0, 0.0, im, re)) })
    }
    #[inline(always)]
    unsafe fn blend_low(b: Self, a: Self) -> Self {
        // SAFETY: register-only.
        F32x16(unsafe { _mm512_mask_blend_ps(0b11, b.0, a.0) })
    }
    #[inline(always)]
    unsafe fn rev(v: Self) -> Self {
        // SAFETY: register-only; AVX-512F is enabled for this function's callers.
        let idx = unsafe { _mm512_set_epi32(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14) };
        // SAFETY: register-only.
        F32x16(unsafe { _mm512_permutexvar_ps(idx, v.0) })
    }
    #[inline(always)]
    unsafe fn partners(a: Self, b: Self) -> Self {
        // SAFETY: register-only; AVX-512F is enabled for this function's callers.
        let idx =
            unsafe { _mm512_set_epi32(3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 17, 16) };
        // SAFETY: register-only.
        F32x16(unsafe { _mm512_permutex2var_ps(a.0, idx, b.0) })
    }
    #[inline(always)]
    unsafe fn swap(v: Self) -> Self {
        // SAFETY: register-only.
        F32x16(unsafe { _mm512_permute_ps::<0xB1>(v.0) })
    }
    #[inline(always)]
    unsafe fn dup_re(v: Self) -> Self {
        // SAFETY: register-only.
        F32x16(unsafe { _mm512_moveldup_ps(v.0) })
    }
    #[inline(always)]
    unsafe fn dup_im(v: Self) -> Self {
        // SAFETY: register-only.
        F32x16(unsafe { _mm512_movehdup_ps(v.0) })
    }
    #[inline(always)]
    unsafe fn add(a: Self, b: Self) -> Self {
        // SAFETY: register-only.
        F32x16(unsafe { _mm512_add_ps(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn sub(a: Self, b: Self) -> Self {
        // SAFETY: register-only.
        F32x16(unsafe { _mm512_sub_ps(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn mul(a: Self, b: Self) -> Self {
        // SAFETY: register-only.
        F32x16(unsafe { _mm512_mul_ps(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: register-only.
        F32x16(unsafe { _mm512_xor_ps(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn splat(x: f64) -> Self {
        // SAFETY: register-only.
        F32x16(unsafe { _mm512_set1_ps(x as f32) })
    }
    #[inline(always)]
    unsafe fn sign(im: bool) -> Self {
        let (o, e) = if im { (i32::MIN, 0) } else { (0, i32::MIN) };
        // SAFETY: register-only.
        F32x16(unsafe {
            _mm512_castsi512_ps(_mm512_set_epi32(
                o, e, o, e, o, e, o, e, o, e, o, e, o, e, o, e,
            ))
        })
    }
}

/// The twiddles `w` = `v[k..k+PAIRS]` spread for [`fwd_pairs`]: `(wr, wi)` with
/// `wr = (v.re, v.re)` and `wi = (−v.im, v.im)` per pair; the rows of [`split_table_rows`]
/// hold the same values. Register-only.
#[inline(always)]
unsafe fn spread<L: Lanes>(w: L) -> (L, L) {
    // SAFETY: register-only arithmetic (the trait's contract).
    unsafe { (L::dup_re(w), L::xor(L::dup_im(w), L::sign(false))) }
}

/// The split twiddles `v` (`v[k]`, `k < m/2`, for a half length `m`) as the rows of `L`
/// elements (one vector) that a plan of `m` keeps for [`split_fwd_plan`]: for `m ≤`
/// [`SPREAD_MAX`] two rows per block of `L/2` pairs, `(v.re, v.re)` and `(−v.im, v.im)` per pair
/// (the values [`spread`] makes in registers: copies and a negation, so bit for bit the same),
/// which [`split_fwd_aligned`] reads with `SPREAD`; above, `v` as it is, `L/2` values a row.
pub(super) fn split_table_rows<E: FftFloat, const L: usize>(v: &[Complex<E>]) -> Vec<[E; L]> {
    let p = L / 2;
    assert!(v.len().is_multiple_of(p), "whole vectors of split twiddles");
    let spread = 2 * v.len() <= SPREAD_MAX;
    let mut rows = Vec::with_capacity(if spread { 2 } else { 1 } * v.len() / p);
    for w in v.chunks_exact(p) {
        if spread {
            let (mut wr, mut wi) = ([E::ZERO; L], [E::ZERO; L]);
            for (j, v) in w.iter().enumerate() {
                wr[2 * j] = v.re;
                wr[2 * j + 1] = v.re;
                wi[2 * j] = -v.im;
                wi[2 * j + 1] = v.im;
            }
            rows.extend([wr, wi]);
        } else {
            rows.push(core::array::from_fn(|i| {
                if i % 2 == 0 {
                    w[i / 2].re
                } else {
                    w[i / 2].im
                }
            }));
        }
    }
    rows
}

/// `PAIRS` pairs of the forward split step ([`split_fwd_pair`]'s operations in its order, no
/// FMA): `a` holds `Z[k..k+P]`, `b` the partners `Z[m−k−j]` (j = 0..P) in that order,
/// `(wr, wi)` the twiddles `v[k..k+P]` spread ([`spread`]); returns `(X[k..k+P], X[m−k−j] for
/// j = 0..P)`. Register-only.
#[inline(always)]
unsafe fn fwd_pairs<L: Lanes>(a: L, b: L, wr: L, wi: L) -> (L, L) {
    // SAFETY: register-only arithmetic (the trait's contract).
    unsafe {
        let conj = L::sign(true);
        let bc = L::xor(b, conj);
        let s = L::add(a, bc); // (a.re + b.re, a.im − b.im)
        let d = L::sub(a, bc); // (a.re − b.re, a.im + b.im)
        let t1 = L::mul(wr, d); // (v.re·d.re, v.re·d.im)
        let t2 = L::mul(wi, L::swap(d)); // (−v.im·d.im, v.im·d.re)
        let vd = L::add(t1, t2);
        let h = L::mul(s, L::splat(0.5));
        (L::add(h, vd), L::xor(L::sub(h, vd), conj))
    }
}

/// The forward split step in place (`y[..m]` the transform, m + 1 bins written), `PAIRS` pairs
/// a vector; where `m` is a multiple of two vectors, the aligned form ([`split_fwd_aligned`],
/// twiddles spread in registers).
///
/// # Safety
/// AVX-512 F/DQ (inlined into the entry points below, which enable them).
#[inline(always)]
unsafe fn split_fwd_general<L: Lanes>(y: &mut [Complex<L::E>], v: &[Complex<L::E>]) {
    let p_vec = L::PAIRS;
    let m = y.len() - 1;
    if m >= 2 * p_vec && m.is_multiple_of(2 * p_vec) {
        assert!(v.len() >= m / 2, "split twiddles too short");
        let yp = y.as_mut_ptr() as *mut L::E;
        // SAFETY: y holds m + 1 complex values (in place: z = y) and v at least m/2 (asserted);
        // AVX-512 F/DQ is this function's own contract.
        unsafe { split_fwd_aligned::<L, false>(yp, yp, m, v.as_ptr() as *const L::E) };
        return;
    }
    split_fwd_ends(y);
    let p = (m - 1) / 2;
    assert!(v.len() > p, "split twiddles too short");
    if p == 0 {
        return;
    }
    let yp = y.as_mut_ptr() as *mut L::E;
    let vp = v.as_ptr() as *const L::E;
    let mut i = 0;
    while i + p_vec <= p {
        // SAFETY: pairs i..i+P with i + P ≤ p: the low block y[1+i..1+i+P] lies in y[1..=p],
        // the partner block y[m−P−i..m−i] in y[m−p..m], disjoint from it (m − p > p);
        // v[1+i..1+i+P] lies in v[..=p] (asserted). Unaligned loads/stores; no reference into
        // `y` is live.
        unsafe {
            let pa = yp.add(2 * (1 + i));
            let pb = yp.add(2 * (m - p_vec - i));
            let a = L::load(pa);
            let b = L::rev(L::load(pb));
            let (wr, wi) = spread(L::load(vp.add(2 * (1 + i))));
            let (lo, hi) = fwd_pairs(a, b, wr, wi);
            L::store(pa, lo);
            L::store(pb, L::rev(hi));
        }
        i += p_vec;
    }
    for k in i..p {
        let (lo, hi) = y.split_at_mut(m - 1 - k);
        split_fwd_pair(&mut lo[1 + k], &mut hi[0], v[1 + k]);
    }
}

/// The forward split step of doubles (the AVX-512 level's, every length).
///
/// # Safety
/// The CPU must support AVX-512 F and DQ (the caller checks the detected level).
#[target_feature(enable = "avx512f,avx512dq")]
pub(super) unsafe fn split_fwd_f64(y: &mut [Complex<f64>], v: &[Complex<f64>]) {
    // SAFETY: this function's contract.
    unsafe { split_fwd_general::<F64x8>(y, v) }
}

/// The forward split step of floats (the AVX-512 level's, every length).
///
/// # Safety
/// The CPU must support AVX-512 F and DQ (the caller checks the detected level).
#[target_feature(enable = "avx512f,avx512dq")]
pub(super) unsafe fn split_fwd_f32(y: &mut [Complex<f32>], v: &[Complex<f32>]) {
    // SAFETY: this function's contract.
    unsafe { split_fwd_general::<F32x16>(y, v) }
}

/// The forward split step for `m` a multiple of two vectors, on the transform's own vectors
/// (`P = PAIRS` complex values each): vector `r` holds `Z[Pr..Pr+P]`, and its partners
/// `Z[m−Pr−j]` (j = 0..P) come from vectors `R−1−r` and `(R−r) mod R` (`R = m/P`) through one
/// two-source permute. Every load then reads exactly what one vector store of the transform's
/// last pass wrote, which the processor forwards from its store buffer; the blocks
/// `Z[1+i..1+i+P]` of the general loop straddle two such stores and wait for them to reach the
/// cache (at 64 points that made the split take as long as the transform). Pairs `Pr..Pr+P`,
/// r < R/2, give the bins `Pr..Pr+P` and their partner bins, which are stored once the next
/// pair block completes their vector. Bins 0, m/2 and m take the end formulas of
/// [`split_fwd_ends`]; every bin equals the general loop's bit for bit (the same operations per
/// pair). The transform's values are read from `z` and the bins written to `y`: in place with
/// `z = y`, or from an aligned scratch into a caller's output.
///
/// The twiddles `v` are the split step's `v[k]` (`SPREAD` false; spread in registers) or, with
/// `SPREAD`, a table of their spread rows ([`split_table_rows`], rows `2r` and `2r + 1` for
/// block r).
///
/// # Safety
/// AVX-512 F/DQ; `z` readable for `m` complex values, `y` writable for `m + 1`, either the same
/// pointer as `z` or disjoint from it; `v` readable for `m/2` complex values (`2m` elements
/// with `SPREAD`); `m ≥ 2P` a multiple of `2P`.
#[inline(always)]
pub(super) unsafe fn split_fwd_aligned<L: Lanes, const SPREAD: bool>(
    z: *const L::E,
    y: *mut L::E,
    m: usize,
    v: *const L::E,
) {
    let (p, e) = (L::PAIRS, 2 * L::PAIRS); // complex values and elements per vector
    let r_all = m / p;
    // SAFETY: vectors 0..R (complex Pr..Pr+P < m) are read from z and written to y; in place
    // (z = y) each is loaded before it is stored: pair block r reads vectors r, R−1−r and R−r
    // (r ≥ 1) or 0, and stores vector r and (r ≥ 1) vector R−r; later blocks r' > r read
    // vectors r' < R/2 ≤ R−r' < R−r. Vector R−r of block r ≥ 1 is block r−1's vector
    // R−1−(r−1), kept in a register from that block (read before anything stored it). Vector
    // R/2 (bin m/2) and complex 0 are read first; bin m/2's vector is stored last, bin m
    // (complex m of y) at the end. v: elements e·r..e·r+e with e·r + e ≤ m (complex ≤ m/2),
    // or with SPREAD 2e·r..2e·r+2e ≤ 2m.
    unsafe {
        let conj = L::sign(true);
        let v0 = L::load(z);
        let mid = L::load(z.add(2 * (m / 2)));
        let (re, im) = (*z, *z.add(1));
        let mut prev = L::zero();
        // vector R−r of the next block: this block's R−1−r
        let mut next_b = v0;
        for r in 0..r_all / 2 {
            let a = if r == 0 { v0 } else { L::load(z.add(e * r)) };
            let pa = L::load(z.add(e * (r_all - 1 - r)));
            let b = L::partners(pa, next_b);
            next_b = pa;
            let (wr, wi) = if SPREAD {
                (L::load(v.add(2 * e * r)), L::load(v.add(2 * e * r + e)))
            } else {
                spread(L::load(v.add(e * r)))
            };
            let (mut lo, hi) = fwd_pairs(a, b, wr, wi);
            if r == 0 {
                // bin 0: (Z₀.re + Z₀.im, 0)
                lo = L::blend_low(lo, L::low(re + im, L::E::ZERO));
            } else {
                // bins P(R−r) + j: complex 0 from pair Pr, 1..P from pairs P(r−1) + P−1 … 1
                L::store(y.add(e * (r_all - r)), L::partners(prev, hi));
            }
            L::store(y.add(e * r), lo);
            prev = hi;
        }
        // bins m/2 + j: 1..P from pairs m/2 − 1, −2, …; complex 0 is conj(Z[m/2])
        let out = L::blend_low(L::partners(prev, prev), L::xor(mid, conj));
        L::store(y.add(2 * (m / 2)), out);
        // bin m: (Z₀.re − Z₀.im, 0)
        *y.add(2 * m) = re - im;
        *y.add(2 * m + 1) = L::E::ZERO;
    }
}

/// The largest half length `m` whose forward plans keep their split twiddles spread (see
/// [`split_fwd_aligned`]): above it table and data outgrow the L2 cache together.
pub(super) const SPREAD_MAX: usize = 8192;
// The fused real forward codelets (up to 256 complex points) read their plan's table spread.
const _: () = assert!(SPREAD_MAX >= 256);

/// The forward split step of `L`'s element type as the plans run it ([`split_fwd_aligned`],
/// `v` spread for `m ≤` [`SPREAD_MAX`] and as it is above).
///
/// # Safety
/// That of [`split_fwd_aligned`], with `v` in the layout this `m` takes; AVX-512 F/DQ.
#[inline(always)]
unsafe fn split_fwd_plan<L: Lanes>(z: *const L::E, y: *mut L::E, m: usize, v: *const L::E) {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        if m <= SPREAD_MAX {
            split_fwd_aligned::<L, true>(z, y, m, v)
        } else {
            split_fwd_aligned::<L, false>(z, y, m, v)
        }
    }
}

/// [`split_fwd_plan`] of doubles compiled for AVX-512 F/DQ (the double plans' `split_forward`).
///
/// # Safety
/// That of [`split_fwd_plan`]; the CPU must support AVX-512 F and DQ.
#[target_feature(enable = "avx512f,avx512dq")]
pub(super) unsafe fn split_fwd_f64_entry(z: *const f64, y: *mut f64, m: usize, v: *const f64) {
    // SAFETY: the caller's contract, passed on.
    unsafe { split_fwd_plan::<F64x8>(z, y, m, v) }
}

/// [`split_fwd_plan`] of floats compiled for AVX-512 F/DQ (the float plans' `split_forward`).
///
/// # Safety
/// That of [`split_fwd_plan`]; the CPU must support AVX-512 F and DQ.
#[target_feature(enable = "avx512f,avx512dq")]
pub(super) unsafe fn split_fwd_f32_entry(z: *const f32, y: *mut f32, m: usize, v: *const f32) {
    // SAFETY: the caller's contract, passed on.
    unsafe { split_fwd_plan::<F32x16>(z, y, m, v) }
}

/// `PAIRS` pairs of the inverse split step ([`super::split_pair::split_inv_pair`]'s operations in its
/// order, no FMA; `x − y` computed as `x + (−y)`, which IEEE arithmetic defines to be the same):
/// `xa` holds `X[k..k+P]`, `xb` the partners `X[m−k−j]` (j = 0..P), `w` the twiddles
/// `w^k..w^{k+P}`; returns `(Z'[k..k+P], Z'[m−k−j] for j = 0..P)`. Register-only.
#[inline(always)]
unsafe fn inv_pairs<L: Lanes>(xa: L, xb: L, w: L) -> (L, L) {
    // SAFETY: register-only arithmetic (the trait's contract).
    unsafe {
        // sign bits in the imaginary lanes (conjugation) and in the real lanes
        let conj = L::sign(true);
        let xbc = L::xor(xb, conj);
        let f = L::add(xa, xbc); // (xa.re + xb.re, xa.im − xb.im)
        let g = L::sub(xa, xbc); // (xa.re − xb.re, xa.im + xb.im)
        let t1 = L::mul(L::dup_re(w), g); // (w.re·g.re, w.re·g.im)
        let t2 = L::mul(L::dup_im(w), L::swap(g)); // (w.im·g.im, w.im·g.re)
        let c = L::add(t1, L::xor(t2, conj)); // conj(w)·G
        let sc = L::swap(c); // (c.im, c.re)
        let t = L::xor(sc, L::sign(false)); // i·c = (−c.im, c.re)
        (
            L::add(f, t),                // (f.re + t.re, f.im + t.im)
            L::add(L::xor(f, conj), sc), // (f.re − t.re, t.im − f.im)
        )
    }
}

/// The inverse split step for `m` a multiple of two vectors, writing `Z'` in the vectors the
/// transform that follows reads: pair block `r < R/2` (`R = m/P`) reads `X[Pr..Pr+P]` and the
/// partners `X[m−Pr−j]`, stores `Z'[Pr..Pr+P]`, and completes vector `R−r` of the partner half
/// with the previous block, as [`split_fwd_aligned`]; `Z'[0]` and `Z'[m/2]` take the end
/// formulas of [`super::split_pair::split_inv_ends`]. Bit for bit the scalar step.
///
/// # Safety
/// AVX-512 F/DQ; `x` readable for `m + 1` complex values, `z` writable for `m`, disjoint from
/// `x`; `tw` readable for `m/2`; `m ≥ 2P` a multiple of `2P`.
#[inline(always)]
pub(super) unsafe fn split_inv_aligned<L: Lanes>(
    x: *const L::E,
    z: *mut L::E,
    m: usize,
    tw: *const L::E,
) {
    let (p, e) = (L::PAIRS, 2 * L::PAIRS);
    let r_all = m / p;
    // SAFETY: block r reads x complex Pr..Pr+P and m−Pr−P+1..m−Pr+1 (≤ m), tw Pr..Pr+P ≤ m/2,
    // and writes z vectors r and R−r (< R, complex < m); the last store writes vector R/2.
    unsafe {
        let two = L::E::from_f64(2.0);
        let mut prev = L::zero();
        for r in 0..r_all / 2 {
            let xa = L::load(x.add(e * r));
            let xb = L::rev(L::load(x.add(2 * (m - p * r - (p - 1)))));
            let (mut za, zb) = inv_pairs(xa, xb, L::load(tw.add(e * r)));
            if r == 0 {
                // Z'[0] = (X₀.re + X_m.re, X₀.re − X_m.re)
                let (x0, xm) = (*x, *x.add(2 * m));
                za = L::blend_low(za, L::low(x0 + xm, x0 - xm));
            } else {
                L::store(z.add(e * (r_all - r)), L::partners(prev, zb));
            }
            L::store(z.add(e * r), za);
            prev = zb;
        }
        // Z'[m/2] = (2·c.re, −(2·c.im)), c = X[m/2]
        let (cr, ci) = (*x.add(m), *x.add(m + 1));
        let out = L::blend_low(L::partners(prev, prev), L::low(two * cr, -(two * ci)));
        L::store(z.add(2 * (m / 2)), out);
    }
}
