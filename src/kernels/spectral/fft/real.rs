//! Real-input FFT passes for every length: a port of pocketfft's `rfftp` (the FFTPACK real
//! passes radf4/radf2/radf3/radf5/radfg forward, radb4/radb2/radb3/radb5/radbg backward, on
//! the halfcomplex layout `r0, r1, i1, r2, i2, …[, r_{n/2}]`), and for the lengths where
//! pocketfft's real-transform cost rule picks Bluestein, pocketfft's complex Bluestein transform
//! of the full length on the real data (`fftblue::exec_r`, ported in [`super::pocket`]). The
//! twiddles are pocketfft's own table ([`SinCos2PiByN`]), indexed as its `comp_twiddle` does.
//! This is numpy's algorithm at every length (numpy ≥ 1.17 runs pocketfft), with numpy's
//! twiddles and order of operations, so the results are numpy's bit for bit.
//!
//! The passes use plain multiplies and adds in pocketfft's order of operations (no FMA, like
//! numpy's build), on slices (no `unsafe`); they ping-pong between the data and a scratch
//! buffer of the same length. Unnormalised in both directions.

#[cfg(test)]
use super::mixed::unit_root;
use super::mixed::{factorize, good_size_rule, pocketfft_uses_bluestein, SinCos2PiByN};
use super::pocket::PocketBlue;
use super::workspace::Lanes;
use super::FftFloat;
use crate::error::SkResult;
use crate::kernels::alloc::{try_collect, try_with_capacity};
use crate::kernels::spectral::Complex;
use crate::kernels::Float;
use std::ops::{Add, Mul, Neg, Sub};

/// What the real passes need of their element: arithmetic and constants rounded from `f64`.
/// `f32` and `f64` ([`Float`]), and [`Lanes`] of either: one transform per SIMD lane, each lane
/// computing exactly what the scalar passes compute.
pub(crate) trait PassElem:
    Copy
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Neg<Output = Self>
{
    /// `v` rounded to the element (every lane).
    fn from_f64(v: f64) -> Self;
}

impl<T: Float> PassElem for T {
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        <T as Float>::from_f64(v)
    }
}

macro_rules! lanes_op {
    ($tr:ident, $f:ident, $op:tt) => {
        impl<T: Float, const L: usize> $tr for Lanes<T, L> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, b: Self) -> Self {
                let mut r = self;
                for (r, &b) in r.0.iter_mut().zip(&b.0) {
                    *r = *r $op b;
                }
                r
            }
        }
    };
}
lanes_op!(Add, add, +);
lanes_op!(Sub, sub, -);
lanes_op!(Mul, mul, *);

impl<T: Float, const L: usize> Neg for Lanes<T, L> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        let mut r = self;
        for r in r.0.iter_mut() {
            *r = -*r;
        }
        r
    }
}

impl<T: Float, const L: usize> PassElem for Lanes<T, L> {
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        Lanes([<T as Float>::from_f64(v); L])
    }
}

/// One factor of the transform: radix `ip`, `l1` = product of the factors before it,
/// `ido = n/(l1·ip)`.
struct Fact<T> {
    ip: usize,
    l1: usize,
    ido: usize,
    /// `tw[(j−1)(ido−1) + 2i−2], tw[… + 2i−1] = cos, sin(2π·j·l1·i/n)` for `1 ≤ j < ip`,
    /// `1 ≤ i ≤ (ido−1)/2`.
    tw: Vec<T>,
    /// Generic radix (`ip > 5`) only: `cs[2m], cs[2m+1] = cos, sin(2πm/ip)`, `0 ≤ m < ip`.
    cs: Vec<T>,
}

/// The real passes of one length (pocketfft's `rfftp`).
pub(crate) struct RealPasses<T> {
    n: usize,
    fact: Vec<Fact<T>>,
}

impl<T: PassElem> RealPasses<T> {
    pub(crate) fn new(n: usize) -> SkResult<Self> {
        let what = "the FFT twiddle factors";
        let mut fact = Vec::new();
        let mut l1 = 1;
        let twid = SinCos2PiByN::new(n)?;
        for ip in factorize(n) {
            let ido = n / (l1 * ip);
            // (the last factor has ido = 1: no twiddles)
            let tw = try_collect(
                (0..(ip - 1) * (ido - 1)).map(|t| {
                    let (j, r) = (t / (ido - 1) + 1, t % (ido - 1));
                    let (c, s) = twid.get(j * l1 * (r / 2 + 1));
                    T::from_f64(if r % 2 == 0 { c } else { s })
                }),
                what,
            )?;
            let cs = if ip > 5 {
                try_collect(
                    (0..2 * ip).map(|t| {
                        let (c, s) = twid.get(t / 2 * (n / ip));
                        T::from_f64(if t % 2 == 0 { c } else { s })
                    }),
                    what,
                )?
            } else {
                Vec::new()
            };
            fact.push(Fact {
                ip,
                l1,
                ido,
                tw,
                cs,
            });
            l1 *= ip;
        }
        Ok(RealPasses { n, fact })
    }

    /// The same passes on [`Lanes`] of `L` transforms: every twiddle broadcast to the lanes.
    pub(crate) fn broadcast<const L: usize>(&self) -> SkResult<RealPasses<Lanes<T, L>>>
    where
        T: Float,
    {
        let what = "the FFT twiddle factors";
        let lanes = |v: &[T]| try_collect(v.iter().map(|&t| Lanes([t; L])), what);
        let mut fact = try_with_capacity(self.fact.len(), what)?;
        for f in &self.fact {
            fact.push(Fact {
                ip: f.ip,
                l1: f.l1,
                ido: f.ido,
                tw: lanes(&f.tw)?,
                cs: lanes(&f.cs)?,
            });
        }
        Ok(RealPasses { n: self.n, fact })
    }

