//! The envelope follower, compressor and noise gate / expander: one engine.
//!
//! Per detector (one per channel, or one for all channels when linked) and sample:
//! 1. level `v` = `|k|` (peak) or `k²` (RMS) of the detector input `k` (the key, else the
//!    input; linked: the largest over the channels);
//! 2. ballistics (JUCE `BallisticsFilter`): `e ← v + a·(e − v)` with `a` the attack coefficient
//!    when `v > e`, the release one otherwise, evaluated as `a·e + (1 − a)·v` (a shorter
//!    per-sample dependency chain; the same value up to rounding); the envelope is `e` (peak)
//!    or `√e` (RMS);
//! 3. gain computer on `L = log2(envelope)` against the threshold `T` (both in log2 units):
//!    - compressor, knee `W`: `0` for `2(L−T) <= −W`, `(1/R − 1)(L − T + W/2)²/(2W)` inside
//!      the knee, `(1/R − 1)(L − T)` above it; with `W = 0` this is JUCE's
//!      `(env/threshold)^(1/R − 1)` above the threshold, 1 below;
//!    - gate / expander (JUCE `NoiseGate`: an RMS pre-detector with instant attack and 50 ms
//!      release feeds the ballistics): `(R − 1)(L − T)` below the threshold, `0` above; after the
//!      envelope falls below the threshold the gate stays open for the hold time;
//!    - gain = `2^(g + makeup)`; where the curve is flat (compressor: envelope at or below the
//!      knee's lower end; gate: at or above the threshold) the gain is that constant, and groups
//!      of samples all there skip `log2`/`exp2`;
//! 4. output = input · gain (the envelope follower outputs the envelope instead).

use super::{
    ballistic_coef, channel_cuts, check_channels, check_db, check_ms, check_rate, Block,
    LOG2_PER_DB,
};
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::fastmath::{exp2, log2};
use crate::kernels::Float;
use crate::simd::tile::{self, Transposer};
use crate::simd::{multiversion, Level};

/// What the engine outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Envelope,
    Compressor,
    Gate,
}

/// Level detector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detector {
    Peak,
    Rms,
}

/// A streaming envelope follower, compressor or gate.
#[derive(Clone, Debug)]
pub struct Dynamics {
    pub(crate) p: Params,
    /// Ballistics state per detector.
    env: Vec<f64>,
    /// Gate: RMS pre-detector state per detector.
    pre: Vec<f64>,
    /// Gate: samples of hold left per detector.
    held: Vec<u64>,
    /// Working space of a call on one thread ([`scratch_len`] of the channels), on the heap
    /// so that a call needs little of its thread's stack.
    scratch: Vec<f64>,
    /// Set by [`set_serial`](Self::set_serial): every call stays on the calling thread.
    serial: bool,
}

/// The settings of a [`Dynamics`] (everything but its state).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Params {
    kind: Kind,
    det: Detector,
    pub(crate) link: bool,
    channels: usize,
    att: f64,
    rel: f64,
    /// Gate: release coefficient of the RMS pre-detector (50 ms).
    pre_rel: f64,
    thr: f64,
    thr_lin: f64,
    slope: f64,
    knee: f64,
    makeup: f64,
    hold: u64,
}

/// The state of detectors `0..k` of one run: all of a [`Dynamics`], or one thread's share,
/// with the run's working space (at least [`scratch_len`] of its channels).
struct State<'s> {
    env: &'s mut [f64],
    pre: &'s mut [f64],
    held: &'s mut [u64],
    scratch: &'s mut [f64],
}

/// The working space of a run over `channels` channels: levels, gains and channel-major gains
/// for a block of [`BF`] frames of the widest group (16 lanes).
fn scratch_len(channels: usize) -> usize {
    3 * BF * channels.clamp(1, 16)
}

/// Smallest envelope state kept (below it the state is flushed to 0: no denormals).
pub(crate) const FLUSH: f64 = 1e-200;

impl Dynamics {
    fn base(kind: Kind, rate: f64, channels: usize, det: Detector, link: bool) -> SkResult<Self> {
        check_rate(rate)?;
        check_channels(channels)?;
        let nd = if link { 1 } else { channels };
        Ok(Dynamics {
            p: Params {
                kind,
                det,
                link,
                channels,
                att: 0.0,
                rel: 0.0,
                pre_rel: ballistic_coef(rate, 50.0),
                thr: 0.0,
                thr_lin: 1.0,
                slope: 0.0,
                knee: 0.0,
                makeup: 0.0,
                hold: 0,
            },
            env: try_vec(nd, 0.0, "envelope state")?,
            pre: try_vec(nd, 0.0, "envelope state")?,
            held: try_vec(nd, 0, "envelope state")?,
            scratch: try_vec(scratch_len(channels), 0.0, "envelope state")?,
            serial: false,
        })
    }

