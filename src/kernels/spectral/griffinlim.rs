//! Griffin-Lim phase reconstruction as `librosa.griffinlim` computes it (the fast variant with
//! momentum of Perraudin et al., librosa's and torchaudio's algorithm).

use super::fft::{FftFloat, PlanCache};
use super::stft::{FrameKernel, PadMode, StftParams};
use super::vocoder::{tiny, Ola};
use super::Complex;
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::par::par_rows_with;
use crate::kernels::Float;

/// Griffin-Lim parameters, librosa's keywords.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GlParams {
    pub n_iter: usize,
    pub momentum: f64,
    pub n_fft: usize,
    pub hop: usize,
    pub win_length: usize,
    pub center: bool,
    pub pad_mode: PadMode,
    /// librosa's `length`; `None` is the inverse STFT's full length.
    pub length: Option<usize>,
}

impl GlParams {
    fn stft(&self) -> StftParams {
        StftParams {
            n_fft: self.n_fft,
            hop: self.hop,
            win_length: self.win_length,
            center: self.center,
            pad_mode: self.pad_mode,
            onesided: true,
            normalized: false,
        }
    }

    /// The output length for a spectrogram of `frames` frames, after checking the parameters:
    /// `length`, else `n_fft + hop·(frames − 1)` less `2·(n_fft/2)` with `center`. The STFT of
    /// a signal of that length must have `frames` frames again (each iteration's estimate
    /// replaces the spectrogram), else `SK_ERR_BAD_ARGUMENT` (librosa fails there too).
    pub fn len(&self, frames: usize) -> SkResult<usize> {
        let sp = self.stft();
        sp.check()?;
        if !(self.momentum.is_finite() && self.momentum >= 0.0) {
            return Err(SkError::BadArgument(format!(
                "momentum = {} must be finite and >= 0",
                self.momentum
            )));
        }
        if frames == 0 {
            return Err(SkError::Length("frames = 0: nothing to invert".into()));
        }
        let len = match self.length {
            Some(l) => l,
            None => {
                let full = self
                    .hop
                    .checked_mul(frames - 1)
                    .and_then(|v| v.checked_add(self.n_fft))
                    .ok_or_else(|| SkError::Length("the inverse STFT length overflows".into()))?;
                full - 2 * sp.pad()
            }
        };
        let back = if len == 0 {
            Err(SkError::Length(String::new()))
        } else {
            sp.frames(len)
        };
        match back {
            Ok(f) if f == frames => Ok(len),
            _ => Err(SkError::BadArgument(format!(
                "a signal of length {len} does not have {frames} STFT frames (n_fft = {}, hop = \
                 {}, center = {}), so the estimates cannot be compared with the magnitudes",
                self.n_fft, self.hop, self.center
            ))),
        }
    }
}

