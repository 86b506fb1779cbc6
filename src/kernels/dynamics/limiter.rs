//! Lookahead limiter with a true-peak ceiling.
//!
//! Per frame `n`:
//! 1. `q[n]`: the largest of every channel's `|x[n]|` and its inter-sample values estimated by
//!    the true-peak interpolator of the loudness meter (BS.1770-4 Annex 2: 4× below 96 kHz, 2×
//!    below 192 kHz);
//! 2. the needed gain `r[n] = min(1, ceiling / q[n])`;
//! 3. its minimum over the last `H` frames (`H = W + 6 + 2M`, `W` the lookahead in frames,
//!    `M = 6` frames of margin on either side of the interpolator's reach);
//! 4. release: falls at once, rises as a one-pole with the release time (JUCE ballistics
//!    coefficient);
//! 5. a `W`-frame moving average (a straight-line attack over the lookahead);
//! 6. output `g[n]·x[n − D]` with `D = W + 5 + M` (the latency): every gain applied near a
//!    sample is at most the gain that sample and its inter-sample neighbourhood need.

use super::{ballistic_coef, channel_cuts, check_channels, check_db, check_rate, Block, Det};
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::loudness::truepeak::{design, factor, HISTORY, TAPS};
use crate::kernels::{par, Float};
use crate::simd::{multiversion, Level};
use std::sync::Arc;

/// Shortest lookahead, ms (a shorter attack moves the gain too fast for the true-peak bound).
pub(crate) const MIN_LOOKAHEAD_MS: f64 = 1.0;
/// Shortest release, ms (likewise).
pub(crate) const MIN_RELEASE_MS: f64 = 10.0;
/// Margin, frames.
const MARGIN: usize = 6;
/// Frames per inner block.
const BLK: usize = 256;
/// The ceiling the gains aim at, relative to the requested one (−0.1 dB): room for the
/// inter-sample overshoot a gain that changes within the interpolator's reach can cause.
const SAFETY: f64 = 0.988_553_094_656_938;

/// A streaming lookahead limiter.
#[derive(Clone, Debug)]
pub struct Limiter {
    channels: usize,
    ceiling: f64,
    rel: f64,
    w: usize,
    h: usize,
    d: usize,
    /// Shared (not copied) with the threads that compute peaks beside [`Limiter::run`].
    phases: Arc<Folded>,
    /// Interpolator history, `HISTORY` per channel (oldest first).
    hist: Vec<f64>,
    /// Running minimum over `h` frames (van Herk / Gil-Werman): the frames are cut into blocks
    /// of `h`; `cur` holds the needed gains of the current block, `pre` their running minimum,
    /// `suf[i]` the minimum of the previous block from position `i` on (`suf[h]` = 1, the
    /// neutral value: every needed gain is at most 1), `vk` the position in the block.
    cur: Vec<f64>,
    suf: Vec<f64>,
    pre: f64,
    vk: usize,
    e: f64,
    /// Moving-average ring (`w` values) and its running sum.
    ring: Vec<f64>,
    sum: f64,
    /// Delay line, `d` per channel.
    delay: Vec<f64>,
    pos: usize,
    /// Frames processed modulo `w`.
    k: usize,
    /// Frames per chunk of a call (see [`Limiter::process`]).
    pub(crate) chunk: usize,
    /// Per-channel peaks of a chunk (`chunk` per channel), the next chunk's while `peaks` are
    /// used (see [`Limiter::process`]), and the chunk's needed and applied gains: scratch,
    /// allocated with the limiter (`next` when first needed, see [`Limiter::next_ready`]).
    peaks: Vec<f64>,
    next: Vec<f64>,
    need: Vec<f64>,
    gain: Vec<f64>,
    /// Set by [`set_serial`](Self::set_serial): every call stays on the calling thread.
    serial: bool,
}

/// Sample-channel values a chunk's peak scratch holds at most (it holds at least [`BLK`] frames,
/// at most [`MAX_CHUNK`]).
const CHUNK_VALUES: usize = 1 << 15;
/// Most frames per chunk: the per-channel peaks of a chunk are split over threads, so a chunk
/// must be long enough for the split to pay.
const MAX_CHUNK: usize = 1 << 14;
/// Pieces the next chunk's peaks split into beside a chunk's pass (see
/// [`Limiter::run_beside_peaks`]): several per thread, so that the pass and the pieces even out.
const PIECES: usize = 8;

