//! Spectral descriptors as `librosa.feature` computes them, per frame of a magnitude
//! spectrogram: centroid, bandwidth, roll-off, flatness (one pass, any subset), contrast and
//! the polynomial fit; zero-crossing rate and RMS per frame of the signal; and the one-pass
//! multi-feature call from audio (STFT → every selected descriptor, frame by frame, without
//! storing the spectrogram).
//!
//! Work is in `f64` whatever the element type (a `float` frame is widened once). Layouts: a
//! spectrogram batch is `(batch, n_freq, frames)` row-major (librosa's arrays), or frame-major
//! `(batch, frames, n_freq)` (an STFT's memory); results are `(k, batch, frames)` for `k`
//! selected descriptors, `(batch, rows, frames)` for contrast and the polynomial coefficients.

use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::par::par_rows_with;
use crate::kernels::spectral::fft::{FftFloat, PlanCache};
use crate::kernels::spectral::stft::{FrameKernel, PadMode, StftParams};
use crate::kernels::spectral::Complex;
use crate::kernels::Float;
use crate::simd::multiversion;

/// Descriptor selection bit: spectral centroid.
pub(crate) const CENTROID: u32 = 1;
/// Descriptor selection bit: spectral bandwidth.
pub(crate) const BANDWIDTH: u32 = 2;
/// Descriptor selection bit: spectral roll-off.
pub(crate) const ROLLOFF: u32 = 4;
/// Descriptor selection bit: spectral flatness.
pub(crate) const FLATNESS: u32 = 8;
/// Descriptor selection bit: zero-crossing rate (audio input only).
pub(crate) const ZCR: u32 = 16;
/// Descriptor selection bit: framed RMS (audio input only).
pub(crate) const RMS: u32 = 32;
/// The bits computed from a spectrogram frame.
pub(crate) const SPECTRAL_BITS: u32 = CENTROID | BANDWIDTH | ROLLOFF | FLATNESS;
/// Every bit.
pub(crate) const ALL_BITS: u32 = SPECTRAL_BITS | ZCR | RMS;

/// Parameters of the frame descriptors (librosa's names and defaults in the docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DescParams {
    /// Bandwidth order `p` (librosa default 2).
    pub p: f64,
    /// Bandwidth: normalise the frame to unit sum first (default true).
    pub norm: bool,
    /// Roll-off fraction in (0, 1) (default 0.85).
    pub roll_percent: f64,
    /// Flatness floor `amin > 0` (default 1e-10).
    pub amin: f64,
    /// Flatness exponent applied to the magnitude (default 2: power).
    pub power: f64,
}

impl DescParams {
    /// Checks the parameters the selected bits use.
    pub fn check(&self, which: u32) -> SkResult<()> {
        if which & BANDWIDTH != 0 && !(self.p.is_finite() && self.p > 0.0) {
            return Err(SkError::BadArgument(format!(
                "p = {} must be finite and > 0",
                self.p
            )));
        }
        if which & ROLLOFF != 0 && !(self.roll_percent > 0.0 && self.roll_percent < 1.0) {
            return Err(SkError::BadArgument(format!(
                "roll_percent = {} must lie in (0, 1)",
                self.roll_percent
            )));
        }
        if which & FLATNESS != 0 {
            if !(self.amin.is_finite() && self.amin > 0.0) {
                return Err(SkError::BadArgument(format!(
                    "amin = {} must be finite and > 0",
                    self.amin
                )));
            }
            if !(self.power.is_finite() && self.power > 0.0) {
                return Err(SkError::BadArgument(format!(
                    "power = {} must be finite and > 0",
                    self.power
                )));
            }
        }
        Ok(())
    }
}

/// Checks a selection mask against the allowed bits.
pub fn check_which(which: u32, allowed: u32) -> SkResult<usize> {
    if which == 0 || which & !allowed != 0 {
        return Err(SkError::BadArgument(format!(
            "which = {which:#x} must be a non-empty combination of the bits {allowed:#x}"
        )));
    }
    Ok(which.count_ones() as usize)
}

/// `librosa.fft_frequencies(sr=sr, n_fft=n_fft)` (numpy's `rfftfreq(n_fft, 1/sr)`, the same
/// arithmetic), `n_fft/2 + 1` values.
pub fn fft_frequencies(sr: f64, n_fft: usize) -> SkResult<Vec<f64>> {
    let val = 1.0 / (n_fft as f64 * (1.0 / sr));
    let mut v = try_vec(n_fft / 2 + 1, 0.0, "the bin frequencies")?;
    for (k, f) in v.iter_mut().enumerate() {
        *f = k as f64 * val;
    }
    Ok(v)
}

/// numpy's `tiny` of the element type (the normalisation threshold of `librosa.util.normalize`).
fn tiny<T: Float>() -> f64 {
    if T::NAME == "f32" {
        f32::MIN_POSITIVE as f64
    } else {
        f64::MIN_POSITIVE
    }
}

/// The bin frequencies of a call: `ascending` when they are finite and non-decreasing (the
/// roll-off's smallest frequency at or above a bin is then that bin's).
#[derive(Clone, Copy, Debug)]
struct Freq<'a> {
    f: &'a [f64],
    ascending: bool,
}

impl<'a> Freq<'a> {
    fn new(f: &'a [f64]) -> Freq<'a> {
        let ascending = f.iter().all(|v| v.is_finite()) && f.windows(2).all(|w| w[0] <= w[1]);
        Freq { f, ascending }
    }
}

/// The selected spectral descriptors of one magnitude frame `s` (bins at `freq`), written in
/// bit order to `out`. `centroid` replaces the computed centroid in the bandwidth when given;
/// `roll_bin`, when given, is the roll-off's bin (see [`rolloff_bins`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn frame_descriptors(
    s: &[f64],
    fq: Freq<'_>,
    which: u32,
    dp: &DescParams,
    tiny: f64,
    centroid: Option<f64>,
    roll_bin: Option<usize>,
    out: &mut [f64],
) {
    let freq = fq.f;
    let mut k = 0;
    // four independent partial sums (vectorisable)
    let (mut t4, mut n4) = ([0.0f64; 4], [0.0f64; 4]);
    let n = s.len().min(freq.len());
    let (mut total, mut num) = (0.0, 0.0);
    // the centroid's sums (also the bandwidth's normalisation), only when either is asked for
    if which & (CENTROID | BANDWIDTH) != 0 {
        let (sc, fc) = (s[..n].chunks_exact(4), freq[..n].chunks_exact(4));
        let (sr, fr) = (sc.remainder(), fc.remainder());
        for (v, f) in sc.zip(fc) {
            for l in 0..4 {
                t4[l] += v[l].abs();
                n4[l] += v[l] * f[l];
            }
        }
        total = (t4[0] + t4[1]) + (t4[2] + t4[3]);
        num = (n4[0] + n4[1]) + (n4[2] + n4[3]);
        for (&v, &f) in sr.iter().zip(fr) {
            total += v.abs();
            num += v * f;
        }
    }
    // librosa.util.normalize(S, norm=1): a column below `tiny` is left as is (divided by 1)
    let len = if total < tiny { 1.0 } else { total };
    let c = num / len;
    if which & CENTROID != 0 {
        out[k] = c;
        k += 1;
    }
    if which & BANDWIDTH != 0 {
        let c = centroid.unwrap_or(c);
        let mut acc = 0.0;
        if dp.p == 2.0 {
            let mut a4 = [0.0f64; 4];
            let (sc, fc) = (s[..n].chunks_exact(4), freq[..n].chunks_exact(4));
            let (sr, fr) = (sc.remainder(), fc.remainder());
            for (v, f) in sc.zip(fc) {
                for l in 0..4 {
                    let d = c - f[l];
                    a4[l] += v[l] * (d * d);
                }
            }
            acc = (a4[0] + a4[1]) + (a4[2] + a4[3]);
            for (&v, &f) in sr.iter().zip(fr) {
                let d = c - f;
                acc += v * (d * d);
            }
        } else if dp.p == 1.0 {
            for (&v, &f) in s.iter().zip(freq) {
                acc += v * (c - f).abs();
            }
        } else {
            for (&v, &f) in s.iter().zip(freq) {
                acc += v * (c - f).abs().powf(dp.p);
            }
        }
        if dp.norm {
            acc /= len;
        }
        out[k] = if dp.p == 2.0 {
            acc.sqrt()
        } else {
            acc.powf(1.0 / dp.p)
        };
        k += 1;
    }
    if which & ROLLOFF != 0 {
        // np.cumsum order; the first bin whose running sum reaches roll_percent·total
        // np.where(total < thr, nan, 1) * freq, then nanmin over the remaining bins; the
        // values are non-negative (or NaN), so once the running sum reaches the threshold
        // every later bin does too
        let i0 = match roll_bin {
            Some(i0) => i0,
            None => {
                let mut cum = 0.0;
                for &v in s {
                    cum += v;
                }
                let thr = dp.roll_percent * cum;
                let mut run = 0.0;
                let mut i0 = s.len();
                for (i, &v) in s.iter().enumerate() {
                    run += v;
                    if run >= thr || run.is_nan() || thr.is_nan() {
                        i0 = i;
                        break;
                    }
                }
                i0
            }
        };
        let mut r = f64::NAN;
        if fq.ascending {
            if i0 < s.len() {
                r = freq[i0];
            }
        } else {
            for &f in freq.iter().take(s.len()).skip(i0) {
                if r.is_nan() || f < r {
                    r = f;
                }
            }
        }
        out[k] = r;
        k += 1;
    }
    if which & FLATNESS != 0 {
        out[k] = flatness(s, dp);
    }
}

/// `np.maximum(amin, S**power)` of one value (NaN propagates).
#[inline(always)]
fn floored(v: f64, dp: &DescParams) -> f64 {
    let p = if dp.power == 2.0 {
        v * v
    } else if dp.power == 1.0 {
        v // powf(v, 1) is v
    } else {
        v.powf(dp.power)
    };
    if p.is_nan() {
        p
    } else {
        p.max(dp.amin)
    }
}

