//! The streaming resampler and the one-shot conversion built on it.
//!
//! **Two stages.** The input first goes through [`Pre`]: the spec's sharp lowpass as an FFT
//! convolution, upsampling by `U` (2, or 1 when the output rate is at most half the input
//! rate). Its output, the *stage signal* at `U` times the input rate, holds nothing above a
//! quarter of its rate but the stopband floor, so the polyphase stage that takes it to the
//! output rate needs only a short kernel (a transition band from the kept band to its first
//! image). Both filters are symmetric, so the stages together have linear phase, unless the
//! spec asks for minimum phase: then the first stage's filter is the minimum-phase filter of
//! the same magnitude response (see [`Phase`](super::design::Phase)).
//!
//! **Time.** Output `n` of a stream sits at input time `t_n` (in input samples); the stream's
//! first output sits `latency` output periods before input sample 0, so the stream is the
//! one-shot output delayed by exactly `latency` samples (the group delay is exactly
//! `latency`). The clock runs on the stage signal, whose sample `j` stands for input time
//! `(j − D)/U` (`D` the first stage's delay; for minimum phase its group delay at 0 Hz, and the
//! alignment holds at low frequencies). Times are integers in units of `1/den`: for a
//! rational ratio `out/(U·in) = L/M` (with `L` no more than [`MAX_PHASES`]) `den = L` and a
//! step is exactly `M` units, each output using one of `L` precomputed phases; otherwise
//! `den = 2⁴⁰`, the step is `round(2⁴⁰·U·in/out)` units, and each output interpolates (cubic
//! Lagrange) between four of `P` precomputed phases. Either way the arithmetic is integer and
//! the first stage's blocks sit at fixed input positions, so any split of the input gives
//! bit-identical output, and output counts have closed forms.
//!
//! **Ratio changes.** [`Resampler::set_ratio`] moves the step linearly, output by output, to the
//! new value over a given number of outputs: the output instants stay continuous and only their
//! spacing changes, so there is no click. The filter stays the one designed for the creation
//! ratio.

// Lane loops index several fixed-size arrays by the same lane number.
#![allow(clippy::needless_range_loop)]

use super::design::{Coefs, Kernel, Phase, Spec};
use super::dot::{run_at, Dot, Job};
use super::pre::{up_factor, Pre, PreWs};
use crate::error::{SkError, SkResult};
use crate::kernels::layout::Layout;
use crate::kernels::spectral::fft::{FftFloat, PlanCache};
use crate::kernels::{par, Float};
use crate::simd::Level;

/// The most phases of an exactly rational ratio (`L` in `out/in = L/M`); other ratios run on
/// interpolated phases.
pub(crate) const MAX_PHASES: u64 = 2048;
/// Units per stage-signal sample an exact clock has at least for minimum phase, whose lead (the
/// group delay at 0 Hz) is fractional: the output instants then sit within `1/512` of a sample
/// of it.
const LEAD_RESOLUTION: u64 = 256;
/// The most coefficients of an exact phase table.
const MAX_EXACT_TABLE: u64 = 1 << 23;
/// Supported ratios `out/in`: from `1/MAX_RATIO` to `MAX_RATIO`.
pub(crate) const MAX_RATIO: f64 = 256.0;
/// Fractional bits of a free-running clock.
const FRAC_BITS: u32 = 40;
const FREE_DEN: u64 = 1 << FRAC_BITS;

/// Checks one sample rate.
pub fn check_rate(name: &str, r: f64) -> SkResult<()> {
    if !(r.is_finite() && r > 0.0) {
        return Err(SkError::BadArgument(format!(
            "{name} = {r} must be a positive finite sample rate"
        )));
    }
    Ok(())
}

/// Checks a ratio `out/in` against the supported range.
pub fn check_ratio(ratio: f64) -> SkResult<()> {
    if !(ratio.is_finite() && (1.0 / MAX_RATIO..=MAX_RATIO).contains(&ratio)) {
        return Err(SkError::BadArgument(format!(
            "ratio out/in = {ratio} is outside the supported range [1/{MAX_RATIO}, {MAX_RATIO}]"
        )));
    }
    Ok(())
}

/// `out/in` as `L/M` in lowest terms if it is rational with a small `L` (continued fractions;
/// exact to 1e-13 relative), else `None`.
pub fn rational(in_rate: f64, out_rate: f64) -> Option<(u64, u64)> {
    let (ratio, (mut h0, mut h1), (mut k0, mut k1)) =
        (out_rate / in_rate, (0u64, 1u64), (1u64, 0u64));
    let mut x = ratio;
    for _ in 0..64 {
        let a = x.floor();
        if a > 1e12 {
            return None;
        }
        let a = a as u64;
        let h2 = a.checked_mul(h1)?.checked_add(h0)?;
        let k2 = a.checked_mul(k1)?.checked_add(k0)?;
        (h0, h1, k0, k1) = (h1, h2, k1, k2);
        if h1 > MAX_PHASES || k1 > (1 << 40) {
            return None;
        }
        // the convergent h1/k1 must reproduce both rates' ratio
        let approx = h1 as f64 / k1 as f64;
        if (approx - ratio).abs() <= 1e-13 * ratio {
            return Some((h1, k1));
        }
        let f = x - a as f64;
        if f == 0.0 {
            return None;
        }
        x = 1.0 / f;
    }
    None
}

/// A linear change of the step; active while `k < len` (`len == 0`: none). Every field is
/// always a plain number (no `Option` payload left uninitialised in copies of the clock).
#[derive(Clone, Copy, Debug, Default)]
struct Ramp {
    from: u64,
    to: u64,
    len: u64,
    /// Steps taken so far (`1..=len` give `from + (to − from)·k/len`).
    k: u64,
}

/// The output clock: the next output sits at input time `i0 + frac/den`.
#[derive(Clone, Copy, Debug)]
struct Clock {
    i0: i64,
    frac: u64,
    den: u64,
    /// The step in units of `1/den`, split as `q·den + r`.
    q: u64,
    r: u64,
    ramp: Ramp,
}

impl Clock {
    fn new(start: i128, den: u64, step: u64) -> Clock {
        Clock {
            i0: start.div_euclid(den as i128) as i64,
            frac: start.rem_euclid(den as i128) as u64,
            den,
            q: step / den,
            r: step % den,
            ramp: Ramp::default(),
        }
    }

    fn ramping(&self) -> bool {
        self.ramp.k < self.ramp.len
    }

    fn step(&self) -> u64 {
        self.q * self.den + self.r
    }

    #[inline]
    fn advance(&mut self) {
        if self.ramping() {
            let rp = &mut self.ramp;
            rp.k += 1;
            let (from, to) = (rp.from as i128, rp.to as i128);
            let s = (from + (to - from) * rp.k as i128 / rp.len as i128) as u64;
            self.q = s / self.den;
            self.r = s % self.den;
        }
        self.step_fixed();
    }

    /// One step of the current `q·den + r` (no ramp update).
    #[inline(always)]
    fn step_fixed(&mut self) {
        self.i0 += self.q as i64;
        self.frac += self.r;
        if self.frac >= self.den {
            self.frac -= self.den;
            self.i0 += 1;
        }
    }

