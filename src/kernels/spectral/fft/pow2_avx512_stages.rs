//! The AVX-512 power-of-two passes' stage kernels and in-register DFTs, written once over the
//! vector type ([`Zmm`]: [`F64x8`], four complex doubles, and [`F32x16`], eight complex floats)
//! for the double plans of [`super::pow2_avx512`] and the float plans of
//! [`super::pow2_avx512_f32`], which share the algorithm (see [`super::pow2_avx512`]'s doc).
//!
//! - In registers: the 4-point butterfly ([`bfly4`]), the complex product with duplicated
//!   re/im twiddles ([`cmul`]) and with the constant roots ([`cmul_const`], [`mul_mj`]), the 8-
//!   and 16-point DFTs ([`dft8`], [`dft16`], [`dft_r`]).
//! - Stage kernels (`#[target_feature]` entry points instantiated per type, length and
//!   strides): the first stage vectorised over `p` ([`first_stage`], [`first_stage_win`]), the
//!   radix-16 middle or last stage ([`mid16_stage`]), the radix-8 last stage ([`last8_stage`])
//!   and the last two stages fused per q-vector ([`fused_last`]).
//!
//! What differs between the types lives in their [`Zmm`] impls: how the first stage's outputs
//! are transposed before they are stored ([`Zmm::first_store`]: 4×4 blocks of 128-bit lanes
//! for doubles, 8×8 blocks of 64-bit complex floats), the prefetch distance and the constants'
//! precision. Each type's single-pass codelets (n ≤ 64) stay in its plan's module. Every
//! kernel does the same operations in the same order (and the same FMAs) as the per-type code
//! it replaces, so the transforms are unchanged bit for bit.
//!
//! # Safety
//!
//! The `#[inline(always)]` helpers touch no memory unless their contract says so, and are only
//! inlined into the stage kernels (or the plans' codelets), which carry
//! `#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]`. The kernels are
//! reachable only through a plan, and the plans' `new` returns `None` unless the CPU has all five
//! features.

use super::split_avx512::{F32x16, F64x8, Lanes};
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

/// A zmm of complex values with what the FFT passes need beyond the split step's [`Lanes`].
///
/// # Safety (of the methods)
/// AVX-512 F/DQ/VL/BW + FMA intrinsics: only called, inlined, from the `#[target_feature]`
/// kernels of this module and the plans' codelets. Register-only except [`Zmm::load_row`]
/// (reads one vector at a 64-byte aligned pointer) and [`Zmm::first_store`] (its own contract).
pub(super) trait Zmm: Lanes {
    /// `cos(π/8)`, `sin(π/8)`, `√½` in the element type.
    const C16: Self::E;
    const S16: Self::E;
    const H: Self::E;
    /// How many values of `p` (first stage) or `q` (middle stages) ahead the prefetching
    /// kernels touch.
    const PF_DIST: usize;
    /// One vector from a 64-byte aligned table row.
    unsafe fn load_row(p: *const Self::E) -> Self;
    /// `x` in every lane.
    unsafe fn bcast(x: Self::E) -> Self;
    /// `a·b ∓ c`: minus in the real lanes, plus in the imaginary ones (`vfmaddsub`).
    unsafe fn fmaddsub(a: Self, b: Self, c: Self) -> Self;
    /// `a·b ± c`: plus in the real lanes, minus in the imaginary ones (`vfmsubadd`).
    unsafe fn fmsubadd(a: Self, b: Self, c: Self) -> Self;
    /// Stores the outputs `o[..R]` of a first-stage group (lane `l` of `o[r]` is output `r` of
    /// `p + l`) transposed to their places `y[R·(p + l) + r]`, `l < PAIRS`.
    ///
    /// # Safety
    /// `y` writable for complex `R·p .. R·(p + PAIRS)`; `R` a multiple of `PAIRS`.
    unsafe fn first_store<const R: usize>(o: &[Self; 16], y: *mut Self::E, p: usize);
}