/// The spectral flatness of one frame: `exp(mean(ln t)) / mean(t)`, `t` the floored powers.
/// The sum of logarithms is taken as the logarithm of a product kept in four lanes of
/// mantissa in [1, 2) and binary exponent (one `ln` per frame instead of one per bin); a
/// frame with a value the lanes cannot carry (non-finite, or below 2^-500) takes the
/// logarithms one by one.
#[inline(always)]
fn flatness(s: &[f64], dp: &DescParams) -> f64 {
    const MANT: u64 = (1 << 52) - 1;
    const ONE: u64 = 1023 << 52;
    let n = s.len() as f64;
    let (mut m4, mut e4, mut s4) = ([1.0f64; 4], [0i64; 4], [0.0f64; 4]);
    let mut lo = f64::INFINITY;
    let mut c = s.chunks_exact(4);
    for v in &mut c {
        for (l, &x) in v.iter().enumerate() {
            let t = floored(x, dp);
            s4[l] += t;
            lo = lo.min(t);
            // m·t stays normal and finite for t in [2^-500, 2^1020)
            let b = (m4[l] * t).to_bits();
            e4[l] += ((b >> 52) & 0x7FF) as i64 - 1023;
            m4[l] = f64::from_bits((b & MANT) | ONE);
        }
    }
    let mut sum = (s4[0] + s4[1]) + (s4[2] + s4[3]);
    let (mut m, mut e) = (1.0f64, e4.iter().sum::<i64>());
    for &ml in &m4 {
        let b = (m * ml).to_bits();
        e += ((b >> 52) & 0x7FF) as i64 - 1023;
        m = f64::from_bits((b & MANT) | ONE);
    }
    for &v in c.remainder() {
        let t = floored(v, dp);
        sum += t;
        lo = lo.min(t);
        let b = (m * t).to_bits();
        e += ((b >> 52) & 0x7FF) as i64 - 1023;
        m = f64::from_bits((b & MANT) | ONE);
    }
    let logs = if sum.is_finite() && lo >= f64::powi(2.0, -500) && sum < f64::powi(2.0, 1020) {
        m.ln() + e as f64 * std::f64::consts::LN_2
    } else {
        s.iter().map(|&v| floored(v, dp).ln()).sum()
    };
    (logs / n).exp() / (sum / n)
}

/// A batch of spectrogram frames (the input side of the spectrogram-input kernels).
#[derive(Clone, Copy, Debug)]
pub struct Spec<'a, T> {
    pub data: &'a [T],
    pub batch: usize,
    pub n_freq: usize,
    pub frames: usize,
    /// `(batch, frames, n_freq)` instead of librosa's `(batch, n_freq, frames)`.
    pub frame_major: bool,
}

impl<T: Float> Spec<'_, T> {
    pub(crate) fn check(&self) -> SkResult<()> {
        let need = self
            .batch
            .checked_mul(self.n_freq)
            .and_then(|v| v.checked_mul(self.frames))
            .ok_or_else(|| SkError::Length("batch × n_freq × frames overflows".into()))?;
        assert_eq!(self.data.len(), need, "spectrogram length");
        if self.n_freq == 0 {
            return Err(SkError::Length(
                "n_freq = 0: a frame needs at least one bin".into(),
            ));
        }
        Ok(())
    }

    /// Frame `t` of item `b` (global frame `g = b·frames + t`) widened into `buf`.
    #[inline(always)]
    pub(crate) fn frame(&self, g: usize, buf: &mut [f64]) {
        let (b, t) = (g / self.frames, g % self.frames);
        let base = b * self.n_freq * self.frames;
        if self.frame_major {
            let s = &self.data[base + t * self.n_freq..base + (t + 1) * self.n_freq];
            for (o, v) in buf.iter_mut().zip(s) {
                *o = v.to_f64();
            }
        } else {
            for (f, o) in buf.iter_mut().enumerate() {
                *o = self.data[base + f * self.frames + t].to_f64();
            }
        }
    }

    /// Errors on the first negative value (librosa: "only defined with non-negative energies").
    fn check_nonnegative(&self) -> SkResult<()> {
        if let Some(i) = self.data.iter().position(|v| *v < T::ZERO) {
            return Err(SkError::BadArgument(format!(
                "S[{i}] = {:?} is negative: the descriptors take a magnitude spectrogram \
                 (non-negative values)",
                self.data[i]
            )));
        }
        Ok(())
    }
}

/// Scatters frame-major `k`-vectors `tmp[(g, i)]` into `out[(i, g)]` (k outputs of `g_len`).
fn scatter<T: Float>(tmp: &[f64], k: usize, out: &mut [T]) {
    let g_len = out.len() / k.max(1);
    for (g, row) in tmp.chunks_exact(k).enumerate() {
        for (i, v) in row.iter().enumerate() {
            out[i * g_len + g] = T::from_f64(*v);
        }
    }
}

fn check_freq(freq: &[f64], n_freq: usize) -> SkResult<()> {
    if freq.len() != n_freq {
        return Err(SkError::BadArgument(format!(
            "freq has {} values but the spectrogram has n_freq = {n_freq} bins",
            freq.len()
        )));
    }
    Ok(())
}

/// The selected descriptors (`which` ⊆ [`SPECTRAL_BITS`]) of every frame of `s` into `out`
/// (`(k, batch, frames)`). `centroid` (`batch × frames`) replaces the bandwidth's centroid.
pub fn spectral_from_spec<T: Float>(
    s: &Spec<'_, T>,
    freq: &[f64],
    which: u32,
    dp: &DescParams,
    centroid: Option<&[T]>,
    out: &mut [T],
) -> SkResult<()> {
    let k = check_which(which, SPECTRAL_BITS)?;
    dp.check(which)?;
    s.check()?;
    check_freq(freq, s.n_freq)?;
    s.check_nonnegative()?;
    let g_len = s.batch * s.frames;
    assert_eq!(out.len(), k * g_len, "descriptor output length");
    if let Some(c) = centroid {
        assert_eq!(c.len(), g_len, "centroid length");
    }
    let mut tmp = try_vec(k * g_len, 0.0f64, "the descriptor temporary")?;
    let tiny = tiny::<T>();
    let fq = Freq::new(freq);
    let level = crate::simd::current();
    par_rows_with(
        &mut tmp,
        k,
        g_len.saturating_mul(s.n_freq).saturating_mul(8),
        || try_vec(s.n_freq, 0.0f64, "a frame"),
        |buf, first, chunk| {
            spec_part_at(
                level, s, fq, which, dp, tiny, centroid, buf, first, chunk, k,
            );
        },
    )?;
    scatter(&tmp, k, out);
    Ok(())
}

/// Frames `first ..` of `s` into `chunk` (`k` descriptors per frame): one part of
/// [`spectral_from_spec`].
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn spec_part<T: Float>(
    s: &Spec<'_, T>,
    fq: Freq<'_>,
    which: u32,
    dp: &DescParams,
    tiny: f64,
    centroid: Option<&[T]>,
    buf: &mut [f64],
    first: usize,
    chunk: &mut [f64],
    k: usize,
) {
    for (i, o) in chunk.chunks_exact_mut(k).enumerate() {
        let g = first + i;
        s.frame(g, buf);
        let c = centroid.map(|c| c[g].to_f64());
        frame_descriptors(buf, fq, which, dp, tiny, c, None, o);
    }
}

multiversion! {
    /// [`spec_part`] compiled for a SIMD level (the same arithmetic at every level).
    fn spec_part_at<T: Float>(
        s: &Spec<'_, T>,
        fq: Freq<'_>,
        which: u32,
        dp: &DescParams,
        tiny: f64,
        centroid: Option<&[T]>,
        buf: &mut [f64],
        first: usize,
        chunk: &mut [f64],
        k: usize,
    ) -> ();
    scalar = spec_part; simd = spec_part;
}

/// Most frames [`group_part`] takes side by side in the roll-off's running sums.
const CUM_FRAMES: usize = 16;

/// The spectral descriptors (`which` ⊆ [`SPECTRAL_BITS`], in bit order, the first of every
/// `k` values of `out`) of the `m = spec.len() / nf` consecutive spectra of `spec`: magnitudes
/// into `mag` (`m` rows [`mag_stride`] apart), for the roll-off the running sums of up to
/// [`CUM_FRAMES`] frames side by side ([`rolloff_bins`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn group_part<T: Float>(
    spec: &[Complex<T>],
    nf: usize,
    fq: Freq<'_>,
    which: u32,
    dp: &DescParams,
    tiny: f64,
    mag: &mut [f64],
    inter: &mut [f64],
    out: &mut [f64],
    k: usize,
) {
    let m = spec.len() / nf;
    let st = mag_stride(nf);
    let roll = which & ROLLOFF != 0;
    // a whole group for the roll-off: the magnitudes also bin-major, frame j of bin i at
    // `inter[i·CUM_FRAMES + j]` (the running sums of the frames side by side on SIMD lanes)
    let whole = roll && m == CUM_FRAMES && inter.len() >= nf * CUM_FRAMES;
    // the flatness alone of squared magnitudes: the powers `re² + im²` themselves (no square
    // root and square again; the same values within an ulp)
    let powers = which == FLATNESS && dp.power == 2.0;
    let pp = DescParams { power: 1.0, ..*dp };
    let dp = if powers { &pp } else { dp };
    for (j, sp) in spec.chunks_exact(nf).enumerate() {
        for (mg, c) in mag[j * st..j * st + nf].iter_mut().zip(sp) {
            let (re, im) = (c.re.to_f64(), c.im.to_f64());
            *mg = if powers {
                re * re + im * im
            } else {
                (re * re + im * im).sqrt()
            };
        }
        if whole {
            for (i, &v) in mag[j * st..j * st + nf].iter().enumerate() {
                inter[i * CUM_FRAMES + j] = v;
            }
        }
    }
    let mut bins = [0usize; CUM_FRAMES];
    let ks = which.count_ones() as usize;
    for j0 in (0..m).step_by(CUM_FRAMES) {
        let mm = (m - j0).min(CUM_FRAMES);
        if roll {
            let mg = &mag[j0 * st..];
            if whole {
                bins = rolloff_bins_lanes(&inter[..nf * CUM_FRAMES], dp.roll_percent);
            } else if mm == CUM_FRAMES {
                bins = rolloff_bins::<CUM_FRAMES>(mg, st, nf, dp.roll_percent);
            } else {
                for (j, b) in bins[..mm].iter_mut().enumerate() {
                    *b = rolloff_bins::<1>(&mg[j * st..], st, nf, dp.roll_percent)[0];
                }
            }
        }
        for (j, &b) in bins[..mm].iter().enumerate() {
            let jj = j0 + j;
            let o = &mut out[jj * k..jj * k + ks];
            let rb = if roll { Some(b) } else { None };
            let sj = &mag[jj * st..jj * st + nf];
            frame_descriptors(sj, fq, which, dp, tiny, None, rb, o);
        }
    }
}

