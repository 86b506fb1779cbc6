//! Dynamics processors as streaming objects: envelope follower, compressor, noise gate /
//! expander (one shared engine, [`Dynamics`]) and a lookahead true-peak limiter ([`Limiter`]).
//!
//! Every object keeps its state in `f64` and accepts `f32` and `f64` blocks, planar or
//! interleaved, any channel count. Processing a signal in chunks of any sizes gives bit for bit
//! the output of one call: the per-sample recursions run in order and every pointwise step is
//! the same expression whatever the chunk, block or SIMD level.
//!
//! The envelope, compressor and gate follow the meaning of JUCE's `dsp::BallisticsFilter`,
//! `dsp::Compressor` and `dsp::NoiseGate` (which pedalboard wraps): with a hard knee, no makeup,
//! independent channels and the peak detector the compressor computes JUCE's formula.

pub mod limiter;
pub mod processor;
#[cfg(test)]
mod tests;

use crate::error::{SkError, SkResult};
use crate::kernels::layout::Layout;
use crate::kernels::pcm::first_non_finite;
use crate::kernels::{Float, Src};
use crate::simd::Level;

pub use limiter::Limiter;
pub use processor::{Detector, Dynamics, Kind};

/// Lowest supported sample rate, Hz.
pub(crate) const MIN_RATE: f64 = 1000.0;
/// Highest supported sample rate, Hz.
pub(crate) const MAX_RATE: f64 = 768_000.0;
/// Longest time parameter (attack, release, hold, lookahead), ms.
pub(crate) const MAX_MS: f64 = 60_000.0;
/// Most channels of one object.
pub(crate) const MAX_CHANNELS: usize = 1024;

/// `log2` units per dB.
pub(crate) const LOG2_PER_DB: f64 = 0.166_096_404_744_368_1;

/// One block of samples to process: the input (or the output itself, in place), the output,
/// their layouts, and an optional key (sidechain) input in its own layout.
pub struct Block<'a, T> {
    pub src: Src<'a, T>,
    pub xl: Layout,
    pub out: &'a mut [T],
    pub yl: Layout,
    pub key: Option<(&'a [T], Layout)>,
    pub channels: usize,
    pub n: usize,
}

/// A read-only view of a block's detector input: channel `c`, frame `t` at
/// `buf[c·l.ch + t·l.t]`.
#[derive(Clone, Copy)]
pub(crate) struct Det<'a, T> {
    buf: &'a [T],
    l: Layout,
}

impl<'a, T: Float> Det<'a, T> {
    /// Channel `c` as `(buffer, offset, frame stride)`: frame `t` is
    /// `buffer[offset + t·stride]`.
    #[inline(always)]
    pub(crate) fn lane(&self, c: usize) -> (&'a [T], usize, usize) {
        (self.buf, c * self.l.ch, self.l.t)
    }

    /// `v[i]` = frame `t0 + i` of channel `c`, in `f64`.
    #[inline(always)]
    pub(crate) fn load_lane(&self, c: usize, t0: usize, v: &mut [f64]) {
        let (src, o, st) = self.lane(c);
        if st == 1 {
            let (from, n) = (o + t0, v.len());
            for (d, x) in v.iter_mut().zip(&src[from..from + n]) {
                *d = x.to_f64();
            }
        } else {
            for (i, d) in v.iter_mut().enumerate() {
                *d = src[o + (t0 + i) * st].to_f64();
            }
        }
    }
}

/// Eight channels' rows of a block's input (`None`: in place, the input is the output) and
/// output, all of one length (see [`Block::rows8`]).
pub(crate) struct Rows8<'b, T> {
    x: Option<[&'b [T]; 8]>,
    y: [&'b mut [T]; 8],
}

impl<T: Float> Rows8<'_, T> {
    /// `y[r][i + k] = x[r][i + k] · g[r][k]` for rows `r < 8`, `k < 8` (the product in `f64`).
    /// Each row's eight inputs are read before its outputs are written.
    #[inline(always)]
    pub(crate) fn scale8(&mut self, i: usize, g: &[[f64; 8]; 8]) {
        #[inline(always)]
        fn one<T: Float>(xs: [T; 8], y: &mut [T], g: &[f64; 8]) {
            let mut ys = [T::ZERO; 8];
            for k in 0..8 {
                ys[k] = T::from_f64(xs[k].to_f64() * g[k]);
            }
            y.copy_from_slice(&ys);
        }
        match &self.x {
            Some(x) => {
                for ((xr, yr), gr) in x.iter().zip(self.y.iter_mut()).zip(g) {
                    one(xr[i..i + 8].try_into().unwrap(), &mut yr[i..i + 8], gr);
                }
            }
            None => {
                for (yr, gr) in self.y.iter_mut().zip(g) {
                    let xs: [T; 8] = yr[i..i + 8].try_into().unwrap();
                    one(xs, &mut yr[i..i + 8], gr);
                }
            }
        }
    }
}

