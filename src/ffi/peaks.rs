//! Peak finding (`scipy.signal.find_peaks`' building blocks, `peak_prominences`, `peak_widths`,
//! `argrelmax`/`argrelmin`): `sk_find_peaks_f64`, `sk_local_maxima_f64`, `sk_peak_distance_select`,
//! `sk_peak_prominences_f64`, `sk_peak_widths_f64`, `sk_relextrema_f64`. Double only: scipy
//! converts every signal to double for these.

use super::guard::{check_capacity, check_out_scalar, ffi_boundary, Buf};
use crate::error::SkError;
use crate::kernels::analysis::peaks::{
    find_peaks, local_maxima, max_peaks, prominences as prominences_of, rel_extrema,
    select_by_distance, widths as widths_of, Condition, PeakConditions, PeakOutputs, Widths,
};

/// `scipy.signal.find_peaks(x, height, threshold, prominence=…, width=…, wlen=…, rel_height=…,
/// plateau_size=…)` without `distance`, in one call: the local maxima of `x` (`n` doubles, as
/// `sk_local_maxima_f64`), then each condition given, in scipy's order (plateau size, height,
/// threshold, prominence, width), computing its properties for the peaks still kept and keeping
/// those inside its interval. Indices and values equal scipy's bit for bit.
///
/// `conds` says which conditions are given and which ends of their intervals are set: bit `k`
/// (`k` = 0 plateau_size, 1 height, 2 threshold, 3 prominence, 4 width) gives condition `k`,
/// bit `5 + k` sets its lower bound `bounds[2k]`, bit `10 + k` its upper bound `bounds[2k + 1]`
/// (an end not set is open, scipy's `None`; `bounds` holds 10 doubles, read only where set). A
/// value passes when `lower <= value` and `value <= upper` (a NaN value or bound never does);
/// the threshold condition compares the smaller of the two thresholds with the lower bound and
/// the larger with the upper, NaN when either is (as `np.minimum`/`np.maximum`). `wlen`: the
/// prominence window (0 or 1: the whole signal); `rel_height` (≥ 0): the height of the width
/// measurement (read only for a width condition).
///
/// Outputs, each of capacity `capacity` ≥ `n/2` (the most peaks there can be) else
/// `SK_ERR_BUFFER_TOO_SMALL`: `peaks` always; `plateau_sizes`, `left_edges`, `right_edges` for a
/// plateau condition; `peak_heights` for height; `left_thresholds`, `right_thresholds` for
/// threshold; `prominences`, `left_bases`, `right_bases` for a prominence or a width condition;
/// `widths`, `width_heights`, `left_ips`, `right_ips` for width. The outputs of conditions not
/// given are ignored and may be NULL. The first `counts[0]` entries of each output are written
/// (the peaks kept, in increasing order, and their properties); `counts[1]` receives how many
/// of the peaks whose prominences were computed have a prominence of 0, `counts[2]` how many of
/// those whose widths were computed have a width of 0 (scipy warns about both).
///
/// Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` (an unknown bit in `conds`, a bound set for a
/// condition not given, `rel_height` negative or NaN with a width condition, a needed output
/// NULL with a nonzero capacity); `SK_ERR_BUFFER_TOO_SMALL`; `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP` (outputs used overlapping each other,
/// `x`, `bounds` or `counts`); `SK_ERR_ALLOCATION` (the prominence search stack without `wlen`).
/// On error nothing is written. Thread-safe.
///
/// Real-time safe: no (prominences without `wlen` allocate a search stack of up to `n`
/// entries).
///
/// # Safety
/// `x` readable for `n`, `bounds` for 10 doubles, `counts` writable for 3; each output used
/// writable for `capacity` elements.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_find_peaks_f64(
    x: *const f64,
    n: usize,
    conds: u32,
    bounds: *const f64,
    wlen: usize,
    rel_height: f64,
    peaks: *mut usize,
    plateau_sizes: *mut usize,
    left_edges: *mut usize,
    right_edges: *mut usize,
    peak_heights: *mut f64,
    left_thresholds: *mut f64,
    right_thresholds: *mut f64,
    prominences: *mut f64,
    left_bases: *mut usize,
    right_bases: *mut usize,
    widths: *mut f64,
    width_heights: *mut f64,
    left_ips: *mut f64,
    right_ips: *mut f64,
    counts: *mut usize,
    capacity: usize,
) -> i32 {
    ffi_boundary!("sk_find_peaks_f64", {
        if conds >> 15 != 0 {
            return Err(SkError::BadArgument(format!(
                "conds = {conds:#x} sets bits above bit 14"
            )));
        }
        for k in 0..5 {
            if conds & (1 << k) == 0 && conds & ((1 << (5 + k)) | (1 << (10 + k))) != 0 {
                return Err(SkError::BadArgument(format!(
                    "conds = {conds:#x} sets a bound of condition {k}, which it does not give"
                )));
            }
        }
        let on = |k: u32| conds & (1 << k) != 0;
        let xb = Buf::new("x", x, n);
        let bb = Buf::new("bounds", bounds, 10);
        let cb = Buf::out("counts", counts, 3);
        xb.check()?;
        bb.check()?;
        cb.check()?;
        let pr = on(3) || on(4);
        let usz = [
            ("peaks", peaks, true),
            ("plateau_sizes", plateau_sizes, on(0)),
            ("left_edges", left_edges, on(0)),
            ("right_edges", right_edges, on(0)),
            ("left_bases", left_bases, pr),
            ("right_bases", right_bases, pr),
        ];
        let dbl = [
            ("peak_heights", peak_heights, on(1)),
            ("left_thresholds", left_thresholds, on(2)),
            ("right_thresholds", right_thresholds, on(2)),
            ("prominences", prominences, pr),
            ("widths", widths, on(4)),
            ("width_heights", width_heights, on(4)),
            ("left_ips", left_ips, on(4)),
            ("right_ips", right_ips, on(4)),
        ];
        let ub: Vec<Buf<usize>> = usz
            .iter()
            .filter(|u| u.2)
            .map(|u| Buf::out(u.0, u.1, capacity))
            .collect();
        let db: Vec<Buf<f64>> = dbl
            .iter()
            .filter(|d| d.2)
            .map(|d| Buf::out(d.0, d.1, capacity))
            .collect();
        for b in &ub {
            check_capacity(b.name, b.ptr as *mut usize, capacity)?;
        }
        for b in &db {
            check_capacity(b.name, b.ptr as *mut f64, capacity)?;
        }
        let need = max_peaks(n);
        if capacity < need {
            return Err(SkError::BufferTooSmall(format!(
                "the outputs hold {capacity} entries but n = {n} samples can hold {need} peaks"
            )));
        }
        // only the first `need` entries are ever written
        let ub: Vec<Buf<usize>> = ub
            .iter()
            .map(|b| Buf::out(b.name, b.ptr as *mut usize, need))
            .collect();
        let db: Vec<Buf<f64>> = db
            .iter()
            .map(|b| Buf::out(b.name, b.ptr as *mut f64, need))
            .collect();
        let clash = |name: &str| {
            Err(SkError::Overlap(format!(
                "output {name} overlaps an input or another output"
            )))
        };
        for (i, b) in ub.iter().enumerate() {
            if b.overlaps(&xb)
                || b.overlaps(&bb)
                || b.overlaps(&cb)
                || ub[i + 1..].iter().any(|o| b.overlaps(o))
                || db.iter().any(|o| b.overlaps(o))
            {
                return clash(b.name);
            }
        }
        for (i, b) in db.iter().enumerate() {
            if b.overlaps(&xb)
                || b.overlaps(&bb)
                || b.overlaps(&cb)
                || db[i + 1..].iter().any(|o| b.overlaps(o))
            {
                return clash(b.name);
            }
        }
        if cb.overlaps(&xb) || cb.overlaps(&bb) {
            return clash("counts");
        }
        // SAFETY: bounds passed Buf::check for 10 doubles.
        let bv = unsafe { bb.slice() };
        let cond = |k: usize| Condition {
            on: on(k as u32),
            min: (conds & (1 << (5 + k)) != 0).then(|| bv[2 * k]),
            max: (conds & (1 << (10 + k)) != 0).then(|| bv[2 * k + 1]),
        };
        let c = PeakConditions {
            plateau_size: cond(0),
            height: cond(1),
            threshold: cond(2),
            prominence: cond(3),
            width: cond(4),
            wlen,
            rel_height,
        };
        let find = |name: &str| ub.iter().find(|b| b.name == name);
        let findf = |name: &str| db.iter().find(|b| b.name == name);
        // SAFETY: every buffer used passed Buf::check for `need` ≤ capacity elements and none
        // overlaps another, x, bounds or counts (checked above); the caller's contract makes
        // them valid for the call. The kernel checks everything else before writing.
        unsafe {
            let us = |name: &str| find(name).map(|b| b.slice_mut());
            let ds = |name: &str| findf(name).map(|b| b.slice_mut());
            let out = PeakOutputs {
                peaks: ub[0].slice_mut(),
                plateau_sizes: us("plateau_sizes"),
                left_edges: us("left_edges"),
                right_edges: us("right_edges"),
                peak_heights: ds("peak_heights"),
                left_thresholds: ds("left_thresholds"),
                right_thresholds: ds("right_thresholds"),
                prominences: ds("prominences"),
                left_bases: us("left_bases"),
                right_bases: us("right_bases"),
                widths: ds("widths"),
                width_heights: ds("width_heights"),
                left_ips: ds("left_ips"),
                right_ips: ds("right_ips"),
            };
            let got = find_peaks(xb.slice(), &c, out)?;
            let cs = cb.slice_mut();
            cs[0] = got.peaks;
            cs[1] = got.zero_prominences;
            cs[2] = got.zero_widths;
        }
        Ok(())
    })
}

