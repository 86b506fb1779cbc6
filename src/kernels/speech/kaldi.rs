//! Kaldi's feature front ends, equal to `torchaudio.compliance.kaldi.spectrogram`, `.fbank` and
//! `.mfcc` (Kaldi's `compute-spectrogram-feats`, `compute-fbank-feats`, `compute-mfcc-feats`).
//!
//! One [`KaldiPlan`] holds what every frame shares (the window, the FFT plan, the sparse mel
//! filterbank, the DCT matrix and the lifter); [`KaldiPlan::compute`] runs the whole recipe on a
//! batch of equal-length signals, frame by frame: framing (`snip_edges` both ways), dither, DC
//! removal, raw log energy, pre-emphasis, window, zero padding to the FFT length, the real FFT,
//! power or magnitude, mel filterbank, log, energy, DCT and lifter, column mean removal.
//!
//! Precision. Each step runs in the data's precision with torchaudio's order of operations. The
//! constants torchaudio computes in single precision whatever the data's (the mel filterbank,
//! the DCT matrix and the lifter: they come from `torch.arange` in the default dtype) are
//! computed here in `f32` with the same operations, then widened, so double results follow
//! torchaudio's to rounding.

use crate::error::{SkError, SkResult};
use crate::kernels::alloc::{try_vec, try_with_capacity};
use crate::kernels::cache::PlanStore;
use crate::kernels::par::par_rows_with;
use crate::kernels::spectral::fft::{FftFloat, FftPlan, Norm, PlanCache, Workspace, MAX_FFT_LEN};
use crate::kernels::spectral::logtail::LnFast;
use crate::kernels::spectral::Complex;
use crate::simd::{multiversion, Level};
use std::sync::Arc;

/// `numeric_limits<float>::epsilon()`, Kaldi's floor under every logarithm.
const EPSILON: f64 = 1.192_092_895_507_812_5e-7;

/// Which features to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// Log power spectrum, the log energy in column 0 (`compute-spectrogram-feats`).
    Spectrogram,
    /// Mel filterbank energies, optionally log, optionally with the log energy.
    Fbank,
    /// Mel-frequency cepstral coefficients.
    Mfcc,
}

/// Kaldi's window types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KaldiWindow {
    /// `0.54 − 0.46·cos(2πj/(N−1))`.
    Hamming,
    /// `0.5 − 0.5·cos(2πj/(N−1))`.
    Hanning,
    /// The Hanning window to the power 0.85 (Kaldi's default).
    Povey,
    /// All ones.
    Rectangular,
    /// `c − 0.5·cos(2πj/(N−1)) + (0.5 − c)·cos(4πj/(N−1))` with `c = blackman_coeff`.
    Blackman,
}

/// Every option of `torchaudio.compliance.kaldi` (its names; lengths in milliseconds), plus the
/// dither seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KaldiOptions {
    pub sample_frequency: f64,
    pub frame_length: f64,
    pub frame_shift: f64,
    pub window: KaldiWindow,
    pub blackman_coeff: f64,
    pub preemphasis_coefficient: f64,
    pub remove_dc_offset: bool,
    pub dither: f64,
    pub seed: u64,
    pub round_to_power_of_two: bool,
    pub snip_edges: bool,
    pub raw_energy: bool,
    pub energy_floor: f64,
    pub use_energy: bool,
    pub use_log_fbank: bool,
    pub use_power: bool,
    pub num_mel_bins: usize,
    pub low_freq: f64,
    pub high_freq: f64,
    pub vtln_warp: f64,
    pub vtln_low: f64,
    pub vtln_high: f64,
    pub num_ceps: usize,
    pub cepstral_lifter: f64,
    pub htk_compat: bool,
    pub subtract_mean: bool,
    pub min_duration: f64,
}

impl KaldiOptions {
    /// Every option as bits: equal arrays for equal options (the plan cache's key; `-0.0` and
    /// `0.0` differ, which only costs a second plan).
    fn bits(&self) -> [u64; 27] {
        // destructured, so that a new option cannot be left out of the key
        let KaldiOptions {
            sample_frequency,
            frame_length,
            frame_shift,
            window,
            blackman_coeff,
            preemphasis_coefficient,
            remove_dc_offset,
            dither,
            seed,
            round_to_power_of_two,
            snip_edges,
            raw_energy,
            energy_floor,
            use_energy,
            use_log_fbank,
            use_power,
            num_mel_bins,
            low_freq,
            high_freq,
            vtln_warp,
            vtln_low,
            vtln_high,
            num_ceps,
            cepstral_lifter,
            htk_compat,
            subtract_mean,
            min_duration,
        } = *self;
        let f = f64::to_bits;
        [
            f(sample_frequency),
            f(frame_length),
            f(frame_shift),
            window as u64,
            f(blackman_coeff),
            f(preemphasis_coefficient),
            u64::from(remove_dc_offset),
            f(dither),
            seed,
            u64::from(round_to_power_of_two),
            u64::from(snip_edges),
            u64::from(raw_energy),
            f(energy_floor),
            u64::from(use_energy),
            u64::from(use_log_fbank),
            u64::from(use_power),
            num_mel_bins as u64,
            f(low_freq),
            f(high_freq),
            f(vtln_warp),
            f(vtln_low),
            f(vtln_high),
            num_ceps as u64,
            f(cepstral_lifter),
            u64::from(htk_compat),
            u64::from(subtract_mean),
            f(min_duration),
        ]
    }
}

impl Default for KaldiOptions {
    /// torchaudio's defaults (the same for the three features).
    fn default() -> Self {
        KaldiOptions {
            sample_frequency: 16000.0,
            frame_length: 25.0,
            frame_shift: 10.0,
            window: KaldiWindow::Povey,
            blackman_coeff: 0.42,
            preemphasis_coefficient: 0.97,
            remove_dc_offset: true,
            dither: 0.0,
            seed: 0,
            round_to_power_of_two: true,
            snip_edges: true,
            raw_energy: true,
            energy_floor: 1.0,
            use_energy: false,
            use_log_fbank: true,
            use_power: true,
            num_mel_bins: 23,
            low_freq: 20.0,
            high_freq: 0.0,
            vtln_warp: 1.0,
            vtln_low: 100.0,
            vtln_high: -500.0,
            num_ceps: 13,
            cepstral_lifter: 22.0,
            htk_compat: false,
            subtract_mean: false,
            min_duration: 0.0,
        }
    }
}