/// The distance between frames in [`group_part`]'s buffer: `nf` rounded up to whole cache
/// lines plus two, so that the frames read side by side do not all fall into the same cache
/// sets (as frames 8 KiB apart would).
fn mag_stride(nf: usize) -> usize {
    nf.div_ceil(8) * 8 + 16
}

/// The roll-off bins of the `M` magnitude rows (`st` apart, `nf` long) of `mag`, the rows side
/// by side (`M` independent chains of additions, each in bin order as `np.cumsum`): for each
/// row the first bin whose running sum reaches `roll_percent` times the total (or is NaN),
/// `nf` when none does, 0 when the threshold is NaN. The values are non-negative or NaN, so the
/// running sums never decrease (a NaN stays): the first such bin is the count of running sums
/// below the threshold.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // bin i of every row, the rows side by side
fn rolloff_bins<const M: usize>(
    mag: &[f64],
    st: usize,
    nf: usize,
    roll_percent: f64,
) -> [usize; M] {
    let rows: [&[f64]; M] = std::array::from_fn(|j| &mag[j * st..j * st + nf]);
    let mut total = [0.0f64; M];
    for i in 0..nf {
        for j in 0..M {
            total[j] += rows[j][i];
        }
    }
    let thr = total.map(|t| roll_percent * t);
    let mut run = [0.0f64; M];
    let mut below = [0usize; M];
    for i in 0..nf {
        for j in 0..M {
            run[j] += rows[j][i];
            below[j] += usize::from(run[j] < thr[j]);
        }
    }
    std::array::from_fn(|j| if thr[j].is_nan() { 0 } else { below[j] })
}

/// [`rolloff_bins`] of [`CUM_FRAMES`] frames stored bin-major (`inter[i·CUM_FRAMES + j]` is
/// bin `i` of frame `j`, `inter.len() / CUM_FRAMES` bins): the same running sums, in the same
/// order, with the frames on contiguous lanes.
#[inline(always)]
fn rolloff_bins_lanes(inter: &[f64], roll_percent: f64) -> [usize; CUM_FRAMES] {
    const M: usize = CUM_FRAMES;
    let mut total = [0.0f64; M];
    for c in inter.chunks_exact(M) {
        for j in 0..M {
            total[j] += c[j];
        }
    }
    let thr = total.map(|t| roll_percent * t);
    let mut run = [0.0f64; M];
    let mut below = [0u64; M];
    for c in inter.chunks_exact(M) {
        for j in 0..M {
            run[j] += c[j];
            below[j] += u64::from(run[j] < thr[j]);
        }
    }
    std::array::from_fn(|j| {
        if thr[j].is_nan() {
            0
        } else {
            below[j] as usize
        }
    })
}

multiversion! {
    /// [`group_part`] compiled for a SIMD level (the same arithmetic at every level).
    fn group_part_at<T: Float>(
        spec: &[Complex<T>],
        nf: usize,
        fq: Freq<'_>,
        which: u32,
        dp: &DescParams,
        tiny: f64,
        mag: &mut [f64],
        inter: &mut [f64],
        out: &mut [f64],
        k: usize,
    ) -> ();
    scalar = group_part; simd = group_part;
}

/// Zero-crossing parameters (`librosa.feature.zero_crossing_rate` / `zero_crossings`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ZcrParams {
    /// Values with `−threshold ≤ y ≤ threshold` count as +0 (librosa 0.11).
    pub threshold: f64,
    /// Zero counts as positive (`signbit`); else `np.sign` classes (−1, 0, +1).
    pub zero_pos: bool,
    /// The first sample of a frame counts as a crossing (librosa `pad=True`).
    pub pad: bool,
}

/// Sign class of a sample for `zero_crossings` (`None`: NaN, unequal to everything).
#[inline(always)]
fn sign_class(v: f64, zp: &ZcrParams) -> Option<i8> {
    // librosa 0.11's stencil: −threshold ≤ v ≤ threshold becomes +0 (also −0.0 at threshold 0)
    let v = if v.abs() <= zp.threshold { 0.0 } else { v };
    if zp.zero_pos {
        Some(v.is_sign_negative() as i8)
    } else if v.is_nan() {
        None
    } else if v > 0.0 {
        Some(1)
    } else if v < 0.0 {
        Some(-1)
    } else {
        Some(0)
    }
}

/// The crossing rate of one frame of samples. Branch-free over sample pairs (vectorisable): a
/// pair crosses when its sign classes differ (with `np.sign` classes, also when either sample
/// is NaN).
fn frame_zcr(seg: &[f64], zp: &ZcrParams) -> f64 {
    let mut count = usize::from(zp.pad);
    for w in seg.windows(2) {
        let nan = !zp.zero_pos && (w[0].is_nan() || w[1].is_nan());
        let differ = zcr_class(w[0], zp) != zcr_class(w[1], zp) || nan;
        count += usize::from(differ);
    }
    count as f64 / seg.len() as f64
}

/// `Σ v²` over four independent partial sums (vectorisable; the frame RMS).
fn sum_sq(s: &[f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    let mut it = s.chunks_exact(4);
    for c in &mut it {
        for (a, v) in acc.iter_mut().zip(c) {
            *a += v * v;
        }
    }
    let mut tail = 0.0;
    for v in it.remainder() {
        tail += v * v;
    }
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}

/// How the time-domain features pad a centred signal (`np.pad` modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimePad {
    Constant,
    Edge,
    Reflect,
}

/// Framing of the time-domain features: `frame_length`, `hop`, `center` (pads
/// `frame_length/2` each side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Framing {
    pub frame_length: usize,
    pub hop: usize,
    pub center: bool,
}

impl Framing {
    /// `1 + (n + 2·pad − frame_length) / hop` (`librosa.util.frame` after the padding); a
    /// padded signal shorter than a frame is `SK_ERR_BAD_ARGUMENT`, as librosa.
    pub fn frames(&self, n: usize) -> SkResult<usize> {
        if self.frame_length == 0 {
            return Err(SkError::Length("frame_length = 0".into()));
        }
        if self.hop == 0 {
            return Err(SkError::BadArgument(
                "hop_length = 0: frames would never advance".into(),
            ));
        }
        let pad = if self.center {
            self.frame_length / 2
        } else {
            0
        };
        let padded = n
            .checked_add(2 * pad)
            .ok_or_else(|| SkError::Length("n plus the centre padding overflows".into()))?;
        if padded < self.frame_length {
            return Err(SkError::BadArgument(format!(
                "signal of n = {n} samples (padded to {padded}) is shorter than frame_length = {}",
                self.frame_length
            )));
        }
        Ok(1 + (padded - self.frame_length) / self.hop)
    }

    /// The `frame_length` samples of frame `t` of the padded `x`, widened into `buf`.
    fn fill<T: Float>(&self, x: &[T], t: usize, mode: TimePad, buf: &mut [f64]) {
        let pad = if self.center {
            self.frame_length / 2
        } else {
            0
        } as isize;
        let n = x.len() as isize;
        let s = (t * self.hop) as isize - pad;
        if s >= 0 && s + self.frame_length as isize <= n {
            for (o, v) in buf.iter_mut().zip(&x[s as usize..]) {
                *o = v.to_f64();
            }
            return;
        }
        for (i, o) in buf.iter_mut().enumerate() {
            *o = padded(x, s + i as isize, mode);
        }
    }
}

/// Sample `j` of `x` padded by `mode` on both sides (`x` non-empty unless `mode` is constant).
fn padded<T: Float>(x: &[T], j: isize, mode: TimePad) -> f64 {
    let n = x.len() as isize;
    if (0..n).contains(&j) {
        return x[j as usize].to_f64();
    }
    match mode {
        TimePad::Constant => 0.0,
        TimePad::Edge => x[if j < 0 { 0 } else { n as usize - 1 }].to_f64(),
        TimePad::Reflect => {
            // numpy's "reflect" (no edge repeat), periodic for long pads
            if n == 1 {
                x[0].to_f64()
            } else {
                let period = 2 * (n - 1);
                let mut r = j.rem_euclid(period);
                if r >= n {
                    r = period - r;
                }
                x[r as usize].to_f64()
            }
        }
    }
}

/// Errors on the first non-finite sample (librosa's `valid_audio`).
fn check_finite<T: Float>(x: &[T], name: &str) -> SkResult<()> {
    if let Some(i) = x.iter().position(|v| !v.is_finite()) {
        return Err(SkError::NonFinite(format!(
            "{name}[{i}] = {:?}: audio must be finite everywhere (as librosa's valid_audio)",
            x[i]
        )));
    }
    Ok(())
}

/// The time-domain kernels' shared driver: `per(frame samples) -> value` for every frame of
/// every row of `x` (`batch × n`) into `out` (`batch × frames`).
fn time_frames<T: Float>(
    x: &[T],
    batch: usize,
    fr: &Framing,
    mode: TimePad,
    out: &mut [T],
    per: impl Fn(&[f64]) -> f64 + Sync,
) -> SkResult<()> {
    let n = x.len().checked_div(batch).unwrap_or(0);
    let frames = fr.frames(n)?;
    assert_eq!(out.len(), batch * frames, "frame output length");
    if mode == TimePad::Edge && fr.center && n == 0 {
        return Err(SkError::BadArgument(
            "edge padding of an empty signal".into(),
        ));
    }
    par_rows_with(
        out,
        1,
        (batch * frames).saturating_mul(fr.frame_length),
        || try_vec(fr.frame_length, 0.0f64, "a frame"),
        |buf, first, chunk| {
            for (i, o) in chunk.iter_mut().enumerate() {
                let g = first + i;
                let (b, t) = (g / frames, g % frames);
                fr.fill(&x[b * n..(b + 1) * n], t, mode, buf);
                *o = T::from_f64(per(buf));
            }
        },
    )
}

