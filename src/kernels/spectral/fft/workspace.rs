//! The per-thread [`Workspace`] of one element type (its buffers, including the lane buffers of
//! the batched real transforms, [`LaneWork`] of [`Lanes`]), the type [`super::FftFloat`] lends
//! out.

use super::Complex;

/// Per-thread scratch buffers of one element type.
pub struct Workspace<T> {
    pub real: Vec<T>,
    pub cplx: Vec<Complex<T>>,
    pub cplx2: Vec<Complex<T>>,
    /// The lane buffers of the batched real transforms ([`super::RowLanes`]).
    pub(crate) lanes: LaneWork<T>,
}

impl<T> Default for Workspace<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Workspace<T> {
    /// Empty buffers (const, for the thread-local slot).
    pub(super) const fn new() -> Self {
        Workspace {
            real: Vec::new(),
            cplx: Vec::new(),
            cplx2: Vec::new(),
            lanes: LaneWork::new(),
        }
    }

    /// Bytes held.
    pub(super) fn bytes(&self) -> usize {
        self.real.capacity() * std::mem::size_of::<T>()
            + (self.cplx.capacity() + self.cplx2.capacity()) * std::mem::size_of::<Complex<T>>()
            + self.lanes.bytes()
    }
}

/// Workspaces above this many bytes are not cached after the call.
pub(super) const MAX_CACHED_BYTES: usize = 64 << 20;

/// One thread's buffers for [`super::RowLanes`]: `n` lanes for the data and `n` for the passes'
/// scratch (one of the two vectors is used, by the lane width of `T`).
pub struct LaneWork<T> {
    pub(super) l16: Vec<Lanes<T, 16>>,
    pub(super) l8: Vec<Lanes<T, 8>>,
}

impl<T> Default for LaneWork<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> LaneWork<T> {
    /// Empty buffers (const, for a thread-local initialiser).
    pub(crate) const fn new() -> Self {
        LaneWork {
            l16: Vec::new(),
            l8: Vec::new(),
        }
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> usize {
        self.l16.capacity() * std::mem::size_of::<Lanes<T, 16>>()
            + self.l8.capacity() * std::mem::size_of::<Lanes<T, 8>>()
    }
}

/// `L` values of `T` operated on lane by lane (plain multiplies and adds, no FMA): the real
/// passes on `Lanes` run `L` transforms at once, each lane bit for bit the scalar transform.
/// Aligned to 64 bytes so a lane group is one cache line (16 `f32`, 8 `f64`).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(crate) struct Lanes<T, const L: usize>(pub(crate) [T; L]);
