//! Smoothing and detrending as `scipy.signal` does them: the median filter (`medfilt`, zero
//! padding, odd kernels, 1-D along rows and 2-D), a correlation with `scipy.ndimage`'s boundary
//! modes (the filter of `savgol_filter`), and `detrend` (constant, or piecewise linear between
//! breakpoints).
//!
//! The median filter selects a value of its window, so its results are exactly scipy's for
//! every input without NaN (the order NaN takes among numbers is unspecified, in scipy too).

use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::par::par_rows_with;
use crate::kernels::Float;
use crate::simd::Level;

/// `if a < b { a } else { b }` (compiles to one vector min: no NaN special case).
#[inline(always)]
fn mn<T: Float>(a: T, b: T) -> T {
    if a < b {
        a
    } else {
        b
    }
}

/// `if a > b { a } else { b }`.
#[inline(always)]
fn mx<T: Float>(a: T, b: T) -> T {
    if a > b {
        a
    } else {
        b
    }
}

/// Median of three.
#[inline(always)]
fn med3<T: Float>(a: T, b: T, c: T) -> T {
    mx(mn(a, b), mn(mx(a, b), c))
}

/// Median of five (the seven-exchange selection network of Devillard's `opt_med5`).
#[inline(always)]
fn med5<T: Float>(a: T, b: T, c: T, d: T, e: T) -> T {
    let (p0, p1) = (mn(a, b), mx(a, b));
    let (p3, p4) = (mn(d, e), mx(d, e));
    let p3 = mx(p0, p3);
    let p1 = mn(p1, p4);
    let (p1, p2) = (mn(p1, c), mx(p1, c));
    let p2 = mn(p2, p3);
    mx(p1, p2)
}

/// Total order with NaN above every number (so a window holding NaN still has a median).
#[inline]
fn key_lt<T: Float>(a: T, b: T) -> bool {
    if b.is_nan() {
        !a.is_nan()
    } else {
        a < b
    }
}