    /// `n` steps of [`advance`](Self::advance), in closed form once no ramp is active.
    fn advance_by(&mut self, mut n: u64) {
        while n > 0 && self.ramping() {
            self.advance();
            n -= 1;
        }
        let total = self.frac as u128 + self.r as u128 * n as u128;
        self.i0 += (self.q as u128 * n as u128 + total / self.den as u128) as i64;
        self.frac = (total % self.den as u128) as u64;
    }

    /// How many outputs from this one on have `i0 <= last` (at most `limit`).
    fn count_through(&self, last: i128, limit: u64) -> u64 {
        self.count_before((last + 1) * self.den as i128, limit)
    }

    /// The position in units of `1/den`.
    fn units(&self) -> i128 {
        self.i0 as i128 * self.den as i128 + self.frac as i128
    }

    /// How many outputs from this one on sit before `bound` (in units of `1/den`; at most
    /// `limit`).
    fn count_before(&self, bound: i128, limit: u64) -> u64 {
        let mut c = *self;
        let mut n = 0u64;
        while c.ramping() && n < limit {
            if c.units() >= bound {
                return n;
            }
            n += 1;
            c.advance();
        }
        if c.units() >= bound || n >= limit {
            return n;
        }
        // outputs j ≥ 0 with units + j·step < bound
        let room = bound - c.units();
        let step = c.step() as i128;
        let more = (room + step - 1) / step;
        n.saturating_add(u64::try_from(more).unwrap_or(u64::MAX))
            .min(limit)
    }
}

/// `lead` stage-signal samples in units of `1/den` (exact for an integer lead).
fn lead_units(lead: f64, den: u64) -> i128 {
    (lead * den as f64).round() as i128
}

/// The precomputed phases.
#[derive(Clone, Debug)]
enum Table<T> {
    /// `L` rows, row `p` at `frac = p/L`.
    Exact(Coefs<T>),
    /// `P + 3` rows, row `r` at `frac = (r − 1)/P`; `P` a power of two.
    Interp(Coefs<T>, u32),
}

/// Phases per stage-signal sample of an interpolated table: enough that cubic interpolation
/// between phases stays below the stopband floor (the polyphase kernel's spectrum reaches up to
/// three quarters of a cycle per sample before it falls to the floor).
fn interp_phases(spec: &Spec) -> u32 {
    if spec.atten_db <= 100.0 {
        128
    } else if spec.atten_db <= 140.0 {
        256
    } else {
        512
    }
}

/// The step of a free-running clock for `ratio = out/in`.
fn free_step(ratio: f64) -> u64 {
    (FREE_DEN as f64 / ratio).round() as u64
}

fn interp_table<T: Float>(kernel: &Kernel, spec: &Spec) -> SkResult<Table<T>> {
    let p = interp_phases(spec);
    Ok(Table::Interp(
        kernel.table(p as usize + 3, -1.0, p as f64)?,
        p,
    ))
}

/// The clock's `(den, step)` on the stage signal for `in_rate → out_rate` (see the module
/// documentation), and `U`.
fn clock_units(in_rate: f64, out_rate: f64) -> ((u64, u64), usize) {
    let up = up_factor(out_rate / in_rate);
    let units = match rational(in_rate * up as f64, out_rate) {
        Some((l, m)) => (l, m),
        None => (FREE_DEN, free_step(out_rate / (in_rate * up as f64))),
    };
    (units, up)
}

/// Output length of a one-shot conversion of `n_in` frames from `in_rate` to `out_rate`: the
/// number of output instants `m·in/out` (`m >= 0`) before `n_in`. For an exact rational ratio
/// `L/M` that is `ceil(n_in·L/M)`; otherwise the instants are those of the free-running clock
/// (steps of `round(2⁴⁰·U·in/out)/(U·2⁴⁰)` input samples). The rates must be valid.
pub fn output_len(in_rate: f64, out_rate: f64, n_in: usize) -> u64 {
    let ((den, step), up) = clock_units(in_rate, out_rate);
    // in i128: `n_in·up` may not fit in 64 bits (the count then saturates at u64::MAX)
    Clock::new(0, den, step).count_through(n_in as i128 * up as i128 - 1, u64::MAX)
}

/// A streaming resampler for `channels` channels of `T`.
#[derive(Clone, Debug)]
pub struct Resampler<T: FftFloat> {
    channels: usize,
    spec: Spec,
    in_rate: f64,
    out_rate: f64,
    /// The first stage.
    pre: Pre,
    /// Per channel: the input from the next block's history on (its first `overlap` values
    /// precede the next block's new samples).
    xin: Vec<Vec<T>>,
    /// The polyphase kernel, on the stage signal.
    kernel: Kernel,
    /// `(L, M)` of an exact ratio, `(0, 0)` otherwise.
    exact: (u64, u64),
    table: Table<T>,
    /// The interpolated table, once a ratio change needs it on an exact stream.
    interp: Option<Table<T>>,
    latency: usize,
    clock: Clock,
    start: Clock,
    /// Stage-signal index of `bufs[c][0]`; `base + bufs[c].len()` is the stage signal made so
    /// far.
    base: i64,
    start_base: i64,
    /// Input frames received.
    received: i64,
    /// Stage-signal samples made (whole blocks).
    made: i64,
    /// Per channel: the stage signal from `base` on.
    bufs: Vec<Vec<T>>,
    /// The first stage's scratch (one per part of a step), kept from call to call so a
    /// streaming call allocates nothing once the stream runs: pure scratch, every value is
    /// written before it is read.
    pre_ws: PreWsCache,
    /// Interleaved output scratch (`count·channels`), kept from call to call (pure scratch).
    oscratch: Vec<T>,
    /// The `double` copies of a `float` stream's input and output ([`process_wide`]), kept
    /// from call to call (pure scratch).
    wide_x: Vec<T>,
    wide_y: Vec<T>,
    /// Set by [`reserve_block`](Self::reserve_block): every call stays on the calling thread.
    serial: bool,
}

/// The kept first-stage scratch of a [`Resampler`]: a clone starts without any (it is made
/// again on the clone's first call).
#[derive(Default)]
struct PreWsCache(Vec<PreWs>);

impl Clone for PreWsCache {
    fn clone(&self) -> Self {
        PreWsCache::default()
    }
}

impl std::fmt::Debug for PreWsCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PreWsCache({} workspaces)", self.0.len())
    }
}

fn alloc_err(what: &str) -> SkError {
    SkError::Allocation(format!("could not allocate {what}"))
}

fn try_zeros<T: Float>(n: usize, what: &str) -> SkResult<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| alloc_err(what))?;
    v.resize(n, T::ZERO);
    Ok(v)
}

/// Input frames appended per step of a long call, in all channels: bounds the stage signal
/// held at once, so the stages work in cache.
const STEP_SAMPLES: usize = 1 << 17;

