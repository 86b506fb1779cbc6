//! Fundamental-frequency estimation as librosa computes it: YIN (`librosa.yin`), frame by
//! frame with the FFT autocorrelation, the cumulative-mean-normalised difference, the first
//! trough below the threshold (else the global minimum) and parabolic interpolation. Work in
//! `f64`.

use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::par::par_rows_with;
use crate::kernels::spectral::fft::{FftPlan, Norm, PlanCache, Workspace};
use crate::kernels::spectral::Complex;
use crate::kernels::Float;
use std::sync::Arc;

pub mod pyin;
pub mod stream;

/// YIN parameters (librosa's names).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct YinParams {
    pub sr: f64,
    pub fmin: f64,
    pub fmax: f64,
    pub frame_length: usize,
    pub hop: usize,
    pub trough_threshold: f64,
    pub center: bool,
    /// Centre padding with zeros (`"constant"`, librosa's default) or by reflection.
    pub reflect: bool,
}

impl YinParams {
    /// librosa's checks; `(min_period, max_period)`.
    pub fn periods(&self) -> SkResult<(usize, usize)> {
        if !(self.sr.is_finite() && self.sr > 0.0) {
            return Err(SkError::BadArgument(format!(
                "sr = {} must be finite and > 0",
                self.sr
            )));
        }
        if !(self.fmin.is_finite()
            && self.fmax.is_finite()
            && 0.0 < self.fmin
            && self.fmin < self.fmax
            && self.fmax <= self.sr / 2.0)
        {
            return Err(SkError::BadArgument(format!(
                "fmin = {} and fmax = {} must satisfy 0 < fmin < fmax <= sr/2 = {}",
                self.fmin,
                self.fmax,
                self.sr / 2.0
            )));
        }
        if self.frame_length < 4 || self.frame_length > 1 << 24 {
            return Err(SkError::BadArgument(format!(
                "frame_length = {} must be between 4 and 2^24",
                self.frame_length
            )));
        }
        if self.hop == 0 {
            return Err(SkError::BadArgument("hop_length = 0".into()));
        }
        if self.trough_threshold.is_nan() {
            return Err(SkError::BadArgument("trough_threshold is NaN".into()));
        }
        let min_p = (self.sr / self.fmax).floor() as usize;
        let max_p = ((self.sr / self.fmin).ceil() as usize).min(self.frame_length - 1);
        if min_p < 1 || max_p < min_p + 1 {
            return Err(SkError::BadArgument(format!(
                "the period range [{min_p}, {max_p}] (sr/fmax, min(sr/fmin, frame_length − 1)) \
                 needs at least two lags: lower fmin, raise fmax or use a longer frame"
            )));
        }
        Ok((min_p, max_p))
    }

    /// Frames of an `n`-sample signal (`librosa.util.frame` after the centre padding).
    pub fn frames(&self, n: usize) -> SkResult<usize> {
        let pad = if self.center {
            self.frame_length / 2
        } else {
            0
        };
        let padded = n + 2 * pad;
        if padded < self.frame_length {
            return Err(SkError::BadArgument(format!(
                "signal of n = {n} samples (padded to {padded}) is shorter than frame_length = {}",
                self.frame_length
            )));
        }
        if self.center && self.reflect && n < 2 && pad > 0 {
            return Err(SkError::BadArgument(
                "reflect padding needs at least two samples".into(),
            ));
        }
        Ok(1 + (padded - self.frame_length) / self.hop)
    }

    pub(crate) fn sample<T: Float>(&self, x: &[T], j: isize) -> f64 {
        let n = x.len() as isize;
        if (0..n).contains(&j) {
            return x[j as usize].to_f64();
        }
        if !self.reflect {
            return 0.0;
        }
        let period = 2 * (n - 1);
        let mut r = j.rem_euclid(period);
        if r >= n {
            r = period - r;
        }
        x[r as usize].to_f64()
    }
}

/// Per-thread scratch of the YIN frames.
pub(crate) struct Scratch {
    pub(crate) ws: Workspace<f64>,
    pub(crate) frame: Vec<f64>,
    pub(crate) spec: Vec<Complex<f64>>,
    pub(crate) acf: Vec<f64>,
    pub(crate) d: Vec<f64>,
    pub(crate) yin: Vec<f64>,
}

/// The cumulative-mean-normalised difference of the frame in `s.frame` (`frame_length`
/// samples followed by zeros to the FFT length) for periods `min_p..=max_p` into
/// `s.yin[..max_p − min_p + 1]` (librosa's `_cumulative_mean_normalized_difference`).
pub(crate) fn cmnd(plan: &FftPlan<f64>, s: &mut Scratch, min_p: usize, max_p: usize) {
    plan.rfft_ws(&s.frame, &mut s.spec, Norm::Backward, &mut s.ws);
    for c in s.spec.iter_mut() {
        *c = Complex::new(c.re * c.re + c.im * c.im, 0.0);
    }
    plan.irfft_ws(&s.spec, &mut s.acf, Norm::Backward, &mut s.ws);
    // d[k] = 2·(r0 − r_k) − cumsum(y²)[k − 1], k = 1..=max_p
    let r0 = s.acf[0];
    let mut c = 0.0;
    for k in 1..=max_p {
        c += s.frame[k - 1] * s.frame[k - 1];
        s.d[k] = 2.0 * (r0 - s.acf[k]) - c;
    }
    // the cumulative mean of d[1..=k], and the normalised difference for min_p..=max_p
    let mut run = 0.0;
    let tiny = f64::MIN_POSITIVE;
    for k in 1..=max_p {
        run += s.d[k];
        if k >= min_p {
            let cm = run / k as f64;
            s.yin[k - min_p] = s.d[k] / (cm + tiny);
        }
    }
}

