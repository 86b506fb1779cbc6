//! Zero-phase filtering: scipy's `filtfilt` (transfer function) and `sosfiltfilt` (sections)
//! with `method='pad'`.
//!
//! Each channel is extended at both ends by `edge` samples (`padtype` odd, even or constant; none
//! for `edge = 0`), filtered forward from the steady state `zi·ext[0]` (`zi` from
//! [`super::lfilter::lfilter_zi`] or [`super::lfilter::sosfilt_zi`]), then filtered backward from
//! `zi·fwd[last]`, and the middle `n` samples are kept: scipy's algorithm step for step. The
//! default `edge` is `3·ntaps` with scipy's `ntaps` (`max(len a, len b)`, or for sections
//! `2·n_sections + 1` minus the number of sections whose `b2` and `a2` are both zero, counted
//! as scipy does).
//!
//! Both passes run straight over the signal through the lane driver ([`super::lanes`]): the
//! forward pass filters the left extension (only its final state is used), then `x` into `y`,
//! then the right extension; the backward pass filters the filtered right extension reversed
//! (again only for its state), then `y` in place backwards in time. The extensions are the only
//! buffers (`2·edge` values per channel); nothing of the size of the signal is allocated. Channels
//! go in units of one SIMD block (8 `f64`, 16 `f32`), each with its own filter, and units run on
//! scoped threads for large inputs; every channel is computed exactly as it would be alone, so
//! the split does not change any result. `y` may be exactly `x`: the extensions are taken from
//! `x` before anything is written.

use super::super::{Float, Src};
use super::arith::{uses_fma, Fused, Plain, SosElem};
use super::lanes::Io;
use super::lfilter::LFilter;
use super::sos::SosFilter;
use crate::error::{SkError, SkResult};
use crate::kernels::layout::Layout;
use crate::kernels::par;
use crate::simd::Level;

/// How a signal is extended at its ends (scipy's `padtype`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pad {
    /// `2·x[0] − x[edge..0]` on the left, `2·x[n−1] − x[n−2..]` on the right (scipy's default).
    Odd,
    /// The mirror image without the end sample.
    Even,
    /// The end sample repeated.
    Constant,
    /// No extension (`edge = 0`).
    None,
}

