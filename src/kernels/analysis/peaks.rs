//! Peak finding as `scipy.signal` does it: local maxima with plateaus (`_local_maxima_1d`),
//! selection by distance (`_select_by_peak_distance`), prominences (`peak_prominences`),
//! widths (`peak_widths`) and relative extrema (`argrelmax`/`argrelmin`). Each is scipy's
//! algorithm step for step (the same comparisons in the same order), so indices agree exactly
//! and the floating-point results (prominences, interpolated widths) are computed by the same
//! operations.

use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_with_capacity;
use crate::kernels::Float;

/// Local maxima of `x`, plateaus included: a peak is a run of equal values with a smaller
/// neighbour on each side (the ends of `x` never are). Writes each peak's midpoint
/// (`(left + right) / 2`, rounded down) and edges into `mid`, `left`, `right` (each holding at
/// least `x.len() / 2` slots) and returns the count. NaN compares false, as in scipy.
pub fn local_maxima<T: Float>(
    x: &[T],
    mid: &mut [usize],
    left: &mut [usize],
    right: &mut [usize],
) -> usize {
    let n = x.len();
    let mut m = 0;
    if n < 3 {
        return 0;
    }
    let i_max = n - 1;
    let mut i = 1;
    // Whether `i` starts a peak depends on the samples only (the scan below skips only indices
    // that cannot), so blocks of candidates may go either way.
    while i < i_max {
        let end = (i + 64).min(i_max);
        // Without two equal neighbours among x[i..=end] every candidate in i..end is a plateau
        // of one sample, a peak when both neighbours are smaller: counted without a branch
        // (noise makes them unpredictable). The slot m is written for every candidate; it is
        // below n / 2 (at most every other sample before it is a peak).
        if !x[i..=end].windows(2).fold(false, |f, w| f | (w[0] == w[1])) {
            for j in i..end {
                let is_peak = (x[j - 1] < x[j]) & (x[j + 1] < x[j]);
                mid[m] = j;
                left[m] = j;
                right[m] = j;
                m += usize::from(is_peak);
            }
            i = end;
            continue;
        }
        while i < end {
            if x[i - 1] < x[i] {
                let mut ahead = i + 1;
                while ahead < i_max && x[ahead] == x[i] {
                    ahead += 1;
                }
                if x[ahead] < x[i] {
                    left[m] = i;
                    right[m] = ahead - 1;
                    mid[m] = (i + ahead - 1) / 2;
                    m += 1;
                    i = ahead;
                }
            }
            i += 1;
        }
    }
    m
}

/// Most peaks [`local_maxima`] can report for `n` samples.
pub fn max_peaks(n: usize) -> usize {
    n / 2
}

/// scipy's `_select_by_peak_distance`: visiting peaks from the highest priority down (`order`:
/// the peak indices sorted by ascending priority, as `np.argsort(priority)`), each kept peak
/// removes its neighbours closer than `ceil(distance)` samples. `keep[i]` is 1 for kept peaks.
pub fn select_by_distance(
    peaks: &[usize],
    order: &[usize],
    distance: f64,
    keep: &mut [u8],
) -> SkResult<()> {
    let np = peaks.len();
    if order.len() != np || keep.len() != np {
        return Err(SkError::Length(format!(
            "order holds {} and keep {} entries for {np} peaks",
            order.len(),
            keep.len()
        )));
    }
    if let Some(&bad) = order.iter().find(|&&j| j >= np) {
        return Err(SkError::BadArgument(format!(
            "order holds {bad}, not an index of the {np} peaks"
        )));
    }
    if distance.is_nan() || distance < 0.0 {
        return Err(SkError::BadArgument(format!(
            "distance = {distance} must be a number ≥ 0"
        )));
    }
    let d = distance.ceil();
    keep.fill(1);
    for &j in order.iter().rev() {
        if keep[j] == 0 {
            continue;
        }
        let mut k = j;
        while k > 0 && ((peaks[j] as f64) - (peaks[k - 1] as f64)) < d {
            keep[k - 1] = 0;
            k -= 1;
        }
        let mut k = j + 1;
        while k < np && ((peaks[k] as f64) - (peaks[j] as f64)) < d {
            keep[k] = 0;
            k += 1;
        }
    }
    Ok(())
}

