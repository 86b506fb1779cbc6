//! Biquad cascades (second-order sections) over many channels.
//!
//! A section is given in scipy's layout `[b0, b1, b2, a0, a1, a2]` and normalised by `a0` (in
//! `f64`). It runs in transposed direct form II, the form of `scipy.signal.sosfilt`, whose two
//! state values per section and channel are scipy's `zi[s, ..., 0..2]`:
//!
//! ```text
//! y     = b0·x + z0
//! z0'   = b1·x − a1·y + z1
//! z1'   = b2·x − a2·y
//! ```
//!
//! Substituting `y` gives the same states with a shorter dependency chain, which is what runs:
//!
//! ```text
//! y     = b0·x + z0
//! z0'   = (c1·x + z1) − a1·z0        c1 = b1 − a1·b0
//! z1'   =  c2·x − a2·z0              c2 = b2 − a2·b0
//! ```
//!
//! (`c1`, `c2` are computed in `f64` from the normalised coefficients, then rounded to `T`.)
//! Each update is a fixed sequence of three multiply-adds `m(a, b, c) = a·b + c` per state
//! value. At the AVX2 and AVX-512 levels `m` is one fused multiply-add ([`Fused`]); at the scalar
//! and SSE2/NEON levels it is a multiply then an add ([`Plain`]). For a given arithmetic the
//! lane kernel is bit-identical to the scalar reference (the tests check every level against the
//! reference run with the same arithmetic), and processing a signal in chunks of any sizes is
//! bit-identical to one call (the state is carried exactly). The two arithmetics differ by
//! rounding only (about one unit in the last place per operation).
//!
//! Channels run in SIMD lanes, one channel per lane, through the shared lane driver
//! ([`super::lanes`]: channel blocks, tile transposes, time blocks, threads). Up to four sections
//! keep their states in registers for the whole signal; longer cascades run in groups of four
//! sections per block of frames. Channels are independent, so no split changes any result.

// Lane loops index several fixed-size arrays by the same lane number.
#![allow(clippy::needless_range_loop)]

use super::arith::{uses_fma, Arith, Fused, Plain, SosElem};
use super::coeffs::{sections_from_sos, Section};
use super::lanes::{self, Io, LaneKernel};
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::layout::Layout;
use crate::kernels::Src;
use crate::simd::tile::Transposer;
use crate::simd::Level;

/// A streaming biquad cascade for `channels` channels: coefficients and state.
#[derive(Clone, Debug)]
pub struct SosFilter<T> {
    sections: Vec<Section<T>>,
    channels: usize,
    /// Internal layout `[section][k][channel]` (`k` = 0, 1), so a lane block loads contiguously.
    state: Vec<T>,
    /// Set by [`set_serial`](Self::set_serial): every call stays on the calling thread.
    serial: bool,
}

impl<T: SosElem> SosFilter<T> {
    /// A cascade with zero state. `sos` is `(n_sections, 6)` row-major; `channels >= 1`.
    pub fn new(sos: &[f64], channels: usize) -> SkResult<Self> {
        if channels == 0 {
            return Err(SkError::Length(
                "channels is 0; a filter needs at least one channel".into(),
            ));
        }
        let sections = sections_from_sos::<T>(sos)?;
        let len = sections
            .len()
            .checked_mul(2)
            .and_then(|v| v.checked_mul(channels))
            .ok_or_else(|| SkError::Length("n_sections × channels overflows".into()))?;
        let state = try_vec(len, T::ZERO, "the filter state")?;
        Ok(SosFilter {
            sections,
            channels,
            state,
            serial: false,
        })
    }

    pub fn n_sections(&self) -> usize {
        self.sections.len()
    }
    pub fn channels(&self) -> usize {
        self.channels
    }
    /// Number of state values: `n_sections · channels · 2`.
    pub fn state_len(&self) -> usize {
        self.state.len()
    }

    /// Zeroes the state.
    pub fn reset(&mut self) {
        self.state.fill(T::ZERO);
    }

