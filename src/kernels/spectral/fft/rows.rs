//! Real transforms of several rows at once: the real passes ([`RealPasses`]) on [`Lanes`]
//! (16 `f32` or 8 `f64` rows, one per lane of a 64-byte vector). Each lane computes exactly what
//! the one-row passes compute, so a group of rows gives the one-row results bit for bit
//! (numpy's, see [`super::real`]). Rows move into lanes and back with square tile transposes.
//! Lanes past the group's last row hold zeros; their results are dropped.

use super::real::RealPasses;
use super::workspace::{LaneWork, Lanes};
use super::Complex;
use crate::error::SkResult;
use crate::kernels::alloc::try_grow;
use crate::kernels::Float;
use crate::simd::tile::{self, Transposer};
use crate::simd::Level;

/// The real passes of one length on the lanes of one 64-byte vector.
pub(crate) enum RowLanes<T> {
    L16(RealPasses<Lanes<T, 16>>),
    L8(RealPasses<Lanes<T, 8>>),
}

impl<T: Float, const L: usize> Default for Lanes<T, L> {
    fn default() -> Self {
        Lanes([T::ZERO; L])
    }
}

impl<T: Float> RowLanes<T> {
    /// Rows per group: 64 bytes of `T`.
    pub(crate) const LANES: usize = 64 / std::mem::size_of::<T>();

    /// The one-row passes `p` on lanes (their twiddles broadcast).
    pub(crate) fn from_passes(p: &RealPasses<T>) -> SkResult<Option<Self>> {
        Ok(match Self::LANES {
            16 => Some(RowLanes::L16(p.broadcast()?)),
            8 => Some(RowLanes::L8(p.broadcast()?)),
            _ => None,
        })
    }

    /// Grows `w` (fallibly) to the buffers of a transform of `n` points.
    pub(crate) fn reserve(&self, n: usize, w: &mut LaneWork<T>) -> SkResult<()> {
        let what = "the lane buffers of a batched FFT";
        match self {
            RowLanes::L16(_) => try_grow(&mut w.l16, 2 * n, what),
            RowLanes::L8(_) => try_grow(&mut w.l8, 2 * n, what),
        }
    }

    /// Forward transforms of `count ≤ LANES` rows, row `r` = `x[r·xst..][..n]`, into the rows
    /// `y[r·yst..][..n/2+1]` (as `FftPlan::rfft`: bin 0 and, for even `n`, bin `n/2` with a zero
    /// imaginary part), each value multiplied by `scale` if given. `w` must have been reserved.
    /// Runs at SIMD level `lv`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn forward(
        &self,
        lv: Level,
        n: usize,
        x: &[T],
        xst: usize,
        y: &mut [Complex<T>],
        yst: usize,
        count: usize,
        scale: Option<T>,
        w: &mut LaneWork<T>,
    ) {
        lanes_at(lv, lv, self, n, Dir::Fwd(x, xst, y, yst), count, scale, w);
    }

    /// Inverse transforms of `count ≤ LANES` rows of `n/2+1` bins, row `r` = `x[r·xst..]`, into
    /// the rows `y[r·yst..][..n]` (as `FftPlan::irfft`: the imaginary parts of bin 0 and, for
    /// even `n`, bin `n/2` are ignored), each value multiplied by `scale` if given. Runs at
    /// SIMD level `lv`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn inverse(
        &self,
        lv: Level,
        n: usize,
        x: &[Complex<T>],
        xst: usize,
        y: &mut [T],
        yst: usize,
        count: usize,
        scale: Option<T>,
        w: &mut LaneWork<T>,
    ) {
        lanes_at(lv, lv, self, n, Dir::Inv(x, xst, y, yst), count, scale, w);
    }
}

/// A group's input and output rows, with their strides.
pub(crate) enum Dir<'a, T> {
    Fwd(&'a [T], usize, &'a mut [Complex<T>], usize),
    Inv(&'a [Complex<T>], usize, &'a mut [T], usize),
}

