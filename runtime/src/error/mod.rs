//! The error types returned by every call.

mod activity_error;
mod answer;
mod call_error;
mod text;

pub use activity_error::ActivityError;
pub use answer::{ApiError, DecodeError};
pub use call_error::Error;
pub(crate) use text::{one_line, snippet};

#[cfg(test)]
mod tests;