/// A part of [`Limiter::run_beside_peaks`]: the chunk's pass, or the peaks of
/// `(channel, first frame, frames, history, output)`.
enum Job<'s, 'b, T> {
    Run(&'s mut Limiter, &'s mut Block<'b, T>),
    Peaks(usize, usize, usize, &'s mut [f64; HISTORY], &'s mut [f64]),
}

impl Limiter {
    /// A limiter at `rate` Hz whose output's true peak stays at or below `ceiling_db` dBTP.
    pub fn new(
        rate: f64,
        channels: usize,
        ceiling_db: f64,
        lookahead_ms: f64,
        release_ms: f64,
    ) -> SkResult<Self> {
        check_rate(rate)?;
        check_channels(channels)?;
        check_db("ceiling_db", ceiling_db)?;
        if !(MIN_RELEASE_MS..=super::MAX_MS).contains(&release_ms) {
            return Err(SkError::BadArgument(format!(
                "release_ms = {release_ms} is outside {MIN_RELEASE_MS}..={}",
                super::MAX_MS
            )));
        }
        if !(MIN_LOOKAHEAD_MS..=1000.0).contains(&lookahead_ms) {
            return Err(SkError::BadArgument(format!(
                "lookahead_ms = {lookahead_ms} is outside {MIN_LOOKAHEAD_MS}..=1000"
            )));
        }
        let w = ((lookahead_ms * rate / 1000.0).round() as usize).max(1);
        let h = w + 6 + 2 * MARGIN;
        let d = w + 5 + MARGIN;
        let chunk = (CHUNK_VALUES / channels).clamp(BLK, MAX_CHUNK);
        let mut l = Limiter {
            chunk,
            peaks: try_vec(channels * chunk, 0.0, "limiter scratch")?,
            next: Vec::new(),
            need: try_vec(chunk, 0.0, "limiter scratch")?,
            gain: try_vec(chunk, 0.0, "limiter scratch")?,
            channels,
            ceiling: 10f64.powf(ceiling_db / 20.0) * SAFETY,
            rel: ballistic_coef(rate, release_ms),
            w,
            h,
            d,
            phases: Arc::new(Folded::new(&design(factor(rate)))),
            hist: try_vec(channels * HISTORY, 0.0, "limiter state")?,
            cur: try_vec(h, 1.0, "limiter state")?,
            suf: try_vec(h + 1, 1.0, "limiter state")?,
            pre: 1.0,
            vk: 0,
            e: 1.0,
            ring: try_vec(w, 1.0, "limiter state")?,
            serial: false,
            sum: w as f64,
            delay: try_vec(
                channels
                    .checked_mul(d)
                    .ok_or_else(|| SkError::Length("limiter delay line too large".into()))?,
                0.0,
                "limiter delay line",
            )?,
            pos: 0,
            k: 0,
        };
        l.reset();
        Ok(l)
    }

    pub fn channels(&self) -> usize {
        self.channels
    }
    /// Latency in frames: output frame `t` is input frame `t − latency` (zeros before).
    pub fn latency(&self) -> usize {
        self.d
    }
    /// The interpolator history carried to the next call (for tests of the carry-over).
    #[cfg(test)]
    pub(crate) fn history(&self) -> &[f64] {
        &self.hist
    }

    /// Forgets the signal history (as new).
    pub fn reset(&mut self) {
        self.hist.iter_mut().for_each(|v| *v = 0.0);
        self.cur.iter_mut().for_each(|v| *v = 1.0);
        self.suf.iter_mut().for_each(|v| *v = 1.0);
        self.pre = 1.0;
        self.vk = 0;
        self.e = 1.0;
        self.ring.iter_mut().for_each(|v| *v = 1.0);
        self.sum = self.w as f64;
        self.delay.iter_mut().for_each(|v| *v = 0.0);
        self.pos = 0;
        self.k = 0;
    }

