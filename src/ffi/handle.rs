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
//!   that call returns (the call holds its own `Arc`).

use crate::error::{SkError, SkResult};
use crate::kernels::filter::fir::FirFilter;
use crate::kernels::filter::lfilter::LFilter;
use crate::kernels::filter::sos::SosFilter;
use crate::kernels::loudness::Meter;
use crate::kernels::spectral::fft::{FftPlan, PlanCache};
use crate::kernels::spectral::mel::MelPlan;
use crate::kernels::spectral::stft::StftStream;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
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

/// The live object behind `token` (argument `name` for messages).
pub(crate) fn lookup(name: &'static str, token: usize) -> SkResult<Arc<Object>> {
    if token == 0 {
        return Err(SkError::InvalidHandle(format!("argument {name} is NULL")));
    }
    registry().get(&token).cloned().ok_or_else(|| {
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
            let obj = reg.remove(&token);
            drop(reg);
            drop(obj); // outside the lock
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
    let entry = registry().get(&id).cloned().ok_or_else(|| unknown(id))?;
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
    let obj = map.remove(&id);
    drop(map);
    drop(obj); // outside the registry lock
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
