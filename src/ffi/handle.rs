//! The registry of live filter handles.
//!
//! A handle given to C is an opaque pointer whose value is a registry id: ids start at 0x1000,
//! step by 16 and are never reused, so a freed handle stays unknown forever. Every call looks the
//! id up in a global ordered map under a mutex (held only for the lookup), so NULL, a freed handle, a
//! made-up pointer or a handle of another kind is detected without ever dereferencing the
//! caller's pointer. The object itself sits behind its own mutex, taken with `try_lock`: a
//! second thread using the same handle at the same time gets `SK_ERR_INVALID_HANDLE` ("in use")
//! instead of a data race. Freeing a handle while another thread is inside a call on it is sound:
//! the map holds an `Arc`, and the call in progress keeps the object alive until it returns.

use crate::error::{SkError, SkResult};
use crate::kernels::filter::fir::FirFilter;
use crate::kernels::filter::sos::SosFilter;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, TryLockError};

/// Every kind of object a handle can name.
pub(crate) enum Obj {
    BiquadF32(SosFilter<f32>),
    BiquadF64(SosFilter<f64>),
    FirF32(FirFilter<f32>),
    FirF64(FirFilter<f64>),
}

impl Obj {
    pub(crate) fn kind_name(&self) -> &'static str {
        match self {
            Obj::BiquadF32(_) => "float biquad cascade (sk_biquad_f32_new)",
            Obj::BiquadF64(_) => "double biquad cascade (sk_biquad_f64_new)",
            Obj::FirF32(_) => "float FIR filter (sk_fir_f32_new)",
            Obj::FirF64(_) => "double FIR filter (sk_fir_f64_new)",
        }
    }
    pub(crate) fn is_biquad(&self) -> bool {
        matches!(self, Obj::BiquadF32(_) | Obj::BiquadF64(_))
    }
}

/// An ordered map: its nodes are freed as soon as the last handle is, and while handles live
/// every node is reachable from the static (leak checkers see no "possibly lost" block).
type Map = BTreeMap<usize, Arc<Mutex<Obj>>>;

fn registry() -> &'static Mutex<Map> {
    static REG: Mutex<Map> = Mutex::new(BTreeMap::new());
    &REG
}

fn lock_registry() -> std::sync::MutexGuard<'static, Map> {
    // The map is only mutated by insert/remove, which cannot leave it inconsistent.
    registry().lock().unwrap_or_else(|p| p.into_inner())
}

/// Registers an object and returns its id (never 0, never reused).
pub(crate) fn insert(obj: Obj) -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(0x1000);
    let id = NEXT.fetch_add(16, Ordering::Relaxed);
    lock_registry().insert(id, Arc::new(Mutex::new(obj)));
    id
}

fn unknown(id: usize) -> SkError {
    SkError::InvalidHandle(format!(
        "handle {id:#x} is not a live handle (never created, or already freed)"
    ))
}

fn null_handle() -> SkError {
    SkError::InvalidHandle("handle is NULL".into())
}

/// Runs `f` on the object named by `id`, holding its lock. `what` names the handle argument.
pub(crate) fn with<R>(id: usize, f: impl FnOnce(&mut Obj) -> SkResult<R>) -> SkResult<R> {
    if id == 0 {
        return Err(null_handle());
    }
    let entry = lock_registry()
        .get(&id)
        .cloned()
        .ok_or_else(|| unknown(id))?;
    let mut guard = match entry.try_lock() {
        Ok(g) => g,
        Err(TryLockError::WouldBlock) => {
            return Err(SkError::InvalidHandle(format!(
                "handle {id:#x} is in use by another thread right now; one handle must not be \
                 used from two threads at the same time"
            )))
        }
        // A panic inside a kernel (reported as SK_ERR_INTERNAL) poisons the lock; the object
        // holds plain numbers and stays usable.
        Err(TryLockError::Poisoned(p)) => p.into_inner(),
    };
    f(&mut guard)
}

