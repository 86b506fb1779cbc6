//! Probabilistic YIN as librosa computes it (`librosa.pyin`): per frame the
//! cumulative-mean-normalised difference (shared with YIN), its troughs weighted over a Beta
//! prior of thresholds and a Boltzmann prior of trough positions, the pitch-bin observation
//! probabilities of a voiced/unvoiced HMM, and its Viterbi path.
//!
//! The transition matrix is librosa's (a triangular local window per pitch bin, Kronecker with
//! a two-state voicing switch); the Viterbi recursion uses its band structure: the in-band
//! sources of each state are scanned and every out-of-band source (log-probability
//! `ln(tiny)`) is found through a range-maximum table, so each step costs
//! `O(states · band)` instead of `O(states²)`, with librosa's arithmetic and tie-breaking.

use super::{cmnd, load_frame, parabolic_shift, scratch, YinParams};
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::par::par_rows_with;
use crate::kernels::spectral::fft::{FftPlan, PlanCache};
use crate::kernels::Float;
use std::sync::Arc;

/// pYIN parameters (librosa's names; `yin.trough_threshold` is unused).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PyinParams {
    pub yin: YinParams,
    pub n_thresholds: usize,
    pub beta_a: f64,
    pub beta_b: f64,
    pub boltzmann: f64,
    pub resolution: f64,
    pub max_transition_rate: f64,
    pub switch_prob: f64,
    pub no_trough_prob: f64,
}

/// `ln Γ(x)` for `x > 0` (Lanczos, g = 7, relative error near 1e-15).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // reflection
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The continued fraction of the incomplete beta function (modified Lentz).
fn beta_cf(a: f64, b: f64, x: f64) -> f64 {
    let tiny = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < tiny {
        d = tiny;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..1000 {
        let m = m as f64;
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if d.abs() < tiny {
            d = tiny;
        }
        c = 1.0 + aa / c;
        if c.abs() < tiny {
            c = tiny;
        }
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if d.abs() < tiny {
            d = tiny;
        }
        c = 1.0 + aa / c;
        if c.abs() < tiny {
            c = tiny;
        }
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < 1e-16 {
            break;
        }
    }
    h
}

/// The Beta(a, b) distribution function (`scipy.stats.beta.cdf`).
pub(crate) fn beta_cdf(x: f64, a: f64, b: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let lbt = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    let bt = lbt.exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        bt * beta_cf(a, b, x) / a
    } else {
        1.0 - bt * beta_cf(b, a, 1.0 - x) / b
    }
}

