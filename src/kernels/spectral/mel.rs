//! Mel filterbanks equal to `librosa.filters.mel` (HTK or Slaney scale; no or Slaney
//! normalisation), mel spectrograms equal to `librosa.feature.melspectrogram` and dB conversion
//! equal to `librosa.power_to_db`.

use super::fft::Workspace;
use super::fft::{FftFloat, PlanCache, MAX_FFT_LEN};
use super::logtail::{self, LnFast, LogTail};
use super::stft::{FrameKernel, LaneFrames, LaneScratch, StftParams};
use super::Complex;
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::{try_collect, try_copy, try_vec, try_with_capacity};
use crate::kernels::par::{max_threads, par_rows_states, run_parts, threads_for};
use crate::kernels::Float;
use crate::simd::tile::{self, Transposer};
use crate::simd::Level;

/// Filter normalisation (librosa's `norm=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MelNorm {
    /// `norm=None`: triangles peak at 1.
    None,
    /// `norm='slaney'`: each triangle divided by its width in Hz (constant energy per band).
    Slaney,
}

/// librosa's `hz_to_mel`.
pub fn hz_to_mel(f: f64, htk: bool) -> f64 {
    if htk {
        return 2595.0 * (1.0 + f / 700.0).log10();
    }
    let f_sp = 200.0 / 3.0;
    let min_log_hz = 1000.0;
    let min_log_mel = min_log_hz / f_sp;
    let logstep = 6.4f64.ln() / 27.0;
    if f >= min_log_hz {
        min_log_mel + (f / min_log_hz).ln() / logstep
    } else {
        f / f_sp
    }
}

/// librosa's `mel_to_hz`.
pub fn mel_to_hz(m: f64, htk: bool) -> f64 {
    if htk {
        return 700.0 * (10f64.powf(m / 2595.0) - 1.0);
    }
    let f_sp = 200.0 / 3.0;
    let min_log_hz = 1000.0;
    let min_log_mel = min_log_hz / f_sp;
    let logstep = 6.4f64.ln() / 27.0;
    if m >= min_log_mel {
        min_log_hz * (logstep * (m - min_log_mel)).exp()
    } else {
        f_sp * m
    }
}

/// Filterbank parameters (librosa's names). `fmax` of 0 means `sr / 2`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MelParams {
    pub sr: f64,
    pub n_fft: usize,
    pub n_mels: usize,
    pub fmin: f64,
    pub fmax: f64,
    pub htk: bool,
    pub norm: MelNorm,
}

impl MelParams {
    /// Checks `sr > 0`, `n_fft ≥ 1`, `n_mels ≥ 1`, `0 ≤ fmin < fmax`, all finite.
    pub fn check(&self) -> SkResult<()> {
        if !(self.sr.is_normal() && self.sr > 0.0) {
            return Err(SkError::BadArgument(format!(
                "sr = {} must be a positive normal number (finite, > 0)",
                self.sr
            )));
        }
        if self.n_fft == 0 {
            return Err(SkError::Length("n_fft = 0".into()));
        }
        if self.n_mels == 0 {
            return Err(SkError::Length("n_mels = 0".into()));
        }
        if self.n_fft > MAX_FFT_LEN || self.n_mels.saturating_mul(self.n_freq()) > MAX_FFT_LEN {
            return Err(SkError::Length(format!(
                "n_fft = {} with n_mels = {} exceeds the supported size (n_fft and \
                 n_mels × (n_fft/2+1) at most {MAX_FFT_LEN})",
                self.n_fft, self.n_mels
            )));
        }
        let fmax = self.fmax_hz();
        if !(self.fmin.is_finite() && fmax.is_finite() && self.fmin >= 0.0 && self.fmin < fmax) {
            return Err(SkError::BadArgument(format!(
                "need finite 0 <= fmin < fmax, got fmin = {}, fmax = {} (0 means sr/2)",
                self.fmin, self.fmax
            )));
        }
        Ok(())
    }

    pub fn fmax_hz(&self) -> f64 {
        if self.fmax == 0.0 {
            self.sr / 2.0
        } else {
            self.fmax
        }
    }

    pub fn n_freq(&self) -> usize {
        self.n_fft / 2 + 1
    }

    /// The `(n_mels, n_fft/2+1)` weights, row-major, as `librosa.filters.mel(dtype=float64)`.
    pub fn filterbank(&self) -> SkResult<Vec<f64>> {
        self.check()?;
        let nf = self.n_freq();
        let m = self.n_mels;
        // mel_frequencies: linspace in mel, back to Hz (numpy linspace arithmetic)
        let lo = hz_to_mel(self.fmin, self.htk);
        let hi = hz_to_mel(self.fmax_hz(), self.htk);
        let num = m + 2;
        let step = (hi - lo) / (num - 1) as f64;
        let mel_f = try_collect(
            (0..num).map(|i| {
                let v = if i == num - 1 {
                    hi
                } else {
                    i as f64 * step + lo
                };
                mel_to_hz(v, self.htk)
            }),
            "the mel band edges",
        )?;
        // rfftfreq: k * (1 / (n_fft * d)) with d = 1/sr
        let val = 1.0 / (self.n_fft as f64 * (1.0 / self.sr));
        let fftfreqs = try_collect((0..nf).map(|k| k as f64 * val), "the FFT bin frequencies")?;
        let mut w = try_vec(m * nf, 0.0, "the mel filterbank")?;
        for i in 0..m {
            let d0 = mel_f[i + 1] - mel_f[i];
            let d1 = mel_f[i + 2] - mel_f[i + 1];
            let enorm = match self.norm {
                MelNorm::None => None,
                MelNorm::Slaney => Some(2.0 / (mel_f[i + 2] - mel_f[i])),
            };
            for (k, &f) in fftfreqs.iter().enumerate() {
                let lower = -(mel_f[i] - f) / d0;
                let upper = (mel_f[i + 2] - f) / d1;
                let mut v = 0.0f64.max(lower.min(upper));
                if let Some(e) = enorm {
                    v *= e;
                }
                w[i * nf + k] = v;
            }
        }
        if let Some(i) = w.iter().position(|v| !v.is_finite()) {
            return Err(SkError::BadArgument(format!(
                "sr = {}, fmin = {}, fmax = {}: filter {} bin {} of the filterbank is {}; the \
                 parameters are too extreme to be represented in double precision",
                self.sr,
                self.fmin,
                self.fmax,
                i / nf,
                i % nf,
                w[i]
            )));
        }
        Ok(w)
    }
}

