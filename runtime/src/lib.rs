//! Runtime of the generated RUCKUS One client.
//!
//! The generated crate describes every endpoint as a static [`Operation`]
//! and calls it through a [`Request`]; this crate does the rest:
//!
//! - **Configuration** ([`Config`], [`Region`], [`Credentials`]): regional
//!   hosts, base URL and prefix overrides for tests and proxies, timeouts,
//!   [`RetryPolicy`], delegated tenant, maximum body size.
//! - **Authentication**: OAuth 2 client credentials. The access token is
//!   requested once, cached until shortly before it expires (60 s, or a
//!   tenth of its lifetime if less), shared by all clones of a [`Client`]
//!   and renewed by a single request however many calls need it at once. A
//!   `401` answer causes one renewal and one repetition of the call.
//!   Redirects from the token endpoint are errors, never followed.
//! - **Retries**: `429` and `423` always, `502`/`503`/`504`, timeouts and
//!   connection failures for idempotent methods, with exponential backoff
//!   and jitter, honouring `Retry-After` (seconds or HTTP date) up to
//!   [`RetryPolicy::max_retry_after`] (a longer demand returns the error at
//!   once).
//! - **Bounded waits and memory**: every call has a deadline
//!   ([`Config::call_timeout`], 120 s) covering the token request, all
//!   attempts (30 s each) and the waits between them; bodies are read in
//!   chunks up to [`Config::max_body_size`] (64 MiB; of error answers at
//!   most 1 MiB is kept).
//! - **Tenant ids** are checked (1 to 128 visible ASCII characters) before
//!   anything is sent ([`Error::InvalidTenantId`]).
//! - **Errors** ([`Error`], [`ApiError`], [`ErrorBody`]): status, request id,
//!   error body decoded as the operation's declared shape or any other known
//!   one, and the raw body.
//! - **Paging** ([`Request::pages`], [`paging::pages`]).
//! - **Asynchronous writes** ([`Request::send_and_wait`], [`wait_for_activity`],
//!   [`wait_for_activity_as`]).
//! - **Raw requests** ([`RawRequest`]) for endpoints the generated client
//!   lacks, through the same authentication, retries and errors.
//!
//! The client secret and the access token never appear in `Debug` or
//! `Display` output or in error messages. When the service echoes one in an
//! answer kept by an error (as is, JSON-escaped, percent- or form-encoded,
//! or as HTML character references), it is replaced by `***` in the whole
//! body before anything is shortened; of the token endpoint's error answers
//! only the OAuth `error` and `error_description` (or the start of a body
//! that has none) are shown.
//!
//! # Contract with generated code
//!
//! The generated crate names the following items by their crate-root paths;
//! those paths, their spelling and the struct-literal field names of the
//! static descriptions must not change (a rename keeps a re-export under the
//! old name).
//!
//! - For generated code, not for application code: the static descriptions
//!   [`Api`], [`Hosts`], [`AuthSettings`], [`ApiAuth`], [`Operation`],
//!   [`MediaTypes`], [`Method`], [`ErrorFamily`], [`Paging`], [`PageStyle`];
//!   [`Request`] ([`Request::new`] and the methods `tenant`, `query`,
//!   `header`, `json`, `form`, `multipart`, `binary`, `version`, `pages`,
//!   `send_json`, `send_bytes`, `send_text`, `send_empty`, `send_and_wait`);
//!   [`wait_for_activity`], [`wait_for_activity_as`].
//! - Also application API (the generated crate wraps, returns or re-exports
//!   them): [`Client`] (`Client::new`), [`Config`], [`Credentials`],
//!   [`Region`], [`RetryPolicy`], [`Secret`], [`Error`], [`Pages`],
//!   [`Multipart`], [`UnknownValue`], [`WaitOptions`].
//!
//! Application API only: [`RawRequest`], [`ApiError`], [`DecodeError`],
//! [`ActivityError`], [`ErrorBody`] and its body types, [`RawResponse`].
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod activity;
mod auth;
mod body;
mod client;
mod config;
mod deadline;
mod enums;
mod error;
mod error_body;
mod execute;
mod mask;
mod multipart;
mod operation;
pub mod paging;
mod path;
mod raw;
mod request;
mod response;
mod retry;
mod secret;

// Contract with generated code: items the generated crate uses; not for
// application code. Their crate-root paths must not change.
pub use activity::{wait_for_activity, wait_for_activity_as};
pub use operation::{
    Api, ApiAuth, AuthSettings, ErrorFamily, Hosts, MediaTypes, Method, Operation,
};
pub use paging::{PageStyle, Paging};
pub use request::Request;

// Also part of that contract, and application API too: the generated crate
// wraps, returns or re-exports them.
pub use activity::WaitOptions;
pub use client::Client;
pub use config::{Config, Credentials, DEFAULT_MAX_BODY_SIZE, MAX_ERROR_BODY_SIZE, Region};
pub use enums::UnknownValue;
pub use error::Error;
pub use multipart::Multipart;
pub use paging::Pages;
pub use retry::RetryPolicy;
pub use secret::Secret;

// Application API only.
pub use error::{ActivityError, ApiError, DecodeError};
pub use error_body::{
    ErrorBody, ErrorDetail, ErrorObjectBody, ErrorsArrayBody, ErrorsMapBody, FlatObjectBody,
    PortalBody, StatusMessageBody,
};
pub use futures_util::Stream;
pub use raw::RawRequest;
pub use response::RawResponse;
