//! Contiguous buffers: a caller's `(pointer, length)` checked for NULL, alignment and size
//! ([`Buf`]), how an input relates to an output ([`alias`]), scalar out-parameters and C `int`
//! lengths.

use crate::error::{SkError, SkResult};
use crate::kernels::Src;
use std::mem::{align_of, size_of};

fn type_label<T>() -> &'static str {
    let full = std::any::type_name::<T>();
    match full {
        "f32" => "float",
        "f64" => "double",
        "i16" => "int16_t",
        "i32" => "int32_t",
        "u8" => "uint8_t",
        _ => full.rsplit("::").next().unwrap_or(full),
    }
}

/// A caller's buffer description: name (for messages), pointer, element count.
#[derive(Clone, Copy)]
pub(crate) struct Buf<T> {
    pub name: &'static str,
    pub ptr: *const T,
    pub len: usize,
}

impl<T> Buf<T> {
    #[inline(always)]
    pub fn new(name: &'static str, ptr: *const T, len: usize) -> Self {
        Buf { name, ptr, len }
    }
    #[inline(always)]
    pub fn out(name: &'static str, ptr: *mut T, len: usize) -> Self {
        Buf {
            name,
            ptr: ptr as *const T,
            len,
        }
    }

    /// Every rule a pointer must meet before a slice may be built over it: non-NULL unless the
    /// length is 0, aligned for `T`, byte size within `isize`, range not wrapping the address
    /// space. A zero-length buffer may be NULL or any pointer and is never dereferenced.
    ///
    /// The rules are tested together first (a few compares, inlined into the caller); only a
    /// buffer that breaks one goes to [`Buf::refuse`], out of line, to find which and say so.
    #[inline(always)]
    pub fn check(&self) -> SkResult<()> {
        let addr = self.ptr as usize;
        let ok = self.len == 0
            || (addr != 0
                && addr.is_multiple_of(align_of::<T>())
                // bytes within isize, and the range does not wrap (for T of size 0: any length)
                && (size_of::<T>() == 0 || self.len <= (isize::MAX as usize) / size_of::<T>())
                && addr.checked_add(self.len * size_of::<T>()).is_some());
        if ok {
            Ok(())
        } else {
            Err(self.refuse())
        }
    }

    /// The error of a buffer that [`Buf::check`] refused, by the first rule it breaks (NULL,
    /// size, alignment, end of the address space, in that order).
    #[cold]
    #[inline(never)]
    fn refuse(&self) -> SkError {
        if self.ptr.is_null() {
            return SkError::NullPointer(format!(
                "argument {} is NULL but n = {}",
                self.name, self.len
            ));
        }
        let bytes = self.len.checked_mul(size_of::<T>());
        let Some(bytes) = bytes.filter(|b| *b <= isize::MAX as usize) else {
            return SkError::Length(format!(
                "argument {}: n = {} elements of {} is more than the address space can hold",
                self.name,
                self.len,
                type_label::<T>()
            ));
        };
        let addr = self.ptr as usize;
        if !addr.is_multiple_of(align_of::<T>()) {
            return SkError::Misaligned(format!(
                "argument {} = {:#x} is not aligned to {} bytes as {} requires",
                self.name,
                addr,
                align_of::<T>(),
                type_label::<T>()
            ));
        }
        debug_assert!(addr.checked_add(bytes).is_none());
        SkError::Length(format!(
            "argument {}: {} elements from {:#x} run past the end of the address space",
            self.name, self.len, addr
        ))
    }

    #[inline(always)]
    fn byte_range(&self) -> (usize, usize) {
        let start = self.ptr as usize;
        (start, start + self.len * size_of::<T>())
    }

    /// Whether two checked buffers share at least one byte.
    #[inline(always)]
    pub fn overlaps<U>(&self, other: &Buf<U>) -> bool {
        if self.len == 0 || other.len == 0 {
            return false;
        }
        let (a0, a1) = self.byte_range();
        let (b0, b1) = other.byte_range();
        a0 < b1 && b0 < a1
    }

    /// Whether this buffer is exactly `other` (same start, same length).
    #[inline(always)]
    pub fn is_same<U>(&self, other: &Buf<U>) -> bool {
        self.len > 0
            && std::ptr::eq(self.ptr.cast::<u8>(), other.ptr.cast::<u8>())
            && self.len * size_of::<T>() == other.len * size_of::<U>()
    }

    /// # Safety
    /// `check()` passed and the caller guarantees `len` readable elements at `ptr` that no one
    /// writes during the borrow.
    #[inline(always)]
    pub unsafe fn slice<'a>(&self) -> &'a [T] {
        if self.len == 0 {
            &[]
        } else {
            // SAFETY: non-null, aligned, size within isize (check), valid per the caller.
            unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
        }
    }

