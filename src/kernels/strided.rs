//! Strided views and the strided kernels: copy, fill, scale, add, mul, axpy, clip and the
//! reductions sum, min, max, peak, rms, dot on elements `first + i·stride` of a slice.
//!
//! A Rust slice cannot run backwards or skip elements, so a strided operand is a safe view type:
//! [`StridedRef`] / [`StridedMut`] wrap a *span* slice (every element the view can touch, and
//! possibly more) plus the span index of logical element 0 and a signed stride. The constructor
//! proves that every logical element lies inside the span, so the kernels never index out of
//! bounds and need no `unsafe`. The FFI layer builds the span over the caller's address range
//! (for a negative stride the caller's pointer is logical element 0 and addresses go down, so it
//! is the *last* element of the span).
//!
//! Strategy. A view whose stride is 1 is handed to the contiguous kernel directly (a reversed
//! unit-stride destination with reversed unit-stride inputs too, for the elementwise kernels).
//! Everything else is processed in blocks: the operands' block is *gathered* into a small stack
//! buffer (`step_by` iterators, no bounds checks, no allocation), the contiguous SIMD kernel of
//! [`super::elementwise`] / [`super::reduce`] runs on it at the requested level, and the result
//! is *scattered* back. Consequences worth knowing:
//! - elementwise results are bit-identical to the contiguous kernels (and to numpy on a copy);
//! - min, max and peak equal the contiguous results on a copy exactly;
//! - the sum reads negative strides upwards (the element set does not depend on the direction):
//!   strides ±1 are the contiguous sum of the elements in address order, strides 2…4 have
//!   in-place fixed-stride kernels, others gather blocks; the blocks are combined pairwise in
//!   `f64` as in the contiguous kernel, within its documented error bound but not in its bits;
//! - dot and the sum of squares run the contiguous pairwise kernel on gathered chunks (512
//!   elements on the stack, or 4096 in one heap buffer for long views) and combine the chunk
//!   results pairwise in `f64`: the chunks' blocks are the contiguous kernel's, so the results
//!   differ from it only by `log2(n / chunk)` rounding steps in `f64`, not in the same bits.

use super::elementwise::{binary_at, unary_at, BinOp, UnOp};
use super::reduce::{self, Extreme, Max, Min, Peak};
use super::{Float, Src};
use crate::simd::{multiversion, Level};
use std::mem::size_of;

/// Elements per gather/scatter block of the elementwise kernels.
const EW_BLOCK: usize = 512;

/// Below this a sum of squares has lost precision to underflow (the value `reduce::rms` uses).
const RMS_TINY: f64 = f64::MIN_POSITIVE * 18446744073709551616.0; // 2^-958

/// Index of logical element `i` in the span (valid for `i < len`, guaranteed by construction).
#[inline(always)]
fn at(first: usize, stride: isize, i: usize) -> usize {
    (first as isize + i as isize * stride) as usize
}

/// Whether `first + i·stride` lies in `0..span_len` for every `i < len`.
fn fits(span_len: usize, first: usize, stride: isize, len: usize) -> bool {
    if len == 0 {
        return true;
    }
    let last = first as i128 + (len as i128 - 1) * stride as i128;
    first < span_len && last >= 0 && last < span_len as i128
}

/// `out[i] = src[i·S]` (`src` holds at least `(out.len()−1)·S + 1` elements).
#[inline(always)]
fn gather_pos<T: Copy, const S: usize>(src: &[T], out: &mut [T]) {
    let n = out.len();
    let (chunks, rem) = src.as_chunks::<S>();
    let full = chunks.len().min(n);
    for (o, c) in out[..full].iter_mut().zip(chunks) {
        *o = c[0];
    }
    if full < n {
        out[full] = rem[0];
    }
}

/// `out[i] = src[last − i·S]` with `last = src.len() − 1`.
#[inline(always)]
fn gather_neg<T: Copy, const S: usize>(src: &[T], out: &mut [T]) {
    let n = out.len();
    let (rem, chunks) = src.as_rchunks::<S>();
    let full = chunks.len().min(n);
    for (o, c) in out[..full].iter_mut().zip(chunks.iter().rev()) {
        *o = c[S - 1];
    }
    if full < n {
        out[full] = rem[rem.len() - 1];
    }
}

/// `dst[i·S] = src[i]`.
#[inline(always)]
fn scatter_pos<T: Copy, const S: usize>(src: &[T], dst: &mut [T]) {
    let n = src.len();
    let (chunks, rem) = dst.as_chunks_mut::<S>();
    let full = chunks.len().min(n);
    for (c, &v) in chunks.iter_mut().zip(&src[..full]) {
        c[0] = v;
    }
    if full < n {
        rem[0] = src[full];
    }
}

/// `dst[last − i·S] = src[i]`.
#[inline(always)]
fn scatter_neg<T: Copy, const S: usize>(src: &[T], dst: &mut [T]) {
    let n = src.len();
    let (rem, chunks) = dst.as_rchunks_mut::<S>();
    let full = chunks.len().min(n);
    for (c, &v) in chunks.iter_mut().rev().zip(&src[..full]) {
        c[S - 1] = v;
    }
    if full < n {
        let r = rem.len() - 1;
        rem[r] = src[full];
    }
}

/// Copies logical elements `start..start + out.len()` of a view into `out`. Strides ±1…±4 use
/// fixed-stride loops (vectorised loads and shuffles), others a `step_by` walk.
#[inline(always)]
fn gather_from<T: Copy>(span: &[T], first: usize, stride: isize, start: usize, out: &mut [T]) {
    if out.is_empty() {
        return;
    }
    let base = at(first, stride, start);
    let n = out.len();
    match stride {
        1 => out.copy_from_slice(&span[base..base + n]),
        0 => out.fill(span[base]),
        -1 => {
            for (o, &v) in out.iter_mut().zip(span[base + 1 - n..=base].iter().rev()) {
                *o = v;
            }
        }
        2 => gather_pos::<T, 2>(&span[base..], out),
        3 => gather_pos::<T, 3>(&span[base..], out),
        4 => gather_pos::<T, 4>(&span[base..], out),
        -2 => gather_neg::<T, 2>(&span[..=base], out),
        -3 => gather_neg::<T, 3>(&span[..=base], out),
        -4 => gather_neg::<T, 4>(&span[..=base], out),
        s if s > 0 => {
            for (o, &v) in out.iter_mut().zip(span[base..].iter().step_by(s as usize)) {
                *o = v;
            }
        }
        s => {
            let step = s.unsigned_abs();
            for (o, &v) in out.iter_mut().zip(span[..=base].iter().rev().step_by(step)) {
                *o = v;
            }
        }
    }
}

/// A read-only strided view: logical element `i < len` is `span[first + i·stride]`.
#[derive(Clone, Copy, Debug)]
pub struct StridedRef<'a, T> {
    span: &'a [T],
    first: usize,
    stride: isize,
    len: usize,
}