    /// Processes one block. Refuses NaN/inf in the input with nothing changed.
    ///
    /// The block runs in chunks of up to [`MAX_CHUNK`] frames: first every channel's peaks
    /// (step 1 before the maximum over channels), then the rest, which is serial in time, in
    /// one pass ([`run`](Self::run)). The peaks are computed on the library's threads when the
    /// chunk is long enough: split by channels, and when the input is not the output (so that
    /// it can be read while the output is written), the next chunk's peaks are computed beside
    /// the current chunk's pass, in pieces of channels and frames that the threads take in
    /// turn. Chunks, threads and SIMD levels never change a bit.
    pub fn process<T: Float>(&mut self, level: Level, b: Block<'_, T>) -> SkResult<()> {
        let serial = self.serial;
        par::serial_if(serial, || self.process_on(level, b))
    }

    /// Keeps every later call on the calling thread (a real-time handle; results do not
    /// change). A call then allocates nothing at any block size: the scratch is the handle's,
    /// and the one only the threaded path needs is never made.
    pub fn set_serial(&mut self) {
        self.serial = true;
    }

    /// [`process`](Self::process) on the threads the caller chose.
    fn process_on<T: Float>(&mut self, level: Level, mut b: Block<'_, T>) -> SkResult<()> {
        if b.key.is_some() {
            return Err(SkError::BadArgument(
                "the limiter takes no sidechain input".into(),
            ));
        }
        b.check_finite(level)?;
        let apart = b.det_apart();
        let mut t0 = 0;
        // whether `peaks` already holds the chunk at `t0`
        let mut ready = false;
        while t0 < b.n {
            let len = (b.n - t0).min(self.chunk);
            if !ready {
                self.peaks_of(level, b.det(), t0, len);
            }
            let t1 = t0 + len;
            let len1 = (b.n - t1).min(self.chunk);
            let pieces = if apart.is_some() && len1 > 0 && self.next_ready() {
                self.pieces(t1, len1)
            } else {
                Vec::new()
            };
            match apart {
                Some(x) if !pieces.is_empty() => {
                    self.run_beside_peaks(level, &mut b, x, t0, len, &pieces);
                    ready = true;
                }
                _ => {
                    run_at(level, self, &mut b, t0, len);
                    ready = false;
                }
            }
            t0 = t1;
        }
        Ok(())
    }

    /// Whether `next` has room for a chunk's peaks: it is allocated on the first block whose
    /// input is apart from its output (in-place use never needs it); if that allocation fails,
    /// the peaks are computed the other way (same bits).
    fn next_ready(&mut self) -> bool {
        if self.next.is_empty() {
            if let Ok(v) = try_vec(self.channels * self.chunk, 0.0, "limiter scratch") {
                self.next = v;
            }
        }
        !self.next.is_empty()
    }

    /// Step 1 for frames `t0..t0 + len` into `peaks`, the channels split over threads when the
    /// chunk is long enough.
    fn peaks_of<T: Float>(&mut self, level: Level, x: Det<'_, T>, t0: usize, len: usize) {
        let ch = self.channels;
        let chunk = self.chunk;
        // about 100 operations a sample for the 4x interpolator
        let cuts = channel_cuts(ch, len, 100);
        let peaks = &mut self.peaks[..ch * chunk];
        let hist = &mut self.hist[..ch * HISTORY];
        let phases = &*self.phases;
        if cuts.len() > 2 {
            let mut parts = Vec::with_capacity(cuts.len() - 1);
            let (mut pr, mut hr) = (peaks, hist);
            for w in cuts.windows(2) {
                let m = w[1] - w[0];
                let (p, pt) = pr.split_at_mut(m * chunk);
                let (h, ht) = hr.split_at_mut(m * HISTORY);
                (pr, hr) = (pt, ht);
                parts.push((w[0], p, h));
            }
            par::run_parts(parts, |(c0, p, h)| {
                peaks_at(level, phases, x, c0, h, p, chunk, t0, len)
            });
        } else {
            peaks_at(level, phases, x, 0, hist, peaks, chunk, t0, len);
        }
    }

    /// The pieces `(channel, first frame, frames)` the peaks of frames `t1..t1 + len1` split
    /// into beside a chunk's pass: empty when the work is too small for threads, else about
    /// [`PIECES`] of them (whole channels when there are that many), each channel's pieces in
    /// order of time.
    fn pieces(&self, t1: usize, len1: usize) -> Vec<(usize, usize, usize)> {
        let ch = self.channels;
        if par::threads_for(PIECES, ch.saturating_mul(len1).saturating_mul(100)) < 2 {
            return Vec::new();
        }
        let per_ch = PIECES.div_ceil(ch);
        let step = len1.div_ceil(per_ch).max(BLK);
        let mut v = Vec::with_capacity(ch * len1.div_ceil(step));
        for c in 0..ch {
            let mut s = 0;
            while s < len1 {
                let m = step.min(len1 - s);
                v.push((c, t1 + s, m));
                s += m;
            }
        }
        v
    }