impl<T: FftFloat + PlanCache> Resampler<T> {
    /// A resampler from `in_rate` to `out_rate` (Hz, or any common unit).
    pub fn new(in_rate: f64, out_rate: f64, channels: usize, spec: Spec) -> SkResult<Self> {
        check_rate("in_rate", in_rate)?;
        check_rate("out_rate", out_rate)?;
        if channels == 0 {
            return Err(SkError::Length("channels is 0".into()));
        }
        let ratio = out_rate / in_rate;
        check_ratio(ratio)?;
        spec.validate()?;
        let pre = Pre::new(&spec, ratio)?;
        let up = pre.up;
        // the polyphase kernel keeps the first stage's band and stops at its first image
        let kernel = Kernel::with_edges(
            pre.f_stop,
            1.0 - pre.f_stop,
            spec.atten_db,
            &format!("ratio {ratio} (second stage)"),
        )?;
        let r2 = ratio / up as f64;
        let latency = ((pre.lead + kernel.half_width()) * r2).ceil() as usize;
        let ((mut den, mut step), _) = clock_units(in_rate, out_rate);
        if spec.phase == Phase::Minimum && den < LEAD_RESOLUTION {
            // a fractional lead on an exact clock of few phases: finer units (more phases)
            let k = LEAD_RESOLUTION.div_ceil(den);
            (den, step) = (den * k, step * k);
        }
        let start = lead_units(pre.lead, den) - latency as i128 * step as i128;
        let clock = Clock::new(start, den, step);
        let exact = (den != FREE_DEN).then_some((den, step));
        // exact phases when the table is small enough, else interpolated ones (on the same
        // exact clock)
        let table = match exact {
            Some((l, _)) if l * kernel.taps as u64 <= MAX_EXACT_TABLE => {
                Table::Exact(kernel.table(l as usize, 0.0, l as f64)?)
            }
            _ => interp_table(&kernel, &spec)?,
        };
        let base = (clock.i0 - kernel.offset as i64).min(0);
        let mut bufs = Vec::new();
        bufs.try_reserve_exact(channels)
            .map_err(|_| alloc_err("the channel buffers"))?;
        let mut xin = Vec::new();
        xin.try_reserve_exact(channels)
            .map_err(|_| alloc_err("the channel buffers"))?;
        for _ in 0..channels {
            bufs.push(try_zeros((-base) as usize, "the channel history")?);
            xin.push(try_zeros(pre.overlap(), "the channel history")?);
        }
        Ok(Resampler {
            channels,
            spec,
            in_rate,
            out_rate,
            pre,
            xin,
            kernel,
            exact: exact.unwrap_or((0, 0)),
            table,
            interp: None,
            latency,
            clock,
            start: clock,
            base,
            start_base: base,
            received: 0,
            made: 0,
            bufs,
            pre_ws: PreWsCache::default(),
            oscratch: Vec::new(),
            wide_x: Vec::new(),
            wide_y: Vec::new(),
            serial: false,
        })
    }

    pub fn channels(&self) -> usize {
        self.channels
    }

    /// Group delay in output samples at the creation ratio.
    pub fn latency(&self) -> usize {
        self.latency
    }

    /// Taps per output (the window length, a multiple of 16).
    pub fn taps(&self) -> usize {
        self.kernel.taps
    }

    /// `Some((L, M))` if the stream started on an exact rational ratio `L/M` of the polyphase
    /// stage (`out/(U·in)`).
    pub fn exact_ratio(&self) -> Option<(u64, u64)> {
        (self.exact.0 > 0).then_some(self.exact)
    }

    /// The creation rates.
    pub fn rates(&self) -> (f64, f64) {
        (self.in_rate, self.out_rate)
    }

    /// The spec the filter was designed from.
    pub fn spec(&self) -> Spec {
        self.spec
    }

    /// The last stage-signal index the next output's window reads (`i0 − A + K − 1`).
    fn reach(&self) -> i64 {
        self.kernel.taps as i64 - 1 - self.kernel.offset as i64
    }

    /// Stage-signal samples made once `received` input frames are in (whole blocks).
    fn made_after(&self, received: i128) -> i128 {
        let b = self.pre.block as i128;
        received / b * b * self.pre.up as i128
    }

    /// Input frames that make the stage signal up to index `end − 1` (whole blocks).
    fn input_for(&self, end: i64) -> i64 {
        let b = self.pre.block as i64;
        let per = b * self.pre.up as i64;
        (end.max(0) + per - 1) / per * b
    }

    /// Outputs that `n_in` more input frames make available (no flush).
    pub fn output_size(&self, n_in: usize) -> u64 {
        // in i128: a huge `n_in` must give a huge count, not a wrapped one
        let end = self.made_after(self.received as i128 + n_in as i128);
        self.clock
            .count_through(end - 1 - self.reach() as i128, u64::MAX)
    }

    /// Outputs a flush would write now: the rest of the outputs whose instant lies before the
    /// end of the input received.
    pub fn flush_size(&self) -> u64 {
        if self.received == 0 {
            return 0;
        }
        // the instant of input time `received` (stage sample `received·U + lead`)
        let den = self.clock.den;
        let end = (self.received * self.pre.up as i64) as i128 * den as i128
            + lead_units(self.pre.lead, den);
        self.clock.count_before(end, u64::MAX)
    }

    /// Back to the state right after creation (ratio, history, clock).
    pub fn reset(&mut self) {
        self.clock = self.start;
        self.base = self.start_base;
        self.received = 0;
        self.made = 0;
        for b in &mut self.bufs {
            b.clear();
            b.resize((-self.base) as usize, T::ZERO);
        }
        let ov = self.pre.overlap();
        for x in &mut self.xin {
            x.clear();
            x.resize(ov, T::ZERO);
        }
    }

    /// Moves the ratio `out/in` to `ratio`, linearly over `ramp` outputs (0: at once).
    pub fn set_ratio(&mut self, ratio: f64, ramp: u64) -> SkResult<()> {
        check_ratio(ratio)?;
        if matches!(self.table, Table::Exact(_)) && self.interp.is_none() {
            self.interp = Some(interp_table(&self.kernel, &self.spec)?);
        }
        let target = free_step(ratio / self.pre.up as f64);
        let mut c = self.clock;
        if c.den != FREE_DEN {
            let scale = |v: u64| {
                ((v as u128 * FREE_DEN as u128 + c.den as u128 / 2) / c.den as u128) as u64
            };
            let step = scale(c.step());
            c = Clock {
                i0: c.i0,
                frac: scale(c.frac).min(FREE_DEN - 1),
                den: FREE_DEN,
                q: step / FREE_DEN,
                r: step % FREE_DEN,
                ramp: Ramp::default(),
            };
        }
        c.ramp = Ramp::default();
        if ramp == 0 {
            c.q = target / FREE_DEN;
            c.r = target % FREE_DEN;
        } else {
            c.ramp = Ramp {
                from: c.step(),
                to: target,
                len: ramp,
                k: 0,
            };
        }
        self.clock = c;
        Ok(())
    }