/// `librosa.feature.zero_crossing_rate` of every row of `x` (`batch × n`, finite) into `out`
/// (`batch × frames`); centring pads with the edge samples, as librosa.
pub fn zero_crossing_rate<T: Float>(
    x: &[T],
    batch: usize,
    fr: &Framing,
    zp: &ZcrParams,
    out: &mut [T],
) -> SkResult<()> {
    if zp.threshold.is_nan() {
        return Err(SkError::BadArgument("threshold is NaN".into()));
    }
    let n = x.len().checked_div(batch).unwrap_or(0);
    let frames = fr.frames(n)?;
    check_finite(x, "y")?;
    if n == 0 {
        // (edge padding of an empty signal: the shared driver reports it)
        return time_frames(x, batch, fr, TimePad::Edge, out, |s| frame_zcr(s, zp));
    }
    assert_eq!(out.len(), batch * frames, "frame output length");
    // the frames of all rows side by side on the worker threads (a long single row is split
    // too); each run of frames of one row slides from its first frame
    par_rows_with(
        out,
        1,
        x.len().saturating_mul(2),
        || Ok(()),
        |_, first, chunk| {
            let mut g = first;
            let mut rest = chunk;
            while !rest.is_empty() {
                let (b, t0) = (g / frames, g % frames);
                let len = rest.len().min(frames - t0);
                let (o, tail) = rest.split_at_mut(len);
                zcr_row(&x[b * n..(b + 1) * n], fr, zp, t0, o);
                g += len;
                rest = tail;
            }
        },
    )
}

/// The crossing rates of frames `t0 ..` (`out.len()` of them) of one finite, non-empty row
/// `x` (edge-padded when centred) into `out`: the same integer counts as [`frame_zcr`] on each
/// frame, but each sample pair is classified at most twice (entering and leaving a window that
/// slides by `hop`) instead of once per frame that holds it.
fn zcr_row<T: Float>(x: &[T], fr: &Framing, zp: &ZcrParams, t0: usize, out: &mut [T]) {
    let pad = if fr.center { fr.frame_length / 2 } else { 0 };
    let (fl, hop) = (fr.frame_length, fr.hop);
    // pairs (p, p + 1) of the padded row, p in lo..hi, whose sign classes differ
    let crossings = |lo: usize, hi: usize| -> usize {
        if lo >= hi {
            return 0;
        }
        if lo >= pad && hi - pad < x.len() {
            // interior: samples lo − pad ..= hi − pad of x
            let seg = &x[lo - pad..hi - pad + 1];
            let mut prev = zcr_class(seg[0].to_f64(), zp);
            let mut c = 0usize;
            for v in &seg[1..] {
                let k = zcr_class(v.to_f64(), zp);
                c += usize::from(k != prev);
                prev = k;
            }
            c
        } else {
            let at = |p: usize| x[p.saturating_sub(pad).min(x.len() - 1)].to_f64();
            (lo..hi)
                .filter(|&p| zcr_class(at(p), zp) != zcr_class(at(p + 1), zp))
                .count()
        }
    };
    let extra = usize::from(zp.pad);
    let mut count = 0usize;
    for (i, o) in out.iter_mut().enumerate() {
        let s = (t0 + i) * hop;
        // the frame's pairs are s .. s + fl − 1
        count = if i == 0 || hop >= fl {
            crossings(s, s + fl - 1)
        } else {
            count - crossings(s - hop, s) + crossings(s - hop + fl - 1, s + fl - 1)
        };
        *o = T::from_f64((count + extra) as f64 / fl as f64);
    }
}

/// [`sign_class`], 0 for NaN's missing class (callers that may see NaN count it themselves).
#[inline(always)]
fn zcr_class(v: f64, zp: &ZcrParams) -> i8 {
    sign_class(v, zp).unwrap_or(0)
}

/// `librosa.feature.rms(y=...)` of every row of `x` (`batch × n`) into `out` (`batch ×
/// frames`); NaN propagates.
pub fn rms_frames<T: Float>(
    x: &[T],
    batch: usize,
    fr: &Framing,
    mode: TimePad,
    out: &mut [T],
) -> SkResult<()> {
    let fl = fr.frame_length as f64;
    let n = x.len().checked_div(batch).unwrap_or(0);
    let frames = fr.frames(n)?;
    let (hop, r) = (fr.hop, fr.frame_length / fr.hop.max(1));
    if n == 0 || r == 0 || r * hop != fr.frame_length {
        return time_frames(x, batch, fr, mode, out, |s| (sum_sq(s) / fl).sqrt());
    }
    // hop divides the frame: each frame sums the squares of `r` blocks of `hop` samples, and
    // every block is squared once (instead of `r` times); the blocks of every row are summed
    // side by side on the worker threads
    assert_eq!(out.len(), batch * frames, "frame output length");
    let pad = if fr.center { fr.frame_length / 2 } else { 0 } as isize;
    let nb = frames - 1 + r;
    let mut blocks = try_vec(batch * nb, 0.0f64, "the block sums")?;
    let level = crate::simd::current();
    par_rows_with(
        &mut blocks,
        1,
        x.len(),
        || Ok(()),
        |_, first, chunk| block_sums_at(level, x, n, nb, hop, pad, mode, first, chunk),
    )?;
    for (b, o) in blocks.chunks_exact(nb).zip(out.chunks_exact_mut(frames)) {
        for (t, o) in o.iter_mut().enumerate() {
            let e: f64 = b[t..t + r].iter().sum();
            *o = T::from_f64((e / fl).sqrt());
        }
    }
    Ok(())
}

/// Blocks `first ..` (`chunk.len()` of them) of [`rms_frames`]: block `g` is block `g % nb`
/// of row `g / nb` of `x` (rows `n` long), the sum of squares of its `hop` samples starting
/// at `(g % nb)·hop − pad` of the padded row.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn block_sums<T: Float>(
    x: &[T],
    n: usize,
    nb: usize,
    hop: usize,
    pad: isize,
    mode: TimePad,
    first: usize,
    chunk: &mut [f64],
) {
    for (i, b) in chunk.iter_mut().enumerate() {
        let g = first + i;
        let row = &x[(g / nb) * n..(g / nb + 1) * n];
        let s = ((g % nb) * hop) as isize - pad;
        *b = if s >= 0 && s as usize + hop <= n {
            sum_sq_t(&row[s as usize..s as usize + hop])
        } else {
            (s..s + hop as isize)
                .map(|j| {
                    let v = padded(row, j, mode);
                    v * v
                })
                .sum()
        };
    }
}

multiversion! {
    /// [`block_sums`] compiled for a SIMD level (the same arithmetic at every level).
    fn block_sums_at<T: Float>(
        x: &[T],
        n: usize,
        nb: usize,
        hop: usize,
        pad: isize,
        mode: TimePad,
        first: usize,
        chunk: &mut [f64],
    ) -> ();
    scalar = block_sums; simd = block_sums;
}

/// `Σ v²` of samples widened to `f64`, in sixteen partial sums (four vectors of four lanes:
/// independent chains of additions) added pairwise at the end.
#[inline(always)]
fn sum_sq_t<T: Float>(s: &[T]) -> f64 {
    let mut acc = [0.0f64; 16];
    let mut it = s.chunks_exact(16);
    for c in &mut it {
        for (a, v) in acc.iter_mut().zip(c) {
            let v = v.to_f64();
            *a += v * v;
        }
    }
    let mut tail = 0.0;
    for v in it.remainder() {
        let v = v.to_f64();
        tail += v * v;
    }
    let mut w = 16;
    while w > 1 {
        w /= 2;
        for l in 0..w {
            acc[l] += acc[l + w];
        }
    }
    acc[0] + tail
}

/// `librosa.feature.rms(S=...)`: `S` magnitudes (or powers when `squared`), `n_freq =
/// frame_length/2 + 1` bins, into `out` (`batch × frames`).
pub fn rms_spec<T: Float>(
    s: &Spec<'_, T>,
    squared: bool,
    frame_length: usize,
    out: &mut [T],
) -> SkResult<()> {
    s.check()?;
    if frame_length / 2 + 1 != s.n_freq {
        return Err(SkError::BadArgument(format!(
            "S has n_freq = {} bins, so frame_length must be {} or {}; got {frame_length}",
            s.n_freq,
            2 * s.n_freq - 2,
            2 * s.n_freq - 1
        )));
    }
    let g_len = s.batch * s.frames;
    assert_eq!(out.len(), g_len, "rms output length");
    let even = frame_length.is_multiple_of(2);
    let nf = s.n_freq;
    let scale = 2.0 / (frame_length as f64 * frame_length as f64);
    par_rows_with(
        out,
        1,
        g_len.saturating_mul(nf),
        || try_vec(nf, 0.0f64, "a frame"),
        |buf, first, chunk| {
            for (i, o) in chunk.iter_mut().enumerate() {
                s.frame(first + i, buf);
                let mut acc = 0.0;
                for (f, &v) in buf.iter().enumerate() {
                    let mut p = if squared { v } else { v * v };
                    if f == 0 || (even && f == nf - 1) {
                        p *= 0.5;
                    }
                    acc += p;
                }
                *o = T::from_f64((scale * acc).sqrt());
            }
        },
    )
}

/// Contrast parameters (`librosa.feature.spectral_contrast`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContrastParams {
    pub sr: f64,
    pub fmin: f64,
    pub n_bands: usize,
    pub quantile: f64,
    pub linear: bool,
}

/// The bins of each of the `n_bands + 1` sub-bands and its quantile count, as librosa selects
/// them (a band's mask grows by the bin below it, the last band takes every bin above it, every
/// band but the last drops its top bin).
fn contrast_bands(freq: &[f64], cp: &ContrastParams) -> SkResult<Vec<(Vec<usize>, usize)>> {
    if cp.n_bands == 0 || cp.n_bands > 64 {
        return Err(SkError::BadArgument(format!(
            "n_bands = {} must be between 1 and 64",
            cp.n_bands
        )));
    }
    if !(cp.quantile > 0.0 && cp.quantile < 1.0) {
        return Err(SkError::BadArgument(format!(
            "quantile = {} must lie in (0, 1)",
            cp.quantile
        )));
    }
    if !(cp.fmin.is_finite() && cp.fmin > 0.0) {
        return Err(SkError::BadArgument(format!(
            "fmin = {} must be finite and > 0",
            cp.fmin
        )));
    }
    if !(cp.sr.is_finite() && cp.sr > 0.0) {
        return Err(SkError::BadArgument(format!(
            "sr = {} must be finite and > 0",
            cp.sr
        )));
    }
    let nb = cp.n_bands;
    let mut octa = vec![0.0; nb + 2];
    for (i, o) in octa.iter_mut().enumerate().skip(1) {
        *o = cp.fmin * 2f64.powi(i as i32 - 1);
    }
    if octa[..nb + 1].iter().any(|&o| o >= 0.5 * cp.sr) {
        return Err(SkError::BadArgument(format!(
            "frequency band exceeds Nyquist: fmin·2^(n_bands−1) = {} ≥ sr/2 = {}; reduce fmin \
             or n_bands",
            octa[nb],
            0.5 * cp.sr
        )));
    }
    let nf = freq.len();
    let mut bands = Vec::with_capacity(nb + 1);
    for k in 0..=nb {
        let (lo, hi) = (octa[k], octa[k + 1]);
        let mut mask: Vec<bool> = freq.iter().map(|&f| f >= lo && f <= hi).collect();
        let first = mask.iter().position(|&m| m);
        let last = mask.iter().rposition(|&m| m);
        let (Some(first), Some(last)) = (first, last) else {
            return Err(SkError::BadArgument(format!(
                "contrast band {k} ({lo} Hz to {hi} Hz) holds no frequency bin: use a longer \
                 n_fft, a higher fmin or fewer bands"
            )));
        };
        if k > 0 {
            // numpy: index first − 1, where −1 is the last bin
            let j = if first == 0 { nf - 1 } else { first - 1 };
            mask[j] = true;
        }
        if k == nb {
            for m in &mut mask[last + 1..] {
                *m = true;
            }
        }
        let count = mask.iter().filter(|&&m| m).count();
        let mut idx: Vec<usize> = (0..nf).filter(|&i| mask[i]).collect();
        if k < nb {
            idx.pop();
        }
        let q = (cp.quantile * count as f64).round_ties_even().max(1.0) as usize;
        bands.push((idx, q));
    }
    Ok(bands)
}

