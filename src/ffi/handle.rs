//! Handles: the one registry behind every opaque pointer sigkern hands out (FFT plans, STFT
//! streams, mel plans, biquad cascades, FIR filters).
//!
//! A handle value is a token, never dereferenced: `HANDLE_BASE + 16·id` with `id` from a 64-bit
//! counter, so a value is never issued twice in a process. Every call looks the token up in a
//! global map of live handles (under a mutex) and gets an `Arc` of the object, so
//! - NULL, a freed handle (also a double free), a pointer sigkern never returned and a handle of
//!   another kind or element type are all detected (`SK_ERR_INVALID_HANDLE`) without reading any
//!   caller memory;
//! - a handle freed by one thread while another is still executing with it stays alive until
//!   that call returns (the call holds a reference).
//!
//! Each thread remembers the last handle it looked up ([`LAST`]: token, object, and the count of
//! frees at that time). While no handle at all has been freed since ([`FREES`] unchanged: one
//! atomic load), the token is still live and the call borrows the remembered object, without the
//! registry's lock, the map walk and an `Arc` count up and down (about 30 ns of a call's floor).
//! Any free makes every thread's memory stale, so freed handles are detected as before. A thread's
//! memory holds a reference: an object freed by another thread is dropped at this thread's next
//! handle lookup or exit.

use crate::error::{SkError, SkResult};
use crate::kernels::filter::fir::FirFilter;
use crate::kernels::filter::lfilter::LFilter;
use crate::kernels::filter::sos::SosFilter;
use crate::kernels::loudness::Meter;
use crate::kernels::spectral::fft::{FftPlan, PlanCache};
use crate::kernels::spectral::mel::MelPlan;
use crate::kernels::spectral::stft::StftStream;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, TryLockError};

/// Offset of every token. Tokens are never dereferenced, so they need not be addresses; the base
/// (16-byte steps from it) only makes them non-NULL, aligned like a pointer and recognisable in a
/// debugger.
const HANDLE_BASE: usize = 0x5C00_0000_0000;

/// Every object a handle can name.
pub(crate) enum Object {
    FftF32(FftPlan<f32>),
    FftF64(FftPlan<f64>),
    StreamF32(Mutex<StftStream<f32>>),
    StreamF64(Mutex<StftStream<f64>>),
    MelF32(MelPlan<f32>),
    MelF64(MelPlan<f64>),
    /// A stateful filter; its lock is only ever try-locked (see [`with`]).
    Filter(Mutex<FilterObj>),
    /// A streaming resampler; its lock is only ever try-locked.
    Resampler(Box<Mutex<super::resample::ResamplerObj>>),
    /// A loudness meter; its lock is only ever try-locked (see `ffi::loudness`).
    Meter(Box<Mutex<Meter>>),
    /// A dynamics processor; its lock is only ever try-locked (see `ffi::dynamics`).
    Dynamics(Box<Mutex<super::dynamics::DynObj>>),
}

impl Object {
    pub fn describe(&self) -> &'static str {
        match self {
            Object::FftF32(_) => "a float FFT plan",
            Object::FftF64(_) => "a double FFT plan",
            Object::StreamF32(_) => "a float STFT stream",
            Object::StreamF64(_) => "a double STFT stream",
            Object::MelF32(_) => "a float mel plan",
            Object::MelF64(_) => "a double mel plan",
            Object::Filter(m) => match m.try_lock() {
                Ok(g) => g.kind_name(),
                Err(TryLockError::Poisoned(p)) => p.into_inner().kind_name(),
                Err(TryLockError::WouldBlock) => "a filter (busy in another thread)",
            },
            Object::Resampler(m) => match m.try_lock() {
                Ok(g) => g.kind_name(),
                Err(TryLockError::Poisoned(p)) => p.into_inner().kind_name(),
                Err(TryLockError::WouldBlock) => "a resampler (busy in another thread)",
            },
            Object::Meter(_) => "a loudness meter (sk_meter_new)",
            Object::Dynamics(_) => "a dynamics processor (sk_compressor_new, sk_limiter_new, ...)",
        }
    }
}

/// The stateful filters a handle can name (inside [`Object::Filter`]).
pub(crate) enum FilterObj {
    BiquadF32(SosFilter<f32>),
    BiquadF64(SosFilter<f64>),
    FirF32(FirFilter<f32>),
    FirF64(FirFilter<f64>),
    LfilterF32(LFilter<f32>),
    LfilterF64(LFilter<f64>),
}