/// The median filter of one zero-padded row `p` (`n + k − 1` values) into `out` (`n`).
fn medfilt_row<T: Float>(p: &[T], k: usize, out: &mut [T], win: &mut Vec<T>) {
    let n = out.len();
    match k {
        1 => out.copy_from_slice(&p[..n]),
        3 => {
            for (((o, &a), &b), &c) in out.iter_mut().zip(p).zip(&p[1..]).zip(&p[2..]) {
                *o = med3(a, b, c);
            }
        }
        5 => {
            let it = out
                .iter_mut()
                .zip(p)
                .zip(&p[1..])
                .zip(&p[2..])
                .zip(&p[3..])
                .zip(&p[4..]);
            for (((((o, &a), &b), &c), &d), &e) in it {
                *o = med5(a, b, c, d, e);
            }
        }
        _ => {
            // a sorted copy of the window, one value out and one in per step
            win.clear();
            win.extend_from_slice(&p[..k]);
            win.sort_by(|a, b| {
                if key_lt(*a, *b) {
                    std::cmp::Ordering::Less
                } else if key_lt(*b, *a) {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            });
            let h = k / 2;
            for i in 0..n {
                out[i] = win[h];
                if i + 1 == n {
                    break;
                }
                let gone = p[i];
                let new = p[i + k];
                // position of a value equal to `gone` (same key) to remove
                let at = win.partition_point(|&v| key_lt(v, gone));
                let at = (at..k)
                    .find(|&j| win[j].to_bits_eq(gone))
                    .unwrap_or(at.min(k - 1));
                win.remove(at);
                let to = win.partition_point(|&v| key_lt(v, new) || !key_lt(new, v));
                win.insert(to, new);
            }
        }
    }
}

/// Bit equality (`==` that also matches NaN with NaN), for removing a window value.
trait BitsEq {
    fn to_bits_eq(self, o: Self) -> bool;
}

impl<T: Float> BitsEq for T {
    #[inline]
    fn to_bits_eq(self, o: T) -> bool {
        self == o || (self.is_nan() && o.is_nan())
    }
}

/// The median filter of `rows` rows of `n` values with an odd kernel of `k` along each row,
/// zero padding (`scipy.signal.medfilt` of a 1-D kernel) into `out` (`rows · n`).
pub fn medfilt_rows<T: Float>(
    x: &[T],
    rows: usize,
    n: usize,
    k: usize,
    out: &mut [T],
) -> SkResult<()> {
    check_odd(k, "kernel_size")?;
    assert!(
        x.len() >= rows * n && out.len() >= rows * n,
        "medfilt spans"
    );
    if rows == 0 || n == 0 {
        return Ok(());
    }
    let h = k / 2;
    let padded = n
        .checked_add(k - 1)
        .ok_or_else(|| SkError::Length("n + kernel_size overflows".into()))?;
    let make = || -> SkResult<(Vec<T>, Vec<T>)> {
        Ok((
            try_vec(padded, T::ZERO, "a padded row")?,
            crate::kernels::alloc::try_with_capacity(if k > 5 { k } else { 0 }, "a window")?,
        ))
    };
    let work = rows.saturating_mul(n).saturating_mul(k.min(64));
    par_rows_with(
        &mut out[..rows * n],
        n,
        work,
        make,
        |(p, win), first, chunk| {
            for (i, o) in chunk.chunks_exact_mut(n).enumerate() {
                let r = first + i;
                p[h..h + n].copy_from_slice(&x[r * n..(r + 1) * n]);
                medfilt_row(p, k, o, win);
            }
        },
    )
}

fn check_odd(k: usize, name: &str) -> SkResult<()> {
    if k % 2 != 1 {
        return Err(SkError::BadArgument(format!(
            "{name} = {k} must be odd (and at least 1)"
        )));
    }
    Ok(())
}

/// The 2-D median filter of an `h × w` image (rows of `w`) with an odd `kh × kw` kernel, zero
/// padding, into `out` (`h · w`).
pub fn medfilt_2d<T: Float>(
    x: &[T],
    h: usize,
    w: usize,
    kh: usize,
    kw: usize,
    out: &mut [T],
) -> SkResult<()> {
    check_odd(kh, "kernel_size[0]")?;
    check_odd(kw, "kernel_size[1]")?;
    assert!(x.len() >= h * w && out.len() >= h * w, "medfilt2d spans");
    if h == 0 || w == 0 {
        return Ok(());
    }
    let size = kh
        .checked_mul(kw)
        .ok_or_else(|| SkError::Length("kernel_size[0] × kernel_size[1] overflows".into()))?;
    let (hh, hw) = (kh / 2, kw / 2);
    let make = || try_vec(size, T::ZERO, "a window");
    let work = h.saturating_mul(w).saturating_mul(size.min(1024));
    par_rows_with(&mut out[..h * w], w, work, make, |win, first, chunk| {
        for (i, orow) in chunk.chunks_exact_mut(w).enumerate() {
            let r = first + i;
            for (c, o) in orow.iter_mut().enumerate() {
                let mut m = 0;
                for dr in 0..kh {
                    let rr = (r + dr).wrapping_sub(hh);
                    for dc in 0..kw {
                        let cc = (c + dc).wrapping_sub(hw);
                        win[m] = if rr < h && cc < w {
                            x[rr * w + cc]
                        } else {
                            T::ZERO
                        };
                        m += 1;
                    }
                }
                let (_, v, _) = win.select_nth_unstable_by(size / 2, |a, b| {
                    if key_lt(*a, *b) {
                        std::cmp::Ordering::Less
                    } else if key_lt(*b, *a) {
                        std::cmp::Ordering::Greater
                    } else {
                        std::cmp::Ordering::Equal
                    }
                });
                *o = *v;
            }
        }
    })
}

/// `scipy.ndimage`'s boundary modes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Extend {
    /// `d c b | a b c d | c b a`.
    Mirror,
    /// `d c b a | a b c d | d c b a`.
    Reflect,
    /// `a a a | a b c d | d d d`.
    Nearest,
    /// `b c d | a b c d | a b c` (periodic).
    Wrap,
    /// The constant outside.
    Constant(f64),
}

