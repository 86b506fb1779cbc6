//! Streaming time-stretch: [`super::vocoder::time_stretch`] fed block by block, with a rate that
//! may change between blocks.
//!
//! The input frames come from a [`StftStream`] (the one-call STFT's frames, bit for bit); each
//! output frame is made as soon as the two input frames it reads are complete, inverted and
//! overlap-added into a ring in the one-call order; a sample is returned once every frame that
//! covers it has been added. At a fixed rate the concatenated output equals the one-call
//! result bit for bit (same operations in the same order).
//!
//! A rate change applies from the next output frame on: output frame `t` reads input position
//! `step(t)`, with `step(t) = t·rate` at a fixed rate and `step(t) = step(t−1) + rate` for the
//! first frame made after a change. The stream's length at the end is the input length mapped
//! through the same piecewise-linear clock, `round(hop·t0 + (n − hop·step(t0)) / rate)` with `t0`
//! the frame of the last change (`round(n / rate)` at a fixed rate, as the one-call length),
//! and never less than what was already returned.

use super::fft::{FftPlan, Norm, PlanCache, Workspace};
use super::stft::{PadMode, StftParams, StftStream};
use super::vocoder::{check_rate, polar_frame, pv_frames, tiny};
use super::Complex;
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::Float;
use std::sync::Arc;

/// Creation parameters of a [`StretchStream`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StreamParams {
    pub n_fft: usize,
    pub hop: usize,
    pub win_length: usize,
    pub center: bool,
    pub pad_mode: PadMode,
    pub rate: f64,
    pub min_rate: f64,
    pub max_rate: f64,
    pub max_block: usize,
}

/// A streaming phase-vocoder time-stretch (see the module notes).
pub struct StretchStream {
    sp: StreamParams,
    stft: StftStream<f64>,
    nf: usize,
    pad: usize,
    rate: f64,
    /// Polar form of the held input frames, from frame `f0` on (`held` frames).
    mag: Vec<f64>,
    unit: Vec<Complex<f64>>,
    f0: usize,
    held: usize,
    fcap: usize,
    frames_in: usize,
    /// The STFT's output for one block and the block in double.
    spec: Vec<Complex<f64>>,
    xd: Vec<f64>,
    /// librosa's zero frames past the end.
    zmag: Vec<f64>,
    zunit: Vec<Complex<f64>>,
    acc: Vec<Complex<f64>>,
    /// Next output frame, the frame of the last rate change and its step.
    t: usize,
    t0: usize,
    base: f64,
    changed: bool,
    plan: Arc<FftPlan<f64>>,
    ws: Workspace<f64>,
    bins: Vec<Complex<f64>>,
    fr: Vec<f64>,
    wp: Vec<f64>,
    /// Overlap-added frames and squared window from padded output position `obase` on.
    ola: Vec<f64>,
    env: Vec<f64>,
    obase: usize,
    emitted: usize,
    n_in: usize,
    max_out: usize,
}

fn frames_for(n: usize, hop: usize) -> usize {
    n / hop + 2
}

