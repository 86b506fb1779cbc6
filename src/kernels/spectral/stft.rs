//! STFT and inverse STFT with `torch.stft(..., return_complex=True)` / `torch.istft` semantics,
//! and a streaming STFT that yields the same frames block by block.
//!
//! Layout: the STFT result is frame-major, `y[t * n_freq + f]` for frame `t` and bin `f`. That is
//! exactly the memory of torch's result (shape `(n_freq, frames)`, strides `(1, n_freq)`); in
//! numpy `y.reshape(frames, n_freq).T` is torch's array. The ISTFT reads the same layout.

use super::fft::{
    grow, real_passes_fit, FftFloat, FftPlan, Lanes, Norm, PlanCache, RealPasses, RowLanes,
    Workspace, MAX_FFT_LEN,
};
use super::Complex;
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::{try_vec, try_with_capacity};
use crate::kernels::elementwise::{binary, MulOp};
use crate::kernels::par::par_rows_with;
use crate::kernels::{Float, Src};
use crate::simd::tile::{self, Transposer};
use crate::simd::Level;
use std::sync::Arc;

/// How `center` pads the signal by `n_fft / 2` on each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PadMode {
    /// Zeros.
    Constant,
    /// Mirror without repeating the edge sample (`x[1], x[2], …`), torch's default.
    Reflect,
}

/// STFT parameters, torch's names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StftParams {
    pub n_fft: usize,
    pub hop: usize,
    pub win_length: usize,
    pub center: bool,
    pub pad_mode: PadMode,
    pub onesided: bool,
    pub normalized: bool,
}

impl StftParams {
    /// Checks `n_fft ≥ 1`, `1 ≤ hop ≤ win_length ≤ n_fft`.
    pub fn check(&self) -> SkResult<()> {
        if self.n_fft == 0 {
            return Err(SkError::Length(
                "n_fft = 0: a frame needs at least one sample".into(),
            ));
        }
        if self.n_fft > MAX_FFT_LEN {
            return Err(SkError::Length(format!(
                "n_fft = {} exceeds the largest supported FFT length {MAX_FFT_LEN} (2^28)",
                self.n_fft
            )));
        }
        if self.hop == 0 {
            return Err(SkError::BadArgument(
                "hop = 0: frames would never advance".into(),
            ));
        }
        if self.win_length == 0 || self.win_length > self.n_fft {
            return Err(SkError::BadArgument(format!(
                "win_length = {} must be between 1 and n_fft = {}",
                self.win_length, self.n_fft
            )));
        }
        if self.hop > self.win_length {
            return Err(SkError::BadArgument(format!(
                "hop = {} is greater than win_length = {}: samples between windows would be lost",
                self.hop, self.win_length
            )));
        }
        Ok(())
    }

    /// Bins per frame: n_fft/2+1 one-sided, else n_fft.
    pub fn n_freq(&self) -> usize {
        if self.onesided {
            self.n_fft / 2 + 1
        } else {
            self.n_fft
        }
    }

    /// Samples of padding on each side.
    pub fn pad(&self) -> usize {
        if self.center {
            self.n_fft / 2
        } else {
            0
        }
    }

    /// Frames of an `n`-sample signal: `1 + (n + 2·pad − n_fft) / hop`. Errors as torch: reflect
    /// padding needs `pad < n`; the padded signal must hold at least one frame.
    pub fn frames(&self, n: usize) -> SkResult<usize> {
        self.check()?;
        let pad = self.pad();
        if self.center && self.pad_mode == PadMode::Reflect && pad > 0 && pad >= n {
            return Err(SkError::BadArgument(format!(
                "reflect padding of n_fft/2 = {pad} samples needs a signal longer than {pad} samples, got n = {n}"
            )));
        }
        // pad <= n_fft / 2 <= 2^27, so 2 * pad cannot overflow
        let padded = n.checked_add(2 * pad).ok_or_else(|| {
            SkError::Length(format!(
                "n = {n} samples plus the 2 * {pad} samples of centre padding overflow size_t"
            ))
        })?;
        if padded < self.n_fft {
            return Err(SkError::BadArgument(format!(
                "signal of n = {n} samples (padded to {padded}) is shorter than n_fft = {}",
                self.n_fft
            )));
        }
        Ok(1 + (padded - self.n_fft) / self.hop)
    }

    /// The window zero-padded (centred) to n_fft, as torch does for `win_length < n_fft`,
    /// with the support `[lo, hi)` of the original window.
    fn padded_window<T: FftFloat>(&self, window: &[T]) -> SkResult<(Vec<T>, usize, usize)> {
        assert_eq!(window.len(), self.win_length, "window length");
        let lo = (self.n_fft - self.win_length) / 2;
        let mut wp = try_vec(self.n_fft, T::ZERO, "the padded window")?;
        wp[lo..lo + self.win_length].copy_from_slice(window);
        Ok((wp, lo, lo + self.win_length))
    }
}

/// Shared per-frame work: windowed segment → FFT → mirror (two-sided) → normalisation.
pub(crate) struct FrameKernel<T: FftFloat> {
    p: StftParams,
    plan: Arc<FftPlan<T>>,
    wp: Vec<T>,
    lo: usize,
    hi: usize,
}

impl<T: FftFloat> FrameKernel<T> {
    /// The forward transform's normalisation (`normalized`: 1/√n_fft).
    fn norm(&self) -> Norm {
        if self.p.normalized {
            Norm::Ortho
        } else {
            Norm::Backward
        }
    }
}

impl<T: FftFloat + PlanCache> FrameKernel<T> {
    pub(crate) fn new(p: &StftParams, window: &[T]) -> SkResult<Self> {
        p.check()?;
        let (wp, lo, hi) = p.padded_window(window)?;
        Ok(FrameKernel {
            p: *p,
            plan: T::cached_real_plan(p.n_fft)?,
            wp,
            lo,
            hi,
        })
    }

    /// The scratch of one thread's frames: an FFT workspace and room for an edge frame.
    pub(crate) fn scratch(&self) -> SkResult<(Workspace<T>, Vec<T>)> {
        let edge = try_with_capacity(self.p.n_fft, "an edge frame")?;
        Ok((self.plan.workspace()?, edge))
    }

