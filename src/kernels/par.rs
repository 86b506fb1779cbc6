//! Splitting independent rows of work over threads (STFT/ISTFT, mel, convolution, batched FFTs
//! and the per-row batch reductions use it): the calling thread and the library's persistent
//! worker threads, at most `SIGKERN_THREADS` in all. A call returns only when all its parts are
//! done, and every row is computed exactly as on one thread, so results do not depend on the
//! split.

use crate::error::SkResult;
use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

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
    if SERIAL.with(Cell::get) {
        return 1;
    }
    max_threads().min(units).min(work / PAR_MIN_WORK).max(1)
}

thread_local! {
    /// Set while a real-time handle's call runs (see [`serial_if`]): every split then stays on
    /// the calling thread. A constant-initialised `Cell`, so reading it allocates nothing and
    /// registers no destructor.
    static SERIAL: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with every split on the calling thread when `serial` is set (the calls of a handle
/// made real-time by its `reserve` call): [`threads_for`] is then 1, so no work is handed to a
/// worker and nothing waits on one. Results do not depend on the split. The previous setting is
/// restored afterwards, also when `f` panics.
pub(crate) fn serial_if<R>(serial: bool, f: impl FnOnce() -> R) -> R {
    if !serial {
        return f();
    }
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            SERIAL.with(|s| s.set(self.0));
        }
    }
    let _restore = Restore(SERIAL.with(|s| s.replace(true)));
    f()
}

/// Parts per thread of a [`par_rows`] split. The parts go to whichever thread is free, so a
/// worker that starts late (waking a sleeping thread takes tens of microseconds, see [`SPIN`])
/// or is preempted leaves the parts it has not taken to the calling thread, instead of holding
/// the call back by a whole thread's share.
const PARTS_PER_THREAD: usize = 4;

/// Splits `y` (rows of `row_len`) into contiguous row ranges and runs `f(first_row, chunk)` on
/// each, on up to [`max_threads`] threads when `work` is large enough ([`PARTS_PER_THREAD`]
/// ranges per thread). Results do not depend on the split: every row is computed the same way
/// by whichever thread owns it.
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
    let per = rows.div_ceil(threads * PARTS_PER_THREAD);
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

/// As [`par_rows_with`], returning the parts' states in row order (one per part: a part can
/// leave a result in its state, e.g. the largest value it wrote). States are made before any
/// row is written; on an error `y` is untouched.
pub(crate) fn par_rows_states<T: Send, S: Send>(
    y: &mut [T],
    row_len: usize,
    work: usize,
    mut make: impl FnMut() -> SkResult<S>,
    f: impl Fn(&mut S, usize, &mut [T]) + Sync,
) -> SkResult<Vec<S>> {
    let rows = y.len().checked_div(row_len).unwrap_or(0);
    let threads = threads_for(rows, work);
    let mut states = Vec::new();
    states
        .try_reserve_exact(threads)
        .map_err(|_| crate::error::SkError::Allocation("the thread parts".into()))?;
    if threads <= 1 {
        states.push(make()?);
        f(&mut states[0], 0, y);
        return Ok(states);
    }
    let per = rows.div_ceil(threads);
    let chunks = y.len().div_ceil(per * row_len);
    for _ in 0..chunks {
        states.push(make()?);
    }
    let parts: Vec<_> = y
        .chunks_mut(per * row_len)
        .zip(states.iter_mut())
        .enumerate()
        .map(|(k, (c, st))| (k * per, c, st))
        .collect();
    run_parts(parts, |(first, c, st)| f(st, first, c));
    Ok(states)
}

