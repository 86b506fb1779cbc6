//! The boundary every exported function runs inside: the panic-catching macro
//! ([`ffi_boundary!`]) and the thread-local last-error message.

use crate::error::{SkResult, SK_ERR_INTERNAL, SK_OK};
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// The calling thread's message for its last failure (no NUL; added when copied out).
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
    /// How many exported calls are running on this thread (a callback could nest them).
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    /// Where the last panic caught on this thread happened (set by the hook).
    static PANIC_AT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs, once, a panic hook that keeps panics inside the library silent: a panic on a thread
/// that is inside an exported call, or on one of the library's worker threads, prints nothing
/// (the boundary turns it into `SK_ERR_INTERNAL` and the thread's message); any other panic of the
/// host program goes to the hook that was installed before.
fn install_quiet_hook() {
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
}

/// Marks the calling thread as inside an exported call for the guard's lifetime.
struct Depth;
impl Depth {
    fn enter() -> Depth {
        DEPTH.with(|d| d.set(d.get() + 1));
        Depth
    }
}
impl Drop for Depth {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
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
pub(crate) fn run_status(func: &'static str, body: impl FnOnce() -> SkResult<()>) -> i32 {
    run_value(func, |code| code, || body().map(|()| SK_OK))
}

/// Runs a value-returning body; on error or panic returns `on_error(code)` after recording the
/// message. Used only via [`ffi_boundary!`].
pub(crate) fn run_value<R>(
    func: &'static str,
    on_error: impl FnOnce(i32) -> R,
    body: impl FnOnce() -> SkResult<R>,
) -> R {
    install_quiet_hook();
    let depth = Depth::enter();
    let result = catch_unwind(AssertUnwindSafe(body));
    drop(depth);
    match result {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            set_last_error(func, &e.to_string());
            on_error(e.code())
        }
        Err(payload) => {
            let text = panic_text(payload.as_ref());
            let at = match PANIC_AT.with(|p| p.borrow_mut().take()) {
                Some(at) => format!(" at {at}"),
                None => String::new(),
            };
            set_last_error(func, &format!("internal error (panic{at}): {text}"));
            // the payload may itself panic when dropped: keep that inside too
            let _ = catch_unwind(AssertUnwindSafe(move || drop(payload)));
            on_error(SK_ERR_INTERNAL)
        }
    }
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
