//! Phase vocoder and time-stretch as librosa computes them (`librosa.phase_vocoder`,
//! `librosa.effects.time_stretch`), evaluated in double precision.
//!
//! The phase accumulator as a unit phasor. librosa advances its accumulator by
//! `phi + wrap(angle(c1) − angle(c0) − phi)`, which is `angle(c1) − angle(c0)` plus a whole
//! multiple of 2π, and only the cosine and sine of the accumulator reach the output. So the
//! output equals `mag · u` with `u` the unit phasor that starts at `D[..., 0] / |D[..., 0]|` and
//! is multiplied by `(c1/|c1|)·conj(c0/|c0|)` per output frame: no `atan2`, `cos` or `sin`, and
//! no growth of the accumulator (librosa's reaches `hop·π·frames` radians, where a double's
//! spacing is ~1e-10 rad; a float's, in its float32 path, ~1e-2 rad). The result does not depend
//! on `hop_length`/`n_fft` (their expected phase advance cancels), nor on torchaudio's
//! `phase_advance`, except through rounding.

use super::fft::{FftFloat, Norm, PlanCache};
use super::stft::{stft, PadMode, StftParams};
use super::Complex;
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::{try_vec, try_with_capacity};
use crate::kernels::par::{par_rows_with, threads_for};
use crate::kernels::Float;

/// Largest output frame count or length the kernels compute (2^52: every count is exact in a
/// double, as `frames / rate` is computed).
const MAX_COUNT: f64 = 4_503_599_627_370_496.0;

/// Checks a stretch rate: finite and positive.
pub fn check_rate(rate: f64) -> SkResult<()> {
    if !(rate.is_finite() && rate > 0.0) {
        return Err(SkError::BadArgument(format!(
            "rate = {rate} must be finite and positive"
        )));
    }
    Ok(())
}

/// Frames of the stretched spectrogram: `len(np.arange(0, frames, rate))` = `⌈frames / rate⌉`.
pub fn pv_frames(frames: usize, rate: f64) -> SkResult<usize> {
    check_rate(rate)?;
    if frames == 0 {
        return Err(SkError::Length(
            "frames = 0: the phase vocoder starts from the first frame".into(),
        ));
    }
    let q = (frames as f64 / rate).ceil();
    if q.is_nan() || q > MAX_COUNT {
        return Err(SkError::Length(format!(
            "frames = {frames} at rate = {rate} gives {q:e} output frames"
        )));
    }
    Ok(q as usize)
}

/// Magnitude and unit phasor of `c` (`|c|`, `c/|c|`): the phasor of `angle(c)` (`atan2`'s
/// conventions for zeros: `(±1, 0)` by the sign of the real part), NaN for non-finite values.
#[inline]
fn polar_slow(c: Complex<f64>) -> (f64, Complex<f64>) {
    let s = c.re.abs().max(c.im.abs());
    if s == 0.0 {
        let one = if c.re.is_sign_negative() { -1.0 } else { 1.0 };
        return (0.0, Complex::new(one, 0.0));
    }
    if !s.is_finite() || c.re.is_nan() || c.im.is_nan() {
        return (c.re.hypot(c.im), Complex::new(f64::NAN, f64::NAN));
    }
    let (a, b) = (c.re / s, c.im / s);
    let r = (a * a + b * b).sqrt();
    (s * r, Complex::new(a / r, b / r))
}

/// Magnitudes and unit phasors of one frame: a vectorisable pass for the usual range, then the
/// careful path for values whose squared magnitude is not a normal double well inside range.
pub(crate) fn polar_frame(d: &[Complex<f64>], mag: &mut [f64], unit: &mut [Complex<f64>]) {
    let mut odd = false;
    for ((c, m), u) in d.iter().zip(mag.iter_mut()).zip(unit.iter_mut()) {
        let ss = c.re * c.re + c.im * c.im;
        let r = ss.sqrt();
        let inv = 1.0 / r;
        *m = r;
        *u = Complex::new(c.re * inv, c.im * inv);
        odd |= !(ss > 1e-290 && ss < 1e290);
    }
    if odd {
        for ((c, m), u) in d.iter().zip(mag.iter_mut()).zip(unit.iter_mut()) {
            let ss = c.re * c.re + c.im * c.im;
            if !(ss > 1e-290 && ss < 1e290) {
                (*m, *u) = polar_slow(*c);
            }
        }
    }
}

