//! Chroma as librosa computes it: the chroma filter bank (`librosa.filters.chroma`), its
//! application to a power spectrogram with the per-frame normalisation of
//! `librosa.feature.chroma_stft`, and the tuning estimate behind `tuning=None`
//! (`librosa.piptrack` → `librosa.estimate_tuning` → `librosa.pitch_tuning`).
//!
//! The filter bank and the normalisations follow librosa's numpy arithmetic step by step; the
//! peak picking follows it in the spectrogram's precision (librosa's `float32` arrays stay
//! `float32`), so the estimated tuning, a histogram bin, is librosa's.

use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::par::par_rows_with;
use crate::kernels::Float;
use crate::simd::multiversion;

use super::spectral::Spec;

/// `librosa.util.normalize`'s `norm` (along one axis; `fill=None`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Norm {
    /// `None`: no normalisation.
    Off,
    /// `np.inf`: the largest magnitude.
    Max,
    /// `-np.inf`: the smallest magnitude.
    Min,
    /// `0`: the count of non-zero values.
    Count,
    /// `p > 0`: `(Σ|x|^p)^(1/p)`.
    P(f64),
}

impl Norm {
    /// From librosa's number: ±∞, 0, p > 0; NaN is `None`.
    pub fn from_f64(v: f64) -> SkResult<Norm> {
        Ok(if v.is_nan() {
            Norm::Off
        } else if v == f64::INFINITY {
            Norm::Max
        } else if v == f64::NEG_INFINITY {
            Norm::Min
        } else if v == 0.0 {
            Norm::Count
        } else if v > 0.0 {
            Norm::P(v)
        } else {
            return Err(SkError::BadArgument(format!(
                "norm = {v}: must be inf, -inf, 0, a positive number or NaN (None)"
            )));
        })
    }

    /// The normalising length of `x` (numpy's order of operations), or `None` for `Off`.
    fn length(self, x: &[f64]) -> Option<f64> {
        match self {
            Norm::Off => None,
            Norm::Max => Some(x.iter().fold(f64::NEG_INFINITY, |a, v| a.max(v.abs()))),
            Norm::Min => Some(x.iter().fold(f64::INFINITY, |a, v| a.min(v.abs()))),
            Norm::Count => Some(x.iter().filter(|v| v.abs() > 0.0).count() as f64),
            Norm::P(p) => {
                let s: f64 = if p == 2.0 {
                    x.iter().map(|v| v * v).sum()
                } else if p == 1.0 {
                    x.iter().map(|v| v.abs()).sum()
                } else {
                    x.iter().map(|v| v.abs().powf(p)).sum()
                };
                Some(if p == 2.0 {
                    s.sqrt()
                } else if p == 1.0 {
                    s
                } else {
                    s.powf(1.0 / p)
                })
            }
        }
    }
}

/// `np.remainder` of doubles (the sign of the divisor).
fn py_mod(a: f64, b: f64) -> f64 {
    let m = a % b;
    if m == 0.0 {
        0.0f64.copysign(b)
    } else if (m < 0.0) != (b < 0.0) {
        m + b
    } else {
        m
    }
}

/// `librosa.filters.chroma` parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChromaParams {
    pub sr: f64,
    pub n_fft: usize,
    pub n_chroma: usize,
    pub tuning: f64,
    pub ctroct: f64,
    /// `None`: no octave weighting.
    pub octwidth: Option<f64>,
    pub norm: Norm,
    pub base_c: bool,
}