impl Zmm for F64x8 {
    const C16: f64 = 0.923_879_532_511_286_7;
    const S16: f64 = 0.382_683_432_365_089_8;
    const H: f64 = std::f64::consts::FRAC_1_SQRT_2;
    /// (no double kernel prefetches)
    const PF_DIST: usize = 0;
    #[inline(always)]
    unsafe fn load_row(p: *const f64) -> Self {
        // SAFETY: 8 readable doubles at the 64-byte aligned `p` (the caller's contract).
        F64x8(unsafe { _mm512_load_pd(p) })
    }
    #[inline(always)]
    unsafe fn bcast(x: f64) -> Self {
        // SAFETY: register-only.
        F64x8(unsafe { _mm512_set1_pd(x) })
    }
    #[inline(always)]
    unsafe fn fmaddsub(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: register-only.
        F64x8(unsafe { _mm512_fmaddsub_pd(a.0, b.0, c.0) })
    }
    #[inline(always)]
    unsafe fn fmsubadd(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: register-only.
        F64x8(unsafe { _mm512_fmsubadd_pd(a.0, b.0, c.0) })
    }
    #[inline(always)]
    unsafe fn first_store<const R: usize>(o: &[Self; 16], y: *mut f64, p: usize) {
        // SAFETY: register-only transposes; the stores write complex R·(p + l) + 4b + 0..4 for
        // l < 4, b < R/4, all below R·(p + 4) (the caller's contract).
        unsafe {
            let rows = transpose_rows4::<R>(o);
            for l in 0..4 {
                for b in 0..R / 4 {
                    _mm512_storeu_pd(y.add(2 * (R * (p + l) + 4 * b)), rows[4 * b + l].0);
                }
            }
        }
    }
}

impl Zmm for F32x16 {
    const C16: f32 = 0.923_879_5;
    const S16: f32 = 0.382_683_43;
    const H: f32 = std::f32::consts::FRAC_1_SQRT_2;
    const PF_DIST: usize = 16;
    #[inline(always)]
    unsafe fn load_row(p: *const f32) -> Self {
        // SAFETY: 16 readable floats at the 64-byte aligned `p` (the caller's contract).
        F32x16(unsafe { _mm512_load_ps(p) })
    }
    #[inline(always)]
    unsafe fn bcast(x: f32) -> Self {
        // SAFETY: register-only.
        F32x16(unsafe { _mm512_set1_ps(x) })
    }
    #[inline(always)]
    unsafe fn fmaddsub(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: register-only.
        F32x16(unsafe { _mm512_fmaddsub_ps(a.0, b.0, c.0) })
    }
    #[inline(always)]
    unsafe fn fmsubadd(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: register-only.
        F32x16(unsafe { _mm512_fmsubadd_ps(a.0, b.0, c.0) })
    }
    #[inline(always)]
    unsafe fn first_store<const R: usize>(o: &[Self; 16], y: *mut f32, p: usize) {
        // SAFETY: register-only transposes; block `b` stores row l < 8 (8 complex) at complex
        // R·p + 8b + l·R, the largest ending at R·(p + 7) + R − 1 < R·(p + 8) (the caller's
        // contract).
        unsafe {
            for b in 0..R / 8 {
                let blk = [
                    o[8 * b],
                    o[8 * b + 1],
                    o[8 * b + 2],
                    o[8 * b + 3],
                    o[8 * b + 4],
                    o[8 * b + 5],
                    o[8 * b + 6],
                    o[8 * b + 7],
                ];
                // row l (lane l of every vector) goes to y + (R·p + 8b + l·R) complex
                let rows = transpose8(blk);
                let yb = y.add(2 * (R * p + 8 * b));
                for (l, r) in rows.iter().enumerate() {
                    _mm512_storeu_ps(yb.add(l * 2 * R), r.0);
                }
            }
        }
    }
}

/// 4×4 transpose of 128-bit (complex double) lanes: row `l` = `(o0[l], o1[l], o2[l], o3[l])`.
///
/// # Safety
/// Register-only shuffles (AVX-512 F).
#[inline(always)]
pub(super) unsafe fn transpose4(o0: F64x8, o1: F64x8, o2: F64x8, o3: F64x8) -> [F64x8; 4] {
    // SAFETY: register-only shuffles.
    unsafe {
        let t0 = _mm512_shuffle_f64x2::<0b01_00_01_00>(o0.0, o1.0);
        let t1 = _mm512_shuffle_f64x2::<0b11_10_11_10>(o0.0, o1.0);
        let t2 = _mm512_shuffle_f64x2::<0b01_00_01_00>(o2.0, o3.0);
        let t3 = _mm512_shuffle_f64x2::<0b11_10_11_10>(o2.0, o3.0);
        [
            F64x8(_mm512_shuffle_f64x2::<0b10_00_10_00>(t0, t2)),
            F64x8(_mm512_shuffle_f64x2::<0b11_01_11_01>(t0, t2)),
            F64x8(_mm512_shuffle_f64x2::<0b10_00_10_00>(t1, t3)),
            F64x8(_mm512_shuffle_f64x2::<0b11_01_11_01>(t1, t3)),
        ]
    }
}

