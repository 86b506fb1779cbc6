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
//! fused multiply-add at AVX2 and AVX-512 (see [`super::arith::uses_fma`]); the results differ
//! from scipy's by rounding only. No stability check is made: like scipy, marginal and unstable
//! filters run, and their output is scipy's (to rounding) while it stays finite.
//!
//! Channels run in SIMD lanes like the SOS cascade, through the shared lane driver
//! ([`super::lanes`]: channel blocks, tile transposes, time blocks, threads); orders 1–8 keep
//! their state in registers. Every level is bit-identical to the scalar reference with the same
//! arithmetic, and processing in chunks is bit-identical to one call.

// Lane loops index several fixed-size arrays by the same lane number.
#![allow(clippy::needless_range_loop)]

use super::arith::{uses_fma, Arith, Fused, Plain, SosElem};
use super::coeffs::{normalise_tf, Tf};
use super::lanes::{self, Io, LaneKernel};
use crate::error::{SkError, SkResult};
use crate::kernels::layout::Layout;
use crate::kernels::Src;
use crate::simd::tile::Transposer;
use crate::simd::Level;

/// A streaming transfer-function filter for `channels` channels: coefficients and state.
#[derive(Clone, Debug)]
pub struct LFilter<T> {
    tf: Tf<T>,
    channels: usize,
    /// Internal layout `[k][channel]`, so a lane block loads contiguously.
    state: Vec<T>,
    /// Set by [`set_serial`](Self::set_serial): every call stays on the calling thread.
    serial: bool,
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
            serial: false,
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
        let serial = self.serial;
        crate::kernels::par::serial_if(serial, || {
            if uses_fma(level) {
                self.process_with::<Fused>(level, x, xl, y, yl, n)
            } else {
                self.process_with::<Plain>(level, x, xl, y, yl, n)
            }
        })
    }

    /// Keeps every later [`process`](Self::process) on the calling thread (a real-time
    /// handle; results do not change).
    pub fn set_serial(&mut self) {
        self.serial = true;
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
        let io = Io {
            x,
            xl,
            y,
            yl,
            n,
            rev: false,
        };
        self.run::<A>(level, io)
    }

    /// Whether a pass can run in the single-channel recursive form ([`super::mono`]): one
    /// channel, order 1 to 8.
    pub(crate) fn single_channel_form(&self) -> bool {
        self.channels == 1 && super::mono::supports(self.order())
    }

    /// A pass in the single-channel recursive form (see [`LFilter::single_channel_form`]):
    /// within rounding of [`LFilter::run`], about twice as fast, but its rounding depends on
    /// where the pass starts and ends, so only the one-shot zero-phase filters use it.
    pub(crate) fn run_single<A: Arith>(&mut self, level: Level, io: Io<'_, T>) {
        assert!(self.single_channel_form(), "single-channel form");
        super::mono::pass_at::<T, A>(level, &self.tf, &mut self.state, io)
    }

    /// Runs a pass described by `io` (forwards or backwards in time), on threads where large.
    pub(crate) fn run<A: Arith>(&mut self, level: Level, io: Io<'_, T>) {
        lanes::process_with::<T, A, _>(level, &self.tf, &mut self.state, self.channels, io)
    }
}

impl<T: SosElem> LaneKernel<T> for Tf<T> {
    fn rows(&self) -> usize {
        self.order()
    }
    fn cost(&self) -> usize {
        self.order() + 1
    }

    /// Reference: one channel, one sample at a time.
    fn scalar<A: Arith>(&self, state: &mut [T], channels: usize, io: Io<'_, T>) {
        let tf = self;
        let k = tf.order();
        let (xl, yl) = (io.xl, io.yl);
        for c in 0..channels {
            for i in 0..io.n {
                let t = io.frame(i);
                let v = io.read(c * xl.ch + t * xl.t);
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
                io.y[c * yl.ch + t * yl.t] = out;
            }
        }
    }

