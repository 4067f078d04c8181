//! Decoded error bodies of the shapes the services use.

mod decode;
mod shapes;

pub(crate) use decode::{decode, details_of_text};
pub use shapes::{
    ErrorBody, ErrorDetail, ErrorObjectBody, ErrorsArrayBody, ErrorsMapBody, FlatObjectBody,
    PortalBody, StatusMessageBody,
};

#[cfg(test)]
mod tests;