    fn times(&mut self, rate: f64, attack_ms: f64, release_ms: f64) -> SkResult<()> {
        check_ms("attack_ms", attack_ms)?;
        check_ms("release_ms", release_ms)?;
        self.p.att = ballistic_coef(rate, attack_ms);
        self.p.rel = ballistic_coef(rate, release_ms);
        Ok(())
    }

    fn threshold(&mut self, threshold_db: f64) -> SkResult<()> {
        check_db("threshold_db", threshold_db)?;
        self.p.thr_lin = 10f64.powf(threshold_db / 20.0);
        self.p.thr = log2(self.p.thr_lin);
        Ok(())
    }

    /// An envelope follower: outputs the envelope of each channel (linked: of the loudest).
    pub fn envelope(
        rate: f64,
        channels: usize,
        attack_ms: f64,
        release_ms: f64,
        det: Detector,
        link: bool,
    ) -> SkResult<Self> {
        let mut d = Self::base(Kind::Envelope, rate, channels, det, link)?;
        d.times(rate, attack_ms, release_ms)?;
        Ok(d)
    }

    /// A compressor (see the module documentation for the curve).
    #[allow(clippy::too_many_arguments)]
    pub fn compressor(
        rate: f64,
        channels: usize,
        threshold_db: f64,
        ratio: f64,
        knee_db: f64,
        attack_ms: f64,
        release_ms: f64,
        makeup_db: f64,
        det: Detector,
        link: bool,
    ) -> SkResult<Self> {
        let mut d = Self::base(Kind::Compressor, rate, channels, det, link)?;
        d.times(rate, attack_ms, release_ms)?;
        d.threshold(threshold_db)?;
        if !(1.0..=1e9).contains(&ratio) {
            return Err(SkError::BadArgument(format!(
                "ratio = {ratio}; it must be 1 to 1e9 (1 = no compression)"
            )));
        }
        if !(0.0..=100.0).contains(&knee_db) {
            return Err(SkError::BadArgument(format!(
                "knee_db = {knee_db}; it must be 0 (hard knee) to 100"
            )));
        }
        check_db("makeup_db", makeup_db)?;
        d.p.slope = 1.0 / ratio - 1.0;
        d.p.knee = knee_db * LOG2_PER_DB;
        d.p.makeup = makeup_db * LOG2_PER_DB;
        Ok(d)
    }

    /// A noise gate / downward expander with hold.
    #[allow(clippy::too_many_arguments)]
    pub fn gate(
        rate: f64,
        channels: usize,
        threshold_db: f64,
        ratio: f64,
        attack_ms: f64,
        release_ms: f64,
        hold_ms: f64,
        link: bool,
    ) -> SkResult<Self> {
        let mut d = Self::base(Kind::Gate, rate, channels, Detector::Peak, link)?;
        d.times(rate, attack_ms, release_ms)?;
        d.threshold(threshold_db)?;
        if !(1.0..=1e9).contains(&ratio) {
            return Err(SkError::BadArgument(format!(
                "ratio = {ratio}; it must be 1 to 1e9 (1 = no expansion)"
            )));
        }
        check_ms("hold_ms", hold_ms)?;
        d.p.slope = ratio - 1.0;
        d.p.hold = (hold_ms * rate / 1000.0).round() as u64;
        Ok(d)
    }

    pub fn kind(&self) -> Kind {
        self.p.kind
    }
    pub fn channels(&self) -> usize {
        self.p.channels
    }
    /// Latency in frames (always 0: no lookahead).
    pub fn latency(&self) -> usize {
        0
    }
    /// Forgets the signal history (as new).
    pub fn reset(&mut self) {
        self.env.iter_mut().for_each(|v| *v = 0.0);
        self.pre.iter_mut().for_each(|v| *v = 0.0);
        self.held.iter_mut().for_each(|v| *v = 0);
    }

    /// Processes one block. Refuses NaN/inf in the input or key with nothing changed.
    ///
    /// Independent channels run in groups of 16, 8, 4, 2 or 1 lanes: the per-sample recursions
    /// of a group advance together (their dependency chains overlap), and every lane computes the
    /// same expression as alone, so grouping never changes a bit. A long block whose channels
    /// lie apart (planar) is split by channels over the library's threads (see [`split`]), which
    /// does not change a bit either.
    pub fn process<T: Float>(&mut self, level: Level, b: Block<'_, T>) -> SkResult<()> {
        crate::kernels::par::serial_if(self.serial, || {
            // about 8 element operations a sample
            let cuts = channel_cuts(self.p.channels, b.n, 8);
            self.process_cut(level, b, &cuts)
        })
    }