/// As [`par_rows_with`] for `rows` rows that start `stride` elements apart in `y`
/// (`y.len() = (rows − 1)·stride + row length`: the last row need not fill a whole stride).
/// `f(state, first_row, chunk)` gets whole rows; row `first_row + i` starts at `chunk[i·stride]`.
/// Every state is made (on the calling thread) before any row is written: on an error `y` is
/// untouched. Rows are computed exactly as on one thread, so the output does not depend on the
/// split.
pub(crate) fn par_strided_rows_with<T: Send, S: Send>(
    y: &mut [T],
    rows: usize,
    stride: usize,
    work: usize,
    mut make: impl FnMut() -> SkResult<S>,
    f: impl Fn(&mut S, usize, &mut [T]) + Sync,
) -> SkResult<()> {
    let threads = threads_for(rows, work);
    if threads <= 1 || stride == 0 {
        let mut st = make()?;
        f(&mut st, 0, y);
        return Ok(());
    }
    let per = rows.div_ceil(threads);
    let mut parts = Vec::new();
    parts
        .try_reserve_exact(threads)
        .map_err(|_| crate::error::SkError::Allocation("the thread parts".into()))?;
    let mut rest = y;
    let mut first = 0;
    while first < rows {
        let last = (first + per).min(rows);
        let take = if last == rows {
            rest.len()
        } else {
            (last - first) * stride
        };
        let (head, tail) = std::mem::take(&mut rest).split_at_mut(take);
        parts.push((first, head, make()?));
        rest = tail;
        first = last;
    }
    run_parts(parts, |(first, c, mut st)| f(&mut st, first, c));
    Ok(())
}

/// Runs `f` on every part: the first on the calling thread, the others on the library's
/// persistent worker threads (see [`Pool`]) or, when none is free, on the calling thread too;
/// returns when all are done (a panic in any of them reaches the caller).
///
/// Threads never cost correctness: when no worker exists (they could not be started: no memory
/// for a stack, a process thread limit) or all are busy, the calling thread runs the parts
/// itself, so every part runs exactly once whatever the system allows, and a call made from
/// inside a part (nested splits) cannot wait for itself.
pub(crate) fn run_parts<P: Send, F: Fn(P) + Sync>(parts: Vec<P>, f: F) {
    let mut it = parts.into_iter();
    let Some(first) = it.next() else {
        return;
    };
    let rest: VecDeque<P> = it.collect();
    if rest.is_empty() {
        f(first);
        return;
    }
    let helpers = rest.len();
    let call = Arc::new(Call {
        f: &f,
        state: Mutex::new(CallState {
            parts: rest,
            running: 0,
            panic: None,
        }),
        done: Condvar::new(),
        running: AtomicUsize::new(0),
    });
    if let Some(pool) = Pool::get() {
        // one ticket per part; a worker that takes a ticket after the parts are gone does nothing
        let erased: Arc<dyn Help + '_> = call.clone();
        // SAFETY: only the lifetime is changed. The ticket may outlive this call, but it touches
        // `f` and the parts only while a part is left in `state.parts`, and this function does
        // not return before `state.parts` is empty and no part is running (the loop below): a
        // late ticket finds no part and drops its `Arc`, which then holds only an empty queue
        // and the unused reference `f`.
        let erased: Arc<dyn Help + 'static> =
            unsafe { std::mem::transmute::<Arc<dyn Help + '_>, Arc<dyn Help + 'static>>(erased) };
        pool.post(&erased, helpers);
    }
    let mine = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(first)));
    // the calling thread takes whatever no worker took, then waits for the running ones:
    // first by watching the count (a worker finishing within [`SPIN`] is seen at once), then
    // asleep
    call.help_all();
    spin_until(|| call.running.load(Ordering::Acquire) == 0);
    let mut st = lock(&call.state);
    while st.running > 0 {
        st = call.done.wait(st).unwrap_or_else(|e| e.into_inner());
    }
    let panic = st.panic.take();
    drop(st);
    if let Err(p) = mine {
        std::panic::resume_unwind(p);
    }
    if let Some(p) = panic {
        std::panic::resume_unwind(p);
    }
}

/// One split's shared state: the parts not yet taken, how many taken ones still run, the first
/// panic of a worker.
struct CallState<P> {
    parts: VecDeque<P>,
    running: usize,
    panic: Option<Box<dyn std::any::Any + Send>>,
}

struct Call<'a, P, F> {
    f: &'a F,
    state: Mutex<CallState<P>>,
    done: Condvar,
    /// `state.running`, readable without the lock (the caller's spin).
    running: AtomicUsize,
}