/// Checks every peak index against `n` (the message names the first bad one as scipy does).
fn check_peaks(peaks: &[usize], n: usize) -> SkResult<()> {
    if let Some(&p) = peaks.iter().find(|&&p| p >= n) {
        return Err(SkError::BadArgument(format!(
            "peak {p} is not a valid index for `x`"
        )));
    }
    Ok(())
}

/// scipy's `_peak_prominences`: for each peak the prominence, left and right base, searching at
/// most `wlen / 2` samples each side when `wlen ≥ 2` (`wlen = 0`: the whole signal). Returns how
/// many prominences are 0 (scipy warns about them).
pub fn prominences<T: Float>(
    x: &[T],
    peaks: &[usize],
    wlen: usize,
    prom: &mut [T],
    left_bases: &mut [usize],
    right_bases: &mut [usize],
) -> SkResult<usize> {
    let n = x.len();
    check_peaks(peaks, n)?;
    if wlen < 2 && peaks.windows(2).all(|w| w[0] < w[1]) {
        if let Some(zeros) = prominences_of_maxima(x, peaks, prom, left_bases, right_bases)? {
            return Ok(zeros);
        }
        return prominences_stack(x, peaks, prom, left_bases, right_bases);
    }
    let mut zeros = 0;
    for (pi, &peak) in peaks.iter().enumerate() {
        let (mut i_min, mut i_max) = (0usize, n - 1);
        if wlen >= 2 {
            i_min = i_min.max(peak.saturating_sub(wlen / 2));
            i_max = i_max.min(peak.saturating_add(wlen / 2));
        }
        // left
        let mut i = peak as isize;
        left_bases[pi] = peak;
        let mut left_min = x[peak];
        while i_min as isize <= i && x[i as usize] <= x[peak] {
            if x[i as usize] < left_min {
                left_min = x[i as usize];
                left_bases[pi] = i as usize;
            }
            i -= 1;
        }
        // right
        let mut i = peak;
        right_bases[pi] = peak;
        let mut right_min = x[peak];
        while i <= i_max && x[i] <= x[peak] {
            if x[i] < right_min {
                right_min = x[i];
                right_bases[pi] = i;
            }
            i += 1;
        }
        let base = if left_min > right_min {
            left_min
        } else {
            right_min
        };
        prom[pi] = x[peak] - base;
        if prom[pi] == T::ZERO {
            zeros += 1;
        }
    }
    Ok(zeros)
}

/// [`prominences`] over the whole signal for increasing peaks in O(n) instead of a scan per
/// peak (which costs O(n log n) on noise and O(n²) on a ramp of peaks): the same comparisons,
/// so the same bases and values.
fn prominences_stack<T: Float>(
    x: &[T],
    peaks: &[usize],
    prom: &mut [T],
    left_bases: &mut [usize],
    right_bases: &mut [usize],
) -> SkResult<usize> {
    let n = x.len();
    let mut stack = try_with_capacity(n, "the prominence stack")?;
    let idx = peaks.iter().copied().enumerate();
    run_minima(x, 0..n, idx.clone(), &mut stack, |pi, m, at| {
        prom[pi] = m;
        left_bases[pi] = at;
    });
    run_minima(x, (0..n).rev(), idx.rev(), &mut stack, |pi, m, at| {
        right_bases[pi] = at;
        let left_min = prom[pi];
        let base = if left_min > m { left_min } else { m };
        prom[pi] = x[peaks[pi]] - base;
    });
    Ok(prom.iter().filter(|&&p| p == T::ZERO).count())
}

