//! The validation module: the boundary every exported function runs inside, and every rule an
//! argument is checked against, each with its one message. Nothing here writes to a caller's
//! buffer; outputs are only touched by the core after every check has passed.
//!
//! - [`boundary`]: the panic-catching macro [`ffi_boundary!`] and the thread-local last-error
//!   message;
//! - [`buf`]: contiguous buffers (NULL, alignment, size), input/output aliasing, scalar
//!   out-parameters;
//! - [`strided`]: strided buffers and `(rows, cols)` blocks;
//! - [`channels`]: planar and interleaved multichannel layouts.

pub(crate) mod boundary;
pub(crate) mod buf;
pub(crate) mod channels;
pub(crate) mod strided;

#[cfg(test)]
pub(crate) use boundary::set_last_error;
pub(crate) use boundary::{ffi_boundary, run_status, run_value, with_last_error};
pub(crate) use buf::{
    alias, check_capacity, check_out_scalar, int_len, io, size_result, Alias, Buf,
};
pub(crate) use channels::{interleaved, planar};
pub(crate) use strided::{alias_strided, indexed, RowsBuf, SBuf};
