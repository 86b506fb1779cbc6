//! Onset detection as librosa computes it (`librosa.onset`): the spectral-flux onset envelope
//! of a (log-)spectrogram (`onset_strength_multi`: lag, local-maximum reference over
//! frequency, per-channel aggregation, centring pad, detrend) and librosa's greedy peak picker
//! (`librosa.util.peak_pick`). Work in `f64`.

use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::par::par_rows_with;
use crate::kernels::Float;

/// How a channel's bins are combined per frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aggregate {
    /// No aggregation: one channel per bin (librosa `aggregate=False`).
    None,
    Mean,
    Median,
    Max,
    Min,
}

/// Parameters of the onset envelope.
#[derive(Clone, Debug, PartialEq)]
pub struct FluxParams {
    pub lag: usize,
    pub max_size: usize,
    pub aggregate: Aggregate,
    /// Channel boundaries (sorted, unique, within `0..=n_bins`, at least two); `[0, n_bins]`
    /// is one channel over every bin.
    pub bounds: Vec<usize>,
    /// Zeros prepended (`lag`, plus `n_fft / (2·hop)` when centred).
    pub pad_left: usize,
    /// `lfilter([1, −1], [1, −0.99])` along time after the padding.
    pub detrend: bool,
    /// Keep at most this many frames (librosa's centring crop to the input's frame count).
    pub max_frames: Option<usize>,
}

impl FluxParams {
    /// Checks the parameters against `n_bins`, `frames`; the output's channel and frame counts.
    pub fn shape(&self, n_bins: usize, frames: usize) -> SkResult<(usize, usize)> {
        if self.lag == 0 {
            return Err(SkError::BadArgument(
                "lag = 0 must be a positive integer".into(),
            ));
        }
        if self.max_size == 0 {
            return Err(SkError::BadArgument(
                "max_size = 0 must be a positive integer".into(),
            ));
        }
        if n_bins == 0 {
            return Err(SkError::Length("n_bins = 0".into()));
        }
        if frames <= self.lag {
            return Err(SkError::BadArgument(format!(
                "frames = {frames} must exceed lag = {}",
                self.lag
            )));
        }
        let ch = if self.aggregate == Aggregate::None {
            n_bins
        } else {
            let b = &self.bounds;
            if b.len() < 2 || b.windows(2).any(|w| w[0] >= w[1]) || b[b.len() - 1] > n_bins {
                return Err(SkError::BadArgument(format!(
                    "channel bounds {b:?} must be at least two strictly increasing indices \
                     within 0..={n_bins}"
                )));
            }
            b.len() - 1
        };
        let n = frames - self.lag + self.pad_left;
        let n = self.max_frames.map_or(n, |m| n.min(m));
        Ok((ch, n))
    }
}

