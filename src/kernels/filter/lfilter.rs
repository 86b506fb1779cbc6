//! General IIR filters in transfer-function form `(b, a)`, scipy's `lfilter`, and the steady-state
//! initial conditions of `lfilter_zi` and `sosfilt_zi`.
//!
//! `b` and `a` are divided by `a[0]` (in `f64`) and the shorter one is padded with zeros to
//! `N = max(len b, len a)` coefficients; the filter has order `K = N − 1` and `K` state values per
//! channel, scipy's `zi[c, 0..K]`. It is scipy's transposed direct form II,
//!
//! ```text
//! y       = b0·x + z0
//! z[i]'   = b[i+1]·x + z[i+1] − a[i+1]·y      i < K − 1
//! z[K−1]' = b[K]·x − a[K]·y
//! ```
//!
//! with `y` substituted into the updates (as in the SOS cascade), which gives the same states
//! with a dependency chain of one multiply-add per sample instead of two:
//!
//! ```text
//! y       = m(b0, x, z0)
//! z[i]'   = m(−a[i+1], z0, m(c[i+1], x, z[i+1]))     c[j] = b[j] − a[j]·b0 (in f64)
//! z[K−1]' = m(−a[K], z0, c[K]·x)
//! ```
//!
//! `m(a, b, c) = a·b + c` is a multiply then an add at the scalar and SSE2/NEON levels and one
//! fused multiply-add at AVX2 and AVX-512 (see [`super::sos::uses_fma`]); the results differ
//! from scipy's by rounding only. No stability check is made: like scipy, marginal and unstable
//! filters run, and their output is scipy's (to rounding) while it stays finite.
//!
//! Channels run in SIMD lanes like the SOS cascade ([`super::sos`]): blocks of 16 (`f32`) or 8
//! (`f64`) channels, smaller blocks for the leftovers, gathered in time blocks of
//! [`super::sos::TBLOCK`] frames into a lane-major buffer (planar data through the tile
//! transposes), filtered with the state in registers (orders 1–5 are compiled for their order),
//! and scattered back. Large planar outputs are split into 8-channel groups on scoped threads;
//! channels are independent, so no result depends on the split. Every level is bit-identical
//! to the scalar reference with the same arithmetic, and processing in chunks is bit-identical to
//! one call.

// Lane loops index several fixed-size arrays by the same lane number.
#![allow(clippy::needless_range_loop)]

use super::super::{Float, Src};
use super::sos::{self, uses_fma, Arith, Fused, Layout, Plain, SosElem, TBLOCK};
use crate::error::{SkError, SkResult};
use crate::kernels::par;
use crate::simd::tile::{self, Transposer};
use crate::simd::{multiversion, Level};

/// Checks `b` and `a` and returns them divided by `a[0]` and padded with zeros to a common length
/// `N = max(len b, len a)` (in `f64`).
pub fn normalise_tf(b: &[f64], a: &[f64]) -> SkResult<(Vec<f64>, Vec<f64>)> {
    if b.is_empty() {
        return Err(SkError::Length(
            "nb is 0; b needs at least one coefficient".into(),
        ));
    }
    if a.is_empty() {
        return Err(SkError::Length(
            "na is 0; a needs at least one coefficient".into(),
        ));
    }
    for (name, v) in [("b", b), ("a", a)] {
        if let Some(k) = v.iter().position(|c| !c.is_finite()) {
            return Err(SkError::BadArgument(format!(
                "{name}[{k}] = {} is not finite",
                v[k]
            )));
        }
    }
    let a0 = a[0];
    if a0 == 0.0 {
        return Err(SkError::BadArgument(
            "a[0] is 0; the filter needs a[0] != 0".into(),
        ));
    }
    let n = b.len().max(a.len());
    let mut bn = vec![0.0; n];
    let mut an = vec![0.0; n];
    for (d, s) in bn.iter_mut().zip(b) {
        *d = s / a0;
    }
    for (d, s) in an.iter_mut().zip(a) {
        *d = s / a0;
    }
    for (name, v) in [("b", &bn), ("a", &an)] {
        if let Some(k) = v.iter().position(|c| !c.is_finite()) {
            return Err(SkError::BadArgument(format!(
                "{name} divided by a[0] = {a0:e} overflows (coefficient {k} becomes {})",
                v[k]
            )));
        }
    }
    Ok((bn, an))
}

/// Coefficients in kernel form, rounded to `T`: `b[0..=K]`, `c[j] = b[j] − a[j]·b[0]` and
/// `na[j] = −a[j]` (`c[0]`, `na[0]` unused).
#[derive(Clone, Debug, PartialEq)]
pub struct Tf<T> {
    pub b: Vec<T>,
    pub c: Vec<T>,
    pub na: Vec<T>,
}