/// The level's body of [`RowLanes::forward`] / [`RowLanes::inverse`]: picks the tile transposes
/// of `lv` and the lane width.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn lanes_body<T: Float>(
    lv: Level,
    rl: &RowLanes<T>,
    n: usize,
    dir: Dir<'_, T>,
    count: usize,
    scale: Option<T>,
    w: &mut LaneWork<T>,
) {
    // each lane width as a function of its own compiled for the transposer's level (see
    // `Transposer::call`): one instance per transposer, not one per transposer in every clone.
    // Only the width of `T` is ever made (`RowLanes::from_passes`); the constant guards let the
    // compiler drop the other width's instances (about 60 KiB of code each).
    tile::with_transposer!(lv, |tr| match rl {
        RowLanes::L16(p) if RowLanes::<T>::LANES == 16 => tr.call(
            #[cfg_attr(not(debug_assertions), inline(always))]
            move || group(tr, p, n, dir, count, scale, &mut w.l16)
        ),
        RowLanes::L8(p) if RowLanes::<T>::LANES == 8 => tr.call(
            #[cfg_attr(not(debug_assertions), inline(always))]
            move || group(tr, p, n, dir, count, scale, &mut w.l8)
        ),
        _ => unreachable!("lane passes of another width than {}", RowLanes::<T>::LANES),
    })
}

crate::simd::multiversion! {
    /// [`lanes_body`] compiled at a SIMD level.
    fn lanes_at<T: Float>(
        lv: Level,
        rl: &RowLanes<T>,
        n: usize,
        dir: Dir<'_, T>,
        count: usize,
        scale: Option<T>,
        w: &mut LaneWork<T>,
    ) -> ();
    scalar = lanes_body; simd = lanes_body;
}

/// Copies `L`-value blocks of up to `L` rows into lanes: `v[j][r] = src_r[off + j]` for
/// `j < len`, where row `r < rows.len()` is `rows[r]` and the other lanes are zero.
#[inline(always)]
fn rows_into_lanes<T: Float, X: Transposer, const L: usize>(
    tr: X,
    rows: &[&[T]],
    off: usize,
    len: usize,
    v: &mut [Lanes<T, L>],
) {
    let z = T::ZERO;
    let mut a = [[z; L]; L];
    let mut o = [[z; L]; L];
    for jb in (0..len).step_by(L) {
        let m = L.min(len - jb);
        for (ar, src) in a.iter_mut().zip(rows) {
            ar[..m].copy_from_slice(&src[off + jb..off + jb + m]);
        }
        tr.transpose(&a, &mut o);
        for (d, r) in v[jb..jb + m].iter_mut().zip(&o) {
            *d = Lanes(*r);
        }
    }
}

/// The transpose of [`rows_into_lanes`]: `dst_r[off + j] = v[j][r]` for `j < len` and every row
/// `r < rows.len()`.
#[inline(always)]
fn lanes_into_rows<T: Float, X: Transposer, const L: usize>(
    tr: X,
    v: &[Lanes<T, L>],
    rows: &mut [&mut [T]],
    off: usize,
    len: usize,
) {
    let z = T::ZERO;
    let mut a = [[z; L]; L];
    let mut o = [[z; L]; L];
    for jb in (0..len).step_by(L) {
        let m = L.min(len - jb);
        for (ar, s) in a.iter_mut().zip(&v[jb..jb + m]) {
            *ar = s.0;
        }
        tr.transpose(&a, &mut o);
        for (or, dst) in o.iter().zip(rows.iter_mut()) {
            dst[off + jb..off + jb + m].copy_from_slice(&or[..m]);
        }
    }
}