/// The phase vocoder of one spectrogram: `d` holds `frames × nf` bins (frame-major), `y`
/// receives `pv_frames(frames, rate) × nf` bins. Equal to `librosa.phase_vocoder(D, rate=rate)`
/// of `D = d.reshape(frames, nf).T` (see the module notes).
pub fn phase_vocoder(
    d: &[Complex<f64>],
    nf: usize,
    rate: f64,
    y: &mut [Complex<f64>],
) -> SkResult<()> {
    assert!(nf > 0 && d.len().is_multiple_of(nf), "spectrogram shape");
    let frames = d.len() / nf;
    let out = pv_frames(frames, rate)?;
    assert_eq!(y.len(), out * nf, "phase vocoder output length");
    // the bins split into ranges over the worker threads (each bin's accumulator is its own
    // chain): one part per thread, each the same range of every output frame
    let parts = threads_for(nf, out.saturating_mul(nf).saturating_mul(8));
    let width = nf.div_ceil(parts);
    let mut jobs: Vec<(usize, Vec<&mut [Complex<f64>]>)> =
        try_with_capacity(parts, "the bin ranges")?;
    for k in 0..parts {
        jobs.push((k * width, try_with_capacity(out, "the bin ranges")?));
    }
    for row in y.chunks_exact_mut(nf) {
        let mut rest = row;
        for (_, rows) in jobs.iter_mut() {
            let w = width.min(rest.len());
            let (a, b) = std::mem::take(&mut rest).split_at_mut(w);
            rows.push(a);
            rest = b;
        }
    }
    par_rows_with(
        &mut jobs,
        1,
        out.saturating_mul(nf).saturating_mul(8),
        || PvBins::new(width),
        |st, _, chunk| {
            for (k0, rows) in chunk.iter_mut() {
                st.run(d, nf, frames, rate, *k0, rows);
            }
        },
    )
}

/// One thread's columns of [`phase_vocoder`] for a range of bins: the magnitudes and phasors
/// of the two input frames an output frame interpolates, and the accumulators.
struct PvBins {
    m0: Vec<f64>,
    m1: Vec<f64>,
    u0: Vec<Complex<f64>>,
    u1: Vec<Complex<f64>>,
    acc: Vec<Complex<f64>>,
}

impl PvBins {
    fn new(width: usize) -> SkResult<Self> {
        let one = Complex::new(1.0, 0.0);
        Ok(PvBins {
            m0: try_vec(width, 0.0, "the magnitudes")?,
            m1: try_vec(width, 0.0, "the magnitudes")?,
            u0: try_vec(width, one, "the phasors")?,
            u1: try_vec(width, one, "the phasors")?,
            acc: try_vec(width, one, "the phase accumulator")?,
        })
    }