    /// Copies the state out in scipy's `zi` layout `(n_sections, channels, 2)`.
    pub fn get_state(&self, zi: &mut [T]) {
        assert_eq!(zi.len(), self.state.len(), "state length");
        let ch = self.channels;
        for s in 0..self.sections.len() {
            for c in 0..ch {
                for k in 0..2 {
                    zi[(s * ch + c) * 2 + k] = self.state[(s * 2 + k) * ch + c];
                }
            }
        }
    }

    /// Loads a state given in scipy's `zi` layout `(n_sections, channels, 2)`.
    pub fn set_state(&mut self, zi: &[T]) {
        assert_eq!(zi.len(), self.state.len(), "state length");
        let ch = self.channels;
        for s in 0..self.sections.len() {
            for c in 0..ch {
                for k in 0..2 {
                    self.state[(s * 2 + k) * ch + c] = zi[(s * ch + c) * 2 + k];
                }
            }
        }
    }

    /// Filters `n` frames of every channel from `x` (laid out as `xl`) into `y` (laid out as
    /// `yl`), carrying the state. `Src::Dst` means in place (then `xl` must equal `yl`). Uses
    /// fused multiply-adds where the level has them ([`uses_fma`]).
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

    /// [`SosFilter::process`] with the arithmetic chosen by the caller (the tests run the scalar
    /// reference with either). `Fused` at a level without FMA is slow (software FMA).
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

    /// Runs a pass described by `io` (forwards or backwards in time), on threads where large.
    pub(crate) fn run<A: Arith>(&mut self, level: Level, io: Io<'_, T>) {
        let k = Cascade(&self.sections);
        lanes::process_with::<T, A, _>(level, &k, &mut self.state, self.channels, io)
    }

    /// How many channel groups a planar pass of `n` frames runs on threads of their own.
    #[cfg(test)]
    fn thread_groups(&self, yl: Layout, n: usize) -> usize {
        lanes::thread_groups(self.channels, self.sections.len(), yl, n)
    }
}

/// The cascade as a lane kernel: state rows `[section][k]`.
struct Cascade<'a, T>(&'a [Section<T>]);

impl<T: SosElem> LaneKernel<T> for Cascade<'_, T> {
    fn rows(&self) -> usize {
        self.0.len() * 2
    }
    fn cost(&self) -> usize {
        self.0.len()
    }

    /// Reference: one channel, one sample, one section at a time.
    fn scalar<A: Arith>(&self, state: &mut [T], channels: usize, io: Io<'_, T>) {
        let (xl, yl) = (io.xl, io.yl);
        for c in 0..channels {
            for i in 0..io.n {
                let t = io.frame(i);
                let mut v = io.read(c * xl.ch + t * xl.t);
                for (s, sec) in self.0.iter().enumerate() {
                    let i0 = (s * 2) * channels + c;
                    let i1 = (s * 2 + 1) * channels + c;
                    let (z0, z1) = (state[i0], state[i1]);
                    let out = A::madd(sec.b0, v, z0);
                    state[i0] = A::madd(sec.na1, z0, A::madd(sec.c1, v, z1));
                    state[i1] = A::madd(sec.na2, z0, sec.c2 * v);
                    v = out;
                }
                io.y[c * yl.ch + t * yl.t] = v;
            }
        }
    }

    /// Up to four sections run with their states in registers over every frame (in tiles for
    /// full planar blocks); longer cascades run in groups of four per block of frames, each
    /// group's states loaded and stored around it.
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
        let secs = self.0;
        macro_rules! whole {
            ($g:literal) => {{
                let mut z: [[[T; L]; 2]; $g] = [[[T::ZERO; L]; 2]; $g];
                for (g, zg) in z.iter_mut().enumerate() {
                    *zg = lanes::load_rows::<T, L, 2>(state, channels, 2 * g, c0, active);
                }
                lanes::drive::<T, X, L>(tr, io, c0, active, true, #[cfg_attr(not(debug_assertions), inline(always))] |b| {
                    run_group::<T, A, L, $g>(secs, &mut z, b)
                });
                for (g, zg) in z.iter().enumerate() {
                    lanes::store_rows(zg, state, channels, 2 * g, c0, active);
                }
            }};
        }
        match secs.len() {
            1 => whole!(1),
            2 => whole!(2),
            3 => whole!(3),
            4 => whole!(4),
            ns => lanes::drive::<T, X, L>(
                tr,
                io,
                c0,
                active,
                false,
                #[cfg_attr(not(debug_assertions), inline(always))]
                |b| {
                    let mut s0 = 0;
                    while s0 < ns {
                        match ns - s0 {
                            1 => group_io::<T, A, L, 1>(secs, s0, state, channels, c0, active, b),
                            2 => group_io::<T, A, L, 2>(secs, s0, state, channels, c0, active, b),
                            3 => group_io::<T, A, L, 3>(secs, s0, state, channels, c0, active, b),
                            _ => group_io::<T, A, L, 4>(secs, s0, state, channels, c0, active, b),
                        }
                        s0 += 4;
                    }
                },
            ),
        }
    }
}

