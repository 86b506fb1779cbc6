//! Gain: linear gain ramps, equal-power crossfades, weighted mixes, amplitude ↔ dB.
//!
//! Chunking convention (ramps and crossfades). A ramp or fade is defined over `total` samples
//! indexed by `k = 0 … total−1`; one call processes samples `k = offset … offset+n−1` of it. The
//! gain of sample `k` depends only on `k`, never on how the ramp was cut into calls, so any
//! sequence of calls covering `0 … total−1` gives bit-identical output to one call:
//! - ramp: `g(k) = g0 + k·((g1 − g0) / total)` in `f64`: half-open, `g(0) = g0` and the sample
//!   right after the ramp (`k = total`) would get `g1`, so a ramp followed by a constant gain `g1`
//!   joins without a step;
//! - crossfade: `t = k / total`, `y = a·cos(πt/2) + b·sin(πt/2)`, likewise half-open (`t = 1`,
//!   pure `b`, is the sample right after the fade).
//!
//! `f32` data is multiplied in `f64` and rounded once. The ramp, the mix and `db_to_amp` are the
//! same expression at every level (bit-identical). Two kernels evaluate a transcendental with a
//! vectorisable polynomial in their lane body and with libm in their scalar reference, so levels
//! agree to a few ulp, not bits: the crossfade (`sin(πu/2)`, degree-21 odd Taylor polynomial,
//! within 2 ulp of `f64::sin`) and `amp_to_db` (`ln m = 2·atanh(s)`, within 4 ulp of `log10` for
//! `f64`, 3 ulp for `f32` which is evaluated in `f32`).

use super::fastmath::{db_f32, db_f64};
use super::{Float, Src};
use crate::simd::{multiversion, Level};

/// Lanes per block of the ramp index computation.
const LANES: usize = 8;
/// Lanes per block of the crossfade: its gains are two 10-step Horner chains per element, so
/// 32 lanes (four AVX-512 vectors of `f64`) give the core independent chains to overlap.
const FADE_LANES: usize = 32;

/// A gain-ramp parameter set: `g(k) = g0 + k·step`.
#[derive(Clone, Copy, Debug)]
pub struct Ramp {
    pub g0: f64,
    pub step: f64,
    pub offset: usize,
}

impl Ramp {
    /// The ramp from `g0` towards `g1` over `total` samples, starting at sample `offset`.
    pub fn new(g0: f64, g1: f64, offset: usize, total: usize) -> Ramp {
        let step = if total == 0 {
            0.0
        } else {
            (g1 - g0) / total as f64
        };
        Ramp { g0, step, offset }
    }
    #[inline(always)]
    fn gain(&self, k: f64) -> f64 {
        self.g0 + k * self.step
    }
}

#[inline(always)]
fn src_at<T: Copy>(x: &Src<'_, T>, y: &[T], i: usize) -> T {
    match x {
        Src::Slice(s) => s[i],
        Src::Dst => y[i],
    }
}

#[inline(always)]
fn ramp_lanes<T: Float>(x: Src<'_, T>, y: &mut [T], r: Ramp) {
    x.check_len(y.len());
    let n = y.len();
    let full = n / LANES * LANES;
    let mut j = 0;
    while j < full {
        let base = (r.offset + j) as f64;
        let yb: &mut [T; LANES] = (&mut y[j..j + LANES]).try_into().unwrap();
        let xb: [T; LANES] = match x {
            Src::Slice(s) => s[j..j + LANES].try_into().unwrap(),
            Src::Dst => *yb,
        };
        for l in 0..LANES {
            let g = r.gain(base + l as f64);
            yb[l] = T::from_f64(xb[l].to_f64() * g);
        }
        j += LANES;
    }
    for i in full..n {
        let v = src_at(&x, y, i);
        y[i] = T::from_f64(v.to_f64() * r.gain((r.offset + i) as f64));
    }
}