/// The element types: an FFT type with the elementary functions the recipe uses.
pub trait KaldiFloat: FftFloat + PlanCache + LnFast {
    fn ln(self) -> Self;
    fn sqrt(self) -> Self;
    fn cos(self) -> Self;
    fn powf(self, e: Self) -> Self;
}

macro_rules! impl_kaldi_float {
    ($t:ty) => {
        impl KaldiFloat for $t {
            #[inline(always)]
            fn ln(self) -> Self {
                <$t>::ln(self)
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            #[inline(always)]
            fn cos(self) -> Self {
                <$t>::cos(self)
            }
            #[inline(always)]
            fn powf(self, e: Self) -> Self {
                <$t>::powf(self, e)
            }
        }
    };
}
impl_kaldi_float!(f32);
impl_kaldi_float!(f64);

/// `v` in `T` (rounded to nearest for `f32`).
#[inline(always)]
fn fc<T: KaldiFloat>(v: f64) -> T {
    <T as crate::kernels::Float>::from_f64(v)
}

/// `torch.maximum(a, b)`: NaN in `a` propagates.
#[inline(always)]
fn maxp<T: KaldiFloat>(a: T, b: T) -> T {
    if a.is_nan() || a > b {
        a
    } else {
        b
    }
}

/// `Σ f(v)` in 8 interleaved partial sums added pairwise at the end: a fixed order (every
/// path, the batch and the stream, gives the same bits) that the compiler vectorizes, where one
/// running sum is a chain of dependent additions. Index loops, not iterator adaptors, so that
/// it compiles to the same code with or without cross-crate inlining.
#[inline(always)]
fn sum8<T: KaldiFloat>(v: &[T], f: impl Fn(T) -> T) -> T {
    let mut acc = [T::ZERO; 8];
    let n = v.len();
    let mut i = 0;
    while i + 8 <= n {
        for k in 0..8 {
            acc[k] = acc[k] + f(v[i + k]);
        }
        i += 8;
    }
    for k in 0..n - i {
        acc[k] = acc[k] + f(v[i + k]);
    }
    ((acc[0] + acc[4]) + (acc[2] + acc[6])) + ((acc[1] + acc[5]) + (acc[3] + acc[7]))
}

/// `Σ a·b` (equal lengths) in 4 interleaved partial sums, a fixed order as [`sum8`]: a band of
/// the mel filterbank is a few to a few dozen bins, where one running sum would wait on every
/// addition.
#[inline(always)]
fn dot4<T: KaldiFloat>(a: &[T], b: &[T]) -> T {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [T::ZERO; 4];
    let mut i = 0;
    while i + 4 <= n {
        for k in 0..4 {
            acc[k] = acc[k] + a[i + k] * b[i + k];
        }
        i += 4;
    }
    for k in 0..n - i {
        acc[k] = acc[k] + a[i + k] * b[i + k];
    }
    (acc[0] + acc[2]) + (acc[1] + acc[3])
}

/// `ln(max(v, eps))` of every value in place (torch's `max(x, eps).log()`; `eps` positive
/// normal), branch-free so that the loop vectorises: the library's fast logarithm
/// ([`crate::kernels::fastmath`]: `f32` within 2 ulp of `ln`, `f64` a few ulp) on every lane,
/// then the lanes `max` lets through non-finite (`+inf`, NaN) keep their value, as `ln` gives
/// them. Every SIMD level gives the same bits.
#[inline(always)]
fn log_floor_lanes<T: KaldiFloat>(v: &mut [T], eps: T) {
    for x in v.iter_mut() {
        let m = maxp(*x, eps);
        let l = m.ln_fast();
        *x = if m < <T as LnFast>::INFINITY { l } else { m };
    }
}

multiversion! {
    /// [`log_floor_lanes`] compiled for each SIMD level.
    fn log_floor<T: KaldiFloat>(v: &mut [T], eps: T) -> ();
    scalar = log_floor_lanes; simd = log_floor_lanes;
}

/// `|c|²` of every bin (`p` as long as `spec`).
#[inline(always)]
fn power_lanes<T: KaldiFloat>(spec: &[Complex<T>], p: &mut [T]) {
    for (p, c) in p.iter_mut().zip(spec) {
        *p = c.re * c.re + c.im * c.im;
    }
}

multiversion! {
    /// [`power_lanes`] compiled for each SIMD level.
    fn power<T: KaldiFloat>(spec: &[Complex<T>], p: &mut [T]) -> ();
    scalar = power_lanes; simd = power_lanes;
}

/// Each band's weighted sum of the power spectrum `pw` into `mel` ([`dot4`] per band).
#[inline(always)]
fn mel_lanes<T: KaldiFloat>(pw: &[T], bands: &[Band<T>], mel: &mut [T]) {
    for (m, b) in mel.iter_mut().zip(bands) {
        *m = dot4(&pw[b.first..b.first + b.w.len()], &b.w);
    }
}

multiversion! {
    /// [`mel_lanes`] compiled for each SIMD level.
    fn mel_sums<T: KaldiFloat>(pw: &[T], bands: &[Band<T>], mel: &mut [T]) -> ();
    scalar = mel_lanes; simd = mel_lanes;
}

/// The time-domain steps of a frame before the FFT, in place: DC removal (`dc`), the raw
/// energy's sum of squares (returned when `energy`, else 0), then pre-emphasis (`pre`) with
/// coefficient `c` (forward, carrying the previous input sample: a first-order recurrence the
/// compiler vectorises) fused with the window.
#[inline(always)]
fn prepare_lanes<T: KaldiFloat>(
    frame: &mut [T],
    window: &[T],
    dc: bool,
    energy: bool,
    pre: bool,
    c: T,
) -> T {
    if dc {
        let sum = sum8(frame, |v| v);
        let mean = sum / fc::<T>(frame.len() as f64);
        for v in frame.iter_mut() {
            *v = *v - mean;
        }
    }
    let e = if energy {
        sum8(frame, |a| a * a)
    } else {
        T::ZERO
    };
    if pre {
        let mut prev = frame[0];
        for (v, &w) in frame.iter_mut().zip(window) {
            let cur = *v;
            *v = (cur - c * prev) * w;
            prev = cur;
        }
    } else {
        for (v, &w) in frame.iter_mut().zip(window) {
            *v = *v * w;
        }
    }
    e
}

multiversion! {
    /// [`prepare_lanes`] compiled for each SIMD level.
    fn prepare<T: KaldiFloat>(
        frame: &mut [T],
        window: &[T],
        dc: bool,
        energy: bool,
        pre: bool,
        c: T,
    ) -> T;
    scalar = prepare_lanes; simd = prepare_lanes;
}

/// The splitmix64 finaliser.
#[inline(always)]
fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The stream key of the dither of one frame: a function of the seed, the signal's row in its
/// batch and the frame's index only, so the noise does not depend on threads or chunking.
#[inline]
pub fn dither_key(seed: u64, row: u64, frame: u64) -> u64 {
    mix64(seed ^ mix64(row.wrapping_mul(0xD1B5_4A32_D192_ED03) ^ mix64(frame)))
}

/// Two independent standard normal values (Box–Muller) for pair `pair` of the stream `key`.
#[inline]
fn gauss_pair(key: u64, pair: u64) -> (f64, f64) {
    let a = mix64(key ^ pair.wrapping_mul(2));
    let b = mix64(key ^ pair.wrapping_mul(2).wrapping_add(1));
    let u1 = ((a >> 11) + 1) as f64 * (1.0 / (1u64 << 53) as f64); // (0, 1]
    let u2 = (b >> 11) as f64 * (1.0 / (1u64 << 53) as f64); // [0, 1)
    let r = (-2.0 * u1.ln()).sqrt();
    let (s, c) = (2.0 * std::f64::consts::PI * u2).sin_cos();
    (r * c, r * s)
}

/// A single-precision elementary function rounded once from double precision: correctly
/// rounded but for the rarest ties, so the constants do not depend on the platform's `libm`.
fn via_f64(x: f32, f: fn(f64) -> f64) -> f32 {
    f(x as f64) as f32
}

/// Kaldi's mel scale in single precision, as torchaudio's `mel_scale` on a float tensor (the
/// logarithm correctly rounded).
fn mel_f32(f: f32) -> f32 {
    1127.0f32 * via_f64(1.0f32 + f / 700.0f32, f64::ln)
}

/// torchaudio's `inverse_mel_scale` on a float tensor.
fn inv_mel_f32(m: f32) -> f32 {
    700.0f32 * (via_f64(m / 1127.0f32, f64::exp) - 1.0f32)
}

/// The frame geometry and the validated options of a recipe.
#[derive(Clone, Copy, Debug)]
struct Geometry {
    shift: usize,
    size: usize,
    padded: usize,
}

/// Python's `int(x)` of a finite non-negative double, refusing what does not fit.
fn trunc_len(v: f64, what: &str) -> SkResult<usize> {
    if !(v.is_finite() && v >= 0.0) || v >= MAX_FFT_LEN as f64 {
        return Err(SkError::BadArgument(format!(
            "{what} = {v} samples is not a usable length (0 … {MAX_FFT_LEN})"
        )));
    }
    Ok(v as usize)
}

fn finite(name: &str, v: f64) -> SkResult<()> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(SkError::BadArgument(format!("{name} = {v} is not finite")))
    }
}