impl<'a, T: Copy> StridedRef<'a, T> {
    /// The view of `len` elements `span[first + i·stride]`, or `None` if any lies outside `span`.
    pub fn new(span: &'a [T], first: usize, stride: isize, len: usize) -> Option<Self> {
        fits(span.len(), first, stride, len).then_some(StridedRef {
            span,
            first,
            stride,
            len,
        })
    }
    /// A whole slice as a unit-stride view.
    pub fn contiguous(s: &'a [T]) -> Self {
        StridedRef {
            span: s,
            first: 0,
            stride: 1,
            len: s.len(),
        }
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn stride(&self) -> isize {
        self.stride
    }
    /// Logical element `i` (panics if `i >= len`).
    pub fn get(&self, i: usize) -> T {
        assert!(i < self.len, "strided index {i} out of range {}", self.len);
        self.span[at(self.first, self.stride, i)]
    }
    /// The elements as a plain slice when the stride is 1 (or there is at most one element).
    #[inline(always)]
    pub fn as_unit(&self) -> Option<&'a [T]> {
        if self.len == 0 {
            return Some(&[]);
        }
        (self.stride == 1 || self.len == 1).then(|| &self.span[self.first..self.first + self.len])
    }
    /// The same elements as a view with a non-negative stride (in reverse logical order when the
    /// stride is negative).
    #[inline(always)]
    pub fn upward(&self) -> Self {
        if self.stride >= 0 || self.len == 0 {
            return *self;
        }
        let step = self.stride.unsigned_abs();
        StridedRef {
            span: self.span,
            first: self.first - (self.len - 1) * step,
            stride: step as isize,
            len: self.len,
        }
    }
    /// For stride −1: the elements as a slice in *reverse* logical order.
    pub fn as_reversed_unit(&self) -> Option<&'a [T]> {
        (self.stride == -1 && self.len > 0)
            .then(|| &self.span[self.first + 1 - self.len..=self.first])
    }
    /// Copies logical elements `start..start + out.len()` into `out`.
    #[inline(always)]
    pub fn gather(&self, start: usize, out: &mut [T]) {
        assert!(start + out.len() <= self.len, "gather past the view");
        gather_from(self.span, self.first, self.stride, start, out)
    }
    /// Logical elements `start..end` as a contiguous slice: borrowed when the stride is 1,
    /// otherwise gathered into `buf`.
    #[inline(always)]
    fn block<'b>(&self, start: usize, end: usize, buf: &'b mut [T]) -> &'b [T]
    where
        'a: 'b,
    {
        match self.as_unit() {
            Some(s) => &s[start..end],
            None => {
                let b = &mut buf[..end - start];
                self.gather(start, b);
                b
            }
        }
    }
    /// The elements in logical order (allocates; for tests and error messages).
    pub fn to_vec(&self) -> Vec<T> {
        (0..self.len).map(|i| self.get(i)).collect()
    }
}

/// A writable strided view: logical element `i < len` is `span[first + i·stride]`.
#[derive(Debug)]
pub struct StridedMut<'a, T> {
    span: &'a mut [T],
    first: usize,
    stride: isize,
    len: usize,
}

impl<'a, T: Copy> StridedMut<'a, T> {
    /// The view of `len` elements `span[first + i·stride]`, or `None` if any lies outside `span`
    /// or the stride is 0 with more than one element (two logical elements in one place).
    pub fn new(span: &'a mut [T], first: usize, stride: isize, len: usize) -> Option<Self> {
        (fits(span.len(), first, stride, len) && (stride != 0 || len <= 1)).then_some(StridedMut {
            span,
            first,
            stride,
            len,
        })
    }
    /// A whole slice as a unit-stride view.
    pub fn contiguous(s: &'a mut [T]) -> Self {
        let len = s.len();
        StridedMut {
            span: s,
            first: 0,
            stride: 1,
            len,
        }
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn stride(&self) -> isize {
        self.stride
    }
    /// Logical element `i` (panics if `i >= len`).
    pub fn get(&self, i: usize) -> T {
        assert!(i < self.len, "strided index {i} out of range {}", self.len);
        self.span[at(self.first, self.stride, i)]
    }
    /// The read-only view of the same elements.
    pub fn as_ref(&self) -> StridedRef<'_, T> {
        StridedRef {
            span: self.span,
            first: self.first,
            stride: self.stride,
            len: self.len,
        }
    }
    /// The elements as a plain slice when the stride is 1 (or there is at most one element).
    #[inline(always)]
    pub fn as_unit_mut(&mut self) -> Option<&mut [T]> {
        if self.len == 0 {
            return Some(&mut []);
        }
        if self.stride == 1 || self.len == 1 {
            Some(&mut self.span[self.first..self.first + self.len])
        } else {
            None
        }
    }
    /// For stride −1: the elements as a slice in *reverse* logical order.
    pub fn as_reversed_unit_mut(&mut self) -> Option<&mut [T]> {
        if self.stride == -1 && self.len > 0 {
            Some(&mut self.span[self.first + 1 - self.len..=self.first])
        } else {
            None
        }
    }
    /// Copies logical elements `start..start + out.len()` into `out`.
    #[inline(always)]
    pub fn gather(&self, start: usize, out: &mut [T]) {
        assert!(start + out.len() <= self.len, "gather past the view");
        gather_from(self.span, self.first, self.stride, start, out)
    }
    /// Writes `src` to logical elements `start..start + src.len()`.
    #[inline(always)]
    pub fn scatter(&mut self, start: usize, src: &[T]) {
        assert!(start + src.len() <= self.len, "scatter past the view");
        if src.is_empty() {
            return;
        }
        let base = at(self.first, self.stride, start);
        let n = src.len();
        match self.stride {
            1 => self.span[base..base + n].copy_from_slice(src),
            // stride 0 holds at most one element (constructor)
            0 => self.span[base] = src[0],
            -1 => {
                for (o, &v) in self.span[base + 1 - n..=base].iter_mut().rev().zip(src) {
                    *o = v;
                }
            }
            2 => scatter_pos::<T, 2>(src, &mut self.span[base..]),
            3 => scatter_pos::<T, 3>(src, &mut self.span[base..]),
            4 => scatter_pos::<T, 4>(src, &mut self.span[base..]),
            -2 => scatter_neg::<T, 2>(src, &mut self.span[..=base]),
            -3 => scatter_neg::<T, 3>(src, &mut self.span[..=base]),
            -4 => scatter_neg::<T, 4>(src, &mut self.span[..=base]),
            s if s > 0 => {
                for (o, &v) in self.span[base..].iter_mut().step_by(s as usize).zip(src) {
                    *o = v;
                }
            }
            s => {
                let step = s.unsigned_abs();
                for (o, &v) in self.span[..=base].iter_mut().rev().step_by(step).zip(src) {
                    *o = v;
                }
            }
        }
    }
    /// `v = f(v)` for every element, in place, in one pass (no gather/scatter). Only the view's
    /// elements are read and written (never the ones between them: another thread may own
    /// those, e.g. the other channel of an interleaved buffer).
    #[inline(always)]
    pub fn map_in_place(&mut self, f: impl Fn(T) -> T) {
        if self.len == 0 {
            return;
        }
        // The element set does not depend on the direction: walk it upwards.
        let step = self.stride.unsigned_abs();
        let lo = if self.stride < 0 {
            self.first - (self.len - 1) * step
        } else {
            self.first
        };
        if step == 0 {
            self.span[lo] = f(self.span[lo]);
            return;
        }
        let region = &mut self.span[lo..lo + (self.len - 1) * step + 1];
        #[inline(always)]
        fn walk<T: Copy, const S: usize>(r: &mut [T], f: impl Fn(T) -> T) {
            for o in r.iter_mut().step_by(S) {
                *o = f(*o);
            }
        }
        match step {
            1 => walk::<T, 1>(region, f),
            2 => walk::<T, 2>(region, f),
            3 => walk::<T, 3>(region, f),
            4 => walk::<T, 4>(region, f),
            s => {
                for o in region.iter_mut().step_by(s) {
                    *o = f(*o);
                }
            }
        }
    }

    /// Sets every element to `value`.
    pub fn fill(&mut self, value: T) {
        if self.len == 0 {
            return;
        }
        let (first, stride, len) = (self.first, self.stride, self.len);
        match stride {
            1 => self.span[first..first + len].fill(value),
            0 => self.span[first] = value,
            s if s > 0 => {
                for o in self.span[first..].iter_mut().step_by(s as usize).take(len) {
                    *o = value;
                }
            }
            s => {
                let step = s.unsigned_abs();
                for o in self.span[..=first].iter_mut().rev().step_by(step).take(len) {
                    *o = value;
                }
            }
        }
    }
}

/// An input operand of a strided elementwise kernel: its own view, or the destination itself
/// (same pointer and stride: exact in-place aliasing).
#[derive(Clone, Copy, Debug)]
pub enum SSrc<'a, T> {
    View(StridedRef<'a, T>),
    Dst,
}