    /// Bins `k0 .. k0 + w` of every output frame (`rows`, `w` bins each).
    fn run(
        &mut self,
        d: &[Complex<f64>],
        nf: usize,
        frames: usize,
        rate: f64,
        k0: usize,
        rows: &mut [&mut [Complex<f64>]],
    ) {
        let Some(w) = rows.first().map(|r| r.len()) else {
            return;
        };
        if w == 0 {
            return;
        }
        // input frame i's columns (past the last frame librosa's zero frames: magnitude 0,
        // phasor 1)
        let col = |i: usize, m: &mut [f64], u: &mut [Complex<f64>]| {
            if i < frames {
                polar_frame(&d[i * nf + k0..i * nf + k0 + w], m, u);
            } else {
                m.fill(0.0);
                u.fill(Complex::new(1.0, 0.0));
            }
        };
        col(0, &mut self.m0[..w], &mut self.u0[..w]);
        self.acc[..w].copy_from_slice(&self.u0[..w]);
        col(1, &mut self.m1[..w], &mut self.u1[..w]);
        // the columns held: i and i + 1
        let mut held = 0usize;
        for (t, yt) in rows.iter_mut().enumerate() {
            // librosa: time_steps = np.arange(0, frames, rate) = t·rate; columns int(step),
            // int(step) + 1; alpha = step mod 1
            let step = t as f64 * rate;
            let i = step as usize;
            let alpha = step - i as f64;
            let beta = 1.0 - alpha;
            if i != held {
                if i == held + 1 {
                    std::mem::swap(&mut self.m0, &mut self.m1);
                    std::mem::swap(&mut self.u0, &mut self.u1);
                } else {
                    col(i, &mut self.m0[..w], &mut self.u0[..w]);
                }
                col(i + 1, &mut self.m1[..w], &mut self.u1[..w]);
                held = i;
            }
            for ((((o, a), (&p, &q)), &v0), &v1) in yt
                .iter_mut()
                .zip(self.acc[..w].iter_mut())
                .zip(self.m0[..w].iter().zip(&self.m1[..w]))
                .zip(&self.u0[..w])
                .zip(&self.u1[..w])
            {
                let m = beta * p + alpha * q;
                *o = Complex::new(a.re * m, a.im * m);
                // a ← a · v1 · conj(v0)
                let r = Complex::new(v1.re * v0.re + v1.im * v0.im, v1.im * v0.re - v1.re * v0.im);
                *a = Complex::new(a.re * r.re - a.im * r.im, a.re * r.im + a.im * r.re);
            }
        }
    }
}

/// [`phase_vocoder`] of `rows` spectrograms of `frames × nf` bins each (frame-major, one after
/// the other) in `T`, computed in double: `y` holds `rows × pv_frames(frames, rate) × nf` bins.
pub fn phase_vocoder_rows<T: Float>(
    d: &[Complex<T>],
    nf: usize,
    frames: usize,
    rate: f64,
    y: &mut [Complex<T>],
) -> SkResult<()> {
    let out = pv_frames(frames, rate)?;
    let per = frames * nf;
    assert!(nf > 0 && d.len().is_multiple_of(per), "spectrogram shape");
    assert_eq!(
        y.len(),
        d.len() / per * out * nf,
        "phase vocoder output length"
    );
    let mut dd = try_vec(per, Complex::new(0.0, 0.0), "the spectrogram in double")?;
    let mut yd = try_vec(out * nf, Complex::new(0.0, 0.0), "the output in double")?;
    for (dr, yr) in d.chunks_exact(per).zip(y.chunks_exact_mut(out * nf)) {
        for (a, b) in dd.iter_mut().zip(dr) {
            *a = Complex::new(b.re.to_f64(), b.im.to_f64());
        }
        phase_vocoder(&dd, nf, rate, &mut yd)?;
        for (a, b) in yr.iter_mut().zip(&yd) {
            *a = Complex::new(<T as Float>::from_f64(b.re), <T as Float>::from_f64(b.im));
        }
    }
    Ok(())
}

/// Time-stretch parameters, librosa's `stft`/`istft` keywords.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StretchParams {
    pub rate: f64,
    pub n_fft: usize,
    pub hop: usize,
    pub win_length: usize,
    pub center: bool,
    pub pad_mode: PadMode,
}

impl StretchParams {
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

    /// Checks the rate and the STFT parameters.
    pub fn check(&self) -> SkResult<()> {
        check_rate(self.rate)?;
        self.stft().check()
    }

