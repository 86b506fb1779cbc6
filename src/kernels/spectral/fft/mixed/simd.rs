//! The radix-2/3/4/5/7/11/13 Stockham passes of [`super`] for f64 with AVX2 (two complex
//! values per `__m256d`) or AVX-512 (four per `__m512d`). Each pass is written once over
//! [`CVec`], a vector of `L` complex values, and instantiated with `V2`/`V4` for the body and
//! with `Complex<f64>` (one value, the scalar helpers of [`super`]) for the remainder. Every
//! vector operation is the scalar operation lane by lane, in the same order and without FMA (a
//! product and a sum are rounded separately, as in the scalar code), so the results are the
//! scalar passes' bit for bit (up to the sign of a zero: the first column is multiplied by the
//! exact twiddle 1 here).
//!
//! Layout: a pass reads `cc` as `(ido, p, l1)` and writes `ch` as `(ido, l1, p)` (first index
//! fastest). Where `ido` is a multiple of the vector length, or large, the vectors run along the
//! contiguous `i` (twiddles from the column-major table `twv[(j−1)·ido + i]`); where it is
//! small and not a multiple (the last pass has `ido = 1`), they run along `k` instead, each
//! vector gathered from addresses `ido·p` apart and stored to addresses `ido` apart, the
//! twiddles broadcast.
//!
//! `V2`/`V4` values exist only inside [`pass_avx2`] / [`pass_avx512`], `#[target_feature]`
//! functions called only after the SIMD level check: that is what makes the intrinsics in their
//! methods sound (the types are private to this module).

use super::arith::{add, rot, scl, sub, tw};
use crate::kernels::spectral::Complex;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

type C = Complex<f64>;

/// `L` complex values and the operations the butterflies need. Loads and stores take raw
/// pointers: the passes prove every index in range once, at their start (see [`pass`]).
pub(super) trait CVec: Copy {
    const L: usize;
    /// The vector of half the length (single values for `L ≤ 2`), for remainders.
    type Half: CVec;
    /// `*p .. *p.add(L)`.
    ///
    /// # Safety
    /// `L` values readable at `p`.
    unsafe fn load(p: *const C) -> Self;
    /// `*p, *p.add(stride), …` (`L` values).
    ///
    /// # Safety
    /// Those `L` values readable.
    unsafe fn load_strided(p: *const C, stride: usize) -> Self;
    /// `c` in every lane.
    fn splat(c: C) -> Self;
    /// # Safety
    /// `L` values writable at `p`.
    unsafe fn store(self, p: *mut C);
    /// # Safety
    /// `p, p.add(stride), …` (`L` values) writable.
    unsafe fn store_strided(self, p: *mut C, stride: usize);
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn scl(self, f: f64) -> Self;
    /// `∓i·z` (forward / inverse), as [`super::rot`].
    fn rot<const FWD: bool>(self) -> Self;
    /// `z·conj(w)` forward, `z·w` inverse, as [`super::tw`].
    fn tw<const FWD: bool>(self, w: Self) -> Self;
}

impl CVec for C {
    const L: usize = 1;
    type Half = C;
    #[inline(always)]
    unsafe fn load(p: *const C) -> Self {
        // SAFETY: the caller's contract
        unsafe { *p }
    }
    #[inline(always)]
    unsafe fn load_strided(p: *const C, _: usize) -> Self {
        // SAFETY: the caller's contract
        unsafe { *p }
    }
    #[inline(always)]
    fn splat(c: C) -> Self {
        c
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut C) {
        // SAFETY: the caller's contract
        unsafe { *p = self }
    }
    #[inline(always)]
    unsafe fn store_strided(self, p: *mut C, _: usize) {
        // SAFETY: the caller's contract
        unsafe { *p = self }
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        add(self, o)
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        sub(self, o)
    }
    #[inline(always)]
    fn scl(self, f: f64) -> Self {
        scl(self, f)
    }
    #[inline(always)]
    fn rot<const FWD: bool>(self) -> Self {
        rot::<f64, FWD>(self)
    }
    #[inline(always)]
    fn tw<const FWD: bool>(self, w: Self) -> Self {
        tw::<f64, FWD>(self, w)
    }
}

/// Two complex values `(re0, im0, re1, im1)`.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct V2(__m256d);