    /// # Safety
    /// As [`Buf::slice`], plus the memory is writable and not aliased by any other live slice.
    #[inline(always)]
    pub unsafe fn slice_mut<'a>(&self) -> &'a mut [T] {
        if self.len == 0 {
            &mut []
        } else {
            // SAFETY: as above; exclusivity is established by the caller's alias checks.
            unsafe { std::slice::from_raw_parts_mut(self.ptr as *mut T, self.len) }
        }
    }
}

/// How an input relates to an output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Alias {
    /// No shared byte.
    Distinct,
    /// Exactly the same buffer (in place).
    Same,
}

/// Classifies `input` against `output`: distinct, exactly the same (allowed only when
/// `in_place_ok`), or an `SK_ERR_OVERLAP` error for any partial overlap.
#[inline(always)]
pub(crate) fn alias<T, U>(input: &Buf<T>, output: &Buf<U>, in_place_ok: bool) -> SkResult<Alias> {
    if !input.overlaps(output) {
        return Ok(Alias::Distinct);
    }
    if in_place_ok && input.is_same(output) {
        return Ok(Alias::Same);
    }
    Err(overlap_error(input, output, in_place_ok))
}

/// The error of a partial overlap (or of any overlap when `in_place_ok` is false).
#[cold]
#[inline(never)]
fn overlap_error<T, U>(input: &Buf<T>, output: &Buf<U>, in_place_ok: bool) -> SkError {
    SkError::Overlap(format!(
        "output {} [{:#x}, +{} elements) overlaps input {} [{:#x}, +{} elements){}",
        output.name,
        output.ptr as usize,
        output.len,
        input.name,
        input.ptr as usize,
        input.len,
        if in_place_ok {
            "; only an exact alias (same pointer, same length) is allowed"
        } else {
            "; this function does not work in place"
        }
    ))
}

/// The one rule for a capacity argument: `cap` elements of `T` at `ptr`, of which a call may write
/// fewer, are the buffer the caller describes, and that whole buffer must pass [`Buf::check`]
/// (NULL only when `cap` is 0, aligned, at most `isize::MAX` bytes, not past the end of the
/// address space) before the call compares `cap` with what it needs. A capacity beyond the
/// address space (`2^62` floats, `SIZE_MAX`) is therefore `SK_ERR_LENGTH`, never taken as
/// "room enough". Functions whose capacity is the length of the buffer they check anyway
/// (`Buf::new(name, ptr, cap).check()`) follow the same rule by construction.
pub(crate) fn check_capacity<T>(name: &'static str, ptr: *mut T, cap: usize) -> SkResult<()> {
    Buf::out(name, ptr, cap).check()
}

/// The one rule for a count a size query stores (`sk_*_size`, `sk_*_len`, `sk_*_frames`): it
/// must fit in `size_t` (`n` is `None` otherwise) and the smallest buffer it sizes, `n` items of
/// `item_bytes` bytes (`item` names them in the message, e.g. "frames of 2 floats"), must be
/// one that can exist: at most `isize::MAX` bytes, the limit [`Buf::check`] puts on every
/// buffer. A larger count is `SK_ERR_LENGTH`, never stored (and never saturated). A count of
/// `SIZE_MAX` may stand for a larger one that was capped; the message then says "at least".
/// `what` and `item` are any `Display`, typically `format_args!(…)`: the message text is
/// formatted only on error, so a size query that succeeds allocates nothing.
pub(crate) fn size_result(
    what: impl std::fmt::Display,
    n: Option<usize>,
    item_bytes: usize,
    item: impl std::fmt::Display,
) -> SkResult<usize> {
    let Some(n) = n else {
        return Err(SkError::Length(format!("{what} does not fit in size_t")));
    };
    let bytes = n as u128 * item_bytes as u128;
    if bytes > isize::MAX as u128 {
        let at_least = if n == usize::MAX { "at least " } else { "" };
        return Err(SkError::Length(format!(
            "{what} is {at_least}{n} {item} ({at_least}{bytes} bytes), more than the address \
             space can hold (at most {} bytes)",
            isize::MAX
        )));
    }
    Ok(n)
}

/// Checks a scalar out-parameter (non-NULL, aligned).
pub(crate) fn check_out_scalar<T>(name: &'static str, p: *mut T) -> SkResult<()> {
    if p.is_null() {
        return Err(SkError::NullPointer(format!(
            "argument {name} is NULL; it must point to where the result is written"
        )));
    }
    Buf::out(name, p, 1).check()
}