    /// Frame `t` of the padded `x` (one-call STFT): interior frames read `x` directly, edge
    /// frames are assembled in `edge` first.
    pub(crate) fn frame_at(
        &self,
        x: &[T],
        t: usize,
        edge: &mut Vec<T>,
        out: &mut [Complex<T>],
        ws: &mut Workspace<T>,
    ) {
        let seg = self.frame_src(x, t, edge);
        self.frame(seg, out, ws);
    }

    /// The `n_fft` padded samples of frame `t` of `x`: a slice of `x` for interior frames,
    /// else assembled in `edge`.
    pub(crate) fn frame_src<'a>(&self, x: &'a [T], t: usize, edge: &'a mut Vec<T>) -> &'a [T] {
        let n = self.p.n_fft;
        let s = (t * self.p.hop) as isize - self.p.pad() as isize;
        if s >= 0 && s as usize + n <= x.len() {
            &x[s as usize..s as usize + n]
        } else {
            padded_span(x, s, n, self.p.pad_mode, edge);
            edge
        }
    }

    /// The lane passes that transform groups of frames at once, when the plan has them and
    /// there are at least two `frames` (see [`FrameKernel::group_at`]).
    pub(crate) fn row_lanes(&self, frames: usize) -> SkResult<Option<&RowLanes<T>>> {
        self.plan.row_lanes(frames)
    }

    /// Frames a group holds.
    pub(crate) fn group_lanes(&self) -> usize {
        RowLanes::<T>::LANES
    }

    /// The scratch of one thread's frame groups: an FFT workspace with the lane buffers of
    /// `rl`, room for an edge frame, and one windowed row per lane.
    #[allow(clippy::type_complexity)]
    pub(crate) fn group_scratch(
        &self,
        rl: &RowLanes<T>,
    ) -> SkResult<(Workspace<T>, Vec<T>, Vec<T>)> {
        let n = self.p.n_fft;
        let mut ws = Workspace::default();
        rl.reserve(n, &mut ws.lanes)?;
        let edge = try_with_capacity(n, "an edge frame")?;
        let win = try_vec(
            n * RowLanes::<T>::LANES,
            T::ZERO,
            "a group of windowed frames",
        )?;
        Ok((ws, edge, win))
    }

    /// Frames `t0 ..` of the padded `x` into the rows of `out` (`out.len() / n_freq ≤ LANES`
    /// of them), through the lane passes `rl` of this kernel's plan: each row equals
    /// [`FrameKernel::frame_at`]'s (same windowing, transform, normalisation and mirror).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn group_at(
        &self,
        rl: &RowLanes<T>,
        x: &[T],
        t0: usize,
        edge: &mut Vec<T>,
        win: &mut [T],
        out: &mut [Complex<T>],
        ws: &mut Workspace<T>,
    ) {
        let (n, nf) = (self.p.n_fft, self.p.n_freq());
        let count = out.len() / nf;
        for (i, row) in win.chunks_exact_mut(n).take(count).enumerate() {
            self.window_into(self.frame_src(x, t0 + i, edge), row);
        }
        let scale = self.norm().scale(n, false).map(<T as Float>::from_f64);
        let lv = crate::simd::current();
        rl.forward(lv, n, win, n, out, nf, count, scale, &mut ws.lanes);
        for row in out.chunks_exact_mut(nf) {
            self.mirror(row);
        }
    }

    /// The n_fft padded samples `seg` of a frame times the padded window, into `row`.
    fn window_into(&self, seg: &[T], row: &mut [T]) {
        row[..self.lo].fill(T::ZERO);
        row[self.hi..].fill(T::ZERO);
        // windowing with the multiversioned elementwise multiply
        binary(
            Src::Slice(&seg[self.lo..self.hi]),
            Src::Slice(&self.wp[self.lo..self.hi]),
            &mut row[self.lo..self.hi],
            MulOp,
        );
    }

    /// Two-sided output: bins `n/2+1 ..` of a frame's row as the conjugates of the first half.
    fn mirror(&self, row: &mut [Complex<T>]) {
        if !self.p.onesided {
            let n = self.p.n_fft;
            for k in n / 2 + 1..n {
                row[k] = row[n - k].conj();
            }
        }
    }

    /// `seg` holds the n_fft padded samples of the frame; `out` its n_freq bins. A window that
    /// spans the whole frame is applied as the transform's first pass loads the samples, where
    /// the plan does that ([`FftPlan::rfft_windowed`]: the same bits as windowing first).
    fn frame(&self, seg: &[T], out: &mut [Complex<T>], ws: &mut Workspace<T>) {
        let n = self.p.n_fft;
        let half = n / 2 + 1;
        if self.lo == 0
            && self.hi == n
            && self
                .plan
                .rfft_windowed(seg, &self.wp, &mut out[..half], self.norm(), &mut ws.cplx)
        {
            self.mirror(out);
            return;
        }
        let buf = grow(&mut ws.real, n);
        self.window_into(seg, buf);
        self.plan
            .rfft_inplace_input(buf, &mut out[..half], self.norm(), &mut ws.cplx);
        self.mirror(out);
    }
}

/// Frames transformed `L` at a time, one per SIMD lane (16 `f32` or 8 `f64`: one 64-byte
/// vector): the real passes ([`RealPasses`], numpy's real FFT algorithm) on [`Lanes`], with
/// each lane computing exactly the scalar transform of its frame. The frames are windowed
/// straight into square tiles that are transposed into lanes, and the spectra come out
/// bin-major (bin `k` of the `L` frames side by side), the layout the mel filterbank runs on.
/// Only for lengths the real passes take (not pocketfft's Bluestein lengths).
pub(crate) enum LaneFrames<T> {
    L16(RealPasses<Lanes<T, 16>>),
    L8(RealPasses<Lanes<T, 8>>),
}

/// One thread's buffers for [`LaneFrames`]: the lanes and the passes' scratch, and an edge
/// frame per lane.
pub(crate) struct LaneScratch<T> {
    bufs: LaneBufs<T>,
    edges: Vec<Vec<T>>,
}

/// The lanes and the passes' scratch.
enum LaneBufs<T> {
    L16(Vec<Lanes<T, 16>>, Vec<Lanes<T, 16>>),
    L8(Vec<Lanes<T, 8>>, Vec<Lanes<T, 8>>),
}

impl<T: FftFloat + PlanCache> LaneFrames<T> {
    /// Frames per group: 64 bytes of `T`.
    pub(crate) const LANES: usize = 64 / std::mem::size_of::<T>();

