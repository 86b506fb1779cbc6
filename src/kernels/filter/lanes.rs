//! The lane driver shared by the recursive filters ([`super::sos`] and [`super::lfilter`]).
//!
//! A [`LaneKernel`] is a filter whose channels are independent and whose state is `rows()`
//! values per channel, stored `[row][channel]` so that a block of channels loads contiguously.
//! The driver here does everything around the arithmetic:
//!
//! - [`process_with`]: splits large planar outputs into whole 8-channel groups on scoped threads
//!   (each group on a copy of its channels' state, written back afterwards);
//! - [`run_at`]: dispatches on the SIMD level. A level is compiled only with the arithmetic the
//!   filters use there ([`super::arith::uses_fma`]): `Fused` at AVX2 and AVX-512, `Plain` at the
//!   baseline; the other pairs, which only the tests ask for, run the kernel's scalar reference
//!   (bit-identical for the same arithmetic, only slower). The level's tile transposer is passed
//!   down, and each lane count's block runs inside the transposer's [`Transposer::call`]: a
//!   function of its own compiled for the level;
//! - the channel blocks: 16 lanes (`f32`) or 8 (`f64`), an 8-lane block for 5–8 leftover `f32`
//!   channels, a 4-lane block for 2–4, one lane for a single channel;
//! - [`drive`]: the frames of one block. Planar data with a full block moves in square tiles of
//!   `L` frames × `L` channels through the tile transposes ([`crate::simd::tile`]) straight
//!   between the signal and registers; everything else (interleaved data, partial blocks, the
//!   frames after the last whole tile) is gathered in time blocks of [`TBLOCK`] frames into a
//!   lane-major buffer, filtered and scattered back.
//!
//! Every pass can also run backwards in time ([`Io::rev`]): frame `n − 1` first. The zero-phase
//! filters use it to filter a signal reversed in place without a reversed copy.
//!
//! Channels are independent and every channel is computed by the same sequence of operations
//! whichever block, tile or thread it lands in, so no result depends on the split.

use super::arith::{Arith, SosElem};
use crate::kernels::layout::Layout;
use crate::kernels::par;
use crate::kernels::{Float, Src};
use crate::simd::tile::{self, Transposer};
use crate::simd::Level;

/// Frames per time block of the buffered path.
pub(crate) const TBLOCK: usize = 128;

/// Where one pass reads and writes: `n` frames from `x` (laid out as `xl`; `Src::Dst` means in
/// place, then `xl == yl`) into `y` (laid out as `yl`), forwards or, with `rev`, backwards in
/// time (the filter sees frame `n − 1` first, and its output for it lands at frame `n − 1`).
pub(crate) struct Io<'a, T> {
    pub x: Src<'a, T>,
    pub xl: Layout,
    pub y: &'a mut [T],
    pub yl: Layout,
    pub n: usize,
    pub rev: bool,
}

impl<'a, T: Copy> Io<'a, T> {
    pub fn new(x: Src<'a, T>, xl: Layout, y: &'a mut [T], yl: Layout, n: usize, rev: bool) -> Self {
        Io {
            x,
            xl,
            y,
            yl,
            n,
            rev,
        }
    }

    /// A reborrow (the kernels' blocks each take one).
    pub fn reborrow(&mut self) -> Io<'_, T> {
        Io {
            x: self.x,
            xl: self.xl,
            y: self.y,
            yl: self.yl,
            n: self.n,
            rev: self.rev,
        }
    }

    /// Sample `i` of the input (`y` itself in place).
    #[inline(always)]
    pub fn read(&self, i: usize) -> T {
        match self.x {
            Src::Slice(s) => s[i],
            Src::Dst => self.y[i],
        }
    }

    /// The data frame at position `t` of the pass.
    #[inline(always)]
    pub fn frame(&self, t: usize) -> usize {
        if self.rev {
            self.n - 1 - t
        } else {
            t
        }
    }
}