impl<'a, T: Copy> SSrc<'a, T> {
    fn check_len(&self, n: usize) {
        if let SSrc::View(v) = self {
            assert_eq!(v.len(), n, "operand length differs from output length");
        }
    }
    fn unit(&self) -> Option<Src<'_, T>> {
        match self {
            SSrc::Dst => Some(Src::Dst),
            SSrc::View(v) => v.as_unit().map(Src::Slice),
        }
    }
    fn reversed_unit(&self) -> Option<Src<'_, T>> {
        match self {
            SSrc::Dst => Some(Src::Dst),
            SSrc::View(v) => v.as_reversed_unit().map(Src::Slice),
        }
    }
    /// Logical `start..end` of this operand as a slice: borrowed from a unit-stride view,
    /// otherwise gathered into `buf` (from `y` when the operand is `Dst`).
    #[inline(always)]
    fn block<'s>(
        &self,
        y: &StridedMut<'_, T>,
        start: usize,
        end: usize,
        buf: &'s mut [T],
    ) -> &'s [T]
    where
        'a: 's,
    {
        match self {
            SSrc::Dst => {
                let b = &mut buf[..end - start];
                y.gather(start, b);
                b
            }
            SSrc::View(v) => v.block(start, end, buf),
        }
    }
}

/// `y[i] = op(x[i])` on strided operands, at `level`.
pub fn unary_strided<T: Float, O: UnOp<T>>(
    level: Level,
    x: SSrc<'_, T>,
    y: &mut StridedMut<'_, T>,
    op: O,
) {
    unary_mv(level, x, y, op, level)
}

#[inline(always)]
fn unary_body<T: Float, O: UnOp<T>>(
    x: SSrc<'_, T>,
    y: &mut StridedMut<'_, T>,
    op: O,
    level: Level,
) {
    let n = y.len();
    x.check_len(n);
    if let (Some(xs), Some(ys)) = (x.unit(), y.as_unit_mut()) {
        return unary_at(level, xs, ys, op);
    }
    if let (Some(xs), Some(ys)) = (x.reversed_unit(), y.as_reversed_unit_mut()) {
        // elementwise: processing both in reverse address order is the same operation
        return unary_at(level, xs, ys, op);
    }
    if let SSrc::Dst = x {
        // in place on one strided view: a single read-modify-write pass beats gather/scatter
        // (measured 2× on x[::2] *= a); a function of its own so its loop is compiled alone
        return map_mv(level, y, op);
    }
    let y_unit = y.stride() == 1;
    let mut bx = [T::ZERO; EW_BLOCK];
    let mut by = [T::ZERO; EW_BLOCK];
    let mut start = 0;
    while start < n {
        let m = (n - start).min(EW_BLOCK);
        let xs = x.block(y, start, start + m, &mut bx);
        if y_unit {
            let ys = y.as_unit_mut().expect("unit stride");
            unary_at(level, Src::Slice(xs), &mut ys[start..start + m], op);
        } else {
            let t = &mut by[..m];
            unary_at(level, Src::Slice(xs), t, op);
            y.scatter(start, t);
        }
        start += m;
    }
}

/// `y[i] = op(a[i], b[i])` on strided operands, at `level`.
pub fn binary_strided<T: Float, O: BinOp<T>>(
    level: Level,
    a: SSrc<'_, T>,
    b: SSrc<'_, T>,
    y: &mut StridedMut<'_, T>,
    op: O,
) {
    binary_mv(level, a, b, y, op, level)
}

#[inline(always)]
fn binary_body<T: Float, O: BinOp<T>>(
    a: SSrc<'_, T>,
    b: SSrc<'_, T>,
    y: &mut StridedMut<'_, T>,
    op: O,
    level: Level,
) {
    let n = y.len();
    a.check_len(n);
    b.check_len(n);
    if let (Some(av), Some(bv), Some(ys)) = (a.unit(), b.unit(), y.as_unit_mut()) {
        return binary_at(level, av, bv, ys, op);
    }
    if let (Some(av), Some(bv), Some(ys)) = (
        a.reversed_unit(),
        b.reversed_unit(),
        y.as_reversed_unit_mut(),
    ) {
        return binary_at(level, av, bv, ys, op);
    }
    let y_unit = y.stride() == 1;
    let mut ba = [T::ZERO; EW_BLOCK];
    let mut bb = [T::ZERO; EW_BLOCK];
    let mut by = [T::ZERO; EW_BLOCK];
    let mut start = 0;
    while start < n {
        let m = (n - start).min(EW_BLOCK);
        let sa = a.block(y, start, start + m, &mut ba);
        let sb = b.block(y, start, start + m, &mut bb);
        if y_unit {
            let ys = y.as_unit_mut().expect("unit stride");
            binary_at(
                level,
                Src::Slice(sa),
                Src::Slice(sb),
                &mut ys[start..start + m],
                op,
            );
        } else {
            let t = &mut by[..m];
            binary_at(level, Src::Slice(sa), Src::Slice(sb), t, op);
            y.scatter(start, t);
        }
        start += m;
    }
}

/// `y[i] = x[i]`: a [`UnOp`] for the strided copy.
#[derive(Clone, Copy)]
pub struct CopyOp;
impl<T: Float> UnOp<T> for CopyOp {
    #[inline(always)]
    fn apply(&self, x: T) -> T {
        x
    }
}

/// Pairwise combination of per-chunk `f64` results: a binary counter of partial sums (chunk `k`
/// is merged exactly as a balanced tree would merge it). A struct with inlined methods, not a
/// closure, so it compiles inside each multiversioned body.
struct Combine {
    stack: [f64; 64],
    depth: usize,
    count: usize,
}

impl Combine {
    #[inline(always)]
    fn new() -> Self {
        Combine {
            stack: [0.0; 64],
            depth: 0,
            count: 0,
        }
    }
    #[inline(always)]
    fn push(&mut self, mut v: f64) {
        self.count += 1;
        let mut m = self.count;
        while m & 1 == 0 {
            self.depth -= 1;
            v += self.stack[self.depth];
            m >>= 1;
        }
        self.stack[self.depth] = v;
        self.depth += 1;
    }
    #[inline(always)]
    fn finish(&self) -> f64 {
        let mut t = 0.0;
        for &v in self.stack[..self.depth].iter().rev() {
            t += v;
        }
        t
    }
}

/// Elements per gathered chunk of the reductions: on the stack for short views, on the heap for
/// long ones (so the contiguous kernel's per-call setup is amortised without a large stack frame).
const RED_SMALL: usize = 512;
const RED_LARGE: usize = 4096;

/// Runs `f` on consecutive contiguous chunks of the view (borrowed when unit stride, gathered
/// otherwise) and combines the results pairwise.
#[inline(always)]
fn chunked<T: Float>(x: StridedRef<'_, T>, mut f: impl FnMut(&[T]) -> f64) -> f64 {
    if let Some(s) = x.as_unit() {
        return f(s);
    }
    let n = x.len();
    let mut small = [T::ZERO; RED_SMALL];
    let mut heap: Vec<T> = Vec::new();
    let buf: &mut [T] = if n > RED_SMALL && heap.try_reserve_exact(RED_LARGE.min(n)).is_ok() {
        heap.resize(RED_LARGE.min(n), T::ZERO);
        &mut heap
    } else {
        &mut small
    };
    let step = buf.len();
    let mut c = Combine::new();
    let mut start = 0;
    while start < n {
        let end = (start + step).min(n);
        c.push(f(x.block(start, end, buf)));
        start = end;
    }
    c.finish()
}

/// Lanes of the fixed-stride sum kernel [`FixedSum`]: 32 accumulators of `T` (16 terms each per
/// 512-element block). Measured here against the contiguous kernel's 64 lanes on the same
/// strided loads: fewer, longer-running lanes keep the fixed-stride loads and shuffles cheaper
/// (`benches/ab_builds.py --only "sum x["`).
const FIXED_LANES: usize = 32;

