//! Handles: the one registry behind every opaque pointer sigkern hands out.
//!
//! Each ffi module declares the object kinds of its own handles with [`handle_kind!`] (a kind
//! names the Rust object, the opaque C type, the words used in messages and two rules: whether
//! one handle may serve several calls at once, and what a free does while a call is using the
//! handle). This module knows no concrete object type; it stores objects type-erased and checks
//! the exact kind on every lookup and free.
//!
//! A handle value is a token, never dereferenced: a tag byte (`0x5C`), the generation and the
//! index of a slot, in 16-byte steps (non-NULL, aligned like a pointer). Slots live in chunks
//! that are allocated when a handle is created and never moved or freed; each slot has one
//! atomic state word (generation, live bit, count of calls running with it), so a lookup is one
//! load, one compare-and-swap and, when the call returns, one subtraction: no lock, no
//! allocation, no system call, and threads using different handles write to different cache
//! lines. Hence:
//! - NULL, a freed handle (also a double free), a value never issued (wrong tag, an index beyond
//!   the table, a generation the slot does not hold) and a handle of another kind or element type
//!   are all detected (`SK_ERR_INVALID_HANDLE`) without reading any caller memory. A slot's
//!   generation grows with every reuse and a slot whose generation is exhausted is retired, so a
//!   token is never issued twice.
//! - A kind declared `exclusive` serves one call at a time: a second thread calling with the same
//!   handle at once gets `SK_ERR_INVALID_HANDLE` ("in use") instead of a data race or a wait. A
//!   `shared` kind (read-only plans) serves any number of calls at once.
//! - A handle freed while a call on another thread is running with it is either refused ("in
//!   use", the handle stays alive: kinds declared `refuse`) or marked dead at once and dropped
//!   when the last running call returns (kinds declared `defer`; that call then also does the
//!   free's work). The object is never dropped under a running call.

use crate::error::{SkError, SkResult};
use std::marker::PhantomData;
use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

/// The run-time description of an object kind; a kind is identified by the address of its one
/// `static` description (made by [`handle_kind!`]).
pub(crate) struct KindInfo {
    /// What a handle of this kind is, for messages ("a float biquad cascade (...)").
    pub(crate) name: &'static str,
    /// One call at a time (`true`) or any number (`false`).
    pub(crate) exclusive: bool,
    /// A free while a call runs with the handle is refused (`true`) or deferred (`false`).
    pub(crate) refuse_busy_free: bool,
    /// Drops the boxed object (`Box<Object>` as a thin pointer).
    pub(crate) drop: unsafe fn(*mut ()),
}

/// Drops a `Box<T>` made by [`register`].
///
/// # Safety
/// `p` came from `Box::<T>::into_raw` and is dropped once.
pub(crate) unsafe fn drop_box<T>(p: *mut ()) {
    // SAFETY: by the contract, `p` is a `Box<T>` that nobody else owns any more.
    drop(unsafe { Box::from_raw(p as *mut T) });
}

/// An object kind: what a handle of one opaque C type and one element type holds (rustls-ffi's
/// `Castable` in spirit). Declared with [`handle_kind!`].
pub(crate) trait Kind: 'static {
    /// The object behind the handle.
    type Object: Send + 'static;
    /// The opaque C type handles of this kind point to.
    type C;
    /// Same as `info().name`.
    const NAME: &'static str;
    /// Same as `info().exclusive`.
    const EXCLUSIVE: bool;
    /// The kind's one description, whose address identifies the kind.
    fn info() -> &'static KindInfo;
}

