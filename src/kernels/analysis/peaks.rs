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
    maxima_scan::<T, true>(x, mid, left, right)
}

/// [`local_maxima`] writing the midpoints only (`mid` holds at least `x.len() / 2` slots).
pub fn local_maxima_mid<T: Float>(x: &[T], mid: &mut [usize]) -> usize {
    maxima_scan::<T, false>(x, mid, &mut [], &mut [])
}

/// The scan behind [`local_maxima`]; `EDGES = false` leaves `left` and `right` alone.
#[inline(always)]
fn maxima_scan<T: Float, const EDGES: bool>(
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
                if EDGES {
                    left[m] = j;
                    right[m] = j;
                }
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
                    if EDGES {
                        left[m] = i;
                        right[m] = ahead - 1;
                    }
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
        let mut scratch = ProminenceScratch::new(n, peaks.len())?;
        return Ok(prominences_whole(
            x,
            peaks,
            prom,
            left_bases,
            right_bases,
            &mut scratch,
        ));
    }
    Ok(prominences_windowed(
        x,
        peaks,
        wlen,
        prom,
        left_bases,
        right_bases,
    ))
}

/// The working memory of [`prominences`] over the whole signal, reserved before anything is
/// written (only the depth the stacks reach is ever touched).
pub struct ProminenceScratch<T> {
    peak_stack: Vec<(T, T, usize)>,
    walls: Vec<bool>,
    sample_stack: Vec<(usize, T, usize)>,
}

impl<T: Float> ProminenceScratch<T> {
    /// Room for `np` peaks in a signal of `n` samples, or `SK_ERR_ALLOCATION`.
    pub fn new(n: usize, np: usize) -> SkResult<Self> {
        Ok(ProminenceScratch {
            peak_stack: try_with_capacity(np, "the prominence stack")?,
            walls: try_with_capacity(np, "the prominence walls")?,
            sample_stack: try_with_capacity(n, "the prominence stack")?,
        })
    }
}

/// [`prominences`] over the whole signal for increasing peak indices (checked `< x.len()`):
/// the stack over the peaks when they are the local maxima, else the stack over the samples.
fn prominences_whole<T: Float>(
    x: &[T],
    peaks: &[usize],
    prom: &mut [T],
    left_bases: &mut [usize],
    right_bases: &mut [usize],
    scratch: &mut ProminenceScratch<T>,
) -> usize {
    if let Some(zeros) = prominences_of_maxima(x, peaks, prom, left_bases, right_bases, scratch) {
        return zeros;
    }
    prominences_stack(x, peaks, prom, left_bases, right_bases, scratch)
}

/// [`prominences`] by a scan per peak (peak indices checked `< x.len()`).
fn prominences_windowed<T: Float>(
    x: &[T],
    peaks: &[usize],
    wlen: usize,
    prom: &mut [T],
    left_bases: &mut [usize],
    right_bases: &mut [usize],
) -> usize {
    let n = x.len();
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
    zeros
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
    scratch: &mut ProminenceScratch<T>,
) -> usize {
    let n = x.len();
    let stack = &mut scratch.sample_stack;
    let idx = peaks.iter().copied().enumerate();
    run_minima(x, 0..n, idx.clone(), stack, |pi, m, at| {
        prom[pi] = m;
        left_bases[pi] = at;
    });
    run_minima(x, (0..n).rev(), idx.rev(), stack, |pi, m, at| {
        right_bases[pi] = at;
        let left_min = prom[pi];
        let base = if left_min > m { left_min } else { m };
        prom[pi] = x[peaks[pi]] - base;
    });
    prom.iter().filter(|&&p| p == T::ZERO).count()
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
/// peaks instead of over every sample. `None` when `peaks` are not those maxima (the outputs
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
    scratch: &mut ProminenceScratch<T>,
) -> Option<usize> {
    let np = peaks.len();
    // (height, lowest sample between this peak and the next higher one, its index)
    let stack = &mut scratch.peak_stack;
    stack.clear();
    // nan_after[k]: a NaN lies between peak k and peak k + 1
    let nan_after = &mut scratch.walls;
    nan_after.clear();
    let mut prev_right: Option<usize> = None;
    for (k, &peak) in peaks.iter().enumerate() {
        let (l, r) = maximum_at(x, peak)?;
        let a = prev_right.map_or(0, |pr| pr + 1);
        if a >= l {
            return None; // two peaks on one plateau
        }
        let (first, last, nan) = valley(x, a, l)?;
        if k > 0 {
            right_bases[k - 1] = first;
            nan_after.push(nan);
            if nan {
                stack.clear();
            }
        }
        let h = x[peak];
        let (m, at) = pop_lower(stack, h, x[last], last);
        stack.push((h, m, at));
        prom[k] = m; // the left minimum until the right pass
        left_bases[k] = at;
        prev_right = Some(r);
    }
    let Some(pr) = prev_right else {
        return Some(0); // no peaks: nothing to write
    };
    let (first, _, _) = valley(x, pr + 1, x.len())?;
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
        let (right_min, at) = pop_lower(stack, h, x[valley], valley);
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
    Some(zeros)
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

/// One condition of [`find_peaks`]: whether it is given (its properties are then reported) and
/// its interval, `None` for an open end (scipy's `None`). A value passes when `min <= value` and
/// `value <= max` (a NaN value or bound never does).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Condition {
    pub on: bool,
    pub min: Option<f64>,
    pub max: Option<f64>,
}