    /// Orders 1–8 keep the state in registers (each order compiled for itself, its updates
    /// written out: as a loop over the state, LLVM vectorised it across the state values with
    /// gathers and scatters instead of across the lanes, about 10x slower); higher orders keep
    /// it in a small buffer.
    #[cfg_attr(not(debug_assertions), inline(always))] // as `lanes::drive`
    fn block<A: Arith, X: Transposer, const L: usize>(
        &self,
        tr: X,
        state: &mut [T],
        channels: usize,
        c0: usize,
        active: usize,
        io: Io<'_, T>,
    ) {
        let tf = self;
        let k = tf.order();
        let b0 = tf.b[0];
        macro_rules! fixed {
            ($k:literal, [$($i:literal)*]) => {{
                const K: usize = $k;
                let mut cc = [T::ZERO; K];
                let mut aa = [T::ZERO; K];
                cc.copy_from_slice(&tf.c[1..=K]);
                aa.copy_from_slice(&tf.na[1..=K]);
                let mut z = lanes::load_rows::<T, L, K>(state, channels, 0, c0, active);
                lanes::drive::<T, X, L>(tr, io, c0, active, true, #[cfg_attr(not(debug_assertions), inline(always))] |buf| {
                    for v in buf.iter_mut() {
                        let x = *v;
                        let z0 = z[0];
                        let mut y = [T::ZERO; L];
                        for l in 0..L {
                            y[l] = A::madd(b0, x[l], z0[l]);
                        }
                        $(
                            for l in 0..L {
                                z[$i][l] =
                                    A::madd(aa[$i], z0[l], A::madd(cc[$i], x[l], z[$i + 1][l]));
                            }
                        )*
                        for l in 0..L {
                            z[K - 1][l] = A::madd(aa[K - 1], z0[l], cc[K - 1] * x[l]);
                        }
                        // narrow blocks: the state rows stay in their registers
                        for zi in z.iter_mut() {
                            T::opaque_lanes(zi);
                        }
                        *v = y;
                    }
                });
                lanes::store_rows(&z, state, channels, 0, c0, active);
            }};
        }
        match k {
            0 => lanes::drive::<T, X, L>(
                tr,
                io,
                c0,
                active,
                true,
                #[cfg_attr(not(debug_assertions), inline(always))]
                |buf| {
                    for v in buf.iter_mut() {
                        for l in 0..L {
                            v[l] = b0 * v[l];
                        }
                    }
                },
            ),
            1 => fixed!(1, []),
            2 => fixed!(2, [0]),
            3 => fixed!(3, [0 1]),
            4 => fixed!(4, [0 1 2]),
            5 => fixed!(5, [0 1 2 3]),
            6 => fixed!(6, [0 1 2 3 4]),
            7 => fixed!(7, [0 1 2 3 4 5]),
            8 => fixed!(8, [0 1 2 3 4 5 6]),
            _ => {
                let mut z: Vec<[T; L]> = vec![[T::ZERO; L]; k];
                for (i, zi) in z.iter_mut().enumerate() {
                    *zi = lanes::load_rows::<T, L, 1>(state, channels, i, c0, active)[0];
                }
                lanes::drive::<T, X, L>(
                    tr,
                    io,
                    c0,
                    active,
                    true,
                    #[cfg_attr(not(debug_assertions), inline(always))]
                    |buf| run_dyn::<T, A, L>(tf, &mut z, buf),
                );
                lanes::store_rows(&z, state, channels, 0, c0, active);
            }
        }
    }
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
    use super::super::lanes::tests::reverse_is_forward_on_reversed;
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
        let mut f = super::super::sos::SosFilter::<f64>::new(&sos, 1).unwrap();
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

    #[test]
    fn reverse_passes_lfilter() {
        for (b, a) in [
            (vec![0.3, 0.2], vec![1.0, -0.4]),
            (
                vec![0.1; 9],
                vec![1.0, -0.5, 0.2, 0.1, -0.05, 0.02, 0.01, -0.01, 0.005],
            ),
            (
                vec![0.1; 11],
                vec![1.0, -0.3, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.1],
            ),
        ] {
            reverse_is_forward_on_reversed(&|level, io, channels| {
                let mut f = LFilter::<f64>::new(&b, &a, channels).unwrap();
                if uses_fma(level) {
                    f.run::<Fused>(level, io)
                } else {
                    f.run::<Plain>(level, io)
                }
            });
        }
    }

    #[test]
    fn single_channel_form_and_lane_form_agree_within_rounding() {
        let mut rng = Rng::new(75);
        for k in 1..=super::super::mono::MAX_ORDER {
            let (b, a) = super::super::mono::tests::random_tf(&mut rng, k);
            let x = rng.vec_f64(2000, 1.0);
            let l = Layout::planar(x.len());
            let mut f = LFilter::<f64>::new(&b, &a, 1).unwrap();
            let mut want = vec![0.0; x.len()];
            f.process_with::<Fused>(Level::Scalar, Src::Slice(&x), l, &mut want, l, x.len());
            let mut g = LFilter::<f64>::new(&b, &a, 1).unwrap();
            assert!(g.single_channel_form());
            let mut got = vec![0.0; x.len()];
            let io = Io::new(Src::Slice(&x), l, &mut got, l, x.len(), false);
            g.run_single::<Fused>(Level::Scalar, io);
            let (mut zf, mut z) = (vec![0.0; k], vec![0.0; k]);
            f.get_state(&mut zf);
            g.get_state(&mut z);
            let scale = want.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            for (g, w) in got.iter().zip(&want).chain(z.iter().zip(&zf)) {
                assert!((g - w).abs() <= 1e-13 * scale, "k={k}: {g} {w}");
            }
        }
    }
}
