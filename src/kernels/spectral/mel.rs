//! Mel filterbanks equal to `librosa.filters.mel` (HTK or Slaney scale; no or Slaney
//! normalisation), mel spectrograms equal to `librosa.feature.melspectrogram` and dB conversion
//! equal to `librosa.power_to_db`.

use super::fft::{FftFloat, PlanCache, MAX_FFT_LEN};
use super::stft::{stft_reduce, StftParams};
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::{try_collect, try_copy, try_vec, try_with_capacity};
use crate::kernels::Float;

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
pub fn power_to_db<T: FftFloat>(
    y: &mut [T],
    reference: f64,
    amin: f64,
    top_db: f64,
) -> SkResult<()> {
    check_db(reference, amin, top_db)?;
    let off = db_offset(amin, reference);
    db_slice(y, amin, off);
    if top_db.is_finite() && !y.is_empty() {
        let mut mx = f64::NEG_INFINITY;
        let mut nan = false;
        for v in y.iter() {
            nan |= v.is_nan();
            mx = mx.max(v.to_f64());
        }
        if nan {
            // numpy: log_spec.max() is NaN, so np.maximum(log_spec, NaN - top_db) is all NaN
            y.fill(T::NAN);
        } else {
            let floor = <T as Float>::from_f64(mx - top_db);
            for v in y.iter_mut() {
                if *v < floor {
                    *v = floor;
                }
            }
        }
    }
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
}