/// A recursive filter run by the driver.
pub(crate) trait LaneKernel<T: SosElem>: Sync {
    /// State values per channel (rows of the `[row][channel]` state).
    fn rows(&self) -> usize;
    /// Rough multiply-adds per frame and channel (for the thread decision).
    fn cost(&self) -> usize;
    /// The reference: one channel, one frame at a time ([`Io::frame`] gives the data frame).
    fn scalar<A: Arith>(&self, state: &mut [T], channels: usize, io: Io<'_, T>);
    /// Channels `c0..c0 + active` (`active <= L`) over all frames, through [`drive`].
    #[allow(clippy::too_many_arguments)]
    fn block<A: Arith, X: Transposer, const L: usize>(
        &self,
        tr: X,
        state: &mut [T],
        channels: usize,
        c0: usize,
        active: usize,
        io: Io<'_, T>,
    );
}

/// Loads rows `r0..r0 + R` of the state of channels `c0..c0 + active` into lane arrays (the
/// other lanes zero).
#[inline(always)]
pub(crate) fn load_rows<T: Float, const L: usize, const R: usize>(
    state: &[T],
    channels: usize,
    r0: usize,
    c0: usize,
    active: usize,
) -> [[T; L]; R] {
    let mut z = [[T::ZERO; L]; R];
    for (r, zr) in z.iter_mut().enumerate() {
        let base = (r0 + r) * channels + c0;
        zr[..active].copy_from_slice(&state[base..base + active]);
    }
    z
}

/// The inverse of [`load_rows`].
#[inline(always)]
pub(crate) fn store_rows<T: Float, const L: usize>(
    z: &[[T; L]],
    state: &mut [T],
    channels: usize,
    r0: usize,
    c0: usize,
    active: usize,
) {
    for (r, zr) in z.iter().enumerate() {
        let base = (r0 + r) * channels + c0;
        state[base..base + active].copy_from_slice(&zr[..active]);
    }
}

/// Filters `io.n` frames of every channel at `level` with arithmetic `A` (the filters pass the
/// level's own, [`uses_fma`]; the tests run the scalar reference with either), on threads where
/// the work is large.
pub(crate) fn process_with<T: SosElem, A: Arith, K: LaneKernel<T>>(
    level: Level,
    k: &K,
    state: &mut [T],
    channels: usize,
    io: Io<'_, T>,
) {
    let n = io.n;
    if let Src::Slice(xs) = io.x {
        assert!(xs.len() >= io.xl.extent(channels, n).unwrap(), "x extent");
    } else {
        assert_eq!(io.xl, io.yl, "in-place processing needs equal layouts");
    }
    assert!(io.y.len() >= io.yl.extent(channels, n).unwrap(), "y extent");
    assert_eq!(state.len(), k.rows() * channels, "state length");
    if n == 0 {
        return;
    }
    let groups = thread_groups(channels, k.cost(), io.yl, n);
    if groups <= 1 {
        return run_at::<T, A, K>(level, k, state, channels, io);
    }
    let per = channels.div_ceil(groups).next_multiple_of(8);
    let ranges: Vec<(usize, usize)> = (0..channels)
        .step_by(per)
        .map(|c0| (c0, (c0 + per).min(channels)))
        .collect();
    let rows = k.rows();
    let mut states: Vec<Vec<T>> = ranges
        .iter()
        .map(|&(c0, c1)| {
            (0..rows)
                .flat_map(|r| state[r * channels + c0..r * channels + c1].iter().copied())
                .collect()
        })
        .collect();
    let Io {
        x,
        xl,
        y,
        yl,
        n,
        rev,
    } = io;
    let mut ys = Vec::with_capacity(ranges.len());
    let mut rest = y;
    for &(c0, c1) in &ranges {
        if c1 < channels {
            let (head, tail) = rest.split_at_mut((c1 - c0) * yl.ch);
            ys.push(head);
            rest = tail;
        } else {
            ys.push(std::mem::take(&mut rest));
        }
    }
    let parts: Vec<_> = ranges.iter().zip(ys).zip(states.iter_mut()).collect();
    par::run_parts(parts, |((&(c0, c1), y), st)| {
        let x = match x {
            Src::Slice(s) => Src::Slice(&s[c0 * xl.ch..]),
            Src::Dst => Src::Dst,
        };
        let io = Io {
            x,
            xl,
            y,
            yl,
            n,
            rev,
        };
        run_at::<T, A, K>(level, k, st, c1 - c0, io);
    });
    for (&(c0, c1), st) in ranges.iter().zip(&states) {
        for (r, src) in st.chunks_exact(c1 - c0).enumerate() {
            state[r * channels + c0..r * channels + c1].copy_from_slice(src);
        }
    }
}

/// How many channel groups [`process_with`] runs on threads of their own: only for a planar output
/// (channel ranges are then disjoint pieces of `y`), in whole 8-channel blocks, when the work
/// (`cost` per frame and channel) is large enough ([`par::max_threads`] bounds it;
/// `SIGKERN_THREADS=1` turns it off).
pub(crate) fn thread_groups(channels: usize, cost: usize, yl: Layout, n: usize) -> usize {
    if yl.t != 1 || yl.ch < n {
        return 1;
    }
    let work = channels.saturating_mul(cost).saturating_mul(n);
    par::threads_for(channels / 8, work)
}

/// Runs the kernel over every channel on this thread at SIMD level `level` (clamped to the
/// CPU's): the lane kernel with the level's tile transposer where the arithmetic is the level's
/// own (each kernel instance then runs compiled for the level, through [`Transposer::call`]),
/// the scalar reference otherwise.
pub(crate) fn run_at<T: SosElem, A: Arith, K: LaneKernel<T>>(
    level: Level,
    k: &K,
    state: &mut [T],
    channels: usize,
    io: Io<'_, T>,
) {
    if A::FUSED {
        #[cfg(target_arch = "x86_64")]
        {
            if let Some(tr) = tile::Avx512::at(level) {
                return blocks::<T, A, K, _>(tr, k, state, channels, io);
            }
            if let Some(tr) = tile::Avx2::at(level) {
                return blocks::<T, A, K, _>(tr, k, state, channels, io);
            }
        }
    } else if crate::simd::effective(level) == Level::Baseline {
        return blocks::<T, A, K, _>(tile::Portable, k, state, channels, io);
    }
    k.scalar::<A>(state, channels, io)
}

/// The channel blocks, each through the kernel's [`LaneKernel::block`] run by the transposer's
/// [`Transposer::call`]: one function per lane count compiled for the level, holding the
/// kernel's variants for that lane count (one call per order measured up to 20 % slower for
/// some: the frame loop over a tile stayed rolled).
fn blocks<T: SosElem, A: Arith, K: LaneKernel<T>, X: Transposer>(
    tr: X,
    k: &K,
    state: &mut [T],
    channels: usize,
    mut io: Io<'_, T>,
) {
    let wide = if std::mem::size_of::<T>() == 4 { 16 } else { 8 };
    let mut c0 = 0;
    while c0 < channels {
        let rem = channels - c0;
        let io = io.reborrow();
        if rem > 8 && wide == 16 {
            let active = rem.min(16);
            tr.call(
                #[cfg_attr(not(debug_assertions), inline(always))]
                || k.block::<A, X, 16>(tr, state, channels, c0, active, io),
            );
            c0 += active;
        } else if rem > 4 {
            // 8 lanes: a full register of f64, half of one of f32 (5–8 channels left)
            let active = rem.min(8);
            tr.call(
                #[cfg_attr(not(debug_assertions), inline(always))]
                || k.block::<A, X, 8>(tr, state, channels, c0, active, io),
            );
            c0 += active;
        } else if rem >= 2 {
            tr.call(
                #[cfg_attr(not(debug_assertions), inline(always))]
                || k.block::<A, X, 4>(tr, state, channels, c0, rem, io),
            );
            c0 += rem;
        } else {
            tr.call(
                #[cfg_attr(not(debug_assertions), inline(always))]
                || k.block::<A, X, 1>(tr, state, channels, c0, 1, io),
            );
            c0 += 1;
        }
    }
}

/// Runs `f` over all frames of channels `c0..c0 + active` in pass order (inside the block's
/// [`Transposer::call`]): whole `L × L` tiles straight from and to planar data when `tiles` is
/// set and the block is full, the rest through a [`TBLOCK`]-frame lane-major buffer. `f` sees
/// lane-major frames (`[frame][lane]`) in the order of the pass and overwrites them with its
/// output.
// Forced inline only in optimised builds (see `crate::simd::tile`): in debug builds every
// instance inlined into one function made its stack frame several hundred KiB.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn drive<T: Float, X: Transposer, const L: usize>(
    tr: X,
    io: Io<'_, T>,
    c0: usize,
    active: usize,
    tiles: bool,
    mut f: impl FnMut(&mut [[T; L]]),
) {
    let Io {
        x,
        xl,
        y,
        yl,
        n,
        rev,
    } = io;
    // frames [lo, hi) of the data are left for the buffered path
    let (mut lo, mut hi) = (0, n);
    if tiles && L > 1 && active == L && xl.t == 1 && yl.t == 1 {
        let whole = n / L * L;
        let mut tile = [[T::ZERO; L]; L];
        for i in 0..whole / L {
            let t = if rev { n - (i + 1) * L } else { i * L };
            {
                let src: &[T] = match x {
                    Src::Slice(s) => s,
                    Src::Dst => y,
                };
                load_tile(tr, src, xl.ch, c0, t, &mut tile);
            }
            // one call site of `f` (it is inlined, so each site is a copy of the kernel)
            if rev {
                tile.reverse();
            }
            f(&mut tile);
            if rev {
                tile.reverse();
            }
            store_tile(tr, &tile, y, yl.ch, c0, t);
        }
        if rev {
            hi = n - whole;
        } else {
            lo = whole;
        }
    }
    let mut buf = [[T::ZERO; L]; TBLOCK];
    while lo < hi {
        let m = (hi - lo).min(TBLOCK);
        let t0 = if rev { hi - m } else { lo };
        let b = &mut buf[..m];
        {
            let src: &[T] = match x {
                Src::Slice(s) => s,
                Src::Dst => y,
            };
            gather(tr, src, xl, c0, active, t0, b);
        }
        if rev {
            b.reverse();
        }
        f(b);
        if rev {
            b.reverse();
            hi -= m;
        } else {
            lo += m;
        }
        scatter(tr, b, y, yl, c0, active, t0);
    }
}

