//! The anti-aliasing / anti-imaging kernel of the resampler: a Kaiser-windowed sinc, designed
//! from a passband edge, a stopband start and a stopband attenuation, and sampled into phase
//! tables.
//!
//! Frequencies of a [`Spec`] are fractions of the Nyquist frequency of the *lower* of the two
//! rates. The stopband starts at or below that Nyquist frequency (`stop <= 1`), so nothing
//! above it folds back below it by more than the stopband floor.
//!
//! The kernel is a continuous function `g(τ)` of the distance `τ` (in input samples) between an
//! output instant and an input sample: `y(t) = Σ_i x[i]·g(t − i)`. For an output at
//! `t = i0 + frac` (`0 <= frac < 1`) the window is `x[i0 − A .. i0 − A + K]` and its
//! coefficients are `c[j] = g(frac + A − j)`; `K` is a multiple of [`TAP_BLOCK`] so the dot
//! products run in whole SIMD blocks.

use crate::error::{SkError, SkResult};
use crate::kernels::filter::design::bessel_i0;
use crate::kernels::Float;
use std::any::{Any, TypeId};
use std::f64::consts::PI;
use std::sync::{Arc, Mutex, OnceLock};

/// Taps per window are a multiple of this (the dot products' 8 partial sums).
pub(crate) const TAP_BLOCK: usize = 8;

/// Quality presets. Each is a [`Spec`]; see [`Quality::spec`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quality {
    Quick,
    Low,
    Medium,
    High,
    VeryHigh,
}

impl Quality {
    /// The preset's C value (`SK_RESAMPLE_QUICK` = 0 … `SK_RESAMPLE_VERY_HIGH` = 4).
    pub fn from_code(code: i32) -> Option<Quality> {
        Some(match code {
            0 => Quality::Quick,
            1 => Quality::Low,
            2 => Quality::Medium,
            3 => Quality::High,
            4 => Quality::VeryHigh,
            _ => return None,
        })
    }

    /// Passband edge, stopband start (fractions of the lower Nyquist frequency) and stopband
    /// attenuation in dB.
    pub fn spec(self) -> Spec {
        let (pass, stop, atten_db) = match self {
            Quality::Quick => (0.70, 1.0, 60.0),
            Quality::Low => (0.80, 1.0, 96.0),
            Quality::Medium => (0.90, 1.0, 110.0),
            Quality::High => (0.913, 1.0, 135.0),
            Quality::VeryHigh => (0.913, 1.0, 175.0),
        };
        Spec {
            pass,
            stop,
            atten_db,
            phase: Phase::Linear,
        }
    }
}

/// The phase response of the resampler's filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Symmetric filters: every frequency is delayed by the same time (the latency), with
    /// ringing before and after a transient.
    Linear,
    /// The steep first-stage filter is made minimum phase with the same magnitude response
    /// (see [`minimum_phase`]): the delay shrinks to the filter's low-frequency group delay
    /// and the ringing comes after a transient only; the phase is no longer linear near the
    /// band edge. The short second-stage interpolator stays symmetric.
    Minimum,
}

impl Phase {
    /// The C value (`SK_RESAMPLE_LINEAR_PHASE` = 0, `SK_RESAMPLE_MINIMUM_PHASE` = 1).
    pub fn from_code(code: i32) -> Option<Phase> {
        match code {
            0 => Some(Phase::Linear),
            1 => Some(Phase::Minimum),
            _ => None,
        }
    }
}

/// A custom filter specification.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spec {
    /// Passband edge, a fraction of the lower Nyquist frequency, in `(0, stop)`.
    pub pass: f64,
    /// Stopband start, a fraction of the lower Nyquist frequency, in `(pass, 1]`.
    pub stop: f64,
    /// Stopband attenuation in dB, in `[40, 200]`.
    pub atten_db: f64,
    /// Linear or minimum phase.
    pub phase: Phase,
}