    /// Keeps every later call on the calling thread (a real-time handle; results do not
    /// change). A call then allocates nothing at any block size: the working space is the
    /// handle's.
    pub fn set_serial(&mut self) {
        self.serial = true;
    }

    /// [`process`](Self::process) with the channel ranges `cuts` (from 0 to the channel count)
    /// of the threads chosen by the caller.
    pub(crate) fn process_cut<T: Float>(
        &mut self,
        level: Level,
        mut b: Block<'_, T>,
        cuts: &[usize],
    ) -> SkResult<()> {
        debug_assert_eq!(b.channels, self.p.channels);
        b.check_finite(level)?;
        let p = self.p;
        let mut st = State {
            env: &mut self.env,
            pre: &mut self.pre,
            held: &mut self.held,
            scratch: &mut self.scratch,
        };
        if p.link {
            group_at::<T, L1>(level, level, &p, &mut st, &mut b, 0);
            return Ok(());
        }
        if cuts.len() > 2 {
            match b.split_channels(cuts) {
                Ok(blocks) => {
                    // each part's working space: the handle's (one thread's, as large as any
                    // part needs) for the first part, one allocation for the others
                    let need = cuts
                        .windows(2)
                        .skip(1)
                        .map(|w| scratch_len(w[1] - w[0]))
                        .sum();
                    let mut space = try_vec(need, 0.0, "the threads' working space")?;
                    let mut parts = Vec::with_capacity(blocks.len());
                    let (mut env, mut pre, mut held) = (st.env, st.pre, st.held);
                    let mut own = Some(st.scratch);
                    let mut scr = &mut space[..];
                    for (blk, w) in blocks.into_iter().zip(cuts.windows(2)) {
                        let k = w[1] - w[0];
                        let (e, er) = env.split_at_mut(k);
                        let (q, qr) = pre.split_at_mut(k);
                        let (h, hr) = held.split_at_mut(k);
                        let sc = match own.take() {
                            Some(sc) => &mut sc[..scratch_len(k)],
                            None => {
                                let (sc, sr) =
                                    std::mem::take(&mut scr).split_at_mut(scratch_len(k));
                                scr = sr;
                                sc
                            }
                        };
                        (env, pre, held) = (er, qr, hr);
                        parts.push((
                            blk,
                            State {
                                env: e,
                                pre: q,
                                held: h,
                                scratch: sc,
                            },
                        ));
                    }
                    crate::kernels::par::run_parts(parts, |(mut blk, mut st)| {
                        run_channels(level, &p, &mut st, &mut blk)
                    });
                    return Ok(());
                }
                Err(whole) => b = whole,
            }
        }
        run_channels(level, &p, &mut st, &mut b);
        Ok(())
    }
}

/// Every channel of `b` (detectors `0..b.channels` of `st`), in groups of 16, 8, 4, 2 or 1.
fn run_channels<T: Float>(level: Level, p: &Params, st: &mut State<'_>, b: &mut Block<'_, T>) {
    let mut c0 = 0;
    while c0 < b.channels {
        let left = b.channels - c0;
        c0 += if left >= 16 {
            group_at::<T, L16>(level, level, p, st, b, c0)
        } else if left >= 8 {
            group_at::<T, L8>(level, level, p, st, b, c0)
        } else if left >= 4 {
            group_at::<T, L4>(level, level, p, st, b, c0)
        } else if left >= 2 {
            group_at::<T, L2>(level, level, p, st, b, c0)
        } else {
            group_at::<T, L1>(level, level, p, st, b, c0)
        };
    }
}

