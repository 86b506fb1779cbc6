//! The logarithmic tail of spectrogram pipelines, in one pass plus a clamp:
//! `y = mul·ln(max(amin, x)) + add`, then `y = max(y, max(y) − drop)`.
//!
//! Both common recipes are this shape:
//! - librosa's `power_to_db(S, ref, amin, top_db)`: `mul = 10/ln 10`,
//!   `add = −10·log10(max(amin, |ref|))`, `drop = top_db`;
//! - Whisper-style log-mel: `log10(max(S, amin))` floored at its maximum − `top`, then
//!   `scale·l + offset` (`(l + 4)/4`): `mul = scale/ln 10`, `add = offset`, `drop = scale·top`
//!   (`scale > 0`, so flooring before or after the affine step is the same).
//!
//! The logarithm runs in the data's own precision with a branch-free polynomial that vectorises
//! ([`crate::kernels::fastmath`]; `f32`: within 2 ulp of `ln`; `f64`: a few ulp); the maximum is taken in the same pass, so
//! the floor costs one cheap clamp pass. NaN propagates as numpy's `np.maximum` does (a NaN
//! anywhere makes the floored result all NaN); `+inf` gives `+inf`.

use super::fft::FftFloat;
use crate::error::{SkError, SkResult};
use crate::kernels::fastmath::{ln_normal_f32, ln_normal_f64};
use crate::kernels::Float;

/// `ln x` for positive, normal, finite `x`, in the type's own arithmetic.
pub trait LnFast: FftFloat {
    /// The smallest positive normal value.
    const MIN_NORMAL: Self;
    const INFINITY: Self;
    const NEG_INFINITY: Self;
    fn ln_fast(self) -> Self;
}

impl LnFast for f64 {
    const MIN_NORMAL: f64 = f64::MIN_POSITIVE;
    const INFINITY: f64 = f64::INFINITY;
    const NEG_INFINITY: f64 = f64::NEG_INFINITY;
    #[inline(always)]
    fn ln_fast(self) -> f64 {
        ln_normal_f64(self)
    }
}

impl LnFast for f32 {
    const MIN_NORMAL: f32 = f32::MIN_POSITIVE;
    const INFINITY: f32 = f32::INFINITY;
    const NEG_INFINITY: f32 = f32::NEG_INFINITY;
    #[inline(always)]
    fn ln_fast(self) -> f32 {
        ln_normal_f32(self)
    }
}

/// The parameters of a log tail (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogTail {
    /// Values below `amin` count as `amin` (finite, positive).
    pub amin: f64,
    /// Multiplies `ln` (finite, positive).
    pub mul: f64,
    /// `ln(reference)` is subtracted from each `ln` before the multiplication (1: nothing), with
    /// the same logarithm the values get, so a value equal to the reference gives exactly `add`
    /// (librosa: a value equal to `ref` is 0 dB).
    pub reference: f64,
    /// Added after the multiplication (finite).
    pub add: f64,
    /// The floor is `max − drop` (`≥ 0`; `+inf`: no floor).
    pub drop: f64,
}

impl LogTail {
    /// librosa's `power_to_db(·, ref, amin, top_db)`.
    pub fn db(reference: f64, amin: f64, top_db: f64) -> SkResult<Self> {
        check_amin(amin)?;
        if !reference.is_finite() {
            return Err(SkError::BadArgument(format!(
                "ref = {reference} must be finite"
            )));
        }
        check_drop("top_db", top_db)?;
        Ok(LogTail {
            amin,
            mul: 10.0 / std::f64::consts::LN_10,
            reference: amin.max(reference.abs()),
            add: 0.0,
            drop: top_db,
        })
    }

    /// `scale·max(log10(max(x, amin)), max − top) + offset` (Whisper: scale ¼, offset 1, top 8).
    pub fn log10(amin: f64, scale: f64, offset: f64, top: f64) -> SkResult<Self> {
        check_amin(amin)?;
        if !(scale.is_finite() && scale > 0.0) {
            return Err(SkError::BadArgument(format!(
                "scale = {scale} must be finite and positive"
            )));
        }
        if !offset.is_finite() {
            return Err(SkError::BadArgument(format!(
                "offset = {offset} must be finite"
            )));
        }
        check_drop("top", top)?;
        let drop = scale * top;
        if drop.is_nan() {
            return Err(SkError::BadArgument("scale · top is not a number".into()));
        }
        Ok(LogTail {
            amin,
            mul: scale / std::f64::consts::LN_10,
            reference: 1.0,
            add: offset,
            drop,
        })
    }

    /// The floor for a block whose largest value is `mx` (None: no floor); NaN anywhere makes
    /// the floor NaN, which [`floor_slice`] turns into all-NaN (numpy's `np.maximum`).
    pub fn floor(&self, mx: f64, nan: bool) -> Option<f64> {
        if !self.drop.is_finite() {
            None
        } else if nan {
            Some(f64::NAN)
        } else {
            Some(mx - self.drop)
        }
    }
}