impl Spec {
    /// Checks the ranges documented on the fields.
    pub fn validate(&self) -> SkResult<()> {
        let Spec {
            pass,
            stop,
            atten_db,
            ..
        } = *self;
        if !(stop.is_finite() && stop > 0.0 && stop <= 1.0) {
            return Err(SkError::BadArgument(format!(
                "stopband start = {stop} must be in (0, 1] (a fraction of the lower Nyquist \
                 frequency)"
            )));
        }
        if !(pass.is_finite() && pass > 0.0 && pass < stop) {
            return Err(SkError::BadArgument(format!(
                "passband edge = {pass} must be in (0, stopband start = {stop})"
            )));
        }
        if !(atten_db.is_finite() && (40.0..=200.0).contains(&atten_db)) {
            return Err(SkError::BadArgument(format!(
                "stopband attenuation = {atten_db} dB must be in [40, 200]"
            )));
        }
        Ok(())
    }
}

/// The continuous kernel for one conversion ratio.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Cutoff in cycles per input sample (the middle of the transition band).
    fc: f64,
    /// Half-width of the support in input samples: `g(τ) = 0` for `|τ| >= half`.
    half: f64,
    beta: f64,
    i0_beta: f64,
    /// Window offset `A`: the window of an output at `i0 + frac` starts at `i0 − A`.
    pub offset: usize,
    /// Window length `K` (a multiple of [`TAP_BLOCK`]).
    pub taps: usize,
}

/// The most taps a window may have (downsampling by 256 at 200 dB needs about 2¹⁷).
pub(crate) const MAX_TAPS: usize = 1 << 20;

impl Kernel {
    /// A kernel passing `[0, f_pass]` and stopping from `f_stop` on (cycles per sample of the
    /// signal it reads, `0 < f_pass < f_stop`) at `atten_db` of attenuation. `what` names the
    /// filter in the error when it would need more than [`MAX_TAPS`] taps.
    pub fn with_edges(f_pass: f64, f_stop: f64, atten_db: f64, what: &str) -> SkResult<Kernel> {
        let a = atten_db;
        let beta = if a > 50.0 {
            0.1102 * (a - 8.7)
        } else {
            0.5842 * (a - 21.0).powf(0.4) + 0.07886 * (a - 21.0)
        };
        // Kaiser's length estimate, in input samples.
        let len = (a - 7.95) / (14.36 * (f_stop - f_pass)) + 1.0;
        let half = 0.5 * len;
        // g(frac + A − j) ≠ 0 only for j in 0 ..= 2·floor(half) + 1 when A = floor(half)
        let offset_f = half.floor();
        let taps_f = (2.0 * offset_f + 2.0) / TAP_BLOCK as f64;
        if !(taps_f.is_finite() && taps_f.ceil() * (TAP_BLOCK as f64) <= MAX_TAPS as f64) {
            return Err(SkError::BadArgument(format!(
                "the filter for {what} and this spec needs more than {MAX_TAPS} taps; widen \
                 the transition band or lower the attenuation"
            )));
        }
        let offset = offset_f as usize;
        let taps = (2 * offset + 2).div_ceil(TAP_BLOCK) * TAP_BLOCK;
        Ok(Kernel {
            fc: 0.5 * (f_pass + f_stop),
            half,
            beta,
            i0_beta: bessel_i0(beta),
            offset,
            taps,
        })
    }

    /// The bits that identify the kernel's shape (cutoff, half-width, Kaiser beta).
    pub(crate) fn id_bits(&self) -> [u64; 3] {
        [self.fc.to_bits(), self.half.to_bits(), self.beta.to_bits()]
    }

    /// Half-width of the support in input samples.
    pub fn half_width(&self) -> f64 {
        self.half
    }

    /// `g(τ)`: `2·fc·sinc(2·fc·τ)` under a Kaiser window of half-width `half`.
    pub fn eval(&self, tau: f64) -> f64 {
        let x = tau / self.half;
        if x.abs() >= 1.0 {
            return 0.0;
        }
        let w = bessel_i0(self.beta * (1.0 - x * x).sqrt()) / self.i0_beta;
        let arg = 2.0 * self.fc * tau;
        let s = if arg == 0.0 {
            1.0
        } else {
            (PI * arg).sin() / (PI * arg)
        };
        2.0 * self.fc * s * w
    }