impl Params {
    /// Runs detectors `d0..d0+G` (linked: detector 0 over every channel, `G` = 1) over the
    /// whole block; returns `G`. Compiled once per SIMD level (see [`group_at`]); `scalar`
    /// selects the one-element-at-a-time gain computers.
    #[inline(always)]
    fn group<const G: usize, T: Float, X: Transposer>(
        &self,
        st: &mut State<'_>,
        scalar: bool,
        tr: X,
        b: &mut Block<'_, T>,
        d0: usize,
    ) -> usize {
        // levels, gains, and channel-major gains (`cm[j·BF + i]` for lane `j`, frame `i`) for
        // outputs whose frames are not contiguous: from the state's working space, taken out
        // of `st` for the loop and put back after it
        let space = std::mem::take(&mut st.scratch);
        let (lvl, rest) = space.split_at_mut(BF * G);
        let (g, rest) = rest.split_at_mut(BF * G);
        let cm = &mut rest[..BF * G];
        // eight or more lanes of planar channels move between channel-major and lane-major
        // order through 8 × 8 tile transposes
        let tiles = G >= 8 && !self.link;
        let squares = self.kind == Kind::Gate || self.det == Detector::Rms;
        let mut t0 = 0;
        while t0 < b.n {
            let len = (b.n - t0).min(BF);
            let lv = &mut lvl[..len * G];
            // 1. level
            if self.link {
                lv.iter_mut().for_each(|v| *v = 0.0);
                for c in 0..b.channels {
                    let (src, o, st) = b.det_lane(c);
                    for (i, l) in lv.iter_mut().enumerate() {
                        let v = level_of(src[o + (t0 + i) * st].to_f64(), squares);
                        *l = if v > *l { v } else { *l };
                    }
                }
            } else if tiles && (0..G).all(|j| b.det_lane(d0 + j).2 == 1) {
                if squares {
                    levels_to_lanes::<T, X, G, true>(tr, b, d0, t0, lv);
                } else {
                    levels_to_lanes::<T, X, G, false>(tr, b, d0, t0, lv);
                }
            } else {
                for j in 0..G {
                    let (src, o, st) = b.det_lane(d0 + j);
                    if st == 1 {
                        let s = &src[o + t0..o + t0 + len];
                        for (row, v) in lv.chunks_exact_mut(G).zip(s) {
                            row[j] = level_of(v.to_f64(), squares);
                        }
                    } else {
                        for i in 0..len {
                            lv[i * G + j] = level_of(src[o + (t0 + i) * st].to_f64(), squares);
                        }
                    }
                }
            }
            // 2. ballistics (serial in time, lanes side by side; `g` as scratch), and for a
            // compressor of 8 lanes or more the gains with it (see `fused_comp`)
            let fused = !scalar
                && G >= 8
                && self.kind == Kind::Compressor
                && if self.det == Detector::Rms {
                    self.fused_comp::<G, true>(st, d0, lv, &mut g[..len * G])
                } else {
                    self.fused_comp::<G, false>(st, d0, lv, &mut g[..len * G])
                };
            if !fused {
                self.ballistics::<G>(st, d0, lv, &mut g[..len * G]);
            }
            // 3. gain, 4. apply
            let nch = b.channels;
            let chans = |j: usize| {
                if self.link {
                    0..nch
                } else {
                    d0 + j..d0 + j + 1
                }
            };
            match self.kind {
                Kind::Envelope => {
                    for j in 0..G {
                        for c in chans(j) {
                            for i in 0..len {
                                b.put(c, t0 + i, lv[i * G + j]);
                            }
                        }
                    }
                }
                Kind::Compressor | Kind::Gate => {
                    let gs = &mut g[..len * G];
                    let k = self.curve();
                    match (self.kind == Kind::Compressor, scalar) {
                        _ if fused => {}
                        (true, true) => comp_scalar(lv, gs, k),
                        (true, false) => comp_lanes(lv, gs, k),
                        (false, true) => gate_scalar(lv, gs, k),
                        (false, false) => gate_lanes(lv, gs, k),
                    }
                    if tiles && b.unit_strides() {
                        scale_from_lanes::<T, X, G>(tr, b, d0, t0, gs);
                    } else if tiles {
                        lanes_to_channels::<X, G>(tr, gs, cm, len);
                        for j in 0..G {
                            b.scale_lane(d0 + j, t0, &cm[j * BF..j * BF + len], 1, 0, len);
                        }
                    } else {
                        for j in 0..G {
                            for c in chans(j) {
                                b.scale_lane(c, t0, gs, G, j, len);
                            }
                        }
                    }
                }
            }
            t0 += len;
        }
        st.scratch = space;
        G
    }

    fn curve(&self) -> Curve {
        let (edge, flat) = if self.kind == Kind::Gate {
            (self.thr_lin, 1.0)
        } else {
            (exp2(self.thr - 0.5 * self.knee), exp2(self.makeup))
        };
        Curve {
            thr: self.thr,
            slope: self.slope,
            knee: self.knee,
            makeup: self.makeup,
            edge,
            flat,
        }
    }