/// The outputs `o[..R]` of a double first-stage group transposed in 4×4 blocks:
/// `rows[4b + l]` = `y[R(p + l) + 4b .. + 4]`.
///
/// # Safety
/// Register-only shuffles (AVX-512 F).
#[inline(always)]
pub(super) unsafe fn transpose_rows4<const R: usize>(o: &[F64x8; 16]) -> [F64x8; 16] {
    // SAFETY: register-only shuffles.
    unsafe {
        let mut rows = [F64x8::zero(); 16];
        for b in 0..R / 4 {
            let tr = transpose4(o[4 * b], o[4 * b + 1], o[4 * b + 2], o[4 * b + 3]);
            for l in 0..4 {
                rows[4 * b + l] = tr[l];
            }
        }
        rows
    }
}

/// 8×8 transpose of 64-bit (complex float) elements: `out[j]` lane `i` = `v[i]` lane `j`.
///
/// # Safety
/// Register-only shuffles (AVX-512 F).
#[inline(always)]
pub(super) unsafe fn transpose8(v: [F32x16; 8]) -> [F32x16; 8] {
    // SAFETY: register shuffles, no memory access.
    unsafe {
        let d = |k: usize| _mm512_castps_pd(v[k].0);
        let mut t = [_mm512_setzero_pd(); 8];
        for k in 0..4 {
            t[2 * k] = _mm512_unpacklo_pd(d(2 * k), d(2 * k + 1));
            t[2 * k + 1] = _mm512_unpackhi_pd(d(2 * k), d(2 * k + 1));
        }
        let mut out = [F32x16::zero(); 8];
        for e in 0..2 {
            let ulo = _mm512_shuffle_f64x2::<0x88>(t[e], t[2 + e]);
            let uhi = _mm512_shuffle_f64x2::<0xDD>(t[e], t[2 + e]);
            let u2lo = _mm512_shuffle_f64x2::<0x88>(t[4 + e], t[6 + e]);
            let u2hi = _mm512_shuffle_f64x2::<0xDD>(t[4 + e], t[6 + e]);
            out[e] = F32x16(_mm512_castpd_ps(_mm512_shuffle_f64x2::<0x88>(ulo, u2lo)));
            out[2 + e] = F32x16(_mm512_castpd_ps(_mm512_shuffle_f64x2::<0x88>(uhi, u2hi)));
            out[4 + e] = F32x16(_mm512_castpd_ps(_mm512_shuffle_f64x2::<0xDD>(ulo, u2lo)));
            out[6 + e] = F32x16(_mm512_castpd_ps(_mm512_shuffle_f64x2::<0xDD>(uhi, u2hi)));
        }
        out
    }
}

// ---------------------------------------------------------------------------------------------
// In-register arithmetic (register-only: each helper is an `unsafe fn` only because it uses
// AVX-512 intrinsics, and is only inlined into the `#[target_feature]` kernels).

/// 4-point DFT of four vectors of complex values (forward: ω = −j).
///
/// # Safety
/// Register-only arithmetic (AVX-512 F + FMA).
#[inline(always)]
pub(super) unsafe fn bfly4<V: Zmm, const INV: bool>(a: V, b: V, c: V, d: V) -> (V, V, V, V) {
    // SAFETY: register-only arithmetic.
    unsafe {
        let one = V::splat(1.0);
        let apc = V::add(a, c);
        let amc = V::sub(a, c);
        let bpd = V::add(b, d);
        let bmd = V::sub(b, d);
        let sw = V::swap(bmd); // (im, re)
        let y0 = V::add(apc, bpd);
        let y2 = V::sub(apc, bpd);
        // amc − j·bmd = (re + bim, im − bre); amc + j·bmd = (re − bim, im + bre)
        let minus_j = V::fmsubadd(amc, one, sw);
        let plus_j = V::fmaddsub(amc, one, sw);
        if INV {
            (y0, plus_j, y2, minus_j)
        } else {
            (y0, minus_j, y2, plus_j)
        }
    }
}

