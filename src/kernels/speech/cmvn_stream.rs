//! Streaming sliding-window CMN ([`SlidingCmnStream`]): feature frames go in in blocks of any
//! size, each normalised frame comes out as soon as its window is complete, the finish emits
//! the rest. Every frame takes the same window and the same running-sum steps as the offline
//! [`sliding_window_cmn`](super::cmvn::sliding_window_cmn) on the whole sequence, so the output
//! equals it bit for bit whatever the blocking. Nothing allocates after creation.
//!
//! When frame `t` comes out (`n` frames in so far): once its window ends within the frames in,
//! i.e. `n ≥ max(t + 1, end(t))` with torchaudio's unclamped window end
//! - without `center`: `end(t) = max(t + 1, min_cmn_window)`: the first `min_cmn_window − 1`
//!   frames wait until `min_cmn_window` frames are in, every later frame comes out with itself;
//! - with `center`: `end(t) = max(t − cmn_window/2, 0) + cmn_window`: frame `t` waits for frame
//!   `t + cmn_window − cmn_window/2 − 1` (a latency of `⌈cmn_window/2⌉ − 1` frames) and the first
//!   frames for `cmn_window` frames;
//!
//! and every remaining frame at the finish (its window then clamped to the sequence's end, as
//! offline).

use super::cmvn::{advance, normalise, window};
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::Float;

/// A window end beyond any sequence: [`window`] with it gives the unclamped window.
const UNBOUNDED: usize = (i64::MAX / 4) as usize;

/// A sliding-window CMN stream over frames of `feats` values (one sequence at a time).
pub struct SlidingCmnStream<T: Float> {
    feats: usize,
    cmn: usize,
    min_cmn: usize,
    center: bool,
    norm_vars: bool,
    pow: fn(T) -> T,
    /// Frame `i` at `ring[(i % cap) * feats..]`, for the last `cap` frames.
    ring: Vec<T>,
    cap: usize,
    sum: Vec<T>,
    sq: Vec<T>,
    last: Option<(usize, usize)>,
    /// Frames in, frames out.
    received: usize,
    done: usize,
    finished: bool,
}

impl<T: Float> SlidingCmnStream<T> {
    /// A stream with `sliding_window_cmn`'s options (`pow` its `x^(−1/2)`, the offline one). It
    /// holds `max(cmn_window, min_cmn_window) + 2` frames: enough for every window and the
    /// frames waiting for theirs, whatever the block size.
    pub fn new(
        feats: usize,
        cmn_window: usize,
        min_cmn_window: usize,
        center: bool,
        norm_vars: bool,
        pow: fn(T) -> T,
    ) -> SkResult<Self> {
        if feats == 0 {
            return Err(SkError::BadArgument(
                "feats = 0; a frame needs at least one value".into(),
            ));
        }
        let cap = cmn_window
            .max(min_cmn_window)
            .checked_add(2)
            .filter(|&c| c < UNBOUNDED)
            .ok_or_else(|| {
                SkError::Length(format!(
                    "cmn_window = {cmn_window}, min_cmn_window = {min_cmn_window}: too long"
                ))
            })?;
        let len = cap
            .checked_mul(feats)
            .ok_or_else(|| SkError::Length(format!("{cap} frames × feats = {feats} overflows")))?;
        Ok(SlidingCmnStream {
            feats,
            cmn: cmn_window,
            min_cmn: min_cmn_window,
            center,
            norm_vars,
            pow,
            ring: try_vec(len, T::ZERO, "the CMN stream's frames")?,
            cap,
            sum: try_vec(feats, T::ZERO, "the CMN sums")?,
            sq: try_vec(feats, T::ZERO, "the CMN sums of squares")?,
            last: None,
            received: 0,
            done: 0,
            finished: false,
        })
    }

    /// Values a frame.
    pub fn feats(&self) -> usize {
        self.feats
    }

    /// Frames in so far.
    pub fn frames_in(&self) -> usize {
        self.received
    }

    /// Frames out so far.
    pub fn frames_out(&self) -> usize {
        self.done
    }