impl FilterObj {
    pub(crate) fn kind_name(&self) -> &'static str {
        match self {
            FilterObj::BiquadF32(_) => "a float biquad cascade (sk_biquad_f32_new)",
            FilterObj::BiquadF64(_) => "a double biquad cascade (sk_biquad_f64_new)",
            FilterObj::FirF32(_) => "a float FIR filter (sk_fir_f32_new)",
            FilterObj::FirF64(_) => "a double FIR filter (sk_fir_f64_new)",
            FilterObj::LfilterF32(_) => "a float transfer-function filter (sk_lfilter_f32_new)",
            FilterObj::LfilterF64(_) => "a double transfer-function filter (sk_lfilter_f64_new)",
        }
    }
    pub(crate) fn is_biquad(&self) -> bool {
        matches!(self, FilterObj::BiquadF32(_) | FilterObj::BiquadF64(_))
    }
    pub(crate) fn is_lfilter(&self) -> bool {
        matches!(self, FilterObj::LfilterF32(_) | FilterObj::LfilterF64(_))
    }
}

fn registry() -> MutexGuard<'static, BTreeMap<usize, Arc<Object>>> {
    static REG: OnceLock<Mutex<BTreeMap<usize, Arc<Object>>>> = OnceLock::new();
    REG.get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// Registers `obj` and returns its token.
pub(crate) fn register(obj: Object) -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(1);
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    let token = HANDLE_BASE + id * 16;
    registry().insert(token, Arc::new(obj));
    token
}

/// How many handles have been freed in this process; bumped under the registry lock by every
/// free, after the object left the map.
static FREES: AtomicU64 = AtomicU64::new(0);

/// A thread's last looked-up handle (see the module doc).
struct LastHandle {
    token: Cell<usize>,
    /// [`FREES`] when `obj` was found in the registry
    frees: Cell<u64>,
    /// An [`ObjRef`] borrows `obj`: the slot must not change until it is dropped.
    busy: Cell<bool>,
    obj: RefCell<Option<Arc<Object>>>,
}

thread_local! {
    static LAST: LastHandle = const {
        LastHandle {
            token: Cell::new(0),
            frees: Cell::new(0),
            busy: Cell::new(false),
            obj: RefCell::new(None),
        }
    };
}

/// A live object found by [`lookup`]: borrowed from the thread's [`LAST`] slot, or a reference
/// of its own. Not `Send`: it is dropped on the thread that looked it up, inside one call.
pub(crate) struct ObjRef(Held);

enum Held {
    /// Points into the `Arc` held by this thread's [`LAST`] slot, which is marked busy (left
    /// unchanged) until this is dropped.
    Last(NonNull<Object>),
    Own(Arc<Object>),
}

impl std::ops::Deref for ObjRef {
    type Target = Object;
    fn deref(&self) -> &Object {
        match &self.0 {
            // SAFETY: the slot's `Arc` keeps the object alive, and the slot is busy, so nothing
            // replaces or drops that `Arc` while this `ObjRef` exists (only a lookup or free on
            // this thread could, and both leave a busy slot alone; the thread-local's destructor
            // runs at thread exit, after every call's `ObjRef` is gone). Objects are shared
            // read-only (`Arc`), so a shared reference is what every other holder has too.
            Held::Last(p) => unsafe { p.as_ref() },
            Held::Own(a) => a,
        }
    }
}

impl Drop for ObjRef {
    fn drop(&mut self) {
        if let Held::Last(_) = self.0 {
            // Only fails during the thread-local's own destruction, when the slot is gone.
            let _ = LAST.try_with(|l| l.busy.set(false));
        }
    }
}

