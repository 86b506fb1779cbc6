//! Strided buffers and `(rows, cols)` blocks, on top of the contiguous rules of [`super::buf`].
//!
//! A strided buffer is `(ptr, stride, n)`: logical element `i` is at `ptr + i·stride` (elements).
//! A negative stride means `ptr` is logical element 0 and addresses go *down*. Rules:
//! - the extent is `(n−1)·|stride| + 1` elements (0 for `n = 0`); an extent or byte size that
//!   overflows, or an address range that wraps, is `SK_ERR_LENGTH`;
//! - `ptr` may be NULL only when `n = 0`, and must be aligned for the element type;
//! - a destination stride of 0 is `SK_ERR_BAD_ARGUMENT` (even for `n ≤ 1`: the rule is simple);
//!   a source stride of 0 is a broadcast of one element;
//! - overlap is judged on address spans (lowest to highest byte the view can touch): disjoint
//!   spans are fine; an input that is *exactly* the destination (same pointer, same stride, same
//!   `n`) is in place where the function allows it; anything else that shares a byte of span is
//!   `SK_ERR_OVERLAP`, even if the elements themselves interleave without touching.

use super::buf::{Alias, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::rows::{RowsMut, RowsRef};
use crate::kernels::strided::{StridedMut, StridedRef};
use std::mem::{align_of, size_of};

/// A caller's strided buffer: name (for messages), pointer to logical element 0, stride in
/// elements, element count, and whether it is written.
#[derive(Clone, Copy)]
pub(crate) struct SBuf<T> {
    pub name: &'static str,
    pub ptr: *const T,
    pub stride: isize,
    pub len: usize,
    pub is_out: bool,
}

impl<T> SBuf<T> {
    pub fn new(name: &'static str, ptr: *const T, stride: isize, len: usize) -> Self {
        SBuf {
            name,
            ptr,
            stride,
            len,
            is_out: false,
        }
    }
    pub fn out(name: &'static str, ptr: *mut T, stride: isize, len: usize) -> Self {
        SBuf {
            name,
            ptr: ptr as *const T,
            stride,
            len,
            is_out: true,
        }
    }

    /// Extent in elements, `(len−1)·|stride| + 1`, or `SK_ERR_LENGTH` if it (or its byte size)
    /// overflows.
    fn extent(&self) -> SkResult<usize> {
        if self.len == 0 {
            return Ok(0);
        }
        (self.len - 1)
            .checked_mul(self.stride.unsigned_abs())
            .and_then(|e| e.checked_add(1))
            .filter(|e| {
                e.checked_mul(size_of::<T>())
                    .is_some_and(|b| b <= isize::MAX as usize)
            })
            .ok_or_else(|| {
                SkError::Length(format!(
                    "argument {}: n = {} elements with stride {} span more than the address \
                     space can hold",
                    self.name, self.len, self.stride
                ))
            })
    }

    /// Every rule of the module doc; afterwards [`SBuf::view`] / [`SBuf::view_mut`] may be
    /// called.
    pub fn check(&self) -> SkResult<()> {
        if self.is_out && self.stride == 0 {
            return Err(SkError::BadArgument(format!(
                "argument {} has stride 0: a destination stride must not be 0 (every element \
                 would land on one place)",
                self.name
            )));
        }
        if self.len == 0 {
            return Ok(());
        }
        if self.ptr.is_null() {
            return Err(SkError::NullPointer(format!(
                "argument {} is NULL but n = {}",
                self.name, self.len
            )));
        }
        let ext = self.extent()?;
        let addr = self.ptr as usize;
        if !addr.is_multiple_of(align_of::<T>()) {
            return Err(SkError::Misaligned(format!(
                "argument {} = {:#x} is not aligned to {} bytes as its element type requires",
                self.name,
                addr,
                align_of::<T>()
            )));
        }
        let reach = (ext - 1) * size_of::<T>();
        let ok = if self.stride < 0 {
            addr.checked_sub(reach).is_some() && addr.checked_add(size_of::<T>()).is_some()
        } else {
            addr.checked_add(reach + size_of::<T>()).is_some()
        };
        if !ok {
            return Err(SkError::Length(format!(
                "argument {}: n = {} elements with stride {} from {:#x} run past the {} of the \
                 address space",
                self.name,
                self.len,
                self.stride,
                addr,
                if self.stride < 0 { "start" } else { "end" }
            )));
        }
        Ok(())
    }

    /// The contiguous buffer covering the span, and the index of logical element 0 in it.
    /// Only after `check()`.
    fn span(&self) -> (Buf<T>, usize) {
        let ext = self.extent().unwrap_or(0);
        if self.len == 0 {
            return (Buf::new(self.name, self.ptr, 0), 0);
        }
        if self.stride < 0 {
            let lo = (self.ptr as usize - (ext - 1) * size_of::<T>()) as *const T;
            (Buf::new(self.name, lo, ext), ext - 1)
        } else {
            (Buf::new(self.name, self.ptr, ext), 0)
        }
    }

    /// `[lowest byte, one past the highest byte)` the view can touch; empty for `n = 0`.
    fn byte_span(&self) -> (usize, usize) {
        let (b, _) = self.span();
        let lo = b.ptr as usize;
        (lo, lo + b.len * size_of::<T>())
    }

    /// # Safety
    /// `check()` passed; the caller guarantees the span is readable and not written during the
    /// borrow.
    pub unsafe fn view<'a>(&self) -> StridedRef<'a, T>
    where
        T: Copy,
    {
        let (b, first) = self.span();
        // SAFETY: the span is exactly the validated extent.
        let s = unsafe { b.slice() };
        StridedRef::new(s, first, self.stride, self.len)
            .expect("validated strided buffer fits its span")
    }

    /// # Safety
    /// As [`SBuf::view`], plus the span is writable and no other live reference overlaps it.
    pub unsafe fn view_mut<'a>(&self) -> StridedMut<'a, T>
    where
        T: Copy,
    {
        let (b, first) = self.span();
        // SAFETY: as above; exclusivity comes from the caller's overlap checks.
        let s = unsafe { b.slice_mut() };
        StridedMut::new(s, first, self.stride, self.len)
            .expect("validated strided buffer fits its span")
    }
}

/// Classifies a strided `input` against a strided `output` (both checked): disjoint spans,
/// the exact same view (allowed only when `in_place_ok`), or `SK_ERR_OVERLAP`.
pub(crate) fn alias_strided<T, U>(
    input: &SBuf<T>,
    output: &SBuf<U>,
    in_place_ok: bool,
) -> SkResult<Alias> {
    if input.len == 0 || output.len == 0 {
        return Ok(Alias::Distinct);
    }
    let (a0, a1) = input.byte_span();
    let (b0, b1) = output.byte_span();
    if a1 <= b0 || b1 <= a0 {
        return Ok(Alias::Distinct);
    }
    let same = std::ptr::eq(input.ptr.cast::<u8>(), output.ptr.cast::<u8>())
        && input.len == output.len
        && size_of::<T>() == size_of::<U>()
        && input.stride == output.stride;
    if in_place_ok && same {
        return Ok(Alias::Same);
    }
    Err(SkError::Overlap(format!(
        "output {} (ptr {:#x}, stride {}, n = {}) overlaps input {} (ptr {:#x}, stride {}, \
         n = {}){}",
        output.name,
        output.ptr as usize,
        output.stride,
        output.len,
        input.name,
        input.ptr as usize,
        input.stride,
        input.len,
        if in_place_ok {
            "; only the exact same view (same pointer and stride) is allowed"
        } else {
            "; this function does not work in place"
        }
    )))
}

/// A caller's `(rows, cols)` block: row `r` is `cols` contiguous elements at `ptr + r·ld`.
#[derive(Clone, Copy)]
pub(crate) struct RowsBuf<T> {
    pub name: &'static str,
    pub ptr: *const T,
    pub ld: isize,
    pub rows: usize,
    pub cols: usize,
}

impl<T> RowsBuf<T> {
    pub fn new(name: &'static str, ptr: *const T, ld: isize, rows: usize, cols: usize) -> Self {
        RowsBuf {
            name,
            ptr,
            ld,
            rows,
            cols,
        }
    }

    /// `|ld| ≥ cols` (`SK_ERR_BAD_ARGUMENT`; also for a single row, so a caller's mistake shows
    /// early), then the span `(rows−1)·|ld| + cols` elements as a contiguous buffer (NULL,
    /// alignment, overflow and wrap rules of [`Buf::check`]).
    pub fn check(&self) -> SkResult<()> {
        if (self.ld.unsigned_abs() as u128) < self.cols as u128 {
            return Err(SkError::BadArgument(format!(
                "row stride ld = {} is smaller than cols = {}: rows of argument {} would \
                 overlap",
                self.ld, self.cols, self.name
            )));
        }
        if self.rows == 0 || self.cols == 0 {
            return Ok(());
        }
        if self.ptr.is_null() {
            return Err(SkError::NullPointer(format!(
                "argument {} is NULL but rows = {}, cols = {}",
                self.name, self.rows, self.cols
            )));
        }
        let ext = self.extent()?;
        let below = if self.ld < 0 {
            (self.rows - 1) * self.ld.unsigned_abs()
        } else {
            0
        };
        let lo = (self.ptr as usize).checked_sub(below * size_of::<T>());
        let Some(lo) = lo else {
            return Err(SkError::Length(format!(
                "argument {}: {} rows with ld = {} below {:#x} run past the start of the \
                 address space",
                self.name, self.rows, self.ld, self.ptr as usize
            )));
        };
        if !(self.ptr as usize).is_multiple_of(align_of::<T>()) {
            return Err(SkError::Misaligned(format!(
                "argument {} = {:#x} is not aligned to {} bytes as its element type requires",
                self.name,
                self.ptr as usize,
                align_of::<T>()
            )));
        }
        Buf::new(self.name, lo as *const T, ext).check()
    }

    fn extent(&self) -> SkResult<usize> {
        if self.rows == 0 || self.cols == 0 {
            return Ok(0);
        }
        (self.rows - 1)
            .checked_mul(self.ld.unsigned_abs())
            .and_then(|e| e.checked_add(self.cols))
            .filter(|e| {
                e.checked_mul(size_of::<T>())
                    .is_some_and(|b| b <= isize::MAX as usize)
            })
            .ok_or_else(|| {
                SkError::Length(format!(
                    "argument {}: rows = {} with ld = {} and cols = {} span more than the \
                     address space can hold",
                    self.name, self.rows, self.ld, self.cols
                ))
            })
    }

    /// The span as a contiguous buffer and the index of row 0 in it (after `check()`).
    pub fn span(&self) -> (Buf<T>, usize) {
        let ext = self.extent().unwrap_or(0);
        if ext == 0 {
            return (Buf::new(self.name, self.ptr, 0), 0);
        }
        let below = if self.ld < 0 {
            (self.rows - 1) * self.ld.unsigned_abs()
        } else {
            0
        };
        let lo = (self.ptr as usize - below * size_of::<T>()) as *const T;
        (Buf::new(self.name, lo, ext), below)
    }

    /// # Safety
    /// `check()` passed; the span is readable and not written during the borrow.
    pub unsafe fn view<'a>(&self) -> RowsRef<'a, T> {
        let (b, first) = self.span();
        // SAFETY: validated span.
        let s = unsafe { b.slice() };
        // an empty span means rows == 0 or cols == 0: a row stride of 0 then fits it
        let ld = if b.len == 0 { 0 } else { self.ld };
        RowsRef::new(s, first, ld, self.rows, self.cols).expect("validated rows fit their span")
    }

    /// # Safety
    /// As [`RowsBuf::view`], plus writable and not aliased.
    pub unsafe fn view_mut<'a>(&self) -> RowsMut<'a, T> {
        let (b, first) = self.span();
        // SAFETY: validated span; exclusivity from the caller.
        let s = unsafe { b.slice_mut() };
        let ld = if b.len == 0 { 0 } else { self.ld };
        RowsMut::new(s, first, ld, self.rows, self.cols).expect("validated rows fit their span")
    }
}

/// Rewrites an error's message from "argument {name}" to "argument {name}[{i}]" (for arrays of
/// pointers).
pub(crate) fn indexed(e: SkError, name: &str, i: usize) -> SkError {
    let fix = |m: String| {
        m.replacen(
            &format!("argument {name}"),
            &format!("argument {name}[{i}]"),
            1,
        )
    };
    match e {
        SkError::NullPointer(m) => SkError::NullPointer(fix(m)),
        SkError::Length(m) => SkError::Length(fix(m)),
        SkError::Misaligned(m) => SkError::Misaligned(fix(m)),
        SkError::Overlap(m) => SkError::Overlap(fix(m)),
        SkError::BadArgument(m) => SkError::BadArgument(fix(m)),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::*;

    #[test]
    fn strided_rules() {
        let data = [0f32; 64];
        let p = data.as_ptr();
        // SAFETY: 32 < 64 = data.len(): an in-bounds element of `data`.
        let mid = unsafe { p.add(32) };
        assert!(SBuf::new("x", p, 2, 32).check().is_ok());
        assert!(SBuf::new("x", mid, -1, 33).check().is_ok());
        assert!(SBuf::new("x", std::ptr::null::<f32>(), 5, 0)
            .check()
            .is_ok());
        assert_eq!(
            SBuf::new("x", std::ptr::null::<f32>(), 5, 1)
                .check()
                .unwrap_err()
                .code(),
            SK_ERR_NULL_POINTER
        );
        assert_eq!(
            SBuf::out("y", mid as *mut f32, 0, 0)
                .check()
                .unwrap_err()
                .code(),
            SK_ERR_BAD_ARGUMENT
        );
        assert!(SBuf::new("x", mid, 0, 1000).check().is_ok());
        assert_eq!(
            SBuf::new("x", p, isize::MAX, 3).check().unwrap_err().code(),
            SK_ERR_LENGTH
        );
        assert_eq!(
            SBuf::new("x", p, isize::MIN, 2).check().unwrap_err().code(),
            SK_ERR_LENGTH
        );
        // a negative stride from a low address wraps below 0
        let low = 64 as *const f32;
        assert_eq!(
            SBuf::new("x", low, -100, 2).check().unwrap_err().code(),
            SK_ERR_LENGTH
        );
        let mis = (p as usize + 2) as *const f32;
        assert_eq!(
            SBuf::new("x", mis, 1, 2).check().unwrap_err().code(),
            SK_ERR_MISALIGNED
        );
        // SAFETY: 5 elements at stride -3 from `data[32]` reach down to `data[20]`; `SBuf::check`
        // passes for it (the `view` precondition) and `data` is only read while `v` lives.
        let v = unsafe { SBuf::new("x", mid, -3, 5).view() };
        assert_eq!(v.len(), 5);
    }

    #[test]
    fn strided_alias_rules() {
        let data = [0f64; 64];
        let p = data.as_ptr();
        // SAFETY: every index used below is < 64 = data.len().
        let at = |i: usize| unsafe { p.add(i) };
        let x = SBuf::new("x", at(0), 2, 10); // bytes of elements 0..=18
        let y_same = SBuf::out("y", at(0) as *mut f64, 2, 10);
        let y_odd = SBuf::out("y", at(1) as *mut f64, 2, 10);
        let y_after = SBuf::out("y", at(19) as *mut f64, 1, 10);
        let y_rev = SBuf::out("y", at(18) as *mut f64, -2, 10);
        assert_eq!(alias_strided(&x, &y_same, true), Ok(Alias::Same));
        assert_eq!(
            alias_strided(&x, &y_same, false).unwrap_err().code(),
            SK_ERR_OVERLAP
        );
        assert_eq!(
            alias_strided(&x, &y_odd, true).unwrap_err().code(),
            SK_ERR_OVERLAP
        );
        assert_eq!(alias_strided(&x, &y_after, true), Ok(Alias::Distinct));
        // same elements, other direction: not the same view
        assert_eq!(
            alias_strided(&x, &y_rev, true).unwrap_err().code(),
            SK_ERR_OVERLAP
        );
        let back = SBuf::new("x", at(40), -2, 10); // elements 22..=40
        assert_eq!(alias_strided(&back, &y_same, true), Ok(Alias::Distinct));
    }

    #[test]
    fn rows_rules() {
        let data = [0f32; 100];
        let p = data.as_ptr();
        assert!(RowsBuf::new("x", p, 10, 10, 10).check().is_ok());
        assert_eq!(
            RowsBuf::new("x", p, 9, 10, 10).check().unwrap_err().code(),
            SK_ERR_BAD_ARGUMENT
        );
        // SAFETY: 90 < 100 = data.len(): an in-bounds element of `data`.
        let last_row = unsafe { p.add(90) };
        assert!(RowsBuf::new("x", last_row, -10, 10, 10).check().is_ok());
        assert_eq!(
            RowsBuf::new("x", p, isize::MAX, 3, 1)
                .check()
                .unwrap_err()
                .code(),
            SK_ERR_LENGTH
        );
        assert!(RowsBuf::new("x", std::ptr::null::<f32>(), 4, 0, 4)
            .check()
            .is_ok());
        // SAFETY: `RowsBuf::check` passes for 3 rows of 0 columns (ld = 10 >= cols, empty block),
        // the `view` precondition, and their span is 0 elements: the view touches no memory.
        let v = unsafe { RowsBuf::new("x", p, 10, 3, 0).view() };
        assert_eq!(v.rows(), 3);
        assert_eq!(v.row(2).len(), 0);
    }
}
