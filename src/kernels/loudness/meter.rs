//! The ITU-R BS.1770-4 / EBU R 128 loudness meter: momentary (400 ms), short-term (3 s),
//! integrated (gated), loudness range (EBU Tech 3342), sample and true peak, and the maximum
//! momentary and short-term loudness.
//!
//! Time runs in 100 ms steps (`round(rate / 10)` frames). The K-weighted, channel-weighted mean
//! square of every completed step is kept in a ring of the last 30 steps; after each step:
//! - the momentary value is the mean of the last 4 steps and the short-term value the mean of
//!   the last 30, with silence assumed before the first sample (so both are defined from the
//!   first completed step; their maxima are taken over these values);
//! - once at least 4 steps exist, the 400 ms block ending there is a gating block for the
//!   integrated loudness (75 % overlap), kept if it reaches the absolute gate (−70 LUFS);
//! - once at least 30 steps exist, the 3 s block ending there enters the loudness range
//!   distribution (10 values a second), kept if it reaches −70 LUFS.
//!
//! Integrated loudness: the blocks above −70 LUFS, then those within 10 LU of their mean
//! energy (relative gate), averaged in energy. Loudness range: the short-term values above
//! −70 LUFS, then those within 20 LU of their mean energy; the range is the 95th minus the
//! 10th percentile (value at index `round((n − 1)·p)` of the sorted list).
//!
//! Chunking never changes a result: every running sum adds the same terms in the same order
//! however the signal is split, so a stream fed in pieces gives bit-identical values.

use super::kweight::{k_weighting, kweight_sumsq, Biquad, Frames, KState};
use super::truepeak::{self, HISTORY, TAPS};
use crate::error::{SkError, SkResult};
use crate::kernels::pcm::first_non_finite;
use crate::kernels::strided::{self, StridedRef};
use crate::kernels::Float;
use crate::simd::Level;

/// Lowest and highest supported sample rates (Hz).
pub(crate) const MIN_RATE: f64 = 8000.0;
pub(crate) const MAX_RATE: f64 = 384000.0;
/// Largest channel count of one meter.
pub(crate) const MAX_CHANNELS: usize = 64;
/// Absolute gate (LUFS).
pub(crate) const ABSOLUTE_GATE: f64 = -70.0;

/// Seconds of signal [`Meter::reserve`] makes room for in the lists of gating and short-term
/// values (one of each per 100 ms step: 576 kB for an hour).
pub(crate) const RESERVED_SECONDS: u64 = 3600;

/// Frames per true-peak work piece (bounds the scratch buffer).
const TP_PIECE: usize = 4096;

/// Loudness (LUFS) of a weighted mean square; −inf for 0.
pub fn lufs(z: f64) -> f64 {
    if z > 0.0 {
        -0.691 + 10.0 * z.log10()
    } else {
        f64::NEG_INFINITY
    }
}

/// The mean square a loudness (LUFS) stands for.
pub fn energy(l: f64) -> f64 {
    10f64.powf((l + 0.691) / 10.0)
}

/// Amplitude → dB (−inf for 0).
pub fn amp_db(a: f64) -> f64 {
    if a > 0.0 {
        20.0 * a.log10()
    } else {
        f64::NEG_INFINITY
    }
}

/// The standard channel weights for `channels` channels (BS.1770-4 table 3, channels in the
/// WAV / SMPTE order): 4 = L R Ls Rs, 5 = L R C Ls Rs, 6 = L R C LFE Ls Rs, 8 = L R C LFE
/// Ls Rs Lb Rb (7.1); surround channels weigh 1.41, LFE 0; every other count weighs 1.0.
pub fn standard_weights(channels: usize) -> Vec<f64> {
    let s = 1.41;
    match channels {
        4 => vec![1.0, 1.0, s, s],
        5 => vec![1.0, 1.0, 1.0, s, s],
        6 => vec![1.0, 1.0, 1.0, 0.0, s, s],
        8 => vec![1.0, 1.0, 1.0, 0.0, s, s, s, s],
        _ => vec![1.0; channels],
    }
}

/// Every value the meter reports. Loudness in LUFS, range in LU, peaks in dB relative to full
/// scale (1.0); −inf where nothing has been measured (or all is silence / gated out).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    pub integrated: f64,
    pub loudness_range: f64,
    pub momentary: f64,
    pub short_term: f64,
    pub max_momentary: f64,
    pub max_short_term: f64,
    pub sample_peak: f64,
    pub true_peak: f64,
}