    /// The compressor's ballistics and gain computer in one loop, for groups of 8 lanes or
    /// more: while the ballistics advance frame `i` (a serial chain of a multiply, an add and a
    /// select), the gains of frame `i − 1` are computed, so out-of-order execution overlaps the
    /// gain arithmetic with the chain's latency. The same expressions as [`ballistics`] and
    /// [`comp_lanes`] (a frame's lanes all in the flat part take the flat gain, as a group of
    /// [`GAIN_LANES`] does there), so the same bits. Writes the gains of the levels `lv` into
    /// `g` and the state, and returns true, unless a state fell below [`FLUSH`] in this block:
    /// then it returns false with the state unchanged, and the caller runs the separate passes,
    /// which flush.
    ///
    /// [`ballistics`]: Self::ballistics
    #[inline(always)]
    fn fused_comp<const G: usize, const RMS: bool>(
        &self,
        st: &mut State<'_>,
        d0: usize,
        lv: &[f64],
        g: &mut [f64],
    ) -> bool {
        let c = Chain {
            att: self.att,
            rel: self.rel,
            ca: 1.0 - self.att,
            cr: 1.0 - self.rel,
        };
        let k = self.curve();
        let mut e = [0.0f64; G];
        e.copy_from_slice(&st.env[d0..d0 + G]);
        let mut low = [f64::INFINITY; G];
        let n = lv.len() / G;
        if n == 0 {
            return true;
        }
        fused_step(c, &mut e, &mut low, &lv[..G]);
        for i in 1..n {
            let prev = e;
            fused_step(c, &mut e, &mut low, &lv[i * G..(i + 1) * G]);
            fused_gain::<G, RMS>(&prev, &mut g[(i - 1) * G..i * G], k);
        }
        fused_gain::<G, RMS>(&e, &mut g[(n - 1) * G..n * G], k);
        if low.iter().all(|&v| v >= FLUSH) {
            st.env[d0..d0 + G].copy_from_slice(&e);
            true
        } else {
            false
        }
    }

    /// Turns the levels of detectors `d0..d0+G` (`lv[i·G + j]`) into envelopes, in place
    /// (`tmp`, as long as `lv`, is scratch).
    #[inline(always)]
    fn ballistics<const G: usize>(
        &self,
        st: &mut State<'_>,
        d0: usize,
        lv: &mut [f64],
        tmp: &mut [f64],
    ) {
        let (att, rel) = (self.att, self.rel);
        let mut e = [0.0f64; G];
        e.copy_from_slice(&st.env[d0..d0 + G]);
        match self.kind {
            Kind::Gate => {
                let mut p = [0.0f64; G];
                p.copy_from_slice(&st.pre[d0..d0 + G]);
                let mut held = [0u64; G];
                held.copy_from_slice(&st.held[d0..d0 + G]);
                let pre_rel = self.pre_rel;
                let (thr, hold) = (self.thr_lin, self.hold);
                for row in lv.chunks_exact_mut(G) {
                    for j in 0..G {
                        // RMS pre-detector: instant attack, 50 ms release
                        let x = row[j];
                        let q = if x > p[j] {
                            x
                        } else {
                            x + pre_rel * (p[j] - x)
                        };
                        p[j] = if q < FLUSH { 0.0 } else { q };
                        let r = p[j].sqrt();
                        let a = if r > e[j] { att } else { rel };
                        let v = r + a * (e[j] - r);
                        e[j] = if v < FLUSH { 0.0 } else { v };
                        // hold: open while above threshold and `hold` samples after
                        row[j] = if e[j] > thr {
                            held[j] = hold;
                            e[j]
                        } else if held[j] > 0 {
                            held[j] -= 1;
                            thr
                        } else {
                            e[j]
                        };
                    }
                }
                st.pre[d0..d0 + G].copy_from_slice(&p);
                st.held[d0..d0 + G].copy_from_slice(&held);
            }
            _ => {
                // `a·e + (1 − a)·x` for both coefficients, then the pick: the products of `x`
                // are off the per-sample dependency chain, which is a multiply, an add and a
                // select. The flush to 0 below FLUSH would add a compare and a second select
                // to that chain, so the block first runs without it, tracking the smallest
                // state off the chain: if no state fell below FLUSH, no flush would have
                // fired and the result is exactly the flushed recursion's; else the block
                // runs again with the flush, from the same start.
                let (ca, cr) = (1.0 - att, 1.0 - rel);
                let e0 = e;
                let mut low = [f64::INFINITY; G];
                for (row, out) in lv.chunks_exact(G).zip(tmp.chunks_exact_mut(G)) {
                    for j in 0..G {
                        let x = row[j];
                        let va = att * e[j] + ca * x;
                        let vr = rel * e[j] + cr * x;
                        e[j] = if x > e[j] { va } else { vr };
                        low[j] = if e[j] < low[j] { e[j] } else { low[j] };
                        out[j] = e[j];
                    }
                }
                if low.iter().all(|&v| v >= FLUSH) {
                    lv.copy_from_slice(tmp);
                } else {
                    e = e0;
                    for row in lv.chunks_exact_mut(G) {
                        for j in 0..G {
                            let x = row[j];
                            let va = att * e[j] + ca * x;
                            let vr = rel * e[j] + cr * x;
                            let v = if x > e[j] { va } else { vr };
                            e[j] = if v < FLUSH { 0.0 } else { v };
                            row[j] = e[j];
                        }
                    }
                }
                if self.det == Detector::Rms {
                    for v in lv.iter_mut() {
                        *v = v.sqrt();
                    }
                }
            }
        }
        st.env[d0..d0 + G].copy_from_slice(&e);
    }
}

