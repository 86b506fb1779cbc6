//! Streaming Kaldi features ([`KaldiOnline`]): samples go in in chunks of any size, each frame
//! comes out as soon as its samples are there (Kaldi's online rule, `snip_edges` both ways), the
//! finish emits the frames that reflect at the end. Every frame runs the offline
//! [`KaldiPlan::frame`] on the same samples with the same dither stream, so the frames equal
//! the offline call on the whole signal bit for bit, whatever the chunking. Nothing allocates
//! after creation.

use super::kaldi::{dither_key, Feature, FrameScratch, KaldiFloat, KaldiOptions, KaldiPlan};
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;

/// A Kaldi feature stream (one signal at a time).
pub struct KaldiOnline<T: KaldiFloat> {
    plan: KaldiPlan<T>,
    s: FrameScratch<T>,
    /// The first `size` samples of the signal (those a `snip_edges = false` start reflects).
    head: Vec<T>,
    /// Sample `p` at `ring[p % size]`, for the last `size` samples.
    ring: Vec<T>,
    total: usize,
    done: usize,
    finished: bool,
}

impl<T: KaldiFloat> KaldiOnline<T> {
    /// A stream of `feature` with `opts` (as the offline plan; `subtract_mean` needs the whole
    /// signal and `min_duration` its length, so both are refused).
    pub fn new(feature: Feature, opts: KaldiOptions) -> SkResult<Self> {
        if opts.subtract_mean {
            return Err(SkError::BadArgument(
                "opts->subtract_mean = 1 needs the whole signal; a stream cannot subtract the \
                 mean (use sliding-window CMN)"
                    .into(),
            ));
        }
        if opts.min_duration != 0.0 {
            return Err(SkError::BadArgument(format!(
                "opts->min_duration = {} needs the signal's length; a stream takes 0",
                opts.min_duration
            )));
        }
        let plan = KaldiPlan::new(feature, opts)?;
        let s = plan.scratch()?;
        let head = try_vec(plan.size, T::ZERO, "the stream's first samples")?;
        let ring = try_vec(plan.size, T::ZERO, "the stream's sample ring")?;
        Ok(KaldiOnline {
            plan,
            s,
            head,
            ring,
            total: 0,
            done: 0,
            finished: false,
        })
    }

    /// The plan (options, frame geometry, `dim`).
    pub fn plan(&self) -> &KaldiPlan<T> {
        &self.plan
    }

    /// Samples accepted so far.
    pub fn samples(&self) -> usize {
        self.total
    }

    /// Frames emitted so far.
    pub fn frames_done(&self) -> usize {
        self.done
    }

    /// Whether the input was finished.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Frames computable from the first `total` samples (Kaldi's `NumFrames`): with `flush`
    /// every frame of the signal (none under one frame length), else only frames whose window
    /// ends within the samples.
    fn ready(&self, total: usize, flush: bool) -> usize {
        let p = &self.plan;
        if p.opts.snip_edges || flush {
            return if total < p.size {
                0
            } else {
                p.frames_unchecked(total)
            };
        }
        let mut nf = p.frames_unchecked(total);
        while nf > 0 && p.first_sample(nf - 1) + p.size as i64 > total as i64 {
            nf -= 1;
        }
        nf
    }