    /// Forward transform of the `n` reals in `c` into the halfcomplex layout, in place; `ch`
    /// holds at least `n` values of scratch.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn forward(&self, c: &mut [T], ch: &mut [T]) {
        let n = self.n;
        let (c, ch) = (&mut c[..n], &mut ch[..n]);
        let mut in_c = true;
        for f in self.fact.iter().rev() {
            let (src, dst): (&mut [T], &mut [T]) = if in_c {
                (&mut *c, &mut *ch)
            } else {
                (&mut *ch, &mut *c)
            };
            let (ido, l1, wa) = (f.ido, f.l1, &f.tw[..]);
            match f.ip {
                4 => radf4(ido, l1, src, dst, wa),
                2 => radf2(ido, l1, src, dst, wa),
                3 => radf3(ido, l1, src, dst, wa),
                5 => radf5(ido, l1, src, dst, wa),
                // the result is left in the source buffer
                ip => {
                    radfg(ido, ip, l1, src, dst, wa, &f.cs);
                    continue;
                }
            }
            in_c = !in_c;
        }
        if !in_c {
            c.copy_from_slice(ch);
        }
    }

    /// Backward transform of the halfcomplex `c` into `n` reals, in place; `ch` holds at least
    /// `n` values of scratch.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn backward(&self, c: &mut [T], ch: &mut [T]) {
        let n = self.n;
        let (c, ch) = (&mut c[..n], &mut ch[..n]);
        let mut in_c = true;
        for f in &self.fact {
            let (src, dst): (&mut [T], &mut [T]) = if in_c {
                (&mut *c, &mut *ch)
            } else {
                (&mut *ch, &mut *c)
            };
            let (ido, l1, wa) = (f.ido, f.l1, &f.tw[..]);
            match f.ip {
                4 => radb4(ido, l1, src, dst, wa),
                2 => radb2(ido, l1, src, dst, wa),
                3 => radb3(ido, l1, src, dst, wa),
                5 => radb5(ido, l1, src, dst, wa),
                ip => radbg(ido, ip, l1, src, dst, wa, &f.cs),
            }
            in_c = !in_c;
        }
        if !in_c {
            c.copy_from_slice(ch);
        }
    }
}

/// `(c·e + d·f, c·f − d·e)`: `conj(e + i f)·(c + i d)` as (im, re)… pocketfft's `MULPM`.
#[inline(always)]
fn mulpm<T: PassElem>(c: T, d: T, e: T, f: T) -> (T, T) {
    (c * e + d * f, c * f - d * e)
}

