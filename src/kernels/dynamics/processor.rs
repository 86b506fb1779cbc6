//! The envelope follower, compressor and noise gate / expander: one engine.
//!
//! Per detector (one per channel, or one for all channels when linked) and sample:
//! 1. level `v` = `|k|` (peak) or `k²` (RMS) of the detector input `k` (the key, else the
//!    input; linked: the largest over the channels);
//! 2. ballistics (JUCE `BallisticsFilter`): `e ← v + a·(e − v)` with `a` the attack coefficient
//!    when `v > e`, the release one otherwise; the envelope is `e` (peak) or `√e` (RMS);
//! 3. gain computer on `L = log2(envelope)` against the threshold `T` (both in log2 units):
//!    - compressor, knee `W`: `0` for `2(L−T) <= −W`, `(1/R − 1)(L − T + W/2)²/(2W)` inside
//!      the knee, `(1/R − 1)(L − T)` above it; with `W = 0` this is JUCE's
//!      `(env/threshold)^(1/R − 1)` above the threshold, 1 below;
//!    - gate / expander (JUCE `NoiseGate`: an RMS pre-detector with instant attack and 50 ms
//!      release feeds the ballistics): `(R − 1)(L − T)` below the threshold, `0` above; after the
//!      envelope falls below the threshold the gate stays open for the hold time;
//!    - gain = `2^(g + makeup)`;
//! 4. output = input · gain (the envelope follower outputs the envelope instead).

use super::fastmath::{exp2, log2};
use super::{ballistic_coef, check_channels, check_db, check_ms, check_rate, Block, LOG2_PER_DB};
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::Float;
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

/// Frames per inner block (scratch size).
const BLK: usize = 256;

/// A streaming envelope follower, compressor or gate.
#[derive(Clone, Debug)]
pub struct Dynamics {
    kind: Kind,
    det: Detector,
    link: bool,
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
    /// Ballistics state per detector.
    env: Vec<f64>,
    /// Gate: RMS pre-detector state per detector.
    pre: Vec<f64>,
    /// Gate: samples of hold left per detector.
    held: Vec<u64>,
}

/// Smallest envelope state kept (below it the state is flushed to 0: no denormals).
const FLUSH: f64 = 1e-200;

impl Dynamics {
    fn base(kind: Kind, rate: f64, channels: usize, det: Detector, link: bool) -> SkResult<Self> {
        check_rate(rate)?;
        check_channels(channels)?;
        let nd = if link { 1 } else { channels };
        Ok(Dynamics {
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
            env: try_vec(nd, 0.0, "envelope state")?,
            pre: try_vec(nd, 0.0, "envelope state")?,
            held: try_vec(nd, 0, "envelope state")?,
        })
    }

    fn times(&mut self, rate: f64, attack_ms: f64, release_ms: f64) -> SkResult<()> {
        check_ms("attack_ms", attack_ms)?;
        check_ms("release_ms", release_ms)?;
        self.att = ballistic_coef(rate, attack_ms);
        self.rel = ballistic_coef(rate, release_ms);
        Ok(())
    }