impl<'a, T: Float> Block<'a, T> {
    /// The block cut into channel ranges `cuts[k]..cuts[k + 1]` (`cuts` rising from 0 to
    /// `channels`), each a block of its own over disjoint parts of the output, with channel 0 at
    /// the range's first channel. Possible when every buffer is planar enough that a channel's
    /// frames all lie before the next channel's first (`(n − 1)·t < ch`); otherwise the block is
    /// handed back unchanged.
    pub(crate) fn split_channels(self, cuts: &[usize]) -> Result<Vec<Block<'a, T>>, Self> {
        let apart = |l: Layout| (self.n.saturating_sub(1)).saturating_mul(l.t) < l.ch;
        let key_apart = self.key.is_none_or(|(_, l)| apart(l));
        if self.n == 0
            || !(apart(self.xl) && apart(self.yl) && key_apart)
            || cuts.first() != Some(&0)
            || cuts.last() != Some(&self.channels)
        {
            return Err(self);
        }
        let Block {
            src,
            xl,
            out,
            yl,
            key,
            channels: _,
            n,
        } = self;
        let mut blocks = Vec::with_capacity(cuts.len() - 1);
        let mut rest = out;
        for w in cuts.windows(2) {
            let (c0, c1) = (w[0], w[1]);
            // the last range keeps the rest of the buffer (its last channel may end early)
            let take = if c1 == cuts[cuts.len() - 1] {
                rest.len()
            } else {
                (c1 - c0) * yl.ch
            };
            let (mine, tail) = rest.split_at_mut(take);
            rest = tail;
            blocks.push(Block {
                src: match src {
                    Src::Slice(x) => Src::Slice(&x[c0 * xl.ch..]),
                    Src::Dst => Src::Dst,
                },
                xl,
                out: mine,
                yl,
                key: key.map(|(k, l)| (&k[c0 * l.ch..], l)),
                channels: c1 - c0,
                n,
            });
        }
        Ok(blocks)
    }

    #[inline(always)]
    pub(crate) fn put(&mut self, c: usize, t: usize, v: f64) {
        self.out[c * self.yl.ch + t * self.yl.t] = T::from_f64(v);
    }

    /// Channel `c` of the detector input (the key when there is one, else the input; the
    /// limiter, which takes no key, reads its input through it) as
    /// `(buffer, offset, frame stride)`: frame `t` is `buffer[offset + t·stride]`.
    #[inline(always)]
    pub(crate) fn det_lane(&self, c: usize) -> (&[T], usize, usize) {
        self.det().lane(c)
    }

    /// The detector input (see [`det_lane`](Self::det_lane)) as a view of its own.
    #[inline(always)]
    pub(crate) fn det(&self) -> Det<'_, T> {
        self.det_apart().unwrap_or(Det {
            buf: &*self.out,
            l: self.yl,
        })
    }

    /// The detector input as a view that does not borrow the block, when it is not the output
    /// (a separate input, or a key): it can then be read while the block's output is written.
    #[inline(always)]
    pub(crate) fn det_apart(&self) -> Option<Det<'a, T>> {
        match (self.key, self.src) {
            (Some((buf, l)), _) => Some(Det { buf, l }),
            (None, Src::Slice(buf)) => Some(Det { buf, l: self.xl }),
            (None, Src::Dst) => None,
        }
    }

    /// `v[i] = k(c, t0 + i)`, `k` the detector input of [`det_lane`](Self::det_lane).
    #[inline(always)]
    pub(crate) fn load_lane(&self, c: usize, t0: usize, v: &mut [f64]) {
        self.det().load_lane(c, t0, v)
    }

    /// `y(c, t0 + i) = v[i]`.
    #[inline(always)]
    pub(crate) fn store_lane(&mut self, c: usize, t0: usize, v: &[f64]) {
        let (yo, yt) = (c * self.yl.ch + t0 * self.yl.t, self.yl.t);
        if yt == 1 {
            for (o, &x) in self.out[yo..yo + v.len()].iter_mut().zip(v) {
                *o = T::from_f64(x);
            }
        } else {
            for (i, &x) in v.iter().enumerate() {
                self.out[yo + i * yt] = T::from_f64(x);
            }
        }
    }

    /// `y(c, t0 + i) = x(c, t0 + i) · g[i·gs + j]` for `i < len` (the product in `f64`).
    #[inline(always)]
    pub(crate) fn scale_lane(
        &mut self,
        c: usize,
        t0: usize,
        g: &[f64],
        gs: usize,
        j: usize,
        len: usize,
    ) {
        let (yo, yt) = (c * self.yl.ch + t0 * self.yl.t, self.yl.t);
        let rows = g[..len * gs].chunks_exact(gs);
        match self.src {
            Src::Slice(x) => {
                let (xo, xt) = (c * self.xl.ch + t0 * self.xl.t, self.xl.t);
                if xt == 1 && yt == 1 {
                    let ys = &mut self.out[yo..yo + len];
                    for ((o, v), r) in ys.iter_mut().zip(&x[xo..xo + len]).zip(rows) {
                        *o = T::from_f64(v.to_f64() * r[j]);
                    }
                } else {
                    for (i, r) in rows.enumerate() {
                        self.out[yo + i * yt] = T::from_f64(x[xo + i * xt].to_f64() * r[j]);
                    }
                }
            }
            Src::Dst => {
                for (i, r) in rows.enumerate() {
                    let o = &mut self.out[yo + i * yt];
                    *o = T::from_f64(o.to_f64() * r[j]);
                }
            }
        }
    }

    /// Whether the output's frames, and the input's (when it is not the output itself), are
    /// contiguous (the frame stride is 1), as [`rows8`](Self::rows8) needs.
    #[inline(always)]
    pub(crate) fn unit_strides(&self) -> bool {
        self.yl.t == 1 && (matches!(self.src, Src::Dst) || self.xl.t == 1)
    }

    /// Channels `c0..c0 + 8`, frames `t0..t0 + len`, as eight input rows (none in place) and
    /// eight disjoint output rows, for [`Rows8::scale8`]: when the frames are contiguous
    /// ([`unit_strides`](Self::unit_strides)) and the output channels lie `len` or more apart.
    /// The rows are sliced once here, so the per-tile work has no offset arithmetic, and with
    /// the inputs and outputs in separate slices the compiler need not assume they overlap.
    pub(crate) fn rows8(&mut self, c0: usize, t0: usize, len: usize) -> Option<Rows8<'_, T>> {
        if !self.unit_strides() || self.yl.ch < len {
            return None;
        }
        let x = match self.src {
            Src::Slice(x) => {
                let mut xs: [&[T]; 8] = [&[]; 8];
                for (r, row) in xs.iter_mut().enumerate() {
                    let o = (c0 + r).checked_mul(self.xl.ch)?.checked_add(t0)?;
                    *row = x.get(o..o.checked_add(len)?)?;
                }
                Some(xs)
            }
            Src::Dst => None,
        };
        let ch = self.yl.ch;
        let start = c0.checked_mul(ch)?.checked_add(t0)?;
        let end = start.checked_add(ch.checked_mul(7)?)?.checked_add(len)?;
        let mut rest = self.out.get_mut(start..end)?;
        let mut y: [&mut [T]; 8] = Default::default();
        for (r, row) in y.iter_mut().enumerate() {
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(if r < 7 { ch } else { len });
            *row = &mut head[..len];
            rest = tail;
        }
        Some(Rows8 { x, y })
    }

    /// `SK_ERR_NON_FINITE` naming the first NaN/inf of the input or key (nothing processed).
    pub(crate) fn check_finite(&self, level: Level) -> SkResult<()> {
        let x: &[T] = match self.src {
            Src::Slice(s) => s,
            Src::Dst => self.out,
        };
        let xl = match self.src {
            Src::Slice(_) => self.xl,
            Src::Dst => self.yl,
        };
        let all = [
            Some(("x", x, xl)),
            self.key.map(|(k, l)| ("sidechain", k, l)),
        ];
        // the channels split over threads like the processing (a pass over the whole input
        // that would otherwise run on one thread); the first bad channel in order is reported
        let cuts = channel_cuts(self.channels, self.n, 1);
        for (name, buf, l) in all.into_iter().flatten() {
            if self.n == 0 {
                break;
            }
            let n = self.n;
            let first_bad = |c: usize| {
                if l.t == 1 {
                    let o = c * l.ch;
                    first_non_finite(level, &buf[o..o + n])
                } else {
                    (0..n).find(|&t| !buf[c * l.ch + t * l.t].is_finite())
                }
            };
            let bad = if cuts.len() <= 2 {
                // one range: on this thread, nothing to collect
                (0..self.channels).find_map(|c| first_bad(c).map(|t| (c, t)))
            } else {
                let mut found: Vec<Option<(usize, usize)>> = vec![None; cuts.len() - 1];
                let parts: Vec<_> = cuts.windows(2).zip(found.iter_mut()).collect();
                crate::kernels::par::run_parts(parts, |(w, slot)| {
                    *slot = (w[0]..w[1]).find_map(|c| first_bad(c).map(|t| (c, t)));
                });
                found.into_iter().flatten().next()
            };
            if let Some((c, t)) = bad {
                return Err(SkError::NonFinite(format!(
                    "{name} holds a non-finite value (channel {c}, frame {t}); nothing was \
                     processed"
                )));
            }
        }
        Ok(())
    }
}