impl ChromaParams {
    fn check(&self) -> SkResult<()> {
        if !(self.sr.is_finite() && self.sr > 0.0) {
            return Err(SkError::BadArgument(format!(
                "sr = {} must be finite and > 0",
                self.sr
            )));
        }
        if self.n_fft < 2 || self.n_fft > 1 << 24 {
            return Err(SkError::BadArgument(format!(
                "n_fft = {} must be in 2 ..= 2^24",
                self.n_fft
            )));
        }
        if self.n_chroma == 0 || self.n_chroma > 1 << 16 {
            return Err(SkError::BadArgument(format!(
                "n_chroma = {} must be in 1 ..= 65536",
                self.n_chroma
            )));
        }
        if !self.tuning.is_finite() || !self.ctroct.is_finite() {
            return Err(SkError::BadArgument(format!(
                "tuning = {} and ctroct = {} must be finite",
                self.tuning, self.ctroct
            )));
        }
        if let Some(w) = self.octwidth {
            if !(w.is_finite() && w > 0.0) {
                return Err(SkError::BadArgument(format!(
                    "octwidth = {w} must be finite and > 0 (0: no octave weighting)"
                )));
            }
        }
        Ok(())
    }

    /// Bins of the filter bank: `1 + n_fft/2`.
    pub fn n_freq(&self) -> usize {
        self.n_fft / 2 + 1
    }
}

/// `librosa.filters.chroma(...)` in double: `n_chroma × (1 + n_fft/2)` row-major weights
/// (librosa's default `dtype=np.float32` is the caller's cast).
pub fn chroma_filters(p: &ChromaParams) -> SkResult<Vec<f64>> {
    p.check()?;
    let (nc, n_fft) = (p.n_chroma, p.n_fft);
    let ncf = nc as f64;
    // frequencies = np.linspace(0, sr, n_fft, endpoint=False)[1:]
    let step = p.sr / n_fft as f64;
    let a440 = 440.0 * 2.0f64.powf(p.tuning / ncf);
    let base = a440 / 16.0;
    let mut frq = try_vec(n_fft, 0.0f64, "the chroma bin positions")?;
    for (k, f) in frq.iter_mut().enumerate().skip(1) {
        *f = ncf * ((k as f64 * step) / base).log2();
    }
    frq[0] = frq[1] - 1.5 * ncf;
    let mut bw = try_vec(n_fft, 1.0f64, "the chroma bin widths")?;
    for k in 0..n_fft - 1 {
        bw[k] = (frq[k + 1] - frq[k]).max(1.0);
    }
    let n2 = (ncf / 2.0).round_ties_even();
    let nf = p.n_freq();
    // full columns are needed for the column norms; only the first nf are kept
    let mut w = try_vec(nc * nf, 0.0f64, "the chroma filter bank")?;
    let mut col = vec![0.0f64; nc];
    let shift = if p.base_c { 3 * (nc / 12) } else { 0 };
    for k in 0..nf {
        for (c, o) in col.iter_mut().enumerate() {
            let d = py_mod(frq[k] - c as f64 + n2 + 10.0 * ncf, ncf) - n2;
            let t = 2.0 * d / bw[k];
            *o = (-0.5 * (t * t)).exp();
        }
        // util.normalize(wts, norm=norm, axis=0): columns below tiny(float64) stay as they are
        let len = match p.norm.length(&col) {
            Some(l) if l >= f64::MIN_POSITIVE => l,
            _ => 1.0,
        };
        let ow = match p.octwidth {
            Some(ow) => {
                let t = (frq[k] / ncf - p.ctroct) / ow;
                (-0.5 * (t * t)).exp()
            }
            None => 1.0,
        };
        for (c, v) in col.iter().enumerate() {
            // np.roll(wts, -shift, axis=0): row c takes old row (c + shift) mod nc
            let r = (c + nc - shift % nc) % nc;
            let mut x = v / len;
            if p.octwidth.is_some() {
                x *= ow;
            }
            w[r * nf + k] = x;
        }
    }
    Ok(w)
}

/// numpy's `tiny` of the element type.
fn tiny<T: Float>() -> f64 {
    if T::NAME == "f32" {
        f32::MIN_POSITIVE as f64
    } else {
        f64::MIN_POSITIVE
    }
}

/// Frames per work block of [`chroma_apply`].
const BLOCK: usize = 32;