/// The plateau edges of the local maximum (as [`local_maxima`] reports them) whose midpoint is
/// `p`, if there is one.
#[inline]
fn maximum_at<T: Float>(x: &[T], p: usize) -> Option<(usize, usize)> {
    let h = x[p];
    let (mut l, mut r) = (p, p);
    while l > 0 && x[l - 1] == h {
        l -= 1;
    }
    while r + 1 < x.len() && x[r + 1] == h {
        r += 1;
    }
    let is_max = l > 0 && r + 1 < x.len() && x[l - 1] < h && x[r + 1] < h;
    (is_max && l + (r - l) / 2 == p).then_some((l, r))
}

/// Scans the samples `x[a..b]` (`a < b`) between two neighbouring local maxima (or a maximum
/// and an end of `x`): `None` when a local maximum lies among them (a strict rise followed,
/// after equal samples only, by a strict fall); else the first index of their minimum before
/// any NaN (meaningful when `x[a]` is not NaN), the last index of their minimum after the last
/// NaN (meaningful when `x[b - 1]` is not NaN), and whether a NaN occurs.
#[inline]
fn valley<T: Float>(x: &[T], a: usize, b: usize) -> Option<(usize, usize, bool)> {
    let g = &x[a..b];
    let (mut m, mut first, mut last) = (g[0], 0, 0);
    let mut nan = g[0].is_nan();
    let (mut rising, mut bad) = (false, false);
    // no branch on the data: noise makes every one of them unpredictable
    for j in 1..g.len() {
        let (u, v) = (g[j - 1], g[j]);
        bad |= rising & (u > v);
        rising = (u < v) | (rising & (u == v));
        nan |= v.is_nan();
        let (le, lt) = (v <= m, v < m);
        first = if lt { j } else { first };
        last = if le { j } else { last };
        m = if le { v } else { m };
    }
    if bad {
        return None;
    }
    if nan {
        let first = if g[0].is_nan() {
            a
        } else {
            prefix_argmin(x, a)
        };
        return Some((first, suffix_argmin(x, a, b), true));
    }
    Some((a + first, a + last, false))
}

/// The last index of the minimum of `x[s..b]` after its last NaN (`s < b`, `x[b - 1]` not NaN),
/// as the scan to the left of a peak at `b` finds it (only a strictly smaller value moves it).
#[inline]
fn suffix_argmin<T: Float>(x: &[T], s: usize, b: usize) -> usize {
    let mut at = b - 1;
    for j in (s..b - 1).rev() {
        let v = x[j];
        if v < x[at] {
            at = j;
        } else if v.is_nan() {
            break;
        }
    }
    at
}

/// The first index of the minimum of `x[a..]` before its first NaN (`x[a]` not NaN), as the
/// scan to the right of a peak at `a - 1` finds it.
#[inline]
fn prefix_argmin<T: Float>(x: &[T], a: usize) -> usize {
    let mut at = a;
    for (j, &v) in x.iter().enumerate().skip(a + 1) {
        if v < x[at] {
            at = j;
        } else if v.is_nan() {
            break;
        }
    }
    at
}

/// Pops the peaks not higher than `h` off `stack`, merging their minima into the valley minimum
/// `(m, at)` (a popped one, farther from the new peak, wins only when strictly lower).
#[inline]
fn pop_lower<T: Float>(
    stack: &mut Vec<(T, T, usize)>,
    h: T,
    mut m: T,
    mut at: usize,
) -> (T, usize) {
    while let Some(&(sh, sm, sat)) = stack.last() {
        if sh > h {
            break;
        }
        let lower = sm < m;
        m = if lower { sm } else { m };
        at = if lower { sat } else { at };
        stack.pop();
    }
    (m, at)
}