/// A filter that filtfilt can run: a biquad cascade or a transfer-function filter.
pub trait ZeroPhaseFilter<T>: Send {
    /// Loads the state `base · scale[c]` for every channel (`base`: the one-channel steady
    /// state, `sosfilt_zi` or `lfilter_zi`).
    fn load_steady(&mut self, base: &[f64], scale: &[T]);
    /// Runs one pass (forwards or backwards in time), with the level's own arithmetic.
    #[allow(private_interfaces)]
    fn pass(&mut self, level: Level, io: Io<'_, T>);
}

impl<T: SosElem> ZeroPhaseFilter<T> for SosFilter<T> {
    fn load_steady(&mut self, base: &[f64], scale: &[T]) {
        let ch = self.channels();
        let ns = self.n_sections();
        let mut zi = vec![T::ZERO; ns * ch * 2];
        for s in 0..ns {
            for (c, sc) in scale.iter().enumerate() {
                for k in 0..2 {
                    zi[(s * ch + c) * 2 + k] = T::from_f64(base[s * 2 + k] * sc.to_f64());
                }
            }
        }
        self.set_state(&zi);
    }
    #[allow(private_interfaces)]
    fn pass(&mut self, level: Level, io: Io<'_, T>) {
        if uses_fma(level) {
            self.run::<Fused>(level, io)
        } else {
            self.run::<Plain>(level, io)
        }
    }
}

impl<T: SosElem> ZeroPhaseFilter<T> for LFilter<T> {
    fn load_steady(&mut self, base: &[f64], scale: &[T]) {
        let k = self.order();
        let mut zi = vec![T::ZERO; k * scale.len()];
        for (c, sc) in scale.iter().enumerate() {
            for i in 0..k {
                zi[c * k + i] = T::from_f64(base[i] * sc.to_f64());
            }
        }
        self.set_state(&zi);
    }
    /// One channel runs in the single-channel recursive form (twice the speed of the lanes,
    /// which one channel cannot fill).
    #[allow(private_interfaces)]
    fn pass(&mut self, level: Level, io: Io<'_, T>) {
        match (uses_fma(level), self.single_channel_form()) {
            (true, true) => self.run_single::<Fused>(level, io),
            (false, true) => self.run_single::<Plain>(level, io),
            (true, false) => self.run::<Fused>(level, io),
            (false, false) => self.run::<Plain>(level, io),
        }
    }
}

/// scipy's `ntaps` for `sosfiltfilt`'s default pad length.
pub fn sos_ntaps(sos: &[f64]) -> usize {
    let ns = sos.len() / 6;
    let zb2 = sos.chunks_exact(6).filter(|s| s[2] == 0.0).count();
    let za2 = sos.chunks_exact(6).filter(|s| s[5] == 0.0).count();
    2 * ns + 1 - zb2.min(za2)
}

/// The pad length: `padlen` if given, else `3·ntaps`; 0 for [`Pad::None`]. Refuses a signal not
/// longer than it (scipy's rule).
pub fn edge_for(pad: Pad, padlen: Option<usize>, ntaps: usize, n: usize) -> SkResult<usize> {
    let edge = match (pad, padlen) {
        (Pad::None, _) => 0,
        (_, Some(p)) => p,
        (_, None) => ntaps.saturating_mul(3),
    };
    if n <= edge {
        return Err(SkError::Length(format!(
            "n = {n} must be greater than the pad length {edge}{}",
            if padlen.is_none() && pad != Pad::None {
                format!(" (3·ntaps, ntaps = {ntaps})")
            } else {
                String::new()
            }
        )));
    }
    Ok(edge)
}

/// Per-unit scratch: the extensions (planar, channel stride `edge`) and the initial scales.
struct Scratch<T> {
    left: Vec<T>,
    right: Vec<T>,
    scale: Vec<T>,
}

fn zeroed<T: Float>(len: usize) -> SkResult<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| {
        SkError::Allocation(format!("cannot allocate filtfilt scratch ({len} values)"))
    })?;
    v.resize(len, T::ZERO);
    Ok(v)
}

impl<T: Float> Scratch<T> {
    fn new(m: usize, edge: usize) -> SkResult<Self> {
        let e = m
            .checked_mul(edge)
            .ok_or_else(|| SkError::Length("channels × pad length overflows".into()))?;
        Ok(Scratch {
            left: zeroed(e)?,
            right: zeroed(e)?,
            scale: zeroed(m)?,
        })
    }
}

/// Zero-phase filtering of `channels` planar channels (`x` laid out as `xl`, `y` as `yl`, both
/// planar, `n` frames): `make(m)` builds the filter for `m` channels, `zi` is its one-channel
/// steady state, `edge` the pad length from [`edge_for`]. `Src::Dst` means in place.
#[allow(clippy::too_many_arguments)]
pub fn filtfilt<T: SosElem, F: ZeroPhaseFilter<T>>(
    level: Level,
    make: impl Fn(usize) -> SkResult<F>,
    zi: &[f64],
    pad: Pad,
    edge: usize,
    channels: usize,
    x: Src<'_, T>,
    xl: Layout,
    y: &mut [T],
    yl: Layout,
    n: usize,
) -> SkResult<()> {
    assert!(xl.t == 1 && yl.t == 1, "planar layouts");
    assert!(n > edge, "n > edge (checked by edge_for)");
    if let Src::Slice(xs) = x {
        assert!(xs.len() >= xl.extent(channels, n).unwrap(), "x extent");
    } else {
        assert_eq!(xl, yl, "in-place processing needs equal layouts");
    }
    assert!(y.len() >= yl.extent(channels, n).unwrap(), "y extent");
    let wide = if std::mem::size_of::<T>() == 4 { 16 } else { 8 };
    // every filter and every scratch buffer first: after this nothing can fail
    let mut units = Vec::new();
    let mut c0 = 0;
    while c0 < channels {
        let m = (channels - c0).min(wide);
        units.push((c0, m, make(m)?, Scratch::<T>::new(m, edge)?));
        c0 += m;
    }
    let work = channels.saturating_mul(n + 2 * edge).saturating_mul(8);
    let threads = par::threads_for(units.len(), work);
    // contiguous runs of units per thread; y split into the matching channel ranges
    let per = units.len().div_ceil(threads);
    let mut parts = Vec::new();
    let mut rest = y;
    let mut it = units.into_iter().peekable();
    while it.peek().is_some() {
        let group: Vec<_> = it.by_ref().take(per).collect();
        let first = group[0].0;
        let chans: usize = group.iter().map(|u| u.1).sum();
        let yc = if first + chans < channels {
            let (head, tail) = rest.split_at_mut(chans * yl.ch);
            rest = tail;
            head
        } else {
            std::mem::take(&mut rest)
        };
        parts.push((first, group, yc));
    }
    par::run_parts(parts, |(first, group, yc)| {
        for (c0, m, mut f, mut s) in group {
            let xs = match x {
                Src::Slice(xs) => Src::Slice(&xs[c0 * xl.ch..]),
                Src::Dst => Src::Dst,
            };
            let ys = &mut yc[(c0 - first) * yl.ch..];
            unit(level, &mut f, &mut s, zi, pad, edge, m, xs, xl, ys, yl, n);
        }
    });
    Ok(())
}