/// `librosa.griffinlim(S, n_iter=…, hop_length=…, win_length=…, n_fft=…, window=…, center=…,
/// length=…, pad_mode=…, momentum=…)` of each of the `rows` magnitude spectrograms in `s`
/// (`rows × frames × nf`, frame-major, nf = n_fft/2 + 1) into `y` (`rows × len`). `init`: the
/// initial unit phasors (same shape as `s`; librosa's `init="random"` draws them in Python),
/// `None` for librosa's `init=None` (phase 0). `window`: win_length values.
pub fn griffinlim<T: FftFloat + PlanCache>(
    s: &[T],
    frames: usize,
    init: Option<&[Complex<T>]>,
    window: &[f64],
    p: &GlParams,
    y: &mut [T],
) -> SkResult<()> {
    let len = p.len(frames)?;
    let nf = p.n_fft / 2 + 1;
    let per = frames * nf;
    assert!(s.len().is_multiple_of(per), "magnitude shape");
    let rows = s.len() / per;
    assert_eq!(y.len(), rows * len, "griffinlim output length");
    if let Some(i) = init {
        assert_eq!(i.len(), s.len(), "init shape");
    }
    assert_eq!(window.len(), p.win_length, "window length");
    let sp = p.stft();
    // all memory before the first write
    let mut wp = try_vec(p.n_fft, 0.0f64, "the padded window")?;
    let lo = (p.n_fft - p.win_length) / 2;
    wp[lo..lo + p.win_length].copy_from_slice(window);
    let mut wt = try_vec(p.win_length, T::ZERO, "the window")?;
    for (a, &b) in wt.iter_mut().zip(window) {
        *a = <T as Float>::from_f64(b);
    }
    let ola = Ola::<T>::new(&wp, p.hop, p.center, frames, len)?;
    let kern = FrameKernel::new(&sp, &wt)?;
    // each frame's row: the current estimate (nf bins), then the previous rebuilt frame
    let zero = Complex::new(T::ZERO, T::ZERO);
    let mut state = try_vec(2 * per, zero, "the phase estimates")?;
    let mut inverse = try_vec(len, T::ZERO, "the inverse")?;
    // librosa: momentum / (1 + momentum), a Python float applied in the array's precision
    let c = <T as Float>::from_f64(p.momentum / (1.0 + p.momentum));
    let proj = Projection {
        c,
        eps: tiny::<T>(),
        nf,
    };
    for (r, yr) in y.chunks_exact_mut(len.max(1)).enumerate().take(rows) {
        let sr = &s[r * per..(r + 1) * per];
        // angles = init · S (complex times real: both parts scaled); no previous frame yet
        for (t, row) in state.chunks_exact_mut(2 * nf).enumerate() {
            let (a, q) = row.split_at_mut(nf);
            q.fill(zero);
            let m = &sr[t * nf..(t + 1) * nf];
            match init {
                Some(i) => {
                    let u = &i[r * per + t * nf..r * per + (t + 1) * nf];
                    for ((a, u), &m) in a.iter_mut().zip(u).zip(m) {
                        *a = Complex::new(u.re * m, u.im * m);
                    }
                }
                None => {
                    for (a, &m) in a.iter_mut().zip(m) {
                        *a = Complex::new(m, T::ZERO);
                    }
                }
            }
        }
        for it in 0..p.n_iter {
            ola.run_strided(&state, 2 * nf, &mut inverse)?;
            rebuild(&kern, &inverse, sr, &mut state, &proj, it == 0)?;
        }
        ola.run_strided(&state, 2 * nf, &mut inverse)?;
        yr.copy_from_slice(&inverse);
    }
    Ok(())
}

/// The momentum projection of one iteration.
struct Projection<T> {
    c: T,
    eps: T,
    nf: usize,
}

impl<T: Float> Projection<T> {
    /// Frame rows `rows` (`[estimate | previous]`, `2·nf` bins each) from the rebuilt frames
    /// `b` and the magnitudes `m`: `v = b − c·previous` (`b` itself on the first iteration),
    /// estimate `= v / (|v| + eps) · m`, previous `= b`. `b` is left holding `v`.
    fn apply(&self, b: &mut [Complex<T>], m: &[T], rows: &mut [Complex<T>], first: bool) {
        let nf = self.nf;
        let c = self.c;
        let eps = self.eps;
        for ((row, b), m) in rows
            .chunks_exact_mut(2 * nf)
            .zip(b.chunks_exact_mut(nf))
            .zip(m.chunks_exact(nf))
        {
            let (a, q) = row.split_at_mut(nf);
            for (q, v) in q.iter_mut().zip(b.iter_mut()) {
                let b = *v;
                if !first {
                    *v = Complex::new(b.re - c * q.re, b.im - c * q.im);
                }
                *q = b;
            }
            // |v| as √(re² + im²) in double (a vectorisable pass), then `modulus`'s hypot
            // where the squares leave the normal range
            let mut odd = false;
            for ((a, v), &m) in a.iter_mut().zip(b.iter()).zip(m) {
                let (ss, normal) = norm_sq(*v);
                odd |= !normal;
                let d = <T as Float>::from_f64(ss.sqrt()) + eps;
                *a = Complex::new(v.re / d * m, v.im / d * m);
            }
            if odd {
                for ((a, v), &m) in a.iter_mut().zip(b.iter()).zip(m) {
                    let d = modulus(*v) + eps;
                    *a = Complex::new(v.re / d * m, v.im / d * m);
                }
            }
        }
    }
}