/// Where to cut `channels` independent channels of `n` frames between threads, for a kernel of
/// about `ops` element operations a sample: `[0, …, channels]`, as many ranges as
/// [`par::threads_for`](crate::kernels::par::threads_for) allows, sizes differing by at most one.
/// One range (the common case of a short block) needs no allocation.
pub(crate) fn channel_cuts(channels: usize, n: usize, ops: usize) -> Cuts {
    let work = channels.saturating_mul(n).saturating_mul(ops);
    let t = crate::kernels::par::threads_for(channels, work);
    if t <= 1 {
        return Cuts::One([0, channels]);
    }
    Cuts::Many((0..=t).map(|k| k * channels / t).collect())
}

/// The channel cuts of [`channel_cuts`]: `[0, channels]` inline, or a list.
pub(crate) enum Cuts {
    One([usize; 2]),
    Many(Vec<usize>),
}

impl std::ops::Deref for Cuts {
    type Target = [usize];
    fn deref(&self) -> &[usize] {
        match self {
            Cuts::One(c) => c,
            Cuts::Many(c) => c,
        }
    }
}

/// Checks a sample rate.
pub(crate) fn check_rate(rate: f64) -> SkResult<()> {
    if !(MIN_RATE..=MAX_RATE).contains(&rate) {
        return Err(SkError::BadArgument(format!(
            "rate = {rate} Hz is outside {MIN_RATE}..={MAX_RATE}"
        )));
    }
    Ok(())
}