/// Local maxima of `x` (`n` doubles) with flat tops, as scipy's `_local_maxima_1d`: a peak is a
/// run of equal values whose neighbours on both sides are smaller (the first and last samples
/// never are; NaN compares false). For each peak in order its midpoint (`(left + right)/2`,
/// rounded down), left and right edge go to `mid`, `left`, `right`, each of capacity `cap` ≥
/// `n/2` (the most peaks there can be) else `SK_ERR_BUFFER_TOO_SMALL`; the count to `*count`.
///
/// Returns `SK_OK`; `SK_ERR_BUFFER_TOO_SMALL`; `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP` (outputs overlapping each other or `x`). On error nothing
/// is written. Thread-safe.
///
/// Real-time safe: yes (no allocation, no locks).
///
/// # Safety
/// `x` readable for `n`; `mid`, `left`, `right` writable for `cap`; `count` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_local_maxima_f64(
    x: *const f64,
    mid: *mut usize,
    left: *mut usize,
    right: *mut usize,
    count: *mut usize,
    n: usize,
    cap: usize,
) -> i32 {
    ffi_boundary!("sk_local_maxima_f64", {
        check_out_scalar("count", count)?;
        let xb = Buf::new("x", x, n);
        xb.check()?;
        for (name, p) in [("mid", mid), ("left", left), ("right", right)] {
            check_capacity(name, p, cap)?;
        }
        let need = max_peaks(n);
        if cap < need {
            return Err(SkError::BufferTooSmall(format!(
                "mid, left and right hold {cap} indices but n = {n} samples can hold {need} peaks"
            )));
        }
        let bufs = [
            Buf::out("mid", mid, need),
            Buf::out("left", left, need),
            Buf::out("right", right, need),
        ];
        for (i, a) in bufs.iter().enumerate() {
            if a.overlaps(&xb) || bufs[i + 1..].iter().any(|b| a.overlaps(b)) {
                return Err(SkError::Overlap(format!(
                    "output {} overlaps x or another output",
                    a.name
                )));
            }
        }
        let cb = Buf::out("count", count, 1);
        if bufs.iter().any(|b| b.overlaps(&cb)) {
            return Err(SkError::Overlap("count overlaps an output".into()));
        }
        // SAFETY: every buffer passed Buf::check for the span used (x: n; outputs: need ≤ cap)
        // and no output overlaps x, another output or count; the caller's contract makes them
        // valid for the call.
        unsafe {
            let c = local_maxima(
                xb.slice(),
                bufs[0].slice_mut(),
                bufs[1].slice_mut(),
                bufs[2].slice_mut(),
            );
            *count = c;
        }
        Ok(())
    })
}