fn ramp_scalar<T: Float>(x: Src<'_, T>, y: &mut [T], r: Ramp) {
    x.check_len(y.len());
    for i in 0..y.len() {
        let v = src_at(&x, y, i);
        y[i] = T::from_f64(v.to_f64() * r.gain((r.offset + i) as f64));
    }
}

/// A crossfade parameter set: `t = k / total`.
#[derive(Clone, Copy, Debug)]
pub struct Fade {
    pub offset: usize,
    pub total: f64,
}

/// `sin(πu/2)` for `u ∈ [0, 1]`: odd Taylor polynomial of degree 21 in `x = πu/2`
/// (truncation error below 1e-18 on `[0, π/2]`), Horner form, no FMA.
#[inline(always)]
fn sin_half_pi(u: f64) -> f64 {
    const C: [f64; 10] = {
        let mut c = [0.0; 10];
        let mut k = 0;
        while k < 10 {
            let a = (2 * (k + 1)) as f64;
            c[k] = 1.0 / (a * (a + 1.0));
            k += 1;
        }
        c
    };
    let x = u * std::f64::consts::FRAC_PI_2;
    let x2 = x * x;
    let mut p = 1.0;
    let mut k = 10;
    while k > 0 {
        k -= 1;
        p = 1.0 - x2 * C[k] * p;
    }
    x * p
}

#[inline(always)]
fn fade_lanes<T: Float>(a: Src<'_, T>, b: Src<'_, T>, y: &mut [T], f: Fade) {
    a.check_len(y.len());
    b.check_len(y.len());
    let n = y.len();
    let full = n / FADE_LANES * FADE_LANES;
    let mut j = 0;
    while j < full {
        let base = (f.offset + j) as f64;
        let yb: &mut [T; FADE_LANES] = (&mut y[j..j + FADE_LANES]).try_into().unwrap();
        let ab: [T; FADE_LANES] = match a {
            Src::Slice(s) => s[j..j + FADE_LANES].try_into().unwrap(),
            Src::Dst => *yb,
        };
        let bb: [T; FADE_LANES] = match b {
            Src::Slice(s) => s[j..j + FADE_LANES].try_into().unwrap(),
            Src::Dst => *yb,
        };
        for l in 0..FADE_LANES {
            let t = (base + l as f64) / f.total;
            let (ga, gb) = (sin_half_pi(1.0 - t), sin_half_pi(t));
            yb[l] = T::from_f64(ab[l].to_f64() * ga + bb[l].to_f64() * gb);
        }
        j += FADE_LANES;
    }
    for i in full..n {
        let t = (f.offset + i) as f64 / f.total;
        let (ga, gb) = (sin_half_pi(1.0 - t), sin_half_pi(t));
        let (av, bv) = (src_at(&a, y, i), src_at(&b, y, i));
        y[i] = T::from_f64(av.to_f64() * ga + bv.to_f64() * gb);
    }
}

fn fade_scalar<T: Float>(a: Src<'_, T>, b: Src<'_, T>, y: &mut [T], f: Fade) {
    a.check_len(y.len());
    b.check_len(y.len());
    for i in 0..y.len() {
        let th = (f.offset + i) as f64 / f.total * std::f64::consts::FRAC_PI_2;
        let (av, bv) = (src_at(&a, y, i), src_at(&b, y, i));
        y[i] = T::from_f64(av.to_f64() * th.cos() + bv.to_f64() * th.sin());
    }
}

/// Weights of a mix `y = wa·a + wb·b` (in `T`, no FMA).
#[derive(Clone, Copy, Debug)]
pub struct Mix<T> {
    pub wa: T,
    pub wb: T,
}

#[derive(Clone, Copy)]
struct MixOp<T>(Mix<T>);
impl<T: Float> super::elementwise::BinOp<T> for MixOp<T> {
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        self.0.wa * a + self.0.wb * b
    }
}

/// Parameters of amplitude → dB: `max(20·log10|x|, floor)`.
#[derive(Clone, Copy, Debug)]
pub struct ToDb {
    pub floor: f64,
}