/// The detector level of a sample: `k²` (capped at `f64::MAX`) or `|k|`.
#[inline(always)]
fn level_of(k: f64, squares: bool) -> f64 {
    if squares {
        (k * k).min(f64::MAX)
    } else {
        k.abs()
    }
}

/// The ballistics coefficients of [`Params::fused_comp`]: `att`, `rel` and `1 − att`, `1 − rel`.
#[derive(Clone, Copy)]
struct Chain {
    att: f64,
    rel: f64,
    ca: f64,
    cr: f64,
}

/// One frame of the ballistics of [`Params::fused_comp`] (the same expressions as
/// [`Params::ballistics`]), tracking the smallest state in `low`. A function rather than a
/// closure: `#[inline(always)]` makes sure it is inlined into the caller compiled for the SIMD
/// level (a closure left out of line is compiled for the baseline target).
#[inline(always)]
fn fused_step<const G: usize>(c: Chain, e: &mut [f64; G], low: &mut [f64; G], row: &[f64]) {
    for j in 0..G {
        let x = row[j];
        let va = c.att * e[j] + c.ca * x;
        let vr = c.rel * e[j] + c.cr * x;
        e[j] = if x > e[j] { va } else { vr };
        low[j] = if e[j] < low[j] { e[j] } else { low[j] };
    }
}

/// The compressor gains of one frame of envelope states (squared ones with `RMS`) into `out`
/// (`G` values): [`comp_group`], as [`comp_lanes`] computes them.
#[inline(always)]
fn fused_gain<const G: usize, const RMS: bool>(env: &[f64; G], out: &mut [f64], k: Curve) {
    let mut env = *env;
    if RMS {
        for v in env.iter_mut() {
            *v = v.sqrt();
        }
    }
    comp_group(&env, out.try_into().unwrap(), k);
}

/// Frames per block of the processing loop.
const BF: usize = 128;

/// Moves lanes `j < G` (a multiple of 8) and frames `i < len` from lane-major order
/// (`lanes[i·G + j]`) to channel-major order (`cm[j·BF + i]`): 8 × 8 tiles through `tr`, the
/// last `len % 8` frames one by one.
#[inline(always)]
fn lanes_to_channels<X: Transposer, const G: usize>(
    tr: X,
    lanes: &[f64],
    cm: &mut [f64],
    len: usize,
) {
    let mut a = [[0.0f64; 8]; 8];
    let mut o = [[0.0f64; 8]; 8];
    let full = len - len % 8;
    for jb in (0..G).step_by(8) {
        for ib in (0..full).step_by(8) {
            for (r, ar) in a.iter_mut().enumerate() {
                let s = (ib + r) * G + jb;
                ar.copy_from_slice(&lanes[s..s + 8]);
            }
            tr.transpose(&a, &mut o);
            for (r, or) in o.iter().enumerate() {
                let d = (jb + r) * BF + ib;
                cm[d..d + 8].copy_from_slice(or);
            }
        }
        for i in full..len {
            for r in 0..8 {
                cm[(jb + r) * BF + i] = lanes[i * G + jb + r];
            }
        }
    }
}