fn check_amin(amin: f64) -> SkResult<()> {
    if !(amin.is_finite() && amin > 0.0) {
        return Err(SkError::BadArgument(format!(
            "amin = {amin} must be finite and positive"
        )));
    }
    Ok(())
}

fn check_drop(name: &str, v: f64) -> SkResult<()> {
    if v.is_nan() || v < 0.0 {
        return Err(SkError::BadArgument(format!(
            "{name} = {v} must be >= 0 (+inf disables the floor)"
        )));
    }
    Ok(())
}

/// One value of the log pass: the result and whether the input was NaN.
#[inline(always)]
fn log_one<T: LnFast>(xv: T, amin: T, mul: T, lnref: T, add: T) -> (T, bool) {
    let a = if xv > amin { xv } else { amin };
    let r = mul * (a.ln_fast() - lnref) + add;
    let r = if a < T::INFINITY { r } else { T::INFINITY };
    let isnan = xv.is_nan();
    (if isnan { xv } else { r }, isnan)
}

/// Lanes of the running maximum: a compare-and-select maximum is not reassociable, so one
/// accumulator per lane lets the loop vectorise.
const LANES: usize = 16;

#[inline(always)]
fn log_pass_body<T: LnFast>(v: &mut [T], amin: T, mul: T, lnref: T, add: T) -> (T, bool) {
    let mut mxs = [T::NEG_INFINITY; LANES];
    let mut nans = [false; LANES];
    let mut chunks = v.chunks_exact_mut(LANES);
    for c in &mut chunks {
        for i in 0..LANES {
            let (r, isnan) = log_one(c[i], amin, mul, lnref, add);
            c[i] = r;
            mxs[i] = if r > mxs[i] { r } else { mxs[i] };
            nans[i] |= isnan;
        }
    }
    for x in chunks.into_remainder() {
        let (r, isnan) = log_one(*x, amin, mul, lnref, add);
        *x = r;
        mxs[0] = if r > mxs[0] { r } else { mxs[0] };
        nans[0] |= isnan;
    }
    let mut mx = T::NEG_INFINITY;
    for m in mxs {
        if m > mx {
            mx = m;
        }
    }
    (mx, nans.iter().any(|&n| n))
}

crate::simd::multiversion! {
    /// [`log_pass_body`] at a SIMD level.
    fn log_pass_at<T: LnFast>(v: &mut [T], amin: T, mul: T, lnref: T, add: T) -> (T, bool);
    scalar = log_pass_body; simd = log_pass_body;
}

/// In place: `v ← mul·(ln(max(amin, v)) − ln(reference)) + add` (NaN stays NaN, `+inf` stays
/// `+inf`); returns
/// the largest result (ignoring NaN) and whether any value was NaN. No floor.
pub fn log_pass<T: LnFast>(v: &mut [T], t: &LogTail) -> (f64, bool) {
    let amin = <T as Float>::from_f64(t.amin);
    let refv = <T as Float>::from_f64(t.reference);
    let normal = |x: T| x >= T::MIN_NORMAL && x < T::INFINITY;
    if normal(amin) && normal(refv) {
        let (mx, nan) = log_pass_at(
            crate::simd::current(),
            v,
            amin,
            <T as Float>::from_f64(t.mul),
            refv.ln_fast(),
            <T as Float>::from_f64(t.add),
        );
        (mx.to_f64(), nan)
    } else {
        // amin or the reference outside the normal range of T: the library logarithm in f64
        let lnref = t.reference.ln();
        let mut mx = f64::NEG_INFINITY;
        let mut nan = false;
        for x in v.iter_mut() {
            let xv = x.to_f64();
            let r = if xv.is_nan() {
                nan = true;
                f64::NAN
            } else {
                t.mul * (t.amin.max(xv).ln() - lnref) + t.add
            };
            if r > mx {
                mx = r;
            }
            *x = <T as Float>::from_f64(r);
        }
        (mx, nan)
    }
}

#[inline(always)]
fn floor_body<T: LnFast>(v: &mut [T], f: T) {
    for x in v.iter_mut() {
        // NaN floor: every value becomes NaN (f < x and x < f are both false)
        *x = if *x < f || f.is_nan() { f } else { *x };
    }
}

crate::simd::multiversion! {
    /// [`floor_body`] at a SIMD level.
    fn floor_at<T: LnFast>(v: &mut [T], f: T) -> ();
    scalar = floor_body; simd = floor_body;
}

/// `v ← max(v, floor)` (a NaN floor makes everything NaN).
pub fn floor_slice<T: LnFast>(v: &mut [T], floor: f64) {
    floor_at(crate::simd::current(), v, <T as Float>::from_f64(floor));
}