    /// Whether the input was finished.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The frames in needed before frame `t` can come out (while streaming).
    fn need(&self, t: usize) -> usize {
        let (_, end) = window(t, UNBOUNDED, self.cmn, self.min_cmn, self.center);
        end.max(t + 1)
    }

    /// How many frames come out once `total` frames are in (not finishing): the frames `t`
    /// with [`SlidingCmnStream::need`]`(t) ≤ total`, in closed form (`need` never decreases).
    fn ready(&self, total: usize) -> usize {
        let end = if self.center {
            // need(t) = max(t + 1, max(t − cmn/2, 0) + cmn)
            if total < self.cmn {
                0
            } else {
                total.min((total - self.cmn + self.cmn / 2).saturating_add(1))
            }
        } else if total < self.min_cmn {
            // need(t) = max(t + 1, min_cmn)
            0
        } else {
            total
        };
        end.saturating_sub(self.done)
    }

    /// Frames a [`SlidingCmnStream::push`] of `n` more frames returns.
    pub fn push_frames(&self, n: usize) -> SkResult<usize> {
        if self.finished {
            return Err(SkError::BadArgument(
                "the stream's input is finished; reset it to start a new sequence".into(),
            ));
        }
        let total = self.received.checked_add(n).ok_or_else(|| {
            SkError::Length(format!(
                "{} frames so far plus n = {n} overflow size_t",
                self.received
            ))
        })?;
        Ok(self.ready(total))
    }

    /// Frames [`SlidingCmnStream::finish`] returns (0 once finished).
    pub fn finish_frames(&self) -> usize {
        if self.finished {
            0
        } else {
            self.received - self.done
        }
    }

    /// Normalises frame `done` over its window in a sequence of `frames` frames into `out`.
    fn emit(&mut self, frames: usize, out: &mut [T]) {
        let t = self.done;
        let (start, end) = window(t, frames, self.cmn, self.min_cmn, self.center);
        let (f, cap) = (self.feats, self.cap);
        let ring = &self.ring;
        let row = |i: usize| &ring[(i % cap) * f..(i % cap + 1) * f];
        advance(
            &mut self.sum,
            &mut self.sq,
            self.last,
            start,
            end,
            self.norm_vars,
            row,
        );
        self.last = Some((start, end));
        normalise(
            out,
            row(t),
            &self.sum,
            &self.sq,
            end - start,
            self.norm_vars,
            self.pow,
        );
        self.done += 1;
    }

    /// Appends the frames of `x` (`feats` values each) and writes every frame now complete to
    /// `y` (which holds at least [`SlidingCmnStream::push_frames`] of them). Returns the count.
    /// Allocates nothing.
    pub fn push(&mut self, x: &[T], y: &mut [T]) -> SkResult<usize> {
        let f = self.feats;
        let count = self.push_frames(x.len() / f)?;
        let mut k = 0;
        for frame in x.chunks_exact(f) {
            // each frame in, then every frame it completes out: the ring never holds more than
            // one window and the frames waiting for theirs
            let at = (self.received % self.cap) * f;
            self.ring[at..at + f].copy_from_slice(frame);
            self.received += 1;
            while self.done < self.received && self.need(self.done) <= self.received {
                let total = self.received;
                self.emit(total, &mut y[k * f..(k + 1) * f]);
                k += 1;
            }
        }
        debug_assert_eq!(k, count);
        Ok(k)
    }

    /// Ends the sequence: writes its remaining frames to `y` (windows clamped to its end, as
    /// offline) and returns their count; later pushes fail until [`SlidingCmnStream::reset`].
    /// Allocates nothing.
    pub fn finish(&mut self, y: &mut [T]) -> usize {
        let count = self.finish_frames();
        let f = self.feats;
        for k in 0..count {
            let total = self.received;
            self.emit(total, &mut y[k * f..(k + 1) * f]);
        }
        self.finished = true;
        count
    }

    /// Forgets the sequence: the stream starts anew.
    pub fn reset(&mut self) {
        self.sum.fill(T::ZERO);
        self.sq.fill(T::ZERO);
        self.last = None;
        self.received = 0;
        self.done = 0;
        self.finished = false;
    }
}