/// One unit of `m` channels (offsets relative to the unit's first channel).
#[allow(clippy::too_many_arguments)]
fn unit<T: SosElem, F: ZeroPhaseFilter<T>>(
    level: Level,
    f: &mut F,
    s: &mut Scratch<T>,
    zi: &[f64],
    pad: Pad,
    edge: usize,
    m: usize,
    x: Src<'_, T>,
    xl: Layout,
    y: &mut [T],
    yl: Layout,
    n: usize,
) {
    let e = edge;
    let two = T::from_f64(2.0);
    // the extensions, from x before anything is written
    for c in 0..m {
        let xv = |t: usize| -> T {
            match x {
                Src::Slice(xs) => xs[c * xl.ch + t],
                Src::Dst => y[c * yl.ch + t],
            }
        };
        let (x0, xn) = (xv(0), xv(n - 1));
        for j in 0..e {
            // ext[j] for j < e, and ext[e + n + j]
            let (l, r) = match pad {
                Pad::Odd => (two * x0 - xv(e - j), two * xn - xv(n - 2 - j)),
                Pad::Even => (xv(e - j), xv(n - 2 - j)),
                Pad::Constant | Pad::None => (x0, xn),
            };
            s.left[c * e + j] = l;
            s.right[c * e + j] = r;
        }
        s.scale[c] = if e > 0 { s.left[c * e] } else { x0 };
    }
    let pl = Layout::planar(e);
    // forward: left pad (in place; only the state matters), signal into y, right pad (in place,
    // kept: the backward pass starts there)
    f.load_steady(zi, &s.scale);
    if e > 0 {
        f.pass(level, Io::new(Src::Dst, pl, &mut s.left, pl, e, false));
    }
    f.pass(level, Io::new(x, xl, y, yl, n, false));
    if e > 0 {
        f.pass(level, Io::new(Src::Dst, pl, &mut s.right, pl, e, false));
    }
    // backward, reversed in place: the right pad (state only), then y; the left pad's backward
    // output is not part of the result
    for c in 0..m {
        s.scale[c] = if e > 0 {
            s.right[c * e + e - 1]
        } else {
            y[c * yl.ch + n - 1]
        };
    }
    f.load_steady(zi, &s.scale);
    if e > 0 {
        f.pass(level, Io::new(Src::Dst, pl, &mut s.right, pl, e, true));
    }
    f.pass(level, Io::new(Src::Dst, yl, y, yl, n, true));
}

#[cfg(test)]
mod tests {
    use super::super::lfilter::{lfilter_zi, sosfilt_zi};
    use super::*;
    use crate::kernels::testutil::{same, Rng};