impl<T: FftFloat + PlanCache> MelPlan<T> {
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
        Ok(MelPlan {
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
        self.melspec_db(x, y, None)
    }

    /// As [`MelPlan::melspec`], followed by `power_to_db(ref, amin, top_db)` when `db` is given
    /// (the logarithms are taken per frame on the worker threads; the top_db floor after).
    pub fn melspec_db(&self, x: &[T], y: &mut [T], db: Option<(f64, f64, f64)>) -> SkResult<()> {
        let frames = self.frames(x.len())?;
        let nm = self.mel.n_mels;
        assert_eq!(y.len(), nm * frames, "melspec output length");
        let off = match db {
            Some((r, a, t)) => {
                check_db(r, a, t)?;
                Some((a, db_offset(a, r)))
            }
            None => None,
        };
        // each frame's spectrum is reduced to mel bands as soon as it is computed
        let mut tmp = try_vec(frames * nm, T::ZERO, "the frame-major mel spectrogram")?;
        let power = self.power;
        stft_reduce(x, &self.window, &self.stft, &mut tmp, nm, |s, out| {
            // |X|^power into the real parts, then the sparse filterbank
            for c in s.iter_mut() {
                let m2 = c.re * c.re + c.im * c.im;
                c.re = if power == 2.0 {
                    m2
                } else if power == 1.0 {
                    <T as Float>::from_f64(m2.to_f64().sqrt())
                } else {
                    <T as Float>::from_f64(m2.to_f64().sqrt().powf(power))
                };
            }
            for (o, (a, wts)) in out.iter_mut().zip(&self.filters) {
                let mut acc = T::ZERO;
                for (w, c) in wts.iter().zip(&s[*a..]) {
                    acc = acc + *w * c.re;
                }
                *o = acc;
            }
            if let Some((amin, off)) = off {
                db_slice(out, amin, off);
            }
        })?;
        // top_db floor over the whole spectrogram (NaN anywhere makes it all NaN, as numpy)
        let floor = match db {
            Some((_, _, top_db)) if top_db.is_finite() => {
                let mut mx = f64::NEG_INFINITY;
                let mut nan = false;
                for v in &tmp {
                    nan |= v.is_nan();
                    mx = mx.max(v.to_f64());
                }
                Some(if nan { f64::NAN } else { mx - top_db })
            }
            _ => None,
        };
        // transpose frames × n_mels → n_mels × frames in tiles
        const TB: usize = 64;
        for t0 in (0..frames).step_by(TB) {
            let t1 = (t0 + TB).min(frames);
            for m in 0..nm {
                let dst = &mut y[m * frames + t0..m * frames + t1];
                for (t, d) in (t0..t1).zip(dst.iter_mut()) {
                    let v = tmp[t * nm + m];
                    *d = match floor {
                        None => v,
                        Some(f) if f.is_nan() => T::NAN,
                        Some(f) => {
                            let f = <T as Float>::from_f64(f);
                            if v < f {
                                f
                            } else {
                                v
                            }
                        }
                    };
                }
            }
        }
        Ok(())
    }
}

/// `10·log10(max(amin, v)) − off`, NaN for NaN (np.maximum propagates it).
#[inline]
fn db_of(v: f64, amin: f64, off: f64) -> f64 {
    if v.is_nan() {
        f64::NAN
    } else {
        10.0 * amin.max(v).log10() - off
    }
}

/// `10·log10(max(amin, |ref|))`, with the same logarithm the values get (so a value equal to
/// `ref` is exactly 0 dB, as in librosa).
fn db_offset(amin: f64, reference: f64) -> f64 {
    let a = amin.max(reference.abs());
    if (f64::MIN_POSITIVE..f64::INFINITY).contains(&a) {
        10.0 / std::f64::consts::LN_10 * ln_normal(a)
    } else {
        10.0 * a.log10()
    }
}

/// `ln(x)` for positive, normal, finite `x`, branch-free so a loop of it vectorises: `x = 2^e·m`
/// with `m ∈ [√½, √2)`, `ln m = 2·atanh(s)`, `s = (m − 1)/(m + 1)`, `|s| ≤ 0.1716`, by its series
/// to `s²¹` (truncation below 3e-17). Relative error a few ulps (checked against `f64::ln`).
#[inline(always)]
fn ln_normal(x: f64) -> f64 {
    let bits = x.to_bits();
    let mut e = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    let big = m > std::f64::consts::SQRT_2;
    m = if big { m * 0.5 } else { m };
    e += big as i64;
    let s = (m - 1.0) / (m + 1.0);
    let z = s * s;
    let mut p = 1.0 / 21.0;
    for k in (0..10).rev() {
        p = p * z + 1.0 / (2 * k + 1) as f64;
    }
    e as f64 * std::f64::consts::LN_2 + 2.0 * s * p
}

/// In place: `v ← 10·log10(max(amin, v)) − off` (NaN stays NaN), fast path for normal finite
/// arguments, the exact library `log10` for the rest.
#[inline(always)]
fn db_slice_body<T: FftFloat>(v: &mut [T], amin: f64, off: f64) {
    let k = 10.0 / std::f64::consts::LN_10;
    for x in v.iter_mut() {
        let a = amin.max(x.to_f64());
        *x = <T as Float>::from_f64(k * ln_normal(a) - off);
    }
}

crate::simd::multiversion! {
    /// The dB conversion of one frame at a SIMD level (special arguments fixed up by `db_slice`).
    fn db_slice_at<T: FftFloat>(v: &mut [T], amin: f64, off: f64) -> ();
    scalar = db_slice_body; simd = db_slice_body;
}

/// `v ← 10·log10(max(amin, v)) − off` for a slice, equal to [`db_of`] within a few ulps.
fn db_slice<T: FftFloat>(v: &mut [T], amin: f64, off: f64) {
    let special =
        |x: f64| x.is_nan() || !(amin.max(x) >= f64::MIN_POSITIVE && amin.max(x) < f64::INFINITY);
    if v.iter().any(|x| special(x.to_f64())) {
        for x in v.iter_mut() {
            *x = <T as Float>::from_f64(db_of(x.to_f64(), amin, off));
        }
    } else {
        db_slice_at(crate::simd::current(), v, amin, off);
    }
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

    #[test]
    fn fast_log_matches_std() {
        let mut rng = crate::kernels::testutil::Rng::new(5);
        let mut xs: Vec<f64> = (0..20000)
            .map(|_| 10f64.powf(rng.uniform() * 300.0))
            .collect();
        xs.extend([
            1.0,
            10.0,
            1e-10,
            f64::MIN_POSITIVE,
            f64::MAX,
            std::f64::consts::SQRT_2,
            std::f64::consts::FRAC_1_SQRT_2,
            1.0 + 1e-15,
        ]);
        for &x in &xs {
            let (a, b) = (ln_normal(x), x.ln());
            assert!(
                (a - b).abs() <= 4.0 * f64::EPSILON * b.abs().max(1.0),
                "{x}: {a} vs {b}"
            );
        }
        for level in crate::simd::available() {
            let mut v = xs.clone();
            db_slice_at(level, &mut v, f64::MIN_POSITIVE, 0.0);
            for (d, &x) in v.iter().zip(&xs) {
                let want = 10.0 * x.log10();
                assert!(
                    (d - want).abs() < 1e-14 * want.abs().max(1.0),
                    "{x} {level:?}"
                );
            }
        }
        // special values take the exact path
        let mut v = [f64::NAN, 0.0, f64::INFINITY, 1e-310, 2.0];
        db_slice(&mut v, 1e-320, 0.0);
        assert!(v[0].is_nan());
        assert_eq!(v[2], f64::INFINITY);
        assert!((v[1] - 10.0 * 1e-320f64.log10()).abs() < 1e-9);
        assert!((v[3] - 10.0 * 1e-310f64.log10()).abs() < 1e-9);
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
}