#[cfg(test)]
mod tests {
    use super::super::cmvn::sliding_window_cmn;
    use super::*;
    use crate::kernels::testutil::Rng;

    fn pow64(v: f64) -> f64 {
        v.powf(-0.5)
    }

    #[test]
    fn any_blocking_equals_the_offline_call_bit_for_bit() {
        let mut rng = Rng::new(7);
        let feats = 3;
        for frames in [0usize, 1, 2, 9, 57] {
            let x: Vec<f64> = rng.vec_f64(frames * feats, 3.0);
            for (cw, mw) in [
                (600, 100),
                (10, 3),
                (7, 20),
                (1, 1),
                (0, 0),
                (4, 0),
                (57, 57),
            ] {
                for center in [false, true] {
                    for nv in [false, true] {
                        let mut want = vec![0.0; x.len()];
                        sliding_window_cmn(
                            &x, &mut want, 1, frames, feats, cw, mw, center, nv, pow64,
                        )
                        .unwrap();
                        for blocks in [vec![1usize], vec![5, 1, 13], vec![frames.max(1)]] {
                            let mut s =
                                SlidingCmnStream::new(feats, cw, mw, center, nv, pow64).unwrap();
                            let mut got = vec![0.0; x.len()];
                            let (mut at, mut out, mut c) = (0, 0, 0);
                            while at < frames {
                                let n = blocks[c % blocks.len()].min(frames - at);
                                c += 1;
                                let k = s.push_frames(n).unwrap();
                                let xs = &x[at * feats..(at + n) * feats];
                                assert_eq!(s.push(xs, &mut got[out * feats..]).unwrap(), k);
                                // a frame comes out exactly when its window is complete
                                for t in out..out + k {
                                    assert!(s.need(t) <= at + n);
                                }
                                out += k;
                                at += n;
                                if out < at {
                                    assert!(s.need(out) > at);
                                }
                            }
                            let k = s.finish_frames();
                            assert_eq!(s.finish(&mut got[out * feats..]), k);
                            assert_eq!(out + k, frames);
                            let same = got
                                .iter()
                                .zip(&want)
                                .all(|(a, b)| a.to_bits() == b.to_bits());
                            assert!(same, "{frames} {cw} {mw} {center} {nv} {blocks:?}");
                            assert!(s.push_frames(1).is_err());
                            assert_eq!(s.finish_frames(), 0);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn ready_counts_the_frames_whose_window_is_complete() {
        for (cw, mw) in [(0, 0), (1, 1), (4, 0), (7, 20), (10, 3), (9, 4)] {
            for center in [false, true] {
                let s = SlidingCmnStream::<f64>::new(1, cw, mw, center, false, pow64).unwrap();
                for total in 0..40 {
                    let want = (0..total).take_while(|&t| s.need(t) <= total).count();
                    assert_eq!(s.ready(total), want, "{cw} {mw} {center} {total}");
                }
                // a count beyond any buffer is answered at once
                assert!(s.push_frames(usize::MAX / 2).unwrap() <= usize::MAX / 2);
                assert_eq!(s.push_frames(usize::MAX).unwrap(), s.ready(usize::MAX));
            }
        }
    }

    #[test]
    fn latency_is_the_documented_one() {
        let s = SlidingCmnStream::<f64>::new(2, 600, 100, false, false, pow64).unwrap();
        assert_eq!(s.need(0), 100);
        assert_eq!(s.need(99), 100);
        assert_eq!(s.need(100), 101);
        let s = SlidingCmnStream::<f64>::new(2, 600, 100, true, false, pow64).unwrap();
        assert_eq!(s.need(0), 600);
        assert_eq!(s.need(300), 600);
        assert_eq!(s.need(301), 601);
        let s = SlidingCmnStream::<f64>::new(2, 7, 1, true, false, pow64).unwrap();
        assert_eq!(s.need(10), 10 + 7 - 3);
        assert!(SlidingCmnStream::<f64>::new(0, 7, 1, true, false, pow64).is_err());
    }
}