/// librosa's `power_to_db(S, ref, amin, top_db)` in place: `10·log10(max(amin, S))
/// − 10·log10(max(amin, |ref|))`, then floored at `max − top_db` (`top_db = +inf`: no floor).
/// Computed in the data's precision (see [`super::logtail`]): one logarithm pass that also finds
/// the maximum, then one clamp pass.
pub fn power_to_db<T: LnFast>(y: &mut [T], reference: f64, amin: f64, top_db: f64) -> SkResult<()> {
    let tail = LogTail::db(reference, amin, top_db)?;
    logtail::apply(y, &tail);
    Ok(())
}

/// Validates power_to_db's parameters: finite ref, finite amin > 0, top_db ≥ 0 (+inf allowed).
pub fn check_db(reference: f64, amin: f64, top_db: f64) -> SkResult<()> {
    if !(amin.is_finite() && amin > 0.0) {
        return Err(SkError::BadArgument(format!(
            "amin = {amin} must be finite and positive"
        )));
    }
    if !reference.is_finite() {
        return Err(SkError::BadArgument(format!(
            "ref = {reference} must be finite"
        )));
    }
    if top_db.is_nan() || top_db < 0.0 {
        return Err(SkError::BadArgument(format!(
            "top_db = {top_db} must be >= 0 (+inf disables the floor)"
        )));
    }
    Ok(())
}

/// A mel-spectrogram plan: STFT parameters, window, power and the filterbank (stored sparsely as
/// each filter's non-zero run of bins).
pub struct MelPlan<T: FftFloat> {
    pub stft: StftParams,
    pub mel: MelParams,
    pub power: f64,
    window: Vec<T>,
    filters: Vec<(usize, Vec<T>)>,
    /// Full-width tiles at lengths the real passes take: the tile's frames transformed in SIMD
    /// lanes.
    lanes: Option<LaneFrames<T>>,
}

impl<T: LnFast + PlanCache> MelPlan<T> {
    /// `stft.n_fft` must equal `mel.n_fft`; `stft.onesided` is forced true; `power > 0` finite.
    pub fn new(stft: StftParams, mel: MelParams, power: f64, window: &[T]) -> SkResult<Self> {
        stft.check()?;
        mel.check()?;
        if !(power.is_finite() && power > 0.0) {
            return Err(SkError::BadArgument(format!(
                "power = {power} must be finite and positive"
            )));
        }
        assert_eq!(stft.n_fft, mel.n_fft, "mel/stft n_fft");
        assert_eq!(window.len(), stft.win_length, "window length");
        let nf = mel.n_freq();
        let w = mel.filterbank()?;
        let mut filters = try_with_capacity(mel.n_mels, "the mel filters")?;
        for row in w.chunks_exact(nf) {
            let a = row.iter().position(|&v| v != 0.0).unwrap_or(0);
            let b = row.iter().rposition(|&v| v != 0.0).map_or(a, |b| b + 1);
            let band = row[a..b].iter().map(|&v| <T as Float>::from_f64(v));
            filters.push((a, try_collect(band, "the mel filters")?));
        }
        let lanes = if tile_frames_for::<T>(mel.n_freq()) == lanes_of::<T>() {
            LaneFrames::new(stft.n_fft)?
        } else {
            None
        };
        Ok(MelPlan {
            lanes,
            stft: StftParams {
                onesided: true,
                ..stft
            },
            mel,
            power,
            window: try_copy(window, "the plan's window")?,
            filters,
        })
    }

    /// Frames for an `n`-sample signal.
    pub fn frames(&self, n: usize) -> SkResult<usize> {
        self.stft.frames(n)
    }

    /// Mel spectrogram of `x` into `y` (`n_mels × frames`, row-major, librosa's shape);
    /// `y.len()` must be exactly `n_mels * frames`.
    pub fn melspec(&self, x: &[T], y: &mut [T]) -> SkResult<()> {
        let frames = self.frames(x.len())?;
        self.melspec_raw(x, y, frames, None).map(|_| ())
    }

    /// As [`MelPlan::melspec`], followed by `power_to_db(ref, amin, top_db)` when `db` is given
    /// (the logarithms are taken per frame on the worker threads; the top_db floor after).
    pub fn melspec_db(&self, x: &[T], y: &mut [T], db: Option<(f64, f64, f64)>) -> SkResult<()> {
        let frames = self.frames(x.len())?;
        let tail = match db {
            Some((r, a, t)) => Some(LogTail::db(r, a, t)?),
            None => None,
        };
        let (mx, nan) = self.melspec_raw(x, y, frames, tail.as_ref())?;
        if let Some(f) = tail.and_then(|t| t.floor(mx, nan)) {
            logtail::floor_slice(y, f);
        }
        Ok(())
    }