/// `(c + d, c − d)`: pocketfft's `PM`.
#[inline(always)]
fn pm<T: PassElem>(c: T, d: T) -> (T, T) {
    (c + d, c - d)
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn radf2<T: PassElem>(ido: usize, l1: usize, cc: &[T], ch: &mut [T], wa: &[T]) {
    let ci = |a: usize, b: usize, c: usize| a + ido * (b + l1 * c);
    let hi = |a: usize, b: usize, c: usize| a + ido * (b + 2 * c);
    for k in 0..l1 {
        (ch[hi(0, 0, k)], ch[hi(ido - 1, 1, k)]) = pm(cc[ci(0, k, 0)], cc[ci(0, k, 1)]);
    }
    if ido.is_multiple_of(2) {
        for k in 0..l1 {
            ch[hi(0, 1, k)] = -cc[ci(ido - 1, k, 1)];
            ch[hi(ido - 1, 0, k)] = cc[ci(ido - 1, k, 0)];
        }
    }
    if ido <= 2 {
        return;
    }
    for k in 0..l1 {
        for i in (2..ido).step_by(2) {
            let ic = ido - i;
            let (tr2, ti2) = mulpm(wa[i - 2], wa[i - 1], cc[ci(i - 1, k, 1)], cc[ci(i, k, 1)]);
            (ch[hi(i - 1, 0, k)], ch[hi(ic - 1, 1, k)]) = pm(cc[ci(i - 1, k, 0)], tr2);
            (ch[hi(i, 0, k)], ch[hi(ic, 1, k)]) = pm(ti2, cc[ci(i, k, 0)]);
        }
    }
}

/// pocketfft's `REARRANGE`: `(rx, ix, ry, iy) → (rx + ry, ix + iy, ix − iy, ry − rx)`.
#[inline(always)]
fn rearrange<T: PassElem>(rx: T, ix: T, ry: T, iy: T) -> (T, T, T, T) {
    (rx + ry, ix + iy, ix - iy, ry - rx)
}

const TAUI: f64 = 0.866_025_403_784_438_6; // sin(2π/3)
const HSQT2: f64 = std::f64::consts::FRAC_1_SQRT_2;
const SQRT2: f64 = std::f64::consts::SQRT_2;
const TR11: f64 = 0.309_016_994_374_947_45; // cos(2π/5)
const TI11: f64 = 0.951_056_516_295_153_5; // sin(2π/5)
const TR12: f64 = -0.809_016_994_374_947_5; // cos(4π/5)
const TI12: f64 = 0.587_785_252_292_473_1; // sin(4π/5)

#[cfg_attr(not(debug_assertions), inline(always))]
fn radf3<T: PassElem>(ido: usize, l1: usize, cc: &[T], ch: &mut [T], wa: &[T]) {
    let taur = T::from_f64(-0.5);
    let taui = T::from_f64(TAUI);
    let ci = |a: usize, b: usize, c: usize| a + ido * (b + l1 * c);
    let hi = |a: usize, b: usize, c: usize| a + ido * (b + 3 * c);
    let w = |x: usize, i: usize| wa[i + x * (ido - 1)];
    for k in 0..l1 {
        let cr2 = cc[ci(0, k, 1)] + cc[ci(0, k, 2)];
        ch[hi(0, 0, k)] = cc[ci(0, k, 0)] + cr2;
        ch[hi(0, 2, k)] = taui * (cc[ci(0, k, 2)] - cc[ci(0, k, 1)]);
        ch[hi(ido - 1, 1, k)] = cc[ci(0, k, 0)] + taur * cr2;
    }
    if ido == 1 {
        return;
    }
    for k in 0..l1 {
        for i in (2..ido).step_by(2) {
            let ic = ido - i;
            let (dr2, di2) = mulpm(
                w(0, i - 2),
                w(0, i - 1),
                cc[ci(i - 1, k, 1)],
                cc[ci(i, k, 1)],
            );
            let (dr3, di3) = mulpm(
                w(1, i - 2),
                w(1, i - 1),
                cc[ci(i - 1, k, 2)],
                cc[ci(i, k, 2)],
            );
            let (dr2, di2, dr3, di3) = rearrange(dr2, di2, dr3, di3);
            ch[hi(i - 1, 0, k)] = cc[ci(i - 1, k, 0)] + dr2;
            ch[hi(i, 0, k)] = cc[ci(i, k, 0)] + di2;
            let tr2 = cc[ci(i - 1, k, 0)] + taur * dr2;
            let ti2 = cc[ci(i, k, 0)] + taur * di2;
            let tr3 = taui * dr3;
            let ti3 = taui * di3;
            (ch[hi(i - 1, 2, k)], ch[hi(ic - 1, 1, k)]) = pm(tr2, tr3);
            (ch[hi(i, 2, k)], ch[hi(ic, 1, k)]) = pm(ti3, ti2);
        }
    }
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn radf4<T: PassElem>(ido: usize, l1: usize, cc: &[T], ch: &mut [T], wa: &[T]) {
    let hsqt2 = T::from_f64(HSQT2);
    let ci = |a: usize, b: usize, c: usize| a + ido * (b + l1 * c);
    let hi = |a: usize, b: usize, c: usize| a + ido * (b + 4 * c);
    let w = |x: usize, i: usize| wa[i + x * (ido - 1)];
    for k in 0..l1 {
        let tr1;
        let tr2;
        (tr1, ch[hi(0, 2, k)]) = pm(cc[ci(0, k, 3)], cc[ci(0, k, 1)]);
        (tr2, ch[hi(ido - 1, 1, k)]) = pm(cc[ci(0, k, 0)], cc[ci(0, k, 2)]);
        (ch[hi(0, 0, k)], ch[hi(ido - 1, 3, k)]) = pm(tr2, tr1);
    }
    if ido.is_multiple_of(2) {
        for k in 0..l1 {
            let ti1 = -hsqt2 * (cc[ci(ido - 1, k, 1)] + cc[ci(ido - 1, k, 3)]);
            let tr1 = hsqt2 * (cc[ci(ido - 1, k, 1)] - cc[ci(ido - 1, k, 3)]);
            (ch[hi(ido - 1, 0, k)], ch[hi(ido - 1, 2, k)]) = pm(cc[ci(ido - 1, k, 0)], tr1);
            (ch[hi(0, 3, k)], ch[hi(0, 1, k)]) = pm(ti1, cc[ci(ido - 1, k, 2)]);
        }
    }
    if ido <= 2 {
        return;
    }
    for k in 0..l1 {
        for i in (2..ido).step_by(2) {
            let ic = ido - i;
            let (cr2, ci2) = mulpm(
                w(0, i - 2),
                w(0, i - 1),
                cc[ci(i - 1, k, 1)],
                cc[ci(i, k, 1)],
            );
            let (cr3, ci3) = mulpm(
                w(1, i - 2),
                w(1, i - 1),
                cc[ci(i - 1, k, 2)],
                cc[ci(i, k, 2)],
            );
            let (cr4, ci4) = mulpm(
                w(2, i - 2),
                w(2, i - 1),
                cc[ci(i - 1, k, 3)],
                cc[ci(i, k, 3)],
            );
            let (tr1, tr4) = pm(cr4, cr2);
            let (ti1, ti4) = pm(ci2, ci4);
            let (tr2, tr3) = pm(cc[ci(i - 1, k, 0)], cr3);
            let (ti2, ti3) = pm(cc[ci(i, k, 0)], ci3);
            (ch[hi(i - 1, 0, k)], ch[hi(ic - 1, 3, k)]) = pm(tr2, tr1);
            (ch[hi(i, 0, k)], ch[hi(ic, 3, k)]) = pm(ti1, ti2);
            (ch[hi(i - 1, 2, k)], ch[hi(ic - 1, 1, k)]) = pm(tr3, ti4);
            (ch[hi(i, 2, k)], ch[hi(ic, 1, k)]) = pm(tr4, ti3);
        }
    }
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn radf5<T: PassElem>(ido: usize, l1: usize, cc: &[T], ch: &mut [T], wa: &[T]) {
    let (tr11, ti11, tr12, ti12) = (
        T::from_f64(TR11),
        T::from_f64(TI11),
        T::from_f64(TR12),
        T::from_f64(TI12),
    );
    let ci = |a: usize, b: usize, c: usize| a + ido * (b + l1 * c);
    let hi = |a: usize, b: usize, c: usize| a + ido * (b + 5 * c);
    let w = |x: usize, i: usize| wa[i + x * (ido - 1)];
    for k in 0..l1 {
        let (cr2, ci5) = pm(cc[ci(0, k, 4)], cc[ci(0, k, 1)]);
        let (cr3, ci4) = pm(cc[ci(0, k, 3)], cc[ci(0, k, 2)]);
        let c0 = cc[ci(0, k, 0)];
        ch[hi(0, 0, k)] = c0 + cr2 + cr3;
        ch[hi(ido - 1, 1, k)] = c0 + tr11 * cr2 + tr12 * cr3;
        ch[hi(0, 2, k)] = ti11 * ci5 + ti12 * ci4;
        ch[hi(ido - 1, 3, k)] = c0 + tr12 * cr2 + tr11 * cr3;
        ch[hi(0, 4, k)] = ti12 * ci5 - ti11 * ci4;
    }
    if ido == 1 {
        return;
    }
    for k in 0..l1 {
        for i in (2..ido).step_by(2) {
            let ic = ido - i;
            let (dr2, di2) = mulpm(
                w(0, i - 2),
                w(0, i - 1),
                cc[ci(i - 1, k, 1)],
                cc[ci(i, k, 1)],
            );
            let (dr3, di3) = mulpm(
                w(1, i - 2),
                w(1, i - 1),
                cc[ci(i - 1, k, 2)],
                cc[ci(i, k, 2)],
            );
            let (dr4, di4) = mulpm(
                w(2, i - 2),
                w(2, i - 1),
                cc[ci(i - 1, k, 3)],
                cc[ci(i, k, 3)],
            );
            let (dr5, di5) = mulpm(
                w(3, i - 2),
                w(3, i - 1),
                cc[ci(i - 1, k, 4)],
                cc[ci(i, k, 4)],
            );
            let (dr2, di2, dr5, di5) = rearrange(dr2, di2, dr5, di5);
            let (dr3, di3, dr4, di4) = rearrange(dr3, di3, dr4, di4);
            let (c0r, c0i) = (cc[ci(i - 1, k, 0)], cc[ci(i, k, 0)]);
            ch[hi(i - 1, 0, k)] = c0r + dr2 + dr3;
            ch[hi(i, 0, k)] = c0i + di2 + di3;
            let tr2 = c0r + tr11 * dr2 + tr12 * dr3;
            let ti2 = c0i + tr11 * di2 + tr12 * di3;
            let tr3 = c0r + tr12 * dr2 + tr11 * dr3;
            let ti3 = c0i + tr12 * di2 + tr11 * di3;
            let tr5 = ti11 * dr5 + ti12 * dr4;
            let ti5 = ti11 * di5 + ti12 * di4;
            let tr4 = ti12 * dr5 - ti11 * dr4;
            let ti4 = ti12 * di5 - ti11 * di4;
            (ch[hi(i - 1, 2, k)], ch[hi(ic - 1, 1, k)]) = pm(tr2, tr5);
            (ch[hi(i, 2, k)], ch[hi(ic, 1, k)]) = pm(ti5, ti2);
            (ch[hi(i - 1, 4, k)], ch[hi(ic - 1, 3, k)]) = pm(tr3, tr4);
            (ch[hi(i, 4, k)], ch[hi(ic, 3, k)]) = pm(ti4, ti3);
        }
    }
}

/// The `l`/`lc` accumulation shared by [`radfg`] and [`radbg`]: `dst(·, l) = src(·, 0) +
/// Σ_j cos(2πjl/ip)·src(·, j)`, `dst(·, lc) = Σ_j sin(2πjl/ip)·src(·, ip−j)`, in pocketfft's
/// grouping (terms in fours, then twos, then ones, each group summed before it is added).
#[cfg_attr(not(debug_assertions), inline(always))]
fn gen_accumulate<T: PassElem>(ip: usize, idl1: usize, src: &[T], dst: &mut [T], cs: &[T]) {
    let ipph = ip.div_ceil(2);
    let s = |ik: usize, j: usize| src[ik + idl1 * j];
    for l in 1..ipph {
        let lc = ip - l;
        for ik in 0..idl1 {
            dst[ik + idl1 * l] = s(ik, 0) + cs[2 * l] * s(ik, 1) + cs[4 * l] * s(ik, 2);
            dst[ik + idl1 * lc] = cs[2 * l + 1] * s(ik, ip - 1) + cs[4 * l + 1] * s(ik, ip - 2);
        }
        let mut iang = 2 * l;
        let mut next = || {
            iang += l;
            if iang >= ip {
                iang -= ip;
            }
            (cs[2 * iang], cs[2 * iang + 1])
        };
        let (mut j, mut jc) = (3, ip - 3);
        while j + 3 < ipph {
            let (ar1, ai1) = next();
            let (ar2, ai2) = next();
            let (ar3, ai3) = next();
            let (ar4, ai4) = next();
            for ik in 0..idl1 {
                let a =
                    ar1 * s(ik, j) + ar2 * s(ik, j + 1) + ar3 * s(ik, j + 2) + ar4 * s(ik, j + 3);
                let b = ai1 * s(ik, jc)
                    + ai2 * s(ik, jc - 1)
                    + ai3 * s(ik, jc - 2)
                    + ai4 * s(ik, jc - 3);
                dst[ik + idl1 * l] = dst[ik + idl1 * l] + a;
                dst[ik + idl1 * lc] = dst[ik + idl1 * lc] + b;
            }
            j += 4;
            jc -= 4;
        }
        while j + 1 < ipph {
            let (ar1, ai1) = next();
            let (ar2, ai2) = next();
            for ik in 0..idl1 {
                let a = ar1 * s(ik, j) + ar2 * s(ik, j + 1);
                let b = ai1 * s(ik, jc) + ai2 * s(ik, jc - 1);
                dst[ik + idl1 * l] = dst[ik + idl1 * l] + a;
                dst[ik + idl1 * lc] = dst[ik + idl1 * lc] + b;
            }
            j += 2;
            jc -= 2;
        }
        while j < ipph {
            let (ar, ai) = next();
            for ik in 0..idl1 {
                dst[ik + idl1 * l] = dst[ik + idl1 * l] + ar * s(ik, j);
                dst[ik + idl1 * lc] = dst[ik + idl1 * lc] + ai * s(ik, jc);
            }
            j += 1;
            jc -= 1;
        }
    }
}

/// Generic odd radix, forward: the result is left in `cc`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn radfg<T: PassElem>(
    ido: usize,
    ip: usize,
    l1: usize,
    cc: &mut [T],
    ch: &mut [T],
    wa: &[T],
    cs: &[T],
) {
    let ipph = ip.div_ceil(2);
    let idl1 = ido * l1;
    let c1 = |a: usize, b: usize, c: usize| a + ido * (b + l1 * c); // C1, CH
    let ccx = |a: usize, b: usize, c: usize| a + ido * (b + ip * c); // CC
    if ido > 1 {
        for j in 1..ipph {
            let jc = ip - j;
            let is = (j - 1) * (ido - 1);
            let is2 = (jc - 1) * (ido - 1);
            for k in 0..l1 {
                let (mut idij, mut idij2) = (is, is2);
                for i in (1..=ido - 2).step_by(2) {
                    let (t1, t2) = (cc[c1(i, k, j)], cc[c1(i + 1, k, j)]);
                    let (t3, t4) = (cc[c1(i, k, jc)], cc[c1(i + 1, k, jc)]);
                    let x1 = wa[idij] * t1 + wa[idij + 1] * t2;
                    let x2 = wa[idij] * t2 - wa[idij + 1] * t1;
                    let x3 = wa[idij2] * t3 + wa[idij2 + 1] * t4;
                    let x4 = wa[idij2] * t4 - wa[idij2 + 1] * t3;
                    (cc[c1(i, k, j)], cc[c1(i + 1, k, jc)]) = pm(x3, x1);
                    (cc[c1(i + 1, k, j)], cc[c1(i, k, jc)]) = pm(x2, x4);
                    idij += 2;
                    idij2 += 2;
                }
            }
        }
    }
    for j in 1..ipph {
        let jc = ip - j;
        for k in 0..l1 {
            // MPINPLACE(a = C1(0,k,jc), b = C1(0,k,j)): a − b, a + b
            let (a, b) = (cc[c1(0, k, jc)], cc[c1(0, k, j)]);
            cc[c1(0, k, jc)] = a - b;
            cc[c1(0, k, j)] = a + b;
        }
    }
    gen_accumulate(ip, idl1, cc, ch, cs);
    ch[..idl1].copy_from_slice(&cc[..idl1]);
    for j in 1..ipph {
        for ik in 0..idl1 {
            ch[ik] = ch[ik] + cc[ik + idl1 * j];
        }
    }
    for k in 0..l1 {
        for i in 0..ido {
            cc[ccx(i, 0, k)] = ch[c1(i, k, 0)];
        }
    }
    for j in 1..ipph {
        let jc = ip - j;
        let j2 = 2 * j - 1;
        for k in 0..l1 {
            cc[ccx(ido - 1, j2, k)] = ch[c1(0, k, j)];
            cc[ccx(0, j2 + 1, k)] = ch[c1(0, k, jc)];
        }
    }
    if ido == 1 {
        return;
    }
    for j in 1..ipph {
        let jc = ip - j;
        let j2 = 2 * j - 1;
        for k in 0..l1 {
            for i in (1..=ido - 2).step_by(2) {
                let ic = ido - i - 2;
                cc[ccx(i, j2 + 1, k)] = ch[c1(i, k, j)] + ch[c1(i, k, jc)];
                cc[ccx(ic, j2, k)] = ch[c1(i, k, j)] - ch[c1(i, k, jc)];
                cc[ccx(i + 1, j2 + 1, k)] = ch[c1(i + 1, k, j)] + ch[c1(i + 1, k, jc)];
                cc[ccx(ic + 1, j2, k)] = ch[c1(i + 1, k, jc)] - ch[c1(i + 1, k, j)];
            }
        }
    }
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn radb2<T: PassElem>(ido: usize, l1: usize, cc: &[T], ch: &mut [T], wa: &[T]) {
    let two = T::from_f64(2.0);
    let ci = |a: usize, b: usize, c: usize| a + ido * (b + 2 * c);
    let hi = |a: usize, b: usize, c: usize| a + ido * (b + l1 * c);
    for k in 0..l1 {
        (ch[hi(0, k, 0)], ch[hi(0, k, 1)]) = pm(cc[ci(0, 0, k)], cc[ci(ido - 1, 1, k)]);
    }
    if ido.is_multiple_of(2) {
        for k in 0..l1 {
            ch[hi(ido - 1, k, 0)] = two * cc[ci(ido - 1, 0, k)];
            ch[hi(ido - 1, k, 1)] = -two * cc[ci(0, 1, k)];
        }
    }
    if ido <= 2 {
        return;
    }
    for k in 0..l1 {
        for i in (2..ido).step_by(2) {
            let ic = ido - i;
            let tr2;
            let ti2;
            (ch[hi(i - 1, k, 0)], tr2) = pm(cc[ci(i - 1, 0, k)], cc[ci(ic - 1, 1, k)]);
            (ti2, ch[hi(i, k, 0)]) = pm(cc[ci(i, 0, k)], cc[ci(ic, 1, k)]);
            (ch[hi(i, k, 1)], ch[hi(i - 1, k, 1)]) = mulpm(wa[i - 2], wa[i - 1], ti2, tr2);
        }
    }
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn radb3<T: PassElem>(ido: usize, l1: usize, cc: &[T], ch: &mut [T], wa: &[T]) {
    let two = T::from_f64(2.0);
    let taur = T::from_f64(-0.5);
    let taui = T::from_f64(TAUI);
    let taui2 = T::from_f64(2.0 * TAUI);
    let ci = |a: usize, b: usize, c: usize| a + ido * (b + 3 * c);
    let hi = |a: usize, b: usize, c: usize| a + ido * (b + l1 * c);
    let w = |x: usize, i: usize| wa[i + x * (ido - 1)];
    for k in 0..l1 {
        let tr2 = two * cc[ci(ido - 1, 1, k)];
        let cr2 = cc[ci(0, 0, k)] + taur * tr2;
        ch[hi(0, k, 0)] = cc[ci(0, 0, k)] + tr2;
        let ci3 = taui2 * cc[ci(0, 2, k)];
        (ch[hi(0, k, 2)], ch[hi(0, k, 1)]) = pm(cr2, ci3);
    }
    if ido == 1 {
        return;
    }
    for k in 0..l1 {
        for i in (2..ido).step_by(2) {
            let ic = ido - i;
            let tr2 = cc[ci(i - 1, 2, k)] + cc[ci(ic - 1, 1, k)];
            let ti2 = cc[ci(i, 2, k)] - cc[ci(ic, 1, k)];
            let cr2 = cc[ci(i - 1, 0, k)] + taur * tr2;
            let ci2 = cc[ci(i, 0, k)] + taur * ti2;
            ch[hi(i - 1, k, 0)] = cc[ci(i - 1, 0, k)] + tr2;
            ch[hi(i, k, 0)] = cc[ci(i, 0, k)] + ti2;
            let cr3 = taui * (cc[ci(i - 1, 2, k)] - cc[ci(ic - 1, 1, k)]);
            let ci3 = taui * (cc[ci(i, 2, k)] + cc[ci(ic, 1, k)]);
            let (dr3, dr2) = pm(cr2, ci3);
            let (di2, di3) = pm(ci2, cr3);
            (ch[hi(i, k, 1)], ch[hi(i - 1, k, 1)]) = mulpm(w(0, i - 2), w(0, i - 1), di2, dr2);
            (ch[hi(i, k, 2)], ch[hi(i - 1, k, 2)]) = mulpm(w(1, i - 2), w(1, i - 1), di3, dr3);
        }
    }
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn radb4<T: PassElem>(ido: usize, l1: usize, cc: &[T], ch: &mut [T], wa: &[T]) {
    let two = T::from_f64(2.0);
    let sqrt2 = T::from_f64(SQRT2);
    let ci = |a: usize, b: usize, c: usize| a + ido * (b + 4 * c);
    let hi = |a: usize, b: usize, c: usize| a + ido * (b + l1 * c);
    let w = |x: usize, i: usize| wa[i + x * (ido - 1)];
    for k in 0..l1 {
        let (tr2, tr1) = pm(cc[ci(0, 0, k)], cc[ci(ido - 1, 3, k)]);
        let tr3 = two * cc[ci(ido - 1, 1, k)];
        let tr4 = two * cc[ci(0, 2, k)];
        (ch[hi(0, k, 0)], ch[hi(0, k, 2)]) = pm(tr2, tr3);
        (ch[hi(0, k, 3)], ch[hi(0, k, 1)]) = pm(tr1, tr4);
    }
    if ido.is_multiple_of(2) {
        for k in 0..l1 {
            let (ti1, ti2) = pm(cc[ci(0, 3, k)], cc[ci(0, 1, k)]);
            let (tr2, tr1) = pm(cc[ci(ido - 1, 0, k)], cc[ci(ido - 1, 2, k)]);
            ch[hi(ido - 1, k, 0)] = tr2 + tr2;
            ch[hi(ido - 1, k, 1)] = sqrt2 * (tr1 - ti1);
            ch[hi(ido - 1, k, 2)] = ti2 + ti2;
            ch[hi(ido - 1, k, 3)] = -sqrt2 * (tr1 + ti1);
        }
    }
    if ido <= 2 {
        return;
    }
    for k in 0..l1 {
        for i in (2..ido).step_by(2) {
            let ic = ido - i;
            let (tr2, tr1) = pm(cc[ci(i - 1, 0, k)], cc[ci(ic - 1, 3, k)]);
            let (ti1, ti2) = pm(cc[ci(i, 0, k)], cc[ci(ic, 3, k)]);
            let (tr4, ti3) = pm(cc[ci(i, 2, k)], cc[ci(ic, 1, k)]);
            let (tr3, ti4) = pm(cc[ci(i - 1, 2, k)], cc[ci(ic - 1, 1, k)]);
            let cr3;
            let ci3;
            (ch[hi(i - 1, k, 0)], cr3) = pm(tr2, tr3);
            (ch[hi(i, k, 0)], ci3) = pm(ti2, ti3);
            let (cr4, cr2) = pm(tr1, tr4);
            let (ci2, ci4) = pm(ti1, ti4);
            (ch[hi(i, k, 1)], ch[hi(i - 1, k, 1)]) = mulpm(w(0, i - 2), w(0, i - 1), ci2, cr2);
            (ch[hi(i, k, 2)], ch[hi(i - 1, k, 2)]) = mulpm(w(1, i - 2), w(1, i - 1), ci3, cr3);
            (ch[hi(i, k, 3)], ch[hi(i - 1, k, 3)]) = mulpm(w(2, i - 2), w(2, i - 1), ci4, cr4);
        }
    }
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn radb5<T: PassElem>(ido: usize, l1: usize, cc: &[T], ch: &mut [T], wa: &[T]) {
    let (tr11, ti11, tr12, ti12) = (
        T::from_f64(TR11),
        T::from_f64(TI11),
        T::from_f64(TR12),
        T::from_f64(TI12),
    );
    let ci = |a: usize, b: usize, c: usize| a + ido * (b + 5 * c);
    let hi = |a: usize, b: usize, c: usize| a + ido * (b + l1 * c);
    let w = |x: usize, i: usize| wa[i + x * (ido - 1)];
    for k in 0..l1 {
        let ti5 = cc[ci(0, 2, k)] + cc[ci(0, 2, k)];
        let ti4 = cc[ci(0, 4, k)] + cc[ci(0, 4, k)];
        let tr2 = cc[ci(ido - 1, 1, k)] + cc[ci(ido - 1, 1, k)];
        let tr3 = cc[ci(ido - 1, 3, k)] + cc[ci(ido - 1, 3, k)];
        let c0 = cc[ci(0, 0, k)];
        ch[hi(0, k, 0)] = c0 + tr2 + tr3;
        let cr2 = c0 + tr11 * tr2 + tr12 * tr3;
        let cr3 = c0 + tr12 * tr2 + tr11 * tr3;
        let (ci5, ci4) = mulpm(ti5, ti4, ti11, ti12);
        (ch[hi(0, k, 4)], ch[hi(0, k, 1)]) = pm(cr2, ci5);
        (ch[hi(0, k, 3)], ch[hi(0, k, 2)]) = pm(cr3, ci4);
    }
    if ido == 1 {
        return;
    }
    for k in 0..l1 {
        for i in (2..ido).step_by(2) {
            let ic = ido - i;
            let (tr2, tr5) = pm(cc[ci(i - 1, 2, k)], cc[ci(ic - 1, 1, k)]);
            let (ti5, ti2) = pm(cc[ci(i, 2, k)], cc[ci(ic, 1, k)]);
            let (tr3, tr4) = pm(cc[ci(i - 1, 4, k)], cc[ci(ic - 1, 3, k)]);
            let (ti4, ti3) = pm(cc[ci(i, 4, k)], cc[ci(ic, 3, k)]);
            let (c0r, c0i) = (cc[ci(i - 1, 0, k)], cc[ci(i, 0, k)]);
            ch[hi(i - 1, k, 0)] = c0r + tr2 + tr3;
            ch[hi(i, k, 0)] = c0i + ti2 + ti3;
            let cr2 = c0r + tr11 * tr2 + tr12 * tr3;
            let ci2 = c0i + tr11 * ti2 + tr12 * ti3;
            let cr3 = c0r + tr12 * tr2 + tr11 * tr3;
            let ci3 = c0i + tr12 * ti2 + tr11 * ti3;
            let (cr5, cr4) = mulpm(tr5, tr4, ti11, ti12);
            let (ci5, ci4) = mulpm(ti5, ti4, ti11, ti12);
            let (dr4, dr3) = pm(cr3, ci4);
            let (di3, di4) = pm(ci3, cr4);
            let (dr5, dr2) = pm(cr2, ci5);
            let (di2, di5) = pm(ci2, cr5);
            (ch[hi(i, k, 1)], ch[hi(i - 1, k, 1)]) = mulpm(w(0, i - 2), w(0, i - 1), di2, dr2);
            (ch[hi(i, k, 2)], ch[hi(i - 1, k, 2)]) = mulpm(w(1, i - 2), w(1, i - 1), di3, dr3);
            (ch[hi(i, k, 3)], ch[hi(i - 1, k, 3)]) = mulpm(w(2, i - 2), w(2, i - 1), di4, dr4);
            (ch[hi(i, k, 4)], ch[hi(i - 1, k, 4)]) = mulpm(w(3, i - 2), w(3, i - 1), di5, dr5);
        }
    }
}

/// Generic odd radix, backward: the result is in `ch`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn radbg<T: PassElem>(
    ido: usize,
    ip: usize,
    l1: usize,
    cc: &mut [T],
    ch: &mut [T],
    wa: &[T],
    cs: &[T],
) {
    let two = T::from_f64(2.0);
    let ipph = ip.div_ceil(2);
    let idl1 = ido * l1;
    let ccx = |a: usize, b: usize, c: usize| a + ido * (b + ip * c); // CC
    let c1 = |a: usize, b: usize, c: usize| a + ido * (b + l1 * c); // C1, CH
    for k in 0..l1 {
        for i in 0..ido {
            ch[c1(i, k, 0)] = cc[ccx(i, 0, k)];
        }
    }
    for j in 1..ipph {
        let jc = ip - j;
        let j2 = 2 * j - 1;
        for k in 0..l1 {
            ch[c1(0, k, j)] = two * cc[ccx(ido - 1, j2, k)];
            ch[c1(0, k, jc)] = two * cc[ccx(0, j2 + 1, k)];
        }
    }
    if ido != 1 {
        for j in 1..ipph {
            let jc = ip - j;
            let j2 = 2 * j - 1;
            for k in 0..l1 {
                for i in (1..=ido - 2).step_by(2) {
                    let ic = ido - i - 2;
                    ch[c1(i, k, j)] = cc[ccx(i, j2 + 1, k)] + cc[ccx(ic, j2, k)];
                    ch[c1(i, k, jc)] = cc[ccx(i, j2 + 1, k)] - cc[ccx(ic, j2, k)];
                    ch[c1(i + 1, k, j)] = cc[ccx(i + 1, j2 + 1, k)] - cc[ccx(ic + 1, j2, k)];
                    ch[c1(i + 1, k, jc)] = cc[ccx(i + 1, j2 + 1, k)] + cc[ccx(ic + 1, j2, k)];
                }
            }
        }
    }
    gen_accumulate(ip, idl1, ch, cc, cs);
    for j in 1..ipph {
        for ik in 0..idl1 {
            ch[ik] = ch[ik] + ch[ik + idl1 * j];
        }
    }
    for j in 1..ipph {
        let jc = ip - j;
        for k in 0..l1 {
            (ch[c1(0, k, jc)], ch[c1(0, k, j)]) = pm(cc[c1(0, k, j)], cc[c1(0, k, jc)]);
        }
    }
    if ido == 1 {
        return;
    }
    for j in 1..ipph {
        let jc = ip - j;
        for k in 0..l1 {
            for i in (1..=ido - 2).step_by(2) {
                ch[c1(i, k, j)] = cc[c1(i, k, j)] - cc[c1(i + 1, k, jc)];
                ch[c1(i, k, jc)] = cc[c1(i, k, j)] + cc[c1(i + 1, k, jc)];
                ch[c1(i + 1, k, j)] = cc[c1(i + 1, k, j)] + cc[c1(i, k, jc)];
                ch[c1(i + 1, k, jc)] = cc[c1(i + 1, k, j)] - cc[c1(i, k, jc)];
            }
        }
    }
    for j in 1..ip {
        let is = (j - 1) * (ido - 1);
        for k in 0..l1 {
            let mut idij = is;
            for i in (1..=ido - 2).step_by(2) {
                let (t1, t2) = (ch[c1(i, k, j)], ch[c1(i + 1, k, j)]);
                ch[c1(i, k, j)] = wa[idij] * t1 - wa[idij + 1] * t2;
                ch[c1(i + 1, k, j)] = wa[idij] * t2 + wa[idij + 1] * t1;
                idij += 2;
            }
        }
    }
}

/// Whether [`RealPasses`] transform `n` points: pocketfft's real-transform cost rule, which
/// picks Bluestein for the others.
pub(crate) fn passes_fit(n: usize) -> bool {
    !pocketfft_uses_bluestein(n, 0.5)
}

/// A float real transform of one length: pocketfft's `pocketfft_r` (real passes, or complex
/// Bluestein of the full length where pocketfft's real-transform cost rule picks it).
pub(crate) enum RealFft<T> {
    Passes(RealPasses<T>),
    Blue(PocketBlue<T>),
}

impl<T: FftFloat> RealFft<T> {
    pub(crate) fn new(n: usize) -> SkResult<Self> {
        Ok(if !passes_fit(n) {
            RealFft::Blue(PocketBlue::new(n, good_size_rule(2 * n - 1))?)
        } else {
            RealFft::Passes(RealPasses::new(n)?)
        })
    }

    /// Complex scratch values [`RealFft::forward_blue`] / [`RealFft::inverse_blue`] need (the
    /// passes need `n` reals, i.e. `⌈n/2⌉` complex values).
    pub(crate) fn scratch_len(&self, n: usize) -> usize {
        match self {
            RealFft::Passes(_) => n.div_ceil(2),
            RealFft::Blue(b) => n + b.scratch_len(),
        }
    }

    /// Bluestein forward (`exec_r`): `y[k] = Σ x_j e^{−2πijk/n}`, `k ≤ n/2`, with the
    /// imaginary parts of bin 0 and (even n) bin n/2 exactly zero, as numpy.
    pub(crate) fn forward_blue(
        b: &PocketBlue<T>,
        x: &[T],
        y: &mut [Complex<T>],
        scratch: &mut [Complex<T>],
    ) {
        let n = x.len();
        let (buf, s) = scratch.split_at_mut(n);
        // pocketfft's imaginary parts: x[0]·0 (a signed zero)
        let zero = x[0] * T::ZERO;
        for (b, &x) in buf.iter_mut().zip(x) {
            *b = Complex::new(x, zero);
        }
        b.fft::<true>(buf, s);
        let h = n / 2 + 1;
        y[..h].copy_from_slice(&buf[..h]);
        y[0].im = T::ZERO;
        if n.is_multiple_of(2) {
            y[n / 2].im = T::ZERO;
        }
    }

    /// Bluestein inverse (`exec_r`): the Hermitian extension of `x` (imaginary parts of bin 0
    /// and, even n, bin n/2 ignored), inverse complex transform, real parts.
    pub(crate) fn inverse_blue(
        b: &PocketBlue<T>,
        x: &[Complex<T>],
        y: &mut [T],
        scratch: &mut [Complex<T>],
    ) {
        let n = y.len();
        let (buf, s) = scratch.split_at_mut(n);
        let zero = x[0].re * T::ZERO;
        buf[0] = Complex::new(x[0].re, zero);
        buf[1..=n / 2].copy_from_slice(&x[1..=n / 2]);
        if n.is_multiple_of(2) {
            buf[n / 2].im = zero;
        }
        for m in 1..n.div_ceil(2) {
            buf[n - m] = Complex::new(buf[m].re, -buf[m].im);
        }
        b.fft::<false>(buf, s);
        for (y, b) in y.iter_mut().zip(buf.iter()) {
            *y = b.re;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;

    /// Direct real DFT with exact twiddles, compensated sums: bins `0..=n/2`.
    fn dft_real(x: &[f64]) -> Vec<(f64, f64)> {
        let n = x.len();
        let roots: Vec<(f64, f64)> = (0..n).map(|k| unit_root(k, n)).collect();
        (0..=n / 2)
            .map(|k| {
                let (mut re, mut cre, mut im, mut cim) = (0.0, 0.0, 0.0, 0.0);
                for (j, &v) in x.iter().enumerate() {
                    let (c, s) = roots[j * k % n];
                    for (acc, comp, term) in
                        [(&mut re, &mut cre, v * c), (&mut im, &mut cim, -v * s)]
                    {
                        let y = term - *comp;
                        let t = *acc + y;
                        *comp = (t - *acc) - y;
                        *acc = t;
                    }
                }
                (re, im)
            })
            .collect()
    }

    /// Direct inverse real DFT (Hermitian extension of `x`, imag of bins 0 and n/2 ignored).
    fn idft_real(x: &[(f64, f64)], n: usize) -> Vec<f64> {
        let roots: Vec<(f64, f64)> = (0..n).map(|k| unit_root(k, n)).collect();
        (0..n)
            .map(|j| {
                let (mut acc, mut comp) = (0.0, 0.0);
                let mut add = |term: f64| {
                    let y = term - comp;
                    let t = acc + y;
                    comp = (t - acc) - y;
                    acc = t;
                };
                add(x[0].0);
                for (k, &(re, im)) in x.iter().enumerate().take(n.div_ceil(2)).skip(1) {
                    let (c, s) = roots[j * k % n];
                    add(2.0 * re * c);
                    add(-2.0 * im * s);
                }
                if n.is_multiple_of(2) && n > 0 {
                    let sign = if j % 2 == 0 { 1.0 } else { -1.0 };
                    add(sign * x[n / 2].0);
                }
                acc
            })
            .collect()
    }

    fn pack(x: &[(f64, f64)], n: usize) -> Vec<f64> {
        let mut r = vec![0.0; n];
        r[0] = x[0].0;
        for k in 1..n.div_ceil(2) {
            r[2 * k - 1] = x[k].0;
            r[2 * k] = x[k].1;
        }
        if n.is_multiple_of(2) && n > 1 {
            r[n - 1] = x[n / 2].0;
        }
        r
    }

    fn rel(a: &[f64], b: &[f64]) -> f64 {
        let num: f64 = a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum();
        let den: f64 = b.iter().map(|y| y * y).sum();
        (num / den.max(1e-300)).sqrt()
    }

    fn lengths() -> impl Iterator<Item = usize> {
        (1..=200usize).chain([
            243,
            256,
            400,
            480,
            509,
            625,
            720,
            960,
            1000,
            1001,
            1009,
            2 * 1009,
            2 * 3 * 5 * 7 * 11,
            3 * 7 * 11 * 13,
            4096,
            4099,
            4 * 1021,
            7 * 7 * 7 * 11,
        ])
    }

    /// Forward, backward and the round trip of the real passes (every length, whether or not
    /// pocketfft would use Bluestein there) and of [`RealFft`], against the direct DFT.
    #[test]
    fn real_passes_match_direct_dft() {
        let mut rng = Rng::new(17);
        for n in lengths() {
            let x: Vec<f64> = (0..n).map(|_| rng.uniform() - 0.5).collect();
            let want = dft_real(&x);
            let want_packed = pack(&want, n);
            // a few ulp·log n, plus the O(p) sums of a generic radix p
            let lpf = factorize(n).into_iter().max().unwrap_or(1) as f64;
            let tol = 2e-16 * (2.0 + (n as f64).log2()) + 1e-16 * lpf.sqrt();
            let p = RealPasses::<f64>::new(n).unwrap();
            let mut ch = vec![0.0; n];
            let mut y = x.clone();
            p.forward(&mut y, &mut ch);
            let e = rel(&y, &want_packed);
            assert!(e <= tol, "forward n={n}: {e:e}");
            // backward of random halfcomplex data
            let xh: Vec<(f64, f64)> = (0..=n / 2)
                .map(|k| {
                    let im = if k == 0 || 2 * k == n {
                        0.0
                    } else {
                        rng.uniform() - 0.5
                    };
                    (rng.uniform() - 0.5, im)
                })
                .collect();
            let want_b = idft_real(&xh, n);
            let mut z = pack(&xh, n);
            p.backward(&mut z, &mut ch);
            let e = rel(&z, &want_b);
            assert!(e <= tol, "backward n={n}: {e:e}");
            // round trip: backward(forward(x)) = n·x
            let mut rt = y.clone();
            p.backward(&mut rt, &mut ch);
            rt.iter_mut().for_each(|v| *v /= n as f64);
            let e = rel(&rt, &x);
            assert!(e <= 2.0 * tol, "round trip n={n}: {e:e}");

            // the plan as used (Bluestein where pocketfft's rule picks it)
            let plan = RealFft::<f64>::new(n).unwrap();
            if let RealFft::Blue(b) = &plan {
                let mut s = vec![Complex::new(0.0, 0.0); plan.scratch_len(n)];
                let mut yc = vec![Complex::new(9.0, 9.0); n / 2 + 1];
                RealFft::forward_blue(b, &x, &mut yc, &mut s);
                assert_eq!(yc[0].im, 0.0);
                let got: Vec<(f64, f64)> = yc.iter().map(|v| (v.re, v.im)).collect();
                let e = rel(&pack(&got, n), &want_packed);
                assert!(e <= 2.0 * tol, "bluestein forward n={n}: {e:e}");
                let xc: Vec<Complex<f64>> = xh.iter().map(|&(r, i)| Complex::new(r, i)).collect();
                let mut yb = vec![0.0; n];
                RealFft::inverse_blue(b, &xc, &mut yb, &mut s);
                let e = rel(&yb, &want_b);
                assert!(e <= 2.0 * tol, "bluestein backward n={n}: {e:e}");
            }
        }
    }

    #[test]
    fn bluestein_follows_pocketfft_real_rule() {
        // large primes (and twice them) go to Bluestein, smooth lengths and small primes not
        for n in [4099usize, 8191, 2 * 4099, 10007] {
            assert!(
                matches!(RealFft::<f64>::new(n).unwrap(), RealFft::Blue(_)),
                "{n}"
            );
        }
        for n in [13usize, 47, 53, 97, 400, 480, 1000, 1001, 44100] {
            assert!(
                matches!(RealFft::<f64>::new(n).unwrap(), RealFft::Passes(_)),
                "{n}"
            );
        }
    }

    #[test]
    fn f32_passes_are_accurate() {
        let mut rng = Rng::new(19);
        for n in [7usize, 13, 30, 400, 480, 1001, 2310] {
            let x: Vec<f64> = (0..n).map(|_| rng.uniform() - 0.5).collect();
            let want = pack(&dft_real(&x), n);
            let p = RealPasses::<f32>::new(n).unwrap();
            let mut y: Vec<f32> = x.iter().map(|&v| v as f32).collect();
            let mut ch = vec![0.0f32; n];
            p.forward(&mut y, &mut ch);
            let y: Vec<f64> = y.iter().map(|&v| v as f64).collect();
            let e = rel(&y, &want);
            assert!(e <= 3e-7, "f32 n={n}: {e:e}");
        }
    }
}
