//! Spectral estimation (`scipy.signal.welch`, `csd`, `periodogram`, `spectrogram`): the one
//! framed kernel behind them. Each row of the input is cut into segments of `nperseg` samples
//! that start `step` samples apart; each segment is detrended (none, its mean, or its least
//! squares line), multiplied by the window, zero-padded to `nfft` and transformed (real FFT);
//! the bins become `|X|²·scale` (power), `conj(X)·Y·scale` (cross spectrum of two signals) or
//! `X·scale` (the complex spectrum), doubled on the one-sided interior bins for power and cross
//! spectra; the segments are then kept (spectrogram) or averaged by their mean or their median
//! (divided by the median's bias, as scipy's `_median_bias`).
//!
//! Layouts (per row, rows one after the other): averaged results hold `n_out` bins; kept segments
//! are frequency-major, bin `k` of segment `s` at `k·segments + s` (scipy's `(..., freq, time)`).
//! Complex values are interleaved `(re, im)`. `n_out` is `nfft/2 + 1` one-sided, else `nfft`
//! (two-sided bins in FFT order, the upper half the conjugate mirror of the lower).

use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::par::par_rows_with;
use crate::kernels::spectral::fft::{FftFloat, FftPlan, Norm, PlanCache, Workspace, MAX_FFT_LEN};
use crate::kernels::spectral::Complex;
use crate::kernels::Float;
use std::sync::Arc;

/// What each segment's spectrum is detrended by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detrend {
    /// Nothing.
    None,
    /// The segment's mean.
    Constant,
    /// The segment's least-squares line.
    Linear,
}

/// How the segments are combined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Average {
    /// Every segment kept (spectrogram).
    None,
    /// Their mean.
    Mean,
    /// Their median (real and imaginary parts separately) divided by the median bias.
    Median,
}

/// What each bin holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EstOutput {
    /// `|X|²·scale` (real).
    Power,
    /// `conj(X)·Y·scale` (complex).
    Cross,
    /// `X·scale` (complex; never doubled).
    Complex,
}

/// Parameters of [`spectral_est`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EstParams {
    pub nperseg: usize,
    pub step: usize,
    pub nfft: usize,
    pub detrend: Detrend,
    pub onesided: bool,
    pub scale: f64,
    pub average: Average,
    pub output: EstOutput,
}

impl EstParams {
    /// Checks `1 ≤ nperseg ≤ nfft ≤ 2^28`, `1 ≤ step ≤ nperseg`, a finite scale.
    pub fn check(&self) -> SkResult<()> {
        if self.nperseg == 0 {
            return Err(SkError::Length(
                "nperseg = 0: a segment needs at least one sample".into(),
            ));
        }
        if self.nfft < self.nperseg {
            return Err(SkError::BadArgument(format!(
                "nfft = {} must be greater than or equal to nperseg = {}",
                self.nfft, self.nperseg
            )));
        }
        if self.nfft > MAX_FFT_LEN {
            return Err(SkError::Length(format!(
                "nfft = {} exceeds the largest supported FFT length {MAX_FFT_LEN} (2^28)",
                self.nfft
            )));
        }
        if self.step == 0 || self.step > self.nperseg {
            return Err(SkError::BadArgument(format!(
                "noverlap = {} must be less than nperseg = {} (and not negative)",
                self.nperseg.wrapping_sub(self.step),
                self.nperseg
            )));
        }
        if !self.scale.is_finite() {
            return Err(SkError::BadArgument(format!(
                "scale = {} is not finite",
                self.scale
            )));
        }
        Ok(())
    }

    /// Segments of an `n`-sample row: `(n − nperseg)/step + 1`, 0 when `n < nperseg`.
    pub fn segments(&self, n: usize) -> usize {
        if n < self.nperseg {
            0
        } else {
            (n - self.nperseg) / self.step + 1
        }
    }

    /// Bins of the transform (`nfft/2 + 1`).
    fn bins(&self) -> usize {
        self.nfft / 2 + 1
    }