/// `z · w` with `w` given as duplicated real and imaginary parts.
///
/// # Safety
/// Register-only arithmetic (AVX-512 F + FMA).
#[inline(always)]
pub(super) unsafe fn cmul<V: Zmm>(z: V, wr: V, wi: V) -> V {
    // SAFETY: register-only arithmetic.
    unsafe { V::fmaddsub(z, wr, V::mul(V::swap(z), wi)) }
}

/// `z · ω` for the constant root `ω = cos θ ∓ i sin θ` (− forward, + inverse), given
/// `(cos θ, sin θ)`.
///
/// # Safety
/// Register-only arithmetic (AVX-512 F + FMA).
#[inline(always)]
unsafe fn cmul_const<V: Zmm, const INV: bool>(z: V, c: V::E, s: V::E) -> V {
    let s = if INV { s } else { -s };
    // SAFETY: register-only arithmetic.
    unsafe { cmul(z, V::bcast(c), V::bcast(s)) }
}

/// `z · (∓j)` (forward: −j, inverse: +j), exact: the parts swapped, one sign flipped.
///
/// # Safety
/// Register-only arithmetic (AVX-512 F/DQ).
#[inline(always)]
unsafe fn mul_mj<V: Zmm, const INV: bool>(z: V) -> V {
    // SAFETY: register-only shuffle and xor.
    unsafe { V::xor(V::swap(z), V::sign(!INV)) }
}

/// In-register `R`-point DFT (R = 4, 8, 16) of `v[..R]`, outputs in natural order (zeros
/// after them).
///
/// # Safety
/// Register-only arithmetic (AVX-512 F + FMA).
#[inline(always)]
pub(super) unsafe fn dft_r<V: Zmm, const INV: bool, const R: usize>(v: [V; 16]) -> [V; 16] {
    // SAFETY: register-only arithmetic.
    unsafe {
        let z = V::zero();
        match R {
            4 => {
                let (o0, o1, o2, o3) = bfly4::<V, INV>(v[0], v[1], v[2], v[3]);
                [o0, o1, o2, o3, z, z, z, z, z, z, z, z, z, z, z, z]
            }
            8 => {
                let o = dft8::<V, INV>([v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]]);
                [
                    o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], z, z, z, z, z, z, z, z,
                ]
            }
            _ => dft16::<V, INV>(v),
        }
    }
}

/// 8-point DFT in registers (i = i1 + 2·i2, k = k1 + 4·k2).
///
/// # Safety
/// Register-only arithmetic (AVX-512 F + FMA).
#[inline(always)]
pub(super) unsafe fn dft8<V: Zmm, const INV: bool>(v: [V; 8]) -> [V; 8] {
    // SAFETY: register-only arithmetic.
    unsafe {
        let (a0, a1, a2, a3) = bfly4::<V, INV>(v[0], v[2], v[4], v[6]);
        let (b0, b1, b2, b3) = bfly4::<V, INV>(v[1], v[3], v[5], v[7]);
        let b1 = cmul_const::<V, INV>(b1, V::H, V::H);
        let b2 = mul_mj::<V, INV>(b2);
        let b3 = cmul_const::<V, INV>(b3, -V::H, V::H);
        [
            V::add(a0, b0),
            V::add(a1, b1),
            V::add(a2, b2),
            V::add(a3, b3),
            V::sub(a0, b0),
            V::sub(a1, b1),
            V::sub(a2, b2),
            V::sub(a3, b3),
        ]
    }
}