impl<T: Float> Tf<T> {
    /// Validates and converts `(b, a)`; refuses coefficients out of the range of `T`.
    pub fn new(b: &[f64], a: &[f64]) -> SkResult<Self> {
        let (bn, an) = normalise_tf(b, a)?;
        let tb: Vec<T> = bn.iter().map(|&v| T::from_f64(v)).collect();
        let tc: Vec<T> = bn
            .iter()
            .zip(&an)
            .map(|(&b, &a)| T::from_f64(b - a * bn[0]))
            .collect();
        let tna: Vec<T> = an.iter().map(|&v| T::from_f64(-v)).collect();
        if tb.iter().chain(&tc).chain(&tna).any(|v| !v.is_finite()) {
            return Err(SkError::BadArgument(format!(
                "a coefficient divided by a[0] is out of the range of {}",
                T::C_NAME
            )));
        }
        Ok(Tf {
            b: tb,
            c: tc,
            na: tna,
        })
    }

    /// The filter order `K` (state values per channel).
    pub fn order(&self) -> usize {
        self.b.len() - 1
    }
}

/// A streaming transfer-function filter for `channels` channels: coefficients and state.
#[derive(Clone, Debug)]
pub struct LFilter<T> {
    tf: Tf<T>,
    channels: usize,
    /// Internal layout `[k][channel]`, so a lane block loads contiguously.
    state: Vec<T>,
}

impl<T: SosElem> LFilter<T> {
    /// A filter with zero state; `channels >= 1`.
    pub fn new(b: &[f64], a: &[f64], channels: usize) -> SkResult<Self> {
        if channels == 0 {
            return Err(SkError::Length(
                "channels is 0; a filter needs at least one channel".into(),
            ));
        }
        let tf = Tf::<T>::new(b, a)?;
        let len = tf
            .order()
            .checked_mul(channels)
            .ok_or_else(|| SkError::Length("order × channels overflows".into()))?;
        let mut state = Vec::new();
        state.try_reserve_exact(len).map_err(|_| {
            SkError::Allocation(format!("cannot allocate the state ({len} values)"))
        })?;
        state.resize(len, T::ZERO);
        Ok(LFilter {
            tf,
            channels,
            state,
        })
    }

    pub fn order(&self) -> usize {
        self.tf.order()
    }
    pub fn channels(&self) -> usize {
        self.channels
    }
    /// Number of state values: `order · channels`.
    pub fn state_len(&self) -> usize {
        self.state.len()
    }
    /// Zeroes the state.
    pub fn reset(&mut self) {
        self.state.fill(T::ZERO);
    }

    /// Copies the state out in scipy's `zi` layout `(channels, order)`.
    pub fn get_state(&self, zi: &mut [T]) {
        assert_eq!(zi.len(), self.state.len(), "state length");
        let (ch, k) = (self.channels, self.order());
        for c in 0..ch {
            for i in 0..k {
                zi[c * k + i] = self.state[i * ch + c];
            }
        }
    }

    /// Loads a state given in scipy's `zi` layout `(channels, order)`.
    pub fn set_state(&mut self, zi: &[T]) {
        assert_eq!(zi.len(), self.state.len(), "state length");
        let (ch, k) = (self.channels, self.order());
        for c in 0..ch {
            for i in 0..k {
                self.state[i * ch + c] = zi[c * k + i];
            }
        }
    }

    /// Filters `n` frames of every channel from `x` (layout `xl`) into `y` (layout `yl`),
    /// carrying the state. `Src::Dst` means in place (then `xl` must equal `yl`).
    pub fn process(
        &mut self,
        level: Level,
        x: Src<'_, T>,
        xl: Layout,
        y: &mut [T],
        yl: Layout,
        n: usize,
    ) {
        if uses_fma(level) {
            self.process_with::<Fused>(level, x, xl, y, yl, n)
        } else {
            self.process_with::<Plain>(level, x, xl, y, yl, n)
        }
    }