    /// Bins in the output: `nfft/2 + 1` one-sided, else `nfft`.
    pub fn n_out(&self) -> usize {
        if self.onesided {
            self.bins()
        } else {
            self.nfft
        }
    }

    /// Whether the output is complex.
    pub fn complex(&self) -> bool {
        self.output != EstOutput::Power
    }

    /// Elements (floats) of one row's output for an `n`-sample row, `None` on overflow.
    pub fn row_len(&self, n: usize) -> Option<usize> {
        let per = self
            .n_out()
            .checked_mul(if self.complex() { 2 } else { 1 })?;
        match self.average {
            Average::None => per.checked_mul(self.segments(n)),
            _ => {
                if self.segments(n) == 0 {
                    Some(0)
                } else {
                    Some(per)
                }
            }
        }
    }
}

/// The bias of the median of `n` periodograms relative to their mean (scipy's `_median_bias`):
/// `1 + Σ_{i=1}^{⌊(n−1)/2⌋} (1/(2i+1) − 1/(2i))`.
pub fn median_bias(n: usize) -> f64 {
    let mut s = 0.0;
    for i in 1..=(n.saturating_sub(1)) / 2 {
        let ii = 2.0 * i as f64;
        s += 1.0 / (ii + 1.0) - 1.0 / ii;
    }
    1.0 + s
}

/// The mean of `seg` (not empty), summed in double over 8 interleaved partial sums (independent
/// additions the compiler vectorises, instead of one chain of dependent ones), rounded to `T`.
fn mean_of<T: FftFloat>(seg: &[T]) -> T {
    let mut l = [0.0f64; 8];
    let mut ch = seg.chunks_exact(8);
    for c in &mut ch {
        for (a, &v) in l.iter_mut().zip(c) {
            *a += v.to_f64();
        }
    }
    let mut s = ((l[0] + l[4]) + (l[1] + l[5])) + ((l[2] + l[6]) + (l[3] + l[7]));
    for &v in ch.remainder() {
        s += v.to_f64();
    }
    <T as Float>::from_f64(s / seg.len() as f64)
}

/// Removes the trend of `seg` in place.
fn detrend_in_place<T: FftFloat>(seg: &mut [T], d: Detrend) {
    let n = seg.len();
    match d {
        Detrend::None => {}
        Detrend::Constant => {
            let m = mean_of(seg);
            for v in seg.iter_mut() {
                *v = *v - m;
            }
        }
        Detrend::Linear => {
            // least squares line over t = 0..n-1, centred at t̄ = (n−1)/2
            let tm = (n as f64 - 1.0) / 2.0;
            let (mut sx, mut stx, mut stt) = (0.0f64, 0.0f64, 0.0f64);
            for (i, &v) in seg.iter().enumerate() {
                let t = i as f64 - tm;
                sx += v.to_f64();
                stx += t * v.to_f64();
                stt += t * t;
            }
            let mean = sx / n as f64;
            let slope = if stt > 0.0 { stx / stt } else { 0.0 };
            for (i, v) in seg.iter_mut().enumerate() {
                let fit = mean + slope * (i as f64 - tm);
                *v = <T as Float>::from_f64(v.to_f64() - fit);
            }
        }
    }
}

/// Segments whose spectra are kept together before a spectrogram writes them out.
const TILE: usize = 8;

/// The most bytes of spectra one tile holds: long transforms are written one segment at a
/// time (their tile would outgrow the cache, and the scratch the memory of one spectrum).
const TILE_BYTES: usize = 256 << 10;

/// Segments per tile of a spectrogram with `bins` bins per spectrum and `segs` segments.
fn tile_segments<T>(bins: usize, segs: usize) -> usize {
    let per = bins
        .saturating_mul(std::mem::size_of::<Complex<T>>())
        .max(1);
    TILE.min(TILE_BYTES / per).min(segs).max(1)
}