/// 16-point DFT in registers (i = i1 + 4·i2, k = k1 + 4·k2).
///
/// # Safety
/// Register-only arithmetic (AVX-512 F + FMA).
#[inline(always)]
unsafe fn dft16<V: Zmm, const INV: bool>(v: [V; 16]) -> [V; 16] {
    // SAFETY: register-only arithmetic.
    unsafe {
        let mut a = [[V::zero(); 4]; 4];
        for (i1, ai) in a.iter_mut().enumerate() {
            let (o0, o1, o2, o3) = bfly4::<V, INV>(v[i1], v[i1 + 4], v[i1 + 8], v[i1 + 12]);
            *ai = [o0, o1, o2, o3];
        }
        let (c, s, h) = (V::C16, V::S16, V::H);
        a[1][1] = cmul_const::<V, INV>(a[1][1], c, s);
        a[1][2] = cmul_const::<V, INV>(a[1][2], h, h);
        a[1][3] = cmul_const::<V, INV>(a[1][3], s, c);
        a[2][1] = cmul_const::<V, INV>(a[2][1], h, h);
        a[2][2] = mul_mj::<V, INV>(a[2][2]);
        a[2][3] = cmul_const::<V, INV>(a[2][3], -h, h);
        a[3][1] = cmul_const::<V, INV>(a[3][1], s, c);
        a[3][2] = cmul_const::<V, INV>(a[3][2], -h, h);
        a[3][3] = cmul_const::<V, INV>(a[3][3], -c, -s);
        let mut out = [V::zero(); 16];
        for k1 in 0..4 {
            let (o0, o1, o2, o3) = bfly4::<V, INV>(a[0][k1], a[1][k1], a[2][k1], a[3][k1]);
            out[k1] = o0;
            out[k1 + 4] = o1;
            out[k1 + 8] = o2;
            out[k1 + 12] = o3;
        }
        out
    }
}

/// One group of `PAIRS` values of `p` of a radix-`R` first stage (`s = 1`, `m = n`): returns
/// the twiddled outputs `o[r]` (lanes `p .. p + PAIRS`), the twiddles from the per-lane rows at
/// `t` (re, im for r = 1..R).
///
/// With `W`, every input value is multiplied by the value at the same position of `win` as it
/// is loaded (componentwise: re by re, im by im; the product `window_into` forms).
///
/// # Safety
/// AVX-512 F + FMA; `x` (and with `W` `win`) readable at complex `p + i·mr + 0..PAIRS` for
/// `i < R`; `t` points at a table group of `2(R−1)` 64-byte aligned rows of one vector.
#[inline(always)]
pub(super) unsafe fn first_group<V: Zmm, const INV: bool, const R: usize, const W: bool>(
    x: *const V::E,
    win: *const V::E,
    p: usize,
    mr: usize,
    t: *const V::E,
) -> [V; 16] {
    // elements per vector (and per table row)
    let e = 2 * V::PAIRS;
    // SAFETY: reads as in the contract above.
    unsafe {
        let mut v = [V::zero(); 16];
        for (i, vi) in v.iter_mut().enumerate().take(R) {
            let at = 2 * (p + i * mr);
            *vi = V::load(x.add(at));
            if W {
                *vi = V::mul(*vi, V::load(win.add(at)));
            }
        }
        let mut o = dft_r::<V, INV, R>(v);
        for (r, or) in o.iter_mut().enumerate().take(R).skip(1) {
            let w = t.add(2 * e * (r - 1));
            *or = cmul(*or, V::load_row(w), V::load_row(w.add(e)));
        }
        o
    }
}

// ---------------------------------------------------------------------------------------------
// Stage kernels. Common contract (`# Safety` of each): AVX-512 F/DQ/VL/BW + FMA present (checked
// by the plans' `new`, the only way to reach a kernel); `x` readable and `y` writable for `n`
// complex values (the kernel's compile-time length), equal only for the unit-twiddle / fused
// last stages (which read every position of a q-vector before writing it); `t` points at the
// stage's 64-byte aligned table rows. `PF` (floats above 4096 points): prefetch the inputs
// `V::PF_DIST` values of `p` / `q` ahead.

/// First stage (`s = 1`, `m = N`), radix `R`, vectorised over `p`.
///
/// # Safety
/// See the contract above; `t` holds `2(R−1)` rows per `PAIRS` values of `p < N/R`.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
pub(super) unsafe fn first_stage<
    V: Zmm,
    const INV: bool,
    const R: usize,
    const PF: bool,
    const N: usize,
>(
    x: *const V::E,
    y: *mut V::E,
    tw: *const V::E,
) {
    // SAFETY: the contract above; no window is read.
    unsafe { first_body::<V, INV, R, PF, false, N>(x, core::ptr::null(), y, tw) }
}