    /// [`LFilter::process`] with the arithmetic chosen by the caller.
    pub fn process_with<A: Arith>(
        &mut self,
        level: Level,
        x: Src<'_, T>,
        xl: Layout,
        y: &mut [T],
        yl: Layout,
        n: usize,
    ) {
        if let Src::Slice(xs) = x {
            assert!(xs.len() >= xl.extent(self.channels, n).unwrap(), "x extent");
        } else {
            assert_eq!(xl, yl, "in-place processing needs equal layouts");
        }
        assert!(y.len() >= yl.extent(self.channels, n).unwrap(), "y extent");
        if n == 0 {
            return;
        }
        let ch = self.channels;
        let groups = if yl.t != 1 || yl.ch < n {
            1
        } else {
            let work = (ch * (self.order() + 1)).saturating_mul(n);
            par::threads_for(ch / 8, work)
        };
        if groups <= 1 {
            return lfilter_at::<T, A>(
                level,
                level,
                &self.tf,
                &mut self.state,
                ch,
                x,
                xl,
                y,
                yl,
                n,
            );
        }
        // whole 8-channel groups on scoped threads, each on a copy of its channels' state
        let per = ch.div_ceil(groups).next_multiple_of(8);
        let ranges: Vec<(usize, usize)> = (0..ch)
            .step_by(per)
            .map(|c0| (c0, (c0 + per).min(ch)))
            .collect();
        let rows = self.order();
        let mut states: Vec<Vec<T>> = ranges
            .iter()
            .map(|&(c0, c1)| {
                (0..rows)
                    .flat_map(|r| self.state[r * ch + c0..r * ch + c1].iter().copied())
                    .collect()
            })
            .collect();
        let mut ys = Vec::with_capacity(ranges.len());
        let mut rest = y;
        for &(c0, c1) in &ranges {
            if c1 < ch {
                let (head, tail) = rest.split_at_mut((c1 - c0) * yl.ch);
                ys.push(head);
                rest = tail;
            } else {
                ys.push(std::mem::take(&mut rest));
            }
        }
        let tf = &self.tf;
        let parts: Vec<_> = ranges.iter().zip(ys).zip(states.iter_mut()).collect();
        par::run_parts(parts, |((&(c0, c1), yc), st)| {
            let xc = match x {
                Src::Slice(s) => Src::Slice(&s[c0 * xl.ch..]),
                Src::Dst => Src::Dst,
            };
            lfilter_at::<T, A>(level, level, tf, st, c1 - c0, xc, xl, yc, yl, n);
        });
        for (&(c0, c1), st) in ranges.iter().zip(&states) {
            for (r, src) in st.chunks_exact(c1 - c0).enumerate() {
                self.state[r * ch + c0..r * ch + c1].copy_from_slice(src);
            }
        }
    }
}

#[inline(always)]
fn read<T: Float>(x: Src<'_, T>, y: &[T], i: usize) -> T {
    match x {
        Src::Slice(s) => s[i],
        Src::Dst => y[i],
    }
}

/// Reference: one channel, one sample at a time.
#[allow(clippy::too_many_arguments)]
fn lfilter_scalar<T: SosElem, A: Arith>(
    _lv: Level,
    tf: &Tf<T>,
    state: &mut [T],
    channels: usize,
    x: Src<'_, T>,
    xl: Layout,
    y: &mut [T],
    yl: Layout,
    n: usize,
) {
    let k = tf.order();
    for c in 0..channels {
        for t in 0..n {
            let v = read(x, y, c * xl.ch + t * xl.t);
            let out = if k == 0 {
                tf.b[0] * v
            } else {
                let z0 = state[c];
                let out = A::madd(tf.b[0], v, z0);
                for i in 0..k - 1 {
                    let next = state[(i + 1) * channels + c];
                    state[i * channels + c] =
                        A::madd(tf.na[i + 1], z0, A::madd(tf.c[i + 1], v, next));
                }
                state[(k - 1) * channels + c] = A::madd(tf.na[k], z0, tf.c[k] * v);
                out
            };
            y[c * yl.ch + t * yl.t] = out;
        }
    }
}

/// Runs order `K` (1..=5, compiled for it) over a lane-major buffer, state in locals.
#[inline(always)]
fn run_fixed<T: SosElem, A: Arith, const L: usize, const K: usize>(
    tf: &Tf<T>,
    z: &mut [[T; L]],
    buf: &mut [[T; L]],
) {
    let b0 = tf.b[0];
    let mut bb = [T::ZERO; K];
    let mut aa = [T::ZERO; K];
    bb.copy_from_slice(&tf.c[1..=K]);
    aa.copy_from_slice(&tf.na[1..=K]);
    let mut zz = [[T::ZERO; L]; K];
    zz.copy_from_slice(&z[..K]);
    for v in buf.iter_mut() {
        let x = *v;
        let z0 = zz[0];
        let mut y = [T::ZERO; L];
        for l in 0..L {
            y[l] = A::madd(b0, x[l], z0[l]);
        }
        for i in 0..K - 1 {
            for l in 0..L {
                zz[i][l] = A::madd(aa[i], z0[l], A::madd(bb[i], x[l], zz[i + 1][l]));
            }
        }
        for l in 0..L {
            zz[K - 1][l] = A::madd(aa[K - 1], z0[l], bb[K - 1] * x[l]);
        }
        *v = y;
    }
    z[..K].copy_from_slice(&zz);
}