/// numpy's median of `v` (reordered): NaN if any value is NaN.
fn median(v: &mut [f64]) -> f64 {
    if v.iter().any(|x| x.is_nan()) {
        return f64::NAN;
    }
    let n = v.len();
    v.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    if !n.is_multiple_of(2) {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// scipy.ndimage's `"reflect"` index (edge repeated: `d c b a | a b c d | d c b a`).
fn reflect(j: isize, n: isize) -> usize {
    let period = 2 * n;
    let mut r = j.rem_euclid(period);
    if r >= n {
        r = period - 1 - r;
    }
    r as usize
}

/// `librosa.onset.onset_strength_multi(S=s, lag, max_size, ref, detrend, center, aggregate,
/// channels)` of a batch `s` (`batch × n_bins × frames`, row-major) into `out` (`batch × ch ×
/// n_out`). `reference` (same shape as `s`) replaces the local-maximum reference.
pub fn onset_flux<T: Float>(
    s: &[T],
    batch: usize,
    n_bins: usize,
    frames: usize,
    reference: Option<&[T]>,
    fp: &FluxParams,
    out: &mut [T],
) -> SkResult<()> {
    let (ch, n_out) = fp.shape(n_bins, frames)?;
    assert_eq!(s.len(), batch * n_bins * frames, "spectrogram length");
    assert_eq!(out.len(), batch * ch * n_out, "onset output length");
    if let Some(r) = reference {
        assert_eq!(r.len(), s.len(), "reference length");
    }
    let nd = frames - fp.lag; // differenced frames
    let full = nd + fp.pad_left;
    let per_item = n_bins * nd;
    // one row of work per batch item: the differences (bins × nd), then channels
    par_rows_with(
        out,
        (ch * n_out).max(1),
        (batch * n_bins * frames).saturating_mul(4),
        || {
            Ok((
                try_vec(per_item, 0.0f64, "the onset differences")?,
                try_vec(n_bins, 0.0f64, "a channel")?,
                try_vec(full, 0.0f64, "an envelope")?,
            ))
        },
        |(diff, tmp, env), first, chunk| {
            for (i, o) in chunk.chunks_exact_mut((ch * n_out).max(1)).enumerate() {
                let b = first + i;
                let sb = &s[b * n_bins * frames..(b + 1) * n_bins * frames];
                let rb = reference.map(|r| &r[b * n_bins * frames..(b + 1) * n_bins * frames]);
                let h = (fp.max_size / 2) as isize;
                for f in 0..n_bins {
                    for t in 0..nd {
                        let refv = match rb {
                            Some(r) => r[f * frames + t].to_f64(),
                            None if fp.max_size == 1 => sb[f * frames + t].to_f64(),
                            None => {
                                // scipy maximum_filter1d, size max_size, origin 0
                                let mut m = f64::NEG_INFINITY;
                                let mut nan = false;
                                for k in 0..fp.max_size as isize {
                                    let j = reflect(f as isize - h + k, n_bins as isize);
                                    let v = sb[j * frames + t].to_f64();
                                    nan |= v.is_nan();
                                    m = m.max(v);
                                }
                                if nan {
                                    f64::NAN
                                } else {
                                    m
                                }
                            }
                        };
                        let d = sb[f * frames + t + fp.lag].to_f64() - refv;
                        // np.maximum(0, d) propagates NaN
                        diff[f * nd + t] = if d.is_nan() { d } else { d.max(0.0) };
                    }
                }
                for c in 0..ch {
                    let (lo, hi) = if fp.aggregate == Aggregate::None {
                        (c, c + 1)
                    } else {
                        (fp.bounds[c], fp.bounds[c + 1])
                    };
                    env[..fp.pad_left].iter_mut().for_each(|v| *v = 0.0);
                    for t in 0..nd {
                        let v = &mut tmp[..hi - lo];
                        for (k, f) in (lo..hi).enumerate() {
                            v[k] = diff[f * nd + t];
                        }
                        env[fp.pad_left + t] = match fp.aggregate {
                            Aggregate::None => v[0],
                            Aggregate::Mean => v.iter().sum::<f64>() / v.len() as f64,
                            Aggregate::Median => median(v),
                            Aggregate::Max => v.iter().fold(f64::NEG_INFINITY, |a, &x| {
                                if a.is_nan() || x.is_nan() {
                                    f64::NAN
                                } else {
                                    a.max(x)
                                }
                            }),
                            Aggregate::Min => v.iter().fold(f64::INFINITY, |a, &x| {
                                if a.is_nan() || x.is_nan() {
                                    f64::NAN
                                } else {
                                    a.min(x)
                                }
                            }),
                        };
                    }
                    if fp.detrend {
                        let (mut xp, mut yp) = (0.0, 0.0);
                        for v in env.iter_mut() {
                            let y = *v - xp + 0.99 * yp;
                            xp = *v;
                            yp = y;
                            *v = y;
                        }
                    }
                    for (d, v) in o[c * n_out..(c + 1) * n_out].iter_mut().zip(env.iter()) {
                        *d = T::from_f64(*v);
                    }
                }
            }
        },
    )
}

/// Peak-picking parameters (`librosa.util.peak_pick`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PeakParams {
    pub pre_max: usize,
    pub post_max: usize,
    pub pre_avg: usize,
    pub post_avg: usize,
    pub delta: f64,
    pub wait: usize,
}

impl PeakParams {
    pub fn check(&self) -> SkResult<()> {
        if self.post_max == 0 || self.post_avg == 0 {
            return Err(SkError::BadArgument(format!(
                "post_max = {} and post_avg = {} must be positive",
                self.post_max, self.post_avg
            )));
        }
        if self.delta.is_nan() || self.delta < 0.0 {
            return Err(SkError::BadArgument(format!(
                "delta = {} must be non-negative",
                self.delta
            )));
        }
        Ok(())
    }
}

/// `np.mean(x[a..b])` as numba computes it (a running sum, then one division).
fn mean(x: &[f64]) -> f64 {
    x.iter().fold(0.0, |a, v| a + v) / x.len() as f64
}

fn max(x: &[f64]) -> f64 {
    let mut m = x[0];
    for &v in &x[1..] {
        if v.is_nan() || m.is_nan() {
            m = f64::NAN;
        } else if v > m {
            m = v;
        }
    }
    m
}

/// librosa's greedy peak picker on one row `x` (widened to `f64`), flags into `peaks`.
fn peak_row(x: &[f64], pp: &PeakParams, peaks: &mut [u8]) {
    let n = x.len();
    peaks.iter_mut().for_each(|p| *p = 0);
    if n == 0 {
        return;
    }
    let first =
        x[0] >= max(&x[..pp.post_max.min(n)]) && x[0] >= mean(&x[..pp.post_avg.min(n)]) + pp.delta;
    peaks[0] = u8::from(first);
    let mut i = if first { pp.wait + 1 } else { 1 };
    while i < n {
        let lo = i.saturating_sub(pp.pre_max);
        let hi = (i + pp.post_max).min(n);
        if x[i] != max(&x[lo..hi]) {
            i += 1;
            continue;
        }
        let lo = i.saturating_sub(pp.pre_avg);
        let hi = (i + pp.post_avg).min(n);
        let avg = mean(&x[lo..hi]) + pp.delta;
        if x[i].is_nan() || avg.is_nan() || x[i] < avg {
            i += 1;
            continue;
        }
        peaks[i] = 1;
        i += pp.wait + 1;
    }
}

/// `librosa.util.peak_pick(x, ..., sparse=False)` of every row of `x` (`rows × n`): 1 at the
/// picked peaks, 0 elsewhere, into `peaks`.
pub fn peak_pick<T: Float>(x: &[T], n: usize, pp: &PeakParams, peaks: &mut [u8]) -> SkResult<()> {
    pp.check()?;
    assert_eq!(x.len(), peaks.len(), "peak flags length");
    if n == 0 {
        return Ok(());
    }
    let mut buf = try_vec(n, 0.0f64, "a row")?;
    for (xr, pr) in x.chunks_exact(n).zip(peaks.chunks_exact_mut(n)) {
        for (b, v) in buf.iter_mut().zip(xr) {
            *b = v.to_f64();
        }
        peak_row(&buf, pp, pr);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flux_of_a_step() {
        // one bin, frames 0 0 1 1: difference at lag 1 is 0 1 0, padded by 1
        let s = [0.0f64, 0.0, 1.0, 1.0];
        let fp = FluxParams {
            lag: 1,
            max_size: 1,
            aggregate: Aggregate::Mean,
            bounds: vec![0, 1],
            pad_left: 1,
            detrend: false,
            max_frames: Some(4),
        };
        let mut out = [9.0; 4];
        onset_flux(&s, 1, 1, 4, None, &fp, &mut out).unwrap();
        assert_eq!(out, [0.0, 0.0, 1.0, 0.0]);
    }

    #[test]
    fn reflect_index() {
        let got: Vec<usize> = (-3..7).map(|j| reflect(j, 4)).collect();
        assert_eq!(got, [2, 1, 0, 0, 1, 2, 3, 3, 2, 1]);
    }

    #[test]
    fn peaks_with_wait() {
        let x = [0.0f64, 1.0, 0.0, 0.9, 0.0, 0.0, 2.0, 0.0];
        let pp = PeakParams {
            pre_max: 1,
            post_max: 2,
            pre_avg: 1,
            post_avg: 2,
            delta: 0.1,
            wait: 2,
        };
        let mut p = [0u8; 8];
        peak_pick(&x, 8, &pp, &mut p).unwrap();
        assert_eq!(p, [0, 1, 0, 0, 0, 0, 1, 0]);
    }
}