/// Peak selection by distance, as scipy's `_select_by_peak_distance`: `peaks` (`np_` sample
/// indices, increasing) are visited from the highest priority down (`order`: the peak numbers
/// sorted by ascending priority, e.g. `np.argsort(x[peaks])`), and each peak still kept
/// removes the peaks closer than `ceil(distance)` samples. `keep[i]` becomes 1 for kept peaks,
/// 0 otherwise.
///
/// Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` (distance NaN or negative, an `order` entry ≥ np_);
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP` (keep overlapping
/// an input). On error `keep` is untouched. Thread-safe.
///
/// Real-time safe: yes (no allocation, no locks).
///
/// # Safety
/// `peaks`, `order` readable and `keep` writable for `np_`.
#[no_mangle]
pub unsafe extern "C" fn sk_peak_distance_select(
    peaks: *const usize,
    order: *const usize,
    distance: f64,
    keep: *mut u8,
    np_: usize,
) -> i32 {
    ffi_boundary!("sk_peak_distance_select", {
        let pb = Buf::new("peaks", peaks, np_);
        let ob = Buf::new("order", order, np_);
        let kb = Buf::out("keep", keep, np_);
        pb.check()?;
        ob.check()?;
        kb.check()?;
        if kb.overlaps(&pb) || kb.overlaps(&ob) {
            return Err(SkError::Overlap("keep overlaps peaks or order".into()));
        }
        // SAFETY: checked buffers of np_ elements; keep overlaps neither input.
        unsafe { select_by_distance(pb.slice(), ob.slice(), distance, kb.slice_mut()) }
    })
}

/// Peak prominences `scipy.signal.peak_prominences(x, peaks, wlen)`: for each of `np_` peak
/// indices of `x` (`n` doubles) its prominence (height above the higher of the two lowest
/// points reached before a higher sample, searching at most `wlen/2` samples each side when
/// `wlen ≥ 2`; `wlen = 0` searches the whole signal) and the bases where those lowest points are
/// (`left_bases`, `right_bases`). `*zeros` receives how many prominences are 0 (scipy warns).
///
/// Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` (a peak index ≥ n; message "peak P is not a valid
/// index for `x`"); `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION` (the search stack without `wlen`). On error nothing is
/// written. Thread-safe.
///
/// Real-time safe: no (without `wlen` the search over the whole signal allocates a stack of up
/// to `n` entries).
///
/// # Safety
/// `x` readable for `n`, `peaks` for `np_`; `prom`, `left_bases`, `right_bases` writable for
/// `np_`; `zeros` writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_peak_prominences_f64(
    x: *const f64,
    peaks: *const usize,
    wlen: usize,
    prom: *mut f64,
    left_bases: *mut usize,
    right_bases: *mut usize,
    zeros: *mut usize,
    n: usize,
    np_: usize,
) -> i32 {
    ffi_boundary!("sk_peak_prominences_f64", {
        check_out_scalar("zeros", zeros)?;
        let xb = Buf::new("x", x, n);
        let pb = Buf::new("peaks", peaks, np_);
        let qb = Buf::out("prom", prom, np_);
        let lb = Buf::out("left_bases", left_bases, np_);
        let rb = Buf::out("right_bases", right_bases, np_);
        for b in [&xb, &qb] {
            b.check()?;
        }
        for b in [&pb, &lb, &rb] {
            b.check()?;
        }
        let zb = Buf::out("zeros", zeros, 1);
        if qb.overlaps(&xb)
            || qb.overlaps(&pb)
            || qb.overlaps(&lb)
            || qb.overlaps(&rb)
            || lb.overlaps(&pb)
            || rb.overlaps(&pb)
            || lb.overlaps(&rb)
            || lb.overlaps(&xb)
            || rb.overlaps(&xb)
            || [&pb, &lb, &rb].iter().any(|b| b.overlaps(&zb))
        {
            return Err(SkError::Overlap(
                "an output overlaps an input or another output".into(),
            ));
        }
        // SAFETY: every buffer passed Buf::check for its span and no output overlaps an input or
        // another output; the caller's contract makes them valid for the call. The kernel checks
        // every peak index before writing.
        unsafe {
            let z = prominences_of(
                xb.slice(),
                pb.slice(),
                wlen,
                qb.slice_mut(),
                lb.slice_mut(),
                rb.slice_mut(),
            )?;
            *zeros = z;
        }
        Ok(())
    })
}