    /// The lane transforms of `n_fft` points, or `None` where the real passes do not apply.
    pub(crate) fn new(n_fft: usize) -> SkResult<Option<Self>> {
        if !real_passes_fit(n_fft) {
            return Ok(None);
        }
        Ok(match Self::LANES {
            16 => Some(LaneFrames::L16(RealPasses::new(n_fft)?)),
            8 => Some(LaneFrames::L8(RealPasses::new(n_fft)?)),
            _ => None,
        })
    }

    /// Buffers for one thread: `n_fft` lanes twice, `LANES` edge frames.
    pub(crate) fn scratch(&self, n_fft: usize) -> SkResult<LaneScratch<T>> {
        let what = "a group of lane frames";
        let bufs = match self {
            LaneFrames::L16(_) => {
                let z = Lanes([T::ZERO; 16]);
                LaneBufs::L16(try_vec(n_fft, z, what)?, try_vec(n_fft, z, what)?)
            }
            LaneFrames::L8(_) => {
                let z = Lanes([T::ZERO; 8]);
                LaneBufs::L8(try_vec(n_fft, z, what)?, try_vec(n_fft, z, what)?)
            }
        };
        let mut edges = try_with_capacity(Self::LANES, what)?;
        for _ in 0..Self::LANES {
            edges.push(try_with_capacity(n_fft, "an edge frame")?);
        }
        Ok(LaneScratch { bufs, edges })
    }

    /// `|X_k|²` of frames `t0 .. t0 + count` (`count ≤ LANES`) of the padded `x` into `pw`
    /// bin-major: bin `k` of frame `t0 + i` at `pw[k·LANES + i]` (`pw` holds at least
    /// `n_freq·LANES` values; lanes past `count` hold a copy of frame `t0`). Windowing and
    /// normalisation as [`FrameKernel`].
    pub(crate) fn power2(
        &self,
        k: &FrameKernel<T>,
        x: &[T],
        t0: usize,
        count: usize,
        sc: &mut LaneScratch<T>,
        pw: &mut [T],
    ) {
        assert!(
            count >= 1 && count <= Self::LANES,
            "lane group of {count} frames"
        );
        let mut srcs: [&[T]; 16] = [&[]; 16];
        for (i, (src, edge)) in srcs.iter_mut().zip(sc.edges.iter_mut()).enumerate() {
            *src = k.frame_src(x, t0 + if i < count { i } else { 0 }, edge);
        }
        // the samples the next group adds start loading while this group is transformed
        let (hop, n) = (k.p.hop, k.p.n_fft);
        let end = |t: usize| (t * hop + n).saturating_sub(k.p.pad()).min(x.len());
        let (from, to) = (end(t0 + count - 1), end(t0 + 2 * count - 1));
        if from < to {
            crate::simd::prefetch(&x[from..to]);
        }
        let lv = crate::simd::current();
        lanes_power_at(lv, lv, self, k, &srcs[..Self::LANES], &mut sc.bufs, pw);
    }
}

/// The level's body of [`LaneFrames::power2`]: picks the tile transposes of `lv` and the lane
/// width.
#[inline(always)]
fn lanes_power_body<T: FftFloat>(
    lv: Level,
    lf: &LaneFrames<T>,
    k: &FrameKernel<T>,
    srcs: &[&[T]],
    bufs: &mut LaneBufs<T>,
    pw: &mut [T],
) {
    // each lane width as a function of its own compiled for the transposer's level (see
    // `Transposer::call`): one instance per transposer, not one per transposer in every clone
    tile::with_transposer!(lv, |tr| match (lf, bufs) {
        // only the width of `T` (64 bytes) is ever made (`LaneFrames::new`): the constant
        // guards let the compiler drop the other width's instances
        (LaneFrames::L16(p), LaneBufs::L16(v, ch)) if size_of::<T>() == 4 => tr.call(
            #[cfg_attr(not(debug_assertions), inline(always))]
            move || lanes_power(tr, p, k, srcs, v, ch, pw)
        ),
        (LaneFrames::L8(p), LaneBufs::L8(v, ch)) if size_of::<T>() == 8 => tr.call(
            #[cfg_attr(not(debug_assertions), inline(always))]
            move || lanes_power(tr, p, k, srcs, v, ch, pw)
        ),
        _ => unreachable!("lane scratch of another width"),
    })
}

crate::simd::multiversion! {
    /// [`lanes_power_body`] compiled at a SIMD level.
    fn lanes_power_at<T: FftFloat>(
        lv: Level,
        lf: &LaneFrames<T>,
        k: &FrameKernel<T>,
        srcs: &[&[T]],
        bufs: &mut LaneBufs<T>,
        pw: &mut [T],
    ) -> ();
    scalar = lanes_power_body; simd = lanes_power_body;
}

/// `L` frames (`srcs`), windowed as `k` windows them straight into square tiles, then into
/// lanes, the real passes, `k`'s normalisation, then `re² + im²` per bin into `pw` bin-major
/// (`pw[k·L + i]`), with the operations of the one-frame path.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn lanes_power<T: FftFloat, X: Transposer, const L: usize>(
    tr: X,
    p: &RealPasses<Lanes<T, L>>,
    k: &FrameKernel<T>,
    srcs: &[&[T]],
    v: &mut [Lanes<T, L>],
    ch: &mut [Lanes<T, L>],
    pw: &mut [T],
) {
    let (wp, lo, hi) = (&k.wp[..], k.lo, k.hi);
    let scale = k.norm().scale(wp.len(), false).map(<T as Float>::from_f64);
    let n = wp.len();
    let z = T::ZERO;
    let mut a = [[z; L]; L];
    let mut o = [[z; L]; L];
    // each tile of `L` samples of the `L` frames: windowed (zero outside the window's span,
    // whatever the samples there), transposed into lanes
    for jb in (0..n).step_by(L) {
        if jb >= lo && jb + L <= hi {
            let w = &wp[jb..jb + L];
            for (r, src) in a.iter_mut().zip(srcs) {
                for ((d, &s), &w) in r.iter_mut().zip(&src[jb..jb + L]).zip(w) {
                    *d = s * w;
                }
            }
        } else {
            for (r, src) in a.iter_mut().zip(srcs) {
                for (j, d) in (jb..).zip(r.iter_mut()) {
                    *d = if j >= lo && j < hi { src[j] * wp[j] } else { z };
                }
            }
        }
        tr.transpose(&a, &mut o);
        for (d, r) in v[jb..].iter_mut().zip(&o) {
            *d = Lanes(*r);
        }
    }
    p.forward(v, ch);
    // `k`'s normalisation (×1 without one: the same values), then halfcomplex r0, r1, i1, …
    // [, r_{n/2}] → |X_k|² = r² + i² into lane `k` of `v` itself, whole lanes at a time, then
    // bin-major into `pw`. Written in place on purpose: a loop from `v` into `pw` gets
    // vectorised across bins by LLVM, lane by lane with gathers and scatters (2.5× slower);
    // here the reads run ahead of the writes, so only each lane operation is vectorised.
    let s = Lanes([scale.unwrap_or(T::ONE); L]);
    let nf = n / 2 + 1;
    let r = v[0] * s;
    v[0] = r * r;
    for k in 1..n.div_ceil(2) {
        let (r, i) = (v[2 * k - 1] * s, v[2 * k] * s);
        v[k] = r * r + i * i;
    }
    if n.is_multiple_of(2) && n > 1 {
        let r = v[n - 1] * s;
        v[n / 2] = r * r;
    }
    for (d, x) in pw.chunks_exact_mut(L).zip(&v[..nf]) {
        d.copy_from_slice(&x.0);
    }
}