// SAFETY (every `unsafe` block of this impl): V2 values are created and used only inside
// `pass_avx2` and `pass_avx512`, which have AVX2 enabled and are called only when the CPU
// supports it (see the module documentation); pointer accesses are the caller's contract.
#[cfg(target_arch = "x86_64")]
impl CVec for V2 {
    const L: usize = 2;
    type Half = C;
    #[inline(always)]
    unsafe fn load(p: *const C) -> Self {
        // SAFETY: `_mm256_loadu_pd` reads the 4 f64 of the 2 values at `p` that `CVec::load`'s
        // contract makes readable (`pass` asserts the slice lengths, `col_i`/`col_k` prove the
        // indices); unaligned, so `C`'s alignment suffices. AVX2 as in `V2::splat`.
        V2(unsafe { _mm256_loadu_pd(p as *const f64) })
    }
    #[inline(always)]
    unsafe fn load_strided(p: *const C, stride: usize) -> Self {
        // SAFETY: the two 16-byte `_mm_loadu_pd` read the values at `p` and `p.add(stride)`, the 2
        // that `load_strided`'s contract makes readable (indices proven by `col_k`); AVX as in
        // `V2::splat`.
        V2(unsafe {
            _mm256_set_m128d(
                _mm_loadu_pd(p.add(stride) as *const f64),
                _mm_loadu_pd(p as *const f64),
            )
        })
    }
    #[inline(always)]
    fn splat(c: C) -> Self {
        // SAFETY: register-only intrinsic. AVX2 is enabled: V2 is built only inside
        // `pass_avx2`/`pass_avx512` (`#[target_feature]`), which `pass_simd` calls only once
        // `simd::effective(level)` includes AVX2, and this inlines into them.
        V2(unsafe { _mm256_set_pd(c.im, c.re, c.im, c.re) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut C) {
        // SAFETY: `_mm256_storeu_pd` writes the 4 f64 of the 2 values at `p` that `CVec::store`'s
        // contract makes writable (indices proven by `col_i`); unaligned store. AVX2 as in
        // `V2::splat`.
        unsafe { _mm256_storeu_pd(p as *mut f64, self.0) }
    }
    #[inline(always)]
    unsafe fn store_strided(self, p: *mut C, stride: usize) {
        // SAFETY: the two 16-byte stores write the values at `p` and `p.add(stride)`, the 2 that
        // `store_strided`'s contract makes writable (indices proven by `col_k`); AVX as in
        // `V2::splat`.
        unsafe {
            _mm_storeu_pd(p as *mut f64, _mm256_castpd256_pd128(self.0));
            _mm_storeu_pd(
                p.add(stride) as *mut f64,
                _mm256_extractf128_pd::<1>(self.0),
            );
        }
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        // SAFETY: register-only; AVX2 as in `V2::splat`.
        V2(unsafe { _mm256_add_pd(self.0, o.0) })
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        // SAFETY: register-only; AVX2 as in `V2::splat`.
        V2(unsafe { _mm256_sub_pd(self.0, o.0) })
    }
    #[inline(always)]
    fn scl(self, f: f64) -> Self {
        // SAFETY: register-only; AVX2 as in `V2::splat`.
        V2(unsafe { _mm256_mul_pd(self.0, _mm256_set1_pd(f)) })
    }
    #[inline(always)]
    fn rot<const FWD: bool>(self) -> Self {
        // SAFETY: register-only permute and xor; AVX2 as in `V2::splat`.
        unsafe {
            let sw = _mm256_permute_pd::<0b0101>(self.0); // (im, re)
                                                          // forward (im, −re): negate the odd lanes; inverse (−im, re): the even ones
            let mask = if FWD {
                _mm256_set_pd(-0.0, 0.0, -0.0, 0.0)
            } else {
                _mm256_set_pd(0.0, -0.0, 0.0, -0.0)
            };
            V2(_mm256_xor_pd(sw, mask))
        }
    }
    #[inline(always)]
    fn tw<const FWD: bool>(self, w: Self) -> Self {
        // SAFETY: register-only (AVX `movedup`, `permute`, `addsub`); AVX2 as in `V2::splat`.
        unsafe {
            let wr = _mm256_movedup_pd(w.0); // (w.re, w.re)
            let wi = _mm256_permute_pd::<0b1111>(w.0); // (w.im, w.im)
            let t1 = _mm256_mul_pd(self.0, wr); // (a.re·w.re, a.im·w.re)
            let t2 = _mm256_mul_pd(_mm256_permute_pd::<0b0101>(self.0), wi); // (a.im·w.im, a.re·w.im)
            if FWD {
                // (a.re·w.re + a.im·w.im, a.im·w.re − a.re·w.im)
                V2(_mm256_add_pd(
                    t1,
                    _mm256_xor_pd(t2, _mm256_set_pd(-0.0, 0.0, -0.0, 0.0)),
                ))
            } else {
                // (a.re·w.re − a.im·w.im, a.im·w.re + a.re·w.im)
                V2(_mm256_addsub_pd(t1, t2))
            }
        }
    }
}

/// Four complex values.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct V4(__m512d);

/// Sign bits in the odd (imaginary) or even (real) lanes.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn sign512(odd: bool) -> __m512d {
    let (e, o) = if odd { (0.0, -0.0) } else { (-0.0, 0.0) };
    // SAFETY: as for V4 below (AVX-512 F enabled where this is inlined)
    unsafe { _mm512_set_pd(o, e, o, e, o, e, o, e) }
}

// SAFETY (every `unsafe` block of this impl): V4 values are created and used only inside
// `pass_avx512`, which has AVX-512 F/DQ enabled and is called only when the CPU supports it;
// pointer accesses are the caller's contract.
#[cfg(target_arch = "x86_64")]
impl CVec for V4 {
    const L: usize = 4;
    type Half = V2;
    #[inline(always)]
    unsafe fn load(p: *const C) -> Self {
        // SAFETY: `_mm512_loadu_pd` reads the 8 f64 of the 4 values at `p` that `CVec::load`'s
        // contract makes readable (`pass` asserts the slice lengths, `col_i` proves the indices);
        // unaligned. AVX-512 F as in `V4::splat`.
        V4(unsafe { _mm512_loadu_pd(p as *const f64) })
    }
    #[inline(always)]
    unsafe fn load_strided(p: *const C, stride: usize) -> Self {
        // SAFETY: the two `V2::load_strided` read `p + m·stride` for m = 0..4, the 4 values
        // `load_strided`'s contract makes readable (indices proven by `col_k`), so
        // `p.add(2·stride)` stays in that range; AVX-512 F as in `V4::splat`.
        unsafe {
            let lo = V2::load_strided(p, stride).0;
            let hi = V2::load_strided(p.add(2 * stride), stride).0;
            V4(_mm512_insertf64x4::<1>(_mm512_castpd256_pd512(lo), hi))
        }
    }
    #[inline(always)]
    fn splat(c: C) -> Self {
        // SAFETY: register-only intrinsic. AVX-512 F/DQ are enabled: V4 is built only inside
        // `pass_avx512` (`#[target_feature(enable = "avx2,avx512f,avx512dq")]`), which `pass_simd`
        // calls only when `simd::effective(level)` is `Level::Avx512` (clamped to the detected
        // CPU), and this inlines into it.
        V4(unsafe { _mm512_set_pd(c.im, c.re, c.im, c.re, c.im, c.re, c.im, c.re) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut C) {
        // SAFETY: `_mm512_storeu_pd` writes the 8 f64 of the 4 values at `p` that `CVec::store`'s
        // contract makes writable (indices proven by `col_i`); unaligned. AVX-512 F as in
        // `V4::splat`.
        unsafe { _mm512_storeu_pd(p as *mut f64, self.0) }
    }
    #[inline(always)]
    unsafe fn store_strided(self, p: *mut C, stride: usize) {
        // SAFETY: the two `V2::store_strided` write `p + m·stride` for m = 0..4, the 4 values
        // `store_strided`'s contract makes writable (indices proven by `col_k`); AVX-512 F as in
        // `V4::splat`.
        unsafe {
            V2(_mm512_castpd512_pd256(self.0)).store_strided(p, stride);
            V2(_mm512_extractf64x4_pd::<1>(self.0)).store_strided(p.add(2 * stride), stride);
        }
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        // SAFETY: register-only; AVX-512 F as in `V4::splat`.
        V4(unsafe { _mm512_add_pd(self.0, o.0) })
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        // SAFETY: register-only; AVX-512 F as in `V4::splat`.
        V4(unsafe { _mm512_sub_pd(self.0, o.0) })
    }
    #[inline(always)]
    fn scl(self, f: f64) -> Self {
        // SAFETY: register-only; AVX-512 F as in `V4::splat`.
        V4(unsafe { _mm512_mul_pd(self.0, _mm512_set1_pd(f)) })
    }
    #[inline(always)]
    fn rot<const FWD: bool>(self) -> Self {
        // SAFETY: register-only permute and xor (DQ); AVX-512 F/DQ as in `V4::splat`.
        unsafe {
            let sw = _mm512_permute_pd::<0b0101_0101>(self.0);
            V4(_mm512_xor_pd(sw, sign512(FWD)))
        }
    }
    #[inline(always)]
    fn tw<const FWD: bool>(self, w: Self) -> Self {
        // SAFETY: register-only; AVX-512 F/DQ as in `V4::splat`.
        unsafe {
            let wr = _mm512_movedup_pd(w.0);
            let wi = _mm512_permute_pd::<0b1111_1111>(w.0);
            let t1 = _mm512_mul_pd(self.0, wr);
            let t2 = _mm512_mul_pd(_mm512_permute_pd::<0b0101_0101>(self.0), wi);
            // forward: negate t2's imaginary lanes, inverse: its real lanes (see V2::tw)
            V4(_mm512_add_pd(t1, _mm512_xor_pd(t2, sign512(FWD))))
        }
    }
}

/// A radix-`P` butterfly (the DFT of `P` values, no twiddles).
pub(super) trait Bf<const P: usize> {
    fn bf<V: CVec, const FWD: bool>(&self, x: [V; P]) -> [V; P];
}

pub(super) struct R2;
pub(super) struct R3;
pub(super) struct R4;
pub(super) struct R5;

/// `sin(2π/3)`, as in [`super::pass3`].
pub(super) const SIN_60: f64 = 0.866_025_403_784_438_6;
/// `cos`, `sin` of `2π/5` and `4π/5` ([`super::unit_root`] of 1/5 and 2/5; checked by a test).
pub(super) const C1_5: f64 = 0.309_016_994_374_947_4;
pub(super) const S1_5: f64 = 0.951_056_516_295_153_5;
pub(super) const C2_5: f64 = -0.809_016_994_374_947_5;
pub(super) const S2_5: f64 = 0.587_785_252_292_473_1;

impl Bf<2> for R2 {
    #[inline(always)]
    fn bf<V: CVec, const FWD: bool>(&self, x: [V; 2]) -> [V; 2] {
        [x[0].add(x[1]), x[0].sub(x[1])]
    }
}

impl Bf<4> for R4 {
    #[inline(always)]
    fn bf<V: CVec, const FWD: bool>(&self, x: [V; 4]) -> [V; 4] {
        let t2 = x[0].add(x[2]);
        let t1 = x[0].sub(x[2]);
        let t3 = x[1].add(x[3]);
        let t4 = x[1].sub(x[3]).rot::<FWD>();
        [t2.add(t3), t1.add(t4), t2.sub(t3), t1.sub(t4)]
    }
}

impl Bf<3> for R3 {
    #[inline(always)]
    fn bf<V: CVec, const FWD: bool>(&self, x: [V; 3]) -> [V; 3] {
        let t1 = x[1].add(x[2]);
        let t2 = x[1].sub(x[2]);
        let ca = x[0].add(t1.scl(-0.5));
        let cb = t2.scl(SIN_60).rot::<FWD>();
        [x[0].add(t1), ca.add(cb), ca.sub(cb)]
    }
}

impl Bf<5> for R5 {
    #[inline(always)]
    fn bf<V: CVec, const FWD: bool>(&self, x: [V; 5]) -> [V; 5] {
        let t1 = x[1].add(x[4]);
        let t4 = x[1].sub(x[4]);
        let t2 = x[2].add(x[3]);
        let t3 = x[2].sub(x[3]);
        let y0 = x[0].add(t1.add(t2));
        let ca1 = x[0].add(t1.scl(C1_5).add(t2.scl(C2_5)));
        let cb1 = t4.scl(S1_5).add(t3.scl(S2_5)).rot::<FWD>();
        let ca2 = x[0].add(t1.scl(C2_5).add(t2.scl(C1_5)));
        let cb2 = t4.scl(S2_5).sub(t3.scl(S1_5)).rot::<FWD>();
        [y0, ca1.add(cb1), ca2.add(cb2), ca2.sub(cb2), ca1.sub(cb1)]
    }
}

/// An odd radix `P > 5`: exactly the operations of [`super::passg`] (the symmetric-pair DFT
/// against the exact roots `roots[j] = e^{2πij/P}`).
pub(super) struct RG<const P: usize> {
    pub(super) roots: [C; P],
}

impl<const P: usize> Bf<P> for RG<P> {
    #[inline(always)]
    fn bf<V: CVec, const FWD: bool>(&self, x: [V; P]) -> [V; P] {
        let h = P / 2;
        let zero = V::splat(C::new(0.0, 0.0));
        let mut sums = [zero; P];
        let mut y0 = x[0];
        for m in 1..=h {
            sums[m] = x[m].add(x[P - m]);
            sums[P - m] = x[m].sub(x[P - m]);
            y0 = y0.add(sums[m]);
        }
        let mut out = [zero; P];
        out[0] = y0;
        for j in 1..=h {
            let mut re = x[0];
            let mut im = zero;
            let mut idx = 0;
            for m in 1..=h {
                idx += j;
                if idx >= P {
                    idx -= P;
                }
                let r = self.roots[idx];
                re = re.add(sums[m].scl(r.re));
                im = im.add(sums[P - m].scl(r.im));
            }
            let im = im.rot::<FWD>();
            out[j] = re.add(im);
            out[P - j] = re.sub(im);
        }
        out
    }
}

/// One column `i` (`V::L` columns from `i`) of group `k`, vectors along `i`.
///
/// # Safety
/// `i + V::L ≤ ido`, `k < l1`; `src` holds `ido·P` values (group `k` of the input), `ch`
/// `ido·l1·P`, `twv` `ido·(P−1)`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn col_i<V: CVec, B: Bf<P>, const P: usize, const FWD: bool>(
    b: &B,
    i: usize,
    k: usize,
    l1: usize,
    ido: usize,
    src: *const C,
    twv: *const C,
    ch: *mut C,
) {
    // SAFETY: every index below is < its buffer's length by the contract (i + L ≤ ido,
    // m, j < P, k < l1).
    unsafe {
        let x: [V; P] = std::array::from_fn(|m| V::load(src.add(i + ido * m)));
        let y = b.bf::<V, FWD>(x);
        y[0].store(ch.add(i + ido * k));
        for (j, &v) in y.iter().enumerate().skip(1) {
            let w = V::load(twv.add((j - 1) * ido + i));
            v.tw::<FWD>(w).store(ch.add(i + ido * (k + l1 * j)));
        }
    }
}

/// Groups `k..k + V::L` of column `i`, vectors along `k`; `w[j]` is the broadcast twiddle of
/// output `j` (unused for `i = 0`).
///
/// # Safety
/// `i < ido`, `k + V::L ≤ l1`; `cc` and `ch` hold `ido·l1·P` values.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn col_k<V: CVec, B: Bf<P>, const P: usize, const FWD: bool>(
    b: &B,
    i: usize,
    k: usize,
    l1: usize,
    ido: usize,
    w: &[V; P],
    cc: *const C,
    ch: *mut C,
) {
    // SAFETY: the largest input index is i + ido·(P−1 + P·(k + L−1)) < ido·P·l1, the largest
    // output index i + ido·(k + L−1 + l1·(P−1)) < ido·l1·P, by the contract.
    unsafe {
        let x: [V; P] =
            std::array::from_fn(|m| V::load_strided(cc.add(i + ido * (m + P * k)), ido * P));
        let y = b.bf::<V, FWD>(x);
        y[0].store_strided(ch.add(i + ido * k), ido);
        for (j, &v) in y.iter().enumerate().skip(1) {
            let v = if i == 0 { v } else { v.tw::<FWD>(w[j]) };
            v.store_strided(ch.add(i + ido * (k + l1 * j)), ido);
        }
    }
}

/// One radix-`P` pass with vectors `V` (remainders with single values).
#[inline(always)]
fn pass<V: CVec, B: Bf<P>, const P: usize, const FWD: bool>(
    b: &B,
    l1: usize,
    ido: usize,
    twv: &[C],
    cc: &[C],
    ch: &mut [C],
) {
    let n = ido * l1 * P;
    // every access of col_i / col_k is proven in range from these
    assert!(cc.len() >= n && ch.len() >= n && twv.len() >= (P - 1) * ido);
    let (ccp, chp, twp) = (cc.as_ptr(), ch.as_mut_ptr(), twv.as_ptr());
    if !ido.is_multiple_of(V::L) && ido < 4 * V::L && l1 >= V::L {
        for i in 0..ido {
            let one = C::new(1.0, 0.0);
            let ws: [C; P] =
                std::array::from_fn(|j| if j == 0 { one } else { twv[(j - 1) * ido + i] });
            let wv: [V; P] = std::array::from_fn(|j| V::splat(ws[j]));
            let mut k = 0;
            while k + V::L <= l1 {
                // SAFETY: i < ido, k + L ≤ l1, lengths asserted above
                unsafe { col_k::<V, B, P, FWD>(b, i, k, l1, ido, &wv, ccp, chp) };
                k += V::L;
            }
            while k < l1 {
                // SAFETY: as above with L = 1
                unsafe { col_k::<C, B, P, FWD>(b, i, k, l1, ido, &ws, ccp, chp) };
                k += 1;
            }
        }
        return;
    }
    for k in 0..l1 {
        // SAFETY: k < l1, so the group's ido·P values lie in cc (asserted above)
        let src = unsafe { ccp.add(ido * P * k) };
        let mut i = 0;
        while i + V::L <= ido {
            // SAFETY: i + L ≤ ido, k < l1, lengths asserted above
            unsafe { col_i::<V, B, P, FWD>(b, i, k, l1, ido, src, twp, chp) };
            i += V::L;
        }
        while i + V::Half::L <= ido {
            // SAFETY: as above with the half vector
            unsafe { col_i::<V::Half, B, P, FWD>(b, i, k, l1, ido, src, twp, chp) };
            i += V::Half::L;
        }
        while i < ido {
            // SAFETY: as above with L = 1
            unsafe { col_i::<C, B, P, FWD>(b, i, k, l1, ido, src, twp, chp) };
            i += 1;
        }
    }
}

/// A generic-radix pass for `P` (`roots` holds `P` values).
#[inline(always)]
fn pass_g<V: CVec, const P: usize, const FWD: bool>(
    roots: &[C],
    l1: usize,
    ido: usize,
    twv: &[C],
    cc: &[C],
    ch: &mut [C],
) {
    let b = RG::<P> {
        roots: std::array::from_fn(|j| roots[j]),
    };
    pass::<V, RG<P>, P, FWD>(&b, l1, ido, twv, cc, ch);
}

/// One radix-`P` pass with vectors `V`, `false` (nothing done) for a radix other than 2, 3, 4,
/// 5, 7, 11, 13. `roots` are the generic radix's roots (see [`RG`]).
#[inline(always)]
fn pass_any<V: CVec, const FWD: bool>(
    p: usize,
    l1: usize,
    ido: usize,
    twv: &[C],
    roots: &[C],
    cc: &[C],
    ch: &mut [C],
) -> bool {
    match p {
        7 => pass_g::<V, 7, FWD>(roots, l1, ido, twv, cc, ch),
        11 => pass_g::<V, 11, FWD>(roots, l1, ido, twv, cc, ch),
        13 => pass_g::<V, 13, FWD>(roots, l1, ido, twv, cc, ch),
        4 => pass::<V, R4, 4, FWD>(&R4, l1, ido, twv, cc, ch),
        2 => pass::<V, R2, 2, FWD>(&R2, l1, ido, twv, cc, ch),
        3 => pass::<V, R3, 3, FWD>(&R3, l1, ido, twv, cc, ch),
        5 => pass::<V, R5, 5, FWD>(&R5, l1, ido, twv, cc, ch),
        _ => return false,
    }
    true
}

/// One radix-2/3/4/5/7/11/13 pass with AVX2 (`false`, doing nothing, for another radix).
/// `twv` is the pass's column-major twiddle table (see the module documentation).
///
/// # Safety
/// The CPU must support AVX2 (the caller checks the SIMD level).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn pass_avx2<const FWD: bool>(
    p: usize,
    l1: usize,
    ido: usize,
    twv: &[C],
    roots: &[C],
    cc: &[C],
    ch: &mut [C],
) -> bool {
    pass_any::<V2, FWD>(p, l1, ido, twv, roots, cc, ch)
}

/// [`pass_avx2`] with AVX-512 (four complex values per vector).
///
/// # Safety
/// The CPU must support AVX-512 F and DQ (the caller checks the SIMD level).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512dq")]
pub(super) unsafe fn pass_avx512<const FWD: bool>(
    p: usize,
    l1: usize,
    ido: usize,
    twv: &[C],
    roots: &[C],
    cc: &[C],
    ch: &mut [C],
) -> bool {
    pass_any::<V4, FWD>(p, l1, ido, twv, roots, cc, ch)
}