impl StretchStream {
    /// A stream for blocks of up to `max_block` samples at rates in `[min_rate, max_rate]`;
    /// `window` holds win_length values (centred and zero-padded to n_fft). All memory is
    /// taken here.
    pub fn new(window: &[f64], sp: &StreamParams) -> SkResult<Self> {
        for (name, r) in [
            ("rate", sp.rate),
            ("min_rate", sp.min_rate),
            ("max_rate", sp.max_rate),
        ] {
            check_rate(r).map_err(|_| {
                SkError::BadArgument(format!("{name} = {r} must be finite and positive"))
            })?;
        }
        if !(sp.min_rate <= sp.rate && sp.rate <= sp.max_rate && sp.max_rate <= 1024.0) {
            return Err(SkError::BadArgument(format!(
                "need min_rate <= rate <= max_rate <= 1024, got {} <= {} <= {}",
                sp.min_rate, sp.rate, sp.max_rate
            )));
        }
        if sp.max_block == 0 || sp.max_block > 1 << 24 {
            return Err(SkError::BadArgument(format!(
                "max_block = {} must be in 1..=2^24",
                sp.max_block
            )));
        }
        let p = StftParams {
            n_fft: sp.n_fft,
            hop: sp.hop,
            win_length: sp.win_length,
            center: sp.center,
            pad_mode: sp.pad_mode,
            onesided: true,
            normalized: false,
        };
        p.check()?;
        assert_eq!(window.len(), sp.win_length, "window length");
        let (n, hop) = (sp.n_fft, sp.hop);
        let nf = n / 2 + 1;
        let pad = p.pad();
        // frames one block (or the end padding) can complete, and the output bounds
        let fnew = frames_for(sp.max_block + 2 * pad + n, hop);
        let fcap = fnew + sp.max_rate.ceil() as usize + 4;
        let out_frames = ((fnew as f64 + sp.max_rate.ceil()) / sp.min_rate).ceil() + 4.0;
        if out_frames * (hop as f64) > (1u64 << 28) as f64 {
            return Err(SkError::BadArgument(format!(
                "max_block = {} at min_rate = {} needs an output buffer of more than 2^28 samples",
                sp.max_block, sp.min_rate
            )));
        }
        let max_out = out_frames as usize * hop + 2 * n + 2;
        let ocap = max_out + n + 2 * hop;
        let mut stft = StftStream::new(&p, window)?;
        stft.reserve(sp.max_block)?;
        let mut wp = try_vec(n, 0.0f64, "the padded window")?;
        let lo = (n - sp.win_length) / 2;
        wp[lo..lo + sp.win_length].copy_from_slice(window);
        let plan = f64::cached_real_plan(n)?;
        let ws = plan.workspace()?;
        let zero = Complex::new(0.0, 0.0);
        let one = Complex::new(1.0, 0.0);
        let mut s = StretchStream {
            sp: *sp,
            stft,
            nf,
            pad,
            rate: sp.rate,
            mag: try_vec(fcap * nf, 0.0, "the input magnitudes")?,
            unit: try_vec(fcap * nf, one, "the input phasors")?,
            f0: 0,
            held: 0,
            fcap,
            frames_in: 0,
            spec: try_vec(fnew * nf, zero, "the block's frames")?,
            xd: try_vec(sp.max_block, 0.0, "the block in double")?,
            zmag: try_vec(nf, 0.0, "a zero frame")?,
            zunit: try_vec(nf, one, "a zero frame")?,
            acc: try_vec(nf, zero, "the phase accumulator")?,
            t: 0,
            t0: 0,
            base: 0.0,
            changed: false,
            plan,
            ws,
            bins: try_vec(nf, zero, "an output frame")?,
            fr: try_vec(n, 0.0, "an inverse frame")?,
            wp,
            ola: try_vec(ocap, 0.0, "the overlap-add ring")?,
            env: try_vec(ocap, 0.0, "the window envelope ring")?,
            obase: 0,
            emitted: 0,
            n_in: 0,
            max_out,
        };
        s.reset();
        Ok(s)
    }

    /// The output capacity every `process` and `flush` call needs.
    pub fn max_out(&self) -> usize {
        self.max_out
    }

    pub fn max_block(&self) -> usize {
        self.sp.max_block
    }

    /// Output frames made since the signal started.
    pub fn frames_out(&self) -> usize {
        self.t
    }

    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// Forgets the signal (the rate stays).
    pub fn reset(&mut self) {
        self.stft.reset();
        self.f0 = 0;
        self.held = 0;
        self.frames_in = 0;
        self.t = 0;
        self.t0 = 0;
        self.base = 0.0;
        self.changed = false;
        self.ola.fill(0.0);
        self.env.fill(0.0);
        self.obase = 0;
        self.emitted = 0;
        self.n_in = 0;
    }