/// Peak widths `scipy.signal.peak_widths(x, peaks, rel_height, (prom, left_bases,
/// right_bases))`: for each of `np_` peaks the width at the height `x[peak] − prom·rel_height`
/// between the crossings (linearly interpolated) inside its bases; `widths`, the evaluation
/// `heights`, `left_ips` and `right_ips` (interpolated positions). `*zeros` receives how many
/// widths are 0 (scipy warns).
///
/// Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` (rel_height negative or NaN; bases not `left ≤ peak ≤
/// right < n`, message "prominence data is invalid for peak P"); `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`. On error nothing is written.
/// Thread-safe.
///
/// Real-time safe: yes (no allocation, no locks).
///
/// # Safety
/// `x` readable for `n`; `peaks`, `prom`, `left_bases`, `right_bases` readable and the four
/// outputs writable for `np_`; `zeros` writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_peak_widths_f64(
    x: *const f64,
    peaks: *const usize,
    rel_height: f64,
    prom: *const f64,
    left_bases: *const usize,
    right_bases: *const usize,
    widths_out: *mut f64,
    heights: *mut f64,
    left_ips: *mut f64,
    right_ips: *mut f64,
    zeros: *mut usize,
    n: usize,
    np_: usize,
) -> i32 {
    ffi_boundary!("sk_peak_widths_f64", {
        check_out_scalar("zeros", zeros)?;
        let xb = Buf::new("x", x, n);
        let qb = Buf::new("prom", prom, np_);
        let ins_u = [
            Buf::new("peaks", peaks, np_),
            Buf::new("left_bases", left_bases, np_),
            Buf::new("right_bases", right_bases, np_),
        ];
        let outs = [
            Buf::out("widths", widths_out, np_),
            Buf::out("heights", heights, np_),
            Buf::out("left_ips", left_ips, np_),
            Buf::out("right_ips", right_ips, np_),
        ];
        xb.check()?;
        qb.check()?;
        for b in &ins_u {
            b.check()?;
        }
        for b in &outs {
            b.check()?;
        }
        let zb = Buf::out("zeros", zeros, 1);
        for (i, o) in outs.iter().enumerate() {
            if o.overlaps(&xb)
                || o.overlaps(&qb)
                || ins_u.iter().any(|b| o.overlaps(b))
                || outs[i + 1..].iter().any(|b| o.overlaps(b))
                || o.overlaps(&zb)
            {
                return Err(SkError::Overlap(format!(
                    "output {} overlaps an input or another output",
                    o.name
                )));
            }
        }
        // SAFETY: every buffer passed Buf::check for its span; the outputs overlap no input, each
        // other, or zeros; the caller's contract makes them valid. The kernel checks every peak's
        // bases before writing.
        unsafe {
            let z = widths_of(
                xb.slice(),
                ins_u[0].slice(),
                rel_height,
                qb.slice(),
                ins_u[1].slice(),
                ins_u[2].slice(),
                Widths {
                    widths: outs[0].slice_mut(),
                    heights: outs[1].slice_mut(),
                    left_ips: outs[2].slice_mut(),
                    right_ips: outs[3].slice_mut(),
                },
            )?;
            *zeros = z;
        }
        Ok(())
    })
}