    /// Straightforward scipy algorithm in f64 on one channel with full-length buffers.
    fn reference(b: &[f64], a: &[f64], x: &[f64], pad: Pad, edge: usize) -> Vec<f64> {
        let n = x.len();
        let mut ext = Vec::new();
        for j in 0..edge {
            ext.push(match pad {
                Pad::Odd => 2.0 * x[0] - x[edge - j],
                Pad::Even => x[edge - j],
                _ => x[0],
            });
        }
        ext.extend_from_slice(x);
        for j in 0..edge {
            ext.push(match pad {
                Pad::Odd => 2.0 * x[n - 1] - x[n - 2 - j],
                Pad::Even => x[n - 2 - j],
                _ => x[n - 1],
            });
        }
        let zi = lfilter_zi(b, a).unwrap();
        let run = |v: &[f64], s: f64| -> Vec<f64> {
            let z: Vec<f64> = zi.iter().map(|z| z * s).collect();
            let mut f = LFilter::<f64>::new(b, a, 1).unwrap();
            f.set_state(&z);
            let mut out = vec![0.0; v.len()];
            let l = Layout::planar(v.len());
            f.process_with::<super::super::arith::Plain>(
                Level::Scalar,
                Src::Slice(v),
                l,
                &mut out,
                l,
                v.len(),
            );
            out
        };
        let f1 = run(&ext, ext[0]);
        let mut rev: Vec<f64> = f1.iter().rev().copied().collect();
        rev = run(&rev, rev[0]);
        rev.reverse();
        rev[edge..edge + n].to_vec()
    }