/// One iteration's STFT of `x` and projection into `state` (frame rows of `2·nf` bins): frames
/// split over the worker threads, each group of frames projected as soon as it is transformed.
fn rebuild<T: FftFloat + PlanCache>(
    kern: &FrameKernel<T>,
    x: &[T],
    s: &[T],
    state: &mut [Complex<T>],
    proj: &Projection<T>,
    first: bool,
) -> SkResult<()> {
    let nf = proj.nf;
    let frames = state.len() / (2 * nf);
    let n = 2 * (nf - 1);
    let work = frames.saturating_mul(n).saturating_mul(4);
    let zero = Complex::new(T::ZERO, T::ZERO);
    if let Some(rl) = kern.row_lanes(frames)? {
        let lanes = kern.group_lanes();
        return par_rows_with(
            state,
            2 * nf,
            work,
            || {
                Ok((
                    kern.group_scratch(rl)?,
                    try_vec(lanes * nf, zero, "rebuilt frames")?,
                ))
            },
            |((ws, edge, win), b), first_row, chunk| {
                for (g, rows) in chunk.chunks_mut(lanes * 2 * nf).enumerate() {
                    let t0 = first_row + g * lanes;
                    let count = rows.len() / (2 * nf);
                    let b = &mut b[..count * nf];
                    kern.group_at(rl, x, t0, edge, win, b, ws);
                    proj.apply(b, &s[t0 * nf..(t0 + count) * nf], rows, first);
                }
            },
        );
    }
    par_rows_with(
        state,
        2 * nf,
        work,
        || Ok((kern.scratch()?, try_vec(nf, zero, "a rebuilt frame")?)),
        |((ws, edge), b), first_row, chunk| {
            for (i, row) in chunk.chunks_exact_mut(2 * nf).enumerate() {
                let t = first_row + i;
                kern.frame_at(x, t, edge, b, ws);
                proj.apply(b, &s[t * nf..(t + 1) * nf], row, first);
            }
        },
    )
}

/// `|v|` as `np.abs` (hypot): `√(re² + im²)` in double, rounded to `T`; `hypot` where the squares
/// would leave the normal range.
#[inline]
fn modulus<T: Float>(v: Complex<T>) -> T {
    match norm_sq(v) {
        (ss, true) => <T as Float>::from_f64(ss.sqrt()),
        _ => <T as Float>::from_f64(v.re.to_f64().hypot(v.im.to_f64())),
    }
}

/// `re² + im²` in double, and whether it lies in the normal range where its square root is
/// [`modulus`] (else the squares overflowed or lost precision: `hypot`).
#[inline(always)]
fn norm_sq<T: Float>(v: Complex<T>) -> (f64, bool) {
    let (a, b) = (v.re.to_f64(), v.im.to_f64());
    let ss = a * a + b * b;
    (ss, ss > 1e-290 && ss < 1e290)
}

#[cfg(test)]
mod tests {
    use super::super::stft::stft;
    use super::*;
    use crate::kernels::testutil::Rng;

    fn params(n_iter: usize, length: Option<usize>) -> GlParams {
        GlParams {
            n_iter,
            momentum: 0.99,
            n_fft: 32,
            hop: 8,
            win_length: 32,
            center: true,
            pad_mode: PadMode::Constant,
            length,
        }
    }

    #[test]
    fn lengths_and_errors() {
        assert_eq!(params(1, None).len(10).unwrap(), 72);
        assert_eq!(params(1, Some(75)).len(10).unwrap(), 75);
        assert!(params(1, Some(200)).len(10).is_err());
        assert!(params(1, None).len(0).is_err());
        let mut p = params(1, None);
        p.momentum = -0.5;
        assert!(p.len(10).is_err());
    }