/// numpy's sort order: NaN after every number.
fn nan_last(a: &f64, b: &f64) -> std::cmp::Ordering {
    match (a.is_nan(), b.is_nan()) {
        (false, false) => a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal),
        (x, y) => x.cmp(&y),
    }
}

/// The mean of the `q` smallest and of the `q` largest values of `v` (reordered), as
/// `np.mean(np.sort(v)[:q])`, `np.mean(np.sort(v)[-q:])` (fewer when `v` is shorter; NaN when
/// empty).
fn valley_peak(v: &mut [f64], q: usize) -> (f64, f64) {
    let n = v.len();
    let m = q.min(n);
    if m == 0 {
        return (f64::NAN, f64::NAN);
    }
    if m <= SCAN_MAX && 2 * m < n {
        return valley_peak_scan(v, m);
    }
    if 2 * m >= n {
        v.sort_unstable_by(nan_last);
    } else {
        // only the m smallest and the m largest need their sorted order: select each end,
        // then sort just those (the sums run in sorted order, as numpy's)
        v.select_nth_unstable_by(m - 1, nan_last);
        v[..m].sort_unstable_by(nan_last);
        let rest = &mut v[m..];
        let k = rest.len() - m;
        rest.select_nth_unstable_by(k, nan_last);
        rest[k..].sort_unstable_by(nan_last);
    }
    let lo = v[..m].iter().sum::<f64>() / m as f64;
    let hi = v[n - m..].iter().sum::<f64>() / m as f64;
    (lo, hi)
}

/// The most values per end [`valley_peak_scan`] keeps.
const SCAN_MAX: usize = 32;

/// `a` before `b` in numpy's sort order (NaN after every number).
#[inline(always)]
fn before(a: f64, b: f64) -> bool {
    a < b || (b.is_nan() && !a.is_nan())
}

/// [`valley_peak`] in one pass for `m ≤ SCAN_MAX`, `2m < n`: the `m` smallest and the `m`
/// largest values are kept sorted as they stream by (most values are rejected by one
/// comparison), then summed in sorted order as numpy's.
fn valley_peak_scan(v: &[f64], m: usize) -> (f64, f64) {
    let (mut lo, mut hi) = ([0.0f64; SCAN_MAX], [0.0f64; SCAN_MAX]);
    let (lo, hi) = (&mut lo[..m], &mut hi[..m]);
    lo.copy_from_slice(&v[..m]);
    lo.sort_unstable_by(nan_last);
    hi.copy_from_slice(lo);
    for &x in &v[m..] {
        if before(x, lo[m - 1]) {
            // insert x, dropping the largest
            let mut j = m - 1;
            while j > 0 && before(x, lo[j - 1]) {
                lo[j] = lo[j - 1];
                j -= 1;
            }
            lo[j] = x;
        }
        if before(hi[0], x) {
            // insert x, dropping the smallest
            let mut j = 0;
            while j + 1 < m && before(hi[j + 1], x) {
                hi[j] = hi[j + 1];
                j += 1;
            }
            hi[j] = x;
        }
    }
    let lo_s = lo.iter().sum::<f64>() / m as f64;
    let hi_s = hi.iter().sum::<f64>() / m as f64;
    (lo_s, hi_s)
}

/// `10·log10(max(1e-10, x))` (`librosa.power_to_db` with ref 1).
fn db(x: f64) -> f64 {
    10.0 * (if x.is_nan() { x } else { x.max(1e-10) }).log10()
}

/// `librosa.feature.spectral_contrast(S=...)` into `out` (`(batch, n_bands + 1, frames)`);
/// the dB floor (`max − 80`) is taken over the whole batch, as librosa over the whole array.
pub fn spectral_contrast<T: Float>(
    s: &Spec<'_, T>,
    freq: &[f64],
    cp: &ContrastParams,
    out: &mut [T],
) -> SkResult<()> {
    s.check()?;
    check_freq(freq, s.n_freq)?;
    let bands = contrast_bands(freq, cp)?;
    let rows = cp.n_bands + 1;
    let g_len = s.batch * s.frames;
    assert_eq!(out.len(), rows * g_len, "contrast output length");
    // (g, band, valley/peak) frame-major
    let mut tmp = try_vec(g_len * rows * 2, 0.0f64, "the contrast temporary")?;
    par_rows_with(
        &mut tmp,
        rows * 2,
        g_len.saturating_mul(s.n_freq).saturating_mul(16),
        || {
            Ok((
                try_vec(s.n_freq, 0.0f64, "a frame")?,
                try_vec(s.n_freq, 0.0f64, "a band")?,
            ))
        },
        |(buf, band), first, chunk| {
            for (i, o) in chunk.chunks_exact_mut(rows * 2).enumerate() {
                s.frame(first + i, buf);
                for (k, (idx, q)) in bands.iter().enumerate() {
                    let v = &mut band[..idx.len()];
                    for (d, &j) in v.iter_mut().zip(idx) {
                        *d = buf[j];
                    }
                    let (lo, hi) = valley_peak(v, *q);
                    o[2 * k] = lo;
                    o[2 * k + 1] = hi;
                }
            }
        },
    )?;
    let (mut vmax, mut pmax) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    if !cp.linear {
        for pair in tmp.chunks_exact(2) {
            let (v, p) = (db(pair[0]), db(pair[1]));
            // ndarray.max propagates NaN
            vmax = if v.is_nan() || vmax.is_nan() {
                f64::NAN
            } else {
                vmax.max(v)
            };
            pmax = if p.is_nan() || pmax.is_nan() {
                f64::NAN
            } else {
                pmax.max(p)
            };
        }
    }
    let floor = |x: f64, m: f64| {
        let f = m - 80.0;
        if x.is_nan() || f.is_nan() {
            f64::NAN
        } else {
            x.max(f)
        }
    };
    for g in 0..g_len {
        let (b, t) = (g / s.frames, g % s.frames);
        for k in 0..rows {
            let (v, p) = (tmp[(g * rows + k) * 2], tmp[(g * rows + k) * 2 + 1]);
            let c = if cp.linear {
                p - v
            } else {
                floor(db(p), pmax) - floor(db(v), vmax)
            };
            out[(b * rows + k) * s.frames + t] = T::from_f64(c);
        }
    }
    Ok(())
}

/// The `(order+1) × n` least-squares operator of `np.polyfit(freq, ·, order)`: column-scaled
/// Vandermonde matrix, Householder QR, `R⁻¹Qᵀ`, rows divided by the column scales (highest
/// power first, as numpy).
fn polyfit_operator(freq: &[f64], order: usize) -> SkResult<Vec<f64>> {
    let n = freq.len();
    let m = order + 1;
    if n < m {
        return Err(SkError::BadArgument(format!(
            "order = {order} needs at least order + 1 = {m} frequency bins, got {n}"
        )));
    }
    // A (n × m), column j = freq^(order − j)
    let mut a = try_vec(n * m, 0.0f64, "the Vandermonde matrix")?;
    for (i, &f) in freq.iter().enumerate() {
        for j in 0..m {
            a[i * m + j] = f.powi((order - j) as i32);
        }
    }
    let mut scale = vec![0.0; m];
    for (j, sc) in scale.iter_mut().enumerate() {
        *sc = (0..n)
            .map(|i| a[i * m + j] * a[i * m + j])
            .sum::<f64>()
            .sqrt();
        if !(*sc > 0.0 && sc.is_finite()) {
            return Err(SkError::BadArgument(format!(
                "the frequencies give a degenerate column {j} in the polynomial fit"
            )));
        }
        for i in 0..n {
            a[i * m + j] /= *sc;
        }
    }
    // Q as n × n would be big: apply the reflections to the identity's first… instead solve
    // for the operator by applying Qᵀ to the unit vectors implicitly: keep the reflectors.
    let mut vs: Vec<Vec<f64>> = Vec::with_capacity(m);
    for j in 0..m {
        let norm = (j..n)
            .map(|i| a[i * m + j] * a[i * m + j])
            .sum::<f64>()
            .sqrt();
        let alpha = if a[j * m + j] > 0.0 { -norm } else { norm };
        let mut v: Vec<f64> = (j..n).map(|i| a[i * m + j]).collect();
        v[0] -= alpha;
        let vn = v.iter().map(|x| x * x).sum::<f64>();
        if vn > 0.0 {
            for c in j..m {
                let d: f64 = (j..n).map(|i| v[i - j] * a[i * m + c]).sum::<f64>() * 2.0 / vn;
                for i in j..n {
                    a[i * m + c] -= d * v[i - j];
                }
            }
        }
        vs.push(v);
        if a[j * m + j].abs() <= n as f64 * f64::EPSILON * a[0].abs().max(1e-300) {
            return Err(SkError::BadArgument(
                "the frequencies make the polynomial fit rank-deficient".into(),
            ));
        }
    }
    // operator row r = (R⁻¹ Qᵀ)[r, :]: Qᵀ e_i for each i, then back-substitution
    let mut op = try_vec(m * n, 0.0f64, "the polynomial-fit operator")?;
    let mut e = vec![0.0; n];
    let mut z = vec![0.0; m];
    for i in 0..n {
        e.iter_mut().for_each(|x| *x = 0.0);
        e[i] = 1.0;
        for (j, v) in vs.iter().enumerate() {
            let vn = v.iter().map(|x| x * x).sum::<f64>();
            if vn > 0.0 {
                let d: f64 = (j..n).map(|r| v[r - j] * e[r]).sum::<f64>() * 2.0 / vn;
                for r in j..n {
                    e[r] -= d * v[r - j];
                }
            }
        }
        for r in (0..m).rev() {
            let mut acc = e[r];
            for c in r + 1..m {
                acc -= a[r * m + c] * z[c];
            }
            z[r] = acc / a[r * m + r];
        }
        for r in 0..m {
            op[r * n + i] = z[r] / scale[r];
        }
    }
    Ok(op)
}