    /// Sets the rate of the output frames made from now on.
    pub fn set_rate(&mut self, rate: f64) -> SkResult<()> {
        check_rate(rate)?;
        if !(self.sp.min_rate <= rate && rate <= self.sp.max_rate) {
            return Err(SkError::BadArgument(format!(
                "rate = {rate} is outside the stream's [min_rate, max_rate] = [{}, {}]",
                self.sp.min_rate, self.sp.max_rate
            )));
        }
        if rate != self.rate {
            if self.t > 0 {
                self.base = self.step(self.t - 1);
                self.t0 = self.t - 1;
            }
            self.rate = rate;
            self.changed = true;
        }
        Ok(())
    }

    fn step(&self, t: usize) -> f64 {
        self.base + (t - self.t0) as f64 * self.rate
    }

    /// The output length the input seen so far maps to (unrounded).
    fn mapped_len(&self) -> f64 {
        let hop = self.sp.hop as f64;
        hop * self.t0 as f64 + (self.n_in as f64 - hop * self.base) / self.rate
    }

    fn check_out(&self, y_len: usize) -> SkResult<()> {
        if y_len < self.max_out {
            return Err(SkError::BufferTooSmall(format!(
                "y holds {y_len} samples but the stream may return up to {} (sk_stretch_stream_max_out)",
                self.max_out
            )));
        }
        Ok(())
    }

    /// Appends `x` (at most `max_block` samples) and writes the samples now final to `y`
    /// (at least `max_out` long); returns their count.
    pub fn process<T: Float>(&mut self, x: &[T], y: &mut [T]) -> SkResult<usize> {
        if x.len() > self.sp.max_block {
            return Err(SkError::BadArgument(format!(
                "n = {} exceeds the stream's max_block = {}",
                x.len(),
                self.sp.max_block
            )));
        }
        self.check_out(y.len())?;
        let k = self.stft.push_frames(x.len())?;
        let n_in = self
            .n_in
            .checked_add(x.len())
            .ok_or_else(|| SkError::Length("the stream's count of samples overflows".into()))?;
        let nf = self.nf;
        for (d, &s) in self.xd.iter_mut().zip(x) {
            *d = s.to_f64();
        }
        let got = self
            .stft
            .push(&self.xd[..x.len()], &mut self.spec[..k * nf])?;
        self.n_in = n_in;
        self.take_frames(got)?;
        self.produce(false)?;
        let lim = self.mapped_len().floor().max(0.0) as usize;
        Ok(self.emit(lim, false, y))
    }

    /// Ends the signal: pads the end, writes the remaining samples to `y` (at least `max_out`
    /// long) and returns their count; the stream then starts a new signal (same rate).
    pub fn flush<T: Float>(&mut self, y: &mut [T]) -> SkResult<usize> {
        self.check_out(y.len())?;
        if self.n_in == 0 {
            return Err(SkError::Length(
                "nothing to flush: no samples since the start".into(),
            ));
        }
        let k = self.stft.finish_frames()?;
        let got = self.stft.finish(&mut self.spec[..k * self.nf])?;
        self.take_frames(got)?;
        self.produce(true)?;
        let l = self.mapped_len().round_ties_even().max(0.0) as usize;
        let mut len = l.max(self.emitted);
        if len == 0 {
            // librosa's istft without a length: the frames' full extent
            len = self.sp.hop * (self.t - 1) + self.sp.n_fft - 2 * self.pad;
        }
        let w = self.emit(len, true, y);
        self.reset();
        Ok(w)
    }