impl KaldiOptions {
    /// Checks every option for `feature` (torchaudio's assertions, with messages) and returns
    /// the frame geometry.
    fn geometry(&self, feature: Feature) -> SkResult<Geometry> {
        let sr = self.sample_frequency;
        if !(sr.is_finite() && sr > 0.0) {
            return Err(SkError::BadArgument(format!(
                "sample_frequency = {sr} must be finite and > 0"
            )));
        }
        for (name, v) in [
            ("frame_length", self.frame_length),
            ("frame_shift", self.frame_shift),
            ("blackman_coeff", self.blackman_coeff),
            ("preemphasis_coefficient", self.preemphasis_coefficient),
            ("dither", self.dither),
            ("energy_floor", self.energy_floor),
            ("low_freq", self.low_freq),
            ("high_freq", self.high_freq),
            ("vtln_warp", self.vtln_warp),
            ("vtln_low", self.vtln_low),
            ("vtln_high", self.vtln_high),
            ("cepstral_lifter", self.cepstral_lifter),
            ("min_duration", self.min_duration),
        ] {
            finite(name, v)?;
        }
        let shift = trunc_len(sr * self.frame_shift * 0.001, "the frame shift")?;
        let size = trunc_len(sr * self.frame_length * 0.001, "the frame length")?;
        if size < 2 {
            return Err(SkError::BadArgument(format!(
                "frame_length = {} ms at {sr} Hz is {size} sample(s); a frame needs at least 2",
                self.frame_length
            )));
        }
        if shift == 0 {
            return Err(SkError::BadArgument(format!(
                "frame_shift = {} ms at {sr} Hz is 0 samples; it must be at least 1",
                self.frame_shift
            )));
        }
        let padded = if self.round_to_power_of_two {
            size.next_power_of_two()
        } else {
            size
        };
        if padded % 2 != 0 {
            return Err(SkError::BadArgument(format!(
                "the frame of {size} samples is odd: set round_to_power_of_two or change \
                 frame_length (the padded frame must be even)"
            )));
        }
        if !(0.0..=1.0).contains(&self.preemphasis_coefficient) {
            return Err(SkError::BadArgument(format!(
                "preemphasis_coefficient = {} must be in [0, 1]",
                self.preemphasis_coefficient
            )));
        }
        if self.dither < 0.0 {
            return Err(SkError::BadArgument(format!(
                "dither = {} must be >= 0",
                self.dither
            )));
        }
        if self.energy_floor < 0.0 {
            return Err(SkError::BadArgument(format!(
                "energy_floor = {} must be >= 0 (0: no floor)",
                self.energy_floor
            )));
        }
        if feature != Feature::Spectrogram {
            self.mel_range(padded)?;
        }
        if feature == Feature::Mfcc && !(1..=self.num_mel_bins).contains(&self.num_ceps) {
            return Err(SkError::BadArgument(format!(
                "num_ceps = {} must be in 1 … num_mel_bins ({})",
                self.num_ceps, self.num_mel_bins
            )));
        }
        Ok(Geometry {
            shift,
            size,
            padded,
        })
    }