    /// Makes the stream real-time: reserves everything a call consuming up to `max_block`
    /// input frames (and writing up to the outputs of `2·max_block` frames at the creation
    /// ratio, plus the latency), a flush and a ratio change need, so that such calls allocate
    /// nothing, and keeps every later call on the calling thread. Results do not change. On
    /// error (out of memory) the stream is unchanged apart from reservations already made.
    pub fn reserve_block(&mut self, max_block: usize) -> SkResult<()> {
        // the sizes first: a max_block whose buffers cannot exist is refused before anything
        // is reserved
        let too_big = || {
            SkError::Length(format!(
                "max_block = {max_block} frames of {} channels needs buffers larger than the \
                 address space can hold",
                self.channels
            ))
        };
        let limit = isize::MAX as usize / std::mem::size_of::<T>().max(1);
        let frames = |f: usize| f.checked_mul(self.channels).filter(|&v| v <= limit);
        let ratio = (self.out_rate / self.in_rate).max(1.0);
        let outs_f = (2.0 * ratio * max_block as f64).ceil();
        let outs = if outs_f < limit as f64 {
            (outs_f as usize).checked_add(self.latency + 64)
        } else {
            None
        };
        let o = outs.and_then(frames).ok_or_else(too_big)?;
        let xw = frames(max_block).ok_or_else(too_big)?;
        if matches!(self.table, Table::Exact(_)) && self.interp.is_none() {
            self.interp = Some(interp_table(&self.kernel, &self.spec)?);
        }
        let (b, up, taps) = (self.pre.block, self.pre.up, self.kernel.taps);
        // the input a flush appends: the filters' reach on the input side and whole blocks
        let pad = taps.div_ceil(up) + 4 * b + self.pre.overlap() + self.latency;
        let n = max_block.saturating_add(pad);
        let take = n.min(self.step_frames());
        let grow = up
            .saturating_mul(take.saturating_add(2 * b))
            .saturating_add(2 * taps);
        let hist = (-self.start_base) as usize;
        let stage = grow
            .saturating_mul(2)
            .saturating_add(hist)
            .saturating_add(4 * taps);
        for buf in &mut self.bufs {
            buf.try_reserve(stage.saturating_sub(buf.len()))
                .map_err(|_| alloc_err("room for the stage signal"))?;
        }
        let input = (take + self.pre.overlap() + 2 * b).saturating_mul(2);
        for x in &mut self.xin {
            x.try_reserve(input.saturating_sub(x.len()))
                .map_err(|_| alloc_err("room for the input"))?;
        }
        self.oscratch
            .try_reserve_exact(o.saturating_sub(self.oscratch.len()))
            .map_err(|_| alloc_err("the output scratch"))?;
        if self.spec.atten_db > WIDE_ABOVE_DB {
            self.wide_x
                .try_reserve_exact(xw)
                .map_err(|_| alloc_err("the double copy of the input"))?;
            self.wide_y
                .try_reserve_exact(o)
                .map_err(|_| alloc_err("the double output"))?;
        }
        self.serial = true;
        par::serial_if(true, || self.reserve(n))?;
        Ok(())
    }

    /// Whether [`reserve_block`](Self::reserve_block) made the stream real-time.
    pub fn is_serial(&self) -> bool {
        self.serial
    }

    /// The table for the current clock: exact phases only serve an exact clock.
    fn table(&self) -> &Table<T> {
        match (&self.table, &self.interp) {
            (Table::Exact(_), Some(t)) if self.clock.den == FREE_DEN => t,
            _ => &self.table,
        }
    }

    /// Input frames per step of a long call (whole blocks, at least one).
    fn step_frames(&self) -> usize {
        let b = self.pre.block;
        (STEP_SAMPLES / (self.channels * self.pre.up)).max(b) / b * b
    }

    /// Reserves everything appending `n` input frames in steps (see [`run`](Self::run)) needs:
    /// room in the input histories and the stage signal, and the first stage's scratch, one
    /// per part of a step (kept in `pre_ws`; only the missing ones are made). Returns the
    /// number of parts. Nothing observable changes.
    fn reserve(&mut self, n: usize) -> SkResult<usize> {
        let (b, up) = (self.pre.block, self.pre.up);
        let take = n.min(self.step_frames());
        let grow = up * (take + 2 * b) + 2 * self.kernel.taps;
        for buf in &mut self.bufs {
            buf.try_reserve(grow)
                .map_err(|_| alloc_err("room for the stage signal"))?;
        }
        for x in &mut self.xin {
            x.try_reserve(take + b)
                .map_err(|_| alloc_err("room for the input"))?;
        }
        let blocks = (self.xin[0].len() - self.pre.overlap() + take) / b;
        let units = self.channels * blocks;
        let parts = par::threads_for(units, self.pre_work(units)).min(units);
        let have = self.pre_ws.0.len();
        if have < parts {
            self.pre_ws
                .0
                .try_reserve_exact(parts - have)
                .map_err(|_| alloc_err("the first stage's scratch"))?;
            for _ in have..parts {
                self.pre_ws.0.push(self.pre.workspace()?);
            }
        }
        Ok(parts)
    }

    /// Rough work of `blocks` first-stage blocks.
    fn pre_work(&self, blocks: usize) -> usize {
        let n = self.pre.up * self.pre.nx;
        blocks.saturating_mul(n * (n.trailing_zeros() as usize + 2) * 2)
    }

    /// Appends `n` frames (zeros if `x` is `None`) and runs the first stage on every block they
    /// complete, split over `ws.len()` parts (channels, or pieces of a channel's blocks). The
    /// room was reserved by [`reserve`](Self::reserve).
    fn append(&mut self, x: Option<(&[T], Layout)>, n: usize, ws: &mut [PreWs]) {
        if n == 0 {
            return;
        }
        for (c, b) in self.xin.iter_mut().enumerate() {
            match x {
                None => b.resize(b.len() + n, T::ZERO),
                Some((x, l)) if l.t == 1 => b.extend_from_slice(&x[c * l.ch..c * l.ch + n]),
                Some((x, l)) => b.extend((0..n).map(|t| x[c * l.ch + t * l.t])),
            }
        }
        self.received += n as i64;
        let (ov, bl, up) = (self.pre.overlap(), self.pre.block, self.pre.up);
        let blocks = (self.xin[0].len() - ov) / bl;
        if blocks == 0 {
            return;
        }
        let add = blocks * up * bl;
        for b in &mut self.bufs {
            b.resize(b.len() + add, T::ZERO);
        }
        let ch = self.channels;
        let parts = ws.len().clamp(1, ch * blocks);
        if parts == 1 {
            // one part: every channel's blocks in one pass on this thread (as the split below
            // would run them), without building the list of parts
            let (pre, w) = (&self.pre, &mut ws[0]);
            for (xc, bc) in self.xin.iter().zip(self.bufs.iter_mut()) {
                let len = bc.len();
                pre.run(&xc[..ov + blocks * bl], &mut bc[len - add..], w);
            }
            for xc in &mut self.xin {
                xc.drain(..blocks * bl);
            }
            self.made += add as i64;
            return;
        }
        // fewer channels than parts: each channel's blocks in pieces
        let pieces = if ch >= parts { 1 } else { parts / ch };
        let per = blocks.div_ceil(pieces);
        let mut units: Vec<(&[T], &mut [T])> = Vec::new();
        for (xc, bc) in self.xin.iter().zip(self.bufs.iter_mut()) {
            let len = bc.len();
            for (k, o) in bc[len - add..].chunks_mut(per * up * bl).enumerate() {
                let first = k * per * bl;
                let nb = o.len() / (up * bl);
                units.push((&xc[first..first + ov + nb * bl], o));
            }
        }
        let per_part = units.len().div_ceil(parts);
        let mut work = Vec::new();
        let mut it = units.into_iter();
        for w in ws.iter_mut() {
            let u: Vec<_> = it.by_ref().take(per_part).collect();
            if u.is_empty() {
                break;
            }
            work.push((u, w));
        }
        let pre = &self.pre;
        par::run_parts(work, |(u, w)| {
            for (x, o) in u {
                pre.run(x, o, w);
            }
        });
        for xc in &mut self.xin {
            xc.drain(..blocks * bl);
        }
        self.made += add as i64;
    }

