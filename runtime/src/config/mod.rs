//! Client configuration: credentials, region, URL overrides, timeouts.

mod credentials;
pub mod env;
mod from_env;
mod region;
mod settings;

pub use credentials::Credentials;
pub use region::Region;
pub use settings::{Config, DEFAULT_MAX_BODY_SIZE, MAX_ERROR_BODY_SIZE};

#[cfg(test)]
mod tests;