    /// The filterbank's band edges `(low, high, vtln_high)` in Hz after the "≤ 0: offset from
    /// Nyquist" rules, checked as `get_mel_banks` does.
    fn mel_range(&self, padded: usize) -> SkResult<(f64, f64, f64)> {
        if self.num_mel_bins <= 3 {
            return Err(SkError::BadArgument(format!(
                "num_mel_bins = {} must be at least 4",
                self.num_mel_bins
            )));
        }
        if self.num_mel_bins > MAX_FFT_LEN / padded.max(1) {
            return Err(SkError::Length(format!(
                "num_mel_bins = {} is beyond the supported size",
                self.num_mel_bins
            )));
        }
        let nyquist = 0.5 * self.sample_frequency;
        let low = self.low_freq;
        let mut high = self.high_freq;
        if high <= 0.0 {
            high += nyquist;
        }
        if !((0.0..nyquist).contains(&low) && 0.0 < high && high <= nyquist && low < high) {
            return Err(SkError::BadArgument(format!(
                "low_freq = {low} and high_freq = {high} (after the offset from Nyquist) must \
                 satisfy 0 <= low_freq < high_freq <= Nyquist ({nyquist} Hz)"
            )));
        }
        let mut vhigh = self.vtln_high;
        if vhigh < 0.0 {
            vhigh += nyquist;
        }
        if self.vtln_warp <= 0.0 {
            return Err(SkError::BadArgument(format!(
                "vtln_warp = {} must be > 0",
                self.vtln_warp
            )));
        }
        if self.vtln_warp != 1.0 {
            let vlow = self.vtln_low;
            let l = vlow * self.vtln_warp.max(1.0);
            let h = vhigh * self.vtln_warp.min(1.0);
            if !(low < vlow && vlow < high && 0.0 < vhigh && vhigh < high && vlow < vhigh)
                || !(l > low && h < high)
            {
                return Err(SkError::BadArgument(format!(
                    "vtln_low = {vlow} and vtln_high = {vhigh} (after the offset from Nyquist) \
                     must satisfy low_freq ({low}) < vtln_low < vtln_high < high_freq ({high}), \
                     with the warped inflection points inside (low_freq, high_freq)"
                )));
            }
        }
        Ok((low, high, vhigh))
    }
}

/// One mel band: its first FFT bin and its non-zero weights.
#[derive(Clone, Debug)]
struct Band<T> {
    first: usize,
    w: Vec<T>,
}

/// torchaudio's `get_mel_banks` (the weights only), in single precision as torchaudio computes
/// it: `(num_bins, padded/2)` rows, each kept as its non-zero run.
fn mel_banks_f32(o: &KaldiOptions, padded: usize) -> SkResult<Vec<(usize, Vec<f32>)>> {
    let (low, high, vhigh) = o.mel_range(padded)?;
    let num_bins = o.num_mel_bins;
    let num_fft_bins = padded / 2;
    let fft_bin_width = o.sample_frequency / padded as f64;
    let mel_low = 1127.0 * (1.0 + low / 700.0).ln();
    let mel_high = 1127.0 * (1.0 + high / 700.0).ln();
    let delta = (mel_high - mel_low) / (num_bins as f64 + 1.0);
    let (lo32, d32) = (mel_low as f32, delta as f32);
    let warp = o.vtln_warp;
    let warp_mel = |m: f32| -> f32 {
        // vtln_warp_mel_freq: mel → Hz, the piecewise-linear warp, Hz → mel
        let f = inv_mel_f32(m);
        let l = o.vtln_low * warp.max(1.0);
        let h = vhigh * warp.min(1.0);
        let scale = 1.0 / warp;
        let (fl, fh) = (scale * l, scale * h);
        let scale_left = (fl - low) / (l - low);
        let scale_right = (high - fh) / (high - h);
        let (low32, high32, l32, h32) = (low as f32, high as f32, l as f32, h as f32);
        let r = if f < low32 || f > high32 {
            f
        } else if f < l32 {
            low32 + scale_left as f32 * (f - low32)
        } else if f < h32 {
            scale as f32 * f
        } else {
            high32 + scale_right as f32 * (f - high32)
        };
        mel_f32(r)
    };
    let mut mel = try_with_capacity(num_fft_bins, "the mel filterbank")?;
    for k in 0..num_fft_bins {
        mel.push(mel_f32(fft_bin_width as f32 * k as f32));
    }
    let mut banks = try_with_capacity(num_bins, "the mel filterbank")?;
    for b in 0..num_bins {
        let bf = b as f32;
        let mut left = lo32 + bf * d32;
        let mut center = lo32 + (bf + 1.0) * d32;
        let mut right = lo32 + (bf + 2.0) * d32;
        if warp != 1.0 {
            left = warp_mel(left);
            center = warp_mel(center);
            right = warp_mel(right);
        }
        let weight = |m: f32| -> f32 {
            let up = (m - left) / (center - left);
            let down = (right - m) / (right - center);
            if warp == 1.0 {
                // torch.max(zeros, torch.min(up, down)), NaN propagating
                let mn = if up.is_nan() || down.is_nan() {
                    f32::NAN
                } else {
                    up.min(down)
                };
                if mn.is_nan() || mn > 0.0 {
                    mn
                } else {
                    0.0
                }
            } else if m > left && m <= center {
                up
            } else if m > center && m < right {
                down
            } else {
                0.0
            }
        };
        let ws: Vec<f32> = mel.iter().map(|&m| weight(m)).collect();
        let first = ws.iter().position(|&v| v != 0.0).unwrap_or(0);
        let last = ws.iter().rposition(|&v| v != 0.0).map_or(first, |p| p + 1);
        banks.push((first, ws[first..last].to_vec()));
    }
    Ok(banks)
}

/// torchaudio's `_get_dct_matrix` (float): `(num_ceps, num_mel_bins)` row-major here (row `k`
/// holds column `k` of torchaudio's matrix).
fn dct_f32(num_ceps: usize, m: usize) -> Vec<f32> {
    let mut d = Vec::with_capacity(num_ceps * m);
    let step = (std::f64::consts::PI / m as f64) as f32;
    let scale = (2.0 / m as f64).sqrt() as f32;
    let first = (1.0 / m as f64).sqrt() as f32;
    for k in 0..num_ceps {
        for n in 0..m {
            d.push(if k == 0 {
                first
            } else {
                via_f64(step * (n as f32 + 0.5) * k as f32, f64::cos) * scale
            });
        }
    }
    d
}

/// torchaudio's `_get_lifter_coeffs` (float).
fn lifter_f32(num_ceps: usize, q: f64) -> Vec<f32> {
    let (pi, q32, half) = (std::f64::consts::PI as f32, q as f32, (0.5 * q) as f32);
    (0..num_ceps)
        .map(|i| 1.0f32 + half * via_f64(pi * i as f32 / q32, f64::sin))
        .collect()
}