/// `librosa.feature.chroma_stft(S=s, ...)` after the filter bank: for every frame, `fb`
/// (`n_chroma × n_freq`, row-major) times the frame's power spectrum, then
/// `util.normalize(..., norm=norm, axis=-2)` (frames whose length is below `tiny` of the
/// element type stay unnormalised), into `out` (`batch × n_chroma × frames`). The spectrogram
/// must be finite (`librosa.util.normalize` refuses non-finite chroma).
pub fn chroma_apply<T: Float>(
    s: &Spec<'_, T>,
    fb: &[f64],
    n_chroma: usize,
    norm: Norm,
    out: &mut [T],
) -> SkResult<()> {
    s.check()?;
    let nf = s.n_freq;
    if fb.len() != n_chroma * nf || n_chroma == 0 {
        return Err(SkError::BadArgument(format!(
            "the filter bank has {} values, not n_chroma {n_chroma} × n_freq {nf}",
            fb.len()
        )));
    }
    if let Some(i) = s.data.iter().position(|v| !v.is_finite()) {
        return Err(SkError::NonFinite(format!(
            "S[{i}] = {:?}: chroma needs a finite spectrogram (as librosa.util.normalize)",
            s.data[i]
        )));
    }
    if let Some(i) = fb.iter().position(|v| !v.is_finite()) {
        return Err(SkError::NonFinite(format!(
            "fb[{i}] = {}: the filter bank must be finite",
            fb[i]
        )));
    }
    let frames = s.frames;
    let g_len = s.batch * frames;
    assert_eq!(out.len(), g_len * n_chroma, "chroma output length");
    // results frame-major (g, c), scattered into (b, c, t) at the end
    let mut tmp = try_vec(g_len * n_chroma, 0.0f64, "the chroma of every frame")?;
    let tn = tiny::<T>();
    let level = crate::simd::current();
    par_rows_with(
        &mut tmp,
        n_chroma * BLOCK,
        g_len.saturating_mul(nf * n_chroma),
        || try_vec(BLOCK * nf, 0.0f64, "a block of frames"),
        |buf, first_block, chunk| {
            chroma_part_at(level, s, fb, n_chroma, norm, tn, buf, first_block, chunk);
        },
    )?;
    for g in 0..g_len {
        let (b, t) = (g / frames, g % frames);
        for c in 0..n_chroma {
            out[(b * n_chroma + c) * frames + t] = T::from_f64(tmp[g * n_chroma + c]);
        }
    }
    Ok(())
}

/// Blocks `first_block ..` of [`BLOCK`] frames of `s` into `chunk` (`n_chroma` values per
/// frame): one part of [`chroma_apply`]. Each filter row is applied to four frames at a time
/// (one load of the row for four products, each product summed as [`dot`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn chroma_part<T: Float>(
    s: &Spec<'_, T>,
    fb: &[f64],
    n_chroma: usize,
    norm: Norm,
    tn: f64,
    buf: &mut [f64],
    first_block: usize,
    chunk: &mut [f64],
) {
    let nf = s.n_freq;
    for (bi, res) in chunk.chunks_mut(n_chroma * BLOCK).enumerate() {
        let g0 = (first_block + bi) * BLOCK;
        let nb = res.len() / n_chroma;
        for j in 0..nb {
            s.frame(g0 + j, &mut buf[j * nf..(j + 1) * nf]);
        }
        let quads = nb / 4 * 4;
        for c in 0..n_chroma {
            let w = &fb[c * nf..(c + 1) * nf];
            for j in (0..quads).step_by(4) {
                let d = dot4(
                    w,
                    [
                        &buf[j * nf..(j + 1) * nf],
                        &buf[(j + 1) * nf..(j + 2) * nf],
                        &buf[(j + 2) * nf..(j + 3) * nf],
                        &buf[(j + 3) * nf..(j + 4) * nf],
                    ],
                );
                for (q, v) in d.into_iter().enumerate() {
                    res[(j + q) * n_chroma + c] = v;
                }
            }
            for j in quads..nb {
                res[j * n_chroma + c] = dot(w, &buf[j * nf..(j + 1) * nf]);
            }
        }
        for r in res.chunks_exact_mut(n_chroma) {
            // the raw chroma in the element type, as librosa's einsum result
            for v in r.iter_mut() {
                *v = T::from_f64(*v).to_f64();
            }
            if let Some(len) = norm.length(r) {
                let len = if len < tn { 1.0 } else { len };
                for v in r.iter_mut() {
                    *v /= len;
                }
            }
        }
    }
}