    /// Stores the polar form of the `count` frames in `spec`, dropping the frames no output
    /// frame can read any more.
    fn take_frames(&mut self, count: usize) -> SkResult<()> {
        let nf = self.nf;
        let lo = if self.t == 0 {
            0
        } else {
            self.step(self.t - 1) as usize
        };
        let drop = lo.saturating_sub(self.f0).min(self.held);
        if drop > 0 {
            self.mag.copy_within(drop * nf..self.held * nf, 0);
            self.unit.copy_within(drop * nf..self.held * nf, 0);
            self.f0 += drop;
            self.held -= drop;
        }
        for j in 0..count {
            let idx = self.frames_in;
            self.frames_in += 1;
            if self.held == 0 && idx < lo {
                self.f0 = idx + 1;
                continue;
            }
            if self.held == self.fcap {
                return Err(SkError::Internal(
                    "the stretch stream's frame ring is full".into(),
                ));
            }
            let h = self.held;
            polar_frame(
                &self.spec[j * nf..(j + 1) * nf],
                &mut self.mag[h * nf..(h + 1) * nf],
                &mut self.unit[h * nf..(h + 1) * nf],
            );
            self.held += 1;
        }
        Ok(())
    }

    /// Ring slot of input frame `i`, or None for a zero frame past the end.
    fn slot(&self, i: usize) -> Option<usize> {
        (i < self.frames_in).then(|| i - self.f0)
    }

    /// Makes and overlap-adds every output frame whose input frames are known.
    fn produce(&mut self, last: bool) -> SkResult<()> {
        let (n, hop, nf) = (self.sp.n_fft, self.sp.hop, self.nf);
        // at the end of a fixed-rate signal: the one-call frame count
        let out = if last && !self.changed {
            pv_frames(self.frames_in, self.rate)?
        } else {
            usize::MAX
        };
        loop {
            let s = self.step(self.t);
            let i = s as usize;
            if last {
                if self.t >= out || (self.changed && s >= self.frames_in as f64) {
                    break;
                }
            } else if i + 1 >= self.frames_in {
                break;
            }
            let end = self.t * hop + n;
            if end - self.obase > self.ola.len() {
                return Err(SkError::Internal(
                    "the stretch stream's output ring is full".into(),
                ));
            }
            if self.t == 0 {
                // frame 0 is held: the first output frame needs it
                let nf0 = self.nf;
                self.acc.copy_from_slice(&self.unit[..nf0]);
            }
            let alpha = s - i as f64;
            let beta = 1.0 - alpha;
            {
                let (r0, r1) = (self.slot(i), self.slot(i + 1));
                let (mag, unit, zmag, zunit) = (&self.mag, &self.unit, &self.zmag, &self.zunit);
                let pick = |r: Option<usize>| match r {
                    Some(r) => (&mag[r * nf..(r + 1) * nf], &unit[r * nf..(r + 1) * nf]),
                    None => (&zmag[..], &zunit[..]),
                };
                let ((m0, u0), (m1, u1)) = (pick(r0), pick(r1));
                for ((((o, a), (&p, &q)), &v0), &v1) in self
                    .bins
                    .iter_mut()
                    .zip(self.acc.iter_mut())
                    .zip(m0.iter().zip(m1))
                    .zip(u0)
                    .zip(u1)
                {
                    let m = beta * p + alpha * q;
                    *o = Complex::new(a.re * m, a.im * m);
                    // a <- a * v1 * conj(v0), as the one-call phase vocoder
                    let r =
                        Complex::new(v1.re * v0.re + v1.im * v0.im, v1.im * v0.re - v1.re * v0.im);
                    *a = Complex::new(a.re * r.re - a.im * r.im, a.re * r.im + a.im * r.re);
                }
            }
            self.plan.irfft_inplace_input(
                &mut self.bins[..nf],
                &mut self.fr,
                Norm::Backward,
                &mut self.ws.cplx,
            );
            let at = self.t * hop - self.obase;
            for (((o, e), &f), &w) in self.ola[at..at + n]
                .iter_mut()
                .zip(&mut self.env[at..at + n])
                .zip(&self.fr)
                .zip(&self.wp)
            {
                *o += w * f;
                *e += w * w;
            }
            self.t += 1;
        }
        Ok(())
    }