/// The value at (possibly outside) index `i` of `x` extended by `mode`.
fn ext_at<T: Float>(x: &[T], i: isize, mode: Extend) -> T {
    let n = x.len() as isize;
    if (0..n).contains(&i) {
        return x[i as usize];
    }
    let j = match mode {
        Extend::Constant(c) => return T::from_f64(c),
        Extend::Nearest => i.clamp(0, n - 1),
        Extend::Wrap => i.rem_euclid(n),
        Extend::Reflect => {
            let m = i.rem_euclid(2 * n);
            if m >= n {
                2 * n - 1 - m
            } else {
                m
            }
        }
        Extend::Mirror => {
            if n == 1 {
                0
            } else {
                let p = 2 * (n - 1);
                let m = i.rem_euclid(p);
                if m >= n {
                    p - m
                } else {
                    m
                }
            }
        }
    };
    x[j as usize]
}

/// Outputs per register block of [`fir_lanes`]: 4 AVX-512 or 8 AVX2 accumulators.
const FIR_LANES: usize = 32;

/// `acc[i] = Σ_j taps[j]·p[i + j]` for every `i < acc.len()` (`p` holds at least `acc.len() +
/// taps.len() − 1` values), summed in tap order from zero, one tap over the whole block at a
/// time. The reference of [`fir_block_at`].
fn fir_scalar(taps: &[f64], p: &[f64], acc: &mut [f64]) {
    let b = acc.len();
    acc.fill(0.0);
    for (j, &w) in taps.iter().enumerate() {
        for (a, &v) in acc.iter_mut().zip(&p[j..j + b]) {
            *a += w * v;
        }
    }
}