/// Relative extrema (scipy's `_boolrelextrema`, behind `argrelmax`/`argrelmin`/`argrelextrema`)
/// along each of `rows` rows of `n` doubles: `mask[i] = 1` when `x[i]` is greater (`greater ≠
/// 0`; else less) than every `x[i ± k]`, `k = 1..=order`, the indices clipped to the row (`wrap
/// = 0`) or taken modulo `n`. NaN compares false.
///
/// Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` (order = 0); `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`. On error `mask` is untouched.
/// Thread-safe.
///
/// Real-time safe: yes (no allocation, no locks).
///
/// # Safety
/// `x` readable and `mask` writable for `rows·n`.
#[no_mangle]
pub unsafe extern "C" fn sk_relextrema_f64(
    x: *const f64,
    order: usize,
    greater: i32,
    wrap: i32,
    mask: *mut u8,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_relextrema_f64", {
        if order == 0 {
            return Err(SkError::BadArgument("order = 0: it must be ≥ 1".into()));
        }
        let len = rows
            .checked_mul(n)
            .ok_or_else(|| SkError::Length(format!("rows = {rows} × n = {n} overflow size_t")))?;
        let xb = Buf::new("x", x, len);
        let mb = Buf::out("mask", mask, len);
        xb.check()?;
        mb.check()?;
        if mb.overlaps(&xb) {
            return Err(SkError::Overlap("mask overlaps x".into()));
        }
        if n == 0 {
            return Ok(());
        }
        // SAFETY: both buffers checked for rows·n elements and disjoint.
        let (xs, ms) = unsafe { (xb.slice(), mb.slice_mut()) };
        for (xr, mr) in xs.chunks_exact(n).zip(ms.chunks_exact_mut(n)) {
            rel_extrema(xr, order, greater != 0, wrap != 0, mr);
        }
        Ok(())
    })
}