/// The forward [`first_stage`] of `x` multiplied componentwise by the window `win` as it is
/// loaded: bit for bit `first_stage` of the products.
///
/// # Safety
/// As [`first_stage`]; `win` readable for `N` complex values.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
pub(super) unsafe fn first_stage_win<V: Zmm, const R: usize, const PF: bool, const N: usize>(
    x: *const V::E,
    y: *mut V::E,
    tw: *const V::E,
    win: *const V::E,
) {
    // SAFETY: the contract above.
    unsafe { first_body::<V, false, R, PF, true, N>(x, win, y, tw) }
}

/// The body of [`first_stage`] (`W`: with a window at `win`); inlined only into the two.
///
/// # Safety
/// As [`first_stage_win`] (`win` unread without `W`).
#[inline(always)]
unsafe fn first_body<
    V: Zmm,
    const INV: bool,
    const R: usize,
    const PF: bool,
    const W: bool,
    const N: usize,
>(
    x: *const V::E,
    win: *const V::E,
    y: *mut V::E,
    tw: *const V::E,
) {
    let c = V::PAIRS;
    let mr = N / R;
    let mut p = 0;
    let mut t = tw;
    while p < mr {
        // SAFETY: p ≤ mr − PAIRS (mr is a multiple of PAIRS), so the loads in `first_group`
        // read complex ≤ p + PAIRS − 1 + (R−1)·mr < N, and `first_store` writes complex
        // R·p .. R·(p + PAIRS) ≤ N. The prefetch address is computed with `wrapping_add` and
        // may point past the buffer, which is harmless for a prefetch. `t` advances by one
        // group (2(R−1) rows of one vector) per PAIRS values of `p`, the table's layout.
        unsafe {
            if PF {
                for i in 0..R {
                    let a = x.wrapping_add(2 * (p + V::PF_DIST + i * mr));
                    _mm_prefetch::<_MM_HINT_T0>(a as *const i8);
                }
            }
            let o = first_group::<V, INV, R, W>(x, win, p, mr, t);
            V::first_store::<R>(&o, y, p);
            t = t.add(2 * 2 * c * (R - 1));
        }
        p += c;
    }
}

/// Radix-16 stage with stride `S` and `M16 = m/16` values of `p` (`n = 16·S·M16`), vectorised
/// over `q`; with `TW` the outputs `r = 1..16` are multiplied by `ω_m^{rp}` broadcast from a
/// row of 32 elements per `p`; without it this is the last stage (`M16 = 1`, unit twiddles) and
/// may run in place.
///
/// # Safety
/// See the contract above; with `TW`, `t` holds 32 elements per `p < M16`.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
pub(super) unsafe fn mid16_stage<
    V: Zmm,
    const INV: bool,
    const TW: bool,
    const PF: bool,
    const S: usize,
    const M16: usize,
>(
    x: *const V::E,
    y: *mut V::E,
    tw: *const V::E,
) {
    let (s, m16) = (S, M16);
    let sm = s * m16;
    for p in 0..m16 {
        // SAFETY: q ≤ s − PAIRS (s is a multiple of PAIRS), so the loads read complex
        // `s·p + q + i·s·m16 + 0..PAIRS` < 16·s·m16 = n and the stores write
        // `16·s·p + q + r·s + 0..PAIRS` < n. The prefetch address may point past the buffer
        // (`wrapping_add`), harmless for a prefetch. With TW the table reads are elements
        // 32·p .. 32·p + 29 < 32·m16. Without TW (in place allowed) each q-vector's 16 loads
        // precede its 16 stores to the same positions.
        unsafe {
            let xi = x.add(2 * s * p);
            let yo = y.add(2 * 16 * s * p);
            let t = tw.add(32 * p);
            let mut q = 0;
            while q < s {
                let mut v = [V::zero(); 16];
                for (i, vi) in v.iter_mut().enumerate() {
                    *vi = V::load(xi.add(2 * (q + i * sm)));
                }
                if PF {
                    for i in 0..16 {
                        let a = xi.wrapping_add(2 * (q + V::PF_DIST + i * sm));
                        _mm_prefetch::<_MM_HINT_T0>(a as *const i8);
                    }
                }
                let mut out = dft16::<V, INV>(v);
                if TW {
                    for (r, o) in out.iter_mut().enumerate().skip(1) {
                        let wr = V::bcast(*t.add(2 * r - 2));
                        let wi = V::bcast(*t.add(2 * r - 1));
                        *o = cmul(*o, wr, wi);
                    }
                }
                for (r, o) in out.iter().enumerate() {
                    V::store(yo.add(2 * (q + r * s)), *o);
                }
                q += V::PAIRS;
            }
        }
    }
}