    fn threshold(&mut self, threshold_db: f64) -> SkResult<()> {
        check_db("threshold_db", threshold_db)?;
        self.thr_lin = 10f64.powf(threshold_db / 20.0);
        self.thr = log2(self.thr_lin);
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
        d.slope = 1.0 / ratio - 1.0;
        d.knee = knee_db * LOG2_PER_DB;
        d.makeup = makeup_db * LOG2_PER_DB;
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
        d.slope = ratio - 1.0;
        d.hold = (hold_ms * rate / 1000.0).round() as u64;
        Ok(d)
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }
    pub fn channels(&self) -> usize {
        self.channels
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
    pub fn process<T: Float>(&mut self, level: Level, mut b: Block<'_, T>) -> SkResult<()> {
        debug_assert_eq!(b.channels, self.channels);
        b.check_finite(level)?;
        let mut lvl = [0.0f64; BLK];
        let mut g = [0.0f64; BLK];
        let nd = self.env.len();
        let mut t0 = 0;
        while t0 < b.n {
            let len = (b.n - t0).min(BLK);
            for d in 0..nd {
                let chans = if self.link {
                    0..self.channels
                } else {
                    d..d + 1
                };
                // 1. level
                for (i, l) in lvl[..len].iter_mut().enumerate() {
                    let mut m = 0.0f64;
                    for c in chans.clone() {
                        let k = b.det(c, t0 + i);
                        let v = match (self.kind, self.det) {
                            (Kind::Gate, _) | (_, Detector::Rms) => (k * k).min(f64::MAX),
                            _ => k.abs(),
                        };
                        m = if v > m { v } else { m };
                    }
                    *l = m;
                }
                // 2. ballistics (serial)
                self.ballistics(d, &mut lvl[..len]);
                // 3. gain
                match self.kind {
                    Kind::Envelope => {
                        for (i, &e) in lvl[..len].iter().enumerate() {
                            for c in chans.clone() {
                                b.put(c, t0 + i, e);
                            }
                        }
                        continue;
                    }
                    Kind::Compressor => {
                        comp_gain_at(level, &lvl[..len], &mut g[..len], self.curve());
                    }
                    Kind::Gate => {
                        gate_gain_at(level, &lvl[..len], &mut g[..len], self.curve());
                    }
                }
                // 4. apply
                for c in chans {
                    for (i, &gi) in g[..len].iter().enumerate() {
                        let v = b.x(c, t0 + i) * gi;
                        b.put(c, t0 + i, v);
                    }
                }
            }
            t0 += len;
        }
        Ok(())
    }

    fn curve(&self) -> Curve {
        Curve {
            thr: self.thr,
            slope: self.slope,
            knee: self.knee,
            makeup: self.makeup,
        }
    }

    /// Turns levels into the envelope, in place.
    fn ballistics(&mut self, d: usize, lv: &mut [f64]) {
        let (att, rel) = (self.att, self.rel);
        let mut e = self.env[d];
        match self.kind {
            Kind::Gate => {
                let mut p = self.pre[d];
                let pre_rel = self.pre_rel;
                let mut held = self.held[d];
                for v in lv.iter_mut() {
                    // RMS pre-detector: instant attack, 50 ms release
                    let x = *v;
                    p = if x > p { x } else { x + pre_rel * (p - x) };
                    if p < FLUSH {
                        p = 0.0;
                    }
                    let r = p.sqrt();
                    let a = if r > e { att } else { rel };
                    e = r + a * (e - r);
                    if e < FLUSH {
                        e = 0.0;
                    }
                    // hold: open while above threshold and `hold` samples after
                    *v = if e > self.thr_lin {
                        held = self.hold;
                        e
                    } else if held > 0 {
                        held -= 1;
                        self.thr_lin
                    } else {
                        e
                    };
                }
                self.pre[d] = p;
                self.held[d] = held;
            }
            _ => {
                let rms = self.det == Detector::Rms;
                for v in lv.iter_mut() {
                    let x = *v;
                    let a = if x > e { att } else { rel };
                    e = x + a * (e - x);
                    if e < FLUSH {
                        e = 0.0;
                    }
                    *v = if rms { e.sqrt() } else { e };
                }
            }
        }
        self.env[d] = e;
    }
}

/// The static curve in log2 units.
#[derive(Clone, Copy)]
struct Curve {
    thr: f64,
    slope: f64,
    knee: f64,
    makeup: f64,
}

#[inline(always)]
fn comp_one(e: f64, k: Curve) -> f64 {
    let over = log2(e) - k.thr;
    let g = if k.knee > 0.0 {
        let two = over + over;
        if two <= -k.knee {
            0.0
        } else if two < k.knee {
            let u = over + 0.5 * k.knee;
            k.slope * u * u / (k.knee + k.knee)
        } else {
            k.slope * over
        }
    } else if over > 0.0 {
        k.slope * over
    } else {
        0.0
    };
    exp2(g + k.makeup)
}

#[inline(always)]
fn gate_one(e: f64, k: Curve) -> f64 {
    let over = log2(e) - k.thr;
    let g = if over < 0.0 { k.slope * over } else { 0.0 };
    exp2(g)
}

fn comp_scalar<T: Float>(e: &[f64], g: &mut [f64], k: Curve) {
    for (o, &v) in g.iter_mut().zip(e) {
        *o = comp_one(v, k);
    }
}
#[inline(always)]
fn comp_lanes<T: Float>(e: &[f64], g: &mut [f64], k: Curve) {
    for (o, &v) in g.iter_mut().zip(e) {
        *o = comp_one(v, k);
    }
}
fn gate_scalar<T: Float>(e: &[f64], g: &mut [f64], k: Curve) {
    for (o, &v) in g.iter_mut().zip(e) {
        *o = gate_one(v, k);
    }
}
#[inline(always)]
fn gate_lanes<T: Float>(e: &[f64], g: &mut [f64], k: Curve) {
    for (o, &v) in g.iter_mut().zip(e) {
        *o = gate_one(v, k);
    }
}

multiversion! {
    fn comp_gain<T: Float>(e: &[f64], g: &mut [f64], k: Curve) -> ();
    scalar = comp_scalar; simd = comp_lanes;
}
multiversion! {
    fn gate_gain<T: Float>(e: &[f64], g: &mut [f64], k: Curve) -> ();
    scalar = gate_scalar; simd = gate_lanes;
}

fn comp_gain_at(level: Level, e: &[f64], g: &mut [f64], k: Curve) {
    comp_gain::<f64>(level, e, g, k)
}
fn gate_gain_at(level: Level, e: &[f64], g: &mut [f64], k: Curve) {
    gate_gain::<f64>(level, e, g, k)
}