impl Condition {
    #[inline(always)]
    fn keeps(&self, v: f64) -> bool {
        self.min.is_none_or(|m| m <= v) && self.max.is_none_or(|m| v <= m)
    }
}

/// The conditions of [`find_peaks`] (scipy's `find_peaks` without `distance`), applied in
/// scipy's order: plateau size, height, threshold, prominence, width.
#[derive(Clone, Copy, Debug, Default)]
pub struct PeakConditions {
    pub plateau_size: Condition,
    pub height: Condition,
    pub threshold: Condition,
    pub prominence: Condition,
    pub width: Condition,
    /// Prominence window (`0`: the whole signal), as [`prominences`].
    pub wlen: usize,
    /// Height of the width measurement, as [`widths`] (≥ 0).
    pub rel_height: f64,
}

impl PeakConditions {
    /// Whether the prominences (and bases) are computed: for a prominence or width condition.
    pub fn needs_prominences(&self) -> bool {
        self.prominence.on || self.width.on
    }
}

/// The outputs of [`find_peaks`], each holding at least `x.len() / 2` slots (the most local
/// maxima there can be); `None` for the properties of conditions not given. The first `count`
/// entries of each are written.
#[derive(Default)]
pub struct PeakOutputs<'a> {
    pub peaks: &'a mut [usize],
    pub plateau_sizes: Option<&'a mut [usize]>,
    pub left_edges: Option<&'a mut [usize]>,
    pub right_edges: Option<&'a mut [usize]>,
    pub peak_heights: Option<&'a mut [f64]>,
    pub left_thresholds: Option<&'a mut [f64]>,
    pub right_thresholds: Option<&'a mut [f64]>,
    pub prominences: Option<&'a mut [f64]>,
    pub left_bases: Option<&'a mut [usize]>,
    pub right_bases: Option<&'a mut [usize]>,
    pub widths: Option<&'a mut [f64]>,
    pub width_heights: Option<&'a mut [f64]>,
    pub left_ips: Option<&'a mut [f64]>,
    pub right_ips: Option<&'a mut [f64]>,
}

/// What [`find_peaks`] found: the number of peaks kept, and how many of the peaks whose
/// prominences (widths) were computed have a prominence (width) of 0 (scipy warns then).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PeakCounts {
    pub peaks: usize,
    pub zero_prominences: usize,
    pub zero_widths: usize,
}