/// The window `torchaudio.compliance.kaldi` makes, in `T`'s arithmetic.
fn window<T: KaldiFloat>(kind: KaldiWindow, size: usize, blackman: f64) -> SkResult<Vec<T>> {
    let mut w = try_vec(size, T::ONE, "the window")?;
    let a = 2.0 * std::f64::consts::PI / (size - 1) as f64;
    let hann = |j: usize, alpha: f64, beta: f64| -> T {
        // torch.hamming_window: arange · (2π/(N−1)), cos, · (−β), + α
        let t = fc::<T>(j as f64) * fc::<T>(a);
        t.cos() * fc::<T>(-beta) + fc::<T>(alpha)
    };
    match kind {
        KaldiWindow::Rectangular => {}
        KaldiWindow::Hamming => w
            .iter_mut()
            .enumerate()
            .for_each(|(j, v)| *v = hann(j, 0.54, 0.46)),
        KaldiWindow::Hanning => w
            .iter_mut()
            .enumerate()
            .for_each(|(j, v)| *v = hann(j, 0.5, 0.5)),
        KaldiWindow::Povey => w
            .iter_mut()
            .enumerate()
            .for_each(|(j, v)| *v = hann(j, 0.5, 0.5).powf(fc::<T>(0.85))),
        KaldiWindow::Blackman => {
            let (c, a2, c2) = (fc::<T>(blackman), fc::<T>(2.0 * a), fc::<T>(0.5 - blackman));
            let (a1, half) = (fc::<T>(a), fc::<T>(0.5));
            for (j, v) in w.iter_mut().enumerate() {
                let jt = fc::<T>(j as f64);
                *v = c - half * (a1 * jt).cos() + c2 * (a2 * jt).cos();
            }
        }
    }
    Ok(w)
}

/// What every frame of one recipe shares. Immutable: one plan may run on any number of threads.
pub struct KaldiPlan<T: KaldiFloat> {
    pub feature: Feature,
    pub opts: KaldiOptions,
    pub shift: usize,
    pub size: usize,
    pub padded: usize,
    dim: usize,
    window: Vec<T>,
    fft: Arc<FftPlan<T>>,
    bands: Vec<Band<T>>,
    dct: Vec<T>,
    lifter: Vec<T>,
    eps: T,
    log_floor: Option<T>,
}

/// One thread's buffers for [`KaldiPlan::frame`]; made once ([`KaldiPlan::scratch`]), after
/// which no frame allocates.
pub struct FrameScratch<T: KaldiFloat> {
    /// The frame: the first `size` values are the samples [`KaldiPlan::frame`] reads.
    pub buf: Vec<T>,
    spec: Vec<Complex<T>>,
    mel: Vec<T>,
    power: Vec<T>,
    ws: Workspace<T>,
}

impl<T: KaldiFloat> KaldiPlan<T> {
    /// Checks the options for `feature` and makes the plan.
    pub fn new(feature: Feature, opts: KaldiOptions) -> SkResult<Self> {
        let g = opts.geometry(feature)?;
        let window = window::<T>(opts.window, g.size, opts.blackman_coeff)?;
        let fft = T::cached_real_plan(g.padded)?;
        let (mut bands, mut dct, mut lifter) = (Vec::new(), Vec::new(), Vec::new());
        if feature != Feature::Spectrogram {
            for (first, w) in mel_banks_f32(&opts, g.padded)? {
                bands.push(Band {
                    first,
                    w: w.iter().map(|&v| fc::<T>(v as f64)).collect(),
                });
            }
        }
        if feature == Feature::Mfcc {
            dct = dct_f32(opts.num_ceps, opts.num_mel_bins)
                .iter()
                .map(|&v| fc::<T>(v as f64))
                .collect();
            if opts.cepstral_lifter != 0.0 {
                lifter = lifter_f32(opts.num_ceps, opts.cepstral_lifter)
                    .iter()
                    .map(|&v| fc::<T>(v as f64))
                    .collect();
            }
        }
        let dim = match feature {
            Feature::Spectrogram => g.padded / 2 + 1,
            Feature::Fbank => opts.num_mel_bins + usize::from(opts.use_energy),
            Feature::Mfcc => opts.num_ceps,
        };
        let log_floor = (opts.energy_floor != 0.0).then(|| fc::<T>(opts.energy_floor.ln()));
        Ok(KaldiPlan {
            feature,
            opts,
            shift: g.shift,
            size: g.size,
            padded: g.padded,
            dim,
            window,
            fft,
            bands,
            dct,
            lifter,
            eps: fc::<T>(EPSILON),
            log_floor,
        })
    }

    /// The plan of `(feature, opts)` from a process-wide cache (made and cached on a miss, as
    /// FFT plans are): a one-shot call then costs no window, filterbank or DCT design, which
    /// for a few seconds of audio take longer than the features. Bounded: cleared when it holds
    /// more than 32 plans. Refused options are refused as by [`KaldiPlan::new`] (and not cached).
    ///
    /// The dither seed is not part of the plan: the cached plan has seed 0 and a call passes
    /// its seed to [`KaldiPlan::compute_seeded`], so that calls with fresh seeds share one plan.
    pub fn cached(feature: Feature, opts: KaldiOptions) -> SkResult<Arc<Self>> {
        static CACHE: PlanStore<(u8, [u64; 27])> = PlanStore::new(32);
        let opts = KaldiOptions { seed: 0, ..opts };
        CACHE.get_or_make((feature as u8, opts.bits()), || Self::new(feature, opts))
    }

    /// Values per frame.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Frames of an `n`-sample signal: 0 when it is shorter than `min_duration`; a signal
    /// shorter than one frame is refused, as torchaudio refuses it.
    pub fn frames(&self, n: usize) -> SkResult<usize> {
        if n < self.size {
            return Err(SkError::BadArgument(format!(
                "a signal of {n} samples is shorter than one frame ({} samples = frame_length \
                 {} ms at {} Hz)",
                self.size, self.opts.frame_length, self.opts.sample_frequency
            )));
        }
        if (n as f64) < self.opts.min_duration * self.opts.sample_frequency {
            return Ok(0);
        }
        Ok(self.frames_unchecked(n))
    }

    /// The frame count of `n ≥ size` samples by the `snip_edges` rule alone.
    pub fn frames_unchecked(&self, n: usize) -> usize {
        if self.opts.snip_edges {
            if n < self.size {
                0
            } else {
                1 + (n - self.size) / self.shift
            }
        } else {
            (n + self.shift / 2) / self.shift
        }
    }

    /// Index in the signal of sample `j` of frame `i` before reflection (may be negative or past
    /// the end when `snip_edges` is off).
    #[inline]
    pub fn first_sample(&self, i: usize) -> i64 {
        if self.opts.snip_edges {
            (i * self.shift) as i64
        } else {
            (i * self.shift) as i64 + (self.shift / 2) as i64 - (self.size / 2) as i64
        }
    }