/// One group of `count` rows through the lane passes (see [`RowLanes::forward`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn group<T: Float, X: Transposer, const L: usize>(
    tr: X,
    p: &RealPasses<Lanes<T, L>>,
    n: usize,
    dir: Dir<'_, T>,
    count: usize,
    scale: Option<T>,
    buf: &mut [Lanes<T, L>],
) {
    assert!((1..=L).contains(&count), "lane group of {count} rows");
    let (v, ch) = buf[..2 * n].split_at_mut(n);
    let empty: &[T] = &[];
    match dir {
        Dir::Fwd(x, xst, y, yst) => {
            let mut src = [empty; L];
            for (r, s) in src.iter_mut().take(count).enumerate() {
                *s = &x[r * xst..r * xst + n];
            }
            rows_into_lanes(tr, &src[..count], 0, n, v);
            p.forward(v, ch);
            // halfcomplex r0, r1, i1, …[, r_{n/2}] → r0, 0, r1, i1, …[, r_{n/2}, 0]
            let h = n / 2 + 1;
            let mut dst: [&mut [T]; L] = std::array::from_fn(|_| &mut [][..]);
            let mut rest = &mut y[..];
            for (r, d) in dst.iter_mut().take(count).enumerate() {
                let (row, tail) =
                    std::mem::take(&mut rest).split_at_mut(if r + 1 < count { yst } else { h });
                let row = super::float::as_real_mut(&mut row[..h]);
                row[0] = v[0].0[r];
                row[1] = zero_scaled(scale);
                if n.is_multiple_of(2) {
                    row[n + 1] = zero_scaled(scale);
                }
                *d = row;
                rest = tail;
            }
            lanes_into_rows(tr, &v[1..], &mut dst[..count], 2, n - 1);
            if let Some(s) = scale {
                for row in &mut dst[..count] {
                    row[0] = row[0] * s;
                    scale_run(&mut row[2..n + 1], s);
                }
            }
        }
        Dir::Inv(x, xst, y, yst) => {
            let mut src = [empty; L];
            for (r, s) in src.iter_mut().take(count).enumerate() {
                *s = super::as_real(&x[r * xst..r * xst + n / 2 + 1]);
            }
            // r0, i0, r1, i1, … → halfcomplex r0, r1, i1, …[, r_{n/2}]
            let mut d0 = [T::ZERO; L];
            for (d, s) in d0.iter_mut().zip(&src[..count]) {
                *d = s[0];
            }
            v[0] = Lanes(d0);
            rows_into_lanes(tr, &src[..count], 2, n - 1, &mut v[1..]);
            p.backward(v, ch);
            let mut dst: [&mut [T]; L] = std::array::from_fn(|_| &mut [][..]);
            let mut rest = &mut y[..];
            for (r, d) in dst.iter_mut().take(count).enumerate() {
                let (row, tail) =
                    std::mem::take(&mut rest).split_at_mut(if r + 1 < count { yst } else { n });
                *d = &mut row[..n];
                rest = tail;
            }
            lanes_into_rows(tr, v, &mut dst[..count], 0, n);
            if let Some(s) = scale {
                for row in &mut dst[..count] {
                    scale_run(row, s);
                }
            }
        }
    }
}

/// `x ← x·s` on a run of output values. The normalisation is applied to the rows after they
/// leave the lanes, not to the lanes: a loop over the lanes (`v[k] = v[k]·s`) is vectorised by
/// LLVM across lanes with gathers and scatters (it took a third of a double irfft batch); a
/// run of plain values vectorises with contiguous loads and stores. The same product per
/// value either way.
#[inline(always)]
fn scale_run<T: Float>(x: &mut [T], s: T) {
    for v in x.iter_mut() {
        *v = *v * s;
    }
}