/// Runs `G` sections over a lane-major buffer, states in locals.
#[inline(always)]
fn run_group<T: SosElem, A: Arith, const L: usize, const G: usize>(
    secs: &[Section<T>],
    z: &mut [[[T; L]; 2]; G],
    buf: &mut [[T; L]],
) {
    let mut cf = [[T::ZERO; 5]; G];
    for g in 0..G {
        let s = secs[g];
        cf[g] = [s.b0, s.c1, s.c2, s.na1, s.na2];
    }
    let mut zz = *z;
    for v in buf.iter_mut() {
        let mut x = *v;
        for g in 0..G {
            let [b0, c1, c2, na1, na2] = cf[g];
            let mut out = [T::ZERO; L];
            for l in 0..L {
                let z0 = zz[g][0][l];
                let z1 = zz[g][1][l];
                out[l] = A::madd(b0, x[l], z0);
                zz[g][0][l] = A::madd(na1, z0, A::madd(c1, x[l], z1));
                zz[g][1][l] = A::madd(na2, z0, c2 * x[l]);
            }
            x = out;
        }
        // narrow blocks: each section's recursion stays in its own register
        for zg in zz.iter_mut() {
            T::opaque_lanes(&mut zg[0]);
            T::opaque_lanes(&mut zg[1]);
        }
        *v = x;
    }
    *z = zz;
}

/// Sections `s0..s0 + G` over a lane-major buffer, their states loaded and stored around it.
#[inline(always)]
fn group_io<T: SosElem, A: Arith, const L: usize, const G: usize>(
    secs: &[Section<T>],
    s0: usize,
    state: &mut [T],
    channels: usize,
    c0: usize,
    active: usize,
    buf: &mut [[T; L]],
) {
    let mut z = [[[T::ZERO; L]; 2]; G];
    for (g, zg) in z.iter_mut().enumerate() {
        *zg = lanes::load_rows::<T, L, 2>(state, channels, 2 * (s0 + g), c0, active);
    }
    run_group::<T, A, L, G>(&secs[s0..s0 + G], &mut z, buf);
    for (g, zg) in z.iter().enumerate() {
        lanes::store_rows(zg, state, channels, 2 * (s0 + g), c0, active);
    }
}