    /// Appends `n` input frames (zeros if `x` is `None`) and writes the next `count` outputs
    /// (which that input completes) into `y`, in steps of [`step_frames`](Self::step_frames)
    /// so the stage signal stays small. Everything is allocated before anything changes: on
    /// error nothing did.
    fn run(
        &mut self,
        level: Level,
        x: Option<(&[T], Layout)>,
        n: usize,
        y: &mut [T],
        yl: Layout,
        count: usize,
    ) -> SkResult<()> {
        self.reserve_scratch(yl, count)?;
        let mut scratch = std::mem::take(&mut self.oscratch);
        let parts = self.reserve(n)?;
        // the kept scratch, moved out while `append` borrows the resampler (put back below)
        let mut kept = std::mem::take(&mut self.pre_ws);
        let ws = &mut kept.0[..parts];
        let step = self.step_frames();
        let (mut done_in, mut done_out) = (0usize, 0usize);
        loop {
            let take = (n - done_in).min(step);
            let part = x.map(|(x, l)| (&x[(done_in * l.t).min(x.len())..], l));
            self.append(part, take, ws);
            done_in += take;
            let left = (count - done_out) as u64;
            let now = self
                .clock
                .count_through((self.made - 1 - self.reach()) as i128, left)
                as usize;
            let off = (done_out * yl.t).min(y.len());
            self.render(level, &mut y[off..], yl, now, &mut scratch);
            done_out += now;
            if done_in >= n {
                break;
            }
        }
        self.pre_ws = kept;
        self.oscratch = scratch;
        if done_out != count {
            return Err(SkError::Internal(format!(
                "the resampler wrote {done_out} outputs instead of {count}"
            )));
        }
        Ok(())
    }

    /// Writes `count` outputs into `y` (layout `yl`), advances the clock and drops history no
    /// longer needed. The buffers hold every sample the outputs read.
    fn render(
        &mut self,
        level: Level,
        y: &mut [T],
        yl: Layout,
        count: usize,
        scratch: &mut Vec<T>,
    ) {
        if count == 0 {
            return;
        }
        let k = self.kernel.taps;
        let ch = self.channels;
        let work = count.saturating_mul(k).saturating_mul(ch);
        let (base, off, table) = (self.base, self.kernel.offset, self.table());
        // exact phases: up to four channels share each coefficient load; fewer channel groups
        // than threads: the outputs are cut into pieces too, each starting from the clock at
        // its first output (computed the same either way)
        let group = if matches!(table, Table::Exact(_)) {
            4
        } else {
            1
        };
        let units = ch.div_ceil(group);
        let threads = par::threads_for(count.saturating_mul(ch), work);
        if threads <= 1 {
            // one thread: the channel groups in order from the clock, as the split below would
            // run them, without building the list of jobs
            let clock = self.clock;
            let run = |outs: &mut dyn Iterator<Item = &mut [T]>| {
                let mut c = 0;
                loop {
                    let mut arr: [&mut [T]; 4] = Default::default();
                    let mut g = 0;
                    while g < group {
                        let Some(o) = outs.next() else { break };
                        arr[g] = o;
                        g += 1;
                    }
                    if g == 0 {
                        break;
                    }
                    render_group(
                        level,
                        table,
                        clock,
                        base,
                        off,
                        k,
                        &self.bufs[c..],
                        &mut arr[..g],
                    );
                    c += g;
                }
            };
            if yl.t == 1 {
                let stride = if ch == 1 {
                    y.len().max(1)
                } else {
                    yl.ch.max(1)
                };
                run(&mut y.chunks_mut(stride).take(ch).map(|s| &mut s[..count]));
            } else {
                scratch.resize(count * ch, T::ZERO);
                run(&mut scratch.chunks_mut(count));
                for (c, s) in scratch.chunks(count).enumerate() {
                    for (t, v) in s.iter().enumerate() {
                        y[c * yl.ch + t * yl.t] = *v;
                    }
                }
            }
            self.finish_render(count, off);
            return;
        }
        let pieces = if units >= threads {
            1
        } else {
            threads.div_ceil(units)
        };
        let piece = count.div_ceil(pieces);
        let mut clocks = Vec::with_capacity(pieces);
        let mut c = self.clock;
        for p in 0..pieces {
            clocks.push(c);
            c.advance_by(piece.min(count.saturating_sub(p * piece)) as u64);
        }
        let bufs = &self.bufs;
        let job = |(c, clock, outs): &mut Piece<'_, T>| {
            render_group(level, table, *clock, base, off, k, &bufs[*c..], outs)
        };
        if yl.t == 1 {
            // planar (one channel: also interleaved) — channel c at c·yl.ch
            let stride = if ch == 1 {
                y.len().max(1)
            } else {
                yl.ch.max(1)
            };
            let outs: Vec<&mut [T]> = y
                .chunks_mut(stride)
                .take(ch)
                .map(|s| &mut s[..count])
                .collect();
            run_channels(&mut split_jobs(outs, piece, &clocks, group), work, job);
        } else {
            scratch.resize(count * ch, T::ZERO);
            run_channels(
                &mut split_jobs(scratch.chunks_mut(count).collect(), piece, &clocks, group),
                work,
                job,
            );
            for (c, s) in scratch.chunks(count).enumerate() {
                for (t, v) in s.iter().enumerate() {
                    y[c * yl.ch + t * yl.t] = *v;
                }
            }
        }
        self.finish_render(count, off);
    }

    /// Advances the clock past `count` outputs and drops the history no longer needed.
    fn finish_render(&mut self, count: usize, off: usize) {
        self.clock.advance_by(count as u64);
        let new_base = self.clock.i0 - off as i64;
        if new_base > self.base {
            for b in &mut self.bufs {
                let drop = ((new_base - self.base) as usize).min(b.len());
                b.drain(..drop);
            }
        }
        let len = self.bufs[0].len() as i64;
        self.base = self.made - len;
    }

    /// Room in the kept scratch for what `render` needs for `count` outputs in layout `yl`,
    /// allocated up front so nothing changes when the allocation fails (nothing is allocated
    /// when the room is there already).
    fn reserve_scratch(&mut self, yl: Layout, count: usize) -> SkResult<()> {
        if yl.t != 1 && count > 0 {
            let n = count
                .checked_mul(self.channels)
                .ok_or_else(|| SkError::Length("output size overflows".into()))?;
            self.oscratch.clear();
            self.oscratch
                .try_reserve_exact(n)
                .map_err(|_| alloc_err("the output scratch"))?;
        }
        Ok(())
    }

    /// Consumes up to `n_in` frames of `x` (layout `xl`) and writes up to `cap` frames into `y`
    /// (layout `yl`). Returns `(consumed, produced)`: all of the input is consumed unless the
    /// output room ran out first, in which case exactly the input the written outputs needed
    /// is consumed. The caller guarantees `x` holds `n_in` frames and `y` `cap` frames in their
    /// layouts. On error nothing changes.
    #[allow(clippy::too_many_arguments)]
    pub fn process(
        &mut self,
        level: Level,
        x: &[T],
        xl: Layout,
        n_in: usize,
        y: &mut [T],
        yl: Layout,
        cap: usize,
    ) -> SkResult<(usize, usize)> {
        let serial = self.serial;
        par::serial_if(serial, || self.process_on(level, x, xl, n_in, y, yl, cap))
    }

    /// [`process`](Self::process) on the threads the caller chose.
    #[allow(clippy::too_many_arguments)]
    fn process_on(
        &mut self,
        level: Level,
        x: &[T],
        xl: Layout,
        n_in: usize,
        y: &mut [T],
        yl: Layout,
        cap: usize,
    ) -> SkResult<(usize, usize)> {
        let avail = self.output_size(n_in);
        let produced = avail.min(cap as u64) as usize;
        let consumed = if avail > cap as u64 {
            // the room ran out: consume what the last written output reads, no more
            let mut c = self.clock;
            c.advance_by(produced.saturating_sub(1) as u64);
            if produced == 0 {
                0
            } else {
                let end = c.i0 + self.reach() + 1;
                (self.input_for(end) - self.received).clamp(0, n_in as i64) as usize
            }
        } else {
            n_in
        };
        self.run(level, Some((x, xl)), consumed, y, yl, produced)?;
        Ok((consumed, produced))
    }

    /// Ends the input: writes the remaining [`flush_size`](Self::flush_size) outputs into `y`
    /// (zeros stand for the input past the end) and resets the stream. `cap` below the flush
    /// size is `SK_ERR_BUFFER_TOO_SMALL` and nothing changes.
    pub fn flush(&mut self, level: Level, y: &mut [T], yl: Layout, cap: usize) -> SkResult<usize> {
        let serial = self.serial;
        par::serial_if(serial, || self.flush_on(level, y, yl, cap))
    }

    /// [`flush`](Self::flush) on the threads the caller chose.
    fn flush_on(&mut self, level: Level, y: &mut [T], yl: Layout, cap: usize) -> SkResult<usize> {
        let n = self.flush_size();
        if n > cap as u64 {
            return Err(SkError::BufferTooSmall(format!(
                "the output has room for {cap} frames but the flush writes {n}"
            )));
        }
        let n = n as usize;
        if n > 0 {
            let mut c = self.clock;
            c.advance_by(n as u64 - 1);
            let end = c.i0 + self.reach() + 1;
            let pad = (self.input_for(end) - self.received).max(0) as usize;
            self.run(level, None, pad, y, yl, n)?;
        }
        self.reset();
        Ok(n)
    }

    /// Skips the next `n` outputs (the one-shot conversion drops the latency this way).
    fn skip(&mut self, n: usize) {
        self.clock.advance_by(n as u64);
    }
}