    /// Steps 2–6 of frames `t0..t0 + len` (the peaks in `peaks`) on the calling thread, and
    /// step 1 of the `pieces` of the next chunk (from `t0 + len`) into `next` on whichever
    /// threads are free; then `next` becomes `peaks`. `x` is the block's input, apart from its
    /// output. A piece that starts a channel's chunk takes the channel's carried history; a
    /// later one, the input frames before it (the history is the previous `HISTORY` input
    /// samples either way, so the pieces give the peaks of one pass, bit for bit).
    fn run_beside_peaks<T: Float>(
        &mut self,
        level: Level,
        b: &mut Block<'_, T>,
        x: Det<'_, T>,
        t0: usize,
        len: usize,
        pieces: &[(usize, usize, usize)],
    ) {
        let chunk = self.chunk;
        let t1 = t0 + len;
        let phases = Arc::clone(&self.phases);
        let mut next = std::mem::take(&mut self.next);
        let mut hists: Vec<[f64; HISTORY]> = pieces
            .iter()
            .map(|&(c, s, _)| {
                let mut h = [0.0; HISTORY];
                if s == t1 {
                    h.copy_from_slice(&self.hist[c * HISTORY..(c + 1) * HISTORY]);
                } else {
                    x.load_lane(c, s - HISTORY, &mut h);
                }
                h
            })
            .collect();
        let mut parts: Vec<Job<'_, '_, T>> = Vec::with_capacity(pieces.len() + 1);
        {
            // the pieces' outputs: disjoint runs of `next`, in order of channel and time
            let mut outs = Vec::with_capacity(pieces.len());
            let mut rest = &mut next[..self.channels * chunk];
            let mut at = 0;
            for &(c, s, m) in pieces {
                let from = c * chunk + (s - t1);
                let (_, tail) = std::mem::take(&mut rest).split_at_mut(from - at);
                let (mine, tail) = tail.split_at_mut(m);
                outs.push(mine);
                rest = tail;
                at = from + m;
            }
            let run = Job::Run(&mut *self, &mut *b);
            parts.push(run);
            for ((&(c, s, m), h), out) in pieces.iter().zip(hists.iter_mut()).zip(outs) {
                parts.push(Job::Peaks(c, s, m, h, out));
            }
        }
        par::run_parts(parts, |job| match job {
            Job::Run(l, b) => run_at(level, l, b, t0, len),
            // one channel per piece, so the `chunk` stride between channels' peaks is never
            // used: the piece's own length stands in for it
            Job::Peaks(c, s, m, h, out) => peaks_at(level, &phases, x, c, h, out, m, s, m),
        });
        // each channel carries the history its last piece ended with
        for (k, (&(c, _, _), h)) in pieces.iter().zip(&hists).enumerate() {
            if pieces.get(k + 1).is_none_or(|p| p.0 != c) {
                self.hist[c * HISTORY..(c + 1) * HISTORY].copy_from_slice(h);
            }
        }
        self.next = next;
        std::mem::swap(&mut self.peaks, &mut self.next);
    }

