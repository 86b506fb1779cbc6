//! Griffin-Lim phase reconstruction as `librosa.griffinlim` computes it (the fast variant with
//! momentum of Perraudin et al., librosa's and torchaudio's algorithm).

use super::fft::{FftFloat, PlanCache};
use super::stft::{stft, PadMode, StftParams};
use super::vocoder::{tiny, Ola};
use super::Complex;
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
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
    let mut buf = ola.scratch()?;
    let zero = Complex::new(T::ZERO, T::ZERO);
    let mut angles = try_vec(per, zero, "the phase estimates")?;
    let mut rebuilt = try_vec(per, zero, "the rebuilt spectrogram")?;
    let mut tprev = try_vec(per, zero, "the previous spectrogram")?;
    let mut inverse = try_vec(len, T::ZERO, "the inverse")?;
    // librosa: momentum / (1 + momentum), a Python float applied in the array's precision
    let c = <T as Float>::from_f64(p.momentum / (1.0 + p.momentum));
    let eps = tiny::<T>();
    for (r, yr) in y.chunks_exact_mut(len.max(1)).enumerate().take(rows) {
        let sr = &s[r * per..(r + 1) * per];
        // angles = init · S (complex times real: both parts scaled)
        match init {
            Some(i) => {
                for ((a, u), &m) in angles.iter_mut().zip(&i[r * per..(r + 1) * per]).zip(sr) {
                    *a = Complex::new(u.re * m, u.im * m);
                }
            }
            None => {
                for (a, &m) in angles.iter_mut().zip(sr) {
                    *a = Complex::new(m, T::ZERO);
                }
            }
        }
        for it in 0..p.n_iter {
            ola.run(&angles, &mut inverse, &mut buf)?;
            stft(&inverse, &wt, &sp, &mut rebuilt)?;
            let first = it == 0;
            for (((a, &b), &q), &m) in angles.iter_mut().zip(&rebuilt).zip(&tprev).zip(sr) {
                let mut v = b;
                if !first {
                    v = Complex::new(v.re - c * q.re, v.im - c * q.im);
                }
                let d = modulus(v) + eps;
                *a = Complex::new(v.re / d * m, v.im / d * m);
            }
            std::mem::swap(&mut rebuilt, &mut tprev);
        }
        ola.run(&angles, &mut inverse, &mut buf)?;
        yr.copy_from_slice(&inverse);
    }
    Ok(())
}

/// `|v|` as `np.abs` (hypot): `√(re² + im²)` in double, rounded to `T`; `hypot` where the squares
/// would leave the normal range.
#[inline]
fn modulus<T: Float>(v: Complex<T>) -> T {
    let (a, b) = (v.re.to_f64(), v.im.to_f64());
    let ss = a * a + b * b;
    if ss > 1e-290 && ss < 1e290 {
        <T as Float>::from_f64(ss.sqrt())
    } else {
        <T as Float>::from_f64(a.hypot(b))
    }
}

#[cfg(test)]
mod tests {
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
}
