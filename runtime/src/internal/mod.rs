//! The runtime's contract with generated code: what the generated client (and the table-driven
//! callers, the command line and the MCP server) build requests from, and nothing an
//! application calls. It is hidden from the documentation so that the runtime's pages and the
//! client's show only the application's API; its items are reached by their paths under
//! `ruckus_one_runtime::internal`, which follow the runtime's version like any other path.
//!
//! - Static descriptions: [`Api`] (with its [`Hosts`] and [`ApiAuth`]), [`AuthSettings`],
//!   [`Service`], and per endpoint an [`Operation`] with its [`MediaTypes`] and
//!   [`ErrorFamily`]; a paged operation's [`Paging`] and [`PageStyle`]. Their struct-literal
//!   field names are part of the contract: generated code builds them in `static`
//!   initialisers. The limits they carry ([`RateLimit`](crate::RateLimit),
//!   [`TenantLimit`](crate::TenantLimit), [`LimitScope`](crate::LimitScope)) and the
//!   [`Method`](crate::Method) are application API too and stay at the crate root.
//! - [`Request`]: [`Request::new`] and its methods (`tenant`, `query`, `header`, `json`,
//!   `form`, `multipart`, `binary`, `version`, `pages`, `items`, the `send_*` family,
//!   `send_accepted`, `send_and_wait`, `timeout`, `attempt_timeout`, `retry`,
//!   `max_body_size`, `send_with_meta`), which the
//!   generated request builders wrap.
//! - [`wait_for_activity`], [`wait_for_activity_as`] and [`wait_all`], which take the activity
//!   operation's description and which the generated API clients wrap.
//! - [`object`] and [`union`]: what the `Serialize` and `Deserialize` of generated models and
//!   unions call.
//! - [`paging`]: the page stream under [`Request::pages`] and the [`Page`](paging::Page) trait.
//! - `described` (feature `catalog`): the same descriptions built at run time from the
//!   operation catalog, for callers that send an operation by its table entry.
//!
//! Application code does not name any of these; the types an application does name (the
//! client, its configuration, errors, [`Pages`](crate::Pages), [`Accepted`](crate::Accepted),
//! [`Response`](crate::Response), ...) are at the crate root.

#[cfg(feature = "catalog")]
pub mod described;
pub mod object;
pub mod union;

pub use crate::activity::{wait_for_activity, wait_for_activity_as};
pub use crate::bulk_wait::wait_all;
pub use crate::operation::{
    Api, ApiAuth, AuthSettings, ErrorFamily, Hosts, MediaTypes, Operation, Service,
};
pub use crate::paging::{PageStyle, Paging};
pub use crate::request::{Preview, Request};

/// The page stream generated paging is built on (see [`Request::pages`]).
pub mod paging {
    pub use crate::paging::{Page, PageStyle, Paging, fingerprint_of, pages};
}