    /// Frames an [`KaldiOnline::accept`] of `n` more samples returns.
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
        Ok(self.ready(after, false).saturating_sub(self.done))
    }

    /// Frames [`KaldiOnline::finish`] returns (0 once finished).
    pub fn finish_frames(&self) -> usize {
        if self.finished {
            0
        } else {
            self.ready(self.total, true).saturating_sub(self.done)
        }
    }

    /// Sample `p` of the signal (`0 ≤ p < before + x.len()`), `x` holding samples from `before`.
    #[inline]
    fn sample(&self, p: usize, x: &[T], before: usize) -> T {
        if p >= before {
            x[p - before]
        } else if p < self.head.len() {
            self.head[p]
        } else {
            self.ring[p % self.ring.len()]
        }
    }

    /// Computes frames `done..target` into `y` (`dim` values each); `end` is the signal's length
    /// when finishing (reflection at the end), `None` while streaming.
    fn emit(&mut self, target: usize, x: &[T], before: usize, end: Option<usize>, y: &mut [T]) {
        let d = self.plan.dim();
        let seed = self.plan.opts.seed;
        for (k, i) in (self.done..target).enumerate() {
            let start = self.plan.first_sample(i);
            if start >= 0 && end.is_none() {
                self.gather(start as usize, x, before);
            } else {
                self.gather_reflected(start, x, before, end);
            }
            let out = &mut y[k * d..(k + 1) * d];
            self.plan
                .frame(&mut self.s, dither_key(seed, 0, i as u64), out);
        }
        self.done = target;
    }

    /// Copies samples `start..start + size` (no reflection) into the frame buffer in at most
    /// four runs: the kept head, the ring (which wraps once at most), then `x`. The values are
    /// those [`KaldiOnline::sample`] gives, sample by sample.
    fn gather(&mut self, start: usize, x: &[T], before: usize) {
        let size = self.plan.size;
        let hi = start + size;
        let buf = &mut self.s.buf[..size];
        let mut p = start;
        let old = hi.min(before);
        while p < old {
            let j = p - start;
            let run = if p < self.head.len() {
                let e = old.min(self.head.len());
                buf[j..j + e - p].copy_from_slice(&self.head[p..e]);
                e - p
            } else {
                let r = p % size;
                let e = old.min(p + (size - r));
                buf[j..j + e - p].copy_from_slice(&self.ring[r..r + e - p]);
                e - p
            };
            p += run;
        }
        if p < hi {
            buf[p - start..].copy_from_slice(&x[p - before..hi - before]);
        }
    }

    /// The frame buffer for a frame that reflects at the start (`start < 0`) or at the end
    /// (`end`, when finishing), sample by sample.
    fn gather_reflected(&mut self, start: i64, x: &[T], before: usize, end: Option<usize>) {
        let size = self.plan.size;
        for j in 0..size {
            let mut p = start + j as i64;
            loop {
                if p < 0 {
                    p = -p - 1;
                } else if let Some(n) = end.filter(|&n| p >= n as i64) {
                    p = 2 * n as i64 - 1 - p;
                } else {
                    break;
                }
            }
            let v = self.sample(p as usize, x, before);
            self.s.buf[j] = v;
        }
    }

    /// Appends `x` and writes every frame now complete to `y` (frame-major, `dim` values each;
    /// `y` holds at least [`KaldiOnline::accept_frames`]`(x.len())` frames). Returns the count.
    /// Allocates nothing.
    pub fn accept(&mut self, x: &[T], y: &mut [T]) -> SkResult<usize> {
        let count = self.accept_frames(x.len())?;
        let before = self.total;
        let target = self.done + count;
        self.emit(target, x, before, None, y);
        let size = self.plan.size;
        if before < size {
            let m = x.len().min(size - before);
            self.head[before..before + m].copy_from_slice(&x[..m]);
        }
        // the last `size` samples into the ring, in at most two runs
        let keep = x.len().min(size);
        let mut p = before + x.len() - keep;
        let mut rest = &x[x.len() - keep..];
        while !rest.is_empty() {
            let r = p % size;
            let m = rest.len().min(size - r);
            self.ring[r..r + m].copy_from_slice(&rest[..m]);
            rest = &rest[m..];
            p += m;
        }
        self.total = before + x.len();
        Ok(count)
    }

    /// Ends the signal: writes the frames that reflect at its end (all remaining frames) to `y`
    /// and returns their count; later accepts fail until [`KaldiOnline::reset`]. A signal
    /// shorter than one frame gets no more frames. Allocates nothing.
    pub fn finish(&mut self, y: &mut [T]) -> usize {
        let count = self.finish_frames();
        if !self.finished {
            let target = self.done + count;
            let n = self.total;
            self.emit(target, &[], n, Some(n), y);
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
    use crate::kernels::testutil::Rng;

    #[test]
    fn any_chunking_equals_the_offline_call() {
        let mut rng = Rng::new(3);
        let x = rng.vec_f64(5003, 0.3);
        for snip in [true, false] {
            for feature in [Feature::Fbank, Feature::Mfcc, Feature::Spectrogram] {
                let o = KaldiOptions {
                    snip_edges: snip,
                    dither: 0.5,
                    seed: 11,
                    ..KaldiOptions::default()
                };
                let plan = KaldiPlan::<f64>::new(feature, o).unwrap();
                let frames = plan.frames(x.len()).unwrap();
                let d = plan.dim();
                let mut want = vec![0.0; frames * d];
                plan.compute(&x, 0, 1, x.len(), &mut want).unwrap();
                for chunks in [
                    vec![1usize],
                    vec![160],
                    vec![7, 400, 1, 1000],
                    vec![399, 2, 401, 799],
                    vec![5003],
                ] {
                    let mut s = KaldiOnline::<f64>::new(feature, o).unwrap();
                    let mut got = vec![0.0; (frames + 1) * d];
                    let (mut at, mut f, mut c) = (0, 0, 0);
                    while at < x.len() {
                        let n = chunks[c % chunks.len()].min(x.len() - at);
                        c += 1;
                        let want_n = s.accept_frames(n).unwrap();
                        let got_n = s.accept(&x[at..at + n], &mut got[f * d..]).unwrap();
                        assert_eq!(want_n, got_n);
                        f += got_n;
                        at += n;
                    }
                    let k = s.finish_frames();
                    assert_eq!(s.finish(&mut got[f * d..]), k);
                    f += k;
                    assert_eq!(f, frames, "snip {snip} {feature:?} {chunks:?}");
                    assert!(
                        got[..f * d] == want[..],
                        "snip {snip} {feature:?} {chunks:?}"
                    );
                    assert!(s.accept_frames(1).is_err());
                    s.reset();
                    assert_eq!(s.samples(), 0);
                }
            }
        }
    }

    #[test]
    fn whole_signal_options_are_refused() {
        let o = KaldiOptions {
            subtract_mean: true,
            ..KaldiOptions::default()
        };
        assert!(KaldiOnline::<f32>::new(Feature::Fbank, o).is_err());
        let o = KaldiOptions {
            min_duration: 0.5,
            ..KaldiOptions::default()
        };
        assert!(KaldiOnline::<f32>::new(Feature::Fbank, o).is_err());
    }
}