/// The strided sum's blocks for a view read upwards with a fixed stride `S` (`span[i·S]`,
/// `i < n`), read in place: lane `j` adds elements `32·c + j` of the block in the order of `c`
/// (16 per full block), a tail goes to the first lanes, a last run that would read past the span
/// goes element by element; the 32 lanes are reduced as a tree to [`reduce::OUT`] in `T`, then
/// combined in `f64` by `reduce::pairwise`. Error per block: at most 15 roundings in a lane and
/// 2 tree levels in `T` (17 units of `T`'s roundoff relative to the block's `Σ|x|`), within the
/// contiguous sum's documented bound.
struct FixedSum<'a, T, const S: usize> {
    span: &'a [T],
    n: usize,
}

impl<T: Float, const S: usize> reduce::Blocks for FixedSum<'_, T, S> {
    /// One stream: the fixed-stride loads already spread over `S` times the cache lines of a
    /// contiguous block, and four lockstep streams of them measured slower than one.
    const SPLIT: bool = false;
    /// One block at a time: four inlined block bodies in a row measured several times slower
    /// at the AVX2 level (their 32-lane accumulators and shuffles no longer fit the registers).
    const GROUPED: bool = false;
    #[inline(always)]
    fn len(&self) -> usize {
        self.n
    }
    #[inline(always)]
    fn block(&mut self, r: std::ops::Range<usize>) -> reduce::Lanes {
        const L: usize = FIXED_LANES;
        // An opaque length keeps the block a rolled loop over its 32-lane steps: with the
        // constant block length, LLVM unrolled the whole block at the AVX2 level, which was
        // several times slower there.
        let m = std::hint::black_box(r.len());
        let full = m / L;
        let (ch, _) = self.span[r.start * S..].as_chunks::<S>();
        let fast = full.min(ch.len() / L);
        let mut acc = [T::ZERO; L];
        for sub in ch[..fast * L].chunks_exact(L) {
            for j in 0..L {
                acc[j] = acc[j] + sub[j][0];
            }
        }
        let mut start = r.start + fast * L;
        while start < r.end {
            let cnt = (r.end - start).min(L);
            add_to_lanes(&mut acc, cnt, |j| self.span[(start + j) * S]);
            start += cnt;
        }
        fixed_out(acc)
    }
}

/// [`FIXED_LANES`] lanes reduced as a tree to [`reduce::OUT`] in `T`, then widened to `f64`.
#[inline(always)]
fn fixed_out<T: Float>(mut acc: [T; FIXED_LANES]) -> reduce::Lanes {
    let mut w = FIXED_LANES / 2;
    while w >= reduce::OUT {
        for j in 0..w {
            acc[j] = acc[j] + acc[j + w];
        }
        w /= 2;
    }
    let mut out = [0.0; reduce::OUT];
    for j in 0..reduce::OUT {
        out[j] = acc[j].to_f64();
    }
    out
}

/// Adds `get(j)` to lane `j` for `j < cnt` (`cnt <= FIXED_LANES`): the elements go into a lane
/// vector padded with `−0.0`, which is added whole. `v + (−0.0)` is `v` for every `v` (`+0.0`
/// and NaN included), so the other lanes keep their bits, and the lanes are never indexed by a
/// run-time value (they stay in registers).
#[inline(always)]
fn add_to_lanes<T: Float>(acc: &mut [T; FIXED_LANES], cnt: usize, get: impl Fn(usize) -> T) {
    let mut t = [-T::ZERO; FIXED_LANES];
    for (j, v) in t.iter_mut().enumerate().take(cnt) {
        *v = get(j);
    }
    for j in 0..FIXED_LANES {
        acc[j] = acc[j] + t[j];
    }
}

/// The strided sum's blocks at stride `+2` for `f32`, read in place with 128 accumulators: each
/// run of 128 consecutive span elements is added into 128 lanes by plain contiguous vector adds,
/// so lane `2·j` adds the elements `64·c + j` of the block (the odd lanes see the elements
/// between them and are dropped): the contiguous kernel's lanes. A tail, or a last run that
/// would read past the span, goes element by element. Faster than [`FixedSum`] at this stride
/// for `f32` (`benches/ab_builds.py --only "sum x["`).
struct Wide2Sum<'a, T> {
    x: StridedRef<'a, T>,
}

impl<T: Float> reduce::Blocks for Wide2Sum<'_, T> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.x.len()
    }
    #[inline(always)]
    fn block(&mut self, r: std::ops::Range<usize>) -> reduce::Lanes {
        const L: usize = reduce::LANES;
        const W: usize = 2 * reduce::LANES;
        let x = &self.x;
        let m = r.len();
        let full = m / L;
        let base = x.first + r.start * 2;
        let (ch, _) = x.span[base..].as_chunks::<W>();
        let fast = full.min(ch.len());
        let mut wide = [T::ZERO; W];
        for c in &ch[..fast] {
            for k in 0..W {
                wide[k] = wide[k] + c[k];
            }
        }
        let mut acc = [T::ZERO; L];
        for (j, a) in acc.iter_mut().enumerate() {
            *a = wide[2 * j];
        }
        for c in fast..full {
            for (j, a) in acc.iter_mut().enumerate() {
                *a = *a + x.get(r.start + c * L + j);
            }
        }
        for (j, a) in acc.iter_mut().enumerate().take(m - full * L) {
            *a = *a + x.get(r.start + full * L + j);
        }
        reduce::tree_out(acc)
    }
}

/// The strided sum's blocks for any other view (steps of 5 and more, or 0): each block is
/// gathered into a stack buffer (see [`gather_from`]) and summed by the contiguous kernel's
/// block sum.
struct GatherSum<'a, 'b, T> {
    x: StridedRef<'a, T>,
    /// At least `min(len, BLOCK)` elements.
    buf: &'b mut [T],
}

impl<T: Float> reduce::Blocks for GatherSum<'_, '_, T> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.x.len()
    }
    #[inline(always)]
    fn block(&mut self, r: std::ops::Range<usize>) -> reduce::Lanes {
        let b = &mut self.buf[..r.len()];
        self.x.gather(r.start, b);
        reduce::block_sum(b)
    }
}

/// Views up to this long gather into a buffer of this size instead of a whole block.
const SHORT: usize = 64;

/// The SIMD levels' strided sum in `f64` of a view with stride 0 or at least 2 (the caller reads
/// negative strides upwards). The kernel is chosen once per call, not once per block.
#[inline(always)]
fn sum_lanes<T: Float>(x: StridedRef<'_, T>) -> f64 {
    let n = x.len();
    let span = &x.span[x.first..];
    match x.stride {
        // the fastest form at stride 2 differs with the element size (ab_builds.py --only sum)
        2 if size_of::<T>() == 4 => return reduce::pairwise(&mut Wide2Sum { x }),
        2 => return reduce::pairwise(&mut FixedSum::<T, 2> { span, n }),
        3 => return reduce::pairwise(&mut FixedSum::<T, 3> { span, n }),
        4 => return reduce::pairwise(&mut FixedSum::<T, 4> { span, n }),
        _ => {}
    }
    if n <= SHORT {
        // one short block: a small buffer to clear
        let mut buf = [T::ZERO; SHORT];
        return reduce::pairwise(&mut GatherSum { x, buf: &mut buf });
    }
    let mut buf = [T::ZERO; reduce::BLOCK];
    reduce::pairwise(&mut GatherSum { x, buf: &mut buf })
}

/// The scalar level's strided sum: `reduce`'s recursive pairwise reference over the view, in
/// `f64`.
fn sum_scalar<T: Float>(x: StridedRef<'_, T>) -> f64 {
    reduce::pairwise_scalar(x.len(), &|i| x.get(i).to_f64(), 0)
}

#[inline(always)]
fn sumsq_body<T: Float>(x: StridedRef<'_, T>, scale: f64, level: Level) -> f64 {
    chunked(x, |b| reduce::sumsq_f64_at(level, b, scale))
}