    /// `(frames, stretched frames, output length)` of an `n`-sample signal. The length is
    /// librosa's: `round(n / rate)` (ties to even), and when that is 0 (librosa's `istft` then
    /// takes no `length`) the full inverse length `n_fft + hop·(stretched − 1)`, less
    /// `2·(n_fft/2)` with `center`.
    pub fn sizes(&self, n: usize) -> SkResult<(usize, usize, usize)> {
        self.check()?;
        if n == 0 {
            return Err(SkError::Length("n = 0: nothing to stretch".into()));
        }
        let frames = self.stft().frames(n)?;
        let out = pv_frames(frames, self.rate)?;
        let l = (n as f64 / self.rate).round_ties_even();
        if l.is_nan() || l > MAX_COUNT {
            return Err(SkError::Length(format!(
                "n = {n} at rate = {} gives {l:e} output samples",
                self.rate
            )));
        }
        let mut len = l as usize;
        if len == 0 {
            len = self
                .hop
                .checked_mul(out - 1)
                .and_then(|v| v.checked_add(self.n_fft))
                .ok_or_else(|| SkError::Length("the inverse STFT length overflows".into()))?;
            if self.center {
                len -= 2 * (self.n_fft / 2);
            }
        }
        Ok((frames, out, len))
    }
}

/// The smallest positive normal value of `T` (librosa's `util.tiny`).
pub(crate) fn tiny<T: Float>() -> T {
    if T::NAME == "f32" {
        <T as Float>::from_f64(f32::MIN_POSITIVE as f64)
    } else {
        <T as Float>::from_f64(f64::MIN_POSITIVE)
    }
}

/// librosa's `istft(S, length=len)` for spectrograms of `frames` frames: inverse real FFT per
/// frame, times the n_fft-point window (zero-padded, centred), overlap-added (each product
/// formed in double and added into `T`, as librosa adds its float64 products into the output
/// dtype); divided by the overlap-added squared window where that exceeds the smallest normal
/// `T`; zero past the last frame. librosa uses only the frames that reach the output,
/// `min(frames, ⌈(len + 2·pad)/hop⌉)`. Holds the plan, the window and its envelope: one
/// `Ola` serves every spectrogram of that shape (Griffin-Lim's iterations).
pub(crate) struct Ola<T: FftFloat> {
    n_fft: usize,
    hop: usize,
    start: usize,
    used: usize,
    wp: Vec<f64>,
    sum: Vec<T>,
    plan: std::sync::Arc<super::fft::FftPlan<T>>,
}

impl<T: FftFloat + PlanCache> Ola<T> {
    /// `wp`: the n_fft-point padded window; `len`: the output length.
    pub(crate) fn new(
        wp: &[f64],
        hop: usize,
        center: bool,
        frames: usize,
        len: usize,
    ) -> SkResult<Self> {
        let n = wp.len();
        let start = if center { n / 2 } else { 0 };
        let used = frames.min((len + 2 * start).div_ceil(hop));
        let mut sum = try_vec(len, T::ZERO, "the window envelope")?;
        for t in 0..used {
            let f0 = t * hop;
            let a = f0.max(start);
            let b = (f0 + n).min(start + len);
            if a >= b {
                continue;
            }
            for (e, &w) in sum[a - start..b - start]
                .iter_mut()
                .zip(&wp[a - f0..b - f0])
            {
                *e = <T as Float>::from_f64(e.to_f64() + w * w);
            }
        }
        let mut w = try_vec(n, 0.0f64, "the padded window")?;
        w.copy_from_slice(wp);
        Ok(Ola {
            n_fft: n,
            hop,
            start,
            used,
            wp: w,
            sum,
            plan: T::cached_real_plan(n)?,
        })
    }

    /// The inverse of `s` (`frames × (n_fft/2+1)` bins, frame-major) into `y` (len samples).
    pub(crate) fn run(&self, s: &[Complex<T>], y: &mut [T]) -> SkResult<()> {
        self.run_strided(s, self.n_fft / 2 + 1, y)
    }