/// Output length of a one-shot conversion of `n_in` frames with `r` (see [`output_len`]).
pub fn oneshot_len<T: FftFloat + PlanCache>(r: &Resampler<T>, n_in: usize) -> u64 {
    output_len(r.in_rate, r.out_rate, n_in)
}

/// One-shot conversion: `n_in` frames of `x` (layout `xl`) into exactly
/// [`oneshot_len`] frames of `y` (layout `yl`), delay removed and tail flushed: output `m` is
/// the signal at input time `m·in/out`. `y` must hold `oneshot_len` frames (checked).
pub fn resample<T: FftFloat + PlanCache>(
    level: Level,
    mut r: Resampler<T>,
    x: &[T],
    xl: Layout,
    n_in: usize,
    y: &mut [T],
    yl: Layout,
) -> SkResult<usize> {
    let want = oneshot_len(&r, n_in) as usize;
    r.skip(r.latency);
    let (consumed, produced) = r.process(level, x, xl, n_in, y, yl, want)?;
    let rest = want - produced;
    if rest > 0 {
        if consumed < n_in {
            return Err(SkError::Internal(
                "one-shot resampling stopped before the end of the input".into(),
            ));
        }
        let off = produced * yl.t;
        let tail = &mut y[off..];
        let n = r.flush(level, tail, yl, rest)?;
        if n != rest {
            return Err(SkError::Internal(format!(
                "one-shot resampling flushed {n} frames instead of {rest}"
            )));
        }
    }
    Ok(want)
}

/// A job: the outputs of channels `c ..` (one slice each, the same piece of outputs) from
/// the clock at the piece's start.
type Piece<'a, T> = (usize, Clock, Vec<&'a mut [T]>);

/// One job per piece of `piece` outputs and group of up to `group` consecutive channels.
fn split_jobs<'a, T>(
    outs: Vec<&'a mut [T]>,
    piece: usize,
    clocks: &[Clock],
    group: usize,
) -> Vec<Piece<'a, T>> {
    let mut per: Vec<std::vec::IntoIter<&'a mut [T]>> = outs
        .into_iter()
        .map(|o| o.chunks_mut(piece).collect::<Vec<_>>().into_iter())
        .collect();
    let n_pieces = per.first().map_or(0, |v| v.len());
    let ch = per.len();
    let mut jobs = Vec::new();
    for clock in clocks.iter().take(n_pieces) {
        let mut c = 0;
        while c < ch {
            let g = group.min(ch - c);
            let parts: Vec<&mut [T]> = per[c..c + g]
                .iter_mut()
                .filter_map(|it| it.next())
                .collect();
            jobs.push((c, *clock, parts));
            c += g;
        }
    }
    jobs
}

/// Renders the outputs of a group of channels (`bufs[r]` feeds `outs[r]`) from `clock` on.
/// With exact phases, groups of two to four channels share the coefficient loads; the results
/// are bit-identical to [`render_channel`]'s.
#[allow(clippy::too_many_arguments)]
fn render_group<T: Float>(
    level: Level,
    table: &Table<T>,
    clock: Clock,
    base: i64,
    off: usize,
    k: usize,
    bufs: &[Vec<T>],
    outs: &mut [&mut [T]],
) {
    let Table::Exact(t) = table else {
        for (b, o) in bufs.iter().zip(outs.iter_mut()) {
            render_channel(level, table, clock, base, off, k, b, o);
        }
        return;
    };
    let t = t.get();
    match outs.len() {
        0 => {}
        1 => render_channel(level, table, clock, base, off, k, &bufs[0], outs[0]),
        2 => group_run::<T, 2>(level, t, k, bufs, outs, clock, off as i64 + base),
        3 => group_run::<T, 3>(level, t, k, bufs, outs, clock, off as i64 + base),
        _ => group_run::<T, 4>(level, t, k, bufs, outs, clock, off as i64 + base),
    }
}

/// [`GroupRun`] over the first `G` channels of `bufs` / `outs`.
fn group_run<T: Float, const G: usize>(
    level: Level,
    t: &[T],
    k: usize,
    bufs: &[Vec<T>],
    outs: &mut [&mut [T]],
    clock: Clock,
    skew: i64,
) {
    let mut it = outs.iter_mut();
    let outs: [&mut [T]; G] = std::array::from_fn(|_| &mut **it.next().expect("G outputs"));
    let mut j = GroupRun {
        t,
        k,
        bufs: std::array::from_fn(|r| &bufs[r][..]),
        outs,
        clock,
        skew,
    };
    run_at(level, &mut j);
}