#[inline(always)]
fn dot_body<T: Float>(a: StridedRef<'_, T>, b: StridedRef<'_, T>, level: Level) -> f64 {
    assert_eq!(a.len(), b.len(), "dot operands differ in length");
    if let (Some(sa), Some(sb)) = (a.as_unit(), b.as_unit()) {
        return reduce::dot_f64_at(level, sa, sb);
    }
    let mut ba = [T::ZERO; RED_SMALL];
    let mut bb = [T::ZERO; RED_SMALL];
    let mut c = Combine::new();
    let mut start = 0;
    while start < a.len() {
        let end = (start + RED_SMALL).min(a.len());
        c.push(reduce::dot_f64_at(
            level,
            a.block(start, end, &mut ba),
            b.block(start, end, &mut bb),
        ));
        start = end;
    }
    c.finish()
}

/// `Σ f(i)` over the view's indices in `f64`, pairwise over 512-element blocks of a plain loop:
/// the slow, overflow-free path for sums whose fast lanes overflowed.
fn scaled_sum(n: usize, f: impl Fn(usize) -> f64) -> f64 {
    let mut c = Combine::new();
    let mut start = 0;
    while start < n {
        let end = (start + 512).min(n);
        c.push((start..end).map(&f).sum());
        start = end;
    }
    c.finish()
}

/// Sum, in `T`. Negative strides are read upwards (the element set does not depend on the
/// direction), so the result depends only on the elements, the stride's magnitude and the level.
/// Strides ±1 are the contiguous [`reduce::sum`] of the elements in address order; strides 2…4
/// have in-place fixed-stride kernels ([`FixedSum`], [`Wide2Sum`]), other strides gather blocks
/// ([`GatherSum`]); all of them combine 512-element blocks pairwise in `f64`
/// (`reduce::pairwise`), with an error within the contiguous sum's documented bound (lanes in
/// `T` of at most 16 terms inside a block). The scalar level is `reduce`'s recursive pairwise
/// reference in `f64`. As there, a non-finite result over finite elements (lanes that
/// overflowed) is recomputed in `f64` on elements scaled below 1, by the same reference loop.
pub fn sum<T: Float>(level: Level, x: StridedRef<'_, T>) -> T {
    let x = x.upward();
    if let Some(s) = x.as_unit() {
        return reduce::sum(level, s);
    }
    let s = sum_mv(level, x);
    if s.is_finite() {
        return T::from_f64(s);
    }
    match peak(level, x).map(|p| p.to_f64()) {
        Some(p) if p.is_finite() => {
            let k = reduce::pow2_scale(p);
            let v = reduce::pairwise_scalar(x.len(), &|i| x.get(i).to_f64() * k, 0);
            T::from_f64(v / k)
        }
        _ => T::from_f64(s),
    }
}

/// `sum((x·scale)²)` in `f64`.
fn sumsq_f64<T: Float>(level: Level, x: StridedRef<'_, T>, scale: f64) -> f64 {
    sumsq_mv(level, x, scale, level)
}

/// Dot product of equal-length views, in `T`; a non-finite result over finite inputs is
/// recomputed in `f64` on inputs scaled below 1.
pub fn dot<T: Float>(level: Level, a: StridedRef<'_, T>, b: StridedRef<'_, T>) -> T {
    if let (Some(sa), Some(sb)) = (a.as_unit(), b.as_unit()) {
        return reduce::dot(level, sa, sb);
    }
    let s = dot_mv(level, a, b, level);
    if s.is_finite() {
        return T::from_f64(s);
    }
    match (peak(level, a), peak(level, b)) {
        (Some(pa), Some(pb)) if pa.is_finite() && pb.is_finite() => {
            let (ka, kb) = (
                reduce::pow2_scale(pa.to_f64()),
                reduce::pow2_scale(pb.to_f64()),
            );
            let v = scaled_sum(a.len(), |i| {
                (a.get(i).to_f64() * ka) * (b.get(i).to_f64() * kb)
            });
            T::from_f64(v / ka / kb)
        }
        _ => T::from_f64(s),
    }
}

#[inline(always)]
fn extreme_body<T: Float, E: Extreme>(x: StridedRef<'_, T>, e: E, level: Level) -> Option<T> {
    if x.is_empty() {
        return None;
    }
    if let Some(s) = x.as_unit() {
        return Some(reduce::extreme_at(level, s, e));
    }
    let mut buf = [T::ZERO; RED_SMALL];
    let mut best: Option<T> = None;
    let mut start = 0;
    while start < x.len() {
        let end = (start + RED_SMALL).min(x.len());
        let v = reduce::extreme_at(level, x.block(start, end, &mut buf), e);
        if v.is_nan() {
            return Some(v);
        }
        best = Some(match best {
            Some(b) if !E::better(v, b) => b,
            _ => v,
        });
        start = end;
    }
    best
}

fn extreme<T: Float, E: Extreme>(level: Level, x: StridedRef<'_, T>, e: E) -> Option<T> {
    extreme_mv(level, x, e, level)
}

// Each strided kernel body is compiled once per SIMD level (the gather/scatter loops are inlined
// into it); the body calls the contiguous kernels at the same level. Scalar and SIMD bodies are
// the same function: the scalar reference is the contiguous kernel's scalar body it calls.
multiversion! {
    fn unary_mv<T: Float, O: UnOp<T>>(x: SSrc<'_, T>, y: &mut StridedMut<'_, T>, op: O, lv: Level) -> ();
    scalar = unary_body; simd = unary_body;
}
#[inline(always)]
fn map_body<T: Float, O: UnOp<T>>(y: &mut StridedMut<'_, T>, op: O) {
    y.map_in_place(|v| op.apply(v))
}