    #[test]
    fn true_phases_are_a_fixed_point() {
        // the magnitudes and phases of a real STFT: zero iterations give the signal back, and
        // iterating from the true phases (no momentum) stays there
        let mut r = Rng::new(5);
        let x: Vec<f64> = (0..200).map(|_| r.uniform()).collect();
        let w: Vec<f64> = (0..32)
            .map(|i| 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / 32.0).cos())
            .collect();
        let p = GlParams {
            momentum: 0.0,
            length: Some(200),
            ..params(0, None)
        };
        let frames = p.stft().frames(200).unwrap();
        let mut spec = vec![Complex::new(0.0, 0.0); frames * 17];
        stft(&x, &w, &p.stft(), &mut spec).unwrap();
        let mag: Vec<f64> = spec.iter().map(|c| c.norm()).collect();
        let ph: Vec<Complex<f64>> = spec
            .iter()
            .map(|c| {
                if c.norm() > 0.0 {
                    c / c.norm()
                } else {
                    Complex::new(1.0, 0.0)
                }
            })
            .collect();
        for n_iter in [0, 3] {
            let mut y = vec![0.0; 200];
            let q = GlParams { n_iter, ..p };
            griffinlim(&mag, frames, Some(&ph), &w, &q, &mut y).unwrap();
            for (a, b) in x.iter().zip(&y) {
                assert!((a - b).abs() < 1e-9, "n_iter {n_iter}: {a} vs {b}");
            }
        }
    }

    /// The loop the fused iterations must equal bit for bit: the whole inverse, the whole STFT,
    /// then the projection.
    fn reference<T: FftFloat + PlanCache>(
        s: &[T],
        frames: usize,
        init: Option<&[Complex<T>]>,
        window: &[f64],
        p: &GlParams,
    ) -> Vec<T> {
        let len = p.len(frames).unwrap();
        let nf = p.n_fft / 2 + 1;
        let per = frames * nf;
        let mut wp = vec![0.0; p.n_fft];
        let lo = (p.n_fft - p.win_length) / 2;
        wp[lo..lo + p.win_length].copy_from_slice(window);
        let wt: Vec<T> = window.iter().map(|&v| <T as Float>::from_f64(v)).collect();
        let ola = Ola::<T>::new(&wp, p.hop, p.center, frames, len).unwrap();
        let zero = Complex::new(T::ZERO, T::ZERO);
        let c = <T as Float>::from_f64(p.momentum / (1.0 + p.momentum));
        let eps = tiny::<T>();
        let mut y = Vec::new();
        for (r, sr) in s.chunks_exact(per).enumerate() {
            let mut angles: Vec<Complex<T>> = match init {
                Some(i) => i[r * per..(r + 1) * per]
                    .iter()
                    .zip(sr)
                    .map(|(u, &m)| Complex::new(u.re * m, u.im * m))
                    .collect(),
                None => sr.iter().map(|&m| Complex::new(m, T::ZERO)).collect(),
            };
            let mut rebuilt = vec![zero; per];
            let mut tprev = vec![zero; per];
            let mut inverse = vec![T::ZERO; len];
            for it in 0..p.n_iter {
                ola.run_whole(&angles, &mut inverse);
                stft(&inverse, &wt, &p.stft(), &mut rebuilt).unwrap();
                for (((a, &b), &q), &m) in angles.iter_mut().zip(&rebuilt).zip(&tprev).zip(sr) {
                    let mut v = b;
                    if it > 0 {
                        v = Complex::new(v.re - c * q.re, v.im - c * q.im);
                    }
                    let d = modulus(v) + eps;
                    *a = Complex::new(v.re / d * m, v.im / d * m);
                }
                std::mem::swap(&mut rebuilt, &mut tprev);
            }
            ola.run_whole(&angles, &mut inverse);
            y.extend_from_slice(&inverse);
        }
        y
    }

    fn fused_equals_reference<T: FftFloat + PlanCache>() {
        // 256-point frames, enough of them for the splits over threads; two rows
        let mut r = Rng::new(11);
        for &(center, pad_mode, win_length, length, random) in &[
            (true, PadMode::Constant, 256usize, None, true),
            (true, PadMode::Reflect, 200, Some(19_150usize), false),
            (false, PadMode::Constant, 256, None, true),
        ] {
            let p = GlParams {
                n_iter: 3,
                momentum: 0.99,
                n_fft: 256,
                hop: 64,
                win_length,
                center,
                pad_mode,
                length,
            };
            let frames = 300;
            let nf = 129;
            let s: Vec<T> = (0..2 * frames * nf)
                .map(|_| <T as Float>::from_f64(r.uniform()))
                .collect();
            let init: Option<Vec<Complex<T>>> = random.then(|| {
                (0..s.len())
                    .map(|_| {
                        let a = 2.0 * std::f64::consts::PI * r.uniform();
                        Complex::new(
                            <T as Float>::from_f64(a.cos()),
                            <T as Float>::from_f64(a.sin()),
                        )
                    })
                    .collect()
            });
            let w: Vec<f64> = (0..win_length)
                .map(|i| {
                    0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / win_length as f64).cos()
                })
                .collect();
            let want = reference(&s, frames, init.as_deref(), &w, &p);
            let mut got = vec![T::ZERO; want.len()];
            griffinlim(&s, frames, init.as_deref(), &w, &p, &mut got).unwrap();
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert!(
                    g.to_f64().to_bits() == w.to_f64().to_bits(),
                    "{} center {center} sample {i}: {} vs {}",
                    T::NAME,
                    g.to_f64(),
                    w.to_f64()
                );
            }
        }
    }

    #[test]
    fn fused_iterations_equal_the_whole_passes() {
        fused_equals_reference::<f32>();
        fused_equals_reference::<f64>();
    }
}