/// The detector levels of lanes `d0..d0 + G` (`G` a multiple of 8, every lane's frames
/// contiguous) for frames `t0..t0 + lv.len() / G`, in lane-major order (`lv[i·G + j]`): 8 × 8
/// tiles read from the lanes, turned into levels and transposed through `tr` (no channel-major
/// scratch), the last `len % 8` frames one by one.
#[inline(always)]
fn levels_to_lanes<T: Float, X: Transposer, const G: usize, const SQUARES: bool>(
    tr: X,
    b: &Block<'_, T>,
    d0: usize,
    t0: usize,
    lv: &mut [f64],
) {
    let len = lv.len() / G;
    let full = len - len % 8;
    let mut a = [[0.0f64; 8]; 8];
    let mut o = [[0.0f64; 8]; 8];
    for jb in (0..G).step_by(8) {
        let mut rows: [&[T]; 8] = [&[]; 8];
        for (r, row) in rows.iter_mut().enumerate() {
            let (src, off, _) = b.det_lane(d0 + jb + r);
            *row = &src[off + t0..off + t0 + len];
        }
        for ib in (0..full).step_by(8) {
            for (ar, row) in a.iter_mut().zip(&rows) {
                for (v, x) in ar.iter_mut().zip(&row[ib..ib + 8]) {
                    *v = level_of(x.to_f64(), SQUARES);
                }
            }
            tr.transpose(&a, &mut o);
            let tile = &mut lv[ib * G..(ib + 8) * G];
            for (lr, or) in tile.chunks_exact_mut(G).zip(&o) {
                lr[jb..jb + 8].copy_from_slice(or);
            }
        }
        for i in full..len {
            for (r, row) in rows.iter().enumerate() {
                lv[i * G + jb + r] = level_of(row[i].to_f64(), SQUARES);
            }
        }
    }
}

/// `y(d0 + j, t0 + i) = x(d0 + j, t0 + i) · g[i·G + j]` for the lanes `j < G` (a multiple of
/// 8) and frames `i < g.len() / G`, input and output with contiguous frames
/// ([`Block::unit_strides`]): 8 × 8 tiles of gains transposed through `tr` and applied to
/// eight lanes' rows at a time ([`Block::rows8`]; no channel-major scratch), the last `len % 8`
/// frames one by one.
#[inline(always)]
fn scale_from_lanes<T: Float, X: Transposer, const G: usize>(
    tr: X,
    b: &mut Block<'_, T>,
    d0: usize,
    t0: usize,
    g: &[f64],
) {
    let len = g.len() / G;
    let full = len - len % 8;
    let mut a = [[0.0f64; 8]; 8];
    let mut o = [[0.0f64; 8]; 8];
    for jb in (0..G).step_by(8) {
        let tiles = g[..full * G].chunks_exact(8 * G);
        if let Some(mut rows) = b.rows8(d0 + jb, t0, len) {
            for (ib, tile) in (0..full).step_by(8).zip(tiles) {
                for (ar, gr) in a.iter_mut().zip(tile.chunks_exact(G)) {
                    ar.copy_from_slice(&gr[jb..jb + 8]);
                }
                tr.transpose(&a, &mut o);
                rows.scale8(ib, &o);
            }
        } else {
            // output channels closer than `len` frames (not met through the C API, whose
            // outputs are disjoint): every lane through the strided path
            for r in 0..8 {
                b.scale_lane(d0 + jb + r, t0, g, G, jb + r, full);
            }
        }
        if full < len {
            for r in 0..8 {
                b.scale_lane(
                    d0 + jb + r,
                    t0 + full,
                    &g[full * G..],
                    G,
                    jb + r,
                    len - full,
                );
            }
        }
    }
}

/// The static curve in log2 units.
#[derive(Clone, Copy)]
struct Curve {
    thr: f64,
    slope: f64,
    knee: f64,
    makeup: f64,
    /// Compressor: envelopes at or below it (the knee's lower end, linear) get `flat`; gate:
    /// envelopes at or above the threshold (linear) get `flat`.
    edge: f64,
    /// The gain where the curve is flat: `2^makeup` (compressor), 1 (gate).
    flat: f64,
}

/// Lanes the gain computers test together: a group entirely in the flat part of the curve
/// skips `log2`/`exp2` (the per-element select gives the same value, so this never changes a
/// bit). Several vectors wide, so that the long polynomial dependency chains of independent
/// vectors interleave.
const GAIN_LANES: usize = 32;

/// The compressor gain; no data-dependent branches (vectorises).
#[inline(always)]
fn comp_one<const SOFT: bool>(e: f64, k: Curve) -> f64 {
    let over = log2(e) - k.thr;
    let g = if SOFT {
        let two = over + over;
        let u = over + 0.5 * k.knee;
        let inside = k.slope * u * u / (k.knee + k.knee);
        let g = if two < k.knee { inside } else { k.slope * over };
        if two <= -k.knee {
            0.0
        } else {
            g
        }
    } else {
        let o = if over > 0.0 { over } else { 0.0 };
        k.slope * o
    };
    let v = exp2(g + k.makeup);
    if e <= k.edge {
        k.flat
    } else {
        v
    }
}

#[inline(always)]
fn gate_one(e: f64, k: Curve) -> f64 {
    let over = log2(e) - k.thr;
    let o = if over < 0.0 { over } else { 0.0 };
    let v = exp2(k.slope * o);
    if e >= k.edge {
        k.flat
    } else {
        v
    }
}