/// Exact-phase outputs of `G` channels at the same instants, one coefficient window each.
struct GroupRun<'a, T, const G: usize> {
    t: &'a [T],
    k: usize,
    bufs: [&'a [T]; G],
    outs: [&'a mut [T]; G],
    clock: Clock,
    /// `A + base`: output at `i0` reads from buffer index `i0 − skew`.
    skew: i64,
}

impl<T: Float, const G: usize> Job for GroupRun<'_, T, G> {
    #[inline(always)]
    fn run<D: Dot>(&mut self) {
        let (t, k, bufs) = (self.t, self.k, self.bufs);
        let mut clock = self.clock;
        let n = self.outs[0].len();
        for i in 0..n {
            let s = (clock.i0 - self.skew) as usize;
            let p = clock.frac as usize;
            let d = D::dotc::<T, G>(&t[p * k..p * k + k], bufs.map(|b| &b[s..s + k]));
            for (o, v) in self.outs.iter_mut().zip(d) {
                o[i] = v;
            }
            clock.advance();
        }
    }
}

/// Exact-phase outputs of one channel, four at a time.
struct ExactRun<'a, T> {
    t: &'a [T],
    k: usize,
    buf: &'a [T],
    out: &'a mut [T],
    clock: Clock,
    skew: i64,
}

impl<T: Float> Job for ExactRun<'_, T> {
    #[inline(always)]
    fn run<D: Dot>(&mut self) {
        let (t, k, buf, skew) = (self.t, self.k, self.buf, self.skew);
        let out = &mut *self.out;
        let mut clock = self.clock;
        let row = |p: usize| &t[p * k..p * k + k];
        // during a ramp, one output at a time through the general step
        let mut i = 0;
        while i < out.len() && clock.ramping() {
            let (s, p) = ((clock.i0 - skew) as usize, clock.frac as usize);
            out[i] = D::dot::<T, 1>([row(p)], [&buf[s..s + k]])[0];
            clock.advance();
            i += 1;
        }
        // then the fixed step (no ramp left to check)
        let mut at = || {
            let w = (
                row(clock.frac as usize),
                &buf[(clock.i0 - skew) as usize..][..k],
            );
            clock.step_fixed();
            w
        };
        let mut chunks = out[i..].chunks_exact_mut(4);
        for o in &mut chunks {
            let (a, b, c, d) = (at(), at(), at(), at());
            o.copy_from_slice(&D::dot::<T, 4>([a.0, b.0, c.0, d.0], [a.1, b.1, c.1, d.1]));
        }
        for o in chunks.into_remainder() {
            let (c, x) = at();
            *o = D::dot::<T, 1>([c], [x])[0];
        }
    }
}

/// Interpolated-phase outputs of one channel: four phase rows against one window, then the
/// cubic Lagrange weights.
struct InterpRun<'a, T> {
    t: &'a [T],
    p: u32,
    k: usize,
    buf: &'a [T],
    out: &'a mut [T],
    clock: Clock,
    skew: i64,
}

impl<T: Float> Job for InterpRun<'_, T> {
    #[inline(always)]
    fn run<D: Dot>(&mut self) {
        let (t, k, buf, p) = (self.t, self.k, self.buf, self.p);
        let mut clock = self.clock;
        for o in self.out.iter_mut() {
            let s = (clock.i0 - self.skew) as usize;
            let x = &buf[s..s + k];
            // frac < den ≤ 2⁴⁰ and p ≤ 2⁹: exact in f64
            let u = (clock.frac * p as u64) as f64 / clock.den as f64;
            let q = (u.floor() as usize).min(p as usize - 1);
            let w = u - q as f64;
            let rows = &t[q * k..(q + 4) * k];
            let d = D::dot::<T, 4>(
                [
                    &rows[..k],
                    &rows[k..2 * k],
                    &rows[2 * k..3 * k],
                    &rows[3 * k..],
                ],
                [x; 4],
            );
            // cubic Lagrange through phases q−1, q, q+1, q+2 at q + w
            let wm = -w * (w - 1.0) * (w - 2.0) / 6.0;
            let w0 = (w + 1.0) * (w - 1.0) * (w - 2.0) / 2.0;
            let w1 = -(w + 1.0) * w * (w - 2.0) / 2.0;
            let w2 = (w + 1.0) * w * (w - 1.0) / 6.0;
            *o = d[0] * T::from_f64(wm)
                + d[1] * T::from_f64(w0)
                + d[2] * T::from_f64(w1)
                + d[3] * T::from_f64(w2);
            clock.advance();
        }
    }
}

/// Renders `out.len()` outputs of one channel from `clock` on. `buf[0]` is stage-signal sample
/// `base`.
#[allow(clippy::too_many_arguments)]
fn render_channel<T: Float>(
    level: Level,
    table: &Table<T>,
    clock: Clock,
    base: i64,
    off: usize,
    k: usize,
    buf: &[T],
    out: &mut [T],
) {
    let skew = off as i64 + base;
    match table {
        Table::Exact(t) => run_at(
            level,
            &mut ExactRun {
                t: t.get(),
                k,
                buf,
                out,
                clock,
                skew,
            },
        ),
        Table::Interp(t, p) => run_at(
            level,
            &mut InterpRun {
                t: t.get(),
                p: *p,
                k,
                buf,
                out,
                clock,
                skew,
            },
        ),
    }
}

/// Runs `f` on every channel job, split over the library's worker threads when the work is
/// large. Each channel is computed the same way whichever thread runs it.
fn run_channels<J: Send>(jobs: &mut [J], work: usize, f: impl Fn(&mut J) + Sync) {
    let threads = par::threads_for(jobs.len(), work);
    if threads <= 1 {
        jobs.iter_mut().for_each(&f);
        return;
    }
    let per = jobs.len().div_ceil(threads);
    par::run_parts(jobs.chunks_mut(per).collect(), |part: &mut [J]| {
        part.iter_mut().for_each(&f)
    });
}

/// Stopbands deeper than this (dB) run `float` streams in `double` inside: `float` products
/// summed over a few hundred taps leave rounding noise near −140 dB.
pub(crate) const WIDE_ABOVE_DB: f64 = 140.0;

/// The `double` copy of `n` frames of `x` into `v` (emptied first; allocates only when `v` has
/// no room).
fn widen_into(v: &mut Vec<f64>, x: &[f32], xl: Layout, channels: usize, n: usize) -> SkResult<()> {
    let len = n
        .checked_mul(channels)
        .ok_or_else(|| SkError::Length("input size overflows".into()))?;
    v.clear();
    v.try_reserve_exact(len)
        .map_err(|_| alloc_err("the double copy of the input"))?;
    for c in 0..channels {
        v.extend((0..n).map(|t| x[c * xl.ch + t * xl.t] as f64));
    }
    Ok(())
}

/// `len` zeros in `v` (emptied first; allocates only when `v` has no room).
fn zeros_into(v: &mut Vec<f64>, len: usize, what: &str) -> SkResult<()> {
    v.clear();
    v.try_reserve_exact(len).map_err(|_| alloc_err(what))?;
    v.resize(len, 0.0);
    Ok(())
}

fn narrow(src: &[f64], count: usize, channels: usize, y: &mut [f32], yl: Layout) {
    for c in 0..channels {
        for t in 0..count {
            y[c * yl.ch + t * yl.t] = src[c * count + t] as f32;
        }
    }
}

