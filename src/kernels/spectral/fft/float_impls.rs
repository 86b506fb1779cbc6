//! [`FftFloat`] for f32 and f64: the per-thread [`Workspace`] slot and the split steps of each.

use super::float::FftFloat;
use super::split::{split_fwd_f32, split_fwd_f64, split_inv_f32, split_inv_f64};
use super::workspace::{Workspace, MAX_CACHED_BYTES};
use super::Complex;
use std::cell::RefCell;

pub(super) fn some<X>(x: X) -> Option<X> {
    Some(x)
}

pub(super) fn none<X, Y>(_: X) -> Option<Y> {
    None
}

macro_rules! impl_fft_float {
    ($t:ty, $split:expr, $split_inv:expr, $acc:expr, $f64:ident, $f32:ident) => {
        impl FftFloat for $t {
            const ACCURATE_MIXED: bool = $acc;
            fn as_f64(x: &[Complex<Self>]) -> Option<&[Complex<f64>]> {
                $f64(x)
            }
            fn as_f64_mut(x: &mut [Complex<Self>]) -> Option<&mut [Complex<f64>]> {
                $f64(x)
            }
            fn as_f32(x: &[Complex<Self>]) -> Option<&[Complex<f32>]> {
                $f32(x)
            }
            fn as_f32_mut(x: &mut [Complex<Self>]) -> Option<&mut [Complex<f32>]> {
                $f32(x)
            }
            fn split_fwd_at(
                level: crate::simd::Level,
                y: &mut [Complex<Self>],
                v: &[Complex<Self>],
            ) {
                $split(level, y, v)
            }
            fn split_inv_at(
                level: crate::simd::Level,
                x: &[Complex<Self>],
                z: &mut [Complex<Self>],
                tw: &[Complex<Self>],
            ) {
                $split_inv(level, x, z, tw)
            }
            fn with_workspace<R>(f: impl FnOnce(&mut Workspace<Self>) -> R) -> R {
                thread_local! {
                    static WS: RefCell<Workspace<$t>> = const { RefCell::new(Workspace::new()) };
                }
                WS.with(|c| match c.try_borrow_mut() {
                    // borrowed in place: no move of the workspace in or out of the slot
                    Ok(mut ws) => {
                        let r = f(&mut ws);
                        if ws.bytes() > MAX_CACHED_BYTES {
                            *ws = Workspace::default();
                        }
                        r
                    }
                    // a nested call on this thread: a fresh workspace, dropped afterwards
                    Err(_) => f(&mut Workspace::default()),
                })
            }
        }
    };
}
impl_fft_float!(f32, split_fwd_f32, split_inv_f32, false, none, some);
impl_fft_float!(f64, split_fwd_f64, split_inv_f64, true, some, none);