/// Sample types the meter accepts, with their true-peak phases and scratch buffer.
pub trait MeterFloat: Float {
    fn phases(m: &Meter) -> &[[Self; TAPS]];
    fn split(m: &mut Meter) -> (&[[Self; TAPS]], &mut Vec<Self>);
}

impl MeterFloat for f32 {
    fn phases(m: &Meter) -> &[[f32; TAPS]] {
        &m.phases32
    }
    fn split(m: &mut Meter) -> (&[[f32; TAPS]], &mut Vec<f32>) {
        (&m.phases32, &mut m.scratch32)
    }
}

impl MeterFloat for f64 {
    fn phases(m: &Meter) -> &[[f64; TAPS]] {
        &m.phases64
    }
    fn split(m: &mut Meter) -> (&[[f64; TAPS]], &mut Vec<f64>) {
        (&m.phases64, &mut m.scratch64)
    }
}

/// A streaming loudness meter.
#[derive(Clone, Debug)]
pub struct Meter {
    rate: f64,
    weights: Vec<f64>,
    k: [Biquad; 2],
    true_peak: bool,
    /// Frames per 100 ms step.
    step: usize,
    // running state
    kstate: Vec<KState>,
    /// Per-channel sum of squares of the step in progress.
    acc: Vec<f64>,
    fill: usize,
    ring: [f64; 30],
    steps: u64,
    blocks: Vec<f64>,
    short: Vec<f64>,
    momentary: f64,
    short_term: f64,
    max_momentary: f64,
    max_short_term: f64,
    sample_peak: Vec<f64>,
    tp: Vec<f64>,
    hist: Vec<f64>,
    // constants and scratch
    phases32: Vec<[f32; TAPS]>,
    phases64: Vec<[f64; TAPS]>,
    scratch32: Vec<f32>,
    scratch64: Vec<f64>,
    /// Set by [`reserve`](Self::reserve): the lists of gating and short-term values never grow
    /// past the room reserved; a list that is full is folded into its histogram, which takes
    /// every later value (constant memory from then on).
    bounded: bool,
    hist_blocks: Histogram,
    hist_short: Histogram,
}

/// Bins of a [`Histogram`]: 0.1 LU wide from the absolute gate (−70 LUFS) up, the last one open
/// above (+30 LUFS), as libebur128's histogram mode.
const HIST_BINS: usize = 1000;

/// Constant-memory history of gated energies (libebur128's histogram mode, with the energy sum
/// of each bin kept besides its count, so the means over whole bins are exact): the integrated
/// loudness and the range from it agree with those of the full list within one bin (0.1 LU).
#[derive(Clone, Debug, Default)]
struct Histogram {
    /// Whether the list has been folded in (the histogram then holds every value).
    active: bool,
    count: Vec<u64>,
    sum: Vec<f64>,
}

impl Histogram {
    fn bin(z: f64) -> usize {
        let b = ((lufs(z) - ABSOLUTE_GATE) * 10.0).floor();
        if b >= (HIST_BINS - 1) as f64 {
            HIST_BINS - 1
        } else if b > 0.0 {
            b as usize
        } else {
            0
        }
    }

    fn reserve(&mut self) -> SkResult<()> {
        if self.count.is_empty() {
            self.count = crate::kernels::alloc::try_vec(HIST_BINS, 0, "the loudness histogram")?;
            self.sum = crate::kernels::alloc::try_vec(HIST_BINS, 0.0, "the loudness histogram")?;
        }
        Ok(())
    }

    /// Adds an energy (ignored below the absolute gate, which no result counts).
    fn add(&mut self, z: f64) {
        if z >= energy(ABSOLUTE_GATE) {
            let b = Self::bin(z);
            self.count[b] += 1;
            self.sum[b] += z;
        }
    }

    /// Folds the values of `list` in and empties it (its room is kept).
    fn fold(&mut self, list: &mut Vec<f64>) {
        for &z in list.iter() {
            self.add(z);
        }
        list.clear();
        self.active = true;
    }

    fn clear(&mut self) {
        self.count.fill(0);
        self.sum.fill(0.0);
        self.active = false;
    }

