//! The streaming resampler and the one-shot conversion built on it.
//!
//! **Time.** Output `n` of a stream sits at input time `t_n` (in input samples); the stream's
//! first output sits `latency` output periods before input sample 0, so the stream is the
//! one-shot output delayed by exactly `latency` samples, and the kernel is symmetric around
//! every `t_n` (linear phase; the group delay is exactly `latency`). Times are integers in
//! units of `1/den`: for a rational ratio `out/in = L/M` (with `L` no more than
//! [`MAX_PHASES`]) `den = L` and a step is exactly `M` units, each output using one of `L`
//! precomputed phases; otherwise `den = 2⁴⁰`, the step is `round(2⁴⁰·in/out)` units, and each
//! output interpolates (cubic Lagrange) between four of `P` precomputed phases. Either way the
//! arithmetic is integer, so any split of the input gives bit-identical output, and output
//! counts have closed forms.
//!
//! **Ratio changes.** [`Resampler::set_ratio`] moves the step linearly, output by output, to the
//! new value over a given number of outputs: the output instants stay continuous and only their
//! spacing changes, so there is no click. The filter stays the one designed for the creation
//! ratio.

// Lane loops index several fixed-size arrays by the same lane number.
#![allow(clippy::needless_range_loop)]

use super::design::{Coefs, Kernel, Spec};
use super::dot::{dot4_at, dotc_at};
use crate::error::{SkError, SkResult};
use crate::kernels::filter::sos::Layout;
use crate::kernels::{par, Float};
use crate::simd::Level;
use std::sync::Mutex;

/// The most phases of an exactly rational ratio (`L` in `out/in = L/M`); other ratios run on
/// interpolated phases.
pub(crate) const MAX_PHASES: u64 = 2048;
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
        self.i0 += self.q as i64;
        self.frac += self.r;
        if self.frac >= self.den {
            self.frac -= self.den;
            self.i0 += 1;
        }
    }

    /// How many outputs from this one on have `i0 <= last` (at most `limit`).
    fn count_through(&self, last: i64, limit: u64) -> u64 {
        let mut c = *self;
        let mut n = 0u64;
        while c.ramping() && n < limit {
            if c.i0 > last {
                return n;
            }
            n += 1;
            c.advance();
        }
        if c.i0 > last || n >= limit {
            return n;
        }
        // outputs j ≥ 0 with frac + j·step < (last − i0 + 1)·den
        let room = (last as i128 - c.i0 as i128 + 1) * c.den as i128 - c.frac as i128;
        let step = c.step() as i128;
        let more = (room + step - 1) / step;
        n.saturating_add(u64::try_from(more).unwrap_or(u64::MAX))
            .min(limit)
    }
}

/// The precomputed phases.
#[derive(Clone, Debug)]
enum Table<T> {
    /// `L` rows, row `p` at `frac = p/L`.
    Exact(Coefs<T>),
    /// `P + 3` rows, row `r` at `frac = (r − 1)/P`; `P` a power of two.
    Interp(Coefs<T>, u32),
}

/// Phases per input sample of an interpolated table: enough that cubic interpolation between
/// phases stays below the stopband floor.
fn interp_phases(spec: &Spec, ratio: f64) -> u32 {
    let p0 = if spec.atten_db <= 100.0 {
        64.0
    } else if spec.atten_db <= 140.0 {
        128.0
    } else {
        256.0
    };
    ((p0 * ratio.min(1.0)).ceil() as u32)
        .next_power_of_two()
        .max(4)
}

/// The step of a free-running clock for `ratio = out/in`.
fn free_step(ratio: f64) -> u64 {
    (FREE_DEN as f64 / ratio).round() as u64
}

fn interp_table<T: Float>(kernel: &Kernel, spec: &Spec, ratio: f64) -> SkResult<Table<T>> {
    let p = interp_phases(spec, ratio);
    Ok(Table::Interp(
        kernel.table(p as usize + 3, -1.0, p as f64)?,
        p,
    ))
}