    /// The `K` window coefficients of an output at fractional position `frac`.
    pub fn row(&self, frac: f64, out: &mut [f64]) {
        for (j, c) in out.iter_mut().enumerate() {
            *c = self.eval(frac + self.offset as f64 - j as f64);
        }
    }

    /// A table of `rows` windows, row `r` at `frac = (r as f64 + first) / den`, rounded to `T`.
    /// Fallible allocation. Tables are kept in a small process-wide cache (see
    /// [`cached_table`]), so a second stream or one-shot call with the same kernel does not
    /// design it again.
    pub fn table<T: Float>(&self, rows: usize, first: f64, den: f64) -> SkResult<Coefs<T>> {
        cached_table(self, rows, first, den)
    }

    /// The uncached design of [`table`](Self::table). When `first` and `den` are integers
    /// every tap sits at a multiple of `1/den` and the kernel is even, so each distinct
    /// `|τ|` is evaluated once (about half of the taps).
    fn design_table<T: Float>(&self, rows: usize, first: f64, den: f64) -> SkResult<Coefs<T>> {
        let n = rows.checked_mul(self.taps).ok_or_else(too_big)?;
        // room to start the table on a 64-byte boundary (rows are a multiple of 64 bytes long,
        // so every row starts on one and no coefficient load crosses a cache line)
        let pad = 64 / std::mem::size_of::<T>();
        let mut t: Vec<T> = Vec::new();
        t.try_reserve_exact(n.checked_add(pad).ok_or_else(too_big)?)
            .map_err(|_| {
                SkError::Allocation(format!(
                    "could not allocate the {rows} × {} coefficient table",
                    self.taps
                ))
            })?;
        let off = match t.as_ptr().align_offset(64) {
            o if o < pad => o,
            _ => 0,
        };
        t.resize(off, T::ZERO);
        let grid = first.fract() == 0.0 && den.fract() == 0.0 && (1.0..=1e7).contains(&den);
        if grid {
            // τ = (r + first + den·(offset − j)) / den = u / den, u an integer; g(u/den) for
            // |u| < half·den, memoised by |u|
            let d = den as i64;
            let umax = (self.half * den).ceil() as usize + 1;
            let mut memo: Vec<f64> = Vec::new();
            memo.try_reserve_exact(umax)
                .map_err(|_| SkError::Allocation("could not allocate the kernel samples".into()))?;
            memo.extend((0..umax).map(|u| self.eval(u as f64 / den)));
            let first = first as i64;
            for r in 0..rows as i64 {
                for j in 0..self.taps as i64 {
                    let u = (r + first + d * (self.offset as i64 - j)).unsigned_abs() as usize;
                    let v = if u < umax {
                        memo[u]
                    } else {
                        self.eval(u as f64 / den)
                    };
                    t.push(T::from_f64(v));
                }
            }
        } else {
            let mut row = vec![0.0; self.taps];
            for r in 0..rows {
                self.row((r as f64 + first) / den, &mut row);
                t.extend(row.iter().map(|&v| T::from_f64(v)));
            }
        }
        Ok(Coefs {
            buf: Arc::new(t),
            off,
            len: n,
        })
    }

    fn cache_key<T: 'static>(&self, rows: usize, first: f64, den: f64) -> CacheKey {
        CacheKey {
            ty: TypeId::of::<T>(),
            kind: 0,
            bits: [
                self.fc.to_bits(),
                self.half.to_bits(),
                self.beta.to_bits(),
                first.to_bits(),
                den.to_bits(),
            ],
            sizes: [self.offset, self.taps, rows],
        }
    }
}

/// A coefficient table: `len` values from `off` of a shared buffer (the offset aligns the
/// table to 64 bytes).
#[derive(Clone, Debug)]
pub struct Coefs<T> {
    buf: Arc<Vec<T>>,
    off: usize,
    len: usize,
}

impl<T> Coefs<T> {
    /// Coefficients held in `v` (not aligned).
    pub(crate) fn from_vec(v: Vec<T>) -> Coefs<T> {
        let len = v.len();
        Coefs {
            buf: Arc::new(v),
            off: 0,
            len,
        }
    }