/// Removes the object named by `id` if `accept` agrees with its kind. NULL is fine (no-op).
pub(crate) fn remove(id: usize, accept: fn(&Obj) -> bool, wanted: &str) -> SkResult<()> {
    if id == 0 {
        return Ok(());
    }
    let mut map = lock_registry();
    let entry = map.get(&id).ok_or_else(|| unknown(id))?;
    // The kind never changes after creation; reading it needs the object's lock. A handle busy in
    // another thread is still freed: that call keeps its Arc until it returns.
    let ok = match entry.try_lock() {
        Ok(g) => accept(&g),
        Err(TryLockError::Poisoned(p)) => accept(&p.into_inner()),
        Err(TryLockError::WouldBlock) => {
            return Err(SkError::InvalidHandle(format!(
                "handle {id:#x} is in use by another thread right now; free it after that call \
                 returns"
            )))
        }
    };
    if !ok {
        let got = with_kind_name(entry);
        return Err(SkError::InvalidHandle(format!(
            "handle {id:#x} is a {got}, not a {wanted}"
        )));
    }
    map.remove(&id);
    Ok(())
}

fn with_kind_name(entry: &Arc<Mutex<Obj>>) -> &'static str {
    match entry.try_lock() {
        Ok(g) => g.kind_name(),
        Err(TryLockError::Poisoned(p)) => p.into_inner().kind_name(),
        Err(TryLockError::WouldBlock) => "handle of another kind",
    }
}

/// The error for a live handle of the wrong kind.
pub(crate) fn wrong_kind(id: usize, obj: &Obj, wanted: &str) -> SkError {
    SkError::InvalidHandle(format!(
        "handle {id:#x} is a {}, but this function needs a {wanted}",
        obj.kind_name()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::SK_ERR_INVALID_HANDLE;

    #[test]
    fn lifecycle_and_kinds() {
        let sos = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];
        let id = insert(Obj::BiquadF32(SosFilter::new(&sos, 1).unwrap()));
        assert!(id >= 0x1000 && id.is_multiple_of(16));
        assert!(with(id, |o| Ok(o.is_biquad())).unwrap());
        assert_eq!(
            remove(id, |o| !o.is_biquad(), "FIR filter")
                .unwrap_err()
                .code(),
            SK_ERR_INVALID_HANDLE
        );
        remove(id, Obj::is_biquad, "biquad").unwrap();
        assert_eq!(
            with(id, |_| Ok(())).unwrap_err().code(),
            SK_ERR_INVALID_HANDLE
        );
        assert_eq!(
            remove(id, Obj::is_biquad, "biquad").unwrap_err().code(),
            SK_ERR_INVALID_HANDLE
        );
        assert_eq!(
            with(0, |_| Ok(())).unwrap_err().code(),
            SK_ERR_INVALID_HANDLE
        );
        assert!(remove(0, Obj::is_biquad, "biquad").is_ok());
        assert_eq!(
            with(0x1008, |_| Ok(())).unwrap_err().code(),
            SK_ERR_INVALID_HANDLE
        );
    }

    #[test]
    fn busy_handle_is_an_error_not_a_race() {
        let sos = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];
        let id = insert(Obj::BiquadF64(SosFilter::new(&sos, 1).unwrap()));
        let (tx, rx) = std::sync::mpsc::channel();
        let (tx2, rx2) = std::sync::mpsc::channel::<()>();
        let t = std::thread::spawn(move || {
            with(id, |_| {
                tx.send(()).unwrap();
                rx2.recv().unwrap();
                Ok(())
            })
            .unwrap()
        });
        rx.recv().unwrap();
        let e = with(id, |_| Ok(())).unwrap_err();
        assert!(e.to_string().contains("in use"), "{e}");
        tx2.send(()).unwrap();
        t.join().unwrap();
        assert!(with(id, |_| Ok(())).is_ok());
        remove(id, Obj::is_biquad, "biquad").unwrap();
    }
}