    /// Steps 2–6 for frames `t0..t0 + len` of `b` (one chunk), from the peaks of every
    /// channel in `self.peaks`. Compiled once per SIMD level (see [`run_at`]).
    #[inline(always)]
    fn run<T: Float>(&mut self, b: &mut Block<'_, T>, t0: usize, len: usize) {
        let ch = self.channels;
        let chunk = self.chunk;
        // 1. (end) the largest peak over the channels
        let mut need = std::mem::take(&mut self.need);
        let mut gain = std::mem::take(&mut self.gain);
        let q = &mut need[..len];
        q.iter_mut().for_each(|v| *v = 0.0);
        for c in 0..ch {
            for (qv, &m) in q.iter_mut().zip(&self.peaks[c * chunk..c * chunk + len]) {
                *qv = if m > *qv { m } else { *qv };
            }
        }
        // 2. the needed gains (a pass the compiler vectorises, divisions included)
        let ceiling = self.ceiling;
        for v in q.iter_mut() {
            *v = if *v > ceiling { ceiling / *v } else { 1.0 };
        }
        // 3.-5. serial in time: running sums of the moving average into `g`
        let g = &mut gain[..len];
        self.averages(q, g);
        let wf = self.w as f64;
        for v in g.iter_mut() {
            // the average of values each <= 1 never exceeds 1 but for rounding
            let a = *v / wf;
            *v = if a > 1.0 { 1.0 } else { a };
        }
        // 6. delay and apply, channel by channel, in blocks of BLK frames
        let d = self.d;
        let p0 = self.pos;
        let mut p = p0;
        for c in 0..ch {
            let line = &mut self.delay[c * d..(c + 1) * d];
            p = p0;
            let mut xs = [0.0f64; BLK];
            for b0 in (0..len).step_by(BLK) {
                let bl = (len - b0).min(BLK);
                b.load_lane(c, t0 + b0, &mut xs[..bl]);
                // the delay line in contiguous runs up to its wrap
                let mut i = 0;
                while i < bl {
                    let run = (d - p).min(bl - i);
                    let seg = &mut line[p..p + run];
                    for ((slot, v), &gi) in
                        seg.iter_mut().zip(&mut xs[i..i + run]).zip(&g[b0 + i..])
                    {
                        let old = *slot;
                        *slot = *v;
                        *v = old * gi;
                    }
                    i += run;
                    p = if p + run == d { 0 } else { p + run };
                }
                b.store_lane(c, t0 + b0, &xs[..bl]);
            }
        }
        self.pos = p;
        self.need = need;
        self.gain = gain;
    }