/// One thread's scratch: FFT workspace, a padded frame, the spectra and the per-row buffers.
struct Scratch<T> {
    ws: Workspace<T>,
    frame: Vec<T>,
    xf: Vec<Complex<T>>,
    yf: Vec<Complex<T>>,
    /// Mean: the running sums (`bins` complex); median: every segment's values
    /// (`segments × bins` complex); kept segments: a tile of `tile × bins`.
    acc: Vec<Complex<T>>,
    sel: Vec<T>,
}

/// Everything a row needs that does not change from row to row.
struct Job<'a, T: FftFloat> {
    p: EstParams,
    plan: Arc<FftPlan<T>>,
    win: &'a [T],
    n: usize,
    segs: usize,
    /// Segments per tile of kept segments ([`tile_segments`]).
    tile: usize,
}

impl<T: FftFloat> Job<'_, T> {
    /// The spectrum of segment `s` of `row` into `out` (`bins` values).
    fn spectrum(
        &self,
        row: &[T],
        s: usize,
        frame: &mut [T],
        out: &mut [Complex<T>],
        ws: &mut Workspace<T>,
    ) {
        let np = self.p.nperseg;
        let seg = &row[s * self.p.step..s * self.p.step + np];
        // the copy, the detrend and the window in one pass where the detrend is one number
        match self.p.detrend {
            Detrend::None => {
                for ((v, &x), &w) in frame[..np].iter_mut().zip(seg).zip(self.win) {
                    *v = x * w;
                }
            }
            Detrend::Constant => {
                let m = mean_of(seg);
                for ((v, &x), &w) in frame[..np].iter_mut().zip(seg).zip(self.win) {
                    *v = (x - m) * w;
                }
            }
            Detrend::Linear => {
                frame[..np].copy_from_slice(seg);
                detrend_in_place(&mut frame[..np], Detrend::Linear);
                for (v, &w) in frame[..np].iter_mut().zip(self.win) {
                    *v = *v * w;
                }
            }
        }
        for v in frame[np..].iter_mut() {
            *v = T::ZERO;
        }
        self.plan.rfft_ws(frame, out, Norm::Backward, ws);
    }

    /// Bin `k`'s value of one segment (scaled, doubled where one-sided asks for it).
    #[inline]
    fn value(&self, x: Complex<T>, y: Complex<T>, k: usize) -> Complex<T> {
        let bins = self.p.bins();
        let double = self.p.onesided
            && self.p.output != EstOutput::Complex
            && k >= 1
            && (k < bins - 1 || !self.p.nfft.is_multiple_of(2));
        let sc = <T as Float>::from_f64(if double {
            2.0 * self.p.scale
        } else {
            self.p.scale
        });
        match self.p.output {
            EstOutput::Power => Complex::new((x.re * x.re + x.im * x.im) * sc, T::ZERO),
            EstOutput::Cross => Complex::new(
                (x.re * y.re + x.im * y.im) * sc,
                (x.re * y.im - x.im * y.re) * sc,
            ),
            EstOutput::Complex => Complex::new(x.re * sc, x.im * sc),
        }
    }

    /// Writes bin `k` (of the `n_out` output bins) of value `v` at float index `at` of `out`.
    #[inline]
    fn put(&self, out: &mut [T], at: usize, v: Complex<T>) {
        if self.p.complex() {
            out[2 * at] = v.re;
            out[2 * at + 1] = v.im;
        } else {
            out[at] = v.re;
        }
    }

    /// The output value of bin `k < n_out` from the transform bins `vals` (`bins` values):
    /// the upper half of a two-sided result is the conjugate mirror.
    #[inline]
    fn out_bin(&self, vals: &[Complex<T>], k: usize) -> Complex<T> {
        if k < self.p.bins() {
            vals[k]
        } else {
            vals[self.p.nfft - k].conj()
        }
    }

    /// One row: `x` (and `y` for a cross spectrum) into `out` (`row_len` floats).
    fn row(&self, x: &[T], y: Option<&[T]>, out: &mut [T], sc: &mut Scratch<T>) {
        let bins = self.p.bins();
        let n_out = self.p.n_out();
        let segs = self.segs;
        let Scratch {
            ws,
            frame,
            xf,
            yf,
            acc,
            sel,
        } = sc;
        match self.p.average {
            Average::None => {
                // up to TILE segments' spectra in `acc`, then written bin by bin: the
                // frequency-major output gets runs of TILE consecutive values (a cache line of
                // doubles) instead of one value per bin row per segment
                let tile = &mut acc[..self.tile * bins];
                let mut s0 = 0;
                while s0 < segs {
                    let ts = self.tile.min(segs - s0);
                    for (t, vals) in tile.chunks_exact_mut(bins).take(ts).enumerate() {
                        self.spectrum(x, s0 + t, frame, vals, ws);
                        if let Some(y) = y {
                            self.spectrum(y, s0 + t, frame, yf, ws);
                        }
                        for k in 0..bins {
                            vals[k] =
                                self.value(vals[k], if y.is_some() { yf[k] } else { vals[k] }, k);
                        }
                    }
                    for k in 0..n_out {
                        for (t, vals) in tile.chunks_exact(bins).take(ts).enumerate() {
                            let v = self.out_bin(vals, k);
                            self.put(out, k * segs + s0 + t, v);
                        }
                    }
                    s0 += ts;
                }
            }
            Average::Mean => {
                let acc = &mut acc[..bins];
                acc.fill(Complex::new(T::ZERO, T::ZERO));
                for s in 0..segs {
                    self.spectrum(x, s, frame, xf, ws);
                    if let Some(y) = y {
                        self.spectrum(y, s, frame, yf, ws);
                    }
                    for k in 0..bins {
                        let v = self.value(xf[k], if y.is_some() { yf[k] } else { xf[k] }, k);
                        acc[k] = acc[k] + v;
                    }
                }
                let inv = <T as Float>::from_f64(segs as f64);
                for a in acc.iter_mut() {
                    *a = Complex::new(a.re / inv, a.im / inv);
                }
                for k in 0..n_out {
                    let v = self.out_bin(acc, k);
                    self.put(out, k, v);
                }
            }
            Average::Median => {
                let all = &mut acc[..segs * bins];
                for s in 0..segs {
                    self.spectrum(x, s, frame, xf, ws);
                    if let Some(y) = y {
                        self.spectrum(y, s, frame, yf, ws);
                    }
                    for k in 0..bins {
                        all[k * segs + s] =
                            self.value(xf[k], if y.is_some() { yf[k] } else { xf[k] }, k);
                    }
                }
                let bias = if segs > 1 { median_bias(segs) } else { 1.0 };
                let bias = <T as Float>::from_f64(bias);
                for k in 0..bins {
                    let vals = &all[k * segs..(k + 1) * segs];
                    sel.clear();
                    sel.extend(vals.iter().map(|c| c.re));
                    let re = median(sel) / bias;
                    let im = if self.p.complex() {
                        sel.clear();
                        sel.extend(vals.iter().map(|c| c.im));
                        median(sel) / bias
                    } else {
                        T::ZERO
                    };
                    xf[k] = Complex::new(re, im);
                }
                for k in 0..n_out {
                    let v = self.out_bin(xf, k);
                    self.put(out, k, v);
                }
            }
        }
    }
}

