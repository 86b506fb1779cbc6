//! Mel filterbanks equal to `librosa.filters.mel` (HTK or Slaney scale; no or Slaney
//! normalisation), mel spectrograms equal to `librosa.feature.melspectrogram` and dB conversion
//! equal to `librosa.power_to_db`.

use super::fft::{FftFloat, PlanCache, MAX_FFT_LEN};
use super::logtail::{self, LnFast, LogTail};
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

    /// The first `frames_out` frames (at most [`MelPlan::frames`]) of the mel spectrogram of
    /// `x` into `y` (`n_mels × frames_out`), each value put through `tail`'s logarithm if given
    /// (no floor: the caller floors, per signal or over a batch). Returns the largest value
    /// written and whether any was NaN (the floor's inputs).
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
            if let Some(t) = tail {
                logtail::log_pass(out, t);
            }
        })?;
        // transpose frames × n_mels → n_mels × frames in tiles, over the kept frames only
        let mut mx = f64::NEG_INFINITY;
        let mut nan = false;
        const TB: usize = 64;
        for t0 in (0..frames_out).step_by(TB) {
            let t1 = (t0 + TB).min(frames_out);
            for m in 0..nm {
                let dst = &mut y[m * frames_out + t0..m * frames_out + t1];
                for (t, d) in (t0..t1).zip(dst.iter_mut()) {
                    *d = tmp[t * nm + m];
                }
            }
        }
        if tail.is_some() {
            for v in tmp[..frames_out * nm].iter() {
                nan |= v.is_nan();
                let v = v.to_f64();
                if v > mx {
                    mx = v;
                }
            }
        }
        Ok((mx, nan))
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