multiversion! {
    /// [`chroma_part`] compiled for a SIMD level (the same arithmetic at every level).
    fn chroma_part_at<T: Float>(
        s: &Spec<'_, T>,
        fb: &[f64],
        n_chroma: usize,
        norm: Norm,
        tn: f64,
        buf: &mut [f64],
        first_block: usize,
        chunk: &mut [f64],
    ) -> ();
    scalar = chroma_part; simd = chroma_part;
}

/// [`dot`] of `a` with each of four slices of `a`'s length (each result exactly `dot`'s).
#[inline(always)]
fn dot4(a: &[f64], b: [&[f64]; 4]) -> [f64; 4] {
    let n = a.len();
    let b = b.map(|v| &v[..n]);
    let mut acc = [[0.0f64; 4]; 4];
    let full = n / 4 * 4;
    for i in (0..full).step_by(4) {
        let x = &a[i..i + 4];
        for (q, bq) in b.iter().enumerate() {
            let y = &bq[i..i + 4];
            for k in 0..4 {
                acc[q][k] += x[k] * y[k];
            }
        }
    }
    let mut out = [0.0; 4];
    for (q, bq) in b.iter().enumerate() {
        let a4 = acc[q];
        let mut s = (a4[0] + a4[1]) + (a4[2] + a4[3]);
        for i in full..n {
            s += a[i] * bq[i];
        }
        out[q] = s;
    }
    out
}

/// `Σ a·b` with four accumulators (vectorisable).
#[inline(always)]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    let ca = a.chunks_exact(4);
    let cb = b.chunks_exact(4);
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..4 {
            acc[k] += x[k] * y[k];
        }
    }
    let mut s = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    for (x, y) in ra.iter().zip(rb) {
        s += x * y;
    }
    s
}

/// `librosa.piptrack` parameters (with `ref=None`: `threshold × the frame's maximum`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PipParams {
    pub sr: f64,
    pub n_fft: usize,
    pub fmin: f64,
    pub fmax: f64,
    pub threshold: f64,
}

impl PipParams {
    fn check(&self, n_freq: usize) -> SkResult<()> {
        if !(self.sr.is_finite() && self.sr > 0.0) {
            return Err(SkError::BadArgument(format!(
                "sr = {} must be finite and > 0",
                self.sr
            )));
        }
        if self.fmin.is_nan() || self.fmax.is_nan() || self.threshold.is_nan() {
            return Err(SkError::BadArgument(format!(
                "fmin = {}, fmax = {}, threshold = {}: none may be NaN",
                self.fmin, self.fmax, self.threshold
            )));
        }
        if n_freq < 2 {
            return Err(SkError::BadArgument(format!(
                "n_freq = {n_freq}: peak picking needs at least two bins"
            )));
        }
        if self.n_fft / 2 + 1 != n_freq {
            return Err(SkError::BadArgument(format!(
                "n_fft = {} does not give n_freq = {n_freq} bins",
                self.n_fft
            )));
        }
        Ok(())
    }
}