/// The live object behind a non-NULL `token`, or `None` if it is not a live handle.
fn find(token: usize) -> Option<ObjRef> {
    // Read before the registry: a free that this load does not see comes later and bumps the
    // count again, so a remembered handle is never trusted past its free.
    let frees = FREES.load(Ordering::Acquire);
    let last = LAST
        .try_with(|l| {
            if l.busy.get() || l.token.get() != token || l.frees.get() != frees {
                return None;
            }
            let p = l.obj.borrow().as_deref().map(NonNull::from)?;
            l.busy.set(true);
            Some(p)
        })
        .ok()
        .flatten();
    if let Some(p) = last {
        return Some(ObjRef(Held::Last(p)));
    }
    let obj = registry().get(&token).cloned()?;
    // Remember it for this thread's next call (not while a borrowed one is out, and not during
    // the thread's exit, when `try_with` fails). The replaced reference is dropped here,
    // outside the registry lock.
    let _ = LAST.try_with(|l| {
        if !l.busy.get() {
            let old = l.obj.replace(Some(obj.clone()));
            l.token.set(token);
            l.frees.set(frees);
            drop(old);
        }
    });
    Some(ObjRef(Held::Own(obj)))
}

/// Removes `token` from the map (the caller holds the registry lock and checked the entry) and
/// makes every thread's remembered handle stale; returns the references to drop after unlocking:
/// the map's and this thread's remembered one if it was this handle.
fn take(
    reg: &mut BTreeMap<usize, Arc<Object>>,
    token: usize,
) -> (Option<Arc<Object>>, Option<Arc<Object>>) {
    let obj = reg.remove(&token);
    FREES.fetch_add(1, Ordering::Release);
    let mine = LAST
        .try_with(|l| {
            if !l.busy.get() && l.token.get() == token {
                l.token.set(0);
                l.obj.take()
            } else {
                None
            }
        })
        .ok()
        .flatten();
    (obj, mine)
}

/// The live object behind `token` (argument `name` for messages).
pub(crate) fn lookup(name: &'static str, token: usize) -> SkResult<ObjRef> {
    if token == 0 {
        return Err(SkError::InvalidHandle(format!("argument {name} is NULL")));
    }
    find(token).ok_or_else(|| {
        SkError::InvalidHandle(format!(
            "argument {name} = {token:#x} is not a live sigkern handle (already freed, or never \
             returned by a sigkern constructor)"
        ))
    })
}

/// Frees `token` if it names an object `accept` agrees to; NULL is a no-op.
pub(crate) fn release(
    name: &'static str,
    token: usize,
    what: &'static str,
    accept: impl Fn(&Object) -> bool,
) -> SkResult<()> {
    if token == 0 {
        return Ok(());
    }
    let mut reg = registry();
    match reg.get(&token) {
        None => Err(SkError::InvalidHandle(format!(
            "argument {name} = {token:#x} is not a live sigkern handle (already freed, or never \
             returned by a sigkern constructor)"
        ))),
        Some(o) if !accept(o) => Err(SkError::InvalidHandle(format!(
            "argument {name} is {}, not {what}",
            o.describe()
        ))),
        Some(_) => {
            let refs = take(&mut reg, token);
            drop(reg);
            drop(refs); // outside the lock
            Ok(())
        }
    }
}

/// Registers a filter and returns its token.
pub(crate) fn insert(obj: FilterObj) -> usize {
    register(Object::Filter(Mutex::new(obj)))
}

fn unknown(id: usize) -> SkError {
    SkError::InvalidHandle(format!(
        "handle {id:#x} is not a live handle (never created, or already freed)"
    ))
}

fn busy(id: usize, advice: &str) -> SkError {
    SkError::InvalidHandle(format!(
        "handle {id:#x} is in use by another thread right now; {advice}"
    ))
}

/// Runs `f` on the filter named by `id`, holding its lock.
///
/// The lock is only try-locked: a second thread using the same handle at the same time gets
/// `SK_ERR_INVALID_HANDLE` ("in use") instead of a data race or a wait. A panic inside a kernel
/// (reported as `SK_ERR_INTERNAL`) poisons the lock; the object holds plain numbers and stays
/// usable.
pub(crate) fn with<R>(id: usize, f: impl FnOnce(&mut FilterObj) -> SkResult<R>) -> SkResult<R> {
    if id == 0 {
        return Err(SkError::InvalidHandle("handle is NULL".into()));
    }
    let entry = find(id).ok_or_else(|| unknown(id))?;
    let Object::Filter(m) = &*entry else {
        return Err(SkError::InvalidHandle(format!(
            "handle {id:#x} is {}, not a filter (biquad cascade, FIR or transfer-function filter)",
            entry.describe()
        )));
    };
    let mut guard = match m.try_lock() {
        Ok(g) => g,
        Err(TryLockError::WouldBlock) => {
            return Err(busy(
                id,
                "one handle must not be used from two threads at the same time",
            ))
        }
        Err(TryLockError::Poisoned(p)) => p.into_inner(),
    };
    f(&mut guard)
}