/// numpy's pairwise summation of a contiguous `float64` run (`np.sum` along a contiguous
/// axis), operation for operation.
pub(crate) fn np_sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        let mut s = -0.0;
        for &v in a {
            s += v;
        }
        s
    } else if n <= 128 {
        let mut r = [0.0f64; 8];
        r.copy_from_slice(&a[..8]);
        let mut i = 8;
        while i < n - n % 8 {
            for k in 0..8 {
                r[k] += a[i + k];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        while i < n {
            res += a[i];
            i += 1;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        np_sum(&a[..n2]) + np_sum(&a[n2..])
    }
}

/// The HMM and the per-frame constants.
struct Model {
    min_p: usize,
    max_p: usize,
    /// pitch bins per semitone and pitch bins
    nbps: usize,
    npb: usize,
    /// thresholds[1..], the Beta prior's mass per threshold
    thr: Vec<f64>,
    beta: Vec<f64>,
    /// `exp(−λ·k)` and `(1 − exp(−λ)) / (1 − exp(−λ·N))` for k, N up to the trough count
    bexp: Vec<f64>,
    bfact: Vec<f64>,
    /// per destination pitch bin: its in-band source range and `ln(T + tiny)` over it for the
    /// four voicing blocks `[a][b]` (source block a, destination block b)
    band: Vec<(usize, usize)>,
    lt: [[Vec<Vec<f64>>; 2]; 2],
    /// `ln(tiny)`: every transition outside the bands
    l0: f64,
    log_init: f64,
    freqs: Vec<f64>,
}

fn check(p: &PyinParams) -> SkResult<()> {
    let bad = |m: String| Err(SkError::BadArgument(m));
    if p.n_thresholds == 0 || p.n_thresholds > 1 << 16 {
        return bad(format!(
            "n_thresholds = {} must be in 1 ..= 65536",
            p.n_thresholds
        ));
    }
    if !(p.beta_a.is_finite() && p.beta_a > 0.0 && p.beta_b.is_finite() && p.beta_b > 0.0) {
        return bad(format!(
            "beta_parameters = ({}, {}) must be finite and > 0",
            p.beta_a, p.beta_b
        ));
    }
    if !(p.boltzmann.is_finite() && p.boltzmann > 0.0) {
        return bad(format!(
            "boltzmann_parameter = {} must be finite and > 0",
            p.boltzmann
        ));
    }
    if !(p.resolution.is_finite() && p.resolution > 0.0 && p.resolution < 1.0) {
        return bad(format!("resolution = {} must be in (0, 1)", p.resolution));
    }
    if !(p.max_transition_rate.is_finite() && p.max_transition_rate >= 0.0) {
        return bad(format!(
            "max_transition_rate = {} must be finite and >= 0",
            p.max_transition_rate
        ));
    }
    for (name, v) in [
        ("switch_prob", p.switch_prob),
        ("no_trough_prob", p.no_trough_prob),
    ] {
        if !(0.0..=1.0).contains(&v) {
            return bad(format!("{name} = {v} must be in [0, 1]"));
        }
    }
    Ok(())
}

/// Python's `round` (half to even) of a double, as an integer.
fn round_even(x: f64) -> f64 {
    x.round_ties_even()
}

impl Model {
    fn new(p: &PyinParams) -> SkResult<Model> {
        check(p)?;
        let y = &p.yin;
        let (min_p, max_p) = y.periods()?;
        let nbps = (1.0 / p.resolution).ceil() as usize;
        let npb_f = (12.0 * nbps as f64 * (y.fmax / y.fmin).log2()).floor() + 1.0;
        if !(2.0..=32767.0).contains(&npb_f) {
            return Err(SkError::BadArgument(format!(
                "fmin, fmax and resolution give {npb_f} pitch bins; need 2 ..= 32767"
            )));
        }
        let npb = npb_f as usize;
        let semis = round_even(p.max_transition_rate * 12.0 * y.hop as f64 / y.sr);
        let width_f = semis * nbps as f64 + 1.0;
        if width_f > npb as f64 {
            return Err(SkError::BadArgument(format!(
                "the transition width {width_f} (max_transition_rate · 12 · hop / sr semitones) \
                 exceeds the {npb} pitch bins"
            )));
        }
        let w = width_f as usize;
        // thresholds and the Beta prior
        let nt = p.n_thresholds;
        let step = 1.0 / nt as f64;
        let mut t: Vec<f64> = (0..=nt).map(|j| j as f64 * step).collect();
        t[nt] = 1.0;
        let cdf: Vec<f64> = t.iter().map(|&x| beta_cdf(x, p.beta_a, p.beta_b)).collect();
        let beta: Vec<f64> = cdf.windows(2).map(|c| c[1] - c[0]).collect();
        let len = max_p - min_p + 1;
        let lam = p.boltzmann;
        let bexp: Vec<f64> = (0..=len).map(|k| (-lam * k as f64).exp()).collect();
        let e1 = 1.0 - (-lam).exp();
        let bfact: Vec<f64> = (0..=len)
            .map(|n| e1 / (1.0 - (-lam * n as f64).exp()))
            .collect();
        // the local transition (librosa.sequence.transition_local, window="triangle")
        let tri: Vec<f64> = {
            let half: Vec<f64> = (1..=w.div_ceil(2))
                .map(|n| {
                    if w.is_multiple_of(2) {
                        (2.0 * n as f64 - 1.0) / w as f64
                    } else {
                        2.0 * n as f64 / (w as f64 + 1.0)
                    }
                })
                .collect();
            let mut v = half.clone();
            if w.is_multiple_of(2) {
                v.extend(half.iter().rev());
            } else {
                v.extend(half.iter().rev().skip(1));
            }
            v
        };
        let lpad = (npb - w) / 2;
        let mut local = try_vec(npb * npb, 0.0f64, "the transition matrix")?;
        let mut full = vec![0.0f64; npb];
        for i in 0..npb {
            full.iter_mut().for_each(|v| *v = 0.0);
            full[lpad..lpad + w].copy_from_slice(&tri);
            let row = &mut local[i * npb..(i + 1) * npb];
            let r = (npb / 2 + i + 1) % npb;
            for (m, &v) in full.iter().enumerate() {
                row[(m + r) % npb] = v;
            }
            let hi = (i + w / 2 + 1).min(npb);
            row[hi..].iter_mut().for_each(|v| *v = 0.0);
            let lo = i.saturating_sub(w / 2);
            row[..lo].iter_mut().for_each(|v| *v = 0.0);
            let s = np_sum(row);
            row.iter_mut().for_each(|v| *v /= s);
        }
        // transition_loop(2, 1 − switch_prob)
        let stay = 1.0 - p.switch_prob;
        let sw = (1.0 - stay) / 1.0;
        let tsw = [[stay, sw], [sw, stay]];
        let tiny = f64::MIN_POSITIVE;
        let mut band = Vec::with_capacity(npb);
        let mut lt: [[Vec<Vec<f64>>; 2]; 2] = Default::default();
        for dst in 0..npb {
            let mut qs = usize::MAX;
            let mut qe = 0;
            for q in 0..npb {
                if local[q * npb + dst] != 0.0 {
                    qs = qs.min(q);
                    qe = q;
                }
            }
            if qs == usize::MAX {
                qs = dst;
                qe = dst;
            }
            band.push((qs, qe));
            for (a, row) in tsw.iter().enumerate() {
                for (b, &s) in row.iter().enumerate() {
                    lt[a][b].push(
                        (qs..=qe)
                            .map(|q| (s * local[q * npb + dst] + tiny).ln())
                            .collect(),
                    );
                }
            }
        }
        let ns = 2 * npb;
        let freqs = (0..npb)
            .map(|i| y.fmin * 2f64.powf(i as f64 / (12 * nbps) as f64))
            .collect();
        Ok(Model {
            min_p,
            max_p,
            nbps,
            npb,
            thr: t[1..].to_vec(),
            beta,
            bexp,
            bfact,
            band,
            lt,
            l0: tiny.ln(),
            log_init: (1.0 / ns as f64 + tiny).ln(),
            freqs,
        })
    }

    /// One frame's log observation probabilities (`2·npb` values) and voiced probability from
    /// its normalised difference `y`.
    fn observe(&self, p: &PyinParams, y: &[f64], out: &mut [f64], troughs: &mut Vec<usize>) -> f64 {
        let npb = self.npb;
        let len = y.len();
        let obs = &mut out[..2 * npb];
        obs[..npb].iter_mut().for_each(|v| *v = 0.0);
        // troughs: util.localmin, with index 0 a trough when y[0] < y[1]
        troughs.clear();
        for i in 0..len {
            let is = if i == 0 {
                len > 1 && y[0] < y[1]
            } else {
                let right = if i + 1 < len { y[i + 1] } else { y[i] };
                y[i] < y[i - 1] && y[i] <= right
            };
            if is {
                troughs.push(i);
            }
        }
        if !troughs.is_empty() {
            let nt = self.thr.len();
            // m_k: how many thresholds are not above trough k (h < t fails)
            let m: Vec<usize> = troughs
                .iter()
                .map(|&i| {
                    let h = y[i];
                    self.thr.iter().position(|&t| h < t).unwrap_or(nt)
                })
                .collect();
            // troughs below each threshold
            let mut n_below = vec![0usize; nt];
            for &mk in &m {
                for v in n_below[mk.min(nt)..].iter_mut() {
                    *v += 1;
                }
            }
            let mut before = vec![0usize; nt];
            let mut probs = vec![0.0f64; troughs.len()];
            for (k, &mk) in m.iter().enumerate() {
                let mut acc = 0.0;
                for j in mk..nt {
                    let prior = self.bfact[n_below[j]] * self.bexp[before[j]];
                    acc += prior * self.beta[j];
                    before[j] += 1;
                }
                probs[k] = acc;
            }
            // the global minimum takes the mass of the thresholds no trough is below
            let mut g = 0;
            for k in 1..troughs.len() {
                if y[troughs[g]].is_nan() {
                    break;
                }
                if y[troughs[k]].is_nan() || y[troughs[k]] < y[troughs[g]] {
                    g = k;
                }
            }
            probs[g] += p.no_trough_prob * np_sum(&self.beta[..m[g]]);
            // candidates in period order; a later one overwrites an earlier one in its bin
            let bins = (12 * self.nbps) as f64;
            for (k, &i) in troughs.iter().enumerate() {
                if probs[k] == 0.0 {
                    continue;
                }
                let period = (self.min_p + i) as f64 + parabolic_shift(y, i);
                let f0 = p.yin.sr / period;
                let b = (bins * (f0 / p.yin.fmin).log2()).round_ties_even();
                let b = if b.is_nan() {
                    0.0
                } else {
                    b.clamp(0.0, npb as f64)
                } as usize;
                if b < npb {
                    obs[b] = probs[k];
                }
                // bin npb lands on the first unvoiced state, overwritten below (as librosa)
            }
        }
        let mut vp = 0.0;
        for &v in obs[..npb].iter() {
            vp += v;
        }
        let vp = if vp.is_nan() { vp } else { vp.clamp(0.0, 1.0) };
        let uv = (1.0 - vp) / npb as f64;
        obs[npb..].iter_mut().for_each(|v| *v = uv);
        let tiny = f64::MIN_POSITIVE;
        obs.iter_mut().for_each(|v| *v = (*v + tiny).ln());
        vp
    }

    /// The Viterbi path of one row's log observations (`frames × 2·npb`) into `states`.
    fn viterbi(
        &self,
        lp: &[f64],
        stride: usize,
        frames: usize,
        states: &mut [u32],
    ) -> SkResult<()> {
        let npb = self.npb;
        let ns = 2 * npb;
        let mut value = try_vec(ns, 0.0f64, "the Viterbi values")?;
        let mut next = try_vec(ns, 0.0f64, "the Viterbi values")?;
        let mut ptr = try_vec(frames * ns, 0u16, "the Viterbi back-pointers")?;
        let levels = usize::BITS as usize - ns.leading_zeros() as usize;
        let mut table = try_vec(levels * ns, (0.0f64, 0u32), "a range-maximum table")?;
        for (v, l) in value.iter_mut().zip(&lp[..ns]) {
            *v = l + self.log_init;
        }
        let better = |a: (f64, u32), b: (f64, u32)| -> (f64, u32) {
            // the larger value; on a tie the smaller index (np.argmax's first maximum)
            if b.0 > a.0 || (b.0 == a.0 && b.1 < a.1) {
                b
            } else {
                a
            }
        };
        for t in 1..frames {
            // W[k] = value[k] + ln(tiny), and its range-maximum table
            for k in 0..ns {
                table[k] = (value[k] + self.l0, k as u32);
            }
            for l in 1..levels {
                let h = 1 << (l - 1);
                for k in 0..ns {
                    let a = table[(l - 1) * ns + k];
                    table[l * ns + k] = if k + h < ns {
                        better(a, table[(l - 1) * ns + k + h])
                    } else {
                        a
                    };
                }
            }
            let query = |lo: usize, hi: usize| -> Option<(f64, u32)> {
                // inclusive-exclusive [lo, hi)
                if lo >= hi {
                    return None;
                }
                let n = hi - lo;
                let l = usize::BITS as usize - 1 - n.leading_zeros() as usize;
                Some(better(table[l * ns + lo], table[l * ns + hi - (1 << l)]))
            };
            let obs = &lp[t * stride..t * stride + ns];
            let row_ptr = &mut ptr[t * ns..(t + 1) * ns];
            for b in 0..2 {
                for pdst in 0..npb {
                    let j = b * npb + pdst;
                    let (qs, qe) = self.band[pdst];
                    let mut best = (f64::NEG_INFINITY, u32::MAX);
                    for a in 0..2 {
                        let lts = &self.lt[a][b][pdst];
                        let base = a * npb + qs;
                        let (m, o) = band_argmax(&value[base..base + lts.len()], lts);
                        let c = (m, (base + o) as u32);
                        best = if best.1 == u32::MAX {
                            c
                        } else {
                            better(best, c)
                        };
                    }
                    for (lo, hi) in [(0, qs), (qe + 1, npb + qs), (npb + qe + 1, ns)] {
                        if let Some(c) = query(lo, hi) {
                            best = better(best, c);
                        }
                    }
                    row_ptr[j] = best.1 as u16;
                    next[j] = obs[j] + best.0;
                }
            }
            std::mem::swap(&mut value, &mut next);
        }
        let mut s = 0usize;
        for k in 1..ns {
            if value[k] > value[s] {
                s = k;
            }
        }
        states[frames - 1] = s as u32;
        for t in (0..frames - 1).rev() {
            s = ptr[(t + 1) * ns + s] as usize;
            states[t] = s as u32;
        }
        Ok(())
    }
}

/// The largest `v[o] + l[o]` and its first index (`np.argmax` of the sums), in one pass: four
/// independent lanes keep their maximum and its first index (vectorisable), then the lanes'
/// largest value with the smallest index wins.
fn band_argmax(v: &[f64], l: &[f64]) -> (f64, usize) {
    let n = v.len().min(l.len());
    if n < 4 {
        let mut best = (v[0] + l[0], 0);
        for k in 1..n {
            let s = v[k] + l[k];
            if s > best.0 {
                best = (s, k);
            }
        }
        return best;
    }
    let mut m = [v[0] + l[0], v[1] + l[1], v[2] + l[2], v[3] + l[3]];
    let mut ix = [0u64, 1, 2, 3];
    let mut i = 4;
    while i + 4 <= n {
        for k in 0..4 {
            let s = v[i + k] + l[i + k];
            let gt = s > m[k];
            m[k] = if gt { s } else { m[k] };
            ix[k] = if gt { (i + k) as u64 } else { ix[k] };
        }
        i += 4;
    }
    let mut best = (m[0], ix[0] as usize);
    for k in 1..4 {
        let c = (m[k], ix[k] as usize);
        if c.0 > best.0 || (c.0 == best.0 && c.1 < best.1) {
            best = c;
        }
    }
    while i < n {
        let s = v[i] + l[i];
        if s > best.0 {
            best = (s, i);
        }
        i += 1;
    }
    best
}

/// `librosa.pyin(x, ...)` of every row of `x` (`batch × n`, finite): `f0` (Hz; unvoiced frames
/// `fill` when given, else the decoded pitch bin's frequency), `voiced` (0 / 1) and
/// `vprob`, each `batch × frames`.
pub fn pyin<T: Float>(
    x: &[T],
    batch: usize,
    p: &PyinParams,
    fill: Option<f64>,
    f0: &mut [T],
    voiced: &mut [u8],
    vprob: &mut [T],
) -> SkResult<()> {
    let model = Model::new(p)?;
    let y = &p.yin;
    let n = x.len().checked_div(batch).unwrap_or(0);
    let frames = y.frames(n)?;
    let g_len = batch * frames;
    assert!(f0.len() == g_len && voiced.len() == g_len && vprob.len() == g_len);
    if let Some(i) = x.iter().position(|v| !v.is_finite()) {
        return Err(SkError::NonFinite(format!(
            "y[{i}] = {:?}: audio must be finite everywhere (as librosa's valid_audio)",
            x[i]
        )));
    }
    let (min_p, max_p) = (model.min_p, model.max_p);
    let n_pad = (2 * y.frame_length - 1).next_power_of_two();
    let plan: Arc<FftPlan<f64>> = f64::cached_real_plan(n_pad)?;
    let ns = 2 * model.npb;
    let stride = ns + 1;
    let mut lp = try_vec(g_len * stride, 0.0f64, "the observation probabilities")?;
    par_rows_with(
        &mut lp,
        stride,
        g_len.saturating_mul(n_pad).saturating_mul(8),
        || Ok((scratch(&plan, n_pad, min_p, max_p)?, Vec::new())),
        |(s, troughs), first, chunk| {
            for (i, row) in chunk.chunks_mut(stride).enumerate() {
                let g = first + i;
                let (b, t) = (g / frames, g % frames);
                load_frame(y, &x[b * n..(b + 1) * n], t, s);
                cmnd(&plan, s, min_p, max_p);
                let yv = &s.yin[..max_p - min_p + 1];
                let vp = model.observe(p, yv, row, troughs);
                row[ns] = vp;
            }
        },
    )?;
    let mut states = try_vec(g_len, 0u32, "the decoded states")?;
    par_rows_with(
        &mut states,
        frames,
        g_len.saturating_mul(ns).saturating_mul(64),
        || Ok(()),
        |_, first, chunk| {
            for (i, st) in chunk.chunks_mut(frames).enumerate() {
                let b = first + i;
                let rows = &lp[b * frames * stride..(b + 1) * frames * stride];
                // allocation failures inside a worker leave the states at 0; checked below
                if model.viterbi(rows, stride, frames, st).is_err() {
                    st.iter_mut().for_each(|v| *v = u32::MAX);
                }
            }
        },
    )?;
    if states.contains(&u32::MAX) {
        return Err(SkError::Allocation(
            "the Viterbi decoding could not allocate its working memory".into(),
        ));
    }
    for g in 0..g_len {
        let s = states[g] as usize;
        let v = s < model.npb;
        voiced[g] = u8::from(v);
        f0[g] = T::from_f64(match (v, fill) {
            (false, Some(f)) => f,
            _ => model.freqs[s % model.npb],
        });
        vprob[g] = T::from_f64(lp[g * stride + ns]);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beta_cdf_closed_forms() {
        // Beta(1, 1) is uniform; Beta(2, 1) has cdf x²; Beta(2, 18) at its mean-ish point
        assert!((beta_cdf(0.3, 1.0, 1.0) - 0.3).abs() < 1e-14);
        assert!((beta_cdf(0.3, 2.0, 1.0) - 0.09).abs() < 1e-14);
        // 1 − (1−x)^19 (1 + 18x)·... for Beta(2, 18): I_x(2, 18) = 1 − (1−x)^18 (1 + 18x) − ... use
        // the identity I_x(a, b) = 1 − I_{1−x}(b, a)
        let a = beta_cdf(0.1, 2.0, 18.0);
        let b = 1.0 - beta_cdf(0.9, 18.0, 2.0);
        assert!((a - b).abs() < 1e-14);
        // exact: I_x(2, 18) = 1 − (1 − x)^19 − 19 x (1 − x)^18
        let x: f64 = 0.1;
        let exact = 1.0 - (1.0 - x).powi(19) - 19.0 * x * (1.0 - x).powi(18);
        assert!((a - exact).abs() < 1e-14, "{a} {exact}");
    }

    #[test]
    fn pairwise_sum_matches_sequential_for_short_runs() {
        let v: Vec<f64> = (0..300).map(|i| 1.0 / (i as f64 + 1.0)).collect();
        let s: f64 = v.iter().sum();
        assert!((np_sum(&v) - s).abs() < 1e-12);
        assert_eq!(np_sum(&v[..5]), v[..5].iter().fold(-0.0, |a, b| a + b));
    }

    #[test]
    fn band_argmax_is_the_first_maximum() {
        let v = [1.0, 3.0, 2.0, 3.0, 0.5, 3.0, -1.0];
        let l = [0.0, -1.0, 0.0, -1.0, 1.5, 0.0, 4.0];
        // sums 1, 2, 2, 2, 2, 3, 3: the first 3 is at index 5
        assert_eq!(band_argmax(&v, &l), (3.0, 5));
        assert_eq!(band_argmax(&v[..5], &l[..5]), (2.0, 1));
        assert_eq!(band_argmax(&v[..1], &l[..1]), (1.0, 0));
        // many ties in every lane position: the first maximum, as a plain scan finds it
        for n in 1..24 {
            for seed in 0..20usize {
                let v: Vec<f64> = (0..n).map(|i| ((i * 7 + seed * 13) % 5) as f64).collect();
                let l: Vec<f64> = (0..n).map(|i| ((i * 3 + seed) % 3) as f64).collect();
                let mut want = (v[0] + l[0], 0);
                for k in 1..n {
                    if v[k] + l[k] > want.0 {
                        want = (v[k] + l[k], k);
                    }
                }
                assert_eq!(band_argmax(&v, &l), want, "{n} {seed}");
            }
        }
    }

    #[test]
    fn ln_gamma_known_values() {
        assert!((ln_gamma(1.0)).abs() < 1e-14);
        assert!((ln_gamma(5.0) - 24f64.ln()).abs() < 1e-13);
        assert!((ln_gamma(0.5) - std::f64::consts::PI.sqrt().ln()).abs() < 1e-13);
    }
}
