//! Streaming YIN ([`YinStream`]): samples go in in chunks of any size, each frame's f0 comes
//! out as soon as its samples are there, the finish emits the frames that the centre padding
//! completes at the end. Every frame runs the one-shot [`super::yin`] frame on the same
//! samples, so the frames equal `yin` on the whole signal bit for bit, whatever the chunking.
//! The state is the last `frame_length` samples (in `f64`) and one frame's scratch, made at
//! creation; nothing allocates afterwards.

use super::{scratch, yin_frame, Scratch, YinParams};
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::spectral::fft::{FftPlan, PlanCache};
use crate::kernels::Float;
use std::sync::Arc;

/// A YIN stream (one signal at a time).
pub struct YinStream {
    p: YinParams,
    min_p: usize,
    max_p: usize,
    plan: Arc<FftPlan<f64>>,
    s: Scratch,
    /// Sample `q` at `ring[q % frame_length]`, for the last `frame_length` samples.
    ring: Vec<f64>,
    total: usize,
    done: usize,
    finished: bool,
}

impl YinStream {
    /// A stream with the one-shot call's parameters (checked as `yin` checks them).
    pub fn new(p: YinParams) -> SkResult<Self> {
        let (min_p, max_p) = p.periods()?;
        let n_pad = (2 * p.frame_length - 1).next_power_of_two();
        let plan = f64::cached_real_plan(n_pad)?;
        let s = scratch(&plan, n_pad, min_p, max_p)?;
        let ring = try_vec(p.frame_length, 0.0, "the stream's sample ring")?;
        Ok(YinStream {
            p,
            min_p,
            max_p,
            plan,
            s,
            ring,
            total: 0,
            done: 0,
            finished: false,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &YinParams {
        &self.p
    }

    fn pad(&self) -> usize {
        if self.p.center {
            self.p.frame_length / 2
        } else {
            0
        }
    }

    /// Samples needed before frame `t` can be computed while the end is unknown: its window
    /// and, when reflecting, the `pad + 1` samples the start's reflection reads.
    fn need(&self, t: usize) -> usize {
        let (pad, fl) = (self.pad(), self.p.frame_length);
        let end = (t * self.p.hop + fl).saturating_sub(pad);
        if self.p.reflect && pad > 0 {
            end.max(pad + 1)
        } else {
            end
        }
    }

    /// Frames computable from `total` samples with the end unknown.
    fn ready(&self, total: usize) -> usize {
        let (pad, fl, hop) = (self.pad(), self.p.frame_length, self.p.hop);
        if total + pad < fl || (self.p.reflect && pad > 0 && total <= pad) {
            0
        } else {
            (total + pad - fl) / hop + 1
        }
    }

    /// Frames an [`YinStream::accept`] of `n` more samples returns.
    pub fn accept_frames(&self, n: usize) -> SkResult<usize> {
        if self.finished {
            return Err(SkError::BadArgument(
                "the stream's input is finished; reset it to start a new signal".into(),
            ));
        }
        let after = self.total.checked_add(n).ok_or_else(|| {
            SkError::Length(format!(
                "{} samples so far plus n = {n} overflow size_t",
                self.total
            ))
        })?;
        // frames ≤ samples + 1: the counts below never overflow
        let after = after.min(usize::MAX / 4);
        Ok(self.ready(after).saturating_sub(self.done))
    }

    /// Frames [`YinStream::finish`] returns (0 once finished; 0 for a signal too short for a
    /// frame, or a reflected one of fewer than two samples).
    pub fn finish_frames(&self) -> usize {
        let (pad, fl, n) = (self.pad(), self.p.frame_length, self.total);
        if self.finished || n + 2 * pad < fl || (self.p.reflect && pad > 0 && n < 2) {
            return 0;
        }
        (1 + (n + 2 * pad - fl) / self.p.hop).saturating_sub(self.done)
    }

    /// Samples accepted so far.
    pub fn samples(&self) -> usize {
        self.total
    }

    /// Frames emitted so far.
    pub fn frames_done(&self) -> usize {
        self.done
    }

    /// Appends `x` (its last `frame_length` samples matter) to the ring.
    fn feed<T: Float>(&mut self, x: &[T]) {
        let fl = self.ring.len();
        let from = x.len().saturating_sub(fl);
        let mut q = (self.total + from) % fl;
        for v in &x[from..] {
            self.ring[q] = v.to_f64();
            q += 1;
            if q == fl {
                q = 0;
            }
        }
        self.total += x.len();
    }

    /// The f0 of frame `t` from the ring (`end`: the signal's length when finishing).
    fn frame(&mut self, t: usize, end: Option<usize>) -> f64 {
        let fl = self.p.frame_length;
        let start = (t * self.p.hop) as isize - self.pad() as isize;
        for k in 0..fl {
            let j = start + k as isize;
            let q = match end {
                Some(n) if (0..n as isize).contains(&j) => Some(j as usize),
                Some(n) if self.p.reflect => {
                    let period = 2 * (n as isize - 1);
                    let mut r = j.rem_euclid(period);
                    if r >= n as isize {
                        r = period - r;
                    }
                    Some(r as usize)
                }
                Some(_) => None,
                // while streaming only the start can reflect, once (`need`)
                None if j >= 0 => Some(j as usize),
                None if self.p.reflect => Some((-j) as usize),
                None => None,
            };
            self.s.frame[k] = match q {
                Some(q) => {
                    debug_assert!(
                        q < self.total && q + fl >= self.total,
                        "sample {q} left the ring"
                    );
                    self.ring[q % fl]
                }
                None => 0.0,
            };
        }
        self.s.frame[fl..].iter_mut().for_each(|v| *v = 0.0);
        yin_frame(&self.plan, &mut self.s, &self.p, self.min_p, self.max_p)
    }

    /// Appends `x` (finite) and writes the f0 of every frame now complete to `y` (which holds
    /// at least [`YinStream::accept_frames`]`(x.len())` values). Returns the count; on error
    /// nothing changes. Allocates nothing.
    pub fn accept<T: Float>(&mut self, x: &[T], y: &mut [T]) -> SkResult<usize> {
        let count = self.accept_frames(x.len())?;
        if let Some(i) = x.iter().position(|v| !v.is_finite()) {
            return Err(SkError::NonFinite(format!(
                "x[{i}] = {:?}: audio must be finite everywhere (as librosa's valid_audio)",
                x[i]
            )));
        }
        let mut i = 0;
        for o in &mut y[..count] {
            let upto = self.need(self.done).saturating_sub(self.total);
            self.feed(&x[i..i + upto]);
            i += upto;
            *o = T::from_f64(self.frame(self.done, None));
            self.done += 1;
        }
        self.feed(&x[i..]);
        Ok(count)
    }

    /// Ends the signal: writes the frames that the end padding completes to `y` and returns
    /// their count; later accepts fail until [`YinStream::reset`]. Allocates nothing.
    pub fn finish<T: Float>(&mut self, y: &mut [T]) -> usize {
        let count = self.finish_frames();
        if !self.finished {
            let n = self.total;
            for o in &mut y[..count] {
                *o = T::from_f64(self.frame(self.done, Some(n)));
                self.done += 1;
            }
            self.finished = true;
        }
        count
    }

    /// Forgets the signal: the stream starts anew.
    pub fn reset(&mut self) {
        self.total = 0;
        self.done = 0;
        self.finished = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(center: bool, reflect: bool, hop: usize) -> YinParams {
        YinParams {
            sr: 8000.0,
            fmin: 100.0,
            fmax: 1000.0,
            frame_length: 256,
            hop,
            trough_threshold: 0.1,
            center,
            reflect,
        }
    }

    #[test]
    fn chunks_equal_the_one_shot_bit_for_bit() {
        let n = 3001;
        let x: Vec<f64> = (0..n)
            .map(|i| {
                let t = i as f64 / 8000.0;
                (2.0 * std::f64::consts::PI * 220.0 * t).sin() + 0.1 * ((i * 7919) % 13) as f64
            })
            .collect();
        for (center, reflect, hop) in [
            (false, false, 64),
            (true, false, 64),
            (true, true, 100),
            (false, false, 300),
        ] {
            let p = params(center, reflect, hop);
            let frames = p.frames(n).unwrap();
            let mut want = vec![0.0; frames];
            super::super::yin(&x, 1, &p, &mut want).unwrap();
            let mut s = YinStream::new(p).unwrap();
            let mut got = vec![0.0; frames];
            let mut k = 0;
            let mut i = 0;
            let mut step = 1;
            while i < n {
                let m = step.min(n - i);
                let c = s.accept_frames(m).unwrap();
                assert_eq!(s.accept(&x[i..i + m], &mut got[k..]).unwrap(), c);
                k += c;
                i += m;
                step = step * 3 % 701 + 1;
            }
            assert_eq!(s.finish_frames(), frames - k);
            k += s.finish(&mut got[k..]);
            assert_eq!(k, frames);
            assert_eq!(
                got.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                want.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                "{center} {reflect} {hop}"
            );
        }
    }
}