/// The `len` samples `s .. s + len` (coordinates of `x`, so `s` may be negative and the span
/// may end past `x`) of the padded signal into `edge` (cleared first): the part inside `x`
/// copied, the parts outside zeros or `x` reflected about its ends (`x[−j]` before it,
/// `x[2(n−1) − j]` after it), as slices rather than sample by sample. Reflection needs
/// `−s < n` and `s + len − 1 ≤ 2(n − 1)` (one reflection covers the span: centre padding of less
/// than `n` samples, which `StftParams::frames` checks).
fn padded_span<T: FftFloat>(x: &[T], s: isize, len: usize, mode: PadMode, edge: &mut Vec<T>) {
    edge.clear();
    let n = x.len() as isize;
    let e = s + len as isize;
    let outside = |a: isize, b: isize, edge: &mut Vec<T>| match mode {
        PadMode::Constant => edge.resize(edge.len() + (b - a) as usize, T::ZERO),
        // samples a .. b reflect to r = −j (before x) or 2(n−1) − j (after it), a
        // decreasing run of indices: a reversed slice of x
        PadMode::Reflect => {
            let (r0, r1) = if b <= 0 {
                (-a, -(b - 1))
            } else {
                (2 * (n - 1) - a, 2 * (n - 1) - (b - 1))
            };
            edge.extend(x[r1 as usize..=r0 as usize].iter().rev());
        }
    };
    // before x, inside it, after it
    let left_end = e.min(0);
    if s < left_end {
        outside(s, left_end, edge);
    }
    let (m0, m1) = (s.max(0), e.min(n));
    if m0 < m1 {
        edge.extend_from_slice(&x[m0 as usize..m1 as usize]);
    }
    let right_start = s.max(n);
    if right_start < e {
        outside(right_start, e, edge);
    }
}

/// Sample `j` (padded coordinates shifted by `-pad`, may be negative or ≥ n) of the padded
/// signal (the reference [`padded_span`] is tested against).
#[cfg(test)]
fn padded_sample<T: FftFloat>(x: &[T], j: isize, mode: PadMode) -> T {
    let n = x.len() as isize;
    if (0..n).contains(&j) {
        x[j as usize]
    } else {
        match mode {
            PadMode::Constant => T::ZERO,
            PadMode::Reflect => {
                let r = if j < 0 { -j } else { 2 * (n - 1) - j };
                x[r as usize]
            }
        }
    }
}

/// STFT of `x` into `y` (`frames × n_freq`, frame-major; `y.len()` must be exactly
/// `p.frames(x.len()) * p.n_freq()`). `window` has `win_length` points.
pub fn stft<T: FftFloat + PlanCache>(
    x: &[T],
    window: &[T],
    p: &StftParams,
    y: &mut [Complex<T>],
) -> SkResult<()> {
    let frames = p.frames(x.len())?;
    let nf = p.n_freq();
    assert_eq!(y.len(), frames * nf, "stft output length");
    let k = FrameKernel::new(p, window)?;
    let work = frames.saturating_mul(p.n_fft).saturating_mul(4);
    if let Some(rl) = k.plan.row_lanes(frames)? {
        // groups of frames on SIMD lanes (the same values as one frame at a time)
        let lanes = RowLanes::<T>::LANES;
        return par_rows_with(
            y,
            nf,
            work,
            || k.group_scratch(rl),
            |(ws, edge, win), first, chunk| {
                for (g, out) in chunk.chunks_mut(lanes * nf).enumerate() {
                    k.group_at(rl, x, first + g * lanes, edge, win, out, ws);
                }
            },
        );
    }
    par_rows_with(
        y,
        nf,
        work,
        || k.scratch(),
        |(ws, edge), first, chunk| {
            for (i, out) in chunk.chunks_exact_mut(nf).enumerate() {
                k.frame_at(x, first + i, edge, out, ws);
            }
        },
    )
}

/// Output length of `torch.istft` without `length`: `n_fft + hop·(frames−1)` minus the two
/// centre pads.
pub fn istft_default_len(p: &StftParams, frames: usize) -> SkResult<usize> {
    p.check()?;
    if frames == 0 {
        return Err(SkError::Length("frames = 0: nothing to invert".into()));
    }
    let expected = p
        .hop
        .checked_mul(frames - 1)
        .and_then(|v| v.checked_add(p.n_fft))
        .ok_or_else(|| {
            SkError::Length(format!(
                "frames = {frames} with hop = {} and n_fft = {}: the signal length \
                 n_fft + hop * (frames - 1) overflows size_t",
                p.hop, p.n_fft
            ))
        })?;
    Ok(expected - 2 * p.pad())
}