multiversion! {
    fn map_mv<T: Float, O: UnOp<T>>(y: &mut StridedMut<'_, T>, op: O) -> ();
    scalar = map_body; simd = map_body;
}
multiversion! {
    fn binary_mv<T: Float, O: BinOp<T>>(
        a: SSrc<'_, T>, b: SSrc<'_, T>, y: &mut StridedMut<'_, T>, op: O, lv: Level
    ) -> ();
    scalar = binary_body; simd = binary_body;
}
multiversion! {
    fn sum_mv<T: Float>(x: StridedRef<'_, T>) -> f64;
    scalar = sum_scalar; simd = sum_lanes;
}
multiversion! {
    fn sumsq_mv<T: Float>(x: StridedRef<'_, T>, scale: f64, lv: Level) -> f64;
    scalar = sumsq_body; simd = sumsq_body;
}
multiversion! {
    fn dot_mv<T: Float>(a: StridedRef<'_, T>, b: StridedRef<'_, T>, lv: Level) -> f64;
    scalar = dot_body; simd = dot_body;
}
multiversion! {
    fn extreme_mv<T: Float, E: Extreme>(x: StridedRef<'_, T>, e: E, lv: Level) -> Option<T>;
    scalar = extreme_body; simd = extreme_body;
}

/// Minimum, `None` when empty; NaN if any element is NaN.
pub fn min<T: Float>(level: Level, x: StridedRef<'_, T>) -> Option<T> {
    extreme(level, x, Min)
}
/// Maximum, `None` when empty; NaN if any element is NaN.
pub fn max<T: Float>(level: Level, x: StridedRef<'_, T>) -> Option<T> {
    extreme(level, x, Max)
}
/// Peak magnitude `max |x|`, `None` when empty; NaN if any element is NaN.
pub fn peak<T: Float>(level: Level, x: StridedRef<'_, T>) -> Option<T> {
    extreme(level, x, Peak)
}

/// Root mean square, `None` when empty; the same overflow/underflow rescaling as
/// [`reduce::rms`].
pub fn rms<T: Float>(level: Level, x: StridedRef<'_, T>) -> Option<T> {
    if let Some(s) = x.as_unit() {
        return reduce::rms(level, s);
    }
    if x.is_empty() {
        return None;
    }
    let n = x.len() as f64;
    let s = sumsq_f64(level, x, 1.0);
    if s.is_finite() && s >= RMS_TINY {
        return Some(T::from_f64((s / n).sqrt()));
    }
    if s.is_nan() {
        return Some(T::from_f64(s));
    }
    let p = peak(level, x)?.to_f64();
    if !p.is_finite() || p == 0.0 {
        return Some(T::from_f64(if p == 0.0 { 0.0 } else { p }));
    }
    let k = reduce::pow2_scale(p);
    let s = sumsq_f64(level, x, k);
    Some(T::from_f64((s / n).sqrt() / k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::elementwise::{AddOp, AxpyOp, ClipOp, MulOp, ScaleOp};
    use crate::kernels::testutil::{lengths, same, Rng};
    use crate::simd::available;

    /// (first, stride, span length) for `n` logical elements with the given stride.
    fn layout(n: usize, stride: isize, pad: usize) -> (usize, usize) {
        let ext = if n == 0 {
            0
        } else {
            (n - 1) * stride.unsigned_abs() + 1
        };
        let first = if stride < 0 && n > 0 {
            pad + ext - 1
        } else {
            pad
        };
        (first, ext + 2 * pad)
    }

    const STRIDES: [isize; 11] = [1, -1, 2, -2, 3, -3, 4, -4, 7, -5, 0];

    #[test]
    fn view_constructor_rejects_out_of_span() {
        let v = [1.0f32; 10];
        assert!(StridedRef::new(&v, 0, 3, 4).is_some()); // 0,3,6,9
        assert!(StridedRef::new(&v, 0, 3, 5).is_none());
        assert!(StridedRef::new(&v, 9, -3, 4).is_some());
        assert!(StridedRef::new(&v, 8, -3, 4).is_none());
        assert!(StridedRef::new(&v, 10, 1, 0).is_some());
        assert!(StridedRef::new(&v, 10, 1, 1).is_none());
        assert!(StridedRef::new(&v, 3, 0, 1000).is_some());
        assert!(StridedRef::new(&v, 0, isize::MAX, 2).is_none());
        assert!(StridedRef::new(&v, 9, isize::MIN, 2).is_none());
        let mut w = [0.0f64; 4];
        assert!(StridedMut::new(&mut w, 1, 0, 2).is_none());
        assert!(StridedMut::new(&mut w, 1, 0, 1).is_some());
    }

    #[test]
    fn gather_scatter_fill_round_trip() {
        let mut rng = Rng::new(11);
        for n in [0usize, 1, 2, 7, 513, 1100] {
            for s in STRIDES {
                let (first, span_len) = layout(n, s, 3);
                let span = rng.vec_f64(span_len, 1.0);
                let v = StridedRef::new(&span, first, s, n).unwrap();
                let want: Vec<f64> = (0..n)
                    .map(|i| span[(first as isize + i as isize * s) as usize])
                    .collect();
                assert_eq!(v.to_vec(), want);
                let mut g = vec![0.0; n.saturating_sub(1)];
                if n > 0 {
                    v.gather(1, &mut g);
                    assert_eq!(g, want[1..]);
                }
                if s == 0 {
                    continue;
                }
                let mut out = vec![9.0f64; span_len];
                let mut m = StridedMut::new(&mut out, first, s, n).unwrap();
                m.scatter(0, &want);
                assert_eq!(m.as_ref().to_vec(), want);
                m.fill(-2.0);
                assert!(m.as_ref().to_vec().iter().all(|&x| x == -2.0));
                // untouched outside the view
                let touched = out.iter().filter(|&&x| x == -2.0).count();
                assert_eq!(touched, n);
            }
        }
    }

    #[test]
    fn elementwise_strided_equals_contiguous_at_every_level() {
        let mut rng = Rng::new(12);
        for n in [0usize, 1, 3, 64, 511, 512, 513, 2000] {
            for (sx, sy) in [
                (1, 1),
                (2, 1),
                (-1, -1),
                (1, -1),
                (-3, 2),
                (0, 3),
                (2, -2),
                (4, -3),
                (-4, 4),
                (3, -1),
                (-2, 1),
                (7, 2),
            ] {
                let (fx, lx) = layout(n, sx, 2);
                let (fy, ly) = layout(n, sy, 1);
                let xs = rng.vec_f32(lx, 10.0);
                let ys0 = rng.vec_f32(ly, 10.0);
                let xv = StridedRef::new(&xs, fx, sx, n).unwrap();
                let xc = xv.to_vec();
                let yc0 = StridedRef::new(&ys0, fy, sy, n).unwrap().to_vec();
                for level in available() {
                    let check = |name: &str, want: Vec<f32>, got: &[f32]| {
                        let g = StridedRef::new(got, fy, sy, n).unwrap().to_vec();
                        assert!(same(&g, &want), "{name} n={n} sx={sx} sy={sy} {level:?}");
                        // elements outside the destination view are untouched
                        let mut mask = vec![false; ly];
                        for i in 0..n {
                            mask[(fy as isize + i as isize * sy) as usize] = true;
                        }
                        for (j, m) in mask.iter().enumerate() {
                            if !m {
                                assert_eq!(got[j].to_bits(), ys0[j].to_bits(), "{name}");
                            }
                        }
                    };
                    let mut ys = ys0.clone();
                    let mut y = StridedMut::new(&mut ys, fy, sy, n).unwrap();
                    unary_strided(level, SSrc::View(xv), &mut y, ScaleOp(1.5f32));
                    check("scale", xc.iter().map(|v| 1.5 * v).collect(), &ys);

                    let mut ys = ys0.clone();
                    let mut y = StridedMut::new(&mut ys, fy, sy, n).unwrap();
                    unary_strided(level, SSrc::View(xv), &mut y, CopyOp);
                    check("copy", xc.clone(), &ys);

                    let mut ys = ys0.clone();
                    let mut y = StridedMut::new(&mut ys, fy, sy, n).unwrap();
                    unary_strided(level, SSrc::Dst, &mut y, ClipOp { lo: -1.0, hi: 2.0 });
                    check(
                        "clip in place",
                        yc0.iter().map(|v| v.clamp(-1.0, 2.0)).collect(),
                        &ys,
                    );

                    let mut ys = ys0.clone();
                    let mut y = StridedMut::new(&mut ys, fy, sy, n).unwrap();
                    binary_strided(level, SSrc::View(xv), SSrc::Dst, &mut y, AddOp);
                    check(
                        "add",
                        xc.iter().zip(&yc0).map(|(a, b)| a + b).collect(),
                        &ys,
                    );

                    let mut ys = ys0.clone();
                    let mut y = StridedMut::new(&mut ys, fy, sy, n).unwrap();
                    binary_strided(level, SSrc::Dst, SSrc::View(xv), &mut y, MulOp);
                    check(
                        "mul",
                        yc0.iter().zip(&xc).map(|(a, b)| a * b).collect(),
                        &ys,
                    );

                    let mut ys = ys0.clone();
                    let mut y = StridedMut::new(&mut ys, fy, sy, n).unwrap();
                    binary_strided(level, SSrc::View(xv), SSrc::Dst, &mut y, AxpyOp(-0.25f32));
                    check(
                        "axpy",
                        xc.iter().zip(&yc0).map(|(x, y)| y + -0.25 * x).collect(),
                        &ys,
                    );
                }
            }
        }
    }

    #[test]
    fn strided_reductions_match_contiguous_of_the_copy() {
        let mut rng = Rng::new(13);
        let mut ls = lengths();
        ls.extend([16_384, 16_385, 40_000]);
        for n in ls {
            for s in STRIDES {
                let (first, span_len) = layout(n, s, 1);
                let mut span = rng.vec_f64(span_len, 100.0);
                if n > 5 && s != 0 {
                    span[(first as isize + 5 * s) as usize] = -1e300;
                    span[(first as isize + 4 * s) as usize] = 1e300;
                }
                let v = StridedRef::new(&span, first, s, n).unwrap();
                let c = v.to_vec();
                let w = rng.vec_f64(n, 1.0);
                let wv = StridedRef::contiguous(&w);
                let abs: f64 = c.iter().map(|x| x.abs()).sum();
                let absdot: f64 = c.iter().zip(&w).map(|(x, y)| (x * y).abs()).sum();
                let eps = f64::EPSILON;
                for level in available() {
                    let tag = format!("n={n} s={s} {level:?}");
                    let (gs, ws) = (sum(level, v), reduce::sum(level, &c));
                    assert!((gs - ws).abs() <= 40.0 * eps * abs, "{tag} {gs} {ws}");
                    let (gd, wd) = (dot(level, v, wv), reduce::dot(level, &c, &w));
                    assert!((gd - wd).abs() <= 40.0 * eps * absdot, "{tag} {gd} {wd}");
                    let (gr, wr) = (rms(level, v), reduce::rms(level, &c));
                    match (gr, wr) {
                        (Some(g), Some(r)) => assert!((g - r).abs() <= 1e-14 * r, "{tag}"),
                        (g, r) => assert_eq!(g, r, "{tag}"),
                    }
                    assert_eq!(min(level, v), reduce::min(level, &c), "{tag}");
                    assert_eq!(max(level, v), reduce::max(level, &c), "{tag}");
                    assert_eq!(peak(level, v), reduce::peak(level, &c), "{tag}");
                }
            }
        }
    }

    /// Adversarial `f32` data for the sums: mixed magnitudes (2^-20…2^20, so float lanes would
    /// round), cancelling pairs near `f32::MAX` and around small values, signed zeros, denormals.
    fn adversarial_f32(rng: &mut Rng, n: usize) -> Vec<f32> {
        (0..n)
            .map(|i| match i % 11 {
                0 => f32::from_bits(1 + (rng.next_u64() % 1000) as u32),
                1 => -0.0,
                2 => 1.0e6 * rng.uniform() as f32,
                3 => f32::MAX * (0.5 + 0.5 * rng.uniform().abs() as f32),
                4 => -f32::MAX * (0.5 + 0.5 * rng.uniform().abs() as f32),
                5 => 3.0e7 * rng.uniform() as f32,
                _ => (rng.uniform() * 2f64.powi((rng.uniform() * 20.0) as i32)) as f32,
            })
            .collect()
    }

    /// The exactly rounded `f64` sum of finite values whose partial sums stay finite
    /// (Shewchuk's expansion with Python's `math.fsum` final rounding): the test's reference.
    fn fsum(xs: impl IntoIterator<Item = f64>) -> f64 {
        let mut p: Vec<f64> = Vec::new();
        for mut x in xs {
            let mut i = 0;
            for j in 0..p.len() {
                let mut y = p[j];
                if x.abs() < y.abs() {
                    std::mem::swap(&mut x, &mut y);
                }
                let hi = x + y;
                let lo = y - (hi - x);
                if lo != 0.0 {
                    p[i] = lo;
                    i += 1;
                }
                x = hi;
            }
            p.truncate(i);
            p.push(x);
        }
        let mut n = p.len();
        if n == 0 {
            return 0.0;
        }
        n -= 1;
        let mut hi = p[n];
        let mut lo = 0.0;
        while n > 0 {
            let x = hi;
            n -= 1;
            let y = p[n];
            hi = x + y;
            lo = y - (hi - x);
            if lo != 0.0 {
                break;
            }
        }
        if n > 0 && ((lo < 0.0 && p[n - 1] < 0.0) || (lo > 0.0 && p[n - 1] > 0.0)) {
            let y = lo * 2.0;
            let x = hi + y;
            if y == x - hi {
                hi = x;
            }
        }
        hi
    }

    /// The documented bound (`sk_sum_*`'s): `|got − exact| ≤ 14·ε_T·Σ|x|`, plus the final
    /// rounding to `T` (`ε_T·|exact|`, and the smallest denormal; beyond `T`'s range, ±inf). `exact` and `mag` are
    /// correctly rounded `f64`, hence the small relative slack.
    fn within_bound<T: Float>(got: T, c: &[T]) -> bool {
        let exact = fsum(c.iter().map(|x| x.to_f64()));
        let mag = fsum(c.iter().map(|x| x.to_f64().abs()));
        let (eps, tiny) = if size_of::<T>() == 4 {
            (f32::EPSILON as f64, f32::from_bits(1) as f64)
        } else {
            (f64::EPSILON, f64::from_bits(1))
        };
        let b = (14.0 * eps * mag + exact.abs() * eps) * (1.0 + 1e-9) + tiny;
        // an exact sum beyond T's range rounds to ±inf: compare in T, rounding the interval's
        // ends (rounding is monotonic)
        let (lo, hi) = (T::from_f64(exact - b), T::from_f64(exact + b));
        lo <= got && got <= hi
    }

    #[test]
    fn strided_sum_is_within_the_documented_bound_of_the_exact_sum() {
        // Every stride (the fixed-stride kernels ±1…±4, the gathered rest, 0) and every length
        // 0…100, the block edges and the four-stream split, at every level, for f32 and f64:
        // within the documented bound of the exact sum (math.fsum's algorithm).
        let mut rng = Rng::new(21);
        let mut ns: Vec<usize> = (0..=100).collect();
        ns.extend([511, 512, 513, 2047, 2048, 2049, 4 * 512 + 17, 9000]);
        let strides = [
            1isize, -1, 2, -2, 3, -3, 4, -4, 5, -5, 7, -7, 0, 1000, -1001,
        ];
        // pad 0: the view touches both span ends, so the in-place kernels' last run cannot read
        // its whole `64·S` span elements and goes element by element
        for (&n, pad) in ns.iter().flat_map(|n| [(n, 0), (n, 2)]) {
            for s in strides {
                let (first, span_len) = layout(n, s, pad);
                let span = adversarial_f32(&mut rng, span_len);
                let v = StridedRef::new(&span, first, s, n).unwrap();
                let c = v.to_vec();
                // f64 data with more bits than an f32 and no overflow of the lanes
                let wide: Vec<f64> = span.iter().map(|&x| x as f64 * 1.000_000_1e-10).collect();
                let vw = StridedRef::new(&wide, first, s, n).unwrap();
                let cw = vw.to_vec();
                for level in available() {
                    let at = format!("n={n} s={s} pad={pad} {level:?}");
                    let got = sum(level, v);
                    assert!(within_bound(got, &c), "f32 {at}: {got}");
                    let got = sum(level, vw);
                    assert!(within_bound(got, &cw), "f64 {at}: {got}");
                }
            }
        }
        // stride −2 with n = 17: a float sum once found beyond the bound here
        let mut rng = Rng::new(22);
        for _ in 0..200 {
            let span = adversarial_f32(&mut rng, 33);
            let v = StridedRef::new(&span, 32, -2, 17).unwrap();
            let c = v.to_vec();
            for level in available() {
                assert!(within_bound(sum(level, v), &c), "{level:?}");
            }
        }
        // long views: the four-stream grouping of reduce's pairwise
        for (n, s) in [
            (300_001usize, 2isize),
            (262_145, -3),
            (270_000, 5),
            (262_200, -1),
        ] {
            let (first, span_len) = layout(n, s, 1);
            let span = adversarial_f32(&mut rng, span_len);
            let v = StridedRef::new(&span, first, s, n).unwrap();
            let c = v.to_vec();
            let wide: Vec<f64> = span.iter().map(|&x| x as f64 * 0.999_999_9).collect();
            let vw = StridedRef::new(&wide, first, s, n).unwrap();
            let cw = vw.to_vec();
            for level in available() {
                assert!(within_bound(sum(level, v), &c), "n={n} s={s} {level:?}");
                assert!(
                    within_bound(sum(level, vw), &cw),
                    "f64 n={n} s={s} {level:?}"
                );
            }
        }
    }

    #[test]
    fn strided_sum_depends_on_the_elements_not_the_direction() {
        // negative strides are read upwards: x[::-s] gives the same bits as x[::s] over the same
        // elements, and a call repeated gives the same bits (deterministic)
        let mut rng = Rng::new(24);
        for n in [2usize, 17, 64, 65, 513, 5000] {
            for s in [1isize, 2, 3, 4, 5, 9] {
                let (first, span_len) = layout(n, s, 1);
                let span = adversarial_f32(&mut rng, span_len);
                let up = StridedRef::new(&span, first, s, n).unwrap();
                let down = StridedRef::new(&span, first + (n - 1) * s as usize, -s, n).unwrap();
                for level in available() {
                    let a = sum(level, down);
                    assert_eq!(a.to_bits(), sum(level, down).to_bits(), "n={n} s={s}");
                    if s != 1 {
                        assert_eq!(a.to_bits(), sum(level, up).to_bits(), "n={n} s={s}");
                    }
                }
            }
        }
        // strides ±1 are the contiguous sum of the elements in address order; all −0.0 sums to
        // +0.0 as there
        let span = rng.vec_f32(1000, 5.0);
        let zeros = vec![-0.0f32; 300];
        for level in available() {
            let want = reduce::sum(level, &span[3..993]).to_bits();
            let v = StridedRef::new(&span, 3, 1, 990).unwrap();
            assert_eq!(sum(level, v).to_bits(), want);
            let v = StridedRef::new(&span, 992, -1, 990).unwrap();
            assert_eq!(sum(level, v).to_bits(), want);
            for s in [-1isize, 2, -2, 3, -3, 4, -4, 5] {
                let n = 299 / s.unsigned_abs() + 1;
                let first = if s < 0 { 299 } else { 0 };
                let v = StridedRef::new(&zeros, first, s, n).unwrap();
                assert_eq!(sum(level, v).to_bits(), 0f32.to_bits(), "s={s}");
            }
        }
    }

    #[test]
    fn strided_sum_propagates_nan_and_infinities() {
        for level in available() {
            for s in [-1isize, 2, -2, 3, 4, -4, 6] {
                for n in [1usize, 17, 64, 600] {
                    let (first, span_len) = layout(n, s, 0);
                    let at = |i: usize| (first as isize + i as isize * s) as usize;
                    // NaN between the view's elements: never part of the result
                    let mut span = vec![f32::NAN; span_len];
                    for i in 0..n {
                        span[at(i)] = 1.5;
                    }
                    let v = StridedRef::new(&span, first, s, n).unwrap();
                    let want = 1.5 * n as f32;
                    assert_eq!(sum(level, v), want, "n={n} s={s} {level:?}");
                    span[at(n / 2)] = f32::INFINITY;
                    let v = StridedRef::new(&span, first, s, n).unwrap();
                    assert_eq!(sum(level, v), f32::INFINITY, "n={n} s={s}");
                    span[at(n - 1)] = f32::NEG_INFINITY;
                    let v = StridedRef::new(&span, first, s, n).unwrap();
                    let got = sum(level, v);
                    assert!(n == 1 || got.is_nan(), "inf - inf: n={n} s={s} {got}");
                    span[at(n / 2)] = 2.0;
                    span[at(n - 1)] = f32::NAN;
                    let v = StridedRef::new(&span, first, s, n).unwrap();
                    assert!(sum(level, v).is_nan(), "NaN: n={n} s={s}");
                    let wide: Vec<f64> = span.iter().map(|&x| x as f64).collect();
                    let vw = StridedRef::new(&wide, first, s, n).unwrap();
                    assert!(sum(level, vw).is_nan(), "f64 NaN: n={n} s={s}");
                }
            }
        }
    }

    #[test]
    fn lanes_padded_with_negative_zero_keep_their_bits() {
        // add_to_lanes adds −0.0 to the lanes past `cnt`: they must keep their exact bits
        // (+0.0 stays +0.0, −0.0 stays −0.0, NaN stays NaN, infinities and denormals stay)
        let specials = [
            0.0f32,
            -0.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::from_bits(1),
            -f32::MAX,
            1.5,
        ];
        let src: Vec<f32> = (0..80).map(|i| i as f32 + 0.25).collect();
        for cnt in [0usize, 1, 7, 31, 32] {
            let mut acc = [0f32; FIXED_LANES];
            for (j, a) in acc.iter_mut().enumerate() {
                *a = specials[j % specials.len()];
            }
            let before = acc;
            add_to_lanes(&mut acc, cnt, |j| src[3 + j]);
            for j in 0..FIXED_LANES {
                let want = if j < cnt {
                    before[j] + src[3 + j]
                } else {
                    before[j]
                };
                assert_eq!(acc[j].to_bits(), want.to_bits(), "cnt={cnt} lane {j}");
            }
        }
    }

    #[test]
    fn fused_sum_four_streams_is_accurate() {
        // long enough for the four-stream grouping of the fixed-stride sums
        let mut rng = Rng::new(14);
        for (n, s) in [
            (300_001usize, 2isize),
            (262_144, -3),
            (131_073, 4),
            (500_000, -2),
        ] {
            let (first, span_len) = layout(n, s, 1);
            let span = rng.vec_f32(span_len, 3.0);
            let v = StridedRef::new(&span, first, s, n).unwrap();
            let c: Vec<f64> = v.to_vec().iter().map(|&x| x as f64).collect();
            let abs: f64 = c.iter().map(|x| x.abs()).sum();
            // reference: the contiguous f64 pairwise sum of the widened copy (error ~1e-16·Σ|x|)
            let want = reduce::sum(Level::Scalar, &c);
            for level in available() {
                let got = sum(level, v) as f64;
                assert!(
                    (got - want).abs() <= 40.0 * f32::EPSILON as f64 * abs,
                    "n={n} s={s} {level:?} {got} {want}"
                );
            }
        }
    }

    #[test]
    fn strided_sum_and_dot_survive_lane_overflow() {
        // [MAX, MAX, -MAX, -MAX, ..., MAX/2] in f32: lanes overflow although the exact sum is
        // MAX/2 (every partial sum is a multiple of MAX/2, exact in f64)
        let mut span = vec![0.0f32; 4001];
        for (i, v) in span.iter_mut().enumerate() {
            *v = if (i / 2) % 4 < 2 { f32::MAX } else { -f32::MAX };
        }
        span[4000] = f32::MAX / 2.0;
        let n = 2001;
        let v = StridedRef::new(&span, 0, 2, n).unwrap();
        let c = v.to_vec();
        let ones = vec![1.0f32; n];
        for level in available() {
            let want: f64 = c.iter().map(|&x| x as f64).sum();
            assert_eq!(sum(level, v) as f64, want, "{level:?}");
            assert_eq!(dot(level, v, StridedRef::contiguous(&ones)) as f64, want);
        }
    }

    #[test]
    fn strided_reductions_nan_and_extremes() {
        for level in available() {
            let span = [1.0f32, f32::NAN, 2.0, 7.0, -3.0, 0.5];
            // even elements 1, 2, -3: no NaN
            let v = StridedRef::new(&span, 0, 2, 3).unwrap();
            assert_eq!(max(level, v), Some(2.0));
            assert_eq!(peak(level, v), Some(3.0));
            assert_eq!(min(level, v), Some(-3.0));
            let v = StridedRef::new(&span, 5, -2, 3).unwrap(); // 0.5, 7, NaN
            assert!(max(level, v).unwrap().is_nan());
            assert!(rms(level, v).unwrap().is_nan());
            let big = vec![f32::MAX; 2000];
            let v = StridedRef::new(&big, 1999, -3, 600).unwrap();
            assert_eq!(rms(level, v), Some(f32::MAX));
            let tiny = vec![5e-324f64; 3000];
            let v = StridedRef::new(&tiny, 0, 2, 1500).unwrap();
            assert_eq!(rms(level, v), Some(5e-324));
            assert_eq!(
                rms(level, StridedRef::<f64>::new(&[], 0, 2, 0).unwrap()),
                None
            );
            assert_eq!(
                sum(level, StridedRef::<f64>::new(&[], 0, -2, 0).unwrap()),
                0.0
            );
        }
    }
}