/// Loads frames `t..t + L` of the `L` channels from `c0` of planar `src` (channel stride `ch`)
/// and transposes them into lane-major `tile` (`tile[frame][lane]`).
#[inline(always)]
fn load_tile<T: Float, X: Transposer, const L: usize>(
    tr: X,
    src: &[T],
    ch: usize,
    c0: usize,
    t: usize,
    tile: &mut [[T; L]; L],
) {
    let mut rows = [[T::ZERO; L]; L];
    for (lane, r) in rows.iter_mut().enumerate() {
        let base = (c0 + lane) * ch + t;
        r.copy_from_slice(&src[base..base + L]);
    }
    tr.transpose(&rows, tile);
}

/// The inverse of [`load_tile`]: transposes `tile` and stores it into planar `dst`.
#[inline(always)]
fn store_tile<T: Float, X: Transposer, const L: usize>(
    tr: X,
    tile: &[[T; L]; L],
    dst: &mut [T],
    ch: usize,
    c0: usize,
    t: usize,
) {
    let mut rows = [[T::ZERO; L]; L];
    tr.transpose(tile, &mut rows);
    for (lane, r) in rows.iter().enumerate() {
        let base = (c0 + lane) * ch + t;
        dst[base..base + L].copy_from_slice(r);
    }
}

