//! The boundary every exported function runs inside: the panic-catching macro
//! ([`ffi_boundary!`]) and the thread-local last-error message.

use crate::error::{SkResult, SK_ERR_INTERNAL, SK_OK};
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

thread_local! {
    /// The calling thread's message for its last failure (no NUL; added when copied out).
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
    /// How many exported calls are running on this thread (a callback could nest them).
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    /// Where the last panic caught on this thread happened (set by the hook).
    static PANIC_AT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Whether [`install_quiet_hook`] has run to completion (set after the hook is in place).
static HOOKED: AtomicBool = AtomicBool::new(false);

/// Installs, once, a panic hook that keeps panics inside the library silent: a panic on a thread
/// that is inside an exported call, or on one of the library's worker threads, prints nothing
/// (the boundary turns it into `SK_ERR_INTERNAL` and the thread's message); any other panic of the
/// host program goes to the hook that was installed before. After the first call this is one
/// load of a flag (the `Once` is only consulted until the hook is in place).
#[inline(always)]
fn install_quiet_hook() {
    // Acquire: a thread that sees the flag also sees the hook installed by the thread that set it.
    if !HOOKED.load(Ordering::Acquire) {
        install_quiet_hook_slow();
    }
}

#[cold]
#[inline(never)]
fn install_quiet_hook_slow() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let ours = DEPTH.with(|d| d.get()) > 0
                || std::thread::current().name() == Some(crate::kernels::par::WORKER_NAME);
            if ours {
                let at = info
                    .location()
                    .map(|l| format!("{}:{}", l.file(), l.line()));
                PANIC_AT.with(|p| *p.borrow_mut() = at);
            } else {
                previous(info);
            }
        }));
    });
    HOOKED.store(true, Ordering::Release);
}

/// Records `func: detail` as the calling thread's last error.
pub(crate) fn set_last_error(func: &str, detail: &str) {
    LAST_ERROR.with(|m| {
        let mut m = m.borrow_mut();
        m.clear();
        m.push_str(func);
        m.push_str(": ");
        m.push_str(detail);
    });
}

/// Runs `f` with the calling thread's last error message.
pub(crate) fn with_last_error<R>(f: impl FnOnce(&str) -> R) -> R {
    LAST_ERROR.with(|m| f(&m.borrow()))
}

fn panic_text(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic payload".to_string()
    }
}

/// Runs a status-returning body: `Ok` → `SK_OK`; `Err(e)` → records the message, returns
/// `e.code()`; a panic → records it, returns `SK_ERR_INTERNAL`. Used only via [`ffi_boundary!`].
#[inline(always)]
pub(crate) fn run_status(func: &'static str, body: impl FnOnce() -> SkResult<()>) -> i32 {
    run_value(func, |code| code, || body().map(|()| SK_OK))
}

/// Runs a value-returning body; on error or panic returns `on_error(code)` after recording the
/// message. Used only via [`ffi_boundary!`].
///
/// The success path is what a real-time caller pays on every call: one flag load (the panic
/// hook), the thread's call depth raised and lowered (one thread-local access), and the body
/// inside `catch_unwind` (no cost unless something unwinds). Recording an error or a panic is
/// out of line ([`record_error`], [`record_panic`]).
#[inline(always)]
pub(crate) fn run_value<R>(
    func: &'static str,
    on_error: impl FnOnce(i32) -> R,
    body: impl FnOnce() -> SkResult<R>,
) -> R {
    install_quiet_hook();
    let result = DEPTH.with(|d| {
        d.set(d.get() + 1);
        // if the body panics, the depth is lowered below (the unwind stops at `catch_unwind`)
        let r = catch_unwind(AssertUnwindSafe(body));
        d.set(d.get().saturating_sub(1));
        r
    });
    match result {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => on_error(record_error(func, e)),
        Err(payload) => on_error(record_panic(func, payload)),
    }
}

/// Records a body's error as the thread's message; returns its status code.
#[cold]
#[inline(never)]
fn record_error(func: &'static str, e: crate::error::SkError) -> i32 {
    set_last_error(func, &e.to_string());
    e.code()
}

