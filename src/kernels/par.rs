//! Splitting independent rows of work over scoped threads (STFT/ISTFT, mel, convolution and
//! the per-row batch reductions use it). Threads are joined before the call returns, and every
//! row is computed exactly as on one thread, so results do not depend on the split.

use std::sync::OnceLock;

/// The most threads a kernel uses: `SIGKERN_THREADS` (read once, ≥ 1) if set, else
/// the machine's available parallelism.
pub fn max_threads() -> usize {
    static T: OnceLock<usize> = OnceLock::new();
    *T.get_or_init(|| {
        std::env::var("SIGKERN_THREADS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&t| t >= 1)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    })
}

/// Work (in rough element-operations) below which a kernel stays on the calling thread.
const PAR_MIN_WORK: usize = 1 << 18;

/// How many threads to use for `units` independent pieces of `work` element-operations in all:
/// at most [`max_threads`], one per piece, one per [`PAR_MIN_WORK`] of work, at least 1.
pub(crate) fn threads_for(units: usize, work: usize) -> usize {
    max_threads().min(units).min(work / PAR_MIN_WORK).max(1)
}

/// Splits `y` (rows of `row_len`) into contiguous row ranges and runs `f(first_row, chunk)` on
/// each, on up to [`max_threads`] scoped threads when `work` is large enough. Results do not
/// depend on the split: every row is computed the same way by whichever thread owns it.
pub(crate) fn par_rows<T: Send>(
    y: &mut [T],
    row_len: usize,
    work: usize,
    f: impl Fn(usize, &mut [T]) + Sync,
) {
    let rows = y.len().checked_div(row_len).unwrap_or(0);
    let threads = threads_for(rows, work);
    if threads <= 1 {
        f(0, y);
        return;
    }
    let per = rows.div_ceil(threads);
    run_parts(
        y.chunks_mut(per * row_len).enumerate().collect(),
        |(k, c)| f(k * per, c),
    );
}

/// Runs `f` on every part: the first on the calling thread, each other one on a scoped thread
/// of its own; returns when all are done (a panic in any of them reaches the caller).
pub(crate) fn run_parts<P: Send>(parts: Vec<P>, f: impl Fn(P) + Sync) {
    let mut it = parts.into_iter();
    let Some(first) = it.next() else {
        return;
    };
    std::thread::scope(|s| {
        for p in it {
            let f = &f;
            s.spawn(move || f(p));
        }
        f(first);
    });
}