    /// Fresh buffers for [`KaldiPlan::frame`].
    pub fn scratch(&self) -> SkResult<FrameScratch<T>> {
        Ok(FrameScratch {
            buf: try_vec(self.padded, T::ZERO, "the frame buffer")?,
            spec: try_vec(
                self.padded / 2 + 1,
                Complex::new(T::ZERO, T::ZERO),
                "the spectrum",
            )?,
            mel: try_vec(self.opts.num_mel_bins.max(1), T::ZERO, "the mel energies")?,
            power: try_vec(self.padded / 2 + 1, T::ZERO, "the power spectrum")?,
            ws: self.fft.workspace()?,
        })
    }

    /// Copies frame `i` of `x` (`n ≥ 1` samples) into `s.buf`, reflecting at the ends as Kaldi
    /// does (`x[−1−k] = x[k]`, `x[n+k] = x[n−1−k]`).
    pub fn extract(&self, x: &[T], i: usize, s: &mut FrameScratch<T>) {
        let n = x.len() as i64;
        let start = self.first_sample(i);
        let buf = &mut s.buf[..self.size];
        if start >= 0 && start + self.size as i64 <= n {
            buf.copy_from_slice(&x[start as usize..start as usize + self.size]);
            return;
        }
        for (j, v) in buf.iter_mut().enumerate() {
            let mut p = start + j as i64;
            loop {
                if p < 0 {
                    p = -p - 1;
                } else if p >= n {
                    p = 2 * n - 1 - p;
                } else {
                    break;
                }
            }
            *v = x[p as usize];
        }
    }

    /// `ln(max(Σ v², ε))`, floored at `ln(energy_floor)`.
    fn log_energy(&self, v: &[T]) -> T {
        self.log_of_energy(sum8(v, |a| a * a))
    }

    /// The log energy of a frame whose sum of squares is `e`.
    fn log_of_energy(&self, e: T) -> T {
        let le = maxp(e, self.eps).ln();
        match self.log_floor {
            Some(f) => maxp(le, f),
            None => le,
        }
    }

    /// The features of one frame whose `size` samples are in `s.buf` (destroyed), into `out`
    /// (`dim` values). `key` is the frame's dither stream ([`dither_key`]). Allocates nothing.
    pub fn frame(&self, s: &mut FrameScratch<T>, key: u64, out: &mut [T]) {
        let o = &self.opts;
        let size = self.size;
        let buf = &mut s.buf[..self.padded];
        let frame = &mut buf[..size];
        if o.dither != 0.0 {
            let d = fc::<T>(o.dither);
            for (p, pair) in frame.chunks_mut(2).enumerate() {
                let (g0, g1) = gauss_pair(key, p as u64);
                pair[0] = pair[0] + fc::<T>(g0) * d;
                if pair.len() > 1 {
                    pair[1] = pair[1] + fc::<T>(g1) * d;
                }
            }
        }
        let level: Level = crate::simd::current();
        let c = fc::<T>(o.preemphasis_coefficient);
        let sq = prepare(
            level,
            frame,
            &self.window,
            o.remove_dc_offset,
            o.raw_energy,
            o.preemphasis_coefficient != 0.0,
            c,
        );
        let raw = if o.raw_energy {
            self.log_of_energy(sq)
        } else {
            T::ZERO
        };
        buf[size..].fill(T::ZERO);
        let energy = if o.raw_energy {
            raw
        } else {
            self.log_energy(buf)
        };
        self.fft
            .rfft_ws(buf, &mut s.spec, Norm::Backward, &mut s.ws);
        let spec = &s.spec;
        match self.feature {
            Feature::Spectrogram => {
                out[0] = energy;
                let n = out.len() - 1;
                power(level, &spec[1..1 + n], &mut out[1..]);
                log_floor(level, &mut out[1..], self.eps);
            }
            Feature::Fbank | Feature::Mfcc => {
                // the power (or magnitude) spectrum once: neighbouring bands share bins
                let pw = &mut s.power[..spec.len()];
                power(level, spec, pw);
                if !o.use_power {
                    for p in pw.iter_mut() {
                        *p = p.sqrt();
                    }
                }
                mel_sums(level, pw, &self.bands, &mut s.mel);
                let mel = &mut s.mel[..o.num_mel_bins];
                if self.feature == Feature::Mfcc || o.use_log_fbank {
                    log_floor(level, mel, self.eps);
                }
                if self.feature == Feature::Fbank {
                    let (e_at, m_at) = match (o.use_energy, o.htk_compat) {
                        (false, _) => (None, 0),
                        (true, false) => (Some(0), 1),
                        (true, true) => (Some(o.num_mel_bins), 0),
                    };
                    out[m_at..m_at + mel.len()].copy_from_slice(mel);
                    if let Some(e) = e_at {
                        out[e] = energy;
                    }
                } else {
                    self.cepstra(mel, energy, out);
                }
            }
        }
    }

    /// DCT, lifter, energy and HTK order of the MFCC recipe.
    fn cepstra(&self, mel: &[T], energy: T, out: &mut [T]) {
        let o = &self.opts;
        let m = mel.len();
        for (k, y) in out.iter_mut().enumerate() {
            let row = &self.dct[k * m..(k + 1) * m];
            let mut acc = T::ZERO;
            for (&a, &b) in mel.iter().zip(row) {
                acc = acc + a * b;
            }
            *y = acc;
        }
        for (y, &l) in out.iter_mut().zip(&self.lifter) {
            *y = *y * l;
        }
        if o.use_energy {
            out[0] = energy;
        }
        if o.htk_compat {
            let mut c0 = out[0];
            if !o.use_energy {
                c0 = c0 * fc::<T>(std::f64::consts::SQRT_2);
            }
            out.copy_within(1.., 0);
            let last = out.len() - 1;
            out[last] = c0;
        }
    }

    /// Subtracts each column's mean over the `frames` rows of `y` (torchaudio's
    /// `subtract_mean`).
    pub fn subtract_mean(&self, y: &mut [T], frames: usize) {
        if frames == 0 {
            return;
        }
        let d = self.dim;
        let inv = fc::<T>(frames as f64);
        for c in 0..d {
            let mut s = T::ZERO;
            for f in 0..frames {
                s = s + y[f * d + c];
            }
            let mean = s / inv;
            for f in 0..frames {
                y[f * d + c] = y[f * d + c] - mean;
            }
        }
    }