/// One frame's peaks as `librosa.piptrack` finds them, in the element type: calls
/// `emit(bin, pitch, magnitude)` for each. `x` is the frame's magnitudes (`|S|`), `lim` the
/// bin frequencies' range test, `reference` the frame's threshold (`None`: `threshold × max`).
fn frame_peaks<T: Float>(
    x: &[T],
    p: &PipParams,
    in_range: &[bool],
    reference: Option<T>,
    mut emit: impl FnMut(usize, T, T),
) {
    let n = x.len();
    let reference = reference.unwrap_or_else(|| {
        // threshold * np.max(S, axis=-2): NaN propagates
        let mut m = x[0];
        for &v in &x[1..] {
            if v.is_nan() || m.is_nan() {
                m = T::NAN;
            } else if v > m {
                m = v;
            }
        }
        T::from_f64(p.threshold) * m
    });
    let masked = |i: usize| -> T {
        if x[i] > reference {
            x[i]
        } else {
            T::ZERO
        }
    };
    let two = T::from_f64(2.0);
    let half = T::from_f64(0.5);
    for i in 1..n {
        // a peak exceeds the reference (masked values are 0 or |S| ≥ 0: a bin at or below it,
        // or NaN, is 0 and cannot exceed its neighbour)
        if x[i].partial_cmp(&reference) != Some(std::cmp::Ordering::Greater) || !in_range[i] {
            continue;
        }
        let v = masked(i);
        let next = if i + 1 < n { masked(i + 1) } else { v };
        if !(v > masked(i - 1) && v >= next) {
            continue;
        }
        // the parabolic shift (librosa's numba stencil: float64 after the first operation)
        // and the gradient (in the element type); both 0 / one-sided at the last bin
        let (shift, avg) = if i + 1 < n {
            let a = (x[i + 1] + x[i - 1]).to_f64() - 2.0 * x[i].to_f64();
            let b = (x[i + 1] - x[i - 1]).to_f64() / 2.0;
            let sh = if b.abs() >= a.abs() { 0.0 } else { -b / a };
            (T::from_f64(sh), (x[i + 1] - x[i - 1]) / two)
        } else {
            (T::ZERO, x[i] - x[i - 1])
        };
        let pitch = T::from_f64((i as f64 + shift.to_f64()) * p.sr / p.n_fft as f64);
        let dskew = half * avg * shift;
        emit(i, pitch, x[i] + dskew);
    }
}

/// The bins inside `fmin ≤ f < fmax` (librosa clips `fmin` at 0 and `fmax` at `sr/2`).
fn range_mask(p: &PipParams, n_freq: usize) -> SkResult<Vec<bool>> {
    let freq = super::spectral::fft_frequencies(p.sr, p.n_fft)?;
    let fmin = p.fmin.max(0.0);
    let fmax = p.fmax.min(p.sr / 2.0);
    Ok(freq[..n_freq]
        .iter()
        .map(|&f| fmin <= f && f < fmax)
        .collect())
}

/// Frame `g` of `s` in the element type.
fn frame_t<T: Float>(s: &Spec<'_, T>, g: usize, buf: &mut [T]) {
    let (b, t) = (g / s.frames, g % s.frames);
    let base = b * s.n_freq * s.frames;
    if s.frame_major {
        buf.copy_from_slice(&s.data[base + t * s.n_freq..base + (t + 1) * s.n_freq]);
    } else {
        for (f, o) in buf.iter_mut().enumerate() {
            *o = s.data[base + f * s.frames + t];
        }
    }
}