/// The zero imaginary part of bin 0 (and `n/2`) after the one-row path's scaling: `0·s`.
#[inline(always)]
fn zero_scaled<T: Float>(scale: Option<T>) -> T {
    scale.map_or(T::ZERO, |s| T::ZERO * s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::spectral::fft::FftFloat;

    /// The one-row reference: the scalar passes with the one-row path's packing and scaling.
    fn one_fwd<T: FftFloat>(p: &RealPasses<T>, x: &[T], s: Option<T>) -> Vec<T> {
        let n = x.len();
        let mut y = vec![T::ZERO; 2 * (n / 2 + 1)];
        y[1..=n].copy_from_slice(x);
        let mut ch = vec![T::ZERO; n];
        p.forward(&mut y[1..=n], &mut ch);
        y[0] = y[1];
        y[1] = T::ZERO;
        if n.is_multiple_of(2) {
            y[n + 1] = T::ZERO;
        }
        y.iter().map(|&v| s.map_or(v, |s| v * s)).collect()
    }

    fn one_inv<T: FftFloat>(p: &RealPasses<T>, x: &[T], n: usize, s: Option<T>) -> Vec<T> {
        let mut y = vec![T::ZERO; n];
        y[0] = x[0];
        y[1..n].copy_from_slice(&x[2..=n]);
        let mut ch = vec![T::ZERO; n];
        p.backward(&mut y, &mut ch);
        y.iter().map(|&v| s.map_or(v, |s| v * s)).collect()
    }

    fn bits<T: FftFloat>(v: &[T]) -> Vec<u64> {
        v.iter().map(|x| x.to_f64().to_bits()).collect()
    }

    /// Every group size 1..=LANES, strided rows, at every SIMD level: each row bit for bit the
    /// one-row scalar passes, and nothing written outside the rows.
    fn groups_match_one_row<T: FftFloat>() {
        let l = RowLanes::<T>::LANES;
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            <T as Float>::from_f64((seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0)
        };
        for n in [
            1, 2, 3, 4, 5, 8, 12, 16, 30, 64, 97, 100, 128, 243, 256, 400, 1024,
        ] {
            let p = RealPasses::<T>::new(n).unwrap();
            let rl = RowLanes::from_passes(&p).unwrap().unwrap();
            let h = n / 2 + 1;
            for count in [1, 2, l / 2 + 1, l - 1, l] {
                for s in [None, Some(<T as Float>::from_f64(0.125))] {
                    let (xst, yst) = (n + 3, h + 2);
                    let x: Vec<T> = (0..count * xst).map(|_| rnd()).collect();
                    let xc: Vec<Complex<T>> = (0..count * yst)
                        .map(|_| Complex::new(rnd(), rnd()))
                        .collect();
                    for lv in crate::simd::available() {
                        let mut w = LaneWork::default();
                        rl.reserve(n, &mut w).unwrap();
                        let fill =
                            Complex::new(<T as Float>::from_f64(7.0), <T as Float>::from_f64(7.0));
                        let mut y = vec![fill; count * yst];
                        rl.forward(lv, n, &x, xst, &mut y, yst, count, s, &mut w);
                        let mut yi = vec![<T as Float>::from_f64(7.0); count * xst];
                        rl.inverse(lv, n, &xc, yst, &mut yi, xst, count, s, &mut w);
                        for r in 0..count {
                            let want = one_fwd(&p, &x[r * xst..r * xst + n], s);
                            let got = super::super::as_real(&y[r * yst..r * yst + h]);
                            assert_eq!(bits(got), bits(&want), "fwd n {n} count {count} {lv:?}");
                            assert!(y[r * yst + h..(r + 1) * yst].iter().all(|c| *c == fill));
                            let xr = super::super::as_real(&xc[r * yst..r * yst + h]);
                            let want = one_inv(&p, xr, n, s);
                            let got = &yi[r * xst..r * xst + n];
                            assert_eq!(bits(got), bits(&want), "inv n {n} count {count} {lv:?}");
                            assert!(yi[r * xst + n..(r + 1) * xst]
                                .iter()
                                .all(|&v| v == <T as Float>::from_f64(7.0)));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn f64_groups_match_one_row() {
        groups_match_one_row::<f64>();
    }

    #[test]
    fn f32_groups_match_one_row() {
        groups_match_one_row::<f32>();
    }
}