    /// Sum and count of the bins from `b` up.
    fn totals(&self, b: usize) -> (f64, u64) {
        self.count[b..]
            .iter()
            .zip(&self.sum[b..])
            .fold((0.0, 0), |(s, k), (&c, &v)| (s + v, k + c))
    }

    /// [`integrated_of`] over the histogram: the relative gate keeps the bins from the one that
    /// holds the gate up.
    fn integrated(&self) -> f64 {
        let (s, k) = self.totals(0);
        if k == 0 {
            return f64::NEG_INFINITY;
        }
        let thr = (s / k as f64 * 0.1).max(energy(ABSOLUTE_GATE));
        let (s, k) = self.totals(Self::bin(thr));
        lufs(s / k as f64)
    }

    /// [`range_of`] over the histogram: a percentile is the mean energy of the bin that holds it.
    fn range(&self) -> f64 {
        let (s, k) = self.totals(0);
        if k == 0 {
            return 0.0;
        }
        let thr = (s / k as f64 * 0.01).max(energy(ABSOLUTE_GATE));
        let b0 = Self::bin(thr);
        let (_, n) = self.totals(b0);
        if n == 0 {
            return 0.0;
        }
        let at = |p: f64| {
            let idx = ((n - 1) as f64 * p).round() as u64;
            let mut seen = 0;
            for b in b0..HIST_BINS {
                seen += self.count[b];
                if seen > idx {
                    return self.sum[b] / self.count[b] as f64;
                }
            }
            self.sum[HIST_BINS - 1] / self.count[HIST_BINS - 1].max(1) as f64
        };
        lufs(at(0.95)) - lufs(at(0.10))
    }
}

fn alloc_err(what: &str) -> SkError {
    SkError::Allocation(format!("could not allocate {what}"))
}

impl Meter {
    /// A meter for `channels` channels at `rate` Hz with `weights` (one per channel, finite,
    /// `>= 0`; `None`: [`standard_weights`]). `true_peak` enables the true-peak oversampler
    /// (the sample peak is always measured).
    pub fn new(
        rate: f64,
        channels: usize,
        weights: Option<&[f64]>,
        true_peak: bool,
    ) -> SkResult<Self> {
        if !(MIN_RATE..=MAX_RATE).contains(&rate) {
            return Err(SkError::BadArgument(format!(
                "rate = {rate} Hz is outside the supported {MIN_RATE}..={MAX_RATE} Hz"
            )));
        }
        if channels == 0 || channels > MAX_CHANNELS {
            return Err(SkError::Length(format!(
                "channels = {channels}; a meter takes 1..={MAX_CHANNELS} channels"
            )));
        }
        let weights = match weights {
            Some(w) => {
                assert_eq!(w.len(), channels, "one weight per channel");
                if let Some(i) = w.iter().position(|v| !(v.is_finite() && *v >= 0.0)) {
                    return Err(SkError::BadArgument(format!(
                        "weights[{i}] = {} must be finite and >= 0",
                        w[i]
                    )));
                }
                w.to_vec()
            }
            None => standard_weights(channels),
        };
        let step = (rate / 10.0).round() as usize;
        let phases64 = if true_peak {
            truepeak::design(truepeak::factor(rate))
        } else {
            Vec::new()
        };
        let phases32 = phases64.iter().map(|h| h.map(|v| v as f32)).collect();
        Ok(Meter {
            rate,
            k: k_weighting(rate),
            true_peak,
            step,
            kstate: vec![KState::default(); channels],
            acc: vec![0.0; channels],
            fill: 0,
            ring: [0.0; 30],
            steps: 0,
            blocks: Vec::new(),
            short: Vec::new(),
            momentary: 0.0,
            short_term: 0.0,
            max_momentary: 0.0,
            max_short_term: 0.0,
            sample_peak: vec![0.0; channels],
            tp: vec![0.0; channels],
            hist: vec![0.0; channels * HISTORY],
            phases32,
            phases64,
            scratch32: Vec::new(),
            scratch64: Vec::new(),
            bounded: false,
            hist_blocks: Histogram::default(),
            hist_short: Histogram::default(),
            weights,
        })
    }