    /// One frame's `|X|^power` from its spectrum `s`, bin by bin into the values `d` yields.
    #[inline]
    fn power_into<'a>(&self, s: &[Complex<T>], d: impl Iterator<Item = &'a mut T>) {
        let power = self.power;
        if power == 2.0 {
            for (d, c) in d.zip(s) {
                *d = c.re * c.re + c.im * c.im;
            }
        } else {
            for (d, c) in d.zip(s) {
                *d = self.raise_power2(c.re * c.re + c.im * c.im);
            }
        }
    }

    /// `|X|^power` from `|X|²` (for `power ≠ 2`): the magnitude in `f64`, then the power.
    #[inline]
    fn raise_power2(&self, e: T) -> T {
        let m = e.to_f64().sqrt();
        <T as Float>::from_f64(if self.power == 1.0 {
            m
        } else {
            m.powf(self.power)
        })
    }

    /// Frames per tile: [`lanes_of`] (one 64-byte line of frames per bin of the power tile),
    /// fewer when the bin-major power tile (`n_freq × frames`) would pass [`TILE_BYTES`] (very
    /// long FFTs), at least 1.
    fn tile_frames(&self) -> usize {
        tile_frames_for::<T>(self.stft.n_freq())
    }

    /// Bins per power row, rounded up to whole transpose tiles.
    fn padded_bins(&self) -> usize {
        self.stft.n_freq().next_multiple_of(lanes_of::<T>())
    }

    /// The scratch of one thread: FFT workspace and edge frame, a spectrum, the frame-major and
    /// bin-major power tiles and the mel-major tile of [`MelPlan::tile_frames`] frames.
    fn scratch(&self, k: &FrameKernel<T>) -> SkResult<Scratch<T>> {
        let nf = self.stft.n_freq();
        let tf = self.tile_frames();
        let full = tf == lanes_of::<T>();
        let nfp = self.padded_bins();
        let lanes = match &self.lanes {
            Some(lf) => Some(lf.scratch(self.stft.n_fft)?),
            None => None,
        };
        Ok(Scratch {
            lanes,
            fk: k.scratch()?,
            spec: try_vec(nf, Complex::new(T::ZERO, T::ZERO), "a frame's spectrum")?,
            rows: try_vec(
                if full && self.lanes.is_none() {
                    nfp * tf
                } else {
                    0
                },
                T::ZERO,
                "a tile of power spectra",
            )?,
            pw: try_vec(
                if full { nfp * tf } else { nf * tf },
                T::ZERO,
                "a tile of power spectra",
            )?,
            tile: try_vec(tf * self.mel.n_mels, T::ZERO, "a tile of mel frames")?,
        })
    }

    /// Frames `t0 .. t0 + count` (`count ≤ tile_frames`) of `x` into `sc.tile`, mel-major (mel
    /// `m` of frame `i` at `tile[m·tile_frames + i]`), through `tail`'s logarithm if given;
    /// returns the largest value written and whether any was NaN (with `tail`). Full-width
    /// tiles transform their frames in SIMD lanes ([`LaneFrames`]) where the real passes take
    /// the length, else write each frame's power as a row and transpose the rows in square
    /// tiles; narrow tiles (very long FFTs) write the columns directly.
    fn tile(
        &self,
        k: &FrameKernel<T>,
        x: &[T],
        t0: usize,
        count: usize,
        tail: Option<&LogTail>,
        sc: &mut Scratch<T>,
    ) -> (f64, bool) {
        let tf = self.tile_frames();
        let (ws, edge) = &mut sc.fk;
        let level = crate::simd::current();
        if let (Some(lf), Some(ls)) = (&self.lanes, &mut sc.lanes) {
            lf.power2(k, x, t0, count, ls, &mut sc.pw);
            if self.power != 2.0 {
                let nf = self.stft.n_freq();
                for v in sc.pw[..nf * tf].iter_mut() {
                    *v = self.raise_power2(*v);
                }
            }
        } else if tf == lanes_of::<T>() {
            let nfp = self.padded_bins();
            for (i, row) in sc.rows.chunks_exact_mut(nfp).take(count).enumerate() {
                k.frame_at(x, t0 + i, edge, &mut sc.spec, ws);
                self.power_into(&sc.spec, row.iter_mut());
            }
            transpose_rows_at(level, level, &sc.rows, nfp, &mut sc.pw);
        } else {
            for i in 0..count {
                k.frame_at(x, t0 + i, edge, &mut sc.spec, ws);
                self.power_into(&sc.spec, sc.pw[i..].iter_mut().step_by(tf));
            }
        }
        bank_at(level, &sc.pw, tf, count, &self.filters, &mut sc.tile);
        match tail {
            None => (f64::NEG_INFINITY, false),
            Some(t) if count == tf => logtail::log_pass(&mut sc.tile, t),
            Some(t) => sc
                .tile
                .chunks_exact_mut(tf)
                .map(|row| logtail::log_pass(&mut row[..count], t))
                .fold((f64::NEG_INFINITY, false), |a, r| (a.0.max(r.0), a.1 | r.1)),
        }
    }

    /// Frames `t0 .. t0 + cols[0].len()` of `x` written straight into the mel-major output:
    /// `cols[m]` is mel row `m`'s part for these frames. Tiles of [`TILE`] frames stay in cache
    /// between the FFT and the transposed store.
    fn columns(
        &self,
        k: &FrameKernel<T>,
        x: &[T],
        t0: usize,
        cols: &mut [&mut [T]],
        tail: Option<&LogTail>,
        sc: &mut Scratch<T>,
    ) -> (f64, bool) {
        let tf = self.tile_frames();
        let len = cols.first().map_or(0, |c| c.len());
        let mut st = (f64::NEG_INFINITY, false);
        for j0 in (0..len).step_by(tf) {
            let count = tf.min(len - j0);
            let r = self.tile(k, x, t0 + j0, count, tail, sc);
            st = (st.0.max(r.0), st.1 | r.1);
            for (col, row) in cols.iter_mut().zip(sc.tile.chunks_exact(tf)) {
                copy_run(&mut col[j0..j0 + count], &row[..count]);
            }
        }
        st
    }

    /// As [`MelPlan::columns`] for a whole signal into `y` (`n_mels × frames_out`, contiguous).
    fn signal(
        &self,
        k: &FrameKernel<T>,
        x: &[T],
        y: &mut [T],
        frames_out: usize,
        tail: Option<&LogTail>,
        sc: &mut Scratch<T>,
    ) -> (f64, bool) {
        let tf = self.tile_frames();
        let mut st = (f64::NEG_INFINITY, false);
        for j0 in (0..frames_out).step_by(tf) {
            let count = tf.min(frames_out - j0);
            let r = self.tile(k, x, j0, count, tail, sc);
            st = (st.0.max(r.0), st.1 | r.1);
            for (yrow, row) in y.chunks_exact_mut(frames_out).zip(sc.tile.chunks_exact(tf)) {
                copy_run(&mut yrow[j0..j0 + count], &row[..count]);
            }
        }
        st
    }

    /// The first `frames_out` frames (at most [`MelPlan::frames`]) of the mel spectrogram of
    /// `x` into `y` (`n_mels × frames_out`), each value put through `tail`'s logarithm if given
    /// (no floor: the caller floors, per signal or over a batch). Frames are split across
    /// threads, each thread writing its range of columns of `y` directly. Returns the largest
    /// value written and whether any was NaN (the floor's inputs; found in the logarithm pass).
    pub fn melspec_raw(
        &self,
        x: &[T],
        y: &mut [T],
        frames_out: usize,
        tail: Option<&LogTail>,
    ) -> SkResult<(f64, bool)> {
        let frames = self.frames(x.len())?;
        let nm = self.mel.n_mels;
        assert!(frames_out <= frames, "frames_out above the frame count");
        assert_eq!(y.len(), nm * frames_out, "melspec output length");
        if frames_out == 0 {
            return Ok((f64::NEG_INFINITY, false));
        }
        let k = FrameKernel::new(&self.stft, &self.window)?;
        let work = frames_out.saturating_mul(self.stft.n_fft).saturating_mul(4);
        let threads = threads_for(frames_out, work);
        if threads <= 1 {
            let mut sc = self.scratch(&k)?;
            return Ok(self.signal(&k, x, y, frames_out, tail, &mut sc));
        }
        // each part owns frames [t0, t1): its piece of every mel row; everything allocated
        // before the first write
        let per = frames_out.div_ceil(threads);
        let nparts = frames_out.div_ceil(per);
        let mut parts = try_with_capacity(nparts, "the thread parts")?;
        for p in 0..nparts {
            parts.push((
                p * per,
                try_with_capacity::<&mut [T]>(nm, "a part's mel rows")?,
                self.scratch(&k)?,
                (f64::NEG_INFINITY, false),
            ));
        }
        for row in y.chunks_exact_mut(frames_out) {
            let mut rest = row;
            for part in parts.iter_mut() {
                let take = per.min(rest.len());
                let (head, tail) = std::mem::take(&mut rest).split_at_mut(take);
                part.1.push(head);
                rest = tail;
            }
        }
        run_parts(parts.iter_mut().collect(), |(t0, cols, sc, st)| {
            *st = self.columns(&k, x, *t0, cols, tail, sc);
        });
        Ok(parts.iter().fold((f64::NEG_INFINITY, false), |a, p| {
            (a.0.max(p.3 .0), a.1 | p.3 .1)
        }))
    }

    /// `rows` signals of `n` samples, signal `r` at `x[r·xst..][..n]`, each as
    /// [`MelPlan::melspec_raw`] into `y` (`rows × n_mels × frames_out`), then floored per signal
    /// (`per_row`) or at the whole batch's maximum when `tail` has a floor. With at least as
    /// many signals as threads, whole signals are split across threads (each signal's frames
    /// in cache from its STFT to its floor); otherwise each signal's frames are. Results do not
    /// depend on the split. All scratch is allocated before `y` is written.
    #[allow(clippy::too_many_arguments)]
    pub fn melspec_batch(
        &self,
        x: &[T],
        xst: usize,
        rows: usize,
        n: usize,
        frames_out: usize,
        tail: Option<&LogTail>,
        per_row: bool,
        y: &mut [T],
    ) -> SkResult<()> {
        let frames = self.frames(n)?;
        let nm = self.mel.n_mels;
        assert!(frames_out <= frames, "frames_out above the frame count");
        let per = nm * frames_out;
        assert_eq!(y.len(), rows * per, "melspec batch output length");
        if rows == 0 || per == 0 {
            return Ok(());
        }
        assert!(x.len() >= (rows - 1) * xst + n, "melspec batch input span");
        let clip = |r: usize| &x[r * xst..r * xst + n];
        let floor_clip = |yc: &mut [T], (mx, nan): (f64, bool)| {
            if let Some(f) = tail.and_then(|t| t.floor(mx, nan)) {
                logtail::floor_slice(yc, f);
            }
        };
        let work = rows
            .saturating_mul(frames_out)
            .saturating_mul(self.stft.n_fft)
            .saturating_mul(4);
        let stats: Vec<(f64, bool)> = if split_frames(rows, frames_out, work) {
            // fewer signals than threads: each signal's frames are split
            let mut stats = try_with_capacity(rows, "the signals' maxima")?;
            for (r, yc) in y.chunks_exact_mut(per).enumerate() {
                let st = self.melspec_raw(clip(r), yc, frames_out, tail)?;
                if per_row {
                    floor_clip(yc, st);
                }
                stats.push(st);
            }
            stats
        } else {
            let k = FrameKernel::new(&self.stft, &self.window)?;
            let make = || -> SkResult<_> { Ok((self.scratch(&k)?, (f64::NEG_INFINITY, false))) };
            par_rows_states(y, per, work, make, |(sc, acc), first, chunk| {
                for (i, yc) in chunk.chunks_exact_mut(per).enumerate() {
                    let st = self.signal(&k, clip(first + i), yc, frames_out, tail, sc);
                    if per_row {
                        floor_clip(yc, st);
                    }
                    *acc = (acc.0.max(st.0), acc.1 | st.1);
                }
            })?
            .into_iter()
            .map(|s| s.1)
            .collect()
        };
        if !per_row {
            let all = stats
                .iter()
                .fold((f64::NEG_INFINITY, false), |a, p| (a.0.max(p.0), a.1 | p.1));
            floor_clip(y, all);
        }
        Ok(())
    }
}