/// numpy's median of `v` (the mean of the two middle values for an even count; NaN when any
/// value is NaN). `v` is reordered.
pub(crate) fn median<T: FftFloat>(v: &mut [T]) -> T {
    let n = v.len();
    if n == 0 || v.iter().any(|x| x.is_nan()) {
        return T::NAN;
    }
    let cmp = |a: &T, b: &T| a.partial_cmp(b).expect("no NaN");
    let (lo, &mut hi, _) = v.select_nth_unstable_by(n / 2, cmp);
    if n % 2 == 1 {
        return hi;
    }
    let mut m = lo[0];
    for &x in lo.iter() {
        if x > m {
            m = x;
        }
    }
    (m + hi) / <T as Float>::from_f64(2.0)
}

/// Spectral estimate of `rows` rows of `n` samples (`x`, and `y` of the same shape for
/// [`EstOutput::Cross`]) with the window `win` (`nperseg` values) into `out`
/// (`rows · p.row_len(n)` floats). Rows are split over up to `SIGKERN_THREADS` threads; every
/// row is computed as on one thread. Scratch is allocated before anything is written: on an
/// error `out` is untouched.
pub fn spectral_est<T: FftFloat + PlanCache>(
    x: &[T],
    y: Option<&[T]>,
    rows: usize,
    n: usize,
    win: &[T],
    p: &EstParams,
    out: &mut [T],
) -> SkResult<()> {
    p.check()?;
    assert_eq!(win.len(), p.nperseg, "window length");
    assert!(x.len() >= rows * n, "x span");
    assert_eq!(
        y.is_some(),
        p.output == EstOutput::Cross,
        "y given iff cross spectrum"
    );
    if let Some(y) = y {
        assert!(y.len() >= rows * n, "y span");
    }
    let row_len = p.row_len(n).expect("row length checked by the caller");
    assert!(out.len() >= rows * row_len, "output span");
    let segs = p.segments(n);
    if rows == 0 || row_len == 0 {
        return Ok(());
    }
    let job = Job {
        p: *p,
        plan: T::cached_real_plan(p.nfft)?,
        win,
        n,
        segs,
        tile: tile_segments::<T>(p.bins(), segs),
    };
    let bins = p.bins();
    let acc_len = match p.average {
        Average::Median => segs
            .checked_mul(bins)
            .ok_or_else(|| SkError::Length("segments × bins overflow".into()))?,
        Average::None => job
            .tile
            .checked_mul(bins)
            .ok_or_else(|| SkError::Length("a tile of spectra overflows".into()))?,
        Average::Mean => bins,
    };
    let make = || -> SkResult<Scratch<T>> {
        Ok(Scratch {
            ws: job.plan.workspace()?,
            frame: try_vec(p.nfft, T::ZERO, "a padded segment")?,
            xf: try_vec(bins, Complex::new(T::ZERO, T::ZERO), "a segment spectrum")?,
            yf: try_vec(
                if y.is_some() { bins } else { 0 },
                Complex::new(T::ZERO, T::ZERO),
                "a segment spectrum",
            )?,
            acc: try_vec(
                acc_len,
                Complex::new(T::ZERO, T::ZERO),
                "the segment spectra",
            )?,
            sel: crate::kernels::alloc::try_with_capacity(
                if p.average == Average::Median {
                    segs
                } else {
                    0
                },
                "the median selection",
            )?,
        })
    };
    let log_n = (usize::BITS - p.nfft.leading_zeros()) as usize;
    let work = rows
        .saturating_mul(segs)
        .saturating_mul(p.nfft)
        .saturating_mul(log_n + 4);
    let out = &mut out[..rows * row_len];
    par_rows_with(out, row_len, work, make, |sc, first, chunk| {
        for (i, o) in chunk.chunks_exact_mut(row_len).enumerate() {
            let r = first + i;
            let xr = &x[r * job.n..(r + 1) * job.n];
            let yr = y.map(|y| &y[r * job.n..(r + 1) * job.n]);
            job.row(xr, yr, o, sc);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;

    /// Direct DFT of a detrended, windowed, padded segment (the reference).
    fn dft(seg: &[f64], nfft: usize) -> Vec<(f64, f64)> {
        (0..nfft / 2 + 1)
            .map(|k| {
                let mut re = 0.0;
                let mut im = 0.0;
                for (j, &v) in seg.iter().enumerate() {
                    let a = -2.0 * std::f64::consts::PI * (k * j) as f64 / nfft as f64;
                    re += v * a.cos();
                    im += v * a.sin();
                }
                (re, im)
            })
            .collect()
    }

    fn params(nperseg: usize, step: usize, nfft: usize, avg: Average, out: EstOutput) -> EstParams {
        EstParams {
            nperseg,
            step,
            nfft,
            detrend: Detrend::Constant,
            onesided: true,
            scale: 0.5,
            average: avg,
            output: out,
        }
    }

    #[test]
    fn mean_power_matches_direct_dft() {
        let mut r = Rng::new(3);
        let n = 37;
        let x: Vec<f64> = (0..n).map(|_| r.uniform()).collect();
        let win: Vec<f64> = (0..8).map(|i| 0.5 + 0.05 * i as f64).collect();
        let p = params(8, 3, 11, Average::Mean, EstOutput::Power);
        let segs = p.segments(n);
        assert_eq!(segs, 10);
        let mut out = vec![0.0; p.row_len(n).unwrap()];
        spectral_est(&x, None, 1, n, &win, &p, &mut out).unwrap();
        let mut want = [0.0; 6];
        for s in 0..segs {
            let seg = &x[s * 3..s * 3 + 8];
            let m = seg.iter().sum::<f64>() / 8.0;
            let w: Vec<f64> = seg.iter().zip(&win).map(|(v, w)| (v - m) * w).collect();
            for (k, (re, im)) in dft(&w, 11).into_iter().enumerate() {
                let d = if k >= 1 { 2.0 } else { 1.0 };
                want[k] += d * 0.5 * (re * re + im * im) / segs as f64;
            }
        }
        for k in 0..6 {
            assert!((out[k] - want[k]).abs() < 1e-12 * want[0].max(1.0), "{k}");
        }
    }

    #[test]
    fn linear_detrend_removes_a_line() {
        let mut v: Vec<f64> = (0..9).map(|i| 3.0 - 0.25 * i as f64).collect();
        detrend_in_place(&mut v, Detrend::Linear);
        assert!(v.iter().all(|x| x.abs() < 1e-14));
    }

    #[test]
    fn median_and_bias() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(&mut [1.0, f64::NAN]).is_nan());
        assert_eq!(median_bias(1), 1.0);
        assert_eq!(median_bias(2), 1.0);
        assert!((median_bias(3) - (1.0 + 1.0 / 3.0 - 0.5)).abs() < 1e-15);
    }

    #[test]
    fn cross_of_a_signal_with_itself_is_its_power_and_two_sided_mirrors() {
        let mut r = Rng::new(5);
        let n = 64;
        let x: Vec<f64> = (0..n).map(|_| r.uniform()).collect();
        let win = vec![1.0; 16];
        for avg in [Average::Mean, Average::Median, Average::None] {
            let mut p = params(16, 8, 16, avg, EstOutput::Power);
            p.onesided = false;
            let mut pw = vec![0.0; p.row_len(n).unwrap()];
            spectral_est(&x, None, 1, n, &win, &p, &mut pw).unwrap();
            p.output = EstOutput::Cross;
            let mut cr = vec![0.0; p.row_len(n).unwrap()];
            spectral_est(&x, Some(&x), 1, n, &win, &p, &mut cr).unwrap();
            for i in 0..pw.len() {
                assert!((pw[i] - cr[2 * i]).abs() < 1e-13, "{avg:?} {i}");
                assert!(cr[2 * i + 1].abs() < 1e-13);
            }
            if avg != Average::None {
                for k in 1..16 {
                    assert_eq!(pw[k], pw[16 - k]);
                }
            }
        }
    }

    #[test]
    fn kept_segments_equal_each_segment_alone() {
        // every column of a spectrogram (written a tile of segments at a time) equals the
        // one-segment estimate of that segment, for segment counts around the tile size
        let mut r = Rng::new(11);
        let win: Vec<f64> = (0..12).map(|i| 0.3 + 0.07 * i as f64).collect();
        for segs in [1usize, 7, 8, 9, 17, 19] {
            let (np, step) = (12, 5);
            let n = np + (segs - 1) * step + 3;
            let x: Vec<f64> = (0..2 * n).map(|_| r.uniform() + 4.0).collect();
            let y: Vec<f64> = (0..2 * n).map(|_| r.uniform()).collect();
            for (out_kind, onesided, det) in [
                (EstOutput::Power, true, Detrend::Constant),
                (EstOutput::Power, false, Detrend::None),
                (EstOutput::Cross, true, Detrend::Linear),
                (EstOutput::Complex, false, Detrend::Constant),
            ] {
                let mut p = params(np, step, 15, Average::None, out_kind);
                p.onesided = onesided;
                p.detrend = det;
                assert_eq!(p.segments(n), segs);
                let cross = out_kind == EstOutput::Cross;
                let yy = if cross { Some(&y[..]) } else { None };
                let len = p.row_len(n).unwrap();
                let mut all = vec![f64::NAN; 2 * len];
                spectral_est(&x, yy, 2, n, &win, &p, &mut all).unwrap();
                let c = if p.complex() { 2 } else { 1 };
                let mut one = p;
                one.average = Average::Mean;
                for row in 0..2 {
                    for s in 0..segs {
                        let at = row * n + s * step;
                        let mut o = vec![0.0; p.n_out() * c];
                        let ys = yy.map(|y| &y[at..at + np]);
                        spectral_est(&x[at..at + np], ys, 1, np, &win, &one, &mut o).unwrap();
                        for k in 0..p.n_out() {
                            for part in 0..c {
                                let got = all[row * len + (k * segs + s) * c + part];
                                // equal values (the one-segment mean turns −0 into +0)
                                assert_eq!(got, o[k * c + part]);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn long_transforms_are_written_one_segment_at_a_time() {
        assert_eq!(tile_segments::<f64>(513, 535), 8);
        assert_eq!(tile_segments::<f64>(513, 3), 3);
        assert_eq!(tile_segments::<f32>(10_001, 9), 3);
        assert_eq!(tile_segments::<f64>(20_001, 9), 1);
        assert_eq!(tile_segments::<f64>(usize::MAX, 9), 1);
        // nfft 40000 (one segment per tile): each column equals the one-segment estimate
        let mut r = Rng::new(4);
        let (np, step, nfft, n) = (10, 4, 40_000, 22);
        let x: Vec<f64> = (0..n).map(|_| r.uniform()).collect();
        let win = vec![1.0; np];
        let p = params(np, step, nfft, Average::None, EstOutput::Power);
        let segs = p.segments(n);
        assert_eq!(segs, 4);
        let mut all = vec![f64::NAN; p.row_len(n).unwrap()];
        spectral_est(&x, None, 1, n, &win, &p, &mut all).unwrap();
        let mut one = p;
        one.average = Average::Mean;
        for s in 0..segs {
            let mut o = vec![0.0; p.n_out()];
            let seg = &x[s * step..s * step + np];
            spectral_est(seg, None, 1, np, &win, &one, &mut o).unwrap();
            for k in 0..p.n_out() {
                assert_eq!(all[k * segs + s], o[k]);
            }
        }
    }

    #[test]
    fn constant_detrend_mean_of_every_length() {
        let mut r = Rng::new(2);
        for n in 1..40 {
            let v: Vec<f64> = (0..n).map(|_| 1e6 + r.uniform()).collect();
            let want = v.iter().sum::<f64>() / n as f64;
            assert!((mean_of(&v) - want).abs() <= 1e-8, "{n}");
            let f: Vec<f32> = v.iter().map(|&x| x as f32).collect();
            let wf = f.iter().map(|&x| x as f64).sum::<f64>() / n as f64;
            assert_eq!(mean_of(&f), wf as f32, "{n}");
        }
    }

    #[test]
    fn bad_parameters() {
        let mut p = params(8, 0, 8, Average::Mean, EstOutput::Power);
        assert!(matches!(p.check(), Err(SkError::BadArgument(_))));
        p.step = 9;
        assert!(p.check().is_err());
        p.step = 4;
        p.nfft = 7;
        assert!(p.check().is_err());
        p.nfft = 8;
        p.nperseg = 0;
        assert!(matches!(p.check(), Err(SkError::Length(_))));
    }
}
