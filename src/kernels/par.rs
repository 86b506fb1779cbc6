//! Splitting independent rows of work over scoped threads (STFT/ISTFT, mel, convolution and
//! the per-row batch reductions use it). Threads are joined before the call returns, and every
//! row is computed exactly as on one thread, so results do not depend on the split.

use crate::error::SkResult;
use std::sync::{Mutex, OnceLock};

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

/// The name of the library's worker threads.
pub const WORKER_NAME: &str = "sigkern-worker";

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

/// As [`par_rows`], with a state per part (scratch buffers) made by `make` on the calling thread
/// before any row is written: if making one fails (out of memory), the error is returned and `y`
/// is untouched; once every state exists, the parts cannot fail.
pub(crate) fn par_rows_with<T: Send, S: Send>(
    y: &mut [T],
    row_len: usize,
    work: usize,
    mut make: impl FnMut() -> SkResult<S>,
    f: impl Fn(&mut S, usize, &mut [T]) + Sync,
) -> SkResult<()> {
    let rows = y.len().checked_div(row_len).unwrap_or(0);
    let threads = threads_for(rows, work);
    if threads <= 1 {
        let mut st = make()?;
        f(&mut st, 0, y);
        return Ok(());
    }
    let per = rows.div_ceil(threads);
    let mut parts = Vec::with_capacity(threads);
    for (k, c) in y.chunks_mut(per * row_len).enumerate() {
        parts.push((k * per, c, make()?));
    }
    run_parts(parts, |(first, c, mut st)| f(&mut st, first, c));
    Ok(())
}

/// Runs `f` on every part: the first on the calling thread, each other one on a scoped thread
/// of its own; returns when all are done (a panic in any of them reaches the caller).
///
/// Threads never cost correctness: when a thread cannot be started (no memory for its stack,
/// a process thread limit), its part runs on the calling thread instead, so every part runs
/// exactly once whatever the system allows.
pub(crate) fn run_parts<P: Send>(parts: Vec<P>, f: impl Fn(P) + Sync) {
    let mut it = parts.into_iter();
    let Some(first) = it.next() else {
        return;
    };
    // Each part waits in a slot: a started thread takes its part out; a part whose thread could
    // not be started is still in its slot afterwards and runs here.
    let slots: Vec<Mutex<Option<P>>> = it.map(|p| Mutex::new(Some(p))).collect();
    std::thread::scope(|s| {
        let mut unstarted = Vec::new();
        for slot in &slots {
            let f = &f;
            let worker = std::thread::Builder::new().name(WORKER_NAME.into());
            let started = worker.spawn_scoped(s, move || {
                if let Some(p) = take(slot) {
                    f(p)
                }
            });
            if started.is_err() {
                unstarted.push(slot);
            }
        }
        f(first);
        for slot in unstarted {
            if let Some(p) = take(slot) {
                f(p);
            }
        }
    });
}

fn take<P>(slot: &Mutex<Option<P>>) -> Option<P> {
    slot.lock().unwrap_or_else(|e| e.into_inner()).take()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_part_runs_exactly_once() {
        for n in [0usize, 1, 2, 5, 64] {
            let hits: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
            run_parts((0..n).collect(), |i| {
                hits[i].fetch_add(1, Ordering::Relaxed);
            });
            assert!(
                hits.iter().all(|h| h.load(Ordering::Relaxed) == 1),
                "n = {n}"
            );
        }
    }

    #[test]
    fn par_rows_covers_every_row_once() {
        let mut y = vec![0u32; 7 * 1000];
        par_rows(&mut y, 7, usize::MAX, |first, chunk| {
            for (i, row) in chunk.chunks_exact_mut(7).enumerate() {
                for v in row {
                    *v += (first + i) as u32 + 1;
                }
            }
        });
        for (r, row) in y.chunks_exact(7).enumerate() {
            assert!(row.iter().all(|&v| v == r as u32 + 1));
        }
    }
}
