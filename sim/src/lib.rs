//! A stateful local simulator of the RUCKUS One APIs.

pub mod conform;
pub mod model;
pub mod schema;