/// Declares an object kind: a unit type implementing [`Kind`].
///
/// `handle_kind!(pub(crate) BiquadF32: SosFilter<f32> as SkBiquad, "a float biquad cascade",
/// exclusive, refuse);` — the access is `exclusive` (one call at a time) or `shared` (object
/// `Sync`, any number of calls); a free of a handle in use is `refuse`d or `defer`red.
macro_rules! handle_kind {
    (@ex exclusive) => { true };
    (@ex shared) => { false };
    (@rf refuse) => { true };
    (@rf defer) => { false };
    ($(#[$m:meta])* $vis:vis $kind:ident: $obj:ty as $c:ty, $name:expr, $access:ident, $free:ident) => {
        $(#[$m])*
        $vis struct $kind;
        impl $crate::ffi::handle::Kind for $kind {
            type Object = $obj;
            type C = $c;
            const NAME: &'static str = $name;
            const EXCLUSIVE: bool = $crate::ffi::handle::handle_kind!(@ex $access);
            fn info() -> &'static $crate::ffi::handle::KindInfo {
                static INFO: $crate::ffi::handle::KindInfo = $crate::ffi::handle::KindInfo {
                    name: $name,
                    exclusive: $crate::ffi::handle::handle_kind!(@ex $access),
                    refuse_busy_free: $crate::ffi::handle::handle_kind!(@rf $free),
                    drop: $crate::ffi::handle::drop_box::<$obj>,
                };
                &INFO
            }
        }
    };
}
pub(crate) use handle_kind;

// ------------------------------------------------------------------------------- tokens

/// The tag in a token's top byte: user-space addresses never carry it, so a pointer that is not
/// a handle fails the first check.
const TAG: usize = 0x5C;
const TAG_SHIFT: u32 = usize::BITS - 8;
const INDEX_SHIFT: u32 = 4;
const INDEX_BITS: u32 = if usize::BITS == 64 { 24 } else { 12 };
const GEN_SHIFT: u32 = INDEX_SHIFT + INDEX_BITS;
const GEN_BITS: u32 = TAG_SHIFT - GEN_SHIFT;
/// The largest generation a token can carry (a slot that reaches it is retired when freed).
const GEN_MAX: u64 = (1 << GEN_BITS) - 1;
/// How many slots the table can hold.
const MAX_SLOTS: usize = 1 << INDEX_BITS;

#[inline(always)]
fn encode(index: usize, gen: u64) -> usize {
    (TAG << TAG_SHIFT) | ((gen as usize) << GEN_SHIFT) | (index << INDEX_SHIFT)
}

/// `(index, generation)` of a token that has the shape of one.
#[inline(always)]
fn decode(token: usize) -> Option<(usize, u64)> {
    if token >> TAG_SHIFT != TAG || token & ((1 << INDEX_SHIFT) - 1) != 0 {
        return None;
    }
    let index = (token >> INDEX_SHIFT) & (MAX_SLOTS - 1);
    let gen = ((token >> GEN_SHIFT) as u64) & GEN_MAX;
    Some((index, gen))
}

// ------------------------------------------------------------------------------- slots

/// State word: bits 0..16 count the calls running with the handle, bit 16 says the handle is
/// live (created, not yet freed), bits 32.. hold the slot's generation.
const USERS: u64 = 0xFFFF;
const LIVE: u64 = 1 << 16;
const STATE_GEN: u32 = 32;

/// One handle's place. Aligned to 128 bytes (two cache lines, the unit the adjacent-line
/// prefetcher moves) so threads working on different handles never share a line.
#[repr(align(128))]
struct Slot {
    state: AtomicU64,
    /// The kind of the object of the current generation (written before the state publishes it;
    /// never NULL once the slot was used).
    kind: AtomicPtr<KindInfo>,
    /// The boxed object (thin pointer), while the slot holds one.
    obj: AtomicPtr<()>,
    /// This slot's index (fixed).
    index: usize,
}

/// Slot `i` lives in chunk `c` = ⌊log2(i + 64)⌋ − 6, which holds `64·2^c` slots.
const FIRST_BITS: u32 = 6;
const N_CHUNKS: usize = (INDEX_BITS - FIRST_BITS + 1) as usize;

#[inline(always)]
fn locate(index: usize) -> (usize, usize) {
    let v = index + (1 << FIRST_BITS);
    let top = usize::BITS - 1 - v.leading_zeros();
    ((top - FIRST_BITS) as usize, v - (1 << top))
}

fn chunk_len(c: usize) -> usize {
    1 << (c as u32 + FIRST_BITS)
}

/// The chunks of slots (NULL until allocated; never freed or moved afterwards).
static CHUNKS: [AtomicPtr<Slot>; N_CHUNKS] = [const { AtomicPtr::new(ptr::null_mut()) }; N_CHUNKS];

/// Creation and reuse of slots (creation and free paths only; never taken by a lookup that
/// finds its handle live).
struct Alloc {
    /// Vacant slots, reused most recent first; capacity reserved for every slot, so a push never
    /// allocates.
    vacant: Vec<usize>,
    /// Slots handed out so far.
    next: usize,
}

static ALLOC: Mutex<Alloc> = Mutex::new(Alloc {
    vacant: Vec::new(),
    next: 0,
});

fn alloc() -> MutexGuard<'static, Alloc> {
    // The guarded data stays consistent at every step, so a poisoned lock is still fine.
    ALLOC.lock().unwrap_or_else(|e| e.into_inner())
}

/// The slot a token points at, and the generation it claims.
#[inline(always)]
fn slot_of(token: usize) -> Option<(&'static Slot, u64)> {
    let (index, gen) = decode(token)?;
    let (c, off) = locate(index);
    let chunk = CHUNKS[c].load(Ordering::Acquire);
    if chunk.is_null() {
        return None;
    }
    // SAFETY: a non-NULL chunk pointer was published (Release) after the chunk's
    // `chunk_len(c)` slots were initialised; chunks are never freed or moved; `off <
    // chunk_len(c)` by `locate`. Slots are only accessed through atomics and the fixed `index`.
    Some((unsafe { &*chunk.add(off) }, gen))
}