/// librosa's parabolic shift at index `i` of `y` (0 at both ends; the numba stencil).
pub(crate) fn parabolic_shift(y: &[f64], i: usize) -> f64 {
    if i == 0 || i + 1 >= y.len() {
        return 0.0;
    }
    let a = y[i + 1] + y[i - 1] - 2.0 * y[i];
    let b = (y[i + 1] - y[i - 1]) / 2.0;
    if b.abs() >= a.abs() {
        0.0
    } else {
        -b / a
    }
}

/// Per-thread scratch for frames of `p.frame_length` samples and periods up to `max_p`.
pub(crate) fn scratch(
    plan: &FftPlan<f64>,
    n_pad: usize,
    min_p: usize,
    max_p: usize,
) -> SkResult<Scratch> {
    let mut ws = plan.workspace()?;
    plan.reserve(&mut ws)?;
    Ok(Scratch {
        ws,
        frame: try_vec(n_pad, 0.0, "a frame")?,
        spec: try_vec(n_pad / 2 + 1, Complex::new(0.0, 0.0), "a spectrum")?,
        acf: try_vec(n_pad, 0.0, "an autocorrelation")?,
        d: try_vec(max_p + 1, 0.0, "a difference function")?,
        yin: try_vec(max_p - min_p + 1, 0.0, "a YIN function")?,
    })
}

/// Loads frame `t` of `row` (centre padding per `p`) into `s.frame`, zero-filled to its end.
pub(crate) fn load_frame<T: Float>(p: &YinParams, row: &[T], t: usize, s: &mut Scratch) {
    let pad = if p.center { p.frame_length / 2 } else { 0 } as isize;
    let start = (t * p.hop) as isize - pad;
    let fl = p.frame_length;
    if start >= 0 && start as usize + fl <= row.len() {
        // inside the signal: a plain widening copy
        for (v, x) in s.frame[..fl].iter_mut().zip(&row[start as usize..]) {
            *v = x.to_f64();
        }
    } else {
        for (k, v) in s.frame[..fl].iter_mut().enumerate() {
            *v = p.sample(row, start + k as isize);
        }
    }
    s.frame[p.frame_length..].iter_mut().for_each(|v| *v = 0.0);
}

/// The f0 of one frame (`frame` holds `frame_length` samples followed by zeros to the FFT length).
fn yin_frame(
    plan: &FftPlan<f64>,
    s: &mut Scratch,
    p: &YinParams,
    min_p: usize,
    max_p: usize,
) -> f64 {
    cmnd(plan, s, min_p, max_p);
    let len = max_p - min_p + 1;
    let y = &s.yin[..len];
    // first trough below the threshold, else the global minimum (np.argmin: first NaN wins)
    let mut pick = None;
    for i in 0..len {
        let trough = if i == 0 {
            y[0] < y[1]
        } else {
            let right = if i + 1 < len { y[i + 1] } else { y[i] };
            y[i] < y[i - 1] && y[i] <= right
        };
        if trough && y[i] < p.trough_threshold {
            pick = Some(i);
            break;
        }
    }
    let i = pick.unwrap_or_else(|| {
        let mut best = 0;
        for j in 1..len {
            if y[best].is_nan() {
                break;
            }
            if y[j].is_nan() || y[j] < y[best] {
                best = j;
            }
        }
        best
    });
    let shift = parabolic_shift(y, i);
    p.sr / (min_p as f64 + i as f64 + shift)
}

/// `librosa.yin(y, fmin, fmax, sr, frame_length, hop_length, trough_threshold, center,
/// pad_mode)` of every row of `x` (`batch × n`, finite) into `out` (`batch × frames`).
pub fn yin<T: Float>(x: &[T], batch: usize, p: &YinParams, out: &mut [T]) -> SkResult<()> {
    let (min_p, max_p) = p.periods()?;
    let n = x.len().checked_div(batch).unwrap_or(0);
    let frames = p.frames(n)?;
    assert_eq!(out.len(), batch * frames, "yin output length");
    if let Some(i) = x.iter().position(|v| !v.is_finite()) {
        return Err(SkError::NonFinite(format!(
            "y[{i}] = {:?}: audio must be finite everywhere (as librosa's valid_audio)",
            x[i]
        )));
    }
    let n_pad = (2 * p.frame_length - 1).next_power_of_two();
    let plan: Arc<FftPlan<f64>> = f64::cached_real_plan(n_pad)?;
    par_rows_with(
        out,
        1,
        (batch * frames).saturating_mul(n_pad).saturating_mul(8),
        || scratch(&plan, n_pad, min_p, max_p),
        |s, first, chunk| {
            for (i, o) in chunk.iter_mut().enumerate() {
                let g = first + i;
                let (b, t) = (g / frames, g % frames);
                let row = &x[b * n..(b + 1) * n];
                load_frame(p, row, t, s);
                *o = T::from_f64(yin_frame(&plan, s, p, min_p, max_p));
            }
        },
    )
}