/// [`Resampler::process`] for `float` data on a `double` resampler (rounded once at the end).
#[allow(clippy::too_many_arguments)]
pub fn process_wide(
    r: &mut Resampler<f64>,
    level: Level,
    x: &[f32],
    xl: Layout,
    n_in: usize,
    y: &mut [f32],
    yl: Layout,
    cap: usize,
) -> SkResult<(usize, usize)> {
    let ch = r.channels;
    let room = r.output_size(n_in).min(cap as u64) as usize;
    let ylen = room
        .checked_mul(ch)
        .ok_or_else(|| SkError::Length("output size overflows".into()))?;
    // the kept copies, moved out while `process` borrows the resampler (put back below)
    let (mut xs, mut ys) = (std::mem::take(&mut r.wide_x), std::mem::take(&mut r.wide_y));
    let res = widen_into(&mut xs, x, xl, ch, n_in)
        .and_then(|()| zeros_into(&mut ys, ylen, "the double output"))
        .and_then(|()| {
            r.process(
                level,
                &xs,
                Layout::planar(n_in.max(1)),
                n_in,
                &mut ys,
                Layout::planar(room.max(1)),
                room,
            )
        });
    if let Ok((_, p)) = res {
        narrow(&ys, p, ch, y, yl);
    }
    (r.wide_x, r.wide_y) = (xs, ys);
    res
}

/// [`Resampler::flush`] for `float` data on a `double` resampler.
pub fn flush_wide(
    r: &mut Resampler<f64>,
    level: Level,
    y: &mut [f32],
    yl: Layout,
    cap: usize,
) -> SkResult<usize> {
    let n = r.flush_size().min(cap as u64 + 1) as usize;
    let ch = r.channels;
    let ylen = n
        .checked_mul(ch)
        .ok_or_else(|| SkError::Length("output size overflows".into()))?;
    let mut ys = std::mem::take(&mut r.wide_y);
    let res = zeros_into(&mut ys, ylen, "the double output").and_then(|()| {
        if n > cap {
            r.flush(level, &mut ys, Layout::planar(n.max(1)), cap)
        } else {
            r.flush(level, &mut ys, Layout::planar(n.max(1)), n)
        }
    });
    if let Ok(p) = res {
        narrow(&ys, p, ch, y, yl);
    }
    r.wide_y = ys;
    res
}

/// Frames per block of the `float` one-shot conversion on a `double` resampler: the `double`
/// copies of a block stay in cache and are reused, instead of a `double` copy of the whole
/// input and output (fresh memory the size of the signal, whose page faults cost more than the
/// conversion to `double` itself).
const WIDE_BLOCK: usize = 32_768;

/// [`resample`] for `float` data on a `double` resampler, in blocks of [`WIDE_BLOCK`] frames
/// (the stream is chunk-invariant, so the result is the one-shot `double` result rounded once).
pub fn resample_wide(
    level: Level,
    mut r: Resampler<f64>,
    x: &[f32],
    xl: Layout,
    n_in: usize,
    y: &mut [f32],
    yl: Layout,
) -> SkResult<usize> {
    let want = oneshot_len(&r, n_in) as usize;
    r.skip(r.latency);
    let (mut done_in, mut done_out) = (0, 0);
    while done_in < n_in && done_out < want {
        let n = WIDE_BLOCK.min(n_in - done_in);
        let (c, p) = process_wide(
            &mut r,
            level,
            &x[done_in * xl.t..],
            xl,
            n,
            &mut y[done_out * yl.t..],
            yl,
            want - done_out,
        )?;
        done_in += c;
        done_out += p;
        if c < n {
            break;
        }
    }
    let rest = want - done_out;
    if rest > 0 {
        if done_in < n_in {
            return Err(SkError::Internal(
                "one-shot resampling stopped before the end of the input".into(),
            ));
        }
        let n = flush_wide(&mut r, level, &mut y[done_out * yl.t..], yl, rest)?;
        if n != rest {
            return Err(SkError::Internal(format!(
                "one-shot resampling flushed {n} frames instead of {rest}"
            )));
        }
    }
    Ok(want)
}

#[cfg(test)]
mod clock_tests {
    use super::*;

    /// The closed form equals `n` single steps, from inside a ramp and on exact and free
    /// clocks.
    #[test]
    fn advance_by_equals_single_steps() {
        for (den, step) in [(147u64, 320u64), (FREE_DEN, free_step(0.4594)), (1, 3)] {
            for start in [-1000i128, 0, 7] {
                let mut a = Clock::new(start * den as i128 + 5 % den as i128, den, step);
                if den == FREE_DEN {
                    a.ramp = Ramp {
                        from: a.step(),
                        to: a.step() + 12345,
                        len: 37,
                        k: 0,
                    };
                }
                for n in [0u64, 1, 2, 36, 37, 38, 1000, 123_457] {
                    let mut b = a;
                    for _ in 0..n {
                        b.advance();
                    }
                    let mut c = a;
                    c.advance_by(n);
                    assert_eq!(
                        (c.i0, c.frac, c.q, c.r, c.ramp.k),
                        (b.i0, b.frac, b.q, b.r, b.ramp.k),
                        "den {den} n {n}"
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod scratch_tests {
    use super::*;
    use crate::kernels::resample::design::Quality;
    use crate::kernels::testutil::Rng;
    use crate::simd::current;

    /// Addresses of the kept first-stage scratch buffers.
    fn addrs(r: &Resampler<f32>) -> Vec<usize> {
        r.pre_ws.0.iter().flat_map(PreWs::addrs).collect()
    }

    /// Streaming blocks reuse the first stage's scratch of the earlier calls (no new
    /// workspace once the stream runs), a clone starts without scratch, and the original, its
    /// clone and a fresh stream fed the same blocks give the same bits.
    #[test]
    fn streaming_calls_keep_the_first_stage_scratch() {
        let (ch, block) = (2, 256);
        let mut rng = Rng::new(11);
        let mut r = Resampler::<f32>::new(48000.0, 44100.0, ch, Quality::High.spec()).unwrap();
        let mut fresh = r.clone();
        assert!(r.pre_ws.0.is_empty());
        let mut kept: Option<Vec<usize>> = None;
        let mut twin: Option<Resampler<f32>> = None;
        for call in 0..40 {
            let x: Vec<f32> = (0..ch * block).map(|_| rng.uniform() as f32).collect();
            let cap = r.output_size(block) as usize;
            let run = |r: &mut Resampler<f32>| {
                let mut y = vec![f32::NAN; ch * cap.max(1)];
                let l = Layout::planar(cap.max(1));
                let got = r
                    .process(current(), &x, Layout::planar(block), block, &mut y, l, cap)
                    .unwrap();
                assert_eq!(got, (block, cap));
                y.iter().map(|v| v.to_bits()).collect::<Vec<u32>>()
            };
            let y = run(&mut r);
            assert_eq!(y, run(&mut fresh), "call {call}");
            if let Some(t) = twin.as_mut() {
                assert_eq!(y, run(t), "clone, call {call}");
            }
            if !r.pre_ws.0.is_empty() {
                let now = addrs(&r);
                match &kept {
                    None => kept = Some(now),
                    Some(k) => assert_eq!(k, &now, "call {call} made new scratch"),
                }
            }
            if call == 20 {
                let c = r.clone();
                assert!(c.pre_ws.0.is_empty());
                twin = Some(c);
            }
        }
        assert!(kept.is_some(), "no call ran the first stage");
    }
}