#[inline(always)]
fn amp_to_db_one<T: Float>(x: T, floor: f64) -> T {
    let v = 20.0 * x.to_f64().abs().log10();
    // NaN stays NaN (the comparison is false); log10(0) = −inf goes to the floor
    T::from_f64(if v < floor { floor } else { v })
}

/// The lane-body decibel function of each element type: `f32` data in `f32` arithmetic
/// ([`db_f32`]), `f64` data with [`db_f64`].
pub trait DbFloat: Float {
    fn db(self) -> Self;
}
impl DbFloat for f32 {
    #[inline(always)]
    fn db(self) -> f32 {
        db_f32(self)
    }
}
impl DbFloat for f64 {
    #[inline(always)]
    fn db(self) -> f64 {
        db_f64(self)
    }
}

#[inline(always)]
fn amp_to_db_lanes<T: DbFloat>(x: Src<'_, T>, y: &mut [T], p: ToDb) {
    x.check_len(y.len());
    // the floor in T: a value below it (in T) becomes it, exactly as comparing in f64 then
    // rounding (the floor rounded to T is what is stored either way)
    let floor = T::from_f64(p.floor);
    let f = |v: T| {
        let d = v.db();
        if d < floor {
            floor
        } else {
            d
        }
    };
    match x {
        Src::Slice(s) => {
            for (y, &v) in y.iter_mut().zip(s) {
                *y = f(v);
            }
        }
        Src::Dst => {
            for y in y.iter_mut() {
                *y = f(*y);
            }
        }
    }
}

#[inline(always)]
fn db_to_amp_one<T: Float>(x: T) -> T {
    T::from_f64(10f64.powf(x.to_f64() / 20.0))
}

fn amp_to_db_body<T: DbFloat>(x: Src<'_, T>, y: &mut [T], p: ToDb) {
    x.check_len(y.len());
    match x {
        Src::Slice(s) => {
            for (y, &v) in y.iter_mut().zip(s) {
                *y = amp_to_db_one(v, p.floor);
            }
        }
        Src::Dst => {
            for y in y.iter_mut() {
                *y = amp_to_db_one(*y, p.floor);
            }
        }
    }
}

fn db_to_amp_body<T: Float>(x: Src<'_, T>, y: &mut [T], _p: ToDb) {
    x.check_len(y.len());
    match x {
        Src::Slice(s) => {
            for (y, &v) in y.iter_mut().zip(s) {
                *y = db_to_amp_one(v);
            }
        }
        Src::Dst => {
            for y in y.iter_mut() {
                *y = db_to_amp_one(*y);
            }
        }
    }
}