    pub fn channels(&self) -> usize {
        self.weights.len()
    }
    pub fn rate(&self) -> f64 {
        self.rate
    }
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }
    pub fn true_peak_enabled(&self) -> bool {
        self.true_peak
    }
    /// Frames fed so far.
    pub fn frames(&self) -> u64 {
        self.steps * self.step as u64 + self.fill as u64
    }

    /// Back to the state of a new meter (same settings).
    pub fn reset(&mut self) {
        self.kstate.fill(KState::default());
        self.acc.fill(0.0);
        self.fill = 0;
        self.ring = [0.0; 30];
        self.steps = 0;
        self.blocks.clear();
        self.short.clear();
        self.hist_blocks.clear();
        self.hist_short.clear();
        self.momentary = 0.0;
        self.short_term = 0.0;
        self.max_momentary = 0.0;
        self.max_short_term = 0.0;
        self.sample_peak.fill(0.0);
        self.tp.fill(0.0);
        self.hist.fill(0.0);
    }

    /// Reserves, for calls of up to `max_block` frames, the true-peak buffers of both element
    /// types, room in the lists of gating and short-term values for [`RESERVED_SECONDS`] of
    /// signal, and the histograms the lists are folded into when full, so that such calls
    /// allocate nothing however long the meter runs. Results do not change for the first
    /// [`RESERVED_SECONDS`]; past them the integrated loudness and the range come from the
    /// histograms (within 0.1 LU of the full lists' values).
    pub fn reserve(&mut self, max_block: usize) -> SkResult<()> {
        self.reserve_seconds(max_block, RESERVED_SECONDS)
    }

    /// [`reserve`](Self::reserve) with the lists' room for `seconds` of signal.
    pub(crate) fn reserve_seconds(&mut self, max_block: usize, seconds: u64) -> SkResult<()> {
        self.hist_blocks.reserve()?;
        self.hist_short.reserve()?;
        let steps = (seconds * 10) as usize;
        self.blocks
            .try_reserve(steps.saturating_sub(self.blocks.len()))
            .map_err(|_| alloc_err("the gating block list"))?;
        self.short
            .try_reserve(steps.saturating_sub(self.short.len()))
            .map_err(|_| alloc_err("the short-term list"))?;
        if self.true_peak {
            let need = HISTORY + TP_PIECE.min(max_block);
            self.scratch32
                .try_reserve(need.saturating_sub(self.scratch32.len()))
                .map_err(|_| alloc_err("the true-peak buffer"))?;
            self.scratch64
                .try_reserve(need.saturating_sub(self.scratch64.len()))
                .map_err(|_| alloc_err("the true-peak buffer"))?;
        }
        self.bounded = true;
        Ok(())
    }

    /// Feeds `n` frames. On error (non-finite sample, allocation) nothing changes.
    pub fn add<T: MeterFloat>(
        &mut self,
        level: Level,
        src: Frames<'_, T>,
        n: usize,
    ) -> SkResult<()> {
        let channels = self.channels();
        if n == 0 {
            return Ok(());
        }
        let last = (channels - 1) * src.chan_step + (src.start + n - 1) * src.frame_step;
        assert!(last < src.x.len(), "frames run past the input");
        self.check_finite(level, src, n)?;
        // Reserve for every step this call completes, so nothing fails half-way.
        // (a bounded meter's lists never grow: see `keep`)
        let new_steps = (self.fill + n) / self.step;
        if !self.bounded {
            self.blocks
                .try_reserve(new_steps)
                .map_err(|_| alloc_err("the gating block list"))?;
            self.short
                .try_reserve(new_steps)
                .map_err(|_| alloc_err("the short-term list"))?;
        }
        if self.true_peak {
            let need = HISTORY + TP_PIECE.min(n);
            let (_, scratch) = T::split(self);
            scratch
                .try_reserve(need.saturating_sub(scratch.len()))
                .map_err(|_| alloc_err("the true-peak buffer"))?;
        }
        // Loudness: K-weighting + mean square, step by step.
        let mut done = 0;
        while done < n {
            let m = (self.step - self.fill).min(n - done);
            let seg = Frames {
                start: src.start + done,
                ..src
            };
            kweight_sumsq(level, seg, &self.k, &mut self.kstate, &mut self.acc, m);
            self.fill += m;
            done += m;
            if self.fill == self.step {
                self.finish_step();
            }
        }
        // Peaks.
        self.peaks(level, src, n);
        Ok(())
    }

    fn check_finite<T: MeterFloat>(
        &self,
        level: Level,
        src: Frames<'_, T>,
        n: usize,
    ) -> SkResult<()> {
        let channels = self.channels();
        let bad = |c: usize, t: usize, v: T| {
            Err(SkError::NonFinite(format!(
                "x: channel {c}, frame {t} is {v:?}; the meter refuses NaN and infinity (nothing was fed)"
            )))
        };
        if src.frame_step == 1 {
            for c in 0..channels {
                let o = c * src.chan_step + src.start;
                if let Some(t) = first_non_finite(level, &src.x[o..o + n]) {
                    return bad(c, t, src.x[o + t]);
                }
            }
        } else if src.chan_step == 1 && src.frame_step == channels {
            let o = src.start * channels;
            if let Some(i) = first_non_finite(level, &src.x[o..o + n * channels]) {
                return bad(i % channels, i / channels, src.x[o + i]);
            }
        } else {
            for t in 0..n {
                for c in 0..channels {
                    let v = src.x[c * src.chan_step + (src.start + t) * src.frame_step];
                    if !v.is_finite() {
                        return bad(c, t, v);
                    }
                }
            }
        }
        Ok(())
    }

    fn finish_step(&mut self) {
        let mut z = 0.0;
        for (w, a) in self.weights.iter().zip(&self.acc) {
            z += w * a;
        }
        self.acc.fill(0.0);
        self.fill = 0;
        self.ring.rotate_left(1);
        self.ring[29] = z;
        self.steps += 1;
        let step = self.step as f64;
        let m = self.ring[26..].iter().sum::<f64>() / (4.0 * step);
        let s = self.ring.iter().sum::<f64>() / (30.0 * step);
        self.momentary = m;
        self.short_term = s;
        self.max_momentary = self.max_momentary.max(m);
        self.max_short_term = self.max_short_term.max(s);
        // capacity was reserved in `add` (or by `reserve`)
        if self.steps >= 4 {
            keep(self.bounded, &mut self.blocks, &mut self.hist_blocks, m);
        }
        if self.steps >= 30 {
            keep(self.bounded, &mut self.short, &mut self.hist_short, s);
        }
    }

    fn peaks<T: MeterFloat>(&mut self, level: Level, src: Frames<'_, T>, n: usize) {
        let channels = self.channels();
        for c in 0..channels {
            let at = |t: usize| src.x[c * src.chan_step + (src.start + t) * src.frame_step];
            // sample peak: the strided peak reduction (blocks of frames gathered, then the SIMD
            // peak; planar frames go straight to it)
            let view = StridedRef::new(
                src.x,
                c * src.chan_step + src.start * src.frame_step,
                src.frame_step as isize,
                n,
            )
            .expect("frames lie inside the input (checked by add)");
            let p = strided::peak(level, view).map_or(0.0, |v| v.to_f64());
            let sp = self.sample_peak[c].max(p);
            self.sample_peak[c] = sp;
            if !self.true_peak {
                continue;
            }
            let mut all_hist = std::mem::take(&mut self.hist);
            let hist = &mut all_hist[c * HISTORY..(c + 1) * HISTORY];
            let (phases, scratch) = T::split(self);
            let mut tp = T::ZERO;
            let mut done = 0;
            while done < n {
                let m = TP_PIECE.min(n - done);
                scratch.clear();
                scratch.extend(hist.iter().map(|&v| T::from_f64(v)));
                scratch.extend((done..done + m).map(at));
                let p = truepeak::interp_peak(level, scratch, phases);
                if p > tp {
                    tp = p;
                }
                for (h, v) in hist.iter_mut().zip(&scratch[m..]) {
                    *h = v.to_f64();
                }
                done += m;
            }
            self.hist = all_hist;
            self.tp[c] = self.tp[c].max(tp.to_f64()).max(sp);
        }
    }

    /// Integrated loudness (LUFS) of everything fed so far.
    pub fn integrated(&self) -> f64 {
        if self.hist_blocks.active {
            return self.hist_blocks.integrated();
        }
        integrated_of(&self.blocks)
    }

    /// Loudness range (LU, EBU Tech 3342); 0 when no short-term block passes the gates.
    pub fn loudness_range(&self) -> SkResult<f64> {
        if self.hist_short.active {
            return Ok(self.hist_short.range());
        }
        range_of(self.short.iter().copied())
    }

    /// Per-channel sample peaks (linear).
    pub fn sample_peaks(&self) -> &[f64] {
        &self.sample_peak
    }
    /// Per-channel true peaks (linear); equal to the sample peaks when true peak is off.
    pub fn true_peaks(&self) -> &[f64] {
        if self.true_peak {
            &self.tp
        } else {
            &self.sample_peak
        }
    }

    /// Every value at once.
    pub fn stats(&self) -> SkResult<Stats> {
        let max = |v: &[f64]| v.iter().fold(0.0f64, |m, &x| m.max(x));
        Ok(Stats {
            integrated: self.integrated(),
            loudness_range: self.loudness_range()?,
            momentary: lufs(self.momentary),
            short_term: lufs(self.short_term),
            max_momentary: lufs(self.max_momentary),
            max_short_term: lufs(self.max_short_term),
            sample_peak: amp_db(max(self.sample_peaks())),
            true_peak: amp_db(max(self.true_peaks())),
        })
    }
}