/// Keeps the entries `i < m` of the property arrays for which `keep(i)` holds, in order, moving
/// them to the front of every array; returns how many are kept.
fn compact_props(
    m: usize,
    o: &mut PeakOutputs<'_>,
    stage: u32,
    mut keep: impl FnMut(&PeakOutputs<'_>, usize) -> bool,
) -> usize {
    let mut w = 0;
    for i in 0..m {
        if !keep(o, i) {
            continue;
        }
        if w != i {
            o.peaks[w] = o.peaks[i];
            fn mv<T: Copy>(a: &mut Option<&mut [T]>, on: bool, w: usize, i: usize) {
                if let (true, Some(a)) = (on, a.as_deref_mut()) {
                    a[w] = a[i];
                }
            }
            let on = |s: u32| stage & s != 0;
            mv(&mut o.plateau_sizes, on(S_PLATEAU), w, i);
            mv(&mut o.left_edges, on(S_PLATEAU), w, i);
            mv(&mut o.right_edges, on(S_PLATEAU), w, i);
            mv(&mut o.peak_heights, on(S_HEIGHT), w, i);
            mv(&mut o.left_thresholds, on(S_THRESHOLD), w, i);
            mv(&mut o.right_thresholds, on(S_THRESHOLD), w, i);
            mv(&mut o.prominences, on(S_PROMINENCE), w, i);
            mv(&mut o.left_bases, on(S_PROMINENCE), w, i);
            mv(&mut o.right_bases, on(S_PROMINENCE), w, i);
            mv(&mut o.widths, on(S_WIDTH), w, i);
            mv(&mut o.width_heights, on(S_WIDTH), w, i);
            mv(&mut o.left_ips, on(S_WIDTH), w, i);
            mv(&mut o.right_ips, on(S_WIDTH), w, i);
        }
        w += 1;
    }
    w
}

const S_PLATEAU: u32 = 1;
const S_HEIGHT: u32 = 2;
const S_THRESHOLD: u32 = 4;
const S_PROMINENCE: u32 = 8;
const S_WIDTH: u32 = 16;

/// The slice an output the caller must give for the conditions `c` (checked by the caller).
fn need<'b, T>(o: &'b mut Option<&mut [T]>, what: &str) -> SkResult<&'b mut [T]> {
    o.as_deref_mut()
        .ok_or_else(|| SkError::BadArgument(format!("the output {what} is missing")))
}