/// Frees the filter named by `id` if `accept` agrees with its kind. NULL is fine (no-op). A
/// handle busy in another thread is refused (free it after that call returns).
pub(crate) fn remove(id: usize, accept: fn(&FilterObj) -> bool, wanted: &str) -> SkResult<()> {
    if id == 0 {
        return Ok(());
    }
    let mut map = registry();
    let entry = map.get(&id).ok_or_else(|| unknown(id))?;
    let ok = match &**entry {
        Object::Filter(m) => match m.try_lock() {
            Ok(g) => accept(&g),
            Err(TryLockError::Poisoned(p)) => accept(&p.into_inner()),
            Err(TryLockError::WouldBlock) => {
                return Err(busy(id, "free it after that call returns"))
            }
        },
        _ => false,
    };
    if !ok {
        return Err(SkError::InvalidHandle(format!(
            "handle {id:#x} is {}, not a {wanted}",
            entry.describe()
        )));
    }
    let refs = take(&mut map, id);
    drop(map);
    drop(refs); // outside the registry lock
    Ok(())
}

/// The error for a live filter handle of the wrong kind.
pub(crate) fn wrong_kind(id: usize, obj: &FilterObj, wanted: &str) -> SkError {
    SkError::InvalidHandle(format!(
        "handle {id:#x} is {}, but this function needs a {wanted}",
        obj.kind_name()
    ))
}

/// The element types with their handle variants.
pub(crate) trait SpecFloat: crate::kernels::spectral::logtail::LnFast + PlanCache {
    const FFT_WHAT: &'static str;
    const STREAM_WHAT: &'static str;
    const MEL_WHAT: &'static str;
    fn fft(o: &Object) -> Option<&FftPlan<Self>>;
    fn stream(o: &Object) -> Option<&Mutex<StftStream<Self>>>;
    fn mel(o: &Object) -> Option<&MelPlan<Self>>;
    fn wrap_fft(p: FftPlan<Self>) -> Object;
    fn wrap_stream(s: StftStream<Self>) -> Object;
    fn wrap_mel(m: MelPlan<Self>) -> Object;
}

macro_rules! spec_float {
    ($t:ty, $c:literal, $fft:ident, $stream:ident, $mel:ident) => {
        impl SpecFloat for $t {
            const FFT_WHAT: &'static str = concat!("a ", $c, " FFT plan");
            const STREAM_WHAT: &'static str = concat!("a ", $c, " STFT stream");
            const MEL_WHAT: &'static str = concat!("a ", $c, " mel plan");
            fn fft(o: &Object) -> Option<&FftPlan<Self>> {
                match o {
                    Object::$fft(p) => Some(p),
                    _ => None,
                }
            }
            fn stream(o: &Object) -> Option<&Mutex<StftStream<Self>>> {
                match o {
                    Object::$stream(p) => Some(p),
                    _ => None,
                }
            }
            fn mel(o: &Object) -> Option<&MelPlan<Self>> {
                match o {
                    Object::$mel(p) => Some(p),
                    _ => None,
                }
            }
            fn wrap_fft(p: FftPlan<Self>) -> Object {
                Object::$fft(p)
            }
            fn wrap_stream(s: StftStream<Self>) -> Object {
                Object::$stream(Mutex::new(s))
            }
            fn wrap_mel(m: MelPlan<Self>) -> Object {
                Object::$mel(m)
            }
        }
    };
}
spec_float!(f32, "float", FftF32, StreamF32, MelF32);
spec_float!(f64, "double", FftF64, StreamF64, MelF64);

/// `obj` viewed through `get`, or `SK_ERR_INVALID_HANDLE` naming what it is instead.
pub(crate) fn expect<'a, R: ?Sized>(
    name: &'static str,
    obj: &'a Object,
    what: &'static str,
    get: impl Fn(&'a Object) -> Option<&'a R>,
) -> SkResult<&'a R> {
    get(obj).ok_or_else(|| {
        SkError::InvalidHandle(format!("argument {name} is {}, not {what}", obj.describe()))
    })
}