/// `librosa.piptrack(S=s, ...)`: dense `pitches` and `mags` in the spectrogram's layout
/// (zero away from the peaks). `reference` holds a threshold per global frame (librosa's
/// `threshold × ref(S)` or `|ref|`), or is `None` for `threshold × the frame's maximum`.
pub fn piptrack<T: Float>(
    s: &Spec<'_, T>,
    p: &PipParams,
    reference: Option<&[T]>,
    pitches: &mut [T],
    mags: &mut [T],
) -> SkResult<()> {
    s.check()?;
    p.check(s.n_freq)?;
    let mask = range_mask(p, s.n_freq)?;
    let nf = s.n_freq;
    let mut buf = try_vec(nf, T::ZERO, "a frame")?;
    pitches.fill(T::ZERO);
    mags.fill(T::ZERO);
    let frames = s.frames;
    for g in 0..s.batch * frames {
        frame_t(s, g, &mut buf);
        for v in buf.iter_mut() {
            *v = v.abs();
        }
        let (b, t) = (g / frames, g % frames);
        let base = b * nf * frames;
        let fm = s.frame_major;
        frame_peaks(&buf, p, &mask, reference.map(|r| r[g]), |i, pi, m| {
            let k = if fm {
                base + t * nf + i
            } else {
                base + i * frames + t
            };
            pitches[k] = pi;
            mags[k] = m;
        });
    }
    Ok(())
}

/// `librosa.pitch_tuning(frequencies, resolution=resolution, bins_per_octave=bpo)` in the
/// element type (librosa's arithmetic on a `float32` array stays `float32`); `None` when no
/// frequency is positive (librosa warns and returns 0).
pub fn pitch_tuning<T: Float>(freqs: &[T], resolution: f64, bpo: usize) -> SkResult<Option<f64>> {
    if !(resolution.is_finite() && resolution > 0.0 && resolution <= 1.0) {
        return Err(SkError::BadArgument(format!(
            "resolution = {resolution} must be in (0, 1]"
        )));
    }
    if bpo == 0 {
        return Err(SkError::BadArgument("bins_per_octave = 0".into()));
    }
    let nb = (1.0 / resolution).ceil() as usize;
    if nb > 1 << 24 {
        return Err(SkError::BadArgument(format!(
            "resolution = {resolution} gives more than 2^24 bins"
        )));
    }
    // np.linspace(-0.5, 0.5, nb + 1)
    let step = 1.0 / nb as f64;
    let mut edges: Vec<f64> = (0..=nb).map(|i| i as f64 * step + -0.5).collect();
    edges[nb] = 0.5;
    let mut counts = try_vec(nb, 0usize, "the tuning histogram")?;
    // hz_to_octs(f) = log2(f / (440 / 16)) at tuning 0
    let base = T::from_f64(440.0 / 16.0);
    let bpo_t = T::from_f64(bpo as f64);
    let mut any = false;
    for &f in freqs {
        if f.partial_cmp(&T::ZERO) != Some(std::cmp::Ordering::Greater) {
            continue;
        }
        any = true;
        let octs = T::from_f64((f / base).to_f64().log2());
        let x = (bpo_t * octs).to_f64();
        let mut r = T::from_f64(py_mod(x, 1.0)).to_f64();
        if r >= 0.5 {
            r = T::from_f64(r - 1.0).to_f64();
        }
        if !(-0.5..=0.5).contains(&r) {
            continue;
        }
        // the bin with edges[i] <= r < edges[i+1], the last one closed
        let i = edges[1..nb].partition_point(|&e| e <= r);
        counts[i] += 1;
    }
    if !any {
        return Ok(None);
    }
    let mut best = 0;
    for (i, &c) in counts.iter().enumerate() {
        if c > counts[best] {
            best = i;
        }
    }
    Ok(Some(edges[best]))
}

/// One thread's share of [`estimate_tuning`]: its first frame, a frame buffer, its peaks.
type TuningPart<T> = (usize, Vec<T>, Vec<(T, T)>);