#[inline(always)]
fn comp_run<const SOFT: bool>(e: &[f64], g: &mut [f64], k: Curve) {
    for (o, &v) in g.iter_mut().zip(e) {
        *o = comp_one::<SOFT>(v, k);
    }
}

/// The gains of one fixed-size group of envelopes (straight-line vector code): the flat gain
/// for all when every envelope is at or below the curve's edge (the value the per-element
/// select would give), else [`comp_one`] per element.
#[inline(always)]
fn comp_group<const N: usize>(e: &[f64; N], g: &mut [f64; N], k: Curve) {
    let mut any = false;
    for &v in e {
        any |= v > k.edge;
    }
    if !any {
        *g = [k.flat; N];
    } else if k.knee > 0.0 {
        for j in 0..N {
            g[j] = comp_one::<true>(e[j], k);
        }
    } else {
        for j in 0..N {
            g[j] = comp_one::<false>(e[j], k);
        }
    }
}

fn comp_scalar(e: &[f64], g: &mut [f64], k: Curve) {
    for (o, &v) in g.iter_mut().zip(e) {
        *o = if k.knee > 0.0 {
            comp_one::<true>(v, k)
        } else {
            comp_one::<false>(v, k)
        };
    }
}

#[inline(always)]
fn comp_lanes(e: &[f64], g: &mut [f64], k: Curve) {
    let (eg, er) = e.as_chunks::<GAIN_LANES>();
    let (gg, gr) = g.as_chunks_mut::<GAIN_LANES>();
    for (ev, gv) in eg.iter().zip(gg.iter_mut()) {
        comp_group(ev, gv, k);
    }
    if k.knee > 0.0 {
        comp_run::<true>(er, gr, k);
    } else {
        comp_run::<false>(er, gr, k);
    }
}

fn gate_scalar(e: &[f64], g: &mut [f64], k: Curve) {
    for (o, &v) in g.iter_mut().zip(e) {
        *o = gate_one(v, k);
    }
}

#[inline(always)]
fn gate_lanes(e: &[f64], g: &mut [f64], k: Curve) {
    let (eg, er) = e.as_chunks::<GAIN_LANES>();
    let (gg, gr) = g.as_chunks_mut::<GAIN_LANES>();
    for (ev, gv) in eg.iter().zip(gg.iter_mut()) {
        let mut any = false;
        for &v in ev {
            any |= v < k.edge;
        }
        if !any {
            *gv = [k.flat; GAIN_LANES];
        } else {
            for j in 0..GAIN_LANES {
                gv[j] = gate_one(ev[j], k);
            }
        }
    }
    for (o, &v) in gr.iter_mut().zip(er) {
        *o = gate_one(v, k);
    }
}

/// A channel-group width, as a type (the dispatch macro takes type parameters).
trait Lanes {
    fn run<T: Float, X: Transposer>(
        p: &Params,
        st: &mut State<'_>,
        b: &mut Block<'_, T>,
        d0: usize,
        scalar: bool,
        tr: X,
    ) -> usize;
}

macro_rules! lanes {
    ($($name:ident = $g:literal),*) => {$(
        struct $name;
        impl Lanes for $name {
            #[inline(always)]
            fn run<T: Float, X: Transposer>(
                p: &Params,
                st: &mut State<'_>,
                b: &mut Block<'_, T>,
                d0: usize,
                scalar: bool,
                tr: X,
            ) -> usize {
                p.group::<$g, T, X>(st, scalar, tr, b, d0)
            }
        }
    )*};
}
lanes!(L1 = 1, L2 = 2, L4 = 4, L8 = 8, L16 = 16);

fn group_scalar<T: Float, L: Lanes>(
    _lv: Level,
    p: &Params,
    st: &mut State<'_>,
    b: &mut Block<'_, T>,
    d0: usize,
) -> usize {
    L::run(p, st, b, d0, true, tile::Portable)
}
#[inline(always)]
fn group_lanes<T: Float, L: Lanes>(
    lv: Level,
    p: &Params,
    st: &mut State<'_>,
    b: &mut Block<'_, T>,
    d0: usize,
) -> usize {
    tile::with_transposer!(lv, |tr| L::run(p, st, b, d0, false, tr))
}

multiversion! {
    /// One channel group over a block, the level, ballistics, gain and apply loops all compiled
    /// for the level.
    fn group_at<T: Float, L: Lanes>(
        lv: Level,
        p: &Params,
        st: &mut State<'_>,
        b: &mut Block<'_, T>,
        d0: usize,
    ) -> usize;
    scalar = group_scalar; simd = group_lanes;
}