    /// `filtfilt` of a transfer-function filter over `channels` planar channels of `n` frames
    /// at `level`: out of place into a fresh buffer (7.0 where unwritten), and in place; asserts
    /// the two agree bit for bit and returns the result.
    #[allow(clippy::too_many_arguments)]
    fn run_tf(
        level: Level,
        b: &[f64],
        a: &[f64],
        zi: &[f64],
        pad: Pad,
        edge: usize,
        channels: usize,
        x: &[f64],
        n: usize,
    ) -> Vec<f64> {
        let l = Layout::planar(n);
        let run = |src: Src<'_, f64>, out: &mut [f64]| {
            let make = |m: usize| LFilter::<f64>::new(b, a, m);
            filtfilt::<f64, _>(level, make, zi, pad, edge, channels, src, l, out, l, n).unwrap()
        };
        let mut y = vec![7.0; x.len()];
        run(Src::Slice(x), &mut y);
        let mut yi = x.to_vec();
        run(Src::Dst, &mut yi);
        assert!(same(&yi, &y), "in place {level:?} {pad:?} n={n}");
        y
    }

    #[test]
    fn matches_reference_every_pad_and_length() {
        let mut rng = Rng::new(41);
        let b = [0.2, 0.3, 0.2];
        let a = [1.0, -0.5, 0.2];
        let zi = lfilter_zi(&b, &a).unwrap();
        for pad in [Pad::Odd, Pad::Even, Pad::Constant, Pad::None] {
            for n in [1usize, 2, 10, 11, 100, 2047, 2048, 2049, 5000] {
                for padlen in [None, Some(0), Some(1), Some(n.saturating_sub(1))] {
                    let Ok(edge) = edge_for(pad, padlen, 3, n) else {
                        assert!(n <= 9 || padlen.is_some());
                        continue;
                    };
                    let channels = 3;
                    let x = rng.vec_f64(channels * n, 1.0);
                    let y = run_tf(Level::Scalar, &b, &a, &zi, pad, edge, channels, &x, n);
                    for c in 0..channels {
                        let want = reference(&b, &a, &x[c * n..(c + 1) * n], pad, edge);
                        for (g, w) in y[c * n..(c + 1) * n].iter().zip(&want) {
                            assert!((g - w).abs() <= 1e-13, "{pad:?} n={n} edge={edge}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn single_channel_units_match_the_reference_at_every_level() {
        // one channel, and the ninth of nine (a unit of 8, then a unit of 1): the single-channel
        // form, within rounding of the lane form's reference
        let mut rng = Rng::new(43);
        let (b, a) = (
            [0.0048, 0.0193, 0.0289, 0.0193, 0.0048],
            [1.0, -2.3695, 2.3140, -1.0547, 0.1874],
        );
        let zi = lfilter_zi(&b, &a).unwrap();
        for channels in [1usize, 9] {
            for n in [16usize, 257, 3001] {
                let edge = edge_for(Pad::Odd, None, 5, n).unwrap();
                let x = rng.vec_f64(channels * n, 1.0);
                let mut first: Option<Vec<f64>> = None;
                for level in crate::simd::available() {
                    let y = run_tf(level, &b, &a, &zi, Pad::Odd, edge, channels, &x, n);
                    for c in 0..channels {
                        let want = reference(&b, &a, &x[c * n..(c + 1) * n], Pad::Odd, edge);
                        let peak = want.iter().fold(0.0f64, |m, v| m.max(v.abs()));
                        for (g, w) in y[c * n..(c + 1) * n].iter().zip(&want) {
                            assert!((g - w).abs() <= 1e-12 * peak, "{level:?} c={c} n={n}");
                        }
                    }
                    // levels with the same arithmetic give the same bits
                    if crate::kernels::filter::arith::uses_fma(level) {
                        match &first {
                            Some(f) => assert!(same(f, &y), "{level:?} n={n}"),
                            None => first = Some(y),
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn sos_units_and_threads_match_one_channel_at_a_time() {
        let mut rng = Rng::new(42);
        let sos = crate::kernels::filter::design::butter_sos(
            8,
            crate::kernels::filter::design::Band::Lowpass,
            0.15,
            0.0,
            2.0,
        )
        .unwrap()
        .concat();
        let zi = sosfilt_zi(&sos).unwrap();
        let n = 30000;
        let edge = edge_for(Pad::Odd, None, sos_ntaps(&sos), n).unwrap();
        assert_eq!(edge, 27);
        for level in crate::simd::available() {
            for channels in [1usize, 9, 17, 20] {
                let stride = n + 2;
                let x = rng.vec_f64(channels * stride, 1.0);
                let mut y = vec![7.0; x.len()];
                let l = Layout::planar(stride);
                let make = |m| SosFilter::<f64>::new(&sos, m);
                filtfilt::<f64, _>(
                    level,
                    make,
                    &zi,
                    Pad::Odd,
                    edge,
                    channels,
                    Src::Slice(&x),
                    l,
                    &mut y,
                    l,
                    n,
                )
                .unwrap();
                for c in [0, channels / 2, channels - 1] {
                    let mut y1 = vec![0.0; n];
                    let l1 = Layout::planar(n);
                    filtfilt::<f64, _>(
                        level,
                        make,
                        &zi,
                        Pad::Odd,
                        edge,
                        1,
                        Src::Slice(&x[c * stride..c * stride + n]),
                        l1,
                        &mut y1,
                        l1,
                        n,
                    )
                    .unwrap();
                    // one lane and many lanes use the same arithmetic at a level
                    assert!(
                        same(&y[c * stride..c * stride + n], &y1),
                        "{level:?} ch={channels} c={c}"
                    );
                    assert!(y[c * stride + n..(c + 1) * stride]
                        .iter()
                        .all(|&v| v == 7.0));
                }
            }
        }
    }

    #[test]
    fn edge_rules() {
        assert_eq!(edge_for(Pad::Odd, None, 5, 16), Ok(15));
        assert!(edge_for(Pad::Odd, None, 5, 15).is_err());
        assert_eq!(edge_for(Pad::None, None, 5, 1), Ok(0));
        assert!(edge_for(Pad::None, None, 5, 0).is_err());
        assert_eq!(edge_for(Pad::Even, Some(3), 5, 4), Ok(3));
        // scipy: ntaps = 2·ns + 1 − min(#b2 == 0, #a2 == 0)
        let sos = [1.0, 1.0, 0.0, 1.0, 0.5, 0.0, 1.0, 2.0, 1.0, 1.0, 0.1, 0.2];
        assert_eq!(sos_ntaps(&sos), 4);
    }
}