/// Inverse STFT as `torch.istft(x, ..., length = y.len())`: per frame an inverse real FFT (only
/// the first n_fft/2+1 bins are read, also when `onesided` is false), times the window,
/// overlap-added and divided by the overlap-added squared window. `x` holds `frames × n_freq`
/// bins, frame-major. A window envelope below 1e-11 anywhere in the output range (the NOLA
/// condition fails) is `SK_ERR_BAD_ARGUMENT`, with nothing written. Output samples past the last
/// frame are zero, as torch pads them.
pub fn istft<T: FftFloat + PlanCache>(
    x: &[Complex<T>],
    frames: usize,
    window: &[T],
    p: &StftParams,
    y: &mut [T],
) -> SkResult<()> {
    p.check()?;
    if frames == 0 {
        return Err(SkError::Length("frames = 0: nothing to invert".into()));
    }
    let nf = p.n_freq();
    assert_eq!(x.len(), frames * nf, "istft input length");
    let (wp, _, _) = p.padded_window(window)?;
    let n = p.n_fft;
    let expected = istft_default_len(p, frames)? + 2 * p.pad();
    let start = p.pad();
    let end = (start + y.len()).min(expected);
    let live = end.saturating_sub(start);
    // window envelope over the output range, checked before anything is written
    let mut env = try_vec(live, 0.0f64, "the window envelope")?;
    for t in 0..frames {
        let f0 = t * p.hop;
        let a = f0.max(start);
        let b = (f0 + n).min(end);
        if a >= b {
            continue;
        }
        // zipped slices: no bounds checks, vectorisable (same operations in the same order)
        for (e, w) in env[a - start..b - start]
            .iter_mut()
            .zip(&wp[a - f0..b - f0])
        {
            let w = w.to_f64();
            *e += w * w;
        }
    }
    if let Some((i, e)) = env
        .iter()
        .enumerate()
        .find(|(_, e)| e.is_nan() || e.abs() < 1e-11)
    {
        return Err(SkError::BadArgument(format!(
            "NOLA condition fails: the overlap-added squared window is {e:e} at output sample {i} \
             (must be >= 1e-11); use a window that overlaps (e.g. hann with hop <= win_length/2)"
        )));
    }
    let plan = T::cached_real_plan(n)?;
    let norm = if p.normalized {
        Norm::Ortho
    } else {
        Norm::Backward
    };
    T::with_workspace(|ws| -> SkResult<()> {
        // all scratch before the first write
        plan.reserve(ws)?;
        let half = n / 2 + 1;
        let mut frame = try_vec(n, T::ZERO, "an inverse frame")?;
        y.fill(T::ZERO);
        for t in 0..frames {
            let f0 = t * p.hop;
            let a = f0.max(start);
            let b = (f0 + n).min(end);
            if a >= b {
                continue;
            }
            let spec = grow(&mut ws.cplx2, half);
            spec.copy_from_slice(&x[t * nf..t * nf + half]);
            plan.irfft_inplace_input(spec, &mut frame, norm, &mut ws.cplx);
            // overlap-add as zipped slices: no bounds checks, vectorisable
            let (out, fr, w) = (
                &mut y[a - start..b - start],
                &frame[a - f0..b - f0],
                &wp[a - f0..b - f0],
            );
            for ((o, &f), &w) in out.iter_mut().zip(fr).zip(w) {
                *o = *o + f * w;
            }
        }
        Ok(())
    })?;
    for (v, e) in y[..live].iter_mut().zip(&env) {
        *v = <T as Float>::from_f64(v.to_f64() / e);
    }
    Ok(())
}

/// A streaming STFT: push blocks of samples, get every frame that is complete; `finish` pads the
/// end and returns the rest. The frames (values and order) equal one [`stft`] call on the
/// concatenated input. Output rows are frame-major like [`stft`].
pub struct StftStream<T: FftFloat> {
    k: FrameKernel<T>,
    /// Raw samples held before the left reflect pad can be built (needs pad + 1 samples).
    head: Vec<T>,
    /// Padded signal from padded position `buf_start` on.
    buf: Vec<T>,
    buf_start: usize,
    started: bool,
    next_frame: usize,
    total_in: usize,
    finished: bool,
    /// The stream's own FFT workspace, made by [`reserve`](Self::reserve): calls then use it
    /// instead of the calling thread's (which would grow on a thread's first call).
    own_ws: Option<Workspace<T>>,
}

impl<T: FftFloat + PlanCache> StftStream<T> {
    /// Makes the stream real-time: reserves room for pushes of up to `max_block` samples and
    /// for the end padding, and gives the stream its own FFT workspace, so that such pushes
    /// (and `finish`) allocate nothing on any thread. Results do not change. On error (out of
    /// memory) the stream works as before.
    pub fn reserve(&mut self, max_block: usize) -> SkResult<()> {
        let p = self.k.p;
        let mut ws = self.own_ws.take().unwrap_or_default();
        let r = self.k.plan.reserve(&mut ws);
        self.own_ws = Some(ws);
        r?;
        let fail = |_| SkError::Allocation("out of memory: cannot reserve the stream".into());
        let room = p
            .n_fft
            .saturating_add(p.hop)
            .saturating_add(2 * p.pad() + 1)
            .saturating_add(max_block.saturating_mul(2));
        self.buf
            .try_reserve(room.saturating_sub(self.buf.len()))
            .map_err(fail)?;
        self.head
            .try_reserve(
                (p.pad() + 1)
                    .saturating_add(max_block)
                    .saturating_sub(self.head.len()),
            )
            .map_err(fail)?;
        Ok(())
    }

    /// Runs `f` with the stream's own workspace if it has one, else the thread's.
    fn with_ws<R>(&mut self, f: impl FnOnce(&mut Self, &mut Workspace<T>) -> R) -> R {
        match self.own_ws.take() {
            Some(mut ws) => {
                let r = f(self, &mut ws);
                self.own_ws = Some(ws);
                r
            }
            None => T::with_workspace(|ws| f(self, ws)),
        }
    }

    pub fn new(p: &StftParams, window: &[T]) -> SkResult<Self> {
        let k = FrameKernel::new(p, window)?;
        let mut s = StftStream {
            k,
            head: Vec::new(),
            buf: Vec::new(),
            buf_start: 0,
            started: false,
            next_frame: 0,
            total_in: 0,
            finished: false,
            own_ws: None,
        };
        s.reset();
        Ok(s)
    }

    pub fn params(&self) -> &StftParams {
        &self.k.p
    }

    /// Forgets all input: the next push starts a new signal.
    pub fn reset(&mut self) {
        let p = self.k.p;
        self.head.clear();
        self.buf.clear();
        self.buf_start = 0;
        self.next_frame = 0;
        self.total_in = 0;
        self.finished = false;
        self.started = !(p.center && p.pad_mode == PadMode::Reflect && p.pad() > 0);
        if self.started {
            self.buf.resize(p.pad(), T::ZERO);
        }
    }