/// Copies frames `t0..t0 + buf.len()` of channels `c0..c0 + active` into lane-major `buf`.
#[inline(always)]
fn gather<T: Float, X: Transposer, const L: usize>(
    tr: X,
    src: &[T],
    l: Layout,
    c0: usize,
    active: usize,
    t0: usize,
    buf: &mut [[T; L]],
) {
    let m = buf.len();
    if l.t == 1 {
        // planar: each channel's run is contiguous. Full blocks move in square tiles of L
        // frames × L lanes through the transposer.
        let mut t = 0;
        if active == L && L > 1 {
            while t + L <= m {
                let tile: &mut [[T; L]; L] = (&mut buf[t..t + L]).try_into().expect("L frames");
                load_tile(tr, src, l.ch, c0, t0 + t, tile);
                t += L;
            }
        }
        let buf = &mut buf[t..];
        let t0 = t0 + t;
        let m = m - t;
        for lane in 0..active {
            let base = (c0 + lane) * l.ch + t0;
            for (d, &v) in buf.iter_mut().zip(&src[base..base + m]) {
                d[lane] = v;
            }
        }
    } else {
        // interleaved (l.ch == 1): each frame's channels are contiguous
        for (t, d) in buf.iter_mut().enumerate() {
            let base = (t0 + t) * l.t + c0 * l.ch;
            if L > 1 && active == L && l.ch == 1 {
                d.copy_from_slice(&src[base..base + L]);
            } else {
                for lane in 0..active {
                    d[lane] = src[base + lane * l.ch];
                }
            }
        }
    }
}