    /// As [`Ola::run`] with frame `t`'s bins at `s[t·stride ..]`. The output is split into
    /// sample ranges over the worker threads; each range transforms the frames that reach it
    /// and adds them in frame order, so every sample gets the sums of the one-pass loop.
    pub(crate) fn run_strided(&self, s: &[Complex<T>], stride: usize, y: &mut [T]) -> SkResult<()> {
        par_rows_with(
            y,
            self.hop,
            self.used * self.n_fft * 4,
            || self.range_scratch(),
            |st, first, chunk| self.range(s, stride, first * self.hop, chunk, st),
        )
    }

    /// Scratch of [`Ola::range`]: an FFT workspace, one frame's bins and samples.
    #[allow(clippy::type_complexity)]
    fn range_scratch(&self) -> SkResult<(super::fft::Workspace<T>, Vec<Complex<T>>, Vec<T>)> {
        let n = self.n_fft;
        Ok((
            self.plan.workspace()?,
            try_vec(n / 2 + 1, Complex::new(T::ZERO, T::ZERO), "bins")?,
            try_vec(n, T::ZERO, "an inverse frame")?,
        ))
    }

    /// Output samples `a0 .. a0 + y.len()` of the inverse (see [`Ola::run_strided`]).
    #[allow(clippy::type_complexity)]
    fn range(
        &self,
        s: &[Complex<T>],
        stride: usize,
        a0: usize,
        y: &mut [T],
        (ws, spec, fr): &mut (super::fft::Workspace<T>, Vec<Complex<T>>, Vec<T>),
    ) {
        let (n, hop, start) = (self.n_fft, self.hop, self.start);
        let nf = n / 2 + 1;
        // padded positions p0 .. p1; frame t covers t·hop .. t·hop + n
        let (p0, p1) = (a0 + start, a0 + start + y.len());
        y.fill(T::ZERO);
        if p1 == p0 {
            return;
        }
        let t_lo = if p0 >= n { (p0 - n) / hop + 1 } else { 0 };
        let t_hi = self.used.min(p1.div_ceil(hop));
        for t in t_lo..t_hi {
            let f0 = t * hop;
            let a = f0.max(p0);
            let b = (f0 + n).min(p1);
            if a >= b {
                continue;
            }
            spec.copy_from_slice(&s[t * stride..t * stride + nf]);
            self.plan
                .irfft_inplace_input(spec, fr, Norm::Backward, &mut ws.cplx);
            for (o, (&f, &w)) in y[a - p0..b - p0]
                .iter_mut()
                .zip(fr[a - f0..b - f0].iter().zip(&self.wp[a - f0..b - f0]))
            {
                *o = <T as Float>::from_f64(o.to_f64() + w * f.to_f64());
            }
        }
        let tiny = tiny::<T>();
        let env = &self.sum[a0..a0 + y.len()];
        for (o, &e) in y.iter_mut().zip(env) {
            if e > tiny {
                *o = *o / e;
            }
        }
    }

    /// The one-pass loop [`Ola::run`] must equal: every used frame transformed, then added.
    #[cfg(test)]
    pub(crate) fn run_whole(&self, s: &[Complex<T>], y: &mut [T]) {
        let (n, hop, start, len) = (self.n_fft, self.hop, self.start, y.len());
        let nf = n / 2 + 1;
        let mut buf = vec![T::ZERO; self.used * n];
        let mut ws = self.plan.workspace().unwrap();
        let mut spec = vec![Complex::new(T::ZERO, T::ZERO); nf];
        for (t, fr) in buf.chunks_exact_mut(n).enumerate() {
            spec.copy_from_slice(&s[t * nf..(t + 1) * nf]);
            self.plan
                .irfft_inplace_input(&mut spec, fr, Norm::Backward, &mut ws.cplx);
        }
        y.fill(T::ZERO);
        for (t, fr) in buf.chunks_exact(n).enumerate() {
            let f0 = t * hop;
            let a = f0.max(start);
            let b = (f0 + n).min(start + len);
            if a >= b {
                continue;
            }
            for (o, (&f, &w)) in y[a - start..b - start]
                .iter_mut()
                .zip(fr[a - f0..b - f0].iter().zip(&self.wp[a - f0..b - f0]))
            {
                *o = <T as Float>::from_f64(o.to_f64() + w * f.to_f64());
            }
        }
        let tiny = tiny::<T>();
        for (o, &e) in y.iter_mut().zip(&self.sum) {
            if e > tiny {
                *o = *o / e;
            }
        }
    }
}

