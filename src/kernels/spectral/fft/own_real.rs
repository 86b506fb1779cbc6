//! Double real lengths that are not powers of two on numpy's real algorithm ([`OwnReal`]).

use super::float::as_real_mut;
use super::real::RealFft;
use super::scratch::grow;
use super::{Complex, FftFloat, RowLanes};
use crate::error::SkResult;
use std::sync::OnceLock;

/// Real transforms of double lengths that are not powers of two: pocketfft's real algorithm
/// ([`RealFft`]: the FFTPACK real passes, or a complex Bluestein transform of the full length
/// where pocketfft's cost rule picks it), i.e. numpy's algorithm at every length.
pub(super) struct OwnReal<T> {
    pub(super) n: usize,
    pub(super) rf: RealFft<T>,
    /// The same passes on SIMD lanes, for batches (lengths the passes take, up to
    /// [`MAX_LANE_LEN`]): made by the first batch that needs them.
    pub(super) lanes: OnceLock<Option<RowLanes<T>>>,
}

/// The longest transform batched on SIMD lanes: its lane buffers (`2n` vectors of 64 bytes,
/// 8 MiB here) stop fitting the cache beyond it, and its plan holds a lane copy of the twiddles.
pub(super) const MAX_LANE_LEN: usize = 1 << 16;

impl<T: FftFloat> OwnReal<T> {
    pub(super) fn new(n: usize) -> SkResult<Self> {
        Ok(OwnReal {
            n,
            rf: RealFft::new(n)?,
            lanes: OnceLock::new(),
        })
    }

    /// The lane passes (made on the first call; `None` where the passes do not run).
    pub(super) fn lanes(&self) -> SkResult<Option<&RowLanes<T>>> {
        if let Some(l) = self.lanes.get() {
            return Ok(l.as_ref());
        }
        let made = match &self.rf {
            RealFft::Passes(p) if self.n <= MAX_LANE_LEN => RowLanes::from_passes(p)?,
            _ => None,
        };
        Ok(self.lanes.get_or_init(|| made).as_ref())
    }

    pub(super) fn scratch_len(&self) -> usize {
        self.rf.scratch_len(self.n)
    }

    /// As numpy does with pocketfft: the reals are placed one value into the output (viewed as
    /// reals), transformed there into the halfcomplex layout `r0, r1, i1, …`, and `r0` moved to
    /// the front with a zero imaginary part (and a zero one after `r_{n/2}` for even n).
    pub(super) fn forward(&self, x: &[T], y: &mut [Complex<T>], scratch: &mut Vec<Complex<T>>) {
        let n = self.n;
        match &self.rf {
            RealFft::Passes(p) => {
                let yr = as_real_mut(y);
                yr[1..=n].copy_from_slice(x);
                let s = as_real_mut(grow(scratch, n.div_ceil(2)));
                p.forward(&mut yr[1..=n], s);
                yr[0] = yr[1];
                yr[1] = T::ZERO;
                if n.is_multiple_of(2) {
                    yr[n + 1] = T::ZERO;
                }
            }
            RealFft::Blue(b) => {
                RealFft::forward_blue(b, x, y, grow(scratch, self.scratch_len()));
            }
        }
    }

    pub(super) fn inverse(&self, x: &[Complex<T>], y: &mut [T], scratch: &mut Vec<Complex<T>>) {
        let n = self.n;
        match &self.rf {
            RealFft::Passes(p) => {
                // halfcomplex packing: r0, r1, i1, …[, r_{n/2}]
                y[0] = x[0].re;
                for k in 1..n.div_ceil(2) {
                    y[2 * k - 1] = x[k].re;
                    y[2 * k] = x[k].im;
                }
                if n.is_multiple_of(2) {
                    y[n - 1] = x[n / 2].re;
                }
                let s = as_real_mut(grow(scratch, n.div_ceil(2)));
                p.backward(y, s);
            }
            RealFft::Blue(b) => {
                RealFft::inverse_blue(b, x, y, grow(scratch, self.scratch_len()));
            }
        }
    }
}