/// The whole tail on one block: log pass, then the floor at the block's own maximum.
pub fn apply<T: LnFast>(v: &mut [T], t: &LogTail) {
    let (mx, nan) = log_pass(v, t);
    if let Some(f) = t.floor(mx, nan) {
        if !v.is_empty() {
            floor_slice(v, f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(x: &[f64], t: &LogTail) -> Vec<f64> {
        let v: Vec<f64> = x
            .iter()
            .map(|&x| {
                if x.is_nan() {
                    f64::NAN
                } else {
                    t.mul * (t.amin.max(x).ln() - t.reference.ln()) + t.add
                }
            })
            .collect();
        let nan = v.iter().any(|v| v.is_nan());
        let mx = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        match t.floor(mx, nan) {
            None => v,
            Some(f) if f.is_nan() => vec![f64::NAN; v.len()],
            Some(f) => v.iter().map(|&v| v.max(f)).collect(),
        }
    }

    #[test]
    fn every_level_matches_the_f64_reference() {
        let mut rng = crate::kernels::testutil::Rng::new(3);
        let x: Vec<f64> = (0..1003)
            .map(|i| match i % 97 {
                0 => 0.0,
                1 => -1.0,
                2 => 1e-45,
                3 => f64::INFINITY,
                _ => 10f64.powf(rng.uniform() * 30.0 - 15.0),
            })
            .collect();
        for t in [
            LogTail::db(1.0, 1e-10, 80.0).unwrap(),
            LogTail::db(3.5, 1e-10, f64::INFINITY).unwrap(),
            LogTail::log10(1e-10, 0.25, 1.0, 8.0).unwrap(),
            LogTail::db(1.0, 1e-40, 300.0).unwrap(), // amin below f32's normal range
        ] {
            let want = reference(&x, &t);
            for level in crate::simd::available() {
                let mut v64 = x.clone();
                let (mx, nan) =
                    log_pass_at(level, &mut v64, t.amin, t.mul, t.reference.ln(), t.add);
                assert!(!nan && mx == f64::INFINITY);
                let mut v64 = x.clone();
                apply(&mut v64, &t);
                let mut v32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
                let want32 = reference(&v32.iter().map(|&v| v as f64).collect::<Vec<_>>(), &t);
                apply(&mut v32, &t);
                for i in 0..x.len() {
                    let (w, g) = (want[i], v64[i]);
                    assert!(
                        w == g || (w - g).abs() <= 1e-13 * w.abs().max(1.0),
                        "f64 {level:?} {t:?} x={}: {g} vs {w}",
                        x[i]
                    );
                    let (w, g) = (want32[i], v32[i] as f64);
                    // f32 arithmetic: 2 ulp of the log plus the f32 rounding of mul, add
                    assert!(
                        w == g || (w - g).abs() <= 4e-7 * w.abs().max(1.0) + 1e-5,
                        "f32 {level:?} {t:?} x={}: {g} vs {w}",
                        x[i]
                    );
                }
            }
        }
    }

    #[test]
    fn a_value_equal_to_the_reference_is_exactly_zero_db() {
        for r in [1.0, 3.7, 1e-3, 12345.678] {
            let t = LogTail::db(r, 1e-10, 80.0).unwrap();
            let mut v32 = [r as f32, 2.0 * r as f32];
            apply(&mut v32, &t);
            let t = LogTail::db(r as f32 as f64, 1e-10, 80.0).unwrap();
            let mut w32 = [r as f32];
            apply(&mut w32, &t);
            assert_eq!(w32[0], 0.0, "{r}");
            let mut v64 = [r, 2.0 * r];
            apply(&mut v64, &LogTail::db(r, 1e-10, 80.0).unwrap());
            assert_eq!(v64[0], 0.0, "{r}");
        }
    }

    #[test]
    fn nan_makes_the_floored_block_nan_and_inf_stays() {
        let t = LogTail::db(1.0, 1e-10, 80.0).unwrap();
        let mut v = [1.0f32, f32::NAN, 4.0];
        apply(&mut v, &t);
        assert!(v.iter().all(|v| v.is_nan()));
        let t = LogTail::db(1.0, 1e-10, f64::INFINITY).unwrap();
        let mut v = [1.0f32, f32::NAN, f32::INFINITY];
        apply(&mut v, &t);
        assert_eq!(v[0], 0.0);
        assert!(v[1].is_nan());
        assert_eq!(v[2], f32::INFINITY);
    }

    #[test]
    fn bad_parameters() {
        assert!(LogTail::db(1.0, 0.0, 80.0).is_err());
        assert!(LogTail::db(f64::NAN, 1e-10, 80.0).is_err());
        assert!(LogTail::db(1.0, 1e-10, -1.0).is_err());
        assert!(LogTail::log10(1e-10, 0.0, 1.0, 8.0).is_err());
        assert!(LogTail::log10(1e-10, 0.25, f64::INFINITY, 8.0).is_err());
        assert!(LogTail::log10(1e-10, 0.25, 1.0, f64::NAN).is_err());
    }
}