/// `librosa.effects.time_stretch(x, rate=rate, n_fft=…, hop_length=…, win_length=…,
/// window=…, center=…, pad_mode=…)` of each row of `x` (`rows × n`) into `y`
/// (`rows × len`, len from [`StretchParams::sizes`]), computed in double precision; `window`
/// holds `win_length` values (centred and zero-padded to n_fft as librosa does).
pub fn time_stretch<T: Float>(
    x: &[T],
    n: usize,
    window: &[f64],
    p: &StretchParams,
    y: &mut [T],
) -> SkResult<()> {
    let (frames, out, len) = p.sizes(n)?;
    assert_eq!(window.len(), p.win_length, "window length");
    let rows = x.len().checked_div(n).unwrap_or(0);
    assert_eq!(y.len(), rows * len, "time_stretch output length");
    let nf = p.n_fft / 2 + 1;
    // all memory before the first write
    let sp = p.stft();
    let mut wp = try_vec(p.n_fft, 0.0f64, "the padded window")?;
    let lo = (p.n_fft - p.win_length) / 2;
    wp[lo..lo + p.win_length].copy_from_slice(window);
    let mut xd = try_vec(n, 0.0f64, "the signal in double")?;
    let mut spec = try_vec(frames * nf, Complex::new(0.0, 0.0), "the spectrogram")?;
    let mut st = try_vec(
        out * nf,
        Complex::new(0.0, 0.0),
        "the stretched spectrogram",
    )?;
    let mut yd = try_vec(len, 0.0f64, "the output in double")?;
    let ola = Ola::<f64>::new(&wp, p.hop, p.center, out, len)?;
    for (xr, yr) in x.chunks_exact(n.max(1)).zip(y.chunks_exact_mut(len.max(1))) {
        for (d, &s) in xd.iter_mut().zip(xr) {
            *d = s.to_f64();
        }
        stft(&xd, window, &sp, &mut spec)?;
        phase_vocoder(&spec, nf, p.rate, &mut st)?;
        ola.run(&st, &mut yd)?;
        for (o, &v) in yr.iter_mut().zip(&yd) {
            *o = <T as Float>::from_f64(v);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;

    /// librosa's loop, transcribed with atan2/cos/sin (the reference the phasor form must equal).
    fn pv_angles(d: &[Complex<f64>], nf: usize, rate: f64, hop: usize) -> Vec<Complex<f64>> {
        let frames = d.len() / nf;
        let n_fft = 2 * (nf - 1);
        let out = pv_frames(frames, rate).unwrap();
        let col = |i: usize, f: usize| {
            if i < frames {
                d[i * nf + f]
            } else {
                Complex::new(0.0, 0.0)
            }
        };
        let val = 1.0 / (n_fft as f64 * (1.0 / (2.0 * std::f64::consts::PI)));
        let phi: Vec<f64> = (0..nf).map(|k| hop as f64 * (k as f64 * val)).collect();
        let mut acc: Vec<f64> = (0..nf).map(|f| col(0, f).im.atan2(col(0, f).re)).collect();
        let mut y = vec![Complex::new(0.0, 0.0); out * nf];
        let tau = 2.0 * std::f64::consts::PI;
        for t in 0..out {
            let step = t as f64 * rate;
            let i = step as usize;
            let alpha = step % 1.0;
            for f in 0..nf {
                let (c0, c1) = (col(i, f), col(i + 1, f));
                let m = (1.0 - alpha) * c0.re.hypot(c0.im) + alpha * c1.re.hypot(c1.im);
                y[t * nf + f] = Complex::new(acc[f].cos() * m, acc[f].sin() * m);
                let mut dp = c1.im.atan2(c1.re) - c0.im.atan2(c0.re) - phi[f];
                dp -= tau * (dp / tau).round_ties_even();
                acc[f] += phi[f] + dp;
            }
        }
        y
    }

    #[test]
    fn phasor_form_equals_librosa_loop() {
        let mut r = Rng::new(7);
        for &(nf, frames, rate) in &[
            (9usize, 40usize, 1.25f64),
            (5, 7, 0.7),
            (17, 3, 2.5),
            (2, 1, 0.3),
        ] {
            let mut d: Vec<Complex<f64>> = (0..nf * frames)
                .map(|_| Complex::new(r.uniform(), r.uniform()))
                .collect();
            // zeros, signed zeros and a tiny and a huge value take the careful path
            d[0] = Complex::new(-0.0, 0.0);
            if d.len() > 3 {
                d[1] = Complex::new(1e-170, -3e-171);
                d[2] = Complex::new(3e160, 1e159);
                d[3] = Complex::new(0.0, 0.0);
            }
            let want = pv_angles(&d, nf, rate, 4);
            let mut got = vec![Complex::new(0.0, 0.0); want.len()];
            phase_vocoder(&d, nf, rate, &mut got).unwrap();
            for (g, w) in got.iter().zip(&want) {
                let scale = w.re.hypot(w.im).max(1e-300);
                assert!(
                    (g - w).norm() <= 1e-12 * scale,
                    "nf {nf} frames {frames} rate {rate}: {g} vs {w}"
                );
            }
        }
    }

    #[test]
    fn sizes_and_errors() {
        assert_eq!(pv_frames(10, 1.25).unwrap(), 8);
        assert_eq!(pv_frames(10, 0.5).unwrap(), 20);
        assert!(pv_frames(0, 1.0).is_err());
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(check_rate(bad).is_err());
        }
        let p = StretchParams {
            rate: 1.25,
            n_fft: 16,
            hop: 4,
            win_length: 16,
            center: true,
            pad_mode: PadMode::Constant,
        };
        // 100 samples: 26 frames, 21 stretched, round(80) samples
        assert_eq!(p.sizes(100).unwrap(), (26, 21, 80));
        // round(2.5) = 2 (ties to even)
        let q = StretchParams { rate: 2.0, ..p };
        assert_eq!(q.sizes(5).unwrap().2, 2);
        // length 0 -> librosa's full inverse length
        let z = StretchParams { rate: 100.0, ..p };
        let (_, out, len) = z.sizes(20).unwrap();
        assert_eq!(len, 16 + 4 * (out - 1) - 16);
    }

    #[test]
    fn rate_one_reconstructs_interior() {
        // rate 1: the phase vocoder returns the spectrogram itself (up to rounding), so the
        // stretch is the STFT round trip: the signal back
        let mut r = Rng::new(3);
        let x: Vec<f64> = (0..300).map(|_| r.uniform()).collect();
        let w: Vec<f64> = (0..32)
            .map(|i| 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / 32.0).cos())
            .collect();
        let p = StretchParams {
            rate: 1.0,
            n_fft: 32,
            hop: 8,
            win_length: 32,
            center: true,
            pad_mode: PadMode::Constant,
        };
        let (_, _, len) = p.sizes(300).unwrap();
        assert_eq!(len, 300);
        let mut y = vec![0.0; len];
        time_stretch(&x, 300, &w, &p, &mut y).unwrap();
        for (a, b) in x.iter().zip(&y) {
            assert!((a - b).abs() < 1e-12, "{a} vs {b}");
        }
    }

    #[test]
    fn ranged_inverse_equals_the_one_pass_loop() {
        // the output cut into ranges of assorted sizes (as the thread split cuts it) gives the
        // bits of the one-pass loop
        let mut r = Rng::new(9);
        for &(n, hop, center, frames, len) in &[
            (32usize, 8usize, true, 40usize, 312usize),
            (32, 8, false, 40, 300),
            (30, 7, true, 25, 100),
            (16, 16, false, 9, 150),
        ] {
            let nf = n / 2 + 1;
            let wp: Vec<f64> = (0..n).map(|_| r.uniform()).collect();
            let s: Vec<Complex<f64>> = (0..frames * nf)
                .map(|_| Complex::new(r.uniform() - 0.5, r.uniform() - 0.5))
                .collect();
            let ola = Ola::<f64>::new(&wp, hop, center, frames, len).unwrap();
            let mut want = vec![0.0; len];
            ola.run_whole(&s, &mut want);
            let mut got = vec![0.0; len];
            ola.run(&s, &mut got).unwrap();
            assert_eq!(got, want);
            let mut st = ola.range_scratch().unwrap();
            let mut got = vec![f64::NAN; len];
            let mut a0 = 0;
            for size in [1usize, 5, 33, 2, 64, 7].iter().cycle() {
                if a0 >= len {
                    break;
                }
                let b = (a0 + size).min(len);
                ola.range(&s, nf, a0, &mut got[a0..b], &mut st);
                a0 = b;
            }
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(g.to_bits(), w.to_bits());
            }
        }
    }

    /// The whole-spectrogram form [`phase_vocoder`] must equal bit for bit: every frame's
    /// magnitudes and phasors first, then the output frames in order.
    fn pv_whole(d: &[Complex<f64>], nf: usize, rate: f64) -> Vec<Complex<f64>> {
        let frames = d.len() / nf;
        let out = pv_frames(frames, rate).unwrap();
        let mut mag = vec![0.0; (frames + 2) * nf];
        let mut unit = vec![Complex::new(1.0, 0.0); (frames + 2) * nf];
        for t in 0..frames {
            let r = t * nf..(t + 1) * nf;
            polar_frame(&d[r.clone()], &mut mag[r.clone()], &mut unit[r]);
        }
        let mut acc = unit[..nf].to_vec();
        let mut y = vec![Complex::new(0.0, 0.0); out * nf];
        for (t, yt) in y.chunks_exact_mut(nf).enumerate() {
            let step = t as f64 * rate;
            let i = step as usize;
            let alpha = step - i as f64;
            for f in 0..nf {
                let (p, q) = (mag[i * nf + f], mag[(i + 1) * nf + f]);
                let (v0, v1) = (unit[i * nf + f], unit[(i + 1) * nf + f]);
                let m = (1.0 - alpha) * p + alpha * q;
                let a = &mut acc[f];
                yt[f] = Complex::new(a.re * m, a.im * m);
                let r = Complex::new(v1.re * v0.re + v1.im * v0.im, v1.im * v0.re - v1.re * v0.im);
                *a = Complex::new(a.re * r.re - a.im * r.im, a.re * r.im + a.im * r.re);
            }
        }
        y
    }

    #[test]
    fn bin_ranges_equal_the_whole_form() {
        // large enough for the split over threads; rates that step 0, 1 and 2 frames at a time
        let mut r = Rng::new(13);
        for &(nf, frames, rate) in &[
            (257usize, 160usize, 1.25f64),
            (257, 130, 0.4),
            (300, 200, 2.7),
            (3, 11, 1.5),
        ] {
            let mut d: Vec<Complex<f64>> = (0..nf * frames)
                .map(|_| Complex::new(r.uniform() - 0.5, r.uniform() - 0.5))
                .collect();
            d[5] = Complex::new(0.0, -0.0);
            d[7] = Complex::new(1e-200, 0.0);
            let want = pv_whole(&d, nf, rate);
            let mut got = vec![Complex::new(f64::NAN, 0.0); want.len()];
            phase_vocoder(&d, nf, rate, &mut got).unwrap();
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(
                    (g.re.to_bits(), g.im.to_bits()),
                    (w.re.to_bits(), w.im.to_bits())
                );
            }
        }
    }
}