/// Output length of a one-shot conversion of `n_in` frames from `in_rate` to `out_rate`: the
/// number of output instants `m·in/out` (`m >= 0`) before `n_in`. For an exact rational ratio
/// `L/M` that is `ceil(n_in·L/M)`; otherwise the instants are those of the free-running clock
/// (steps of `round(2⁴⁰·in/out)/2⁴⁰`). The rates must be valid.
pub fn output_len(in_rate: f64, out_rate: f64, n_in: usize) -> u64 {
    let (den, step) = match rational(in_rate, out_rate) {
        Some((l, m)) => (l, m),
        None => (FREE_DEN, free_step(out_rate / in_rate)),
    };
    Clock::new(0, den, step).count_through(n_in as i64 - 1, u64::MAX)
}

/// A streaming resampler for `channels` channels of `T`.
#[derive(Clone, Debug)]
pub struct Resampler<T> {
    channels: usize,
    spec: Spec,
    in_rate: f64,
    out_rate: f64,
    ratio: f64,
    kernel: Kernel,
    /// `(L, M)` of an exact ratio, `(0, 0)` otherwise.
    exact: (u64, u64),
    table: Table<T>,
    /// The interpolated table, once a ratio change needs it on an exact stream.
    interp: Option<Table<T>>,
    latency: usize,
    clock: Clock,
    start: Clock,
    /// Input index of `bufs[c][0]`; `base + bufs[c].len()` is the input received so far.
    base: i64,
    start_base: i64,
    received: i64,
    bufs: Vec<Vec<T>>,
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

impl<T: Float> Resampler<T> {
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
        let kernel = Kernel::new(&spec, ratio)?;
        let latency = (kernel.half_width() * ratio).ceil() as usize;
        let exact = rational(in_rate, out_rate);
        let clock = match exact {
            Some((l, m)) => Clock::new(-(latency as i128) * m as i128, l, m),
            None => {
                let step = free_step(ratio);
                Clock::new(-(latency as i128) * step as i128, FREE_DEN, step)
            }
        };
        // exact phases when the table is small enough, else interpolated ones (on the same
        // exact clock)
        let table = match exact {
            Some((l, _)) if l * kernel.taps as u64 <= MAX_EXACT_TABLE => {
                Table::Exact(kernel.table(l as usize, 0.0, l as f64)?)
            }
            _ => interp_table(&kernel, &spec, ratio)?,
        };
        let base = (clock.i0 - kernel.offset as i64).min(0);
        let mut bufs = Vec::new();
        bufs.try_reserve_exact(channels)
            .map_err(|_| alloc_err("the channel buffers"))?;
        for _ in 0..channels {
            bufs.push(try_zeros((-base) as usize, "the channel history")?);
        }
        Ok(Resampler {
            channels,
            spec,
            in_rate,
            out_rate,
            ratio,
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
            bufs,
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

    /// `Some((L, M))` if the stream started on an exact rational ratio `L/M`.
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

    /// The last input index the next output's window reads (`i0 − A + K − 1`).
    fn reach(&self) -> i64 {
        self.kernel.taps as i64 - 1 - self.kernel.offset as i64
    }

    /// Outputs that `n_in` more input frames make available (no flush).
    pub fn output_size(&self, n_in: usize) -> u64 {
        let end = self.received.saturating_add(n_in as i64);
        self.clock.count_through(end - 1 - self.reach(), u64::MAX)
    }

    /// Outputs a flush would write now: the rest of the outputs whose instant lies before the
    /// end of the input received.
    pub fn flush_size(&self) -> u64 {
        if self.received == 0 {
            return 0;
        }
        self.clock.count_through(self.received - 1, u64::MAX)
    }

    /// Back to the state right after creation (ratio, history, clock).
    pub fn reset(&mut self) {
        self.clock = self.start;
        self.base = self.start_base;
        self.received = 0;
        for b in &mut self.bufs {
            b.clear();
            b.resize((-self.base) as usize, T::ZERO);
        }
    }

    /// Moves the ratio `out/in` to `ratio`, linearly over `ramp` outputs (0: at once).
    pub fn set_ratio(&mut self, ratio: f64, ramp: u64) -> SkResult<()> {
        check_ratio(ratio)?;
        if matches!(self.table, Table::Exact(_)) && self.interp.is_none() {
            self.interp = Some(interp_table(&self.kernel, &self.spec, self.ratio)?);
        }
        let target = free_step(ratio);
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

    /// The table for the current clock: exact phases only serve an exact clock.
    fn table(&self) -> &Table<T> {
        match (&self.table, &self.interp) {
            (Table::Exact(_), Some(t)) if self.clock.den == FREE_DEN => t,
            _ => &self.table,
        }
    }

    /// Appends `n` frames (zeros if `x` is `None`), reserving first.
    fn append(&mut self, x: Option<(&[T], Layout)>, n: usize) -> SkResult<()> {
        if n == 0 {
            return Ok(());
        }
        for b in &mut self.bufs {
            b.try_reserve(n)
                .map_err(|_| alloc_err("room for the input"))?;
        }
        for (c, b) in self.bufs.iter_mut().enumerate() {
            match x {
                None => b.resize(b.len() + n, T::ZERO),
                Some((x, l)) if l.t == 1 => b.extend_from_slice(&x[c * l.ch..c * l.ch + n]),
                Some((x, l)) => b.extend((0..n).map(|t| x[c * l.ch + t * l.t])),
            }
        }
        self.received += n as i64;
        Ok(())
    }

    /// Writes `count` outputs into `y` (layout `yl`), advances the clock and drops history no
    /// longer needed. The buffers hold every sample the outputs read.
    fn render(&mut self, level: Level, y: &mut [T], yl: Layout, count: usize, mut scratch: Vec<T>) {
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
            for _ in 0..piece.min(count.saturating_sub(p * piece)) {
                c.advance();
            }
        }
        let bufs = &self.bufs;
        let job = |(c, clock, outs): &mut Job<'_, T>| {
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
        for _ in 0..count {
            self.clock.advance();
        }
        let new_base = self.clock.i0 - off as i64;
        if new_base > self.base {
            for b in &mut self.bufs {
                let drop = ((new_base - self.base) as usize).min(b.len());
                b.drain(..drop);
            }
        }
        let len = self.bufs[0].len() as i64;
        self.base = self.received - len;
    }

    /// The scratch `render` needs for `count` outputs in layout `yl`, allocated up front so
    /// nothing changes when the allocation fails.
    fn scratch(&self, yl: Layout, count: usize) -> SkResult<Vec<T>> {
        let mut v = Vec::new();
        if yl.t != 1 && count > 0 {
            let n = count
                .checked_mul(self.channels)
                .ok_or_else(|| SkError::Length("output size overflows".into()))?;
            v.try_reserve_exact(n)
                .map_err(|_| alloc_err("the output scratch"))?;
        }
        Ok(v)
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
        let avail = self.output_size(n_in);
        let produced = avail.min(cap as u64) as usize;
        let consumed = if avail > cap as u64 {
            // the room ran out: consume what the last written output reads, no more
            let mut c = self.clock;
            for _ in 0..produced.saturating_sub(1) {
                c.advance();
            }
            if produced == 0 {
                0
            } else {
                let end = c.i0 + self.reach() + 1;
                (end - self.received).clamp(0, n_in as i64) as usize
            }
        } else {
            n_in
        };
        let scratch = self.scratch(yl, produced)?;
        self.append(Some((x, xl)), consumed)?;
        self.render(level, y, yl, produced, scratch);
        Ok((consumed, produced))
    }

    /// Ends the input: writes the remaining [`flush_size`](Self::flush_size) outputs into `y`
    /// (zeros stand for the input past the end) and resets the stream. `cap` below the flush
    /// size is `SK_ERR_BUFFER_TOO_SMALL` and nothing changes.
    pub fn flush(&mut self, level: Level, y: &mut [T], yl: Layout, cap: usize) -> SkResult<usize> {
        let n = self.flush_size();
        if n > cap as u64 {
            return Err(SkError::BufferTooSmall(format!(
                "the output has room for {cap} frames but the flush writes {n}"
            )));
        }
        let n = n as usize;
        if n > 0 {
            let mut c = self.clock;
            for _ in 0..n - 1 {
                c.advance();
            }
            let end = c.i0 + self.reach() + 1;
            let pad = (end - self.received).max(0) as usize;
            let scratch = self.scratch(yl, n)?;
            self.append(None, pad)?;
            self.render(level, y, yl, n, scratch);
        }
        self.reset();
        Ok(n)
    }

    /// Skips the next `n` outputs (the one-shot conversion drops the latency this way).
    fn skip(&mut self, n: usize) {
        for _ in 0..n {
            self.clock.advance();
        }
    }
}

/// Output length of a one-shot conversion of `n_in` frames with `r` (see [`output_len`]).
pub fn oneshot_len<T: Float>(r: &Resampler<T>, n_in: usize) -> u64 {
    output_len(r.in_rate, r.out_rate, n_in)
}

/// One-shot conversion: `n_in` frames of `x` (layout `xl`) into exactly
/// [`oneshot_len`] frames of `y` (layout `yl`), delay removed and tail flushed: output `m` is
/// the signal at input time `m·in/out`. `y` must hold `oneshot_len` frames (checked).
pub fn resample<T: Float>(
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
type Job<'a, T> = (usize, Clock, Vec<&'a mut [T]>);

/// One job per piece of `piece` outputs and group of up to `group` consecutive channels.
fn split_jobs<'a, T>(
    outs: Vec<&'a mut [T]>,
    piece: usize,
    clocks: &[Clock],
    group: usize,
) -> Vec<Job<'a, T>> {
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
    mut clock: Clock,
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
    let n = outs.first().map_or(0, |o| o.len());
    let start = |c: &Clock| (c.i0 - off as i64 - base) as usize;
    match outs.len() {
        0 => {}
        1 => render_channel(level, table, clock, base, off, k, &bufs[0], outs[0]),
        2 => {
            for i in 0..n {
                let (s, p) = (start(&clock), clock.frac as usize);
                let c = &t[p * k..p * k + k];
                let d = dotc_at(level, c, [&bufs[0][s..s + k], &bufs[1][s..s + k]]);
                outs[0][i] = d[0];
                outs[1][i] = d[1];
                clock.advance();
            }
        }
        g => {
            // three channels: the fourth window repeats the third, its result unused
            for i in 0..n {
                let (s, p) = (start(&clock), clock.frac as usize);
                let c = &t[p * k..p * k + k];
                let w = |r: usize| &bufs[r.min(g - 1)][s..s + k];
                let d = dotc_at(level, c, [w(0), w(1), w(2), w(3)]);
                for (r, o) in outs.iter_mut().enumerate() {
                    o[i] = d[r];
                }
                clock.advance();
            }
        }
    }
}

/// Renders `out.len()` outputs of one channel from `clock` on. `buf[0]` is input `base`.
#[allow(clippy::too_many_arguments)]
fn render_channel<T: Float>(
    level: Level,
    table: &Table<T>,
    mut clock: Clock,
    base: i64,
    off: usize,
    k: usize,
    buf: &[T],
    out: &mut [T],
) {
    let start = |c: &Clock| (c.i0 - off as i64 - base) as usize;
    match table {
        Table::Exact(t) => {
            let t = t.get();
            let row = |p: u64| &t[p as usize * k..p as usize * k + k];
            let mut chunks = out.chunks_exact_mut(4);
            for o in &mut chunks {
                let mut c = [&t[..k]; 4];
                let mut x = [&buf[..0]; 4];
                for r in 0..4 {
                    let s = start(&clock);
                    c[r] = row(clock.frac);
                    x[r] = &buf[s..s + k];
                    clock.advance();
                }
                o.copy_from_slice(&dot4_at(level, c, x));
            }
            for o in chunks.into_remainder() {
                let s = start(&clock);
                let c = row(clock.frac);
                let x = &buf[s..s + k];
                *o = dot4_at(level, [c; 4], [x; 4])[0];
                clock.advance();
            }
        }
        Table::Interp(t, p) => {
            let t = t.get();
            for o in out.iter_mut() {
                let s = start(&clock);
                let x = &buf[s..s + k];
                // frac < den ≤ 2⁴⁰ and p ≤ 2⁸: exact in f64
                let u = (clock.frac * *p as u64) as f64 / clock.den as f64;
                let q = (u.floor() as usize).min(*p as usize - 1);
                let w = u - q as f64;
                let rows = &t[q * k..(q + 4) * k];
                let d = dot4_at(
                    level,
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
}

/// Runs `f` on every channel job, split over threads when the work is large; a part whose
/// thread cannot be started runs on the calling thread. Each channel is computed the same way
/// whichever thread runs it.
fn run_channels<J: Send>(jobs: &mut [J], work: usize, f: impl Fn(&mut J) + Sync) {
    let threads = par::threads_for(jobs.len(), work);
    if threads <= 1 {
        jobs.iter_mut().for_each(&f);
        return;
    }
    let per = jobs.len().div_ceil(threads);
    let slots: Vec<Mutex<Option<&mut [J]>>> =
        jobs.chunks_mut(per).map(|p| Mutex::new(Some(p))).collect();
    let run = |slot: &Mutex<Option<&mut [J]>>| {
        let part = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(part) = part {
            part.iter_mut().for_each(&f);
        }
    };
    std::thread::scope(|s| {
        let mut failed = Vec::new();
        for slot in &slots[1..] {
            let run = &run;
            if std::thread::Builder::new()
                .spawn_scoped(s, move || run(slot))
                .is_err()
            {
                failed.push(slot);
            }
        }
        run(&slots[0]);
        for slot in failed {
            run(slot);
        }
    });
}

/// Stopbands deeper than this (dB) run `float` streams in `double` inside: `float` products
/// summed over a few hundred taps leave rounding noise near −140 dB.
pub(crate) const WIDE_ABOVE_DB: f64 = 140.0;

fn widen(x: &[f32], xl: Layout, channels: usize, n: usize) -> SkResult<Vec<f64>> {
    let len = n
        .checked_mul(channels)
        .ok_or_else(|| SkError::Length("input size overflows".into()))?;
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| alloc_err("the double copy of the input"))?;
    for c in 0..channels {
        v.extend((0..n).map(|t| x[c * xl.ch + t * xl.t] as f64));
    }
    Ok(v)
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
    let xs = widen(x, xl, ch, n_in)?;
    let room = r.output_size(n_in).min(cap as u64) as usize;
    let mut ys = try_zeros::<f64>(
        room.checked_mul(ch)
            .ok_or_else(|| SkError::Length("output size overflows".into()))?,
        "the double output",
    )?;
    let (c, p) = r.process(
        level,
        &xs,
        Layout::planar(n_in.max(1)),
        n_in,
        &mut ys,
        Layout::planar(room.max(1)),
        room,
    )?;
    narrow(&ys, p, ch, y, yl);
    Ok((c, p))
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
    let mut ys = try_zeros::<f64>(
        n.checked_mul(ch)
            .ok_or_else(|| SkError::Length("output size overflows".into()))?,
        "the double output",
    )?;
    let p = if n > cap {
        r.flush(level, &mut ys, Layout::planar(n.max(1)), cap)?
    } else {
        r.flush(level, &mut ys, Layout::planar(n.max(1)), n)?
    };
    narrow(&ys, p, ch, y, yl);
    Ok(p)
}

/// [`resample`] for `float` data on a `double` resampler.
pub fn resample_wide(
    level: Level,
    r: Resampler<f64>,
    x: &[f32],
    xl: Layout,
    n_in: usize,
    y: &mut [f32],
    yl: Layout,
) -> SkResult<usize> {
    let ch = r.channels;
    let xs = widen(x, xl, ch, n_in)?;
    let want = oneshot_len(&r, n_in) as usize;
    let mut ys = try_zeros::<f64>(
        want.checked_mul(ch)
            .ok_or_else(|| SkError::Length("output size overflows".into()))?,
        "the double output",
    )?;
    let n = resample(
        level,
        r,
        &xs,
        Layout::planar(n_in.max(1)),
        n_in,
        &mut ys,
        Layout::planar(want.max(1)),
    )?;
    narrow(&ys, n, ch, y, yl);
    Ok(n)
}