    /// Writes the final samples from `emitted` up to `limit` (exclusive) and shifts the ring.
    fn emit<T: Float>(&mut self, limit: usize, last: bool, y: &mut [T]) -> usize {
        let fin = if last {
            usize::MAX
        } else {
            (self.t * self.sp.hop).saturating_sub(self.pad)
        };
        let end = limit.min(fin).max(self.emitted);
        let count = end - self.emitted;
        let tiny = tiny::<f64>();
        for (k, o) in y[..count].iter_mut().enumerate() {
            let r = self.emitted + k + self.pad - self.obase;
            let v = if r < self.ola.len() {
                let (a, e) = (self.ola[r], self.env[r]);
                if e > tiny {
                    a / e
                } else {
                    a
                }
            } else {
                0.0
            };
            *o = <T as Float>::from_f64(v);
        }
        self.emitted = end;
        // keep what is not yet returned and where the next frame starts
        let nb = (self.emitted + self.pad).min(self.t * self.sp.hop);
        let shift = nb.saturating_sub(self.obase).min(self.ola.len());
        if shift > 0 && !last {
            let len = self.ola.len();
            self.ola.copy_within(shift.., 0);
            self.env.copy_within(shift.., 0);
            self.ola[len - shift..].fill(0.0);
            self.env[len - shift..].fill(0.0);
            self.obase += shift;
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::spectral::vocoder::{time_stretch, StretchParams};
    use crate::kernels::testutil::Rng;

    fn run(x: &[f64], w: &[f64], sp: &StreamParams, rng: &mut Rng) -> Vec<f64> {
        let mut s = StretchStream::new(w, sp).unwrap();
        let mut y = vec![0.0; s.max_out()];
        let mut out = Vec::new();
        let mut at = 0;
        while at < x.len() {
            let m = ((rng.uniform().abs() * sp.max_block as f64) as usize + 1)
                .min(sp.max_block)
                .min(x.len() - at);
            let k = s.process(&x[at..at + m], &mut y).unwrap();
            out.extend_from_slice(&y[..k]);
            at += m;
        }
        let k = s.flush(&mut y).unwrap();
        out.extend_from_slice(&y[..k]);
        out
    }

    #[test]
    fn chunked_equals_one_call() {
        let mut r = Rng::new(11);
        for &(n, n_fft, hop, wl, center, pad_mode, rate, block) in &[
            (
                700usize,
                64usize,
                16usize,
                64usize,
                true,
                PadMode::Constant,
                1.25f64,
                37usize,
            ),
            (500, 32, 8, 24, true, PadMode::Reflect, 0.7, 5),
            (401, 32, 12, 32, false, PadMode::Constant, 2.5, 100),
            (300, 16, 4, 16, true, PadMode::Constant, 0.5, 1),
            (20, 16, 4, 16, true, PadMode::Constant, 100.0, 7),
        ] {
            let x: Vec<f64> = (0..n).map(|_| r.uniform()).collect();
            let w: Vec<f64> = (0..wl)
                .map(|i| 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / wl as f64).cos())
                .collect();
            let p = StretchParams {
                rate,
                n_fft,
                hop,
                win_length: wl,
                center,
                pad_mode,
            };
            let (_, _, len) = p.sizes(n).unwrap();
            let mut want = vec![0.0; len];
            time_stretch(&x, n, &w, &p, &mut want).unwrap();
            let sp = StreamParams {
                n_fft,
                hop,
                win_length: wl,
                center,
                pad_mode,
                rate,
                min_rate: rate.min(0.5),
                max_rate: rate.max(2.0),
                max_block: block,
            };
            for _ in 0..3 {
                let got = run(&x, &w, &sp, &mut r);
                assert_eq!(got.len(), want.len(), "{n} {rate}");
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert!(
                        g.to_bits() == w.to_bits(),
                        "n {n} rate {rate} [{i}]: {g} vs {w}"
                    );
                }
            }
        }
    }
}