/// [`prominences`] over the whole signal when `peaks` are exactly the local maxima of `x` (the
/// midpoints [`local_maxima`] reports, in order, as `find_peaks` passes them): a stack over the
/// peaks instead of over every sample. `Ok(None)` when `peaks` are not those maxima (the outputs
/// may then hold partial results; the caller computes them another way).
///
/// Why the bases are the scan's: between two consecutive maxima (right edge `r` of one, left
/// edge `l` of the next) the NaN-free stretches of the valley `x[r+1..l]` fall and then rise
/// (a rise followed by a fall with no NaN in between would hold a plateau with smaller
/// neighbours, i.e. another maximum); the same holds before the first maximum and after the
/// last. So the scan left from a peak (which walks its plateau at equal height first) reads the
/// valley falling to its minimum (every sample below the peak) before it can meet a sample
/// above the peak or a NaN: it takes in the valley's minimum, at the occurrence nearest the
/// peak, and goes on into the next valley exactly when it crosses the previous peak's plateau,
/// i.e. when that peak is not higher. A NaN stops it: only the valley part after the last NaN
/// counts and no earlier peak is reached. The stack holds the peaks not yet exceeded, each with
/// the lowest sample between it and the next higher peak; popping keeps the nearer occurrence
/// on ties, as the scan's strict `<` does. The right side is the mirror image. Ends of the
/// signal stop the scan as a higher sample would. The prominence is then `x[peak] − base` with
/// the scan's comparison, so every value is bit-identical.
fn prominences_of_maxima<T: Float>(
    x: &[T],
    peaks: &[usize],
    prom: &mut [T],
    left_bases: &mut [usize],
    right_bases: &mut [usize],
) -> SkResult<Option<usize>> {
    let np = peaks.len();
    // (height, lowest sample between this peak and the next higher one, its index)
    let mut stack: Vec<(T, T, usize)> = try_with_capacity(np, "the prominence stack")?;
    // nan_after[k]: a NaN lies between peak k and peak k + 1
    let mut nan_after: Vec<bool> = try_with_capacity(np, "the prominence walls")?;
    let mut prev_right: Option<usize> = None;
    for (k, &peak) in peaks.iter().enumerate() {
        let Some((l, r)) = maximum_at(x, peak) else {
            return Ok(None);
        };
        let a = prev_right.map_or(0, |pr| pr + 1);
        if a >= l {
            return Ok(None); // two peaks on one plateau
        }
        let Some((first, last, nan)) = valley(x, a, l) else {
            return Ok(None);
        };
        if k > 0 {
            right_bases[k - 1] = first;
            nan_after.push(nan);
            if nan {
                stack.clear();
            }
        }
        let h = x[peak];
        let (m, at) = pop_lower(&mut stack, h, x[last], last);
        stack.push((h, m, at));
        prom[k] = m; // the left minimum until the right pass
        left_bases[k] = at;
        prev_right = Some(r);
    }
    let Some(pr) = prev_right else {
        return Ok(Some(0)); // no peaks: nothing to write
    };
    let Some((first, _, _)) = valley(x, pr + 1, x.len()) else {
        return Ok(None);
    };
    right_bases[np - 1] = first;
    nan_after.push(false);
    stack.clear();
    let mut zeros = 0;
    for k in (0..np).rev() {
        if nan_after[k] {
            stack.clear();
        }
        let h = x[peaks[k]];
        let valley = right_bases[k];
        let (right_min, at) = pop_lower(&mut stack, h, x[valley], valley);
        stack.push((h, right_min, at));
        right_bases[k] = at;
        let left_min = prom[k];
        let base = if left_min > right_min {
            left_min
        } else {
            right_min
        };
        prom[k] = h - base;
        if prom[k] == T::ZERO {
            zeros += 1;
        }
    }
    Ok(Some(zeros))
}