multiversion! {
    /// `y[i] = x[i] · g(offset + i)` (see the module doc for `g`).
    pub fn ramp_at<T: Float>(x: Src<'_, T>, y: &mut [T], r: Ramp) -> ();
    scalar = ramp_scalar; simd = ramp_lanes;
}
multiversion! {
    /// Equal-power crossfade from `a` to `b` (see the module doc).
    pub fn crossfade_at<T: Float>(a: Src<'_, T>, b: Src<'_, T>, y: &mut [T], f: Fade) -> ();
    scalar = fade_scalar; simd = fade_lanes;
}

/// `y[i] = wa·a[i] + wb·b[i]` (SIMD through the elementwise kernel; bit-identical at every level).
pub fn mix_at<T: Float>(level: Level, a: Src<'_, T>, b: Src<'_, T>, y: &mut [T], m: Mix<T>) {
    super::elementwise::binary_at(level, a, b, y, MixOp(m))
}

/// `y[i] = max(20·log10|x[i]|, floor)` (computed in `f64`; NaN stays NaN) at the current level.
pub fn amp_to_db<T: DbFloat>(x: Src<'_, T>, y: &mut [T], floor: f64) {
    amp_to_db_at(crate::simd::current(), x, y, ToDb { floor })
}

multiversion! {
    /// `y[i] = max(20·log10|x[i]|, floor)`: libm at the scalar level, the vectorisable
    /// [`db_f64`] / [`db_f32`] above it (within 4 ulp of each other).
    pub fn amp_to_db_at<T: DbFloat>(x: Src<'_, T>, y: &mut [T], p: ToDb) -> ();
    scalar = amp_to_db_body; simd = amp_to_db_lanes;
}

/// `y[i] = 10^(x[i]/20)` (computed in `f64`; −inf gives 0, NaN stays NaN).
pub fn db_to_amp<T: Float>(x: Src<'_, T>, y: &mut [T]) {
    db_to_amp_body(x, y, ToDb { floor: 0.0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::{same, Rng};
    use crate::simd::available;

    #[test]
    fn ramp_chunks_join_bit_exactly_and_match_reference() {
        let mut rng = Rng::new(41);
        for total in [0usize, 1, 7, 8, 9, 100, 1031] {
            let x = rng.vec_f32(total, 2.0);
            let x64: Vec<f64> = x.iter().map(|&v| v as f64).collect();
            let (g0, g1) = (0.25, -1.5);
            let step = (g1 - g0) / total.max(1) as f64;
            let want: Vec<f32> = (0..total)
                .map(|k| (x[k] as f64 * (g0 + k as f64 * step)) as f32)
                .collect();
            for level in available() {
                let mut y = vec![0.0f32; total];
                ramp_at(level, Src::Slice(&x), &mut y, Ramp::new(g0, g1, 0, total));
                assert_eq!(y, want, "total={total} {level:?}");
                // the same in chunks of awkward sizes, in place
                let mut z = x.clone();
                let mut off = 0;
                for c in [3usize, 1, 13, 64, 5].iter().cycle() {
                    if off >= total {
                        break;
                    }
                    let e = (off + c).min(total);
                    ramp_at(
                        level,
                        Src::Dst,
                        &mut z[off..e],
                        Ramp::new(g0, g1, off, total),
                    );
                    off = e;
                }
                assert_eq!(z, want, "chunked total={total} {level:?}");
                let mut w = vec![0.0f64; total];
                ramp_at(level, Src::Slice(&x64), &mut w, Ramp::new(g0, g1, 0, total));
                for k in 0..total {
                    assert_eq!(w[k], x64[k] * (g0 + k as f64 * step));
                }
            }
        }
    }

    #[test]
    fn sin_polynomial_is_accurate() {
        for i in 0..=10_000 {
            let u = i as f64 / 10_000.0;
            let want = (u * std::f64::consts::FRAC_PI_2).sin();
            assert!((sin_half_pi(u) - want).abs() <= 2.5e-16, "{u}");
        }
        assert_eq!(sin_half_pi(0.0), 0.0);
        assert!((sin_half_pi(1.0) - 1.0).abs() <= 2.3e-16);
    }

    #[test]
    fn crossfade_levels_agree_and_chunks_join() {
        let mut rng = Rng::new(42);
        for total in [1usize, 2, 9, 100, 777] {
            let a = rng.vec_f64(total, 1.0);
            let b = rng.vec_f64(total, 1.0);
            let mut want = vec![0.0; total];
            fade_scalar(
                Src::Slice(&a),
                Src::Slice(&b),
                &mut want,
                Fade {
                    offset: 0,
                    total: total as f64,
                },
            );
            for level in available() {
                let mut y = vec![0.0; total];
                let f = Fade {
                    offset: 0,
                    total: total as f64,
                };
                crossfade_at(level, Src::Slice(&a), Src::Slice(&b), &mut y, f);
                for k in 0..total {
                    assert!((y[k] - want[k]).abs() <= 1e-15, "{level:?} {k}");
                }
                // chunked, in place on a
                let mut z = a.clone();
                let h = total / 3;
                crossfade_at(level, Src::Dst, Src::Slice(&b[..h]), &mut z[..h], f);
                let f2 = Fade {
                    offset: h,
                    total: total as f64,
                };
                crossfade_at(level, Src::Dst, Src::Slice(&b[h..]), &mut z[h..], f2);
                assert!(same(&z, &y), "{level:?}");
            }
            assert_eq!(want[0], a[0]);
        }
    }

    #[test]
    fn amp_to_db_every_level_within_3_ulp_of_libm() {
        let mut rng = Rng::new(44);
        let mut xs: Vec<f64> = (0..200_000)
            .map(|_| (rng.uniform() * 700.0).exp2() * rng.uniform().signum())
            .collect();
        xs.extend((0..100_000).map(|_| 1.0 + rng.uniform() * 1e-6));
        xs.extend([
            1.0,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            1e-310,
            std::f64::consts::SQRT_2,
            0.5,
            2.0,
            10.0,
            1e-5,
            0.0,
            f64::INFINITY,
            f64::NAN,
        ]);
        // every level against the scalar (libm) reference, f32 and f64 results
        let x32: Vec<f32> = xs.iter().map(|&v| v as f32).collect();
        let mut want = vec![0.0f32; x32.len()];
        amp_to_db_at(
            Level::Scalar,
            Src::Slice(&x32),
            &mut want,
            ToDb { floor: -150.0 },
        );
        let mut want64 = vec![0.0f64; xs.len()];
        amp_to_db_at(
            Level::Scalar,
            Src::Slice(&xs),
            &mut want64,
            ToDb { floor: -800.0 },
        );
        for level in available() {
            let mut y = vec![0.0f32; x32.len()];
            amp_to_db_at(level, Src::Slice(&x32), &mut y, ToDb { floor: -150.0 });
            for (g, w) in y.iter().zip(&want) {
                assert!(
                    g == w
                        || (g - w).abs() <= 3.0 * f32::EPSILON * w.abs()
                        || (g.is_nan() && w.is_nan()),
                    "{level:?} {g} {w}"
                );
            }
            let mut y = vec![0.0f64; xs.len()];
            amp_to_db_at(level, Src::Slice(&xs), &mut y, ToDb { floor: -800.0 });
            for (g, w) in y.iter().zip(&want64) {
                assert!(
                    g == w
                        || (g - w).abs() <= 4.0 * f64::EPSILON * w.abs()
                        || (g.is_nan() && w.is_nan()),
                    "{level:?} {g} {w}"
                );
            }
        }
    }

    #[test]
    fn mix_and_db() {
        let mut rng = Rng::new(43);
        let a = rng.vec_f32(1000, 3.0);
        let b = rng.vec_f32(1000, 3.0);
        let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| 0.3 * x + -1.25 * y).collect();
        for level in available() {
            let mut y = vec![0.0f32; 1000];
            let m = Mix {
                wa: 0.3f32,
                wb: -1.25,
            };
            mix_at(level, Src::Slice(&a), Src::Slice(&b), &mut y, m);
            assert_eq!(y, want);
        }
        let x = [0.0f64, -0.0, 1.0, -10.0, 1e-300, f64::NAN, f64::INFINITY];
        let mut y = [0.0; 7];
        amp_to_db(Src::Slice(&x), &mut y, -120.0);
        let want = [-120.0, -120.0, 0.0, 20.0, -120.0];
        for (g, w) in y[..5].iter().zip(want) {
            assert!((g - w).abs() <= 4.0 * f64::EPSILON * 120.0, "{g} {w}");
        }
        assert!(y[5].is_nan());
        assert_eq!(y[6], f64::INFINITY);
        amp_to_db(Src::Slice(&x), &mut y, f64::NEG_INFINITY);
        assert_eq!(y[0], f64::NEG_INFINITY);
        let d = [0.0f32, 20.0, -6.0, f32::NEG_INFINITY, -1000.0];
        let mut a = [0.0f32; 5];
        db_to_amp(Src::Slice(&d), &mut a);
        assert_eq!(&a[..2], &[1.0, 10.0]);
        assert!((a[2] - 0.501_187_2).abs() < 1e-7);
        assert_eq!(&a[3..], &[0.0, 0.0]);
    }
}