/// Any order (state in a slice, `z.len() == K >= 1`).
#[inline(always)]
fn run_dyn<T: SosElem, A: Arith, const L: usize>(tf: &Tf<T>, z: &mut [[T; L]], buf: &mut [[T; L]]) {
    let k = z.len();
    let b0 = tf.b[0];
    for v in buf.iter_mut() {
        let x = *v;
        let z0 = z[0];
        let mut y = [T::ZERO; L];
        for l in 0..L {
            y[l] = A::madd(b0, x[l], z0[l]);
        }
        for i in 0..k - 1 {
            let (ci, ai) = (tf.c[i + 1], tf.na[i + 1]);
            let next = z[i + 1];
            for l in 0..L {
                z[i][l] = A::madd(ai, z0[l], A::madd(ci, x[l], next[l]));
            }
        }
        let (ck, ak) = (tf.c[k], tf.na[k]);
        for l in 0..L {
            z[k - 1][l] = A::madd(ak, z0[l], ck * x[l]);
        }
        *v = y;
    }
}

/// One block of `active <= L` channels from `c0`, all frames, through a lane-major buffer.
#[cfg_attr(not(debug_assertions), inline(always))]
#[allow(clippy::too_many_arguments)]
fn lane_block<T: SosElem, A: Arith, X: Transposer, const L: usize>(
    tr: X,
    tf: &Tf<T>,
    state: &mut [T],
    channels: usize,
    c0: usize,
    active: usize,
    x: Src<'_, T>,
    xl: Layout,
    y: &mut [T],
    yl: Layout,
    n: usize,
) {
    let k = tf.order();
    let mut z: Vec<[T; L]> = vec![[T::ZERO; L]; k];
    for (i, zi) in z.iter_mut().enumerate() {
        let base = i * channels + c0;
        zi[..active].copy_from_slice(&state[base..base + active]);
    }
    let mut buf = [[T::ZERO; L]; TBLOCK];
    let mut t0 = 0;
    while t0 < n {
        let m = (n - t0).min(TBLOCK);
        let b = &mut buf[..m];
        {
            let src: &[T] = match x {
                Src::Slice(s) => s,
                Src::Dst => y,
            };
            sos::gather(tr, src, xl, c0, active, t0, b);
        }
        match k {
            0 => {
                for v in b.iter_mut() {
                    for l in 0..L {
                        v[l] = tf.b[0] * v[l];
                    }
                }
            }
            1 => run_fixed::<T, A, L, 1>(tf, &mut z, b),
            2 => run_fixed::<T, A, L, 2>(tf, &mut z, b),
            3 => run_fixed::<T, A, L, 3>(tf, &mut z, b),
            4 => run_fixed::<T, A, L, 4>(tf, &mut z, b),
            5 => run_fixed::<T, A, L, 5>(tf, &mut z, b),
            // beyond 5 states the fully unrolled kernel spills badly at some levels (measured:
            // order 8 on 8 f64 channels ran 4-6x slower than the loop below)
            _ => run_dyn::<T, A, L>(tf, &mut z, b),
        }
        sos::scatter(tr, b, y, yl, c0, active, t0);
        t0 += m;
    }
    for (i, zi) in z.iter().enumerate() {
        let base = i * channels + c0;
        state[base..base + active].copy_from_slice(&zi[..active]);
    }
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn lfilter_lanes<T: SosElem, A: Arith>(
    lv: Level,
    tf: &Tf<T>,
    state: &mut [T],
    channels: usize,
    x: Src<'_, T>,
    xl: Layout,
    y: &mut [T],
    yl: Layout,
    n: usize,
) {
    #[cfg(target_arch = "x86_64")]
    {
        if let Some(tr) = tile::Avx512::at(lv) {
            return lfilter_blocks::<T, A, _>(tr, tf, state, channels, x, xl, y, yl, n);
        }
        if let Some(tr) = tile::Avx2::at(lv) {
            return lfilter_blocks::<T, A, _>(tr, tf, state, channels, x, xl, y, yl, n);
        }
    }
    lfilter_blocks::<T, A, _>(tile::Portable, tf, state, channels, x, xl, y, yl, n)
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn lfilter_blocks<T: SosElem, A: Arith, X: Transposer>(
    tr: X,
    tf: &Tf<T>,
    state: &mut [T],
    channels: usize,
    x: Src<'_, T>,
    xl: Layout,
    y: &mut [T],
    yl: Layout,
    n: usize,
) {
    let wide = if std::mem::size_of::<T>() == 4 { 16 } else { 8 };
    let mut c0 = 0;
    while c0 < channels {
        let rem = channels - c0;
        if rem > 8 && wide == 16 {
            let active = rem.min(16);
            lane_block::<T, A, X, 16>(tr, tf, state, channels, c0, active, x, xl, y, yl, n);
            c0 += active;
        } else if rem > 4 {
            let active = rem.min(8);
            lane_block::<T, A, X, 8>(tr, tf, state, channels, c0, active, x, xl, y, yl, n);
            c0 += active;
        } else if rem >= 2 {
            lane_block::<T, A, X, 4>(tr, tf, state, channels, c0, rem, x, xl, y, yl, n);
            c0 += rem;
        } else {
            lane_block::<T, A, X, 1>(tr, tf, state, channels, c0, 1, x, xl, y, yl, n);
            c0 += 1;
        }
    }
}

multiversion! {
    /// Runs the filter over `n` frames of every channel at the given SIMD level.
    pub fn lfilter_at<T: SosElem, A: Arith>(
        lv: Level,
        tf: &Tf<T>,
        state: &mut [T],
        channels: usize,
        x: Src<'_, T>,
        xl: Layout,
        y: &mut [T],
        yl: Layout,
        n: usize,
    ) -> ();
    scalar = lfilter_scalar; simd = lfilter_lanes;
}

/// One-shot `scipy.signal.lfilter(b, a, x, zi=zi)`: optional initial state in scipy's layout
/// `(channels, order)` (zeros if `None`), final state to `zf` if given.
#[allow(clippy::too_many_arguments)]
pub fn lfilter<T: SosElem>(
    level: Level,
    b: &[f64],
    a: &[f64],
    channels: usize,
    zi: Option<&[T]>,
    x: Src<'_, T>,
    xl: Layout,
    y: &mut [T],
    yl: Layout,
    n: usize,
    zf: Option<&mut [T]>,
) -> SkResult<()> {
    let mut f = LFilter::<T>::new(b, a, channels)?;
    if let Some(zi) = zi {
        f.set_state(zi);
    }
    f.process(level, x, xl, y, yl, n);
    if let Some(zf) = zf {
        f.get_state(zf);
    }
    Ok(())
}

/// Sum with Neumaier's compensation (the tails below are differences of nearly equal sums when
/// a pole is close to z = 1).
fn sum_comp(v: impl Iterator<Item = f64>) -> f64 {
    let (mut s, mut c) = (0.0f64, 0.0f64);
    for x in v {
        let t = s + x;
        c += if s.abs() >= x.abs() {
            (s - t) + x
        } else {
            (x - t) + s
        };
        s = t;
    }
    s + c
}

/// `scipy.signal.lfilter_zi(b, a)`: the state of the filter's step response in steady state
/// (`order` values). `a[0]` must be non-zero (scipy strips leading zeros of `a`; here that is
/// refused). A filter whose steady state does not exist (a pole at z = 1) is refused.
///
/// scipy solves `(I − companion(a)ᵀ)·zi = b[1:] − a[1:]·b[0]`. That system has a closed-form
/// solution: in steady state the output is the DC gain `g = Σb / Σa`, and the TDF-II update
/// gives `zi[i] = Σ_{j>i} b[j] − g·Σ_{j>i} a[j]`, computed here with compensated sums (the same
/// numbers to within the conditioning of the system, which grows as a pole nears z = 1).
pub fn lfilter_zi(b: &[f64], a: &[f64]) -> SkResult<Vec<f64>> {
    let (b, a) = normalise_tf(b, a)?;
    let k = b.len() - 1;
    if k == 0 {
        return Ok(Vec::new());
    }
    let sa = sum_comp(a.iter().copied());
    if sa == 0.0 {
        return Err(SkError::BadArgument(
            "the filter has no steady state (a pole at z = 1: sum(a) = 0), so lfilter_zi is \
             undefined"
                .into(),
        ));
    }
    let g = sum_comp(b.iter().copied()) / sa;
    let zi: Vec<f64> = (0..k)
        .map(|i| sum_comp((i + 1..=k).flat_map(|j| [b[j], -g * a[j]])))
        .collect();
    if let Some(i) = zi.iter().position(|v| !v.is_finite()) {
        return Err(SkError::BadArgument(format!(
            "zi[{i}] overflows (the DC gain sum(b)/sum(a) = {g:e} is too large)"
        )));
    }
    Ok(zi)
}

/// `scipy.signal.sosfilt_zi(sos)`: `(n_sections, 2)` values, section `s`'s `lfilter_zi` scaled by
/// the DC gain of the sections before it.
pub fn sosfilt_zi(sos: &[f64]) -> SkResult<Vec<f64>> {
    assert_eq!(sos.len() % 6, 0, "sos has a multiple of six coefficients");
    if sos.is_empty() {
        return Err(SkError::Length(
            "n_sections is 0; a cascade needs at least one section".into(),
        ));
    }
    let mut out = Vec::with_capacity(sos.len() / 3);
    let mut scale = 1.0;
    for (s, sec) in sos.chunks_exact(6).enumerate() {
        let zi = lfilter_zi(&sec[..3], &sec[3..]).map_err(|e| match e {
            SkError::BadArgument(m) => SkError::BadArgument(format!("sos[{s}]: {m}")),
            other => other,
        })?;
        // a 3-coefficient (b, a) pair always has order 2
        out.extend(zi.iter().map(|v| scale * v));
        scale *= (sec[0] + sec[1] + sec[2]) / (sec[3] + sec[4] + sec[5]);
    }
    if let Some(i) = out.iter().position(|v| !v.is_finite()) {
        return Err(SkError::BadArgument(format!(
            "zi[{i}] overflows: the DC gain of the sections before section {} is not finite",
            i / 2
        )));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::{same, Rng};
    use crate::simd::available;

    /// Textbook TDF-II in f64 (scipy's update order), one channel.
    fn reference(b: &[f64], a: &[f64], x: &[f64], zi: Option<&[f64]>) -> (Vec<f64>, Vec<f64>) {
        let (b, a) = normalise_tf(b, a).unwrap();
        let k = b.len() - 1;
        let mut z = zi.map(|z| z.to_vec()).unwrap_or(vec![0.0; k]);
        let mut y = Vec::new();
        for &xv in x {
            if k == 0 {
                y.push(b[0] * xv);
                continue;
            }
            let out = z[0] + b[0] * xv;
            for i in 0..k - 1 {
                z[i] = z[i + 1] + xv * b[i + 1] - out * a[i + 1];
            }
            z[k - 1] = xv * b[k] - out * a[k];
            y.push(out);
        }
        (y, z)
    }

    /// A stable random filter: poles at radius < 0.9 multiplied out, random numerator.
    fn random_tf(rng: &mut Rng, nb: usize, na: usize) -> (Vec<f64>, Vec<f64>) {
        let mut a = vec![1.0 + rng.uniform().abs()];
        for _ in 1..na {
            let p = 0.85 * rng.uniform();
            let mut next = a.clone();
            next.push(0.0);
            for i in 1..next.len() {
                next[i] -= p * a[i - 1];
            }
            a = next;
        }
        (rng.vec_f64(nb, 1.0), a)
    }

    #[test]
    fn matches_reference_every_order() {
        let mut rng = Rng::new(31);
        for (nb, na) in [
            (1, 1),
            (3, 1),
            (1, 3),
            (2, 2),
            (5, 3),
            (9, 9),
            (4, 10),
            (13, 12),
        ] {
            let (b, a) = random_tf(&mut rng, nb, na);
            let x = rng.vec_f64(700, 1.0);
            let k = nb.max(na) - 1;
            let zi = rng.vec_f64(k, 0.5);
            let (want, zwant) = reference(&b, &a, &x, Some(&zi));
            let l = Layout::planar(700);
            for level in available() {
                let mut y = vec![0.0; 700];
                let mut zf = vec![0.0; k];
                lfilter(
                    level,
                    &b,
                    &a,
                    1,
                    Some(&zi),
                    Src::Slice(&x),
                    l,
                    &mut y,
                    l,
                    700,
                    Some(&mut zf),
                )
                .unwrap();
                let peak = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
                for (g, w) in y.iter().zip(&want).chain(zf.iter().zip(&zwant)) {
                    assert!((g - w).abs() <= 1e-12 * peak, "nb={nb} na={na} {level:?}");
                }
            }
        }
    }

    #[test]
    fn plain_scalar_is_within_rounding_of_scipys_order() {
        let mut rng = Rng::new(32);
        let (b, a) = random_tf(&mut rng, 5, 5);
        let x = rng.vec_f64(300, 1.0);
        let (want, _) = reference(&b, &a, &x, None);
        let mut f = LFilter::<f64>::new(&b, &a, 1).unwrap();
        let mut y = vec![0.0; 300];
        let l = Layout::planar(300);
        f.process_with::<Plain>(Level::Scalar, Src::Slice(&x), l, &mut y, l, 300);
        let peak = want.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        for (g, w) in y.iter().zip(&want) {
            assert!((g - w).abs() <= 1e-13 * peak);
        }
    }

    fn levels_match_scalar<T: SosElem>(seed: u64, channel_counts: &[usize], orders: &[usize]) {
        let mut rng = Rng::new(seed);
        for &channels in channel_counts {
            for &k in orders {
                let (b, a) = random_tf(&mut rng, k + 1, k + 1);
                let n = 300 + channels;
                let stride = n + 3;
                let conv = |v: Vec<f64>| -> Vec<T> { v.into_iter().map(T::from_f64).collect() };
                let xp = conv(rng.vec_f64(channels * stride, 1.0));
                let xi = conv(rng.vec_f64(channels * n, 1.0));
                let zi = conv(rng.vec_f64(k * channels, 0.5));
                for planar in [true, false] {
                    let (x, l) = if planar {
                        (&xp, Layout::planar(stride))
                    } else {
                        (&xi, Layout::interleaved(channels))
                    };
                    let run = |level: Level, fused: bool, in_place: bool| {
                        let mut f = LFilter::<T>::new(&b, &a, channels).unwrap();
                        f.set_state(&zi);
                        let mut y = if in_place {
                            x.clone()
                        } else {
                            vec![T::from_f64(7.0); x.len()]
                        };
                        let src = if in_place { Src::Dst } else { Src::Slice(x) };
                        if fused {
                            f.process_with::<Fused>(level, src, l, &mut y, l, n);
                        } else {
                            f.process_with::<Plain>(level, src, l, &mut y, l, n);
                        }
                        let mut z = vec![T::ZERO; zi.len()];
                        f.get_state(&mut z);
                        (y, z)
                    };
                    for level in available() {
                        let fused = uses_fma(level);
                        let (mut want, zwant) = run(Level::Scalar, fused, false);
                        for in_place in [false, true] {
                            let (y, z) = run(level, fused, in_place);
                            if in_place && planar {
                                // the gaps keep the input
                                for c in 0..channels {
                                    let g = c * stride + n..(c + 1) * stride;
                                    want[g.clone()].copy_from_slice(&x[g]);
                                }
                            } else if planar {
                                for c in 0..channels {
                                    let g = c * stride + n..(c + 1) * stride;
                                    want[g].fill(T::from_f64(7.0));
                                }
                            }
                            let what = format!(
                                "{} ch={channels} k={k} {level:?} planar={planar} in_place={in_place}",
                                T::NAME
                            );
                            assert!(same(&y, &want), "{what}");
                            assert!(same(&z, &zwant), "state {what}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn every_level_bit_identical_to_scalar_f64() {
        levels_match_scalar::<f64>(33, &[1, 2, 3, 5, 8, 9, 17], &[0, 1, 2, 4, 8, 9]);
    }

    #[test]
    fn every_level_bit_identical_to_scalar_f32() {
        levels_match_scalar::<f32>(34, &[1, 4, 7, 16, 21], &[0, 1, 3, 8, 11]);
    }

    #[test]
    fn chunks_and_threads_are_bit_identical_to_one_call() {
        let mut rng = Rng::new(35);
        let (b, a) = random_tf(&mut rng, 9, 9);
        // 16 · 9 · 20000 is large enough for a two-way split where threads are available
        let (channels, n) = (17, 20000);
        let x = rng.vec_f64(channels * n, 1.0);
        let l = Layout::planar(n);
        for level in available() {
            let mut f = LFilter::<f64>::new(&b, &a, channels).unwrap();
            let mut whole = vec![0.0; x.len()];
            f.process(level, Src::Slice(&x), l, &mut whole, l, n);
            // one channel at a time, on this thread
            let mut single = vec![0.0; x.len()];
            for c in 0..channels {
                let mut f = LFilter::<f64>::new(&b, &a, 1).unwrap();
                let r = c * n..(c + 1) * n;
                let l1 = Layout::planar(n);
                f.process(level, Src::Slice(&x[r.clone()]), l1, &mut single[r], l1, n);
            }
            let mut f = LFilter::<f64>::new(&b, &a, channels).unwrap();
            let mut y = vec![0.0; x.len()];
            let mut t0 = 0;
            let mut i = 0;
            while t0 < n {
                let m = [1usize, 0, 7, 128, 129, 3000, 3][i % 7].min(n - t0);
                i += 1;
                f.process(level, Src::Slice(&x[t0..]), l, &mut y[t0..], l, m);
                t0 += m;
            }
            assert!(same(&y, &whole), "{level:?}");
            assert!(same(&single, &whole), "per-channel {level:?}");
        }
    }

    #[test]
    fn marginal_and_unstable_run_like_scipy() {
        // integrator: cumulative sum; pole at -1 with a0 = 0.5; unstable pole at 1.1
        let x: Vec<f64> = (0..6).map(|i| i as f64).collect();
        let l = Layout::planar(6);
        let run = |b: &[f64], a: &[f64], x: &[f64]| {
            let mut y = vec![0.0; x.len()];
            lfilter::<f64>(
                Level::Scalar,
                b,
                a,
                1,
                None,
                Src::Slice(x),
                l,
                &mut y,
                l,
                x.len(),
                None,
            )
            .unwrap();
            y
        };
        assert_eq!(
            run(&[2.0, -2.0], &[1.0, -1.0], &x),
            [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
        );
        assert_eq!(
            run(&[1.0], &[0.5, 0.5], &[1.0; 6]),
            [2.0, 0.0, 2.0, 0.0, 2.0, 0.0]
        );
        let y = run(&[1.0], &[1.0, -1.1], &[1.0; 6]);
        let (want, _) = reference(&[1.0], &[1.0, -1.1], &[1.0; 6], None);
        for (g, w) in y.iter().zip(&want) {
            assert!((g - w).abs() <= 1e-14 * w.abs(), "{g} {w}");
        }
    }

    #[test]
    fn rejects_bad_coefficients() {
        let e = |b: &[f64], a: &[f64]| LFilter::<f64>::new(b, a, 1).unwrap_err();
        assert_eq!(e(&[], &[1.0]).code(), crate::error::SK_ERR_LENGTH);
        assert_eq!(e(&[1.0], &[]).code(), crate::error::SK_ERR_LENGTH);
        assert!(e(&[1.0], &[0.0, 1.0]).to_string().contains("a[0] is 0"));
        assert!(e(&[f64::NAN], &[1.0]).to_string().contains("b[0] = NaN"));
        assert!(e(&[1.0], &[1.0, f64::INFINITY])
            .to_string()
            .contains("a[1]"));
        assert!(e(&[1.0], &[1e-310, 1.0]).to_string().contains("overflows"));
        assert!(LFilter::<f32>::new(&[1e300], &[1.0], 1).is_err());
        assert_eq!(
            LFilter::<f64>::new(&[1.0], &[1.0], 0).unwrap_err().code(),
            crate::error::SK_ERR_LENGTH
        );
    }

    #[test]
    fn zi_is_the_step_steady_state() {
        // filtering a unit step from zi gives a constant output equal to the DC gain
        let mut rng = Rng::new(36);
        for (nb, na) in [(3, 3), (1, 5), (6, 2), (9, 9)] {
            let (b, a) = random_tf(&mut rng, nb, na);
            let zi = lfilter_zi(&b, &a).unwrap();
            let (y, _) = reference(&b, &a, &[1.0; 50], Some(&zi));
            let dc = b.iter().sum::<f64>() / a.iter().sum::<f64>();
            for v in y {
                assert!((v - dc).abs() < 1e-12 * (1.0 + dc.abs()), "{v} {dc}");
            }
        }
        assert!(lfilter_zi(&[1.0], &[2.0]).unwrap().is_empty());
        assert!(lfilter_zi(&[1.0], &[1.0, -1.0]).is_err());
    }

    #[test]
    fn sosfilt_zi_is_the_cascade_steady_state() {
        let sos = crate::kernels::filter::design::butter_sos(
            6,
            crate::kernels::filter::design::Band::Lowpass,
            0.2,
            0.0,
            2.0,
        )
        .unwrap()
        .concat();
        let zi = sosfilt_zi(&sos).unwrap();
        let mut f = sos::SosFilter::<f64>::new(&sos, 1).unwrap();
        f.set_state(&zi);
        let x = vec![1.0; 40];
        let mut y = vec![0.0; 40];
        let l = Layout::planar(40);
        f.process(Level::Scalar, Src::Slice(&x), l, &mut y, l, 40);
        for v in y {
            assert!((v - 1.0).abs() < 1e-12, "{v}");
        }
        assert!(sosfilt_zi(&[1.0, 0.0, 0.0, 1.0, -1.0, 0.0]).is_err());
    }
}