/// `dst.copy_from_slice(src)`, with the full tile widths as fixed-size copies: a tile's mel
/// rows go out as 64-byte runs, inlined moves instead of a `memmove` call each.
#[inline(always)]
fn copy_run<T: Copy>(dst: &mut [T], src: &[T]) {
    // (a `match` on the length folds back into one `memmove` of a computed size)
    if let (Ok(d), Ok(s)) = (
        <&mut [T; 16]>::try_from(&mut *dst),
        <&[T; 16]>::try_from(src),
    ) {
        *d = *s;
    } else if let (Ok(d), Ok(s)) = (<&mut [T; 8]>::try_from(&mut *dst), <&[T; 8]>::try_from(src)) {
        *d = *s;
    } else {
        dst.copy_from_slice(src);
    }
}

/// Frames per full tile of the mel path: as many as fill 64 bytes (16 `f32`, 8 `f64`), so
/// each bin of the bin-major power tile is one cache line and the filterbank runs across the
/// frames in SIMD lanes.
const fn lanes_of<T>() -> usize {
    64 / std::mem::size_of::<T>()
}

/// Upper bound on one thread's bin-major power tile, in bytes (L2-resident).
const TILE_BYTES: usize = 256 << 10;

/// Frames per tile for spectra of `n_freq` bins: [`lanes_of`], fewer when the bin-major power
/// tile would pass [`TILE_BYTES`], at least 1.
fn tile_frames_for<T>(n_freq: usize) -> usize {
    let col = n_freq * std::mem::size_of::<T>();
    (TILE_BYTES / col.max(1)).clamp(1, lanes_of::<T>())
}