/// A call's parts, run by whichever thread asks.
trait Help: Send + Sync {
    /// Takes one part (if any is left) and runs it.
    fn help_one(&self);
}

impl<P: Send, F: Fn(P) + Sync> Help for Call<'_, P, F> {
    fn help_one(&self) {
        let part = {
            let mut st = lock(&self.state);
            let p = st.parts.pop_front();
            if p.is_some() {
                st.running += 1;
                self.running.store(st.running, Ordering::Release);
            }
            p
        };
        let Some(part) = part else {
            return;
        };
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (self.f)(part)));
        let mut st = lock(&self.state);
        st.running -= 1;
        if let Err(p) = r {
            st.panic.get_or_insert(p);
        }
        self.running.store(st.running, Ordering::Release);
        if st.running == 0 {
            self.done.notify_all();
        }
    }
}

impl<P: Send, F: Fn(P) + Sync> Call<'_, P, F> {
    /// The calling thread runs every part no worker has taken.
    fn help_all(&self) {
        loop {
            if lock(&self.state).parts.is_empty() {
                return;
            }
            self.help_one();
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

type Ticket = Arc<dyn Help + 'static>;

/// The library's persistent worker threads: `max_threads() − 1` of them, started on the first
/// split (a thread that cannot be started is simply missing), each waiting for tickets. Starting
/// a thread per call cost tens of microseconds, as much as a whole per-row reduction of a few
/// megabytes; a ticket costs a lock, and a wake-up when the worker has stopped watching the
/// queue (see [`SPIN`]).
struct Pool {
    queue: Mutex<VecDeque<Ticket>>,
    ready: Condvar,
    /// Tickets in `queue`, readable without the lock (the workers' spin).
    queued: AtomicUsize,
}

/// The stack of each worker thread, whatever `RUST_MIN_STACK` says (std's default for new
/// threads reads it, and a host that sets it small must not make a kernel overflow a worker's
/// stack). Kernels keep their working space on the heap and run on 40 KiB in a release build;
/// debug builds need several times that. Only the pages a thread touches use memory.
pub(crate) const WORKER_STACK: usize = 1 << 20;

/// How long a worker keeps watching for the next ticket after its last one, and the calling
/// thread for its workers to finish, before sleeping on a condition variable. Waking a sleeping
/// thread took 40–60 µs on a 2-core VM (a 200-row batched FFT: 44 µs on one thread, 75 µs on
/// two), more than many whole calls; a call made within this time of the last one, or a part
/// finishing within it, costs a few nanoseconds to notice instead. The spin yields the core's
/// pipeline (`spin_loop`) and ends after this time whatever happens, so an idle library
/// sleeps.
const SPIN: Duration = Duration::from_micros(200);

/// Watches `done` for up to [`SPIN`]; returns whether it became true.
fn spin_until(done: impl Fn() -> bool) -> bool {
    let start = Instant::now();
    loop {
        for _ in 0..64 {
            if done() {
                return true;
            }
            std::hint::spin_loop();
        }
        if start.elapsed() >= SPIN {
            return done();
        }
    }
}

impl Pool {
    /// The pool, or None when no worker could be started (or one thread is allowed).
    fn get() -> Option<&'static Pool> {
        static POOL: OnceLock<Option<&'static Pool>> = OnceLock::new();
        *POOL.get_or_init(|| {
            let workers = max_threads().saturating_sub(1);
            if workers == 0 {
                return None;
            }
            let pool: &'static Pool = Box::leak(Box::new(Pool {
                queue: Mutex::new(VecDeque::new()),
                ready: Condvar::new(),
                queued: AtomicUsize::new(0),
            }));
            let mut started = 0;
            for _ in 0..workers {
                let b = std::thread::Builder::new()
                    .name(WORKER_NAME.into())
                    .stack_size(WORKER_STACK);
                if b.spawn(move || pool.work()).is_ok() {
                    started += 1;
                }
            }
            (started > 0).then_some(pool)
        })
    }

    /// Queues `n` tickets for `call` (if the queue cannot grow, fewer: the caller runs the rest).
    fn post(&self, call: &Ticket, n: usize) {
        // try_lock: a queue lock held by a thread that no longer exists (a fork of the process)
        // must not block a call; without tickets the calling thread runs every part
        let Ok(mut q) = self.queue.try_lock() else {
            return;
        };
        if q.try_reserve(n).is_err() {
            return;
        }
        for _ in 0..n {
            q.push_back(call.clone());
        }
        self.queued.store(q.len(), Ordering::Release);
        drop(q);
        if n == 1 {
            self.ready.notify_one();
        } else {
            self.ready.notify_all();
        }
    }

    /// A worker: takes tickets; between them watches the queue for up to [`SPIN`], then
    /// sleeps until a ticket is posted.
    fn work(&self) {
        loop {
            let ticket = {
                let mut q = lock(&self.queue);
                let mut spun = false;
                loop {
                    if let Some(t) = q.pop_front() {
                        self.queued.store(q.len(), Ordering::Release);
                        break t;
                    }
                    if spun {
                        q = self.ready.wait(q).unwrap_or_else(|e| e.into_inner());
                    } else {
                        drop(q);
                        spin_until(|| self.queued.load(Ordering::Acquire) > 0);
                        spun = true;
                        q = lock(&self.queue);
                    }
                }
            };
            ticket.help_one();
        }
    }
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

    /// Calls in quick succession (the workers still watching the queue), and calls after the
    /// workers have gone to sleep (longer than [`SPIN`] apart): every part runs once, and the
    /// caller returns only after all of them.
    #[test]
    fn back_to_back_and_idle_calls_run_every_part_once() {
        let total = AtomicUsize::new(0);
        for round in 0..400 {
            let parts = 2 + round % 5;
            let hits: Vec<AtomicUsize> = (0..parts).map(|_| AtomicUsize::new(0)).collect();
            run_parts((0..parts).collect(), |i| {
                hits[i].fetch_add(1, Ordering::Relaxed);
                total.fetch_add(1, Ordering::Relaxed);
            });
            assert!(
                hits.iter().all(|h| h.load(Ordering::Relaxed) == 1),
                "round {round}"
            );
            if round % 100 == 99 {
                std::thread::sleep(SPIN * 3);
            }
        }
        assert_eq!(
            total.load(Ordering::Relaxed),
            (0..400).map(|r| 2 + r % 5).sum()
        );
    }

    #[test]
    fn strided_rows_and_states_cover_every_row_once() {
        // rows of 5 values 7 apart, the last row short of a whole stride
        for rows in [0usize, 1, 2, 3, 1000] {
            let len = if rows == 0 { 0 } else { (rows - 1) * 7 + 5 };
            let mut y = vec![0u32; len];
            let mut made = 0;
            par_strided_rows_with(
                &mut y,
                rows,
                7,
                usize::MAX,
                || {
                    made += 1;
                    Ok(())
                },
                |_, first, chunk| {
                    let mut i = 0;
                    while i * 7 < chunk.len() {
                        let end = (i * 7 + 5).min(chunk.len());
                        for v in &mut chunk[i * 7..end] {
                            *v += (first + i) as u32 + 1;
                        }
                        i += 1;
                    }
                },
            )
            .unwrap();
            assert!(made >= 1);
            for (j, &v) in y.iter().enumerate() {
                let want = if j % 7 < 5 { j as u32 / 7 + 1 } else { 0 };
                assert_eq!(v, want, "rows {rows} index {j}");
            }
            // states: each part counts its rows; the counts add up to the rows
            let mut z = vec![0u8; rows * 3];
            let states = par_rows_states(
                &mut z,
                3,
                usize::MAX,
                || Ok(0usize),
                |n, _, chunk| *n += chunk.len() / 3,
            )
            .unwrap();
            assert_eq!(states.iter().sum::<usize>(), rows);
        }
    }

    #[test]
    fn a_failing_state_writes_nothing() {
        let mut y = vec![1u32; 7 * 1000];
        let mut k = 0;
        let r = par_strided_rows_with(
            &mut y,
            1000,
            7,
            usize::MAX,
            || {
                k += 1;
                if k >= 2 || max_threads() == 1 {
                    Err(crate::error::SkError::Allocation("test".into()))
                } else {
                    Ok(())
                }
            },
            |_, _, c| c.fill(0),
        );
        assert!(r.is_err());
        assert!(y.iter().all(|&v| v == 1));
        let r = par_rows_states(
            &mut y,
            7,
            usize::MAX,
            || -> SkResult<()> { Err(crate::error::SkError::Allocation("test".into())) },
            |_, _, c| c.fill(0),
        );
        assert!(r.is_err());
        assert!(y.iter().all(|&v| v == 1));
    }

    #[test]
    fn nested_and_concurrent_splits_finish_and_run_every_part_once() {
        // splits from several threads at once, each part splitting again: with any number of
        // workers (busy ones included) every part runs exactly once and nothing waits forever
        let total = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..50 {
                        run_parts((0..3).collect(), |_| {
                            run_parts((0..3).collect(), |_| {
                                total.fetch_add(1, Ordering::Relaxed);
                            })
                        });
                    }
                });
            }
        });
        assert_eq!(total.load(Ordering::Relaxed), 4 * 50 * 9);
    }

    #[test]
    fn a_panicking_part_reaches_the_caller_after_all_parts_ran() {
        let hits = AtomicUsize::new(0);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_parts((0..6).collect(), |i| {
                hits.fetch_add(1, Ordering::Relaxed);
                if i == 4 {
                    panic!("part 4");
                }
            })
        }));
        assert!(r.is_err());
        assert_eq!(hits.load(Ordering::Relaxed), 6);
        // the pool still works afterwards
        let again = AtomicUsize::new(0);
        run_parts((0..6).collect(), |_| {
            again.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(again.load(Ordering::Relaxed), 6);
    }

    #[test]
    fn parts_borrow_the_callers_data() {
        // parts hold mutable borrows of a local buffer; after the call every write is visible
        for _ in 0..200 {
            let mut v = vec![0u64; 64];
            let parts: Vec<_> = v.chunks_mut(8).enumerate().collect();
            run_parts(parts, |(k, c)| c.fill(k as u64 + 1));
            for (j, &x) in v.iter().enumerate() {
                assert_eq!(x, j as u64 / 8 + 1);
            }
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

    #[test]
    fn par_rows_makes_several_parts_per_thread() {
        let threads = max_threads();
        let sizes = Mutex::new(Vec::new());
        let mut y = vec![0u8; 1000];
        par_rows(&mut y, 1, usize::MAX, |first, chunk| {
            lock(&sizes).push((first, chunk.len()));
        });
        let mut sizes = sizes.into_inner().unwrap();
        sizes.sort_unstable();
        if threads == 1 {
            assert_eq!(sizes, [(0, 1000)]);
        } else {
            let per = 1000usize.div_ceil(threads * PARTS_PER_THREAD);
            assert_eq!(sizes.len(), 1000usize.div_ceil(per));
            assert!(sizes.len() > threads);
            let mut next = 0;
            for &(first, len) in &sizes {
                assert_eq!(first, next);
                assert!(len <= per);
                next += len;
            }
            assert_eq!(next, 1000);
        }
    }

    /// Inside `serial_if(true, …)` every split is one part on the calling thread (also when the
    /// work is large), nested scopes restore the setting they found, and a panic inside restores
    /// it too.
    #[test]
    fn serial_scope_keeps_work_on_the_calling_thread() {
        let big = PAR_MIN_WORK * 64;
        serial_if(true, || {
            assert_eq!(threads_for(64, big), 1);
            let me = std::thread::current().id();
            let mut y = vec![0u8; 64 * 1000];
            par_rows(&mut y, 1000, big, |_, _| {
                assert_eq!(std::thread::current().id(), me)
            });
            serial_if(false, || assert_eq!(threads_for(64, big), 1));
            serial_if(true, || ());
            assert_eq!(threads_for(64, big), 1);
        });
        assert_eq!(threads_for(64, big), max_threads().min(64));
        let r = std::panic::catch_unwind(|| serial_if(true, || panic!("inside")));
        assert!(r.is_err());
        assert_eq!(threads_for(64, big), max_threads().min(64));
    }
}