/// [`fir_scalar`] register-blocked: [`FIR_LANES`] outputs stay in registers while every tap
/// is applied (one load and one multiply-add per tap and output, instead of a load and store
/// of the partial sum too). Each output is summed in the same tap order from zero; `FUSED`
/// rounds each multiply-add once (the FMA levels), otherwise as [`fir_scalar`] (bit-equal).
#[inline(always)]
fn fir_lanes<const FUSED: bool>(taps: &[f64], p: &[f64], acc: &mut [f64]) {
    #[inline(always)]
    fn madd<const FUSED: bool>(w: f64, v: f64, a: f64) -> f64 {
        if FUSED {
            w.mul_add(v, a)
        } else {
            a + w * v
        }
    }
    let b = acc.len();
    let m = taps.len();
    assert!(p.len() >= b + m - 1, "fir block input");
    let mut i = 0;
    while i + FIR_LANES <= b {
        let mut a = [0.0f64; FIR_LANES];
        for (j, &w) in taps.iter().enumerate() {
            let src: &[f64; FIR_LANES] = p[i + j..i + j + FIR_LANES].try_into().unwrap();
            for k in 0..FIR_LANES {
                a[k] = madd::<FUSED>(w, src[k], a[k]);
            }
        }
        acc[i..i + FIR_LANES].copy_from_slice(&a);
        i += FIR_LANES;
    }
    for (t, o) in acc.iter_mut().enumerate().skip(i) {
        let mut a = 0.0;
        for (&w, &v) in taps.iter().zip(&p[t..t + m]) {
            a = madd::<FUSED>(w, v, a);
        }
        *o = a;
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,bmi1,bmi2,popcnt")]
fn fir_avx512(taps: &[f64], p: &[f64], acc: &mut [f64]) {
    fir_lanes::<true>(taps, p, acc)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,bmi1,bmi2,popcnt")]
fn fir_avx2(taps: &[f64], p: &[f64], acc: &mut [f64]) {
    fir_lanes::<true>(taps, p, acc)
}

/// `acc[i] = Σ_j taps[j]·p[i + j]` at `level`: [`fir_scalar`] at `Scalar`, the register-blocked
/// [`fir_lanes`] above it (bit-equal to the scalar sums at the baseline; with one rounding per
/// multiply-add at the FMA levels, where the sums differ from the scalar ones by rounding
/// only).
fn fir_block_at(level: Level, taps: &[f64], p: &[f64], acc: &mut [f64]) {
    match crate::simd::effective(level) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the level was clamped to the detected one, so the CPU has AVX-512.
        Level::Avx512 => unsafe { fir_avx512(taps, p, acc) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the level was clamped to the detected one, so the CPU has AVX2 + FMA.
        Level::Avx2 => unsafe { fir_avx2(taps, p, acc) },
        Level::Scalar => fir_scalar(taps, p, acc),
        _ => fir_lanes::<false>(taps, p, acc),
    }
}

/// Correlation of each of `rows` rows of `n` values with `taps`, the row extended by `mode`:
/// `out[i] = Σ_j taps[j]·x̃[i + j − left]` (`left < taps.len()`), summed in double.
pub fn correlate_ext<T: Float>(
    x: &[T],
    rows: usize,
    n: usize,
    taps: &[f64],
    left: usize,
    mode: Extend,
    out: &mut [T],
) -> SkResult<()> {
    correlate_ext_at(crate::simd::current(), x, rows, n, taps, left, mode, out)
}

/// [`correlate_ext`] with its sums at `level` ([`fir_block_at`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn correlate_ext_at<T: Float>(
    level: Level,
    x: &[T],
    rows: usize,
    n: usize,
    taps: &[f64],
    left: usize,
    mode: Extend,
    out: &mut [T],
) -> SkResult<()> {
    let m = taps.len();
    if m == 0 {
        return Err(SkError::Length("the filter has no taps".into()));
    }
    if left >= m {
        return Err(SkError::BadArgument(format!(
            "left = {left} must be less than the number of taps {m}"
        )));
    }
    assert!(
        x.len() >= rows * n && out.len() >= rows * n,
        "correlate spans"
    );
    if rows == 0 || n == 0 {
        return Ok(());
    }
    const BLOCK: usize = 2048;
    let make = || -> SkResult<(Vec<f64>, Vec<f64>)> {
        Ok((
            try_vec(BLOCK + m - 1, 0.0, "a padded block")?,
            try_vec(BLOCK, 0.0, "a block sum")?,
        ))
    };
    // Output samples `s .. s + b` of one row (b ≤ BLOCK): the extended input gathered into `p`
    // (a plain copy inside the row), the taps summed in double, block-wise (vectorisable).
    let block = |p: &mut [f64], acc: &mut [f64], row: &[T], s: usize, o: &mut [T]| {
        let b = o.len();
        let base = s as isize - left as isize;
        let span = &mut p[..b + m - 1];
        if base >= 0 && base as usize + b + m - 1 <= n {
            let src = &row[base as usize..base as usize + b + m - 1];
            for (v, &x) in span.iter_mut().zip(src) {
                *v = x.to_f64();
            }
        } else {
            for (t, v) in span.iter_mut().enumerate() {
                *v = ext_at(row, base + t as isize, mode).to_f64();
            }
        }
        let acc = &mut acc[..b];
        fir_block_at(level, taps, &p[..b + m - 1], acc);
        for (d, &a) in o.iter_mut().zip(acc.iter()) {
            *d = T::from_f64(a);
        }
    };
    let work = rows.saturating_mul(n).saturating_mul(m);
    if rows == 1 {
        // one long row: its blocks are split over the threads (each block is computed as on
        // one thread, so the result does not depend on the split)
        let row = &x[..n];
        return par_rows_with(
            &mut out[..n],
            BLOCK,
            work,
            make,
            |(p, acc), first, chunk| {
                for (bi, o) in chunk.chunks_mut(BLOCK).enumerate() {
                    block(p, acc, row, (first + bi) * BLOCK, o);
                }
            },
        );
    }
    par_rows_with(
        &mut out[..rows * n],
        n,
        work,
        make,
        |(p, acc), first, chunk| {
            for (ri, o) in chunk.chunks_exact_mut(n).enumerate() {
                let r = first + ri;
                let row = &x[r * n..(r + 1) * n];
                let mut s = 0;
                while s < n {
                    let b = BLOCK.min(n - s);
                    block(p, acc, row, s, &mut o[s..s + b]);
                    s += b;
                }
            }
        },
    )
}

/// Removes from each of `rows` rows of `n` values its mean (`linear = false`) or, between
/// consecutive breakpoints of `bp` (sorted, unique, within `0..=n`, the segments
/// `[bp[i], bp[i+1])` together with `0` and `n`), its least-squares line, into `out`.
/// Computed in double.
pub fn detrend_rows<T: Float>(
    x: &[T],
    rows: usize,
    n: usize,
    linear: bool,
    bp: &[usize],
    out: &mut [T],
) -> SkResult<()> {
    for w in bp.windows(2) {
        if w[0] >= w[1] {
            return Err(SkError::BadArgument(
                "breakpoints must be strictly increasing".into(),
            ));
        }
    }
    if let Some(&b) = bp.last() {
        if b > n {
            return Err(SkError::BadArgument(format!(
                "breakpoint {b} is beyond the row length n = {n}"
            )));
        }
    }
    assert!(
        x.len() >= rows * n && out.len() >= rows * n,
        "detrend spans"
    );
    if rows == 0 || n == 0 {
        return Ok(());
    }
    let work = rows.saturating_mul(n).saturating_mul(4);
    par_rows_with(
        &mut out[..rows * n],
        n,
        work,
        || Ok(()),
        |_, first, chunk| {
            for (ri, o) in chunk.chunks_exact_mut(n).enumerate() {
                let r = first + ri;
                let row = &x[r * n..(r + 1) * n];
                if !linear {
                    let mean = row.iter().map(|v| v.to_f64()).sum::<f64>() / n as f64;
                    for (d, &v) in o.iter_mut().zip(row) {
                        *d = T::from_f64(v.to_f64() - mean);
                    }
                    continue;
                }
                let mut lo = 0;
                let mut ends = bp.iter().copied().filter(|&b| b > 0 && b < n).chain([n]);
                while lo < n {
                    let hi = ends.next().unwrap_or(n);
                    let seg = &row[lo..hi];
                    let len = seg.len();
                    let tm = (len as f64 - 1.0) / 2.0;
                    let (mut sx, mut stx, mut stt) = (0.0f64, 0.0f64, 0.0f64);
                    for (i, &v) in seg.iter().enumerate() {
                        let t = i as f64 - tm;
                        sx += v.to_f64();
                        stx += t * v.to_f64();
                        stt += t * t;
                    }
                    let mean = sx / len as f64;
                    let slope = if stt > 0.0 { stx / stt } else { 0.0 };
                    for (i, (d, &v)) in o[lo..hi].iter_mut().zip(seg).enumerate() {
                        *d = T::from_f64(v.to_f64() - (mean + slope * (i as f64 - tm)));
                    }
                    lo = hi;
                }
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;

    fn naive_med(x: &[f64], k: usize) -> Vec<f64> {
        let h = k as isize / 2;
        (0..x.len() as isize)
            .map(|i| {
                let mut w: Vec<f64> = (i - h..=i + h)
                    .map(|j| {
                        if j >= 0 && (j as usize) < x.len() {
                            x[j as usize]
                        } else {
                            0.0
                        }
                    })
                    .collect();
                w.sort_by(|a, b| a.partial_cmp(b).unwrap());
                w[k / 2]
            })
            .collect()
    }

    #[test]
    fn medfilt_matches_sorting_for_every_kernel() {
        let mut r = Rng::new(9);
        for n in [1usize, 2, 5, 17, 100] {
            // small integers: many ties
            let x: Vec<f64> = (0..n).map(|_| (r.uniform() * 4.0).round()).collect();
            for k in [1usize, 3, 5, 7, 9, 21, 201] {
                let mut out = vec![0.0; n];
                medfilt_rows(&x, 1, n, k, &mut out).unwrap();
                assert_eq!(out, naive_med(&x, k), "n {n} k {k}");
            }
        }
        assert!(medfilt_rows(&[1.0f64], 1, 1, 4, &mut [0.0]).is_err());
    }

    #[test]
    fn med5_network_on_every_permutation() {
        let v = [1.0f64, 2.0, 3.0, 4.0, 5.0];
        let mut idx = [0usize, 1, 2, 3, 4];
        // Heap's algorithm over the 120 orders
        fn go(k: usize, idx: &mut [usize; 5], v: &[f64; 5]) {
            if k == 1 {
                let m = med5(v[idx[0]], v[idx[1]], v[idx[2]], v[idx[3]], v[idx[4]]);
                assert_eq!(m, 3.0, "{idx:?}");
                return;
            }
            for i in 0..k {
                go(k - 1, idx, v);
                if k.is_multiple_of(2) {
                    idx.swap(i, k - 1);
                } else {
                    idx.swap(0, k - 1);
                }
            }
        }
        go(5, &mut idx, &v);
    }

    #[test]
    fn medfilt_2d_matches_naive() {
        let mut r = Rng::new(4);
        let (h, w) = (6, 7);
        let x: Vec<f64> = (0..h * w).map(|_| r.uniform()).collect();
        let mut out = vec![0.0; h * w];
        medfilt_2d(&x, h, w, 3, 5, &mut out).unwrap();
        for i in 0..h {
            for j in 0..w {
                let mut v = vec![];
                for a in 0..3 {
                    for b in 0..5 {
                        let (ii, jj) = (i as isize + a - 1, j as isize + b - 2);
                        v.push(
                            if ii >= 0 && jj >= 0 && (ii as usize) < h && (jj as usize) < w {
                                x[ii as usize * w + jj as usize]
                            } else {
                                0.0
                            },
                        );
                    }
                }
                v.sort_by(|a, b| a.partial_cmp(b).unwrap());
                assert_eq!(out[i * w + j], v[7]);
            }
        }
    }

    #[test]
    fn extension_modes() {
        let x = [1.0f64, 2.0, 3.0];
        let at = |m, i| ext_at(&x, i, m);
        assert_eq!(at(Extend::Mirror, -1), 2.0);
        assert_eq!(at(Extend::Mirror, 3), 2.0);
        assert_eq!(at(Extend::Mirror, 4), 1.0);
        assert_eq!(at(Extend::Mirror, 5), 2.0);
        assert_eq!(at(Extend::Reflect, -1), 1.0);
        assert_eq!(at(Extend::Reflect, 4), 2.0);
        assert_eq!(at(Extend::Nearest, -7), 1.0);
        assert_eq!(at(Extend::Wrap, -1), 3.0);
        assert_eq!(at(Extend::Constant(9.0), 3), 9.0);
        let mut out = [0.0f64; 3];
        correlate_ext(
            &x,
            1,
            3,
            &[1.0, 1.0, 1.0],
            1,
            Extend::Constant(0.0),
            &mut out,
        )
        .unwrap();
        assert_eq!(out, [3.0, 6.0, 5.0]);
    }

    #[test]
    fn fir_levels_match_the_reference() {
        use crate::kernels::testutil::{lengths, same};
        let mut rng = Rng::new(31);
        for m in [1usize, 2, 5, 31, 33] {
            let taps = rng.vec_f64(m, 1.0);
            for b in lengths().into_iter().filter(|&b| b <= 2100) {
                let mut p = rng.vec_f64(b + m - 1, 3.0);
                if b > 3 {
                    p[b / 2] = 1e-310; // a denormal
                }
                let mut want = vec![0.0; b];
                fir_scalar(&taps, &p, &mut want);
                // the FMA levels: one rounding per multiply-add, in the same tap order
                let fused: Vec<f64> = (0..b)
                    .map(|i| {
                        taps.iter()
                            .zip(&p[i..i + m])
                            .fold(0.0, |a, (&w, &v)| w.mul_add(v, a))
                    })
                    .collect();
                for level in crate::simd::available() {
                    let mut got = vec![f64::NAN; b];
                    fir_block_at(level, &taps, &p, &mut got);
                    let r: &[f64] = if level >= Level::Avx2 { &fused } else { &want };
                    assert!(same(&got, r), "{level:?} m {m} b {b}");
                    for (g, w) in got.iter().zip(&want) {
                        assert!((g - w).abs() <= 1e-13 * (m as f64) * 3.0, "{level:?}");
                    }
                }
            }
        }
        // NaN and infinity propagate at every level
        let taps = [0.5, 0.25, 0.25];
        let mut p = vec![1.0; 40];
        p[20] = f64::NAN;
        p[5] = f64::INFINITY;
        for level in crate::simd::available() {
            let mut got = vec![0.0; 38];
            fir_block_at(level, &taps, &p, &mut got);
            assert!((3..=5).all(|i| got[i] == f64::INFINITY), "{level:?}");
            assert!((18..=20).all(|i| got[i].is_nan()), "{level:?}");
            assert_eq!(got[0], 1.0);
        }
    }

    #[test]
    fn correlate_levels_agree_on_long_rows() {
        let mut rng = Rng::new(5);
        let taps = rng.vec_f64(31, 0.2);
        for (rows, n) in [(1usize, 70_001usize), (3, 4099), (2, 7)] {
            let x = rng.vec_f64(rows * n, 1.0);
            let naive: Vec<f64> = (0..rows * n)
                .map(|k| {
                    let (r, i) = (k / n, k % n);
                    let row = &x[r * n..(r + 1) * n];
                    (0..31)
                        .map(|j| {
                            taps[j] * ext_at(row, i as isize + j as isize - 15, Extend::Mirror)
                        })
                        .sum()
                })
                .collect();
            let mut first: Option<Vec<f64>> = None;
            for level in crate::simd::available() {
                let mut out = vec![0.0; rows * n];
                correlate_ext_at(level, &x, rows, n, &taps, 15, Extend::Mirror, &mut out).unwrap();
                for (g, w) in out.iter().zip(&naive) {
                    assert!((g - w).abs() <= 1e-14 * 31.0, "{level:?} {rows}×{n}");
                }
                if level == Level::Scalar {
                    first = Some(out);
                } else if level == Level::Baseline {
                    assert_eq!(first.as_ref(), Some(&out), "baseline equals scalar");
                }
            }
            // float rows summed in double, rounded once
            let xf: Vec<f32> = x.iter().map(|&v| v as f32).collect();
            let mut of = vec![0.0f32; rows * n];
            correlate_ext(&xf, rows, n, &taps, 15, Extend::Mirror, &mut of).unwrap();
            let mut od = vec![0.0; rows * n];
            let xd: Vec<f64> = xf.iter().map(|&v| v as f64).collect();
            correlate_ext(&xd, rows, n, &taps, 15, Extend::Mirror, &mut od).unwrap();
            assert!(of.iter().zip(&od).all(|(&a, &b)| a == b as f32));
        }
    }

    #[test]
    fn detrend_pieces() {
        let x: Vec<f64> = (0..10)
            .map(|i| {
                if i < 4 {
                    i as f64
                } else {
                    10.0 - 2.0 * i as f64
                }
            })
            .collect();
        let mut out = vec![0.0; 10];
        detrend_rows(&x, 1, 10, true, &[4], &mut out).unwrap();
        assert!(out.iter().all(|v| v.abs() < 1e-13), "{out:?}");
        detrend_rows(&x, 1, 10, false, &[], &mut out).unwrap();
        assert!(out.iter().sum::<f64>().abs() < 1e-12);
        assert!(detrend_rows(&x, 1, 10, true, &[11], &mut out).is_err());
    }
}