/// `librosa.feature.poly_features(S=..., order=order, freq=freq)` into `out` (`(batch,
/// order + 1, frames)`, highest power first).
pub fn poly_features<T: Float>(
    s: &Spec<'_, T>,
    freq: &[f64],
    order: usize,
    out: &mut [T],
) -> SkResult<()> {
    s.check()?;
    check_freq(freq, s.n_freq)?;
    if order > 16 {
        return Err(SkError::BadArgument(format!(
            "order = {order}: at most 16 is supported"
        )));
    }
    if freq.iter().any(|f| !f.is_finite()) {
        return Err(SkError::NonFinite("freq has a non-finite value".into()));
    }
    let op = polyfit_operator(freq, order)?;
    let m = order + 1;
    let nf = s.n_freq;
    let g_len = s.batch * s.frames;
    assert_eq!(out.len(), m * g_len, "poly_features output length");
    let mut tmp = try_vec(g_len * m, 0.0f64, "the coefficient temporary")?;
    par_rows_with(
        &mut tmp,
        m,
        g_len.saturating_mul(nf).saturating_mul(m),
        || try_vec(nf, 0.0f64, "a frame"),
        |buf, first, chunk| {
            for (i, o) in chunk.chunks_exact_mut(m).enumerate() {
                s.frame(first + i, buf);
                for (r, c) in o.iter_mut().enumerate() {
                    *c = op[r * nf..(r + 1) * nf]
                        .iter()
                        .zip(buf.iter())
                        .map(|(a, b)| a * b)
                        .sum();
                }
            }
        },
    )?;
    for g in 0..g_len {
        let (b, t) = (g / s.frames, g % s.frames);
        for r in 0..m {
            out[(b * m + r) * s.frames + t] = T::from_f64(tmp[g * m + r]);
        }
    }
    Ok(())
}