/// Keeps a value in `list`, or, when the meter is bounded and the list is full (or was folded
/// before), in the histogram (the list folded into it first).
fn keep(bounded: bool, list: &mut Vec<f64>, hist: &mut Histogram, z: f64) {
    if hist.active {
        hist.add(z);
    } else if bounded && list.len() == list.capacity() {
        hist.fold(list);
        hist.add(z);
    } else {
        list.push(z);
    }
}

/// Sum and count of the values of `z` at or above `thr`.
fn sum_above(z: impl Iterator<Item = f64>, thr: f64) -> (f64, usize) {
    z.filter(|&v| v >= thr)
        .fold((0.0, 0), |(s, k), v| (s + v, k + 1))
}

/// Integrated loudness of 400 ms block energies: absolute gate, then the relative gate 10 LU
/// below the mean of what passed it; −inf when nothing passes.
pub(crate) fn integrated_of(blocks: &[f64]) -> f64 {
    let (s, k) = sum_above(blocks.iter().copied(), energy(ABSOLUTE_GATE));
    if k == 0 {
        return f64::NEG_INFINITY;
    }
    let thr = (s / k as f64 * 0.1).max(energy(ABSOLUTE_GATE));
    let (s, k) = sum_above(blocks.iter().copied(), thr);
    lufs(s / k as f64)
}