/// A vacant slot, taken out of the vacant list (or new).
fn take_slot() -> SkResult<&'static Slot> {
    let mut a = alloc();
    let index = match a.vacant.pop() {
        Some(i) => i,
        None => {
            let i = a.next;
            if i >= MAX_SLOTS {
                return Err(SkError::Allocation(format!(
                    "the handle table is full ({MAX_SLOTS} handles); free some first"
                )));
            }
            let (c, off) = locate(i);
            if off == 0 {
                let n = chunk_len(c);
                // every slot made so far, plus this chunk's, may be vacant at once (the list
                // is empty here)
                let total = a.next + n;
                a.vacant
                    .try_reserve(total)
                    .map_err(|_| SkError::Allocation("no memory for the handle table".into()))?;
                let mut v: Vec<Slot> = Vec::new();
                v.try_reserve_exact(n)
                    .map_err(|_| SkError::Allocation("no memory for the handle table".into()))?;
                v.extend((0..n).map(|k| Slot {
                    state: AtomicU64::new(0),
                    kind: AtomicPtr::new(ptr::null_mut()),
                    obj: AtomicPtr::new(ptr::null_mut()),
                    index: i + k,
                }));
                let p = Box::leak(v.into_boxed_slice()).as_mut_ptr();
                CHUNKS[c].store(p, Ordering::Release);
            }
            a.next = i + 1;
            i
        }
    };
    drop(a);
    let (c, off) = locate(index);
    let chunk = CHUNKS[c].load(Ordering::Acquire);
    // SAFETY: the chunk of every handed-out index was published above (or earlier); see
    // `slot_of`.
    Ok(unsafe { &*chunk.add(off) })
}

/// Drops the object of a slot whose handle was freed and which no call uses any more, then makes
/// the slot vacant under the next generation (or retires it). Runs exactly once per freed
/// handle: in the free, or in the last call that was running when it came.
#[cold]
#[inline(never)]
fn reclaim(slot: &'static Slot, state: u64) {
    let obj = slot.obj.swap(ptr::null_mut(), Ordering::Relaxed);
    let kind = slot.kind.load(Ordering::Relaxed);
    // SAFETY: a slot that had a live handle has a kind: a pointer to a `'static KindInfo`.
    let kind = unsafe { &*kind };
    // SAFETY: `obj` is the box stored by `register` for this kind; the state transition that
    // led here (the live bit cleared with no call running, or the last running call leaving
    // after that) happens once, and no new call can start on a dead handle.
    unsafe { (kind.drop)(obj) };
    let gen = state >> STATE_GEN;
    if gen < GEN_MAX {
        slot.state.store((gen + 1) << STATE_GEN, Ordering::Release);
        let mut a = alloc();
        // capacity reserved when the slot's chunk was made: no allocation here
        a.vacant.push(slot.index);
    }
    // else: retired; the state keeps the old generation, not live, forever
}

// ------------------------------------------------------------------------------- lookups

/// Why a lookup failed.
enum Miss {
    Null,
    Dead,
    Kind(&'static KindInfo),
    Busy,
}

/// A running call's claim on a live handle; dropping it ends the claim (and drops the object
/// if the handle was freed meanwhile and this was the last claim).
struct Lease {
    slot: &'static Slot,
}

impl Lease {
    #[inline(always)]
    fn obj(&self) -> *mut () {
        self.slot.obj.load(Ordering::Relaxed)
    }
}

impl Drop for Lease {
    #[inline(always)]
    fn drop(&mut self) {
        // Release: this call's writes to the object happen before the next claim (Acquire).
        // Acquire: if this ends the last claim of a freed handle, every other claim's writes
        // happen before the drop.
        let prev = self.slot.state.fetch_sub(1, Ordering::AcqRel);
        if prev & USERS == 1 && prev & LIVE == 0 {
            reclaim(self.slot, prev - 1);
        }
    }
}

/// The kind of a slot whose state (loaded with Acquire) said live: stable for that generation.
fn kind_of(slot: &Slot) -> Option<&'static KindInfo> {
    let k = slot.kind.load(Ordering::Acquire);
    // SAFETY: kinds are only ever pointers to `'static KindInfo` values (or NULL before the
    // slot's first use).
    unsafe { k.as_ref() }
}

/// Whether `slot` still holds generation `gen`, live (after a kind was read: the kind then
/// belongs to that generation, because a reuse writes its kind only after the free).
fn still_live(slot: &Slot, gen: u64) -> bool {
    let s = slot.state.load(Ordering::Acquire);
    s >> STATE_GEN == gen && s & LIVE != 0
}