    /// Steps 3–5 for a run of frames: the needed gains `r` in, the moving sums (`w` times the
    /// gain) out. The state lives in locals over the run (registers, not memory).
    #[inline(always)]
    fn averages(&mut self, r: &[f64], out: &mut [f64]) {
        let (h, w, rel) = (self.h, self.w, self.rel);
        let crel = 1.0 - rel;
        let (mut vk, mut pre, mut e, mut k, mut sum) =
            (self.vk, self.pre, self.e, self.k, self.sum);
        let cur = &mut self.cur[..h];
        let suf = &mut self.suf[..h + 1];
        let ring = &mut self.ring[..w];
        for (o, &r) in out.iter_mut().zip(r) {
            // running minimum over the last `h` frames: the previous block's suffix from
            // `vk + 1` on and the current block's prefix up to `vk`
            cur[vk] = r;
            pre = if vk == 0 || r < pre { r } else { pre };
            let s = suf[vk + 1];
            let hmin = if s < pre { s } else { pre };
            if vk + 1 == h {
                let mut m = 1.0f64;
                for (sv, &v) in suf[..h].iter_mut().zip(cur.iter()).rev() {
                    m = if v < m { v } else { m };
                    *sv = m;
                }
                vk = 0;
            } else {
                vk += 1;
            }
            // release: `hmin` when it is below `e`, else the one-pole step towards it. As
            // `min(hmin, rel·e + (1 − rel)·hmin)` (the step lands above `hmin` exactly when
            // `hmin < e`) the per-frame dependency chain is a multiply, an add and a min,
            // and rounding can never lift `e` above `hmin`.
            let v = rel * e + crel * hmin;
            e = if v < hmin { v } else { hmin };
            // moving average; the sum is recomputed exactly every `w` frames (no drift)
            let old = ring[k];
            ring[k] = e;
            if k + 1 == w {
                sum = ring.iter().sum();
                k = 0;
            } else {
                sum = sum - old + e;
                k += 1;
            }
            *o = sum;
        }
        (self.vk, self.pre, self.e, self.k, self.sum) = (vk, pre, e, k, sum);
    }
}

/// Taps of a folded phase: the interpolator's `TAPS` taps in symmetric pairs.
const HALF: usize = TAPS / 2;

/// The interpolating phases folded by their symmetry. The phases are windowed sincs centred
/// between the inputs, so phase `F − p` is phase `p` reversed (`h_{F−p}[k] = h_p[11 − k]`) and
/// phase `F/2` is its own reverse. With `u_k = x[t − k] + x[t − 11 + k]` and
/// `v_k = x[t − k] − x[t − 11 + k]` (`k < 6`), a pair's two outputs `y_p`, `y_{F−p}` give
/// `s = y_p + y_{F−p} = Σ (h_p[k] + h_p[11 − k])·u_k` and `d = y_p − y_{F−p} =
/// Σ (h_p[k] − h_p[11 − k])·v_k`, and the larger magnitude is `max(|y_p|, |y_{F−p}|) =
/// (|s| + |d|)/2`; the middle phase is `Σ h[k]·u_k`. Six products per output and phase instead
/// of twelve, the sums shared.
#[derive(Clone, Debug)]
pub(crate) struct Folded {
    /// Factor 4: the sum and difference coefficients of phases 1 and 3.
    pair: Option<([f64; HALF], [f64; HALF])>,
    /// Factors 2 and 4: the first half of the middle phase (`p = F/2`).
    mid: Option<[f64; HALF]>,
}

impl Folded {
    /// Folds the phases `1 .. F` of [`design`] (`F` = 1, 2 or 4).
    pub(crate) fn new(phases: &[[f64; TAPS]]) -> Folded {
        let half = |h: &[f64; TAPS]| std::array::from_fn(|k| h[k]);
        match phases {
            [] => Folded {
                pair: None,
                mid: None,
            },
            [m] => Folded {
                pair: None,
                mid: Some(half(m)),
            },
            [a, m, _] => Folded {
                pair: Some((
                    std::array::from_fn(|k| a[k] + a[TAPS - 1 - k]),
                    std::array::from_fn(|k| a[k] - a[TAPS - 1 - k]),
                )),
                mid: Some(half(m)),
            },
            _ => unreachable!("the true-peak factor is 1, 2 or 4"),
        }
    }
}

/// The folded interpolator at one position: `x[j]` is input `t − 11 + j`.
#[inline(always)]
fn fold_one<const PAIR: bool>(x: &[f64], sd: &([f64; HALF], [f64; HALF]), m: &[f64; HALF]) -> f64 {
    let (mut s, mut d, mut c) = (0.0f64, 0.0f64, 0.0f64);
    for k in 0..HALF {
        let (a, b) = (x[TAPS - 1 - k], x[k]);
        let (u, v) = (a + b, a - b);
        if PAIR {
            s += sd.0[k] * u;
            d += sd.1[k] * v;
        }
        c += m[k] * u;
    }
    larger::<PAIR>(s, d, c)
}

/// The largest magnitude at a position from its sums: `(|s| + |d|)/2` of the pair (with
/// `PAIR`) against `|c|` of the middle phase.
#[inline(always)]
fn larger<const PAIR: bool>(s: f64, d: f64, c: f64) -> f64 {
    let c = c.abs();
    if PAIR {
        let p = 0.5 * (s.abs() + d.abs());
        if p > c {
            p
        } else {
            c
        }
    } else {
        c
    }
}

/// The largest inter-sample magnitude per output position (reference: one position at a time).
fn interp_scalar(buf: &[f64], f: &Folded, out: &mut [f64]) {
    let n = buf.len() - HISTORY;
    match (&f.pair, &f.mid) {
        (Some(sd), Some(m)) => {
            for t in 0..n {
                out[t] = fold_one::<true>(&buf[t..t + TAPS], sd, m);
            }
        }
        (None, Some(m)) => {
            let sd = ([0.0; HALF], [0.0; HALF]);
            for t in 0..n {
                out[t] = fold_one::<false>(&buf[t..t + TAPS], &sd, m);
            }
        }
        _ => out[..n].iter_mut().for_each(|v| *v = 0.0),
    }
}

/// Positions per lane group of [`interp_lanes`].
const IL: usize = 8;

/// [`interp_scalar`] on groups of [`IL`] positions, the accumulators in registers (the same
/// expressions per position, so the same bits).
#[inline(always)]
fn interp_lanes(buf: &[f64], f: &Folded, out: &mut [f64]) {
    let n = buf.len() - HISTORY;
    match (&f.pair, &f.mid) {
        (Some(sd), Some(m)) => fold_lanes::<true>(buf, sd, m, &mut out[..n]),
        (None, Some(m)) => fold_lanes::<false>(buf, &([0.0; HALF], [0.0; HALF]), m, &mut out[..n]),
        _ => out[..n].iter_mut().for_each(|v| *v = 0.0),
    }
}

#[inline(always)]
fn fold_lanes<const PAIR: bool>(
    buf: &[f64],
    sd: &([f64; HALF], [f64; HALF]),
    m: &[f64; HALF],
    out: &mut [f64],
) {
    let n = out.len();
    let full = n - n % IL;
    for t0 in (0..full).step_by(IL) {
        // one accumulator at a time: each sum is then one vector of positions (accumulating
        // the three side by side let the compiler pair `s` and `d` of a position instead)
        let c = fold_acc::<true>(buf, t0, m);
        let mut r = [0.0f64; IL];
        if PAIR {
            let s = fold_acc::<true>(buf, t0, &sd.0);
            let d = fold_acc::<false>(buf, t0, &sd.1);
            for j in 0..IL {
                r[j] = larger::<true>(s[j], d[j], c[j]);
            }
        } else {
            for j in 0..IL {
                r[j] = larger::<false>(0.0, 0.0, c[j]);
            }
        }
        out[t0..t0 + IL].copy_from_slice(&r);
    }
    for t in full..n {
        out[t] = fold_one::<PAIR>(&buf[t..t + TAPS], sd, m);
    }
}

/// `Σ_k h[k]·(x[t − k] ± x[t − 11 + k])` (`SUM`: +, else −) at the positions `t0..t0 + IL`,
/// summed over `k` in the order of [`fold_one`]; `buf[t]` is input `t − 11`.
#[inline(always)]
fn fold_acc<const SUM: bool>(buf: &[f64], t0: usize, h: &[f64; HALF]) -> [f64; IL] {
    let mut acc = [0.0f64; IL];
    for (k, &hk) in h.iter().enumerate() {
        let xa: &[f64; IL] = buf[t0 + TAPS - 1 - k..t0 + TAPS - 1 - k + IL]
            .try_into()
            .unwrap();
        let xb: &[f64; IL] = buf[t0 + k..t0 + k + IL].try_into().unwrap();
        for j in 0..IL {
            let w = if SUM { xa[j] + xb[j] } else { xa[j] - xb[j] };
            acc[j] += hk * w;
        }
    }
    acc
}

#[inline(always)]
fn run_body<T: Float>(l: &mut Limiter, b: &mut Block<'_, T>, t0: usize, len: usize) {
    l.run(b, t0, len)
}

multiversion! {
    /// Steps 2–6 of one chunk compiled for the level.
    fn run_at<T: Float>(l: &mut Limiter, b: &mut Block<'_, T>, t0: usize, len: usize) -> ();
    scalar = run_body; simd = run_body;
}

/// Step 1 for channels `c0..c0 + k` of `x`, frames `t0..t0 + len`: `peaks[j·chunk + i]` = the
/// larger of `|x|` and the interpolated magnitudes of channel `c0 + j` at frame `t0 + i`, with
/// `hist` (`HISTORY` per channel) carried over. `scalar` selects the reference interpolator.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn peaks_body<T: Float, const SCALAR: bool>(
    phases: &Folded,
    x: Det<'_, T>,
    c0: usize,
    hist: &mut [f64],
    peaks: &mut [f64],
    chunk: usize,
    t0: usize,
    len: usize,
) {
    let mut buf = [0.0f64; BLK + HISTORY];
    let mut ip = [0.0f64; BLK];
    for (j, hs) in hist.chunks_exact_mut(HISTORY).enumerate() {
        let pk = &mut peaks[j * chunk..j * chunk + len];
        for b0 in (0..len).step_by(BLK) {
            let bl = (len - b0).min(BLK);
            buf[..HISTORY].copy_from_slice(hs);
            x.load_lane(c0 + j, t0 + b0, &mut buf[HISTORY..HISTORY + bl]);
            hs.copy_from_slice(&buf[bl..bl + HISTORY]);
            if SCALAR {
                interp_scalar(&buf[..bl + HISTORY], phases, &mut ip[..bl]);
            } else {
                interp_lanes(&buf[..bl + HISTORY], phases, &mut ip[..bl]);
            }
            for i in 0..bl {
                let a = buf[HISTORY + i].abs();
                pk[b0 + i] = if a > ip[i] { a } else { ip[i] };
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn peaks_scalar<T: Float>(
    phases: &Folded,
    x: Det<'_, T>,
    c0: usize,
    hist: &mut [f64],
    peaks: &mut [f64],
    chunk: usize,
    t0: usize,
    len: usize,
) {
    peaks_body::<T, true>(phases, x, c0, hist, peaks, chunk, t0, len)
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn peaks_lanes<T: Float>(
    phases: &Folded,
    x: Det<'_, T>,
    c0: usize,
    hist: &mut [f64],
    peaks: &mut [f64],
    chunk: usize,
    t0: usize,
    len: usize,
) {
    peaks_body::<T, false>(phases, x, c0, hist, peaks, chunk, t0, len)
}

multiversion! {
    /// Step 1 of one chunk for a range of channels, compiled for the level.
    #[allow(clippy::too_many_arguments)]
    fn peaks_at<T: Float>(
        phases: &Folded,
        x: Det<'_, T>,
        c0: usize,
        hist: &mut [f64],
        peaks: &mut [f64],
        chunk: usize,
        t0: usize,
        len: usize,
    ) -> ();
    scalar = peaks_scalar; simd = peaks_lanes;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;

    /// The folded interpolator gives the largest magnitude of the designed phases (direct
    /// 12-tap sums) to rounding, at factors 4, 2 and 1, in both bodies (which agree bit for
    /// bit), on random data and on steps and alternating full-scale samples.
    #[test]
    fn folded_phases_equal_the_direct_ones() {
        let mut rng = Rng::new(11);
        let mut x: Vec<f64> = (0..300).map(|_| 2.0 * rng.uniform() - 1.0).collect();
        x.extend((0..40).map(|i| if i % 2 == 0 { 1.0 } else { -1.0 }));
        x.extend((0..40).map(|i| if i < 20 { 0.0 } else { 1e300 }));
        for factor in [4, 2, 1] {
            let phases = design(factor);
            let f = Folded::new(&phases);
            let n = x.len() - HISTORY;
            let (mut a, mut b) = (vec![0.0; n], vec![0.0; n]);
            interp_scalar(&x, &f, &mut a);
            interp_lanes(&x, &f, &mut b);
            for t in 0..n {
                assert_eq!(a[t].to_bits(), b[t].to_bits(), "factor {factor} t {t}");
                let direct = phases
                    .iter()
                    .map(|h| {
                        (0..TAPS)
                            .map(|k| h[k] * x[t + HISTORY - k])
                            .sum::<f64>()
                            .abs()
                    })
                    .fold(0.0f64, f64::max);
                let scale = x[t..t + TAPS].iter().fold(0.0f64, |m, v| m.max(v.abs()));
                assert!(
                    (a[t] - direct).abs() <= 1e-14 * scale,
                    "factor {factor} t {t}: {} vs {direct}",
                    a[t]
                );
            }
        }
    }

    /// The running minimum, release and moving sum of `averages`, against a direct evaluation
    /// (minimum over the last `h` frames by a scan, the sum of the last `w` envelopes by a scan).
    #[test]
    fn average_matches_a_direct_evaluation() {
        let mut l = Limiter::new(48000.0, 1, -1.0, 1.0, 10.0).unwrap();
        let (h, w, rel) = (l.h, l.w, l.rel);
        let mut rng = Rng::new(5);
        let n = 20 * h + 7;
        // runs of 1 (quiet), dips, and single deep frames
        let r: Vec<f64> = (0..n)
            .map(|t| {
                if (t / 97) % 3 == 0 {
                    1.0
                } else {
                    0.2 + 0.8 * rng.uniform()
                }
            })
            .collect();
        let mut e = 1.0f64;
        let mut envs = vec![1.0f64; w];
        for (t, &rt) in r.iter().enumerate() {
            let mut got = [0.0];
            l.averages(&[rt], &mut got);
            let got = got[0];
            let hmin = r[t.saturating_sub(h - 1)..=t]
                .iter()
                .fold(1.0f64, |m, &v| m.min(v));
            e = if hmin < e {
                hmin
            } else {
                hmin + rel * (e - hmin)
            };
            envs.push(e);
            let want: f64 = envs[envs.len() - w..].iter().sum();
            assert!(
                (got - want).abs() <= 1e-12 * w as f64,
                "frame {t}: {got} {want}"
            );
        }
    }
}