    /// The features of `rows` signals of `n` samples, row `r` at `x[r·x_stride..]`, into `y`
    /// (`rows × frames × dim`, row-major; `frames` from [`KaldiPlan::frames`]). Row `r` dithers
    /// with stream `dither_key(seed, r, frame)`. Frames are split over the library's threads;
    /// the result does not depend on the split.
    pub fn compute(
        &self,
        x: &[T],
        x_stride: usize,
        rows: usize,
        n: usize,
        y: &mut [T],
    ) -> SkResult<()> {
        self.compute_seeded(self.opts.seed, x, x_stride, rows, n, y)
    }

    /// [`KaldiPlan::compute`] with the dither seed `seed` in place of the plan's.
    pub fn compute_seeded(
        &self,
        seed: u64,
        x: &[T],
        x_stride: usize,
        rows: usize,
        n: usize,
        y: &mut [T],
    ) -> SkResult<()> {
        let frames = self.frames(n)?;
        let d = self.dim;
        let total = rows * frames;
        if total == 0 {
            return Ok(());
        }
        let y = &mut y[..total * d];
        let work = total * self.padded * 8;
        par_rows_with(
            y,
            d,
            work,
            || self.scratch(),
            |s, first, chunk| {
                for (k, out) in chunk.chunks_exact_mut(d).enumerate() {
                    let g = first + k;
                    let (r, i) = (g / frames, g % frames);
                    let xr = &x[r * x_stride..r * x_stride + n];
                    self.extract(xr, i, s);
                    self.frame(s, dither_key(seed, r as u64, i as u64), out);
                }
            },
        )?;
        if self.opts.subtract_mean {
            for yr in y.chunks_exact_mut(frames * d) {
                self.subtract_mean(yr, frames);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;

    #[test]
    fn log_floor_is_ln_of_the_floored_value_at_every_level() {
        let eps = EPSILON as f32;
        let mut x: Vec<f32> = vec![
            0.0,
            -0.0,
            -1.0,
            1e-45,
            1e-38,
            eps,
            1.0,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        let mut rng = Rng::new(5);
        x.extend((0..200).map(|_| (rng.vec_f64(1, 40.0)[0] as f32).exp()));
        let mut want: Vec<f32> = x.iter().map(|&v| maxp(v, eps).ln()).collect();
        let first = {
            let mut v = x.clone();
            log_floor(Level::Scalar, &mut v, eps);
            v
        };
        for (&g, w) in first.iter().zip(want.iter_mut()) {
            if w.is_nan() {
                assert!(g.is_nan());
            } else if w.is_infinite() {
                assert_eq!(g, *w);
            } else {
                assert!(
                    (g - *w).abs() <= 2.0 * f32::EPSILON * w.abs().max(1.0),
                    "{g} {w}"
                );
            }
        }
        for level in crate::simd::available() {
            let mut v = x.clone();
            log_floor(level, &mut v, eps);
            assert!(v
                .iter()
                .zip(&first)
                .all(|(a, b)| a.to_bits() == b.to_bits()));
            let mut d: Vec<f64> = x.iter().map(|&v| v as f64).collect();
            log_floor(level, &mut d, EPSILON);
            for (&g, &xv) in d.iter().zip(&x) {
                let w = maxp(xv as f64, EPSILON).ln();
                assert!(
                    g.to_bits() == w.to_bits()
                        || (g.is_nan() && w.is_nan())
                        || (g - w).abs() <= 1e-15 * w.abs().max(1.0),
                    "{g} {w}"
                );
            }
        }
    }

    /// A plain f64 transcription of the recipe (naive DFT), torchaudio's steps one by one.
    fn reference(o: &KaldiOptions, feature: Feature, x: &[f64]) -> Vec<Vec<f64>> {
        let p = KaldiPlan::<f64>::new(feature, *o).unwrap();
        let frames = p.frames(x.len()).unwrap();
        let win = window::<f64>(o.window, p.size, o.blackman_coeff).unwrap();
        let banks = if feature == Feature::Spectrogram {
            vec![]
        } else {
            mel_banks_f32(o, p.padded).unwrap()
        };
        let mut res = vec![];
        for i in 0..frames {
            let mut f: Vec<f64> = (0..p.size)
                .map(|j| {
                    let mut q = p.first_sample(i) + j as i64;
                    let n = x.len() as i64;
                    while q < 0 || q >= n {
                        q = if q < 0 { -q - 1 } else { 2 * n - 1 - q };
                    }
                    x[q as usize]
                })
                .collect();
            if o.remove_dc_offset {
                let m = f.iter().sum::<f64>() / f.len() as f64;
                f.iter_mut().for_each(|v| *v -= m);
            }
            let le = |v: &[f64]| {
                let e = v.iter().map(|a| a * a).sum::<f64>().max(EPSILON).ln();
                if o.energy_floor > 0.0 {
                    e.max(o.energy_floor.ln())
                } else {
                    e
                }
            };
            let raw = le(&f);
            let c = o.preemphasis_coefficient;
            let mut g = f.clone();
            for j in 0..f.len() {
                g[j] = f[j] - c * f[j.saturating_sub(1)];
            }
            let mut w: Vec<f64> = g.iter().zip(&win).map(|(a, b)| a * b).collect();
            w.resize(p.padded, 0.0);
            let energy = if o.raw_energy { raw } else { le(&w) };
            let nb = p.padded / 2 + 1;
            let pw: Vec<f64> = (0..nb)
                .map(|k| {
                    let (mut re, mut im) = (0.0, 0.0);
                    for (j, v) in w.iter().enumerate() {
                        let a = -2.0 * std::f64::consts::PI * (j * k) as f64 / p.padded as f64;
                        re += v * a.cos();
                        im += v * a.sin();
                    }
                    re * re + im * im
                })
                .collect();
            let row = match feature {
                Feature::Spectrogram => {
                    let mut r: Vec<f64> = pw.iter().map(|v| v.max(EPSILON).ln()).collect();
                    r[0] = energy;
                    r
                }
                _ => {
                    let mel: Vec<f64> = banks
                        .iter()
                        .map(|(first, ws)| {
                            let s: f64 = ws
                                .iter()
                                .enumerate()
                                .map(|(k, &wt)| wt as f64 * pw[first + k])
                                .sum();
                            s.max(EPSILON).ln()
                        })
                        .collect();
                    if feature == Feature::Fbank {
                        let mut r = vec![];
                        if o.use_energy {
                            r.push(energy);
                        }
                        r.extend(mel);
                        r
                    } else {
                        let m = mel.len();
                        let d = dct_f32(o.num_ceps, m);
                        let l = lifter_f32(o.num_ceps, o.cepstral_lifter);
                        (0..o.num_ceps)
                            .map(|k| {
                                (0..m).map(|q| mel[q] * d[k * m + q] as f64).sum::<f64>()
                                    * l[k] as f64
                            })
                            .collect()
                    }
                }
            };
            res.push(row);
        }
        res
    }

    fn run(o: &KaldiOptions, feature: Feature, x: &[f64]) -> Vec<f64> {
        let p = KaldiPlan::<f64>::new(feature, *o).unwrap();
        let fr = p.frames(x.len()).unwrap();
        let mut y = vec![f64::NAN; fr * p.dim()];
        p.compute(x, x.len(), 1, x.len(), &mut y).unwrap();
        y
    }

    #[test]
    fn features_match_a_naive_transcription() {
        let mut rng = Rng::new(7);
        let x = rng.vec_f64(1234, 0.5);
        for feature in [Feature::Spectrogram, Feature::Fbank, Feature::Mfcc] {
            for snip in [true, false] {
                for window in [
                    KaldiWindow::Povey,
                    KaldiWindow::Blackman,
                    KaldiWindow::Hamming,
                ] {
                    let o = KaldiOptions {
                        sample_frequency: 8000.0,
                        snip_edges: snip,
                        window,
                        use_energy: feature == Feature::Fbank,
                        ..KaldiOptions::default()
                    };
                    let got = run(&o, feature, &x);
                    let want: Vec<f64> = reference(&o, feature, &x).concat();
                    assert_eq!(got.len(), want.len());
                    for (a, b) in got.iter().zip(&want) {
                        assert!(
                            (a - b).abs() <= 1e-9 * b.abs().max(1.0),
                            "{feature:?} {a} {b}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn batch_rows_equal_single_rows_and_dither_is_seeded() {
        let mut rng = Rng::new(3);
        let n = 3000;
        let x = rng.vec_f32(3 * n, 0.3);
        let o = KaldiOptions {
            dither: 1e-3,
            seed: 11,
            ..KaldiOptions::default()
        };
        let p = KaldiPlan::<f32>::new(Feature::Fbank, o).unwrap();
        let fr = p.frames(n).unwrap();
        let d = p.dim();
        let mut all = vec![0.0f32; 3 * fr * d];
        p.compute(&x, n, 3, n, &mut all).unwrap();
        let mut again = vec![0.0f32; 3 * fr * d];
        p.compute(&x, n, 3, n, &mut again).unwrap();
        assert_eq!(all, again);
        // row 0 alone is row 0 of the batch (its dither stream depends on the row only)
        let mut one = vec![0.0f32; fr * d];
        p.compute(&x[..n], n, 1, n, &mut one).unwrap();
        assert_eq!(&all[..fr * d], &one[..]);
        let o2 = KaldiOptions { seed: 12, ..o };
        let p2 = KaldiPlan::<f32>::new(Feature::Fbank, o2).unwrap();
        p2.compute(&x[..n], n, 1, n, &mut one).unwrap();
        assert_ne!(&all[..fr * d], &one[..]);
    }

    #[test]
    fn plans_are_cached_per_type_feature_and_options() {
        let o = KaldiOptions {
            num_mel_bins: 37,
            ..KaldiOptions::default()
        };
        let a = KaldiPlan::<f32>::cached(Feature::Fbank, o).unwrap();
        assert!(Arc::ptr_eq(
            &a,
            &KaldiPlan::<f32>::cached(Feature::Fbank, o).unwrap()
        ));
        let b = KaldiPlan::<f32>::cached(Feature::Mfcc, o).unwrap();
        assert!(b.feature == Feature::Mfcc && b.dim() == o.num_ceps);
        // the seed is the call's, not the plan's: one plan serves every seed
        let seeded = KaldiOptions { seed: 9, ..o };
        assert!(Arc::ptr_eq(
            &a,
            &KaldiPlan::<f32>::cached(Feature::Fbank, seeded).unwrap()
        ));
        let d = KaldiPlan::<f64>::cached(Feature::Fbank, o).unwrap();
        assert_eq!(d.dim(), 37);
        let bad = KaldiOptions {
            frame_shift: 0.0,
            ..o
        };
        assert!(KaldiPlan::<f32>::cached(Feature::Fbank, bad).is_err());
        assert!(KaldiPlan::<f32>::cached(Feature::Fbank, bad).is_err());
    }

    #[test]
    fn gaussian_pairs_have_unit_variance() {
        let (mut s, mut s2, n) = (0.0, 0.0, 200_000u64);
        for p in 0..n / 2 {
            let (a, b) = gauss_pair(dither_key(5, 0, p / 100), p);
            s += a + b;
            s2 += a * a + b * b;
        }
        let mean = s / n as f64;
        let var = s2 / n as f64 - mean * mean;
        assert!(
            mean.abs() < 0.01 && (var - 1.0).abs() < 0.02,
            "{mean} {var}"
        );
    }

    #[test]
    fn options_are_checked() {
        let bad = [
            KaldiOptions {
                num_mel_bins: 3,
                ..KaldiOptions::default()
            },
            KaldiOptions {
                frame_shift: 0.0,
                ..KaldiOptions::default()
            },
            KaldiOptions {
                round_to_power_of_two: false,
                frame_length: 25.0625,
                ..KaldiOptions::default()
            },
            KaldiOptions {
                high_freq: 9000.0,
                ..KaldiOptions::default()
            },
            KaldiOptions {
                vtln_warp: 1.1,
                vtln_low: 10.0,
                ..KaldiOptions::default()
            },
            KaldiOptions {
                num_ceps: 24,
                ..KaldiOptions::default()
            },
            KaldiOptions {
                sample_frequency: f64::NAN,
                ..KaldiOptions::default()
            },
        ];
        for o in bad {
            assert!(KaldiPlan::<f64>::new(Feature::Mfcc, o).is_err(), "{o:?}");
        }
        let p = KaldiPlan::<f64>::new(Feature::Fbank, KaldiOptions::default()).unwrap();
        assert!(p.frames(399).is_err());
        assert_eq!(p.frames(400).unwrap(), 1);
        let o = KaldiOptions {
            min_duration: 1.0,
            ..KaldiOptions::default()
        };
        let p = KaldiPlan::<f64>::new(Feature::Fbank, o).unwrap();
        assert_eq!(p.frames(15999).unwrap(), 0);
        assert_eq!(p.frames(16000).unwrap(), 98);
    }
}