/// Loudness range of short-term energies (EBU Tech 3342): absolute gate, relative gate 20 LU
/// below the mean of what passed it, then the 95th minus the 10th percentile.
pub(crate) fn range_of(short: impl Iterator<Item = f64> + Clone) -> SkResult<f64> {
    let gate = energy(ABSOLUTE_GATE);
    let (s, k) = sum_above(short.clone(), gate);
    if k == 0 {
        return Ok(0.0);
    }
    let thr = (s / k as f64 * 0.01).max(gate);
    let mut v: Vec<f64> = Vec::new();
    v.try_reserve_exact(k)
        .map_err(|_| alloc_err("the loudness range sort buffer"))?;
    v.extend(short.filter(|&z| z >= thr));
    v.sort_by(f64::total_cmp);
    let at = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
    Ok(lufs(at(0.95)) - lufs(at(0.10)))
}

/// The linear gain that brings a programme of integrated loudness `integrated` (LUFS) and true
/// peak `true_peak` (dBTP) to `target` LUFS without its true peak exceeding `ceiling` dBTP:
/// `min(10^((target − I)/20), 10^((ceiling − TP)/20))`. A silent programme (`integrated` or
/// `true_peak` −inf) gets the loudness gain from the peak side only, and 1.0 if both are −inf.
pub fn normalize_gain(integrated: f64, true_peak: f64, target: f64, ceiling: f64) -> f64 {
    let by_loudness = if integrated.is_finite() {
        10f64.powf((target - integrated) / 20.0)
    } else {
        f64::INFINITY
    };
    let by_peak = if true_peak.is_finite() {
        10f64.powf((ceiling - true_peak) / 20.0)
    } else {
        f64::INFINITY
    };
    let g = by_loudness.min(by_peak);
    if g.is_finite() {
        g
    } else {
        1.0
    }
}

#[cfg(test)]
#[path = "meter_tests.rs"]
mod tests;