/// The inverse of [`gather`].
#[inline(always)]
fn scatter<T: Float, X: Transposer, const L: usize>(
    tr: X,
    buf: &[[T; L]],
    dst: &mut [T],
    l: Layout,
    c0: usize,
    active: usize,
    t0: usize,
) {
    let m = buf.len();
    if l.t == 1 {
        let mut t = 0;
        if active == L && L > 1 {
            while t + L <= m {
                let tile: &[[T; L]; L] = (&buf[t..t + L]).try_into().expect("L frames");
                store_tile(tr, tile, dst, l.ch, c0, t0 + t);
                t += L;
            }
        }
        let buf = &buf[t..];
        let t0 = t0 + t;
        let m = m - t;
        for lane in 0..active {
            let base = (c0 + lane) * l.ch + t0;
            for (d, s) in dst[base..base + m].iter_mut().zip(buf) {
                *d = s[lane];
            }
        }
    } else {
        for (t, s) in buf.iter().enumerate() {
            let base = (t0 + t) * l.t + c0 * l.ch;
            if L > 1 && active == L && l.ch == 1 {
                dst[base..base + L].copy_from_slice(s);
            } else {
                for lane in 0..active {
                    dst[base + lane * l.ch] = s[lane];
                }
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::kernels::testutil::{same, Rng};
    use crate::simd::available;

    /// A pass backwards in time equals the forward pass over the time-reversed signal, bit for
    /// bit, at every level, for full and partial lane blocks, planar (with gaps) and
    /// interleaved, out of and in place, and in chunks.
    pub(crate) fn reverse_is_forward_on_reversed(run: &dyn Fn(Level, Io<'_, f64>, usize)) {
        let mut rng = Rng::new(51);
        for channels in [1usize, 3, 8, 11, 17] {
            for n in [0usize, 1, 7, 8, 9, 130, 300] {
                let stride = n + 3;
                let x = rng.vec_f64(channels * stride, 1.0);
                let mut xr = x.clone();
                for c in 0..channels {
                    xr[c * stride..c * stride + n].reverse();
                }
                let xi: Vec<f64> = (0..n * channels)
                    .map(|i| x[(i % channels) * stride + i / channels])
                    .collect();
                let pl = Layout::planar(stride);
                let il = Layout::interleaved(channels);
                for level in available() {
                    let what = format!("ch={channels} n={n} {level:?}");
                    // forward over the reversed signal, then reversed back
                    let mut want = vec![7.0; x.len()];
                    run(
                        level,
                        Io::new(Src::Slice(&xr), pl, &mut want, pl, n, false),
                        channels,
                    );
                    for c in 0..channels {
                        want[c * stride..c * stride + n].reverse();
                    }
                    let mut y = vec![7.0; x.len()];
                    run(
                        level,
                        Io::new(Src::Slice(&x), pl, &mut y, pl, n, true),
                        channels,
                    );
                    assert!(same(&y, &want), "planar {what}");
                    let mut yi = x.clone();
                    for c in 0..channels {
                        yi[c * stride + n..(c + 1) * stride].fill(7.0);
                    }
                    run(level, Io::new(Src::Dst, pl, &mut yi, pl, n, true), channels);
                    assert!(same(&yi, &want), "in place {what}");
                    let mut yv = vec![0.0; xi.len()];
                    run(
                        level,
                        Io::new(Src::Slice(&xi), il, &mut yv, il, n, true),
                        channels,
                    );
                    for (i, v) in yv.iter().enumerate() {
                        assert_eq!(
                            v.to_bits(),
                            want[(i % channels) * stride + i / channels].to_bits(),
                            "interleaved {what}"
                        );
                    }
                }
            }
        }
    }
}