/// The one-pass multi-feature call: every frame of every row of `x` (`batch × n`) goes through
/// the STFT (`window`, `sp`; librosa's `stft`), its magnitude gives the selected spectral
/// descriptors, and the same frame of the signal its ZCR (edge-padded, `frame_length = n_fft`)
/// and RMS (padded as the STFT; [`rms_frames`]'s values when its framing gives the same frames):
/// `out` is `(k, batch, frames)` in bit order.
#[allow(clippy::too_many_arguments)]
pub fn features_from_audio<T: FftFloat + PlanCache>(
    x: &[T],
    batch: usize,
    window: &[T],
    sp: &StftParams,
    freq: &[f64],
    which: u32,
    dp: &DescParams,
    zp: &ZcrParams,
    out: &mut [T],
) -> SkResult<()> {
    let k = check_which(which, ALL_BITS)?;
    dp.check(which)?;
    if which & ZCR != 0 && zp.threshold.is_nan() {
        return Err(SkError::BadArgument("threshold is NaN".into()));
    }
    let n = x.len().checked_div(batch).unwrap_or(0);
    let frames = sp.frames(n)?;
    let nf = sp.n_freq();
    check_freq(freq, nf)?;
    check_finite(x, "y")?;
    if which & ZCR != 0 && sp.center && n == 0 {
        return Err(SkError::BadArgument(
            "the zero-crossing rate edge-pads the signal, which needs n ≥ 1".into(),
        ));
    }
    let g_len = batch * frames;
    assert_eq!(out.len(), k * g_len, "features output length");
    let kern = FrameKernel::new(sp, window)?;
    let fr = Framing {
        frame_length: sp.n_fft,
        hop: sp.hop,
        center: sp.center,
    };
    let rms_pad = match sp.pad_mode {
        PadMode::Constant => TimePad::Constant,
        PadMode::Reflect => TimePad::Reflect,
    };
    let spec_bits = which & SPECTRAL_BITS;
    let ks = spec_bits.count_ones() as usize;
    let tiny = tiny::<T>();
    let fq = Freq::new(freq);
    let level = crate::simd::current();
    let mut tmp = try_vec(k * g_len, 0.0f64, "the feature temporary")?;
    // the RMS from block sums of squares when the framing allows (`rms_frames`, each sample
    // squared once instead of once per overlapping frame), else frame by frame below
    let block_rms = which & RMS != 0 && fr.frames(n).ok() == Some(frames);
    let mut rms = Vec::new();
    if block_rms {
        rms = try_vec(g_len, T::ZERO, "the frame RMS")?;
        rms_frames(x, batch, &fr, rms_pad, &mut rms)?;
    }
    // runs of frames of one row go through the FFT together on SIMD lanes when the plan has
    // lane passes (the same spectra as one frame at a time)
    let rl = kern.row_lanes(frames)?;
    // otherwise frames one at a time, gathered into groups for the roll-off's side-by-side
    // running sums (one chain of additions per frame is bound by the addition's latency)
    let lanes = if rl.is_some() {
        kern.group_lanes()
    } else if spec_bits & ROLLOFF != 0 {
        CUM_FRAMES
    } else {
        1
    };
    par_rows_with(
        &mut tmp,
        k,
        g_len.saturating_mul(sp.n_fft).saturating_mul(8),
        || {
            let (ws, edge, win) = match rl {
                Some(rl) => kern.group_scratch(rl)?,
                None => {
                    let (ws, edge) = kern.scratch()?;
                    (ws, edge, Vec::new())
                }
            };
            let spec = try_vec(lanes * nf, Complex::new(T::ZERO, T::ZERO), "a spectrum")?;
            let mag = try_vec(lanes * mag_stride(nf), 0.0f64, "the magnitudes")?;
            let inter = if spec_bits & ROLLOFF != 0 && lanes >= CUM_FRAMES {
                try_vec(nf * CUM_FRAMES, 0.0f64, "the bin-major magnitudes")?
            } else {
                Vec::new()
            };
            let seg = try_vec(sp.n_fft, 0.0f64, "a frame")?;
            Ok((ws, edge, win, spec, mag, inter, seg))
        },
        |(ws, edge, win, spec, mag, inter, seg), first, chunk| {
            let count = chunk.len() / k;
            let mut i = 0;
            while i < count {
                let g = first + i;
                let (b, t) = (g / frames, g % frames);
                let m = (count - i).min(frames - t).min(lanes);
                let row = &x[b * n..(b + 1) * n];
                if spec_bits != 0 {
                    match rl {
                        Some(rl) => kern.group_at(rl, row, t, edge, win, &mut spec[..m * nf], ws),
                        None => {
                            for (j, sj) in spec[..m * nf].chunks_exact_mut(nf).enumerate() {
                                kern.frame_at(row, t + j, edge, sj, ws);
                            }
                        }
                    }
                }
                if spec_bits != 0 {
                    group_part_at(
                        level,
                        &spec[..m * nf],
                        nf,
                        fq,
                        spec_bits,
                        dp,
                        tiny,
                        mag,
                        inter,
                        &mut chunk[i * k..(i + m) * k],
                        k,
                    );
                }
                for j in 0..m {
                    let o = &mut chunk[(i + j) * k..(i + j + 1) * k];
                    let mut jj = ks;
                    if which & ZCR != 0 {
                        fr.fill(row, t + j, TimePad::Edge, seg);
                        o[jj] = frame_zcr(seg, zp);
                        jj += 1;
                    }
                    if which & RMS != 0 {
                        o[jj] = if block_rms {
                            rms[g + j].to_f64()
                        } else {
                            fr.fill(row, t + j, rms_pad, seg);
                            (sum_sq(seg) / sp.n_fft as f64).sqrt()
                        };
                    }
                }
                i += m;
            }
        },
    )?;
    scatter(&tmp, k, out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valley_peak_selection_equals_the_full_sort() {
        for (n, q, nan) in [
            (1, 1, false),
            (5, 1, false),
            (7, 3, false),
            (8, 4, false),
            (40, 3, false),
            (513, 10, false),
            (65, 32, false),
            (65, 33, false),
            (300, 9, true),
            (20, 4, true),
        ] {
            // repeated values (ties), and NaN in some cases (sorted last)
            let v: Vec<f64> = (0..n)
                .map(|i| {
                    if nan && i % 7 == 3 {
                        f64::NAN
                    } else {
                        ((i * 7919 + 13) % 101) as f64 / 7.0 - 3.0
                    }
                })
                .collect();
            let mut s = v.clone();
            s.sort_by(nan_last);
            let m = q.min(n);
            let want = (
                s[..m].iter().sum::<f64>() / m as f64,
                s[n - m..].iter().sum::<f64>() / m as f64,
            );
            let mut w = v.clone();
            let got = valley_peak(&mut w, q);
            let same = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
            assert!(
                same(got.0, want.0) && same(got.1, want.1),
                "n = {n}, q = {q}: {got:?} {want:?}"
            );
        }
    }

    fn spec(data: &[f64], n_freq: usize, frames: usize) -> Spec<'_, f64> {
        Spec {
            data,
            batch: 1,
            n_freq,
            frames,
            frame_major: false,
        }
    }

    const DP: DescParams = DescParams {
        p: 2.0,
        norm: true,
        roll_percent: 0.85,
        amin: 1e-10,
        power: 2.0,
    };

    #[test]
    fn centroid_of_one_bin_is_its_frequency() {
        let freq = [0.0, 10.0, 20.0, 30.0];
        let s = [0.0, 0.0, 3.0, 0.0];
        let mut out = [0.0; 4];
        spectral_from_spec(&spec(&s, 4, 1), &freq, SPECTRAL_BITS, &DP, None, &mut out).unwrap();
        assert_eq!(out[0], 20.0);
        assert_eq!(out[1], 0.0);
        assert_eq!(out[2], 20.0);
        // flatness of one bin among three floors: (9·1e-30)^(1/4) / ((9 + 3e-10)/4)
        let want = (9.0f64 * 1e-30).powf(0.25) / ((9.0 + 3e-10) / 4.0);
        assert!((out[3] - want).abs() <= 1e-12 * want);
    }

    #[test]
    fn silence_and_negative() {
        let freq = [0.0, 10.0];
        let mut out = [1.0; 2];
        spectral_from_spec(
            &spec(&[0.0, 0.0], 2, 1),
            &freq,
            CENTROID | ROLLOFF,
            &DP,
            None,
            &mut out,
        )
        .unwrap();
        assert_eq!(out, [0.0, 0.0]);
        let e = spectral_from_spec(
            &spec(&[0.0, -1.0], 2, 1),
            &freq,
            CENTROID,
            &DP,
            None,
            &mut out[..1],
        );
        assert!(matches!(e, Err(SkError::BadArgument(_))));
    }

    #[test]
    fn flatness_product_equals_the_sum_of_logs() {
        let one_by_one = |s: &[f64], dp: &DescParams| {
            let n = s.len() as f64;
            let logs: f64 = s.iter().map(|&v| floored(v, dp).ln()).sum();
            let sum: f64 = s.iter().map(|&v| floored(v, dp)).sum();
            (logs / n).exp() / (sum / n)
        };
        let mut dp = DP;
        for len in [0usize, 1, 3, 4, 7, 1025] {
            let s: Vec<f64> = (0..len)
                .map(|i| ((i * 7919 + 3) % 1013) as f64 * 10f64.powi((i % 9) as i32 - 6))
                .collect();
            for (power, amin) in [(2.0, 1e-10), (1.0, 1e-300), (1.5, 1e-5)] {
                dp.power = power;
                dp.amin = amin;
                let (a, b) = (flatness(&s, &dp), one_by_one(&s, &dp));
                assert!(
                    (a - b).abs() <= 1e-12 * b.abs() || (a.is_nan() && b.is_nan()),
                    "{len} {a} {b}"
                );
            }
        }
        // values beyond the lanes' range and NaN take the one-by-one path
        dp.power = 2.0;
        dp.amin = 1e-10;
        for s in [
            vec![1e200, 2.0, 3.0, 4.0, 5.0],
            vec![1.0, f64::NAN, 2.0, 3.0, 4.0],
        ] {
            let (a, b) = (flatness(&s, &dp), one_by_one(&s, &dp));
            assert!(a == b || (a.is_nan() && b.is_nan()), "{a} {b}");
        }
    }

    #[test]
    fn one_pass_features_equal_the_spectrogram_route() {
        // batch 2 and a frame count that is no multiple of the FFT lane groups
        let n = 5000;
        let x: Vec<f64> = (0..2 * n)
            .map(|i| ((i * 7919 % 1013) as f64 - 506.0) / 300.0 + (i as f64 * 0.05).sin())
            .collect();
        let sp = StftParams {
            n_fft: 256,
            hop: 64,
            win_length: 256,
            center: true,
            pad_mode: PadMode::Constant,
            onesided: true,
            normalized: false,
        };
        let window: Vec<f64> = (0..256)
            .map(|i| 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / 256.0).cos())
            .collect();
        let frames = sp.frames(n).unwrap();
        let nf = sp.n_freq();
        let freq = fft_frequencies(22050.0, 256).unwrap();
        let which = CENTROID | BANDWIDTH | FLATNESS;
        let zp = ZcrParams {
            threshold: 1e-10,
            zero_pos: true,
            pad: false,
        };
        let mut got = vec![0.0; 3 * 2 * frames];
        features_from_audio(&x, 2, &window, &sp, &freq, which, &DP, &zp, &mut got).unwrap();
        let mut mags = vec![0.0; 2 * frames * nf];
        for b in 0..2 {
            let mut y = vec![Complex::new(0.0, 0.0); frames * nf];
            crate::kernels::spectral::stft::stft(&x[b * n..(b + 1) * n], &window, &sp, &mut y)
                .unwrap();
            for (m, c) in mags[b * frames * nf..].iter_mut().zip(&y) {
                *m = (c.re * c.re + c.im * c.im).sqrt();
            }
        }
        let s = Spec {
            data: &mags,
            batch: 2,
            n_freq: nf,
            frames,
            frame_major: true,
        };
        let mut want = vec![0.0; 3 * 2 * frames];
        spectral_from_spec(&s, &freq, which, &DP, None, &mut want).unwrap();
        assert_eq!(got, want);
        // the flatness alone (from the powers, no square root) within rounding of the above
        let mut flat = vec![0.0; 2 * frames];
        features_from_audio(&x, 2, &window, &sp, &freq, FLATNESS, &DP, &zp, &mut flat).unwrap();
        for (a, b) in flat.iter().zip(&want[2 * 2 * frames..]) {
            assert!((a - b).abs() <= 1e-13 * b.abs(), "{a} {b}");
        }
        // and the roll-off alone equals the roll-off among all descriptors
        let mut roll = vec![0.0; 2 * frames];
        features_from_audio(&x, 2, &window, &sp, &freq, ROLLOFF, &DP, &zp, &mut roll).unwrap();
        let mut all = vec![0.0; 4 * 2 * frames];
        spectral_from_spec(&s, &freq, SPECTRAL_BITS, &DP, None, &mut all).unwrap();
        assert_eq!(roll, all[2 * 2 * frames..3 * 2 * frames]);
    }

    /// A long signal (threads split its frames), its window and STFT parameters.
    fn long_signal() -> (Vec<f32>, Vec<f32>, StftParams) {
        let n = 40_000;
        let x: Vec<f32> = (0..n)
            .map(|i| {
                let t = i as f64 / 22050.0;
                (0.3 * (2.0 * std::f64::consts::PI * 440.0 * t).sin()
                    + ((i * 7919 % 1013) as f64 - 506.0) / 5000.0) as f32
            })
            .collect();
        let window: Vec<f32> = (0..1024)
            .map(|i| (0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / 1024.0).cos()) as f32)
            .collect();
        let sp = StftParams {
            n_fft: 1024,
            hop: 128,
            win_length: 1024,
            center: true,
            pad_mode: PadMode::Constant,
            onesided: true,
            normalized: false,
        };
        (x, window, sp)
    }

    #[test]
    fn features_do_not_depend_on_threads_or_simd_level() {
        let (x, window, sp) = long_signal();
        let frames = sp.frames(x.len()).unwrap();
        let freq = fft_frequencies(22050.0, sp.n_fft).unwrap();
        let zp = ZcrParams {
            threshold: 1e-10,
            zero_pos: true,
            pad: false,
        };
        let mut threaded = vec![0.0f32; 6 * frames];
        features_from_audio(
            &x,
            1,
            &window,
            &sp,
            &freq,
            ALL_BITS,
            &DP,
            &zp,
            &mut threaded,
        )
        .unwrap();
        let mut serial = vec![0.0f32; 6 * frames];
        crate::kernels::par::serial_if(true, || {
            features_from_audio(&x, 1, &window, &sp, &freq, ALL_BITS, &DP, &zp, &mut serial)
        })
        .unwrap();
        assert_eq!(threaded, serial);
        // the RMS row is rms_frames' (block sums of squares)
        let fr = Framing {
            frame_length: sp.n_fft,
            hop: sp.hop,
            center: sp.center,
        };
        let mut rms = vec![0.0f32; frames];
        rms_frames(&x, 1, &fr, TimePad::Constant, &mut rms).unwrap();
        assert_eq!(&threaded[5 * frames..], &rms[..]);
        // the per-frame descriptors at every SIMD level against the scalar level, on the
        // spectra of 19 frames (one block of the roll-off's running sums and a part block)
        let nf = sp.n_freq();
        let mut y = vec![Complex::new(0.0f32, 0.0); frames * nf];
        crate::kernels::spectral::stft::stft(&x, &window, &sp, &mut y).unwrap();
        let m = 19;
        let spec = &y[nf * 20..nf * (20 + m)];
        let run_on = |level, fq: Freq<'_>, spec: &[Complex<f32>], inter: bool| {
            let m = spec.len() / nf;
            let mut mag = vec![0.0; m * mag_stride(nf)];
            let mut inter = vec![0.0; if inter { nf * CUM_FRAMES } else { 0 }];
            let mut out = vec![0.0; m * 5];
            group_part_at(
                level,
                spec,
                nf,
                fq,
                SPECTRAL_BITS,
                &DP,
                f32::MIN_POSITIVE as f64,
                &mut mag,
                &mut inter,
                &mut out,
                5,
            );
            out
        };
        let run = |level, fq: Freq<'_>| run_on(level, fq, spec, false);
        let want = run(crate::simd::Level::Scalar, Freq::new(&freq));
        for level in crate::simd::available() {
            assert_eq!(run(level, Freq::new(&freq)), want, "{level:?}");
        }
        // a whole group through the bin-major running sums equals the frame-major ones
        let whole = &spec[..CUM_FRAMES * nf];
        let want16 = run_on(crate::simd::Level::Scalar, Freq::new(&freq), whole, false);
        assert_eq!(&want16[..], &want[..CUM_FRAMES * 5]);
        for level in crate::simd::available() {
            assert_eq!(
                run_on(level, Freq::new(&freq), whole, true),
                want16,
                "{level:?}"
            );
        }
        // the roll-off of ascending frequencies equals the general minimum search
        let general = Freq {
            f: &freq,
            ascending: false,
        };
        assert_eq!(run(crate::simd::current(), general), want);
        // and the one-frame route (running sums in one chain) agrees
        for j in 0..m {
            let mut mag = vec![0.0; nf];
            for (o, c) in mag.iter_mut().zip(&spec[j * nf..(j + 1) * nf]) {
                let (re, im) = (c.re as f64, c.im as f64);
                *o = (re * re + im * im).sqrt();
            }
            let mut o = [0.0; 4];
            let fq = Freq::new(&freq);
            frame_descriptors(
                &mag,
                fq,
                SPECTRAL_BITS,
                &DP,
                f32::MIN_POSITIVE as f64,
                None,
                None,
                &mut o,
            );
            assert_eq!(o[..], want[j * 5..j * 5 + 4], "frame {j}");
        }
    }

    #[test]
    fn rolloff_bins_equal_the_running_sum_search() {
        let inf = f64::INFINITY;
        let rows: [[f64; 9]; 6] = [
            [0.0; 9],
            [1.0, 2.0, f64::NAN, 1.0, 0.0, 3.0, 1.0, 1.0, 0.5],
            [0.0, 0.0, inf, 1.0, 2.0, 0.0, 0.0, 1.0, 1.0],
            [1e-300, 0.0, 5e-324, 1e-300, 0.0, 0.0, 1e-300, 0.0, 0.0],
            [9.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
            [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0],
        ];
        let (nf, st) = (9, mag_stride(9));
        let mut mag = vec![0.0; 8 * st];
        for (j, r) in rows.iter().enumerate() {
            mag[j * st..j * st + nf].copy_from_slice(r);
        }
        let freq: Vec<f64> = (0..nf).map(|i| i as f64 * 10.0).collect();
        let fq = Freq::new(&freq);
        for roll in [0.85, 0.5, 0.01, 0.99] {
            let dp = DescParams {
                roll_percent: roll,
                ..DP
            };
            let side = rolloff_bins::<8>(&mag, st, nf, roll);
            for (j, r) in rows.iter().enumerate() {
                let (mut a, mut b) = ([0.0], [0.0]);
                frame_descriptors(r, fq, ROLLOFF, &dp, 1e-300, None, Some(side[j]), &mut a);
                frame_descriptors(r, fq, ROLLOFF, &dp, 1e-300, None, None, &mut b);
                assert!(
                    a[0] == b[0] || (a[0].is_nan() && b[0].is_nan()),
                    "{roll} {j}"
                );
                assert_eq!(rolloff_bins::<1>(&mag[j * st..], st, nf, roll)[0], side[j]);
            }
            // the bin-major lanes (the rows repeated to fill a group)
            let mut inter = vec![0.0; nf * CUM_FRAMES];
            for j in 0..CUM_FRAMES {
                for i in 0..nf {
                    inter[i * CUM_FRAMES + j] = rows[j % rows.len()][i];
                }
            }
            let lanes = rolloff_bins_lanes(&inter, roll);
            for j in 0..CUM_FRAMES {
                assert_eq!(lanes[j], side[j % rows.len()], "{roll} {j}");
            }
        }
    }

    #[test]
    fn contrast_does_not_depend_on_threads() {
        let (x, window, sp) = long_signal();
        let frames = sp.frames(x.len()).unwrap();
        let nf = sp.n_freq();
        let mut y = vec![Complex::new(0.0f32, 0.0); frames * nf];
        crate::kernels::spectral::stft::stft(&x, &window, &sp, &mut y).unwrap();
        let mags: Vec<f32> = y.iter().map(|c| c.re.hypot(c.im)).collect();
        let s = Spec {
            data: &mags,
            batch: 1,
            n_freq: nf,
            frames,
            frame_major: true,
        };
        let freq = fft_frequencies(22050.0, sp.n_fft).unwrap();
        let cp = ContrastParams {
            sr: 22050.0,
            fmin: 200.0,
            n_bands: 6,
            quantile: 0.02,
            linear: false,
        };
        let mut threaded = vec![0.0f32; 7 * frames];
        spectral_contrast(&s, &freq, &cp, &mut threaded).unwrap();
        let mut serial = vec![0.0f32; 7 * frames];
        crate::kernels::par::serial_if(true, || spectral_contrast(&s, &freq, &cp, &mut serial))
            .unwrap();
        assert_eq!(threaded, serial);
        let mut d = vec![0.0f32; 4 * frames];
        let mut d1 = vec![0.0f32; 4 * frames];
        spectral_from_spec(&s, &freq, SPECTRAL_BITS, &DP, None, &mut d).unwrap();
        crate::kernels::par::serial_if(true, || {
            spectral_from_spec(&s, &freq, SPECTRAL_BITS, &DP, None, &mut d1)
        })
        .unwrap();
        assert_eq!(d, d1);
    }

    #[test]
    fn block_rms_equals_the_frame_rms() {
        let x: Vec<f64> = (0..1001)
            .map(|i| ((i * 37 % 101) as f64 - 50.0) / 7.0)
            .collect();
        for (fl, hop, center) in [
            (64, 16, true),
            (64, 16, false),
            (60, 20, true),
            (64, 64, true),
        ] {
            for mode in [TimePad::Constant, TimePad::Reflect, TimePad::Edge] {
                let fr = Framing {
                    frame_length: fl,
                    hop,
                    center,
                };
                let frames = fr.frames(x.len()).unwrap();
                let (mut got, mut want) = (vec![0.0; 2 * frames], vec![0.0; 2 * frames]);
                let xx = [x.clone(), x.iter().map(|v| v * 1e-3).collect()].concat();
                rms_frames(&xx, 2, &fr, mode, &mut got).unwrap();
                time_frames(&xx, 2, &fr, mode, &mut want, |s| {
                    (s.iter().map(|v| v * v).sum::<f64>() / fl as f64).sqrt()
                })
                .unwrap();
                for (a, b) in got.iter().zip(&want) {
                    assert!(
                        (a - b).abs() <= 1e-14 * b,
                        "{fl} {hop} {center} {mode:?}: {a} {b}"
                    );
                }
            }
        }
    }

    #[test]
    fn block_rms_does_not_depend_on_threads_or_simd_level() {
        // long enough for the worker threads; rows of odd length, both precisions' paths
        let x: Vec<f32> = (0..2 * 300_001usize)
            .map(|i| ((i * 7919 % 1013) as f32 - 506.0) / 300.0)
            .collect();
        let fr = Framing {
            frame_length: 2048,
            hop: 512,
            center: true,
        };
        let frames = fr.frames(300_001).unwrap();
        let mut threaded = vec![0.0f32; 2 * frames];
        rms_frames(&x, 2, &fr, TimePad::Reflect, &mut threaded).unwrap();
        let mut serial = vec![0.0f32; 2 * frames];
        crate::kernels::par::serial_if(true, || {
            rms_frames(&x, 2, &fr, TimePad::Reflect, &mut serial)
        })
        .unwrap();
        assert_eq!(threaded, serial);
        // the block sums of every SIMD level equal the scalar ones bit for bit
        let nb = frames - 1 + 4;
        let mut want = vec![0.0f64; 2 * nb];
        block_sums_at(
            crate::simd::Level::Scalar,
            &x,
            300_001,
            nb,
            512,
            1024,
            TimePad::Reflect,
            0,
            &mut want,
        );
        let mut got = vec![0.0f64; 2 * nb];
        let level = crate::simd::current();
        block_sums_at(
            level,
            &x,
            300_001,
            nb,
            512,
            1024,
            TimePad::Reflect,
            0,
            &mut got,
        );
        assert_eq!(got, want);
        // and the naive sum of squares within rounding
        let naive: f64 = x[..512].iter().map(|&v| (v as f64) * (v as f64)).sum();
        assert!((want[2] - naive).abs() <= 1e-13 * naive);
    }

    #[test]
    fn zcr_counts_sign_changes() {
        let zp = ZcrParams {
            threshold: 1e-10,
            zero_pos: true,
            pad: false,
        };
        assert_eq!(frame_zcr(&[1.0, -1.0, 1.0, -1.0], &zp), 0.75);
        assert_eq!(frame_zcr(&[1.0, 0.0, -0.0, 1e-11, -1e-11], &zp), 0.0);
        assert_eq!(frame_zcr(&[1.0, 0.0, -1.0, 1.0], &zp), 0.5);
    }

    #[test]
    fn zcr_sliding_matches_per_frame_counts() {
        // a signal with exact zeros, values at ± the threshold and long runs of one sign
        let mut x: Vec<f32> = (0..997)
            .map(|i| {
                let v = ((i * 7919 % 1013) as f32 - 506.0) / 97.0;
                match i % 11 {
                    0 => 0.0,
                    1 => -0.0,
                    2 => 0.25,
                    3 => -0.25,
                    _ => v,
                }
            })
            .collect();
        x[300..420].iter_mut().for_each(|v| *v = v.abs() + 1.0);
        for &(fl, hop) in &[
            (64, 16),
            (64, 64),
            (50, 7),
            (16, 40),
            (1, 1),
            (2, 1),
            (490, 3),
            (700, 5),
        ] {
            for center in [true, false] {
                for (threshold, zero_pos, pad) in [
                    (1e-10, true, false),
                    (0.25, false, true),
                    (0.0, true, true),
                    (-1.0, false, false),
                ] {
                    let fr = Framing {
                        frame_length: fl,
                        hop,
                        center,
                    };
                    let zp = ZcrParams {
                        threshold,
                        zero_pos,
                        pad,
                    };
                    let (batch, n) = (2, x.len() / 2);
                    let Ok(frames) = fr.frames(n) else {
                        assert!(!center && fl > n);
                        continue;
                    };
                    let mut got = vec![0.0f32; batch * frames];
                    zero_crossing_rate(&x[..batch * n], batch, &fr, &zp, &mut got).unwrap();
                    let mut want = vec![0.0f32; batch * frames];
                    time_frames(&x[..batch * n], batch, &fr, TimePad::Edge, &mut want, |s| {
                        frame_zcr(s, &zp)
                    })
                    .unwrap();
                    assert_eq!(got, want, "fl {fl} hop {hop} centre {center} {zp:?}");
                    // a run of frames starting anywhere in a row (the threads' split)
                    for t0 in [1, frames / 2, frames - 1] {
                        let mut part = vec![0.0f32; frames - t0];
                        zcr_row(&x[n..2 * n], &fr, &zp, t0, &mut part);
                        assert_eq!(part[..], want[frames + t0..], "from frame {t0}");
                    }
                }
            }
        }
    }

    #[test]
    fn polyfit_recovers_a_line() {
        let freq: Vec<f64> = (0..9).map(|i| i as f64 * 100.0).collect();
        let s: Vec<f64> = freq.iter().map(|f| 3.0 - 0.002 * f).collect();
        let mut out = [0.0; 2];
        poly_features(&spec(&s, 9, 1), &freq, 1, &mut out).unwrap();
        assert!(
            (out[0] + 0.002).abs() < 1e-15 && (out[1] - 3.0).abs() < 1e-12,
            "{out:?}"
        );
    }

    #[test]
    fn framing_counts() {
        let fr = Framing {
            frame_length: 4,
            hop: 2,
            center: true,
        };
        assert_eq!(fr.frames(10).unwrap(), 6);
        let fr = Framing {
            center: false,
            ..fr
        };
        assert_eq!(fr.frames(10).unwrap(), 4);
        assert!(fr.frames(3).is_err());
    }
}