/// Walks `order` (every index of `x`, one direction) keeping a stack of the samples not yet
/// exceeded, each with the minimum of its run and where it is. For each peak (met in the same
/// order) `put(peak number, minimum, index)` gets the minimum of the scan [`prominences`] does
/// from the peak away along `order` while `x[i] <= x[peak]` (stopping at a greater sample or a
/// NaN), at the occurrence nearest the peak (the scan keeps only a strictly smaller value).
fn run_minima<T: Float>(
    x: &[T],
    order: impl Iterator<Item = usize>,
    mut peaks: impl Iterator<Item = (usize, usize)>,
    stack: &mut Vec<(usize, T, usize)>,
    mut put: impl FnMut(usize, T, usize),
) {
    stack.clear();
    let mut next = peaks.next();
    for j in order {
        let v = x[j];
        let (mut m, mut at) = (v, j);
        while let Some(&(k, km, kat)) = stack.last() {
            // NaN: never `<=`, so it ends every run, as in the scan
            #[allow(clippy::neg_cmp_op_on_partial_ord)]
            if !(x[k] <= v) {
                break;
            }
            if km < m {
                (m, at) = (km, kat);
            }
            stack.pop();
        }
        stack.push((j, m, at));
        while let Some((pi, p)) = next {
            if p != j {
                break;
            }
            put(pi, m, at);
            next = peaks.next();
        }
    }
}

/// The outputs of [`widths`].
pub struct Widths<'a, T> {
    pub widths: &'a mut [T],
    pub heights: &'a mut [T],
    pub left_ips: &'a mut [T],
    pub right_ips: &'a mut [T],
}

/// scipy's `_peak_widths`: for each peak the width at `x[peak] − prom·rel_height` between the
/// linearly interpolated crossings inside its bases. Returns how many widths are 0.
#[allow(clippy::too_many_arguments)]
pub fn widths<T: Float>(
    x: &[T],
    peaks: &[usize],
    rel_height: f64,
    prom: &[T],
    left_bases: &[usize],
    right_bases: &[usize],
    out: Widths<'_, T>,
) -> SkResult<usize> {
    let n = x.len();
    if rel_height.is_nan() || rel_height < 0.0 {
        return Err(SkError::BadArgument(
            "`rel_height` must be greater or equal to 0.0".into(),
        ));
    }
    for (p, &peak) in peaks.iter().enumerate() {
        let (lo, hi) = (left_bases[p], right_bases[p]);
        if !(lo <= peak && peak <= hi && hi < n) {
            return Err(SkError::BadArgument(format!(
                "prominence data is invalid for peak {peak}"
            )));
        }
    }
    let rh = T::from_f64(rel_height);
    let mut zeros = 0;
    for (p, &peak) in peaks.iter().enumerate() {
        let (i_min, i_max) = (left_bases[p], right_bases[p]);
        let height = x[peak] - prom[p] * rh;
        out.heights[p] = height;
        let mut i = peak;
        while i_min < i && height < x[i] {
            i -= 1;
        }
        let mut left_ip = T::from_f64(i as f64);
        if x[i] < height {
            left_ip = left_ip + (height - x[i]) / (x[i + 1] - x[i]);
        }
        let mut i = peak;
        while i < i_max && height < x[i] {
            i += 1;
        }
        let mut right_ip = T::from_f64(i as f64);
        if x[i] < height {
            right_ip = right_ip - (height - x[i]) / (x[i - 1] - x[i]);
        }
        out.widths[p] = right_ip - left_ip;
        out.left_ips[p] = left_ip;
        out.right_ips[p] = right_ip;
        if out.widths[p] == T::ZERO {
            zeros += 1;
        }
    }
    Ok(zeros)
}