    /// Frames complete in a padded signal of `padded_len` samples.
    fn frames_upto(&self, padded_len: usize) -> usize {
        let p = &self.k.p;
        if padded_len < p.n_fft {
            0
        } else {
            1 + (padded_len - p.n_fft) / p.hop
        }
    }

    /// Frames a push of `n` more samples would return.
    pub fn push_frames(&self, n: usize) -> SkResult<usize> {
        self.not_finished()?;
        let p = &self.k.p;
        let held = if self.started {
            self.buf_start + self.buf.len()
        } else {
            p.pad() + self.head.len()
        };
        let plen = held.checked_add(n).ok_or_else(|| {
            SkError::Length(format!(
                "n = {n} more samples overflow the stream's count of samples ({held} held)"
            ))
        })?;
        if !self.started && plen - p.pad() <= p.pad() {
            return Ok(0);
        }
        Ok(self.frames_upto(plen) - self.next_frame)
    }

    /// Frames `finish` would return (errors as [`StftParams::frames`] for a too-short signal).
    pub fn finish_frames(&self) -> SkResult<usize> {
        self.not_finished()?;
        Ok(self.k.p.frames(self.total_in)? - self.next_frame)
    }

    fn not_finished(&self) -> SkResult<()> {
        if self.finished {
            Err(SkError::BadArgument(
                "the stream was finished; reset it before pushing a new signal".into(),
            ))
        } else {
            Ok(())
        }
    }

    /// Appends `x`; writes the frames now complete to the start of `y` (which must hold
    /// `push_frames(x.len()) * n_freq` bins, checked by the caller) and returns their count.
    pub fn push(&mut self, x: &[T], y: &mut [Complex<T>]) -> SkResult<usize> {
        let want = self.push_frames(x.len())?;
        let nf = self.k.p.n_freq();
        assert!(y.len() >= want * nf, "stream output too small");
        let total_in = self.total_in.checked_add(x.len()).ok_or_else(|| {
            SkError::Length(format!(
                "n = {} more samples overflow the stream's count of samples",
                x.len()
            ))
        })?;
        self.with_ws(|st, ws| st.push_with(x, y, want, total_in, ws))
    }

    /// [`push`](Self::push) with the workspace `ws`.
    fn push_with(
        &mut self,
        x: &[T],
        y: &mut [Complex<T>],
        want: usize,
        total_in: usize,
        ws: &mut Workspace<T>,
    ) -> SkResult<usize> {
        {
            // every allocation before the stream changes: on failure it is as it was
            self.k.plan.reserve(ws)?;
            let fail = |_| {
                SkError::Allocation(format!(
                    "out of memory: cannot buffer {} more samples in the stream",
                    x.len()
                ))
            };
            if self.started {
                self.buf.try_reserve(x.len()).map_err(fail)?;
            } else {
                self.head.try_reserve(x.len()).map_err(fail)?;
                let need = (self.head.len() + self.k.p.pad()).saturating_add(x.len());
                self.buf.try_reserve(need).map_err(fail)?;
            }
            self.total_in = total_in;
            if self.started {
                self.buf.extend_from_slice(x);
            } else {
                self.head.extend_from_slice(x);
                let pad = self.k.p.pad();
                if self.head.len() > pad {
                    self.buf.clear();
                    self.buf.extend((0..pad).map(|i| self.head[pad - i]));
                    self.buf.extend_from_slice(&self.head);
                    // emptied, its room kept (a reset stream needs it again)
                    self.head.clear();
                    self.started = true;
                }
            }
            let got = self.emit(y, ws);
            debug_assert_eq!(got, want);
            Ok(got)
        }
    }

    /// Pads the end, writes the remaining frames to `y` and returns their count. The stream
    /// then accepts no input until [`StftStream::reset`].
    pub fn finish(&mut self, y: &mut [Complex<T>]) -> SkResult<usize> {
        let want = self.finish_frames()?;
        let nf = self.k.p.n_freq();
        assert!(y.len() >= want * nf, "stream output too small");
        let p = self.k.p;
        let pad = p.pad();
        if !self.started {
            // unreachable: finish_frames refused a reflect-padded signal of <= pad samples
            return Err(SkError::Internal("stream never started".into()));
        }
        self.with_ws(|st, ws| {
            st.k.plan.reserve(ws)?;
            if p.center {
                st.buf.try_reserve(pad).map_err(|_| {
                    SkError::Allocation(format!(
                        "out of memory: cannot append the {pad} samples of end padding"
                    ))
                })?;
            }
            st.finish_with(y, want, ws)
        })
    }

    fn finish_with(
        &mut self,
        y: &mut [Complex<T>],
        want: usize,
        ws: &mut Workspace<T>,
    ) -> SkResult<usize> {
        let p = self.k.p;
        let pad = p.pad();
        if p.center {
            match p.pad_mode {
                PadMode::Constant => self.buf.resize(self.buf.len() + pad, T::ZERO),
                PadMode::Reflect => {
                    let l = self.buf.len();
                    for j in 1..=pad {
                        let v = self.buf[l - 1 - j];
                        self.buf.push(v);
                    }
                }
            }
        }
        let got = self.emit(y, ws);
        debug_assert_eq!(got, want);
        self.finished = true;
        Ok(got)
    }