/// One thread's scratch for the mel path.
struct Scratch<T: FftFloat> {
    fk: (Workspace<T>, Vec<T>),
    spec: Vec<Complex<T>>,
    /// frame-major power rows of padded length (full tiles without lane transforms only)
    rows: Vec<T>,
    /// bin-major power tile
    pw: Vec<T>,
    /// the lane transforms' buffers (plans with [`LaneFrames`])
    lanes: Option<LaneScratch<T>>,
    tile: Vec<T>,
}

/// `L` rows of `nfp` values (`nfp` a multiple of `L`) into `nfp` rows of `L`: `out[k·L + i] =
/// rows[i·nfp + k]`, in square `L × L` tiles with the level's shuffle sequences.
#[inline(always)]
fn transpose_rows<T: Copy + 'static, X: Transposer, const L: usize>(
    tr: X,
    rows: &[T],
    nfp: usize,
    out: &mut [T],
) {
    let (Some(&z), true) = (rows.first(), nfp.is_multiple_of(L)) else {
        return;
    };
    let mut a = [[z; L]; L];
    let mut o = [[z; L]; L];
    for kb in (0..nfp).step_by(L) {
        for (i, r) in a.iter_mut().enumerate() {
            r.copy_from_slice(&rows[i * nfp + kb..][..L]);
        }
        tr.transpose(&a, &mut o);
        for (j, r) in o.iter().enumerate() {
            out[(kb + j) * L..][..L].copy_from_slice(r);
        }
    }
}

/// [`transpose_rows`] with `L = lanes_of::<T>()` and the transposes of level `lv`.
#[inline(always)]
fn transpose_rows_body<T: Float>(lv: Level, rows: &[T], nfp: usize, out: &mut [T]) {
    tile::with_transposer!(lv, |tr| match lanes_of::<T>() {
        16 => transpose_rows::<T, _, 16>(tr, rows, nfp, out),
        8 => transpose_rows::<T, _, 8>(tr, rows, nfp, out),
        l => unreachable!("{l} lanes"),
    })
}

crate::simd::multiversion! {
    /// [`transpose_rows_body`] compiled at a SIMD level.
    fn transpose_rows_at<T: Float>(lv: Level, rows: &[T], nfp: usize, out: &mut [T]) -> ();
    scalar = transpose_rows_body; simd = transpose_rows_body;
}

/// The sparse filterbank on a tile of `count` frames: `pw` is bin-major (bin `k` of frame `i`
/// at `pw[k·stride + i]`), `out` mel-major with the same stride; filter `m` is its first bin and
/// its run of weights. Each output is `0 + w₀·p₀ + w₁·p₁ + …` in bin order (no fused
/// multiply-add), the same sum at every SIMD level and for every tile split.
#[inline(always)]
fn bank_body<T: Float>(
    pw: &[T],
    stride: usize,
    count: usize,
    filters: &[(usize, Vec<T>)],
    out: &mut [T],
) {
    if count == stride {
        // full tiles: the accumulators stay in registers
        match stride {
            16 => return bank_full::<T, 16>(pw, filters, out),
            8 => return bank_full::<T, 8>(pw, filters, out),
            _ => {}
        }
    }
    for ((a, wts), o) in filters.iter().zip(out.chunks_exact_mut(stride)) {
        let o = &mut o[..count];
        o.fill(T::ZERO);
        for (j, &w) in wts.iter().enumerate() {
            let p = &pw[(a + j) * stride..][..count];
            for (d, &v) in o.iter_mut().zip(p) {
                *d = *d + w * v;
            }
        }
    }
}