/// scipy's `_boolrelextrema` along one row: `mask[i] = 1` when `x[i]` compares `greater`
/// (`true`: `>`; `false`: `<`) with every `x[i ± k]`, `k = 1..=order`, indices clipped to the
/// row (`wrap = false`) or taken modulo its length.
pub fn rel_extrema<T: Float>(x: &[T], order: usize, greater: bool, wrap: bool, mask: &mut [u8]) {
    let n = x.len();
    let cmp = |a: T, b: T| if greater { a > b } else { a < b };
    for i in 0..n {
        let mut ok = true;
        for k in 1..=order {
            let (plus, minus) = if wrap {
                ((i + k % n) % n, (i + n - k % n) % n)
            } else {
                (i.saturating_add(k).min(n - 1), i.saturating_sub(k))
            };
            if !(cmp(x[i], x[plus]) && cmp(x[i], x[minus])) {
                ok = false;
                break;
            }
        }
        mask[i] = ok as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plateaus_and_edges() {
        let x = [0.0f64, 1.0, 1.0, 0.0, 2.0, 2.0, 2.0, 3.0, 1.0, 5.0];
        let (mut m, mut l, mut r) = ([0; 5], [0; 5], [0; 5]);
        let c = local_maxima(&x, &mut m, &mut l, &mut r);
        assert_eq!(c, 2);
        assert_eq!((m[0], l[0], r[0]), (1, 1, 2));
        assert_eq!((m[1], l[1], r[1]), (7, 7, 7));
        assert_eq!(local_maxima(&[1.0f64, 2.0], &mut m, &mut l, &mut r), 0);
    }

    /// scipy's `_local_maxima_1d` sample by sample (the reference for the blocked scan).
    fn local_maxima_scan(x: &[f64]) -> Vec<(usize, usize, usize)> {
        let mut out = vec![];
        let mut i = 1;
        while i + 1 < x.len() {
            if x[i - 1] < x[i] {
                let mut ahead = i + 1;
                while ahead < x.len() - 1 && x[ahead] == x[i] {
                    ahead += 1;
                }
                if x[ahead] < x[i] {
                    out.push(((i + ahead - 1) / 2, i, ahead - 1));
                    i = ahead;
                }
            }
            i += 1;
        }
        out
    }

    #[test]
    fn blocked_maxima_equal_the_scan() {
        let mut rng = crate::kernels::testutil::Rng::new(51);
        for n in [0usize, 1, 2, 3, 4, 63, 64, 65, 66, 130, 1000] {
            for levels in [2.0, 3.0, 1e9] {
                for nan in [false, true] {
                    let mut x: Vec<f64> =
                        (0..n).map(|_| (rng.uniform() * levels).floor()).collect();
                    if nan && n > 0 {
                        for _ in 0..(n / 10).max(1) {
                            x[(rng.uniform() * n as f64) as usize % n] = f64::NAN;
                        }
                    }
                    if levels > 2.5 && n > 70 {
                        x[60..70].fill(5e9); // a plateau across a block boundary
                    }
                    let cap = max_peaks(n).max(1);
                    let (mut m, mut l, mut r) = (vec![0; cap], vec![0; cap], vec![0; cap]);
                    let c = local_maxima(&x, &mut m, &mut l, &mut r);
                    let got: Vec<_> = (0..c).map(|k| (m[k], l[k], r[k])).collect();
                    assert_eq!(
                        got,
                        local_maxima_scan(&x),
                        "n = {n}, {levels} levels, {nan}"
                    );
                }
            }
        }
        // every other sample a peak: the most there can be, written into exactly n / 2 slots
        for n in [3usize, 4, 5, 200, 201] {
            let x: Vec<f64> = (0..n).map(|i| (i % 2) as f64).collect();
            let (mut m, mut l, mut r) = (vec![0; n / 2], vec![0; n / 2], vec![0; n / 2]);
            let c = local_maxima(&x, &mut m, &mut l, &mut r);
            assert_eq!(c, (n - 1) / 2);
            assert_eq!(
                m[..c].to_vec(),
                (0..c).map(|k| 2 * k + 1).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn distance_keeps_the_highest() {
        let peaks = [1usize, 3, 6, 8];
        let prio = [1.0, 3.0, 2.0, 0.5];
        let mut order: Vec<usize> = (0..4).collect();
        order.sort_by(|&a, &b| prio[a].partial_cmp(&prio[b]).unwrap());
        let mut keep = [0u8; 4];
        select_by_distance(&peaks, &order, 2.5, &mut keep).unwrap();
        assert_eq!(keep, [0, 1, 1, 0]);
    }

    /// The stack pass equals the per-peak scan (the windowed path with a window covering
    /// everything) on noise with ties, plateaus and NaN.
    #[test]
    fn prominence_stack_equals_the_scan() {
        let mut rng = crate::kernels::testutil::Rng::new(7);
        for n in [1usize, 2, 3, 17, 400] {
            let mut x: Vec<f64> = (0..n).map(|_| (rng.uniform() * 4.0).round()).collect();
            if n > 10 {
                x[n / 2] = f64::NAN;
            }
            let peaks: Vec<usize> = (0..n).filter(|i| i % 3 != 1).collect();
            let k = peaks.len();
            let (mut p1, mut l1, mut r1) = (vec![0.0; k], vec![0; k], vec![0; k]);
            let (mut p2, mut l2, mut r2) = (vec![0.0; k], vec![0; k], vec![0; k]);
            let z1 = prominences(&x, &peaks, 0, &mut p1, &mut l1, &mut r1).unwrap();
            let z2 = prominences(&x, &peaks, 4 * n + 2, &mut p2, &mut l2, &mut r2).unwrap();
            assert_eq!((z1, &l1, &r1), (z2, &l2, &r2), "n = {n}");
            for (a, b) in p1.iter().zip(&p2) {
                assert!(a.to_bits() == b.to_bits(), "n = {n}: {a} vs {b}");
            }
        }
    }

    /// Prominences of the local maxima with the same outputs from all three ways: the stack over
    /// the peaks, the stack over every sample, the scan per peak.
    fn check_maxima_path(x: &[f64], what: &str) {
        let cap = max_peaks(x.len()).max(1);
        let (mut mid, mut l, mut r) = (vec![0; cap], vec![0; cap], vec![0; cap]);
        let c = local_maxima(x, &mut mid, &mut l, &mut r);
        let peaks = &mid[..c];
        let outs = || (vec![0.0; c], vec![0; c], vec![0; c]);
        let (mut p1, mut l1, mut r1) = outs();
        let (mut p2, mut l2, mut r2) = outs();
        let (mut p3, mut l3, mut r3) = outs();
        let z1 = prominences_of_maxima(x, peaks, &mut p1, &mut l1, &mut r1)
            .unwrap()
            .unwrap_or_else(|| panic!("{what}: the maxima did not take the peak stack"));
        let z2 = prominences_stack(x, peaks, &mut p2, &mut l2, &mut r2).unwrap();
        let wide = 2 * x.len() + 4;
        let z3 = prominences(x, peaks, wide, &mut p3, &mut l3, &mut r3).unwrap();
        assert_eq!((z1, &l1, &r1), (z2, &l2, &r2), "{what}");
        assert_eq!((z1, &l1, &r1), (z3, &l3, &r3), "{what}");
        let bits = |v: &[f64]| v.iter().map(|a| a.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&p1), bits(&p2), "{what}");
        assert_eq!(bits(&p1), bits(&p3), "{what}");
        // through the public entry (it picks the peak stack)
        let (mut p4, mut l4, mut r4) = outs();
        prominences(x, peaks, 0, &mut p4, &mut l4, &mut r4).unwrap();
        assert_eq!((bits(&p4), &l4, &r4), (bits(&p1), &l1, &r1), "{what}");
    }

    #[test]
    fn prominence_peak_stack_equals_the_scan() {
        let mut rng = crate::kernels::testutil::Rng::new(50);
        let mut cases: Vec<(String, Vec<f64>)> = vec![
            ("empty".into(), vec![]),
            ("one".into(), vec![1.0]),
            ("two".into(), vec![1.0, 2.0]),
            ("ramp up".into(), (0..40).map(f64::from).collect()),
            ("ramp down".into(), (0..40).map(|i| -f64::from(i)).collect()),
            (
                "rising saw".into(),
                (0..60).map(|i| f64::from(i / 2 + (i % 2) * 3)).collect(),
            ),
            (
                "falling saw".into(),
                (0..60)
                    .map(|i| -f64::from(i / 2) + f64::from(i % 2) * 3.0)
                    .collect(),
            ),
            (
                "signed zeros and infinities".into(),
                vec![
                    0.0,
                    1.0,
                    -0.0,
                    0.0,
                    1.0,
                    -0.0,
                    f64::INFINITY,
                    f64::NEG_INFINITY,
                    f64::INFINITY,
                    f64::INFINITY,
                    2.0,
                    f64::NEG_INFINITY,
                    3.0,
                    0.0,
                ],
            ),
        ];
        for n in [3usize, 4, 5, 9, 31, 700] {
            for levels in [2.0, 4.0, 1e9] {
                let x: Vec<f64> = (0..n).map(|_| (rng.uniform() * levels).floor()).collect();
                cases.push((format!("n = {n}, {levels} levels"), x.clone()));
                let mut y = x;
                for _ in 0..(n / 8).max(1) {
                    let at = (rng.uniform() * n as f64) as usize % n;
                    y[at] = f64::NAN;
                }
                cases.push((format!("n = {n}, {levels} levels, NaN"), y));
            }
        }
        for (what, x) in &cases {
            check_maxima_path(x, what);
        }
    }

    #[test]
    fn prominence_peak_stack_declines_other_peaks() {
        let x = [0.0f64, 2.0, 1.0, 3.0, 0.0, 1.0, 0.0];
        let (mut p, mut lb, mut rb) = ([0.0; 4], [0; 4], [0; 4]);
        for peaks in [
            &[1usize, 3][..],
            &[1, 3, 5, 6],
            &[1, 2, 5],
            &[3, 5],
            &[1, 1, 3, 5],
        ] {
            let k = peaks.len();
            let got = prominences_of_maxima(&x, peaks, &mut p[..k], &mut lb[..k], &mut rb[..k]);
            assert_eq!(got.unwrap(), None, "{peaks:?}");
        }
        let none: [usize; 0] = [];
        let got = prominences_of_maxima(&x, &none, &mut p[..0], &mut lb[..0], &mut rb[..0]);
        assert_eq!(got.unwrap(), Some(0));
        let got = prominences_of_maxima(&x, &[1, 3, 5], &mut p, &mut lb, &mut rb).unwrap();
        assert_eq!(got, Some(0));
        assert_eq!(
            (&p[..3], &lb[..3], &rb[..3]),
            (&[1.0, 3.0, 1.0][..], &[0, 0, 4][..], &[2, 4, 6][..])
        );
    }

    #[test]
    fn prominence_and_width_of_a_triangle() {
        let x = [0.0f64, 1.0, 2.0, 3.0, 2.0, 1.0, 0.0];
        let (mut p, mut lb, mut rb) = ([0.0; 1], [0; 1], [0; 1]);
        assert_eq!(
            prominences(&x, &[3], 0, &mut p, &mut lb, &mut rb).unwrap(),
            0
        );
        assert_eq!((p[0], lb[0], rb[0]), (3.0, 0, 6));
        let (mut w, mut h, mut li, mut ri) = ([0.0; 1], [0.0; 1], [0.0; 1], [0.0; 1]);
        let out = Widths {
            widths: &mut w,
            heights: &mut h,
            left_ips: &mut li,
            right_ips: &mut ri,
        };
        widths(&x, &[3], 0.5, &p, &lb, &rb, out).unwrap();
        assert_eq!((w[0], h[0], li[0], ri[0]), (3.0, 1.5, 1.5, 4.5));
        assert!(prominences(&x, &[7], 0, &mut p, &mut lb, &mut rb).is_err());
    }

    #[test]
    fn relative_extrema_clip_and_wrap() {
        let x = [3.0f64, 1.0, 2.0, 1.0, 0.0];
        let mut m = [0u8; 5];
        rel_extrema(&x, 1, true, false, &mut m);
        assert_eq!(m, [0, 0, 1, 0, 0]);
        rel_extrema(&x, 1, true, true, &mut m);
        assert_eq!(m, [1, 0, 1, 0, 0]);
        rel_extrema(&x, 1, false, false, &mut m);
        assert_eq!(m, [0, 1, 0, 0, 0]);
    }
}
