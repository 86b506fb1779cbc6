//! Even real lengths as one complex transform of half the length plus the split step
//! ([`EvenReal`]), on the caller's buffers viewed as complex pairs.

use super::float::{as_complex, as_complex_mut};
use super::own_pow2::OwnPow2;
use super::scratch::{grow, placed_scratch, process_immutable, use_immutable, ALIAS_PAD};
use super::split::{split_fwd, split_inv, split_twiddles};
use super::{Complex, FftFloat};
use crate::error::SkResult;
use rustfft::{Fft, FftNum, FftPlanner};
use std::sync::Arc;

/// Even-length real transforms as one complex FFT of n/2 points plus a split step
/// (multiversioned, so it runs with AVX2/AVX-512 where available), working directly on the
/// caller's buffers viewed as complex pairs: no copy of the input is needed.
pub(super) struct EvenReal<T: FftNum> {
    pub(super) m: usize,
    pub(super) fwd: Arc<dyn Fft<T>>,
    pub(super) inv: Arc<dyn Fft<T>>,
    /// `e^{-2πik/n}` for `k ≤ m/2` (inverse split step).
    pub(super) tw: Vec<Complex<T>>,
    /// `−i·e^{-2πik/n}/2` for `k ≤ m/2` (forward split step).
    pub(super) v: Vec<Complex<T>>,
    /// The own transforms (AVX-512, AVX2 or SSE2) of the half length, run instead of
    /// `fwd`/`inv` where they exist (see [`OwnPow2::new`]).
    pub(super) own: Option<OwnPow2>,
}

impl<T: FftFloat> EvenReal<T> {
    /// The plan of `n` points, on the own transforms of the library's SIMD level where they
    /// exist (see [`OwnPow2::new`]).
    pub(super) fn new(n: usize) -> SkResult<Self> {
        Self::with_own(n, crate::simd::current())
    }

    /// As `new`, with the own transforms of SIMD level `own` (tests compare the levels; below
    /// [`Level::Avx2`] there are none).
    ///
    /// [`Level::Avx2`]: crate::simd::Level::Avx2
    pub(super) fn with_own(n: usize, own: crate::simd::Level) -> SkResult<Self> {
        let m = n / 2;
        let (tw, v) = split_twiddles(n)?;
        let mut p = FftPlanner::<T>::new();
        let own = OwnPow2::new::<T>(m, own, &v);
        Ok(EvenReal {
            m,
            fwd: p.plan_fft_forward(m),
            inv: p.plan_fft_inverse(m),
            tw,
            v,
            own,
        })
    }

    /// The most complex scratch any transform of this half-length plan takes.
    pub(super) fn scratch_len(&self) -> usize {
        let immutable = if use_immutable(self.m) {
            self.fwd.get_immutable_scratch_len()
        } else {
            0
        };
        let most = immutable
            .max(self.fwd.get_inplace_scratch_len())
            .max(self.fwd.get_outofplace_scratch_len())
            .max(self.inv.get_inplace_scratch_len())
            .max(self.own.as_ref().map_or(0, OwnPow2::scratch_len));
        most + ALIAS_PAD / std::mem::size_of::<Complex<T>>()
    }

    pub(super) fn forward(&self, x: &[T], y: &mut [Complex<T>], scratch: &mut Vec<Complex<T>>) {
        if self.fused_forward(x, y) || self.forward_aligned_target(as_complex(x), y, scratch) {
            return;
        }
        let z = &mut y[..self.m];
        if let Some(o) = &self.own {
            o.run(false, Some(as_complex(x)), z, scratch);
        } else if use_immutable(self.m) {
            process_immutable(&*self.fwd, as_complex(x), z, scratch);
        } else {
            z.copy_from_slice(as_complex(x));
            let s = grow(scratch, self.fwd.get_inplace_scratch_len());
            self.fwd.process_with_scratch(z, s);
        }
        self.split_forward(y);
    }