#[inline(always)]
fn accepted(k: &'static KindInfo, accept: &[&'static KindInfo]) -> bool {
    accept.iter().any(|a| ptr::eq(*a, k))
}

/// Claims the live handle `token` of one of the `accept` kinds: one call at a time for an
/// exclusive kind, any number for a shared one.
///
/// The common case is tested first, inline: the slot holds the token's generation, live, with no
/// call running (so one compare of the state word covers generation, liveness and, for an
/// exclusive kind, "not in use"), its kind is an accepted one, and the compare-and-swap
/// that counts this call in succeeds. Anything else (a shared handle already in use, a lost
/// race, every error) goes through [`acquire_slow`], which decides.
#[inline(always)]
fn acquire(token: usize, accept: &[&'static KindInfo]) -> Result<(Lease, &'static KindInfo), Miss> {
    if let Some((slot, gen)) = slot_of(token) {
        let s = slot.state.load(Ordering::Acquire);
        if s == (gen << STATE_GEN) | LIVE {
            // SAFETY: kinds are only ever pointers to `'static KindInfo` values (non-NULL once
            // the slot was used, and a live state says it was).
            let k = unsafe { &*slot.kind.load(Ordering::Acquire) };
            if accepted(k, accept) {
                // Success means the state still holds this generation, live: the kind read
                // above is this generation's, and the object stays until the lease ends.
                if slot
                    .state
                    .compare_exchange(s, s + 1, Ordering::Acquire, Ordering::Relaxed)
                    .is_ok()
                {
                    return Ok((Lease { slot }, k));
                }
            }
        }
    }
    acquire_slow(token, accept)
}

/// [`acquire`] for every case but the common one: the full rules, in order.
#[cold]
#[inline(never)]
fn acquire_slow(
    token: usize,
    accept: &[&'static KindInfo],
) -> Result<(Lease, &'static KindInfo), Miss> {
    if token == 0 {
        return Err(Miss::Null);
    }
    let (slot, gen) = slot_of(token).ok_or(Miss::Dead)?;
    let mut s = slot.state.load(Ordering::Acquire);
    loop {
        if s >> STATE_GEN != gen || s & LIVE == 0 {
            return Err(Miss::Dead);
        }
        let k = kind_of(slot).ok_or(Miss::Dead)?;
        if !accepted(k, accept) {
            return Err(if still_live(slot, gen) {
                Miss::Kind(k)
            } else {
                Miss::Dead
            });
        }
        let max = if k.exclusive { 1 } else { USERS };
        if s & USERS >= max {
            return Err(Miss::Busy);
        }
        // Success means the state still holds this generation, live: the kind read above is
        // this generation's, and the object stays until the lease ends.
        match slot
            .state
            .compare_exchange_weak(s, s + 1, Ordering::Acquire, Ordering::Acquire)
        {
            Ok(_) => return Ok((Lease { slot }, k)),
            Err(now) => s = now,
        }
    }
}

#[cold]
#[inline(never)]
fn miss(m: Miss, name: &str, token: usize, wanted: &str, free: bool) -> SkError {
    SkError::InvalidHandle(match m {
        Miss::Null => format!("argument {name} is NULL"),
        Miss::Dead => format!(
            "argument {name} = {token:#x} is not a live sigkern handle (already freed, or never \
             returned by a sigkern constructor)"
        ),
        Miss::Kind(k) => format!("argument {name} is {}, not {wanted}", k.name),
        Miss::Busy if free => format!(
            "argument {name} = {token:#x} is in use by another thread right now; free it after \
             that call returns"
        ),
        Miss::Busy => format!(
            "argument {name} = {token:#x} is in use by another thread right now; one handle \
             must not be used from two threads at the same time"
        ),
    })
}

/// Registers `obj` as a handle of kind `K` and returns the handle.
pub(crate) fn register<K: Kind>(obj: K::Object) -> SkResult<*mut K::C> {
    let slot = take_slot()?;
    // The slot is vacant and ours: no other thread writes it until the state below says live.
    let gen = slot.state.load(Ordering::Relaxed) >> STATE_GEN;
    slot.obj
        .store(Box::into_raw(Box::new(obj)) as *mut (), Ordering::Relaxed);
    slot.kind.store(
        K::info() as *const KindInfo as *mut KindInfo,
        Ordering::Release,
    );
    slot.state
        .store((gen << STATE_GEN) | LIVE, Ordering::Release);
    Ok(encode(slot.index, gen) as *mut K::C)
}

/// Registers `obj` and stores the handle through `out`.
///
/// # Safety
/// `out` was validated with `check_out_scalar`.
pub(crate) unsafe fn publish<K: Kind>(obj: K::Object, out: *mut *mut K::C) -> SkResult<()> {
    let h = register::<K>(obj)?;
    // SAFETY: validated by the caller.
    unsafe { *out = h };
    Ok(())
}

/// Runs `f` on the object of `h` (argument `name`), which must be a live handle of kind `K`
/// (exclusive: no other call runs with it meanwhile).
pub(crate) fn with<K: Kind, R>(
    name: &'static str,
    h: *const K::C,
    f: impl FnOnce(&mut K::Object) -> SkResult<R>,
) -> SkResult<R> {
    const { assert!(K::EXCLUSIVE, "with() needs an exclusive kind; use shared()") };
    let token = h as usize;
    let (lease, _) =
        acquire(token, &[K::info()]).map_err(|m| miss(m, name, token, K::NAME, false))?;
    // SAFETY: the slot holds a `Box<K::Object>` (its kind is `K`, checked under the lease, and
    // each kind stores its own object type); the exclusive lease makes this the only reference
    // until the lease ends, after `f`.
    let obj = unsafe { &mut *(lease.obj() as *mut K::Object) };
    f(obj)
}

/// A call's claim on a live handle of a shared kind `K`, held until it is dropped; derefs to
/// the object. Not `Send`: dropped by the call that took it.
pub(crate) struct Shared<K: Kind> {
    lease: Lease,
    _kind: PhantomData<*const K>,
}

impl<K: Kind> std::ops::Deref for Shared<K>
where
    K::Object: Sync,
{
    type Target = K::Object;
    fn deref(&self) -> &K::Object {
        // SAFETY: the slot holds a `Box<K::Object>` (its kind is `K`, checked when the lease was
        // taken; each kind stores its own object type) until the lease ends, after this borrow;
        // a shared kind's object is `Sync` and only shared references are handed out, so
        // concurrent calls are fine.
        unsafe { &*(self.lease.obj() as *const K::Object) }
    }
}

/// Claims `h` (argument `name`), which must be a live handle of the shared kind `K`.
pub(crate) fn shared<K: Kind>(name: &'static str, h: *const K::C) -> SkResult<Shared<K>>
where
    K::Object: Sync,
{
    let token = h as usize;
    let (lease, _) =
        acquire(token, &[K::info()]).map_err(|m| miss(m, name, token, K::NAME, false))?;
    Ok(Shared {
        lease,
        _kind: PhantomData,
    })
}

/// One of two kinds' objects.
pub(crate) enum Either<A, B> {
    A(A),
    B(B),
}

/// Runs `f` on the object of `h`, a live handle of the exclusive kind `A` or `B` (the two
/// element types of one C type); `wanted` says what was expected ("a biquad cascade").
pub(crate) fn with_either<A: Kind, B: Kind<C = A::C>, R>(
    name: &'static str,
    h: *const A::C,
    wanted: &str,
    f: impl FnOnce(Either<&mut A::Object, &mut B::Object>) -> SkResult<R>,
) -> SkResult<R> {
    const { assert!(A::EXCLUSIVE && B::EXCLUSIVE, "use with_either_shared()") };
    let token = h as usize;
    let (lease, k) =
        acquire(token, &[A::info(), B::info()]).map_err(|m| miss(m, name, token, wanted, false))?;
    let p = lease.obj();
    let e = if ptr::eq(k, A::info()) {
        // SAFETY: as in `with`, for whichever of the two kinds the slot holds.
        Either::A(unsafe { &mut *(p as *mut A::Object) })
    } else {
        // SAFETY: as above.
        Either::B(unsafe { &mut *(p as *mut B::Object) })
    };
    f(e)
}

/// Runs `f` on the object of `h`, a live handle of the shared kind `A` or `B`.
pub(crate) fn with_either_shared<A: Kind, B: Kind<C = A::C>, R>(
    name: &'static str,
    h: *const A::C,
    wanted: &str,
    f: impl FnOnce(Either<&A::Object, &B::Object>) -> SkResult<R>,
) -> SkResult<R>
where
    A::Object: Sync,
    B::Object: Sync,
{
    let token = h as usize;
    let (lease, k) =
        acquire(token, &[A::info(), B::info()]).map_err(|m| miss(m, name, token, wanted, false))?;
    let p = lease.obj();
    let e = if ptr::eq(k, A::info()) {
        // SAFETY: as in `Shared::deref`, for whichever of the two kinds the slot holds.
        Either::A(unsafe { &*(p as *const A::Object) })
    } else {
        // SAFETY: as above.
        Either::B(unsafe { &*(p as *const B::Object) })
    };
    f(e)
}

/// Frees `token` (argument `name`) if it is a live handle of one of the `accept` kinds; NULL is
/// a no-op.
fn free_any(
    name: &'static str,
    token: usize,
    accept: &[&'static KindInfo],
    wanted: &str,
) -> SkResult<()> {
    if token == 0 {
        return Ok(());
    }
    let err = |m| miss(m, name, token, wanted, true);
    let (slot, gen) = slot_of(token).ok_or_else(|| err(Miss::Dead))?;
    let mut s = slot.state.load(Ordering::Acquire);
    loop {
        if s >> STATE_GEN != gen || s & LIVE == 0 {
            return Err(err(Miss::Dead));
        }
        let k = kind_of(slot).ok_or_else(|| err(Miss::Dead))?;
        if !accepted(k, accept) {
            return Err(err(if still_live(slot, gen) {
                Miss::Kind(k)
            } else {
                Miss::Dead
            }));
        }
        if s & USERS != 0 && k.refuse_busy_free {
            return Err(err(Miss::Busy));
        }
        // AcqRel: with no call running, the writes of every earlier call happen before the drop.
        match slot
            .state
            .compare_exchange_weak(s, s & !LIVE, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => {
                if s & USERS == 0 {
                    reclaim(slot, s & !LIVE);
                }
                // else the last running call drops it when it returns
                return Ok(());
            }
            Err(now) => s = now,
        }
    }
}

/// Frees `h` (argument `name`) if it is a live handle of kind `K`; NULL is a no-op.
pub(crate) fn free<K: Kind>(name: &'static str, h: *const K::C) -> SkResult<()> {
    free_any(name, h as usize, &[K::info()], K::NAME)
}

/// Frees `h` if it is a live handle of kind `A` or `B` (`wanted` names both); NULL is a no-op.
pub(crate) fn free_either<A: Kind, B: Kind<C = A::C>>(
    name: &'static str,
    h: *const A::C,
    wanted: &str,
) -> SkResult<()> {
    free_any(name, h as usize, &[A::info(), B::info()], wanted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::SK_ERR_INVALID_HANDLE;
    use std::sync::atomic::AtomicUsize;
    use std::sync::Arc;

    /// Opaque C types of the test kinds.
    struct CA;
    struct CB;

    /// Counts drops of its objects in the shared counter.
    struct Probe(Arc<AtomicUsize>, u32);
    impl Drop for Probe {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    handle_kind!(ExA: Probe as CA, "an exclusive A", exclusive, refuse);
    handle_kind!(ExA2: Probe as CA, "an exclusive A of the other precision", exclusive, refuse);
    handle_kind!(DefB: Probe as CB, "a deferred B", exclusive, defer);
    handle_kind!(ShB: Probe as CB, "a shared B", shared, defer);

    fn probe(v: u32) -> (Probe, Arc<AtomicUsize>) {
        let c = Arc::new(AtomicUsize::new(0));
        (Probe(c.clone(), v), c)
    }

    fn msg(e: SkError) -> String {
        assert_eq!(e.code(), SK_ERR_INVALID_HANDLE);
        e.to_string()
    }

    #[test]
    fn tokens_have_their_shape_and_are_never_reissued() {
        let (p, _) = probe(1);
        let h = register::<ExA>(p).unwrap();
        let t = h as usize;
        assert_eq!(t >> TAG_SHIFT, TAG);
        assert!(t.is_multiple_of(16) && t != 0);
        free::<ExA>("h", h).unwrap();
        // the slot comes back under another generation, so the old token stays dead
        let mut seen = vec![t];
        for i in 0..50 {
            let (p, _) = probe(i);
            let h2 = register::<ExA>(p).unwrap();
            assert!(!seen.contains(&(h2 as usize)));
            seen.push(h2 as usize);
            free::<ExA>("h", h2).unwrap();
        }
        let e = msg(with::<ExA, ()>("h", h, |_| Ok(())).unwrap_err());
        assert!(e.contains("is not a live sigkern handle"), "{e}");
    }

    #[test]
    fn null_freed_double_free_foreign_and_wrong_kind() {
        let (p, drops) = probe(7);
        let h = register::<ExA>(p).unwrap();
        assert_eq!(with::<ExA, _>("h", h, |o| Ok(o.1)).unwrap(), 7);
        // NULL: an error for calls, a no-op for free
        let e = msg(with::<ExA, ()>("h", ptr::null(), |_| Ok(())).unwrap_err());
        assert_eq!(e, "argument h is NULL");
        assert!(free::<ExA>("h", ptr::null()).is_ok());
        // values never issued: no tag, misaligned, an index beyond the table, a wrong generation
        for bogus in [
            0x5EED_1234_5670usize,
            h as usize + 8,
            encode(MAX_SLOTS - 1, 0),
            h as usize ^ (1 << GEN_SHIFT),
        ] {
            let e = msg(with::<ExA, ()>("h", bogus as *const CA, |_| Ok(())).unwrap_err());
            assert!(e.contains("not a live sigkern handle"), "{e}");
            assert!(free::<ExA>("h", bogus as *const CA).is_err());
        }
        // another kind of the same C type, and another C type altogether
        let e = msg(with::<ExA2, ()>("h", h, |_| Ok(())).unwrap_err());
        assert_eq!(
            e,
            "argument h is an exclusive A, not an exclusive A of the other precision"
        );
        let e = msg(free::<ExA2>("h", h).unwrap_err());
        assert!(e.contains("is an exclusive A, not"), "{e}");
        let hb = h as *const CB;
        assert!(with::<DefB, ()>("h", hb, |_| Ok(())).is_err());
        assert!(shared::<ShB>("h", hb).is_err());
        assert!(free::<ShB>("h", hb).is_err());
        assert_eq!(drops.load(Ordering::SeqCst), 0, "a refused free dropped");
        // either kind
        let got = with_either::<ExA2, ExA, _>("h", h, "an A", |e| {
            Ok(matches!(e, Either::B(o) if o.1 == 7))
        });
        assert!(got.unwrap());
        // freed, then double free
        free_either::<ExA2, ExA>("h", h, "an A").unwrap();
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        let e = msg(free::<ExA>("h", h).unwrap_err());
        assert!(e.contains("not a live sigkern handle"), "{e}");
        assert!(with::<ExA, ()>("h", h, |_| Ok(())).is_err());
        assert_eq!(drops.load(Ordering::SeqCst), 1);
    }

    /// The inline claim covers the common case only; a shared handle already in use, a handle
    /// of the second accepted kind and every miss take the full rules and get the same answers.
    #[test]
    fn fast_and_slow_claims_agree() {
        let (p, drops) = probe(3);
        let hs = register::<ShB>(p).unwrap();
        {
            // a shared handle claimed while claimed (state has a running call: the slow path)
            let a = shared::<ShB>("h", hs).unwrap();
            let b = shared::<ShB>("h", hs).unwrap();
            assert_eq!(a.1 + b.1, 6);
            let (slot, _) = slot_of(hs as usize).unwrap();
            assert_eq!(slot.state.load(Ordering::SeqCst) & USERS, 2);
        }
        let (slot, gen) = slot_of(hs as usize).unwrap();
        assert_eq!(slot.state.load(Ordering::SeqCst), (gen << STATE_GEN) | LIVE);
        // an exclusive handle of the second accepted kind, claimed inline
        let (p, _) = probe(4);
        let ha = register::<ExA>(p).unwrap();
        let got = with_either::<ExA2, ExA, _>("h", ha, "an A", |e| {
            Ok(matches!(e, Either::B(o) if o.1 == 4))
        });
        assert!(got.unwrap());
        // a kind that is not accepted, a dead generation, a foreign pointer: refused
        let e = msg(with::<ExA2, ()>("h", ha, |_| Ok(())).unwrap_err());
        assert!(e.contains("is an exclusive A, not"), "{e}");
        let stale = (hs as usize ^ (1 << GEN_SHIFT)) as *const CB;
        let Err(e) = shared::<ShB>("h", stale) else {
            panic!("a stale token was claimed")
        };
        let e = msg(e);
        assert!(e.contains("not a live sigkern handle"), "{e}");
        let local = 0u64;
        let e =
            msg(with::<ExA, ()>("h", &local as *const u64 as *const CA, |_| Ok(())).unwrap_err());
        assert!(e.contains("not a live sigkern handle"), "{e}");
        free::<ShB>("h", hs).unwrap();
        free::<ExA>("h", ha).unwrap();
        assert_eq!(drops.load(Ordering::SeqCst), 1);
    }

    /// Two threads in a call with one exclusive handle: the second is told "in use".
    #[test]
    fn an_exclusive_handle_in_use_is_refused_not_raced() {
        let (p, drops) = probe(1);
        let h = register::<ExA>(p).unwrap() as usize;
        let (tx, rx) = std::sync::mpsc::channel();
        let (tx2, rx2) = std::sync::mpsc::channel::<()>();
        let t = std::thread::spawn(move || {
            with::<ExA, _>("h", h as *const CA, |o| {
                o.1 += 1;
                tx.send(()).unwrap();
                rx2.recv().unwrap();
                Ok(())
            })
            .unwrap()
        });
        rx.recv().unwrap();
        let e = msg(with::<ExA, ()>("h", h as *const CA, |_| Ok(())).unwrap_err());
        assert!(e.contains("in use by another thread"), "{e}");
        // a refusing kind is not freed while in use
        let e = msg(free::<ExA>("h", h as *const CA).unwrap_err());
        assert!(e.contains("free it after that call returns"), "{e}");
        tx2.send(()).unwrap();
        t.join().unwrap();
        assert_eq!(with::<ExA, _>("h", h as *const CA, |o| Ok(o.1)).unwrap(), 2);
        free::<ExA>("h", h as *const CA).unwrap();
        assert_eq!(drops.load(Ordering::SeqCst), 1);
    }

    /// A deferring kind freed while a call runs: dead at once, dropped when the call returns.
    #[test]
    fn a_handle_freed_during_a_call_is_dropped_when_the_call_returns() {
        for is_shared in [false, true] {
            let (p, drops) = probe(5);
            let h = if is_shared {
                register::<ShB>(p).unwrap() as usize
            } else {
                register::<DefB>(p).unwrap() as usize
            };
            let (tx, rx) = std::sync::mpsc::channel();
            let (tx2, rx2) = std::sync::mpsc::channel::<()>();
            let d2 = drops.clone();
            let t = std::thread::spawn(move || {
                let body = |v: u32| {
                    tx.send(()).unwrap();
                    rx2.recv().unwrap();
                    // the object is still here although the handle was freed
                    assert_eq!(v, 5);
                    assert_eq!(d2.load(Ordering::SeqCst), 0);
                    Ok(())
                };
                if is_shared {
                    let o = shared::<ShB>("h", h as *const CB).unwrap();
                    body(o.1).unwrap()
                } else {
                    with::<DefB, _>("h", h as *const CB, |o| body(o.1)).unwrap()
                }
            });
            rx.recv().unwrap();
            if is_shared {
                // any number of calls at once
                assert_eq!(shared::<ShB>("h", h as *const CB).unwrap().1, 5);
                free::<ShB>("h", h as *const CB).unwrap();
                assert!(shared::<ShB>("h", h as *const CB).is_err());
            } else {
                free::<DefB>("h", h as *const CB).unwrap();
                assert!(with::<DefB, ()>("h", h as *const CB, |_| Ok(())).is_err());
            }
            assert_eq!(drops.load(Ordering::SeqCst), 0);
            assert!(free::<DefB>("h", h as *const CB).is_err()); // double free
            tx2.send(()).unwrap();
            t.join().unwrap();
            assert_eq!(drops.load(Ordering::SeqCst), 1);
        }
    }

    /// Many threads hammer lookups, frees and creations; every object is dropped exactly once
    /// and never while a call holds it.
    #[test]
    fn concurrent_calls_and_frees_drop_each_object_once() {
        const N: usize = 64;
        let drops = Arc::new(AtomicUsize::new(0));
        let hs: Vec<usize> = (0..N)
            .map(|i| register::<ShB>(Probe(drops.clone(), i as u32)).unwrap() as usize)
            .collect();
        let hs = Arc::new(hs);
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let hs = hs.clone();
                std::thread::spawn(move || {
                    let mut ok = 0;
                    for r in 0..2000 {
                        let i = (r * 7 + t) % N;
                        let h = hs[i] as *const CB;
                        if t == 0 && r % 31 == 0 {
                            let _ = free::<ShB>("h", h);
                        } else if let Ok(v) = shared::<ShB>("h", h).map(|o| o.1) {
                            assert_eq!(v as usize, i);
                            ok += 1;
                        }
                    }
                    ok
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let mut freed_now = 0;
        for &h in hs.iter() {
            if free::<ShB>("h", h as *const CB).is_ok() {
                freed_now += 1;
            }
        }
        assert!(freed_now < N);
        assert_eq!(drops.load(Ordering::SeqCst), N);
    }

    #[test]
    fn chunks_cover_the_index_space() {
        assert_eq!(locate(0), (0, 0));
        assert_eq!(locate(63), (0, 63));
        assert_eq!(locate(64), (1, 0));
        assert_eq!(locate(191), (1, 127));
        assert_eq!(locate(192), (2, 0));
        let (c, off) = locate(MAX_SLOTS - 1);
        assert!(c < N_CHUNKS && off < chunk_len(c));
        for (i, g) in [(0, 0), (5, 3), (MAX_SLOTS - 1, GEN_MAX)] {
            assert_eq!(decode(encode(i, g)), Some((i, g)));
        }
    }

    #[test]
    fn an_exhausted_slot_is_retired() {
        let (p, _) = probe(1);
        let h = register::<ExA>(p).unwrap();
        let (slot, gen) = slot_of(h as usize).unwrap();
        // pretend the slot's generations are used up
        slot.state
            .store((GEN_MAX << STATE_GEN) | LIVE, Ordering::SeqCst);
        let old = encode(slot.index, gen);
        let last = encode(slot.index, GEN_MAX) as *const CA;
        free::<ExA>("h", last).unwrap();
        assert!(!alloc().vacant.contains(&slot.index));
        assert!(with::<ExA, ()>("h", last, |_| Ok(())).is_err());
        assert!(with::<ExA, ()>("h", old as *const CA, |_| Ok(())).is_err());
    }
}