/// Last radix-8 stage (`n = 8·S`, unit twiddles); may run in place.
///
/// # Safety
/// See the contract above; the table is not read.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
pub(super) unsafe fn last8_stage<V: Zmm, const INV: bool, const S: usize>(
    x: *const V::E,
    y: *mut V::E,
    _t: *const V::E,
) {
    let s = S;
    let mut q = 0;
    while q < s {
        // SAFETY: q ≤ s − PAIRS, so loads and stores touch complex `q + i·s + 0..PAIRS` < 8·s
        // = n; all 8 loads precede the 8 stores to the same positions (in place is fine).
        unsafe {
            let mut v = [V::zero(); 8];
            for (i, vi) in v.iter_mut().enumerate() {
                *vi = V::load(x.add(2 * (q + i * s)));
            }
            let out = dft8::<V, INV>(v);
            for (r, o) in out.iter().enumerate() {
                V::store(y.add(2 * (q + r * s)), *o);
            }
        }
        q += V::PAIRS;
    }
}

/// Last two stages fused: for each q-vector, a radix-16 stage with twiddles (`m = 16·RB`,
/// stride `SA`) into an L1 buffer, then the radix-`RB` last stage (stride `16·SA`) from it;
/// `n = 16·RB·SA`. Reads and writes only the positions `q + SA·j` of the current q-vector, all
/// reads first, so it may run in place.
///
/// # Safety
/// See the contract above; `t` holds 32 elements per `p < RB`.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
pub(super) unsafe fn fused_last<V: Zmm, const INV: bool, const RB: usize, const SA: usize>(
    x: *const V::E,
    y: *mut V::E,
    tw: *const V::E,
) {
    let sa = SA;
    let mut l = [MaybeUninit::<V>::uninit(); 256];
    // n / 16
    let sm = sa * RB;
    // Opaque trip counts: keep the loops rolled (full unrolling overflows the uop cache).
    let (rb, sixteen) = core::hint::black_box((RB, 16usize));
    assert!(rb == RB && sixteen == 16);
    let mut q = 0;
    while q < sa {
        // SAFETY: q ≤ sa − PAIRS; loads read complex `q + sa·p + i·sa·RB + 0..PAIRS` <
        // 16·RB·sa = n, stores write `q + sa·(r + 16·r2) + 0..PAIRS` < n; all loads of this
        // q-vector precede its stores (in place is fine). Table reads: elements
        // 32·p .. 32·p + 29 for p < RB. `l` has 256 ≥ 16·RB slots (RB ≤ 16 in every
        // instantiation, rb == RB asserted), and slot `16p + r` is written in the first loop
        // before the second loop reads it.
        unsafe {
            for p in 0..rb {
                let mut v = [V::zero(); 16];
                for (i, vi) in v.iter_mut().enumerate() {
                    *vi = V::load(x.add(2 * (q + sa * p + i * sm)));
                }
                let mut out = dft16::<V, INV>(v);
                if p > 0 {
                    let t = tw.add(32 * p);
                    for (r, o) in out.iter_mut().enumerate().skip(1) {
                        let wr = V::bcast(*t.add(2 * r - 2));
                        let wi = V::bcast(*t.add(2 * r - 1));
                        *o = cmul(*o, wr, wi);
                    }
                }
                for (r, o) in out.iter().enumerate() {
                    l[16 * p + r] = MaybeUninit::new(*o);
                }
            }
            for r in 0..sixteen {
                let mut v = [V::zero(); 16];
                for (i, vi) in v.iter_mut().enumerate().take(RB) {
                    *vi = l[r + 16 * i].assume_init();
                }
                let o = dft_r::<V, INV, RB>(v);
                for (r2, or) in o.iter().enumerate().take(RB) {
                    V::store(y.add(2 * (q + sa * (r + 16 * r2))), *or);
                }
            }
        }
        q += V::PAIRS;
    }
}