    /// Writes the frames now complete; `ws` holds the plan's scratch (no allocation here).
    fn emit(&mut self, y: &mut [Complex<T>], ws: &mut Workspace<T>) -> usize {
        let p = self.k.p;
        let nf = p.n_freq();
        let plen = self.buf_start + self.buf.len();
        let end = self.frames_upto(plen);
        let count = end - self.next_frame;
        for (i, out) in y[..count * nf].chunks_exact_mut(nf).enumerate() {
            let s = (self.next_frame + i) * p.hop - self.buf_start;
            self.k.frame(&self.buf[s..s + p.n_fft], out, ws);
        }
        self.next_frame = end;
        // keep what the next frame needs, and the last pad + 1 samples for the end reflection
        let keep_from = (self.next_frame * p.hop)
            .min(plen.saturating_sub(p.pad() + 1))
            .max(self.buf_start);
        self.buf.drain(..keep_from - self.buf_start);
        self.buf_start = keep_from;
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::spectral::window::Window;
    use crate::kernels::testutil::Rng;

    fn hann(n: usize) -> Vec<f64> {
        let mut w = vec![0.0; n];
        Window::Hann.fill(true, &mut w).unwrap();
        w
    }

    fn params(n_fft: usize, hop: usize, win: usize, center: bool, pad: PadMode) -> StftParams {
        StftParams {
            n_fft,
            hop,
            win_length: win,
            center,
            pad_mode: pad,
            onesided: true,
            normalized: false,
        }
    }

    #[test]
    fn round_trip_reconstructs() {
        let mut rng = Rng::new(3);
        for (n_fft, hop, win, len) in [(16, 4, 16, 100), (15, 3, 12, 77), (64, 16, 40, 1000)] {
            let p = params(n_fft, hop, win, true, PadMode::Reflect);
            let x = rng.vec_f64(len, 1.0);
            let w = hann(win);
            let frames = p.frames(len).unwrap();
            let mut y = vec![Complex::new(0.0, 0.0); frames * p.n_freq()];
            stft(&x, &w, &p, &mut y).unwrap();
            let mut back = vec![0.0; len];
            istft(&y, frames, &w, &p, &mut back).unwrap();
            for (a, b) in back.iter().zip(&x) {
                assert!((a - b).abs() < 1e-12, "{n_fft} {hop} {win}");
            }
        }
    }

    /// Double frames of lengths the real passes take run in lane groups: every frame, for
    /// every group remainder, side and normalisation, equals the one-frame path bit for bit.
    #[test]
    fn lane_groups_equal_single_frames() {
        let mut rng = Rng::new(5);
        for (n_fft, hop, win) in [(15, 4, 12), (400, 160, 400), (96, 17, 80)] {
            for len in [n_fft, n_fft + 3 * hop, n_fft + 40 * hop + 5] {
                for (onesided, normalized) in [(true, false), (false, true), (true, true)] {
                    let p = StftParams {
                        onesided,
                        normalized,
                        ..params(n_fft, hop, win, true, PadMode::Reflect)
                    };
                    let x = rng.vec_f64(len, 1.0);
                    let w = hann(win);
                    let frames = p.frames(len).unwrap();
                    let nf = p.n_freq();
                    let mut y = vec![Complex::new(0.0, 0.0); frames * nf];
                    stft(&x, &w, &p, &mut y).unwrap();
                    let k = FrameKernel::new(&p, &w).unwrap();
                    assert!(k.plan.row_lanes(2).unwrap().is_some());
                    let (mut ws, mut edge) = k.scratch().unwrap();
                    let mut want = vec![Complex::new(0.0, 0.0); nf];
                    for t in 0..frames {
                        k.frame_at(&x, t, &mut edge, &mut want, &mut ws);
                        assert_eq!(&y[t * nf..(t + 1) * nf], &want[..], "{n_fft} {len} {t}");
                    }
                }
            }
        }
    }

    /// Frames whose window spans the whole frame are windowed by the transform's first pass
    /// where the plan does that (AVX-512, powers of two from 256): every frame equals
    /// windowing into a buffer, the plan's `rfft` and the mirror bit for bit (NaN for NaN), with
    /// NaN/±Inf samples, both sides and normalisations, edge frames included; a shorter window
    /// (zero-padded, not fused) gives the same too.
    #[test]
    fn windowed_frames_equal_windowing_first() {
        fn check<T: FftFloat + PlanCache>(rng: &mut Rng) {
            let f = <T as Float>::from_f64;
            for (n_fft, hop, win) in [
                (256, 64, 256),
                (1024, 256, 1024),
                (4096, 1024, 4096),
                (1024, 256, 1000),
            ] {
                let len = n_fft * 5 + 37;
                let mut x: Vec<T> = rng.vec_f64(len, 1.0).into_iter().map(f).collect();
                x[3 * n_fft] = f(f64::NAN);
                x[4 * n_fft + 1] = f(f64::INFINITY);
                let w: Vec<T> = hann(win).into_iter().map(f).collect();
                for (onesided, normalized) in [(true, false), (false, true)] {
                    let p = StftParams {
                        onesided,
                        normalized,
                        ..params(n_fft, hop, win, true, PadMode::Reflect)
                    };
                    let (frames, nf) = (p.frames(len).unwrap(), p.n_freq());
                    let mut y = vec![Complex::new(T::ZERO, T::ZERO); frames * nf];
                    stft(&x, &w, &p, &mut y).unwrap();
                    let k = FrameKernel::new(&p, &w).unwrap();
                    let mut edge = Vec::new();
                    let mut row = vec![T::ZERO; n_fft];
                    let mut want = vec![Complex::new(T::ZERO, T::ZERO); nf];
                    let h = n_fft / 2 + 1;
                    for t in 0..frames {
                        k.window_into(k.frame_src(&x, t, &mut edge), &mut row);
                        k.plan.rfft(&row, &mut want[..h], k.norm());
                        k.mirror(&mut want);
                        let got = &y[t * nf..(t + 1) * nf];
                        let same = crate::kernels::testutil::same(
                            super::super::fft::as_real(got),
                            super::super::fft::as_real(&want),
                        );
                        assert!(
                            same,
                            "n_fft {n_fft} win {win} frame {t} {onesided} {normalized}"
                        );
                    }
                }
            }
        }
        let mut rng = Rng::new(9);
        check::<f64>(&mut rng);
        check::<f32>(&mut rng);
    }

    /// The padded spans of edge frames equal the padded signal sample by sample, for every
    /// start and length around both ends of short signals, both padding modes.
    #[test]
    fn padded_spans_equal_padded_samples() {
        let mut edge = Vec::new();
        for n in 1..12usize {
            let x: Vec<f64> = (0..n).map(|i| i as f64 + 0.5).collect();
            for len in 1..3 * n + 4 {
                for s in -(n as isize) - 2..2 * n as isize + 2 {
                    for mode in [PadMode::Constant, PadMode::Reflect] {
                        let e = s + len as isize - 1;
                        let ok = mode == PadMode::Constant
                            || (-s < n as isize && e <= 2 * (n as isize - 1));
                        if !ok {
                            continue;
                        }
                        padded_span(&x, s, len, mode, &mut edge);
                        let want: Vec<f64> = (0..len as isize)
                            .map(|i| padded_sample(&x, s + i, mode))
                            .collect();
                        assert_eq!(edge, want, "n {n} s {s} len {len} {mode:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn stream_equals_one_call() {
        let mut rng = Rng::new(4);
        for pad in [PadMode::Reflect, PadMode::Constant] {
            for center in [true, false] {
                let p = params(32, 8, 24, center, pad);
                let x = rng.vec_f64(517, 1.0);
                let w = hann(24);
                let frames = p.frames(x.len()).unwrap();
                let mut want = vec![Complex::new(0.0, 0.0); frames * p.n_freq()];
                stft(&x, &w, &p, &mut want).unwrap();
                let mut s = StftStream::new(&p, &w).unwrap();
                let mut got = Vec::new();
                let mut pos = 0;
                for blk in [1usize, 3, 16, 0, 40, 7, 200, 250] {
                    let b = &x[pos..pos + blk];
                    pos += blk;
                    let mut y = vec![Complex::new(0.0, 0.0); s.push_frames(blk).unwrap() * 17];
                    let n = s.push(b, &mut y).unwrap();
                    got.extend_from_slice(&y[..n * 17]);
                }
                assert_eq!(pos, x.len());
                let mut y = vec![Complex::new(0.0, 0.0); s.finish_frames().unwrap() * 17];
                let n = s.finish(&mut y).unwrap();
                got.extend_from_slice(&y[..n * 17]);
                assert_eq!(got.len(), want.len());
                for (a, b) in got.iter().zip(&want) {
                    assert!((a - b).norm() < 1e-12);
                }
                assert!(s.push_frames(1).is_err());
            }
        }
    }

    #[test]
    fn bad_params() {
        assert!(params(0, 1, 1, true, PadMode::Reflect).check().is_err());
        assert!(params(8, 0, 8, true, PadMode::Reflect).check().is_err());
        assert!(params(8, 9, 8, true, PadMode::Reflect).check().is_err());
        assert!(params(8, 2, 9, true, PadMode::Reflect).check().is_err());
        let p = params(8, 2, 8, true, PadMode::Reflect);
        assert!(p.frames(4).is_err());
        assert_eq!(p.frames(5).unwrap(), 3);
        let p = params(8, 2, 8, false, PadMode::Reflect);
        assert!(p.frames(7).is_err());
        // NOLA: rectangular window of 4 in n_fft 8, hop 4, centre off -> zero envelope edges
        let p = params(8, 4, 4, false, PadMode::Constant);
        let x = vec![Complex::new(1.0, 0.0); 3 * 5];
        let mut y = vec![7.0; 16];
        assert!(istft(&x, 3, &[1.0; 4], &p, &mut y).is_err());
        assert_eq!(y, vec![7.0; 16]);
    }

    /// The lane transforms at every SIMD level: each lane is its frame's scalar transform
    /// (windowed with a short centred window, normalised by 1/√n), bit for bit, at lengths with odd tails of
    /// the tile transposes (n_fft not a multiple of the lane count) and radices 2–5 and generic.
    fn lanes_match_scalar<T: FftFloat + PlanCache>() {
        let mut rng = crate::kernels::testutil::Rng::new(21);
        let l = LaneFrames::<T>::LANES;
        for n_fft in [8usize, 30, 44, 77, 400, 510] {
            let win = n_fft - 3;
            let window: Vec<T> = (0..win)
                .map(|j| <T as Float>::from_f64(0.3 + 0.01 * j as f64))
                .collect();
            let p = StftParams {
                n_fft,
                hop: 1,
                win_length: win,
                center: false,
                pad_mode: PadMode::Reflect,
                onesided: true,
                normalized: true,
            };
            let k = FrameKernel::new(&p, &window).unwrap();
            let (wp, lo, hi) = (k.wp.clone(), k.lo, k.hi);
            assert_eq!((lo, hi), (1, 1 + win));
            // samples outside the window's span are NaN and ±inf: the window zeroes them
            let frames: Vec<Vec<T>> = (0..l)
                .map(|i| {
                    let mut f: Vec<T> = rng
                        .vec_f64(n_fft, 1.0)
                        .into_iter()
                        .map(<T as Float>::from_f64)
                        .collect();
                    f[0] = T::NAN;
                    for (j, v) in f[hi..].iter_mut().enumerate() {
                        *v = <T as Float>::from_f64(if (i + j) % 2 == 0 {
                            f64::INFINITY
                        } else {
                            f64::NEG_INFINITY
                        });
                    }
                    f
                })
                .collect();
            let srcs: Vec<&[T]> = frames.iter().map(|f| &f[..]).collect();
            let lf = LaneFrames::<T>::new(n_fft).unwrap().expect("real passes");
            let s = <T as Float>::from_f64(1.0 / (n_fft as f64).sqrt());
            let nf = n_fft / 2 + 1;
            let passes = RealPasses::<T>::new(n_fft).unwrap();
            for level in crate::simd::available() {
                let mut sc = lf.scratch(n_fft).unwrap();
                let mut pw = vec![T::NAN; nf * l];
                lanes_power_at(level, level, &lf, &k, &srcs, &mut sc.bufs, &mut pw);
                for (i, f) in frames.iter().enumerate() {
                    let mut buf: Vec<T> = (0..n_fft)
                        .map(|j| {
                            if (lo..hi).contains(&j) {
                                f[j] * wp[j]
                            } else {
                                T::ZERO
                            }
                        })
                        .collect();
                    let mut ch = vec![T::ZERO; n_fft];
                    passes.forward(&mut buf, &mut ch);
                    let c: Vec<T> = buf.iter().map(|&v| v * s).collect();
                    for b in 0..nf {
                        let e = if b == 0 {
                            c[0] * c[0]
                        } else if 2 * b == n_fft {
                            c[n_fft - 1] * c[n_fft - 1]
                        } else {
                            c[2 * b - 1] * c[2 * b - 1] + c[2 * b] * c[2 * b]
                        };
                        assert_eq!(
                            pw[b * l + i].to_f64().to_bits(),
                            e.to_f64().to_bits(),
                            "{} {level:?} n_fft {n_fft} lane {i} bin {b}",
                            T::NAME
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn lane_transforms_match_the_scalar_passes_at_every_level() {
        lanes_match_scalar::<f32>();
        lanes_match_scalar::<f64>();
    }
}