/// Converts a C `int` length (the seed functions' signature) to `usize`.
pub(crate) fn int_len(name: &'static str, n: libc::c_int) -> SkResult<usize> {
    usize::try_from(n).map_err(|_| SkError::Length(format!("{name} = {n} is negative")))
}

/// A validated input/output pair of the same extent, in place allowed (exactly the same
/// buffer): the source ([`Src::Dst`] in place) and the output slice.
///
/// # Safety
/// The buffers must be valid for their extents.
#[inline(always)]
pub(crate) unsafe fn io<'a, T>(x: Buf<T>, y: Buf<T>) -> SkResult<(Src<'a, T>, &'a mut [T])> {
    x.check()?;
    y.check()?;
    let src = match alias(&x, &y, true)? {
        Alias::Same => Src::Dst,
        // SAFETY: validated; disjoint from y.
        Alias::Distinct => Src::Slice(unsafe { x.slice() }),
    };
    // SAFETY: validated; the only mutable view, disjoint from x unless exactly equal (Src::Dst).
    Ok((src, unsafe { y.slice_mut() }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::*;

    /// The rules of `Buf::check` one by one, in order, as first written (the reference for
    /// the combined test that `check` runs first).
    fn check_reference<T>(b: &Buf<T>) -> SkResult<()> {
        if b.len == 0 {
            return Ok(());
        }
        if b.ptr.is_null() {
            return Err(SkError::NullPointer(format!(
                "argument {} is NULL but n = {}",
                b.name, b.len
            )));
        }
        let bytes = b
            .len
            .checked_mul(size_of::<T>())
            .filter(|v| *v <= isize::MAX as usize)
            .ok_or_else(|| {
                SkError::Length(format!(
                    "argument {}: n = {} elements of {} is more than the address space can hold",
                    b.name,
                    b.len,
                    type_label::<T>()
                ))
            })?;
        let addr = b.ptr as usize;
        if !addr.is_multiple_of(align_of::<T>()) {
            return Err(SkError::Misaligned(format!(
                "argument {} = {:#x} is not aligned to {} bytes as {} requires",
                b.name,
                addr,
                align_of::<T>(),
                type_label::<T>()
            )));
        }
        if addr.checked_add(bytes).is_none() {
            return Err(SkError::Length(format!(
                "argument {}: {} elements from {:#x} run past the end of the address space",
                b.name, b.len, addr
            )));
        }
        Ok(())
    }

    fn check_grid<T>() {
        let m = isize::MAX as usize / size_of::<T>();
        let addrs = [
            0usize,
            1,
            8,
            0x1000,
            0x1003,
            usize::MAX - 15,
            usize::MAX - 7,
            usize::MAX - 2,
            usize::MAX / 2 + 8,
        ];
        let lens = [0usize, 1, 2, 3, m - 1, m, m + 1, usize::MAX / 2, usize::MAX];
        for a in addrs {
            for n in lens {
                let b = Buf::new("x", a as *const T, n);
                assert_eq!(b.check(), check_reference(&b), "addr {a:#x} n {n}");
            }
        }
    }

    #[test]
    fn combined_check_equals_the_rules_one_by_one() {
        check_grid::<u8>();
        check_grid::<i16>();
        check_grid::<f32>();
        check_grid::<f64>();
    }

    #[test]
    fn pointer_rules() {
        let data = [0f32; 8];
        let p = data.as_ptr();
        assert!(Buf::new("a", std::ptr::null::<f32>(), 0).check().is_ok());
        assert_eq!(
            Buf::new("a", std::ptr::null::<f32>(), 3).check(),
            Err(SkError::NullPointer("argument a is NULL but n = 3".into()))
        );
        let mis = (p as usize + 1) as *const f32;
        assert_eq!(
            Buf::new("x", mis, 2).check().unwrap_err().code(),
            SK_ERR_MISALIGNED
        );
        assert!(Buf::new("x", mis, 0).check().is_ok());
        assert_eq!(
            Buf::new("x", p, usize::MAX).check().unwrap_err().code(),
            SK_ERR_LENGTH
        );
        assert_eq!(
            Buf::new("x", p, isize::MAX as usize / 4 + 1)
                .check()
                .unwrap_err()
                .code(),
            SK_ERR_LENGTH
        );
        let high = (usize::MAX - 7) as *const f32;
        assert_eq!(
            Buf::new("x", high, 4).check().unwrap_err().code(),
            SK_ERR_LENGTH
        );
        assert!(Buf::new("x", p, 8).check().is_ok());
    }

    #[test]
    fn alias_rules() {
        let data = [0f64; 16];
        let p = data.as_ptr();
        let a = Buf::new("a", p, 8);
        let same = Buf::new("y", p, 8);
        // SAFETY: `data` holds 16 doubles, so `p + 1` and `p + 8` stay inside it.
        let shifted = Buf::new("y", unsafe { p.add(1) }, 8);
        // SAFETY: as above.
        let after = Buf::new("y", unsafe { p.add(8) }, 8);
        let shorter = Buf::new("y", p, 4);
        assert_eq!(alias(&a, &same, true), Ok(Alias::Same));
        assert_eq!(alias(&a, &same, false).unwrap_err().code(), SK_ERR_OVERLAP);
        assert_eq!(
            alias(&a, &shifted, true).unwrap_err().code(),
            SK_ERR_OVERLAP
        );
        assert_eq!(
            alias(&a, &shorter, true).unwrap_err().code(),
            SK_ERR_OVERLAP
        );
        assert_eq!(alias(&a, &after, true), Ok(Alias::Distinct));
        assert_eq!(
            alias(&Buf::new("a", p, 0), &same, false),
            Ok(Alias::Distinct)
        );
    }

    #[test]
    fn out_scalar_messages_do_not_invent_a_length() {
        let e = check_out_scalar("out", std::ptr::null_mut::<f32>()).unwrap_err();
        assert_eq!(
            e,
            SkError::NullPointer(
                "argument out is NULL; it must point to where the result is written".into()
            )
        );
        let mut v = [0u8; 8];
        let mis = (v.as_mut_ptr() as usize | 1) as *mut f64;
        assert_eq!(
            check_out_scalar("out", mis).unwrap_err().code(),
            SK_ERR_MISALIGNED
        );
    }

    #[test]
    fn size_results_must_fit_the_address_space() {
        assert_eq!(size_result("n", Some(0), 4, "floats"), Ok(0));
        let max4 = isize::MAX as usize / 4;
        assert_eq!(size_result("n", Some(max4), 4, "floats"), Ok(max4));
        assert_eq!(
            size_result("the output size", Some(max4 + 1), 4, "floats"),
            Err(SkError::Length(format!(
                "the output size is {} floats ({} bytes), more than the address space can hold \
                 (at most 9223372036854775807 bytes)",
                max4 + 1,
                (max4 + 1) * 4
            )))
        );
        // a frame of 2 doubles: 16 bytes
        let max16 = isize::MAX as usize / 16;
        assert_eq!(size_result("f", Some(max16), 16, "frames"), Ok(max16));
        assert_eq!(
            size_result("f", Some(max16 + 1), 16, "frames")
                .unwrap_err()
                .code(),
            SK_ERR_LENGTH
        );
        // SIZE_MAX may be a capped count: "at least"
        let e = size_result("the output size", Some(usize::MAX), 4, "frames of 1 float");
        assert_eq!(
            e,
            Err(SkError::Length(
                "the output size is at least 18446744073709551615 frames of 1 float (at least \
                 73786976294838206460 bytes), more than the address space can hold (at most \
                 9223372036854775807 bytes)"
                    .into()
            ))
        );
        assert_eq!(
            size_result("the output size", None, 4, "floats"),
            Err(SkError::Length(
                "the output size does not fit in size_t".into()
            ))
        );
    }

    #[test]
    fn capacities_follow_the_buffer_rule() {
        let mut data = [0f32; 8];
        let p = data.as_mut_ptr();
        assert!(check_capacity("y", p, 8).is_ok());
        // a capacity larger than what is used is fine, one beyond the address space is not
        assert!(check_capacity("y", p, isize::MAX as usize / 4 - (p as usize)).is_ok());
        for cap in [1usize << 62, usize::MAX, isize::MAX as usize / 4 + 1] {
            assert_eq!(
                check_capacity("y", p, cap),
                Err(SkError::Length(format!(
                    "argument y: n = {cap} elements of float is more than the address space can \
                     hold"
                )))
            );
        }
        assert!(check_capacity("y", std::ptr::null_mut::<f32>(), 0).is_ok());
        assert_eq!(
            check_capacity("y", std::ptr::null_mut::<f32>(), 3)
                .unwrap_err()
                .code(),
            SK_ERR_NULL_POINTER
        );
    }

    #[test]
    fn int_len_rejects_negative() {
        assert_eq!(int_len("len", 5), Ok(5));
        assert_eq!(
            int_len("len", -1),
            Err(SkError::Length("len = -1 is negative".into()))
        );
    }
}