/// One-shot cascade with scipy `sosfilt` semantics: optional initial state `zi` in scipy's
/// layout `(n_sections, channels, 2)` (zeros if `None`), final state written to `zf` if given.
#[allow(clippy::too_many_arguments)]
pub fn sosfilt<T: SosElem>(
    level: Level,
    sos: &[f64],
    channels: usize,
    zi: Option<&[T]>,
    x: Src<'_, T>,
    xl: Layout,
    y: &mut [T],
    yl: Layout,
    n: usize,
    zf: Option<&mut [T]>,
) -> SkResult<()> {
    let mut f = SosFilter::<T>::new(sos, channels)?;
    if let Some(zi) = zi {
        f.set_state(zi);
    }
    f.process(level, x, xl, y, yl, n);
    if let Some(zf) = zf {
        f.get_state(zf);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::lanes::tests::reverse_is_forward_on_reversed;
    use super::*;
    use crate::kernels::par;
    use crate::kernels::testutil::{same, Rng};
    use crate::simd::available;

    /// Order-8 Butterworth lowpass at 0.1·Nyquist (4 sections), flattened.
    fn butter8() -> Vec<f64> {
        crate::kernels::filter::design::butter_sos(
            8,
            crate::kernels::filter::design::Band::Lowpass,
            0.1,
            0.0,
            2.0,
        )
        .unwrap()
        .concat()
    }

    /// Textbook transposed direct form II in f64 (scipy's own update order).
    fn tdf2_reference(sos: &[f64], x: &[f64], zi: Option<&[f64]>) -> (Vec<f64>, Vec<f64>) {
        let ns = sos.len() / 6;
        let mut z = zi.map(|z| z.to_vec()).unwrap_or(vec![0.0; ns * 2]);
        let mut y = Vec::with_capacity(x.len());
        for &xv in x {
            let mut v = xv;
            for s in 0..ns {
                let c = &sos[s * 6..s * 6 + 6];
                let (b0, b1, b2, a1, a2) = (
                    c[0] / c[3],
                    c[1] / c[3],
                    c[2] / c[3],
                    c[4] / c[3],
                    c[5] / c[3],
                );
                let out = b0 * v + z[s * 2];
                z[s * 2] = b1 * v - a1 * out + z[s * 2 + 1];
                z[s * 2 + 1] = b2 * v - a2 * out;
                v = out;
            }
            y.push(v);
        }
        (y, z)
    }

    fn random_sos(rng: &mut Rng, ns: usize) -> Vec<f64> {
        let mut sos = Vec::new();
        for _ in 0..ns {
            // poles at radius r < 0.95, angle θ; random zeros; random a0
            let r = 0.2 + 0.75 * (rng.uniform() * 0.5 + 0.5);
            let th = std::f64::consts::PI * (rng.uniform() * 0.5 + 0.5);
            let a0 = 0.5 + rng.uniform().abs();
            sos.extend([
                rng.uniform() * a0,
                rng.uniform() * a0,
                rng.uniform() * a0,
                a0,
                -2.0 * r * th.cos() * a0,
                r * r * a0,
            ]);
        }
        sos
    }

    #[test]
    fn matches_tdf2_reference_f64() {
        let mut rng = Rng::new(11);
        for ns in [1, 2, 3, 4, 5, 7, 9] {
            let sos = random_sos(&mut rng, ns);
            let x = rng.vec_f64(1000, 1.0);
            let (want, zf_want) = tdf2_reference(&sos, &x, None);
            let mut f = SosFilter::<f64>::new(&sos, 1).unwrap();
            let mut y = vec![0.0; x.len()];
            f.process(
                Level::Scalar,
                Src::Slice(&x),
                Layout::planar(1000),
                &mut y,
                Layout::planar(1000),
                1000,
            );
            let peak = want.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            for (a, b) in y.iter().zip(&want) {
                assert!((a - b).abs() <= 1e-12 * peak, "ns={ns} {a} {b}");
            }
            let mut zf = vec![0.0; ns * 2];
            f.get_state(&mut zf);
            for (a, b) in zf.iter().zip(&zf_want) {
                assert!((a - b).abs() <= 1e-12 * peak, "zf ns={ns}");
            }
        }
    }

    /// Runs a fresh cascade with initial state `zi` over `x` (layout `l`, `n` frames) at `level`
    /// with the chosen arithmetic, out of place into a buffer of 7.0 or in place on a copy of
    /// `x`; returns the output buffer and the final state.
    #[allow(clippy::too_many_arguments)]
    fn run_cascade<T: SosElem>(
        sos: &[f64],
        zi: &[T],
        channels: usize,
        level: Level,
        fused: bool,
        x: &[T],
        l: Layout,
        in_place: bool,
        n: usize,
    ) -> (Vec<T>, Vec<T>) {
        let mut f = SosFilter::<T>::new(sos, channels).unwrap();
        f.set_state(zi);
        let mut y = if in_place {
            x.to_vec()
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
    }

    /// Every level against the scalar body with the same arithmetic, for the given channel and
    /// section counts: planar (with gaps between the channels' rows, which must stay untouched)
    /// and interleaved, out of place and in place, from a random state. Output and final state
    /// must be bit-identical.
    fn levels_match_scalar<T: SosElem>(seed: u64, channel_counts: &[usize], sections: &[usize]) {
        let mut rng = Rng::new(seed);
        let mut vec = |len: usize, scale: f64| -> Vec<T> {
            rng.vec_f64(len, scale)
                .into_iter()
                .map(T::from_f64)
                .collect()
        };
        for &channels in channel_counts {
            for &ns in sections {
                let sos = random_sos(&mut Rng::new(seed + ns as u64), ns);
                let n = 300 + channels; // more than two time blocks, odd tails
                let stride = n + 3;
                let xp = vec(channels * stride, 1.0);
                let xi = vec(channels * n, 1.0);
                let zi = vec(ns * channels * 2, 0.5);
                // `fused` picks the arithmetic; the reference is the scalar body with the
                // arithmetic the tested level uses.
                let run = |level: Level, fused: bool, planar: bool, in_place: bool| {
                    let (x, l) = if planar {
                        (&xp, Layout::planar(stride))
                    } else {
                        (&xi, Layout::interleaved(channels))
                    };
                    run_cascade(&sos, &zi, channels, level, fused, x, l, in_place, n)
                };
                for planar in [true, false] {
                    for level in available() {
                        let (want, zwant) = run(Level::Scalar, uses_fma(level), planar, false);
                        for in_place in [false, true] {
                            let (y, z) = run(level, uses_fma(level), planar, in_place);
                            let fill = |c: usize| -> Vec<T> {
                                if in_place {
                                    xp[c * stride + n..(c + 1) * stride].to_vec()
                                } else {
                                    vec![T::from_f64(7.0); stride - n]
                                }
                            };
                            let ok = if !planar {
                                same(&y, &want)
                            } else {
                                // gaps between planar channels are left alone
                                (0..channels).all(|c| {
                                    same(
                                        &y[c * stride..c * stride + n],
                                        &want[c * stride..c * stride + n],
                                    ) && same(&y[c * stride + n..(c + 1) * stride], &fill(c))
                                })
                            };
                            let what = format!(
                                "{} ch={channels} ns={ns} {level:?} planar={planar} inplace={in_place}",
                                T::NAME
                            );
                            assert!(ok, "{what}");
                            assert!(same(&z, &zwant), "state {what}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn every_level_bit_identical_to_scalar_all_layouts() {
        // 1–4 sections take the fused tile path for full 8-channel f64 blocks on planar data,
        // 5 and 8 the buffered one
        let channels = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 33];
        levels_match_scalar::<f64>(12, &channels, &[1, 2, 3, 4, 5, 8]);
    }

    #[test]
    fn f32_every_level_bit_identical_all_layouts() {
        // full 16-lane and 8-lane f32 blocks (tiles), 4-lane and single-lane leftovers
        let channels = [1, 3, 8, 13, 16, 21, 24, 33];
        levels_match_scalar::<f32>(13, &channels, &[1, 3, 4, 6]);
    }

    #[test]
    fn channel_groups_on_threads_match_one_thread() {
        // large enough for a two-way split (16 · 4 · 8200 ≥ 2 · PAR_MIN_WORK); channel counts that
        // split into whole and partial 8-channel groups; planar with gaps, out of and in place
        let mut rng = Rng::new(21);
        let sos = random_sos(&mut rng, 4);
        let n = 8200;
        let stride = n + 5;
        for &channels in &[16usize, 20, 33] {
            let xp = rng.vec_f64(channels * stride, 1.0);
            let zi = rng.vec_f64(4 * channels * 2, 0.5);
            let probe = SosFilter::<f64>::new(&sos, channels).unwrap();
            let groups = probe.thread_groups(Layout::planar(stride), n);
            assert_eq!(groups > 1, par::max_threads() > 1, "ch={channels}");
            for level in available() {
                let fused = uses_fma(level);
                let l = Layout::planar(stride);
                let run = |lv: Level, in_place: bool| {
                    run_cascade(&sos, &zi, channels, lv, fused, &xp, l, in_place, n)
                };
                // the reference: the scalar body, one channel at a time, on this thread
                let mut want = vec![7.0; xp.len()];
                let mut zwant = zi.clone();
                {
                    let mut f = SosFilter::<f64>::new(&sos, channels).unwrap();
                    f.set_state(&zi);
                    let (secs, st) = (Cascade(&f.sections), &mut f.state);
                    let io = Io {
                        x: Src::Slice(&xp[..]),
                        xl: l,
                        y: &mut want,
                        yl: l,
                        n,
                        rev: false,
                    };
                    if fused {
                        secs.scalar::<Fused>(st, channels, io);
                    } else {
                        secs.scalar::<Plain>(st, channels, io);
                    }
                    f.get_state(&mut zwant);
                }
                for in_place in [false, true] {
                    let (y, z) = run(level, in_place);
                    for c in 0..channels {
                        let r = c * stride..c * stride + n;
                        assert!(
                            same(&y[r.clone()], &want[r]),
                            "ch={channels} c={c} {level:?}"
                        );
                        let gap = &y[c * stride + n..(c + 1) * stride];
                        let keep = if in_place {
                            &xp[c * stride + n..(c + 1) * stride]
                        } else {
                            &want[c * stride + n..(c + 1) * stride]
                        };
                        assert_eq!(gap, keep, "gap ch={channels} c={c}");
                    }
                    assert!(
                        same(&z, &zwant),
                        "state ch={channels} {level:?} in_place={in_place}"
                    );
                }
            }
        }
    }

    #[test]
    fn f32_plain_and_fused_differ_by_rounding_only() {
        let mut rng = Rng::new(13);
        for &channels in &[1usize, 3, 16, 21] {
            let sos = random_sos(&mut rng, 4);
            let n = 513;
            let x = rng.vec_f32(channels * n, 1.0);
            let zi = vec![0f32; 4 * channels * 2];
            let l = Layout::interleaved(channels);
            let (plain, _) =
                run_cascade(&sos, &zi, channels, Level::Scalar, false, &x, l, false, n);
            let (fused, _) = run_cascade(&sos, &zi, channels, Level::Scalar, true, &x, l, false, n);
            for (a, b) in plain.iter().zip(&fused) {
                assert!((a - b).abs() <= 1e-4 * (1.0 + b.abs()), "{a} {b}");
            }
        }
    }

    #[test]
    fn chunks_are_bit_identical_to_one_call() {
        let mut rng = Rng::new(14);
        let channels = 19;
        let n = 2000;
        let x = rng.vec_f64(channels * n, 1.0);
        for level in available() {
            let mut f = SosFilter::<f64>::new(&butter8(), channels).unwrap();
            let mut whole = vec![0.0; x.len()];
            let l = Layout::planar(n);
            f.process(level, Src::Slice(&x), l, &mut whole, l, n);
            let mut f = SosFilter::<f64>::new(&butter8(), channels).unwrap();
            let mut y = vec![0.0; x.len()];
            let mut t0 = 0;
            let mut k = 0;
            while t0 < n {
                let m = [1usize, 0, 7, 128, 129, 300, 3][k % 7].min(n - t0);
                k += 1;
                // a chunk of a planar block is a planar block with the same stride
                f.process(level, Src::Slice(&x[t0..]), l, &mut y[t0..], l, m);
                t0 += m;
            }
            assert!(same(&y, &whole), "{level:?}");
        }
    }

    #[test]
    fn rejects_bad_coefficients() {
        let ok = [1.0, 0.0, 0.0, 1.0, -0.5, 0.25];
        assert!(SosFilter::<f64>::new(&ok, 1).is_ok());
        let code = |s: &[f64]| SosFilter::<f64>::new(s, 1).unwrap_err().code();
        assert_eq!(code(&[]), crate::error::SK_ERR_LENGTH);
        assert_eq!(
            SosFilter::<f64>::new(&ok, 0).unwrap_err().code(),
            crate::error::SK_ERR_LENGTH
        );
        for bad in [
            [f64::NAN, 0.0, 0.0, 1.0, 0.0, 0.0],
            [1.0, f64::INFINITY, 0.0, 1.0, 0.0, 0.0],
            [1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0, 1.0, 0.0, 1.0 + 1e-8], // poles just outside the circle
            [1.0, 0.0, 0.0, 1.0, -2.0 - 1e-8, 1.0], // a real pole just above z = 1
            [1.0, 0.0, 0.0, 1.0, 1.6, 0.5],        // a pole below -1
            [1.0, 0.0, 0.0, 1.0, 0.0, -1.2],       // outside
            [1.0, 0.0, 0.0, 1e-310, 0.0, 0.0],     // overflow on normalisation
        ] {
            assert_eq!(code(&bad), crate::error::SK_ERR_BAD_ARGUMENT, "{bad:?}");
        }
        // a0 = 2 scales everything: equal to the pre-normalised section
        let a = SosFilter::<f64>::new(&[2.0, 1.0, 0.5, 2.0, -1.0, 0.5], 1).unwrap();
        let b = SosFilter::<f64>::new(&[1.0, 0.5, 0.25, 1.0, -0.5, 0.25], 1).unwrap();
        assert_eq!(a.sections, b.sections);
        // poles on the circle are accepted: a pair at ±j, a double pole at z = 1, z = ±1, and
        // rounding noise within the tolerance
        for marginal in [
            [1.0, 0.0, 0.0, 1.0, 0.0, 1.0],
            [1.0, 0.0, 0.0, 1.0, -2.0, 1.0],
            [1.0, 0.0, 0.0, 1.0, -1.0, 0.0],
            [1.0, 0.0, 0.0, 1.0, 1.0, 0.0],
            [1.0, 0.0, 0.0, 1.0, 1.5, 0.5],
            [1.0, 0.0, 0.0, 1.0, 0.0, 1.0 + 1e-12],
        ] {
            assert!(SosFilter::<f64>::new(&marginal, 1).is_ok(), "{marginal:?}");
            assert!(SosFilter::<f32>::new(&marginal, 1).is_ok(), "{marginal:?}");
        }
        // stable in f64 but outside the circle once rounded to f32: real poles at 1 − 1e-8 and
        // 0.7; f32(1.7) > 1.7 and f32(0.7) < 0.7 move the first pole out by about 2e-7
        let (p1, p2) = (1.0 - 1e-8, 0.7);
        let near = [1.0, 0.0, 0.0, 1.0, -(p1 + p2), p1 * p2];
        assert!(SosFilter::<f64>::new(&near, 1).is_ok());
        assert!(SosFilter::<f32>::new(&near, 1).is_err());
        let e = SosFilter::<f64>::new(&[1.0, 0.0, 0.0, 1.0, 0.0, 1.5], 1).unwrap_err();
        assert!(e.to_string().contains("a pole lies outside"), "{e}");
    }

    #[test]
    fn sosfilt_one_shot_with_state() {
        let mut rng = Rng::new(15);
        let x = rng.vec_f64(777, 1.0);
        let zi = rng.vec_f64(8, 1.0);
        let (want, zwant) = tdf2_reference(&butter8(), &x, Some(&zi));
        let mut y = vec![0.0; 777];
        let mut zf = vec![0.0; 8];
        let l = Layout::planar(777);
        sosfilt(
            Level::Avx512,
            &butter8(),
            1,
            Some(&zi),
            Src::Slice(&x),
            l,
            &mut y,
            l,
            777,
            Some(&mut zf),
        )
        .unwrap();
        let peak = want.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        for (a, b) in y.iter().zip(&want) {
            assert!((a - b).abs() < 1e-12 * peak, "{a} {b}");
        }
        for (a, b) in zf.iter().zip(&zwant) {
            assert!((a - b).abs() < 1e-12 * peak);
        }
    }

    #[test]
    fn extent() {
        assert_eq!(Layout::planar(10).extent(3, 4), Some(24));
        assert_eq!(Layout::interleaved(3).extent(3, 4), Some(12));
        assert_eq!(Layout::planar(10).extent(0, 4), Some(0));
        assert_eq!(Layout::planar(usize::MAX).extent(3, 4), None);
    }

    #[test]
    fn reverse_passes_sos() {
        for ns in [2usize, 5] {
            let sos: Vec<f64> = (0..ns)
                .flat_map(|s| [0.2, 0.1 * s as f64, 0.05, 1.0, -0.5, 0.1 + 0.02 * s as f64])
                .collect();
            reverse_is_forward_on_reversed(&|level, io, channels| {
                let mut f = SosFilter::<f64>::new(&sos, channels).unwrap();
                if uses_fma(level) {
                    f.run::<Fused>(level, io)
                } else {
                    f.run::<Plain>(level, io)
                }
            });
        }
    }
}