/// Records a caught panic as the thread's message; returns `SK_ERR_INTERNAL`.
#[cold]
#[inline(never)]
fn record_panic(func: &'static str, payload: Box<dyn Any + Send>) -> i32 {
    let text = panic_text(payload.as_ref());
    let at = match PANIC_AT.with(|p| p.borrow_mut().take()) {
        Some(at) => format!(" at {at}"),
        None => String::new(),
    };
    set_last_error(func, &format!("internal error (panic{at}): {text}"));
    // the payload may itself panic when dropped: keep that inside too
    let _ = catch_unwind(AssertUnwindSafe(move || drop(payload)));
    SK_ERR_INTERNAL
}

/// The one boundary every exported function body runs inside.
///
/// `ffi_boundary!("sk_name", { ...; Ok(()) })` returns an `int32_t` status;
/// `ffi_boundary!("sk_name", on_error = |code| value, { ...; Ok(value) })` returns a value.
/// Errors become status codes with a thread-local message prefixed by the function's name;
/// panics become `SK_ERR_INTERNAL` and never unwind into C.
macro_rules! ffi_boundary {
    ($func:literal, $body:block) => {
        $crate::ffi::guard::run_status($func, || -> $crate::error::SkResult<()> { $body })
    };
    ($func:literal, on_error = $on_error:expr, $body:block) => {
        $crate::ffi::guard::run_value($func, $on_error, || $body)
    };
}
pub(crate) use ffi_boundary;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::*;

    fn last() -> String {
        with_last_error(|s| s.to_string())
    }

    #[test]
    fn boundary_maps_ok_err_and_panic() {
        let ok = ffi_boundary!("t_ok", { Ok(()) });
        assert_eq!(ok, SK_OK);
        let e = ffi_boundary!("t_err", { Err(SkError::BadArgument("lo > hi".into())) });
        assert_eq!(e, SK_ERR_BAD_ARGUMENT);
        assert_eq!(last(), "t_err: lo > hi");
        let p = ffi_boundary!("t_panic", {
            let v: Vec<i32> = Vec::new();
            if v.is_empty() {
                panic!("boom {}", 42);
            }
            Ok(())
        });
        assert_eq!(p, SK_ERR_INTERNAL);
        let m = last();
        assert!(
            m.starts_with("t_panic: internal error (panic at src/ffi/guard/boundary.rs:")
                && m.ends_with("): boom 42"),
            "{m}"
        );
        let v: usize = ffi_boundary!("t_val", on_error = |_| usize::MAX, {
            Err(SkError::Length("x".into()))
        });
        assert_eq!(v, usize::MAX);
        assert_eq!(last(), "t_val: x");
    }

    #[test]
    fn hook_flag_depth_and_nested_calls() {
        let depth = || DEPTH.with(|d| d.get());
        assert_eq!(ffi_boundary!("t_ok", { Ok(()) }), SK_OK);
        assert!(HOOKED.load(Ordering::Acquire));
        assert_eq!(depth(), 0);
        // a panic inside leaves the depth where it was
        let p = ffi_boundary!("t_panic", {
            if depth() == 1 {
                panic!("inside");
            }
            Ok(())
        });
        assert_eq!(p, SK_ERR_INTERNAL);
        assert_eq!(depth(), 0);
        // a call inside a call (a callback): the inner one's error is recorded, the outer goes on
        let outer = ffi_boundary!("t_outer", {
            let inner = ffi_boundary!("t_inner", {
                assert_eq!(depth(), 2);
                Err(SkError::Length("inner".into()))
            });
            assert_eq!(inner, SK_ERR_LENGTH);
            assert_eq!(depth(), 1);
            Ok(())
        });
        assert_eq!(outer, SK_OK);
        assert_eq!(last(), "t_inner: inner");
        assert_eq!(depth(), 0);
    }

    #[test]
    fn last_error_is_per_thread() {
        set_last_error("main", "mine");
        std::thread::spawn(|| {
            assert_eq!(last(), "");
            set_last_error("other", "theirs");
        })
        .join()
        .unwrap();
        assert_eq!(last(), "main: mine");
    }
}