/// [`bank_body`] on full tiles of `L` frames, with the same sums.
#[inline(always)]
fn bank_full<T: Float, const L: usize>(pw: &[T], filters: &[(usize, Vec<T>)], out: &mut [T]) {
    for ((a, wts), o) in filters.iter().zip(out.chunks_exact_mut(L)) {
        let mut acc = [T::ZERO; L];
        for (&w, p) in wts.iter().zip(pw[a * L..].chunks_exact(L)) {
            for (d, &v) in acc.iter_mut().zip(p) {
                *d = *d + w * v;
            }
        }
        o.copy_from_slice(&acc);
    }
}

crate::simd::multiversion! {
    /// [`bank_body`] at a SIMD level.
    fn bank_at<T: Float>(
        pw: &[T],
        stride: usize,
        count: usize,
        filters: &[(usize, Vec<T>)],
        out: &mut [T],
    ) -> ();
    scalar = bank_body; simd = bank_body;
}

/// Whether a batch of `rows` signals splits each signal's frames across threads (fewer signals
/// than threads and enough frames and work) rather than whole signals.
fn split_frames(rows: usize, frames_out: usize, work: usize) -> bool {
    rows < max_threads() && threads_for(rows.saturating_mul(frames_out), work) > 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mel_scale_round_trips_and_known_points() {
        for htk in [false, true] {
            for f in [0.0, 100.0, 999.0, 1000.0, 1001.0, 8000.0, 22050.0] {
                let back = mel_to_hz(hz_to_mel(f, htk), htk);
                assert!((back - f).abs() < 1e-9 * f.max(1.0));
            }
        }
        assert!((hz_to_mel(1000.0, false) - 15.0).abs() < 1e-12);
        assert!((hz_to_mel(700.0, true) - 2595.0 * 2f64.log10()).abs() < 1e-12);
    }

    /// The Whisper recipe in plain f64 (naive DFT of each reflect-padded frame, the filterbank
    /// as a dense product, log10 tail with the floor at each signal's maximum).
    fn whisper_reference(x: &[f32], nm: usize, frames_out: usize) -> Vec<f64> {
        let (n_fft, hop, pad) = (400usize, 160usize, 200isize);
        let mp = whisper_mel(nm);
        let fb = mp.filterbank().unwrap();
        let nf = n_fft / 2 + 1;
        let n = x.len() as isize;
        let w: Vec<f64> = (0..n_fft)
            .map(|i| 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / n_fft as f64).cos())
            .collect();
        let cs: Vec<(f64, f64)> = (0..n_fft)
            .map(|i| (2.0 * std::f64::consts::PI * i as f64 / n_fft as f64).sin_cos())
            .map(|(s, c)| (c, s))
            .collect();
        let mut out = vec![0.0; nm * frames_out];
        for t in 0..frames_out {
            let seg: Vec<f64> = (0..n_fft as isize)
                .map(|i| {
                    let j = (t * hop) as isize + i - pad;
                    let j = if j < 0 {
                        -j
                    } else if j >= n {
                        2 * (n - 1) - j
                    } else {
                        j
                    };
                    x[j as usize] as f64 * w[i as usize]
                })
                .collect();
            let pw: Vec<f64> = (0..nf)
                .map(|k| {
                    let (mut re, mut im) = (0.0, 0.0);
                    for (j, v) in seg.iter().enumerate() {
                        let (c, s) = cs[(k * j) % n_fft];
                        re += v * c;
                        im -= v * s;
                    }
                    re * re + im * im
                })
                .collect();
            for m in 0..nm {
                let v: f64 = (0..nf).map(|k| fb[m * nf + k] * pw[k]).sum();
                out[m * frames_out + t] = v.max(1e-10).log10();
            }
        }
        let mx = out.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        out.iter().map(|&l| (l.max(mx - 8.0) + 4.0) / 4.0).collect()
    }

    fn whisper_mel(nm: usize) -> MelParams {
        MelParams {
            sr: 16000.0,
            n_fft: 400,
            n_mels: nm,
            fmin: 0.0,
            fmax: 0.0,
            htk: false,
            norm: MelNorm::Slaney,
        }
    }

    fn whisper_plan(nm: usize) -> MelPlan<f32> {
        let stft = StftParams {
            n_fft: 400,
            hop: 160,
            win_length: 400,
            center: true,
            pad_mode: super::super::stft::PadMode::Reflect,
            onesided: true,
            normalized: false,
        };
        let w: Vec<f32> = (0..400)
            .map(|i| (0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / 400.0).cos()) as f32)
            .collect();
        MelPlan::new(stft, whisper_mel(nm), 2.0, &w).unwrap()
    }

    /// Batches of 1 and 3 signals (frame split and signal split over threads, tiles with a
    /// partial last one), per-signal and batch floors, against the f64 recipe; and the batch
    /// floor equals flooring the per-signal raw values at the batch's maximum.
    #[test]
    fn whisper_batches_match_the_f64_recipe() {
        let mut rng = crate::kernels::testutil::Rng::new(5);
        let n = 60_037; // 376 frames, the last one dropped: 375 kept, 5 tiles plus 55
        let tail = LogTail::log10(1e-10, 0.25, 1.0, 8.0).unwrap();
        for (nm, rows) in [(80usize, 1usize), (80, 3), (128, 2)] {
            let plan = whisper_plan(nm);
            let frames_out = plan.frames(n).unwrap() - 1;
            let per = nm * frames_out;
            {
                // rows at a stride of n + 5, each at its own loudness
                let xst = n + 5;
                let mut x = rng.vec_f32((rows - 1) * xst + n, 0.1);
                for r in 0..rows {
                    for v in &mut x[r * xst..r * xst + n] {
                        *v *= (r + 1) as f32;
                    }
                }
                let mut y = vec![f32::NAN; rows * per];
                plan.melspec_batch(&x, xst, rows, n, frames_out, Some(&tail), true, &mut y)
                    .unwrap();
                for r in 0..rows {
                    let want = whisper_reference(&x[r * xst..r * xst + n], nm, frames_out);
                    for (i, (&g, &w)) in y[r * per..(r + 1) * per].iter().zip(&want).enumerate() {
                        assert!(
                            (g as f64 - w).abs() < 2e-4,
                            "nm {nm} rows {rows} signal {r} value {i}: {g} vs {w}"
                        );
                    }
                }
                // one floor over the batch: the raw values floored at the batch maximum
                let mut yb = vec![f32::NAN; rows * per];
                plan.melspec_batch(&x, xst, rows, n, frames_out, Some(&tail), false, &mut yb)
                    .unwrap();
                let mut raw = vec![0.0f32; rows * per];
                let notail = LogTail::log10(1e-10, 0.25, 1.0, f64::INFINITY).unwrap();
                plan.melspec_batch(&x, xst, rows, n, frames_out, Some(&notail), true, &mut raw)
                    .unwrap();
                let mx = raw.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
                for (a, b) in yb.iter().zip(&raw) {
                    assert_eq!(*a, b.max(mx - 2.0));
                }
            }
        }
    }

    #[test]
    fn db_floor_and_bad_args() {
        let mut y = [1.0f64, 10.0, 1e-20, 100.0];
        power_to_db(&mut y, 1.0, 1e-10, 15.0).unwrap();
        for (a, b) in y.iter().zip([5.0, 10.0, 5.0, 20.0]) {
            assert!((a - b).abs() < 1e-13, "{y:?}");
        }
        let mut z = [1.0f64];
        assert!(power_to_db(&mut z, 1.0, 0.0, 80.0).is_err());
        assert!(power_to_db(&mut z, f64::NAN, 1e-10, 80.0).is_err());
        assert!(power_to_db(&mut z, 1.0, 1e-10, -1.0).is_err());
        assert_eq!(z, [1.0]);
    }

    /// The filterbank on a tile at every SIMD level: the scalar body's bits, for tiles of every
    /// width up to the stride, with filters at the first and last bins.
    #[test]
    fn bank_levels_match_the_scalar_body() {
        let mut rng = crate::kernels::testutil::Rng::new(11);
        let (nf, stride) = (37usize, 16usize);
        let pw = rng.vec_f32(nf * stride, 3.0);
        let filters: Vec<(usize, Vec<f32>)> = [(0usize, 1usize), (0, 5), (3, 9), (30, 7), (36, 1)]
            .iter()
            .map(|&(a, len)| (a, rng.vec_f32(len, 1.0)))
            .collect();
        for count in 1..=stride {
            let mut want = vec![f32::NAN; filters.len() * stride];
            bank_body(&pw, stride, count, &filters, &mut want);
            for (m, (a, w)) in filters.iter().enumerate() {
                for i in 0..count {
                    let s = w
                        .iter()
                        .enumerate()
                        .fold(0.0f32, |s, (j, &wj)| s + wj * pw[(a + j) * stride + i]);
                    assert_eq!(want[m * stride + i].to_bits(), s.to_bits());
                }
            }
            for level in crate::simd::available() {
                let mut got = vec![f32::NAN; filters.len() * stride];
                bank_at(level, &pw, stride, count, &filters, &mut got);
                for m in 0..filters.len() {
                    let r = m * stride..m * stride + count;
                    let same = got[r.clone()]
                        .iter()
                        .zip(&want[r])
                        .all(|(g, w)| g.to_bits() == w.to_bits());
                    assert!(same, "{level:?} count {count} filter {m}");
                }
            }
        }
    }

    /// The tiled mel path gives each frame's own sum bit for bit. Plans with lane transforms
    /// (frames in SIMD lanes) against a one-frame-at-a-time reference written here: the
    /// padded, windowed frame, the scalar real passes, the normalisation, `re² + im²`; the
    /// others (a Bluestein length with full tiles: power rows transposed in tiles; very long
    /// FFTs: one frame per tile, strided power) against the STFT. Then the plan's sparse filters
    /// summed in bin order. f32 (16-frame tiles) and f64 (8), full and partial tiles, power 1
    /// and 2, short windows (`win_length < n_fft`), constant padding, no centring, `normalized`.
    fn per_frame_sums<T: LnFast + PlanCache>(seed: u64) {
        use super::super::fft::RealPasses;
        use super::super::stft::PadMode;
        let mut rng = crate::kernels::testutil::Rng::new(seed);
        #[rustfmt::skip]
        let cases = [
            // n_fft, hop, win_length, center, pad, normalized, n, power
            (400usize, 160usize, 400usize, true, PadMode::Reflect, false, 16_000usize, 2.0),
            (400, 100, 300, true, PadMode::Constant, true, 3_000, 1.0),
            (400, 160, 400, false, PadMode::Reflect, false, 2_417, 2.0),
            (512, 128, 511, true, PadMode::Reflect, false, 5_003, 0.5),
            (1009, 256, 1009, true, PadMode::Reflect, false, 9_000, 2.0),
            (1 << 15, 1 << 13, 1 << 15, true, PadMode::Reflect, false, 70_000, 2.0),
            (1 << 17, 1 << 15, 1 << 17, true, PadMode::Reflect, false, 140_000, 2.0),
        ];
        for (n_fft, hop, win, center, pad_mode, normalized, n, power) in cases {
            let stft = StftParams {
                n_fft,
                hop,
                win_length: win,
                center,
                pad_mode,
                onesided: true,
                normalized,
            };
            let mel = MelParams {
                n_fft,
                n_mels: 40,
                ..whisper_mel(40)
            };
            let w: Vec<T> = (0..win)
                .map(|i| 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / win as f64).cos())
                .map(<T as Float>::from_f64)
                .collect();
            let plan = MelPlan::new(stft, mel, power, &w).unwrap();
            let x: Vec<T> = rng
                .vec_f64(n, 0.3)
                .into_iter()
                .map(<T as Float>::from_f64)
                .collect();
            let frames = plan.frames(n).unwrap();
            let mut y = vec![T::NAN; 40 * frames];
            plan.melspec(&x, &mut y).unwrap();
            let nf = n_fft / 2 + 1;
            let pow = |e: T| {
                if power == 2.0 {
                    e
                } else {
                    let m = e.to_f64().sqrt();
                    <T as Float>::from_f64(if power == 1.0 { m } else { m.powf(power) })
                }
            };
            let spectra: Vec<Vec<T>> = if plan.lanes.is_some() {
                let passes = RealPasses::<T>::new(n_fft).unwrap();
                let lo = (n_fft - win) / 2;
                let pad = if center { n_fft / 2 } else { 0 };
                let scale = normalized.then(|| <T as Float>::from_f64(1.0 / (n_fft as f64).sqrt()));
                (0..frames)
                    .map(|t| {
                        let mut buf: Vec<T> = (0..n_fft)
                            .map(|j| {
                                if j < lo || j >= lo + win {
                                    return T::ZERO;
                                }
                                let i = (t * hop + j) as isize - pad as isize;
                                let v = if (0..n as isize).contains(&i) {
                                    x[i as usize]
                                } else if pad_mode == PadMode::Constant {
                                    T::ZERO
                                } else if i < 0 {
                                    x[(-i) as usize]
                                } else {
                                    x[(2 * (n as isize - 1) - i) as usize]
                                };
                                v * w[j - lo]
                            })
                            .collect();
                        let mut ch = vec![T::ZERO; n_fft];
                        passes.forward(&mut buf, &mut ch);
                        if let Some(s) = scale {
                            buf.iter_mut().for_each(|v| *v = *v * s);
                        }
                        (0..nf)
                            .map(|k| {
                                let e = if k == 0 {
                                    buf[0] * buf[0]
                                } else if 2 * k == n_fft {
                                    buf[n_fft - 1] * buf[n_fft - 1]
                                } else {
                                    buf[2 * k - 1] * buf[2 * k - 1] + buf[2 * k] * buf[2 * k]
                                };
                                pow(e)
                            })
                            .collect()
                    })
                    .collect()
            } else {
                let mut spec = vec![Complex::new(T::ZERO, T::ZERO); frames * nf];
                super::super::stft::stft(&x, &w, &plan.stft, &mut spec).unwrap();
                spec.chunks_exact(nf)
                    .map(|f| f.iter().map(|c| pow(c.re * c.re + c.im * c.im)).collect())
                    .collect()
            };
            let want_lanes = n_fft <= 1024 && n_fft != 1009;
            assert_eq!(
                plan.lanes.is_some(),
                want_lanes,
                "{} n_fft {n_fft}",
                T::NAME
            );
            for (t, p) in spectra.iter().enumerate() {
                for (m, (a, wts)) in plan.filters.iter().enumerate() {
                    let s = wts
                        .iter()
                        .enumerate()
                        .fold(T::ZERO, |s, (j, &wj)| s + wj * p[a + j]);
                    assert_eq!(
                        y[m * frames + t].to_f64().to_bits(),
                        s.to_f64().to_bits(),
                        "{} n_fft {n_fft} frame {t} mel {m}",
                        T::NAME
                    );
                }
            }
        }
    }

    #[test]
    fn tiles_give_the_per_frame_sums() {
        per_frame_sums::<f32>(12);
        per_frame_sums::<f64>(13);
    }

    /// The power-row transposes of every level against plain loops, f32 and f64, several
    /// tiles wide.
    #[test]
    fn power_rows_transpose_at_every_level() {
        fn check<T: Float>(v: impl Fn(usize) -> T) {
            let l = lanes_of::<T>();
            let nfp = 3 * l;
            let rows: Vec<T> = (0..l * nfp).map(&v).collect();
            for level in crate::simd::available() {
                let mut out = vec![T::NAN; nfp * l];
                transpose_rows_at(level, level, &rows, nfp, &mut out);
                for k in 0..nfp {
                    for i in 0..l {
                        assert_eq!(
                            out[k * l + i].to_f64(),
                            rows[i * nfp + k].to_f64(),
                            "{level:?}"
                        );
                    }
                }
            }
        }
        check(|i| i as f32);
        check(|i| i as f64);
    }

    /// One signal on several threads splits its frames; as many signals as threads split
    /// signals.
    #[test]
    fn one_signal_splits_its_frames() {
        let work = 3000 * 400 * 4;
        assert_eq!(split_frames(1, 3000, work), max_threads() > 1);
        assert!(!split_frames(max_threads(), 3000, work));
        assert!(!split_frames(1, 1, work));
    }
}