/// `librosa.estimate_tuning(S=s, sr=sr, n_fft=..., resolution=..., bins_per_octave=bpo,
/// fmin=..., fmax=..., threshold=...)` (`ref=None`): the peaks of every frame, those at or
/// above the median peak magnitude, their tuning histogram. Returns the tuning and the count
/// of peak frequencies that went into it (0: none, the tuning is 0 and librosa warns).
pub fn estimate_tuning<T: Float>(
    s: &Spec<'_, T>,
    p: &PipParams,
    resolution: f64,
    bpo: usize,
) -> SkResult<(f64, usize)> {
    s.check()?;
    p.check(s.n_freq)?;
    pitch_tuning::<T>(&[], resolution, bpo)?; // argument checks only
    let mask = range_mask(p, s.n_freq)?;
    let nf = s.n_freq;
    // the frames split into contiguous ranges over the threads, each range's peaks in frame
    // order, joined in range order: the peaks of one thread's loop
    let total = s.batch * s.frames;
    let threads = crate::kernels::par::threads_for(total, total.saturating_mul(nf));
    let per = total.div_ceil(threads).max(1);
    let mut parts: Vec<TuningPart<T>> = Vec::new();
    for k in 0..total.div_ceil(per) {
        parts.push((k * per, try_vec(nf, T::ZERO, "a frame")?, Vec::new()));
    }
    crate::kernels::par::run_parts(
        parts.iter_mut().collect(),
        |(first, buf, peaks): &mut TuningPart<T>| {
            for g in *first..(*first + per).min(total) {
                frame_t(s, g, buf);
                for v in buf.iter_mut() {
                    *v = v.abs();
                }
                frame_peaks(buf, p, &mask, None, |_, pi, m| {
                    if pi > T::ZERO {
                        peaks.push((pi, m));
                    }
                });
            }
        },
    );
    let mut peaks: Vec<(T, T)> = Vec::new();
    for (_, _, part) in parts {
        peaks.extend_from_slice(&part);
    }
    if peaks.is_empty() {
        return Ok((0.0, 0));
    }
    // np.median(mag[pitch > 0]): NaN if any is NaN; the mean of the middle two when even
    let thr = if peaks.iter().any(|(_, m)| m.is_nan()) {
        T::NAN
    } else {
        let mut m: Vec<T> = peaks.iter().map(|(_, m)| *m).collect();
        let k = m.len() / 2;
        let cmp = |a: &T, b: &T| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal);
        let (lo, hi, _) = m.select_nth_unstable_by(k, cmp);
        let hi = *hi;
        if peaks.len() % 2 == 1 {
            hi
        } else {
            let lo_max = lo
                .iter()
                .copied()
                .fold(lo[0], |a, v| if v > a { v } else { a });
            (lo_max + hi) / T::from_f64(2.0)
        }
    };
    let sel: Vec<T> = peaks
        .iter()
        .filter(|(_, m)| *m >= thr)
        .map(|(pi, _)| *pi)
        .collect();
    let n = sel.len();
    Ok(match pitch_tuning(&sel, resolution, bpo)? {
        Some(t) => (t, n),
        None => (0.0, 0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_columns_are_unit_before_octave_weighting() {
        let p = ChromaParams {
            sr: 22050.0,
            n_fft: 64,
            n_chroma: 12,
            tuning: 0.0,
            ctroct: 5.0,
            octwidth: None,
            norm: Norm::P(2.0),
            base_c: true,
        };
        let w = chroma_filters(&p).unwrap();
        let nf = p.n_freq();
        for k in 0..nf {
            let s: f64 = (0..12).map(|c| w[c * nf + k] * w[c * nf + k]).sum();
            assert!((s - 1.0).abs() < 1e-12, "column {k}: {s}");
        }
    }

    #[test]
    fn tuning_histogram_picks_the_offset() {
        // 440 Hz · 2^(0.2/12): a fifth of a semitone sharp
        let f = [440.0 * 2f64.powf(0.2 / 12.0); 5];
        let t = pitch_tuning(&f, 0.01, 12).unwrap().unwrap();
        assert!((t - 0.2).abs() < 0.011, "{t}");
        assert_eq!(pitch_tuning::<f64>(&[0.0, -1.0], 0.01, 12).unwrap(), None);
        assert!(pitch_tuning::<f64>(&f, 0.0, 12).is_err());
    }

    #[test]
    fn chroma_does_not_depend_on_threads_or_simd_level() {
        // 203 frames (no multiple of the blocks or of the four-frame products), 513 bins
        let (nf, frames) = (513, 203);
        let data: Vec<f32> = (0..nf * frames)
            .map(|i| ((i * 7919 % 1013) as f32 / 100.0).powi(2))
            .collect();
        let s = Spec {
            data: &data,
            batch: 1,
            n_freq: nf,
            frames,
            frame_major: true,
        };
        let p = ChromaParams {
            sr: 22050.0,
            n_fft: 1024,
            n_chroma: 12,
            tuning: 0.1,
            ctroct: 5.0,
            octwidth: Some(2.0),
            norm: Norm::P(2.0),
            base_c: true,
        };
        let fb = chroma_filters(&p).unwrap();
        let mut threaded = vec![0.0f32; 12 * frames];
        chroma_apply(&s, &fb, 12, Norm::Max, &mut threaded).unwrap();
        let mut serial = vec![0.0f32; 12 * frames];
        crate::kernels::par::serial_if(true, || chroma_apply(&s, &fb, 12, Norm::Max, &mut serial))
            .unwrap();
        assert_eq!(threaded, serial);
        // every frame equals the one-frame product
        let mut x = vec![0.0; nf];
        for g in [0, 1, 100, 202] {
            s.frame(g, &mut x);
            let r: Vec<f64> = (0..12)
                .map(|c| (dot(&fb[c * nf..(c + 1) * nf], &x) as f32) as f64)
                .collect();
            let len = Norm::Max.length(&r).unwrap();
            for c in 0..12 {
                assert_eq!(serial[c * frames + g], (r[c] / len) as f32, "{g} {c}");
            }
        }
        let run = |level| {
            let mut buf = vec![0.0; BLOCK * nf];
            let mut out = vec![0.0; 12 * frames];
            chroma_part_at(level, &s, &fb, 12, Norm::Max, 1e-38, &mut buf, 0, &mut out);
            out
        };
        let want = run(crate::simd::Level::Scalar);
        for level in crate::simd::available() {
            assert_eq!(run(level), want, "{level:?}");
        }
    }

    #[test]
    fn tuning_estimate_does_not_depend_on_threads() {
        // enough frames for the frames to split over threads; a tone 0.3 bins sharp plus noise
        let (nf, frames) = (513, 1100);
        let data: Vec<f32> = (0..nf * frames)
            .map(|i| {
                let (t, k) = (i / nf, i % nf);
                let f0 = 440.0 * 2f64.powf(0.3 / 12.0) * (1.0 + (t % 7) as f64) * 1024.0 / 22050.0;
                let peak = (-0.5 * ((k as f64 - f0) / 0.8).powi(2)).exp();
                (peak + ((i * 7919 % 1013) as f64) * 1e-5) as f32
            })
            .collect();
        let s = Spec {
            data: &data,
            batch: 1,
            n_freq: nf,
            frames,
            frame_major: true,
        };
        let p = PipParams {
            sr: 22050.0,
            n_fft: 1024,
            fmin: 150.0,
            fmax: 4000.0,
            threshold: 0.1,
        };
        let threaded = estimate_tuning(&s, &p, 0.01, 12).unwrap();
        let serial =
            crate::kernels::par::serial_if(true, || estimate_tuning(&s, &p, 0.01, 12)).unwrap();
        assert_eq!(threaded, serial);
        assert!(threaded.1 > frames / 4, "{threaded:?}");
    }

    #[test]
    fn norms() {
        let x = [3.0, -4.0, 0.0];
        assert_eq!(Norm::P(2.0).length(&x), Some(5.0));
        assert_eq!(Norm::Max.length(&x), Some(4.0));
        assert_eq!(Norm::Min.length(&x), Some(0.0));
        assert_eq!(Norm::Count.length(&x), Some(2.0));
        assert_eq!(Norm::from_f64(f64::NAN).unwrap(), Norm::Off);
        assert!(Norm::from_f64(-1.0).is_err());
    }
}