/// scipy's `find_peaks(x, height, threshold, prominence=…, width=…, wlen, rel_height,
/// plateau_size)` (no `distance`) in one pass over the candidates: the local maxima, then each
/// condition given in scipy's order (plateau size, height, threshold, prominence, width), each
/// computing its properties for the peaks still kept and keeping those inside its interval. The
/// properties of every condition given are written for the peaks finally kept, with scipy's
/// values bit for bit (the same operations as [`local_maxima`], [`prominences`], [`widths`]).
///
/// Everything that can fail (argument checks, the working memory) happens before the first
/// write.
pub fn find_peaks(x: &[f64], c: &PeakConditions, mut o: PeakOutputs<'_>) -> SkResult<PeakCounts> {
    let n = x.len();
    let cap = max_peaks(n);
    if c.width.on && (c.rel_height.is_nan() || c.rel_height < 0.0) {
        return Err(SkError::BadArgument(
            "`rel_height` must be greater or equal to 0.0".into(),
        ));
    }
    let short = |len: usize| len < cap;
    let mut lens = vec![("peaks", o.peaks.len())];
    let mut want = |on: bool, name: &'static str, len: Option<usize>| -> SkResult<()> {
        if on {
            let len =
                len.ok_or_else(|| SkError::BadArgument(format!("the output {name} is missing")))?;
            lens.push((name, len));
        }
        Ok(())
    };
    let l = |a: &Option<&mut [usize]>| a.as_ref().map(|a| a.len());
    let lf = |a: &Option<&mut [f64]>| a.as_ref().map(|a| a.len());
    want(c.plateau_size.on, "plateau_sizes", l(&o.plateau_sizes))?;
    want(c.plateau_size.on, "left_edges", l(&o.left_edges))?;
    want(c.plateau_size.on, "right_edges", l(&o.right_edges))?;
    want(c.height.on, "peak_heights", lf(&o.peak_heights))?;
    want(c.threshold.on, "left_thresholds", lf(&o.left_thresholds))?;
    want(c.threshold.on, "right_thresholds", lf(&o.right_thresholds))?;
    let pr = c.needs_prominences();
    want(pr, "prominences", lf(&o.prominences))?;
    want(pr, "left_bases", l(&o.left_bases))?;
    want(pr, "right_bases", l(&o.right_bases))?;
    want(c.width.on, "widths", lf(&o.widths))?;
    want(c.width.on, "width_heights", lf(&o.width_heights))?;
    want(c.width.on, "left_ips", lf(&o.left_ips))?;
    want(c.width.on, "right_ips", lf(&o.right_ips))?;
    if let Some(&(name, len)) = lens.iter().find(|(_, len)| short(*len)) {
        return Err(SkError::BufferTooSmall(format!(
            "{name} holds {len} entries but n = {n} samples can hold {cap} peaks"
        )));
    }
    let mut scratch = if pr && c.wlen < 2 {
        Some(ProminenceScratch::new(n, cap)?)
    } else {
        None
    };

    // the local maxima (edges only where they are reported)
    let mut m = if c.plateau_size.on {
        let (le, re) = (
            need(&mut o.left_edges, "left_edges")?,
            need(&mut o.right_edges, "right_edges")?,
        );
        local_maxima(x, o.peaks, le, re)
    } else {
        local_maxima_mid(x, o.peaks)
    };
    let mut stage = 0;
    if c.plateau_size.on {
        let sizes = need(&mut o.plateau_sizes, "plateau_sizes")?;
        let (le, re) = (
            o.left_edges.as_deref().unwrap_or(&[]),
            o.right_edges.as_deref().unwrap_or(&[]),
        );
        for i in 0..m {
            sizes[i] = re[i] - le[i] + 1;
        }
        stage |= S_PLATEAU;
        let cond = c.plateau_size;
        m = compact_props(m, &mut o, stage, |o, i| {
            cond.keeps(o.plateau_sizes.as_deref().map_or(0, |s| s[i]) as f64)
        });
    }
    if c.height.on {
        let h = need(&mut o.peak_heights, "peak_heights")?;
        for i in 0..m {
            h[i] = x[o.peaks[i]];
        }
        stage |= S_HEIGHT;
        let cond = c.height;
        m = compact_props(m, &mut o, stage, |o, i| cond.keeps(x[o.peaks[i]]));
    }
    if c.threshold.on {
        let lt = need(&mut o.left_thresholds, "left_thresholds")?;
        for (t, &p) in lt.iter_mut().zip(&o.peaks[..m]) {
            *t = x[p] - x[p - 1];
        }
        let rt = need(&mut o.right_thresholds, "right_thresholds")?;
        for (t, &p) in rt.iter_mut().zip(&o.peaks[..m]) {
            *t = x[p] - x[p + 1];
        }
        stage |= S_THRESHOLD;
        let cond = c.threshold;
        m = compact_props(m, &mut o, stage, |o, i| {
            let p = o.peaks[i];
            let (a, b) = (x[p] - x[p - 1], x[p] - x[p + 1]);
            // np.minimum / np.maximum: NaN when either is
            let nan = a.is_nan() || b.is_nan();
            let (lo, hi) = if nan {
                (f64::NAN, f64::NAN)
            } else if a < b {
                (a, b)
            } else {
                (b, a)
            };
            cond.min.is_none_or(|t| t <= lo) && cond.max.is_none_or(|t| hi <= t)
        });
    }
    let mut counts = PeakCounts::default();
    if pr {
        let peaks = &o.peaks[..m];
        let pv = need(&mut o.prominences, "prominences")?;
        let lb = need(&mut o.left_bases, "left_bases")?;
        let rb = need(&mut o.right_bases, "right_bases")?;
        let (pv, lb, rb) = (&mut pv[..m], &mut lb[..m], &mut rb[..m]);
        counts.zero_prominences = match scratch.as_mut() {
            Some(s) => prominences_whole(x, peaks, pv, lb, rb, s),
            None => prominences_windowed(x, peaks, c.wlen, pv, lb, rb),
        };
        stage |= S_PROMINENCE;
    }
    if c.prominence.on {
        let cond = c.prominence;
        m = compact_props(m, &mut o, stage, |o, i| {
            cond.keeps(o.prominences.as_deref().map_or(0.0, |p| p[i]))
        });
    }
    if c.width.on {
        let peaks = &o.peaks[..m];
        let pv = o.prominences.as_deref().unwrap_or(&[]);
        let lb = o.left_bases.as_deref().unwrap_or(&[]);
        let rb = o.right_bases.as_deref().unwrap_or(&[]);
        let w = o.widths.as_deref_mut().unwrap_or(&mut []);
        let wh = o.width_heights.as_deref_mut().unwrap_or(&mut []);
        let li = o.left_ips.as_deref_mut().unwrap_or(&mut []);
        let ri = o.right_ips.as_deref_mut().unwrap_or(&mut []);
        counts.zero_widths = widths(
            x,
            peaks,
            c.rel_height,
            &pv[..m],
            &lb[..m],
            &rb[..m],
            Widths {
                widths: &mut w[..m],
                heights: &mut wh[..m],
                left_ips: &mut li[..m],
                right_ips: &mut ri[..m],
            },
        )?;
        stage |= S_WIDTH;
        let cond = c.width;
        m = compact_props(m, &mut o, stage, |o, i| {
            cond.keeps(o.widths.as_deref().map_or(0.0, |w| w[i]))
        });
    }
    counts.peaks = m;
    Ok(counts)
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
        let mut s = ProminenceScratch::new(x.len(), c).unwrap();
        let z1 = prominences_of_maxima(x, peaks, &mut p1, &mut l1, &mut r1, &mut s)
            .unwrap_or_else(|| panic!("{what}: the maxima did not take the peak stack"));
        let z2 = prominences_stack(x, peaks, &mut p2, &mut l2, &mut r2, &mut s);
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
        let mut s = ProminenceScratch::new(x.len(), 4).unwrap();
        for peaks in [
            &[1usize, 3][..],
            &[1, 3, 5, 6],
            &[1, 2, 5],
            &[3, 5],
            &[1, 1, 3, 5],
        ] {
            let k = peaks.len();
            let got =
                prominences_of_maxima(&x, peaks, &mut p[..k], &mut lb[..k], &mut rb[..k], &mut s);
            assert_eq!(got, None, "{peaks:?}");
        }
        let none: [usize; 0] = [];
        let got = prominences_of_maxima(&x, &none, &mut p[..0], &mut lb[..0], &mut rb[..0], &mut s);
        assert_eq!(got, Some(0));
        let got = prominences_of_maxima(&x, &[1, 3, 5], &mut p, &mut lb, &mut rb, &mut s);
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

    /// scipy's `find_peaks` composed from the separate kernels (the reference for the fused
    /// one): every property, with the peaks kept at each step.
    #[allow(clippy::type_complexity)]
    fn find_peaks_composed(
        x: &[f64],
        c: &PeakConditions,
    ) -> (Vec<usize>, Vec<Vec<f64>>, usize, usize) {
        let cap = max_peaks(x.len()).max(1);
        let (mut mid, mut l, mut r) = (vec![0; cap], vec![0; cap], vec![0; cap]);
        let m = local_maxima(x, &mut mid, &mut l, &mut r);
        // rows: peaks and every property (as f64), filtered together
        let mut rows: Vec<Vec<f64>> = vec![mid[..m].iter().map(|&p| p as f64).collect()];
        let pick = |rows: &mut Vec<Vec<f64>>, keep: Vec<bool>| {
            for row in rows.iter_mut() {
                let mut k = keep.iter();
                row.retain(|_| *k.next().unwrap());
            }
        };
        let pk = |rows: &Vec<Vec<f64>>| rows[0].iter().map(|&p| p as usize).collect::<Vec<_>>();
        if c.plateau_size.on {
            let sizes: Vec<f64> = (0..m).map(|i| (r[i] - l[i] + 1) as f64).collect();
            let keep = sizes.iter().map(|&v| c.plateau_size.keeps(v)).collect();
            rows.push(sizes);
            rows.push(l[..m].iter().map(|&v| v as f64).collect());
            rows.push(r[..m].iter().map(|&v| v as f64).collect());
            pick(&mut rows, keep);
        }
        if c.height.on {
            let h: Vec<f64> = pk(&rows).iter().map(|&p| x[p]).collect();
            let keep = h.iter().map(|&v| c.height.keeps(v)).collect();
            rows.push(h);
            pick(&mut rows, keep);
        }
        if c.threshold.on {
            let p = pk(&rows);
            let lt: Vec<f64> = p.iter().map(|&p| x[p] - x[p - 1]).collect();
            let rt: Vec<f64> = p.iter().map(|&p| x[p] - x[p + 1]).collect();
            let keep = lt
                .iter()
                .zip(&rt)
                .map(|(&a, &b)| {
                    let lo = if a.is_nan() || b.is_nan() {
                        f64::NAN
                    } else {
                        a.min(b)
                    };
                    let hi = if a.is_nan() || b.is_nan() {
                        f64::NAN
                    } else {
                        a.max(b)
                    };
                    c.threshold.min.is_none_or(|t| t <= lo)
                        && c.threshold.max.is_none_or(|t| hi <= t)
                })
                .collect();
            rows.push(lt);
            rows.push(rt);
            pick(&mut rows, keep);
        }
        let (mut zp, mut zw) = (0, 0);
        if c.needs_prominences() {
            let p = pk(&rows);
            let k = p.len();
            let (mut pv, mut lb, mut rb) = (vec![0.0; k], vec![0; k], vec![0; k]);
            zp = prominences(x, &p, c.wlen, &mut pv, &mut lb, &mut rb).unwrap();
            let keep = pv.iter().map(|&v| c.prominence.keeps(v)).collect();
            rows.push(pv);
            rows.push(lb.iter().map(|&v| v as f64).collect());
            rows.push(rb.iter().map(|&v| v as f64).collect());
            if c.prominence.on {
                pick(&mut rows, keep);
            }
        }
        if c.width.on {
            let p = pk(&rows);
            let k = p.len();
            let n = rows.len();
            let pv = rows[n - 3].clone();
            let lb: Vec<usize> = rows[n - 2].iter().map(|&v| v as usize).collect();
            let rb: Vec<usize> = rows[n - 1].iter().map(|&v| v as usize).collect();
            let (mut w, mut h, mut li, mut ri) =
                (vec![0.0; k], vec![0.0; k], vec![0.0; k], vec![0.0; k]);
            let out = Widths {
                widths: &mut w,
                heights: &mut h,
                left_ips: &mut li,
                right_ips: &mut ri,
            };
            zw = widths(x, &p, c.rel_height, &pv, &lb, &rb, out).unwrap();
            let keep = w.iter().map(|&v| c.width.keeps(v)).collect();
            rows.extend([w, h, li, ri]);
            pick(&mut rows, keep);
        }
        (pk(&rows), rows[1..].to_vec(), zp, zw)
    }

    fn find_peaks_fused(
        x: &[f64],
        c: &PeakConditions,
    ) -> (Vec<usize>, Vec<Vec<f64>>, usize, usize) {
        let cap = max_peaks(x.len());
        let mut u: Vec<Vec<usize>> = vec![vec![0; cap]; 6];
        let mut d: Vec<Vec<f64>> = vec![vec![0.0; cap]; 8];
        let [p, ps, le, re, lb, rb] = &mut u[..] else {
            unreachable!()
        };
        let [h, lt, rt, pv, w, wh, li, ri] = &mut d[..] else {
            unreachable!()
        };
        let pr = c.needs_prominences();
        let got = find_peaks(
            x,
            c,
            PeakOutputs {
                peaks: p,
                plateau_sizes: c.plateau_size.on.then_some(&mut ps[..]),
                left_edges: c.plateau_size.on.then_some(&mut le[..]),
                right_edges: c.plateau_size.on.then_some(&mut re[..]),
                peak_heights: c.height.on.then_some(&mut h[..]),
                left_thresholds: c.threshold.on.then_some(&mut lt[..]),
                right_thresholds: c.threshold.on.then_some(&mut rt[..]),
                prominences: pr.then_some(&mut pv[..]),
                left_bases: pr.then_some(&mut lb[..]),
                right_bases: pr.then_some(&mut rb[..]),
                widths: c.width.on.then_some(&mut w[..]),
                width_heights: c.width.on.then_some(&mut wh[..]),
                left_ips: c.width.on.then_some(&mut li[..]),
                right_ips: c.width.on.then_some(&mut ri[..]),
            },
        )
        .unwrap();
        let m = got.peaks;
        let f = |a: &[usize]| a[..m].iter().map(|&v| v as f64).collect::<Vec<_>>();
        let g = |a: &[f64]| a[..m].to_vec();
        let mut props = vec![];
        if c.plateau_size.on {
            props.extend([f(ps), f(le), f(re)]);
        }
        if c.height.on {
            props.push(g(h));
        }
        if c.threshold.on {
            props.extend([g(lt), g(rt)]);
        }
        if pr {
            props.extend([g(pv), f(lb), f(rb)]);
        }
        if c.width.on {
            props.extend([g(w), g(wh), g(li), g(ri)]);
        }
        (
            p[..m].to_vec(),
            props,
            got.zero_prominences,
            got.zero_widths,
        )
    }

    /// The fused `find_peaks` equals the separate kernels composed as scipy does, bit for bit,
    /// on noise, plateaus, NaN and the edge lengths, for many condition sets.
    #[test]
    fn fused_find_peaks_equals_the_composed_route() {
        let mut rng = crate::kernels::testutil::Rng::new(52);
        let on = |min: Option<f64>, max: Option<f64>| Condition { on: true, min, max };
        let off = Condition::default();
        let sets = [
            PeakConditions::default(),
            PeakConditions {
                prominence: on(Some(1.0), None),
                width: on(Some(1.0), None),
                rel_height: 0.5,
                ..Default::default()
            },
            PeakConditions {
                prominence: on(None, None),
                width: on(None, Some(3.0)),
                rel_height: 1.0,
                wlen: 9,
                ..Default::default()
            },
            PeakConditions {
                height: on(Some(0.5), Some(2.5)),
                threshold: on(Some(0.0), None),
                prominence: on(Some(0.5), Some(3.0)),
                ..Default::default()
            },
            PeakConditions {
                plateau_size: on(Some(1.0), Some(2.0)),
                height: on(None, Some(f64::NAN)),
                width: on(Some(0.5), None),
                rel_height: 0.25,
                ..Default::default()
            },
            PeakConditions {
                plateau_size: on(None, None),
                threshold: on(None, Some(1.0)),
                width: on(None, None),
                rel_height: 0.0,
                wlen: 3,
                ..Default::default()
            },
            PeakConditions {
                height: on(Some(f64::NEG_INFINITY), None),
                threshold: on(Some(f64::NAN), None),
                prominence: off,
                width: on(Some(2.0), Some(40.0)),
                rel_height: 0.75,
                ..Default::default()
            },
        ];
        for n in [0usize, 1, 2, 3, 4, 5, 17, 64, 65, 130, 1001] {
            for levels in [3.0, 1e9] {
                for nan in [false, true] {
                    let mut x: Vec<f64> = (0..n)
                        .map(|_| (rng.uniform() * levels).floor() / 3.0)
                        .collect();
                    if nan && n > 0 {
                        for _ in 0..(n / 12).max(1) {
                            x[(rng.uniform() * n as f64) as usize % n] = f64::NAN;
                        }
                    }
                    for (k, c) in sets.iter().enumerate() {
                        let a = find_peaks_fused(&x, c);
                        let b = find_peaks_composed(&x, c);
                        let bits = |r: &(Vec<usize>, Vec<Vec<f64>>, usize, usize)| {
                            (
                                r.0.clone(),
                                r.1.iter()
                                    .map(|v| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>())
                                    .collect::<Vec<_>>(),
                                r.2,
                                r.3,
                            )
                        };
                        assert_eq!(
                            bits(&a),
                            bits(&b),
                            "n = {n}, {levels} levels, NaN {nan}, set {k}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn fused_find_peaks_checks_before_writing() {
        let x = [0.0, 2.0, 0.0, 1.0, 0.0];
        let mut p = [7usize; 2];
        let c = PeakConditions {
            width: Condition {
                on: true,
                min: None,
                max: None,
            },
            rel_height: -1.0,
            ..Default::default()
        };
        let out = PeakOutputs {
            peaks: &mut p,
            ..Default::default()
        };
        assert!(find_peaks(&x, &c, out).is_err());
        assert_eq!(p, [7, 7]);
        let c = PeakConditions {
            width: Condition {
                on: true,
                min: None,
                max: None,
            },
            rel_height: 0.5,
            ..Default::default()
        };
        let out = PeakOutputs {
            peaks: &mut p,
            ..Default::default()
        };
        assert!(matches!(
            find_peaks(&x, &c, out),
            Err(SkError::BadArgument(_))
        ));
        let mut short = [0usize; 1];
        let out = PeakOutputs {
            peaks: &mut short,
            ..Default::default()
        };
        assert!(matches!(
            find_peaks(&x, &PeakConditions::default(), out),
            Err(SkError::BufferTooSmall(_))
        ));
        assert_eq!((p, short), ([7, 7], [0]));
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