/// Checks a channel count.
pub(crate) fn check_channels(channels: usize) -> SkResult<()> {
    if channels == 0 || channels > MAX_CHANNELS {
        return Err(SkError::Length(format!(
            "channels = {channels}; it must be 1 to {MAX_CHANNELS}"
        )));
    }
    Ok(())
}

/// Checks a time in ms (`0..=MAX_MS`).
pub(crate) fn check_ms(name: &str, v: f64) -> SkResult<()> {
    if !(0.0..=MAX_MS).contains(&v) {
        return Err(SkError::BadArgument(format!(
            "{name} = {v} ms is outside 0..={MAX_MS}"
        )));
    }
    Ok(())
}

/// Checks a level in dB (finite, within ±400 dB).
pub(crate) fn check_db(name: &str, v: f64) -> SkResult<()> {
    if !(-400.0..=400.0).contains(&v) {
        return Err(SkError::BadArgument(format!(
            "{name} = {v} dB is not a finite level within -400..=400 dB"
        )));
    }
    Ok(())
}

/// The one-pole coefficient of a time constant, as JUCE's `BallisticsFilter`:
/// `exp(−2π·1000 / (rate·ms))`, 0 (instant) below 0.001 ms.
pub(crate) fn ballistic_coef(rate: f64, ms: f64) -> f64 {
    if ms < 1e-3 {
        0.0
    } else {
        (-2.0 * std::f64::consts::PI * 1000.0 / rate / ms).exp()
    }
}