    /// The coefficients.
    pub fn get(&self) -> &[T] {
        &self.buf[self.off..self.off + self.len]
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct CacheKey {
    pub(crate) ty: TypeId,
    /// What the entry is: 0 a phase table, 1 a pre-filter spectrum.
    pub(crate) kind: u8,
    pub(crate) bits: [u64; 5],
    pub(crate) sizes: [usize; 3],
}

type CacheEntry = (CacheKey, Arc<dyn Any + Send + Sync>, usize);

/// What the cache holds for one table.
type Cached<T> = (Arc<Vec<T>>, usize, usize);

/// Tables of at most this many coefficients are cached.
const CACHE_MAX_TABLE: usize = 1 << 20;
/// The cache holds at most this many coefficients in all (oldest entries go first).
const CACHE_MAX_TOTAL: usize = 1 << 22;

fn cache() -> &'static Mutex<Vec<CacheEntry>> {
    static C: OnceLock<Mutex<Vec<CacheEntry>>> = OnceLock::new();
    C.get_or_init(|| Mutex::new(Vec::new()))
}

/// The table of `kernel` (see [`Kernel::table`]) from the process-wide cache, designing and
/// inserting it on a miss.
pub(crate) fn cached_table<T: Float>(
    kernel: &Kernel,
    rows: usize,
    first: f64,
    den: f64,
) -> SkResult<Coefs<T>> {
    cached(kernel.cache_key::<T>(rows, first, den), || {
        kernel.design_table::<T>(rows, first, den)
    })
}

/// The coefficients under `key` from the process-wide cache, made by `make` and inserted on a
/// miss. The cache is bounded ([`CACHE_MAX_TOTAL`] coefficients, entries above
/// [`CACHE_MAX_TABLE`] are not kept); the values are the same whether they come from the cache
/// or not.
pub(crate) fn cached<T: Float>(
    key: CacheKey,
    make: impl FnOnce() -> SkResult<Coefs<T>>,
) -> SkResult<Coefs<T>> {
    {
        let mut c = cache().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = c.iter().position(|e| e.0 == key) {
            let e = c.remove(i);
            let hit = e.1.clone().downcast::<Cached<T>>().ok();
            c.push(e);
            if let Some(h) = hit {
                return Ok(Coefs {
                    buf: h.0.clone(),
                    off: h.1,
                    len: h.2,
                });
            }
        }
    }
    let t = make()?;
    let n = t.len;
    if n <= CACHE_MAX_TABLE {
        let mut c = cache().lock().unwrap_or_else(|e| e.into_inner());
        if !c.iter().any(|e| e.0 == key) && c.try_reserve(1).is_ok() {
            let mut total: usize = c.iter().map(|e| e.2).sum::<usize>() + n;
            while total > CACHE_MAX_TOTAL && !c.is_empty() {
                total -= c.remove(0).2;
            }
            let entry: Cached<T> = (t.buf.clone(), t.off, t.len);
            c.push((key, Arc::new(entry), n));
        }
    }
    Ok(t)
}

/// The longest filter [`minimum_phase`] converts.
pub(crate) const MAX_MIN_PHASE_TAPS: usize = 1 << 17;

/// The minimum-phase filter of `h.len()` taps with the magnitude response of `h`, by the
/// cepstral (homomorphic) method, and its group delay at 0 Hz in samples
/// (`Σ i·h[i] / Σ h[i]`).
///
/// The log magnitude of `h` on `N` points (`N` a power of two, at least 64 times the length,
/// so the cepstrum's time aliasing stays small), floored at `atten_db + 40` dB below the peak
/// (the zeros of the stopband would otherwise give `log 0`; the floor lies below every
/// sidelobe of a filter designed for `atten_db`); its real cepstrum folded onto the positive
/// quefrencies gives the log spectrum of the minimum-phase filter, whose inverse transform is
/// cut to the length of `h`. The tests measure the result: the passband within 10⁻⁴ dB of
/// `h`'s and the stopband peak within 1 dB. `h` must be a lowpass (positive sum) of at most
/// [`MAX_MIN_PHASE_TAPS`] taps.
pub(crate) fn minimum_phase(h: &[f64], atten_db: f64) -> SkResult<(Vec<f64>, f64)> {
    use crate::kernels::alloc::try_vec;
    use crate::kernels::spectral::fft::{Norm, PlanCache};
    use crate::kernels::spectral::Complex;
    const WHAT: &str = "the minimum-phase design's buffers";
    if h.is_empty() || h.len() > MAX_MIN_PHASE_TAPS {
        return Err(SkError::BadArgument(format!(
            "a minimum-phase filter of {} taps is not supported (at most {MAX_MIN_PHASE_TAPS}); \
             widen the transition band or lower the attenuation",
            h.len()
        )));
    }
    let n = (64 * h.len()).next_power_of_two().max(1024);
    let plan = f64::cached_real_plan(n)?;
    let mut ws = plan.workspace()?;
    let mut x = try_vec(n, 0.0f64, WHAT)?;
    x[..h.len()].copy_from_slice(h);
    let mut spec = try_vec(n / 2 + 1, Complex::new(0.0f64, 0.0), WHAT)?;
    plan.rfft_ws(&x, &mut spec, Norm::Backward, &mut ws);
    let peak = spec.iter().map(|c| c.re.hypot(c.im)).fold(0.0, f64::max);
    let floor = peak * 10f64.powf(-(atten_db + 40.0) / 20.0);
    for c in spec.iter_mut() {
        *c = Complex::new(c.re.hypot(c.im).max(floor).ln(), 0.0);
    }
    // the real cepstrum (even), folded: c[0], 2·c[1 .. N/2], c[N/2], zeros
    plan.irfft_ws(&spec, &mut x, Norm::Backward, &mut ws);
    for v in x[1..n / 2].iter_mut() {
        *v *= 2.0;
    }
    x[n / 2 + 1..].iter_mut().for_each(|v| *v = 0.0);
    plan.rfft_ws(&x, &mut spec, Norm::Backward, &mut ws);
    for c in spec.iter_mut() {
        let m = c.re.exp();
        *c = Complex::new(m * c.im.cos(), m * c.im.sin());
    }
    plan.irfft_ws(&spec, &mut x, Norm::Backward, &mut ws);
    x.truncate(h.len());
    let sum: f64 = x.iter().sum();
    let moment: f64 = x.iter().enumerate().map(|(i, v)| i as f64 * v).sum();
    if !(sum > 0.0 && moment.is_finite()) {
        return Err(SkError::Internal(
            "the minimum-phase design did not give a lowpass filter".into(),
        ));
    }
    Ok((x, moment / sum))
}

fn too_big() -> SkError {
    SkError::Length("the coefficient table size overflows".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `|H(f)|` of taps `h` at `f` cycles per sample (direct sum).
    fn mag(h: &[f64], f: f64) -> f64 {
        let (mut re, mut im) = (0.0, 0.0);
        for (i, v) in h.iter().enumerate() {
            let w = 2.0 * PI * f * i as f64;
            re += v * w.cos();
            im -= v * w.sin();
        }
        re.hypot(im)
    }

    /// The minimum-phase filter keeps the magnitude response (passband within 10⁻⁴ dB,
    /// stopband peak within 1 dB of the linear filter's), front-loads the energy (every prefix
    /// holds at least the linear filter's energy, as the minimum-phase filter of a magnitude
    /// must), and its low-frequency group delay is a small part of the linear `D`.
    #[test]
    fn minimum_phase_keeps_the_magnitude() {
        for (q, fp, fs) in [
            (Quality::High, 0.2, 0.22),
            (Quality::VeryHigh, 0.2, 0.22),
            (Quality::Quick, 0.1, 0.2),
        ] {
            let a = q.spec().atten_db;
            let k = Kernel::with_edges(fp, fs, a, "test").unwrap();
            let d = k.half_width().floor() as usize;
            let h: Vec<f64> = (0..2 * d + 1)
                .map(|i| k.eval(i as f64 - d as f64))
                .collect();
            let (m, lead) = minimum_phase(&h, a).unwrap();
            assert_eq!(m.len(), h.len());
            assert!(
                lead > 0.0 && lead < 0.25 * d as f64,
                "{q:?}: lead {lead}, D {d}"
            );
            let mut worst_pass = 0.0f64;
            for i in 0..=200 {
                let f = fp * i as f64 / 200.0;
                let r = mag(&m, f) / mag(&h, f);
                worst_pass = worst_pass.max((20.0 * r.log10()).abs());
            }
            assert!(worst_pass < 1e-4, "{q:?}: passband {worst_pass:e} dB");
            let (mut stop_h, mut stop_m) = (0.0f64, 0.0f64);
            for i in 0..=2000 {
                let f = fs + (0.5 - fs) * i as f64 / 2000.0;
                stop_h = stop_h.max(mag(&h, f));
                stop_m = stop_m.max(mag(&m, f));
            }
            let (sh, sm) = (20.0 * stop_h.log10(), 20.0 * stop_m.log10());
            assert!(sm < sh + 1.0, "{q:?}: stopband {sm:.1} vs {sh:.1} dB");
            // (to 10⁻⁵ of the total: the magnitudes agree to about that)
            let total: f64 = h.iter().map(|v| v * v).sum();
            let (mut eh, mut em) = (0.0, 0.0);
            for (x, y) in h.iter().zip(&m) {
                eh += x * x;
                em += y * y;
                assert!(em >= eh - 1e-5 * total, "{q:?}: partial energy {em} < {eh}");
            }
        }
        assert!(minimum_phase(&[], 100.0).is_err());
        assert!(minimum_phase(&vec![1.0; MAX_MIN_PHASE_TAPS + 1], 100.0).is_err());
    }

    #[test]
    fn presets_are_valid_and_ordered() {
        let q = [
            Quality::Quick,
            Quality::Low,
            Quality::Medium,
            Quality::High,
            Quality::VeryHigh,
        ];
        for (i, w) in q.windows(2).enumerate() {
            assert!(w[0].spec().atten_db < w[1].spec().atten_db);
            assert_eq!(Quality::from_code(i as i32), Some(w[0]));
        }
        for p in q {
            p.spec().validate().unwrap();
        }
        assert_eq!(Quality::from_code(5), None);
        assert_eq!(Quality::from_code(-1), None);
    }

    #[test]
    fn spec_ranges() {
        let ok = Spec {
            pass: 0.9,
            stop: 1.0,
            atten_db: 100.0,
            phase: Phase::Minimum,
        };
        ok.validate().unwrap();
        for bad in [
            Spec { pass: 1.0, ..ok },
            Spec { pass: 0.0, ..ok },
            Spec { stop: 1.1, ..ok },
            Spec {
                stop: f64::NAN,
                ..ok
            },
            Spec {
                atten_db: 39.0,
                ..ok
            },
            Spec {
                atten_db: f64::INFINITY,
                ..ok
            },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
    }

    /// The rows of every phase sum to about 1 (unit DC gain), the window covers the support and
    /// the kernel is symmetric.
    #[test]
    fn kernel_shape() {
        for ratio in [0.25, 147.0 / 160.0, 1.0, 160.0 / 147.0, 3.0] {
            let (s, scale) = (Quality::High.spec(), 0.5 * f64::min(ratio, 1.0));
            let k = Kernel::with_edges(s.pass * scale, s.stop * scale, s.atten_db, "test").unwrap();
            assert_eq!(k.taps % TAP_BLOCK, 0);
            assert!(k.offset as f64 + 1.0 > k.half && k.taps >= k.offset * 2 + 2);
            for frac in [0.0, 0.25, 0.5, 0.999] {
                // the window holds the whole support: the kernel is zero just outside it
                let (a, kk) = (k.offset as f64, k.taps as f64);
                assert_eq!(k.eval(frac + a + 1.0), 0.0);
                assert_eq!(k.eval(frac + a - kk), 0.0);
                let mut r = vec![0.0; k.taps];
                k.row(frac, &mut r);
                let s: f64 = r.iter().sum();
                assert!((s - 1.0).abs() < 1e-6, "ratio {ratio} frac {frac}: {s}");
            }
            for tau in [0.3, 1.7, 10.2] {
                assert_eq!(k.eval(tau), k.eval(-tau));
            }
            assert_eq!(k.eval(k.half), 0.0);
            assert!((k.eval(0.0) - 2.0 * k.fc).abs() < 1e-15);
        }
    }
}