    /// The forward split step on the half-length transform in `y[..m]`: the own plan's
    /// ([`OwnPow2::split_forward`]) where it has one, else [`split_fwd`] at the current level
    /// (bit for bit the same).
    pub(super) fn split_forward(&self, y: &mut [Complex<T>]) {
        if !self.own.as_ref().is_some_and(|o| o.split_forward(y)) {
            split_fwd(crate::simd::current(), y, &self.v);
        }
    }

    /// The forward transform in one codelet that needs no scratch, where this plan has one
    /// ([`OwnPow2::real_forward`]): `true` when `y` holds the result.
    pub(super) fn fused_forward(&self, x: &[T], y: &mut [Complex<T>]) -> bool {
        self.own
            .as_ref()
            .is_some_and(|o| o.real_forward(as_complex(x), y))
    }

    /// The forward transform through the scratch for a misaligned output, where this plan's
    /// own transforms do that ([`OwnPow2::forward_avx512`]): `true` when `y` holds
    /// the result.
    pub(super) fn forward_aligned_target(
        &self,
        x: &[Complex<T>],
        y: &mut [Complex<T>],
        scratch: &mut Vec<Complex<T>>,
    ) -> bool {
        self.own
            .as_ref()
            .is_some_and(|o| o.forward_avx512(x, None, y, scratch))
    }

    /// The forward transform of `x` times `win` (elementwise) with the products formed as the
    /// first pass loads `x`, where this plan's own transforms do that
    /// ([`OwnPow2::forward_avx512`]): `true` when `y` holds the result (bit for bit the
    /// transform of the products), `false` with nothing written elsewhere.
    pub(super) fn forward_windowed(
        &self,
        x: &[T],
        win: &[T],
        y: &mut [Complex<T>],
        scratch: &mut Vec<Complex<T>>,
    ) -> bool {
        self.own
            .as_ref()
            .is_some_and(|o| o.forward_avx512(as_complex(x), Some(as_complex(win)), y, scratch))
    }

    /// As `forward`, destroying `x`.
    pub(super) fn forward_destroy(
        &self,
        x: &mut [T],
        y: &mut [Complex<T>],
        scratch: &mut Vec<Complex<T>>,
    ) {
        if self.fused_forward(x, y) || self.forward_aligned_target(as_complex(x), y, scratch) {
            return;
        }
        let xc = as_complex_mut(x);
        if let Some(o) = &self.own {
            o.run(false, Some(&*xc), &mut y[..self.m], scratch);
        } else {
            let need = self.fwd.get_outofplace_scratch_len();
            let s = placed_scratch(scratch, need, xc.as_ptr(), y.as_ptr());
            self.fwd
                .process_outofplace_with_scratch(xc, &mut y[..self.m], s);
        }
        self.split_forward(y);
    }

    /// The inverse transform in one codelet that needs no scratch, where this plan has one
    /// ([`OwnPow2::real_inverse`]), its result multiplied by `scale` (`None`: not scaled):
    /// `true` when `y` holds the result.
    pub(super) fn fused_inverse(&self, x: &[Complex<T>], y: &mut [T], scale: Option<f64>) -> bool {
        self.own
            .as_ref()
            .is_some_and(|o| o.real_inverse(x, as_complex_mut(y), &self.tw, scale))
    }

    pub(super) fn inverse(&self, x: &[Complex<T>], y: &mut [T], scratch: &mut Vec<Complex<T>>) {
        if self.fused_inverse(x, y, None)
            || self
                .own
                .as_ref()
                .is_some_and(|o| o.inverse_aligned_source(x, as_complex_mut(y), &self.tw, scratch))
        {
            return;
        }
        let z = as_complex_mut(y);
        split_inv(crate::simd::current(), x, z, &self.tw);
        if let Some(o) = &self.own {
            o.run(true, None, z, scratch);
            return;
        }
        let need = self.inv.get_inplace_scratch_len();
        let s = placed_scratch(scratch, need, z.as_ptr(), z.as_ptr());
        self.inv.process_with_scratch(z, s);
    }
}