/// Locks a stream (a panic inside an earlier call does not make the stream unusable: its state
/// is only changed after every check passed).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Stores `token` through a checked out-parameter.
///
/// # Safety
/// `out` was validated with `check_out_scalar`.
pub(crate) unsafe fn write_token<H>(out: *mut *mut H, token: usize) {
    // SAFETY: validated by the caller.
    unsafe { *out = token as *mut H };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::SK_ERR_INVALID_HANDLE;
    use crate::kernels::spectral::fft::FftKind;

    #[test]
    fn tokens_are_unique_and_freed_ones_are_rejected() {
        let a = register(Object::FftF32(FftPlan::new(FftKind::Real, 8).unwrap()));
        let b = register(Object::FftF64(FftPlan::new(FftKind::Real, 8).unwrap()));
        assert_ne!(a, b);
        let o = lookup("plan", b).unwrap();
        assert!(expect("plan", &o, "x", <f64 as SpecFloat>::fft).is_ok());
        assert_eq!(
            expect("plan", &o, "x", <f32 as SpecFloat>::fft)
                .err()
                .unwrap()
                .code(),
            SK_ERR_INVALID_HANDLE
        );
        assert!(release("plan", b, "fft", |o| matches!(o, Object::FftF64(_))).is_ok());
        assert_eq!(
            lookup("plan", b).err().unwrap().code(),
            SK_ERR_INVALID_HANDLE
        );
        assert!(release("plan", b, "fft", |_| true).is_err());
        assert!(release("plan", a, "a stream", |o| matches!(o, Object::StreamF32(_))).is_err());
        assert!(lookup("plan", a).is_ok());
        assert!(release("plan", a, "fft", |_| true).is_ok());
        assert!(release("plan", 0, "fft", |_| true).is_ok());
        assert_eq!(
            lookup("plan", 0).err().unwrap().code(),
            SK_ERR_INVALID_HANDLE
        );
        // the plan is still usable by a caller holding an Arc after the free
        drop(o);
    }

    fn is_last(r: &ObjRef) -> bool {
        matches!(r.0, Held::Last(_))
    }

    fn plan64() -> usize {
        register(Object::FftF64(FftPlan::new(FftKind::Real, 8).unwrap()))
    }

    #[test]
    fn a_repeated_lookup_borrows_the_remembered_handle() {
        let a = plan64();
        // Other tests free handles concurrently (each free makes the memory stale), so a hit is
        // asserted once in many tries, not on every try.
        let mut hits = 0;
        for _ in 0..200 {
            let first = lookup("plan", a).unwrap();
            drop(first);
            let second = lookup("plan", a).unwrap();
            hits += is_last(&second) as usize;
            assert!(matches!(&*second, Object::FftF64(p) if p.len() == 8));
        }
        assert!(hits > 0, "the thread's last handle was never reused");
        // While one is borrowed, a nested lookup of the same or another handle gets its own
        // reference and leaves the slot alone.
        let b = plan64();
        loop {
            let _ = lookup("plan", a).unwrap();
            let outer = lookup("plan", a).unwrap();
            if !is_last(&outer) {
                continue; // a concurrent free made the memory stale; try again
            }
            let inner = lookup("plan", a).unwrap();
            let other = lookup("plan", b).unwrap();
            assert!(!is_last(&inner) && !is_last(&other));
            assert!(std::ptr::eq(&*outer, &*inner));
            drop((inner, other));
            // the slot still names `a`, the borrowed object
            assert!(LAST.with(|l| l.token.get() == a && l.busy.get()));
            break;
        }
        release("plan", a, "fft", |_| true).unwrap();
        release("plan", b, "fft", |_| true).unwrap();
        assert_eq!(
            lookup("plan", a).err().unwrap().code(),
            SK_ERR_INVALID_HANDLE
        );
    }

    #[test]
    fn a_handle_freed_by_another_thread_is_rejected_and_dropped() {
        let a = plan64();
        let weak = Arc::downgrade(registry().get(&a).unwrap());
        // remembered by this thread
        drop(lookup("plan", a).unwrap());
        let held = lookup("plan", a).unwrap();
        std::thread::spawn(move || release("plan", a, "fft", |_| true).unwrap())
            .join()
            .unwrap();
        // a call that was executing keeps its object until it returns
        assert!(matches!(&*held, Object::FftF64(p) if p.len() == 8));
        drop(held);
        assert_eq!(
            lookup("plan", a).err().unwrap().code(),
            SK_ERR_INVALID_HANDLE
        );
        assert_eq!(
            with(a, |_| Ok(())).unwrap_err().code(),
            SK_ERR_INVALID_HANDLE
        );
        // this thread's memory of it goes at its next successful lookup of any handle
        let b = plan64();
        drop(lookup("plan", b).unwrap());
        assert!(
            weak.upgrade().is_none(),
            "the freed plan is still referenced"
        );
        // freeing the handle this thread remembers drops that reference at once
        let wb = Arc::downgrade(registry().get(&b).unwrap());
        release("plan", b, "fft", |_| true).unwrap();
        assert!(wb.upgrade().is_none(), "the freed plan is still referenced");
    }

    #[test]
    fn lookups_work_during_thread_exit() {
        // A thread-local destructor that runs after the slot's own one still gets answers (and
        // does not panic on the destroyed slot).
        struct Late(usize, std::sync::mpsc::Sender<(bool, bool)>);
        impl Drop for Late {
            fn drop(&mut self) {
                let found = lookup("plan", self.0).is_ok();
                let freed = release("plan", self.0, "fft", |_| true).is_ok();
                self.1.send((found, freed)).unwrap();
            }
        }
        thread_local! {
            static L: RefCell<Option<Late>> = const { RefCell::new(None) };
        }
        let a = plan64();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            // registered before the slot, so destroyed after it (reverse order)
            L.with(|l| *l.borrow_mut() = Some(Late(a, tx)));
            drop(lookup("plan", a).unwrap());
        })
        .join()
        .unwrap();
        assert_eq!(rx.recv().unwrap(), (true, true));
        assert!(lookup("plan", a).is_err());
    }

    #[test]
    fn lifecycle_and_kinds() {
        let sos = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];
        let id = insert(FilterObj::BiquadF32(SosFilter::new(&sos, 1).unwrap()));
        assert!(id >= HANDLE_BASE && id.is_multiple_of(16));
        assert!(with(id, |o| Ok(o.is_biquad())).unwrap());
        assert_eq!(
            remove(id, |o| !o.is_biquad(), "FIR filter")
                .unwrap_err()
                .code(),
            SK_ERR_INVALID_HANDLE
        );
        remove(id, FilterObj::is_biquad, "biquad").unwrap();
        assert_eq!(
            with(id, |_| Ok(())).unwrap_err().code(),
            SK_ERR_INVALID_HANDLE
        );
        assert_eq!(
            remove(id, FilterObj::is_biquad, "biquad")
                .unwrap_err()
                .code(),
            SK_ERR_INVALID_HANDLE
        );
        assert_eq!(
            with(0, |_| Ok(())).unwrap_err().code(),
            SK_ERR_INVALID_HANDLE
        );
        assert!(remove(0, FilterObj::is_biquad, "biquad").is_ok());
        assert_eq!(
            with(HANDLE_BASE + 8, |_| Ok(())).unwrap_err().code(),
            SK_ERR_INVALID_HANDLE
        );
    }

    #[test]
    fn busy_handle_is_an_error_not_a_race() {
        let sos = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];
        let id = insert(FilterObj::BiquadF64(SosFilter::new(&sos, 1).unwrap()));
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
        remove(id, FilterObj::is_biquad, "biquad").unwrap();
    }

    #[test]
    fn filters_and_plans_share_one_registry_and_tell_kinds_apart() {
        use crate::kernels::spectral::fft::FftKind;
        let plan = register(Object::FftF64(FftPlan::new(FftKind::Real, 8).unwrap()));
        let e = with(plan, |_| Ok(())).unwrap_err();
        assert!(
            e.to_string().contains("a double FFT plan, not a filter"),
            "{e}"
        );
        assert!(remove(plan, FilterObj::is_biquad, "biquad").is_err());
        let sos = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];
        let bq = insert(FilterObj::BiquadF32(SosFilter::new(&sos, 1).unwrap()));
        let o = lookup("plan", bq).unwrap();
        let e = expect("plan", &o, "a double FFT plan", <f64 as SpecFloat>::fft)
            .err()
            .unwrap();
        assert!(e.to_string().contains("is a float biquad cascade"), "{e}");
        assert!(release("plan", bq, "fft", |o| matches!(o, Object::FftF64(_))).is_err());
        remove(bq, FilterObj::is_biquad, "biquad").unwrap();
        release("plan", plan, "fft", |o| matches!(o, Object::FftF64(_))).unwrap();
    }
}
